//! The AI suggestion source (spec 004 "AI Suggestion Integration"): after the rules, a
//! [`LanguageModel`](crate::llm::LanguageModel) adds quantifiable changes (weight, reps, rest) to
//! an exercise's suggestions, in one of two modes ([`AiSuggestionSettings::mode`]).
//!
//! ## Choices (the default)
//! Made so that even the smallest model helps (issue 10; SmolLM2-135M kept no draft in the tool
//! loop). Code computes a short list of candidate changes ([`choices::candidates`]): load steps the
//! user's plates or dumbbells can make, rep changes of 1 or 2 within the rep range, rest changes of
//! 30 s within 0..900 s in the exercise's rest mode, set type changes where the hygiene rules are
//! silent (a light last set after the top set logged as regular: a drop set; a light ramp-up set
//! after the first two: a warmup), each one only with the evidence code sees for it (e.g. "reps
//! fell from 12 to 7 (42%) across sets with 60 s rest; last time 11 to 7"), and none that a rule
//! already proposes for the same property. Rep ranges and set counts are not offered.
//! - **No evidence, no call.** Without candidates the model is not called and the exercise gets
//!   no AI draft.
//! - **One call, no tools.** Otherwise the model reads `prompts/suggestions.choices.md` (fixed
//!   text with few-shot examples first, so the engine's prompt-prefix cache reuses it) and the
//!   candidates in the user turn, and answers under a per-request JSON Schema
//!   ([`choices::pick_schema`]): `{"pick": "none" | "c1" | ..., "reason": text of at most 140
//!   characters}`, at most [`CHOICE_MAX_TOKENS`] tokens, repaired like a tool-loop step.
//! - **The pick becomes a draft** exactly like a tool-loop one (source `Ai`, no rule id, the
//!   performance ids of the recent sessions, the target set, `oldValue`, `newValue` and the
//!   evidence's figures), through the same normalisation and checks below; its reasoning is the
//!   model's reason, or the evidence when the reason is empty or not a sentence. `none` gives no
//!   draft. Every candidate is built so that `suggestions().accept` can apply it.
//! - One log line per exercise: the candidates' kinds, the pick, tokens and time, never the
//!   user's data.
//!
//! ## The tool loop ([`AiSuggestionMode::ToolLoop`], for large models)
//! The model proposes up to 5 free numeric changes per exercise.
//! Every model reply is one JSON object matching `schemas/ai-suggestion-step.json`: a tool call
//! (`{"tool":"getExerciseHistoryContext"}`, `{"tool":"getRecentExercisePerformances","limit":N}`)
//! or the final answer (`{"suggestions":[...]}`). The schema goes with each request, so the llama
//! engine constrains decoding to it (a grammar); other models are validated afterwards. Each step
//! is one validated generation ([`crate::llm::structured`]): the reply is parsed, checked against the domain below, and
//! repaired up to [`AiSuggestionSettings::max_attempts`] times with the validator's lines.
//!
//! Tool calls are answered through [`SuggestionTools`](crate::suggest::service::SuggestionTools) (SQLite) and given back to the model as a
//! user message holding compact JSON. Decisions:
//! - **Each tool once.** A called tool is left out of the next step's schema (its result is already
//!   in the chat; small models otherwise call the same tool again and again). With both tools used
//!   the next step allows only the final answer, so the loop ends after at most 3 model steps.
//! - **Step limit.** After [`AiSuggestionSettings::max_steps`] tool calls (default 4, so in
//!   practice the two tools bound it first), the model is asked once more, for the final answer
//!   only (schema narrowed to it). `max_steps = 0` asks for the final answer at once, with no tools.
//! - **Timeout.** [`AiSuggestionSettings::timeout_ms`] is the budget of the whole run for one
//!   exercise: each model call gets what is left of it (repairs of one step share the step's
//!   start value), and a run with nothing left fails with `TimedOut`.
//!
//! ## Scope of the model's changes
//! The AI may change weight, reps and rest, up or down ([`AI_CHANGE_TYPES`]); set types, rep ranges
//! and the number of sets stay with the rules (their values are not numbers, and the hygiene rules
//! already cover set types). `targetSetIndex` names a set of the prescription; -1 means the
//! exercise, which only rest can target, and only in the all-same rest mode (per-set rest names a
//! set; all-same rest must use -1).
//!
//! ## Normalisation and validation
//! Each suggestion is normalised, then checked; every problem is an [`Issue`](crate::llm::structured::Issue) with its JSON path
//! (e.g. `suggestions[1].targetSetIndex`) for the repair loop:
//! - weight: rounded with [`round_to_achievable`](super::metrics::round_to_achievable) (owned plates or dumbbells, else 2.5 lb
//!   or 1.25 kg); must stay above 0, within a third to 3x the current weight, and at most 2000 lb
//!   (907 kg); body-weight sets (target weight 0) take no weight change, as with the rules;
//! - reps: rounded to a whole number (halves up), 1 to 100 and within half to twice the current
//!   target reps (when the set has one);
//! - rest: rounded to whole seconds, 0 to 900;
//! - the change type must be one of [`AI_CHANGE_TYPES`], the set must exist, the new value must
//!   differ from the current one (after rounding) and go in the change type's direction.
//!
//! When the repairs run out and the last reply parsed, its valid suggestions are kept and the
//! invalid ones dropped ([`AiRunReport::dropped`]); a reply that does not parse at all ends the run
//! with the model error. Suggestions that repeat a rule's are not removed here: the pipeline's
//! deduplicator resolves them, rules winning ties.
//!
//! Drafts have source `Ai`, no rule id, the property of their change type, the prescription's
//! current value as `old_value`, and as evidence the ids of the performances the model saw (the
//! prompt's and the tool results', newest first), the target set, and the figures `oldValue`,
//! `newValue` (and `proposedValue` when normalising changed the model's number).
//!
//! Errors: model failures ([`LlmError`](crate::llm::LlmError)) become [`Error::Llm`](crate::kernel::error::Error::Llm); the
//! pipeline treats any error as "no AI suggestions" for the exercise. Logs carry step numbers,
//! tool names, counts and timings, never the user's data.
//!
//! | file | concern |
//! |---|---|
//! | `mod.rs` | the limits, settings and report types |
//! | `service.rs` | [`LlmSuggestionSource`], the part that calls the model: choices or the tool loop |
//! | `choices.rs` | the candidates, their evidence, the pick's schema and prompt, reading the pick |
//! | `set_types.rs` | the set type candidates (a drop set logged as regular, a light ramp-up set) |
//! | `checks.rs` | reading a reply: tool call or final answer, normalising and checking each suggestion |
//! | `prompt.rs` | what the model reads: the user prompt, tool results, the step schemas |

mod candidate;
mod checks;
pub mod choices;
mod prompt;
mod service;
mod set_types;
mod settings;

pub use prompt::user_prompt;
pub use service::LlmSuggestionSource;
pub use settings::*;

#[cfg(test)]
mod tests {
    use super::checks::*;
    use super::prompt::*;
    use super::*;
    use crate::suggest::model::WeightUnit;
    use serde_json::{json, Value};

    #[test]
    fn schema_alternatives_and_change_types_agree_with_the_code() {
        let schema: Value = serde_json::from_str(STEP_SCHEMA).unwrap();
        let [h, r, f] = alternatives()
            .clone()
            .map(|a| serde_json::from_str::<Value>(&a).unwrap());
        assert_eq!(h["properties"]["tool"]["const"], HISTORY_TOOL);
        assert_eq!(r["properties"]["limit"]["maximum"], MAX_RECENT);
        let item = &f["properties"]["suggestions"]["items"]["properties"];
        let names: Vec<&str> = item["changeType"]["enum"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        assert_eq!(names, AI_CHANGE_TYPES);
        assert!(names.iter().all(|n| change_type(n).is_some()));
        assert_eq!(item["reasoning"]["maxLength"], MAX_REASONING_CHARS);
        assert_eq!(f["properties"]["suggestions"]["maxItems"], MAX_SUGGESTIONS);
        assert_eq!(schema["anyOf"].as_array().unwrap().len(), 3);
        for n in AI_CHANGE_TYPES {
            assert_eq!(spelled(&change_type(n).unwrap()), json!(n));
        }
    }

    #[test]
    fn step_schemas_narrow_with_the_offer() {
        let all: Value = serde_json::from_str(&step_schema(Offer {
            history: true,
            recent: true,
        }))
        .unwrap();
        assert_eq!(all["anyOf"].as_array().unwrap().len(), 3);
        let one: Value = serde_json::from_str(&step_schema(Offer {
            history: false,
            recent: true,
        }))
        .unwrap();
        assert_eq!(one["anyOf"].as_array().unwrap().len(), 2);
        let last: Value = serde_json::from_str(&step_schema(Offer {
            history: false,
            recent: false,
        }))
        .unwrap();
        assert!(last["properties"]["suggestions"].is_object());
        assert!(last.get("anyOf").is_none());
    }

    #[test]
    fn numbers_print_without_noise() {
        assert_eq!(fmt(135.0), "135");
        assert_eq!(fmt(137.5), "137.5");
        assert_eq!(num(120.0), json!(120));
        assert_eq!(num(61.25), json!(61.25));
        assert_eq!(max_weight(WeightUnit::Kg), 907.0);
    }
}
