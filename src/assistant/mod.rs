//! Spec 002, the assistant: the app sends a user's message; the library routes it (auto mode),
//! proposes operations on the user's todos, events, habits and goals with the model, validates
//! and repairs them, summarises, and streams its stages to a listener. Nothing is applied until
//! the app calls `apply` with the operations the user confirmed: then they run in one transaction,
//! audited, and idempotent under a key.
//!
//! | file | concern |
//! |---|---|
//! | `model.rs` | the vocabulary: items, operations, checks, routes, events, results, audit |
//! | `date.rs` | the recurrence rules, on the civil dates of `crate::kernel::date` (re-exported) (pure) |
//! | `shape.rs` | raw JSON operations (model, CLI, C API) to typed ones: infer `op`, lowercase, nulls |
//! | `words.rs` | the format's words read leniently (ops, kinds, priorities, weekdays, times) (pure) |
//! | `validate.rs` | per-operation validation and the deterministic repairs (pure) |
//! | `router.rs` | the router's prompt, schema and thresholds (pure) |
//! | `reading.rs` | the deterministic reading of a message: cues, dates, times, references (pure) |
//! | `reading/question.rs` | a question about the planner: what it asks, its days, kinds and items (pure) |
//! | `answer.rs` | the code-made answer to a question about the planner, from the items (pure) |
//! | `phrasing.rs` | what the assistant writes, per language: answers, summaries, notes, replies (pure) |
//! | `clarify.rs` | clarifying questions: options ranked by fuzzy title match and priority (pure) |
//! | `summary.rs` | cleaning the model's summary; the rule-based fallback summary (pure) |
//! | `grounding.rs` | what the model is shown: item aliases, context lines, budget (pure) |
//! | `prompt.rs` | the prompt builders; reading the proposal answer leniently (pure) |
//! | `proposal.rs` | the per-request JSON Schema of a full proposal (pure) |
//! | `changes.rs` | what apply computes: request hash, rejection, new items, audit (pure) |
//! | `week.rs` | the week snapshot's entries: repeating items expanded, ordered (pure) |
//! | `service/mod.rs` | the pipeline's documentation; re-exports |
//! | `service/message.rs` | the message pipeline: stages, events, model calls, cancellation |
//! | `service/apply.rs` | dry-run, apply, reads (the part that reads and writes the store) |
//! | `store.rs` | the SQL: planner items, completions, goals, audit, idempotency |
//!
//! Only `service/` touches the store or a model, and only `store.rs` holds SQL. `apply` is [`service::apply`], re-exported here
//! under its former path.

pub mod answer;
pub mod changes;
pub mod clarify;
pub mod date;
pub mod grounding;
pub mod model;
pub mod narrow;
pub(crate) mod phrasing;
pub mod prompt;
pub mod proposal;
pub mod reading;
pub mod router;
pub mod service;
pub mod shape;
mod store;
pub mod summary;
pub mod validate;
pub mod week;
pub mod words;

pub use model::*;
pub use service::apply;

// What today's plan uses (ARCHITECTURE.md, "Feature edges": plan -> assistant).
pub use grounding::today_label;
