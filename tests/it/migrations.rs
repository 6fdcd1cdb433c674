//! An app's database from an older library version, upgraded by this one. `tests/data/migrations/
//! v3.sql` builds a frozen version-3 file (the schema of migrations 0001-0003 and rows as the
//! library of that version wrote them); opening it with the library runs migration 0004 and every
//! later one. Checked: what 0004 rewrites (every performance's weight unit, the cached history's
//! e1RMs now in pounds and its session counts recounted), that every other value survives
//! unchanged, that the library reads and writes the upgraded file, and that its schema is a fresh
//! database's (compared as mozilla application-services' migration tests do: the `sqlite_master`
//! SQL of every table and index, and here of every trigger and view too, normalised).
//!
//! Migration 0008 (meal-plan jobs get an owner and a lease) runs on a version-7 file built from the
//! migration files, with jobs as that version wrote them: values kept, old jobs read as before.
//! Migration 0009 (today's plans saved) runs on a version-8 file the same way: its sessions kept,
//! plans saved and marked done on it.
//!
//! Both kinds of version-3 file are upgraded: stamped as `Store::open` stamps one today
//! (`application_id` 'CoCo'), and unstamped (`application_id` 0), as the library that shipped
//! version 3 left them (it did not stamp the id yet; the library recognises them by their tables).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use coachcore::assistant::ItemKind;
use coachcore::db::{Store, APPLICATION_ID, SCHEMA_VERSION};
use coachcore::kernel::clock::FixedClock;
use coachcore::suggest::model::*;
use coachcore::Coach;
use rusqlite::types::Value;
use rusqlite::Connection;

/// The frozen version-3 database (see the top of the file for its conventions).
const V3: &str = include_str!("../data/migrations/v3.sql");
/// Pounds per kilogram, as migration 0004 converts.
const LBS_PER_KG: f64 = 2.20462;
/// 2026-11-10 08:00 UTC: after every row of the frozen file.
const NOW: i64 = 1_794_297_600_000;

/// A version-3 file built from [`V3`] in `dir`; `stamped: false` resets its `application_id` to 0.
fn v3_file(dir: &Path, stamped: bool) -> PathBuf {
    let path = dir.join(format!(
        "v3-{}.db",
        if stamped { "stamped" } else { "unstamped" }
    ));
    let conn = Connection::open(&path).unwrap();
    conn.execute_batch(V3).unwrap();
    if !stamped {
        conn.pragma_update(None, "application_id", 0).unwrap();
    }
    path
}

fn user_version(conn: &Connection) -> i64 {
    conn.pragma_query_value(None, "user_version", |r| r.get(0))
        .unwrap()
}

fn application_id(conn: &Connection) -> i32 {
    conn.pragma_query_value(None, "application_id", |r| r.get(0))
        .unwrap()
}

fn strings(conn: &Connection, sql: &str) -> Vec<String> {
    let mut st = conn.prepare(sql).unwrap();
    let rows = st.query_map([], |r| r.get(0)).unwrap();
    rows.map(|r| r.unwrap()).collect()
}

/// The tables of `conn` (not SQLite's own), by name.
fn tables(conn: &Connection) -> Vec<String> {
    strings(
        conn,
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
         ORDER BY name",
    )
}

fn columns(conn: &Connection, table: &str) -> Vec<String> {
    strings(
        conn,
        &format!("SELECT name FROM pragma_table_info('{table}') ORDER BY cid"),
    )
}

/// Every row of `table`'s `columns`, sorted by all of them (WITHOUT ROWID tables have no rowid).
fn rows(conn: &Connection, table: &str, columns: &[String]) -> Vec<Vec<Value>> {
    let list = columns.join(", ");
    let mut st = conn
        .prepare(&format!("SELECT {list} FROM {table} ORDER BY {list}"))
        .unwrap();
    let rows = st
        .query_map([], |r| {
            (0..columns.len()).map(|i| r.get::<_, Value>(i)).collect()
        })
        .unwrap();
    rows.map(|r| r.unwrap()).collect()
}

/// A statement's SQL without `--` comments, with whitespace runs collapsed and no space around
/// parentheses and commas: two schemas compare equal when they differ in layout only.
fn normalise(sql: &str) -> String {
    let without_comments: Vec<&str> = sql
        .lines()
        .map(|l| l.find("--").map_or(l, |i| &l[..i]))
        .collect();
    let words = without_comments.join(" ");
    let mut out = words.split_whitespace().collect::<Vec<_>>().join(" ");
    for punct in ["(", ")", ","] {
        out = out
            .replace(&format!(" {punct}"), punct)
            .replace(&format!("{punct} "), punct);
    }
    out
}

/// The schema of `conn`: every table, index, trigger and view (SQLite's own and automatic indexes
/// aside), by (type, name), with its normalised SQL.
fn schema(conn: &Connection) -> BTreeMap<(String, String), String> {
    let mut st = conn
        .prepare(
            "SELECT type, name, sql FROM sqlite_master
             WHERE name NOT LIKE 'sqlite_%' AND sql IS NOT NULL",
        )
        .unwrap();
    let rows = st
        .query_map([], |r| {
            Ok((
                (r.get::<_, String>(0)?, r.get::<_, String>(1)?),
                normalise(&r.get::<_, String>(2)?),
            ))
        })
        .unwrap();
    rows.map(|r| r.unwrap()).collect()
}

/// Migrations 0001 to `n` as they are in src/db/migrations, run on `conn`.
fn run_migrations_up_to(conn: &Connection, n: usize) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/db/migrations");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            name.ends_with(".sql") && name[..4].parse::<usize>().is_ok_and(|k| k <= n)
        })
        .collect();
    files.sort();
    assert_eq!(
        files.len(),
        n,
        "migrations 0001-{n:04} in {}",
        dir.display()
    );
    for f in &files {
        conn.execute_batch(&std::fs::read_to_string(f).unwrap())
            .unwrap();
    }
}

/// Migrations 0001-0003 as they are in src/db/migrations, run on an empty database.
fn migrations_up_to_3() -> Connection {
    let conn = Connection::open_in_memory().unwrap();
    run_migrations_up_to(&conn, 3);
    conn
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
}

#[test]
fn the_frozen_file_is_version_3_as_store_open_left_it() {
    let dir = tempfile::tempdir().unwrap();
    let conn = Connection::open(v3_file(dir.path(), true)).unwrap();
    assert_eq!(user_version(&conn), 3);
    assert_eq!(application_id(&conn), APPLICATION_ID);
    let mode: String = conn
        .pragma_query_value(None, "journal_mode", |r| r.get(0))
        .unwrap();
    assert_eq!(mode, "wal");
    // Exactly the tables and indexes of migrations 0001-0003 (a shipped migration is never
    // edited: if this fails, a migration file changed, not this frozen copy).
    assert_eq!(schema(&conn), schema(&migrations_up_to_3()));
    // Every table holds rows, and they are consistent.
    for table in tables(&conn) {
        let n: i64 = conn
            .query_row(&format!("SELECT count(*) FROM {table}"), [], |r| r.get(0))
            .unwrap();
        assert!(n > 0, "{table} has no rows");
    }
    let fk: i64 = conn
        .query_row("SELECT count(*) FROM pragma_foreign_key_check", [], |r| {
            r.get(0)
        })
        .unwrap();
    assert_eq!(fk, 0);
}

#[test]
fn opening_a_v3_file_runs_0004_and_keeps_every_row() {
    for stamped in [true, false] {
        let case = format!("stamped {stamped}");
        let dir = tempfile::tempdir().unwrap();
        let path = v3_file(dir.path(), stamped);
        // Every table's rows before the upgrade, by its version-3 columns.
        let before: Vec<(String, Vec<String>, Vec<Vec<Value>>)> = {
            let conn = Connection::open(&path).unwrap();
            tables(&conn)
                .into_iter()
                .map(|t| {
                    let mut cols = columns(&conn, &t);
                    if t == "exercise_history" {
                        // Rewritten by 0004: checked below.
                        cols.retain(|c| {
                            !["session_count", "best_e1rm", "last_e1rm"].contains(&&**c)
                        });
                    }
                    let r = rows(&conn, &t, &cols);
                    (t, cols, r)
                })
                .collect()
        };

        let store = Store::open(&path).unwrap();
        assert_eq!(store.schema_version().unwrap(), SCHEMA_VERSION, "{case}");
        drop(store);

        let conn = Connection::open(&path).unwrap();
        assert_eq!(user_version(&conn), i64::from(SCHEMA_VERSION), "{case}");
        assert_eq!(application_id(&conn), APPLICATION_ID, "{case}");
        let ok: String = conn
            .query_row("PRAGMA integrity_check", [], |r| r.get(0))
            .unwrap();
        assert_eq!(ok, "ok", "{case}");
        let fk: i64 = conn
            .query_row("SELECT count(*) FROM pragma_foreign_key_check", [], |r| {
                r.get(0)
            })
            .unwrap();
        assert_eq!(fk, 0, "{case}");
        for (table, cols, want) in &before {
            assert_eq!(&rows(&conn, table, cols), want, "{case}: {table}");
        }

        // 0004: each performance's unit is its session's plan's, pounds without a plan.
        let units: Vec<(String, String)> = conn
            .prepare("SELECT id, unit FROM exercise_performances ORDER BY id")
            .unwrap()
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
            .map(|r| r.unwrap())
            .collect();
        let want: Vec<(String, String)> = [
            ("p-f1-curl", "lbs"),
            ("p-l1-curl", "lbs"),
            ("p-l1-squat", "lbs"),
            ("p-l2-squat", "lbs"),
            ("p-u1-bench", "kg"),
            ("p-u1-row", "kg"),
            ("p-u2-bench", "kg"),
            ("p-u2-bench-b", "kg"),
            ("p-u2-row", "kg"),
        ]
        .map(|(id, unit)| (id.to_string(), unit.to_string()))
        .into();
        assert_eq!(units, want, "{case}");

        // 0004: the history's e1RMs in pounds (bench and row were in kg: their newest performance
        // is), and its session count is the number of sessions that completed the exercise (bench
        // was logged twice in one session, the row skipped once).
        let history: Vec<(String, i64, f64, f64)> = conn
            .prepare(
                "SELECT catalog_id, session_count, best_e1rm, last_e1rm FROM exercise_history
                 ORDER BY catalog_id",
            )
            .unwrap()
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
            .unwrap()
            .map(|r| r.unwrap())
            .collect();
        let bench = 62.5 * (1.0 + 8.0 / 30.0); // Epley, 62.5 kg x 8
        let row = 50.0 * (1.0 + 10.0 / 30.0); // 50 kg x 10
        let squat = 230.0 * (1.0 + 5.0 / 30.0); // 230 lb x 5
        let want = [
            ("bench", 2, bench * LBS_PER_KG),
            ("curl", 2, 40.0),
            ("row", 1, row * LBS_PER_KG),
            ("squat", 2, squat),
        ];
        assert_eq!(history.len(), want.len(), "{case}");
        for ((id, count, best, last), (want_id, want_count, want_e1rm)) in history.iter().zip(want)
        {
            assert_eq!((id.as_str(), *count), (want_id, want_count), "{case}");
            assert!(
                close(*best, want_e1rm) && close(*last, want_e1rm),
                "{case}: {id} e1RMs {best} {last}, want {want_e1rm}"
            );
        }

        // 0004's index for outcome evaluation.
        let index = strings(
            &conn,
            "SELECT name FROM sqlite_master WHERE name = 'prescription_changes_unevaluated'",
        );
        assert_eq!(index.len(), 1, "{case}");
    }
}

#[test]
fn the_upgraded_schema_is_a_fresh_databases() {
    let dir = tempfile::tempdir().unwrap();
    let fresh_path = dir.path().join("fresh.db");
    drop(Store::open(&fresh_path).unwrap());
    let fresh = schema(&Connection::open(&fresh_path).unwrap());
    for stamped in [true, false] {
        let path = v3_file(dir.path(), stamped);
        drop(Store::open(&path).unwrap());
        let upgraded = schema(&Connection::open(&path).unwrap());
        let names = |s: &BTreeMap<(String, String), String>| s.keys().cloned().collect::<Vec<_>>();
        assert_eq!(names(&upgraded), names(&fresh), "stamped {stamped}");
        for (key, sql) in &fresh {
            assert_eq!(&upgraded[key], sql, "stamped {stamped}: {key:?}");
        }
    }
}

#[test]
fn the_library_reads_and_writes_the_upgraded_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = v3_file(dir.path(), false);
    let coach = Coach::with_store(Store::open(&path).unwrap(), Arc::new(FixedClock::new(NOW)));

    // Plans, in their own units.
    let upper = coach.workouts().plan("plan-upper".into()).unwrap().unwrap();
    assert_eq!(upper.settings.unit, WeightUnit::Kg);
    assert_eq!(upper.settings.load.bar_weight, 20.0);
    let bench: Vec<f64> = upper.exercises[0]
        .sets
        .iter()
        .map(|s| s.target_weight)
        .collect();
    assert_eq!(bench, [40.0, 65.0, 62.5, 62.5]);
    assert_eq!(upper.exercises[1].rep_range.mode, RepRangeMode::Target);
    let lower = coach.workouts().plan("plan-lower".into()).unwrap().unwrap();
    assert_eq!(lower.settings.unit, WeightUnit::Lbs);
    assert_eq!(lower.exercises[1].rest_mode, RestMode::PerSet);

    // The history: back in kilograms when asked in kilograms, as version 3 stored it.
    let h = coach
        .workouts()
        .history("bench".into(), Some(WeightUnit::Kg))
        .unwrap()
        .unwrap();
    assert_eq!((h.session_count, h.trend), (2, Trend::Improving));
    assert!(close(h.best_e1rm, 62.5 * (1.0 + 8.0 / 30.0)), "{h:?}");
    let h = coach
        .workouts()
        .history("squat".into(), None)
        .unwrap()
        .unwrap();
    assert!(close(h.last_e1rm, 230.0 * (1.0 + 5.0 / 30.0)), "{h:?}");

    // Stored suggestions come back with their decisions and outcomes (no generation: each of
    // these sessions has its suggestion run).
    let decisions = |session: &str| -> Vec<(String, Decision, Outcome, bool)> {
        coach
            .suggestions()
            .for_session(session.into())
            .unwrap()
            .into_iter()
            .map(|c| (c.id, c.decision, c.outcome, c.user_override))
            .collect()
    };
    use Decision::*;
    use Outcome::*;
    let s = |id: &str| id.to_string();
    assert_eq!(
        decisions("s-upper-1"),
        [
            (s("c-u1-bench-1"), Accepted, Good, false),
            (s("c-u1-bench-2"), Accepted, Good, false)
        ]
    );
    assert_eq!(
        decisions("s-lower-1"),
        [
            (s("c-l1-squat-1"), Deferred, NotEvaluated, false),
            (s("c-l1-curl-1"), Rejected, NotEvaluated, false)
        ]
    );
    assert_eq!(
        decisions("s-upper-2"),
        [
            (s("c-u2-bench-1"), Accepted, NotEvaluated, false),
            (s("c-u2-bench-2"), Accepted, NotEvaluated, true),
            (s("c-u2-row-1"), Pending, NotEvaluated, false)
        ]
    );
    let curl = &coach.suggestions().for_session("s-lower-1".into()).unwrap()[1];
    assert_eq!(
        (curl.draft.source, curl.draft.rule_id.as_deref()),
        (SuggestionSource::Ai, None)
    );
    let deferred: Vec<String> = coach
        .suggestions()
        .deferred("plan-lower".into())
        .unwrap()
        .into_iter()
        .map(|c| c.id)
        .collect();
    assert_eq!(deferred, ["c-l1-squat-1"]);

    // The planner: items with their completions and goal links, the backlog, the week, the audit
    // log, and the generation log.
    let goal = coach
        .planner()
        .item(ItemKind::Goal, "item-goal-1".into())
        .unwrap()
        .unwrap();
    let linked: Vec<&str> = goal.goal_items.iter().map(|i| i.id.as_str()).collect();
    assert_eq!(linked, ["item-todo-1", "item-habit-1"]);
    assert_eq!(goal.child_goals, ["item-goal-2"]);
    let habit = coach
        .planner()
        .item(ItemKind::Habit, "item-habit-1".into())
        .unwrap()
        .unwrap();
    assert_eq!(
        habit.completed_occurrences,
        ["2026-11-02", "2026-11-04", "2026-11-09"]
    );
    assert_eq!(habit.recurrence.weekdays.len(), 3);
    let backlog: Vec<String> = coach
        .planner()
        .backlog(10)
        .unwrap()
        .into_iter()
        .map(|i| i.id)
        .collect();
    assert_eq!(backlog, ["item-todo-2"]);
    let mut week: Vec<(String, String)> = coach
        .planner()
        .week("2026-11-10".into())
        .unwrap()
        .entries
        .into_iter()
        .map(|e| (e.date, e.item.id))
        .collect();
    week.sort();
    let want: Vec<(String, String)> = [
        ("2026-11-09", "item-habit-2"),
        ("2026-11-10", "item-todo-1"),
        ("2026-11-11", "item-habit-1"),
        ("2026-11-11", "item-habit-2"),
        ("2026-11-12", "item-event-1"),
        ("2026-11-13", "item-habit-1"),
        ("2026-11-13", "item-habit-2"),
        ("2026-11-15", "item-habit-2"),
    ]
    .map(|(d, id)| (d.to_string(), id.to_string()))
    .into();
    assert_eq!(week, want);
    let audit: Vec<i64> = coach
        .planner()
        .audit_log(10, None)
        .unwrap()
        .into_iter()
        .map(|a| a.seq)
        .collect();
    assert_eq!(audit, [3, 2, 1]);
    assert_eq!(coach.workouts().plan_generations(10).unwrap().len(), 2);

    // A new workout: logged in the plan's unit, and the recounted history moves by one.
    coach
        .workouts()
        .log_session(SessionLog {
            id: "s-upper-3".into(),
            plan_id: Some("plan-upper".into()),
            performed_at_ms: NOW,
            exercises: vec![ExerciseLog {
                id: "p-u3-bench".into(),
                catalog_id: "bench".into(),
                prescription_id: Some("rx-bench".into()),
                sets: [(SetType::Warmup, 40.0, 10), (SetType::Regular, 65.0, 8)]
                    .into_iter()
                    .enumerate()
                    .map(|(i, (set_type, weight, reps))| PerformedSet {
                        index: i as u32,
                        set_type,
                        weight,
                        reps,
                        rest_seconds: Some(120),
                        completed: true,
                    })
                    .collect(),
            }],
        })
        .unwrap();
    let h = coach
        .workouts()
        .history("bench".into(), None)
        .unwrap()
        .unwrap();
    assert_eq!(h.session_count, 3);
    drop(coach);
    let conn = Connection::open(&path).unwrap();
    let unit: String = conn
        .query_row(
            "SELECT unit FROM exercise_performances WHERE id = 'p-u3-bench'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(unit, "kg");
}

/// Migration 0008 (meal-plan jobs get an owner and a lease, issue 22) on a version-7 file with
/// jobs as that version left them: every value is kept, the new columns are empty, and a job left
/// running by that version (no owner, no lease) reads interrupted at once, as it did; a finished
/// one reads as it was.
#[test]
fn opening_a_v7_file_runs_0008_and_old_jobs_read_as_before() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("v7.db");
    let result = r#"{"days":[],"slotFailuresCount":0}"#;
    {
        let conn = Connection::open(&path).unwrap();
        conn.pragma_update(None, "journal_mode", "WAL").unwrap();
        run_migrations_up_to(&conn, 7);
        conn.pragma_update(None, "user_version", 7).unwrap();
        conn.pragma_update(None, "application_id", APPLICATION_ID)
            .unwrap();
        conn.execute_batch(&format!(
            "INSERT INTO meal_plan_jobs (id, status, request_json, total_slots, processed_slots,
                 created_ms, updated_ms)
             VALUES ('job-left-running', 'RUNNING', '{{}}', 21, 4, {NOW}, {NOW});
             INSERT INTO meal_plan_jobs (id, status, request_json, result_json, total_slots,
                 processed_slots, created_ms, updated_ms)
             VALUES ('job-done', 'COMPLETE', '{{}}', '{result}', 0, 0, {NOW}, {NOW});"
        ))
        .unwrap();
    }
    let before = {
        let conn = Connection::open(&path).unwrap();
        let cols = columns(&conn, "meal_plan_jobs");
        rows(&conn, "meal_plan_jobs", &cols)
    };
    let coach = Coach::with_store(Store::open(&path).unwrap(), Arc::new(FixedClock::new(NOW)));
    {
        let conn = Connection::open(&path).unwrap();
        assert_eq!(user_version(&conn), i64::from(SCHEMA_VERSION));
        let cols = columns(&conn, "meal_plan_jobs");
        assert_eq!(
            cols[cols.len() - 3..],
            ["owner_pid", "owner_instance", "lease_until_ms"]
        );
        let after = rows(&conn, "meal_plan_jobs", &cols);
        for (old, new) in before.iter().zip(&after) {
            assert_eq!(&new[..old.len()], &old[..], "every value kept");
            assert!(
                new[old.len()..].iter().all(|v| *v == Value::Null),
                "{new:?}"
            );
        }
    }
    let left = coach
        .meals()
        .job("job-left-running".into())
        .unwrap()
        .unwrap();
    assert_eq!(left.status, coachcore::meals::JobStatus::Failed);
    assert_eq!(left.error_code.as_deref(), Some("interrupted"));
    assert_eq!(left.processed_slots, 4);
    let done = coach.meals().job("job-done".into()).unwrap().unwrap();
    assert_eq!(done.status, coachcore::meals::JobStatus::Complete);
    assert_eq!(done.result.unwrap().slot_failures_count, 0);
}

/// Migration 0009 (today's plans are saved, issue 23) on a version-8 file with a logged session:
/// the session is kept, the new table starts empty, and a plan made on the upgraded file is saved,
/// read back and marked done (logged next to the old session).
#[test]
fn opening_a_v8_file_runs_0009_and_plans_are_saved_on_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("v8.db");
    {
        let conn = Connection::open(&path).unwrap();
        conn.pragma_update(None, "journal_mode", "WAL").unwrap();
        run_migrations_up_to(&conn, 8);
        conn.pragma_update(None, "user_version", 8).unwrap();
        conn.pragma_update(None, "application_id", APPLICATION_ID)
            .unwrap();
        conn.execute_batch(&format!(
            "INSERT INTO workout_sessions (id, plan_id, performed_at_ms) VALUES ('old', NULL, {NOW});"
        ))
        .unwrap();
    }
    let coach = Coach::with_store(Store::open(&path).unwrap(), Arc::new(FixedClock::new(NOW)));
    {
        let conn = Connection::open(&path).unwrap();
        assert_eq!(user_version(&conn), i64::from(SCHEMA_VERSION));
        assert_eq!(
            columns(&conn, "today_plans"),
            [
                "id",
                "date",
                "units",
                "source",
                "fallback_reason",
                "created_at_ms",
                "plan",
                "targets",
                "done_at_ms",
                "session_id"
            ]
        );
        let cols = columns(&conn, "today_plans");
        assert!(rows(&conn, "today_plans", &cols).is_empty());
    }
    assert!(coach.workouts().recent_today_plans(5).unwrap().is_empty());
    let t = coach
        .workouts()
        .today_plan(coachcore::TodayPlanRequest {
            date: "2026-11-10".into(),
            notes: "20 minutes, bodyweight".into(),
            schema_version: None,
            timezone: None,
            seed: Some(3),
            units: None,
            days_per_week: None,
        })
        .unwrap();
    let done = coach
        .workouts()
        .mark_today_plan_done(t.plan.id.clone(), None, None)
        .unwrap();
    assert_eq!(done.plan, t.plan);
    assert_eq!(done.done_at_ms, Some(NOW));
    let conn = Connection::open(&path).unwrap();
    let sessions = strings(&conn, "SELECT id FROM workout_sessions ORDER BY id");
    assert_eq!(
        sessions,
        ["old".to_string(), format!("today:{}", t.plan.id)]
    );
}
