//! [`Coach`], the app's entry object: it opens the database, shuts it down and hands out one
//! service object per concern (`planner()`, `assistant()`, `workouts()`, `meals()`,
//! `suggestions()`, `model()`, `data()`), each defined in the file of its concern.

use std::sync::Arc;

use crate::db::Store;
use crate::ffi::inner::CoachInner;
use crate::kernel::clock::{Clock, SystemClock};
use crate::kernel::error::CoachError;
use crate::plan::{self, SchemaSelection, SchemaVersion};

use super::assistant::{Assistant, Planner};
use super::data::UserData;
use super::llm::Models;
use super::meals::Meals;
use super::suggest::Suggestions;
use super::workout::Workouts;

/// How `Coach.openWithOptions` and `Coach.openInMemoryWithOptions` open a database. Every other
/// open uses the defaults.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct OpenOptions {
    /// Keep the library's built-in recipes in the database (default `true`): loaded on the
    /// first open, upgraded in place when a newer library carries a newer set (user recipes and
    /// recipes the app imported are never touched), and loaded again after `data().importAll` or
    /// `data().eraseAll`. `false` leaves them out: nothing is loaded or upgraded by this open
    /// (built-in recipes an earlier open loaded stay). For tests and evaluations whose recipes
    /// must be the only ones, on a new file.
    #[uniffi(default = true)]
    pub builtin_recipes: bool,
}

impl Default for OpenOptions {
    fn default() -> Self {
        OpenOptions {
            builtin_recipes: true,
        }
    }
}

/// The library's entry object: one per database file, shared freely between threads.
///
/// Open it once per file (`open`, `openEncrypted`, `openInMemory`) and keep it for the app's
/// lifetime. Its calls are grouped by concern in service objects: `planner()` (the user's todos,
/// events, habits and goals), `assistant()` (messages), `workouts()` (generated workouts,
/// today's plan, training plans and history), `meals()` (recipes, meal plans, the meal log),
/// `suggestions()` (changes to a training plan after a workout), `model()` (the on-device
/// language model) and `data()` (export, import, erase, encryption, integrity). Each accessor
/// returns a small object that shares this `Coach`'s database and model; keep it or ask again,
/// as convenient (two calls give equivalent objects).
///
/// Threading: short calls block for milliseconds (call them off the main thread); long ones
/// return a task handle or have an `...Async` form. Calls are serialized on the database
/// connection; every object may be used from any thread.
///
/// Lifetime: the database stays open while this object or any service object from it is alive,
/// until `shutdown()`; a service object may outlive the `Coach` (`Coach.open(path).planner()`
/// works). After `shutdown()` they all throw `Closed`.
#[derive(uniffi::Object)]
pub struct Coach {
    inner: Arc<CoachInner>,
}

impl std::fmt::Debug for Coach {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Coach")
            .field("store", &self.inner.store)
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
    /// `DatabaseCorrupt` (see `data().checkIntegrity()`). Missing folders above a new file are
    /// created (on a fresh iOS install, Application Support does not exist yet). Throws `Storage`
    /// if the file cannot be opened or its folder cannot be created (a file in the way, no
    /// permission; the message never contains the path) and `InvalidArgument` for an empty path.
    ///
    /// The library's built-in recipes are loaded on the first open (and upgraded in place by a
    /// newer library): see [`OpenOptions`] to leave them out.
    #[uniffi::constructor]
    pub fn open(db_path: String) -> Result<Arc<Coach>, CoachError> {
        Coach::open_with_options(db_path, OpenOptions::default())
    }

    /// Opens the database file at `db_path` as `open` does, with `options` (e.g. without the
    /// built-in recipes). Throws what `open` throws.
    #[uniffi::constructor]
    pub fn open_with_options(
        db_path: String,
        options: OpenOptions,
    ) -> Result<Arc<Coach>, CoachError> {
        Ok(Arc::new(Coach::with_store_options(
            Store::open(db_path)?,
            Arc::new(SystemClock),
            &options,
        )))
    }

    /// Opens a private in-memory database (nothing survives the object), with the built-in
    /// recipes. For previews and tests.
    #[uniffi::constructor]
    pub fn open_in_memory() -> Result<Arc<Coach>, CoachError> {
        Coach::open_in_memory_with_options(OpenOptions::default())
    }

    /// Opens a private in-memory database as `openInMemory` does, with `options`.
    #[uniffi::constructor]
    pub fn open_in_memory_with_options(options: OpenOptions) -> Result<Arc<Coach>, CoachError> {
        Ok(Arc::new(Coach::with_store_options(
            Store::open_in_memory()?,
            Arc::new(SystemClock),
            &options,
        )))
    }

    /// The planner: dry run, apply and undo of operations on todos, events, habits and goals,
    /// and its reads (an item, a week, the backlog, the audit log).
    pub fn planner(&self) -> Arc<Planner> {
        Planner::new(Arc::clone(&self.inner))
    }

    /// The assistant: messages in the user's words, answered with proposed operations, a
    /// question or a reply.
    pub fn assistant(&self) -> Arc<Assistant> {
        Assistant::new(Arc::clone(&self.inner))
    }

    /// Workouts: generated workouts and the workout catalog, today's plan, training plans,
    /// logged sessions and exercise history.
    pub fn workouts(&self) -> Arc<Workouts> {
        Workouts::new(Arc::clone(&self.inner))
    }

    /// Meals: recipes, meal plans and their jobs, the meal log.
    pub fn meals(&self) -> Arc<Meals> {
        Meals::new(Arc::clone(&self.inner))
    }

    /// Suggestions: changes to a training plan after a logged session, and the user's
    /// decisions on them.
    pub fn suggestions(&self) -> Arc<Suggestions> {
        Suggestions::new(Arc::clone(&self.inner))
    }

    /// The on-device language model every AI feature shares: set, load, unload, describe,
    /// prewarm.
    pub fn model(&self) -> Arc<Models> {
        Models::new(Arc::clone(&self.inner))
    }

    /// The user's data as a whole: export, import, erase, encryption, integrity.
    pub fn data(&self) -> Arc<UserData> {
        UserData::new(Arc::clone(&self.inner))
    }

    /// Closes the database now, for an app that must let go of the file (before deleting or
    /// replacing it, or when the user signs out). Running tasks are cancelled (their `wait`
    /// throws `Cancelled`; a meal-plan job ends `FAILED` with code `cancelled`), the call in
    /// progress on the database finishes, then the file is checkpointed and closed, and the model
    /// is let go. Afterwards every call of this `Coach` and of its service objects that reads or
    /// writes the database or runs the model throws `Closed` (accessors still return objects).
    /// Calling it again does nothing. Without it, the database closes when the `Coach` and every
    /// service object from it are released; in Kotlin an object nobody closed is released only
    /// when the garbage collector runs, so call `shutdown()` (or close the service objects too,
    /// `use {}`) where the file must be let go at a known point: before deleting or replacing it,
    /// at sign-out.
    pub fn shutdown(&self) {
        self.inner.shutdown();
    }
}

impl Coach {
    /// A `Coach` over an already opened store with a given clock (Rust callers and tests),
    /// without the built-in recipes (nothing is loaded; see [`Coach::with_store_options`]).
    pub fn with_store(store: Store, clock: Arc<dyn Clock>) -> Coach {
        Coach {
            inner: Arc::new(CoachInner::new(store, clock)),
        }
    }

    /// A `Coach` over an already opened store with a given clock and `options`: with
    /// `builtinRecipes`, the built-in recipes are loaded now when the file holds another version
    /// of them (a failure to load is logged, not thrown: see `docs/meals.md`).
    pub fn with_store_options(store: Store, clock: Arc<dyn Clock>, options: &OpenOptions) -> Coach {
        let mut inner = CoachInner::new(store, clock);
        inner.builtin_recipes = options.builtin_recipes;
        inner.refresh_builtin_recipes();
        Coach {
            inner: Arc::new(inner),
        }
    }
}

/// Chooses the LLM schema for a plan generation (spec 000): `override_version` if given; else
/// the only version in `supported` if there is exactly one; else the version with the smallest
/// estimated JSON size among `supported` (every version when empty), ties to `v2-flat`.
#[uniffi::export]
pub fn select_plan_schema(
    supported: Vec<SchemaVersion>,
    override_version: Option<SchemaVersion>,
) -> SchemaSelection {
    plan::select_schema(&supported, override_version)
}

/// The library's version, e.g. `0.1.0`.
#[uniffi::export]
pub fn library_version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}
