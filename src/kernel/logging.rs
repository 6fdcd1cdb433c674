//! The library's log, delivered to the app. Records carry codes, counts, durations and ids, never
//! user content. Apps receive them through a [`LogListener`] (Swift/Kotlin; installed with
//! `setLogListener`, `ffi/logging.rs`) or any `log` logger (Rust). This module is the bridge from
//! the `log` crate to the listener, and defines the listener it calls.

use std::sync::{Arc, OnceLock, RwLock};

use crate::kernel::guard::Guarded;

/// Severity of a log record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, uniffi::Enum)]
pub enum LogLevel {
    /// Something failed.
    Error,
    /// Something unexpected that the library handled.
    Warn,
    /// One line per significant operation (e.g. a model request).
    Info,
    /// Details for debugging.
    Debug,
}

/// Receives the library's log records.
#[uniffi::export(with_foreign)]
pub trait LogListener: Send + Sync {
    /// One record: its level, the module it comes from, and the message.
    fn on_log(&self, level: LogLevel, target: String, message: String);
}

struct Bridge {
    /// The app's listener behind the panic guard: one that throws is not called again until
    /// `set_log_listener` installs one anew.
    listener: RwLock<Option<Arc<Guarded<dyn LogListener>>>>,
}

impl log::Log for Bridge {
    fn enabled(&self, metadata: &log::Metadata<'_>) -> bool {
        metadata.target().starts_with("coachcore")
    }

    fn log(&self, record: &log::Record<'_>) {
        if !self.enabled(record.metadata()) {
            return;
        }
        let level = match record.level() {
            log::Level::Error => LogLevel::Error,
            log::Level::Warn => LogLevel::Warn,
            log::Level::Info => LogLevel::Info,
            log::Level::Debug | log::Level::Trace => LogLevel::Debug,
        };
        let listener = self
            .listener
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .clone();
        if let Some(l) = listener {
            l.call(|l| {
                l.on_log(
                    level,
                    record.target().to_string(),
                    record.args().to_string(),
                )
            });
        }
    }

    fn flush(&self) {}
}

static BRIDGE: OnceLock<&'static Bridge> = OnceLock::new();

/// Installs the bridge once (unless the process already has another `log` logger, which then
/// receives the records), points it at `listener` and sets the level.
pub(crate) fn install(listener: Option<Arc<dyn LogListener>>, level: LogLevel) {
    let bridge = BRIDGE.get_or_init(|| {
        let b: &'static Bridge = Box::leak(Box::new(Bridge {
            listener: RwLock::new(None),
        }));
        // Fails only if another logger is installed; then that logger receives the records.
        let _ = log::set_logger(b);
        b
    });
    *bridge.listener.write().unwrap_or_else(|p| p.into_inner()) =
        listener.map(|l| Arc::new(Guarded::new(Some(l), "log listener")));
    log::set_max_level(match level {
        LogLevel::Error => log::LevelFilter::Error,
        LogLevel::Warn => log::LevelFilter::Warn,
        LogLevel::Info => log::LevelFilter::Info,
        LogLevel::Debug => log::LevelFilter::Debug,
    });
}

/// Test support: what the code under test logs. The listener is process-wide and tests run in
/// parallel, so every test that looks at the log goes through [`capture::logged`], which keeps
/// each thread's records apart.
#[cfg(test)]
pub(crate) mod capture {
    use std::cell::RefCell;
    use std::sync::{Arc, Once};

    use super::{LogLevel, LogListener};

    /// A record as the app's listener receives it.
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub(crate) struct Record {
        pub level: LogLevel,
        pub target: String,
        pub message: String,
    }

    thread_local! {
        static RECORDS: RefCell<Option<Vec<Record>>> = const { RefCell::new(None) };
    }

    /// Keeps the records of the threads that are inside [`logged`].
    struct ToThread;

    impl LogListener for ToThread {
        fn on_log(&self, level: LogLevel, target: String, message: String) {
            RECORDS.with(|r| {
                if let Some(records) = r.borrow_mut().as_mut() {
                    records.push(Record {
                        level,
                        target,
                        message,
                    });
                }
            });
        }
    }

    /// Runs `f` and returns what it logged on this thread, at every level.
    pub(crate) fn logged<R>(f: impl FnOnce() -> R) -> (R, Vec<Record>) {
        static INSTALL: Once = Once::new();
        INSTALL.call_once(|| super::install(Some(Arc::new(ToThread)), LogLevel::Debug));
        RECORDS.with(|r| *r.borrow_mut() = Some(Vec::new()));
        let out = f();
        let records = RECORDS.with(|r| r.borrow_mut().take()).unwrap_or_default();
        (out, records)
    }
}
