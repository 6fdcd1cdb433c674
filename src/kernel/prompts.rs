//! Every prompt template the library sends to a model, embedded from `prompts/` with
//! `include_str!`, in one place: a feature imports its template from here, so the files under
//! version control and the text the model reads cannot drift apart, and a reviewer finds every
//! prompt without reading the features.
//!
//! Placeholders are `{{name}}`; each feature fills its own. JSON Schemas are not prompts: they
//! stay with the code that validates against them.

/// The router's system prompt (`prompts/assistant.router.md`): `{{today}}`, `{{context}}`. The
/// user's message goes unchanged in the user turn.
pub const ASSISTANT_ROUTER: &str = include_str!("../../prompts/assistant.router.md");
/// The proposal's system prompt (`prompts/assistant.propose.md`): `{{today}}`, `{{context}}`,
/// `{{where}}`.
pub const ASSISTANT_PROPOSE: &str = include_str!("../../prompts/assistant.propose.md");
/// The assistant's repair request (`prompts/assistant.repair.md`): `{{invalid}}`, `{{count}}`.
pub const ASSISTANT_REPAIR: &str = include_str!("../../prompts/assistant.repair.md");
/// The narrowed question's system prompt (`prompts/assistant.narrow.md`), fixed text (so its
/// prompt prefix is cached); the options and the message go in the user turn
/// (`assistant::narrow::Narrowed::user_turn`).
pub const ASSISTANT_NARROW: &str = include_str!("../../prompts/assistant.narrow.md");
/// The summary's system prompt (`prompts/assistant.summary.md`); its sentences are also the
/// instructions a summary must not repeat.
pub const ASSISTANT_SUMMARY: &str = include_str!("../../prompts/assistant.summary.md");
/// The chat answer's system prompt (`prompts/assistant.chat.md`): `{{today}}`, `{{context}}`.
pub const ASSISTANT_CHAT: &str = include_str!("../../prompts/assistant.chat.md");
/// The AI suggestions' system prompt (`prompts/suggestions.system.md`).
pub const SUGGESTIONS_SYSTEM: &str = include_str!("../../prompts/suggestions.system.md");
/// The AI suggestions' user prompt (`prompts/suggestions.user.md`): `{{exercise}}`, `{{unit}}`,
/// `{{prescription}}`, `{{current}}`, `{{previous}}`, `{{rules}}`.
pub const SUGGESTIONS_USER: &str = include_str!("../../prompts/suggestions.user.md");
/// The AI suggestions' choices prompt (`prompts/suggestions.choices.md`), fixed text with
/// few-shot examples (so its prompt prefix is cached); the exercise and its candidates go in the
/// user turn (`suggest::ai::choices::choices_prompt`).
pub const SUGGESTIONS_CHOICES: &str = include_str!("../../prompts/suggestions.choices.md");
/// The meal slot reranking's system prompt (`prompts/meals.rerank.md`); the slot, preferences,
/// recent meals and candidates go in the user turn (`meals::rerank::prompt_input`).
pub const MEALS_RERANK: &str = include_str!("../../prompts/meals.rerank.md");
/// The generic repair request of validated generation (`prompts/repair.md`): `{{lines}}`, the
/// validator's error lines, each as `- line` and a newline.
pub const REPAIR: &str = include_str!("../../prompts/repair.md");
/// The workout analyzer's system prompt (`prompts/workout.analyzer.md`); the user turn holds the
/// inputs, the pre-analysis facts and the per-request schema.
pub const WORKOUT_ANALYZER: &str = include_str!("../../prompts/workout.analyzer.md");
/// The workout generator's system prompt (`prompts/workout.generator.md`); the user turn holds the
/// analyzer plan, the workout id and the schema.
pub const WORKOUT_GENERATOR: &str = include_str!("../../prompts/workout.generator.md");
/// Today-plan generation's system prompt (`prompts/plan.generate.md`); the date, time zone, the
/// user's notes and the schema go in the user turn (`plan::generate::user_prompt`).
pub const PLAN_GENERATE: &str = include_str!("../../prompts/plan.generate.md");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_prompt_is_non_empty_text() {
        for p in [
            ASSISTANT_ROUTER,
            ASSISTANT_PROPOSE,
            ASSISTANT_REPAIR,
            ASSISTANT_NARROW,
            ASSISTANT_SUMMARY,
            ASSISTANT_CHAT,
            SUGGESTIONS_SYSTEM,
            SUGGESTIONS_USER,
            SUGGESTIONS_CHOICES,
            MEALS_RERANK,
            REPAIR,
            WORKOUT_ANALYZER,
            WORKOUT_GENERATOR,
            PLAN_GENERATE,
        ] {
            assert!(p.trim().len() > 20, "{p:?}");
        }
    }
}
