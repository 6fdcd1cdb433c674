//! The message pipeline of spec 002: route (auto mode), propose, validate, repair, summarise,
//! streaming events to an [`EventSink`]. It only proposes: nothing is written to the database; the
//! app applies what the user confirms with `apply`.
//!
//! ## Paths and events
//! Every message ends with exactly one `done`, the last event, on success, error and
//! cancellation alike. `heartbeat` events come every [`AssistantSettings::heartbeat_ms`] while a
//! model call runs, on every path (they are keep-alives, not content), and never after `done`.
//!
//! | path | events |
//! |---|---|
//! | plan mode, or auto routed to plan | (`stage routing`) `stage proposing`, `stage validating`, (`stage repairing`), `ops`, `stage summarizing`, `summary`, `result`, `done` |
//! | auto routed to clarify | `stage routing`, `clarify`, `result`, `done` |
//! | chat mode, or auto routed to chat | (`stage routing`) `summary`, `done` (no `result`: the chat path sends only summary and done) |
//! | any error or cancellation | the events so far, then `done`; the call returns the error |
//!
//! `stage routing` is sent in auto mode only. `stage repairing` is sent only when something was
//! invalid after the deterministic repairs (or the answer held no operation list).
//!
//! ## Modes
//! - **plan** (default): propose, validate, repair, summarise.
//! - **chat**: one model call answering in plain text (cleaned like a summary, at most
//!   [`MAX_CHAT_CHARS`] characters); no operations.
//! - **auto**: the router decides (see [`super::router`] for the thresholds). A router that fails
//!   (unreadable after [`AssistantSettings::router_attempts`] generations, or a model error other
//!   than cancellation) falls back to plan with `route: None`, and the failure is logged.
//! - A message carrying a non-empty [`ClarifySelection`] in plan or auto mode skips the router and
//!   plans, with a seeded `where` in the proposal prompt: the selected items (looked up by id; ids
//!   that match nothing are ignored), the chosen date and priority. In chat mode the selection is
//!   ignored. An empty selection (no ids, date or priority) counts as none.
//!
//! ## Context grounding
//! The prompts carry the Monday-to-Sunday week of `today` (items not completed, from
//! [`apply::week`]), a backlog sample ([`apply::backlog`], [`AssistantSettings::backlog_limit`]
//! todos) and open goals. Items are named by short aliases (`t1`, `e2`, `h1`, `g3` for todos,
//! events, habits, goals) instead of their UUIDs, which small models copy badly; the aliases in the
//! model's operations (`id`, `childId`, `children`, `items[].id`, `item.id`) are mapped back to the
//! real ids before shaping, and real ids are accepted as they are. The context is trimmed to fit
//! the model's context window: [`ModelInfo::context_tokens`] minus the answer's `max_tokens` and
//! a margin, at [`CHARS_PER_TOKEN`] characters per token, minus the fixed prompt; the week takes
//! up to two thirds of it when the rest would not fit, and a line says how many entries were left
//! out. At most [`AssistantSettings::max_context_chars`] characters are used in any case.
//!
//! ## Proposal, validation and the repair pass
//! The proposal is grammar-constrained to `schemas/assistant-ops.json` (the spec's rules are in
//! `prompts/assistant.propose.md`), parsed with the shared extraction
//! ([`parse_model_json`]: think/response wrappers, fences, prose), shaped
//! ([`shape::shape_operations`]; a single operation object without the `operations` wrapper is
//! accepted as a list of one), and validated against the stored items
//! ([`apply::known_items`], [`validate::validate`], which makes the deterministic repairs).
//!
//! When any operation is still invalid, or the answer held no operation list, ONE model repair
//! pass follows (`stage repairing`): the invalid operations (as the model wrote them, with aliases)
//! and their issue messages (`prompts/assistant.repair.md`), or for an unreadable answer the parse
//! error ([`repair_prompt`]), after the first answer (its JSON, at most
//! [`MAX_REPAIR_ANSWER_CHARS`] characters) in the chat; the context of this call is sized again so
//! that the longer chat still fits. The repaired answer is shaped and validated the same way. The
//! outcome, exactly:
//! - `operations` = the valid operations of the first pass, in order, then the valid repaired
//!   ones not equal to one already kept; at most [`MAX_OPERATIONS`]: the excess is reported in
//!   `invalid` with the code `too_many_operations`.
//! - The repaired list is paired by position with the first pass's invalid operations: repaired
//!   operation `i` replaces invalid operation `i`. An invalid operation whose replacement is
//!   invalid is reported with the replacement's check (its `index` set to the original's position);
//!   one left out of the repaired list (or all of them, when the repair call failed or its answer
//!   held no list) is reported with its first-pass check. Repaired operations beyond the number of
//!   invalid ones are extras: kept when valid, reported when invalid with `index` = the first
//!   list's length plus their position among the extras.
//! - `ops.validCount` = `operations.len()`, `ops.invalidCount` = `invalid.len()`.
//!
//! A model error on the proposal call ends the message with that error; on the repair call it is
//! logged and the first pass's outcome stands.
//!
//! ## Summary
//! The model writes it in plain text (`prompts/assistant.summary.md`, given the rule-based clause
//! of each operation); [`summary::from_model`] strips markup, keeps only complete sentences of a
//! cut-off answer, drops repeated sentences and rejects an echo of the user's message. When the
//! model fails (other than cancellation) or nothing usable is left, the rule-based
//! [`summary::rule_summary`] is used and `summarySource` is `rules`. With no valid operation at
//! all the model is not asked (small models invent changes): the rules say "No changes
//! proposed." (and how many were invalid).
//!
//! ## Errors
//! - No model: `Error::InvalidArgument("no language model configured")`, in every mode (plan needs
//!   the model to propose, chat to answer); only `done` is sent.
//! - A blank message without a selection, or a `today` that is not `YYYY-MM-DD`:
//!   `InvalidArgument`. Messages longer than [`MAX_MESSAGE_CHARS`] are cut.
//! - Cancellation (checked before each stage and inside every model call):
//!   `Error::Llm(LlmError::Cancelled)` (`CoachError::Cancelled`).
//! - Store failures, and model failures of the proposal and chat calls: returned as they are.
//!   A chat answer with no text left after cleaning is `LlmError::InvalidOutput`.
//!
//! Log lines (target `coachcore::assistant`) carry the request id, stage, token counts,
//! durations and counts, never the user's text.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;

use super::apply;
use super::clarify;
use super::date::Date;
use super::model::{
    AssistantEvent, AssistantMode, AssistantRequest, AssistantResult, AssistantStage,
    ClarifySelection, ItemKind, OpCheck, OpIssue, PlannerItem, PlannerOperation, Priority, Route,
    RouteDecision, SummarySource, Validation, WeekSnapshot, Weekday,
};
use super::router::{self, RouterReply};
use super::shape::{self, ShapedOp};
use super::summary;
use super::validate;
use super::{MAX_OPERATIONS, OPS_VERSION};
use crate::clock::Clock;
use crate::error::{Error, Result};
use crate::ids::IdGenerator;
use crate::llm::extract::{extract_json, parse_model_json};
use crate::llm::structured::{generate_validated, repair_prompt};
use crate::llm::{
    CancelToken, ChatMessage, ChatRole, FinishReason, GenerationRequest, GenerationResult,
    LanguageModel, LlmError, ModelInfo, Sampling, TokenListener,
};
use crate::store::Store;

use crate::prompts::{
    ASSISTANT_CHAT as CHAT_PROMPT, ASSISTANT_PROPOSE as PROPOSE_PROMPT,
    ASSISTANT_REPAIR as REPAIR_PROMPT, ASSISTANT_SUMMARY as SUMMARY_PROMPT,
};

/// Characters per token assumed when sizing the context (conservative: dates and ids tokenise
/// poorly).
pub const CHARS_PER_TOKEN: usize = 3;
/// Tokens kept free besides the answer's `max_tokens` (chat template overhead).
pub const CONTEXT_MARGIN_TOKENS: usize = 64;
/// The longest user message sent to the model, in characters (longer ones are cut).
pub const MAX_MESSAGE_CHARS: usize = 2_000;
/// The longest part of the first answer quoted back to the model in the repair pass.
pub const MAX_REPAIR_ANSWER_CHARS: usize = 1_500;
/// The longest chat answer kept, in characters.
pub const MAX_CHAT_CHARS: usize = 800;
/// Longest title shown in the context, in characters.
const MAX_CONTEXT_TITLE_CHARS: usize = 60;
/// Open items read as clarify candidates and for the goals of the context.
const OPEN_ITEMS_LIMIT: u32 = 200;
/// Goals listed in the context, at most.
const MAX_CONTEXT_GOALS: usize = 10;
/// Selected ids looked up, at most.
const MAX_SELECTED: usize = MAX_OPERATIONS;

/// Receives the events of a running message (the FFI wraps the app's listener in this).
pub trait EventSink: Send + Sync {
    /// Called with each event, in order, from the thread running the message.
    fn on_event(&self, event: AssistantEvent);
}

/// Tuning of the pipeline.
#[derive(Debug, Clone)]
pub struct AssistantSettings {
    /// A `heartbeat` event every this many milliseconds while the model works (0: none).
    pub heartbeat_ms: u64,
    /// Sampling of every model call.
    pub sampling: Sampling,
    /// Wall-clock limit of each model call (`None`: none).
    pub timeout_ms: Option<u64>,
    /// Tokens of the router's answer. Default 160.
    pub router_max_tokens: u32,
    /// Generations of the router (the first plus repairs of an unreadable answer). Default 2.
    pub router_attempts: u32,
    /// Tokens of a proposal (and of its repair). Default 768.
    pub propose_max_tokens: u32,
    /// Tokens of the summary. Default 120.
    pub summary_max_tokens: u32,
    /// Tokens of a chat answer. Default 256.
    pub chat_max_tokens: u32,
    /// Backlog todos read for the context. Default 20.
    pub backlog_limit: u32,
    /// The most characters of context (week, backlog, goals) in a prompt. Default 6000.
    pub max_context_chars: usize,
}

impl Default for AssistantSettings {
    fn default() -> Self {
        AssistantSettings {
            heartbeat_ms: 2_000,
            sampling: Sampling::default(),
            timeout_ms: Some(120_000),
            router_max_tokens: 160,
            router_attempts: 2,
            propose_max_tokens: 768,
            summary_max_tokens: 120,
            chat_max_tokens: 256,
            backlog_limit: 20,
            max_context_chars: 6_000,
        }
    }
}

/// Runs one message through the pipeline, sending events to `sink`; `done` is always the last
/// event, also on error or cancellation. See the module docs for the paths, the events and the
/// errors (without a model every mode returns `InvalidArgument` after `done`). Nothing is written
/// to the database.
pub fn run_message(
    store: &Store,
    clock: &dyn Clock,
    model: Option<&dyn LanguageModel>,
    request: &AssistantRequest,
    sink: &dyn EventSink,
    cancel: &Arc<CancelToken>,
    settings: &AssistantSettings,
) -> Result<AssistantResult> {
    let request_id = IdGenerator::from_entropy().next_id();
    let started = Instant::now();
    let out = match model {
        None => Err(Error::InvalidArgument(
            "no language model configured".into(),
        )),
        Some(model) => {
            let run = Run {
                store,
                model: Instrumented::new(model, sink, settings.heartbeat_ms, &request_id),
                sink,
                cancel,
                settings,
                request_id: &request_id,
            };
            run.run(clock, request)
        }
    };
    let ms = started.elapsed().as_millis();
    match &out {
        Ok(r) => log::info!(target: "coachcore::assistant",
            "request={request_id} done decision={:?} valid={} invalid={} summary={:?} ms={ms}",
            r.decision, r.operations.len(), r.invalid.len(), r.summary_source),
        Err(e) => log::warn!(target: "coachcore::assistant",
            "request={request_id} failed error={} ms={ms}", error_kind(e)),
    }
    sink.on_event(AssistantEvent::Done);
    out
}

/// A short, data-free description of an error for the log.
fn error_kind(e: &Error) -> String {
    match e {
        Error::Llm(l) => format!("model: {l}"),
        Error::InvalidArgument(_) => "invalid_argument".into(),
        Error::Sqlite(_) | Error::NotADatabase(_) => "storage".into(),
        other => format!("{:?}", std::mem::discriminant(other)),
    }
}

/// One running message.
struct Run<'a> {
    store: &'a Store,
    model: Instrumented<'a>,
    sink: &'a dyn EventSink,
    cancel: &'a Arc<CancelToken>,
    settings: &'a AssistantSettings,
    request_id: &'a str,
}

/// What the prompts are grounded on.
struct Grounding {
    week: WeekSnapshot,
    backlog: Vec<PlannerItem>,
    open: Vec<PlannerItem>,
}

impl Run<'_> {
    fn emit(&self, event: AssistantEvent) {
        self.sink.on_event(event);
    }

    fn stage(&self, stage: AssistantStage) -> Result<()> {
        self.check_cancel()?;
        self.model.set_stage(stage);
        log::info!(target: "coachcore::assistant", "request={} stage={stage:?}", self.request_id);
        self.emit(AssistantEvent::Stage { stage });
        Ok(())
    }

    fn check_cancel(&self) -> Result<()> {
        if self.cancel.is_cancelled() {
            return Err(LlmError::Cancelled.into());
        }
        Ok(())
    }

    fn run(&self, clock: &dyn Clock, request: &AssistantRequest) -> Result<AssistantResult> {
        let today = match request.today.as_deref() {
            Some(s) => Date::parse(s)
                .ok_or_else(|| Error::InvalidArgument("today must be a YYYY-MM-DD date".into()))?,
            None => Date::from_unix_ms(clock.now_ms(), 0),
        };
        let selection = request
            .selection
            .as_ref()
            .filter(|s| !s.ids.is_empty() || s.date.is_some() || s.priority.is_some());
        if request.message.trim().is_empty() && selection.is_none() {
            return Err(Error::InvalidArgument("the message is empty".into()));
        }
        let message = cut_chars(request.message.trim(), MAX_MESSAGE_CHARS);
        self.check_cancel()?;
        let info = self.model.info();
        let grounding = Grounding {
            week: apply::week(self.store, today)?,
            backlog: apply::backlog(self.store, self.settings.backlog_limit)?,
            open: apply::open_items(self.store, OPEN_ITEMS_LIMIT)?,
        };
        let mut aliases = Aliases::default();
        aliases.add_all(&grounding);
        let ctx = Ctx {
            today,
            message: &message,
            grounding: &grounding,
            info: &info,
        };
        log::info!(target: "coachcore::assistant",
            "request={} mode={:?} selection={} week_entries={} backlog={} open={} context_tokens={}",
            self.request_id, request.mode, selection.is_some(), grounding.week.entries.len(),
            grounding.backlog.len(), grounding.open.len(), info.context_tokens);
        match (request.mode, selection) {
            (AssistantMode::Chat, _) => self.chat(&ctx, &mut aliases, None),
            (_, Some(sel)) => {
                let selected = self.selected_items(sel)?;
                let where_ = seeded_where(sel, &selected, &mut aliases);
                self.plan(&ctx, &mut aliases, None, &where_)
            }
            (AssistantMode::Plan, None) => self.plan(&ctx, &mut aliases, None, ""),
            (AssistantMode::Auto, None) => {
                self.stage(AssistantStage::Routing)?;
                let route = self.route(&ctx, &mut aliases)?;
                match route {
                    Some(route) if route.decision == RouteDecision::Clarify => {
                        let clarification =
                            clarify::clarify(&message, Some(&route), &grounding.open);
                        self.emit(AssistantEvent::Clarify {
                            clarification: clarification.clone(),
                        });
                        let result = AssistantResult {
                            request_id: self.request_id.to_string(),
                            decision: RouteDecision::Clarify,
                            route: Some(route),
                            operations: Vec::new(),
                            invalid: Vec::new(),
                            summary: None,
                            summary_source: None,
                            clarification: Some(clarification),
                        };
                        self.emit(AssistantEvent::Result {
                            result: result.clone(),
                        });
                        Ok(result)
                    }
                    Some(route) if route.decision == RouteDecision::Chat => {
                        self.chat(&ctx, &mut aliases, Some(route))
                    }
                    route => {
                        let where_ = route
                            .as_ref()
                            .map(|r| mentioned(&r.entities))
                            .unwrap_or_default();
                        self.plan(&ctx, &mut aliases, route, &where_)
                    }
                }
            }
        }
    }

    /// The stored items of the selection's ids, in the selection's order.
    fn selected_items(&self, sel: &ClarifySelection) -> Result<Vec<PlannerItem>> {
        let mut out = Vec::new();
        for id in sel.ids.iter().take(MAX_SELECTED) {
            for kind in [
                ItemKind::Todo,
                ItemKind::Event,
                ItemKind::Habit,
                ItemKind::Goal,
            ] {
                if let Some(item) = apply::item(self.store, kind, id)? {
                    out.push(item);
                    break;
                }
            }
        }
        if out.len() < sel.ids.len() {
            log::info!(target: "coachcore::assistant", "request={} selection ids={} found={}",
                self.request_id, sel.ids.len(), out.len());
        }
        Ok(out)
    }

    fn request(
        &self,
        messages: Vec<ChatMessage>,
        schema: Option<&str>,
        max_tokens: u32,
    ) -> GenerationRequest {
        GenerationRequest {
            messages,
            json_schema: schema.map(str::to_string),
            sampling: self.settings.sampling.clone(),
            max_tokens,
            timeout_ms: self.settings.timeout_ms,
        }
    }

    fn generate(&self, request: GenerationRequest) -> Result<GenerationResult, LlmError> {
        self.model.generate(request, None, Arc::clone(self.cancel))
    }

    /// The router's decision; `None` when the router failed (then: plan).
    fn route(&self, ctx: &Ctx, aliases: &mut Aliases) -> Result<Option<Route>> {
        let max_tokens = self.settings.router_max_tokens;
        let fixed = router::system_prompt(&ctx.today_label(), "").len() + ctx.message.len();
        let context = ctx.context(aliases, budget(ctx.info, max_tokens, fixed, self.settings));
        let request = self.request(
            vec![
                ChatMessage::new(
                    ChatRole::System,
                    router::system_prompt(&ctx.today_label(), &context),
                ),
                ChatMessage::new(ChatRole::User, ctx.message),
            ],
            Some(router::ROUTER_SCHEMA),
            max_tokens,
        );
        let outcome = generate_validated::<RouterReply>(
            &self.model,
            request,
            self.settings.router_attempts,
            None,
            self.cancel,
            router::check_reply,
        );
        match outcome {
            Ok((reply, report)) => {
                let route = router::route(&reply);
                if let Some(r) = &route {
                    log::info!(target: "coachcore::assistant",
                        "request={} routed decision={:?} model_decision={:?} confidence={:.2} \
                         attempts={}",
                        self.request_id, r.decision, r.model_decision, r.confidence,
                        report.attempts);
                }
                Ok(route)
            }
            Err(LlmError::Cancelled) => Err(LlmError::Cancelled.into()),
            Err(e) => {
                log::warn!(target: "coachcore::assistant",
                    "request={} router failed, planning: {e}", self.request_id);
                Ok(None)
            }
        }
    }

    fn chat(
        &self,
        ctx: &Ctx,
        aliases: &mut Aliases,
        route: Option<Route>,
    ) -> Result<AssistantResult> {
        self.check_cancel()?;
        self.model.set_stage_name("chat");
        let max_tokens = self.settings.chat_max_tokens;
        let fixed = chat_prompt(&ctx.today_label(), "").len() + ctx.message.len();
        let context = ctx.context(aliases, budget(ctx.info, max_tokens, fixed, self.settings));
        let request = self.request(
            vec![
                ChatMessage::new(ChatRole::System, chat_prompt(&ctx.today_label(), &context)),
                ChatMessage::new(ChatRole::User, ctx.message),
            ],
            None,
            max_tokens,
        );
        let out = self.generate(request)?;
        let text = summary::clean(&out.text, MAX_CHAT_CHARS).ok_or(LlmError::InvalidOutput {
            stage: "extract".into(),
            attempts: 1,
            detail: "no text left after removing markup".into(),
        })?;
        self.emit(AssistantEvent::Summary { text: text.clone() });
        Ok(AssistantResult {
            request_id: self.request_id.to_string(),
            decision: RouteDecision::Chat,
            route,
            operations: Vec::new(),
            invalid: Vec::new(),
            summary: Some(text),
            summary_source: Some(SummarySource::Model),
            clarification: None,
        })
    }

    fn plan(
        &self,
        ctx: &Ctx,
        aliases: &mut Aliases,
        route: Option<Route>,
        where_: &str,
    ) -> Result<AssistantResult> {
        self.stage(AssistantStage::Proposing)?;
        let max_tokens = self.settings.propose_max_tokens;
        let fixed = propose_prompt(&ctx.today_label(), "", where_).len() + ctx.message.len();
        let context = ctx.context(aliases, budget(ctx.info, max_tokens, fixed, self.settings));
        let messages = vec![
            ChatMessage::new(
                ChatRole::System,
                propose_prompt(&ctx.today_label(), &context, where_),
            ),
            ChatMessage::new(ChatRole::User, ctx.message),
        ];
        let first =
            self.generate(self.request(messages, Some(validate::OPS_SCHEMA), max_tokens))?;

        self.stage(AssistantStage::Validating)?;
        let first_pass = self.check(&first.text, aliases, ctx.today)?;
        let first_invalid: Vec<OpCheck> = first_pass.invalid_checks();
        let mut kept: Vec<PlannerOperation> = first_pass.valid_ops();
        let mut invalid: Vec<OpCheck> = Vec::new();
        log::info!(target: "coachcore::assistant",
            "request={} proposal ops={} valid={} invalid={} readable={}",
            self.request_id, first_pass.len(), kept.len(), first_invalid.len(),
            first_pass.list_error.is_none());

        let needs_repair = first_pass.list_error.is_some() || !first_invalid.is_empty();
        if needs_repair {
            self.stage(AssistantStage::Repairing)?;
            let repair_text = match &first_pass.list_error {
                Some(issue) => repair_prompt(&[issue.message.clone()]),
                None => repair_message(&first_invalid, &first_pass.raw, aliases),
            };
            let answer = answer_for_chat(&first.text);
            // The repair chat holds the first answer and the request too: the context shrinks.
            let fixed = fixed + answer.len() + repair_text.len();
            let context = ctx.context(aliases, budget(ctx.info, max_tokens, fixed, self.settings));
            let messages = vec![
                ChatMessage::new(
                    ChatRole::System,
                    propose_prompt(&ctx.today_label(), &context, where_),
                ),
                ChatMessage::new(ChatRole::User, ctx.message),
                ChatMessage::new(ChatRole::Assistant, answer),
                ChatMessage::new(ChatRole::User, repair_text),
            ];
            let repaired =
                match self.generate(self.request(messages, Some(validate::OPS_SCHEMA), max_tokens))
                {
                    Ok(out) => Some(self.check(&out.text, aliases, ctx.today)?),
                    Err(LlmError::Cancelled) => return Err(LlmError::Cancelled.into()),
                    Err(e) => {
                        log::warn!(target: "coachcore::assistant",
                        "request={} repair call failed: {e}", self.request_id);
                        None
                    }
                };
            let repaired = repaired.filter(|r| r.list_error.is_none());
            if repaired.is_none() {
                // Neither answer could be read: say so, so the app can tell "nothing to change"
                // from "the model's answer was unusable".
                if let Some(issue) = first_pass.list_error.clone() {
                    invalid.push(OpCheck {
                        index: 0,
                        operation: None,
                        valid: false,
                        errors: vec![issue],
                        repairs: Vec::new(),
                    });
                }
            }
            let repaired_checks = repaired.map(|r| r.checks).unwrap_or_default();
            let first_len = first_pass.len() as u32;
            let n = first_invalid.len();
            for (i, original) in first_invalid.into_iter().enumerate() {
                match repaired_checks.get(i) {
                    Some(c) if c.valid => {}
                    Some(c) => invalid.push(OpCheck {
                        index: original.index,
                        ..c.clone()
                    }),
                    None => invalid.push(original),
                }
            }
            for (i, c) in repaired_checks.iter().enumerate() {
                if c.valid {
                    if let Some(op) = &c.operation {
                        if !kept.contains(op) {
                            kept.push(op.clone());
                        }
                    }
                } else if i >= n {
                    invalid.push(OpCheck {
                        index: first_len + (i - n) as u32,
                        ..c.clone()
                    });
                }
            }
            log::info!(target: "coachcore::assistant",
                "request={} repaired returned={} valid_now={} still_invalid={}",
                self.request_id, repaired_checks.len(), kept.len(), invalid.len());
        }
        if kept.len() > MAX_OPERATIONS {
            for (i, op) in kept.split_off(MAX_OPERATIONS).into_iter().enumerate() {
                invalid.push(OpCheck {
                    index: (MAX_OPERATIONS + i) as u32,
                    operation: Some(op),
                    valid: false,
                    errors: vec![OpIssue {
                        code: "too_many_operations".into(),
                        field: None,
                        message: format!(
                            "at most {MAX_OPERATIONS} operations may be proposed at once"
                        ),
                    }],
                    repairs: Vec::new(),
                });
            }
        }
        self.emit(AssistantEvent::Ops {
            version: OPS_VERSION,
            operations: kept.clone(),
            valid_count: kept.len() as u32,
            invalid_count: invalid.len() as u32,
        });

        self.stage(AssistantStage::Summarizing)?;
        let titles = self.titles(&kept, aliases)?;
        let title_of = |kind: ItemKind, id: &str| titles.get(&(kind, id.to_string())).cloned();
        let (text, source) = self.summarize(ctx.message, &kept, invalid.len(), &title_of)?;
        self.emit(AssistantEvent::Summary { text: text.clone() });
        let result = AssistantResult {
            request_id: self.request_id.to_string(),
            decision: RouteDecision::Plan,
            route,
            operations: kept,
            invalid,
            summary: Some(text),
            summary_source: Some(source),
            clarification: None,
        };
        self.emit(AssistantEvent::Result {
            result: result.clone(),
        });
        Ok(result)
    }

    /// Parses, maps aliases, shapes and validates one proposal answer.
    fn check(&self, text: &str, aliases: &Aliases, today: Date) -> Result<Checked> {
        let mut value = match parse_proposal(text) {
            Ok(v) => v,
            Err(message) => {
                return Ok(Checked::unreadable(OpIssue {
                    code: "invalid_json".into(),
                    field: None,
                    message,
                }))
            }
        };
        let raw = value.clone();
        aliases.resolve_in(&mut value);
        let shaped: Vec<ShapedOp> = match shape::shape_operations(&value) {
            Ok(s) => s,
            Err(issue) => return Ok(Checked::unreadable(issue)),
        };
        let known = apply::known_items(self.store, &validate::referenced_items(&shaped))?;
        let v: Validation = validate::validate(&shaped, &known, today);
        Ok(Checked {
            checks: v.checks,
            raw: list_of(&raw),
            list_error: None,
        })
    }

    /// Titles of every item the operations name, from the context or the store.
    fn titles(
        &self,
        ops: &[PlannerOperation],
        aliases: &Aliases,
    ) -> Result<HashMap<(ItemKind, String), String>> {
        let mut titles = aliases.titles.clone();
        let shaped = shape::shape_typed(ops.to_vec());
        for r in validate::referenced_items(&shaped) {
            let key = (r.kind, r.id.clone());
            if let std::collections::hash_map::Entry::Vacant(e) = titles.entry(key) {
                if let Some(item) = apply::item(self.store, r.kind, &r.id)? {
                    e.insert(item.title);
                }
            }
        }
        Ok(titles)
    }

    fn summarize(
        &self,
        message: &str,
        ops: &[PlannerOperation],
        invalid: usize,
        title_of: &dyn Fn(ItemKind, &str) -> Option<String>,
    ) -> Result<(String, SummarySource)> {
        if ops.is_empty() {
            // Nothing to describe: the rules say so exactly, and no model can do better.
            return Ok((
                summary::rule_summary(ops, invalid, title_of),
                SummarySource::Rules,
            ));
        }
        let request = self.request(
            vec![
                ChatMessage::new(ChatRole::System, SUMMARY_PROMPT.trim_end()),
                ChatMessage::new(
                    ChatRole::User,
                    summary_request(message, ops, invalid, title_of),
                ),
            ],
            None,
            self.settings.summary_max_tokens,
        );
        match self.generate(request) {
            Ok(out) => {
                let truncated = out.finish == FinishReason::Length;
                let text =
                    summary::from_model(&out.text, truncated, message, summary::MAX_SUMMARY_CHARS);
                if let Some(text) = text {
                    return Ok((text, SummarySource::Model));
                }
                log::info!(target: "coachcore::assistant",
                    "request={} summary empty after cleaning, using rules", self.request_id);
            }
            Err(LlmError::Cancelled) => return Err(LlmError::Cancelled.into()),
            Err(e) => log::warn!(target: "coachcore::assistant",
                "request={} summary failed, using rules: {e}", self.request_id),
        }
        Ok((
            summary::rule_summary(ops, invalid, title_of),
            SummarySource::Rules,
        ))
    }
}

/// One proposal answer, checked.
struct Checked {
    /// One check per operation.
    checks: Vec<OpCheck>,
    /// The operations as the model wrote them (aliases and all), for the repair prompt.
    raw: Vec<Value>,
    /// Set when the answer held no operation list.
    list_error: Option<OpIssue>,
}

impl Checked {
    fn unreadable(issue: OpIssue) -> Self {
        Checked {
            checks: Vec::new(),
            raw: Vec::new(),
            list_error: Some(issue),
        }
    }

    fn len(&self) -> usize {
        self.checks.len()
    }

    fn valid_ops(&self) -> Vec<PlannerOperation> {
        self.checks
            .iter()
            .filter(|c| c.valid)
            .filter_map(|c| c.operation.clone())
            .collect()
    }

    fn invalid_checks(&self) -> Vec<OpCheck> {
        self.checks.iter().filter(|c| !c.valid).cloned().collect()
    }
}

/// The JSON value of a proposal answer: the first JSON object (shared extraction), or a bare
/// array; a single operation object is wrapped into a list. `Err` with the parse error.
fn parse_proposal(text: &str) -> std::result::Result<Value, String> {
    let value = match parse_model_json::<Value>(text) {
        Ok(v) => v,
        Err(e) => match serde_json::from_str::<Value>(text.trim()) {
            Ok(v @ Value::Array(_)) => v,
            _ => return Err(format!("the answer holds no readable JSON: {}", e.detail)),
        },
    };
    Ok(match value {
        Value::Object(m)
            if !m.contains_key("operations")
                && (m.contains_key("op") || m.contains_key("kind")) =>
        {
            serde_json::json!({ "operations": [Value::Object(m)] })
        }
        v => v,
    })
}

/// The elements of the operation list in `value` (empty when there is none).
fn list_of(value: &Value) -> Vec<Value> {
    match value {
        Value::Array(a) => a.clone(),
        Value::Object(m) => match m.get("operations") {
            Some(Value::Array(a)) => a.clone(),
            _ => Vec::new(),
        },
        _ => Vec::new(),
    }
}

/// The first answer as it goes back into the chat for the repair: its JSON object when it has
/// one, else the text; at most [`MAX_REPAIR_ANSWER_CHARS`] characters.
fn answer_for_chat(text: &str) -> String {
    cut_chars(
        extract_json(text).unwrap_or(text.trim()),
        MAX_REPAIR_ANSWER_CHARS,
    )
}

/// The repair request: each invalid operation as the model wrote it, with its issue messages.
pub fn repair_message(invalid: &[OpCheck], raw: &[Value], aliases: &Aliases) -> String {
    let mut listing = String::new();
    for (n, c) in invalid.iter().enumerate() {
        let written = raw.get(c.index as usize).cloned().unwrap_or_else(|| {
            c.operation
                .as_ref()
                .map(|op| aliases.alias_op(op))
                .unwrap_or(Value::Null)
        });
        listing.push_str(&format!("{}. {}\n", n + 1, written));
        for e in &c.errors {
            match &e.field {
                Some(f) => listing.push_str(&format!("   - {f}: {}\n", e.message)),
                None => listing.push_str(&format!("   - {}\n", e.message)),
            }
        }
    }
    REPAIR_PROMPT
        .trim_end()
        .replace("{{invalid}}", listing.trim_end())
        .replace("{{count}}", &invalid.len().to_string())
}

/// The summary request: the user's message and the rule-based clause of every operation.
pub fn summary_request(
    message: &str,
    ops: &[PlannerOperation],
    invalid: usize,
    title_of: &dyn Fn(ItemKind, &str) -> Option<String>,
) -> String {
    let mut s = format!("Request: {message}\nProposed changes:\n");
    if ops.is_empty() {
        s.push_str("(none)\n");
    }
    for op in ops {
        s.push_str("- ");
        s.push_str(&summary::describe(op, title_of));
        s.push('\n');
    }
    match invalid {
        0 => {}
        1 => s.push_str("1 more proposed change was invalid and left out.\n"),
        n => s.push_str(&format!(
            "{n} more proposed changes were invalid and left out.\n"
        )),
    }
    s.push_str("Summary:");
    s
}

/// The proposal's system prompt.
pub fn propose_prompt(today: &str, context: &str, where_: &str) -> String {
    PROPOSE_PROMPT
        .trim_end()
        .replace("{{today}}", today)
        .replace("{{context}}", context)
        .replace("{{where}}", where_)
        .trim_end()
        .to_string()
}

/// The chat answer's system prompt.
pub fn chat_prompt(today: &str, context: &str) -> String {
    CHAT_PROMPT
        .trim_end()
        .replace("{{today}}", today)
        .replace("{{context}}", context)
}

/// Characters of context that fit a prompt with `fixed_chars` of other text and an answer of
/// `max_tokens` in the model's window (see the module docs).
pub fn budget(
    info: &ModelInfo,
    max_tokens: u32,
    fixed_chars: usize,
    s: &AssistantSettings,
) -> usize {
    let free =
        (info.context_tokens as usize).saturating_sub(max_tokens as usize + CONTEXT_MARGIN_TOKENS);
    (free * CHARS_PER_TOKEN)
        .saturating_sub(fixed_chars)
        .min(s.max_context_chars)
}

/// The seeded `where` of a follow-up: the selected items, date and priority.
pub fn seeded_where(
    sel: &ClarifySelection,
    selected: &[PlannerItem],
    aliases: &mut Aliases,
) -> String {
    let mut parts = Vec::new();
    if !selected.is_empty() {
        let items: Vec<String> = selected
            .iter()
            .map(|i| {
                let alias = aliases.add(i);
                item_line(&alias, i, true)
            })
            .collect();
        parts.push(format!("the items {}", items.join("; ")));
    }
    if let Some(d) = &sel.date {
        parts.push(format!("the date {d}"));
    }
    if let Some(p) = sel.priority {
        parts.push(format!("priority {}", priority_word(p)));
    }
    if parts.is_empty() {
        return String::new();
    }
    format!(
        "The user answered a question and chose: {}. Apply the request to exactly these.",
        parts.join(", ")
    )
}

/// The entities the router found, as a hint for the proposal.
fn mentioned(entities: &[String]) -> String {
    if entities.is_empty() {
        return String::new();
    }
    let quoted: Vec<String> = entities.iter().map(|e| format!("\"{e}\"")).collect();
    format!("The message mentions: {}.", quoted.join(", "))
}

fn priority_word(p: Priority) -> &'static str {
    match p {
        Priority::Low => "low",
        Priority::Medium => "medium",
        Priority::High => "high",
    }
}

/// What a prompt call needs to know.
struct Ctx<'a> {
    today: Date,
    message: &'a str,
    grounding: &'a Grounding,
    info: &'a ModelInfo,
}

impl Ctx<'_> {
    fn today_label(&self) -> String {
        today_label(self.today)
    }

    fn context(&self, aliases: &mut Aliases, budget: usize) -> String {
        let g = self.grounding;
        let goals: Vec<PlannerItem> = g
            .open
            .iter()
            .filter(|i| i.kind == ItemKind::Goal)
            .take(MAX_CONTEXT_GOALS)
            .cloned()
            .collect();
        render_context(&g.week, &g.backlog, &goals, budget, aliases)
    }
}

/// `2026-11-21 (Saturday)`.
pub fn today_label(d: Date) -> String {
    let full = match d.weekday() {
        Weekday::Mon => "Monday",
        Weekday::Tue => "Tuesday",
        Weekday::Wed => "Wednesday",
        Weekday::Thu => "Thursday",
        Weekday::Fri => "Friday",
        Weekday::Sat => "Saturday",
        Weekday::Sun => "Sunday",
    };
    format!("{d} ({full})")
}

/// `Mon` ... `Sun`.
fn weekday_word(w: Weekday) -> &'static str {
    match w {
        Weekday::Mon => "Mon",
        Weekday::Tue => "Tue",
        Weekday::Wed => "Wed",
        Weekday::Thu => "Thu",
        Weekday::Fri => "Fri",
        Weekday::Sat => "Sat",
        Weekday::Sun => "Sun",
    }
}

/// Short names for items in prompts (`t1`, `e1`, `h1`, `g1`) and their titles.
#[derive(Debug, Default, Clone)]
pub struct Aliases {
    by_alias: HashMap<String, (ItemKind, String)>,
    by_id: HashMap<(ItemKind, String), String>,
    counts: [u32; 4],
    titles: HashMap<(ItemKind, String), String>,
}

impl Aliases {
    /// The alias of `item`, assigned on first sight.
    pub fn add(&mut self, item: &PlannerItem) -> String {
        let key = (item.kind, item.id.clone());
        self.titles
            .entry(key.clone())
            .or_insert_with(|| item.title.clone());
        if let Some(a) = self.by_id.get(&key) {
            return a.clone();
        }
        let (slot, letter) = match item.kind {
            ItemKind::Todo => (0, 't'),
            ItemKind::Event => (1, 'e'),
            ItemKind::Habit => (2, 'h'),
            ItemKind::Goal => (3, 'g'),
        };
        self.counts[slot] += 1;
        let alias = format!("{letter}{}", self.counts[slot]);
        self.by_alias.insert(alias.clone(), key.clone());
        self.by_id.insert(key, alias.clone());
        alias
    }

    /// Assigns aliases to everything the prompts may show, in a fixed order (so every prompt of a
    /// message uses the same aliases, whatever its budget).
    fn add_all(&mut self, g: &Grounding) {
        for e in &g.week.entries {
            self.add(&e.item);
        }
        for i in &g.backlog {
            self.add(i);
        }
        for i in g.open.iter().filter(|i| i.kind == ItemKind::Goal) {
            self.add(i);
        }
    }

    /// The real id an alias (`t1`, `[T1]`) stands for.
    pub fn resolve(&self, s: &str) -> Option<&str> {
        let s = s.trim().trim_start_matches('[').trim_end_matches(']');
        self.by_alias
            .get(&s.to_ascii_lowercase())
            .map(|(_, id)| id.as_str())
    }

    fn alias_of_id(&self, id: &str) -> Option<&str> {
        self.by_id
            .iter()
            .find(|((_, i), _)| i == id)
            .map(|(_, a)| a.as_str())
    }

    /// Replaces aliases by real ids in the operation list of `value` (see the module docs).
    pub fn resolve_in(&self, value: &mut Value) {
        map_ids(value, &|s| self.resolve(s).map(str::to_string));
    }

    /// `op` as JSON with real ids replaced by their aliases.
    pub fn alias_op(&self, op: &PlannerOperation) -> Value {
        let mut v = serde_json::json!([op]);
        map_ids(&mut v, &|s| self.alias_of_id(s).map(str::to_string));
        v.as_array_mut()
            .and_then(|a| a.pop())
            .unwrap_or(Value::Null)
    }
}

/// Rewrites the id fields of every operation in `value` with `f` (where it returns `Some`).
fn map_ids(value: &mut Value, f: &dyn Fn(&str) -> Option<String>) {
    let list = match value {
        Value::Array(a) => a,
        Value::Object(m) => match m.get_mut("operations") {
            Some(Value::Array(a)) => a,
            _ => return,
        },
        _ => return,
    };
    let swap = |v: &mut Value| {
        if let Value::String(s) = v {
            if let Some(real) = f(s) {
                *s = real;
            }
        }
    };
    for op in list.iter_mut() {
        let Value::Object(o) = op else { continue };
        for key in ["id", "childId"] {
            if let Some(v) = o.get_mut(key) {
                swap(v);
            }
        }
        if let Some(Value::Array(children)) = o.get_mut("children") {
            children.iter_mut().for_each(swap);
        }
        if let Some(Value::Array(items)) = o.get_mut("items") {
            for i in items.iter_mut() {
                if let Some(v) = i.get_mut("id") {
                    swap(v);
                }
            }
        }
        if let Some(item) = o.get_mut("item") {
            if let Some(v) = item.get_mut("id") {
                swap(v);
            }
        }
    }
}

/// One item as the prompts show it: `[t1] todo "Buy milk" 09:00-10:00 high, repeats weekly`.
fn item_line(alias: &str, i: &PlannerItem, with_date: bool) -> String {
    let mut s = format!(
        "[{alias}] {} \"{}\"",
        i.kind.as_str(),
        cut_chars(&i.title, MAX_CONTEXT_TITLE_CHARS).replace('"', "'")
    );
    if with_date {
        if let Some(d) = &i.scheduled_for {
            s.push_str(&format!(" {d}"));
        }
    }
    match (&i.time_of_day, &i.end_time) {
        (Some(a), Some(b)) => s.push_str(&format!(" {a}-{b}")),
        (Some(a), None) => s.push_str(&format!(" {a}")),
        _ => {}
    }
    if i.priority != Priority::Medium {
        s.push_str(&format!(" {}", priority_word(i.priority)));
    }
    if i.recurrence.repeats() {
        s.push_str(&format!(", repeats {}", shape::type_str(i.recurrence.kind)));
        if !i.recurrence.weekdays.is_empty() {
            let days: Vec<String> = i
                .recurrence
                .weekdays
                .iter()
                .map(|w| weekday_word(*w).to_ascii_lowercase())
                .collect();
            s.push_str(&format!(" {}", days.join(",")));
        }
    }
    s
}

/// Room kept for a "(N more not shown)" line.
const MORE_NOTE: usize = 32;

/// Appends `line` and a newline if `used` stays within `limit`; whether it did.
fn push_line(out: &mut String, used: &mut usize, line: &str, limit: usize) -> bool {
    if *used + line.len() + 1 > limit {
        return false;
    }
    out.push_str(line);
    out.push('\n');
    *used += line.len() + 1;
    true
}

/// Appends the `lines` that fit (leaving room for the note), then "(N more not shown)" if some
/// did not.
fn push_lines(out: &mut String, used: &mut usize, lines: &[String], limit: usize) {
    let shown = lines
        .iter()
        .take_while(|l| push_line(out, used, l, limit.saturating_sub(MORE_NOTE)))
        .count();
    if shown < lines.len() {
        let note = format!("- ({} more not shown)", lines.len() - shown);
        push_line(out, used, &note, limit);
    }
}

/// The planner context of a prompt, at most `budget` characters (see the module docs).
pub fn render_context(
    week: &WeekSnapshot,
    backlog: &[PlannerItem],
    goals: &[PlannerItem],
    budget: usize,
    aliases: &mut Aliases,
) -> String {
    let week_head = format!(
        "This week ({} to {}), not done:",
        week.week_start, week.week_end
    );
    let week_lines: Vec<String> = week
        .entries
        .iter()
        .map(|e| {
            let day = Date::parse(&e.date).map_or("", |d| weekday_word(d.weekday()));
            let alias = aliases.add(&e.item);
            format!("- {} {day} {}", e.date, item_line(&alias, &e.item, false))
        })
        .collect();
    let mut lines_of = |items: &[PlannerItem]| -> Vec<String> {
        items
            .iter()
            .map(|i| format!("- {}", item_line(&aliases.add(i), i, false)))
            .collect()
    };
    let backlog_lines = lines_of(backlog);
    let goal_lines = lines_of(goals);
    let len = |v: &[String]| v.iter().map(|l| l.len() + 1).sum::<usize>();
    let rest_len = len(&backlog_lines) + len(&goal_lines) + 40;
    let total = week_head.len() + len(&week_lines) + rest_len;
    let week_budget = if total <= budget {
        budget
    } else {
        (budget * 2 / 3).max(budget.saturating_sub(rest_len))
    };

    let mut out = String::new();
    let mut used = 0usize;
    if push_line(&mut out, &mut used, &week_head, week_budget) {
        if week_lines.is_empty() {
            push_line(&mut out, &mut used, "- nothing planned", week_budget);
        }
        push_lines(&mut out, &mut used, &week_lines, week_budget);
    }
    for (head, lines) in [
        ("Backlog todos (no date):", &backlog_lines),
        ("Goals:", &goal_lines),
    ] {
        if lines.is_empty() {
            continue;
        }
        if !push_line(&mut out, &mut used, head, budget.saturating_sub(MORE_NOTE)) {
            break;
        }
        push_lines(&mut out, &mut used, lines, budget);
    }
    out.trim_end().to_string()
}

/// `s` cut to at most `max` characters.
fn cut_chars(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((i, _)) => s[..i].to_string(),
        None => s.to_string(),
    }
}

/// The model, with heartbeats while it works, token accounting and one log line per call.
struct Instrumented<'a> {
    inner: &'a dyn LanguageModel,
    sink: &'a dyn EventSink,
    heartbeat_ms: u64,
    request_id: &'a str,
    stage: Mutex<&'static str>,
    calls: AtomicU32,
}

impl<'a> Instrumented<'a> {
    fn new(
        inner: &'a dyn LanguageModel,
        sink: &'a dyn EventSink,
        heartbeat_ms: u64,
        request_id: &'a str,
    ) -> Self {
        Instrumented {
            inner,
            sink,
            heartbeat_ms,
            request_id,
            stage: Mutex::new("start"),
            calls: AtomicU32::new(0),
        }
    }

    fn set_stage(&self, stage: AssistantStage) {
        self.set_stage_name(match stage {
            AssistantStage::Routing => "routing",
            AssistantStage::Proposing => "proposing",
            AssistantStage::Validating => "validating",
            AssistantStage::Repairing => "repairing",
            AssistantStage::Summarizing => "summarizing",
        });
    }

    fn set_stage_name(&self, name: &'static str) {
        *self.stage.lock().unwrap_or_else(|p| p.into_inner()) = name;
    }
}

impl LanguageModel for Instrumented<'_> {
    fn info(&self) -> ModelInfo {
        self.inner.info()
    }

    fn generate(
        &self,
        request: GenerationRequest,
        listener: Option<Arc<dyn TokenListener>>,
        cancel: Arc<CancelToken>,
    ) -> std::result::Result<GenerationResult, LlmError> {
        let call = self.calls.fetch_add(1, Ordering::Relaxed) + 1;
        let stage = *self.stage.lock().unwrap_or_else(|p| p.into_inner());
        let started = Instant::now();
        let out = with_heartbeat(self.sink, self.heartbeat_ms, || {
            self.inner.generate(request, listener, cancel)
        });
        let ms = started.elapsed().as_millis();
        match &out {
            Ok(r) => log::info!(target: "coachcore::assistant",
                "request={} stage={stage} call={call} prompt_tokens={} completion_tokens={} \
                 prompt_ms={} generation_ms={} finish={:?} ms={ms}",
                self.request_id, r.prompt_tokens, r.completion_tokens, r.prompt_ms,
                r.generation_ms, r.finish),
            Err(e) => log::warn!(target: "coachcore::assistant",
                "request={} stage={stage} call={call} error={e} ms={ms}", self.request_id),
        }
        out
    }
}

/// Runs `f`, sending a heartbeat to `sink` every `every_ms` milliseconds until it returns (a
/// scoped helper thread; none after `f` returned). `every_ms == 0`: no heartbeats.
fn with_heartbeat<T>(sink: &dyn EventSink, every_ms: u64, f: impl FnOnce() -> T) -> T {
    if every_ms == 0 {
        return f();
    }
    let (stop, stopped) = mpsc::channel::<()>();
    std::thread::scope(|scope| {
        scope.spawn(move || loop {
            match stopped.recv_timeout(Duration::from_millis(every_ms)) {
                Err(RecvTimeoutError::Timeout) => sink.on_event(AssistantEvent::Heartbeat),
                _ => break,
            }
        });
        let out = f();
        drop(stop);
        out
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assistant::model::{OpType, Recurrence, RecurrenceType, WeekEntry};
    use serde_json::json;

    fn item(kind: ItemKind, id: &str, title: &str, date: Option<&str>) -> PlannerItem {
        PlannerItem {
            kind,
            id: id.into(),
            title: title.into(),
            notes: None,
            scheduled_for: date.map(str::to_string),
            time_of_day: None,
            end_time: None,
            priority: Priority::Medium,
            recurrence: Recurrence::none(),
            completed: false,
            completed_occurrences: vec![],
            goal_items: vec![],
            child_goals: vec![],
            created_ms: 0,
            updated_ms: 0,
        }
    }

    fn week(entries: Vec<(&str, PlannerItem)>) -> WeekSnapshot {
        WeekSnapshot {
            week_start: "2026-11-16".into(),
            week_end: "2026-11-22".into(),
            entries: entries
                .into_iter()
                .map(|(d, item)| WeekEntry {
                    date: d.into(),
                    item,
                })
                .collect(),
        }
    }

    #[test]
    fn context_lines_and_aliases() {
        let mut run = item(ItemKind::Habit, "uuid-run", "Run", Some("2026-11-16"));
        run.time_of_day = Some("07:00".into());
        run.recurrence = Recurrence {
            kind: RecurrenceType::Weekly,
            interval: None,
            weekdays: vec![Weekday::Mon, Weekday::Thu],
            until: None,
        };
        let mut meet = item(
            ItemKind::Event,
            "uuid-meet",
            "Team \"sync\"",
            Some("2026-11-17"),
        );
        meet.time_of_day = Some("10:00".into());
        meet.end_time = Some("11:00".into());
        meet.priority = Priority::High;
        let w = week(vec![
            ("2026-11-16", run.clone()),
            ("2026-11-17", meet),
            ("2026-11-19", run),
        ]);
        let backlog = [item(ItemKind::Todo, "uuid-milk", "Buy milk", None)];
        let goals = [item(ItemKind::Goal, "uuid-fit", "Fitness", None)];
        let mut aliases = Aliases::default();
        let text = render_context(&w, &backlog, &goals, 10_000, &mut aliases);
        assert_eq!(
            text,
            "This week (2026-11-16 to 2026-11-22), not done:\n\
             - 2026-11-16 Mon [h1] habit \"Run\" 07:00, repeats weekly mon,thu\n\
             - 2026-11-17 Tue [e1] event \"Team 'sync'\" 10:00-11:00 high\n\
             - 2026-11-19 Thu [h1] habit \"Run\" 07:00, repeats weekly mon,thu\n\
             Backlog todos (no date):\n\
             - [t1] todo \"Buy milk\"\n\
             Goals:\n\
             - [g1] goal \"Fitness\""
        );
        assert_eq!(aliases.resolve("h1"), Some("uuid-run"));
        assert_eq!(aliases.resolve(" [T1] "), Some("uuid-milk"));
        assert_eq!(aliases.resolve("t9"), None);

        let empty = render_context(&week(vec![]), &[], &[], 10_000, &mut Aliases::default());
        assert_eq!(
            empty,
            "This week (2026-11-16 to 2026-11-22), not done:\n- nothing planned"
        );
    }

    #[test]
    fn context_is_trimmed_to_the_budget_with_a_note() {
        let entries: Vec<(&str, PlannerItem)> = (0..100)
            .map(|i| {
                (
                    "2026-11-18",
                    item(
                        ItemKind::Todo,
                        &format!("w{i}"),
                        &format!("Week task {i}"),
                        Some("2026-11-18"),
                    ),
                )
            })
            .collect();
        let backlog: Vec<PlannerItem> = (0..50)
            .map(|i| {
                item(
                    ItemKind::Todo,
                    &format!("b{i}"),
                    &format!("Backlog task {i}"),
                    None,
                )
            })
            .collect();
        for budget in [0, 60, 300, 1_000, 3_000] {
            let mut aliases = Aliases::default();
            let text = render_context(&week(entries.clone()), &backlog, &[], budget, &mut aliases);
            assert!(text.len() <= budget, "{budget}: {} chars", text.len());
            if budget >= 300 {
                assert!(text.contains("more not shown)"), "{text}");
                assert!(
                    text.contains("Backlog todos"),
                    "{budget}: the backlog keeps a share"
                );
            }
        }
        // Aliases do not depend on the budget.
        let mut a = Aliases::default();
        let mut b = Aliases::default();
        render_context(&week(entries.clone()), &backlog, &[], 100, &mut a);
        render_context(&week(entries), &backlog, &[], 10_000, &mut b);
        assert_eq!(a.resolve("t120"), b.resolve("t120"));
    }

    #[test]
    fn aliases_map_every_id_field_both_ways() {
        let mut aliases = Aliases::default();
        aliases.add(&item(ItemKind::Todo, "uuid-t", "T", None));
        aliases.add(&item(ItemKind::Goal, "uuid-g", "G", None));
        aliases.add(&item(ItemKind::Goal, "uuid-g2", "G2", None));
        let mut v = json!({"operations": [
            {"op": "goal_add_items", "kind": "goal", "id": "g1", "items": [{"kind": "todo", "id": "t1"}, {"kind": "todo", "id": "real"}]},
            {"op": "goal_remove_item", "kind": "goal", "id": "G1", "item": {"kind": "todo", "id": "[t1]"}},
            {"op": "goal_add_child", "kind": "goal", "id": "g1", "childId": "g2"},
            {"op": "goal_create", "kind": "goal", "title": "x", "children": ["g2", 5]},
            "not an object"
        ]});
        aliases.resolve_in(&mut v);
        let ops = &v["operations"];
        assert_eq!(ops[0]["id"], "uuid-g");
        assert_eq!(ops[0]["items"][0]["id"], "uuid-t");
        assert_eq!(ops[0]["items"][1]["id"], "real");
        assert_eq!(ops[1]["id"], "uuid-g");
        assert_eq!(ops[1]["item"]["id"], "uuid-t");
        assert_eq!(ops[2]["childId"], "uuid-g2");
        assert_eq!(ops[3]["children"], json!(["uuid-g2", 5]));
        let mut arr = json!([{"op": "delete", "kind": "todo", "id": "t1"}]);
        aliases.resolve_in(&mut arr);
        assert_eq!(arr[0]["id"], "uuid-t");

        let mut op = PlannerOperation::new(OpType::GoalAddChild, ItemKind::Goal);
        op.id = Some("uuid-g".into());
        op.child_id = Some("uuid-g2".into());
        let v = aliases.alias_op(&op);
        assert_eq!(
            (v["id"].as_str(), v["childId"].as_str()),
            (Some("g1"), Some("g2"))
        );
    }

    #[test]
    fn proposals_are_parsed_leniently() {
        let ops = |t: &str| parse_proposal(t).map(|v| list_of(&v).len());
        assert_eq!(ops("{\"operations\":[{},{}]}"), Ok(2));
        assert_eq!(ops("Sure:\n```json\n{\"operations\":[]}\n```"), Ok(0));
        assert_eq!(ops("{\"op\":\"create\",\"kind\":\"todo\"}"), Ok(1));
        assert_eq!(ops("  [{\"op\":\"delete\"}] "), Ok(1));
        assert_eq!(ops("{\"something\": 1}"), Ok(0));
        let err = parse_proposal("no json").unwrap_err();
        assert!(err.contains("no JSON object found"), "{err}");
        assert!(parse_proposal("{\"operations\": [").is_err());
    }

    #[test]
    fn repair_message_lists_invalid_ops_as_written_with_reasons() {
        let raw = vec![
            json!({"op": "create"}),
            json!({"op": "delete", "kind": "todo", "id": "t7"}),
        ];
        let check = OpCheck {
            index: 1,
            operation: None,
            valid: false,
            errors: vec![
                OpIssue {
                    code: "unknown_id".into(),
                    field: Some("id".into()),
                    message: "no todo with this id".into(),
                },
                OpIssue {
                    code: "x".into(),
                    field: None,
                    message: "whole op".into(),
                },
            ],
            repairs: vec![],
        };
        let m = repair_message(&[check], &raw, &Aliases::default());
        assert!(
            m.starts_with("These proposed operations were invalid:\n1. {"),
            "{m}"
        );
        assert!(m.contains("\"id\":\"t7\""), "{m}");
        assert!(
            m.contains("   - id: no todo with this id\n   - whole op\n"),
            "{m}"
        );
        assert!(m.contains("these 1 operations"));
        assert!(!m.contains("{{"));
    }

    #[test]
    fn budget_follows_the_context_window() {
        let s = AssistantSettings::default();
        let info = |n| ModelInfo {
            name: "m".into(),
            context_tokens: n,
            constrains_json_schema: false,
        };
        assert_eq!(
            budget(&info(2048), 256, 1000, &s),
            (2048 - 256 - 64) * 3 - 1000
        );
        assert_eq!(budget(&info(256), 256, 0, &s), 0);
        assert_eq!(budget(&info(100_000), 256, 0, &s), s.max_context_chars);
    }

    #[test]
    fn seeded_where_and_prompts() {
        let mut aliases = Aliases::default();
        let mut milk = item(ItemKind::Todo, "uuid-milk", "Buy milk", Some("2026-11-19"));
        milk.priority = Priority::High;
        let sel = ClarifySelection {
            ids: vec!["uuid-milk".into()],
            date: Some("2026-11-21".into()),
            priority: Some(Priority::Low),
        };
        assert_eq!(
            seeded_where(&sel, &[milk], &mut aliases),
            "The user answered a question and chose: the items [t1] todo \"Buy milk\" 2026-11-19 high, \
             the date 2026-11-21, priority low. Apply the request to exactly these."
        );
        assert_eq!(
            seeded_where(&ClarifySelection::default(), &[], &mut aliases),
            ""
        );
        let p = propose_prompt("2026-11-18 (Wednesday)", "CTX", "");
        assert!(p.contains("Today is 2026-11-18 (Wednesday)."));
        assert!(p.ends_with("(ids in brackets):\nCTX"), "{p}");
        let c = chat_prompt("D", "CTX");
        assert!(c.ends_with("CTX") && !c.contains("{{"));
        assert_eq!(
            today_label(Date::parse("2026-11-22").unwrap()),
            "2026-11-22 (Sunday)"
        );
        let title_of = |_: ItemKind, _: &str| None;
        let r = summary_request("hi", &[], 2, &title_of);
        assert_eq!(
            r,
            "Request: hi\nProposed changes:\n(none)\n2 more proposed changes were invalid and left out.\nSummary:"
        );
    }

    #[derive(Default)]
    struct Sink(Mutex<Vec<AssistantEvent>>);

    impl EventSink for Sink {
        fn on_event(&self, e: AssistantEvent) {
            self.0.lock().unwrap().push(e);
        }
    }

    #[test]
    fn heartbeats_stop_when_the_call_returns() {
        let sink = Sink::default();
        // The call lasts until the first heartbeat arrived (at most 10 s, however busy the machine).
        let out = with_heartbeat(&sink, 5, || {
            let started = std::time::Instant::now();
            while sink.0.lock().unwrap().is_empty() && started.elapsed() < Duration::from_secs(10) {
                std::thread::sleep(Duration::from_millis(1));
            }
            7
        });
        assert_eq!(out, 7);
        let n = sink.0.lock().unwrap().len();
        assert!(n >= 1, "a heartbeat while the call runs");
        std::thread::sleep(Duration::from_millis(30));
        assert_eq!(sink.0.lock().unwrap().len(), n, "none after the call");
        let quiet = Sink::default();
        with_heartbeat(&quiet, 0, || std::thread::sleep(Duration::from_millis(20)));
        assert!(quiet.0.lock().unwrap().is_empty());
    }

    #[test]
    fn cut_chars_is_char_safe() {
        assert_eq!(cut_chars("héllo", 2), "hé");
        assert_eq!(cut_chars("hi", 5), "hi");
    }
}
