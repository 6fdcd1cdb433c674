//! Spec 004, plan suggestions: after a workout, deterministic rules (and, when configured, the
//! on-device model) propose changes to the plan's prescriptions; a deduplicator removes repeats and
//! resolves conflicts; the user accepts, rejects or defers each one; accepted changes are applied to
//! the plan and later evaluated against the next performance.
//!
//! | file | concern |
//! |---|---|
//! | `model.rs` | the vocabulary: prescriptions, performances, history, [`PrescriptionChange`] |
//! | `metrics.rs` | progression sets, increments, load rounding, e1RM, plateau, struggling |
//! | `rules/` | the rule engine, one file per rule family, run in the spec's order |
//! | `dedup.rs` | cooldown and conflict resolution |

pub mod metrics;
pub mod model;

pub use model::*;
