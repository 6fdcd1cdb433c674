//! The suggestion pipeline and decisions over the store (spec 004 "Generation Pipeline",
//! "Storage and UI"): logging a finished session (history cache and outcome evaluation included),
//! generating a session's suggestions once, and accepting, rejecting and deferring them.
//!
//! Every operation runs in one transaction: a session and everything derived from it commit
//! together; an accepted change and the prescription it edits commit together.
//!
//! This file holds the store calls and the AI source's traits (the app's progress listener is
//! exported from `ffi/suggest.rs`); the decisions they take are pure
//! and live beside it: the input checks and limits in [`validate`](super::validate), the accept
//! check, edited acceptance and AI admission in [`apply`](super::apply), the merging of a
//! session's candidates in [`dedup`].

use std::collections::HashSet;
use std::sync::Arc;

use super::apply::{add_choice, admit, applied, edited, to_review};
use super::model::{
    CatalogExercise, ChangeValue, Decision, ExerciseContext, ExerciseHistory, ExercisePerformance,
    ExercisePrescription, PrescriptionChange, SessionLog, SuggestionDraft, WeightUnit, WorkoutPlan,
};
use super::validate::{check_exercise, check_log, check_plan, invalid};
use super::{dedup, history, metrics, outcome, rules};
use crate::db::{Db, Store};
use crate::kernel::clock::Clock;
use crate::kernel::error::{Error, Result};
use crate::kernel::guard::ListenerError;
use crate::kernel::ids::IdGenerator;
use crate::llm::{CancelToken, LlmError, TokenListener};

pub use super::validate::{
    check_context, MAX_BAR_WEIGHT, MAX_DUMBBELL_SIZES, MAX_DUMBBELL_WEIGHT, MAX_LOGGED_REPS,
    MAX_LOGGED_REST_SECONDS, MAX_PLATE_SIZES, MAX_PLATE_WEIGHT, MAX_REST_SECONDS, MAX_SET_INDEX,
    MAX_TARGET_REPS,
};

/// Read-only lookups an AI source may make while it works (the spec's model tools). Each call is
/// its own short read; no transaction is held while a model generates.
pub trait SuggestionTools {
    /// The cached summary of an exercise's whole history.
    fn exercise_history(&self, catalog_id: &str) -> Result<Option<ExerciseHistory>>;
    /// Up to `limit` completed performances of an exercise before `before_ms`, newest first.
    fn recent_performances(
        &self,
        catalog_id: &str,
        before_ms: i64,
        limit: u32,
    ) -> Result<Vec<ExercisePerformance>>;
}

/// Receives the progress of an AI suggestion run: which exercise the model is on, and its text
/// as it streams (for a "thinking" indicator; the text is untrusted and not yet validated).
///
/// A listener that throws is not called again for that run (one warning is logged); the run goes
/// on.
#[uniffi::export(with_foreign)]
pub trait SuggestionProgressListener: Send + Sync {
    /// The model starts on exercise `index` (0-based) of `count`, named `exercise_name`.
    fn on_exercise(
        &self,
        index: u32,
        count: u32,
        exercise_name: String,
    ) -> Result<(), ListenerError>;
    /// A piece of the model's output, in order.
    fn on_token(&self, piece: String) -> Result<(), ListenerError>;
}

/// Cancellation and progress of one suggestion generation.
#[derive(Clone, Default)]
pub struct AiRunControl {
    /// Cancels the model call in progress and the exercises after it.
    pub cancel: Arc<CancelToken>,
    /// Progress and streamed text, if the app wants them.
    pub listener: Option<Arc<dyn SuggestionProgressListener>>,
}

impl std::fmt::Debug for AiRunControl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AiRunControl")
            .field("cancelled", &self.cancel.is_cancelled())
            .field("listener", &self.listener.is_some())
            .finish()
    }
}

impl AiRunControl {
    /// The streamed text of the model, forwarded to the listener (if any).
    pub fn token_listener(&self) -> Option<Arc<dyn TokenListener>> {
        self.listener
            .clone()
            .map(|l| Arc::new(Forward(l)) as Arc<dyn TokenListener>)
    }
}

struct Forward(Arc<dyn SuggestionProgressListener>);

impl TokenListener for Forward {
    fn on_token(&self, piece: String) {
        // The listener is the guarded one (`ffi::suggest`): a failure is already handled there.
        let _ = self.0.on_token(piece);
    }
}

/// A source of AI suggestions, called per exercise after the rules. The LLM runtime provides one;
/// without a source configured, AI contributes nothing.
pub trait AiSuggestionSource: Send + Sync {
    /// Drafts for one exercise. `rule_drafts` are what the rules proposed for it; `tools` answer
    /// the model's lookups; `control` carries the cancel token (pass it to every model call) and
    /// the listener. An error is treated as "no AI suggestions" for this exercise, except
    /// cancellation, which ends the whole generation with nothing stored.
    fn suggest(
        &self,
        ctx: &ExerciseContext,
        rule_drafts: &[SuggestionDraft],
        tools: &dyn SuggestionTools,
        control: &AiRunControl,
    ) -> Result<Vec<SuggestionDraft>>;
}

/// [`SuggestionTools`] over the store; weights and e1RMs in the unit of the session's plan.
struct StoreTools<'a>(&'a Store, WeightUnit);

impl SuggestionTools for StoreTools<'_> {
    fn exercise_history(&self, catalog_id: &str) -> Result<Option<ExerciseHistory>> {
        self.0.read(|db| db.history(catalog_id, self.1))
    }

    fn recent_performances(
        &self,
        catalog_id: &str,
        before_ms: i64,
        limit: u32,
    ) -> Result<Vec<ExercisePerformance>> {
        self.0
            .read(|db| db.performances_before(catalog_id, before_ms, limit, self.1))
    }
}

/// Checks a plan before it is saved ([`check_plan`]), with the checks that need the store:
/// catalog exercises known, exercise ids not taken by another plan.
fn validate_plan(db: &Db<'_>, plan: &WorkoutPlan) -> Result<()> {
    let plan_id = &plan.settings.plan_id;
    check_plan(plan, |i, e| {
        if db.exercise(&e.catalog_id)?.is_none() {
            return Err(Error::NotFound(format!(
                "catalog exercise of exercises[{i}]"
            )));
        }
        if let Some((owner, _)) = db.prescription(&e.id)? {
            if &owner != plan_id {
                return Err(invalid(format!(
                    "exercises[{i}].id belongs to another plan"
                )));
            }
        }
        Ok(())
    })
}

/// Saves a plan after `validate_plan`, in one transaction.
pub fn save_plan(store: &Store, plan: &WorkoutPlan) -> Result<()> {
    store.write(|db| {
        validate_plan(db, plan)?;
        db.save_plan(plan)
    })
}

/// Saves a catalog exercise (id and name must not be empty).
pub fn save_exercise(store: &Store, exercise: &CatalogExercise) -> Result<()> {
    check_exercise(exercise)?;
    store.write(|db| db.save_exercise(exercise))
}

/// Checks a session log before anything is written: its id, not logged yet, its plan exists,
/// then [`check_log`] with the checks that need the store (exercise ids not used by a logged
/// exercise, catalog exercises known).
fn validate_log(db: &Db<'_>, log: &SessionLog) -> Result<()> {
    if log.id.trim().is_empty() {
        return Err(invalid("session id is empty"));
    }
    if db.session_exists(&log.id)? {
        return Err(invalid("a session with this id is already logged"));
    }
    let plan = match &log.plan_id {
        Some(id) => Some(
            db.plan(id)?
                .ok_or_else(|| Error::NotFound("the session's plan does not exist".into()))?,
        ),
        None => None,
    };
    check_log(log, plan.as_ref(), |i, e| {
        if db.performance_exists(&e.id)? {
            return Err(invalid(format!(
                "exercises[{i}].id is already used by a logged exercise"
            )));
        }
        if db.exercise(&e.catalog_id)?.is_none() {
            return Err(Error::NotFound(format!(
                "catalog exercise of exercises[{i}]"
            )));
        }
        Ok(())
    })
}

/// The rule engine and the deduplicator on one exercise without a database
/// ([`super::evaluate_exercise`]), after [`check_context`]: a context `save_plan` or
/// `log_session` would refuse (an inverted rep range, a negative weight) is refused with
/// `InvalidArgument` instead of producing suggestions from it.
pub fn evaluate_exercise(
    ctx: &ExerciseContext,
    existing: &[PrescriptionChange],
    now_ms: i64,
) -> Result<Vec<SuggestionDraft>> {
    check_context(ctx)?;
    Ok(super::evaluate_exercise(ctx, existing, now_ms))
}

/// Stores a finished session, refreshes the history cache of its exercises, and evaluates the
/// outcome of accepted changes this session is the first test of.
///
/// The session's weights are recorded in its plan's unit at this moment (pounds without a plan),
/// so changing the plan's unit later never reinterprets them. One prescription may be logged more
/// than once in a session (the user split an exercise): its suggestions are deduplicated together.
///
/// The history cache is recomputed from the newest [`history::HISTORY_WINDOW`] completed
/// performances whatever the date of this session, so logging an older session late (a backfill)
/// does not overwrite the cache with an older picture; its best e1RM also takes this session's
/// into account. Its session count goes up by one when this session completed the exercise (at
/// least one completed set; once even if the session logged the exercise twice), backfills
/// included. It is counted from the store (sessions with a completed performance of the exercise)
/// only when the exercise has no cache yet; migration 0004 recounted the caches of older
/// databases once. Recounting on every log would make logging slower as the history grows.
pub fn log_session(store: &Store, clock: &dyn Clock, log: &SessionLog) -> Result<()> {
    store.write(|db| log_session_in(db, clock, log))
}

/// [`log_session`] inside the caller's transaction (a logged workout writes its session and its
/// own row together).
pub(crate) fn log_session_in(db: &Db<'_>, clock: &dyn Clock, log: &SessionLog) -> Result<()> {
    {
        validate_log(db, log)?;
        let unit = match &log.plan_id {
            Some(id) => db.plan(id)?.map(|p| p.settings.unit),
            None => None,
        };
        let logged_in = unit.unwrap_or(WeightUnit::Lbs);
        db.insert_session(log, logged_in)?;
        let now = clock.now_ms();
        let mut refreshed = HashSet::new();
        for e in &log.exercises {
            if refreshed.insert(e.catalog_id.as_str()) {
                refresh_history(db, log, &e.catalog_id, logged_in, now)?;
            }
            let (Some(rx_id), Some(unit)) = (&e.prescription_id, unit) else {
                continue;
            };
            let pending = db.unevaluated_accepted(rx_id, log.performed_at_ms)?;
            if pending.is_empty() {
                continue;
            }
            let Some((_, rx)) = db.prescription(rx_id)? else {
                continue;
            };
            let perf = log.performance(e);
            for change in pending {
                let (o, why) = outcome::evaluate(&change, &rx, &perf, unit);
                db.set_outcome(&change.id, o, &why, &log.id, now)?;
            }
        }
        Ok(())
    }
}

/// Recomputes the cached history of `catalog_id` (kept in pounds) after `log` was stored.
fn refresh_history(
    db: &Db<'_>,
    log: &SessionLog,
    catalog_id: &str,
    logged_in: WeightUnit,
    now: i64,
) -> Result<()> {
    let newest = db.performances_before(
        catalog_id,
        i64::MAX,
        history::HISTORY_WINDOW,
        WeightUnit::Lbs,
    )?;
    if newest.is_empty() {
        return Ok(());
    }
    let previous = db.history(catalog_id, WeightUnit::Lbs)?;
    let mut h = history::summarize(catalog_id, &newest, previous.as_ref(), now);
    // The count moves by one per logged session that completed the exercise (O(1) per log); it is
    // counted from the store only when there is no cache yet.
    let completed_here = log
        .exercises
        .iter()
        .any(|e| e.catalog_id == catalog_id && e.sets.iter().any(|s| s.completed));
    h.session_count = match &previous {
        Some(p) => p.session_count + u32::from(completed_here),
        None => db.completed_session_count(catalog_id)?,
    };
    // A backfilled session may be older than the window: its e1RM still counts for the best.
    for e in log.exercises.iter().filter(|e| e.catalog_id == catalog_id) {
        let mut p = log.performance(e);
        for s in &mut p.sets {
            s.weight = logged_in.convert(s.weight, WeightUnit::Lbs);
        }
        if let Some(x) = metrics::session_e1rm(&p) {
            h.best_e1rm = h.best_e1rm.max(x);
        }
    }
    db.save_history(&h)
}

/// What the read phase of generation found.
enum Prepared {
    /// Generated before: the stored changes.
    Stored(Vec<PrescriptionChange>),
    /// To generate: the plan id and unit and, per planned exercise, its context and the rules'
    /// drafts.
    Fresh(
        Option<String>,
        WeightUnit,
        Vec<(ExerciseContext, Vec<SuggestionDraft>)>,
    ),
}

/// Reads the session and builds each planned exercise's context, running the rules. Weights of
/// the context (this session's and earlier ones) are in the plan's current unit, converted from
/// the unit each session was logged in.
fn prepare(db: &Db<'_>, session_id: &str) -> Result<Prepared> {
    if db.suggestion_run_exists(session_id)? {
        return Ok(Prepared::Stored(db.changes_for_session(session_id)?));
    }
    let log = db
        .session(session_id)?
        .ok_or_else(|| Error::NotFound("no such session".into()))?;
    let Some(plan) = (match &log.plan_id {
        Some(id) => db.plan(id)?,
        None => None,
    }) else {
        return Ok(Prepared::Fresh(None, WeightUnit::Lbs, Vec::new()));
    };
    let unit = plan.settings.unit;
    let logged_in = db.session_unit(session_id)?.unwrap_or(unit);
    let mut out = Vec::new();
    for e in &log.exercises {
        let Some(rx) = e
            .prescription_id
            .as_ref()
            .and_then(|id| plan.exercises.iter().find(|x| &x.id == id))
        else {
            continue;
        };
        let Some(exercise) = db.exercise(&e.catalog_id)? else {
            continue;
        };
        let mut current = log.performance(e);
        for s in &mut current.sets {
            s.weight = logged_in.convert(s.weight, unit);
        }
        let ctx = ExerciseContext {
            plan: plan.settings.clone(),
            exercise,
            prescription: rx.clone(),
            current,
            previous: db.performances_before(&e.catalog_id, log.performed_at_ms, 3, unit)?,
            history: db.history(&e.catalog_id, unit)?,
        };
        let drafts = rules::evaluate(&ctx);
        out.push((ctx, drafts));
    }
    Ok(Prepared::Fresh(
        Some(plan.settings.plan_id.clone()),
        unit,
        out,
    ))
}

/// The suggestions of a session: the stored ones if they were generated before; otherwise runs the
/// rules (and the AI source) for every planned exercise of the session, deduplicates against the
/// last 7 days, and stores the survivors as pending. Generating twice never duplicates.
///
/// Three phases: a read that builds the contexts and runs the rules; the AI source, outside any
/// transaction (a model may take seconds); one write transaction that deduplicates against what
/// is stored at that moment and stores the result, unless another caller stored it first.
///
/// When the session logged one prescription more than once, the drafts of all its logs are
/// deduplicated together (rule drafts first, then AI drafts), so at most one of each similar
/// change is stored.
///
/// Cancelling `control.cancel` stops the model and returns `Cancelled` with nothing stored: the
/// next call generates afresh. Without an AI source there is nothing to cancel.
pub fn suggestions_for_session(
    store: &Store,
    clock: &dyn Clock,
    ai: Option<&dyn AiSuggestionSource>,
    ids: &mut IdGenerator,
    session_id: &str,
    control: &AiRunControl,
) -> Result<Vec<PrescriptionChange>> {
    let (plan_id, unit, mut exercises) = match store.read(|db| prepare(db, session_id))? {
        Prepared::Stored(changes) => return Ok(changes),
        Prepared::Fresh(plan_id, unit, exercises) => (plan_id, unit, exercises),
    };
    if let Some(ai) = ai {
        let tools = StoreTools(store, unit);
        let count = exercises.len() as u32;
        for (i, (ctx, drafts)) in exercises.iter_mut().enumerate() {
            if control.cancel.is_cancelled() {
                return Err(LlmError::Cancelled.into());
            }
            if let Some(l) = &control.listener {
                let _ = l.on_exercise(i as u32, count, ctx.exercise.name.clone());
            }
            match ai.suggest(ctx, drafts, &tools, control) {
                Ok(extra) => drafts.extend(extra.iter().filter_map(|d| admit(ctx, d))),
                Err(_) if control.cancel.is_cancelled() => return Err(LlmError::Cancelled.into()),
                Err(Error::Llm(LlmError::Cancelled)) => return Err(LlmError::Cancelled.into()),
                Err(_) => {}
            }
        }
    }
    // One candidate list per prescription, in the order the session first logged it.
    let mut merged = dedup::candidates_by_prescription(exercises);
    store.write(|db| {
        if db.suggestion_run_exists(session_id)? {
            return db.changes_for_session(session_id);
        }
        let now = clock.now_ms();
        let mut changes = Vec::new();
        for (rx_id, catalog_id, drafts) in merged.drain(..) {
            let existing = db.changes_for_prescription_since(&rx_id, now - dedup::COOLDOWN_MS)?;
            for draft in dedup::deduplicate(&rx_id, drafts, &existing, now) {
                changes.push(PrescriptionChange {
                    id: ids.next_id(),
                    session_id: session_id.to_string(),
                    plan_id: plan_id.clone().unwrap_or_default(),
                    prescription_id: rx_id.clone(),
                    catalog_id: catalog_id.clone(),
                    draft,
                    decision: Decision::Pending,
                    created_at_ms: now,
                    decided_at_ms: None,
                    user_override: false,
                    outcome: super::model::Outcome::NotEvaluated,
                    outcome_reason: None,
                    evaluated_at_ms: None,
                });
            }
        }
        for (seq, c) in changes.iter().enumerate() {
            db.insert_change(c, seq as u32)?;
        }
        db.mark_suggestion_run(session_id, now)?;
        Ok(changes)
    })
}

/// Applies `draft` to the prescription it names, in the current transaction: refused (nothing
/// changes) when the plan exercise is gone, the prescription moved on since the suggestion (its
/// current value is not the suggestion's old value), the change no longer fits, or the result is
/// a prescription `save_plan` would refuse.
fn apply_to_plan(db: &Db<'_>, prescription_id: &str, draft: &SuggestionDraft) -> Result<()> {
    let (plan_id, rx) = plan_exercise(db, prescription_id)?;
    db.save_prescription(&plan_id, &applied(&rx, draft)?)
}

/// A change's plan exercise and the id of its plan; `NotFound` when it was removed from the plan.
fn plan_exercise(db: &Db<'_>, prescription_id: &str) -> Result<(String, ExercisePrescription)> {
    db.prescription(prescription_id)?.ok_or_else(|| {
        Error::NotFound("the change's plan exercise is no longer in the plan".into())
    })
}

fn undecided(db: &Db<'_>, change_id: &str) -> Result<PrescriptionChange> {
    let change = db
        .change(change_id)?
        .ok_or_else(|| Error::NotFound("no such change".into()))?;
    if !matches!(change.decision, Decision::Pending | Decision::Deferred) {
        return Err(invalid("this change was already accepted or rejected"));
    }
    Ok(change)
}

/// Records the user's decision on a change. Accepting applies it to the plan's prescription in
/// the same transaction. Only pending or deferred changes can be decided; deferring an already
/// deferred change changes nothing and returns it as it is.
///
/// Accepting fails with `InvalidArgument`, and nothing changes, when the change is out of date
/// (the prescription's current value is no longer the one it was made from, e.g. an older deferred
/// "135 -> 140" after a newer "140 -> 145" was accepted), when its set is gone, or when the result
/// would be an invalid prescription; with `NotFound` when its plan exercise was removed.
pub fn decide(
    store: &Store,
    clock: &dyn Clock,
    change_id: &str,
    decision: Decision,
) -> Result<PrescriptionChange> {
    if decision == Decision::Pending {
        return Err(invalid("a decision is accepted, rejected or deferred"));
    }
    store.write(|db| {
        let change = undecided(db, change_id)?;
        if decision == Decision::Deferred && change.decision == Decision::Deferred {
            return Ok(change);
        }
        if decision == Decision::Accepted {
            apply_to_plan(db, &change.prescription_id, &change.draft)?;
        }
        let now = clock.now_ms();
        db.set_decision(change_id, decision, now)?;
        db.change(change_id)?
            .ok_or_else(|| Error::NotFound("no such change".into()))
    })
}

/// Accepts a pending or deferred change with the user's own value instead of the suggested one
/// (e.g. the suggestion said 140 and the user chose 145) and applies that value to the plan, in
/// one transaction. The change is stored as accepted with `new_value` replaced and
/// `user_override` set: as the user's own choice it does not block similar suggestions in the
/// 7-day cooldown, and its outcome is judged on the user's value. A numeric value that goes the
/// other way than suggested turns the change type around (an increase edited below the current
/// value is stored as a decrease).
///
/// The stored reasoning keeps the source's explanation and adds one sentence with the user's
/// choice ("You chose 143 lb instead of the suggested 140 lb."), so it never contradicts the
/// stored value.
///
/// Fails with `InvalidArgument` (nothing changes) when the value has the wrong kind for the change,
/// is not a whole number for reps, rest or set count, leaves the prescription as it is, or makes
/// it invalid, and in the cases of [`decide`].
pub fn accept_edited(
    store: &Store,
    clock: &dyn Clock,
    change_id: &str,
    new_value: ChangeValue,
) -> Result<PrescriptionChange> {
    store.write(|db| {
        let change = undecided(db, change_id)?;
        let (plan_id, rx) = plan_exercise(db, &change.prescription_id)?;
        let (mut draft, edited) = edited(&rx, &change.draft, new_value)?;
        db.save_prescription(&plan_id, &edited)?;
        let unit = db.plan_unit(&plan_id)?.unwrap_or(WeightUnit::Lbs);
        add_choice(&mut draft, &change.draft.new_value, unit);
        db.set_edited_acceptance(change_id, &draft, clock.now_ms())?;
        db.change(change_id)?
            .ok_or_else(|| Error::NotFound("no such change".into()))
    })
}

/// Defers every pending change of a session (the user left the summary); returns how many.
pub fn defer_pending(store: &Store, clock: &dyn Clock, session_id: &str) -> Result<u32> {
    store.write(|db| {
        if !db.session_exists(session_id)? {
            return Err(Error::NotFound("no such session".into()));
        }
        db.defer_pending(session_id, clock.now_ms())
    })
}

/// Deferred changes of a plan, oldest first: what to review before its next workout, i.e. the
/// ones that could still be accepted. Leaves out a change whose plan exercise was removed from the
/// plan; a change that accepting would refuse: out of date (the prescription's current value is
/// no longer its old value, e.g. the user set 150 through `save_plan` after "135 -> 140" was
/// deferred), its set gone, or its result invalid; and a change superseded by a newer similar
/// suggestion (same exercise, change type and set) that is itself undecided (pending or
/// deferred) and acceptable: the newer one is the one to review. A newer similar change that is
/// out of date, accepted or rejected supersedes nothing, so with "135 -> 140" and a newer
/// "140 -> 145" both deferred and the plan set back to 135, "135 -> 140" is listed.
///
/// One query (undecided changes of the plan whose exercise is still in it); acceptability is the
/// accept check, pure, on the plan this call reads anyway. Left-out changes stay stored, deferred.
pub fn deferred_for_plan(store: &Store, plan_id: &str) -> Result<Vec<PrescriptionChange>> {
    store.read(|db| {
        let plan = db
            .plan(plan_id)?
            .ok_or_else(|| Error::NotFound("no such plan".into()))?;
        let open = db.undecided_for_review(plan_id)?;
        Ok(to_review(&plan, open))
    })
}
