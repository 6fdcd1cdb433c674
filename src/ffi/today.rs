//! Today's plan on [`Workouts`] (spec 000): transforming model text into the canonical
//! `TodayPlan`, generating today's plan with the shared model, and the generation records.

use std::sync::Arc;

use super::workout::Workouts;
use crate::kernel::error::{CoachError, Error};
use crate::kernel::ids::IdGenerator;
use crate::llm::metered::SharedModel;
use crate::llm::CancelToken;
use crate::plan::GenerationRecord;
use crate::plan::{
    self, PlanGenerateSettings, PlanTransform, Ruleset, SchemaSelection, TodayPlanRequest,
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

    /// Generates today's plan with the shared model (`model().set` or `model().load`; spec 000,
    /// the provider side), in a way even a very small model does well: the library reads the
    /// notes (minutes, focus, goal, energy, equipment, body parts to spare, exercises asked for or
    /// refused), looks at the user's logged training (nothing trained in the last 14 days is
    /// offered again) and plans the session as slots with sets and reps; the model picks one
    /// exercise per slot among at most four allowed ones (up to 3 generations, a repair names the
    /// slot and its choices). The library then writes the plan in the request's schema version
    /// (or the one `selectPlanSchema` picks): a warm-up, "Main Lifts", "Accessories", a cool-down
    /// from 30 minutes. It comes back as `workouts().transformPlan` returns it, recorded in the generation
    /// metadata (feature `plan.generate`, also when every answer was invalid).
    ///
    /// Blocks while the model works (seconds): call it from a background thread. Throws
    /// `InvalidArgument` for a bad request (date, notes over 4000 characters),
    /// `ModelUnusable` when no model is configured, `ModelOutputRejected` when the answers stayed
    /// invalid, and the model's errors (`TimedOut`, `ModelUnavailable`, ...).
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
}

impl Workouts {
    /// `todayPlan` with `model` (its breaker, if any, is used), a cancel token and settings: for
    /// the CLI, the C API and Rust callers. A panic becomes `Internal`.
    pub fn today_plan_with(
        &self,
        request: &TodayPlanRequest,
        model: SharedModel,
        cancel: &Arc<CancelToken>,
        settings: &PlanGenerateSettings,
    ) -> Result<PlanTransform, CoachError> {
        let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            // One metered wrapper per generation: breaker, one log line per call.
            let metered = model.metered("plan");
            plan::generate_and_record(
                &self.store,
                &*self.clock,
                Ruleset::embedded(),
                &metered,
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

    /// Today's plan with the shared model (default settings), `ModelUnusable` without one.
    fn today_plan_with_shared_model(
        &self,
        request: &TodayPlanRequest,
        cancel: &Arc<CancelToken>,
    ) -> Result<PlanTransform, CoachError> {
        self.check_open()?;
        let Some(model) = self.shared_model() else {
            return Err(CoachError::ModelUnusable {
                detail: "no model is configured: call model().set or model().load first".into(),
            });
        };
        self.today_plan_with(request, model, cancel, &PlanGenerateSettings::default())
    }
}
