//! The suggestion pipeline and decisions over the store (spec 004 "Generation Pipeline",
//! "Storage and UI"): logging a finished session (history cache and outcome evaluation included),
//! generating a session's suggestions once, and accepting, rejecting and deferring them.
//!
//! Every operation runs in one transaction: a session and everything derived from it commit
//! together; an accepted change and the prescription it edits commit together.

use std::collections::HashSet;
use std::sync::Arc;

use super::model::{
    CatalogExercise, Decision, ExerciseContext, ExerciseHistory, ExercisePerformance,
    PrescriptionChange, RepRangeMode, SessionLog, SuggestionDraft, SuggestionSource, WorkoutPlan,
};
use super::{apply, dedup, history, outcome, rules};
use crate::clock::Clock;
use crate::error::{Error, Result};
use crate::ids::IdGenerator;
use crate::llm::{CancelToken, LlmError, TokenListener};
use crate::store::{Db, Store};

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
#[uniffi::export(with_foreign)]
pub trait SuggestionProgressListener: Send + Sync {
    /// The model starts on exercise `index` (0-based) of `count`, named `exercise_name`.
    fn on_exercise(&self, index: u32, count: u32, exercise_name: String);
    /// A piece of the model's output, in order.
    fn on_token(&self, piece: String);
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
        self.0.on_token(piece);
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

/// [`SuggestionTools`] over the store.
struct StoreTools<'a>(&'a Store);

impl SuggestionTools for StoreTools<'_> {
    fn exercise_history(&self, catalog_id: &str) -> Result<Option<ExerciseHistory>> {
        self.0.read(|db| db.history(catalog_id))
    }

    fn recent_performances(
        &self,
        catalog_id: &str,
        before_ms: i64,
        limit: u32,
    ) -> Result<Vec<ExercisePerformance>> {
        self.0
            .read(|db| db.performances_before(catalog_id, before_ms, limit))
    }
}

fn invalid(detail: impl Into<String>) -> Error {
    Error::InvalidArgument(detail.into())
}

fn check_weight(w: f64, what: impl FnOnce() -> String) -> Result<()> {
    if w.is_finite() && (0.0..=5000.0).contains(&w) {
        Ok(())
    } else {
        Err(invalid(format!("{} must be 0 to 5000", what())))
    }
}

/// Checks a plan before it is saved: ids present and unique, positions unique, catalog exercises
/// known, exercise ids not taken by another plan, set indexes unique, weights possible, rep ranges
/// consistent.
fn validate_plan(db: &Db<'_>, plan: &WorkoutPlan) -> Result<()> {
    let plan_id = &plan.settings.plan_id;
    if plan_id.trim().is_empty() {
        return Err(invalid("plan id is empty"));
    }
    let (mut ids, mut positions) = (HashSet::new(), HashSet::new());
    for (i, e) in plan.exercises.iter().enumerate() {
        if e.id.trim().is_empty() || !ids.insert(e.id.as_str()) {
            return Err(invalid(format!("exercises[{i}].id is empty or repeated")));
        }
        if !positions.insert(e.position) {
            return Err(invalid(format!("exercises[{i}].position is repeated")));
        }
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
        let r = &e.rep_range;
        let consistent = match r.mode {
            RepRangeMode::NotSet => true,
            RepRangeMode::Range => 1 <= r.lower && r.lower <= r.upper && r.upper <= 100,
            RepRangeMode::Target => (1..=100).contains(&r.target),
        };
        if !consistent {
            return Err(invalid(format!("exercises[{i}].repRange is inconsistent")));
        }
        let mut idx = HashSet::new();
        for (k, st) in e.sets.iter().enumerate() {
            if !idx.insert(st.index) {
                return Err(invalid(format!(
                    "exercises[{i}].sets[{k}].index is repeated"
                )));
            }
            check_weight(st.target_weight, || {
                format!("exercises[{i}].sets[{k}].targetWeight")
            })?;
        }
    }
    Ok(())
}

/// Saves a plan after [`validate_plan`], in one transaction.
pub fn save_plan(store: &Store, plan: &WorkoutPlan) -> Result<()> {
    store.write(|db| {
        validate_plan(db, plan)?;
        db.save_plan(plan)
    })
}

/// Saves a catalog exercise (id and name must not be empty).
pub fn save_exercise(store: &Store, exercise: &CatalogExercise) -> Result<()> {
    if exercise.catalog_id.trim().is_empty() || exercise.name.trim().is_empty() {
        return Err(invalid("catalog id and name must not be empty"));
    }
    store.write(|db| db.save_exercise(exercise))
}

/// Checks a session log before anything is written.
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
                .ok_or_else(|| Error::NotFound(format!("plan {id}")))?,
        ),
        None => None,
    };
    let mut perf_ids = HashSet::new();
    for (i, e) in log.exercises.iter().enumerate() {
        if e.id.trim().is_empty() || !perf_ids.insert(e.id.as_str()) {
            return Err(invalid(format!("exercises[{i}].id is empty or repeated")));
        }
        if db.exercise(&e.catalog_id)?.is_none() {
            return Err(Error::NotFound(format!(
                "catalog exercise of exercises[{i}]"
            )));
        }
        if let Some(rx) = &e.prescription_id {
            let belongs = plan.as_ref().is_some_and(|p| {
                p.exercises
                    .iter()
                    .any(|x| &x.id == rx && x.catalog_id == e.catalog_id)
            });
            if !belongs {
                return Err(invalid(format!(
                    "exercises[{i}].prescriptionId is not an exercise of the session's plan for this catalog exercise"
                )));
            }
        }
        let mut idx = HashSet::new();
        for (k, s) in e.sets.iter().enumerate() {
            if !idx.insert(s.index) {
                return Err(invalid(format!(
                    "exercises[{i}].sets[{k}].index is repeated"
                )));
            }
            if !s.weight.is_finite() || s.weight < 0.0 || s.weight > 5000.0 {
                return Err(invalid(format!(
                    "exercises[{i}].sets[{k}].weight must be 0 to 5000"
                )));
            }
        }
    }
    Ok(())
}

/// Stores a finished session, refreshes the history cache of its exercises, and evaluates the
/// outcome of accepted changes this session is the first test of.
pub fn log_session(store: &Store, clock: &dyn Clock, log: &SessionLog) -> Result<()> {
    store.write(|db| {
        validate_log(db, log)?;
        db.insert_session(log)?;
        let now = clock.now_ms();
        let unit = match &log.plan_id {
            Some(id) => db.plan(id)?.map(|p| p.settings.unit),
            None => None,
        };
        for e in &log.exercises {
            let recent = db.performances_before(
                &e.catalog_id,
                log.performed_at_ms + 1,
                history::HISTORY_WINDOW,
            )?;
            if !recent.is_empty() {
                let h = history::summarize(
                    &e.catalog_id,
                    &recent,
                    db.history(&e.catalog_id)?.as_ref(),
                    now,
                );
                db.save_history(&h)?;
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
            let perf = performance(log, e);
            for change in pending {
                let (o, why) = outcome::evaluate(&change, &rx, &perf, unit);
                db.set_outcome(&change.id, o, &why, &log.id, now)?;
            }
        }
        Ok(())
    })
}

fn performance(log: &SessionLog, e: &super::model::ExerciseLog) -> ExercisePerformance {
    ExercisePerformance {
        id: e.id.clone(),
        session_id: log.id.clone(),
        catalog_id: e.catalog_id.clone(),
        performed_at_ms: log.performed_at_ms,
        sets: e.sets.clone(),
    }
}

/// Drops AI drafts the domain forbids: a set index the prescription lacks, a value of the wrong
/// kind, or an impossible number.
fn admissible(ctx: &ExerciseContext, d: &SuggestionDraft) -> bool {
    let set_ok = d
        .target_set_index
        .is_none_or(|i| ctx.set_prescription(i).is_some());
    let mut probe = ctx.prescription.clone();
    set_ok
        && d.source == SuggestionSource::Ai
        && apply::apply_change(&mut probe, d).is_ok()
        && probe != ctx.prescription
}

/// What the read phase of generation found.
enum Prepared {
    /// Generated before: the stored changes.
    Stored(Vec<PrescriptionChange>),
    /// To generate: the plan id and, per planned exercise, its context and the rules' drafts.
    Fresh(Option<String>, Vec<(ExerciseContext, Vec<SuggestionDraft>)>),
}

/// Reads the session and builds each planned exercise's context, running the rules.
fn prepare(db: &Db<'_>, session_id: &str) -> Result<Prepared> {
    if db.suggestion_run_exists(session_id)? {
        return Ok(Prepared::Stored(db.changes_for_session(session_id)?));
    }
    let log = db
        .session(session_id)?
        .ok_or_else(|| Error::NotFound(format!("session {session_id}")))?;
    let Some(plan) = (match &log.plan_id {
        Some(id) => db.plan(id)?,
        None => None,
    }) else {
        return Ok(Prepared::Fresh(None, Vec::new()));
    };
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
        let ctx = ExerciseContext {
            plan: plan.settings.clone(),
            exercise,
            prescription: rx.clone(),
            current: performance(&log, e),
            previous: db.performances_before(&e.catalog_id, log.performed_at_ms, 3)?,
            history: db.history(&e.catalog_id)?,
        };
        let drafts = rules::evaluate(&ctx);
        out.push((ctx, drafts));
    }
    Ok(Prepared::Fresh(Some(plan.settings.plan_id.clone()), out))
}

/// The suggestions of a session: the stored ones if they were generated before; otherwise runs the
/// rules (and the AI source) for every planned exercise of the session, deduplicates against the
/// last 7 days, and stores the survivors as pending. Generating twice never duplicates.
///
/// Three phases: a read that builds the contexts and runs the rules; the AI source, outside any
/// transaction (a model may take seconds); one write transaction that deduplicates against what
/// is stored at that moment and stores the result, unless another caller stored it first.
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
    let (plan_id, mut exercises) = match store.read(|db| prepare(db, session_id))? {
        Prepared::Stored(changes) => return Ok(changes),
        Prepared::Fresh(plan_id, exercises) => (plan_id, exercises),
    };
    if let Some(ai) = ai {
        let tools = StoreTools(store);
        let count = exercises.len() as u32;
        for (i, (ctx, drafts)) in exercises.iter_mut().enumerate() {
            if control.cancel.is_cancelled() {
                return Err(LlmError::Cancelled.into());
            }
            if let Some(l) = &control.listener {
                l.on_exercise(i as u32, count, ctx.exercise.name.clone());
            }
            match ai.suggest(ctx, drafts, &tools, control) {
                Ok(extra) => drafts.extend(extra.into_iter().filter(|d| admissible(ctx, d))),
                Err(_) if control.cancel.is_cancelled() => return Err(LlmError::Cancelled.into()),
                Err(Error::Llm(LlmError::Cancelled)) => return Err(LlmError::Cancelled.into()),
                Err(_) => {}
            }
        }
    }
    store.write(|db| {
        if db.suggestion_run_exists(session_id)? {
            return db.changes_for_session(session_id);
        }
        let now = clock.now_ms();
        let mut changes = Vec::new();
        for (ctx, drafts) in exercises.drain(..) {
            let rx_id = &ctx.prescription.id;
            let existing = db.changes_for_prescription_since(rx_id, now - dedup::COOLDOWN_MS)?;
            for draft in dedup::deduplicate(rx_id, drafts, &existing, now) {
                changes.push(PrescriptionChange {
                    id: ids.next_id(),
                    session_id: session_id.to_string(),
                    plan_id: plan_id.clone().unwrap_or_default(),
                    prescription_id: rx_id.clone(),
                    catalog_id: ctx.exercise.catalog_id.clone(),
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

/// Records the user's decision on a change. Accepting applies it to the plan's prescription in
/// the same transaction. Only pending or deferred changes can be decided.
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
        let change = db
            .change(change_id)?
            .ok_or_else(|| Error::NotFound(format!("change {change_id}")))?;
        if !matches!(change.decision, Decision::Pending | Decision::Deferred) {
            return Err(invalid("this change was already accepted or rejected"));
        }
        if decision == Decision::Accepted {
            let (plan_id, mut rx) = db
                .prescription(&change.prescription_id)?
                .ok_or_else(|| Error::NotFound("the change's plan exercise".into()))?;
            apply::apply_change(&mut rx, &change.draft)
                .map_err(|why| invalid(format!("cannot apply: {why}")))?;
            db.save_prescription(&plan_id, &rx)?;
        }
        let now = clock.now_ms();
        db.set_decision(change_id, decision, now)?;
        db.change(change_id)?
            .ok_or_else(|| Error::NotFound(format!("change {change_id}")))
    })
}

/// Defers every pending change of a session (the user left the summary); returns how many.
pub fn defer_pending(store: &Store, clock: &dyn Clock, session_id: &str) -> Result<u32> {
    store.write(|db| {
        if !db.session_exists(session_id)? {
            return Err(Error::NotFound(format!("session {session_id}")));
        }
        db.defer_pending(session_id, clock.now_ms())
    })
}

/// Deferred changes of a plan, oldest first: what to review before its next workout.
pub fn deferred_for_plan(store: &Store, plan_id: &str) -> Result<Vec<PrescriptionChange>> {
    store.read(|db| {
        if db.plan(plan_id)?.is_none() {
            return Err(Error::NotFound(format!("plan {plan_id}")));
        }
        db.changes_for_plan(plan_id, Decision::Deferred)
    })
}
