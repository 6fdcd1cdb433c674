//! The one `catch_unwind` adapter around every callback an app implements (listeners in Swift,
//! Kotlin or Python, the log listener, a token listener): UniFFI turns an exception thrown in a
//! callback into a Rust panic; [`Guarded`] catches it, logs it once, and ignores that callback
//! from then on. It sits in the kernel because every floor that calls an app back uses it.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// What a listener method may throw (Swift `throws`, a Kotlin or Python exception): the library
/// logs it once (target `coachcore::ffi`), stops calling that listener for the rest of the task,
/// and the task goes on. Throwing any other error is treated the same way.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, uniffi::Error)]
pub enum ListenerError {
    /// The listener failed; `reason` says why (for the log).
    #[error("the listener failed: {reason}")]
    Failed {
        /// Why, in the app's words.
        reason: String,
    },
}

impl From<uniffi::UnexpectedUniFFICallbackError> for ListenerError {
    fn from(e: uniffi::UnexpectedUniFFICallbackError) -> Self {
        ListenerError::Failed { reason: e.reason }
    }
}

/// What a guarded callback returned: whether it failed (a listener method returning an error).
pub(crate) trait CallbackOutcome {
    /// Whether the callback failed.
    fn failed(&self) -> bool;
}

impl CallbackOutcome for () {
    fn failed(&self) -> bool {
        false
    }
}

impl<E> CallbackOutcome for Result<(), E> {
    fn failed(&self) -> bool {
        self.is_err()
    }
}

/// An app callback behind the one `catch_unwind` adapter: [`Guarded::call`] runs it and catches a
/// panic (a Swift, Kotlin or Python exception becomes one in UniFFI). After the first panic the
/// callback is not called again, and one warning is logged (target `coachcore::ffi`). A listener
/// method that returns a [`ListenerError`] (a Swift `throws`) counts as a panic.
pub(crate) struct Guarded<L: ?Sized> {
    inner: Option<Arc<L>>,
    what: &'static str,
    failed: AtomicBool,
}

impl<L: ?Sized> Guarded<L> {
    /// Guards `inner` (`None`: every call does nothing); `what` names it in the log
    /// (`"assistant listener"`).
    pub(crate) fn new(inner: Option<Arc<L>>, what: &'static str) -> Self {
        Guarded {
            inner,
            what,
            failed: AtomicBool::new(false),
        }
    }

    /// Calls `f` with the callback unless there is none or it already failed once (panicked, or
    /// returned an error).
    pub(crate) fn call<R: CallbackOutcome>(&self, f: impl FnOnce(&L) -> R) {
        let Some(inner) = self.inner.as_deref() else {
            return;
        };
        if self.failed.load(Ordering::Acquire) {
            return;
        }
        let failed = catch_unwind(AssertUnwindSafe(|| f(inner))).map_or(true, |r| r.failed());
        if failed && !self.failed.swap(true, Ordering::AcqRel) {
            log::warn!(target: "coachcore::ffi",
                "the {} panicked or threw; it is not called again for this task", self.what);
        }
    }

    /// Whether the callback failed (and is now ignored).
    #[cfg(test)]
    pub(crate) fn has_failed(&self) -> bool {
        self.failed.load(Ordering::Acquire)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicU32;

    trait Listener: Send + Sync {
        fn on(&self, n: u32);
    }

    struct Throws(AtomicU32);

    impl Listener for Throws {
        fn on(&self, _: u32) {
            self.0.fetch_add(1, Ordering::SeqCst);
            panic!("listener bug");
        }
    }

    #[test]
    fn a_panicking_callback_is_called_once_then_ignored() {
        let l = Arc::new(Throws(AtomicU32::new(0)));
        let g: Guarded<dyn Listener> = Guarded::new(Some(l.clone() as Arc<dyn Listener>), "test");
        assert!(!g.has_failed());
        for n in 0..3 {
            g.call(|l| l.on(n));
        }
        assert_eq!(
            l.0.load(Ordering::SeqCst),
            1,
            "ignored after the first panic"
        );
        assert!(g.has_failed());
        let none: Guarded<dyn Listener> = Guarded::new(None, "none");
        none.call(|l| l.on(0));
        assert!(!none.has_failed());
    }
}
