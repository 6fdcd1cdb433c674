//! Spec 001, the workout analyzer and generator on the device: a deterministic pre-analysis of the
//! request and the logged history, an analyzer plan (JSON, `schemas/analyzer-v1.json`) from the
//! model or from deterministic code, and the Workout v1.2 document (YAML,
//! `schemas/workout-v1.2.json`) from the model or from the deterministic generator. Logged
//! workouts become the history the suggestion engine reads.
//!
//! | file | concern |
//! |---|---|
//! | `model.rs` | request, analyzer plan, workout document, result, events |
//! | `catalog.rs` | built-in exercises (`catalog.json`), equipment keys and loads |
//! | `preanalysis.rs` | request bounds, history facts, anti-repeat, allowed exercises, caps |
//! | `fatigue.rs` | cardio load and recovery to the fatigue policy (ADR 0009) |
//! | `notes.rs` | the one reader of instructions and today's notes: minutes, focus, exercises wanted and refused, parts to spare, equipment, energy, goal |
//! | `focus.rs` | the focus (session type, muscle groups, an exercise) and the slots it plans |
//! | `store.rs` | the SQL: workout exercises and equipment, saved workouts |
//! | `timebox.rs` | set times and the time budget |
//! | `ids.rs` | workout and set ids |
//! | `planner.rs` | the session skeleton of the focus and the deterministic analyzer plan |
//! | `render.rs` | the deterministic generator: warm-up ramp, fatigue, time-boxing |
//! | `document.rs` | schema validation, YAML out and back, consistency rules |
//! | `choices.rs` | the model's small choices: per-request schemas, short prompts, assembly |
//! | `check.rs` | domain checks of model output against the pre-analysis and the plan |
//! | `service.rs` | the flow over the store and the model: events, repairs, saving, logging |

pub mod catalog;
pub mod check;
pub mod choices;
pub mod document;
pub mod fatigue;
pub mod focus;
pub mod ids;
pub mod model;
pub mod notes;
pub mod planner;
pub mod preanalysis;
pub mod render;
pub mod service;
mod store;
pub mod timebox;

pub use document::{validate_workout_yaml, DocumentError};
pub use model::*;

// What today's plan uses (ARCHITECTURE.md, "Feature edges": plan -> workout).
pub use catalog::{builtin, capabilities_of, WorkoutExercise};
pub use choices::{analyzer_prompt, analyzer_schema, answer_picks};
pub use document::validator as document_validator;
pub use focus::{slot_specs_for, Focus, MuscleGroup, SlotSpec, FULL_BODY_SLOTS};
pub use notes::{read as read_notes, title, Effort, EquipmentSaid, NotesReading, Spare};
pub use planner::{skeleton_for, skeleton_of, Slot};
pub use preanalysis::PreAnalysis;
pub use preanalysis::{analyze, validate_request};
pub use service::{exercises, pre_analysis_over};
