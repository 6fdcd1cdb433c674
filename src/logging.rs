//! The library's log, delivered to the app. Records carry codes, counts, durations and ids, never
//! user content. Apps receive them through a [`LogListener`] (Swift/Kotlin, exported from
//! `ffi/logging.rs`) or any `log` logger (Rust). This module is the bridge from the `log` crate to
//! the listener.

use std::sync::{Arc, OnceLock, RwLock};

pub use crate::ffi::logging::{set_log_listener, LogListener};
use crate::ffi::task::Guarded;

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
