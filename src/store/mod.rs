//! Storage: the only module that touches SQLite.
//!
//! [`Store::open`] first *reads* the file to decide whether it is ours, then sets the connection up
//! (WAL, foreign keys, busy timeout) and brings the schema to the current version with numbered
//! migrations (`migrations/NNNN_*.sql`) applied in one IMMEDIATE transaction keyed on
//! `PRAGMA user_version`.
//!
//! Whose file is it? Nothing is written (not even the WAL switch, which rewrites header bytes
//! 18–19) until the file is known to be one of:
//! - a new or empty database (no schema objects, `user_version` 0, `application_id` 0);
//! - ours: `PRAGMA application_id` is [`APPLICATION_ID`] (ASCII `CoCo`);
//! - ours from a library version that did not stamp the id yet: `application_id` 0,
//!   `user_version` in `1..=SCHEMA_VERSION`, and every table the migrations up to that version
//!   create is present with all its columns. It gets the id stamped in the migration transaction.
//!
//! A non-empty file with a rollback journal (`-journal`) beside it is refused before SQLite opens
//! it: the library's databases use a write-ahead log, and SQLite's first read would roll another
//! application's journal back into its file.
//!
//! Anything else is refused untouched (the file byte-identical; no `-wal`/`-shm` left behind, except
//! that a write-ahead log another application left un-checkpointed stays as it was, next to a
//! `-shm` index SQLite needs to read it; it is never folded into the file): a file that is
//! not a database or is corrupt ([`Error::NotADatabase`]), a database of another application
//! ([`Error::ForeignDatabase`]: a foreign `application_id`, or `application_id` 0 with tables that
//! are not ours at its `user_version`), and one of ours newer than this code
//! ([`Error::DatabaseTooNew`]). The id is stamped in code next to the migrations (migration files
//! that shipped are never edited), in the same transaction as the first migration step of a new
//! database.
//!
//! One DAO file per domain, each adding methods to [`Db`]: `generations` (transform metadata),
//! `training` (exercises, plans, logged sessions, history), `changes` (suggested changes and
//! their decisions), `assistant` (planner items, completions, goals, audit, idempotency), `meals`
//! (recipes and their search index, meal history, plan jobs), `workout` (workout exercises and
//! saved workouts); `codec` reads and writes enum and JSON columns.

mod assistant;
mod changes;
mod codec;
mod generations;
mod meals;
mod training;
mod workout;

use std::path::Path;
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use rusqlite::config::DbConfig;
use rusqlite::{Connection, OpenFlags, TransactionBehavior};

use crate::error::{Error, Result};

pub use generations::{GenerationRecord, NewGeneration};

/// SQLite's "not a database" and "corrupt" results become [`Error::NotADatabase`]; the rest are
/// storage failures.
impl From<rusqlite::Error> for Error {
    fn from(e: rusqlite::Error) -> Self {
        use rusqlite::ErrorCode::{DatabaseCorrupt, NotADatabase};
        match e.sqlite_error_code() {
            Some(NotADatabase | DatabaseCorrupt) => Error::NotADatabase(e),
            _ => Error::Sqlite(e),
        }
    }
}

/// The numbered migrations, in order. Index `i` holds the step to version `i + 1`.
const MIGRATIONS: &[&str] = &[
    include_str!("migrations/0001_generation_metadata.sql"),
    include_str!("migrations/0002_training.sql"),
    include_str!("migrations/0003_assistant.sql"),
    include_str!("migrations/0004_suggestion_units.sql"),
    include_str!("migrations/0005_meals.sql"),
    include_str!("migrations/0006_workout.sql"),
];

/// The schema version this code writes.
pub const SCHEMA_VERSION: u32 = MIGRATIONS.len() as u32;

/// `PRAGMA application_id` of the library's databases: ASCII `CoCo` (bytes 68–71 of the header).
/// A database with another non-zero id belongs to another application and is never opened.
pub const APPLICATION_ID: i32 = 0x436F_436F;

/// The database inside [`Store::read`] or [`Store::write`]: the DAO methods of every domain live on
/// it, so a service can compose several of them in one transaction without writing SQL.
pub struct Db<'a> {
    conn: &'a Connection,
}

/// A handle on the library's database. Thread-safe; calls are serialized on one connection.
pub struct Store {
    conn: Mutex<Connection>,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store").finish_non_exhaustive()
    }
}

impl Store {
    /// Opens (creating if absent) the database file at `path` and migrates it to
    /// [`SCHEMA_VERSION`].
    pub fn open(path: impl AsRef<Path>) -> Result<Store> {
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE
            | OpenFlags::SQLITE_OPEN_CREATE
            | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let path = path.as_ref();
        if path.as_os_str().is_empty() {
            // SQLite would open a private temporary database: nothing would be kept.
            return Err(Error::InvalidArgument(
                "the database path is empty (use an in-memory store to keep nothing)".into(),
            ));
        }
        let beside = |suffix: &str| {
            let mut p = path.as_os_str().to_owned();
            p.push(suffix);
            std::fs::metadata(p).is_ok_and(|m| m.len() > 0)
        };
        // A rollback journal left beside a non-empty file: the library's databases use a
        // write-ahead log, so the file is another application's, and SQLite's first read would
        // roll the journal back into it. Refused before SQLite touches it.
        if beside("-journal") && std::fs::metadata(path).is_ok_and(|m| m.len() > 0) {
            return Err(Error::ForeignDatabase);
        }
        // A write-ahead log left by whoever wrote the file last, not folded into it yet.
        let pending_log = beside("-wal");
        let conn = Connection::open_with_flags(path, flags).map_err(open_error)?;
        Self::init(conn, pending_log)
    }

    /// A private in-memory database, for tests and for callers that keep nothing.
    pub fn open_in_memory() -> Result<Store> {
        Self::init(Connection::open_in_memory()?, false)
    }

    fn init(mut conn: Connection, pending_log: bool) -> Result<Store> {
        // Until the file is known to be ours, closing must not checkpoint a write-ahead log that
        // another application left behind (that would write its pages into the main file).
        if pending_log {
            conn.set_db_config(DbConfig::SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, true)?;
        }
        prepare(&conn)?;
        // Every DAO statement is cached; rusqlite keeps 16 by default, fewer than one workout's
        // generation uses, so statements would be parsed again on every call.
        conn.set_prepared_statement_cache_capacity(128);
        if pending_log {
            conn.set_db_config(DbConfig::SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, false)?;
        }
        migrate(&mut conn, SCHEMA_VERSION)?;
        Ok(Store {
            conn: Mutex::new(conn),
        })
    }

    /// The schema version of the open database.
    pub fn schema_version(&self) -> Result<u32> {
        user_version(&self.lock())
    }

    /// Runs `f` in one read (deferred) transaction: a consistent snapshot for reads.
    pub fn read<T>(&self, f: impl FnOnce(&Db<'_>) -> Result<T>) -> Result<T> {
        let mut conn = self.lock();
        // One read transaction: every query of `f` sees the same snapshot, and SQLite takes its
        // read lock once instead of once per statement.
        let tx = conn.transaction_with_behavior(TransactionBehavior::Deferred)?;
        let out = f(&Db { conn: &tx })?;
        tx.finish()?;
        Ok(out)
    }

    /// Runs `f` in one IMMEDIATE transaction: everything it writes commits together, or nothing
    /// does if it returns an error.
    pub fn write<T>(&self, f: impl FnOnce(&Db<'_>) -> Result<T>) -> Result<T> {
        let mut conn = self.lock();
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let out = f(&Db { conn: &tx })?;
        tx.commit()?;
        Ok(out)
    }

    fn lock(&self) -> MutexGuard<'_, Connection> {
        // A panic while holding the lock cannot leave SQLite inconsistent (transactions roll
        // back on drop), so a poisoned lock is still safe to use.
        self.conn.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// Decides whether the file is ours (see the module docs), reading only; then sets the connection
/// pragmas. Nothing is written before the file is known to be ours or empty.
fn prepare(conn: &Connection) -> Result<()> {
    conn.busy_timeout(Duration::from_secs(5))?;
    // The first read of the header: a file that is not a database fails here.
    let objects: i64 = conn.query_row(
        "SELECT count(*) FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'",
        [],
        |r| r.get(0),
    )?;
    // A negative or oversized user_version is no version of ours.
    let version: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
    let Ok(version) = u32::try_from(version) else {
        return Err(Error::ForeignDatabase);
    };
    match application_id(conn)? {
        APPLICATION_ID => refuse_newer(version)?,
        0 if objects == 0 && version == 0 => {}
        0 if (1..=SCHEMA_VERSION).contains(&version) && has_tables_of(conn, version)? => {}
        _ => return Err(Error::ForeignDatabase),
    }
    conn.pragma_update_and_check(None, "journal_mode", "WAL", |_| Ok(()))?;
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    conn.pragma_update(None, "foreign_keys", true)?;
    Ok(())
}

/// An error opening the file, without the path: SQLite's message for a file it cannot open ends
/// with it, and a path can hold a user's name.
fn open_error(e: rusqlite::Error) -> Error {
    match e {
        rusqlite::Error::SqliteFailure(code, _) => {
            rusqlite::Error::SqliteFailure(code, None).into()
        }
        rusqlite::Error::InvalidPath(_) | rusqlite::Error::NulError(_) => {
            Error::InvalidArgument("the database path is not a valid file path".into())
        }
        other => other.into(),
    }
}

fn user_version(conn: &Connection) -> Result<u32> {
    Ok(conn.pragma_query_value(None, "user_version", |r| r.get(0))?)
}

fn application_id(conn: &Connection) -> Result<i32> {
    Ok(conn.pragma_query_value(None, "application_id", |r| r.get(0))?)
}

/// Whether `conn` holds every table, with every column, that the migrations up to `version`
/// create (found by running them on a private in-memory database). Extra tables and columns are
/// allowed: an app may have added its own.
fn has_tables_of(conn: &Connection, version: u32) -> Result<bool> {
    let reference = Connection::open_in_memory()?;
    for (i, sql) in MIGRATIONS[..version as usize].iter().enumerate() {
        reference.execute_batch(sql).map_err(|e| Error::Migration {
            step: i as u32 + 1,
            source: e,
        })?;
    }
    let columns = |c: &Connection| -> Result<std::collections::BTreeSet<(String, String)>> {
        let mut st = c.prepare(
            "SELECT m.name, p.name FROM sqlite_master AS m, pragma_table_info(m.name) AS p
             WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%'",
        )?;
        let names = st.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
        Ok(names.collect::<rusqlite::Result<_>>()?)
    };
    Ok(columns(&reference)?.is_subset(&columns(conn)?))
}

fn refuse_newer(found: u32) -> Result<()> {
    if found > SCHEMA_VERSION {
        return Err(Error::DatabaseTooNew {
            found,
            supported: SCHEMA_VERSION,
        });
    }
    Ok(())
}

/// Migrates `conn` to `target` (at most [`SCHEMA_VERSION`]) in one transaction and stamps
/// [`APPLICATION_ID`] if it is missing. Refuses a database newer than the code.
fn migrate(conn: &mut Connection, target: u32) -> Result<()> {
    migrate_with(conn, MIGRATIONS, target)
}

/// [`migrate`] over a given list of steps (tests pass a broken one). A failing step rolls every
/// step back: the file keeps its old `user_version` and schema. The error names the step, never
/// its SQL.
fn migrate_with(conn: &mut Connection, steps: &[&str], target: u32) -> Result<()> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let found = user_version(&tx)?;
    if found > steps.len() as u32 {
        return Err(Error::DatabaseTooNew {
            found,
            supported: steps.len() as u32,
        });
    }
    if found < target {
        for (i, sql) in steps
            .iter()
            .enumerate()
            .take(target as usize)
            .skip(found as usize)
        {
            tx.execute_batch(sql).map_err(|e| Error::Migration {
                step: i as u32 + 1,
                source: e,
            })?;
        }
        tx.pragma_update(None, "user_version", target)?;
    }
    // A database left at version 0 stays a blank file; any other gets the id.
    if found.max(target) > 0 && application_id(&tx)? != APPLICATION_ID {
        tx.pragma_update(None, "application_id", APPLICATION_ID)?;
    }
    tx.commit()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn schema_of(conn: &Connection) -> Vec<(String, String)> {
        let mut st = conn
            .prepare("SELECT name, ifnull(sql, '') FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name")
            .unwrap();
        st.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
            .map(|r| r.unwrap())
            .collect()
    }

    #[test]
    fn fresh_file_is_migrated_with_pragmas() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("coach.db");
        let store = Store::open(&path).unwrap();
        assert_eq!(store.schema_version().unwrap(), SCHEMA_VERSION);
        let conn = store.lock();
        let mode: String = conn
            .pragma_query_value(None, "journal_mode", |r| r.get(0))
            .unwrap();
        assert_eq!(mode, "wal");
        let fk: bool = conn
            .pragma_query_value(None, "foreign_keys", |r| r.get(0))
            .unwrap();
        assert!(fk);
        let timeout: i64 = conn
            .pragma_query_value(None, "busy_timeout", |r| r.get(0))
            .unwrap();
        assert_eq!(timeout, 5000);
    }

    #[test]
    fn empty_existing_file_is_a_fresh_database() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("empty.db");
        std::fs::write(&path, b"").unwrap();
        assert_eq!(
            Store::open(&path).unwrap().schema_version().unwrap(),
            SCHEMA_VERSION
        );
    }

    #[test]
    fn every_earlier_version_upgrades_to_the_fresh_schema() {
        let fresh = Store::open_in_memory().unwrap();
        let want = schema_of(&fresh.lock());
        // `stamped: false` is a database made by a library version that did not set
        // `application_id` yet: it is recognised by its tables and gets the id.
        for stamped in [true, false] {
            for from in 0..=SCHEMA_VERSION {
                let dir = tempfile::tempdir().unwrap();
                let path = dir.path().join("old.db");
                {
                    let mut conn = Connection::open(&path).unwrap();
                    migrate(&mut conn, from).unwrap();
                    if !stamped {
                        conn.pragma_update(None, "application_id", 0).unwrap();
                    }
                    assert_eq!(user_version(&conn).unwrap(), from);
                }
                let store = Store::open(&path).unwrap();
                let conn = store.lock();
                let case = format!("from version {from}, stamped {stamped}");
                assert_eq!(user_version(&conn).unwrap(), SCHEMA_VERSION, "{case}");
                assert_eq!(application_id(&conn).unwrap(), APPLICATION_ID, "{case}");
                assert_eq!(schema_of(&conn), want, "{case}");
            }
        }
    }

    #[test]
    fn new_and_empty_databases_get_the_application_id() {
        let dir = tempfile::tempdir().unwrap();
        let new = dir.path().join("new.db");
        let empty = dir.path().join("empty.db");
        std::fs::write(&empty, b"").unwrap();
        for path in [&new, &empty] {
            let store = Store::open(path).unwrap();
            assert_eq!(application_id(&store.lock()).unwrap(), APPLICATION_ID);
        }
        let memory = Store::open_in_memory().unwrap();
        assert_eq!(application_id(&memory.lock()).unwrap(), APPLICATION_ID);
        // The id is in the header (bytes 68..72, big-endian) once the file is closed.
        drop(Store::open(&new).unwrap());
        let bytes = std::fs::read(&new).unwrap();
        assert_eq!(&bytes[68..72], b"CoCo");
    }

    /// `name` is the only file in `dir`: no `-wal`/`-shm`/`-journal` was left behind.
    fn assert_only_file(dir: &Path, name: &str) {
        let names: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, [name], "no -wal/-shm left behind");
    }

    /// Builds a database that is not ours with `sql`, optionally in WAL mode, closes it, and
    /// checks that opening it is refused with `want` and leaves the file byte-identical with no
    /// `-wal`/`-shm` behind.
    fn assert_refused_untouched(sql: &str, wal: bool, want: fn(&Error) -> bool) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("other.db");
        {
            let conn = Connection::open(&path).unwrap();
            if wal {
                conn.pragma_update(None, "journal_mode", "WAL").unwrap();
            }
            conn.execute_batch(sql).unwrap();
        }
        let before = std::fs::read(&path).unwrap();
        match Store::open(&path) {
            Err(e) if want(&e) => {}
            other => panic!("{sql} (wal {wal}): got {other:?}"),
        }
        assert!(
            std::fs::read(&path).unwrap() == before,
            "{sql} (wal {wal}): the file changed"
        );
        assert_only_file(dir.path(), "other.db");
        // The public error says whose file it is without naming the file.
        let public = CoachError::from(Store::open(&path).unwrap_err());
        assert!(!public.to_string().contains("other.db"), "{public}");
    }

    use crate::error::CoachError;

    #[test]
    fn databases_of_other_applications_are_refused_and_byte_identical() {
        let foreign = |e: &Error| matches!(e, Error::ForeignDatabase);
        let cases = [
            // The auditor's two cases: one of our table names at user_version 0, and another
            // app's notes.
            "CREATE TABLE generation_metadata (id INTEGER PRIMARY KEY); INSERT INTO generation_metadata VALUES (1);",
            "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes VALUES (1, 'x');",
            // Only a view, or only a user_version: still not empty, not ours.
            "CREATE VIEW v AS SELECT 1;",
            "PRAGMA user_version = 2;",
            // Another app's id, with and without tables.
            "PRAGMA application_id = 1234;",
            "CREATE TABLE notes (x); PRAGMA application_id = -7;",
            // An id of ours in another byte order is not ours.
            "CREATE TABLE t (x); PRAGMA application_id = 1868779331;",
            // user_version in our range without our tables, or with only some of them.
            "CREATE TABLE notes (x); PRAGMA user_version = 1;",
            "CREATE TABLE generation_metadata (x); PRAGMA user_version = 2;",
            // A version above ours without our id: not a newer library of ours (those stamp it).
            "CREATE TABLE future_table (x); PRAGMA user_version = 99;",
        ];
        for sql in cases {
            for wal in [false, true] {
                assert_refused_untouched(sql, wal, foreign);
            }
        }
        let public = CoachError::from(Error::ForeignDatabase);
        assert_eq!(public.code(), "not_a_database");
        assert!(public.detail().contains("another application"), "{public}");
    }

    #[test]
    fn reopening_is_idempotent_and_keeps_rows() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("coach.db");
        let s = Store::open(&path).unwrap();
        let rec = NewGeneration::sample();
        let id = s.insert_generation(&rec).unwrap();
        drop(s);
        let s = Store::open(&path).unwrap();
        let rows = s.recent_generations(10).unwrap();
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0].id, id);
    }

    /// Another application's WAL database with a write-ahead log it has not checkpointed yet:
    /// refusing it must not fold the log into the main file (closing would checkpoint it).
    #[test]
    fn a_foreign_write_ahead_log_is_not_checkpointed() {
        for sql in [
            "CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('hello');",
            // Ours, but from a future version: refused as too new, equally untouched.
            "CREATE TABLE future (x); PRAGMA user_version = 99; PRAGMA application_id = 1131365231;",
        ] {
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("other.db");
            let wal = dir.path().join("other.db-wal");
            let conn = Connection::open(&path).unwrap();
            conn.pragma_update(None, "journal_mode", "WAL").unwrap();
            conn.pragma_update(None, "wal_autocheckpoint", 0).unwrap();
            conn.execute_batch(sql).unwrap();
            conn.set_db_config(DbConfig::SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, true)
                .unwrap();
            drop(conn);
            let (main_before, wal_before) = (std::fs::read(&path).unwrap(), std::fs::read(&wal).unwrap());
            assert!(!wal_before.is_empty(), "the setup left no log");
            assert!(Store::open(&path).is_err(), "{sql}: opened");
            assert!(std::fs::read(&path).unwrap() == main_before, "{sql}: the main file changed");
            assert!(std::fs::read(&wal).unwrap() == wal_before, "{sql}: the log changed");
        }
    }

    #[test]
    fn a_hot_rollback_journal_is_not_rolled_back_into_a_foreign_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("other.db");
        let journal = dir.path().join("other.db-journal");
        {
            let conn = Connection::open(&path).unwrap();
            conn.execute_batch("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('a');")
                .unwrap();
        }
        // What a crash in the middle of another app's write leaves: a journal beside the file.
        std::fs::write(
            &journal,
            b"not empty: a hot journal from another application",
        )
        .unwrap();
        let (main, log) = (
            std::fs::read(&path).unwrap(),
            std::fs::read(&journal).unwrap(),
        );
        assert!(matches!(Store::open(&path), Err(Error::ForeignDatabase)));
        assert!(std::fs::read(&path).unwrap() == main, "the file changed");
        assert!(
            std::fs::read(&journal).unwrap() == log,
            "the journal changed"
        );
    }

    #[test]
    fn odd_user_versions_and_lookalike_tables_are_foreign() {
        // A negative user_version; and a table named like ours at version 1 with other columns.
        for sql in [
            "CREATE TABLE notes (x); PRAGMA user_version = -1;",
            "CREATE TABLE generation_metadata (note TEXT); PRAGMA user_version = 1;",
        ] {
            assert_refused_untouched(sql, false, |e| matches!(e, Error::ForeignDatabase));
        }
    }

    #[test]
    fn an_empty_path_is_refused() {
        assert!(matches!(Store::open(""), Err(Error::InvalidArgument(_))));
    }

    #[test]
    fn a_file_that_cannot_be_opened_is_reported_without_its_path() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("no-such-dir").join("jane-doe-SECRET.db");
        let e = Store::open(&path).unwrap_err();
        let public = CoachError::from(e);
        assert_eq!(public.code(), "storage", "{public}");
        assert!(!public.to_string().contains("SECRET"), "{public}");
        assert!(!public.to_string().contains("no-such-dir"), "{public}");
    }

    #[test]
    fn newer_database_is_refused_and_untouched() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("future.db");
        {
            // A database of ours from a future library: our id, a version above ours.
            let conn = Connection::open(&path).unwrap();
            conn.execute_batch(
                "CREATE TABLE future_table (x); PRAGMA user_version = 99; \
                 PRAGMA application_id = 1131365231;",
            )
            .unwrap();
        }
        let before = std::fs::read(&path).unwrap();
        match Store::open(&path) {
            Err(Error::DatabaseTooNew {
                found: 99,
                supported,
            }) => assert_eq!(supported, SCHEMA_VERSION),
            other => panic!("expected DatabaseTooNew, got {other:?}"),
        }
        let conn = Connection::open(&path).unwrap();
        let v: u32 = conn
            .pragma_query_value(None, "user_version", |r| r.get(0))
            .unwrap();
        assert_eq!(v, 99);
        let tables: i64 = conn
            .query_row(
                "SELECT count(*) FROM sqlite_master WHERE name = 'generation_metadata'",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(tables, 0, "no migration ran");
        drop(conn);
        assert_eq!(
            std::fs::read(&path).unwrap(),
            before,
            "the file is byte-identical"
        );
    }

    #[test]
    fn non_database_file_is_refused_and_byte_identical() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("notes.db");
        let garbage: Vec<u8> = (0..8192u32).map(|i| (i * 7919 % 251) as u8).collect();
        std::fs::write(&path, &garbage).unwrap();
        assert!(matches!(Store::open(&path), Err(Error::NotADatabase(_))));
        assert_eq!(std::fs::read(&path).unwrap(), garbage);
        assert_only_file(dir.path(), "notes.db");
    }

    #[test]
    fn text_file_is_not_a_database() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("plan.json");
        let text = b"{\"focus\": \"not a database, just JSON that someone saved here by mistake\"}"
            .repeat(20);
        std::fs::write(&path, &text).unwrap();
        assert!(matches!(Store::open(&path), Err(Error::NotADatabase(_))));
        assert_eq!(std::fs::read(&path).unwrap(), text);
    }

    #[test]
    fn a_failing_migration_rolls_back_to_the_old_version() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("coach.db");
        let mut conn = Connection::open(&path).unwrap();
        migrate_with(&mut conn, &MIGRATIONS[..1], 1).unwrap();
        let before = schema_of(&conn);
        // Step 2 is fine; step 3 creates a table, then fails.
        let broken = [
            MIGRATIONS[0],
            MIGRATIONS[1],
            "CREATE TABLE half_done (x); INSERT INTO no_such_table VALUES (1);",
        ];
        let err = migrate_with(&mut conn, &broken, 3).unwrap_err();
        assert!(matches!(err, Error::Migration { step: 3, .. }), "{err:?}");
        assert_eq!(user_version(&conn).unwrap(), 1, "old version kept");
        assert_eq!(schema_of(&conn), before, "no table of step 2 or 3 is left");
        // The public detail names the step and SQLite's message, not the migration's SQL.
        let detail = CoachError::from(err).detail();
        assert_eq!(detail, "migration 3 failed: no such table: no_such_table");
        // The same file still upgrades with the real list.
        drop(conn);
        assert_eq!(
            Store::open(&path).unwrap().schema_version().unwrap(),
            SCHEMA_VERSION
        );
    }

    #[test]
    fn a_syntax_error_in_a_migration_does_not_quote_its_sql() {
        let mut conn = Connection::open_in_memory().unwrap();
        let err = migrate_with(
            &mut conn,
            &["CREATE TABLE ok (x); CREATE TABLEE nope (y);"],
            1,
        )
        .unwrap_err();
        let detail = CoachError::from(err).detail();
        assert!(detail.starts_with("migration 1 failed: "), "{detail}");
        // SQLite's own message names the token it stopped at; the statements are left out.
        assert_eq!(detail, "migration 1 failed: near \"TABLEE\": syntax error");
        assert_eq!(user_version(&conn).unwrap(), 0);
        assert!(schema_of(&conn).is_empty());
    }
}
