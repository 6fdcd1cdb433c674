//! The plan transform as a service: transform, then record how it went in generation metadata;
//! today-plan generation: the model picks one exercise per slot under the slots' grammar
//! (repaired with the validator's lines), or code takes each slot's first candidate when there is
//! no model or its answers stay invalid (source `deterministic`, with the reason); code writes
//! the plan around the picks with the workout flow's loads, transforms, saves and records it;
//! and saved plans: read by date, listed, marked done (logged as training).

use std::sync::{Arc, Mutex};

use serde_json::Value;

use super::generate::{user_prompt, validate_request, TodayPlanRequest};
use super::store::NewGeneration;
use super::{
    compose, notes, select_schema, transform, PlanFallbackReason, PlanSource, PlanTransform,
    Ruleset, SavedTodayPlan, SchemaSelection, TodayExerciseDone, TodayPlanTarget,
};
use crate::db::Store;
use crate::kernel::clock::Clock;
use crate::kernel::date::Date;
use crate::kernel::error::{Error, OutputError, OutputErrorCode, Result};
use crate::kernel::ids::IdGenerator;
use crate::llm::structured::{generate_validated, Issue};
use crate::llm::{
    CancelToken, ChatMessage, ChatRole, GenerationRequest, LanguageModel, LlmError, Sampling,
};
use crate::workout::{
    analyzer_prompt, analyzer_schema, answer_picks, document_validator, exercises, log_performed,
    plan_of_slots, pre_analysis_over, LoadKind, PerformedExercise, PreAnalysis, Slot,
    WorkoutExercise, WorkoutRequest,
};

/// The `feature` value of plan-transform rows in generation metadata.
pub const PLAN_TRANSFORM_FEATURE: &str = "plan.transform";

/// The `feature` value of the rows of plans the library generated with its model.
pub const PLAN_GENERATE_FEATURE: &str = "plan.generate";

/// Limits of a today-plan generation.
#[derive(Debug, Clone, PartialEq)]
pub struct PlanGenerateSettings {
    /// Generations (the first plus repairs).
    pub max_attempts: u32,
    /// Token limit of one answer.
    pub max_tokens: u32,
    /// Wall-clock limit of one model call (ms).
    pub timeout_ms: Option<u64>,
}

impl Default for PlanGenerateSettings {
    fn default() -> Self {
        PlanGenerateSettings {
            max_attempts: 3,
            max_tokens: 256,
            timeout_ms: Some(60_000),
        }
    }
}

/// Transforms `text` with the selected schema and, when a store is given, records one metadata row
/// (success or failure) with the schema version, the selection reason and the ruleset version.
///
/// When the transform fails, its error is returned even if recording the failure also failed.
/// Text over 1 MiB ([`crate::kernel::limits::MAX_REQUEST_BYTES`]) is refused with `InvalidArgument`
/// before anything is parsed or recorded.
pub fn transform_and_record(
    store: Option<&Store>,
    clock: &dyn Clock,
    ruleset: &Ruleset,
    text: &str,
    selection: SchemaSelection,
    ids: &mut IdGenerator,
) -> Result<PlanTransform> {
    crate::kernel::limits::check_size(text, &crate::kernel::limits::Caps::REQUEST)
        .map_err(|e| Error::InvalidArgument(format!("plan text: {}", e.detail)))?;
    let result = transform(text, selection.schema_version, ruleset, ids);
    let recorded = store.map(|s| {
        record(
            s,
            clock,
            ruleset,
            PLAN_TRANSFORM_FEATURE,
            selection,
            result.as_ref().err(),
        )
    });
    let plan = result.map_err(Error::Output)?;
    let generation_id = recorded.transpose()?;
    Ok(PlanTransform {
        plan,
        schema_version: selection.schema_version,
        ruleset_version: ruleset.ruleset_version.clone(),
        generation_id,
        fallback_reason: None,
    })
}

/// Records one generation-metadata row: `error` `None` for a success.
fn record(
    store: &Store,
    clock: &dyn Clock,
    ruleset: &Ruleset,
    feature: &str,
    selection: SchemaSelection,
    error: Option<&OutputError>,
) -> Result<i64> {
    store.insert_generation(&NewGeneration {
        feature: feature.into(),
        schema_version: selection.schema_version,
        selection_reason: selection.reason,
        ruleset_version: ruleset.ruleset_version.clone(),
        error_code: error.map(|e| e.code),
        error_path: error.and_then(|e| e.path.clone()),
        created_at_ms: clock.now_ms(),
    })
}

/// What the model made of the slots.
enum ModelPicks<'a> {
    /// A valid answer: one exercise per slot.
    Picked(Vec<&'a WorkoutExercise>),
    /// Every answer stayed invalid; the failure was recorded in this generation-metadata row.
    Rejected(i64),
}

/// Asks `model` for one exercise per slot under the slots' grammar, repairing with the
/// validator's lines up to `settings.max_attempts` generations. When every answer stays invalid
/// the failure (the last answer's first issue) is recorded; model errors (timeout, cancellation,
/// an open breaker) are returned as they are and record nothing.
#[allow(clippy::too_many_arguments)]
fn model_picks<'a>(
    store: &Store,
    clock: &dyn Clock,
    ruleset: &Ruleset,
    model: &dyn LanguageModel,
    request: &TodayPlanRequest,
    workout_request: &WorkoutRequest,
    pre: &PreAnalysis,
    slots: &[Slot<'a>],
    selection: SchemaSelection,
    cancel: &Arc<CancelToken>,
    settings: &PlanGenerateSettings,
) -> Result<ModelPicks<'a>> {
    let version = selection.schema_version;
    let schema = analyzer_schema(slots);
    let validator = document_validator(&schema);
    let generation = GenerationRequest {
        messages: vec![
            ChatMessage::new(ChatRole::System, crate::kernel::prompts::PLAN_GENERATE),
            ChatMessage::new(
                ChatRole::User,
                user_prompt(request, &analyzer_prompt(workout_request, pre, slots)),
            ),
        ],
        json_schema: Some(schema.to_string()),
        sampling: Sampling {
            temperature: 0.1,
            ..Sampling::default()
        },
        max_tokens: settings.max_tokens,
        timeout_ms: settings.timeout_ms,
    };
    let picks_of = |v: &Value| answer_picks(&validator, v, slots);
    // The last answer's first issue is what a failure records.
    let last_issue: Mutex<Option<Issue>> = Mutex::new(None);
    let outcome = generate_validated::<Value>(
        model,
        generation,
        settings.max_attempts,
        None,
        cancel,
        |v| {
            let issues = picks_of(v).err().unwrap_or_default();
            *last_issue.lock().unwrap_or_else(|p| p.into_inner()) = issues.first().cloned();
            issues
        },
    );
    match outcome {
        Ok((value, report)) => {
            let picks = picks_of(&value)
                .map_err(|_| Error::Internal("plan answer changed after validation".into()))?;
            log::info!(target: "coachcore::plan", "stage=generate outcome=valid schema={} slots={} attempts={} prompt_tokens={} completion_tokens={}",
                version.as_str(), slots.len(), report.attempts, report.prompt_tokens, report.completion_tokens);
            Ok(ModelPicks::Picked(picks))
        }
        Err(LlmError::InvalidOutput { .. }) => {
            let last = last_issue.into_inner().unwrap_or_else(|p| p.into_inner());
            let last = match last {
                Some(i) => OutputError {
                    code: OutputErrorCode::SchemaViolation,
                    path: Some(i.path).filter(|p| !p.is_empty()),
                    detail: i.message,
                },
                // No answer held a readable JSON object.
                None => OutputError {
                    code: OutputErrorCode::InvalidJson,
                    path: None,
                    detail: "no JSON object".into(),
                },
            };
            let row = record(
                store,
                clock,
                ruleset,
                PLAN_GENERATE_FEATURE,
                selection,
                Some(&last),
            )?;
            log::warn!(target: "coachcore::plan", "stage=generate outcome=rejected schema={} fallback=deterministic", version.as_str());
            Ok(ModelPicks::Rejected(row))
        }
        Err(e) => Err(e.into()),
    }
}

/// Generates today's plan (spec 000, the provider side), the way a small model can, and saves it:
/// code reads the notes ([`super::notes`]: minutes, focus, goal, energy, equipment, what to
/// spare, exercises wanted or refused), runs the workout flow's pre-analysis over the user's
/// history (anti-repeat, allowed exercises, time budget) in the request's unit and builds a
/// skeleton of slots for the focus ([`compose::skeleton`]; nothing named: the split of the days
/// per week), each with at most four allowed exercises. With `model`, the model picks one exercise per slot under a grammar where each slot
/// is an enum of its candidates (repaired with the validator's lines up to
/// `settings.max_attempts` generations); without one, or when every answer stays invalid (the
/// failure is recorded), each slot takes its first candidate and the plan's source is
/// `deterministic` with the reason ([`PlanFallbackReason`]). The workout flow's plan of the picks
/// ([`plan_of_slots`]) gives each exercise its target load; code writes the plan in the selected
/// schema version around the picks ([`super::compose`]) and the transformer validates, expands and
/// gives it ids. The plan is saved with its targets ([`SavedTodayPlan`]) and a model's plan is
/// recorded (feature [`PLAN_GENERATE_FEATURE`]). Model errors (timeout, cancellation, an open
/// breaker) fail as they are and record nothing. A bad request is `InvalidArgument`: its bounds,
/// notes whose equipment and bans leave no exercise at all, or a seed whose plan of that date is
/// already done.
pub fn generate_and_record(
    store: &Store,
    clock: &dyn Clock,
    ruleset: &Ruleset,
    model: Option<&dyn LanguageModel>,
    request: &TodayPlanRequest,
    cancel: &Arc<CancelToken>,
    settings: &PlanGenerateSettings,
) -> Result<PlanTransform> {
    validate_request(request)?;
    let selection = select_schema(&[], request.schema_version);
    let version = selection.schema_version;
    let units = request.weight_unit();
    let catalog = exercises(store)?;
    let reading = notes::read(&request.notes, &catalog);
    let workout_request = compose::workout_request(request, &reading);
    let pre = pre_analysis_over(store, &workout_request, &catalog)?;
    let slots = compose::skeleton(&workout_request, &reading, &pre, &catalog);
    if slots.is_empty() {
        return Err(Error::InvalidArgument(
            "request.notes: the equipment and bans they name leave no exercise".into(),
        ));
    }
    let first = || slots.iter().map(|s| s.candidates[0]).collect::<Vec<_>>();
    let (picks, failure_row, fallback) = match model {
        None => {
            log::info!(target: "coachcore::plan", "stage=generate outcome=no_model fallback=deterministic");
            (first(), None, Some(PlanFallbackReason::NoModel))
        }
        Some(m) => match model_picks(
            store,
            clock,
            ruleset,
            m,
            request,
            &workout_request,
            &pre,
            &slots,
            selection,
            cancel,
            settings,
        )? {
            ModelPicks::Picked(p) => (p, None, None),
            ModelPicks::Rejected(row) => {
                (first(), Some(row), Some(PlanFallbackReason::InvalidAnswers))
            }
        },
    };
    // Loads where the workout flow puts them: its plan of these picks.
    let flow = plan_of_slots(&workout_request, &pre, &slots, &picks);
    let targets: Vec<compose::ItemTarget> = flow
        .exercise_plan
        .iter()
        .map(|p| compose::ItemTarget {
            load: p.targets.target_load,
            note: p.notes.clone(),
        })
        .collect();
    let items: Vec<compose::PlannedItem> = slots.iter().zip(picks).collect();
    let text = compose::plan_json(version, &reading, &items, &targets, units).to_string();
    let mut ids = IdGenerator::new(request.id_seed());
    // Code wrote this plan: a transform error is a defect, not the model's.
    let mut plan = transform(&text, version, ruleset, &mut ids)
        .map_err(|e| Error::Internal(format!("composed plan: {e}")))?;
    if fallback.is_some() {
        plan.source = PlanSource::Deterministic;
    }
    let saved = SavedTodayPlan {
        targets: compose::working_exercises(&plan, &items)
            .into_iter()
            .map(|(e, i)| TodayPlanTarget {
                exercise_id: e.id.clone(),
                catalog_id: items[i].1.id.clone(),
                sets: items[i].0.sets,
                reps: items[i].0.reps.to_string(),
                load: targets.get(i).and_then(|t| t.load),
            })
            .collect(),
        plan,
        date: request.date.clone(),
        units,
        fallback_reason: fallback,
        created_at_ms: clock.now_ms(),
        done_at_ms: None,
        session_id: None,
    };
    if !store.write(|db| db.save_today_plan(&saved))? {
        return Err(Error::InvalidArgument(
            "request.seed: the plan this seed makes for this date is saved and done already; \
             give another seed"
                .into(),
        ));
    }
    let generation_id = match fallback {
        None => Some(record(
            store,
            clock,
            ruleset,
            PLAN_GENERATE_FEATURE,
            selection,
            None,
        )?),
        Some(_) => failure_row,
    };
    Ok(PlanTransform {
        plan: saved.plan,
        schema_version: version,
        ruleset_version: ruleset.ruleset_version.clone(),
        generation_id,
        fallback_reason: fallback,
    })
}

/// The newest plan saved for `date` (`YYYY-MM-DD`; `InvalidArgument` otherwise).
pub fn saved_today_plan(store: &Store, date: &str) -> Result<Option<SavedTodayPlan>> {
    if Date::parse(date).is_none() {
        return Err(Error::InvalidArgument(
            "date: must be a date YYYY-MM-DD".into(),
        ));
    }
    store.read(|db| db.today_plan_of(date))
}

/// Up to `limit` saved plans, newest first.
pub fn recent_today_plans(store: &Store, limit: u32) -> Result<Vec<SavedTodayPlan>> {
    store.read(|db| db.recent_today_plans(limit))
}

/// Most exercises and sets [`mark_today_plan_done`] takes (as `logWorkout`: at most 200 sets).
const MAX_DONE_SETS: usize = 200;
/// Most sets of one exercise.
const MAX_DONE_SETS_PER_EXERCISE: usize = 50;

/// What was done of `saved`'s working exercises: those `performed` names as it says (each a
/// target of the plan, at most once, sets within bounds; no sets: not done), the others as
/// planned: their sets at the low end of their reps, at their load, or at 0 for a body-weight
/// exercise (by `catalog`). A loaded exercise without a planned load must be named:
/// `InvalidArgument` otherwise.
fn performed_of(
    saved: &SavedTodayPlan,
    performed: &[TodayExerciseDone],
    catalog: &[WorkoutExercise],
) -> Result<Vec<PerformedExercise>> {
    let invalid = |m: String| Error::InvalidArgument(m);
    if performed.iter().map(|e| e.sets.len()).sum::<usize>() > MAX_DONE_SETS {
        return Err(invalid(format!("performed: at most {MAX_DONE_SETS} sets")));
    }
    for (i, e) in performed.iter().enumerate() {
        if !saved.targets.iter().any(|t| t.exercise_id == e.exercise_id) {
            return Err(invalid(format!(
                "performed[{i}].exerciseId: not a working exercise of the plan"
            )));
        }
        if performed[..i]
            .iter()
            .any(|p| p.exercise_id == e.exercise_id)
        {
            return Err(invalid(format!("performed[{i}].exerciseId: repeated")));
        }
        if e.sets.len() > MAX_DONE_SETS_PER_EXERCISE {
            return Err(invalid(format!(
                "performed[{i}].sets: at most {MAX_DONE_SETS_PER_EXERCISE}"
            )));
        }
        for (j, s) in e.sets.iter().enumerate() {
            if !(s.weight.is_finite() && (0.0..=2000.0).contains(&s.weight)) || s.reps > 1000 {
                return Err(invalid(format!(
                    "performed[{i}].sets[{j}]: weight 0 to 2000, reps at most 1000"
                )));
            }
        }
    }
    let mut out = Vec::new();
    for t in &saved.targets {
        let sets: Vec<(f64, u32)> = match performed.iter().find(|e| e.exercise_id == t.exercise_id)
        {
            Some(e) => e.sets.iter().map(|s| (s.weight, s.reps)).collect(),
            None => {
                let body_weight = catalog
                    .iter()
                    .find(|e| e.id == t.catalog_id)
                    .is_some_and(|e| matches!(e.load, LoadKind::Bodyweight | LoadKind::Other));
                let load = match (t.load, body_weight) {
                    (Some(l), _) => l,
                    (None, true) => 0.0,
                    (None, false) => {
                        return Err(invalid(format!(
                            "performed: exercise {} has no planned load (no recent history): \
                             give its sets",
                            t.exercise_id
                        )))
                    }
                };
                let digits: String = t.reps.chars().take_while(char::is_ascii_digit).collect();
                vec![(load, digits.parse().unwrap_or(1)); t.sets as usize]
            }
        };
        if !sets.is_empty() {
            out.push(PerformedExercise {
                exercise: t.catalog_id.clone(),
                sets,
            });
        }
    }
    if out.is_empty() {
        return Err(invalid(
            "performed: no exercise has sets (a plan done has at least one)".into(),
        ));
    }
    Ok(out)
}

/// Marks the saved plan `plan_id` done and logs what was performed as training, through the same
/// call as a logged workout ([`log_performed`]: session `today:<plan id>`, loads from the plan's
/// unit), in one transaction with the mark. `performed`: the working exercises done otherwise
/// than planned (no sets: not done); the others as planned ([`performed_of`]).
/// `performed_at_ms` `None`: now. `NotFound` for an unknown plan; `InvalidArgument` for a plan
/// done already, `performed` out of bounds (see [`TodayExerciseDone`]) or a loaded exercise
/// without a planned load left out of it. Returns the plan as saved now.
pub fn mark_today_plan_done(
    store: &Store,
    clock: &dyn Clock,
    plan_id: &str,
    performed: &[TodayExerciseDone],
    performed_at_ms: Option<i64>,
) -> Result<SavedTodayPlan> {
    let invalid = |m: &str| Error::InvalidArgument(m.into());
    if plan_id.is_empty() || plan_id.len() > 100 {
        return Err(invalid("planId: 1 to 100 characters"));
    }
    if performed_at_ms.is_some_and(|t| t < 0) {
        return Err(invalid("performedAtMs: 0 or more"));
    }
    let saved = store
        .read(|db| db.today_plan(plan_id))?
        .ok_or_else(|| Error::NotFound("today's plan".into()))?;
    if saved.done_at_ms.is_some() {
        return Err(invalid("planId: this plan is already done"));
    }
    let catalog = exercises(store)?;
    let done = performed_of(&saved, performed, &catalog)?;
    let at = performed_at_ms.unwrap_or_else(|| clock.now_ms());
    let session_id = format!("today:{plan_id}");
    store.write(|db| {
        // Checked again in the transaction: two marks at once log the plan once.
        if db
            .today_plan(plan_id)?
            .is_some_and(|p| p.done_at_ms.is_some())
        {
            return Err(invalid("planId: this plan is already done"));
        }
        // The session first: the mark points at it.
        log_performed(db, clock, &catalog, &session_id, at, saved.units, &done)?;
        if !db.set_today_plan_done(plan_id, at, &session_id)? {
            return Err(Error::NotFound("today's plan".into()));
        }
        Ok(())
    })?;
    store
        .read(|db| db.today_plan(plan_id))?
        .ok_or_else(|| Error::NotFound("today's plan".into()))
}
