//! Training plans on [`Workouts`]: the exercise catalog, plans, logged sessions and each
//! exercise's history (what `suggestions()` works on).

use crate::ffi::workout::Workouts;
use crate::kernel::error::CoachError;
use crate::suggest::model::{
    CatalogExercise, ExerciseHistory, SessionLog, WeightUnit, WorkoutPlan,
};
use crate::suggest::service;

#[uniffi::export]
impl Workouts {
    /// Adds or replaces an exercise of the training catalog (what plans and sessions name).
    pub fn save_catalog_exercise(&self, exercise: CatalogExercise) -> Result<(), CoachError> {
        Ok(service::save_exercise(&self.store, &exercise)?)
    }

    /// Adds or replaces a workout plan with its exercises and sets. Exercises kept by id stay
    /// linked to the workouts logged against them. Throws `NotFound` for an exercise missing from
    /// the catalog and `InvalidArgument` for repeated ids or positions, an exercise id of another
    /// plan, impossible weights (0 to 5000), target reps above 1000, rest above 3600 s, an
    /// inconsistent rep range, or impossible loads (see [`crate::suggest::model::LoadConfig`]);
    /// nothing is saved then. Errors name the field (`exercises[0].sets[1].targetReps`), never
    /// its value or an id.
    pub fn save_plan(&self, plan: WorkoutPlan) -> Result<(), CoachError> {
        Ok(service::save_plan(&self.store, &plan)?)
    }

    /// A plan as stored (accepted changes included), or `None`.
    pub fn plan(&self, plan_id: String) -> Result<Option<WorkoutPlan>, CoachError> {
        Ok(self.store.read(|db| db.plan(&plan_id))?)
    }

    /// Logs a finished workout. Also refreshes each exercise's cached history and evaluates the
    /// outcome of accepted changes this workout is the first test of. Throws `InvalidArgument` for
    /// an inconsistent log (a session id already logged, exercise ids repeated or already used by
    /// an earlier workout, a plan exercise of another plan, impossible weights) and `NotFound`
    /// for an unknown plan or catalog exercise; nothing is stored then.
    pub fn log_session(&self, session: SessionLog) -> Result<(), CoachError> {
        Ok(service::log_session(&self.store, &*self.clock, &session)?)
    }

    /// The cached history of an exercise (typical reps, e1RM, trend), if it was ever logged. Its
    /// e1RMs are in `unit`, pounds when not given, whatever unit each workout was logged in.
    #[uniffi::method(default(unit = None))]
    pub fn history(
        &self,
        catalog_id: String,
        unit: Option<WeightUnit>,
    ) -> Result<Option<ExerciseHistory>, CoachError> {
        let unit = unit.unwrap_or(WeightUnit::Lbs);
        Ok(self.store.read(|db| db.history(&catalog_id, unit))?)
    }
}
