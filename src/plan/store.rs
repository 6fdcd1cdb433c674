//! Generation metadata: one row per generation or transform, with the schema version chosen, why,
//! the ruleset applied and the outcome. No user content is stored here.

use rusqlite::{params, Row};

use super::{SchemaVersion, SelectionReason};
use crate::db::codec::from_text;
use crate::db::Store;
use crate::kernel::error::{OutputErrorCode, Result};

/// A row to record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewGeneration {
    /// What was generated, e.g. `plan.transform`.
    pub feature: String,
    /// The LLM schema used.
    pub schema_version: SchemaVersion,
    /// Why that schema was chosen.
    pub selection_reason: SelectionReason,
    /// The enum-expansion ruleset applied.
    pub ruleset_version: String,
    /// `None` when the generation succeeded.
    pub error_code: Option<OutputErrorCode>,
    /// JSON path of the failure, when known.
    pub error_path: Option<String>,
    /// Milliseconds since the Unix epoch.
    pub created_at_ms: i64,
}

/// One recorded generation, as apps read it back (newest first).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, uniffi::Record)]
#[serde(rename_all = "camelCase")]
pub struct GenerationRecord {
    /// Row id; matches `PlanTransform.generation_id`.
    pub id: i64,
    /// What was generated, e.g. `plan.transform`.
    pub feature: String,
    /// The LLM schema used.
    pub schema_version: SchemaVersion,
    /// Why that schema was chosen.
    pub selection_reason: SelectionReason,
    /// The enum-expansion ruleset applied.
    pub ruleset_version: String,
    /// Whether the output was accepted.
    pub succeeded: bool,
    /// Why it failed, when it did.
    pub error_code: Option<OutputErrorCode>,
    /// Where in the output it failed, when known.
    pub error_path: Option<String>,
    /// Milliseconds since the Unix epoch.
    pub created_at_ms: i64,
}

#[cfg(test)]
impl NewGeneration {
    pub(crate) fn sample() -> Self {
        NewGeneration {
            feature: "plan.transform".into(),
            schema_version: SchemaVersion::V2Flat,
            selection_reason: SelectionReason::Override,
            ruleset_version: "plan-expansion/1".into(),
            error_code: None,
            error_path: None,
            created_at_ms: 1_700_000_000_000,
        }
    }
}

fn record(row: &Row<'_>) -> rusqlite::Result<GenerationRecord> {
    let text = |i: usize| row.get::<_, String>(i);
    let bad = |i: usize| {
        rusqlite::Error::InvalidColumnType(i, "unknown value".into(), rusqlite::types::Type::Text)
    };
    let code: Option<String> = row.get(6)?;
    Ok(GenerationRecord {
        id: row.get(0)?,
        feature: text(1)?,
        schema_version: SchemaVersion::parse(&text(2)?).ok_or_else(|| bad(2))?,
        selection_reason: SelectionReason::parse(&text(3)?).ok_or_else(|| bad(3))?,
        ruleset_version: text(4)?,
        succeeded: row.get(5)?,
        error_code: code.map(|c| from_text(&c, 6)).transpose()?,
        error_path: row.get(7)?,
        created_at_ms: row.get(8)?,
    })
}

impl Store {
    /// Records one generation; returns its row id.
    pub fn insert_generation(&self, g: &NewGeneration) -> Result<i64> {
        // Through `write`: a read-only or damaged database refuses it with a typed error.
        self.write(|db| {
            db.conn
                .prepare_cached(
                    "INSERT INTO generation_metadata (feature, schema_version, selection_reason,
                         ruleset_version, succeeded, error_code, error_path, created_at_ms)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                )?
                .execute(params![
                    g.feature,
                    g.schema_version.as_str(),
                    g.selection_reason.as_str(),
                    g.ruleset_version,
                    g.error_code.is_none(),
                    g.error_code.map(OutputErrorCode::as_str),
                    g.error_path,
                    g.created_at_ms,
                ])?;
            Ok(db.conn.last_insert_rowid())
        })
    }

    /// The most recent `limit` generations, newest first.
    pub fn recent_generations(&self, limit: u32) -> Result<Vec<GenerationRecord>> {
        self.read(|db| {
            let mut st = db.conn.prepare_cached(
                "SELECT id, feature, schema_version, selection_reason, ruleset_version, succeeded,
                        error_code, error_path, created_at_ms
                 FROM generation_metadata ORDER BY created_at_ms DESC, id DESC LIMIT ?1",
            )?;
            let rows = st
                .query_map([limit], record)?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            Ok(rows)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
