//! `model().prewarm`: reading a feature's fixed prompt beginning into the model's cache before the user
//! asks, as a screen opens (like `prewarm(promptPrefix:)` of Apple's Foundation Models).

use crate::ffi::llm::Models;
use crate::kernel::error::CoachError;
use crate::llm::metered::Metered;
use crate::llm::{CancelToken, ChatMessage, ChatRole, GenerationRequest, LanguageModel, Sampling};

/// An AI feature whose prompts begin with the same fixed text every time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, uniffi::Enum, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum AiFeature {
    /// The assistant's messages (`assistant().send`).
    Assistant,
    /// AI workout suggestions after a logged session.
    Suggestions,
    /// Meal plan reranking (`meals().plan`).
    Meals,
    /// Workout generation (`workouts().generate`), its analyzer step.
    Workout,
}

/// The feature's name in the model call's log line.
fn log_name(feature: AiFeature) -> &'static str {
    match feature {
        AiFeature::Assistant => "assistant",
        AiFeature::Suggestions => "suggestions",
        AiFeature::Meals => "meals",
        AiFeature::Workout => "workout",
    }
}

/// The system message `feature` sends first, exactly as sent. `embedded`: the model is the
/// engine `model().load` loaded, so AI suggestions run in choices mode, as
/// `CoachInner::install_model` decides; a model the app brings gets the tool loop.
fn system_message(feature: AiFeature, embedded: bool) -> &'static str {
    match feature {
        AiFeature::Assistant => crate::kernel::prompts::ASSISTANT_NARROW.trim_end(),
        AiFeature::Suggestions if embedded => {
            crate::kernel::prompts::SUGGESTIONS_CHOICES.trim_end()
        }
        AiFeature::Suggestions => crate::kernel::prompts::SUGGESTIONS_SYSTEM.trim_end(),
        AiFeature::Meals => crate::kernel::prompts::MEALS_RERANK.trim_end(),
        AiFeature::Workout => crate::kernel::prompts::WORKOUT_ANALYZER,
    }
}

#[uniffi::export]
impl Models {
    /// Reads the fixed beginning of `feature`'s prompts into the model's cache, so that the
    /// feature's next call reads only the part that changes (the embedded engine keeps it until
    /// a different prompt needs the room). Call it when the screen that uses the feature opens,
    /// from a background thread: it takes about as long as reading that text once (a fraction
    /// of a second for a small model). Returns the prompt tokens read; 0 when no model is set.
    /// For `Suggestions` it warms the prompt of the mode in use: the candidate choices for a
    /// model from `load`, the tool loop for one given to `set`.
    ///
    /// A model the app implements receives a request with `maxTokens` 0 and may simply return an
    /// empty text at once. Errors are the model's (`ModelUnavailable` while its breaker is open,
    /// `ModelUnusable`, ...).
    pub fn prewarm(&self, feature: AiFeature) -> Result<u32, CoachError> {
        self.check_open()?;
        let Some(shared) = self.shared_model() else {
            return Ok(0);
        };
        let request = GenerationRequest {
            messages: vec![ChatMessage::new(
                ChatRole::System,
                system_message(feature, shared.details.as_ref().is_some_and(|d| d.embedded)),
            )],
            json_schema: None,
            sampling: Sampling::default(),
            max_tokens: 0,
            timeout_ms: None,
        };
        // Through the metered wrapper: the breaker, and the call's log line (stage "prewarm").
        let metered =
            Metered::new(&*shared.model, "prewarm").with_breaker(shared.breaker.as_deref());
        metered.set_stage(log_name(feature));
        let out = metered
            .generate(request, None, CancelToken::new())
            .map_err(crate::kernel::error::Error::from)?;
        Ok(out.prompt_tokens)
    }
}
