//! The SQL of spec 000. Generation metadata: one row per generation or transform, with the schema
//! version chosen, why, the ruleset applied and the outcome (no user content). Today's plans
//! (`migrations/0009_today_plans.sql`): each generated plan with its targets, found by id, by date
//! (the newest) or newest first, and marked done with the session it was logged as.

use rusqlite::{params, OptionalExtension, Row};

use super::{SavedTodayPlan, SchemaVersion, SelectionReason};
use crate::db::codec::{from_json, from_text, json, text};
use crate::db::{Db, Store};
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

/// The columns a saved plan is read from, in [`saved_plan`]'s order.
const SAVED_PLAN_COLUMNS: &str =
    "plan, date, units, fallback_reason, targets, created_at_ms, done_at_ms, session_id";

fn saved_plan(r: &Row<'_>) -> rusqlite::Result<SavedTodayPlan> {
    let reason: Option<String> = r.get(3)?;
    Ok(SavedTodayPlan {
        plan: from_json(&r.get::<_, String>(0)?, 0)?,
        date: r.get(1)?,
        units: from_text(&r.get::<_, String>(2)?, 2)?,
        fallback_reason: reason.map(|c| from_text(&c, 3)).transpose()?,
        targets: from_json(&r.get::<_, String>(4)?, 4)?,
        created_at_ms: r.get(5)?,
        done_at_ms: r.get(6)?,
        session_id: r.get(7)?,
    })
}

impl Db<'_> {
    /// Saves a generated plan under its id. A plan already saved under that id (a seed used
    /// again) is replaced unless it is done; returns whether the plan was saved.
    pub fn save_today_plan(&self, p: &SavedTodayPlan) -> Result<bool> {
        let changed = self
            .conn
            .prepare_cached(
                "INSERT INTO today_plans (id, date, units, source, fallback_reason, created_at_ms,
                     plan, targets) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
                 ON CONFLICT (id) DO UPDATE SET date = excluded.date, units = excluded.units,
                     source = excluded.source, fallback_reason = excluded.fallback_reason,
                     created_at_ms = excluded.created_at_ms, plan = excluded.plan,
                     targets = excluded.targets
                 WHERE today_plans.done_at_ms IS NULL",
            )?
            .execute(params![
                p.plan.id,
                p.date,
                text(&p.units),
                text(&p.plan.source),
                p.fallback_reason.as_ref().map(text),
                p.created_at_ms,
                json(&p.plan),
                json(&p.targets),
            ])?;
        Ok(changed == 1)
    }

    /// The saved plan with this id.
    pub fn today_plan(&self, id: &str) -> Result<Option<SavedTodayPlan>> {
        Ok(self
            .conn
            .prepare_cached(&format!(
                "SELECT {SAVED_PLAN_COLUMNS} FROM today_plans WHERE id = ?1"
            ))?
            .query_row([id], saved_plan)
            .optional()?)
    }

    /// The newest plan saved for `date` (`YYYY-MM-DD`).
    pub fn today_plan_of(&self, date: &str) -> Result<Option<SavedTodayPlan>> {
        Ok(self
            .conn
            .prepare_cached(&format!(
                "SELECT {SAVED_PLAN_COLUMNS} FROM today_plans WHERE date = ?1
                 ORDER BY created_at_ms DESC, rowid DESC LIMIT 1"
            ))?
            .query_row([date], saved_plan)
            .optional()?)
    }

    /// Up to `limit` saved plans, newest first.
    pub fn recent_today_plans(&self, limit: u32) -> Result<Vec<SavedTodayPlan>> {
        Ok(self
            .conn
            .prepare_cached(&format!(
                "SELECT {SAVED_PLAN_COLUMNS} FROM today_plans
                 ORDER BY created_at_ms DESC, rowid DESC LIMIT ?1"
            ))?
            .query_map([limit], saved_plan)?
            .collect::<rusqlite::Result<Vec<_>>>()?)
    }

    /// Marks a plan done at `done_at_ms`, logged as `session_id`; returns whether it was not done
    /// before (a plan is marked done once).
    pub fn set_today_plan_done(&self, id: &str, done_at_ms: i64, session_id: &str) -> Result<bool> {
        let changed = self
            .conn
            .prepare_cached(
                "UPDATE today_plans SET done_at_ms = ?2, session_id = ?3
                 WHERE id = ?1 AND done_at_ms IS NULL",
            )?
            .execute(params![id, done_at_ms, session_id])?;
        Ok(changed == 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::units::WeightUnit;
    use crate::plan::{Energy, PlanBlock, PlanExercise, PlanSource, TodayPlan, TodayPlanTarget};

    fn saved(id: &str, date: &str, created_at_ms: i64) -> SavedTodayPlan {
        SavedTodayPlan {
            plan: TodayPlan {
                id: id.into(),
                focus: "Legs".into(),
                duration_minutes: 30,
                equipment: vec![],
                source: PlanSource::Deterministic,
                energy: Energy::Moderate,
                summary: "s".into(),
                blocks: vec![PlanBlock {
                    id: "b".into(),
                    title: "Main Lifts".into(),
                    duration_minutes: 30,
                    focus: "Strength".into(),
                    exercises: vec![PlanExercise {
                        id: "e".into(),
                        name: "Squat".into(),
                        prescription: "3 x 5-8 at 60 kg".into(),
                        detail: None,
                    }],
                }],
            },
            date: date.into(),
            units: WeightUnit::Kg,
            fallback_reason: Some(crate::plan::PlanFallbackReason::NoModel),
            targets: vec![TodayPlanTarget {
                exercise_id: "e".into(),
                catalog_id: "bb-back-squat".into(),
                sets: 3,
                reps: "5-8".into(),
                load: Some(60.0),
            }],
            created_at_ms,
            done_at_ms: None,
            session_id: None,
        }
    }

    #[test]
    fn saved_plans_read_back_by_id_date_and_recency_and_a_done_one_stays() {
        let s = Store::open_in_memory().unwrap();
        let a = saved("a", "2025-08-18", 1);
        let b = saved("b", "2025-08-18", 2);
        let c = saved("c", "2025-08-19", 3);
        s.write(|db| {
            for p in [&a, &b, &c] {
                assert!(db.save_today_plan(p)?);
            }
            Ok(())
        })
        .unwrap();
        s.read(|db| {
            assert_eq!(db.today_plan("a")?.as_ref(), Some(&a));
            assert_eq!(db.today_plan("zzz")?, None);
            assert_eq!(
                db.today_plan_of("2025-08-18")?.as_ref(),
                Some(&b),
                "the newest"
            );
            assert_eq!(db.today_plan_of("2025-08-20")?, None);
            let recent: Vec<String> = db
                .recent_today_plans(2)?
                .into_iter()
                .map(|p| p.plan.id)
                .collect();
            assert_eq!(recent, ["c", "b"]);
            Ok(())
        })
        .unwrap();
        // Saved again under its id: replaced while not done, kept once done.
        let mut again = saved("a", "2025-08-18", 4);
        again.plan.focus = "Arms".into();
        assert!(s.write(|db| db.save_today_plan(&again)).unwrap());
        assert_eq!(
            s.read(|db| db.today_plan("a")).unwrap(),
            Some(again.clone())
        );
        // The session the plan points at exists (a foreign key).
        s.write(|db| {
            db.conn.execute(
                "INSERT INTO workout_sessions (id, plan_id, performed_at_ms) VALUES ('s1', NULL, 5)",
                [],
            )?;
            Ok(())
        })
        .unwrap();
        assert!(s.write(|db| db.set_today_plan_done("a", 5, "s1")).unwrap());
        assert!(
            !s.write(|db| db.set_today_plan_done("a", 6, "s1")).unwrap(),
            "once"
        );
        assert!(!s
            .write(|db| db.save_today_plan(&saved("a", "2025-08-18", 7)))
            .unwrap());
        let done = s.read(|db| db.today_plan("a")).unwrap().unwrap();
        assert_eq!(
            (done.done_at_ms, done.session_id.as_deref()),
            (Some(5), Some("s1"))
        );
        assert_eq!(done.plan.focus, "Arms", "a done plan is not replaced");
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
}
