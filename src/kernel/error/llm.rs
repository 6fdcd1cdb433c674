//! [`LlmError`], how a model call fails: the error of the `LanguageModel` trait an app implements
//! (`crate::llm`), kept here at the bottom so that the internal `Error` holds it without naming
//! the model floor.

use super::stage::OutputStage;

/// Failures of a model call. In Kotlin `LlmException`, in Swift `LlmError`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, uniffi::Error)]
pub enum LlmError {
    /// No file at the model path.
    #[error("model file not found")]
    ModelNotFound {
        /// What was wrong.
        detail: String,
    },
    /// The file is not a GGUF model.
    #[error("not a GGUF model file: {detail}")]
    NotAGguf {
        /// What was wrong.
        detail: String,
    },
    /// A GGUF file this build of llama.cpp cannot run.
    #[error("unsupported model: {detail}")]
    UnsupportedModel {
        /// What was wrong.
        detail: String,
    },
    /// The prompt does not fit the context window.
    #[error("prompt of {prompt_tokens} tokens exceeds the context window of {context_tokens} by {over_by}")]
    ContextOverflow {
        /// Tokens in the prompt.
        prompt_tokens: u32,
        /// Tokens the context holds (minus room reserved for the answer).
        context_tokens: u32,
        /// How many tokens too many.
        over_by: u32,
    },
    /// The call was cancelled through its `CancelToken` (`crate::llm::CancelToken`).
    #[error("cancelled")]
    Cancelled,
    /// The call ran past its timeout.
    #[error("timed out after {after_ms} ms")]
    TimedOut {
        /// The limit that was hit.
        after_ms: u64,
    },
    /// The JSON Schema could not be turned into a grammar.
    #[error("invalid JSON schema: {detail}")]
    InvalidSchema {
        /// What was wrong.
        detail: String,
    },
    /// The model failed repeatedly; calls fail fast until the circuit breaker's window passes.
    #[error("model unavailable, retry after {retry_after_ms} ms")]
    Unavailable {
        /// When to try again.
        retry_after_ms: u64,
    },
    /// The output stayed invalid after every repair attempt. `stage` is where the last attempt
    /// failed: `extract`, `parse`, `schema` or `domain`.
    #[error("invalid output after {attempts} attempts ({stage}): {detail}")]
    InvalidOutput {
        /// Where validation failed (a string across the FFI: `extract`, `parse`, `schema` or
        /// `domain`; a model implemented by the app that reports another word fails as `Backend`).
        stage: OutputStage,
        /// How many generations were tried.
        attempts: u32,
        /// The last validation error.
        detail: String,
    },
    /// The memory pre-flight refused to load the model: the model file plus the KV cache of the
    /// chosen context (plus compute buffers) needs more than the device has available now.
    #[error("the model needs {needed_bytes} bytes, {available_bytes} are available")]
    InsufficientMemory {
        /// Bytes the model would take.
        needed_bytes: u64,
        /// Bytes the device had available.
        available_bytes: u64,
    },
    /// Any other failure of the engine (or of an app-provided model).
    #[error("model failure: {detail}")]
    Backend {
        /// What went wrong.
        detail: String,
    },
}

impl From<uniffi::UnexpectedUniFFICallbackError> for LlmError {
    fn from(e: uniffi::UnexpectedUniFFICallbackError) -> Self {
        LlmError::Backend {
            detail: format!("app model failed: {}", e.reason),
        }
    }
}
