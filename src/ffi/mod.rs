//! The app-facing surface exported through UniFFI (Swift, Kotlin, Python). Thin by rule: each
//! exported method delegates in a line or two to a service; no logic lives here.

mod coach;
mod suggest;

pub use coach::{library_version, Coach};
pub use suggest::evaluate_exercise;
