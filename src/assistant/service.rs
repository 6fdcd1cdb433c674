//! The message pipeline. (Stub: the signatures are fixed; the bodies are being written.)

use std::sync::Arc;

use super::model::{AssistantEvent, AssistantRequest, AssistantResult};
use crate::clock::Clock;
use crate::error::Result;
use crate::llm::{CancelToken, LanguageModel, Sampling};
use crate::store::Store;

/// Receives the events of a running message (the FFI wraps the app's listener in this).
pub trait EventSink: Send + Sync {
    /// Called with each event, in order, from the thread running the message.
    fn on_event(&self, event: AssistantEvent);
}

/// Tuning of the pipeline.
#[derive(Debug, Clone)]
pub struct AssistantSettings {
    /// A `heartbeat` event every this many milliseconds while the model works.
    pub heartbeat_ms: u64,
    /// Sampling of every model call.
    pub sampling: Sampling,
    /// Wall-clock limit of each model call (`None`: none).
    pub timeout_ms: Option<u64>,
}

impl Default for AssistantSettings {
    fn default() -> Self {
        AssistantSettings {
            heartbeat_ms: 2_000,
            sampling: Sampling::default(),
            timeout_ms: Some(120_000),
        }
    }
}

/// Runs one message through the pipeline, sending events to `sink`; `done` is always the last
/// event, also on error or cancellation. Without a model, plan mode cannot propose and returns an
/// error after `done`... (see the module docs when written).
pub fn run_message(
    _store: &Store,
    _clock: &dyn Clock,
    _model: Option<&dyn LanguageModel>,
    _request: &AssistantRequest,
    _sink: &dyn EventSink,
    _cancel: &Arc<CancelToken>,
    _settings: &AssistantSettings,
) -> Result<AssistantResult> {
    unimplemented!()
}
