//! The one wrapper every feature calls a model through (ADR 0006). Per call it:
//! - fails fast while the model's circuit breaker ([`Breaker`]) is open, and records the outcome;
//! - sends heartbeats while the call blocks, when the feature asks for them;
//! - counts calls and tokens for the feature's report ([`Usage`]);
//! - writes exactly one log line (target `coachcore::llm`): request id, feature, stage, model,
//!   call number, token counts and durations, or the error; never user text.
//!
//! A feature creates one [`Metered`] per run (a message, an exercise, a workout) around the model
//! it was given, and passes it wherever a `&dyn LanguageModel` goes (e.g.
//! [`generate_validated`](super::structured::generate_validated)).

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use super::breaker::Breaker;
use super::model::{
    CancelToken, GenerationRequest, GenerationResult, LanguageModel, LlmError, ModelInfo,
    TokenListener,
};

/// A model as the `Coach` holds it: one model shared by every feature, with its circuit breaker
/// (none when the app installed the model without one).
#[derive(Clone)]
pub struct SharedModel {
    /// The model.
    pub model: Arc<dyn LanguageModel>,
    /// Its breaker, shared by every feature that calls it.
    pub breaker: Option<Arc<Breaker>>,
}

impl SharedModel {
    /// The wrapper for one run of `feature`.
    pub fn metered(&self, feature: &'static str) -> Metered<'_> {
        Metered::new(&*self.model, feature).with_breaker(self.breaker.as_deref())
    }
}

impl std::fmt::Debug for SharedModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SharedModel")
            .field("model", &self.model.info().name)
            .field("breaker", &self.breaker)
            .finish()
    }
}

/// What a run's model calls cost.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Usage {
    /// Calls made (failed ones included).
    pub calls: u32,
    /// Prompt tokens of the calls that returned.
    pub prompt_tokens: u32,
    /// Generated tokens of the calls that returned.
    pub completion_tokens: u32,
}

/// A model as one feature run sees it: breaker, heartbeats, accounting and the log line.
pub struct Metered<'a> {
    inner: &'a dyn LanguageModel,
    breaker: Option<&'a Breaker>,
    feature: &'static str,
    request_id: String,
    stage: Mutex<&'static str>,
    heartbeat: Option<(&'a (dyn Fn() + Sync), u64)>,
    model_name: OnceLock<String>,
    calls: AtomicU32,
    prompt_tokens: AtomicU32,
    completion_tokens: AtomicU32,
}

impl<'a> Metered<'a> {
    /// Wraps `inner` for one run of `feature` (`"assistant"`, `"suggestions"`, ...), with no
    /// breaker, no heartbeats and request id `-`.
    pub fn new(inner: &'a dyn LanguageModel, feature: &'static str) -> Self {
        Metered {
            inner,
            breaker: None,
            feature,
            request_id: "-".into(),
            stage: Mutex::new("start"),
            heartbeat: None,
            model_name: OnceLock::new(),
            calls: AtomicU32::new(0),
            prompt_tokens: AtomicU32::new(0),
            completion_tokens: AtomicU32::new(0),
        }
    }

    /// The run's id, logged with every call.
    pub fn with_request_id(mut self, request_id: impl Into<String>) -> Self {
        self.request_id = request_id.into();
        self
    }

    /// Consults `breaker` (the model's, shared by every feature) around each call.
    pub fn with_breaker(mut self, breaker: Option<&'a Breaker>) -> Self {
        self.breaker = breaker;
        self
    }

    /// Calls `beat` every `every_ms` milliseconds while a call blocks (0: never).
    pub fn with_heartbeat(mut self, beat: &'a (dyn Fn() + Sync), every_ms: u64) -> Self {
        self.heartbeat = (every_ms > 0).then_some((beat, every_ms));
        self
    }

    /// Names the stage the next calls belong to, for the log.
    pub fn set_stage(&self, stage: &'static str) {
        *self.stage.lock().unwrap_or_else(|p| p.into_inner()) = stage;
    }

    /// The run's id.
    pub fn request_id(&self) -> &str {
        &self.request_id
    }

    /// What the calls so far cost.
    pub fn usage(&self) -> Usage {
        Usage {
            calls: self.calls.load(Ordering::Relaxed),
            prompt_tokens: self.prompt_tokens.load(Ordering::Relaxed),
            completion_tokens: self.completion_tokens.load(Ordering::Relaxed),
        }
    }

    fn call(
        &self,
        request: GenerationRequest,
        listener: Option<Arc<dyn TokenListener>>,
        cancel: Arc<CancelToken>,
    ) -> Result<GenerationResult, LlmError> {
        if let Some(b) = self.breaker {
            b.admit()?;
        }
        let out = match self.heartbeat {
            Some((beat, every_ms)) => with_heartbeat(beat, every_ms, || {
                self.inner.generate(request, listener, cancel)
            }),
            None => self.inner.generate(request, listener, cancel),
        };
        if let Some(b) = self.breaker {
            b.record(&out);
        }
        out
    }
}

impl std::fmt::Debug for Metered<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Metered")
            .field("feature", &self.feature)
            .field("request_id", &self.request_id)
            .field("usage", &self.usage())
            .finish_non_exhaustive()
    }
}

impl LanguageModel for Metered<'_> {
    fn info(&self) -> ModelInfo {
        self.inner.info()
    }

    fn generate(
        &self,
        request: GenerationRequest,
        listener: Option<Arc<dyn TokenListener>>,
        cancel: Arc<CancelToken>,
    ) -> Result<GenerationResult, LlmError> {
        let call = self.calls.fetch_add(1, Ordering::Relaxed) + 1;
        let stage = *self.stage.lock().unwrap_or_else(|p| p.into_inner());
        let model = self.model_name.get_or_init(|| self.inner.info().name);
        let started = Instant::now();
        let out = self.call(request, listener, cancel);
        let ms = started.elapsed().as_millis();
        let (request_id, feature) = (&self.request_id, self.feature);
        match &out {
            Ok(r) => {
                self.prompt_tokens
                    .fetch_add(r.prompt_tokens, Ordering::Relaxed);
                self.completion_tokens
                    .fetch_add(r.completion_tokens, Ordering::Relaxed);
                log::info!(target: "coachcore::llm",
                    "request={request_id} feature={feature} stage={stage} model={model} \
                     call={call} prompt_tokens={} completion_tokens={} prompt_ms={} \
                     generation_ms={} finish={:?} ms={ms}",
                    r.prompt_tokens, r.completion_tokens, r.prompt_ms, r.generation_ms, r.finish);
            }
            Err(e) => log::warn!(target: "coachcore::llm",
                "request={request_id} feature={feature} stage={stage} model={model} call={call} \
                 error={e} ms={ms}"),
        }
        out
    }
}

/// Runs `f`, calling `beat` every `every_ms` milliseconds until it returns (a scoped helper
/// thread; none after `f` returned).
fn with_heartbeat<T>(beat: &(dyn Fn() + Sync), every_ms: u64, f: impl FnOnce() -> T) -> T {
    let (stop, stopped) = mpsc::channel::<()>();
    std::thread::scope(|scope| {
        scope.spawn(move || loop {
            match stopped.recv_timeout(Duration::from_millis(every_ms)) {
                Err(RecvTimeoutError::Timeout) => beat(),
                _ => break,
            }
        });
        let out = f();
        drop(stop);
        out
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llm::scripted::{ScriptedModel, ScriptedReply};
    use crate::llm::{ChatMessage, ChatRole, Sampling};
    use std::sync::atomic::AtomicUsize;

    fn req() -> GenerationRequest {
        GenerationRequest {
            messages: vec![ChatMessage::new(ChatRole::User, "hi")],
            json_schema: None,
            sampling: Sampling::default(),
            max_tokens: 8,
            timeout_ms: None,
        }
    }

    #[test]
    fn counts_calls_and_the_tokens_of_answers() {
        let model = ScriptedModel::new([
            ScriptedReply::Text("one".into()),
            ScriptedReply::Fail(LlmError::Backend {
                detail: "boom".into(),
            }),
            ScriptedReply::Text("three".into()),
        ]);
        let m = Metered::new(&*model, "test").with_request_id("r1");
        let mut expected = Usage::default();
        for _ in 0..3 {
            if let Ok(r) = m.generate(req(), None, CancelToken::new()) {
                expected.prompt_tokens += r.prompt_tokens;
                expected.completion_tokens += r.completion_tokens;
            }
        }
        expected.calls = 3;
        assert_eq!(m.usage(), expected);
        assert!(expected.completion_tokens > 0);
        assert_eq!(m.request_id(), "r1");
    }

    #[test]
    fn heartbeats_stop_when_the_call_returns() {
        let beats = AtomicUsize::new(0);
        // The call lasts until the first heartbeat arrived (at most 10 s, however busy the machine).
        let out = with_heartbeat(
            &|| {
                beats.fetch_add(1, Ordering::SeqCst);
            },
            5,
            || {
                let started = std::time::Instant::now();
                while beats.load(Ordering::SeqCst) == 0
                    && started.elapsed() < Duration::from_secs(10)
                {
                    std::thread::sleep(Duration::from_millis(1));
                }
                7
            },
        );
        assert_eq!(out, 7);
        let n = beats.load(Ordering::SeqCst);
        assert!(n >= 1, "a heartbeat while the call runs");
        std::thread::sleep(Duration::from_millis(30));
        assert_eq!(beats.load(Ordering::SeqCst), n, "none after the call");
        // Period 0: no heartbeat thread at all.
        let quiet = AtomicUsize::new(0);
        let beat = || {
            quiet.fetch_add(1, Ordering::SeqCst);
        };
        let model = ScriptedModel::texts(["ok"]);
        let m = Metered::new(&*model, "test").with_heartbeat(&beat, 0);
        m.generate(req(), None, CancelToken::new()).unwrap();
        assert_eq!(quiet.load(Ordering::SeqCst), 0);
    }
}
