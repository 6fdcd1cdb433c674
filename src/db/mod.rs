//! Storage shared by every feature, and only that: the connection and its open and recovery
//! logic with the migrations (`connection.rs`: [`Store`], [`Db`]), encryption at rest
//! (`cipher.rs`: the key set on every connection before its first read, rekeying, encrypted
//! copies), the export document of every table, written and read as rows, and erase
//! (`export.rs`), and enum and JSON columns (`codec.rs`). Each feature owns its SQL in its own
//! `store.rs`, adding methods to [`Db`] (or [`Store`]): `plan/store.rs` (generation metadata),
//! `suggest/store.rs` (exercises, plans, logged sessions, history; its `store/changes.rs`:
//! suggested changes and their decisions), `assistant/store.rs` (planner items, completions,
//! goals, audit, idempotency), `meals/store.rs` (recipes and their search index, meal history,
//! plan jobs), `workout/store.rs` (workout exercises and saved workouts). Nothing here names a
//! feature.

mod cipher;
pub(crate) mod codec;
mod connection;
mod export;

pub use cipher::{DatabaseKey, ENCRYPTION_AVAILABLE};
pub use connection::*;
pub use export::{
    DataSummary, TableCount, EXPORT_FORMAT, EXPORT_VERSION, LIBRARY_ROWS, LIBRARY_TABLES, TABLES,
};
