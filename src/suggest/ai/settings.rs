//! The AI source's settings and report: the model step's schema, the kinds of change the model
//! may make, the limits of a run, [`AiSuggestionSettings`], [`AiRunReport`] and [`AiRun`]. The
//! module documentation (`ai/mod.rs`) says how they are used.

use crate::llm::structured::DEFAULT_ATTEMPTS;
use crate::llm::Sampling;
use crate::suggest::model::SuggestionDraft;

/// The JSON Schema of one model step (`schemas/ai-suggestion-step.json`).
pub const STEP_SCHEMA: &str = include_str!("../../../schemas/ai-suggestion-step.json");

/// The change types the model may propose, as spelled in the schema.
pub const AI_CHANGE_TYPES: [&str; 6] = [
    "increaseWeight",
    "decreaseWeight",
    "increaseReps",
    "decreaseReps",
    "increaseRest",
    "decreaseRest",
];
/// Suggestions per exercise, at most.
pub const MAX_SUGGESTIONS: usize = 5;
/// Sessions `getRecentExercisePerformances` returns, at most.
pub const MAX_RECENT: u32 = 5;
/// Reasoning kept per suggestion, in characters (the schema's `maxLength`).
pub const MAX_REASONING_CHARS: usize = 160;
/// Name of the history tool.
pub const HISTORY_TOOL: &str = "getExerciseHistoryContext";
/// Name of the recent-performances tool.
pub const RECENT_TOOL: &str = "getRecentExercisePerformances";

/// Tokens of a choice reply, at most: the pick and a reason of up to 140 characters.
pub const CHOICE_MAX_TOKENS: u32 = 80;

/// How the AI source asks its model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum AiSuggestionMode {
    /// One call, no tools: the model picks one of the candidate changes code computed (or none)
    /// and writes the reason; no call at all when no candidate has evidence. The default: it
    /// helps even the smallest model (see the module documentation).
    #[default]
    Choices,
    /// The tool loop: the model writes up to 5 free numeric suggestions, calling the history
    /// tools first if it wants. For large models.
    ToolLoop,
}

/// How the AI source talks to its model.
#[derive(Debug, Clone, PartialEq)]
pub struct AiSuggestionSettings {
    /// Choices (the default) or the tool loop.
    pub mode: AiSuggestionMode,
    /// Tool calls answered before the model is asked for the final answer only. Default 4.
    pub max_steps: u32,
    /// Generations per step, the first plus repairs (see [`crate::llm::structured`]). Default 3.
    pub max_attempts: u32,
    /// Token choice (seeded: the same model and build give the same suggestions).
    pub sampling: Sampling,
    /// Tokens per reply. Default 512 (5 suggestions with full reasoning fit); choices use at
    /// most [`CHOICE_MAX_TOKENS`].
    pub max_tokens: u32,
    /// Budget of one exercise's whole run, in milliseconds (`None`: no limit). Default 60 s.
    pub timeout_ms: Option<u64>,
}

impl Default for AiSuggestionSettings {
    fn default() -> Self {
        AiSuggestionSettings {
            mode: AiSuggestionMode::default(),
            max_steps: 4,
            max_attempts: DEFAULT_ATTEMPTS,
            sampling: Sampling::default(),
            max_tokens: 512,
            timeout_ms: Some(60_000),
        }
    }
}

/// What one run cost and did.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct AiRunReport {
    /// Model steps (tool calls plus the final answer).
    pub steps: u32,
    /// The tools called, in order.
    pub tool_calls: Vec<String>,
    /// Generations over all steps (steps plus repairs).
    pub generations: u32,
    /// Whether the step limit was reached and the final answer was asked for alone.
    pub forced_final: bool,
    /// Suggestions of the final reply dropped as invalid after the repairs ran out.
    pub dropped: u32,
    /// Prompt tokens over all generations.
    pub prompt_tokens: u32,
    /// Generated tokens over all generations.
    pub completion_tokens: u32,
    /// Wall time of the run, in milliseconds.
    pub elapsed_ms: u64,
    /// Choices mode: the candidates offered (0: the model was not called).
    pub candidates: u32,
    /// Choices mode: what the model picked (`none`, `c1`...), when it was called.
    pub pick: Option<String>,
}

/// The drafts of one run and its report.
#[derive(Debug, Clone, PartialEq)]
pub struct AiRun {
    /// Valid, normalised drafts (source `Ai`), at most [`MAX_SUGGESTIONS`].
    pub drafts: Vec<SuggestionDraft>,
    /// What it cost.
    pub report: AiRunReport,
}
