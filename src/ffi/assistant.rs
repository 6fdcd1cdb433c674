//! [`Assistant`] (spec 002: messages with a listener and a task handle) and [`Planner`] (dry run,
//! apply and undo of operations; an item, a week, the backlog, the audit log). Each method
//! delegates to `assistant::service` or `assistant::apply`.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use crate::assistant::apply;
use crate::assistant::model::{
    ApplyResult, AssistantEvent, AssistantRequest, AssistantResult, AuditEntry, ItemKind,
    PlannerItem, PlannerOperation, Validation, WeekSnapshot,
};
use crate::assistant::service::{self, AssistantSettings, EventSink};
use crate::assistant::shape::shape_typed;
use crate::ffi::inner::{service_object, CoachInner};
use crate::ffi::task::{
    abandoned_error, export_task, ListenerError, ListenerSink, TaskCell, TaskFuture, TaskHandle,
};
use crate::kernel::date::Date;
use crate::kernel::error::{CoachError, Error};
use crate::kernel::ids::IdGenerator;
use crate::llm::{CancelToken, LanguageModel};

/// Receives the events of a message sent with [`Assistant::send`]. Implement it in Swift,
/// Kotlin or Python to show the assistant's progress.
///
/// Events come in the spec's order: `Stage`s (routing, proposing, validating, repairing,
/// summarizing), then `Clarify` or `Ops`, then `Summary`, `Result`, and always `Done` last (also
/// after an error or a cancellation). `Heartbeat` arrives periodically while the model works. A
/// chat answer (chat mode, or small talk in auto mode) streams: `TextDelta`s as the model writes
/// it (append each to the text shown), then `Summary` (authoritative: replace the streamed text
/// with it) and `Done`.
///
/// Threading: `onEvent` is called on the library's background thread that runs the message, one
/// event at a time, never concurrently for one message. Return quickly and hop to the main thread
/// (`DispatchQueue.main.async`, `withContext(Dispatchers.Main)`) before touching the UI. A listener
/// that throws (in Swift too: the method is `throws`) is not called again for that message (one
/// warning is logged); the message goes on and `wait` returns its result.
#[uniffi::export(with_foreign)]
pub trait AssistantListener: Send + Sync {
    /// One event of the running message. Throwing (any error) stops the events of this message.
    fn on_event(&self, event: AssistantEvent) -> Result<(), ListenerError>;
}

/// The app's listener (if any) as the service's event sink (a listener that throws is ignored
/// for the rest of the message, which goes on).
impl EventSink for ListenerSink<dyn AssistantListener> {
    fn on_event(&self, event: AssistantEvent) {
        self.0.call(|l| l.on_event(event));
    }
}

/// A message running in the background, returned by [`Assistant::send`].
///
/// Keep the handle while the message runs: dropping it (Swift releasing it, Kotlin `close()` or
/// `use {}`, Python losing the last reference) cancels the message.
///
/// Threading: every method may be called from any thread. `wait` blocks: never call it on the main
/// thread (use a background thread, `Task.detached` or `withContext(Dispatchers.IO)`), or rely on
/// the listener's `Result`/`Done` events instead. `wait` always returns, even when the listener
/// throws (a listener that throws is ignored for the rest of the message).
#[derive(uniffi::Object)]
pub struct AssistantTask {
    handle: TaskHandle<Result<AssistantResult, CoachError>>,
}

export_task!(AssistantTask => Result<AssistantResult, CoachError>,
    cancel: "Asks the message to stop. The model call in progress stops within a token or two; \
        the listener then gets `Done`, and `wait` throws `Cancelled`. Nothing is ever applied by \
        a message, so cancelling is always safe. Calling it after the message finished does \
        nothing.",
    wait: "Blocks until the message finishes and returns its result; throws what the message \
        failed with (`Cancelled`, `ModelUnavailable`, `TimedOut`, ...). May be called any number \
        of times, from any thread: every call returns the same result.",
    finished: "Whether the message has finished (`wait` would return at once).");

/// The assistant: messages in the user's words (spec 002), from `Coach.assistant()`. A message
/// runs on a library thread and reports its progress to an [`AssistantListener`]; its result
/// proposes planner operations (applied only by `planner().apply`), asks a question, or
/// answers. Its model is the one `model()` holds.
#[derive(uniffi::Object)]
pub struct Assistant {
    inner: Arc<CoachInner>,
}

service_object!(Assistant);

/// The planner, from `Coach.planner()`: the user's todos, events, habits and goals. Operations
/// (from the assistant or the app) are checked with `dryRun`, applied with `apply` in one
/// transaction with an audit entry per action, and reverted with `undo`; the reads give one item,
/// a week, the backlog and the audit log.
///
/// Dates: pass the user's local date (`YYYY-MM-DD`) where a call takes `today`; without it the
/// library uses the device clock's UTC date.
#[derive(uniffi::Object)]
pub struct Planner {
    inner: Arc<CoachInner>,
}

service_object!(Planner);

fn date_arg(what: &str, s: &str) -> Result<Date, CoachError> {
    Date::parse(s)
        .ok_or_else(|| Error::InvalidArgument(format!("{what} must be a date YYYY-MM-DD")).into())
}

#[uniffi::export]
impl Assistant {
    /// Sends a message to the assistant and returns at once with a task handle; the message runs
    /// on a background thread of the library and reports to `listener` (see
    /// [`AssistantListener`] for the events and their order).
    ///
    /// The model is the one `model()` holds (`model().set` or `model().load`). Without one, plan and
    /// auto modes still answer a message the library's own reading of it understands ("Remind me
    /// to call mom tomorrow at 5", "Mark buy milk as done"): the operations come from that
    /// reading and the summary ends with "(Understood without the on-device model.)". Any other
    /// message, chat mode and a `selection` need the model: the task fails with
    /// `InvalidArgument` (after `Done`).
    ///
    /// Nothing is applied: show the result's `operations` to the user and call
    /// [`Planner::apply`] with the ones they confirm.
    ///
    /// Dates: pass the user's local date in `request.today` (`YYYY-MM-DD`); without it the library
    /// uses the device clock's UTC date, which is the wrong day near midnight in most time zones.
    ///
    /// Threading: callable from any thread, the main thread included (it does not block). Several
    /// messages may run at once; they share the database connection and the model.
    pub fn send(
        self: Arc<Self>,
        request: AssistantRequest,
        listener: Option<Arc<dyn AssistantListener>>,
    ) -> Arc<AssistantTask> {
        let cell = self.start_message(request, listener, CancelToken::new());
        Arc::new(AssistantTask {
            handle: TaskHandle::new(cell, None),
        })
    }

    /// Sends a message to the assistant and returns its result when it finishes: the async form
    /// of [`Assistant::send`] (Swift `async throws`, Kotlin `suspend`, Python `async def`),
    /// with the same events to `listener`, run on a library thread (it needs no async runtime
    /// and never blocks the caller's thread).
    ///
    /// Cancellation: cancelling the Kotlin coroutine or the Python asyncio task stops the message
    /// (the Rust future is dropped, which cancels the work). Swift's generated `async` call does
    /// not see a `Task` being cancelled: pass a `cancel` token and call `cancel.cancel()` (the
    /// shipped `CoachAsync.swift` does that for you in `message(_:)`); the call then throws
    /// `Cancelled`. Throws what [`AssistantTask::wait`] throws.
    #[uniffi::method(default(listener = None, cancel = None))]
    pub async fn send_async(
        self: Arc<Self>,
        request: AssistantRequest,
        listener: Option<Arc<dyn AssistantListener>>,
        cancel: Option<Arc<CancelToken>>,
    ) -> Result<AssistantResult, CoachError> {
        let cell = self.start_message(request, listener, cancel.unwrap_or_default());
        TaskFuture::new(cell).await
    }
}

#[uniffi::export]
impl Planner {
    /// Validation results for `operations`, with the deterministic repairs (e.g. a missing
    /// `{type:'none'}` recurrence added); the database is not changed. Use it to show the user what
    /// `apply` would do and what is wrong with the rest.
    ///
    /// `today` is the user's local date (`YYYY-MM-DD`), used for date checks; absent uses the device
    /// clock's UTC date. Throws `InvalidArgument` for a malformed `today`.
    ///
    /// Threading: reads the database (milliseconds); call it off the main thread.
    #[uniffi::method(default(today = None))]
    pub fn dry_run(
        &self,
        operations: Vec<PlannerOperation>,
        today: Option<String>,
    ) -> Result<Validation, CoachError> {
        let today = self.today_or_clock(today.as_deref())?;
        Ok(apply::dry_run(&self.store, shape_typed(operations), today)?)
    }

    /// Validates `operations` and applies them all in one transaction, with one audit entry per
    /// action; if any is invalid nothing is applied and it throws `OperationsRejected` (at most 20
    /// operations per call).
    ///
    /// `idempotency_key`: a key the app makes per user action (e.g. a UUID kept with the pending
    /// confirmation). Retrying with the same key and the same operations returns the stored result
    /// with `replayed = true` and applies nothing again; the same key with other operations throws
    /// `IdempotencyConflict`. `today` as for [`Planner::dry_run`].
    ///
    /// Threading: writes the database (a few milliseconds); call it off the main thread.
    #[uniffi::method(default(idempotency_key = None, today = None))]
    pub fn apply(
        &self,
        operations: Vec<PlannerOperation>,
        idempotency_key: Option<String>,
        today: Option<String>,
    ) -> Result<ApplyResult, CoachError> {
        let today = self.today_or_clock(today.as_deref())?;
        let mut ids = IdGenerator::from_entropy();
        Ok(apply::apply(
            &self.store,
            &*self.clock,
            &mut ids,
            shape_typed(operations),
            idempotency_key.as_deref(),
            today,
        )?)
    }

    /// The todo, event, habit or goal of `kind` with `id`, or `None`.
    pub fn item(&self, kind: ItemKind, id: String) -> Result<Option<PlannerItem>, CoachError> {
        Ok(apply::item(&self.store, kind, &id)?)
    }

    /// The Monday-to-Sunday week containing `date` (`YYYY-MM-DD`): the items not completed, a
    /// repeating item once per open occurrence, sorted by date, time (untimed last), priority and
    /// title. Throws `InvalidArgument` for a malformed date.
    pub fn week(&self, date: String) -> Result<WeekSnapshot, CoachError> {
        let date = date_arg("date", &date)?;
        Ok(apply::week(&self.store, date)?)
    }

    /// Up to `limit` backlog todos (no date, not completed), high priority first, then the most
    /// recently changed.
    pub fn backlog(&self, limit: u32) -> Result<Vec<PlannerItem>, CoachError> {
        Ok(apply::backlog(&self.store, limit)?)
    }

    /// The audit log of applied operations, newest first: up to `limit` entries, those with `seq`
    /// below `before_seq` when given (pass the last `seq` you got to page back).
    #[uniffi::method(default(before_seq = None))]
    pub fn audit_log(
        &self,
        limit: u32,
        before_seq: Option<i64>,
    ) -> Result<Vec<AuditEntry>, CoachError> {
        Ok(apply::audit_log(&self.store, limit, before_seq)?)
    }
}

impl CoachInner {
    /// `today` parsed, or the clock's UTC date.
    pub(crate) fn today_or_clock(&self, today: Option<&str>) -> Result<Date, CoachError> {
        match today {
            Some(s) => date_arg("today", s),
            None => Ok(Date::from_unix_ms(self.clock.now_ms(), 0)),
        }
    }
}

impl Assistant {
    /// Starts a message on its own thread, stopped by `cancel`; its cell.
    fn start_message(
        self: Arc<Self>,
        request: AssistantRequest,
        listener: Option<Arc<dyn AssistantListener>>,
        cancel: Arc<CancelToken>,
    ) -> Arc<TaskCell<Result<AssistantResult, CoachError>>> {
        let model = self.language_model();
        let sink = Arc::new(ListenerSink::new(listener, "assistant listener"));
        let abandoned_sink = Arc::clone(&sink);
        let this = Arc::clone(&self);
        self.start(
            "coachcore-assistant",
            cancel,
            move || {
                abandoned_sink.on_event(AssistantEvent::Done);
                abandoned_error("assistant")
            },
            move |cancel| this.run_message_with(request, model, &*sink, cancel),
        )
    }

    /// Runs a message synchronously on the calling thread with `model` (instead of the one given
    /// to `model().set`), sending events to `sink`. For the CLI, the C API and Rust callers;
    /// apps use [`Assistant::send`]. A panic in the pipeline becomes `Internal` (and `done` is
    /// still sent). `request.today` defaults to the clock's UTC date (in the pipeline).
    pub fn run_message_with(
        &self,
        request: AssistantRequest,
        model: Option<Arc<dyn LanguageModel>>,
        sink: &dyn EventSink,
        cancel: &Arc<CancelToken>,
    ) -> Result<AssistantResult, CoachError> {
        let done_sent = AtomicBool::new(false);
        let tracking = DoneTracker {
            inner: sink,
            done_sent: &done_sent,
        };
        // The Coach's own model keeps its circuit breaker; a model passed in has none.
        let breaker = self
            .shared_model()
            .filter(|s| model.as_ref().is_some_and(|m| Arc::ptr_eq(m, &s.model)))
            .and_then(|s| s.breaker);
        let settings = AssistantSettings {
            breaker,
            ..AssistantSettings::default()
        };
        let run = catch_unwind(AssertUnwindSafe(|| {
            service::run_message(
                &self.store,
                &*self.clock,
                model.as_deref(),
                &request,
                &tracking,
                cancel,
                &settings,
            )
        }));
        match run {
            Ok(outcome) => Ok(outcome?),
            Err(_) => {
                if !done_sent.load(Ordering::SeqCst) {
                    // The sink may be what panicked: a second panic must not escape.
                    let _ = catch_unwind(AssertUnwindSafe(|| sink.on_event(AssistantEvent::Done)));
                }
                Err(CoachError::from(Error::Internal(
                    "the assistant pipeline panicked".into(),
                )))
            }
        }
    }
}

impl Planner {
    /// [`Planner::dry_run`] for operations as JSON (`{"operations":[...]}` or a bare
    /// array, in the camelCase form of [`PlannerOperation`]; loosely shaped operations are normalised as
    /// the model's are). Throws `InvalidArgument` when the text holds no operation list, is over
    /// 512 KiB, nests deeper than 64 levels or has an array of more than 1000 elements. More than
    /// 20 operations are counted, not shaped: the validation holds only the list error
    /// `too_many_operations` (`apply_json` throws `OperationsRejected`).
    pub fn dry_run_json(&self, json: &str, today: Option<&str>) -> Result<Validation, CoachError> {
        let today = self.today_or_clock(today)?;
        Ok(apply::dry_run_json(&self.store, json, today)?)
    }

    /// [`Planner::apply`] for operations as JSON (see
    /// [`Planner::dry_run_json`]).
    pub fn apply_json(
        &self,
        json: &str,
        idempotency_key: Option<&str>,
        today: Option<&str>,
    ) -> Result<ApplyResult, CoachError> {
        let today = self.today_or_clock(today)?;
        let mut ids = IdGenerator::from_entropy();
        Ok(apply::apply_json(
            &self.store,
            &*self.clock,
            &mut ids,
            json,
            idempotency_key,
            today,
        )?)
    }
}

/// Forwards events and notes whether `done` went out.
struct DoneTracker<'a> {
    inner: &'a dyn EventSink,
    done_sent: &'a AtomicBool,
}

impl EventSink for DoneTracker<'_> {
    fn on_event(&self, event: AssistantEvent) {
        if event == AssistantEvent::Done {
            self.done_sent.store(true, Ordering::SeqCst);
        }
        self.inner.on_event(event);
    }
}
