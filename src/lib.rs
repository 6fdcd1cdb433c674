//! # coachcore
//!
//! An embedded, on-device engine for fitness, meal and day-planner apps. It keeps the user's data
//! in SQLite, runs deterministic engines over it, and turns language-model output into validated
//! structures. The model proposes; deterministic code validates, repairs and decides.
//!
//! Apps reach it through [`Coach`] (Swift, Kotlin and Python via UniFFI), through the C API in
//! `capi` (feature `capi`), or from Rust directly. See `ARCHITECTURE.md` for the layout.
//!
//! | module | what |
//! |---|---|
//! | [`plan`] | spec 000: LLM plan JSON (`v1-current`, `v2-flat`) to the canonical [`TodayPlan`] |
//! | [`assistant`] | spec 002: routing, proposing, validating, repairing and applying planner operations |
//! | [`llm`] | model output handling (JSON extraction) |
//! | [`db`] | the SQLite database: open, migrations, one DAO per domain |
//! | [`error`] | internal [`Error`](error::Error) and the public [`CoachError`] |
//! | [`ffi`] | the exported entry object [`Coach`] |

#![warn(missing_docs)]

uniffi::setup_scaffolding!();

pub mod assistant;
pub mod db;
pub mod ffi;
pub mod kernel;
pub mod llm;
pub mod meals;
pub mod plan;
pub mod suggest;
pub mod workout;

#[cfg(feature = "capi")]
pub mod capi;

pub use db::{DataSummary, IntegrityReport, TableCount};
pub use ffi::{evaluate_exercise, library_version, Coach};
pub use kernel::error::{CoachError, OutputErrorCode};
pub use plan::{
    Energy, GenerationRecord, PlanBlock, PlanExercise, PlanSource, PlanTransform, SchemaSelection,
    SchemaVersion, SelectionReason, TodayPlan, TodayPlanRequest,
};
