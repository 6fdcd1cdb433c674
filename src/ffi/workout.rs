//! [`Workouts`], its generated workouts (spec 001): `generate` with a listener and a task handle,
//! saved workouts, `log`, the training `week`, the app's own exercises and equipment; and the free
//! `validateWorkoutYaml`. Today's plan is in `today.rs`, training plans and history in
//! `training.rs`. Each method delegates to `workout::service` or `workout::document`.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

use crate::ffi::inner::{service_object, CoachInner};
use crate::ffi::task::{
    abandoned_error, export_task, ListenerError, ListenerSink, TaskCell, TaskFuture, TaskHandle,
};
use crate::kernel::error::{CoachError, Error};
use crate::llm::metered::SharedModel;
use crate::llm::CancelToken;
use crate::workout::catalog::{WorkoutEquipment, WorkoutExercise};
use crate::workout::document::{self, DocumentError};
use crate::workout::model::{
    Workout, WorkoutEvent, WorkoutLog, WorkoutRequest, WorkoutResult, WorkoutSettings,
    WorkoutStage, WorkoutSummary,
};
use crate::workout::service::{self, WorkoutSink};
use crate::workout::week::TrainingWeek;

/// Largest workout request read from JSON (bytes).
const MAX_REQUEST_BYTES: usize = crate::kernel::limits::MAX_JOB_REQUEST_BYTES;

/// Receives the events of [`Workouts::generate`]: `preAnalysis`, then `analyzer` (and
/// `analyzerRepair`) and `generator` (and `generatorRepair`) per model call, and always `done`
/// last (also after an error or a cancellation).
///
/// Threading: called on the library's background thread, one event at a time; hop to the main
/// thread before touching the UI. A listener that throws is not called again for that generation
/// (one warning is logged); the generation goes on.
#[uniffi::export(with_foreign)]
pub trait WorkoutListener: Send + Sync {
    /// One event. Throwing (any error) stops the events of this generation.
    fn on_event(&self, event: WorkoutEvent) -> Result<(), ListenerError>;
}

/// The app's listener (if any) as the flow's event sink.
impl WorkoutSink for ListenerSink<dyn WorkoutListener> {
    fn on_event(&self, event: WorkoutEvent) {
        self.0.call(|l| l.on_event(event));
    }
}

/// A workout generation running in the background, returned by [`Workouts::generate`].
///
/// Keep the handle while the generation runs: dropping it cancels the generation.
///
/// Threading: every method may be called from any thread; `wait` blocks (never on the main
/// thread). `wait` always returns, even when the listener throws.
#[derive(uniffi::Object)]
pub struct WorkoutTask {
    handle: TaskHandle<Result<WorkoutResult, CoachError>>,
}

export_task!(WorkoutTask => Result<WorkoutResult, CoachError>,
    cancel: "Asks the generation to stop: the model call in progress stops within a token or \
        two, the listener gets `done`, and `wait` throws `Cancelled`. Nothing is saved then.",
    wait: "Blocks until the generation finishes; returns the saved workout or throws what it \
        failed with (`InvalidArgument`, `ModelOutputRejected` with stage `analyzer:<stage>`, \
        `TimedOut`, `Cancelled`, ...). Every call returns the same outcome.",
    finished: "Whether the generation has finished.");

/// Workouts, from `Coach.workouts()`: generated workouts (spec 001) and the app's workout
/// catalog and equipment; today's plan (spec 000: `todayPlan`, `workouts().transformPlan`, the saved
/// plans `savedTodayPlan`, `recentTodayPlans`, `markTodayPlanDone`); and training
/// plans with their logged sessions and exercise history (what `suggestions()` works on).
#[derive(uniffi::Object)]
pub struct Workouts {
    inner: Arc<CoachInner>,
}

service_object!(Workouts);

/// The outcome of [`validate_workout_yaml`]: the workout, or the error.
#[derive(Debug, Clone, PartialEq, serde::Serialize, uniffi::Record)]
pub struct WorkoutValidation {
    /// The workout when valid.
    pub workout: Option<Workout>,
    /// Why not: code `invalid_yaml` or `schema_violation`, a path such as `sets[3].id`.
    pub error: Option<DocumentError>,
}

#[uniffi::export]
impl Workouts {
    /// Generates a workout for `request` on a background thread and returns at once with a task
    /// handle; progress goes to `listener`. With the model `model()` holds the
    /// analyzer and the generator are model calls (validated, repaired up to 3 times each; the
    /// deterministic generator takes over when the generator's answers stay invalid); without one
    /// the deterministic planner and generator make the workout. The workout is saved.
    ///
    /// The model is called through its circuit breaker: while the breaker is open the generation
    /// throws `ModelUnavailable` without calling it. `settings` (default: `WorkoutSettings`'s
    /// defaults) sets each stage's time budget (`TimedOut` names the stage), the repairs and the
    /// answer sizes.
    #[uniffi::method(default(settings = None))]
    pub fn generate(
        self: Arc<Self>,
        request: WorkoutRequest,
        listener: Option<Arc<dyn WorkoutListener>>,
        settings: Option<WorkoutSettings>,
    ) -> Arc<WorkoutTask> {
        let cell = self.start_workout(request, listener, settings, CancelToken::new());
        Arc::new(WorkoutTask {
            handle: TaskHandle::new(cell, None),
        })
    }

    /// Generates and saves a workout and returns it when done: the async form of
    /// [`Workouts::generate`] (Swift `async throws`, Kotlin `suspend`, Python `async def`),
    /// with the same events to `listener`, run on a library thread (no async runtime needed; the
    /// caller's thread never blocks). Cancelling the Kotlin coroutine or the Python task stops the
    /// generation; in Swift pass `cancel` and call `cancel.cancel()` (or use the shipped
    /// `CoachAsync.swift`). Throws what [`WorkoutTask::wait`] throws.
    #[uniffi::method(default(listener = None, cancel = None, settings = None))]
    pub async fn generate_async(
        self: Arc<Self>,
        request: WorkoutRequest,
        listener: Option<Arc<dyn WorkoutListener>>,
        cancel: Option<Arc<CancelToken>>,
        settings: Option<WorkoutSettings>,
    ) -> Result<WorkoutResult, CoachError> {
        let cell = self.start_workout(request, listener, settings, cancel.unwrap_or_default());
        TaskFuture::new(cell).await
    }

    /// Up to `limit` saved workouts, newest first.
    pub fn list(&self, limit: u32) -> Result<Vec<WorkoutSummary>, CoachError> {
        Ok(service::list(&self.store, limit)?)
    }

    /// A saved workout (with the actual values once logged), or `None`. One saved by an earlier
    /// library version comes back in the original app's shape (`version` 1.2, `cutOrder` tiers).
    pub fn get(&self, workout_id: String) -> Result<Option<WorkoutResult>, CoachError> {
        Ok(service::fetch(&self.store, &workout_id)?)
    }

    /// Logs what the user did in a saved workout; it becomes training history for the suggestion
    /// engine and the next pre-analysis. Throws `NotFound` for an unknown workout and
    /// `InvalidArgument` for one already logged or a bad set.
    pub fn log(&self, log: WorkoutLog) -> Result<(), CoachError> {
        Ok(service::log_workout(&self.store, &*self.clock, &log)?)
    }

    /// What the last 7 days of training gave each muscle group, and the split of the next
    /// session: `today` (`YYYY-MM-DD`, the user's local date) and the 6 days before it, read from
    /// the logged training (`log` and `logSession`). Per muscle of the workout catalog (`chest`,
    /// `lats`, `quads`, ...; the built-in groups always, with zeros): working sets (no warm-ups)
    /// and hard sets (3 reps in reserve or fewer, as the logged workout prescribed; a set logged
    /// through `logSession`, which has no RIR, counts as hard). Each set counts for every muscle
    /// its exercise lists. `nextSession` is what `generate` plans when the instructions name no
    /// focus, given `daysPerWeek` (1 to 7; `None`: full body), with its reason. Throws
    /// `InvalidArgument` for a malformed date or days outside 1 to 7. Reads the database: call
    /// it off the main thread.
    #[uniffi::method(default(days_per_week = None))]
    pub fn week(
        &self,
        today: String,
        days_per_week: Option<u32>,
    ) -> Result<TrainingWeek, CoachError> {
        Ok(service::week(&self.store, &today, days_per_week)?)
    }

    /// Adds or replaces an exercise of the app's own workout catalog.
    pub fn save_exercise(&self, exercise: WorkoutExercise) -> Result<(), CoachError> {
        Ok(service::save_exercise(&self.store, &exercise)?)
    }

    /// The workout catalog: the built-in exercises and the app's own.
    pub fn exercises(&self) -> Result<Vec<WorkoutExercise>, CoachError> {
        Ok(service::exercises(&self.store)?)
    }

    /// Adds or replaces an equipment definition of the app's own workout catalog: an inventory
    /// key, what it provides and the weights it offers. Requests naming the key use it instead
    /// of the built-in mapping. Throws `InvalidArgument` for a malformed key or values out of
    /// bounds.
    pub fn save_equipment(&self, equipment: WorkoutEquipment) -> Result<(), CoachError> {
        Ok(service::save_equipment(&self.store, &equipment)?)
    }

    /// The app's own equipment definitions, by key (the built-in mapping is documented in
    /// `docs/workout.md`).
    pub fn equipment(&self) -> Result<Vec<WorkoutEquipment>, CoachError> {
        Ok(service::equipment(&self.store)?)
    }
}

impl Workouts {
    /// Starts a generation on its own thread, stopped by `cancel`; its cell.
    fn start_workout(
        self: Arc<Self>,
        request: WorkoutRequest,
        listener: Option<Arc<dyn WorkoutListener>>,
        settings: Option<WorkoutSettings>,
        cancel: Arc<CancelToken>,
    ) -> Arc<TaskCell<Result<WorkoutResult, CoachError>>> {
        let model = self.shared_model();
        let sink = Arc::new(ListenerSink::new(listener, "workout listener"));
        let abandoned_sink = Arc::clone(&sink);
        let this = Arc::clone(&self);
        self.start(
            "coachcore-workout",
            cancel,
            move || {
                abandoned_sink.on_event(WorkoutEvent {
                    stage: WorkoutStage::Done,
                    attempt: 0,
                });
                abandoned_error("workout")
            },
            move |cancel| {
                this.generate_with(
                    &request,
                    model,
                    &*sink,
                    cancel,
                    &settings.unwrap_or_default(),
                )
            },
        )
    }

    /// Runs a generation synchronously on the calling thread with `model` (instead of the one
    /// `model()` holds; `None`: deterministic), events to `sink`. The model is
    /// called through one metered wrapper with its breaker, if it has one (`SharedModel::plain`
    /// has none). For the CLI, the C API and Rust callers. A panic becomes `Internal`.
    pub fn generate_with(
        &self,
        request: &WorkoutRequest,
        model: Option<SharedModel>,
        sink: &dyn WorkoutSink,
        cancel: &Arc<CancelToken>,
        settings: &WorkoutSettings,
    ) -> Result<WorkoutResult, CoachError> {
        let run = catch_unwind(AssertUnwindSafe(|| {
            // One metered wrapper per generation: breaker, one log line per call.
            let metered = model.as_ref().map(|m| m.metered("workout"));
            service::generate(
                &self.store,
                &*self.clock,
                metered.as_ref(),
                request,
                sink,
                cancel,
                settings,
            )
        }));
        match run {
            Ok(outcome) => Ok(outcome?),
            Err(_) => Err(CoachError::from(Error::Internal(
                "the workout flow panicked".into(),
            ))),
        }
    }

    /// A workout request read from JSON (at most 256 KiB; camelCase, as in
    /// `tests/data/workout/request.json`), for the CLI and the C API. Throws `InvalidArgument`
    /// with the JSON path of the first problem, or for values out of bounds.
    pub fn request_from_json(json: &str) -> Result<WorkoutRequest, CoachError> {
        if json.len() > MAX_REQUEST_BYTES {
            return Err(CoachError::InvalidArgument {
                detail: format!("request JSON: at most {MAX_REQUEST_BYTES} bytes"),
            });
        }
        let request: WorkoutRequest = crate::kernel::error::parse_request(json)?;
        crate::workout::preanalysis::validate_request(&request)?;
        Ok(request)
    }

    /// The deterministic workout YAML of an analyzer plan JSON (`coach workout render`).
    pub fn render_plan(plan_json: &str) -> Result<String, CoachError> {
        Ok(service::render_plan_json(plan_json)?)
    }
}

/// Validates a workout YAML document against Workout v1.2 (schema, ids, tiers). Needs no
/// database. Takes the original app's shape (`version: 1.2`, `cut_order: ["C", "B"]`) and the
/// library's earlier form (`version: '1.2'`, `cut_order` set ids), which is upgraded; the workout
/// returned is in the original's shape.
#[uniffi::export]
pub fn validate_workout_yaml(yaml: String) -> WorkoutValidation {
    match document::validate_workout_yaml(&yaml) {
        Ok(w) => WorkoutValidation {
            workout: Some(w),
            error: None,
        },
        Err(e) => WorkoutValidation {
            workout: None,
            error: Some(e),
        },
    }
}
