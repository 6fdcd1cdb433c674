//! The AI suggestion source's model calls: choices (the default, one call picking among
//! [`candidates`](super::choices::candidates)) or the tool loop. In the tool loop each step is one
//! [`generate_validated`] call whose reply is read by [`interpret`](super::checks); tool calls are
//! answered through [`SuggestionTools`] and handed back as a message, until the final answer.
//! See the [module documentation](super) for the loop's decisions (each tool once, step limit,
//! timeout).

use std::cell::RefCell;
use std::sync::Arc;
use std::time::Instant;

use super::checks::{interpret, Interpretation, RawStep, Seen, Step};
use super::choices::{self, candidates, choices_prompt, pick_schema, read_pick, RawPick};
use super::prompt::{history_result, recent_result, step_schema, tool_message, user_prompt, Offer};
use super::{
    AiRun, AiRunReport, AiSuggestionMode, AiSuggestionSettings, CHOICE_MAX_TOKENS, HISTORY_TOOL,
    RECENT_TOOL,
};
use crate::kernel::error::{OutputStage, Result};
use crate::kernel::ids::IdGenerator;
use crate::kernel::prompts::SUGGESTIONS_CHOICES as CHOICES_PROMPT;
use crate::kernel::prompts::SUGGESTIONS_SYSTEM as SYSTEM_PROMPT;
use crate::llm::breaker::Breaker;
use crate::llm::metered::Metered;
use crate::llm::structured::{generate_validated, Issue};
use crate::llm::{
    CancelToken, ChatMessage, ChatRole, GenerationRequest, LanguageModel, LlmError, TokenListener,
};
use crate::suggest::model::{ExerciseContext, SuggestionDraft};
use crate::suggest::service::{AiRunControl, AiSuggestionSource, SuggestionTools};

/// The [`AiSuggestionSource`] backed by a [`LanguageModel`]: install it with
/// `Models::set_ai_source`.
pub struct LlmSuggestionSource {
    model: Arc<dyn LanguageModel>,
    breaker: Option<Arc<Breaker>>,
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
        LlmSuggestionSource {
            model,
            breaker: None,
            settings,
        }
    }

    /// Calls the model behind `breaker` (the model's circuit breaker, shared with the other
    /// features; `Models::set` sets it).
    pub fn with_breaker(mut self, breaker: Option<Arc<Breaker>>) -> Self {
        self.breaker = breaker;
        self
    }

    /// The settings.
    pub fn settings(&self) -> &AiSuggestionSettings {
        &self.settings
    }

    /// Runs the AI for one exercise (choices or the tool loop, as the settings say): the drafts
    /// and what the run cost. `cancel` stops the model call in progress (the run then fails with
    /// `Cancelled`).
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
        match self.settings.mode {
            AiSuggestionMode::Choices => self.run_choices(ctx, rule_drafts, cancel, listener),
            AiSuggestionMode::ToolLoop => {
                self.run_tool_loop(ctx, rule_drafts, tools, cancel, listener)
            }
        }
    }

    /// Choices: the candidates code computes, then (when there are any) one model call that picks
    /// one or none.
    fn run_choices(
        &self,
        ctx: &ExerciseContext,
        rule_drafts: &[SuggestionDraft],
        cancel: &Arc<CancelToken>,
        listener: Option<Arc<dyn TokenListener>>,
    ) -> Result<AiRun> {
        let started = Instant::now();
        let s = &self.settings;
        let offered = candidates(ctx, rule_drafts);
        let kinds: Vec<String> = offered
            .iter()
            .map(|c| {
                super::prompt::spelled(&c.change_type)
                    .as_str()
                    .unwrap_or_default()
                    .to_string()
            })
            .collect();
        let mut report = AiRunReport {
            candidates: offered.len() as u32,
            ..AiRunReport::default()
        };
        if offered.is_empty() {
            report.elapsed_ms = started.elapsed().as_millis() as u64;
            log::info!(target: "coachcore::suggest",
                "ai choices candidates=[] pick=- (no model call) ms={}", report.elapsed_ms);
            return Ok(AiRun {
                drafts: Vec::new(),
                report,
            });
        }
        let model = Metered::new(&*self.model, "suggestions")
            .with_request_id(IdGenerator::from_entropy().next_id())
            .with_breaker(self.breaker.as_deref());
        let request = GenerationRequest {
            messages: vec![
                ChatMessage::new(ChatRole::System, CHOICES_PROMPT.trim_end()),
                ChatMessage::new(ChatRole::User, choices_prompt(ctx, &offered)),
            ],
            json_schema: Some(pick_schema(offered.len())),
            sampling: s.sampling.clone(),
            max_tokens: s.max_tokens.min(CHOICE_MAX_TOKENS),
            timeout_ms: s.timeout_ms,
        };
        report.steps = 1;
        let outcome = generate_validated::<RawPick>(
            &model,
            request,
            s.max_attempts,
            listener,
            cancel,
            |raw| match read_pick(&raw.pick, offered.len()) {
                Ok(_) => Vec::new(),
                Err(message) => vec![Issue {
                    path: "pick".into(),
                    message,
                }],
            },
        );
        let usage = model.usage();
        report.generations = usage.calls;
        report.prompt_tokens = usage.prompt_tokens;
        report.completion_tokens = usage.completion_tokens;
        report.elapsed_ms = started.elapsed().as_millis() as u64;
        let raw = match outcome {
            Ok((raw, _)) => raw,
            Err(e) => {
                log::warn!(target: "coachcore::suggest",
                    "ai choices candidates=[{}] pick=- error={e} prompt_tokens={} \
                     completion_tokens={} ms={}",
                    kinds.join(","), report.prompt_tokens, report.completion_tokens,
                    report.elapsed_ms);
                return Err(e.into());
            }
        };
        let picked = read_pick(&raw.pick, offered.len()).ok().flatten();
        report.pick = Some(picked.map_or_else(|| "none".to_string(), |i| format!("c{}", i + 1)));
        let mut seen = Seen::default();
        for p in ctx.recent() {
            seen.add(p);
        }
        let drafts: Vec<SuggestionDraft> = picked
            .and_then(|i| {
                let c = &offered[i];
                let reason = choices::reason_text(&raw.reason, c);
                choices::admitted(ctx, c, &reason, &seen.ids())
            })
            .into_iter()
            .collect();
        log::info!(target: "coachcore::suggest",
            "ai choices candidates=[{}] pick={} drafts={} generations={} prompt_tokens={} \
             completion_tokens={} ms={}",
            kinds.join(","), report.pick.as_deref().unwrap_or("-"), drafts.len(),
            report.generations, report.prompt_tokens, report.completion_tokens, report.elapsed_ms);
        Ok(AiRun { drafts, report })
    }

    /// The tool loop (see the module documentation).
    fn run_tool_loop(
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
        let model = Metered::new(&*self.model, "suggestions")
            .with_request_id(IdGenerator::from_entropy().next_id())
            .with_breaker(self.breaker.as_deref());
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
                    let salvaged = match (stage, last.into_inner()) {
                        (OutputStage::Domain, Some(raw)) => interpret(&raw, offer, ctx),
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
                    let usage = model.usage();
                    report.generations = usage.calls;
                    report.prompt_tokens = usage.prompt_tokens;
                    report.completion_tokens = usage.completion_tokens;
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
                    messages.push(ChatMessage::new(
                        ChatRole::User,
                        tool_message(
                            &history_result(history.as_ref()),
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
                    messages.push(ChatMessage::new(
                        ChatRole::User,
                        tool_message(
                            &recent_result(&perfs, ctx.current.performed_at_ms),
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
