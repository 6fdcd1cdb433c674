//! The plan path of the message pipeline (see [`crate::assistant::service`] for its events and
//! the exact outcome of the repair pass): the proposal call, each answer parsed, its aliases
//! mapped back, shaped and checked against the stored items, the one repair call and the merge of
//! its answer with the first, then the summary (the model's, or the rules'). The rest of the
//! pipeline (routing, chat, the narrowed path, events and cancellation) is in [`super`].
//!
//! Two guards (issue 25): a change of an existing item keeps only the fields the message
//! mentions ([`code_wins::drop_unmentioned`]; when nothing mentioned is left, a clarifying
//! question), and the whole path runs within [`AssistantSettings::proposal_budget_ms`]: each
//! model call gets what is left of it; past it no repair is asked, the summary is the rules',
//! and a path left with nothing valid asks a clarifying question instead.
//!
//! [`AssistantSettings::proposal_budget_ms`]: super::AssistantSettings::proposal_budget_ms

use std::collections::HashMap;
use std::time::Instant;

use super::{Run, OVERFLOW_RETRIES};
use crate::assistant::clarify::{self, Ask};
use crate::assistant::date::Date;
use crate::assistant::grounding::{Aliases, Ctx};
use crate::assistant::model::{
    AssistantEvent, AssistantResult, AssistantStage, ClarifySelection, ItemKind, OpCheck, OpIssue,
    OpType, PlannerItem, PlannerOperation, Route, RouteDecision, SummarySource, Validation,
};
use crate::assistant::narrow::{clarify_options, code_wins};
use crate::assistant::prompt::{
    answer_for_chat, list_of, parse_proposal, propose_prompt, repair_message, summary_request,
};
use crate::assistant::proposal::Mentions;
use crate::assistant::proposal::{max_operations, proposal_schema};
use crate::assistant::reading::read_message_in;
use crate::assistant::service::apply;
use crate::assistant::shape::{self, ShapedOp};
use crate::assistant::summary;
use crate::assistant::validate;
use crate::assistant::MAX_OPERATIONS;
use crate::kernel::error::Result;
use crate::kernel::lang::Language;
use crate::kernel::prompts::ASSISTANT_SUMMARY as SUMMARY_PROMPT;
use crate::llm::structured::repair_prompt;
use crate::llm::{ChatMessage, ChatRole, FinishReason, GenerationRequest, LlmError};
use serde_json::Value;

/// The time budget of one full-proposal path.
struct Budget {
    started: Instant,
    ms: Option<u64>,
}

impl Budget {
    fn start(ms: Option<u64>) -> Budget {
        Budget {
            started: Instant::now(),
            ms,
        }
    }

    /// Milliseconds left; `None`: no budget.
    fn left(&self) -> Option<u64> {
        let spent = self.started.elapsed().as_millis() as u64;
        self.ms.map(|ms| ms.saturating_sub(spent))
    }

    fn spent(&self) -> bool {
        self.left() == Some(0)
    }

    /// `request` with its timeout cut to what is left of the budget.
    fn limit(&self, mut request: GenerationRequest) -> GenerationRequest {
        if let Some(left) = self.left() {
            let left = left.max(1);
            request.timeout_ms = Some(request.timeout_ms.map_or(left, |t| t.min(left)));
        }
        request
    }
}

impl Run<'_> {
    /// The plan path after routing: the proposal, its checks, at most one repair pass merged as
    /// the module docs of [`crate::assistant::service`] say, the cap of [`MAX_OPERATIONS`], then the
    /// summary; sends `ops`, `summary` and `result`.
    pub(super) fn plan(
        &self,
        ctx: &Ctx,
        aliases: &mut Aliases,
        route: Option<Route>,
        where_: &str,
        selection: Option<&ClarifySelection>,
    ) -> Result<AssistantResult> {
        let budget = Budget::start(self.settings.proposal_budget_ms);
        self.stage(AssistantStage::Proposing)?;
        let max_tokens = self.settings.propose_max_tokens;
        let fixed = propose_prompt(&ctx.today_label(), "", where_).len() + ctx.message.len();
        let mut messages = self.proposal_chat(ctx, aliases, max_tokens, fixed, where_);
        // The grammar of this message: the aliases shown, the days it can mean, as many
        // operations as it can ask for (`assistant::proposal`).
        let reading = read_message_in(ctx.message, ctx.lang, ctx.today, &ctx.grounding.open);
        let schema = proposal_schema(
            ctx.message,
            &reading,
            ctx.today,
            &aliases.targets(ctx.grounding),
        );
        log::info!(target: "coachcore::assistant",
            "request={} proposal schema chars={} max_operations={}", self.request_id,
            schema.len(), max_operations(ctx.message));
        let mut retries = 0;
        let first = loop {
            match self.generate(budget.limit(self.request(messages, Some(&schema), max_tokens))) {
                Ok(out) => break out,
                Err(LlmError::TimedOut { .. }) if budget.spent() => {
                    return self.too_slow(ctx, route);
                }
                Err(e) if retries < OVERFLOW_RETRIES && self.fits_after(&e) => {
                    retries += 1;
                    messages = self.proposal_chat(ctx, aliases, max_tokens, fixed, where_);
                }
                Err(e) => return Err(e.into()),
            }
        };

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
            let over = budget.spent();
            if over {
                log::info!(target: "coachcore::assistant",
                    "request={} past the time budget: no repair", self.request_id);
            } else {
                self.stage(AssistantStage::Repairing)?;
            }
            let repair_text = match &first_pass.list_error {
                Some(issue) => repair_prompt(std::slice::from_ref(&issue.message)),
                None => repair_message(&first_invalid, &first_pass.raw, aliases),
            };
            let answer = answer_for_chat(&first.text);
            // The repair chat holds the first answer and the request too: the context shrinks.
            let fixed = fixed + answer.len() + repair_text.len();
            let call = (!over).then(|| {
                let mut retries = 0;
                loop {
                    let mut messages = self.proposal_chat(ctx, aliases, max_tokens, fixed, where_);
                    messages.push(ChatMessage::new(ChatRole::Assistant, answer.clone()));
                    messages.push(ChatMessage::new(ChatRole::User, repair_text.clone()));
                    let request = self.request(messages, Some(&schema), max_tokens);
                    match self.generate(budget.limit(request)) {
                        Err(e) if retries < OVERFLOW_RETRIES && self.fits_after(&e) => retries += 1,
                        outcome => break outcome,
                    }
                }
            });
            let repaired = match call {
                None => None,
                Some(Ok(out)) => Some(self.check(&out.text, aliases, ctx.today)?),
                Some(Err(LlmError::Cancelled)) => return Err(LlmError::Cancelled.into()),
                Some(Err(e)) => {
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
        if kept.is_empty() && budget.spent() {
            // Nothing valid, and no time left to do better: ask.
            return self.too_slow(ctx, route);
        }
        // A change of an existing item sets only what the message mentions.
        let mut mentions = Mentions::of(ctx.message, &reading);
        if let Some(sel) = selection {
            mentions.date |= sel.date.is_some();
            mentions.priority |= sel.priority.is_some();
        }
        let stored = self.stored_items(&kept)?;
        let unmentioned = code_wins::drop_unmentioned(
            &mut kept,
            &|kind, id| stored.get(&(kind, id.to_string())).cloned(),
            &mentions,
        );
        if !unmentioned.repairs.is_empty() {
            log::info!(target: "coachcore::assistant",
                "request={} unmentioned fields left out: {} (changes dropped: {})",
                self.request_id, unmentioned.repairs.len(), unmentioned.dropped.len());
        }
        if kept.is_empty() && !unmentioned.dropped.is_empty() {
            let ask = match &unmentioned.dropped[..] {
                [(_, _, title)] => Ask::WhatChange {
                    title: title.clone(),
                },
                _ => Ask::WhichItem,
            };
            let first: Vec<String> = unmentioned
                .dropped
                .iter()
                .map(|(_, id, _)| id.clone())
                .collect();
            let options = clarify_options(ctx.message, &ctx.grounding.open, &first);
            return self.ask_back(clarify::ask_in(self.lang, &ask, options), route);
        }
        // Code wins over the model's calendar: the dates and times the reading is sure of.
        let mut repairs = unmentioned.repairs;
        repairs.extend(code_wins::check_dates_and_times(
            &mut kept,
            &reading,
            ctx.message,
        ));
        if !repairs.is_empty() {
            log::info!(target: "coachcore::assistant",
                "request={} dates or times repaired from the reading: {}", self.request_id,
                repairs.len());
            let shaped = shape::shape_typed(std::mem::take(&mut kept));
            let known = apply::known_items(self.store, &validate::referenced_items(&shaped))?;
            for c in validate::validate(&shaped, &known, ctx.today).checks {
                match (&c.operation, c.valid) {
                    (Some(op), true) => kept.push(op.clone()),
                    _ => invalid.push(c),
                }
            }
        }
        let titles = self.ops_then_titles(&kept, invalid.len(), aliases)?;
        let title_of = |kind: ItemKind, id: &str| titles.get(&(kind, id.to_string())).cloned();
        let (text, source) =
            self.summarize(ctx.message, &kept, invalid.len(), &title_of, &budget)?;
        let text = code_wins::summary_with_repairs(text, &repairs, self.lang);
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
            answer: None,
            reading_language: self.lang.code().to_string(),
        };
        self.send_result(result)
    }

    /// The question when the path ran out of its time budget with nothing valid: which item and
    /// what change, the items ranked by the message's words.
    fn too_slow(&self, ctx: &Ctx, route: Option<Route>) -> Result<AssistantResult> {
        log::info!(target: "coachcore::assistant",
            "request={} past the time budget with nothing valid: asking", self.request_id);
        let options = clarify_options(ctx.message, &ctx.grounding.open, &[]);
        self.ask_back(clarify::ask_in(self.lang, &Ask::TooSlow, options), route)
    }

    /// The stored items the kept changes name, by kind and id.
    fn stored_items(
        &self,
        ops: &[PlannerOperation],
    ) -> Result<HashMap<(ItemKind, String), PlannerItem>> {
        let mut out = HashMap::new();
        for op in ops {
            if let (OpType::Update | OpType::GoalUpdate, Some(id)) = (op.op, &op.id) {
                if let Some(item) = apply::item(self.store, op.kind, id)? {
                    out.insert((op.kind, id.clone()), item);
                }
            }
        }
        Ok(out)
    }

    /// The proposal prompt and the user's message, the context sized for a chat holding `fixed`
    /// characters of other text and an answer of `max_tokens`.
    fn proposal_chat(
        &self,
        ctx: &Ctx,
        aliases: &mut Aliases,
        max_tokens: u32,
        fixed: usize,
        where_: &str,
    ) -> Vec<ChatMessage> {
        let context = self.context(ctx, aliases, max_tokens, fixed);
        vec![
            ChatMessage::new(
                ChatRole::System,
                propose_prompt(&ctx.today_label(), &context, where_),
            ),
            ChatMessage::new(ChatRole::User, ctx.message),
        ]
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

    fn summarize(
        &self,
        message: &str,
        ops: &[PlannerOperation],
        invalid: usize,
        title_of: &dyn Fn(ItemKind, &str) -> Option<String>,
        budget: &Budget,
    ) -> Result<(String, SummarySource)> {
        if ops.is_empty() || self.lang != Language::En || budget.spent() {
            // Nothing to describe: the rules say so exactly, and no model can do better. The
            // model writes English: another language's summary is the rules' own. Past the time
            // budget, the rules' too.
            return Ok((
                summary::rule_summary_in(ops, invalid, title_of, self.lang),
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
        match self.generate(budget.limit(request)) {
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
            summary::rule_summary_in(ops, invalid, title_of, self.lang),
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
