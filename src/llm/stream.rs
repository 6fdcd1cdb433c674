//! Streaming a model's text as it is written: [`generate_with_deltas`] runs one model call and
//! hands its text, piece by piece, to a callback that may borrow (the assistant's chat reply
//! becomes `textDelta` events this way). A model that cannot stream still gives one piece: the
//! whole text, after the call. The pieces are whole characters: the engine and the scripted model
//! decode token bytes through [`Utf8Stream`](super::utf8::Utf8Stream).

use std::sync::mpsc;
use std::sync::{Arc, Mutex};

use super::{
    CancelToken, GenerationRequest, GenerationResult, LanguageModel, LlmError, TokenListener,
};

/// The token listener [`generate_with_deltas`] gives the model: it passes pieces to the helper
/// thread until the call returned, then drops them.
struct DeltaBridge(Mutex<Option<mpsc::Sender<String>>>);

impl DeltaBridge {
    /// Stops passing pieces on (closes the channel): nothing the model sends later arrives.
    fn close(&self) {
        self.0.lock().unwrap_or_else(|p| p.into_inner()).take();
    }
}

impl TokenListener for DeltaBridge {
    fn on_token(&self, piece: String) {
        if piece.is_empty() {
            return;
        }
        if let Some(tx) = self.0.lock().unwrap_or_else(|p| p.into_inner()).as_ref() {
            // The receiver lives until the channel is closed; a send cannot fail before.
            let _ = tx.send(piece);
        }
    }
}

/// Runs `request` on `model`, calling `on_delta` with each piece of text the model streams, in
/// order, as it comes: from one helper thread, never after this returns, never with an empty
/// piece. The pieces are whole characters (the engine decodes through
/// [`Utf8Stream`](super::utf8::Utf8Stream)).
///
/// A model that streams nothing (an app's model that ignores its listener) gives one delta, the
/// whole text, once the call returned. A failed call gives only what streamed before it failed.
/// The result is the model's, as [`LanguageModel::generate`] returns it.
pub fn generate_with_deltas(
    model: &dyn LanguageModel,
    request: GenerationRequest,
    cancel: Arc<CancelToken>,
    on_delta: &(dyn Fn(String) + Sync),
) -> Result<GenerationResult, LlmError> {
    let (tx, rx) = mpsc::channel::<String>();
    let bridge = Arc::new(DeltaBridge(Mutex::new(Some(tx))));
    let listener: Arc<dyn TokenListener> = bridge.clone();
    let (out, forwarded) = std::thread::scope(|scope| {
        let forwarder = std::thread::Builder::new()
            .name("coachcore-deltas".into())
            .spawn_scoped(scope, move || {
                let mut n = 0usize;
                for piece in rx {
                    on_delta(piece);
                    n += 1;
                }
                n
            });
        match forwarder {
            Ok(forwarder) => {
                let out = model.generate(request, Some(listener), cancel);
                bridge.close();
                // A delta callback that panicked still forwarded something: no second copy.
                (out, forwarder.join().unwrap_or(1))
            }
            // No thread to be had: the call runs unstreamed and the fallback below gives its text.
            Err(e) => {
                log::warn!(target: "coachcore::llm", "no thread for streaming ({e}): one delta");
                (model.generate(request, None, cancel), 0)
            }
        }
    });
    if let (Ok(r), 0) = (&out, forwarded) {
        if !r.text.is_empty() {
            on_delta(r.text.clone());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llm::scripted::{ScriptedModel, ScriptedReply};
    use crate::llm::{ChatMessage, ChatRole, FinishReason, Sampling};

    fn request(max_tokens: u32) -> GenerationRequest {
        GenerationRequest {
            messages: vec![ChatMessage::new(ChatRole::User, "hi")],
            json_schema: None,
            sampling: Sampling::default(),
            max_tokens,
            timeout_ms: None,
        }
    }

    /// The deltas of one call on `model`, and its result.
    fn deltas(
        model: &dyn LanguageModel,
        max_tokens: u32,
    ) -> (Vec<String>, Result<GenerationResult, LlmError>) {
        let seen = Mutex::new(Vec::new());
        let out = generate_with_deltas(model, request(max_tokens), CancelToken::new(), &|d| {
            seen.lock().unwrap().push(d)
        });
        (seen.into_inner().unwrap(), out)
    }

    #[test]
    fn deltas_concatenate_to_the_text_in_order() {
        let model = ScriptedModel::texts(["Rest two days, then run easy."]);
        let (seen, out) = deltas(&*model, 64);
        let out = out.unwrap();
        assert_eq!(seen, ["Rest ", "two ", "days, ", "then ", "run ", "easy."]);
        assert_eq!(seen.concat(), out.text);
    }

    #[test]
    fn a_character_split_across_tokens_is_never_split_in_a_delta() {
        // "Grüße 😀": ü, ß and the emoji each cut between two tokens. Two tokens complete no
        // character (their delta would be empty): none is passed on.
        let text = "Grüße 😀";
        let b = text.as_bytes();
        let tokens = vec![
            b[..3].to_vec(),  // "Gr" + first byte of ü
            b[3..4].to_vec(), // the rest of ü
            b[4..5].to_vec(), // first byte of ß
            b[5..8].to_vec(), // rest of ß, "e", " "
            b[8..10].to_vec(),
            b[10..].to_vec(),
        ];
        let model = ScriptedModel::new([ScriptedReply::Tokens(tokens)]);
        let (seen, out) = deltas(&*model, 64);
        assert_eq!(out.unwrap().text, text);
        assert_eq!(seen, ["Gr", "ü", "ße ", "😀"]);
        assert!(seen.iter().all(|d| !d.contains('\u{fffd}')));
    }

    #[test]
    fn bytes_left_at_the_end_are_flushed() {
        // The last token stops inside a character (the token limit or a broken model): the
        // waiting byte is flushed as U+FFFD rather than lost.
        let model = ScriptedModel::new([ScriptedReply::Tokens(vec![
            b"ok ".to_vec(),
            vec![0xE2, 0x82],
        ])]);
        let (seen, out) = deltas(&*model, 64);
        assert_eq!(seen, ["ok ", "\u{fffd}"]);
        assert_eq!(out.unwrap().text, "ok \u{fffd}");
    }

    #[test]
    fn a_model_that_cannot_stream_gives_one_delta_with_the_whole_text() {
        let model = ScriptedModel::new([ScriptedReply::Unstreamed("All in one go.".into())]);
        let (seen, out) = deltas(&*model, 64);
        assert_eq!(seen, ["All in one go."]);
        assert_eq!(out.unwrap().finish, FinishReason::Stop);
    }

    #[test]
    fn a_failed_call_gives_no_fallback_delta() {
        let model = ScriptedModel::new([ScriptedReply::Fail(LlmError::Cancelled)]);
        let (seen, out) = deltas(&*model, 64);
        assert!(seen.is_empty());
        assert_eq!(out.unwrap_err(), LlmError::Cancelled);
    }

    #[test]
    fn a_model_that_keeps_the_listener_does_not_hold_the_call() {
        // The channel is closed when the call returns: the helper thread ends (else this hangs)
        // and a piece sent later goes nowhere.
        /// Keeps the listener and writes to it after returning (an app model gone wrong).
        struct Late(Mutex<Option<Arc<dyn TokenListener>>>);
        impl LanguageModel for Late {
            fn info(&self) -> crate::llm::ModelInfo {
                crate::llm::ModelInfo::new("late", 512, false)
            }
            fn generate(
                &self,
                _: GenerationRequest,
                listener: Option<Arc<dyn TokenListener>>,
                _: Arc<CancelToken>,
            ) -> Result<GenerationResult, LlmError> {
                let l = listener.unwrap();
                l.on_token("early".into());
                *self.0.lock().unwrap() = Some(l);
                Ok(GenerationResult::untimed("early", FinishReason::Stop, 1, 1))
            }
        }
        let model = Late(Mutex::new(None));
        let (seen, _) = deltas(&model, 8);
        model
            .0
            .lock()
            .unwrap()
            .as_ref()
            .unwrap()
            .on_token("late".into());
        assert_eq!(seen, ["early"]);
    }
}
