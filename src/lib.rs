//! # coachcore
//!
//! An embedded, on-device engine for fitness, meal and day-planner apps. It keeps the user's data
//! in SQLite, runs deterministic engines over it, and turns language-model output into validated
//! structures. The model proposes; deterministic code validates, repairs and decides.
//!
//! Apps reach it through [`Coach`] (Swift, Kotlin and Python via UniFFI), through the C API in
//! `capi` (feature `capi`), or from Rust directly. See `ARCHITECTURE.md` for the layout.
//!
//! | module | floor | what |
//! |---|---|---|
//! | `capi` | capi/bin | the `extern "C"` JSON API (feature `capi`) |
//! | [`ffi`] | ffi | the exported surface: the entry object [`Coach`], its calls, listeners and task handles |
//! | [`plan`] | feature | spec 000: LLM plan JSON (`v1-current`, `v2-flat`) to the canonical [`TodayPlan`]; today's plan generated |
//! | [`suggest`] | feature | spec 004: plan suggestions from rules and, when configured, the model |
//! | [`assistant`] | feature | spec 002: routing, proposing, validating, repairing and applying planner operations |
//! | [`workout`] | feature | spec 001: the workout analyzer and generator |
//! | [`meals`] | feature | spec 003: recipes, candidate search, reranked meal plans |
//! | [`llm`] | llm | the `LanguageModel` trait, the metered wrapper, the engine, validated generation |
//! | [`db`] | db | the SQLite database: open, migrations, encryption, export; each feature's SQL is in its `store.rs` |
//! | [`kernel`] | kernel | internal [`Error`](kernel::error::Error) and the public [`CoachError`], dates, units, clock, ids, limits, logging, prompts |
//!
//! A module imports only from its own floor or lower ones (`ARCHITECTURE.md`, "Floors").

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
pub use ffi::{
    evaluate_exercise, library_version, model_availability, select_plan_schema,
    validate_workout_yaml, Assistant, Coach, Meals, Models, OpenOptions, Planner, Suggestions,
    UserData, Workouts,
};
pub use kernel::error::{CoachError, OutputErrorCode};
pub use plan::{
    Energy, GenerationRecord, PlanBlock, PlanExercise, PlanFallbackReason, PlanSource,
    PlanTransform, SavedTodayPlan, SchemaSelection, SchemaVersion, SelectionReason,
    TodayExerciseDone, TodayPlan, TodayPlanRequest, TodayPlanTarget, TodaySetDone,
};
