//! A [`LanguageModel`] that replies from a script: for deterministic tests of every pipeline that
//! talks to a model (repair loops, tool loops, routers). It records the requests it received.
//! Replies stream to the listener as the engine's do: word by word, token bytes decoded without
//! splitting a character ([`Utf8Stream`]), or not at all (a model that cannot stream).

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use super::utf8::Utf8Stream;
use super::{
    CancelToken, FinishReason, GenerationRequest, GenerationResult, LanguageModel, LlmError,
    ModelInfo, TokenListener,
};

/// One scripted reply.
#[derive(Debug, Clone)]
pub enum ScriptedReply {
    /// Reply with this text (streamed word by word).
    Text(String),
    /// Reply with these tokens' bytes, decoded as the engine decodes them: a token may end inside
    /// a character, whose bytes then wait for the next token ([`Utf8Stream`]); each token that
    /// completes text streams it.
    Tokens(Vec<Vec<u8>>),
    /// Reply with this text without calling the listener (a model that cannot stream).
    Unstreamed(String),
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
        let words = |t: String| -> Vec<Vec<u8>> {
            // "Tokens" are whitespace-separated words, kept with their separators.
            t.split_inclusive(char::is_whitespace)
                .map(|w| w.as_bytes().to_vec())
                .collect()
        };
        let (tokens, streams) = match reply {
            Some(ScriptedReply::Text(t)) => (words(t), true),
            Some(ScriptedReply::Tokens(t)) => (t, true),
            Some(ScriptedReply::Unstreamed(t)) => (words(t), false),
            Some(ScriptedReply::Fail(e)) => return Err(e),
            None => {
                return Err(LlmError::Backend {
                    detail: "the script has no more replies".into(),
                })
            }
        };
        let listener = listener.filter(|_| streams);
        let mut utf8 = Utf8Stream::default();
        let mut out = String::new();
        let emit = |piece: String, out: &mut String| {
            if let (Some(l), false) = (&listener, piece.is_empty()) {
                l.on_token(piece.clone());
            }
            out.push_str(&piece);
        };
        let mut count = 0u32;
        let mut finish = FinishReason::Stop;
        for token in tokens {
            if cancel.is_cancelled() {
                return Err(LlmError::Cancelled);
            }
            if count == max_tokens {
                finish = FinishReason::Length;
                break;
            }
            emit(utf8.push(&token), &mut out);
            count += 1;
        }
        emit(utf8.finish(), &mut out);
        Ok(GenerationResult::untimed(out, finish, prompt_tokens, count))
    }
}
