//! Opening, checking, migrating and encrypting the database: [`Store`] and the [`Db`] every
//! feature's `store.rs` adds its SQL to. The rest of `db` is around it: `cipher.rs` (keys and the
//! checks before an encrypted open), `export.rs`, `codec.rs`.
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
//! A non-empty file with a rollback journal (`-journal`) beside it that SQLite would roll back
//! into it (a hot journal recording a non-empty original) is refused before SQLite opens it: the
//! library's databases use a write-ahead log, and SQLite's first read would roll another
//! application's journal back into its file. The journal a first open killed during the switch to
//! WAL leaves (empty, not synced, or recording an empty original) changes nothing that was ever
//! committed, and the file beside it (one page, no schema) is initialised as a new one.
//!
//! First opens are safe to race and to kill: the busy timeout is set before the first read, the
//! three reads that decide whose file it is run in one read transaction, the migrations re-read
//! `user_version` inside their IMMEDIATE transaction (a second opener finds nothing to do), and
//! when SQLite reports the file busy without waiting (it does where waiting could deadlock) the
//! whole sequence is tried again until the busy timeout.
//!
//! Damage: every open runs `PRAGMA quick_check` before migrating. A damaged file is not migrated
//! (one that needs a migration is refused with [`Error::DatabaseCorrupt`]); with a current schema
//! it opens and every [`Store::write`] is refused with [`Error::DatabaseCorrupt`], as are writes
//! after [`Store::check_integrity`] or a read finds damage. Reads work where SQLite can read.
//!
//! Read-only: a file without write permission bits (or one SQLite opens read-only by itself), or
//! [`Store::open_read_only`], gets a read-only connection: no WAL switch, no migration (a file
//! that needs one is refused with [`Error::ReadOnly`]), and every [`Store::write`] fails with
//! [`Error::ReadOnly`]. In a write-protected folder without SQLite's `-shm` index, the file is
//! opened `immutable` (a WAL database otherwise needs to create the index).
//!
//! A full disk: before its first read of a write-ahead-log database SQLite sizes the `-shm` index
//! beside it (32 KiB), which fails when the disk is full. The open then tries again in exclusive
//! locking mode, where the index is kept in memory: reads work (writes fail with `storage`, as
//! they would), and other processes wait for the file until this store is closed.
//!
//! A new file's missing folders are created first (on a fresh iOS install Application Support does
//! not exist); when that fails (a file in the way, no permission) the open is refused with
//! [`Error::FolderNotCreated`]. A read-only open creates nothing.
//!
//! A path that is not a regular file (a device such as `/dev/null`, a folder, a pipe), or a
//! database with a `-journal`, `-wal` or `-shm` beside it that is not one, is refused with
//! [`Error::NotAFile`] before SQLite opens anything: SQLite would read it and create its own files
//! beside it.
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

use std::io::Read;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

use rusqlite::config::DbConfig;
use rusqlite::{Connection, OpenFlags, TransactionBehavior, MAIN_DB};

use crate::kernel::error::{Error, Result};
use crate::kernel::ids::IdGenerator;

use super::cipher::{self, DatabaseKey, Secret, ENCRYPTION_AVAILABLE};

/// SQLite's "not a database" and "corrupt" results become [`Error::NotADatabase`] (when opening a
/// file; [`Store::read`] and [`Store::write`] turn "corrupt" into [`Error::DatabaseCorrupt`]), a
/// write refused because the file is read-only [`Error::ReadOnly`]; the rest are storage failures.
impl From<rusqlite::Error> for Error {
    fn from(e: rusqlite::Error) -> Self {
        use rusqlite::ErrorCode::{DatabaseCorrupt, NotADatabase, ReadOnly};
        match e.sqlite_error_code() {
            Some(NotADatabase | DatabaseCorrupt) => Error::NotADatabase(e),
            Some(ReadOnly) => Error::ReadOnly("the database file cannot be written".into()),
            _ => Error::Sqlite(e),
        }
    }
}

/// The log target of the database's records: the module's path before it moved to `db/` (apps may
/// filter on it).
pub(crate) const LOG_TARGET: &str = "coachcore::store";

/// The numbered migrations, in order. Index `i` holds the step to version `i + 1`.
const MIGRATIONS: &[&str] = &[
    include_str!("migrations/0001_generation_metadata.sql"),
    include_str!("migrations/0002_training.sql"),
    include_str!("migrations/0003_assistant.sql"),
    include_str!("migrations/0004_suggestion_units.sql"),
    include_str!("migrations/0005_meals.sql"),
    include_str!("migrations/0006_workout.sql"),
    include_str!("migrations/0007_workout_equipment.sql"),
    include_str!("migrations/0008_meal_job_leases.sql"),
    include_str!("migrations/0009_today_plans.sql"),
    include_str!("migrations/0010_recipe_steps.sql"),
    include_str!("migrations/0011_builtin_recipes.sql"),
    include_str!("migrations/0012_pantry_staples.sql"),
];

/// The schema version this code writes.
pub const SCHEMA_VERSION: u32 = MIGRATIONS.len() as u32;

/// `PRAGMA application_id` of the library's databases: ASCII `CoCo` (bytes 68–71 of the header).
/// A database with another non-zero id belongs to another application and is never opened.
pub const APPLICATION_ID: i32 = 0x436F_436F;

/// How long a call waits for another connection (another process, an app extension) that holds
/// the database: SQLite's busy timeout, and the time [`Store::open`] keeps retrying its whole
/// sequence when SQLite reports the file busy without waiting (as it does to avoid a deadlock).
const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// At most this many problems are listed by [`Store::check_integrity`], each cut to
/// [`MAX_PROBLEM_CHARS`].
pub const MAX_INTEGRITY_PROBLEMS: u32 = 20;
const MAX_PROBLEM_CHARS: usize = 200;

/// The first 8 bytes of a rollback journal's header once SQLite has synced it (before that they
/// are zero, and the journal is not "hot").
const JOURNAL_MAGIC: [u8; 8] = [0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7];

/// What [`Store::check_integrity`] found: `ok`, or the first problems SQLite's
/// `PRAGMA integrity_check` reported (at most 20, each a short line naming a table, an index or a
/// page, never a stored value).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, uniffi::Record)]
#[serde(rename_all = "camelCase")]
pub struct IntegrityReport {
    /// Whether the database passed the check.
    pub ok: bool,
    /// The first problems found (empty when `ok`), e.g.
    /// `Tree 7 page 12 cell 3: invalid page number 4096`.
    pub problems: Vec<String>,
}

/// The database inside [`Store::read`] or [`Store::write`]: each feature's `store.rs` adds its DAO
/// methods to it, so a service can compose several of them in one transaction without writing SQL.
pub struct Db<'a> {
    /// The connection, for the features' SQL (their `store.rs`).
    pub(crate) conn: &'a Connection,
}

/// A handle on the library's database. Thread-safe; calls are serialized on one connection.
pub struct Store {
    /// `None` once [`Store::close`] ran: every call then fails with [`Error::Closed`].
    conn: Mutex<Option<Connection>>,
    /// The file is opened read-only: [`Store::write`] refuses with [`Error::ReadOnly`].
    read_only: bool,
    /// A check found the file damaged: [`Store::write`] refuses with [`Error::DatabaseCorrupt`].
    corrupt: AtomicBool,
    /// The connection was keyed (`cipher.rs`): the file is encrypted.
    encrypted: bool,
    /// This open's id (see [`Store::instance_id`]).
    instance: String,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store")
            .field("read_only", &self.read_only)
            .finish_non_exhaustive()
    }
}

/// SQLite's locking mode for a connection ([`Store::connect`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Locking {
    /// Shared with other connections and processes, through the `-shm` index beside the file.
    Normal,
    /// This connection alone, its write-ahead-log index in memory: no `-shm` needed.
    Exclusive,
}

/// How [`Store::open`] may use the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Access {
    /// Read-write when the file can be written, else read-only.
    Auto,
    /// Read-only whatever the file's permissions.
    ReadOnly,
}

impl Store {
    /// Opens (creating if absent) the database file at `path` and migrates it to
    /// [`SCHEMA_VERSION`].
    ///
    /// A write-protected file (no write permission bit, or one SQLite cannot write), or a file in
    /// a write-protected folder, is opened read-only as [`Store::open_read_only`] does. A file that
    /// fails `PRAGMA quick_check` opens for reading only when its schema is current (writes are
    /// refused with [`Error::DatabaseCorrupt`]); one that would need a migration is refused.
    pub fn open(path: impl AsRef<Path>) -> Result<Store> {
        Self::open_with(path.as_ref(), Access::Auto, None)
    }

    /// Opens the database at `path` for reading only: nothing is written to the file, and every
    /// [`Store::write`] fails with [`Error::ReadOnly`]. The file must exist with the current
    /// schema (a file that needs a migration is refused with [`Error::ReadOnly`]). When the folder
    /// is write-protected and SQLite's `-shm` index is absent, the file is read as immutable (no
    /// other process may write it meanwhile).
    pub fn open_read_only(path: impl AsRef<Path>) -> Result<Store> {
        Self::open_with(path.as_ref(), Access::ReadOnly, None)
    }

    /// A private in-memory database, for tests and for callers that keep nothing.
    pub fn open_in_memory() -> Result<Store> {
        cipher::initialize();
        Self::init(Connection::open_in_memory()?, false, false)
    }

    fn open_with(path: &Path, access: Access, key: Option<&DatabaseKey>) -> Result<Store> {
        // A key this build cannot use, or one given for a plain file: refused before SQLite opens
        // anything.
        cipher::initialize();
        refuse_special_files(path)?;
        cipher::check_before_open(path, key)?;
        if path.as_os_str().is_empty() {
            // SQLite would open a private temporary database: nothing would be kept.
            return Err(Error::InvalidArgument(
                "the database path is empty (use an in-memory store to keep nothing)".into(),
            ));
        }
        if access == Access::Auto {
            create_folders_above(path)?;
        }
        // Two processes opening one new file at once (an app and its extension at first launch)
        // contend for it: SQLite waits for the other one with the busy timeout, except where
        // waiting could deadlock, where it reports "busy" at once. The whole sequence is then
        // tried again (nothing is left half done: each step is one transaction) until the timeout.
        let deadline = Instant::now() + BUSY_TIMEOUT;
        let mut pause = Duration::from_millis(1);
        loop {
            match Self::open_once(path, access, key) {
                Err(e) if is_busy(&e) && Instant::now() + pause < deadline => {
                    std::thread::sleep(pause);
                    pause = (pause * 2).min(Duration::from_millis(50));
                }
                other => return other,
            }
        }
    }

    fn open_once(path: &Path, access: Access, key: Option<&DatabaseKey>) -> Result<Store> {
        let file = std::fs::metadata(path).ok();
        let non_empty = file.as_ref().is_some_and(|m| m.len() > 0);
        // A rollback journal that would change the file when SQLite reads it: the library's
        // databases use a write-ahead log, so it is another application's, and SQLite's first
        // read would roll its journal back into its file. Refused before SQLite touches it. (The
        // journal a killed first open leaves, empty or recording an empty file, changes nothing
        // that was ever committed: that file is opened, and initialised, as a new one.)
        if non_empty && journal_restores_content(&sibling(path, "-journal")) {
            return Err(Error::ForeignDatabase);
        }
        // A write-ahead log left by whoever wrote the file last, not folded into it yet.
        let pending_log = std::fs::metadata(sibling(path, "-wal")).is_ok_and(|m| m.len() > 0);
        let write_protected = file.as_ref().is_some_and(|m| m.permissions().readonly());
        let read_only = access == Access::ReadOnly || write_protected;
        let index = sibling(path, "-shm");
        let had_index = index.exists();
        match Self::connect(path, read_only, pending_log, key, Locking::Normal) {
            // The disk is full (or the process may not grow files): SQLite cannot give its
            // shared-memory index its first 32 KiB, so even a read fails. In exclusive locking
            // mode the index lives in the connection's memory: reads work, and writes fail as
            // they would anyway. Other processes wait while this connection is open.
            Err(e) if !read_only && index_cannot_grow(&e) => {
                log::warn!(target: LOG_TARGET,
                    "SQLite cannot grow its -shm index (is the disk full?): the database is \
                     opened in exclusive locking mode");
                let store = Self::connect(path, false, pending_log, key, Locking::Exclusive)?;
                // The first attempt left the index it created (3 bytes); with this connection's
                // exclusive lock no other connection can be using it.
                if !had_index {
                    let _ = std::fs::remove_file(&index);
                }
                Ok(store)
            }
            other => other,
        }
    }

    /// One connection on `path` (read-only, or read-write and created if absent), keyed, with
    /// `locking`, then [`Store::init`].
    fn connect(
        path: &Path,
        read_only: bool,
        pending_log: bool,
        key: Option<&DatabaseKey>,
        locking: Locking,
    ) -> Result<Store> {
        let conn = if read_only {
            open_read_only_connection(path, pending_log)?
        } else {
            let flags = OpenFlags::SQLITE_OPEN_READ_WRITE
                | OpenFlags::SQLITE_OPEN_CREATE
                | OpenFlags::SQLITE_OPEN_NO_MUTEX;
            Connection::open_with_flags(path, flags).map_err(open_error)?
        };
        // The key first: every step below reads the file.
        if let Some(key) = key {
            cipher::apply_key(&conn, key)?;
        }
        if locking == Locking::Exclusive {
            // Before the first read: the write-ahead log's index is then kept in memory.
            conn.pragma_update(None, "locking_mode", "EXCLUSIVE")?;
        }
        // SQLite opens a file it may not write (another user's) read-only by itself.
        let read_only = conn.is_readonly(MAIN_DB)?;
        let mut store = Self::init(conn, pending_log, read_only)
            .map_err(|e| cipher::explain_refusal(e, path, key.is_some()))?;
        store.encrypted = key.is_some();
        Ok(store)
    }

    fn init(mut conn: Connection, pending_log: bool, read_only: bool) -> Result<Store> {
        // Until the file is known to be ours, closing must not checkpoint a write-ahead log that
        // another application left behind (that would write its pages into the main file).
        if pending_log {
            conn.set_db_config(DbConfig::SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, true)?;
        }
        let version = prepare(&conn, read_only)?;
        // Every DAO statement is cached; rusqlite keeps 16 by default, fewer than one workout's
        // generation uses, so statements would be parsed again on every call.
        conn.set_prepared_statement_cache_capacity(128);
        // A damaged file is not migrated (a migration would spread the damage); with a current
        // schema it is opened for reading.
        let damage = quick_check(&conn)?;
        if pending_log {
            conn.set_db_config(DbConfig::SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, false)?;
        }
        if version != SCHEMA_VERSION {
            if let Some(problem) = &damage {
                return Err(Error::DatabaseCorrupt(format!(
                    "{problem}; it needs an upgrade, which a damaged file cannot take"
                )));
            }
            if read_only {
                return Err(Error::ReadOnly(format!(
                    "the file has schema version {version} and needs an upgrade to \
                     {SCHEMA_VERSION}, which a read-only file cannot take"
                )));
            }
        }
        if !read_only && damage.is_none() {
            migrate(&mut conn, SCHEMA_VERSION)?;
        }
        if let Some(problem) = &damage {
            log::error!(target: LOG_TARGET,
                "the database file is damaged ({problem}): writes are refused");
        }
        Ok(Store {
            conn: Mutex::new(Some(conn)),
            read_only,
            corrupt: AtomicBool::new(damage.is_some()),
            encrypted: false,
            instance: IdGenerator::from_entropy().next_id(),
        })
    }

    /// The schema version of the open database.
    pub fn schema_version(&self) -> Result<u32> {
        user_version(&*self.lock()?)
    }

    /// This open of the file: a random id, unique across processes and opens, that rows a
    /// writer owns for a while carry (a meal-plan job's owner), so another open can tell them
    /// from its own.
    pub fn instance_id(&self) -> &str {
        &self.instance
    }

    /// Whether the database was opened read-only (every [`Store::write`] fails).
    pub fn is_read_only(&self) -> bool {
        self.read_only
    }

    /// Runs SQLite's full `PRAGMA integrity_check` (it reads every page: seconds on a large file)
    /// and reports the first [`MAX_INTEGRITY_PROBLEMS`] problems. A failed check makes later
    /// writes fail with [`Error::DatabaseCorrupt`]; a passed one allows them again.
    pub fn check_integrity(&self) -> Result<IntegrityReport> {
        let conn = self.lock()?;
        let problems = match pragma_check(&conn, "integrity_check", MAX_INTEGRITY_PROBLEMS) {
            Ok(problems) => problems,
            // A schema too damaged to read fails the check itself.
            Err(Error::NotADatabase(e) | Error::Sqlite(e)) if is_corrupt(&e) => {
                vec!["the database schema cannot be read".into()]
            }
            Err(e) => return Err(e),
        };
        self.corrupt.store(!problems.is_empty(), Ordering::SeqCst);
        Ok(IntegrityReport {
            ok: problems.is_empty(),
            problems,
        })
    }

    /// Runs `f` in one read (deferred) transaction: a consistent snapshot for reads.
    pub fn read<T>(&self, f: impl FnOnce(&Db<'_>) -> Result<T>) -> Result<T> {
        let mut conn = self.lock()?;
        let run = |conn: &mut Connection| {
            // One read transaction: every query of `f` sees the same snapshot, and SQLite takes
            // its read lock once instead of once per statement.
            let tx = conn.transaction_with_behavior(TransactionBehavior::Deferred)?;
            let out = f(&Db { conn: &tx })?;
            tx.finish()?;
            Ok(out)
        };
        run(&mut conn).map_err(|e| self.damage_found(e))
    }

    /// Runs `f` in one IMMEDIATE transaction: everything it writes commits together, or nothing
    /// does if it returns an error. Refused with [`Error::ReadOnly`] on a read-only database and
    /// with [`Error::DatabaseCorrupt`] on a damaged one.
    pub fn write<T>(&self, f: impl FnOnce(&Db<'_>) -> Result<T>) -> Result<T> {
        self.writable()?;
        let mut conn = self.lock()?;
        let run = |conn: &mut Connection| {
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let out = f(&Db { conn: &tx })?;
            tx.commit()?;
            Ok(out)
        };
        run(&mut conn).map_err(|e| self.damage_found(e))
    }

    /// [`Error::ReadOnly`] on a read-only database, [`Error::DatabaseCorrupt`] on a damaged one.
    fn writable(&self) -> Result<()> {
        if self.read_only {
            return Err(Error::ReadOnly(
                "the database was opened read-only (the file or its folder is write-protected)"
                    .into(),
            ));
        }
        if self.corrupt.load(Ordering::SeqCst) {
            return Err(Error::DatabaseCorrupt(
                "a check found damaged pages; writes are refused".into(),
            ));
        }
        Ok(())
    }

    /// A "corrupt" result from SQLite once the file is open: the file is damaged, so later writes
    /// are refused.
    fn damage_found(&self, e: Error) -> Error {
        match e {
            Error::NotADatabase(e) | Error::Sqlite(e) if is_corrupt(&e) => {
                self.corrupt.store(true, Ordering::SeqCst);
                log::error!(target: LOG_TARGET, "the database file is damaged: {e}");
                Error::DatabaseCorrupt("SQLite found a damaged page; writes are refused".into())
            }
            other => other,
        }
    }

    /// The connection, waiting for the call that holds it; [`Error::Closed`] after
    /// [`Store::close`].
    pub(super) fn lock(&self) -> Result<ConnGuard<'_>> {
        // A panic while holding the lock cannot leave SQLite inconsistent (transactions roll
        // back on drop), so a poisoned lock is still safe to use.
        let guard = self.conn.lock().unwrap_or_else(|p| p.into_inner());
        if guard.is_none() {
            return Err(Error::Closed);
        }
        Ok(ConnGuard(guard))
    }

    /// Closes the database: waits for the call holding the connection, then drops it (SQLite
    /// checkpoints the write-ahead log as the last connection closes). Every later call fails
    /// with [`Error::Closed`]. Closing twice does nothing.
    pub fn close(&self) {
        let conn = self.conn.lock().unwrap_or_else(|p| p.into_inner()).take();
        drop(conn);
    }

    /// Whether [`Store::close`] ran.
    pub fn is_closed(&self) -> bool {
        self.conn
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .is_none()
    }
}

/// The open connection behind the store's lock (see [`Store::lock`]).
pub(super) struct ConnGuard<'a>(MutexGuard<'a, Option<Connection>>);

impl std::ops::Deref for ConnGuard<'_> {
    type Target = Connection;

    fn deref(&self) -> &Connection {
        // `Store::lock` hands out a guard only over an open connection.
        self.0.as_ref().expect("an open connection")
    }
}

impl std::ops::DerefMut for ConnGuard<'_> {
    fn deref_mut(&mut self) -> &mut Connection {
        self.0.as_mut().expect("an open connection")
    }
}

/// `path` with `suffix` appended (`-journal`, `-wal`, `-shm`).
fn sibling(path: &Path, suffix: &str) -> std::path::PathBuf {
    let mut p = path.as_os_str().to_owned();
    p.push(suffix);
    p.into()
}

/// Refuses a path that is not a regular file (a device such as `/dev/null`, a folder, a pipe, a
/// socket), and a database whose `-journal`, `-wal` or `-shm` is one: SQLite would open it, read
/// from it (a pipe can block forever) and create its own files beside it (`/dev/null-journal`,
/// with the device's permissions). A path that does not exist yet is fine; a symbolic link
/// counts as what it points to.
fn refuse_special_files(path: &Path) -> Result<()> {
    let beside = ["-journal", "-wal", "-shm"].map(|suffix| sibling(path, suffix));
    let special = |p: &Path| std::fs::metadata(p).is_ok_and(|m| !m.is_file());
    if special(path) || beside.iter().any(|p| special(p)) {
        return Err(Error::NotAFile);
    }
    Ok(())
}

/// Creates the missing folders above the database file at `path` (on a fresh iOS install the
/// app's Application Support folder does not exist yet): [`Error::FolderNotCreated`] when that
/// fails (a file in the way, no permission), with nothing written. Nothing is done when the folder
/// exists or `path` has no folder part.
fn create_folders_above(path: &Path) -> Result<()> {
    match path.parent() {
        Some(folder) if !folder.as_os_str().is_empty() && !folder.is_dir() => {
            std::fs::create_dir_all(folder).map_err(Error::FolderNotCreated)
        }
        _ => Ok(()),
    }
}

/// Whether SQLite would roll the rollback journal at `journal` back into a file that was not
/// empty: the journal is hot (its header synced: non-empty, first byte not zero) and records an
/// original file of one page or more. A journal that is absent, empty, zeroed, or records an empty
/// original (what a first open killed during the switch to WAL leaves) restores nothing: SQLite
/// deletes it, or truncates the file back to empty. A hot journal too short to read is counted as
/// one that restores content.
fn journal_restores_content(journal: &Path) -> bool {
    let Ok(file) = std::fs::File::open(journal) else {
        return false;
    };
    let mut header = Vec::with_capacity(20);
    if file.take(20).read_to_end(&mut header).is_err() {
        return true;
    }
    match header.first() {
        None | Some(0) => false,
        Some(_) if header.len() < 20 || header[..8] != JOURNAL_MAGIC => true,
        Some(_) => header[16..20] != [0, 0, 0, 0],
    }
}

/// A read-only connection on `path`. When the folder is write-protected, SQLite cannot create the
/// `-shm` index a write-ahead-log database needs; without one (and without a log to read) the file
/// is opened `immutable`, which needs neither.
fn open_read_only_connection(path: &Path, pending_log: bool) -> Result<Connection> {
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY
        | OpenFlags::SQLITE_OPEN_NO_MUTEX
        | OpenFlags::SQLITE_OPEN_URI;
    let folder_protected = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => std::fs::metadata(dir),
        _ => std::fs::metadata("."),
    }
    .is_ok_and(|m| m.permissions().readonly());
    let no_index = !sibling(path, "-shm").exists();
    let uri = match path.to_str() {
        Some(p) if folder_protected && no_index && !pending_log => {
            // A file URI: `%`, `?` and `#` in the path are escaped.
            let escaped = p
                .replace('%', "%25")
                .replace('?', "%3f")
                .replace('#', "%23");
            format!("file:{escaped}?immutable=1")
        }
        _ => {
            return Connection::open_with_flags(path, flags - OpenFlags::SQLITE_OPEN_URI)
                .map_err(open_error)
        }
    };
    Connection::open_with_flags(uri, flags).map_err(open_error)
}

/// Whether `e` is SQLite's "busy" or "locked": another connection holds the file.
fn is_busy(e: &Error) -> bool {
    use rusqlite::ErrorCode::{DatabaseBusy, DatabaseLocked};
    let code = match e {
        Error::Sqlite(e) | Error::NotADatabase(e) | Error::Migration { source: e, .. } => {
            e.sqlite_error_code()
        }
        _ => None,
    };
    matches!(code, Some(DatabaseBusy | DatabaseLocked))
}

/// Whether `e` is SQLite failing to create, size or map the `-shm` index of the write-ahead log
/// (on a full disk: the index needs 32 KiB before the first read).
fn index_cannot_grow(e: &Error) -> bool {
    use rusqlite::ffi::{SQLITE_IOERR_SHMMAP, SQLITE_IOERR_SHMOPEN, SQLITE_IOERR_SHMSIZE};
    let Error::Sqlite(rusqlite::Error::SqliteFailure(failure, _)) = e else {
        return false;
    };
    [
        SQLITE_IOERR_SHMOPEN,
        SQLITE_IOERR_SHMSIZE,
        SQLITE_IOERR_SHMMAP,
    ]
    .contains(&failure.extended_code)
}

fn is_corrupt(e: &rusqlite::Error) -> bool {
    e.sqlite_error_code() == Some(rusqlite::ErrorCode::DatabaseCorrupt)
}

/// Decides whether the file is ours (see the module docs), reading only, and returns its schema
/// version; then sets the connection pragmas (and, unless `read_only`, switches the file to WAL).
/// Nothing is written before the file is known to be ours or empty.
fn prepare(conn: &Connection, read_only: bool) -> Result<u32> {
    // First, so that every step below waits for a concurrent opener instead of failing.
    conn.busy_timeout(BUSY_TIMEOUT)?;
    // One read transaction: the three reads see the same state of the file even while another
    // process initialises it.
    let tx = conn.unchecked_transaction()?;
    // The first read of the header: a file that is not a database fails here.
    let objects: i64 = tx.query_row(
        "SELECT count(*) FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'",
        [],
        |r| r.get(0),
    )?;
    // A negative or oversized user_version is no version of ours.
    let version: i64 = tx.pragma_query_value(None, "user_version", |r| r.get(0))?;
    let Ok(version) = u32::try_from(version) else {
        return Err(Error::ForeignDatabase);
    };
    match application_id(&tx)? {
        APPLICATION_ID => refuse_newer(version)?,
        // A new file, an empty one, or one a killed first open left with a header and nothing
        // else: initialised as new.
        0 if objects == 0 && version == 0 => {}
        0 if (1..=SCHEMA_VERSION).contains(&version) && has_tables_of(&tx, version)? => {}
        _ => return Err(Error::ForeignDatabase),
    }
    tx.finish()?;
    if !read_only {
        conn.pragma_update_and_check(None, "journal_mode", "WAL", |_| Ok(()))?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
    }
    conn.pragma_update(None, "foreign_keys", true)?;
    Ok(version)
}

/// `PRAGMA quick_check` (every page's structure, without comparing indexes to their tables): the
/// first problem found, or `None` for a sound file.
fn quick_check(conn: &Connection) -> Result<Option<String>> {
    match pragma_check(conn, "quick_check", 1) {
        Ok(problems) => Ok(problems.into_iter().next()),
        Err(Error::NotADatabase(e) | Error::Sqlite(e)) if is_corrupt(&e) => {
            Ok(Some("the database schema cannot be read".into()))
        }
        Err(e) => Err(e),
    }
}

/// Runs `PRAGMA <pragma>(<max>)` (`quick_check` or `integrity_check`) and returns its problems
/// (none when SQLite answers `ok`), each cut to [`MAX_PROBLEM_CHARS`].
fn pragma_check(conn: &Connection, pragma: &str, max: u32) -> Result<Vec<String>> {
    let mut st = conn.prepare(&format!("PRAGMA {pragma}({max})"))?;
    let rows = st.query_map([], |r| r.get::<_, String>(0))?;
    let mut problems = Vec::new();
    for row in rows {
        let line = row?;
        if line != "ok" {
            problems.push(line.chars().take(MAX_PROBLEM_CHARS).collect());
        }
    }
    Ok(problems)
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

// Encryption at rest (`cipher.rs` holds the keys and the checks before an open).
impl Store {
    /// Opens (creating if absent) the encrypted database at `path` with `key`, as
    /// [`Store::open`] does a plain one. The key is set on the connection before anything reads
    /// the file. Refused, the file untouched: [`Error::WrongKey`], [`Error::DatabaseNotEncrypted`]
    /// (a plain SQLite file), [`Error::EncryptionUnavailable`] (a build without the feature).
    pub fn open_encrypted(path: impl AsRef<Path>, key: &DatabaseKey) -> Result<Store> {
        Self::open_with(path.as_ref(), Access::Auto, Some(key))
    }

    /// Whether the database was opened with a key.
    pub fn is_encrypted(&self) -> bool {
        self.encrypted
    }

    /// Re-encrypts the whole database under `key` in one transaction, then truncates the
    /// write-ahead log so no page under the old key is left. Other connections to the file
    /// (another process) must reopen with the new key. Refused on a plain database
    /// ([`Error::DatabaseNotEncrypted`]), a read-only or damaged one.
    pub fn rekey(&self, key: &DatabaseKey) -> Result<()> {
        if !ENCRYPTION_AVAILABLE {
            return Err(Error::EncryptionUnavailable);
        }
        if !self.encrypted {
            return Err(Error::DatabaseNotEncrypted);
        }
        self.writable()?;
        let conn = self.lock()?;
        let literal = key.literal();
        let sql = Secret(format!("PRAGMA rekey = \"{}\"", literal.0));
        conn.execute_batch(&sql.0)?;
        conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))?;
        Ok(())
    }

    /// Writes the whole database into a new file at `dest`, encrypted with `key` or plain without
    /// one, with this database's schema version and id: open it with [`Store::open_encrypted`]
    /// (or [`Store::open`]). `dest` must not exist (nothing is overwritten); a copy that fails is
    /// removed. The database is read in one transaction (a consistent snapshot).
    pub fn copy_to(&self, dest: &Path, key: Option<&DatabaseKey>) -> Result<()> {
        if key.is_some() && !ENCRYPTION_AVAILABLE {
            return Err(Error::EncryptionUnavailable);
        }
        if dest.as_os_str().is_empty() || std::fs::symlink_metadata(dest).is_ok() {
            return Err(Error::InvalidArgument(
                "the copy's path is empty or a file exists there (nothing is overwritten)".into(),
            ));
        }
        let conn = self.lock()?;
        let result = export(&conn, dest, key);
        if result.is_err() {
            // Only what this call created: the new file and its journal.
            for suffix in ["", "-journal", "-wal", "-shm"] {
                let _ = std::fs::remove_file(sibling(dest, suffix));
            }
        }
        result
    }
}

/// The copy of [`Store::copy_to`]: `dest` attached under `key` (SQLCipher's `''` for a plain
/// one), filled by `sqlcipher_export`, stamped with the schema version and the id.
#[cfg(feature = "encryption")]
fn export(conn: &Connection, dest: &Path, key: Option<&DatabaseKey>) -> Result<()> {
    let dest = dest
        .to_str()
        .ok_or_else(|| Error::InvalidArgument("the copy's path is not UTF-8".into()))?;
    let literal = key.map_or_else(|| Secret(String::new()), DatabaseKey::literal);
    conn.execute(
        "ATTACH DATABASE ?1 AS coach_copy KEY ?2",
        [dest, &literal.0],
    )
    .map_err(open_error)?;
    let copied = (|| -> Result<()> {
        let version = user_version(conn)?;
        let id = application_id(conn)?;
        let tx = conn.unchecked_transaction()?;
        tx.query_row("SELECT sqlcipher_export('coach_copy')", [], |_| Ok(()))?;
        tx.pragma_update(Some("coach_copy"), "user_version", version)?;
        tx.pragma_update(Some("coach_copy"), "application_id", id)?;
        tx.commit()?;
        Ok(())
    })();
    let detached = conn.execute("DETACH DATABASE coach_copy", []);
    copied?;
    detached?;
    Ok(())
}

#[cfg(not(feature = "encryption"))]
fn export(conn: &Connection, dest: &Path, _key: Option<&DatabaseKey>) -> Result<()> {
    let dest = dest
        .to_str()
        .ok_or_else(|| Error::InvalidArgument("the copy's path is not UTF-8".into()))?;
    // VACUUM INTO copies the header too: schema version and id come along.
    conn.execute("VACUUM INTO ?1", [dest]).map_err(open_error)?;
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
        let conn = store.lock().unwrap();
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
    fn missing_folders_above_a_new_file_are_created() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("Library/Application Support/coach.db");
        let store = Store::open(&path).unwrap();
        assert_eq!(store.schema_version().unwrap(), SCHEMA_VERSION);
        drop(store);
        assert!(path.is_file());
        // Opened again, the same file (nothing created twice).
        assert_eq!(
            Store::open(&path).unwrap().schema_version().unwrap(),
            SCHEMA_VERSION
        );
    }

    #[test]
    fn a_folder_that_cannot_be_created_is_a_typed_error_and_writes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        // A regular file where a folder of the path should be.
        std::fs::write(dir.path().join("blocked"), b"not a folder").unwrap();
        let path = dir.path().join("blocked/inner/coach.db");
        let Err(err) = Store::open(&path) else {
            panic!("opened below a regular file");
        };
        assert!(matches!(err, Error::FolderNotCreated(_)), "{err:?}");
        let public = crate::kernel::error::CoachError::from(err);
        assert_eq!(public.code(), "storage");
        assert!(
            public.detail().contains("folder") && !public.detail().contains("blocked"),
            "{}",
            public.detail()
        );
        assert_eq!(
            std::fs::read(dir.path().join("blocked")).unwrap(),
            b"not a folder"
        );
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn a_read_only_open_creates_no_folder() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("missing/coach.db");
        assert!(Store::open_read_only(&path).is_err());
        assert!(!dir.path().join("missing").exists());
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
        let want = schema_of(&fresh.lock().unwrap());
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
                let conn = store.lock().unwrap();
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
            assert_eq!(
                application_id(&store.lock().unwrap()).unwrap(),
                APPLICATION_ID
            );
        }
        let memory = Store::open_in_memory().unwrap();
        assert_eq!(
            application_id(&memory.lock().unwrap()).unwrap(),
            APPLICATION_ID
        );
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

    use crate::kernel::error::CoachError;

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
    fn a_path_that_is_not_a_regular_file_is_refused_before_sqlite_opens_it() {
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path().join("folder.db");
        std::fs::create_dir(&folder).unwrap();
        // A pipe could block a read: tests/it/cli.rs tries one in a child process with a time
        // limit.
        let listing = |d: &Path| {
            let mut names: Vec<_> = std::fs::read_dir(d)
                .unwrap()
                .map(|e| e.unwrap().file_name())
                .collect();
            names.sort();
            names
        };
        let (before, devices) = (listing(dir.path()), listing(Path::new("/dev")));
        for path in [Path::new("/dev/null"), Path::new("/dev/zero"), &folder] {
            let opens: [fn(&Path) -> Result<Store>; 2] =
                [|p| Store::open(p), |p| Store::open_read_only(p)];
            for open in opens {
                let e = CoachError::from(open(path).unwrap_err());
                assert_eq!(e.code(), "not_a_database", "{}: {e}", path.display());
                assert!(e.detail().contains("not a regular file"), "{e}");
            }
        }
        assert_eq!(listing(dir.path()), before);
        assert_eq!(
            listing(Path::new("/dev")),
            devices,
            "nothing was created in /dev"
        );
    }

    #[test]
    fn an_empty_path_is_refused() {
        assert!(matches!(Store::open(""), Err(Error::InvalidArgument(_))));
    }

    #[test]
    fn a_file_that_cannot_be_opened_is_reported_without_its_path() {
        let dir = tempfile::tempdir().unwrap();
        // A file name longer than the file system allows: SQLite cannot open it (missing folders
        // would be created, so they no longer make an open fail).
        let name = format!("jane-doe-SECRET{}.db", "x".repeat(300));
        let path = dir.path().join("folder-of-jane").join(name);
        let e = Store::open(&path).unwrap_err();
        let public = CoachError::from(e);
        assert_eq!(public.code(), "storage", "{public}");
        assert!(!public.to_string().contains("SECRET"), "{public}");
        assert!(!public.to_string().contains("folder-of-jane"), "{public}");
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
