//! The one task implementation behind the exported handles (`AssistantTask`, `MealPlanTask`,
//! `WorkoutTask`: [`TaskHandle`] and [`export_task!`]) and the async calls ([`start`],
//! [`run_async`], [`ListenerSink`]):
//! - [`TaskCell`]: its cancel token and its outcome, set once by the worker thread and read by any
//!   number of `wait` calls from any thread;
//! - [`Finisher`]: the worker's drop guard, which finishes the task even when the worker never
//!   returns an outcome (a panic, a thread that could not start), so `wait` cannot hang;
//! - [`Guarded`] (from `kernel/guard.rs`, re-exported here for the exported calls): the one
//!   `catch_unwind` adapter around every callback an app implements (listeners in Swift, Kotlin or
//!   Python). UniFFI turns an exception thrown in a callback into a Rust panic; the adapter catches
//!   it, logs it once, and ignores that callback for the rest of the task.
//!
//! A handle cancels its work when the app drops it (as matrix-rust-sdk's `TaskHandle` does): the
//! worker holds the cell, never the handle, so the handle's `Drop` runs when the app lets go.
//!
//! The async calls (`assistant().sendAsync`, ...) need no async runtime: [`spawn_task`] runs the same
//! blocking work on its own thread, and a [`TaskFuture`] (a one-shot future: the cell's mutex
//! plus the wakers of its pollers) completes when the cell finishes. Dropping the future before
//! then (a cancelled coroutine or asyncio task) cancels the work through the cell's token.

use std::future::Future;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::pin::Pin;
use std::sync::{Arc, Condvar, Mutex};
use std::task::{Context, Poll, Waker};

use crate::kernel::error::{CoachError, Error};
pub(crate) use crate::kernel::guard::Guarded;
pub use crate::kernel::guard::ListenerError;
use crate::llm::CancelToken;

/// A task's cancel token and its outcome once finished.
pub(crate) struct TaskCell<T> {
    pub(crate) cancel: Arc<CancelToken>,
    outcome: Mutex<Option<T>>,
    finished: Condvar,
    /// The futures waiting for the outcome (registered under the `outcome` lock).
    wakers: Mutex<Vec<Waker>>,
}

impl<T: Clone> TaskCell<T> {
    /// An unfinished task.
    #[cfg(test)]
    pub(crate) fn new() -> Arc<Self> {
        Self::with_cancel(CancelToken::new())
    }

    /// An unfinished task stopped by `cancel` (a token the app holds too).
    pub(crate) fn with_cancel(cancel: Arc<CancelToken>) -> Arc<Self> {
        Arc::new(TaskCell {
            cancel,
            outcome: Mutex::new(None),
            finished: Condvar::new(),
            wakers: Mutex::new(Vec::new()),
        })
    }

    /// Sets the outcome (the first one wins) and wakes every waiter, blocked or polling.
    pub(crate) fn finish(&self, outcome: T) {
        let mut guard = self.outcome.lock().unwrap_or_else(|p| p.into_inner());
        if guard.is_none() {
            *guard = Some(outcome);
        }
        self.finished.notify_all();
        let wakers = std::mem::take(&mut *self.wakers.lock().unwrap_or_else(|p| p.into_inner()));
        drop(guard);
        for waker in wakers {
            waker.wake();
        }
    }

    /// The outcome if set; otherwise `waker` is woken when it is.
    fn poll_outcome(&self, waker: &Waker) -> Option<T> {
        let guard = self.outcome.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(outcome) = guard.as_ref() {
            return Some(outcome.clone());
        }
        let mut wakers = self.wakers.lock().unwrap_or_else(|p| p.into_inner());
        if !wakers.iter().any(|w| w.will_wake(waker)) {
            wakers.push(waker.clone());
        }
        None
    }

    /// Blocks until the outcome is set, then returns it (the same to every caller).
    pub(crate) fn wait(&self) -> T {
        let mut guard = self.outcome.lock().unwrap_or_else(|p| p.into_inner());
        loop {
            if let Some(outcome) = guard.as_ref() {
                return outcome.clone();
            }
            guard = self.finished.wait(guard).unwrap_or_else(|p| p.into_inner());
        }
    }

    /// Whether the outcome is set.
    pub(crate) fn is_finished(&self) -> bool {
        self.outcome
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .is_some()
    }
}

/// What a [`Finisher`] does when it is dropped without an outcome: tells the listener the task
/// ended (if it has to) and returns the outcome to finish with.
pub(crate) type Abandoned<T> = Box<dyn FnOnce() -> T + Send>;

/// The worker's guard over its task: [`Finisher::finish`] sets the outcome; dropped without it
/// (the worker panicked, or the closure holding it was never run because the thread could not
/// start) it finishes the task with what its `abandoned` function returns. Either way `wait`
/// returns.
pub(crate) struct Finisher<T: Clone> {
    cell: Arc<TaskCell<T>>,
    abandoned: Option<Abandoned<T>>,
}

impl<T: Clone> Finisher<T> {
    /// A guard over `cell` that finishes it with `abandoned()` unless [`Finisher::finish`] runs.
    pub(crate) fn new(cell: &Arc<TaskCell<T>>, abandoned: Abandoned<T>) -> Self {
        Finisher {
            cell: Arc::clone(cell),
            abandoned: Some(abandoned),
        }
    }

    /// The task's cancel token.
    pub(crate) fn cancel(&self) -> &Arc<CancelToken> {
        &self.cell.cancel
    }

    /// Finishes the task with `outcome`.
    pub(crate) fn finish(mut self, outcome: T) {
        self.abandoned = None;
        self.cell.finish(outcome);
    }
}

impl<T: Clone> Drop for Finisher<T> {
    fn drop(&mut self) {
        if let Some(abandoned) = self.abandoned.take() {
            // The listener call inside is guarded; a panic here anyway must not skip `finish`.
            let outcome = catch_unwind(AssertUnwindSafe(abandoned));
            match outcome {
                Ok(outcome) => self.cell.finish(outcome),
                Err(_) => log::error!(target: "coachcore::ffi",
                    "a task's fallback outcome panicked; the task stays unfinished"),
            }
        }
    }
}

/// Runs `work` on a new library thread named `thread_name` and finishes `cell` with what it
/// returns; with `abandoned()` if it panics or the thread cannot start (see [`Finisher`]).
pub(crate) fn spawn_task<T: Clone + Send + 'static>(
    cell: &Arc<TaskCell<T>>,
    thread_name: &str,
    abandoned: Abandoned<T>,
    work: impl FnOnce(&Arc<CancelToken>) -> T + Send + 'static,
) {
    let guard = Finisher::new(cell, abandoned);
    // If the thread cannot start, the closure (and the guard) is dropped: the task finishes.
    let _ = std::thread::Builder::new()
        .name(thread_name.into())
        .spawn(move || {
            let outcome = work(guard.cancel());
            guard.finish(outcome);
        });
}

/// The outcome of a task as a future, for the async calls: ready when the cell finishes (on the
/// worker thread; nothing blocks the poller). Dropped before that, it cancels the task.
pub(crate) struct TaskFuture<T: Clone> {
    cell: Arc<TaskCell<T>>,
}

impl<T: Clone> TaskFuture<T> {
    /// The future of `cell`'s outcome.
    pub(crate) fn new(cell: Arc<TaskCell<T>>) -> Self {
        TaskFuture { cell }
    }
}

impl<T: Clone> Future for TaskFuture<T> {
    type Output = T;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<T> {
        match self.cell.poll_outcome(cx.waker()) {
            Some(outcome) => Poll::Ready(outcome),
            None => Poll::Pending,
        }
    }
}

impl<T: Clone> Drop for TaskFuture<T> {
    fn drop(&mut self) {
        if !self.cell.is_finished() {
            self.cell.cancel.cancel();
        }
    }
}

/// Starts `work` on a new library thread named `thread_name`, stopped by `cancel`; the cell it
/// finishes (with `abandoned()` if it panics or the thread cannot start).
pub(crate) fn start<T: Clone + Send + 'static>(
    thread_name: &str,
    cancel: Arc<CancelToken>,
    abandoned: impl FnOnce() -> T + Send + 'static,
    work: impl FnOnce(&Arc<CancelToken>) -> T + Send + 'static,
) -> Arc<TaskCell<T>> {
    let cell = TaskCell::with_cancel(cancel);
    spawn_task(&cell, thread_name, Box::new(abandoned), work);
    cell
}

/// The outcome of a task whose thread ended without one (`what`: "assistant", "workout", ...).
pub(crate) fn abandoned_error<T>(what: &str) -> Result<T, CoachError> {
    Err(CoachError::from(Error::Internal(format!(
        "the {what} thread ended without a result"
    ))))
}

/// Runs `work` on a library thread named `coachcore-<what>` and awaits its outcome: the body of
/// every `...Async` call without a task handle. Dropping the future cancels `cancel`.
pub(crate) async fn run_async<T: Clone + Send + 'static>(
    what: &'static str,
    cancel: Arc<CancelToken>,
    work: impl FnOnce(&Arc<CancelToken>) -> Result<T, CoachError> + Send + 'static,
) -> Result<T, CoachError> {
    let cell = start(
        &format!("coachcore-{what}"),
        cancel,
        move || abandoned_error(what),
        work,
    );
    TaskFuture::new(cell).await
}

/// An app's listener (if any) behind the panic guard, as a feature's event sink: each feature
/// implements its sink trait for `ListenerSink<dyn ItsListener>` in one line. A listener that
/// throws is ignored for the rest of the task, which goes on.
pub(crate) struct ListenerSink<L: ?Sized>(pub(crate) Guarded<L>);

impl<L: ?Sized> ListenerSink<L> {
    /// The sink of `listener`, named `what` in the warning logged when it throws.
    pub(crate) fn new(listener: Option<Arc<L>>, what: &'static str) -> Self {
        ListenerSink(Guarded::new(listener, what))
    }
}

/// The one implementation behind every exported task handle (`AssistantTask`, `WorkoutTask`,
/// `MealPlanTask`, generated by [`export_task!`]): the cell, an optional id, and cancel-on-drop.
pub(crate) struct TaskHandle<T: Clone> {
    cell: Arc<TaskCell<T>>,
    id: Option<String>,
}

impl<T: Clone> TaskHandle<T> {
    /// A handle over `cell`.
    pub(crate) fn new(cell: Arc<TaskCell<T>>, id: Option<String>) -> Self {
        TaskHandle { cell, id }
    }

    /// Asks the work to stop.
    pub(crate) fn cancel(&self) {
        self.cell.cancel.cancel();
    }

    /// Blocks until the outcome is set.
    pub(crate) fn wait(&self) -> T {
        self.cell.wait()
    }

    /// Whether the outcome is set.
    pub(crate) fn is_finished(&self) -> bool {
        self.cell.is_finished()
    }

    /// The task's id, if it has one.
    pub(crate) fn id(&self) -> Option<&str> {
        self.id.as_deref()
    }
}

impl<T: Clone> Drop for TaskHandle<T> {
    fn drop(&mut self) {
        self.cell.cancel.cancel();
    }
}

/// Emits the `Debug` impl and the three exported methods (`cancel`, `wait`, `isFinished`) of a
/// task handle type declared as `pub struct Name { handle: TaskHandle<Outcome> }`, with each
/// method's doc comment given as a string (they become the Swift and Kotlin docs).
macro_rules! export_task {
    ($name:ident => $out:ty, cancel: $cancel_doc:tt, wait: $wait_doc:tt, finished: $finished_doc:tt) => {
        impl std::fmt::Debug for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.debug_struct(stringify!($name))
                    .field("id", &self.handle.id())
                    .field("finished", &self.handle.is_finished())
                    .finish_non_exhaustive()
            }
        }

        #[uniffi::export]
        impl $name {
            #[doc = $cancel_doc]
            pub fn cancel(&self) {
                self.handle.cancel();
            }

            #[doc = $wait_doc]
            pub fn wait(&self) -> $out {
                self.handle.wait()
            }

            #[doc = $finished_doc]
            pub fn is_finished(&self) -> bool {
                self.handle.is_finished()
            }
        }
    };
}
pub(crate) use export_task;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_waiter_gets_the_first_outcome() {
        let cell = TaskCell::<u32>::new();
        let waiters: Vec<_> = (0..3)
            .map(|_| {
                let c = Arc::clone(&cell);
                std::thread::spawn(move || c.wait())
            })
            .collect();
        assert!(!cell.is_finished());
        cell.finish(7);
        cell.finish(8);
        for w in waiters {
            assert_eq!(w.join().unwrap(), 7);
        }
        assert!(cell.is_finished());
        assert_eq!(cell.wait(), 7);
    }

    #[test]
    fn a_worker_that_panics_still_finishes_its_task() {
        let cell = TaskCell::<Result<u32, String>>::new();
        let guard = Finisher::new(&cell, Box::new(|| Err("abandoned".to_string())));
        let worker = std::thread::spawn(move || {
            let _guard = guard;
            panic!("worker bug");
        });
        assert!(worker.join().is_err());
        assert_eq!(cell.wait(), Err("abandoned".to_string()));
        // Finished normally, the fallback is not used.
        let cell = TaskCell::<Result<u32, String>>::new();
        Finisher::new(&cell, Box::new(|| Err("abandoned".into()))).finish(Ok(3));
        assert_eq!(cell.wait(), Ok(3));
        // A closure that never runs (a thread that could not start) drops its guard too.
        let cell = TaskCell::<Result<u32, String>>::new();
        let guard = Finisher::new(&cell, Box::new(|| Err("not started".into())));
        let never = move || guard.finish(Ok(1));
        drop(never);
        assert_eq!(cell.wait(), Err("not started".to_string()));
    }

    /// Polls `fut` to completion on this thread, parking between wakes (a minimal executor).
    fn block_on<F: Future>(fut: F) -> F::Output {
        struct Unpark(std::thread::Thread);
        impl std::task::Wake for Unpark {
            fn wake(self: Arc<Self>) {
                self.0.unpark();
            }
        }
        let waker = Waker::from(Arc::new(Unpark(std::thread::current())));
        let mut cx = Context::from_waker(&waker);
        let mut fut = std::pin::pin!(fut);
        loop {
            if let Poll::Ready(out) = fut.as_mut().poll(&mut cx) {
                return out;
            }
            std::thread::park();
        }
    }

    #[test]
    fn the_future_completes_from_the_worker_thread() {
        let cell = TaskCell::<u32>::new();
        let gate = Arc::new((Mutex::new(false), Condvar::new()));
        let open = Arc::clone(&gate);
        spawn_task(&cell, "test-worker", Box::new(|| 0), move |_| {
            let (lock, cv) = &*open;
            let mut go = lock.lock().unwrap();
            while !*go {
                go = cv.wait(go).unwrap();
            }
            42
        });
        let fut = TaskFuture::new(Arc::clone(&cell));
        // Pending while the worker waits: polling does not block.
        let waker = Waker::noop();
        let mut fut = Box::pin(fut);
        assert!(fut
            .as_mut()
            .poll(&mut Context::from_waker(waker))
            .is_pending());
        *gate.0.lock().unwrap() = true;
        gate.1.notify_all();
        assert_eq!(block_on(fut), 42);
        assert!(
            !cell.cancel.is_cancelled(),
            "a finished future cancels nothing"
        );
    }

    #[test]
    fn dropping_the_future_cancels_the_work() {
        let cell = TaskCell::<Result<u32, String>>::new();
        spawn_task(
            &cell,
            "test-worker",
            Box::new(|| Err("abandoned".into())),
            |cancel| {
                while !cancel.is_cancelled() {
                    std::thread::sleep(std::time::Duration::from_millis(1));
                }
                Err("cancelled".into())
            },
        );
        let mut fut = Box::pin(TaskFuture::new(Arc::clone(&cell)));
        assert!(fut
            .as_mut()
            .poll(&mut Context::from_waker(Waker::noop()))
            .is_pending());
        drop(fut);
        assert_eq!(cell.wait(), Err("cancelled".to_string()));
        // A worker that panics finishes the future with the fallback outcome.
        let cell = TaskCell::<Result<u32, String>>::new();
        spawn_task(
            &cell,
            "test-worker",
            Box::new(|| Err("abandoned".into())),
            |_| panic!("worker bug"),
        );
        assert_eq!(
            block_on(TaskFuture::new(cell)),
            Err("abandoned".to_string())
        );
    }
}
