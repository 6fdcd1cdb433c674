//! The async form of the model interface an app implements: [`AsyncLanguageModel`] (Swift
//! `async`, Kotlin `suspend`, Python `async def`), for platform models whose own API is async
//! (Apple's FoundationModels, Android's Gemini Nano through ML Kit), so bridging them blocks no
//! thread of the app. [`AsyncModelAdapter`] makes it a [`LanguageModel`] like any other: the
//! library's features, its validation and repairs, the queue and the circuit breaker see no
//! difference.
//!
//! How a call runs: the library's thread that runs the feature starts the app's call (UniFFI
//! starts a Swift `Task`, a Kotlin coroutine on `GlobalScope`, or a Python coroutine on the event
//! loop given to `uniffi_set_event_loop`) and waits for it, parked, waking every
//! [`CANCEL_POLL`] to look at the call's [`CancelToken`] and time limit. When either ends the
//! call, the library drops its side of the call: UniFFI then cancels the app's task (Swift
//! `Task.cancel()`, Kotlin `Job.cancel()`, Python `Task.cancel()`), and the library's call
//! returns `Cancelled` (or `TimedOut`) at once, without waiting for the app's task to stop;
//! whatever that task returns afterwards is dropped.

use std::future::Future;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};
use std::thread::Thread;
use std::time::{Duration, Instant};

use super::model::{GenerationRequest, GenerationResult, LlmError, ModelInfo};
use super::{CancelToken, LanguageModel, TokenListener};

/// How often a waiting call looks at its cancel token and time limit.
pub const CANCEL_POLL: Duration = Duration::from_millis(10);

/// A language model with an async `generate`, implemented by the app (Swift `async throws`,
/// Kotlin `suspend`, Python `async def`) to plug in a platform model whose API is async. Install
/// it with `coach.model().setAsyncModel(model)`; the library validates and repairs whatever it
/// returns, as for the synchronous `LanguageModel`.
///
/// Cancellation: when the library's call is cancelled (the app cancelled the task, coroutine or
/// stream that asked for it, or dropped its handle) or runs past the request's `timeoutMs`, the
/// library stops waiting at once and UniFFI cancels the app's call: in Swift the `Task` running
/// `generate` is cancelled (`Task.isCancelled`, and awaits such as `Task.sleep` or
/// FoundationModels' `respond` throw `CancellationError`); in Kotlin the coroutine gets a
/// `CancellationException` at its next suspension point; in Python the asyncio task is cancelled
/// (`CancelledError` at its next `await`). What `generate` returns or throws after that is
/// ignored. Cooperate by letting the cancellation propagate.
///
/// Python: the library calls `generate` from its own threads, which have no event loop: call
/// `uniffi_set_event_loop(loop)` (in the generated module) with a running loop first.
#[uniffi::export(with_foreign)]
#[async_trait::async_trait]
pub trait AsyncLanguageModel: Send + Sync {
    /// What the model is. Called from a library thread (not async: return what is known).
    fn info(&self) -> ModelInfo;

    /// Generates one completion. Stream pieces of text to `listener` if given (the assistant
    /// shows them as the reply is written); a model that cannot stream returns the whole text and
    /// the library passes it on as one piece. Throw `LlmError` (any other error becomes
    /// `Backend`).
    ///
    /// A request with `maxTokens` 0 is a prewarm (as for `LanguageModel`): return an empty result
    /// at once unless the model can read the prompt ahead.
    async fn generate(
        &self,
        request: GenerationRequest,
        listener: Option<Arc<dyn TokenListener>>,
    ) -> Result<GenerationResult, LlmError>;
}

/// An [`AsyncLanguageModel`] as a [`LanguageModel`]: `generate` blocks the library's thread
/// (never the app's) until the app's call finishes, is cancelled or times out (see the module
/// documentation).
pub struct AsyncModelAdapter {
    inner: Arc<dyn AsyncLanguageModel>,
}

impl AsyncModelAdapter {
    /// Wraps the app's model.
    pub fn new(inner: Arc<dyn AsyncLanguageModel>) -> Self {
        AsyncModelAdapter { inner }
    }
}

impl LanguageModel for AsyncModelAdapter {
    fn info(&self) -> ModelInfo {
        self.inner.info()
    }

    fn generate(
        &self,
        request: GenerationRequest,
        listener: Option<Arc<dyn TokenListener>>,
        cancel: Arc<CancelToken>,
    ) -> Result<GenerationResult, LlmError> {
        if cancel.is_cancelled() {
            return Err(LlmError::Cancelled);
        }
        let limit = request
            .timeout_ms
            .map(|ms| (Instant::now() + Duration::from_millis(ms), ms));
        let call = self.inner.generate(request, listener);
        wait_for(call, &cancel, limit)
    }
}

/// Wakes the thread waiting in [`wait_for`].
struct Unpark {
    thread: Thread,
    woken: AtomicBool,
}

impl Wake for Unpark {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        self.woken.store(true, Ordering::Release);
        self.thread.unpark();
    }
}

/// Drives `call` on this thread until it is ready, `cancel` is set or `limit` (the deadline and
/// its milliseconds) passes; dropping `call` in the last two cases cancels the app's task. A
/// panic while polling (a callback failing inside UniFFI) is a `Backend` error.
fn wait_for<T>(
    mut call: Pin<Box<dyn Future<Output = Result<T, LlmError>> + Send + '_>>,
    cancel: &CancelToken,
    limit: Option<(Instant, u64)>,
) -> Result<T, LlmError> {
    let unpark = Arc::new(Unpark {
        thread: std::thread::current(),
        woken: AtomicBool::new(true),
    });
    let waker = Waker::from(Arc::clone(&unpark));
    let mut cx = Context::from_waker(&waker);
    loop {
        if unpark.woken.swap(false, Ordering::AcqRel) {
            match catch_unwind(AssertUnwindSafe(|| call.as_mut().poll(&mut cx))) {
                Ok(Poll::Ready(out)) => return out,
                Ok(Poll::Pending) => {}
                Err(_) => {
                    return Err(LlmError::Backend {
                        detail: "the app's async model failed inside the call".into(),
                    })
                }
            }
        }
        if cancel.is_cancelled() {
            return Err(LlmError::Cancelled);
        }
        let mut wait = CANCEL_POLL;
        if let Some((deadline, ms)) = limit {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(LlmError::TimedOut { after_ms: ms });
            }
            wait = wait.min(left);
        }
        if !unpark.woken.load(Ordering::Acquire) {
            std::thread::park_timeout(wait);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llm::{ChatMessage, ChatRole, FinishReason, Sampling};
    use std::sync::Mutex;

    fn request(timeout_ms: Option<u64>) -> GenerationRequest {
        GenerationRequest {
            messages: vec![ChatMessage::new(ChatRole::User, "hi")],
            json_schema: None,
            sampling: Sampling::default(),
            max_tokens: 16,
            timeout_ms,
        }
    }

    /// Sets its flag when dropped: the app's task being cancelled.
    struct DropFlag(Arc<AtomicBool>);

    impl Drop for DropFlag {
        fn drop(&mut self) {
            self.0.store(true, Ordering::SeqCst);
        }
    }

    /// How the test model answers.
    enum Behaviour {
        /// From another thread after a while (as a platform model's callback would), streaming
        /// its words first.
        Answer(&'static str),
        /// Fails.
        Throw,
        /// Never (until its call is dropped).
        Hang,
    }

    struct Model {
        behaviour: Behaviour,
        dropped: Arc<AtomicBool>,
    }

    impl Model {
        fn new(behaviour: Behaviour) -> Arc<Self> {
            Arc::new(Model {
                behaviour,
                dropped: Arc::new(AtomicBool::new(false)),
            })
        }
    }

    #[async_trait::async_trait]
    impl AsyncLanguageModel for Model {
        fn info(&self) -> ModelInfo {
            ModelInfo::new("async-test", 1024, false)
        }

        async fn generate(
            &self,
            _request: GenerationRequest,
            listener: Option<Arc<dyn TokenListener>>,
        ) -> Result<GenerationResult, LlmError> {
            let _flag = DropFlag(Arc::clone(&self.dropped));
            match self.behaviour {
                Behaviour::Answer(text) => {
                    let (tx, rx) = std::sync::mpsc::channel();
                    let answered = Arc::new(Mutex::new(None::<Waker>));
                    let for_thread = Arc::clone(&answered);
                    std::thread::spawn(move || {
                        std::thread::sleep(Duration::from_millis(30));
                        let _ = tx.send(text);
                        if let Some(w) = for_thread.lock().unwrap().take() {
                            w.wake();
                        }
                    });
                    let text = std::future::poll_fn(move |cx| match rx.try_recv() {
                        Ok(t) => Poll::Ready(t),
                        Err(_) => {
                            *answered.lock().unwrap() = Some(cx.waker().clone());
                            // The answer may have come between try_recv and storing the waker.
                            match rx.try_recv() {
                                Ok(t) => Poll::Ready(t),
                                Err(_) => Poll::Pending,
                            }
                        }
                    })
                    .await;
                    if let Some(l) = listener {
                        for w in text.split_inclusive(' ') {
                            l.on_token(w.to_string());
                        }
                    }
                    Ok(GenerationResult::untimed(text, FinishReason::Stop, 3, 4))
                }
                Behaviour::Throw => Err(LlmError::Backend {
                    detail: "the platform model is busy".into(),
                }),
                Behaviour::Hang => std::future::pending().await,
            }
        }
    }

    #[test]
    fn an_answer_from_another_thread_arrives_with_its_pieces() {
        let model = Model::new(Behaviour::Answer("Rest well tonight."));
        let adapter = AsyncModelAdapter::new(model.clone());
        assert_eq!(adapter.info().name, "async-test");
        let pieces = Arc::new(Mutex::new(Vec::new()));
        struct Collect(Arc<Mutex<Vec<String>>>);
        impl TokenListener for Collect {
            fn on_token(&self, piece: String) {
                self.0.lock().unwrap().push(piece);
            }
        }
        let out = adapter
            .generate(
                request(None),
                Some(Arc::new(Collect(Arc::clone(&pieces)))),
                CancelToken::new(),
            )
            .unwrap();
        assert_eq!(out.text, "Rest well tonight.");
        assert_eq!(*pieces.lock().unwrap(), ["Rest ", "well ", "tonight."]);
        assert!(
            model.dropped.load(Ordering::SeqCst),
            "the finished call is let go"
        );
    }

    #[test]
    fn a_failure_is_the_models_error() {
        let adapter = AsyncModelAdapter::new(Model::new(Behaviour::Throw));
        let err = adapter
            .generate(request(None), None, CancelToken::new())
            .unwrap_err();
        assert!(matches!(err, LlmError::Backend { detail } if detail.contains("busy")));
    }

    #[test]
    fn cancelling_drops_the_apps_call_and_returns_at_once() {
        let model = Model::new(Behaviour::Hang);
        let adapter = AsyncModelAdapter::new(model.clone());
        let cancel = CancelToken::new();
        let canceller = Arc::clone(&cancel);
        let started = Instant::now();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(50));
            canceller.cancel();
        });
        let err = adapter.generate(request(None), None, cancel).unwrap_err();
        assert_eq!(err, LlmError::Cancelled);
        assert!(
            model.dropped.load(Ordering::SeqCst),
            "the app's call was dropped"
        );
        assert!(started.elapsed() < Duration::from_secs(5));
        // Cancelled before it starts: the app is not called.
        let model = Model::new(Behaviour::Hang);
        let cancel = CancelToken::new();
        cancel.cancel();
        let err = AsyncModelAdapter::new(model.clone())
            .generate(request(None), None, cancel)
            .unwrap_err();
        assert_eq!(err, LlmError::Cancelled);
        assert!(!model.dropped.load(Ordering::SeqCst), "never started");
    }

    #[test]
    fn the_requests_time_limit_ends_the_call() {
        let model = Model::new(Behaviour::Hang);
        let err = AsyncModelAdapter::new(model.clone())
            .generate(request(Some(40)), None, CancelToken::new())
            .unwrap_err();
        assert_eq!(err, LlmError::TimedOut { after_ms: 40 });
        assert!(model.dropped.load(Ordering::SeqCst));
    }
}
