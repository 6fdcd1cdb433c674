//! Spec 004, plan suggestions: after a workout, deterministic rules (and, when configured, the
//! on-device model) propose changes to the plan's prescriptions; a deduplicator removes repeats and
//! resolves conflicts; the user accepts, rejects or defers each one; accepted changes are applied to
//! the plan and later evaluated against the next performance.
//!
//! | file | concern |
//! |---|---|
//! | `model.rs` | the vocabulary: prescriptions, performances, history, [`PrescriptionChange`] |
//! | `metrics.rs` | progression sets, increments, load rounding, e1RM, plateau, struggling |
//! | `progress.rs` | the one progression engine: the conditions and load steps the rules and the workout planner share, the per-exercise progression state and the next prescription |
//! | `rules/` | the rule engine, one file per rule family, run in the spec's order |
//! | `dedup.rs` | cooldown and conflict resolution |
//! | `history.rs` | the cached per-exercise history |
//! | `store.rs` | the SQL: catalog, plans, logged sessions, history; `store/changes.rs`: suggested changes and their decisions |
//! | `validate.rs` | the input checks and limits of plans, logged sessions and outside contexts |
//! | `apply.rs` | the accept check, writing an accepted change into the prescription, AI admission |
//! | `outcome.rs` | judging an accepted change on the next performance |
//! | `ai/` | the AI source: its tool loop (`ai/service.rs`), reply checks and prompt |
//! | `service.rs` | the pipeline, logging, decisions (the part that reads and writes the store) |

pub mod ai;
pub mod apply;
pub mod dedup;
pub mod history;
pub mod metrics;
pub mod model;
pub mod outcome;
pub mod progress;
pub mod rules;
pub mod service;
mod store;
pub mod validate;

pub use dedup::evaluate_exercise;
pub use model::*;
pub(crate) use store::performances_of;

// What workouts use (ARCHITECTURE.md, "Feature edges": workout -> suggest).
pub use metrics::{e1rm, round_at_most, round_to_achievable, step, weight_increment, weight_text};
pub use progress::{
    is_hard_set, next_prescription, Basis, NextPrescription, ProgressionState, RepGoal,
    HARD_SET_MAX_RIR, OVERSHOOT_MULTIPLIER,
};
pub(crate) use service::log_session_in;
