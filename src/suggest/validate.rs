//! The input checks of the suggestion feature (pure: data in, an error out): the limits of what
//! a plan, a logged session and an outside exercise context may hold, and the checks of loads,
//! prescriptions and logged sets that `save_plan`, `log_session` and `evaluate_exercise` run
//! before anything is stored or evaluated. The checks that need the store (a catalog exercise
//! exists, an id is free) are given to `check_plan` and `check_log` by the service, which
//! call them in their place so the first problem found is the one reported.

use std::collections::HashSet;

use super::model::{
    CatalogExercise, ExerciseContext, ExerciseLog, ExercisePrescription, LoadConfig, PerformedSet,
    RepRangeMode, SessionLog, WorkoutPlan,
};
use crate::kernel::error::{Error, Result};

/// An `InvalidArgument` error with `detail`.
pub(crate) fn invalid(detail: impl Into<String>) -> Error {
    Error::InvalidArgument(detail.into())
}

/// A refused field of an input: its JSON path (`context.prescription.sets[1].targetWeight`) and
/// what is wrong with it, never its value. As an [`Error`] it is `InvalidArgument` with the detail
/// `PATH WHAT`; the C API and the CLI also give the path on its own.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldError {
    /// JSON path of the field.
    pub path: String,
    /// What is wrong, in the library's words.
    pub what: String,
}

impl FieldError {
    fn new(path: impl Into<String>, what: impl Into<String>) -> Self {
        FieldError {
            path: path.into(),
            what: what.into(),
        }
    }
}

impl From<FieldError> for Error {
    fn from(e: FieldError) -> Self {
        invalid(format!("{} {}", e.path, e.what))
    }
}

/// A weight from 0 to 5000; `what` names it in the error.
pub(crate) fn check_weight(w: f64, what: impl FnOnce() -> String) -> Result<()> {
    if weight_ok(w) {
        Ok(())
    } else {
        Err(invalid(format!("{} {WEIGHT_RANGE}", what())))
    }
}

/// Heaviest weight anywhere (a planned, logged or suggested load), in the plan's unit.
pub const MAX_WEIGHT: f64 = 5000.0;
const WEIGHT_RANGE: &str = "must be 0 to 5000";

fn weight_ok(w: f64) -> bool {
    w.is_finite() && (0.0..=MAX_WEIGHT).contains(&w)
}

/// Most target reps a planned set may have.
pub const MAX_TARGET_REPS: u32 = 1000;
/// Longest planned rest, in seconds (one hour), for the exercise and for each set.
pub const MAX_REST_SECONDS: u32 = 3600;
/// Highest set index, planned or logged (sets are numbered from 0).
pub const MAX_SET_INDEX: u32 = 99;
/// Most reps a logged set may have.
pub const MAX_LOGGED_REPS: u32 = 10_000;
/// Longest logged rest, in seconds (a day).
pub const MAX_LOGGED_REST_SECONDS: u32 = 86_400;
/// Heaviest bar a [`LoadConfig`] may name (plan unit); 0 means the default bar.
pub const MAX_BAR_WEIGHT: f64 = 100.0;
/// Heaviest plate a [`LoadConfig`] may list (plan unit).
pub const MAX_PLATE_WEIGHT: f64 = 100.0;
/// Most plate sizes a [`LoadConfig`] may list.
pub const MAX_PLATE_SIZES: usize = 32;
/// Heaviest dumbbell a [`LoadConfig`] may list (plan unit).
pub const MAX_DUMBBELL_WEIGHT: f64 = 500.0;
/// Most dumbbell sizes a [`LoadConfig`] may list.
pub const MAX_DUMBBELL_SIZES: usize = 200;
/// A new weight may be at most this many times the current one, and at least its this-many-th:
/// the bound the built-in AI source checks its model's weights against, and the pipeline applies
/// to the drafts of any AI source.
pub const MAX_WEIGHT_FACTOR: f64 = 3.0;

/// Checks the loads a user owns: a bar of 0 (the default) to [`MAX_BAR_WEIGHT`], at most
/// [`MAX_PLATE_SIZES`] plates each above 0 and at most [`MAX_PLATE_WEIGHT`], at most
/// [`MAX_DUMBBELL_SIZES`] dumbbells each above 0 and at most [`MAX_DUMBBELL_WEIGHT`], all
/// finite. `at` names it in the error (`settings.load`).
fn check_load(load: &LoadConfig, at: &str) -> Result<(), FieldError> {
    if !(load.bar_weight.is_finite() && (0.0..=MAX_BAR_WEIGHT).contains(&load.bar_weight)) {
        return Err(FieldError::new(
            format!("{at}.barWeight"),
            format!("must be 0 (the default bar) to {MAX_BAR_WEIGHT}"),
        ));
    }
    check_sizes(
        &load.plates,
        MAX_PLATE_SIZES,
        MAX_PLATE_WEIGHT,
        &format!("{at}.plates"),
    )?;
    check_sizes(
        &load.dumbbells,
        MAX_DUMBBELL_SIZES,
        MAX_DUMBBELL_WEIGHT,
        &format!("{at}.dumbbells"),
    )
}

/// At most `max_count` sizes, each finite, above 0 and at most `max_weight`; `at` names the list.
fn check_sizes(
    sizes: &[f64],
    max_count: usize,
    max_weight: f64,
    at: &str,
) -> Result<(), FieldError> {
    if sizes.len() > max_count {
        return Err(FieldError::new(
            at,
            format!("lists more than {max_count} sizes"),
        ));
    }
    for (k, w) in sizes.iter().enumerate() {
        if !(w.is_finite() && *w > 0.0 && *w <= max_weight) {
            return Err(FieldError::new(
                format!("{at}[{k}]"),
                format!("must be above 0 and at most {max_weight}"),
            ));
        }
    }
    Ok(())
}

/// Checks a plan before it is saved: id present, loads possible ([`check_load`]) and, per
/// exercise, id present and unique, position unique, then `stored` (the checks that need the
/// store: catalog exercise known, id not taken by another plan), then [`check_prescription`].
pub(crate) fn check_plan(
    plan: &WorkoutPlan,
    mut stored: impl FnMut(usize, &ExercisePrescription) -> Result<()>,
) -> Result<()> {
    if plan.settings.plan_id.trim().is_empty() {
        return Err(invalid("plan id is empty"));
    }
    check_load(&plan.settings.load, "settings.load")?;
    let (mut ids, mut positions) = (HashSet::new(), HashSet::new());
    for (i, e) in plan.exercises.iter().enumerate() {
        if e.id.trim().is_empty() || !ids.insert(e.id.as_str()) {
            return Err(invalid(format!("exercises[{i}].id is empty or repeated")));
        }
        if !positions.insert(e.position) {
            return Err(invalid(format!("exercises[{i}].position is repeated")));
        }
        stored(i, e)?;
        check_prescription(e, &format!("exercises[{i}]"))?;
    }
    Ok(())
}

/// The checks of one exercise prescription that need no database: a consistent rep range, unique
/// set indexes, possible weights (0 to 5000), target reps up to [`MAX_TARGET_REPS`], rest up to
/// [`MAX_REST_SECONDS`]. `at` names it in the error (`exercises[2]`).
pub(crate) fn check_prescription(e: &ExercisePrescription, at: &str) -> Result<(), FieldError> {
    let r = &e.rep_range;
    let consistent = match r.mode {
        RepRangeMode::NotSet => r.lower <= r.upper,
        RepRangeMode::Range => 1 <= r.lower && r.lower <= r.upper && r.upper <= 100,
        RepRangeMode::Target => (1..=100).contains(&r.target),
    };
    if !consistent {
        return Err(FieldError::new(format!("{at}.repRange"), "is inconsistent"));
    }
    if e.rest_seconds > MAX_REST_SECONDS {
        return Err(FieldError::new(
            format!("{at}.restSeconds"),
            format!("must be at most {MAX_REST_SECONDS}"),
        ));
    }
    let mut idx = HashSet::new();
    for (k, st) in e.sets.iter().enumerate() {
        let field = |name: &str| format!("{at}.sets[{k}].{name}");
        if !idx.insert(st.index) {
            return Err(FieldError::new(field("index"), "is repeated"));
        }
        if st.index > MAX_SET_INDEX {
            return Err(FieldError::new(
                field("index"),
                format!("must be at most {MAX_SET_INDEX}"),
            ));
        }
        if !weight_ok(st.target_weight) {
            return Err(FieldError::new(field("targetWeight"), WEIGHT_RANGE));
        }
        if st.target_reps > MAX_TARGET_REPS {
            return Err(FieldError::new(
                field("targetReps"),
                format!("must be at most {MAX_TARGET_REPS}"),
            ));
        }
        if st.rest_seconds > MAX_REST_SECONDS {
            return Err(FieldError::new(
                field("restSeconds"),
                format!("must be at most {MAX_REST_SECONDS}"),
            ));
        }
    }
    Ok(())
}

/// Checks a catalog exercise before it is saved: id and name must not be empty.
pub(crate) fn check_exercise(exercise: &CatalogExercise) -> Result<()> {
    if exercise.catalog_id.trim().is_empty() || exercise.name.trim().is_empty() {
        return Err(invalid("catalog id and name must not be empty"));
    }
    Ok(())
}

/// Checks the exercises of a session log before anything is written (the service checked the
/// session id, that it is not logged yet, and found its `plan`): per exercise, id present and
/// unique, then `stored` (the checks that need the store: id not used by a logged exercise,
/// catalog exercise known), then the prescription it followed belongs to `plan` for this catalog
/// exercise, and its sets ([`check_performed_sets`]).
pub(crate) fn check_log(
    log: &SessionLog,
    plan: Option<&WorkoutPlan>,
    mut stored: impl FnMut(usize, &ExerciseLog) -> Result<()>,
) -> Result<()> {
    let mut perf_ids = HashSet::new();
    for (i, e) in log.exercises.iter().enumerate() {
        if e.id.trim().is_empty() || !perf_ids.insert(e.id.as_str()) {
            return Err(invalid(format!("exercises[{i}].id is empty or repeated")));
        }
        stored(i, e)?;
        if let Some(rx) = &e.prescription_id {
            let belongs = plan.is_some_and(|p| {
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
        check_performed_sets(&e.sets, &format!("exercises[{i}]"))?;
    }
    Ok(())
}

/// The checks of logged sets that need no database: unique set indexes, possible weights. `at`
/// names their owner in the error (`exercises[2]`).
fn check_performed_sets(sets: &[PerformedSet], at: &str) -> Result<(), FieldError> {
    let mut idx = HashSet::new();
    for (k, s) in sets.iter().enumerate() {
        let field = |name: &str| format!("{at}.sets[{k}].{name}");
        if !idx.insert(s.index) {
            return Err(FieldError::new(field("index"), "is repeated"));
        }
        if s.index > MAX_SET_INDEX {
            return Err(FieldError::new(
                field("index"),
                format!("must be at most {MAX_SET_INDEX}"),
            ));
        }
        if s.reps > MAX_LOGGED_REPS {
            return Err(FieldError::new(
                field("reps"),
                format!("must be at most {MAX_LOGGED_REPS}"),
            ));
        }
        if s.rest_seconds.is_some_and(|r| r > MAX_LOGGED_REST_SECONDS) {
            return Err(FieldError::new(
                field("restSeconds"),
                format!("must be at most {MAX_LOGGED_REST_SECONDS}"),
            ));
        }
        if !weight_ok(s.weight) {
            return Err(FieldError::new(field("weight"), WEIGHT_RANGE));
        }
    }
    Ok(())
}

/// Checks an exercise context that comes from outside (`evaluate_exercise`) as `save_plan` checks
/// its prescription and `log_session` its logged sets: possible loads in the plan settings
/// (`check_load`); a consistent rep range, target reps and rest within bounds; unique set
/// indexes and weights from 0 to 5000, in the prescription and in the current and every previous
/// performance. The error names the field by its path (`context.previous[1].sets[0].weight`),
/// never its value.
pub fn check_context(ctx: &ExerciseContext) -> Result<()> {
    Ok(check_context_fields(ctx)?)
}

/// [`check_context`] with the refused field's path on its own; also bounds the cached history's
/// typical reps (at most [`MAX_LOGGED_REPS`]).
pub fn check_context_fields(ctx: &ExerciseContext) -> Result<(), FieldError> {
    check_load(&ctx.plan.load, "context.plan.load")?;
    check_prescription(&ctx.prescription, "context.prescription")?;
    check_performed_sets(&ctx.current.sets, "context.current")?;
    for (i, p) in ctx.previous.iter().enumerate() {
        check_performed_sets(&p.sets, &format!("context.previous[{i}]"))?;
    }
    if let Some(h) = &ctx.history {
        for (name, reps) in [
            ("typicalLowerReps", h.typical_lower_reps),
            ("typicalUpperReps", h.typical_upper_reps),
        ] {
            if reps > MAX_LOGGED_REPS {
                return Err(FieldError::new(
                    format!("context.history.{name}"),
                    format!("must be at most {MAX_LOGGED_REPS}"),
                ));
            }
        }
    }
    Ok(())
}
