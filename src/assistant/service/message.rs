//! The message pipeline (see [`super`] for the paths, events, modes and errors): one [`Run`] per
//! message reads the grounding from the store, calls the model (router, proposal, repair, summary
//! or chat) through the one metered wrapper ([`Metered`]: breaker, heartbeats, one log line per
//! call), checks each proposal against the stored items and sends the
//! events. The pure parts it uses are [`grounding`](crate::assistant::grounding) (aliases,
//! context, budget) and [`prompt`](crate::assistant::prompt) (prompt builders, proposal reading).

mod plan;

use std::cell::Cell;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;

use serde_json::Value;

use super::apply;
use crate::assistant::answer::answer;
use crate::assistant::clarify;
use crate::assistant::date::Date;
use crate::assistant::grounding::{
    budget, cut_chars, mentioned, seeded_where, Aliases, Ctx, Grounding,
};
use crate::assistant::model::{
    AssistantEvent, AssistantMode, AssistantRequest, AssistantResult, AssistantStage,
    Clarification, ClarifySelection, ItemKind, OpCheck, PlannerAnswer, PlannerItem,
    PlannerOperation, Route, RouteDecision, SummarySource, Validation,
};
use crate::assistant::narrow::{code_wins, narrow_in, Narrowed};
use crate::assistant::phrasing::phrases;
use crate::assistant::prompt::{chat_prompt, parse_proposal};
use crate::assistant::reading::{read_question, read_small_talk, Intent, SmallTalk};
use crate::assistant::router::{self, RouterReply};
use crate::assistant::shape;
use crate::assistant::summary;
use crate::assistant::validate;
use crate::assistant::{MAX_OPERATIONS, OPS_VERSION};
use crate::db::Store;
use crate::kernel::clock::Clock;
use crate::kernel::error::{Error, OutputStage, Result};
use crate::kernel::ids::IdGenerator;
use crate::kernel::lang::Language;
use crate::kernel::prompts::ASSISTANT_NARROW as NARROW_PROMPT;
use crate::llm::breaker::Breaker;
use crate::llm::metered::Metered;
use crate::llm::stream::generate_with_deltas;
use crate::llm::structured::generate_validated;
use crate::llm::{
    CancelToken, ChatMessage, ChatRole, GenerationRequest, GenerationResult, LanguageModel,
    LlmError, ModelInfo, Sampling,
};

/// The longest user message sent to the model, in characters (longer ones are cut).
pub const MAX_MESSAGE_CHARS: usize = 2_000;
/// The longest chat answer kept, in characters.
pub const MAX_CHAT_CHARS: usize = 800;
/// Open items read as clarify candidates and for the goals of the context.
const OPEN_ITEMS_LIMIT: u32 = 200;
/// Tokens of the narrowed answer: its JSON frame, plus this many per name asked.
const NARROW_BASE_TOKENS: u32 = 24;
const NARROW_TOKENS_PER_NAME: u32 = 32;
/// Selected ids looked up, at most.
const MAX_SELECTED: usize = MAX_OPERATIONS;

/// Receives the events of a running message (the FFI wraps the app's listener in this).
pub trait EventSink: Send + Sync {
    /// Called with each event, in order, one at a time (from the thread running the message, or
    /// while a model call runs from the helper threads of heartbeats and text deltas).
    fn on_event(&self, event: AssistantEvent);
}

/// A sink that passes on one event at a time: heartbeats and text deltas come from helper
/// threads while a model call runs.
struct OneAtATime<'a> {
    inner: &'a dyn EventSink,
    turn: std::sync::Mutex<()>,
}

impl EventSink for OneAtATime<'_> {
    fn on_event(&self, event: AssistantEvent) {
        let _turn = self.turn.lock().unwrap_or_else(|p| p.into_inner());
        self.inner.on_event(event);
    }
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
    /// Tokens of a chat answer (small talk). Default 64.
    pub chat_max_tokens: u32,
    /// Wall-clock limit of a chat answer (`None`: [`AssistantSettings::timeout_ms`]); past it a
    /// short code-made reply is given instead. Default 3 s.
    pub chat_timeout_ms: Option<u64>,
    /// Backlog todos read for the context. Default 20.
    pub backlog_limit: u32,
    /// The most characters of context (week, backlog, goals) in a prompt. Default 6000.
    pub max_context_chars: usize,
    /// The model's circuit breaker, shared with the other features (`Models::set`
    /// sets it). Default none.
    pub breaker: Option<Arc<Breaker>>,
    /// Whether a message the deterministic reading understands takes the narrowed path
    /// (`assistant::narrow`: the model only names items and picks among options code built).
    /// Default true; false sends every message to the model's full proposal, for a model large
    /// enough to write the operations itself.
    pub narrow: bool,
    /// The time budget of the whole full-proposal path (proposal, repair and summary calls), in
    /// milliseconds: each of its model calls gets at most what is left of it (and at most
    /// [`timeout_ms`](Self::timeout_ms)). Past it the path stops: what is valid by then is kept
    /// (no repair, a rule-based summary), and with nothing valid it asks a clarifying question.
    /// Default 4000 (with the calls before it, a message ends within about 5 s on SmolLM2-135M on
    /// 2 threads); `None`: no budget.
    pub proposal_budget_ms: Option<u64>,
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
            chat_max_tokens: 64,
            chat_timeout_ms: Some(3_000),
            backlog_limit: 20,
            max_context_chars: 6_000,
            breaker: None,
            narrow: true,
            proposal_budget_ms: Some(4_000),
        }
    }
}

/// Runs one message through the pipeline, sending events to `sink`; `done` is always the last
/// event, also on error or cancellation. See the module docs for the paths, the events and the
/// errors (without a model only what the reading understands is answered; the rest returns
/// `InvalidArgument` after `done`). Nothing is written
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
    let sink = &OneAtATime {
        inner: sink,
        turn: std::sync::Mutex::new(()),
    };
    let beat = || sink.on_event(AssistantEvent::Heartbeat);
    let run = Run {
        store,
        model: model.map(|model| {
            Metered::new(model, "assistant")
                .with_request_id(request_id.as_str())
                .with_breaker(settings.breaker.as_deref())
                .with_heartbeat(&beat, settings.heartbeat_ms)
        }),
        sink,
        cancel,
        settings,
        request_id: &request_id,
        lang: Language::read_as(request.language.as_deref()),
        shrink: Cell::new(0),
    };
    let out = run.run(clock, request);
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
    /// `None`: no model configured; only what the reading understands is handled.
    model: Option<Metered<'a>>,
    sink: &'a dyn EventSink,
    cancel: &'a Arc<CancelToken>,
    settings: &'a AssistantSettings,
    request_id: &'a str,
    /// The language the message is read and answered in.
    lang: Language,
    /// Characters taken off every context budget after the model said a prompt did not fit its
    /// window ([`Run::fits_after`]).
    shrink: Cell<usize>,
}

/// Calls of one prompt after the model said it overflowed the window, each with less context.
const OVERFLOW_RETRIES: usize = 2;
/// Characters per token assumed when shrinking the context after an overflow: more than
/// [`crate::assistant::grounding::CHARS_PER_TOKEN`], so one retry is usually enough.
const OVERFLOW_CHARS_PER_TOKEN: usize = 4;
/// Tokens taken off beyond the overflow itself.
const OVERFLOW_SLACK_TOKENS: usize = 24;

impl Run<'_> {
    /// Whether a call that failed with `e` should run again with less context: true after a
    /// `ContextOverflow` (the budget's estimate of characters per token was too high for this
    /// text, as in German titles), which then takes the overflow and a margin off every later
    /// context of this message.
    fn fits_after(&self, e: &LlmError) -> bool {
        let LlmError::ContextOverflow { over_by, .. } = e else {
            return false;
        };
        let cut = (*over_by as usize + OVERFLOW_SLACK_TOKENS) * OVERFLOW_CHARS_PER_TOKEN;
        self.shrink.set(self.shrink.get() + cut);
        log::info!(target: "coachcore::assistant",
            "request={} prompt over the window by {over_by} tokens: {} fewer context chars",
            self.request_id, self.shrink.get());
        true
    }

    fn emit(&self, event: AssistantEvent) {
        self.sink.on_event(event);
    }

    /// The model, or the error every model-only path gives without one.
    fn model(&self) -> Result<&Metered<'_>> {
        self.model
            .as_ref()
            .ok_or_else(|| Error::InvalidArgument("no language model configured".into()))
    }

    fn stage(&self, stage: AssistantStage) -> Result<()> {
        self.check_cancel()?;
        if let Some(m) = &self.model {
            m.set_stage(stage.as_str());
        }
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
        let lang = self.lang;
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
        // A question about the planner is answered by code, in every mode, without the model.
        if self.settings.narrow && selection.is_none() {
            if let Some(a) = self.code_answer(&message, today)? {
                return self.answered(a);
            }
        }
        let info = match &self.model {
            Some(m) => m.info(),
            None => ModelInfo {
                name: "none".into(),
                context_tokens: 2_048,
                constrains_json_schema: false,
            },
        };
        let grounding = Grounding {
            week: apply::week(self.store, today)?,
            backlog: apply::backlog(self.store, self.settings.backlog_limit)?,
            open: apply::open_items(self.store, OPEN_ITEMS_LIMIT)?,
        };
        let mut aliases = Aliases::default();
        aliases.add_all(&grounding);
        let ctx = Ctx {
            today,
            lang,
            message: &message,
            grounding: &grounding,
            info: &info,
        };
        log::info!(target: "coachcore::assistant",
            "request={} mode={:?} selection={} week_entries={} backlog={} open={} context_tokens={}",
            self.request_id, request.mode, selection.is_some(), grounding.week.entries.len(),
            grounding.backlog.len(), grounding.open.len(), info.context_tokens);
        let narrowed = narrow_in(&message, lang, today, &grounding.open);
        log::info!(target: "coachcore::assistant",
            "request={} reading intent={:?} open={} options={} names={}",
            self.request_id, narrowed.reading.intent, narrowed.open, narrowed.options.len(),
            narrowed.names());
        let narrowed_ok =
            self.settings.narrow && request.mode != AssistantMode::Chat && selection.is_none();
        if self.model.is_none() && (!narrowed_ok || narrowed.open) {
            return Err(Error::InvalidArgument(
                "no language model configured".into(),
            ));
        }
        match (request.mode, selection) {
            (AssistantMode::Chat, _) => self.chat(&ctx, &mut aliases, None),
            (_, Some(sel)) => {
                let selected = self.selected_items(sel)?;
                let where_ = seeded_where(sel, &selected, &mut aliases);
                self.plan(&ctx, &mut aliases, None, &where_, Some(sel))
            }
            (AssistantMode::Plan, None) if narrowed_ok && !narrowed.open => {
                self.narrowed(&ctx, &narrowed)
            }
            (AssistantMode::Plan, None) => self.plan(&ctx, &mut aliases, None, "", None),
            // A question or a remark: chat when a model can answer it.
            (AssistantMode::Auto, None)
                if narrowed_ok
                    && narrowed.reading.intent == Some(Intent::Nothing)
                    && self.model.is_some() =>
            {
                self.chat(&ctx, &mut aliases, None)
            }
            // What the reading understands needs no router.
            (AssistantMode::Auto, None) if narrowed_ok && !narrowed.open => {
                self.narrowed(&ctx, &narrowed)
            }
            (AssistantMode::Auto, None) => {
                self.stage(AssistantStage::Routing)?;
                let route = self.route(&ctx, &mut aliases)?;
                match route {
                    Some(route) if route.decision == RouteDecision::Clarify => {
                        let clarification =
                            clarify::clarify(&message, Some(&route), &grounding.open);
                        self.ask_back(clarification, Some(route))
                    }
                    Some(route) if route.decision == RouteDecision::Chat => {
                        self.chat(&ctx, &mut aliases, Some(route))
                    }
                    route => {
                        let where_ = route
                            .as_ref()
                            .map(|r| mentioned(&r.entities))
                            .unwrap_or_default();
                        self.plan(&ctx, &mut aliases, route, &where_, None)
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

    /// The context of a prompt holding `fixed` characters of other text and an answer of
    /// `max_tokens`, trimmed to the model's window (see "Context grounding" in [`super`]).
    fn context(&self, ctx: &Ctx, aliases: &mut Aliases, max_tokens: u32, fixed: usize) -> String {
        let max_chars = self.settings.max_context_chars;
        let chars =
            budget(ctx.info, max_tokens, fixed, max_chars).saturating_sub(self.shrink.get());
        ctx.context(aliases, chars)
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
        match &self.model {
            Some(m) => m.generate(request, None, Arc::clone(self.cancel)),
            None => Err(LlmError::ModelNotFound {
                detail: "no language model configured".into(),
            }),
        }
    }

    /// A model call whose text streams to the sink as `textDelta` events as it is written (the
    /// chat answer; never a call under a JSON Schema).
    fn generate_streamed(&self, request: GenerationRequest) -> Result<GenerationResult, LlmError> {
        let sink = self.sink;
        match &self.model {
            Some(m) => generate_with_deltas(m, request, Arc::clone(self.cancel), &|text| {
                sink.on_event(AssistantEvent::TextDelta { text })
            }),
            None => Err(LlmError::ModelNotFound {
                detail: "no language model configured".into(),
            }),
        }
    }

    /// The router's decision; `None` when the router failed (then: plan).
    fn route(&self, ctx: &Ctx, aliases: &mut Aliases) -> Result<Option<Route>> {
        let max_tokens = self.settings.router_max_tokens;
        let fixed = router::system_prompt(&ctx.today_label(), "").len() + ctx.message.len();
        let mut retries = 0;
        let outcome = loop {
            let context = self.context(ctx, aliases, max_tokens, fixed);
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
                self.model()?,
                request,
                self.settings.router_attempts,
                None,
                self.cancel,
                router::check_reply,
            );
            match outcome {
                Err(e) if retries < OVERFLOW_RETRIES && self.fits_after(&e) => retries += 1,
                outcome => break outcome,
            }
        };
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
        self.model()?.set_stage("chat");
        let max_tokens = self.settings.chat_max_tokens;
        let fixed = chat_prompt(&ctx.today_label(), "").len() + ctx.message.len();
        let mut retries = 0;
        let (context, system, outcome) = loop {
            let context = self.context(ctx, aliases, max_tokens, fixed);
            let system = chat_prompt(&ctx.today_label(), &context);
            let mut request = self.request(
                vec![
                    ChatMessage::new(ChatRole::System, system.clone()),
                    ChatMessage::new(ChatRole::User, ctx.message),
                ],
                None,
                max_tokens,
            );
            request.timeout_ms = self.settings.chat_timeout_ms.or(request.timeout_ms);
            match self.generate_streamed(request) {
                Err(e) if retries < OVERFLOW_RETRIES && self.fits_after(&e) => retries += 1,
                outcome => break (context, system, outcome),
            }
        };
        let generated = match outcome {
            Ok(out) => Some(out),
            Err(LlmError::TimedOut { after_ms }) => {
                log::info!(target: "coachcore::assistant",
                    "request={} chat timed out after {after_ms} ms, code reply", self.request_id);
                None
            }
            Err(e) => return Err(e.into()),
        };
        let mut answer = None;
        let (text, source) = match generated {
            Some(out) => {
                let text =
                    summary::clean(&out.text, MAX_CHAT_CHARS).ok_or(LlmError::InvalidOutput {
                        stage: OutputStage::Extract,
                        attempts: 1,
                        detail: "no text left after removing markup".into(),
                    })?;
                let prompt = format!("{system}\n{}", ctx.message);
                if summary::repeats_prompt(&text, &prompt, &context) {
                    log::info!(target: "coachcore::assistant",
                        "request={} chat answer repeats the prompt, code reply", self.request_id);
                    answer = self.code_answer(ctx.message, ctx.today)?;
                    (self.code_reply(ctx, answer.as_ref()), SummarySource::Rules)
                } else {
                    (text, SummarySource::Model)
                }
            }
            None => {
                answer = self.code_answer(ctx.message, ctx.today)?;
                (self.code_reply(ctx, answer.as_ref()), SummarySource::Rules)
            }
        };
        self.emit(AssistantEvent::Summary { text: text.clone() });
        Ok(AssistantResult {
            request_id: self.request_id.to_string(),
            decision: RouteDecision::Chat,
            route,
            operations: Vec::new(),
            invalid: Vec::new(),
            summary: Some(text),
            summary_source: Some(source),
            clarification: None,
            answer,
            reading_language: self.lang.code().to_string(),
        })
    }

    /// The code-made answer to `message` when it is a question about the planner (read against
    /// every open or repeating item and the recently done ones, [`apply::answer_items`]).
    fn code_answer(&self, message: &str, today: Date) -> Result<Option<PlannerAnswer>> {
        let items = apply::answer_items(self.store, today)?;
        let Some(q) = read_question(message, self.lang, today, &items) else {
            return Ok(None);
        };
        let a = answer(&q, today, &items, self.lang);
        log::info!(target: "coachcore::assistant",
            "request={} question asks={:?} days={} kinds={} items_named={}",
            self.request_id, q.asks, q.days.is_some(), q.kinds.len(), a.items.len());
        Ok(Some(a))
    }

    /// The reply that replaces an unusable chat answer: the code-made answer of a question about
    /// the planner, else a short reply to small talk in the user's language.
    fn code_reply(&self, ctx: &Ctx, answer: Option<&PlannerAnswer>) -> String {
        if let Some(a) = answer {
            return a.text.clone();
        }
        let p = phrases(self.lang);
        match read_small_talk(ctx.message, self.lang) {
            SmallTalk::Thanks => p.reply_thanks,
            SmallTalk::Greeting => p.reply_hello,
            SmallTalk::Other => p.reply_other,
        }
        .to_string()
    }

    /// The result of a question answered by code: `summary` (the answer's text) and `result`
    /// events, decision chat, no operation, no model call.
    fn answered(&self, a: PlannerAnswer) -> Result<AssistantResult> {
        self.check_cancel()?;
        self.emit(AssistantEvent::Summary {
            text: a.text.clone(),
        });
        self.send_result(AssistantResult {
            request_id: self.request_id.to_string(),
            decision: RouteDecision::Chat,
            route: None,
            operations: Vec::new(),
            invalid: Vec::new(),
            summary: Some(a.text.clone()),
            summary_source: Some(SummarySource::Rules),
            clarification: None,
            answer: Some(a),
            reading_language: self.lang.code().to_string(),
        })
    }

    /// The narrowed path (`assistant::narrow`): operations built from the reading, the model
    /// asked only for names and open choices under a grammar built for this message, then the
    /// same validation as any proposal and a rule-based summary. Without a model (or when its
    /// answer is unusable) the reading's defaults apply, and the summary says so.
    fn narrowed(&self, ctx: &Ctx, n: &Narrowed) -> Result<AssistantResult> {
        if let Some(c) = &n.clarification {
            // The words do not decide: a question back, in the message's language.
            log::info!(target: "coachcore::assistant",
                "request={} narrowed clarify options={}", self.request_id, c.options.len());
            return self.ask_back(c.clone(), None);
        }
        self.stage(AssistantStage::Proposing)?;
        let mut answer: Option<Value> = None;
        let mut model_used = false;
        if let (Some(schema), Some(_)) = (n.question_schema(), &self.model) {
            let names = n.names() as u32;
            let request = self.request(
                vec![
                    ChatMessage::new(ChatRole::System, NARROW_PROMPT.trim_end()),
                    ChatMessage::new(ChatRole::User, n.user_turn(ctx.message)),
                ],
                Some(&schema),
                NARROW_BASE_TOKENS + NARROW_TOKENS_PER_NAME * names,
            );
            match self.generate(request) {
                Ok(out) => {
                    model_used = true;
                    answer = parse_proposal(&out.text).ok().filter(Value::is_object);
                    if answer.is_none() {
                        log::info!(target: "coachcore::assistant",
                            "request={} narrowed answer unreadable (finish={:?}), defaults used",
                            self.request_id, out.finish);
                    }
                }
                Err(LlmError::Cancelled) => return Err(LlmError::Cancelled.into()),
                Err(e) => log::warn!(target: "coachcore::assistant",
                    "request={} narrowed question failed, defaults used: {e}", self.request_id),
            }
        }
        let resolved = n.resolve(answer.as_ref());
        log::info!(target: "coachcore::assistant",
            "request={} narrowed choice={:?} ops={} repairs={} model_answered={}",
            self.request_id, resolved.choice, resolved.operations.len(), resolved.repairs.len(),
            answer.is_some());
        for r in &resolved.repairs {
            log::info!(target: "coachcore::assistant", "request={} repair: {r}", self.request_id);
        }

        self.stage(AssistantStage::Validating)?;
        let shaped = shape::shape_typed(resolved.operations);
        let known = apply::known_items(self.store, &validate::referenced_items(&shaped))?;
        let v: Validation = validate::validate(&shaped, &known, ctx.today);
        let mut kept: Vec<PlannerOperation> = Vec::new();
        let mut invalid: Vec<OpCheck> = Vec::new();
        for c in v.checks {
            match (&c.operation, c.valid) {
                (Some(op), true) if kept.len() < MAX_OPERATIONS => kept.push(op.clone()),
                _ => invalid.push(c),
            }
        }
        let titles = self.ops_then_titles(&kept, invalid.len(), &Aliases::default())?;
        let title_of = |kind: ItemKind, id: &str| titles.get(&(kind, id.to_string())).cloned();
        let mut text = summary::rule_summary_in(&kept, invalid.len(), &title_of, self.lang);
        if !model_used && n.asks_model() {
            text = format!("{text} {}", summary::without_model_note(self.lang));
        }
        let text = code_wins::summary_with_repairs(text, &resolved.repairs, self.lang);
        self.emit(AssistantEvent::Summary { text: text.clone() });
        let result = AssistantResult {
            request_id: self.request_id.to_string(),
            decision: RouteDecision::Plan,
            route: None,
            operations: kept,
            invalid,
            summary: Some(text),
            summary_source: Some(SummarySource::Rules),
            clarification: None,
            answer: None,
            reading_language: self.lang.code().to_string(),
        };
        self.send_result(result)
    }

    /// Sends the `ops` event of the operations kept (and the count of invalid ones), enters the
    /// summarizing stage and looks up the titles of the items the kept operations name.
    fn ops_then_titles(
        &self,
        kept: &[PlannerOperation],
        invalid: usize,
        aliases: &Aliases,
    ) -> Result<HashMap<(ItemKind, String), String>> {
        self.emit(AssistantEvent::Ops {
            version: OPS_VERSION,
            operations: kept.to_vec(),
            valid_count: kept.len() as u32,
            invalid_count: invalid as u32,
        });
        self.stage(AssistantStage::Summarizing)?;
        self.titles(kept, aliases)
    }

    /// A clarifying question instead of operations: sends `clarify` and `result` (decision
    /// clarify).
    fn ask_back(
        &self,
        clarification: Clarification,
        route: Option<Route>,
    ) -> Result<AssistantResult> {
        self.check_cancel()?;
        self.emit(AssistantEvent::Clarify {
            clarification: clarification.clone(),
        });
        let result = AssistantResult {
            request_id: self.request_id.to_string(),
            decision: RouteDecision::Clarify,
            route,
            operations: Vec::new(),
            invalid: Vec::new(),
            summary: None,
            summary_source: None,
            clarification: Some(clarification),
            answer: None,
            reading_language: self.lang.code().to_string(),
        };
        self.send_result(result)
    }

    /// Sends the `result` event and returns the result.
    fn send_result(&self, result: AssistantResult) -> Result<AssistantResult> {
        self.emit(AssistantEvent::Result {
            result: result.clone(),
        });
        Ok(result)
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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budget_follows_the_context_window() {
        let s = AssistantSettings::default();
        let info = |n| ModelInfo {
            name: "m".into(),
            context_tokens: n,
            constrains_json_schema: false,
        };
        assert_eq!(
            budget(&info(2048), 256, 1000, s.max_context_chars),
            (2048 - 256 - 64) * 3 - 1000
        );
        assert_eq!(budget(&info(256), 256, 0, s.max_context_chars), 0);
        assert_eq!(
            budget(&info(100_000), 256, 0, s.max_context_chars),
            s.max_context_chars
        );
    }
}
