//! The app-facing surface exported through UniFFI (Swift, Kotlin, Python). Thin by rule: each
//! exported method delegates in a line or two to a service; no logic lives here.

mod assistant;
mod coach;
mod data;
mod encryption;
mod llm;
pub mod logging;
mod meals;
mod prewarm;
pub mod requests;
mod suggest;
pub(crate) mod task;
mod workout;

pub use crate::suggest::service::SuggestionProgressListener;
pub use assistant::{AssistantListener, AssistantTask};
pub use coach::{library_version, Coach};
pub use encryption::encryption_available;
#[cfg(feature = "llama")]
pub use llm::load_model;
pub use llm::{LoadProgressListener, ModelOptions};
pub use meals::{MealPlanListener, MealPlanTask};
pub use prewarm::AiFeature;
pub use suggest::evaluate_exercise;
pub use task::ListenerError;
pub use workout::{WorkoutListener, WorkoutTask, WorkoutValidation};
