//! Export, import and erase of everything the database holds for its user.
//!
//! The export is one JSON document, versioned by [`EXPORT_VERSION`]:
//!
//! ```json
//! {"format":"coachcore-export","version":1,"schemaVersion":6,"exportedAtMs":1700000000000,
//!  "tables":{"plans":{"columns":["id","name",...],"rows":[["p1","Push",...],...]},...}}
//! ```
//!
//! Every table of [`TABLES`] is present (empty ones with no rows), its rows in storage order
//! (`rowid`, or the primary key of a `WITHOUT ROWID` table) with every column, so an import into an
//! empty database gives back the same rows, ids and sequence numbers included. Values are JSON
//! `null`, integers, reals (always written with a fraction or exponent, so `2.0` stays a real) and
//! strings. The full-text index of recipes is not exported: the import rebuilds it through the
//! table's triggers.
//!
//! The rows the library writes itself ([`LIBRARY_ROWS`]: the built-in recipes) are exported too,
//! but do not make a database non-empty: an import deletes them first, with the library state of
//! [`LIBRARY_TABLES`], so the next load of the built-in set brings this library's version.
//!
//! The import streams: each row is inserted as it is read, so memory does not grow with the
//! document. It runs in one IMMEDIATE transaction with foreign keys checked at the end
//! (`defer_foreign_keys`), so a document that breaks a constraint leaves nothing behind. It refuses
//! a database that holds any row ([`Error::DatabaseNotEmpty`]), a document of another format or
//! version, an unknown table or column and a table given twice ([`Error::InvalidArgument`], naming
//! the table and row, never a value).
//!
//! Erasing deletes every row of every table of [`TABLES`] in one transaction with SQLite's
//! `secure_delete` on (freed pages are zeroed), then truncates the write-ahead log so the deleted
//! rows do not linger in it.

use std::cell::RefCell;
use std::fmt;
use std::fmt::Write as _;

use rusqlite::types::ValueRef;
use rusqlite::{params_from_iter, CachedStatement};
use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;

use super::{Db, Store, SCHEMA_VERSION};
use crate::kernel::error::{Error, Result};

/// The `format` of an export document.
pub const EXPORT_FORMAT: &str = "coachcore-export";
/// The version of the export document this library writes and reads.
pub const EXPORT_VERSION: u32 = 1;

/// Every table that holds the user's data, parents before children, and whether it is a
/// `WITHOUT ROWID` table (read in primary-key order). `tests/it/data_export.rs` checks that this
/// names every table of the schema except SQLite's own and the full-text index.
pub const TABLES: [(&str, bool); 26] = [
    ("generation_metadata", false),
    ("exercise_catalog", false),
    ("plans", false),
    ("plan_exercises", false),
    ("set_prescriptions", true),
    ("workout_sessions", false),
    ("exercise_performances", false),
    ("performed_sets", true),
    ("exercise_history", false),
    ("suggestion_runs", false),
    ("prescription_changes", false),
    ("planner_items", false),
    ("planner_completions", true),
    ("goal_items", false),
    ("goal_children", false),
    ("assistant_audit", false),
    ("assistant_idempotency", true),
    ("recipes", false),
    ("hidden_recipes", true),
    ("meal_history", false),
    ("meal_plan_jobs", true),
    ("workout_exercises", false),
    ("workout_equipment", false),
    ("workouts", false),
    ("today_plans", false),
    ("pantry_staples", true),
];

/// Rows the library itself writes into a table of [`TABLES`] (the built-in recipes), by table:
/// the condition that selects them. They are exported like any row, but a database holding only
/// them counts as empty, and an import deletes them first (the library loads its own again).
pub const LIBRARY_ROWS: [(&str, &str); 1] = [("recipes", "builtin = 1")];

/// Tables of library state, not user data (which version of a built-in set the file holds):
/// neither exported nor imported; an import or an erase empties them, so the library loads its
/// built-in sets again.
pub const LIBRARY_TABLES: [&str; 1] = ["builtin_sets"];

/// How many rows of each table an import inserted or an erase deleted.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, uniffi::Record)]
#[serde(rename_all = "camelCase")]
pub struct DataSummary {
    /// Rows per table, in the export's table order (tables without rows are left out).
    pub tables: Vec<TableCount>,
    /// All rows.
    pub total_rows: u64,
}

/// Rows of one table.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, uniffi::Record)]
pub struct TableCount {
    /// The table's name, e.g. `planner_items`.
    pub table: String,
    /// Its rows.
    pub rows: u64,
}

impl DataSummary {
    fn from_counts(counts: Vec<(&'static str, u64)>) -> DataSummary {
        let tables: Vec<TableCount> = counts
            .into_iter()
            .filter(|(_, n)| *n > 0)
            .map(|(table, rows)| TableCount {
                table: table.to_string(),
                rows,
            })
            .collect();
        DataSummary {
            total_rows: tables.iter().map(|t| t.rows).sum(),
            tables,
        }
    }
}

fn columns(db: &Db<'_>, table: &str) -> Result<Vec<String>> {
    Ok(db
        .conn
        .prepare(&format!(
            "SELECT name FROM pragma_table_info('{table}') ORDER BY cid"
        ))?
        .query_map([], |r| r.get::<_, String>(0))?
        .collect::<rusqlite::Result<_>>()?)
}

/// `s` as a JSON string.
fn push_json_str(out: &mut String, s: &str) -> Result<()> {
    out.push_str(
        &serde_json::to_string(s)
            .map_err(|_| Error::Internal("encoding a string failed".into()))?,
    );
    Ok(())
}

impl Db<'_> {
    /// Every table of [`TABLES`] as the export document (see the module doc).
    pub fn export_document(&self, exported_at_ms: i64) -> Result<String> {
        let mut out = String::with_capacity(4096);
        let _ = write!(
            out,
            r#"{{"format":"{EXPORT_FORMAT}","version":{EXPORT_VERSION},"schemaVersion":{SCHEMA_VERSION},"exportedAtMs":{exported_at_ms},"tables":{{"#
        );
        for (t, (table, without_rowid)) in TABLES.iter().enumerate() {
            let cols = columns(self, table)?;
            if t > 0 {
                out.push(',');
            }
            let _ = write!(out, r#""{table}":{{"columns":"#);
            out.push_str(
                &serde_json::to_string(&cols)
                    .map_err(|_| Error::Internal("encoding columns failed".into()))?,
            );
            out.push_str(r#","rows":["#);
            let order = if *without_rowid {
                ""
            } else {
                " ORDER BY rowid"
            };
            let list = cols.join(", ");
            let mut stmt = self
                .conn
                .prepare(&format!("SELECT {list} FROM {table}{order}"))?;
            let mut rows = stmt.query([])?;
            let mut first = true;
            while let Some(row) = rows.next()? {
                out.push_str(if first { "[" } else { ",[" });
                first = false;
                for (i, col) in cols.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    match row.get_ref(i)? {
                        ValueRef::Null => out.push_str("null"),
                        ValueRef::Integer(n) => {
                            let _ = write!(out, "{n}");
                        }
                        ValueRef::Real(x) if x.is_finite() => {
                            // `{:?}` keeps a fraction or exponent (`2.0`), so it reads back as a real.
                            let _ = write!(out, "{x:?}");
                        }
                        ValueRef::Text(bytes) => {
                            push_json_str(&mut out, &String::from_utf8_lossy(bytes))?
                        }
                        ValueRef::Real(_) | ValueRef::Blob(_) => {
                            return Err(Error::Internal(format!(
                                "{table}.{col} holds a value an export cannot represent"
                            )))
                        }
                    }
                }
                out.push(']');
            }
            out.push_str("]}");
        }
        out.push_str("}}");
        Ok(out)
    }

    /// Rows per table of [`TABLES`].
    fn row_counts(&self) -> Result<Vec<(&'static str, u64)>> {
        TABLES
            .iter()
            .map(|(table, _)| {
                let n: i64 =
                    self.conn
                        .query_row(&format!("SELECT count(*) FROM {table}"), [], |r| r.get(0))?;
                Ok((*table, n as u64))
            })
            .collect()
    }

    /// Rows per table of [`TABLES`] that the user wrote (not [`LIBRARY_ROWS`]).
    fn user_row_counts(&self) -> Result<Vec<(&'static str, u64)>> {
        TABLES
            .iter()
            .map(|(table, _)| {
                let only = LIBRARY_ROWS
                    .iter()
                    .find(|(t, _)| t == table)
                    .map_or(String::new(), |(_, library)| {
                        format!(" WHERE NOT ({library})")
                    });
                let n: i64 = self.conn.query_row(
                    &format!("SELECT count(*) FROM {table}{only}"),
                    [],
                    |r| r.get(0),
                )?;
                Ok((*table, n as u64))
            })
            .collect()
    }

    /// Deletes the [`LIBRARY_ROWS`] and empties the [`LIBRARY_TABLES`].
    fn clear_library_data(&self) -> Result<()> {
        for (table, library) in LIBRARY_ROWS {
            self.conn
                .execute(&format!("DELETE FROM {table} WHERE {library}"), [])?;
        }
        for table in LIBRARY_TABLES {
            self.conn.execute(&format!("DELETE FROM {table}"), [])?;
        }
        Ok(())
    }

    /// Inserts the rows of an export document into this (empty) database; see the module doc.
    pub fn import_document(&self, json: &str) -> Result<DataSummary> {
        check_header(json)?;
        if let Some((table, _)) = self.user_row_counts()?.into_iter().find(|(_, n)| *n > 0) {
            return Err(Error::DatabaseNotEmpty(format!(
                "table {table} holds rows; import into a new database or erase this one first"
            )));
        }
        self.clear_library_data()?;
        self.conn.pragma_update(None, "defer_foreign_keys", true)?;
        let state = ImportState {
            db: self,
            failure: RefCell::new(None),
            counts: RefCell::new(Vec::new()),
        };
        let mut de = serde_json::Deserializer::from_str(json);
        let parsed = DocSeed(&state).deserialize(&mut de).and_then(|()| de.end());
        if let Err(e) = parsed {
            return Err(state.failure.into_inner().unwrap_or_else(|| {
                Error::InvalidArgument(format!(
                    "export document: {}",
                    crate::kernel::error::json::describe(&e)
                ))
            }));
        }
        let broken: Option<String> = self
            .conn
            .prepare("SELECT \"table\" FROM pragma_foreign_key_check LIMIT 1")?
            .query_map([], |r| r.get(0))?
            .next()
            .transpose()?;
        if let Some(table) = broken {
            return Err(Error::InvalidArgument(format!(
                "export document: rows of table {table} refer to rows that are not in it"
            )));
        }
        let counts = state.counts.into_inner();
        let missing = TABLES
            .iter()
            .map(|(t, _)| *t)
            .find(|t| !counts.iter().any(|(c, _)| c == t));
        if let Some(table) = missing {
            return Err(Error::InvalidArgument(format!(
                "export document: table {table} is missing"
            )));
        }
        Ok(DataSummary::from_counts(counts))
    }

    /// Deletes every row of every table of [`TABLES`] (children first) and returns how many.
    pub fn erase_all(&self) -> Result<DataSummary> {
        let counts = self.row_counts()?;
        for (table, _) in TABLES.iter().rev() {
            self.conn.execute(&format!("DELETE FROM {table}"), [])?;
        }
        self.clear_library_data()?;
        Ok(DataSummary::from_counts(counts))
    }
}

impl Store {
    /// Every table of [`TABLES`] as one export document, read in one snapshot.
    pub fn export_data(&self, exported_at_ms: i64) -> Result<String> {
        self.read(|db| db.export_document(exported_at_ms))
    }

    /// Imports an export document into this empty database in one transaction.
    pub fn import_data(&self, json: &str) -> Result<DataSummary> {
        self.write(|db| db.import_document(json))
    }

    /// Deletes every row in one transaction with `secure_delete` on, then truncates the
    /// write-ahead log (best effort: a reader holding it open only delays that).
    pub fn erase_all_data(&self) -> Result<DataSummary> {
        self.lock()?.pragma_update(None, "secure_delete", true)?;
        let erased = self.write(|db| db.erase_all());
        let conn = self.lock()?;
        let _ = conn.pragma_update(None, "secure_delete", false);
        if erased.is_ok() {
            let _ = conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()));
        }
        erased
    }
}

/// The head of a document: read first, skipping the tables, so a document of another format or
/// version is refused before anything is inserted.
#[derive(Deserialize)]
struct Header {
    #[serde(default)]
    format: Option<IgnoredOr<String>>,
    #[serde(default)]
    version: Option<IgnoredOr<u64>>,
}

/// A value of type `T`, or anything else (then `None`): the header check reports its own error.
struct IgnoredOr<T>(Option<T>);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for IgnoredOr<T> {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let v = serde_json::Value::deserialize(d)?;
        Ok(IgnoredOr(T::deserialize(v).ok()))
    }
}

fn check_header(json: &str) -> Result<()> {
    let header: Header = serde_json::from_str(json).map_err(|e| {
        Error::InvalidArgument(format!(
            "export document: {}",
            crate::kernel::error::json::describe(&e)
        ))
    })?;
    if header.format.and_then(|f| f.0).as_deref() != Some(EXPORT_FORMAT) {
        return Err(Error::InvalidArgument(format!(
            "export document: `format` is not \"{EXPORT_FORMAT}\""
        )));
    }
    match header.version.and_then(|v| v.0) {
        Some(v) if v == u64::from(EXPORT_VERSION) => Ok(()),
        Some(_) => Err(Error::InvalidArgument(format!(
            "export document: unsupported version; this library reads version {EXPORT_VERSION}"
        ))),
        None => Err(Error::InvalidArgument(
            "export document: `version` is missing or not a number".into(),
        )),
    }
}

/// What the streaming import shares: the database, the first failure in the library's words
/// (serde only carries a message), and the rows inserted per table.
struct ImportState<'a, 'c> {
    db: &'a Db<'c>,
    failure: RefCell<Option<Error>>,
    counts: RefCell<Vec<(&'static str, u64)>>,
}

impl ImportState<'_, '_> {
    /// Records `e` as the import's failure and returns a serde error that stops the parse.
    fn fail<E: de::Error>(&self, e: Error) -> E {
        let message = e.to_string();
        self.failure.borrow_mut().get_or_insert(e);
        E::custom(message)
    }
}

fn invalid(detail: impl fmt::Display) -> Error {
    Error::InvalidArgument(format!("export document: {detail}"))
}

struct DocSeed<'s, 'a, 'c>(&'s ImportState<'a, 'c>);

impl<'de> DeserializeSeed<'de> for DocSeed<'_, '_, '_> {
    type Value = ();
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> std::result::Result<(), D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for DocSeed<'_, '_, '_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an export document object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> std::result::Result<(), A::Error> {
        while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            if key == "tables" {
                map.next_value_seed(TablesSeed(self.0))?;
            } else {
                // format and version were checked by the header; other keys are informative.
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(())
    }
}

struct TablesSeed<'s, 'a, 'c>(&'s ImportState<'a, 'c>);

impl<'de> DeserializeSeed<'de> for TablesSeed<'_, '_, '_> {
    type Value = ();
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> std::result::Result<(), D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for TablesSeed<'_, '_, '_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object of tables")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> std::result::Result<(), A::Error> {
        let st = self.0;
        while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            let Some((table, _)) = TABLES.iter().find(|(t, _)| *t == key) else {
                return Err(st.fail(invalid("an unknown table (see the export's table list)")));
            };
            if st.counts.borrow().iter().any(|(t, _)| t == table) {
                return Err(st.fail(invalid(format!("table {table} is given twice"))));
            }
            let rows = map.next_value_seed(TableSeed { st, table })?;
            st.counts.borrow_mut().push((table, rows));
        }
        Ok(())
    }
}

struct TableSeed<'s, 'a, 'c> {
    st: &'s ImportState<'a, 'c>,
    table: &'static str,
}

impl<'de> DeserializeSeed<'de> for TableSeed<'_, '_, '_> {
    type Value = u64;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> std::result::Result<u64, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for TableSeed<'_, '_, '_> {
    type Value = u64;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a table object with `columns`, then `rows`")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> std::result::Result<u64, A::Error> {
        let (st, table) = (self.st, self.table);
        let mut insert: Option<(CachedStatement<'_>, usize)> = None;
        let mut rows = 0;
        while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            match &*key {
                "columns" if insert.is_none() => {
                    let cols: Vec<String> = map.next_value()?;
                    let stmt = insert_statement(st.db, table, &cols).map_err(|e| st.fail(e))?;
                    insert = Some((stmt, cols.len()));
                }
                "rows" => {
                    let Some((stmt, width)) = insert.as_mut() else {
                        return Err(st.fail(invalid(format!(
                            "table {table}: `columns` must come before `rows`"
                        ))));
                    };
                    rows = map.next_value_seed(RowsSeed {
                        st,
                        table,
                        stmt,
                        width: *width,
                    })?;
                }
                _ => {
                    return Err(st.fail(invalid(format!(
                        "table {table}: expected `columns` once, then `rows`"
                    ))))
                }
            }
        }
        Ok(rows)
    }
}

/// `INSERT INTO table (cols) VALUES (?, ...)` after checking every column is the table's, once.
fn insert_statement<'c>(db: &Db<'c>, table: &str, cols: &[String]) -> Result<CachedStatement<'c>> {
    let known = columns(db, table)?;
    for (i, c) in cols.iter().enumerate() {
        if !known.contains(c) {
            return Err(invalid(format!(
                "table {table}: column {i} is not one of its columns"
            )));
        }
        if cols[..i].contains(c) {
            return Err(invalid(format!("table {table}: column {i} is given twice")));
        }
    }
    if cols.is_empty() {
        return Err(invalid(format!("table {table}: no columns")));
    }
    let marks = vec!["?"; cols.len()].join(", ");
    Ok(db.conn.prepare_cached(&format!(
        "INSERT INTO {table} ({}) VALUES ({marks})",
        cols.join(", ")
    ))?)
}

struct RowsSeed<'s, 'a, 'c, 'q> {
    st: &'s ImportState<'a, 'c>,
    table: &'static str,
    stmt: &'q mut CachedStatement<'c>,
    width: usize,
}

impl<'de> DeserializeSeed<'de> for RowsSeed<'_, '_, '_, '_> {
    type Value = u64;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> std::result::Result<u64, D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for RowsSeed<'_, '_, '_, '_> {
    type Value = u64;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an array of rows")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> std::result::Result<u64, A::Error> {
        let (st, table) = (self.st, self.table);
        let mut n: u64 = 0;
        while let Some(row) = seq.next_element::<Vec<Cell>>()? {
            if row.len() != self.width {
                return Err(st.fail(invalid(format!(
                    "table {table} row {n}: {} values for {} columns",
                    row.len(),
                    self.width
                ))));
            }
            if let Err(e) = self.stmt.execute(params_from_iter(row.iter())) {
                let why = match e.sqlite_error_code() {
                    Some(rusqlite::ErrorCode::ConstraintViolation) => "breaks a constraint",
                    _ => "cannot be stored",
                };
                log::warn!(
                    target: "coachcore::store::export",
                    "import: table {table} row {n}: {}",
                    crate::kernel::error::sqlite_message(&e)
                );
                return Err(st.fail(match e.sqlite_error_code() {
                    Some(rusqlite::ErrorCode::ConstraintViolation) | None => {
                        invalid(format!("table {table} row {n} {why}"))
                    }
                    Some(_) => Error::from(e),
                }));
            }
            n += 1;
        }
        Ok(n)
    }
}

/// One value of a row.
enum Cell {
    Null,
    Int(i64),
    Real(f64),
    Text(String),
}

impl rusqlite::ToSql for Cell {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        use rusqlite::types::{ToSqlOutput, Value};
        Ok(match self {
            Cell::Null => ToSqlOutput::Owned(Value::Null),
            Cell::Int(n) => ToSqlOutput::Owned(Value::Integer(*n)),
            Cell::Real(x) => ToSqlOutput::Owned(Value::Real(*x)),
            Cell::Text(s) => ToSqlOutput::Borrowed(ValueRef::Text(s.as_bytes())),
        })
    }
}

impl<'de> Deserialize<'de> for Cell {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> std::result::Result<Cell, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Cell;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("null, a number or a string")
            }
            fn visit_unit<E>(self) -> std::result::Result<Cell, E> {
                Ok(Cell::Null)
            }
            fn visit_none<E>(self) -> std::result::Result<Cell, E> {
                Ok(Cell::Null)
            }
            fn visit_i64<E>(self, n: i64) -> std::result::Result<Cell, E> {
                Ok(Cell::Int(n))
            }
            fn visit_u64<E: de::Error>(self, n: u64) -> std::result::Result<Cell, E> {
                i64::try_from(n)
                    .map(Cell::Int)
                    .map_err(|_| E::custom("number out of range"))
            }
            fn visit_f64<E>(self, x: f64) -> std::result::Result<Cell, E> {
                Ok(Cell::Real(x))
            }
            fn visit_str<E>(self, s: &str) -> std::result::Result<Cell, E> {
                Ok(Cell::Text(s.to_string()))
            }
            fn visit_string<E>(self, s: String) -> std::result::Result<Cell, E> {
                Ok(Cell::Text(s))
            }
        }
        d.deserialize_any(V)
    }
}
