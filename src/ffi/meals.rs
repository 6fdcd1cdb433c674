//! [`Meals`] (spec 003): recipes (import, save, read, list, search, delete, hide, stage, keep,
//! cleanup), plan jobs with a listener and a task handle, job reads, the meal history (confirm
//! a plan, log a meal), shopping lists and pantry staples. Each method delegates to
//! `meals::service`.

use std::sync::Arc;

use crate::ffi::inner::{service_object, CoachInner};
use crate::ffi::task::{
    export_task, ListenerError, ListenerSink, TaskCell, TaskFuture, TaskHandle,
};
use crate::kernel::error::CoachError;
use crate::kernel::ids::IdGenerator;
use crate::llm::metered::SharedModel;
use crate::llm::{CancelToken, LanguageModel};
use crate::meals::model::{
    JobStatus, MealHistoryEntry, MealLog, MealPlanEvent, MealPlanJob, MealPlanRequest,
    MealPlanResult, MealType, Recipe, RecipePage, RecipeSource,
};
use crate::meals::service::jobs::{self, JobLease, PlanSink};
use crate::meals::service::plan::{PlanEnv, PlanSettings};
use crate::meals::shopping::{ShoppingList, ShoppingListOptions};
use crate::meals::{service, validate};

/// Receives the events of a plan started with [`Meals::plan`]: `Progress` after each
/// slot, then `Completed` or `Failed` last.
///
/// Threading: `onEvent` is called on the library's background thread that runs the plan, one
/// event at a time. Return quickly and hop to the main thread before touching the UI. A listener
/// that throws is not called again for that plan (one warning is logged); the plan goes on.
#[uniffi::export(with_foreign)]
pub trait MealPlanListener: Send + Sync {
    /// One event of the running plan. Throwing (any error) stops the events of this plan.
    fn on_event(&self, event: MealPlanEvent) -> Result<(), ListenerError>;
}

/// The app's listener (if any) as the job's event sink: a listener that throws cannot stop the
/// job.
impl PlanSink for ListenerSink<dyn MealPlanListener> {
    fn on_event(&self, event: MealPlanEvent) {
        self.0.call(|l| l.on_event(event));
    }
}

/// A meal plan running in the background, returned by [`Meals::plan`].
///
/// Keep the handle while the plan runs: dropping it cancels the plan (the job then reads `FAILED`
/// with error code `cancelled`).
///
/// Threading: every method may be called from any thread. `wait` blocks: never call it on the main
/// thread; or rely on the listener's `Completed`/`Failed` event. `wait` always returns, even when
/// the listener throws.
#[derive(uniffi::Object)]
pub struct MealPlanTask {
    handle: TaskHandle<MealPlanJob>,
}

export_task!(MealPlanTask => MealPlanJob,
    cancel: "Asks the plan to stop: between slots, or within a token or two of the model call in \
        progress. The job then ends `FAILED` with error code `cancelled` (and the listener gets \
        `Failed`). Calling it after the job finished does nothing.",
    wait: "Blocks until the job finishes and returns its final envelope (`COMPLETE` with the \
        plan, or `FAILED` with an error code). Every call returns the same envelope.",
    finished: "Whether the job has finished (`wait` would return at once).");

#[uniffi::export]
impl MealPlanTask {
    /// The job id (for `meals().job`, e.g. after the app restarts).
    pub fn id(&self) -> String {
        self.handle.id().unwrap_or_default().to_string()
    }
}

/// Meals, from `Coach.meals()`: the recipe book (core recipes: the library's built-in ones and
/// any the app imports; the user's own; staged copies), meal plans run as stored jobs with a listener and a task handle, and the
/// meal log (confirmed plans and meals eaten, which later plans avoid repeating).
#[derive(uniffi::Object)]
pub struct Meals {
    inner: Arc<CoachInner>,
}

service_object!(Meals);

#[uniffi::export]
impl Meals {
    /// Starts planning meals and returns at once with a task handle; the plan runs on a background
    /// thread of the library and reports to `listener`. The job (status, progress, result) is
    /// stored: read it with [`Meals::job`], also after a restart.
    ///
    /// Per slot the library searches the recipes, lets the model `model()` holds rank
    /// the candidates (it can only name those), or, without a model or when it fails, scores them
    /// deterministically; see `docs/meals.md`. A slot with no fitting recipe has a `null`
    /// selection and is counted in `slotFailuresCount`; it never fails the job.
    ///
    /// Throws `InvalidArgument` naming the field when the request is invalid (no days, more than
    /// 31, a day without meals, servings of 0, a malformed or repeated date, a text or list over
    /// its limit); nothing is stored then.
    ///
    /// Threading: callable from any thread (it writes one row, then returns).
    pub fn plan(
        self: Arc<Self>,
        request: MealPlanRequest,
        listener: Option<Arc<dyn MealPlanListener>>,
    ) -> Result<Arc<MealPlanTask>, CoachError> {
        let (id, cell) = self.start_plan(request, listener, CancelToken::new())?;
        Ok(Arc::new(MealPlanTask {
            handle: TaskHandle::new(cell, Some(id)),
        }))
    }

    /// Plans meals and returns the finished job (`COMPLETE` with the plan, or `FAILED` with an
    /// error code, as [`MealPlanTask::wait`] does): the async form of [`Meals::plan`]
    /// (Swift `async throws`, Kotlin `suspend`, Python `async def`), with the same events to
    /// `listener`, run on a library thread (no async runtime needed; the caller's thread never
    /// blocks). The job is stored as one started with `plan`. Throws `InvalidArgument`
    /// for an invalid request, as that does.
    ///
    /// Cancelling the Kotlin coroutine or the Python task stops the plan (the job then reads
    /// `FAILED` with error code `cancelled`); in Swift pass `cancel` and call `cancel.cancel()`
    /// (or use the shipped `CoachAsync.swift`): the call then returns that `FAILED` job.
    #[uniffi::method(default(listener = None, cancel = None))]
    pub async fn plan_async(
        self: Arc<Self>,
        request: MealPlanRequest,
        listener: Option<Arc<dyn MealPlanListener>>,
        cancel: Option<Arc<CancelToken>>,
    ) -> Result<MealPlanJob, CoachError> {
        let (_, cell) = self.start_plan(request, listener, cancel.unwrap_or_default())?;
        Ok(TaskFuture::new(cell).await)
    }

    /// The meal-plan job with `id`, or `None`: `{id, status, result, errorCode, errorMessage}`
    /// and its progress. A job another process is running (an app and its extension on one
    /// file) reads `RUNNING` with its progress. A job whose process ended while it ran reads
    /// `FAILED` with error code `interrupted`, never `RUNNING` forever: at once in the `Coach`
    /// that started it, in others once its lease (30 s, renewed while it runs) has run out.
    pub fn job(&self, id: String) -> Result<Option<MealPlanJob>, CoachError> {
        Ok(jobs::read_job(&self.store, &*self.clock, &id)?)
    }

    /// Records the selections of a plan the user confirmed in the meal history (later plans
    /// avoid repeating them) and keeps the staged copies it selects. Pass the job's result, or a
    /// version the user edited (e.g. an alternative chosen instead). Returns the meals recorded.
    pub fn confirm(&self, plan: MealPlanResult) -> Result<u32, CoachError> {
        Ok(service::confirm_meal_plan(
            &self.store,
            &*self.clock,
            &plan,
        )?)
    }

    /// Records one meal the user ate in the meal history. Throws `NotFound` for an unknown recipe.
    pub fn log(&self, meal: MealLog) -> Result<MealHistoryEntry, CoachError> {
        Ok(service::log_meal(&self.store, &*self.clock, &meal)?)
    }

    /// The meal history from `from` to `to` (`YYYY-MM-DD`, both included), by date and meal.
    pub fn history(&self, from: String, to: String) -> Result<Vec<MealHistoryEntry>, CoachError> {
        Ok(service::meal_history(&self.store, &from, &to)?)
    }

    /// Imports core recipes from a JSON array of recipes (the format of `docs/meals.md`),
    /// replacing core recipes with the same id; all or nothing. Returns how many were imported.
    /// Throws `InvalidArgument` naming the first invalid field.
    pub fn import_recipes(&self, json: String) -> Result<u32, CoachError> {
        Ok(service::import_recipes_json(
            &self.store,
            &*self.clock,
            &json,
        )?)
    }

    /// Saves a recipe to the user's book (an empty `id` gets a new one; an existing user recipe
    /// with the id is replaced). Returns the stored recipe.
    pub fn save_recipe(&self, recipe: Recipe) -> Result<Recipe, CoachError> {
        let mut ids = IdGenerator::from_entropy();
        Ok(service::save_recipe(
            &self.store,
            &*self.clock,
            &mut ids,
            recipe,
        )?)
    }

    /// The recipe with `id` (user, core or staged, hidden or not), or `None`.
    pub fn recipe(&self, id: String) -> Result<Option<Recipe>, CoachError> {
        Ok(service::recipe(&self.store, &id)?)
    }

    /// One page of the recipe book: `limit` (1 to 200) recipes from `offset`, of `source` (`None`:
    /// user and core recipes; `stage` lists the staged copies), hidden ones left out; user recipes
    /// first, then by title. `total` counts the whole list, for paging. Throws `InvalidArgument`
    /// for a `limit` out of range.
    #[uniffi::method(default(source = None))]
    pub fn list_recipes(
        &self,
        offset: u32,
        limit: u32,
        source: Option<RecipeSource>,
    ) -> Result<RecipePage, CoachError> {
        Ok(service::list_recipes(&self.store, source, offset, limit)?)
    }

    /// Searches user and core recipes (the built-in ones included, hidden ones left out) for
    /// `query`'s words in titles, descriptions, tags and ingredients, as a plan's candidate search
    /// does: recipes with every word first, then with any (user recipes before core ones, then by
    /// relevance); `no X` or `without X` leaves out recipes with X among their ingredients. Of
    /// `mealType` only when given; at most `limit` (1 to 100). A query without words lists every
    /// recipe. Throws `InvalidArgument` for a `limit` out of range or a query over 300
    /// characters.
    #[uniffi::method(default(meal_type = None, limit = 20))]
    pub fn search_recipes(
        &self,
        query: String,
        meal_type: Option<MealType>,
        limit: u32,
    ) -> Result<Vec<Recipe>, CoachError> {
        Ok(service::search_recipes(
            &self.store,
            &query,
            meal_type,
            limit,
        )?)
    }

    /// Deletes a recipe of the user's book (or a staged copy). Throws `NotFound` for an unknown
    /// id and `InvalidArgument` for a core recipe (use `hideRecipe`). The meal history keeps the
    /// meals eaten.
    pub fn delete_recipe(&self, id: String) -> Result<(), CoachError> {
        Ok(service::delete_recipe(&self.store, &id)?)
    }

    /// Hides a core recipe (built-in or imported) for this user: searches and plans leave it out
    /// until `unhideRecipe`; it stays hidden when a newer library upgrades the built-in set.
    /// Hiding it again does nothing. Throws `NotFound` for an id that names no core recipe.
    pub fn hide_recipe(&self, id: String) -> Result<(), CoachError> {
        Ok(service::hide_recipe(&self.store, &*self.clock, &id)?)
    }

    /// Shows a hidden recipe again; returns whether it was hidden.
    pub fn unhide_recipe(&self, id: String) -> Result<bool, CoachError> {
        Ok(service::unhide_recipe(&self.store, &id)?)
    }

    /// The ids of the hidden recipes, in id order (read each with `recipe`).
    pub fn hidden_recipes(&self) -> Result<Vec<String>, CoachError> {
        Ok(service::hidden_recipes(&self.store)?)
    }

    /// Stages a user-owned copy of a core recipe; it expires 72 h from now unless kept. Returns
    /// the copy (`source` `stage`, `originId` the core id). Throws `NotFound` for an unknown core
    /// recipe.
    pub fn stage_recipe(&self, core_recipe_id: String) -> Result<Recipe, CoachError> {
        let mut ids = IdGenerator::from_entropy();
        Ok(service::stage_recipe(
            &self.store,
            &*self.clock,
            &mut ids,
            &core_recipe_id,
        )?)
    }

    /// Keeps a staged copy: it no longer expires. Throws `NotFound` for an unknown staged copy.
    pub fn keep_staged(&self, id: String) -> Result<(), CoachError> {
        Ok(service::keep_staged_recipe(&self.store, &*self.clock, &id)?)
    }

    /// Deletes the staged copies that expired; returns how many. Call it now and then (e.g. on
    /// app start).
    pub fn cleanup_staged(&self) -> Result<u32, CoachError> {
        Ok(service::cleanup_staged_recipes(&self.store, &*self.clock)?)
    }

    /// The shopping list of a finished plan: every ingredient of its meals scaled to each slot's
    /// servings and summed by item (grams with kilograms, spoons with cups, cloves with cloves;
    /// amounts of different kinds are separate lines of one item), grouped by store section,
    /// each item with the meals that need it. A repeat of a meal-prep slot is bought once, at
    /// the prep slot. Pantry staples ([`Meals::set_pantry_staples`]) are left out and listed in
    /// `skippedStaples` unless `options.includeStaples`; `options.days` limits the list to some
    /// of the plan's days. Meals whose recipe is no longer stored (a staged copy that expired
    /// before the plan was confirmed: call [`Meals::confirm`] to keep them) are listed in
    /// `missingRecipes`. Rules: `docs/meals.md`, "Shopping list".
    ///
    /// Throws `NotFound` for an unknown job, `JobNotComplete` for a job without a plan (pending,
    /// running or failed), `InvalidArgument` naming `days[i]` for a date that is malformed, not
    /// a day of the plan, or repeated.
    ///
    /// Threading: reads only; callable from any thread (it is quick: no model).
    #[uniffi::method(default(options = None))]
    pub fn shopping_list(
        &self,
        job_id: String,
        options: Option<ShoppingListOptions>,
    ) -> Result<ShoppingList, CoachError> {
        Ok(service::shopping::shopping_list(
            &self.store,
            &*self.clock,
            &job_id,
            &options.unwrap_or_default(),
        )?)
    }

    /// The user's pantry staples (things always at home, e.g. salt, olive oil), in the order
    /// they were set. Shopping lists leave them out.
    pub fn pantry_staples(&self) -> Result<Vec<String>, CoachError> {
        Ok(service::shopping::pantry_staples(&self.store)?)
    }

    /// Replaces the user's pantry staples with `staples` (an empty list clears them) and returns
    /// them as stored: names trimmed, a name that matches an earlier one (case and plural
    /// ignored: `Onions` after `onion`) dropped. Throws `InvalidArgument` naming `staples[i]`
    /// for a blank name or one over 80 characters, or for more than 200 names; nothing is
    /// changed then. Staples are part of `data()` export, import and erase.
    pub fn set_pantry_staples(&self, staples: Vec<String>) -> Result<Vec<String>, CoachError> {
        Ok(service::shopping::set_pantry_staples(
            &self.store,
            &*self.clock,
            &staples,
        )?)
    }
}

impl Meals {
    /// Stores a new job and starts it on its own thread, stopped by `cancel`; its id and cell.
    fn start_plan(
        self: Arc<Self>,
        request: MealPlanRequest,
        listener: Option<Arc<dyn MealPlanListener>>,
        cancel: Arc<CancelToken>,
    ) -> Result<(String, Arc<TaskCell<MealPlanJob>>), CoachError> {
        let mut ids = IdGenerator::from_entropy();
        let lease = jobs::create_job(&self.store, &*self.clock, &mut ids, &request)?;
        let id = lease.id().to_string();
        let mut abandoned = lease.pending();
        let model = self.shared_model();
        let this = Arc::clone(&self);
        let cell = self.start(
            "coachcore-meals",
            cancel,
            move || {
                // The job's row reads `interrupted` once its lease is dropped (in other opens
                // of the file, once its stored lease has run out).
                abandoned.status = JobStatus::Failed;
                abandoned.error_code = Some("internal".into());
                abandoned.error_message = Some("the meal planning thread ended early".into());
                abandoned
            },
            move |cancel| {
                let sink = ListenerSink::new(listener, "meal plan listener");
                this.run_job(lease, &request, model, &sink, cancel, ids)
            },
        );
        Ok((id, cell))
    }

    fn run_job(
        &self,
        lease: JobLease,
        request: &MealPlanRequest,
        model: Option<SharedModel>,
        sink: &dyn PlanSink,
        cancel: &Arc<CancelToken>,
        mut ids: IdGenerator,
    ) -> MealPlanJob {
        let settings = PlanSettings::default();
        // One metered wrapper per job: breaker, one log line per call, usage.
        let metered = model.as_ref().map(|m| m.metered("meals"));
        let env = PlanEnv {
            store: &self.store,
            clock: &*self.clock,
            model: metered.as_ref().map(|m| m as &dyn LanguageModel),
            settings: &settings,
            cancel,
        };
        jobs::run_job(&env, &mut ids, lease, request, sink)
    }

    /// Runs a meal plan synchronously on the calling thread with `model` (instead of the one
    /// `model()` holds; `None` is the deterministic fallback), sending events to
    /// `sink`. The job is stored like one started with [`Meals::plan`]. For the CLI,
    /// the C API and Rust callers.
    pub fn plan_with(
        &self,
        request: MealPlanRequest,
        model: Option<Arc<dyn LanguageModel>>,
        sink: &dyn PlanSink,
        cancel: &Arc<CancelToken>,
    ) -> Result<MealPlanJob, CoachError> {
        self.plan_sync(request, model.map(SharedModel::plain), sink, cancel)
    }

    /// Runs a meal plan synchronously with the model `model()` holds,
    /// behind its breaker like [`Meals::plan`]; without one, the deterministic
    /// fallback. For the C API's `meals.plan`.
    pub(crate) fn plan_here(
        &self,
        request: MealPlanRequest,
        sink: &dyn PlanSink,
        cancel: &Arc<CancelToken>,
    ) -> Result<MealPlanJob, CoachError> {
        self.plan_sync(request, self.shared_model(), sink, cancel)
    }

    fn plan_sync(
        &self,
        request: MealPlanRequest,
        model: Option<SharedModel>,
        sink: &dyn PlanSink,
        cancel: &Arc<CancelToken>,
    ) -> Result<MealPlanJob, CoachError> {
        let mut ids = IdGenerator::from_entropy();
        let lease = jobs::create_job(&self.store, &*self.clock, &mut ids, &request)?;
        Ok(self.run_job(lease, &request, model, sink, cancel, ids))
    }

    /// A meal-plan request read from JSON (at most 256 KiB; the format of `docs/meals.md`).
    /// Throws `InvalidArgument` with the JSON path of the first problem.
    pub fn request_from_json(json: &str) -> Result<MealPlanRequest, CoachError> {
        validate::json_size("request JSON", json, validate::MAX_REQUEST_BYTES)?;
        crate::kernel::limits::check_json(json, &crate::kernel::limits::Caps::REQUEST)?;
        let request: MealPlanRequest = crate::kernel::error::parse_request(json)?;
        validate::request(&request)?;
        Ok(request)
    }
}
