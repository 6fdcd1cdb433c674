//! The AI suggestion source (spec 004 "AI Suggestion Integration"): a [`LanguageModel`] proposes
//! up to 5 quantifiable changes per exercise, after the rules, through a small tool loop.
//!
//! ## The tool loop
//! Every model reply is one JSON object matching `schemas/ai-suggestion-step.json`: a tool call
//! (`{"tool":"getExerciseHistoryContext"}`, `{"tool":"getRecentExercisePerformances","limit":N}`)
//! or the final answer (`{"suggestions":[...]}`). The schema goes with each request, so the llama
//! engine constrains decoding to it (a grammar); other models are validated afterwards. Each step
//! is one [`generate_validated`] call: the reply is parsed, checked against the domain below, and
//! repaired up to [`AiSuggestionSettings::max_attempts`] times with the validator's lines.
//!
//! Tool calls are answered through [`SuggestionTools`] (SQLite) and given back to the model as a
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
//! Each suggestion is normalised, then checked; every problem is an [`Issue`] with its JSON path
//! (e.g. `suggestions[1].targetSetIndex`) for the repair loop:
//! - weight: rounded with [`metrics::round_to_achievable`] (owned plates or dumbbells, else 2.5 lb
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
//! Errors: model failures ([`LlmError`]) become [`Error::Llm`](crate::error::Error::Llm); the
//! pipeline treats any error as "no AI suggestions" for the exercise. Logs carry step numbers, tool names, counts and timings,
//! never the user's data.

use std::cell::RefCell;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Instant;

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::metrics;
use super::model::{
    ChangeProperty, ChangeType, ChangeValue, Evidence, EvidenceFigure, ExerciseContext,
    ExerciseHistory, ExercisePerformance, PerformedSet, RepRange, RepRangeMode, RestMode,
    SetPrescription, SetType, SuggestionDraft, SuggestionSource, WeightUnit,
};
use super::service::{AiRunControl, AiSuggestionSource, SuggestionTools};
use crate::error::Result;
use crate::llm::structured::{generate_validated, Issue, DEFAULT_ATTEMPTS};
use crate::llm::{
    CancelToken, ChatMessage, ChatRole, GenerationRequest, GenerationResult, LanguageModel,
    LlmError, ModelInfo, Sampling, TokenListener,
};

/// The JSON Schema of one model step (`schemas/ai-suggestion-step.json`).
pub const STEP_SCHEMA: &str = include_str!("../../schemas/ai-suggestion-step.json");
use crate::prompts::{SUGGESTIONS_SYSTEM as SYSTEM_PROMPT, SUGGESTIONS_USER as USER_TEMPLATE};

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

/// The heaviest weight the AI may propose, in pounds.
const MAX_WEIGHT_LBS: f64 = 2000.0;
/// A new weight may be at most this many times the current one, and at least its this-many-th.
const MAX_WEIGHT_FACTOR: f64 = 3.0;
/// Reps bounds.
const REPS: (f64, f64) = (1.0, 100.0);
/// Rest bounds, seconds.
const REST: (f64, f64) = (0.0, 900.0);
const DAY_MS: i64 = 86_400_000;

/// How the AI source talks to its model.
#[derive(Debug, Clone, PartialEq)]
pub struct AiSuggestionSettings {
    /// Tool calls answered before the model is asked for the final answer only. Default 4.
    pub max_steps: u32,
    /// Generations per step, the first plus repairs ([`generate_validated`]). Default 3.
    pub max_attempts: u32,
    /// Token choice (seeded: the same model and build give the same suggestions).
    pub sampling: Sampling,
    /// Tokens per reply. Default 512 (5 suggestions with full reasoning fit).
    pub max_tokens: u32,
    /// Budget of one exercise's whole run, in milliseconds (`None`: no limit). Default 60 s.
    pub timeout_ms: Option<u64>,
}

impl Default for AiSuggestionSettings {
    fn default() -> Self {
        AiSuggestionSettings {
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
}

/// The drafts of one run and its report.
#[derive(Debug, Clone, PartialEq)]
pub struct AiRun {
    /// Valid, normalised drafts (source `Ai`), at most [`MAX_SUGGESTIONS`].
    pub drafts: Vec<SuggestionDraft>,
    /// What it cost.
    pub report: AiRunReport,
}

/// The [`AiSuggestionSource`] backed by a [`LanguageModel`]: install it with
/// `Coach::set_ai_source`.
pub struct LlmSuggestionSource {
    model: Arc<dyn LanguageModel>,
    settings: AiSuggestionSettings,
}

impl std::fmt::Debug for LlmSuggestionSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LlmSuggestionSource")
            .field("model", &self.model.info().name)
            .field("settings", &self.settings)
            .finish()
    }
}

impl LlmSuggestionSource {
    /// A source on `model` with the default settings.
    pub fn new(model: Arc<dyn LanguageModel>) -> Self {
        Self::with_settings(model, AiSuggestionSettings::default())
    }

    /// A source on `model` with `settings`.
    pub fn with_settings(model: Arc<dyn LanguageModel>, settings: AiSuggestionSettings) -> Self {
        LlmSuggestionSource { model, settings }
    }

    /// The settings.
    pub fn settings(&self) -> &AiSuggestionSettings {
        &self.settings
    }

    /// Runs the tool loop for one exercise: the drafts and what the run cost. `cancel` stops the
    /// model call in progress (the run then fails with `Cancelled`).
    pub fn run(
        &self,
        ctx: &ExerciseContext,
        rule_drafts: &[SuggestionDraft],
        tools: &dyn SuggestionTools,
        cancel: &Arc<CancelToken>,
    ) -> Result<AiRun> {
        self.run_streaming(ctx, rule_drafts, tools, cancel, None)
    }

    /// [`run`](Self::run), streaming every generation's text to `listener`.
    pub fn run_streaming(
        &self,
        ctx: &ExerciseContext,
        rule_drafts: &[SuggestionDraft],
        tools: &dyn SuggestionTools,
        cancel: &Arc<CancelToken>,
        listener: Option<Arc<dyn TokenListener>>,
    ) -> Result<AiRun> {
        let started = Instant::now();
        let s = &self.settings;
        let mut report = AiRunReport::default();
        let model = Counting {
            inner: &*self.model,
            calls: AtomicU32::new(0),
            prompt_tokens: AtomicU32::new(0),
            completion_tokens: AtomicU32::new(0),
        };
        let mut seen = Seen::default();
        for p in ctx.recent() {
            seen.add(p);
        }
        let mut messages = vec![
            ChatMessage::new(ChatRole::System, SYSTEM_PROMPT.trim_end()),
            ChatMessage::new(ChatRole::User, user_prompt(ctx, rule_drafts)),
        ];
        let mut used = Offer {
            history: false,
            recent: false,
        };
        loop {
            let tool_steps = report.tool_calls.len() as u32;
            let final_only = tool_steps >= s.max_steps || (used.history && used.recent);
            report.forced_final |= final_only && tool_steps >= s.max_steps && s.max_steps > 0;
            let offer = Offer {
                history: !final_only && !used.history,
                recent: !final_only && !used.recent,
            };
            let timeout_ms = match s.timeout_ms {
                Some(budget) => {
                    let spent = started.elapsed().as_millis() as u64;
                    if spent >= budget {
                        return Err(LlmError::TimedOut { after_ms: budget }.into());
                    }
                    Some(budget - spent)
                }
                None => None,
            };
            let request = GenerationRequest {
                messages: messages.clone(),
                json_schema: Some(step_schema(offer)),
                sampling: s.sampling.clone(),
                max_tokens: s.max_tokens,
                timeout_ms,
            };
            report.steps += 1;
            let last: RefCell<Option<RawStep>> = RefCell::new(None);
            let outcome = generate_validated::<RawStep>(
                &model,
                request,
                s.max_attempts,
                listener.clone(),
                cancel,
                |raw| {
                    *last.borrow_mut() = Some(raw.clone());
                    interpret(raw, offer, ctx).issues
                },
            );
            let step = match outcome {
                Ok((raw, _)) => interpret(&raw, offer, ctx),
                Err(LlmError::InvalidOutput {
                    stage,
                    attempts,
                    detail,
                }) => {
                    let salvaged = match (stage.as_str(), last.into_inner()) {
                        ("domain", Some(raw)) => interpret(&raw, offer, ctx),
                        _ => Interpretation::default(),
                    };
                    if salvaged.step.is_none() {
                        log::warn!(target: "coachcore::suggest",
                            "ai step={} invalid after {attempts} attempts ({stage})", report.steps);
                        return Err(LlmError::InvalidOutput {
                            stage,
                            attempts,
                            detail,
                        }
                        .into());
                    }
                    salvaged
                }
                Err(e) => {
                    log::warn!(target: "coachcore::suggest", "ai step={} model error: {e}", report.steps);
                    return Err(e.into());
                }
            };
            match step.step {
                Some(Step::Final(changes)) => {
                    report.dropped = step.dropped;
                    report.generations = model.calls.load(Ordering::Relaxed);
                    report.prompt_tokens = model.prompt_tokens.load(Ordering::Relaxed);
                    report.completion_tokens = model.completion_tokens.load(Ordering::Relaxed);
                    let drafts: Vec<SuggestionDraft> =
                        changes.into_iter().map(|c| c.into_draft(&seen)).collect();
                    report.elapsed_ms = started.elapsed().as_millis() as u64;
                    log::info!(target: "coachcore::suggest",
                        "ai done steps={} tools={} generations={} drafts={} dropped={} \
                         prompt_tokens={} completion_tokens={} ms={}",
                        report.steps, report.tool_calls.len(), report.generations, drafts.len(),
                        report.dropped, report.prompt_tokens, report.completion_tokens,
                        report.elapsed_ms);
                    return Ok(AiRun { drafts, report });
                }
                Some(Step::History) => {
                    used.history = true;
                    let history = tools.exercise_history(&ctx.exercise.catalog_id)?;
                    report.tool_calls.push(HISTORY_TOOL.into());
                    messages.push(ChatMessage::new(
                        ChatRole::Assistant,
                        format!("{{\"tool\":\"{HISTORY_TOOL}\"}}"),
                    ));
                    let result = history
                        .as_ref()
                        .map_or_else(|| "\"no history yet\"".to_string(), history_json);
                    messages.push(ChatMessage::new(
                        ChatRole::User,
                        tool_message(
                            &format!("{HISTORY_TOOL} result: {result}"),
                            used,
                            report.tool_calls.len() as u32,
                            s.max_steps,
                        ),
                    ));
                }
                Some(Step::Recent(limit)) => {
                    used.recent = true;
                    let perfs = tools.recent_performances(
                        &ctx.exercise.catalog_id,
                        ctx.current.performed_at_ms,
                        limit,
                    )?;
                    for p in &perfs {
                        seen.add(p);
                    }
                    report.tool_calls.push(RECENT_TOOL.into());
                    messages.push(ChatMessage::new(
                        ChatRole::Assistant,
                        format!("{{\"tool\":\"{RECENT_TOOL}\",\"limit\":{limit}}}"),
                    ));
                    let list: Vec<PerformanceJson> = perfs
                        .iter()
                        .map(|p| performance_json(p, ctx.current.performed_at_ms))
                        .collect();
                    messages.push(ChatMessage::new(
                        ChatRole::User,
                        tool_message(
                            &format!(
                                "{RECENT_TOOL} result ({} before this one, newest first): {}",
                                match list.len() {
                                    1 => "1 session".to_string(),
                                    n => format!("{n} sessions"),
                                },
                                to_json(&list)
                            ),
                            used,
                            report.tool_calls.len() as u32,
                            s.max_steps,
                        ),
                    ));
                }
                None => unreachable!("an interpretation without a step is an error above"),
            }
            log::info!(target: "coachcore::suggest", "ai step={} tool={}", report.steps,
                report.tool_calls.last().map_or("", String::as_str));
        }
    }
}

impl AiSuggestionSource for LlmSuggestionSource {
    fn suggest(
        &self,
        ctx: &ExerciseContext,
        rule_drafts: &[SuggestionDraft],
        tools: &dyn SuggestionTools,
        control: &AiRunControl,
    ) -> Result<Vec<SuggestionDraft>> {
        Ok(self
            .run_streaming(
                ctx,
                rule_drafts,
                tools,
                &control.cancel,
                control.token_listener(),
            )?
            .drafts)
    }
}

/// Counts the generations and tokens of every call, whatever the outcome of validation.
struct Counting<'a> {
    inner: &'a dyn LanguageModel,
    calls: AtomicU32,
    prompt_tokens: AtomicU32,
    completion_tokens: AtomicU32,
}

impl LanguageModel for Counting<'_> {
    fn info(&self) -> ModelInfo {
        self.inner.info()
    }

    fn generate(
        &self,
        request: GenerationRequest,
        listener: Option<Arc<dyn TokenListener>>,
        cancel: Arc<CancelToken>,
    ) -> std::result::Result<GenerationResult, LlmError> {
        self.calls.fetch_add(1, Ordering::Relaxed);
        let out = self.inner.generate(request, listener, cancel)?;
        self.prompt_tokens
            .fetch_add(out.prompt_tokens, Ordering::Relaxed);
        self.completion_tokens
            .fetch_add(out.completion_tokens, Ordering::Relaxed);
        Ok(out)
    }
}

/// The tool result message, with what may come next.
fn tool_message(result: &str, used: Offer, tool_calls: u32, max_steps: u32) -> String {
    let next = if (used.history && used.recent) || tool_calls >= max_steps {
        "Now give the final answer."
    } else {
        "Call the other tool or give the final answer."
    };
    format!("{result}\n{next}")
}

/// Which tools a step offers (the final answer is always offered).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Offer {
    history: bool,
    recent: bool,
}

/// The schema's three alternatives as text (history call, recent call, final answer), cut from
/// the file without re-serialising: llama.cpp orders an object's keys as the schema lists them.
fn alternatives() -> &'static [String; 3] {
    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct File<'a> {
        #[serde(borrow)]
        any_of: Vec<&'a serde_json::value::RawValue>,
    }
    static ALTS: OnceLock<[String; 3]> = OnceLock::new();
    ALTS.get_or_init(|| {
        let file: File<'static> = serde_json::from_str(STEP_SCHEMA).expect("step schema anyOf");
        let find = |pred: &dyn Fn(&Value) -> bool| {
            file.any_of
                .iter()
                .find(|raw| {
                    let v: Value = serde_json::from_str(raw.get()).unwrap_or(Value::Null);
                    pred(&v["properties"])
                })
                .map(|raw| raw.get().to_string())
                .expect("step schema alternative")
        };
        [
            find(&|p| p["tool"]["const"] == HISTORY_TOOL),
            find(&|p| p["tool"]["const"] == RECENT_TOOL),
            find(&|p| p.get("suggestions").is_some()),
        ]
    })
}

/// The schema of a step offering `offer`'s tools and the final answer (the final answer's object
/// alone when no tool is offered).
fn step_schema(offer: Offer) -> String {
    let [history, recent, final_answer] = alternatives();
    let mut any_of: Vec<&str> = Vec::new();
    if offer.history {
        any_of.push(history);
    }
    if offer.recent {
        any_of.push(recent);
    }
    if any_of.is_empty() {
        return final_answer.clone();
    }
    any_of.push(final_answer);
    format!("{{\"anyOf\":[{}]}}", any_of.join(","))
}

/// One reply as parsed: the union of the schema's alternatives, checked by [`interpret`].
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct RawStep {
    #[serde(default)]
    tool: Option<String>,
    #[serde(default)]
    limit: Option<i64>,
    #[serde(default)]
    suggestions: Option<Vec<RawSuggestion>>,
}

/// One suggestion as parsed.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct RawSuggestion {
    change_type: String,
    target_set_index: i64,
    new_value: f64,
    reasoning: String,
}

/// What a reply asks for.
#[derive(Debug, Clone)]
enum Step {
    History,
    Recent(u32),
    Final(Vec<AiChange>),
}

/// A reply's problems and the step that can be taken anyway (valid suggestions only, a clamped
/// limit), if any.
#[derive(Debug, Default)]
struct Interpretation {
    step: Option<Step>,
    issues: Vec<Issue>,
    dropped: u32,
}

fn issue(path: impl Into<String>, message: impl Into<String>) -> Issue {
    Issue {
        path: path.into(),
        message: message.into(),
    }
}

/// Checks a reply against the step's offer and the domain.
fn interpret(raw: &RawStep, offer: Offer, ctx: &ExerciseContext) -> Interpretation {
    let mut out = Interpretation::default();
    match (&raw.tool, &raw.suggestions) {
        (Some(_), Some(_)) => out.issues.push(issue(
            "(root)",
            "give either a tool call or the suggestions, not both",
        )),
        (None, None) => {
            out.issues.push(issue(
                "(root)",
                "give a tool call {\"tool\":...} or the final answer {\"suggestions\":[...]}",
            ));
            return out;
        }
        _ => {}
    }
    if let Some(list) = &raw.suggestions {
        if raw.limit.is_some() {
            out.issues.push(issue(
                "limit",
                "only a getRecentExercisePerformances call has a limit",
            ));
        }
        if list.len() > MAX_SUGGESTIONS {
            out.issues.push(issue(
                "suggestions",
                format!("at most {MAX_SUGGESTIONS} suggestions"),
            ));
        }
        let mut changes = Vec::new();
        for (i, s) in list.iter().enumerate() {
            match normalise(ctx, i, s) {
                Ok(c) => changes.push(c),
                Err(mut issues) => {
                    out.dropped += 1;
                    out.issues.append(&mut issues);
                }
            }
        }
        let extra = changes.len().saturating_sub(MAX_SUGGESTIONS);
        changes.truncate(MAX_SUGGESTIONS);
        out.dropped += extra as u32;
        out.step = Some(Step::Final(changes));
        return out;
    }
    let Some(tool) = raw.tool.as_deref() else {
        return out;
    };
    let no_more_tools = !offer.history && !offer.recent;
    match tool {
        HISTORY_TOOL | RECENT_TOOL if no_more_tools => {
            out.issues.push(issue(
                "tool",
                "no more tool calls: give the final answer {\"suggestions\":[...]}",
            ));
        }
        HISTORY_TOOL if !offer.history => out.issues.push(issue(
            "tool",
            "getExerciseHistoryContext was already called; its result is above",
        )),
        RECENT_TOOL if !offer.recent => out.issues.push(issue(
            "tool",
            "getRecentExercisePerformances was already called; its result is above",
        )),
        HISTORY_TOOL => {
            if raw.limit.is_some() {
                out.issues
                    .push(issue("limit", "getExerciseHistoryContext takes no limit"));
            }
            out.step = Some(Step::History);
        }
        RECENT_TOOL => {
            let limit = match raw.limit {
                Some(n) if (1..=MAX_RECENT as i64).contains(&n) => n as u32,
                Some(n) => {
                    out.issues.push(issue(
                        "limit",
                        format!("must be 1 to {MAX_RECENT}"),
                    ));
                    n.clamp(1, MAX_RECENT as i64) as u32
                }
                None => {
                    out.issues.push(issue(
                        "limit",
                        format!("required: how many sessions, 1 to {MAX_RECENT}"),
                    ));
                    MAX_RECENT
                }
            };
            out.step = Some(Step::Recent(limit));
        }
        _ => out.issues.push(issue(
            "tool",
            "unknown tool: the tools are getExerciseHistoryContext and getRecentExercisePerformances",
        )),
    }
    out
}

/// A valid, normalised change.
#[derive(Debug, Clone)]
struct AiChange {
    change_type: ChangeType,
    target_set_index: Option<u32>,
    property: ChangeProperty,
    old_value: f64,
    new_value: f64,
    proposed: f64,
    reasoning: String,
}

impl AiChange {
    fn into_draft(self, seen: &Seen) -> SuggestionDraft {
        let mut figures = vec![
            EvidenceFigure {
                name: "oldValue".into(),
                value: self.old_value,
            },
            EvidenceFigure {
                name: "newValue".into(),
                value: self.new_value,
            },
        ];
        if self.proposed != self.new_value {
            figures.push(EvidenceFigure {
                name: "proposedValue".into(),
                value: self.proposed,
            });
        }
        SuggestionDraft {
            source: SuggestionSource::Ai,
            rule_id: None,
            change_type: self.change_type,
            target_set_index: self.target_set_index,
            property: self.property,
            old_value: Some(ChangeValue::Number {
                value: self.old_value,
            }),
            new_value: ChangeValue::Number {
                value: self.new_value,
            },
            reasoning: self.reasoning,
            evidence: Evidence {
                performance_ids: seen.ids(),
                set_indexes: self.target_set_index.into_iter().collect(),
                figures,
            },
        }
    }
}

/// The change type of a schema spelling, if the AI may use it.
fn change_type(name: &str) -> Option<ChangeType> {
    Some(match name {
        "increaseWeight" => ChangeType::IncreaseWeight,
        "decreaseWeight" => ChangeType::DecreaseWeight,
        "increaseReps" => ChangeType::IncreaseReps,
        "decreaseReps" => ChangeType::DecreaseReps,
        "increaseRest" => ChangeType::IncreaseRest,
        "decreaseRest" => ChangeType::DecreaseRest,
        _ => return None,
    })
}

/// Normalises and checks suggestion `i`; the issues when it is not acceptable.
fn normalise(
    ctx: &ExerciseContext,
    i: usize,
    s: &RawSuggestion,
) -> std::result::Result<AiChange, Vec<Issue>> {
    let at = |field: &str| format!("suggestions[{i}].{field}");
    let mut issues = Vec::new();
    let Some(ct) = change_type(s.change_type.trim()) else {
        return Err(vec![issue(
            at("changeType"),
            format!("must be one of {}", AI_CHANGE_TYPES.join(", ")),
        )]);
    };
    let (property, up, what) = match ct {
        ChangeType::IncreaseWeight => (ChangeProperty::Weight, true, "weight"),
        ChangeType::DecreaseWeight => (ChangeProperty::Weight, false, "weight"),
        ChangeType::IncreaseReps => (ChangeProperty::Reps, true, "reps"),
        ChangeType::DecreaseReps => (ChangeProperty::Reps, false, "reps"),
        ChangeType::IncreaseRest => (ChangeProperty::Rest, true, "rest"),
        _ => (ChangeProperty::Rest, false, "rest"),
    };
    let sets = set_list(ctx);
    let index = s.target_set_index;
    let set = if index == -1 {
        None
    } else {
        match u32::try_from(index)
            .ok()
            .and_then(|x| ctx.set_prescription(x))
        {
            Some(set) => Some(set),
            None => {
                return Err(vec![issue(
                    at("targetSetIndex"),
                    format!("there is no set {index}; the sets are {sets}"),
                )])
            }
        }
    };
    let per_set_rest = ctx.prescription.rest_mode == RestMode::PerSet;
    let old = match (property, set) {
        (ChangeProperty::Rest, None) if per_set_rest => {
            return Err(vec![issue(
                at("targetSetIndex"),
                format!("this exercise has a rest time per set: name a set ({sets}), not -1"),
            )])
        }
        (ChangeProperty::Rest, Some(_)) if !per_set_rest => {
            return Err(vec![issue(
                at("targetSetIndex"),
                "this exercise has one rest time for all sets: use -1",
            )])
        }
        (ChangeProperty::Rest, None) => ctx.prescription.rest_seconds as f64,
        (ChangeProperty::Rest, Some(set)) => set.rest_seconds as f64,
        (ChangeProperty::Reps, Some(set)) => set.target_reps as f64,
        (_, Some(set)) => set.target_weight,
        (_, None) => {
            return Err(vec![issue(
                at("targetSetIndex"),
                format!("a {what} change names a set ({sets}), not -1"),
            )])
        }
    };
    let proposed = s.new_value;
    if !proposed.is_finite() {
        return Err(vec![issue(at("newValue"), "must be a finite number")]);
    }
    let unit = ctx.plan.unit;
    let new = match property {
        ChangeProperty::Weight => {
            if !(old > 0.0 && old.is_finite()) {
                return Err(vec![issue(
                    at("targetSetIndex"),
                    format!("set {index} is a body-weight set (weight 0): no weight change"),
                )]);
            }
            let new = metrics::round_to_achievable(
                proposed,
                ctx.exercise.equipment,
                &ctx.plan.load,
                unit,
            );
            let max = (old * MAX_WEIGHT_FACTOR).min(max_weight(unit));
            let min = old / MAX_WEIGHT_FACTOR;
            if !(new > 0.0 && new >= min - 1e-9 && new <= max) {
                issues.push(issue(
                    at("newValue"),
                    format!(
                        "the weight must be {} to {} {} (the current is {})",
                        fmt(min),
                        fmt(max),
                        unit.symbol(),
                        fmt(old)
                    ),
                ));
            }
            new
        }
        ChangeProperty::Reps => {
            let new = proposed.round();
            let (lo, hi) = if old > 0.0 {
                ((old / 2.0).ceil().max(REPS.0), (old * 2.0).min(REPS.1))
            } else {
                REPS
            };
            if !(lo..=hi).contains(&new) {
                let why = if old > 0.0 {
                    format!(" (half to twice the current {})", fmt(old))
                } else {
                    String::new()
                };
                issues.push(issue(
                    at("newValue"),
                    format!("reps must be {} to {}{why}", fmt(lo), fmt(hi)),
                ));
            }
            new
        }
        _ => {
            let new = proposed.round();
            if !(REST.0..=REST.1).contains(&new) {
                issues.push(issue(
                    at("newValue"),
                    format!("rest must be {} to {} seconds", REST.0, REST.1),
                ));
            }
            new
        }
    };
    if issues.is_empty() {
        if new == old {
            let rounded = if new != proposed {
                format!("{} rounds to {}, ", fmt(proposed), fmt(new))
            } else {
                String::new()
            };
            issues.push(issue(
                at("newValue"),
                format!(
                    "{rounded}the current {what} is already {}: propose a different value or leave this change out",
                    fmt(old)
                ),
            ));
        } else if up != (new > old) {
            let (dir, other) = if up {
                ("above", "decrease")
            } else {
                ("below", "increase")
            };
            let name = AI_CHANGE_TYPES
                .iter()
                .find(|n| change_type(n) == Some(ct))
                .copied()
                .unwrap_or_default();
            issues.push(issue(
                at("newValue"),
                format!(
                    "{name} needs a value {dir} the current {}; use {other}{} for {}",
                    fmt(old),
                    capitalised(what),
                    fmt(new)
                ),
            ));
        }
    }
    if !issues.is_empty() {
        return Err(issues);
    }
    let target_set_index = set.map(|s| s.index);
    let mut reasoning: String = s.reasoning.split_whitespace().collect::<Vec<_>>().join(" ");
    if let Some((cut, _)) = reasoning.char_indices().nth(MAX_REASONING_CHARS) {
        reasoning.truncate(cut);
    }
    if reasoning.is_empty() {
        let target =
            target_set_index.map_or_else(|| "the exercise".to_string(), |i| format!("set {i}"));
        reasoning = format!(
            "Change the {what} of {target} from {} to {}.",
            fmt(old),
            fmt(new)
        );
    }
    Ok(AiChange {
        change_type: ct,
        target_set_index,
        property,
        old_value: old,
        new_value: new,
        proposed,
        reasoning,
    })
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// The heaviest weight the AI may propose, in `unit`.
fn max_weight(unit: WeightUnit) -> f64 {
    (MAX_WEIGHT_LBS / metrics::to_lbs(1.0, unit)).floor()
}

/// The prescription's set indexes, e.g. `0, 1, 2`.
fn set_list(ctx: &ExerciseContext) -> String {
    let mut idx: Vec<u32> = ctx.prescription.sets.iter().map(|s| s.index).collect();
    idx.sort_unstable();
    idx.iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// A number for messages: `135`, `137.5`.
fn fmt(x: f64) -> String {
    let r = (x * 1000.0).round() / 1000.0;
    if r.fract() == 0.0 && r.abs() < 1e15 {
        format!("{}", r as i64)
    } else {
        format!("{r}")
    }
}

/// A number for the prompt's JSON: whole numbers without `.0`.
fn num(x: f64) -> Value {
    let r = (x * 1000.0).round() / 1000.0;
    if r.fract() == 0.0 && r.abs() < 1e15 {
        json!(r as i64)
    } else {
        json!(r)
    }
}

/// The performances the model saw, for evidence.
#[derive(Debug, Default)]
struct Seen(Vec<(i64, String)>);

impl Seen {
    fn add(&mut self, p: &ExercisePerformance) {
        if !self.0.iter().any(|(_, id)| id == &p.id) {
            self.0.push((p.performed_at_ms, p.id.clone()));
        }
    }

    /// Ids, newest first.
    fn ids(&self) -> Vec<String> {
        let mut v = self.0.clone();
        v.sort_by_key(|x| std::cmp::Reverse(x.0));
        v.into_iter().map(|(_, id)| id).collect()
    }
}

/// Serde's camelCase spelling of a unit-like enum value.
fn spelled<T: Serialize>(v: &T) -> Value {
    serde_json::to_value(v).unwrap_or(Value::Null)
}

// The prompt's JSON is built from structs so that keys keep a readable order (a set's index first)
// whatever features `serde_json` is built with; `Option`s left out are omitted.

#[derive(Serialize)]
struct ExerciseJson<'a> {
    name: &'a str,
    equipment: Value,
    muscles: Vec<Value>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PrescriptionJson {
    rep_range: Value,
    rest_seconds: Value,
    sets: Vec<String>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PerformanceJson {
    days_ago: i64,
    sets: Vec<String>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct HistoryJson {
    sessions: u32,
    typical_reps: Value,
    best_e1rm: Value,
    last_e1rm: Value,
    trend: Value,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct RuleJson {
    change_type: Value,
    target_set_index: i64,
    new_value: Value,
}

fn to_json<T: Serialize>(v: &T) -> String {
    serde_json::to_string(v).unwrap_or_default()
}

/// The user prompt: [`USER_TEMPLATE`] with the exercise as compact JSON.
pub fn user_prompt(ctx: &ExerciseContext, rule_drafts: &[SuggestionDraft]) -> String {
    let exercise = ExerciseJson {
        name: &ctx.exercise.name,
        equipment: spelled(&ctx.exercise.equipment),
        muscles: ctx.exercise.target_muscles.iter().map(spelled).collect(),
    };
    let now = ctx.current.performed_at_ms;
    let previous: Vec<PerformanceJson> = ctx
        .previous
        .iter()
        .take(3)
        .map(|p| performance_json(p, now))
        .collect();
    let rules: Vec<RuleJson> = rule_drafts.iter().map(rule_json).collect();
    USER_TEMPLATE
        .trim_end()
        .replace("{{exercise}}", &to_json(&exercise))
        .replace("{{unit}}", ctx.plan.unit.symbol())
        .replace("{{prescription}}", &to_json(&prescription_json(ctx)))
        .replace(
            "{{current}}",
            &to_json(&performance_json(&ctx.current, now)),
        )
        .replace(
            "{{previous}}",
            &if previous.is_empty() {
                "none".to_string()
            } else {
                to_json(&previous)
            },
        )
        .replace(
            "{{rules}}",
            &if rules.is_empty() {
                "nothing".to_string()
            } else {
                to_json(&rules)
            },
        )
}

fn rep_range_json(r: &RepRange) -> Value {
    match r.mode {
        RepRangeMode::Range => json!(format!("{}-{}", r.lower, r.upper)),
        RepRangeMode::Target => json!(r.target),
        RepRangeMode::NotSet => json!("not set"),
    }
}

/// One set as `"1: 135x10"` (index: weight x reps), then its type when not regular, the rest
/// (`rest 90s`) and `not done`, when given. A third of the tokens of a JSON object.
fn set_text(
    index: u32,
    set_type: SetType,
    weight: f64,
    reps: u32,
    rest: Option<u32>,
    done: bool,
) -> String {
    let mut t = format!("{index}: {}x{reps}", fmt(weight));
    if set_type != SetType::Regular {
        t.push(' ');
        t.push_str(spelled(&set_type).as_str().unwrap_or_default());
    }
    if let Some(r) = rest {
        t.push_str(&format!(" rest {r}s"));
    }
    if !done {
        t.push_str(" not done");
    }
    t
}

/// The prescription: rep range (`"8-12"`, a target number, or `"not set"`), the exercise's rest
/// seconds (or `"per set"`, then each set shows its own), and the sets as [`set_text`].
fn prescription_json(ctx: &ExerciseContext) -> PrescriptionJson {
    let rx = &ctx.prescription;
    let per_set = rx.rest_mode == RestMode::PerSet;
    let mut sets: Vec<&SetPrescription> = rx.sets.iter().collect();
    sets.sort_by_key(|s| s.index);
    PrescriptionJson {
        rep_range: rep_range_json(&rx.rep_range),
        rest_seconds: if per_set {
            json!("per set")
        } else {
            json!(rx.rest_seconds)
        },
        sets: sets
            .into_iter()
            .map(|s| {
                let rest = per_set.then_some(s.rest_seconds);
                set_text(
                    s.index,
                    s.set_type,
                    s.target_weight,
                    s.target_reps,
                    rest,
                    true,
                )
            })
            .collect(),
    }
}

/// A performance for the model: days before the current session and the sets as [`set_text`].
fn performance_json(p: &ExercisePerformance, current_ms: i64) -> PerformanceJson {
    let days = ((current_ms - p.performed_at_ms) as f64 / DAY_MS as f64).round() as i64;
    let mut sets: Vec<&PerformedSet> = p.sets.iter().collect();
    sets.sort_by_key(|s| s.index);
    PerformanceJson {
        days_ago: days.max(0),
        sets: sets
            .into_iter()
            .map(|s| {
                set_text(
                    s.index,
                    s.set_type,
                    s.weight,
                    s.reps,
                    s.rest_seconds,
                    s.completed,
                )
            })
            .collect(),
    }
}

fn history_json(h: &ExerciseHistory) -> String {
    let round1 = |x: f64| num((x * 10.0).round() / 10.0);
    to_json(&HistoryJson {
        sessions: h.session_count,
        typical_reps: json!({ "lower": h.typical_lower_reps, "upper": h.typical_upper_reps }),
        best_e1rm: round1(h.best_e1rm),
        last_e1rm: round1(h.last_e1rm),
        trend: spelled(&h.trend),
    })
}

/// A rule draft for the prompt.
fn rule_json(d: &SuggestionDraft) -> RuleJson {
    RuleJson {
        change_type: spelled(&d.change_type),
        target_set_index: d.target_set_index.map_or(-1, i64::from),
        new_value: match &d.new_value {
            ChangeValue::Number { value } => num(*value),
            ChangeValue::SetType { value } => spelled(value),
            ChangeValue::RepRange { value } => rep_range_json(value),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
