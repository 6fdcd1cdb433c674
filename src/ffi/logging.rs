//! The library's log as the app receives it: the [`LogListener`] an app implements and
//! [`set_log_listener`]. The bridge from the `log` crate is `crate::kernel::logging`.

use std::sync::Arc;

use crate::kernel::logging::{LogLevel, LogListener};

/// Sends the library's log records at `level` and above to `listener` (`None` stops them). If
/// the process already has another `log` logger (a Rust app), records go there instead.
///
/// Threading: records are delivered on the thread that logs them (often a library worker
/// thread); the listener must be quick and must not call back into the library. A listener that
/// throws is not called again until the next `setLogListener`.
#[uniffi::export]
pub fn set_log_listener(listener: Option<Arc<dyn LogListener>>, level: LogLevel) {
    crate::kernel::logging::install(listener, level);
}
