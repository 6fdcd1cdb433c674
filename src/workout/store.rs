//! Workouts (spec 001): the app's own catalog exercises, generated workouts, and the 90-day
//! history read of the pre-analysis (the suggestion engine's logged performances).
//!
//! A saved workout is read in today's shape: a document saved (or imported) in the library's
//! earlier form (`version` the string `"1.2"`, `cut_order` set ids) is upgraded as it is read
//! (`document::upgrade`) and its YAML written again from the upgraded document; the row itself
//! is rewritten when the workout is next written (logged). No migration is needed.

use rusqlite::types::Type;
use rusqlite::{params, OptionalExtension, Row};
use serde_json::Value;

use crate::db::codec::{from_json, from_text, json, text};
use crate::db::Db;
use crate::kernel::error::Result;
use crate::suggest::performances_of;
use crate::suggest::{ExercisePerformance, WeightUnit};
use crate::workout::catalog::{WorkoutEquipment, WorkoutExercise};
use crate::workout::document;
use crate::workout::model::{Workout, WorkoutResult, WorkoutSummary};

/// A saved workout: its result and whether it was logged.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredWorkout {
    /// The list entry.
    pub summary: WorkoutSummary,
    /// Plan, document (with actual values once logged) and YAML.
    pub result: WorkoutResult,
    /// The session it was logged as.
    pub session_id: Option<String>,
}

/// The workout document of column `col`, upgraded when it was saved in the library's earlier
/// form (then `true`).
fn document_col(r: &Row<'_>, col: usize) -> rusqlite::Result<(Workout, bool)> {
    let mut value: Value = from_json(&r.get::<_, String>(col)?, col)?;
    let bad = |e: Box<dyn std::error::Error + Send + Sync>| {
        rusqlite::Error::FromSqlConversionFailure(col, Type::Text, e)
    };
    let upgraded = document::upgrade(&mut value)
        .map_err(|i| bad(format!("{}: {}", i.path, i.message).into()))?;
    let w = serde_json::from_value(value).map_err(|e| bad(Box::new(e)))?;
    Ok((w, upgraded))
}

fn summary_row(r: &Row<'_>) -> rusqlite::Result<WorkoutSummary> {
    summary_of(r, &document_col(r, 4)?.0)
}

/// The list entry of a row whose document `w` is read.
fn summary_of(r: &Row<'_>, w: &Workout) -> rusqlite::Result<WorkoutSummary> {
    Ok(WorkoutSummary {
        workout_id: r.get(0)?,
        date: r.get(1)?,
        location: r.get(2)?,
        source: from_text(&r.get::<_, String>(3)?, 3)?,
        set_count: w.sets.len() as u32,
        logged: r.get::<_, Option<String>>(6)?.is_some(),
        created_at_ms: r.get(5)?,
    })
}

impl Db<'_> {
    /// Adds or replaces an exercise of the app's own workout catalog.
    pub fn save_workout_exercise(&self, e: &WorkoutExercise) -> Result<()> {
        self.save_catalog_row("workout_exercises", "id", &e.id, json(e))
    }

    /// The app's own workout exercises, by id.
    pub fn workout_exercises(&self) -> Result<Vec<WorkoutExercise>> {
        self.catalog_rows("workout_exercises", "id")
    }

    /// Adds or replaces an equipment definition of the app's own workout catalog.
    pub fn save_workout_equipment(&self, e: &WorkoutEquipment) -> Result<()> {
        self.save_catalog_row("workout_equipment", "key", &e.key, json(e))
    }

    /// The app's own equipment definitions, by key.
    pub fn workout_equipment(&self) -> Result<Vec<WorkoutEquipment>> {
        self.catalog_rows("workout_equipment", "key")
    }

    /// Upserts the JSON `body` under `key` in an app catalog table (`table` and `key_col` are
    /// this file's constants, never input).
    fn save_catalog_row(&self, table: &str, key_col: &str, key: &str, body: String) -> Result<()> {
        self.conn
            .prepare_cached(&format!(
                "INSERT INTO {table} ({key_col}, body) VALUES (?1, ?2)
                 ON CONFLICT ({key_col}) DO UPDATE SET body = excluded.body"
            ))?
            .execute(params![key, body])?;
        Ok(())
    }

    /// Every JSON body of an app catalog table, by key.
    fn catalog_rows<T: serde::de::DeserializeOwned>(
        &self,
        table: &str,
        key_col: &str,
    ) -> Result<Vec<T>> {
        Ok(self
            .conn
            .prepare_cached(&format!("SELECT body FROM {table} ORDER BY {key_col}"))?
            .query_map([], |r| from_json(&r.get::<_, String>(0)?, 0))?
            .collect::<rusqlite::Result<Vec<_>>>()?)
    }

    /// The highest `NN` among saved workout ids starting with `prefix` (`date-location-`), 0 if
    /// none.
    pub fn last_workout_seq(&self, prefix: &str) -> Result<u32> {
        let ids: Vec<String> = self
            .conn
            .prepare_cached(
                "SELECT workout_id FROM workouts WHERE substr(workout_id, 1, length(?1)) = ?1",
            )?
            .query_map([prefix], |r| r.get(0))?
            .collect::<rusqlite::Result<_>>()?;
        Ok(ids
            .iter()
            .filter_map(|id| id.strip_prefix(prefix)?.parse::<u32>().ok())
            .max()
            .unwrap_or(0))
    }

    /// Saves a generated workout.
    pub fn insert_workout(&self, r: &WorkoutResult, created_at_ms: i64) -> Result<()> {
        let w = &r.workout;
        self.conn
            .prepare_cached(
                "INSERT INTO workouts (workout_id, date, location, source, created_at_ms, analyzer,
                     workout, yaml) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            )?
            .execute(params![
                w.workout_id,
                w.date,
                w.location,
                text(&r.source),
                created_at_ms,
                json(&r.analyzer),
                json(w),
                r.yaml
            ])?;
        Ok(())
    }

    /// Up to `limit` saved workouts, newest first.
    pub fn workouts(&self, limit: u32) -> Result<Vec<WorkoutSummary>> {
        Ok(self
            .conn
            .prepare_cached(
                "SELECT workout_id, date, location, source, workout, created_at_ms, session_id
                 FROM workouts ORDER BY created_at_ms DESC, workout_id DESC LIMIT ?1",
            )?
            .query_map([limit], summary_row)?
            .collect::<rusqlite::Result<Vec<_>>>()?)
    }

    /// A saved workout.
    pub fn workout(&self, workout_id: &str) -> Result<Option<StoredWorkout>> {
        Ok(self
            .conn
            .prepare_cached(
                "SELECT workout_id, date, location, source, workout, created_at_ms, session_id,
                     analyzer, yaml FROM workouts WHERE workout_id = ?1",
            )?
            .query_row([workout_id], |r| {
                let (workout, upgraded) = document_col(r, 4)?;
                let summary = summary_of(r, &workout)?;
                // The saved YAML is the document's: written again when the document was upgraded.
                let yaml = if upgraded {
                    document::to_yaml(&workout)
                } else {
                    r.get(8)?
                };
                Ok(StoredWorkout {
                    result: WorkoutResult {
                        source: summary.source,
                        analyzer: from_json(&r.get::<_, String>(7)?, 7)?,
                        workout,
                        yaml,
                    },
                    session_id: r.get(6)?,
                    summary,
                })
            })
            .optional()?)
    }

    /// Records that a workout was logged as `session_id`, with its document (actual values
    /// filled in) and YAML.
    pub fn set_workout_logged(&self, w: &Workout, yaml: &str, session_id: &str) -> Result<()> {
        self.conn
            .prepare_cached(
                "UPDATE workouts SET workout = ?2, yaml = ?3, session_id = ?4 WHERE workout_id = ?1",
            )?
            .execute(params![w.workout_id, json(w), yaml, session_id])?;
        Ok(())
    }

    /// Every completed performance at or after `since_ms`, weights converted to `unit`, oldest
    /// first, with their sets: the pre-analysis history (one index range scan per day window).
    pub fn performances_since(
        &self,
        since_ms: i64,
        unit: WeightUnit,
    ) -> Result<Vec<ExercisePerformance>> {
        let mut st = self.conn.prepare_cached(
            "SELECT p.id, p.session_id, p.catalog_id, p.performed_at_ms, p.unit,
                    s.set_index, s.set_type, s.weight, s.reps, s.rest_seconds, s.completed
             FROM exercise_performances AS p
             JOIN performed_sets AS s ON s.performance_id = p.id
             WHERE p.completed = 1 AND p.performed_at_ms >= ?1
             ORDER BY p.performed_at_ms, p.id, s.set_index",
        )?;
        let rows = st.query([since_ms])?;
        performances_of(rows, unit, Vec::new())
    }
}
