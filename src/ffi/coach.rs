//! [`Coach`], the app's entry object.

use std::sync::{Arc, RwLock};

use crate::db::{IntegrityReport, Store};
use crate::ffi::task::{spawn_task, Abandoned, TaskCell, TaskFuture};
use crate::kernel::clock::{Clock, SystemClock};
use crate::kernel::error::{CoachError, Error};
use crate::kernel::ids::IdGenerator;
use crate::llm::metered::SharedModel;
use crate::llm::{CancelToken, LanguageModel};
use crate::plan::GenerationRecord;
use crate::plan::{
    self, PlanGenerateSettings, PlanTransform, Ruleset, SchemaSelection, SchemaVersion,
    TodayPlanRequest,
};
use crate::suggest::service::AiSuggestionSource;

/// The library's entry object: one per database file, shared freely between threads.
///
/// Threading: every method is synchronous. Plan transforms are CPU-light (well under a
/// millisecond for a typical plan) but write to the database when it is a file, so call them from a
/// background thread or coroutine, not the main thread. Calls on one `Coach` are serialized on its
/// database connection; open one `Coach` per file and keep it for the app's lifetime.
#[derive(uniffi::Object)]
pub struct Coach {
    pub(super) store: Store,
    pub(super) clock: Arc<dyn Clock>,
    ai: RwLock<Option<Arc<dyn AiSuggestionSource>>>,
    /// The model every feature shares, with its circuit breaker, set by `use_language_model`.
    model: RwLock<Option<SharedModel>>,
}

impl std::fmt::Debug for Coach {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Coach")
            .field("store", &self.store)
            .finish_non_exhaustive()
    }
}

#[uniffi::export]
impl Coach {
    /// Opens the database file at `db_path`, creating it if absent and upgrading it if it was
    /// written by an older version of the library.
    ///
    /// Throws `NotADatabase` if the file is not a SQLite database or belongs to another
    /// application, and `DatabaseTooNew` if a newer library version wrote it; in both cases the
    /// file is left exactly as it was. A write-protected file (or folder) opens read-only: reads,
    /// dry runs and assistant messages work, writes throw `ReadOnly` (as does opening one that
    /// needs an upgrade). A damaged file opens for reading and refuses writes with
    /// `DatabaseCorrupt` (see [`Coach::check_integrity`]). Throws `Storage` if the file cannot be opened (e.g. its
    /// folder does not exist; the message never contains the path) and `InvalidArgument` for an
    /// empty path.
    #[uniffi::constructor]
    pub fn open(db_path: String) -> Result<Arc<Coach>, CoachError> {
        Ok(Arc::new(Coach::with_store(
            Store::open(db_path)?,
            Arc::new(SystemClock),
        )))
    }

    /// Opens a private in-memory database (nothing survives the object). For previews and tests.
    #[uniffi::constructor]
    pub fn open_in_memory() -> Result<Arc<Coach>, CoachError> {
        Ok(Arc::new(Coach::with_store(
            Store::open_in_memory()?,
            Arc::new(SystemClock),
        )))
    }

    /// Chooses the LLM schema for a plan generation (spec 000): `override_version` if given; else
    /// the only version in `supported` if there is exactly one; else the version with the smallest
    /// estimated JSON size among `supported` (every version when empty), ties to `v2-flat`.
    pub fn select_plan_schema(
        &self,
        supported: Vec<SchemaVersion>,
        override_version: Option<SchemaVersion>,
    ) -> SchemaSelection {
        plan::select_schema(&supported, override_version)
    }

    /// Turns raw model text into the canonical [`TodayPlan`](crate::TodayPlan).
    ///
    /// `raw_text` is what the model wrote in `selection`'s schema; code fences, prose around the
    /// JSON and `<think>`/`<response>` wrappers are tolerated. Anything else wrong with it throws
    /// `InvalidModelOutput` with a code and a JSON path; nothing is best-effort. Give `seed` to make
    /// the generated ids reproducible. Every call, successful or not, is recorded in the
    /// generation metadata (see [`Coach::recent_generations`]).
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

    /// Generates today's plan with the model given to `useLanguageModel` (spec 000, the provider
    /// side), in a way even a very small model does well: the library reads the notes (minutes,
    /// focus, goal, energy, equipment, body parts to spare, exercises asked for or refused),
    /// looks at the user's logged training (nothing trained in the last 14 days is offered
    /// again) and plans the session as slots with sets and reps; the model picks one exercise per
    /// slot among at most four allowed ones (up to 3 generations, a repair names the slot and its
    /// choices). The library then writes the plan in the request's schema version (or the one
    /// [`Coach::select_plan_schema`] picks): a warm-up, "Main Lifts", "Accessories", a cool-down
    /// from 30 minutes. It comes back as [`Coach::transform_plan`] returns it, recorded in the
    /// generation metadata (feature `plan.generate`, also when every answer was invalid).
    ///
    /// Blocks while the model works (seconds): call it from a background thread. Throws
    /// `InvalidArgument` for a bad request (date, notes over 4000 characters),
    /// `ModelUnusable` when no model is configured, `ModelOutputRejected` when the answers stayed
    /// invalid, and the model's errors (`TimedOut`, `ModelUnavailable`, ...).
    pub fn generate_today_plan(
        &self,
        request: TodayPlanRequest,
    ) -> Result<PlanTransform, CoachError> {
        self.today_plan_with_shared_model(&request, &CancelToken::new())
    }

    /// [`Coach::generate_today_plan`] as an async call (Swift `async throws`, Kotlin `suspend`,
    /// Python `async def`): the plan is made on a library thread (no async runtime needed; the
    /// caller's thread never blocks). Cancelling the Kotlin coroutine or the Python task stops
    /// the model call and throws `Cancelled`; in Swift pass `cancel` and call `cancel.cancel()`
    /// (or use the shipped `CoachAsync.swift`). Throws what `generateTodayPlan` throws.
    #[uniffi::method(default(cancel = None))]
    pub async fn generate_today_plan_async(
        self: Arc<Self>,
        request: TodayPlanRequest,
        cancel: Option<Arc<CancelToken>>,
    ) -> Result<PlanTransform, CoachError> {
        let cell = TaskCell::with_cancel(cancel.unwrap_or_default());
        let abandoned: Abandoned<_> = Box::new(|| {
            Err(CoachError::from(Error::Internal(
                "the plan thread ended without a result".into(),
            )))
        });
        spawn_task(&cell, "coachcore-plan", abandoned, move |cancel| {
            self.today_plan_with_shared_model(&request, cancel)
        });
        TaskFuture::new(cell).await
    }

    /// The last `limit` generations recorded in this database, newest first.
    pub fn recent_generations(&self, limit: u32) -> Result<Vec<GenerationRecord>, CoachError> {
        Ok(self.store.recent_generations(limit)?)
    }

    /// Checks the whole database file for damage (SQLite's `integrity_check`: it reads every page,
    /// so it takes about a second per 100 MB; call it from a background thread). Returns `ok` and
    /// up to 20 short problem lines (tables, indexes and pages, never stored values).
    ///
    /// Opening already runs a quicker check; a file that fails either one refuses writes with
    /// `DatabaseCorrupt` (reads keep working where SQLite can read), and a file that passes this
    /// check accepts them again.
    pub fn check_integrity(&self) -> Result<IntegrityReport, CoachError> {
        Ok(self.store.check_integrity()?)
    }
}

impl Coach {
    /// A `Coach` over an already opened store with a given clock (Rust callers and tests).
    pub fn with_store(store: Store, clock: Arc<dyn Clock>) -> Coach {
        Coach {
            store,
            clock,
            ai: RwLock::new(None),
            model: RwLock::new(None),
        }
    }

    /// [`Coach::generate_today_plan`] with `model` (its breaker, if any, is used), a cancel token
    /// and settings: for the CLI, the C API and Rust callers. A panic becomes `Internal`.
    pub fn generate_today_plan_with(
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

    /// Sets (or with `None` removes) the AI suggestion source used by
    /// [`Coach::suggestions_for_session`].
    pub fn set_ai_source(&self, source: Option<Arc<dyn AiSuggestionSource>>) {
        *self.ai.write().unwrap_or_else(|p| p.into_inner()) = source;
    }

    /// Sets (or with `None` removes) the model the assistant uses ([`Coach::send_message`]), as
    /// given: no circuit breaker is added (`use_language_model` adds one). Like every model the
    /// `Coach` holds, it runs one call at a time (see `use_language_model`).
    pub fn set_assistant_model(&self, model: Option<Arc<dyn LanguageModel>>) {
        self.set_shared_model(model.map(|model| SharedModel::queued(model, None, None)));
    }

    pub(super) fn set_shared_model(&self, shared: Option<SharedModel>) {
        *self.model.write().unwrap_or_else(|p| p.into_inner()) = shared;
    }

    /// Today's plan with the model every feature shares (default settings), `ModelUnusable`
    /// without one.
    fn today_plan_with_shared_model(
        &self,
        request: &TodayPlanRequest,
        cancel: &Arc<CancelToken>,
    ) -> Result<PlanTransform, CoachError> {
        let Some(model) = self.shared_model() else {
            return Err(CoachError::ModelUnusable {
                detail: "no model is configured: call useLanguageModel first".into(),
            });
        };
        self.generate_today_plan_with(request, model, cancel, &PlanGenerateSettings::default())
    }

    /// The model every feature shares, with its breaker, if one is set.
    pub(crate) fn shared_model(&self) -> Option<SharedModel> {
        self.model.read().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// The assistant's model, if one is set.
    pub(crate) fn language_model(&self) -> Option<Arc<dyn LanguageModel>> {
        self.shared_model().map(|s| s.model)
    }

    pub(super) fn ai_source(&self) -> Option<Arc<dyn AiSuggestionSource>> {
        self.ai.read().unwrap_or_else(|p| p.into_inner()).clone()
    }
}

/// The library's version, e.g. `0.1.0`.
#[uniffi::export]
pub fn library_version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}
