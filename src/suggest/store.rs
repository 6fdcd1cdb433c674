//! Catalog, plans, logged sessions and the cached exercise history (spec 004 data).

// Suggested changes, their decisions and outcomes.
mod changes;

use rusqlite::{params, OptionalExtension, Row, Rows};

use crate::db::codec::{from_json, from_text, json, text};
use crate::db::Db;
use crate::kernel::error::Result;
use crate::suggest::model::{
    CatalogExercise, ExerciseHistory, ExerciseLog, ExercisePerformance, ExercisePrescription,
    PerformedSet, PlanSettings, RepRange, SessionLog, SetPrescription, WeightUnit, WorkoutPlan,
};

/// The performances of rows of `p.id, p.session_id, p.catalog_id, p.performed_at_ms, p.unit,
/// s.set_index, s.set_type, s.weight, s.reps, s.rest_seconds, s.completed` (a performance's rows
/// together, its sets in order), appended to `out`, weights converted to `unit` from the unit each
/// performance was logged in.
pub(crate) fn performances_of(
    mut rows: Rows<'_>,
    unit: WeightUnit,
    mut out: Vec<ExercisePerformance>,
) -> Result<Vec<ExercisePerformance>> {
    while let Some(r) = rows.next()? {
        let id: String = r.get(0)?;
        if out.last().is_none_or(|p| p.id != id) {
            out.push(ExercisePerformance {
                id,
                session_id: r.get(1)?,
                catalog_id: r.get(2)?,
                performed_at_ms: r.get(3)?,
                sets: Vec::new(),
            });
        }
        let logged: WeightUnit = from_text(&r.get::<_, String>(4)?, 4)?;
        let set = PerformedSet {
            index: r.get(5)?,
            set_type: from_text(&r.get::<_, String>(6)?, 6)?,
            weight: logged.convert(r.get(7)?, unit),
            reps: r.get(8)?,
            rest_seconds: r.get(9)?,
            completed: r.get(10)?,
        };
        if let Some(p) = out.last_mut() {
            p.sets.push(set);
        }
    }
    Ok(out)
}

fn catalog_row(r: &Row<'_>) -> rusqlite::Result<CatalogExercise> {
    Ok(CatalogExercise {
        catalog_id: r.get(0)?,
        name: r.get(1)?,
        equipment: from_text(&r.get::<_, String>(2)?, 2)?,
        target_muscles: from_json(&r.get::<_, String>(3)?, 3)?,
    })
}

fn prescription_row(r: &Row<'_>) -> rusqlite::Result<ExercisePrescription> {
    Ok(ExercisePrescription {
        id: r.get(0)?,
        catalog_id: r.get(1)?,
        position: r.get(2)?,
        rep_range: RepRange {
            mode: from_text(&r.get::<_, String>(3)?, 3)?,
            lower: r.get(4)?,
            upper: r.get(5)?,
            target: r.get(6)?,
        },
        rest_mode: from_text(&r.get::<_, String>(7)?, 7)?,
        rest_seconds: r.get(8)?,
        sets: Vec::new(),
    })
}

fn set_prescription_row(r: &Row<'_>) -> rusqlite::Result<SetPrescription> {
    Ok(SetPrescription {
        index: r.get(0)?,
        set_type: from_text(&r.get::<_, String>(1)?, 1)?,
        target_weight: r.get(2)?,
        target_reps: r.get(3)?,
        rest_seconds: r.get(4)?,
    })
}

const PRESCRIPTION_COLUMNS: &str = "id, catalog_id, position, rep_mode, rep_lower, rep_upper, \
     rep_target, rest_mode, rest_seconds";

impl Db<'_> {
    /// Adds or replaces a catalog exercise.
    pub fn save_exercise(&self, e: &CatalogExercise) -> Result<()> {
        self.conn
            .prepare_cached(
                "INSERT INTO exercise_catalog (catalog_id, name, equipment, target_muscles)
                 VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT (catalog_id) DO UPDATE SET
                     name = excluded.name, equipment = excluded.equipment,
                     target_muscles = excluded.target_muscles",
            )?
            .execute(params![
                e.catalog_id,
                e.name,
                text(&e.equipment),
                json(&e.target_muscles)
            ])?;
        Ok(())
    }

    /// A catalog exercise.
    pub fn exercise(&self, catalog_id: &str) -> Result<Option<CatalogExercise>> {
        Ok(self
            .conn
            .prepare_cached(
                "SELECT catalog_id, name, equipment, target_muscles FROM exercise_catalog
                 WHERE catalog_id = ?1",
            )?
            .query_row([catalog_id], catalog_row)
            .optional()?)
    }

    /// Adds or replaces a plan with its exercises and sets. Exercises no longer in the plan are
    /// removed; kept ones keep their id, so logged performances stay linked to them.
    pub fn save_plan(&self, p: &WorkoutPlan) -> Result<()> {
        let s = &p.settings;
        self.conn
            .prepare_cached(
                "INSERT INTO plans (id, name, unit, training_style, load_config) VALUES (?1, ?2, ?3, ?4, ?5)
                 ON CONFLICT (id) DO UPDATE SET name = excluded.name, unit = excluded.unit,
                     training_style = excluded.training_style, load_config = excluded.load_config",
            )?
            .execute(params![s.plan_id, p.name, text(&s.unit), text(&s.training_style), json(&s.load)])?;
        // Free every position first so a reordered plan does not collide with itself.
        self.conn
            .prepare_cached(
                "UPDATE plan_exercises SET position = -1 - position WHERE plan_id = ?1",
            )?
            .execute([&s.plan_id])?;
        let mut keep = Vec::with_capacity(p.exercises.len());
        for e in &p.exercises {
            self.save_prescription(&s.plan_id, e)?;
            keep.push(e.id.as_str());
        }
        let ids = json(&keep);
        self.conn
            .prepare_cached(
                "DELETE FROM plan_exercises WHERE plan_id = ?1
                 AND id NOT IN (SELECT value FROM json_each(?2))",
            )?
            .execute(params![s.plan_id, ids])?;
        Ok(())
    }

    /// Adds or replaces one exercise prescription of a plan, with its sets.
    pub fn save_prescription(&self, plan_id: &str, e: &ExercisePrescription) -> Result<()> {
        let r = &e.rep_range;
        self.conn
            .prepare_cached(
                "INSERT INTO plan_exercises (id, plan_id, catalog_id, position, rep_mode, rep_lower,
                     rep_upper, rep_target, rest_mode, rest_seconds)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)
                 ON CONFLICT (id) DO UPDATE SET plan_id = excluded.plan_id,
                     catalog_id = excluded.catalog_id, position = excluded.position,
                     rep_mode = excluded.rep_mode, rep_lower = excluded.rep_lower,
                     rep_upper = excluded.rep_upper, rep_target = excluded.rep_target,
                     rest_mode = excluded.rest_mode, rest_seconds = excluded.rest_seconds",
            )?
            .execute(params![
                e.id,
                plan_id,
                e.catalog_id,
                e.position,
                text(&r.mode),
                r.lower,
                r.upper,
                r.target,
                text(&e.rest_mode),
                e.rest_seconds
            ])?;
        self.conn
            .prepare_cached("DELETE FROM set_prescriptions WHERE exercise_id = ?1")?
            .execute([&e.id])?;
        let mut insert = self.conn.prepare_cached(
            "INSERT INTO set_prescriptions (exercise_id, set_index, set_type, target_weight,
                 target_reps, rest_seconds) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        )?;
        for st in &e.sets {
            insert.execute(params![
                e.id,
                st.index,
                text(&st.set_type),
                st.target_weight,
                st.target_reps,
                st.rest_seconds
            ])?;
        }
        Ok(())
    }

    /// A plan with its exercises (by position) and sets (by index).
    pub fn plan(&self, plan_id: &str) -> Result<Option<WorkoutPlan>> {
        let head = self
            .conn
            .prepare_cached(
                "SELECT name, unit, training_style, load_config FROM plans WHERE id = ?1",
            )?
            .query_row([plan_id], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    PlanSettings {
                        plan_id: plan_id.to_string(),
                        unit: from_text(&r.get::<_, String>(1)?, 1)?,
                        training_style: from_text(&r.get::<_, String>(2)?, 2)?,
                        load: from_json(&r.get::<_, String>(3)?, 3)?,
                    },
                ))
            })
            .optional()?;
        let Some((name, settings)) = head else {
            return Ok(None);
        };
        let mut exercises = self
            .conn
            .prepare_cached(&format!(
                "SELECT {PRESCRIPTION_COLUMNS} FROM plan_exercises WHERE plan_id = ?1 ORDER BY position"
            ))?
            .query_map([plan_id], prescription_row)?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        // Every exercise's sets in one query, in exercise order.
        let mut st = self.conn.prepare_cached(
            "SELECT e.id, s.set_index, s.set_type, s.target_weight, s.target_reps, s.rest_seconds
             FROM plan_exercises AS e JOIN set_prescriptions AS s ON s.exercise_id = e.id
             WHERE e.plan_id = ?1
             ORDER BY e.position, s.set_index",
        )?;
        let mut rows = st.query([plan_id])?;
        let mut at = 0;
        while let Some(r) = rows.next()? {
            let exercise_id: String = r.get(0)?;
            while at < exercises.len() && exercises[at].id != exercise_id {
                at += 1;
            }
            let Some(e) = exercises.get_mut(at) else {
                break;
            };
            e.sets.push(SetPrescription {
                index: r.get(1)?,
                set_type: from_text(&r.get::<_, String>(2)?, 2)?,
                target_weight: r.get(3)?,
                target_reps: r.get(4)?,
                rest_seconds: r.get(5)?,
            });
        }
        Ok(Some(WorkoutPlan {
            settings,
            name,
            exercises,
        }))
    }

    /// One exercise prescription and the id of its plan.
    pub fn prescription(&self, id: &str) -> Result<Option<(String, ExercisePrescription)>> {
        let found = self
            .conn
            .prepare_cached(&format!(
                "SELECT {PRESCRIPTION_COLUMNS}, plan_id FROM plan_exercises WHERE id = ?1"
            ))?
            .query_row([id], |r| Ok((r.get::<_, String>(9)?, prescription_row(r)?)))
            .optional()?;
        let Some((plan_id, mut e)) = found else {
            return Ok(None);
        };
        e.sets = self.set_prescriptions(&e.id)?;
        Ok(Some((plan_id, e)))
    }

    fn set_prescriptions(&self, exercise_id: &str) -> Result<Vec<SetPrescription>> {
        Ok(self
            .conn
            .prepare_cached(
                "SELECT set_index, set_type, target_weight, target_reps, rest_seconds
                 FROM set_prescriptions WHERE exercise_id = ?1 ORDER BY set_index",
            )?
            .query_map([exercise_id], set_prescription_row)?
            .collect::<rusqlite::Result<Vec<_>>>()?)
    }

    /// Whether a session with this id exists.
    pub fn session_exists(&self, session_id: &str) -> Result<bool> {
        Ok(self
            .conn
            .prepare_cached("SELECT 1 FROM workout_sessions WHERE id = ?1")?
            .exists([session_id])?)
    }

    /// Whether an exercise performance (an exercise of a logged session) with this id exists
    /// (primary-key lookup).
    pub fn performance_exists(&self, performance_id: &str) -> Result<bool> {
        Ok(self
            .conn
            .prepare_cached("SELECT 1 FROM exercise_performances WHERE id = ?1")?
            .exists([performance_id])?)
    }

    /// The unit of a plan, or `None` when there is no such plan (reads the plan's row only).
    pub fn plan_unit(&self, plan_id: &str) -> Result<Option<WeightUnit>> {
        let unit: Option<String> = self
            .conn
            .prepare_cached("SELECT unit FROM plans WHERE id = ?1")?
            .query_row([plan_id], |r| r.get(0))
            .optional()?;
        Ok(unit.map(|u| from_text(&u, 0)).transpose()?)
    }

    /// Stores a finished session with its performances and sets; `unit` is the unit its weights
    /// were logged in (the plan's at this moment), recorded with every performance.
    pub fn insert_session(&self, s: &SessionLog, unit: WeightUnit) -> Result<()> {
        self.conn
            .prepare_cached(
                "INSERT INTO workout_sessions (id, plan_id, performed_at_ms) VALUES (?1, ?2, ?3)",
            )?
            .execute(params![s.id, s.plan_id, s.performed_at_ms])?;
        let mut perf = self.conn.prepare_cached(
            "INSERT INTO exercise_performances (id, session_id, catalog_id, prescription_id, position,
                 performed_at_ms, completed, unit) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        )?;
        let mut set = self.conn.prepare_cached(
            "INSERT INTO performed_sets (performance_id, set_index, set_type, weight, reps,
                 rest_seconds, completed) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        )?;
        for (position, e) in s.exercises.iter().enumerate() {
            let completed = e.sets.iter().any(|st| st.completed);
            perf.execute(params![
                e.id,
                s.id,
                e.catalog_id,
                e.prescription_id,
                position as i64,
                s.performed_at_ms,
                completed,
                text(&unit)
            ])?;
            for st in &e.sets {
                set.execute(params![
                    e.id,
                    st.index,
                    text(&st.set_type),
                    st.weight,
                    st.reps,
                    st.rest_seconds,
                    st.completed
                ])?;
            }
        }
        Ok(())
    }

    /// A stored session, as it was logged.
    pub fn session(&self, session_id: &str) -> Result<Option<SessionLog>> {
        let head = self
            .conn
            .prepare_cached("SELECT plan_id, performed_at_ms FROM workout_sessions WHERE id = ?1")?
            .query_row([session_id], |r| {
                Ok((r.get::<_, Option<String>>(0)?, r.get::<_, i64>(1)?))
            })
            .optional()?;
        let Some((plan_id, performed_at_ms)) = head else {
            return Ok(None);
        };
        // One query for the exercises and their sets (an exercise without sets has one row of
        // NULL set columns).
        let mut st = self.conn.prepare_cached(
            "SELECT p.id, p.catalog_id, p.prescription_id,
                    s.set_index, s.set_type, s.weight, s.reps, s.rest_seconds, s.completed
             FROM exercise_performances AS p
             LEFT JOIN performed_sets AS s ON s.performance_id = p.id
             WHERE p.session_id = ?1
             ORDER BY p.position, s.set_index",
        )?;
        let mut rows = st.query([session_id])?;
        let mut exercises: Vec<ExerciseLog> = Vec::new();
        while let Some(r) = rows.next()? {
            let id: String = r.get(0)?;
            if exercises.last().is_none_or(|e| e.id != id) {
                exercises.push(ExerciseLog {
                    id,
                    catalog_id: r.get(1)?,
                    prescription_id: r.get(2)?,
                    sets: Vec::new(),
                });
            }
            let Some(index) = r.get::<_, Option<u32>>(3)? else {
                continue;
            };
            let set = PerformedSet {
                index,
                set_type: from_text(&r.get::<_, String>(4)?, 4)?,
                weight: r.get(5)?,
                reps: r.get(6)?,
                rest_seconds: r.get(7)?,
                completed: r.get(8)?,
            };
            if let Some(e) = exercises.last_mut() {
                e.sets.push(set);
            }
        }
        Ok(Some(SessionLog {
            id: session_id.to_string(),
            plan_id,
            performed_at_ms,
            exercises,
        }))
    }

    /// The unit a session's weights were logged in (`None` for an unknown session or one with no
    /// exercise).
    pub fn session_unit(&self, session_id: &str) -> Result<Option<WeightUnit>> {
        let unit: Option<String> = self
            .conn
            .prepare_cached("SELECT unit FROM exercise_performances WHERE session_id = ?1 LIMIT 1")?
            .query_row([session_id], |r| r.get(0))
            .optional()?;
        Ok(unit.map(|u| from_text(&u, 0)).transpose()?)
    }

    /// Up to `limit` completed performances of an exercise performed before `before_ms`, newest
    /// first, with their sets, weights converted to `unit` from the unit each was logged in: one
    /// query on the history index, whatever the history's length.
    pub fn performances_before(
        &self,
        catalog_id: &str,
        before_ms: i64,
        limit: u32,
        unit: WeightUnit,
    ) -> Result<Vec<ExercisePerformance>> {
        let mut st = self.conn.prepare_cached(
            "SELECT p.id, p.session_id, p.catalog_id, p.performed_at_ms, p.unit,
                    s.set_index, s.set_type, s.weight, s.reps, s.rest_seconds, s.completed
             FROM (SELECT id, session_id, catalog_id, performed_at_ms, unit
                   FROM exercise_performances
                   WHERE catalog_id = ?1 AND completed = 1 AND performed_at_ms < ?2
                   ORDER BY performed_at_ms DESC LIMIT ?3) AS p
             JOIN performed_sets AS s ON s.performance_id = p.id
             ORDER BY p.performed_at_ms DESC, p.id, s.set_index",
        )?;
        let rows = st.query(params![catalog_id, before_ms, limit])?;
        performances_of(rows, unit, Vec::with_capacity(limit as usize))
    }

    /// In how many stored sessions an exercise was completed (at least one set done): the
    /// history's session count. A session that logged the exercise twice counts once.
    pub fn completed_session_count(&self, catalog_id: &str) -> Result<u32> {
        Ok(self
            .conn
            .prepare_cached(
                "SELECT count(DISTINCT session_id) FROM exercise_performances
                 WHERE catalog_id = ?1 AND completed = 1",
            )?
            .query_row([catalog_id], |r| r.get(0))?)
    }

    /// The cached history of an exercise, its e1RMs in `unit` (the cache keeps pounds).
    pub fn history(&self, catalog_id: &str, unit: WeightUnit) -> Result<Option<ExerciseHistory>> {
        Ok(self
            .conn
            .prepare_cached(
                "SELECT session_count, typical_lower_reps, typical_upper_reps, best_e1rm, last_e1rm,
                     trend, updated_at_ms FROM exercise_history WHERE catalog_id = ?1",
            )?
            .query_row([catalog_id], |r| {
                Ok(ExerciseHistory {
                    catalog_id: catalog_id.to_string(),
                    session_count: r.get(0)?,
                    typical_lower_reps: r.get(1)?,
                    typical_upper_reps: r.get(2)?,
                    best_e1rm: WeightUnit::Lbs.convert(r.get(3)?, unit),
                    last_e1rm: WeightUnit::Lbs.convert(r.get(4)?, unit),
                    trend: from_text(&r.get::<_, String>(5)?, 5)?,
                    updated_at_ms: r.get(6)?,
                })
            })
            .optional()?)
    }

    /// Stores an exercise's cached history; its e1RMs must be in pounds.
    pub fn save_history(&self, h: &ExerciseHistory) -> Result<()> {
        self.conn
            .prepare_cached(
                "INSERT OR REPLACE INTO exercise_history (catalog_id, session_count, typical_lower_reps,
                     typical_upper_reps, best_e1rm, last_e1rm, trend, updated_at_ms)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            )?
            .execute(params![
                h.catalog_id,
                h.session_count,
                h.typical_lower_reps,
                h.typical_upper_reps,
                h.best_e1rm,
                h.last_e1rm,
                text(&h.trend),
                h.updated_at_ms
            ])?;
        Ok(())
    }
}
