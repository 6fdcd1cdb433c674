//! The one wrapper every feature calls a model through (ADR 0006). Per call it:
//! - fails fast while the model's circuit breaker ([`Breaker`]) is open, and records the outcome;
//! - sends heartbeats while the call blocks, when the feature asks for them;
//! - counts calls and tokens for the feature's report ([`Usage`]);
//! - writes exactly one log line (target `coachcore::llm`): request id, feature, stage, model,
//!   call number, token counts and durations (`waited_ms`: the time spent waiting for the shared
//!   model, see below), or the error; never user text.
//!
//! The `Coach`'s model is a [`SharedModel`]: one model for every feature, behind a fair queue
//! ([`QueuedModel`]). One call runs at a time; a call that arrives while the model is busy waits
//! for its turn in arrival order (a cancelled waiter leaves the queue at once with `Cancelled`).
//! The wait is reported as `waited_ms` in the call's log line.
//!
//! A feature creates one [`Metered`] per run (a message, an exercise, a workout) around the model
//! it was given, and passes it wherever a `&dyn LanguageModel` goes (e.g.
//! [`generate_validated`](super::structured::generate_validated)).

use std::cell::Cell;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Condvar, Mutex, OnceLock};
use std::time::{Duration, Instant};

use super::breaker::Breaker;
use super::{
    CancelToken, GenerationRequest, GenerationResult, LanguageModel, LlmError, LoadedModelInfo,
    ModelInfo, TokenListener,
};

/// A model as the `Coach` holds it: one model shared by every feature, behind its queue
/// ([`QueuedModel`]), with its circuit breaker (none when the app installed the model without
/// one) and what is known about it.
#[derive(Clone)]
pub struct SharedModel {
    /// The model (queued when made with [`SharedModel::queued`]).
    pub model: Arc<dyn LanguageModel>,
    /// Its breaker, shared by every feature that calls it.
    pub breaker: Option<Arc<Breaker>>,
    /// What the model is, for `model().info`.
    pub details: Option<LoadedModelInfo>,
}

impl SharedModel {
    /// `model` behind a new queue, with `breaker`; `details` default to what `model.info()` says.
    pub fn queued(
        model: Arc<dyn LanguageModel>,
        breaker: Option<Arc<Breaker>>,
        details: Option<LoadedModelInfo>,
    ) -> Self {
        // An app's `info` that throws (a panic through UniFFI) leaves the details unknown.
        let details = details.or_else(|| {
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| model.info()))
                .ok()
                .map(LoadedModelInfo::from_info)
        });
        SharedModel {
            model: Arc::new(QueuedModel::new(model)),
            breaker,
            details,
        }
    }

    /// `model` as given: no queue, no breaker (a model a Rust caller passes for one run).
    pub fn plain(model: Arc<dyn LanguageModel>) -> Self {
        SharedModel {
            model,
            breaker: None,
            details: None,
        }
    }

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

thread_local! {
    /// How long the last call on this thread waited in a [`QueuedModel`]'s queue, until
    /// [`Metered`] takes it for the call's log line. A thread-local because the queue sits inside
    /// the model (every path to the shared model passes it) while the log line is written by the
    /// wrapper around it, on the same thread.
    static QUEUE_WAIT_MS: Cell<Option<u64>> = const { Cell::new(None) };
}

/// Takes (and clears) the queue wait recorded on this thread.
fn take_queue_wait_ms() -> Option<u64> {
    QUEUE_WAIT_MS.with(Cell::take)
}

/// A model that runs one call at a time, in arrival order: the contract of the `Coach`'s shared
/// model (see the module documentation).
pub struct QueuedModel {
    inner: Arc<dyn LanguageModel>,
    state: Mutex<QueueState>,
    turn: Condvar,
}

#[derive(Default)]
struct QueueState {
    next_ticket: u64,
    waiting: VecDeque<u64>,
    busy: bool,
}

/// How often a waiting call checks its cancel token.
const QUEUE_POLL: Duration = Duration::from_millis(20);

impl QueuedModel {
    /// `inner` behind an empty queue.
    pub fn new(inner: Arc<dyn LanguageModel>) -> Self {
        QueuedModel {
            inner,
            state: Mutex::new(QueueState::default()),
            turn: Condvar::new(),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, QueueState> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Waits for this call's turn (or its cancellation) and marks the model busy.
    fn enter(&self, cancel: &CancelToken) -> Result<QueueTurn<'_>, LlmError> {
        let mut state = self.lock();
        let ticket = state.next_ticket;
        state.next_ticket += 1;
        state.waiting.push_back(ticket);
        loop {
            if !state.busy && state.waiting.front() == Some(&ticket) {
                state.waiting.pop_front();
                state.busy = true;
                return Ok(QueueTurn(self));
            }
            if cancel.is_cancelled() {
                state.waiting.retain(|t| *t != ticket);
                self.turn.notify_all();
                return Err(LlmError::Cancelled);
            }
            state = self
                .turn
                .wait_timeout(state, QUEUE_POLL)
                .unwrap_or_else(|p| p.into_inner())
                .0;
        }
    }
}

/// The running call's hold on the model; released when dropped (also by a panic).
struct QueueTurn<'a>(&'a QueuedModel);

impl Drop for QueueTurn<'_> {
    fn drop(&mut self) {
        self.0.lock().busy = false;
        self.0.turn.notify_all();
    }
}

impl LanguageModel for QueuedModel {
    fn info(&self) -> ModelInfo {
        self.inner.info()
    }

    fn generate(
        &self,
        request: GenerationRequest,
        listener: Option<Arc<dyn TokenListener>>,
        cancel: Arc<CancelToken>,
    ) -> Result<GenerationResult, LlmError> {
        let started = Instant::now();
        let turn = self.enter(&cancel);
        QUEUE_WAIT_MS.with(|w| w.set(Some(started.elapsed().as_millis() as u64)));
        let _turn = turn?;
        self.inner.generate(request, listener, cancel)
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
        take_queue_wait_ms();
        let out = self.call(request, listener, cancel);
        let ms = started.elapsed().as_millis();
        let waited_ms = take_queue_wait_ms().unwrap_or(0);
        let (request_id, feature) = (&self.request_id, self.feature);
        match &out {
            Ok(r) => {
                self.prompt_tokens
                    .fetch_add(r.prompt_tokens, Ordering::Relaxed);
                self.completion_tokens
                    .fetch_add(r.completion_tokens, Ordering::Relaxed);
                log::info!(target: "coachcore::llm",
                    "request={request_id} feature={feature} stage={stage} model={model} \
                     call={call} waited_ms={waited_ms} prompt_tokens={} completion_tokens={} \
                     prompt_ms={} generation_ms={} finish={:?} ms={ms}",
                    r.prompt_tokens, r.completion_tokens, r.prompt_ms, r.generation_ms, r.finish);
            }
            Err(e) => log::warn!(target: "coachcore::llm",
                "request={request_id} feature={feature} stage={stage} model={model} call={call} \
                 waited_ms={waited_ms} error={e} ms={ms}"),
        }
        out
    }
}

/// Runs `f`, calling `beat` every `every_ms` milliseconds until it returns (a scoped helper
/// thread; none after `f` returned).
fn with_heartbeat<T>(beat: &(dyn Fn() + Sync), every_ms: u64, f: impl FnOnce() -> T) -> T {
    let (stop, stopped) = mpsc::channel::<()>();
    std::thread::scope(|scope| {
        scope.spawn(move || {
            while let Err(RecvTimeoutError::Timeout) =
                stopped.recv_timeout(Duration::from_millis(every_ms))
            {
                beat();
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

#[cfg(test)]
mod queue_tests {
    use super::*;
    use crate::llm::{ChatMessage, ChatRole, FinishReason, Sampling};
    use std::sync::mpsc;

    /// A model whose calls block until released, reporting when each starts.
    struct Gate {
        started: Mutex<mpsc::Sender<u32>>,
        release: Mutex<mpsc::Receiver<()>>,
    }

    impl LanguageModel for Gate {
        fn info(&self) -> ModelInfo {
            ModelInfo {
                name: "gate".into(),
                context_tokens: 64,
                constrains_json_schema: false,
            }
        }

        fn generate(
            &self,
            request: GenerationRequest,
            _: Option<Arc<dyn TokenListener>>,
            _: Arc<CancelToken>,
        ) -> Result<GenerationResult, LlmError> {
            let _ = self.started.lock().unwrap().send(request.max_tokens);
            let _ = self.release.lock().unwrap().recv();
            Ok(GenerationResult {
                text: String::new(),
                finish: FinishReason::Stop,
                prompt_tokens: 1,
                completion_tokens: 0,
                prompt_ms: 0,
                generation_ms: 0,
            })
        }
    }

    fn req(id: u32) -> GenerationRequest {
        GenerationRequest {
            messages: vec![ChatMessage::new(ChatRole::User, "hi")],
            json_schema: None,
            sampling: Sampling::default(),
            max_tokens: id,
            timeout_ms: None,
        }
    }

    /// Blocks until `n` callers wait in the queue.
    fn wait_for_waiters(q: &QueuedModel, n: usize) {
        while q.lock().waiting.len() < n {
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    #[test]
    fn one_call_at_a_time_in_arrival_order_and_the_wait_is_measured() {
        let (started_tx, started) = mpsc::channel();
        let (release, release_rx) = mpsc::channel();
        let q = Arc::new(QueuedModel::new(Arc::new(Gate {
            started: Mutex::new(started_tx),
            release: Mutex::new(release_rx),
        })));
        let call = |id: u32| {
            let q = Arc::clone(&q);
            std::thread::spawn(move || {
                let shared = SharedModel::plain(q as Arc<dyn LanguageModel>);
                let m = shared.metered("test");
                m.generate(req(id), None, CancelToken::new()).unwrap();
                assert_eq!(m.usage().calls, 1);
            })
        };
        let first = call(1);
        assert_eq!(started.recv().unwrap(), 1);
        let second = call(2);
        wait_for_waiters(&q, 1);
        let third = call(3);
        wait_for_waiters(&q, 2);
        // A cancelled waiter leaves the queue at once without running.
        let cancel = CancelToken::new();
        cancel.cancel();
        let q2 = Arc::clone(&q);
        let out = std::thread::spawn(move || q2.generate(req(9), None, cancel))
            .join()
            .unwrap();
        assert_eq!(out.unwrap_err(), LlmError::Cancelled);
        assert_eq!(q.lock().waiting.len(), 2);
        // Only the running call has started; the others run in arrival order.
        assert!(started.try_recv().is_err());
        release.send(()).unwrap();
        assert_eq!(started.recv().unwrap(), 2);
        assert!(started.try_recv().is_err(), "one call at a time");
        release.send(()).unwrap();
        assert_eq!(started.recv().unwrap(), 3);
        release.send(()).unwrap();
        for t in [first, second, third] {
            t.join().unwrap();
        }
        assert!(!q.lock().busy);
    }

    #[test]
    fn the_wait_is_recorded_for_the_calling_thread() {
        let model = crate::llm::scripted::ScriptedModel::texts(["a"]);
        let q = QueuedModel::new(model);
        take_queue_wait_ms();
        q.generate(req(1), None, CancelToken::new()).unwrap();
        assert!(
            take_queue_wait_ms().is_some_and(|ms| ms < 1000),
            "an idle model: no real wait"
        );
        assert_eq!(take_queue_wait_ms(), None, "taken once");
    }
}

/// The circuit breaker (`breaker.rs`) as every model call meets it: through the metered wrapper.
#[cfg(test)]
mod breaker_tests {
    use std::sync::Arc;

    use crate::kernel::clock::FixedClock;
    use crate::llm::breaker::*;
    use crate::llm::metered::Metered;
    use crate::llm::scripted::{ScriptedModel, ScriptedReply};
    use crate::llm::LlmError;
    use crate::llm::{
        CancelToken, ChatMessage, ChatRole, GenerationRequest, LanguageModel, Sampling,
    };

    fn req() -> GenerationRequest {
        GenerationRequest {
            messages: vec![ChatMessage::new(ChatRole::User, "hi")],
            json_schema: None,
            sampling: Sampling::default(),
            max_tokens: 8,
            timeout_ms: None,
        }
    }

    fn fail() -> ScriptedReply {
        ScriptedReply::Fail(LlmError::Backend {
            detail: "boom".into(),
        })
    }

    #[test]
    fn opens_after_repeated_failures_and_recovers_after_the_cooldown() {
        let model = ScriptedModel::new([
            fail(),
            fail(),
            fail(),
            ScriptedReply::Text("ok".into()),
            fail(),
            ScriptedReply::Text("fine".into()),
        ]);
        let clock = Arc::new(FixedClock::new(0));
        let cfg = BreakerConfig {
            failure_threshold: 3,
            window_ms: 10_000,
            cooldown_ms: 5_000,
        };
        let b = Breaker::new(clock.clone(), cfg);
        let m = Metered::new(&*model, "test").with_breaker(Some(&b));
        let call = || m.generate(req(), None, CancelToken::new());
        for _ in 0..3 {
            assert!(matches!(call(), Err(LlmError::Backend { .. })));
            clock.advance_ms(1_000);
        }
        assert!(b.is_open());
        assert_eq!(
            call(),
            Err(LlmError::Unavailable {
                retry_after_ms: 4_000
            })
        );
        assert_eq!(model.remaining(), 3, "fails fast: the model is not called");
        clock.advance_ms(4_000);
        assert_eq!(
            call().unwrap().text,
            "ok",
            "half-open: one call goes through and closes it"
        );
        assert!(!b.is_open());
        // One failure does not reopen a closed breaker.
        assert!(matches!(call(), Err(LlmError::Backend { .. })));
        assert!(!b.is_open());
        assert_eq!(call().unwrap().text, "fine");
    }

    #[test]
    fn failures_outside_the_window_and_caller_errors_do_not_count() {
        let model = ScriptedModel::new([
            fail(),
            fail(),
            ScriptedReply::Fail(LlmError::Cancelled),
            ScriptedReply::Fail(LlmError::ContextOverflow {
                prompt_tokens: 10,
                context_tokens: 5,
                over_by: 5,
            }),
            fail(),
            fail(),
        ]);
        let clock = Arc::new(FixedClock::new(0));
        let b = Breaker::new(
            clock.clone(),
            BreakerConfig {
                failure_threshold: 3,
                window_ms: 10_000,
                cooldown_ms: 5_000,
            },
        );
        let m = Metered::new(&*model, "test").with_breaker(Some(&b));
        let call = || m.generate(req(), None, CancelToken::new());
        let _ = call();
        let _ = call();
        let _ = call();
        let _ = call();
        assert!(
            !b.is_open(),
            "cancelled and overflow are not the model's failures"
        );
        clock.advance_ms(10_000);
        let _ = call();
        assert!(!b.is_open(), "the first two fell out of the window");
        let _ = call();
        assert!(!b.is_open());
    }

    #[test]
    fn a_failed_trial_call_reopens_at_once() {
        let model = ScriptedModel::new([fail(), fail(), fail()]);
        let clock = Arc::new(FixedClock::new(0));
        let b = Breaker::new(
            clock.clone(),
            BreakerConfig {
                failure_threshold: 2,
                window_ms: 10_000,
                cooldown_ms: 5_000,
            },
        );
        let m = Metered::new(&*model, "test").with_breaker(Some(&b));
        let _ = m.generate(req(), None, CancelToken::new());
        let _ = m.generate(req(), None, CancelToken::new());
        assert!(b.is_open());
        clock.advance_ms(5_000);
        assert!(matches!(
            m.generate(req(), None, CancelToken::new()),
            Err(LlmError::Backend { .. })
        ));
        assert!(b.is_open());
    }
}
