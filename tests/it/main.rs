//! The integration tests of coachcore, in one test crate: each module was a test binary of its own,
//! and each binary linked the whole library (with feature `llama`, llama.cpp too), so linking
//! dominated the build. Run one module with `cargo test --test it -- transform::`.
//!
//! The real-model modules (`llama`, `llama_suggestions`, `llama_assistant`, `llama_meals`,
//! `llama_workout`) exist only with feature `llama`; test.sh runs just them with
//! `cargo test --features llama --test it -- llama:: llama_suggestions:: llama_assistant::
//! llama_meals:: llama_workout::`
//! (a test runs when its path contains one of the filters; no other module's test path does).

mod common;

mod ai_suggestions;
mod architecture;
mod assistant_answers;
mod assistant_apply;
mod assistant_code_wins;
mod assistant_pipeline;
mod assistant_stream;
mod assistant_validate;
mod builtin_recipes;
mod cli;
mod coach;
mod concurrency;
mod crash;
mod damaged_and_read_only;
mod data_export;
mod demo;
mod encryption;
mod first_open;
mod fuzz_replay;
mod limits;
#[cfg(feature = "llama")]
mod llama;
#[cfg(feature = "llama")]
mod llama_assistant;
#[cfg(feature = "llama")]
mod llama_meals;
#[cfg(feature = "llama")]
mod llama_suggestions;
#[cfg(feature = "llama")]
mod llama_workout;
mod meal_nutrition;
mod meals;
mod meals_eval;
mod migrations;
mod model_lifecycle;
mod multi_process;
mod narrow_eval;
mod plan_eval;
mod plan_generate;
mod progression;
mod schema_validator;
mod shopping;
mod shutdown;
mod suggestion_choices;
mod suggestion_outcomes;
mod suggestions;
mod training_week;
mod transform;
mod undo;
mod workout;
