//! Request records read as JSON by more than one entry point (the C API's `coach_call` and the
//! `coach` command line), defined once so both accept exactly the same input.
//!
//! Read a request with [`crate::kernel::error::parse_request`]: its errors give the JSON path of the
//! problem and never quote the request.

use serde::Deserialize;

use crate::ffi::Workouts;
use crate::kernel::error::{CoachError, Error, ErrorJson};
use crate::plan::{SavedTodayPlan, TodayExerciseDone};
use crate::suggest::model::{ExerciseContext, PrescriptionChange, SuggestionDraft};

/// The input of [`crate::evaluate_exercise`] as one JSON object: the request of the C API's
/// `suggestions.evaluate` and the stdin of `coach suggest evaluate`.
///
/// JSON: `{"context": ExerciseContext, "existing": [PrescriptionChange], "nowMs": N}` in the
/// camelCase form of the records; `existing` is optional (no earlier changes) and any other key
/// is refused.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct EvaluateRequest {
    /// The exercise to evaluate: its plan, prescription and recent performances.
    pub context: ExerciseContext,
    /// The exercise's stored changes, for the cooldown and deduplication.
    #[serde(default)]
    pub existing: Vec<PrescriptionChange>,
    /// The time of the evaluation, in milliseconds since the Unix epoch.
    pub now_ms: i64,
}

impl EvaluateRequest {
    /// Runs [`crate::evaluate_exercise`] on this request: the deduplicated suggestions, or
    /// `InvalidArgument` for a context `savePlan` or `logSession` would refuse.
    pub fn evaluate(self) -> Result<Vec<SuggestionDraft>, CoachError> {
        crate::ffi::evaluate_exercise(self.context, self.existing, self.now_ms)
    }

    /// [`EvaluateRequest::evaluate`] with the error as the C API and the CLI print it: a refused
    /// field of the context has its JSON path in `path` (`context.prescription.sets[1].targetWeight`)
    /// as well as in `detail`.
    pub fn evaluate_or_error_json(self) -> Result<Vec<SuggestionDraft>, ErrorJson> {
        if let Err(field) = crate::suggest::validate::check_context_fields(&self.context) {
            let path = field.path.clone();
            let mut json = CoachError::from(Error::from(field)).to_json();
            json.path = Some(path);
            return Err(json);
        }
        self.evaluate().map_err(|e| e.to_json())
    }
}

/// The arguments of [`Workouts::mark_today_plan_done`] as one JSON object: the request of the C
/// API's `workouts.markTodayPlanDone` and the `--performed` file of `coach plan done`.
///
/// JSON: `{"planId": P, "performed": [TodayExerciseDone], "performedAtMs": N}`; `performed`
/// (the exercises not done as planned; absent or null: everything as planned) and
/// `performedAtMs` (absent: now) are optional.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MarkTodayPlanDoneRequest {
    /// The saved plan's id (`TodayPlan.id`).
    pub plan_id: String,
    /// The exercises not done as planned; `None`: every working exercise as planned.
    #[serde(default)]
    pub performed: Option<Vec<TodayExerciseDone>>,
    /// When it was done (ms since the Unix epoch); `None`: now.
    #[serde(default)]
    pub performed_at_ms: Option<i64>,
}

impl MarkTodayPlanDoneRequest {
    /// Runs [`Workouts::mark_today_plan_done`] with this request.
    pub fn mark(self, workouts: &Workouts) -> Result<SavedTodayPlan, CoachError> {
        workouts.mark_today_plan_done(self.plan_id, self.performed, self.performed_at_ms)
    }
}
