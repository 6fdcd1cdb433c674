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
//! | `preanalysis.rs` | request bounds, history facts and progression state, anti-repeat, allowed exercises, caps |
//! | `fatigue.rs` | cardio load and recovery to the fatigue policy (ADR 0009) |
//! | `notes.rs` | the one reader of instructions and today's notes: minutes, focus, exercises wanted and refused, parts to spare, equipment, energy, goal |
//! | `focus.rs` | the focus (session type, muscle groups, an exercise) and the slots it plans |
//! | `store.rs` | the SQL: workout exercises and equipment, saved workouts (upgraded when read) |
//! | `timebox.rs` | set times, the time budget, supersets when it is short |
//! | `ids.rs` | workout and set ids |
//! | `planner.rs` | the session skeleton of the focus or the split, the deterministic analyzer plan; each exercise's load, reps and reason from the progression engine (`prescribe`) |
//! | `render.rs` | the deterministic generator: warm-up ramp, fatigue, time-boxing |
//! | `document.rs` | schema validation, YAML out and back, consistency rules, the upgrade of documents in the library's earlier form |
//! | `choices.rs` | the model's small choices: per-request schemas, short prompts, assembly |
//! | `check.rs` | domain checks of model output against the pre-analysis and the plan |
//! | `week.rs` | the last 7 days per muscle group, the split of the next session |
//! | `service.rs` | the flow over the store and the model: events, repairs, saving, logging, the week view |

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
pub mod week;

pub use document::{validate_workout_yaml, DocumentError};
pub use model::*;
pub use week::{MuscleWeek, SessionChoice, TrainingWeek};

// What today's plan uses (ARCHITECTURE.md, "Feature edges": plan -> workout).
pub use catalog::{builtin, capabilities_of, LoadKind, WorkoutExercise};
pub use choices::{analyzer_prompt, analyzer_schema, answer_picks};
pub use document::validator as document_validator;
pub use focus::{session_slots, slot_specs_for, Focus, MuscleGroup, SlotSpec, FULL_BODY_SLOTS};
pub use notes::{read as read_notes, title, Effort, EquipmentSaid, NotesReading, Spare};
pub use planner::{plan_of_slots, prescribe, skeleton_for, skeleton_of, Prescription, Slot};
pub use preanalysis::{analyze, validate_request, PreAnalysis};
pub use service::{exercises, log_performed, pre_analysis_over, PerformedExercise};
