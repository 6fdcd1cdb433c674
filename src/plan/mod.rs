//! Spec 000, the plan transformer: model output in one of two LLM schemas (`v1-current`, nested;
//! `v2-flat`, exercises joined to blocks by `blockIndex` and `order`) becomes the one canonical
//! [`TodayPlan`] apps receive.
//!
//! | file | concern |
//! |---|---|
//! | `model.rs` | [`TodayPlan`] and its parts: what apps receive; a saved plan, its targets, what was done |
//! | `raw.rs` | the two LLM shapes as parsed: absent apart from `null`, integers as JSON Schema counts them |
//! | `transform.rs` | extract, parse, validate, expand, join, order, assign ids (pure) |
//! | `expansion.rs` | the versioned enum-expansion ruleset (`schemas/plan-expansion.rules.json`) |
//! | `schema.rs` | the embedded JSON Schemas, depth measure, size estimate, schema selection |
//! | `generate.rs` | today-plan generation: the request, its bounds, the user turn (pure) |
//! | `store.rs` | the SQL: one row of generation metadata per generation or transform; today's plans saved |
//! | `notes.rs` | today-plan generation: the notes read by the workout flow's reader, with today's defaults (pure) |
//! | `compose.rs` | today-plan generation: the workout request, the skeleton of the focus, the plan JSON around the picks with their loads, its working exercises found again (pure) |
//! | `service.rs` | transform plus generation metadata in the store; generation with the model or deterministic (each slot's first candidate), saved; saved plans read and marked done |

mod compose;
mod expansion;
mod generate;
mod model;
mod notes;
mod raw;
mod schema;
mod service;
mod store;
mod transform;

pub use expansion::{BlockTemplate, Ruleset, TemplateExercise};
pub use generate::TodayPlanRequest;
pub use model::{
    Energy, PlanBlock, PlanExercise, PlanFallbackReason, PlanSource, PlanTransform, SavedTodayPlan,
    TodayExerciseDone, TodayPlan, TodayPlanTarget, TodaySetDone,
};
pub use notes::FULL_GYM;
pub use schema::{
    estimate_json_size, schema_depth, select_schema, SchemaSelection, SchemaVersion,
    SelectionReason, TODAY_PLAN_SCHEMA,
};
pub use service::{
    generate_and_record, mark_today_plan_done, recent_today_plans, saved_today_plan,
    transform_and_record, PlanGenerateSettings, PLAN_GENERATE_FEATURE, PLAN_TRANSFORM_FEATURE,
};
pub use store::{GenerationRecord, NewGeneration};
pub use transform::transform;
