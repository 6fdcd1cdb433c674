//! Meal planning (spec 003): a recipe store with full-text candidate search, per-slot reranking
//! by a language model that can only name the slot's candidates (with a deterministic fallback),
//! variety checks over the meal history, and plan jobs with progress events.
//!
//! | file | what |
//! |---|---|
//! | [`model`] | recipes, requests, plans, jobs, events, history (records) |
//! | [`validate`] | bounds on every input (pure) |
//! | [`search`] | the candidate search rules: FTS query, hard exclusions, ranking (pure) |
//! | [`rerank`] | what the model reads and may answer: aliases, the per-slot schema, checks (pure) |
//! | [`score`] | the deterministic fallback scoring and the variety warnings (pure) |
//! | [`units`] | ingredient quantities: kinds, conversions, scaling, sums (pure) |
//! | [`nutrition`] | nutrition per serving from the shipped ingredient table (pure) |
//! | [`shopping`] | a plan's shopping list: sums by item, store sections, staples left out (pure) |
//! | [`service`] | the store and the model: import, save, stage, plan jobs, shopping lists |
//! | `store.rs` | the SQL: recipes and their search index, meal history, plan jobs, pantry staples |
//!
//! The formats and the rules are documented in `docs/meals.md`.

pub mod model;
pub mod nutrition;
pub mod rerank;
pub mod score;
pub mod search;
pub mod service;
pub mod shopping;
mod store;
pub mod units;
pub mod validate;

pub use model::*;
