//! The state every background task handle shares (`AssistantTask`, `MealPlanTask`,
//! `WorkoutTask`): its cancel token and its outcome, set once by the worker thread and read by
//! any number of `wait` calls from any thread.

use std::sync::{Arc, Condvar, Mutex};

use crate::llm::CancelToken;

/// A task's cancel token and its outcome once finished.
pub(crate) struct TaskCell<T> {
    pub(crate) cancel: Arc<CancelToken>,
    outcome: Mutex<Option<T>>,
    finished: Condvar,
}

impl<T: Clone> TaskCell<T> {
    /// An unfinished task.
    pub(crate) fn new() -> Self {
        TaskCell {
            cancel: CancelToken::new(),
            outcome: Mutex::new(None),
            finished: Condvar::new(),
        }
    }

    /// Sets the outcome (the first one wins) and wakes every waiter.
    pub(crate) fn finish(&self, outcome: T) {
        let mut guard = self.outcome.lock().unwrap_or_else(|p| p.into_inner());
        if guard.is_none() {
            *guard = Some(outcome);
        }
        self.finished.notify_all();
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_waiter_gets_the_first_outcome() {
        let cell = Arc::new(TaskCell::<u32>::new());
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
}
