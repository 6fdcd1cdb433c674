//! [`Models`]: plugging a language model into the library: the embedded llama.cpp engine
//! (feature `llama`: `model().load`, `unload`, `info`, or the free `loadModel`) or a model the
//! app implements in Swift, Kotlin or Python, with blocking calls (`model().set`) or async ones
//! (`model().setAsyncModel`); the free `modelAvailability`, whether a model file can be used,
//! decided without loading it.

use std::sync::Arc;

use crate::ffi::inner::{service_object, CoachInner};
use crate::ffi::task::ListenerError;
use crate::kernel::error::CoachError;
#[cfg(doc)]
use crate::llm::availability::ModelAvailabilityStatus;
use crate::llm::availability::{ModelAvailability, ModelCheckOptions};
use crate::llm::breaker::{Breaker, BreakerConfig};
use crate::llm::metered::SharedModel;
use crate::llm::{
    AsyncLanguageModel, AsyncModelAdapter, CancelToken, LanguageModel, LoadedModelInfo,
};
use crate::suggest::ai::{AiSuggestionMode, AiSuggestionSettings, LlmSuggestionSource};
use crate::suggest::service::AiSuggestionSource;

/// The on-device language model every AI feature shares, from `Coach.model()`: the assistant,
/// meal planning, workout generation, today's plan and AI suggestions all use the one model set
/// here (`set`) or loaded from a GGUF file (`load`), one call at a time, behind one circuit
/// breaker. `prewarm` reads a feature's fixed prompt beginning before the user asks.
#[derive(uniffi::Object)]
pub struct Models {
    inner: Arc<CoachInner>,
}

service_object!(Models);

#[uniffi::export]
impl Models {
    /// Uses `model` for the library's AI features, behind one circuit breaker (after 5 failures in
    /// a minute the model is left alone for 30 s and calls fail with `ModelUnavailable`):
    /// - the AI source of workout suggestions (after the rules, per exercise);
    /// - the assistant (`assistant().send`): routing, proposals, repairs and summaries;
    /// - meal planning (ranking each slot's candidates) and workout generation.
    ///
    /// One model serves every feature, one call at a time: a call that arrives while the model is
    /// busy waits for its turn, in arrival order (cancelling it ends the wait at once). The log
    /// line of each model call reports the wait (`waited_ms`).
    ///
    /// `None` turns them off (suggestions then come from the rules only; the assistant cannot
    /// propose). The model may be the embedded engine ([`load_model`]) or one the app implements
    /// (e.g. the platform's system model). To load a GGUF file and use it in one step, call
    /// [`Models::load`].
    ///
    /// AI suggestions: the embedded engine loaded with [`Models::load`] picks among candidate
    /// changes the library computes (one short call, none when no candidate has evidence); a model
    /// passed here writes its own suggestions through the history tools (the tool loop), which a
    /// larger model does well.
    ///
    /// Throws `Closed` after `shutdown()`.
    pub fn set(&self, model: Option<Arc<dyn LanguageModel>>) -> Result<(), CoachError> {
        self.check_open()?;
        self.install_model(model, None);
        Ok(())
    }

    /// [`Models::set`] for a model whose `generate` is async (Swift `async throws`, Kotlin
    /// `suspend`, Python `async def`): a platform model with an async API (FoundationModels,
    /// Gemini Nano through ML Kit) plugs in without blocking a thread of the app. The library
    /// calls it from its own thread and waits there; everything else is as for `set` (one call at
    /// a time, the circuit breaker, output validated and repaired, a JSON Schema only validated
    /// unless the model's `info` says it constrains decoding).
    ///
    /// Cancelling the library's work (a task's `cancel()`, a cancelled `Task`, coroutine or
    /// stream consumer, the request's time limit) cancels the app's `generate` call: see
    /// [`AsyncLanguageModel`] for what the app sees. `None` turns AI off, as `set(None)` does.
    ///
    /// Throws `Closed` after `shutdown()`.
    pub fn set_async_model(
        &self,
        model: Option<Arc<dyn AsyncLanguageModel>>,
    ) -> Result<(), CoachError> {
        self.check_open()?;
        let model = model.map(|m| Arc::new(AsyncModelAdapter::new(m)) as Arc<dyn LanguageModel>);
        self.install_model(model, None);
        Ok(())
    }

    /// Loads the GGUF model file at `path` and makes it the model every feature uses (as
    /// [`Models::set`] does); returns what it is. The library never downloads: the
    /// app ships or fetches the file and passes its path.
    ///
    /// The model in use before is let go first, so two models are never loaded at once (calls
    /// still running on it finish first, then its memory is freed); if loading fails, no model is
    /// in use.
    ///
    /// A memory pre-flight runs before anything is loaded: the file's size plus the KV cache of
    /// `options.contextTokens` (from the GGUF header) against the memory the device has available
    /// now. Throws `InsufficientMemory` (needed and available bytes) when it does not fit: offer a
    /// smaller model or context. Throws `ModelUnusable` for a missing file, a file that is not
    /// GGUF, a model this build cannot run, a build without the embedded engine, or a phone whose
    /// CPU lacks the instructions the engine was built for. [`model_availability`] tells the same
    /// beforehand, without loading.
    ///
    /// Threading: blocks while the file is read (about a second for small models): call it off
    /// the main thread. `progress` hears the fraction loaded, on the calling thread.
    #[uniffi::method(default(progress = None))]
    pub fn load(
        &self,
        path: String,
        options: ModelOptions,
        progress: Option<Arc<dyn LoadProgressListener>>,
    ) -> Result<LoadedModelInfo, CoachError> {
        self.check_open()?;
        self.install_model(None, None);
        let (model, details) = load_engine(&path, &options, progress)?;
        self.install_model(Some(model), Some(details.clone()));
        Ok(details)
    }

    /// [`Models::load`] as an async call (Swift `async throws`, Kotlin `suspend`, Python
    /// `async def`): the file is read on a library thread (no async runtime needed; the caller's
    /// thread never blocks), then the model is installed and its details returned. `progress`
    /// hears the fraction loaded on that thread.
    ///
    /// Cancelling (the Kotlin coroutine or the Python task; in Swift `cancel.cancel()`, or the
    /// shipped `CoachAsync.swift`) cannot stop llama.cpp halfway through reading the file, but
    /// the model read is then let go instead of installed, and the call throws `Cancelled`: no
    /// model is in use afterwards (the one before was let go when loading started).
    #[uniffi::method(default(progress = None, cancel = None))]
    pub async fn load_async(
        self: Arc<Self>,
        path: String,
        options: ModelOptions,
        progress: Option<Arc<dyn LoadProgressListener>>,
        cancel: Option<Arc<CancelToken>>,
    ) -> Result<LoadedModelInfo, CoachError> {
        let this = Arc::clone(&self);
        self.run_async("load", cancel, move |cancel| {
            this.check_open()?;
            this.install_model(None, None);
            let (model, details) = load_engine(&path, &options, progress)?;
            if cancel.is_cancelled() {
                return Err(CoachError::Cancelled);
            }
            this.install_model(Some(model), Some(details.clone()));
            Ok(details)
        })
        .await
    }

    /// Lets go of the model: AI features stop using it (as `set(None)`), and its
    /// memory is freed once the calls still running on it finish. Returns whether a model was in
    /// use.
    pub fn unload(&self) -> bool {
        let had = self.shared_model().is_some();
        self.install_model(None, None);
        had
    }

    /// What the model in use is (name, parameters, context, quantization, chat template, memory),
    /// or `None` without one. For a model the app implements only its `ModelInfo` is known.
    pub fn info(&self) -> Option<LoadedModelInfo> {
        self.shared_model().and_then(|s| s.details)
    }
}

impl Models {
    /// Sets (or with `None` removes) the model the assistant uses ([`crate::ffi::Assistant::send`]),
    /// as given: no circuit breaker is added ([`Models::set`] adds one). Like every model the
    /// `Coach` holds, it runs one call at a time. For Rust callers and tests.
    pub fn set_assistant_model(&self, model: Option<Arc<dyn LanguageModel>>) {
        self.set_shared_model(model.map(|model| SharedModel::queued(model, None, None)));
    }

    /// Sets (or with `None` removes) the AI suggestion source used by
    /// `suggestions().forSession` (Rust callers and tests).
    pub fn set_ai_source(&self, source: Option<Arc<dyn AiSuggestionSource>>) {
        self.inner.set_ai_source(source);
    }
}

impl CoachInner {
    /// Makes `model` (queued, with a new breaker) the one every feature shares, or removes it.
    pub(crate) fn install_model(
        &self,
        model: Option<Arc<dyn LanguageModel>>,
        details: Option<LoadedModelInfo>,
    ) {
        // The embedded engine (a small model) picks among candidate changes code computed; a
        // model the app brings (often a larger system model) gets the tool loop.
        let mode = if details.is_some() {
            AiSuggestionMode::Choices
        } else {
            AiSuggestionMode::ToolLoop
        };
        let shared = model.map(|model| {
            SharedModel::queued(
                model,
                Some(Arc::new(Breaker::new(
                    Arc::clone(&self.clock),
                    BreakerConfig::default(),
                ))),
                details,
            )
        });
        let source = shared.clone().map(|s| {
            let settings = AiSuggestionSettings {
                mode,
                ..AiSuggestionSettings::default()
            };
            Arc::new(LlmSuggestionSource::with_settings(s.model, settings).with_breaker(s.breaker))
                as Arc<dyn AiSuggestionSource>
        });
        self.set_ai_source(source);
        self.set_shared_model(shared);
    }
}

/// How to load a GGUF model.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct ModelOptions {
    /// Context window in tokens (prompt plus answer), e.g. 2048. The KV cache grows with it
    /// (SmolLM2-135M: 45 MiB at 2048; a 1B model: about 10 times that).
    pub context_tokens: u32,
    /// CPU threads; `None` uses the device's cores. Never more than the cores: oversubscribing
    /// makes llama.cpp many times slower.
    pub threads: Option<u32>,
}

/// Receives model-loading progress. A listener that throws is not called again for that load.
#[uniffi::export(with_foreign)]
pub trait LoadProgressListener: Send + Sync {
    /// Progress from 0.0 to 1.0. Throwing (any error) stops the progress of this load.
    fn on_progress(&self, fraction: f32) -> Result<(), ListenerError>;
}

/// Loads the engine with the memory pre-flight; the model and its details.
#[cfg(feature = "llama")]
fn load_engine(
    path: &str,
    options: &ModelOptions,
    progress: Option<Arc<dyn LoadProgressListener>>,
) -> Result<(Arc<dyn LanguageModel>, LoadedModelInfo), CoachError> {
    use crate::llm::llama::{LlamaEngine, LlamaOptions};
    let mut opts = LlamaOptions::default();
    opts.context_tokens = options.context_tokens;
    opts.threads = options.threads;
    if progress.is_some() {
        let guarded = crate::ffi::task::Guarded::new(progress, "load progress listener");
        opts.progress = Some(Box::new(move |f| guarded.call(|l| l.on_progress(f))));
    }
    let engine = LlamaEngine::load(path, opts)?;
    let details = engine.details();
    Ok((engine, details))
}

/// Without the engine: the file and memory checks still run (their errors come first), then
/// `ModelUnusable`.
#[cfg(not(feature = "llama"))]
fn load_engine(
    path: &str,
    options: &ModelOptions,
    progress: Option<Arc<dyn LoadProgressListener>>,
) -> Result<(Arc<dyn LanguageModel>, LoadedModelInfo), CoachError> {
    drop(progress);
    let facts = crate::llm::gguf::read_facts(std::path::Path::new(path))?;
    crate::llm::memory::estimate(&facts, options.context_tokens.max(16)).check()?;
    Err(CoachError::ModelUnusable {
        detail: crate::llm::availability::engine_problem().unwrap_or_default(),
    })
}

/// Whether the GGUF model file at `path` can be used on this device, decided without loading it
/// (no `Coach` needed): [`ModelAvailabilityStatus::Available`], or the first reason it cannot
/// (`fileMissing`, `unreadable`, `notGguf`, `unsupportedArchitecture`, `insufficientMemory`,
/// `engineMissing`), with the figures behind it (file size, GGUF version, architecture, tensor,
/// metadata and parameter counts, quantization, memory needed at `options.contextTokens` against
/// memory available now). Use it to decide whether to offer an AI feature, or which model to
/// download, before `model().load`; `available` means the load's own checks will pass
/// (llama.cpp may still refuse a file whose tensors are damaged past the header).
///
/// Never throws: every problem is a status. Reads only the file's header (for a small model a
/// few milliseconds; call it off the main thread for a model on slow storage).
/// `options.availableBytes` replaces the device's available-memory reading (tests, or planning
/// for another device). Architectures the library is meant for: `llama` (SmolLM2, Llama 3.x),
/// `qwen2`, `qwen3`, `gemma2`, `gemma3`, `phi3`, `smollm3`.
#[uniffi::export(default(options = None))]
pub fn model_availability(path: String, options: Option<ModelCheckOptions>) -> ModelAvailability {
    crate::llm::availability::check(std::path::Path::new(&path), &options.unwrap_or_default())
}

/// Loads a GGUF model file for on-device generation, without making it the `Coach`'s model (pass
/// it to `model().set`, or call `generate` on it directly); most apps call
/// [`Models::load`] instead. The library never downloads: the app ships or fetches the file
/// and passes its path. The memory pre-flight runs first, as for [`Models::load`]. Throws
/// `InsufficientMemory` or `ModelUnusable` as that does.
///
/// Threading: loading reads the file (memory-mapped, well under a second for small models): call it
/// off the main thread. The returned model may generate from several threads (the `Coach` runs one
/// call at a time on it).
#[cfg(feature = "llama")]
#[uniffi::export(default(progress = None))]
pub fn load_model(
    path: String,
    options: ModelOptions,
    progress: Option<Arc<dyn LoadProgressListener>>,
) -> Result<Arc<dyn LanguageModel>, CoachError> {
    Ok(load_engine(&path, &options, progress)?.0)
}
