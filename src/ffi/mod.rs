//! The app-facing surface exported through UniFFI (Swift, Kotlin, Python): [`Coach`] and the
//! service objects it hands out, one per concern. Thin by rule: each exported method delegates
//! in a line or two to a feature's service; no logic lives here.

mod assistant;
mod coach;
mod data;
mod encryption;
mod inner;
mod llm;
pub mod logging;
mod meals;
mod prewarm;
pub mod requests;
mod suggest;
pub(crate) mod task;
mod today;
mod training;
mod workout;

pub use crate::suggest::service::SuggestionProgressListener;
pub use assistant::{Assistant, AssistantListener, AssistantTask, Planner};
pub use coach::{library_version, select_plan_schema, Coach, OpenOptions};
pub use data::UserData;
pub use encryption::encryption_available;
#[cfg(feature = "llama")]
pub use llm::load_model;
pub use llm::{model_availability, LoadProgressListener, ModelOptions, Models};
pub use meals::{MealPlanListener, MealPlanTask, Meals};
pub use prewarm::AiFeature;
pub use suggest::{evaluate_exercise, Suggestions};
pub use task::ListenerError;
pub use workout::{
    validate_workout_yaml, WorkoutListener, WorkoutTask, WorkoutValidation, Workouts,
};
