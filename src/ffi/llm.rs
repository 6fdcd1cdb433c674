//! Plugging a language model into the library: the embedded llama.cpp engine (feature `llama`) or a
//! model the app implements in Swift or Kotlin.

use std::sync::Arc;

use crate::ffi::Coach;
use crate::llm::breaker::{Breaker, BreakerConfig};
use crate::llm::metered::SharedModel;
use crate::llm::LanguageModel;
use crate::suggest::ai::LlmSuggestionSource;
use crate::suggest::service::AiSuggestionSource;

#[uniffi::export]
impl Coach {
    /// Uses `model` for the library's AI features, behind one circuit breaker (after 5 failures in
    /// a minute the model is left alone for 30 s and calls fail with `ModelUnavailable`):
    /// - the AI source of workout suggestions (after the rules, per exercise);
    /// - the assistant ([`Coach::send_message`]): routing, proposals, repairs and summaries.
    ///
    /// `None` turns both off (suggestions then come from the rules only; the assistant cannot
    /// propose). The model may be the embedded engine ([`load_model`]) or one the app implements
    /// (e.g. the platform's system model); it may be called from several library threads at once.
    pub fn use_language_model(&self, model: Option<Arc<dyn LanguageModel>>) {
        let shared = model.map(|model| SharedModel {
            model,
            breaker: Some(Arc::new(Breaker::new(
                Arc::clone(&self.clock),
                BreakerConfig::default(),
            ))),
        });
        let source = shared.clone().map(|s| {
            Arc::new(LlmSuggestionSource::new(s.model).with_breaker(s.breaker))
                as Arc<dyn AiSuggestionSource>
        });
        self.set_ai_source(source);
        self.set_shared_model(shared);
    }
}

/// How to load a GGUF model.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct ModelOptions {
    /// Context window in tokens (prompt plus answer), e.g. 2048.
    pub context_tokens: u32,
    /// CPU threads; `None` uses the device's cores. Never more than the cores: oversubscribing
    /// makes llama.cpp many times slower.
    pub threads: Option<u32>,
}

/// Receives model-loading progress.
#[uniffi::export(with_foreign)]
pub trait LoadProgressListener: Send + Sync {
    /// Progress from 0.0 to 1.0.
    fn on_progress(&self, fraction: f32);
}

/// Loads a GGUF model file for on-device generation. The library never downloads: the app ships
/// or fetches the file and passes its path. Throws `ModelUnusable` for a missing file, a file that
/// is not GGUF, or a model this build cannot run.
///
/// Threading: loading reads the file (memory-mapped, well under a second for small models): call it
/// off the main thread. The returned model is shared and may generate from several threads.
#[cfg(feature = "llama")]
#[uniffi::export]
pub fn load_model(
    path: String,
    options: ModelOptions,
    progress: Option<Arc<dyn LoadProgressListener>>,
) -> Result<Arc<dyn LanguageModel>, crate::error::CoachError> {
    use crate::llm::llama::{LlamaEngine, LlamaOptions};
    let mut opts = LlamaOptions::default();
    opts.context_tokens = options.context_tokens;
    opts.threads = options.threads;
    if let Some(p) = progress {
        opts.progress = Some(Box::new(move |f| p.on_progress(f)));
    }
    let engine: Arc<dyn LanguageModel> = LlamaEngine::load(&path, opts)?;
    Ok(engine)
}
