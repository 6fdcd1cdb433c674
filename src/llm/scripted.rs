//! A [`LanguageModel`] that replies from a script: for deterministic tests of every pipeline that
//! talks to a model (repair loops, tool loops, routers). It records the requests it received.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use super::{
    CancelToken, FinishReason, GenerationRequest, GenerationResult, LanguageModel, LlmError,
    ModelInfo, TokenListener,
};

/// One scripted reply.
#[derive(Debug, Clone)]
pub enum ScriptedReply {
    /// Reply with this text (streamed word by word).
    Text(String),
    /// Fail with this error.
    Fail(LlmError),
}

/// Replies in order; when the script runs out, every call fails with `Backend`.
#[derive(Debug, Default)]
pub struct ScriptedModel {
    replies: Mutex<VecDeque<ScriptedReply>>,
    requests: Mutex<Vec<GenerationRequest>>,
}

impl ScriptedModel {
    /// A model that will give `replies`, in order.
    pub fn new(replies: impl IntoIterator<Item = ScriptedReply>) -> Arc<Self> {
        Arc::new(Self {
            replies: Mutex::new(replies.into_iter().collect()),
            requests: Mutex::default(),
        })
    }

    /// A model that replies with these texts, in order.
    pub fn texts<S: Into<String>>(texts: impl IntoIterator<Item = S>) -> Arc<Self> {
        Self::new(texts.into_iter().map(|t| ScriptedReply::Text(t.into())))
    }

    /// Adds a reply at the end of the script.
    pub fn push(&self, reply: ScriptedReply) {
        self.replies
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push_back(reply);
    }

    /// Every request received so far.
    pub fn requests(&self) -> Vec<GenerationRequest> {
        self.requests
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    /// Replies not used yet.
    pub fn remaining(&self) -> usize {
        self.replies.lock().unwrap_or_else(|p| p.into_inner()).len()
    }
}

impl LanguageModel for ScriptedModel {
    fn info(&self) -> ModelInfo {
        ModelInfo {
            name: "scripted".into(),
            context_tokens: 8192,
            constrains_json_schema: false,
        }
    }

    fn generate(
        &self,
        request: GenerationRequest,
        listener: Option<Arc<dyn TokenListener>>,
        cancel: Arc<CancelToken>,
    ) -> Result<GenerationResult, LlmError> {
        let prompt_tokens = request
            .messages
            .iter()
            .map(|m| m.content.split_whitespace().count() as u32)
            .sum();
        let max_tokens = request.max_tokens;
        self.requests
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(request);
        let reply = self
            .replies
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .pop_front();
        let text = match reply {
            Some(ScriptedReply::Text(t)) => t,
            Some(ScriptedReply::Fail(e)) => return Err(e),
            None => {
                return Err(LlmError::Backend {
                    detail: "the script has no more replies".into(),
                })
            }
        };
        // "Tokens" are whitespace-separated words, kept with their separators.
        let mut out = String::new();
        let mut count = 0u32;
        for piece in text.split_inclusive(char::is_whitespace) {
            if cancel.is_cancelled() {
                return Err(LlmError::Cancelled);
            }
            if count == max_tokens {
                return Ok(result(out, FinishReason::Length, prompt_tokens, count));
            }
            if let Some(l) = &listener {
                l.on_token(piece.to_string());
            }
            out.push_str(piece);
            count += 1;
        }
        Ok(result(out, FinishReason::Stop, prompt_tokens, count))
    }
}

fn result(
    text: String,
    finish: FinishReason,
    prompt_tokens: u32,
    completion_tokens: u32,
) -> GenerationResult {
    GenerationResult {
        text,
        finish,
        prompt_tokens,
        completion_tokens,
        prompt_ms: 0,
        generation_ms: 0,
    }
}
