//! [`UserData`]: the user's data as a whole (export, import, erase, integrity; encryption in
//! `encryption.rs`), and the planner's undo of an applied request.

use std::sync::Arc;

use crate::assistant::model::ApplyResult;
use crate::assistant::service::apply;
use crate::db::{DataSummary, IntegrityReport};
use crate::ffi::assistant::Planner;
use crate::ffi::inner::{service_object, CoachInner};
use crate::kernel::error::{CoachError, Error};
use crate::kernel::limits::{check_json, Caps};

/// The user's data as a whole, from `Coach.data()`: export to one JSON document and import it
/// into a new database, erase everything, check the file for damage, and encryption at rest
/// (whether the file is encrypted, rekey, an encrypted copy).
#[derive(uniffi::Object)]
pub struct UserData {
    inner: Arc<CoachInner>,
}

service_object!(UserData);

#[uniffi::export]
impl UserData {
    /// Everything this database holds as one JSON document (format `coachcore-export`, version 1):
    /// every table (plans, logged sessions, history, suggested changes and their decisions,
    /// planner items and the assistant's audit log, recipes, meal history and plan jobs, workouts,
    /// generation records) with all its rows and columns, read in one consistent snapshot. Hand it
    /// to `importAll` on a new database to get the same data back. It holds the user's data:
    /// treat it like the database file. Takes about as long as reading the whole file: call it
    /// from a background thread.
    pub fn export_all(&self) -> Result<String, CoachError> {
        Ok(self.store.export_data(self.clock.now_ms())?)
    }

    /// Reads a document written by `exportAll` into this database, in one transaction: all of
    /// it or nothing. Returns how many rows each table received.
    ///
    /// The library's built-in recipes do not count as rows here: they are replaced by the
    /// document's, then loaded again in this library's version (with the open option
    /// `builtinRecipes`).
    ///
    /// Throws `DatabaseNotEmpty` when the database holds any row (import into a new file, or call
    /// `eraseAll` first), and `InvalidArgument` (nothing imported) for a document over
    /// 256 MiB, of another format or version, with an unknown table or column, a value a column
    /// refuses, or rows that refer to rows missing from it; the message names the table and row,
    /// never a value. `ReadOnly` and `DatabaseCorrupt` as for every write.
    pub fn import_all(&self, document: &str) -> Result<DataSummary, CoachError> {
        check_json(document, &Caps::EXPORT)?;
        let summary = self.store.import_data(document)?;
        self.refresh_builtin_recipes();
        Ok(summary)
    }

    /// Deletes every row of every table in one transaction (the schema stays; the file is then
    /// like a new one), with freed pages overwritten and the write-ahead log truncated. Returns
    /// how many rows each table lost. Irreversible: export first if the user may want the data.
    /// The built-in recipes are loaded again afterwards (with the open option `builtinRecipes`),
    /// as on a new file.
    pub fn erase_all(&self) -> Result<DataSummary, CoachError> {
        let summary = self.store.erase_all_data()?;
        self.refresh_builtin_recipes();
        Ok(summary)
    }

    /// Checks the whole database file for damage (SQLite's `integrity_check`: it reads every page,
    /// so it takes about a second per 100 MB; call it from a background thread). Returns `ok` and
    /// up to 20 short problem lines (tables, indexes and pages, never stored values).
    ///
    /// Opening already runs a quicker check; a file that fails either one refuses writes with
    /// `DatabaseCorrupt` (reads keep working where SQLite can read), and a file that passes this
    /// check accepts them again.
    pub fn check_integrity(&self) -> Result<IntegrityReport, CoachError> {
        Ok(self.store.check_integrity()?)
    }
}

#[uniffi::export]
impl Planner {
    /// Reverts the assistant request `request_id` (an `ApplyResult.requestId`) as one
    /// transaction: items it created are deleted, items it deleted come back (with their goal
    /// links), items it changed get their earlier state. Returns the undo's own result, whose
    /// request id is `undo:` + `request_id` (it is in the audit log, and can itself be undone).
    ///
    /// Throws `UndoConflict` and changes nothing when an item the request touched has changed
    /// since (its `itemId` says which), when a goal now links an item the request created, when a
    /// restored goal would link an item deleted since, or when the request was undone already;
    /// `NotFound` for a request id the audit log does not hold.
    pub fn undo(&self, request_id: &str) -> Result<ApplyResult, CoachError> {
        if request_id.len() > 200 {
            return Err(Error::InvalidArgument("requestId is longer than 200 bytes".into()).into());
        }
        Ok(apply::undo(&self.store, &*self.clock, request_id)?)
    }
}
