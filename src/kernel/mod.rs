//! The shared kernel: what several floors use, at the bottom of the crate. It imports nothing of
//! the crate above it (ARCHITECTURE.md, "Floors"): a lower floor's error converts into [`Error`]
//! by a `From` impl written in that floor (`db` for SQLite's, `llm` for a model call's).
//!
//! | file | what |
//! |---|---|
//! | `error/` | the internal [`Error`], the public [`CoachError`] and the one mapping between them |
//! | `clock.rs` | injectable "now" |
//! | `date.rs` | civil dates, days of the week, `HH:MM` times of day |
//! | `guard.rs` | the one `catch_unwind` adapter around every app callback |
//! | `ids.rs` | UUID-shaped ids from a seedable stream |
//! | `lang.rs` | the languages messages are read and answered in, from BCP 47 tags |
//! | `limits.rs` | input caps checked before parsing, and the excerpts errors may quote |
//! | `logging.rs` | the bridge from the `log` crate to the app's `LogListener` |
//! | `prompts.rs` | every prompt template, embedded |
//! | `text.rs` | word helpers the readers of user text share: plurals, numbers, minute units |
//! | `units.rs` | weight units (pounds, kilograms) and their conversion |
//! | `yaml.rs` | YAML read into JSON under the caps of `limits.rs` |
//!
//! [`Error`]: error::Error
//! [`CoachError`]: error::CoachError

pub mod clock;
pub mod date;
pub mod error;
pub mod guard;
pub mod ids;
pub mod lang;
pub mod limits;
pub mod logging;
pub mod prompts;
pub mod text;
pub mod units;
pub mod yaml;
