//! Today's plan on [`Workouts`] (spec 000): transforming model text into the canonical
//! `TodayPlan`, generating today's plan (with the shared model, or deterministically without
//! one), the saved plans (today's, the recent ones, marking one done) and the generation records.

use std::sync::Arc;

use super::workout::Workouts;
use crate::kernel::error::{CoachError, Error};
use crate::kernel::ids::IdGenerator;
use crate::llm::metered::SharedModel;
use crate::llm::CancelToken;
use crate::plan::GenerationRecord;
use crate::plan::{
    self, PlanGenerateSettings, PlanTransform, Ruleset, SavedTodayPlan, SchemaSelection,
    TodayExerciseDone, TodayPlanRequest,
};

#[uniffi::export]
impl Workouts {
    /// Turns raw model text into the canonical [`TodayPlan`](crate::TodayPlan).
    ///
    /// `raw_text` is what the model wrote in `selection`'s schema; code fences, prose around the
    /// JSON and `<think>`/`<response>` wrappers are tolerated. Anything else wrong with it throws
    /// `InvalidModelOutput` with a code and a JSON path; nothing is best-effort. Give `seed` to make
    /// the generated ids reproducible. Every call, successful or not, is recorded in the
    /// generation metadata (see `planGenerations`).
    #[uniffi::method(default(seed = None))]
    pub fn transform_plan(
        &self,
        raw_text: String,
        selection: SchemaSelection,
        seed: Option<u64>,
    ) -> Result<PlanTransform, CoachError> {
        let mut ids = IdGenerator::new(seed);
        let ruleset = Ruleset::embedded();
        Ok(plan::transform_and_record(
            Some(&self.store),
            &*self.clock,
            ruleset,
            &raw_text,
            selection,
            &mut ids,
        )?)
    }

    /// Makes today's plan and saves it (spec 000, the provider side), in a way even a very small
    /// model does well: the library reads the notes (minutes, focus, goal, energy, equipment,
    /// body parts to spare, exercises asked for or refused), looks at the user's logged training
    /// (nothing trained in the last 14 days is offered again) and plans the session as slots with
    /// sets and reps; the shared model (`model().set` or `model().load`) picks one exercise per
    /// slot among at most four allowed ones (up to 3 generations, a repair names the slot and
    /// its choices). Without a model, or when the model's answers stay invalid, each slot takes
    /// its first choice: the plan comes back all the same, with `plan.source` `deterministic` and
    /// `fallbackReason` `noModel` or `invalidAnswers`. Each exercise with recent loaded history
    /// gets its load in the request's `units` (`3 x 6-10 at 60 kg`), the workout flow's target
    /// load. The library then writes the plan in the request's schema version (or the one
    /// `selectPlanSchema` picks): a warm-up, "Main Lifts", "Accessories", a cool-down from 30
    /// minutes. It comes back as `workouts().transformPlan` returns it; it is saved
    /// (`savedTodayPlan`, `recentTodayPlans`, `markTodayPlanDone`) and a model's plan is
    /// recorded in the generation metadata (feature `plan.generate`, also when every answer was
    /// invalid).
    ///
    /// Blocks while the model works (seconds): call it from a background thread. Throws
    /// `InvalidArgument` for a bad request (date, notes over 4000 characters, equipment and bans
    /// that leave no exercise, a seed whose plan of that date is done already), and the model's
    /// errors (`TimedOut`, `Cancelled`, `ModelUnavailable`, ...).
    pub fn today_plan(&self, request: TodayPlanRequest) -> Result<PlanTransform, CoachError> {
        self.today_plan_with_shared_model(&request, &CancelToken::new())
    }

    /// `todayPlan` as an async call (Swift `async throws`, Kotlin `suspend`, Python
    /// `async def`): the plan is made on a library thread (no async runtime needed; the caller's
    /// thread never blocks). Cancelling the Kotlin coroutine or the Python task stops the model
    /// call and throws `Cancelled`; in Swift pass `cancel` and call `cancel.cancel()` (or use the
    /// shipped `CoachAsync.swift`). Throws what `todayPlan` throws.
    #[uniffi::method(default(cancel = None))]
    pub async fn today_plan_async(
        self: Arc<Self>,
        request: TodayPlanRequest,
        cancel: Option<Arc<CancelToken>>,
    ) -> Result<PlanTransform, CoachError> {
        let this = Arc::clone(&self);
        self.run_async("plan", cancel, move |cancel| {
            this.today_plan_with_shared_model(&request, cancel)
        })
        .await
    }

    /// The last `limit` plan generations and transforms recorded in this database, newest first.
    pub fn plan_generations(&self, limit: u32) -> Result<Vec<GenerationRecord>, CoachError> {
        Ok(self.store.recent_generations(limit)?)
    }

    /// The plan `todayPlan` made last for `date` (`YYYY-MM-DD`, the user's local date), with its
    /// targets and whether it was done; `None` when none was made. Throws `InvalidArgument` for
    /// a malformed date.
    pub fn saved_today_plan(&self, date: String) -> Result<Option<SavedTodayPlan>, CoachError> {
        Ok(plan::saved_today_plan(&self.store, &date)?)
    }

    /// Up to `limit` saved plans, newest first (done or not).
    pub fn recent_today_plans(&self, limit: u32) -> Result<Vec<SavedTodayPlan>, CoachError> {
        Ok(plan::recent_today_plans(&self.store, limit)?)
    }

    /// Marks a saved plan done and logs it as training, through the same call `log` uses for a
    /// workout: the next plans, workouts and suggestions read it (session `today:<planId>`).
    ///
    /// Working exercises `performed` does not name were done as planned: their sets at the low
    /// end of their reps, at their load (`TodayPlanTarget.load`), or at 0 for a body-weight
    /// exercise. Name the others by `TodayPlanTarget.exerciseId` with their sets (loads in the
    /// plan's `units`); an exercise named with no sets was not done. A loaded exercise without
    /// a planned load (no recent history) must be named: its weight is not known otherwise.
    /// `performed` `None` is everything as planned; `performedAtMs` `None` is now. Returns the
    /// plan as saved now (`doneAtMs`, `sessionId`). Throws `NotFound` for an unknown plan and
    /// `InvalidArgument` for a plan done already, an exercise that is not a working exercise of
    /// the plan or is named twice, a loaded exercise without a load left unnamed, no sets at
    /// all, or values out of bounds (weights 0 to 2000, reps at most 1000, at most 50 sets an
    /// exercise and 200 in all). Nothing is logged when it throws.
    #[uniffi::method(default(performed = None, performed_at_ms = None))]
    pub fn mark_today_plan_done(
        &self,
        plan_id: String,
        performed: Option<Vec<TodayExerciseDone>>,
        performed_at_ms: Option<i64>,
    ) -> Result<SavedTodayPlan, CoachError> {
        Ok(plan::mark_today_plan_done(
            &self.store,
            &*self.clock,
            &plan_id,
            performed.as_deref().unwrap_or_default(),
            performed_at_ms,
        )?)
    }
}

impl Workouts {
    /// `todayPlan` with `model` (its breaker, if any, is used; `None`: the deterministic plan), a
    /// cancel token and settings: for the CLI, the C API and Rust callers. A panic becomes
    /// `Internal`.
    pub fn today_plan_with(
        &self,
        request: &TodayPlanRequest,
        model: Option<SharedModel>,
        cancel: &Arc<CancelToken>,
        settings: &PlanGenerateSettings,
    ) -> Result<PlanTransform, CoachError> {
        let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            // One metered wrapper per generation: breaker, one log line per call.
            let metered = model.as_ref().map(|m| m.metered("plan"));
            plan::generate_and_record(
                &self.store,
                &*self.clock,
                Ruleset::embedded(),
                metered
                    .as_ref()
                    .map(|m| m as &dyn crate::llm::LanguageModel),
                request,
                cancel,
                settings,
            )
        }));
        match run {
            Ok(outcome) => Ok(outcome?),
            // Through the one boundary, which logs internal errors.
            Err(_) => Err(CoachError::from(Error::Internal(
                "plan generation panicked".into(),
            ))),
        }
    }

    /// Today's plan with the shared model, if any (default settings).
    fn today_plan_with_shared_model(
        &self,
        request: &TodayPlanRequest,
        cancel: &Arc<CancelToken>,
    ) -> Result<PlanTransform, CoachError> {
        self.check_open()?;
        let model = self.shared_model();
        self.today_plan_with(request, model, cancel, &PlanGenerateSettings::default())
    }
}
