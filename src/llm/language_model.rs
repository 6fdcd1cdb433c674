//! The language-model interface an app can implement or receive: [`LanguageModel`] (the one way
//! the library reaches a model: the embedded llama.cpp engine, the app's own model in Swift or
//! Kotlin, or a scripted model in tests), [`TokenListener`] for streamed text and [`CancelToken`]
//! to stop a call. The records they exchange live in `crate::llm::model`.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use super::model::{GenerationRequest, GenerationResult, LlmError, ModelInfo};
#[cfg(feature = "llama")]
use crate::kernel::guard::Guarded;

/// Receives generated text as it streams.
///
/// When the library's engine calls it (an app calling `generate` on a model from `loadModel`), a
/// listener that throws is not called again for that call (one warning is logged); the
/// generation goes on.
#[uniffi::export(with_foreign)]
pub trait TokenListener: Send + Sync {
    /// Called with each new piece of text, in order.
    fn on_token(&self, piece: String);
}

/// A token listener behind the panic guard (see `kernel::guard::Guarded`).
#[cfg(feature = "llama")]
struct GuardedTokens(Guarded<dyn TokenListener>);

#[cfg(feature = "llama")]
impl TokenListener for GuardedTokens {
    fn on_token(&self, piece: String) {
        self.0.call(|l| l.on_token(piece));
    }
}

/// `listener` behind the panic guard, for one generation: the engine calls this on the listener
/// it is given, since an app may pass its own.
#[cfg(feature = "llama")]
pub(crate) fn guard_token_listener(
    listener: Option<Arc<dyn TokenListener>>,
) -> Option<Arc<dyn TokenListener>> {
    listener.map(|l| {
        Arc::new(GuardedTokens(Guarded::new(Some(l), "token listener"))) as Arc<dyn TokenListener>
    })
}

/// Cancels a model call from another thread: the engine stops within a token or two and the call
/// returns `Cancelled`.
#[derive(Debug, Default, uniffi::Object)]
pub struct CancelToken {
    cancelled: AtomicBool,
}

#[uniffi::export]
impl CancelToken {
    /// A token that is not cancelled.
    #[uniffi::constructor]
    pub fn new() -> Arc<Self> {
        Arc::new(Self::default())
    }

    /// Asks the call to stop.
    pub fn cancel(&self) {
        self.cancelled.store(true, Ordering::SeqCst);
    }

    /// Whether `cancel` was called.
    pub fn is_cancelled(&self) -> bool {
        self.cancelled.load(Ordering::SeqCst)
    }
}

/// A language model. Implement it in Swift or Kotlin to plug in a platform model; the library
/// validates whatever it returns.
///
/// Threading: `generate` blocks until done and is called from a background thread; it may be
/// called from several threads at once.
#[uniffi::export(with_foreign)]
pub trait LanguageModel: Send + Sync {
    /// What the model is.
    fn info(&self) -> ModelInfo;

    /// Generates one completion. Stream pieces to `listener` if given; check `cancel` between
    /// tokens and return `LlmError::Cancelled` when it is set.
    ///
    /// A request with `max_tokens` 0 is a prewarm: the library sends the fixed beginning of the
    /// prompts it is about to send (e.g. when a screen opens) so a model with a prompt cache can
    /// read it ahead. A model without one returns an empty result at once.
    fn generate(
        &self,
        request: GenerationRequest,
        listener: Option<Arc<dyn TokenListener>>,
        cancel: Arc<CancelToken>,
    ) -> Result<GenerationResult, LlmError>;
}
