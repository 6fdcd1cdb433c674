//! The records of a model call (requests, results, [`ModelInfo`]; [`LlmError`] is defined in the
//! kernel's errors and re-exported here). The [`LanguageModel`](super::LanguageModel) trait
//! itself, the one way the library reaches a language model, is in `language_model.rs` with
//! [`TokenListener`](super::TokenListener) and [`CancelToken`](super::CancelToken); `crate::llm`
//! re-exports them all.
//!
//! Implementations: the embedded llama.cpp engine (feature `llama`), a [`ScriptedModel`](super::scripted::ScriptedModel)
//! for deterministic tests, and any model an app implements in Swift or Kotlin (for the platform's
//! own system model). Everything a model returns is untrusted: see [`super::structured`].

use serde::{Deserialize, Serialize};

use crate::kernel::error::Error;
pub use crate::kernel::error::{LlmError, OutputStage};

/// A failed model call as the library's internal error ([`Error::Llm`]).
impl From<LlmError> for Error {
    fn from(e: LlmError) -> Self {
        Error::Llm(e)
    }
}

/// Who wrote a chat message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, uniffi::Enum)]
#[serde(rename_all = "camelCase")]
pub enum ChatRole {
    /// Instructions for the model.
    System,
    /// The user (or the library speaking for the user).
    User,
    /// The model.
    Assistant,
}

/// One message of a chat prompt.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase")]
pub struct ChatMessage {
    /// Who wrote it.
    pub role: ChatRole,
    /// The text.
    pub content: String,
}

impl ChatMessage {
    /// A message from `role`.
    pub fn new(role: ChatRole, content: impl Into<String>) -> Self {
        Self {
            role,
            content: content.into(),
        }
    }
}

/// How tokens are chosen.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase")]
pub struct Sampling {
    /// 0 picks the most likely token every time (greedy).
    pub temperature: f32,
    /// Nucleus sampling cut-off, 0 < top_p <= 1.
    pub top_p: f32,
    /// Only the `top_k` most likely tokens are considered (0: no limit).
    pub top_k: u32,
    /// Same seed, same model file, same build: same output.
    pub seed: u64,
}

impl Default for Sampling {
    fn default() -> Self {
        Sampling {
            temperature: 0.2,
            top_p: 0.95,
            top_k: 40,
            seed: 42,
        }
    }
}

/// A request for one completion.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase")]
pub struct GenerationRequest {
    /// The chat, oldest message first.
    pub messages: Vec<ChatMessage>,
    /// A JSON Schema the output must follow. Models that can constrain decoding (the llama
    /// engine) guarantee its shape; the output is validated after generation either way.
    pub json_schema: Option<String>,
    /// Token choice.
    pub sampling: Sampling,
    /// Upper bound on generated tokens.
    pub max_tokens: u32,
    /// Wall-clock limit for the call, in milliseconds (`None`: no limit).
    pub timeout_ms: Option<u64>,
}

/// Why generation stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, uniffi::Enum)]
#[serde(rename_all = "camelCase")]
pub enum FinishReason {
    /// The model ended its answer (or the grammar was complete).
    Stop,
    /// `max_tokens` was reached.
    Length,
}

/// A completion and what it cost.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase")]
pub struct GenerationResult {
    /// The generated text.
    pub text: String,
    /// Why it stopped.
    pub finish: FinishReason,
    /// Tokens in the prompt.
    pub prompt_tokens: u32,
    /// Tokens generated.
    pub completion_tokens: u32,
    /// Time to read the prompt, in milliseconds.
    pub prompt_ms: u64,
    /// Time to generate, in milliseconds.
    pub generation_ms: u64,
}

impl GenerationResult {
    /// `text` with its token counts and no timings (a test model, or an app's model that measures
    /// nothing).
    pub fn untimed(
        text: impl Into<String>,
        finish: FinishReason,
        prompt_tokens: u32,
        completion_tokens: u32,
    ) -> Self {
        GenerationResult {
            text: text.into(),
            finish,
            prompt_tokens,
            completion_tokens,
            prompt_ms: 0,
            generation_ms: 0,
        }
    }
}

/// What a model is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase")]
pub struct ModelInfo {
    /// A name for logs, e.g. the GGUF file's model name.
    pub name: String,
    /// Context window in tokens (prompt plus output).
    pub context_tokens: u32,
    /// Whether `json_schema` constrains decoding (rather than only being validated afterwards).
    pub constrains_json_schema: bool,
}

/// What the `Coach`'s model is, from `Coach.model().info()` and `Coach.model().load`. For a model
/// the app implements only `name`, `contextTokens` and `constrainsJsonSchema` are known; the rest
/// is `None`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase")]
pub struct LoadedModelInfo {
    /// The GGUF's `general.name` (or the file name), or the app model's name.
    pub name: String,
    /// Parameters (weights) of the model, from the GGUF tensor shapes.
    pub parameter_count: Option<u64>,
    /// Context window of every call, in tokens (prompt plus answer).
    pub context_tokens: u32,
    /// The context length the model was trained for (`<arch>.context_length`).
    pub trained_context_tokens: Option<u64>,
    /// The weights' quantization as llama.cpp names it (`Q4_K_M`, `Q4_1`, `F16`, ...).
    pub quantization: Option<String>,
    /// Whether the GGUF carries a chat template llama.cpp can apply (`false`: the library uses
    /// ChatML, which suits few models: prefer a model with its own template).
    pub has_chat_template: Option<bool>,
    /// Bytes of the model file.
    pub file_bytes: Option<u64>,
    /// What the model takes in memory, as the pre-flight estimated it (file, KV cache of one
    /// context, compute buffers).
    pub estimated_memory_bytes: Option<u64>,
    /// Whether a JSON Schema constrains decoding (the embedded engine: yes).
    pub constrains_json_schema: bool,
    /// Whether this is the library's embedded engine (`loadModel`) rather than an app's model.
    pub embedded: bool,
}

impl ModelInfo {
    /// A model named `name` with a window of `context_tokens`, whose decoding a JSON Schema
    /// constrains or not.
    pub fn new(name: impl Into<String>, context_tokens: u32, constrains_json_schema: bool) -> Self {
        ModelInfo {
            name: name.into(),
            context_tokens,
            constrains_json_schema,
        }
    }
}

impl LoadedModelInfo {
    /// What is known of a model from its [`ModelInfo`] alone (an app's model).
    pub fn from_info(info: ModelInfo) -> Self {
        LoadedModelInfo {
            name: info.name,
            parameter_count: None,
            context_tokens: info.context_tokens,
            trained_context_tokens: None,
            quantization: None,
            has_chat_template: None,
            file_bytes: None,
            estimated_memory_bytes: None,
            constrains_json_schema: info.constrains_json_schema,
            embedded: false,
        }
    }
}
