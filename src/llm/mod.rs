//! Everything about language models: the [`LanguageModel`] trait and its implementations, finding
//! and parsing JSON in what a model wrote ([`extract`]), validated generation with a bounded repair
//! loop ([`structured`]), the one metered wrapper every feature calls a model through
//! ([`metered`]) and the circuit breaker state it consults ([`breaker`]), the loop detector that
//! stops a runaway decoding ([`runaway`]), the forced-text predictor behind
//! the llama engine's jump-forward decoding of JSON-Schema output ([`jump`]), streaming text
//! ([`stream`]) without splitting a character ([`utf8`]), the async form of the interface an app
//! implements ([`async_model`]), and whether a model file can be used here, decided without
//! loading it ([`availability`], with [`gguf`], [`memory`] and [`cpu`]).

pub mod async_model;
pub mod availability;
pub mod breaker;
pub mod cpu;
pub mod extract;
pub mod gguf;
pub mod jump;
pub mod language_model;
#[cfg(feature = "llama")]
pub mod llama;
pub mod memory;
pub mod metered;
pub mod model;
pub mod runaway;
pub mod schema;
pub mod scripted;
pub mod stream;
pub mod structured;
pub mod utf8;

pub use async_model::{AsyncLanguageModel, AsyncModelAdapter};
pub use language_model::{CancelToken, LanguageModel, TokenListener};
pub use model::{
    ChatMessage, ChatRole, FinishReason, GenerationRequest, GenerationResult, LlmError,
    LoadedModelInfo, ModelInfo, OutputStage, Sampling,
};
