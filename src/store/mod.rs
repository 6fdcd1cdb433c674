//! Storage: the only module that touches SQLite.
//!
//! [`Store::open`] sets the connection up (WAL, foreign keys, busy timeout), then brings the schema
//! to the current version with numbered migrations (`migrations/NNNN_*.sql`) applied in one
//! IMMEDIATE transaction keyed on `PRAGMA user_version`. A database newer than this code, or a file
//! that is not a database, is an error and is never deleted or overwritten.
//!
//! One DAO file per domain: [`generations`] holds generation metadata.

mod assistant;
mod changes;
mod codec;
mod generations;
mod training;

use std::path::Path;
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

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
];

/// The schema version this code writes.
pub const SCHEMA_VERSION: u32 = MIGRATIONS.len() as u32;

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
        Self::init(Connection::open_with_flags(path, flags)?)
    }

    /// A private in-memory database, for tests and for callers that keep nothing.
    pub fn open_in_memory() -> Result<Store> {
        Self::init(Connection::open_in_memory()?)
    }

    fn init(mut conn: Connection) -> Result<Store> {
        prepare(&conn)?;
        migrate(&mut conn, SCHEMA_VERSION)?;
        Ok(Store {
            conn: Mutex::new(conn),
        })
    }

    /// The schema version of the open database.
    pub fn schema_version(&self) -> Result<u32> {
        user_version(&self.lock())
    }

    /// Runs `f` on the database without a transaction (for reads).
    pub fn read<T>(&self, f: impl FnOnce(&Db<'_>) -> Result<T>) -> Result<T> {
        let conn = self.lock();
        f(&Db { conn: &conn })
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

/// Connection pragmas. The first statement reads the file header, so this is where a file that is
/// not a database is detected, before anything is written.
fn prepare(conn: &Connection) -> Result<()> {
    conn.busy_timeout(Duration::from_secs(5))?;
    // Read before writing anything: a non-database fails on this read, and a database newer than
    // the code is refused before WAL mode would change its header.
    conn.query_row("SELECT count(*) FROM sqlite_master", [], |_| Ok(()))?;
    refuse_newer(user_version(conn)?)?;
    conn.pragma_update_and_check(None, "journal_mode", "WAL", |_| Ok(()))?;
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    conn.pragma_update(None, "foreign_keys", true)?;
    Ok(())
}

fn user_version(conn: &Connection) -> Result<u32> {
    Ok(conn.pragma_query_value(None, "user_version", |r| r.get(0))?)
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

/// Migrates `conn` to `target` (at most [`SCHEMA_VERSION`]) in one transaction. Refuses a
/// database newer than the code.
fn migrate(conn: &mut Connection, target: u32) -> Result<()> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let found = user_version(&tx)?;
    refuse_newer(found)?;
    if found >= target {
        return Ok(());
    }
    for sql in &MIGRATIONS[found as usize..target as usize] {
        tx.execute_batch(sql)?;
    }
    tx.pragma_update(None, "user_version", target)?;
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
        for from in 0..SCHEMA_VERSION {
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("old.db");
            {
                let mut conn = Connection::open(&path).unwrap();
                migrate(&mut conn, from).unwrap();
                assert_eq!(user_version(&conn).unwrap(), from);
            }
            let store = Store::open(&path).unwrap();
            assert_eq!(
                store.schema_version().unwrap(),
                SCHEMA_VERSION,
                "from {from}"
            );
            assert_eq!(
                schema_of(&store.lock()),
                want,
                "upgrade from version {from}"
            );
        }
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

    #[test]
    fn newer_database_is_refused_and_untouched() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("future.db");
        {
            let conn = Connection::open(&path).unwrap();
            conn.execute_batch("CREATE TABLE future_table (x); PRAGMA user_version = 99;")
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
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(
            names,
            vec![std::ffi::OsString::from("notes.db")],
            "no -wal/-shm left behind"
        );
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
}
