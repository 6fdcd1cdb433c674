//! The circuit breaker's state: after `failure_threshold` failures within `window_ms`, calls fail
//! fast with [`LlmError::Unavailable`] (saying when to retry) for `cooldown_ms`. The first call
//! after the cooldown goes through; a success closes the breaker, a failure opens it again.
//!
//! Only failures that say something about the model count (backend errors, time-outs, unsupported
//! model); a cancellation, a prompt too long or a bad schema are the caller's and do not.
//!
//! A [`Breaker`] is not a model wrapper: it belongs to the model as the `Coach` holds it, shared by
//! every feature, and the one metered wrapper ([`super::metered::Metered`]) consults it around
//! each call.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use super::model::{GenerationResult, LlmError};
use crate::kernel::clock::Clock;

/// When the breaker opens and for how long.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BreakerConfig {
    /// Failures within the window that open the breaker.
    pub failure_threshold: u32,
    /// The window, in milliseconds.
    pub window_ms: i64,
    /// How long calls fail fast once open, in milliseconds.
    pub cooldown_ms: i64,
}

impl Default for BreakerConfig {
    fn default() -> Self {
        BreakerConfig {
            failure_threshold: 5,
            window_ms: 60_000,
            cooldown_ms: 30_000,
        }
    }
}

#[derive(Debug, Default)]
struct State {
    failures: VecDeque<i64>,
    open_until: Option<i64>,
}

/// The failure record of one model: whether calls may go through now.
pub struct Breaker {
    clock: Arc<dyn Clock>,
    config: BreakerConfig,
    state: Mutex<State>,
}

impl std::fmt::Debug for Breaker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Breaker")
            .field("config", &self.config)
            .field("open", &self.is_open())
            .finish()
    }
}

impl Breaker {
    /// A closed breaker.
    pub fn new(clock: Arc<dyn Clock>, config: BreakerConfig) -> Self {
        Breaker {
            clock,
            config,
            state: Mutex::default(),
        }
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Whether calls currently fail fast.
    pub fn is_open(&self) -> bool {
        self.state()
            .open_until
            .is_some_and(|until| self.clock.now_ms() < until)
    }

    /// `Ok` when a call may go through now, else `Unavailable` with the time left.
    pub fn admit(&self) -> Result<(), LlmError> {
        let now = self.clock.now_ms();
        match self.state().open_until {
            Some(until) if now < until => Err(LlmError::Unavailable {
                retry_after_ms: (until - now) as u64,
            }),
            _ => Ok(()),
        }
    }

    /// Records the outcome of a call that [`Breaker::admit`] let through.
    pub fn record(&self, result: &Result<GenerationResult, LlmError>) {
        let mut st = self.state();
        let now = self.clock.now_ms();
        match result {
            Ok(_) => {
                st.failures.clear();
                st.open_until = None;
            }
            Err(e) if counts(e) => {
                let half_open = st.open_until.is_some();
                st.failures.push_back(now);
                while st
                    .failures
                    .front()
                    .is_some_and(|t| now - t >= self.config.window_ms)
                {
                    st.failures.pop_front();
                }
                if half_open || st.failures.len() as u32 >= self.config.failure_threshold {
                    st.open_until = Some(now + self.config.cooldown_ms);
                    st.failures.clear();
                }
            }
            Err(_) => {}
        }
    }
}

fn counts(e: &LlmError) -> bool {
    matches!(
        e,
        LlmError::Backend { .. } | LlmError::TimedOut { .. } | LlmError::UnsupportedModel { .. }
    )
}
