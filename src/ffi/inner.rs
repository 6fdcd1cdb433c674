//! [`CoachInner`], what a `Coach` and the service objects it hands out share, and
//! `service_object!`, the common part of every service object type.

use std::sync::{Arc, Mutex, RwLock, Weak};

use crate::db::Store;
use crate::ffi::task::{self, TaskCell};
use crate::kernel::clock::Clock;
use crate::kernel::error::{CoachError, Error};
use crate::llm::metered::SharedModel;
use crate::llm::{CancelToken, LanguageModel};
use crate::suggest::service::AiSuggestionSource;

/// What a `Coach` and its service objects share: the database, the clock, the model and the
/// tasks to cancel at shutdown.
pub struct CoachInner {
    pub(crate) store: Store,
    pub(crate) clock: Arc<dyn Clock>,
    ai: RwLock<Option<Arc<dyn AiSuggestionSource>>>,
    /// The model every feature shares, with its circuit breaker, set by `model().set`.
    model: RwLock<Option<SharedModel>>,
    /// The cancel tokens of the tasks started through this `Coach` (cancelled by `shutdown`).
    tasks: Mutex<Vec<Weak<CancelToken>>>,
    /// The built-in recipes are kept loaded (the open option `builtinRecipes`): loaded on open
    /// and again after `data().importAll` and `data().eraseAll`.
    pub(crate) builtin_recipes: bool,
}

impl std::fmt::Debug for CoachInner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CoachInner")
            .field("store", &self.store)
            .finish_non_exhaustive()
    }
}

/// The shared parts of a service object type declared as `pub struct Name { inner:
/// Arc<CoachInner> }`: its constructor from the `Coach`, `Deref` to [`CoachInner`] (so its
/// methods read `self.store`, `self.clock`) and `Debug`.
macro_rules! service_object {
    ($name:ident) => {
        impl $name {
            pub(crate) fn new(inner: Arc<crate::ffi::inner::CoachInner>) -> Arc<Self> {
                Arc::new($name { inner })
            }
        }

        impl std::ops::Deref for $name {
            type Target = crate::ffi::inner::CoachInner;

            fn deref(&self) -> &Self::Target {
                &self.inner
            }
        }

        impl std::fmt::Debug for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.debug_struct(stringify!($name)).finish_non_exhaustive()
            }
        }
    };
}
pub(crate) use service_object;

impl CoachInner {
    /// A new shared state over `store`.
    pub(crate) fn new(store: Store, clock: Arc<dyn Clock>) -> Self {
        CoachInner {
            store,
            clock,
            ai: RwLock::new(None),
            model: RwLock::new(None),
            tasks: Mutex::new(Vec::new()),
            builtin_recipes: false,
        }
    }

    /// Loads the built-in recipes when this `Coach` keeps them and the file holds another
    /// version. A failure (a read-only or damaged file, a full disk) is logged and leaves the
    /// recipes as they were: the next open tries again.
    pub(crate) fn refresh_builtin_recipes(&self) {
        if !self.builtin_recipes {
            return;
        }
        if let Err(e) =
            crate::meals::service::builtin::ensure_builtin_recipes(&self.store, &*self.clock)
        {
            log::warn!(target: "coachcore::meals", "the built-in recipes were not loaded: {e}");
        }
    }

    /// `Closed` after `shutdown()`.
    pub(crate) fn check_open(&self) -> Result<(), CoachError> {
        if self.store.is_closed() {
            return Err(Error::Closed.into());
        }
        Ok(())
    }

    /// Starts a task (see [`task::start`]) and remembers its token for `shutdown`.
    pub(crate) fn start<T: Clone + Send + 'static>(
        &self,
        thread_name: &str,
        cancel: Arc<CancelToken>,
        abandoned: impl FnOnce() -> T + Send + 'static,
        work: impl FnOnce(&Arc<CancelToken>) -> T + Send + 'static,
    ) -> Arc<TaskCell<T>> {
        self.track(&cancel);
        task::start(thread_name, cancel, abandoned, work)
    }

    /// [`task::run_async`], its token remembered for `shutdown`.
    pub(crate) async fn run_async<T: Clone + Send + 'static>(
        &self,
        what: &'static str,
        cancel: Option<Arc<CancelToken>>,
        work: impl FnOnce(&Arc<CancelToken>) -> Result<T, CoachError> + Send + 'static,
    ) -> Result<T, CoachError> {
        let cancel = cancel.unwrap_or_default();
        self.track(&cancel);
        task::run_async(what, cancel, work).await
    }

    fn track(&self, cancel: &Arc<CancelToken>) {
        let mut tasks = self.tasks.lock().unwrap_or_else(|p| p.into_inner());
        tasks.retain(|t| t.strong_count() > 0);
        tasks.push(Arc::downgrade(cancel));
    }

    /// Cancels the running tasks, closes the database (after the call holding it) and lets the
    /// model go: `Coach::shutdown`.
    pub(crate) fn shutdown(&self) {
        self.cancel_tasks();
        self.store.close();
        self.set_ai_source(None);
        self.set_shared_model(None);
    }

    fn cancel_tasks(&self) {
        let tasks = std::mem::take(&mut *self.tasks.lock().unwrap_or_else(|p| p.into_inner()));
        for cancel in tasks.iter().filter_map(Weak::upgrade) {
            cancel.cancel();
        }
    }

    /// Sets (or with `None` removes) the AI suggestion source.
    pub(crate) fn set_ai_source(&self, source: Option<Arc<dyn AiSuggestionSource>>) {
        *self.ai.write().unwrap_or_else(|p| p.into_inner()) = source;
    }

    pub(crate) fn set_shared_model(&self, shared: Option<SharedModel>) {
        *self.model.write().unwrap_or_else(|p| p.into_inner()) = shared;
    }

    /// The model every feature shares, with its breaker, if one is set.
    pub(crate) fn shared_model(&self) -> Option<SharedModel> {
        self.model.read().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// The assistant's model, if one is set.
    pub(crate) fn language_model(&self) -> Option<Arc<dyn LanguageModel>> {
        self.shared_model().map(|s| s.model)
    }

    pub(crate) fn ai_source(&self) -> Option<Arc<dyn AiSuggestionSource>> {
        self.ai.read().unwrap_or_else(|p| p.into_inner()).clone()
    }
}
