//! Crash tests for every write path (issue 14): a child process (this test binary, running
//! `crash::child`) writes in a loop on a real file and is killed with SIGKILL at a random point;
//! after all the kills the file must pass `integrity_check` and `foreign_key_check`, and every
//! write must be all or nothing (each path's own check below), and the file must take new writes.
//!
//! Paths: `ops` (assistant apply: 20 items, their audit entries and the idempotency key),
//! `decide` (a logged session, its suggestions, each accepted, rejected or deferred), `session`
//! (logged sessions and the exercise history they update), `workout` (a generated workout saved,
//! then logged as a session) and `meals` (a meal-plan job run and its plan confirmed into the
//! history).
//!
//! A killed meal-plan job reads `interrupted` once its lease has run out (another process cannot
//! tell a killed runner from a live one before): the check reads the jobs at both times.
//!
//! CI runs `COACH_CRASH_KILLS` kills per path (default 20). The full run (200 per path):
//! `COACH_CRASH_KILLS=200 cargo test --release --test it -- crash:: --nocapture`.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use coachcore::db::Store;
use coachcore::kernel::clock::FixedClock;
use coachcore::llm::CancelToken;
use coachcore::meals::service::jobs;
use coachcore::meals::JobStatus;
use coachcore::Coach;
use rusqlite::Connection;
use serde_json::{json, Value};

use crate::data_export::{
    coach_at, data, plan_json, session, training_setup, workout_generated_and_logged, Quiet, T0,
};

const READY: &str = "CRASH-CHILD-READY";
/// A child prints this after each write returned.
const DONE: &str = "CRASH-CHILD-DONE";
const BATCH: usize = 20;

fn kills() -> usize {
    std::env::var("COACH_CRASH_KILLS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20)
}

/// One write of `path`, number `b` of run `run`.
fn write_once(c: &Coach, path: &str, run: usize, b: usize) {
    let tag = format!("r{run}-b{b}");
    match path {
        "ops" => {
            let ops: Vec<Value> = (0..BATCH)
                .map(|i| {
                    let kind = ["todo", "event", "habit"][i % 3];
                    let every = if i % 3 == 2 { "daily" } else { "none" };
                    json!({"op": "create", "kind": kind,
                    "title": format!("{tag}-i{i}"), "scheduledFor": "2026-11-18",
                    "recurrence": {"type": every},
                    "notes": "x".repeat(200 + i * 50)})
                })
                .collect();
            c.planner()
                .apply_json(
                    &Value::Array(ops).to_string(),
                    Some(&tag),
                    Some("2026-11-18"),
                )
                .unwrap();
        }
        "session" => c
            .workouts()
            .log_session(session(&tag, (run * 1000 + b) as i64, 135.0, 10))
            .unwrap(),
        "decide" => {
            // A plan of its own per write, so every session gets fresh suggestions to decide.
            let mut plan = plan_json();
            plan["settings"]["planId"] = json!(tag);
            let mut log =
                serde_json::to_value(session(&tag, (run * 1000 + b) as i64, 135.0, 12)).unwrap();
            log["planId"] = json!(tag);
            for i in 0..2 {
                let rx = format!("{tag}-rx{i}");
                plan["exercises"][i]["id"] = json!(rx);
                log["exercises"][i]["prescriptionId"] = json!(rx);
            }
            c.workouts()
                .save_plan(serde_json::from_value(plan).unwrap())
                .unwrap();
            c.workouts()
                .log_session(serde_json::from_value(log).unwrap())
                .unwrap();
            for (k, ch) in c
                .suggestions()
                .for_session(tag)
                .unwrap()
                .into_iter()
                .enumerate()
            {
                let _ = match k % 3 {
                    0 => c.suggestions().accept(ch.id),
                    1 => c.suggestions().reject(ch.id),
                    _ => c.suggestions().defer_change(ch.id),
                };
            }
        }
        "workout" => {
            workout_generated_and_logged(c, &tag, T0 + (run * 1000 + b) as i64 * 60_000);
        }
        "meals" => {
            // One day per write, so the history rows of a confirmation are those of its date.
            let day = 1 + run * 50 + b;
            let date = coachcore::assistant::date::Date::parse("2030-01-01")
                .unwrap()
                .add_days(day as i64)
                .to_string();
            let request = coachcore::Meals::request_from_json(
                &json!({"days": [{"date": date, "meals": {"breakfast": {"servings": 1},
                    "lunch": {"servings": 1}, "dinner": {"servings": 2}}}]})
                .to_string(),
            )
            .unwrap();
            let job = c
                .meals()
                .plan_with(request, None, &Quiet, &CancelToken::new())
                .unwrap();
            c.meals().confirm(job.result.unwrap()).unwrap();
        }
        other => panic!("no write path {other}"),
    }
}

/// What each path needs before its children start.
fn setup(path: &str, file: &Path) {
    let c = coach_at(file);
    match path {
        "session" | "decide" => training_setup(&c),
        "meals" => {
            c.meals()
                .import_recipes(data("recipes/starter.json"))
                .unwrap();
        }
        _ => {}
    }
}

/// The child: opens the file, says it is ready, then writes until it is killed.
#[test]
#[ignore = "run as a child process by the crash tests"]
fn child() {
    let path = std::env::var("COACH_CRASH_PATH").unwrap();
    let run: usize = std::env::var("COACH_CRASH_RUN").unwrap().parse().unwrap();
    let db = std::env::var("COACH_CRASH_DB").unwrap();
    let c = Coach::with_store(Store::open(&db).unwrap(), Arc::new(FixedClock::new(T0)));
    println!("{READY}");
    for b in 0.. {
        write_once(&c, &path, run, b);
        println!("{DONE}");
    }
}

/// Kills `kills()` children writing `path` at random points; returns the file's path and the
/// seconds it took.
fn kill_children(path: &str, dir: &Path) -> (std::path::PathBuf, f64) {
    let file = dir.join(format!("{path}.db"));
    setup(path, &file);
    let exe = std::env::current_exe().unwrap();
    let (seed, mut rand) = crate::common::clock_seeded_rand();
    eprintln!("crash {path}: seed {seed}");
    let started = Instant::now();
    // How long one write takes, measured from the children's DONE lines: a kill lands after 0 to
    // 2 complete writes, at a random point of up to one write's time.
    let mut write_time = Duration::from_millis(20);
    for run in 0..kills() {
        let mut child = Command::new(&exe)
            .args([
                "crash::child",
                "--exact",
                "--ignored",
                "--test-threads=1",
                "--nocapture",
            ])
            .env("COACH_CRASH_PATH", path)
            .env("COACH_CRASH_DB", &file)
            .env("COACH_CRASH_RUN", run.to_string())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        loop {
            match lines.next() {
                Some(Ok(l)) if l.ends_with(READY) => break,
                Some(Ok(_)) => {}
                _ => panic!("{path} run {run}: the child exited before it was ready"),
            }
        }
        let mut last = Instant::now();
        for _ in 0..rand(3) {
            match lines.next() {
                Some(Ok(l)) if l.ends_with(DONE) => {}
                _ => panic!("{path} run {run}: the child stopped writing"),
            }
            write_time = (write_time * 3 + last.elapsed()) / 4;
            last = Instant::now();
        }
        std::thread::sleep(Duration::from_micros(rand(
            write_time.as_micros() as u64 + 1,
        )));
        child.kill().unwrap(); // SIGKILL
        let status = child.wait().unwrap();
        assert!(!status.success(), "{path} run {run}: killed, not finished");
    }
    eprintln!("crash {path}: one write takes about {write_time:?}");
    (file, started.elapsed().as_secs_f64())
}

fn rows<T: rusqlite::types::FromSql>(conn: &Connection, sql: &str) -> Vec<T> {
    conn.prepare(sql)
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

fn one(conn: &Connection, sql: &str) -> i64 {
    conn.query_row(sql, [], |r| r.get(0)).unwrap()
}

/// Integrity, foreign keys, and a new write of the same path on the recovered file.
fn check_file(path: &str, file: &Path) -> Connection {
    {
        let c = Coach::with_store(Store::open(file).unwrap(), Arc::new(FixedClock::new(T0)));
        assert!(c.data().check_integrity().unwrap().ok, "{path}: integrity");
        write_once(&c, path, kills(), 0);
    }
    let conn = Connection::open(file).unwrap();
    assert_eq!(
        one(&conn, "SELECT count(*) FROM pragma_foreign_key_check"),
        0,
        "{path}: foreign keys"
    );
    conn
}

/// Sessions are whole: two performances of three sets each, and the cached history counts
/// exactly the sessions logged.
fn sessions_are_whole(path: &str, conn: &Connection) -> i64 {
    let sessions = one(conn, "SELECT count(*) FROM workout_sessions");
    let bad = one(
        conn,
        "SELECT count(*) FROM workout_sessions s WHERE
           (SELECT count(*) FROM exercise_performances e WHERE e.session_id = s.id) <> 2
        OR (SELECT count(*) FROM performed_sets p JOIN exercise_performances e ON e.id = p.performance_id
             WHERE e.session_id = s.id) <> 6",
    );
    assert_eq!(bad, 0, "{path}: sessions with missing performances or sets");
    let history: Vec<i64> = rows(
        conn,
        "SELECT session_count FROM exercise_history ORDER BY catalog_id",
    );
    assert_eq!(
        history,
        vec![sessions, sessions],
        "{path}: history counts every session once"
    );
    sessions
}

#[test]
fn killed_applies_leave_all_or_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let (file, secs) = kill_children("ops", dir.path());
    let conn = check_file("ops", &file);
    let mut per_batch = BTreeMap::<String, usize>::new();
    for t in rows::<String>(&conn, "SELECT title FROM planner_items") {
        *per_batch
            .entry(t[..t.rfind("-i").unwrap()].to_string())
            .or_default() += 1;
    }
    assert!(
        per_batch.values().all(|&n| n == BATCH),
        "ops: a batch applied in part"
    );
    let per_request: Vec<i64> = rows(
        &conn,
        "SELECT count(*) FROM assistant_audit GROUP BY request_id",
    );
    assert_eq!(per_request.len(), per_batch.len());
    assert!(per_request.iter().all(|&n| n == BATCH as i64));
    let keys: Vec<String> = rows(&conn, "SELECT key FROM assistant_idempotency");
    assert_eq!(keys.len(), per_batch.len());
    assert!(
        keys.iter().all(|k| per_batch.contains_key(k)),
        "ops: a key without its items"
    );
    eprintln!(
        "crash ops: {} kills, {} batches, {secs:.1} s",
        kills(),
        per_batch.len()
    );
}

#[test]
fn killed_session_logs_leave_all_or_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let (file, secs) = kill_children("session", dir.path());
    let conn = check_file("session", &file);
    let sessions = sessions_are_whole("session", &conn);
    eprintln!(
        "crash session: {} kills, {sessions} sessions, {secs:.1} s",
        kills()
    );
}

#[test]
fn killed_decisions_leave_all_or_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let (file, secs) = kill_children("decide", dir.path());
    let conn = check_file("decide", &file);
    sessions_are_whole("decide", &conn);
    // A decision is written whole: decided ones have their time, pending ones none.
    assert_eq!(
        one(
            &conn,
            "SELECT count(*) FROM prescription_changes
                     WHERE (decision = 'pending') <> (decided_at_ms IS NULL)"
        ),
        0
    );
    // Accepting changes the plan in the same transaction: for every set, the last accepted
    // weight change's new value is the plan's weight.
    let mismatched = one(
        &conn,
        "WITH last AS (
             SELECT prescription_id, target_set_index, new_value, max(rowid)
               FROM prescription_changes
              WHERE decision = 'accepted' AND property = 'weight' AND target_set_index IS NOT NULL
              GROUP BY prescription_id, target_set_index)
         SELECT count(*) FROM last JOIN set_prescriptions s
             ON s.exercise_id = last.prescription_id AND s.set_index = last.target_set_index
          WHERE s.target_weight <> json_extract(last.new_value, '$.value')",
    );
    assert_eq!(mismatched, 0, "decide: an accepted change not in the plan");
    let accepted = one(
        &conn,
        "SELECT count(*) FROM prescription_changes WHERE decision = 'accepted'",
    );
    let decided = one(
        &conn,
        "SELECT count(*) FROM prescription_changes WHERE decision <> 'pending'",
    );
    assert!(accepted > 0, "decide: no child got to accept anything");
    eprintln!(
        "crash decide: {} kills, {decided} decisions ({accepted} accepted), {secs:.1} s",
        kills()
    );
}

#[test]
fn killed_workout_saves_leave_all_or_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let (file, secs) = kill_children("workout", dir.path());
    let conn = check_file("workout", &file);
    // A logged workout points at a session holding one performed set per set of the workout; a
    // session of a workout log belongs to exactly one workout.
    let bad = one(
        &conn,
        "SELECT count(*) FROM workouts w WHERE w.session_id IS NOT NULL AND
             (SELECT count(*) FROM performed_sets p JOIN exercise_performances e ON e.id = p.performance_id
               WHERE e.session_id = w.session_id) <> json_array_length(w.workout, '$.sets')",
    );
    assert_eq!(bad, 0, "workout: a log saved in part");
    let orphans = one(
        &conn,
        "SELECT count(*) FROM workout_sessions s WHERE NOT EXISTS
             (SELECT 1 FROM workouts w WHERE w.session_id = s.id)",
    );
    assert_eq!(orphans, 0, "workout: a session without its workout");
    let (saved, logged) = (
        one(&conn, "SELECT count(*) FROM workouts"),
        one(
            &conn,
            "SELECT count(*) FROM workouts WHERE session_id IS NOT NULL",
        ),
    );
    assert!(logged > 0);
    eprintln!(
        "crash workout: {} kills, {saved} saved, {logged} logged, {secs:.1} s",
        kills()
    );
}

#[test]
fn killed_meal_jobs_leave_all_or_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let (file, secs) = kill_children("meals", dir.path());
    let conn = check_file("meals", &file);
    let ids: Vec<String> = rows(&conn, "SELECT id FROM meal_plan_jobs");
    // Another process cannot tell a killed runner from a live one until the job's lease runs
    // out: before that a killed job reads unfinished, never failed.
    let within = Coach::with_store(
        Store::open(&file).unwrap(),
        Arc::new(FixedClock::new(T0 + jobs::LEASE_MS - 1)),
    );
    for id in &ids {
        let job = within.meals().job(id.clone()).unwrap().unwrap();
        assert_ne!(job.status, JobStatus::Failed, "{job:?}");
    }
    // Once it has run out, every job reads finished: complete with a result for its slots, or
    // failed as interrupted.
    let c = Coach::with_store(
        Store::open(&file).unwrap(),
        Arc::new(FixedClock::new(T0 + jobs::LEASE_MS)),
    );
    let mut complete = 0;
    for id in &ids {
        let job = c.meals().job(id.clone()).unwrap().unwrap();
        match job.status {
            JobStatus::Complete => {
                complete += 1;
                assert_eq!(job.processed_slots, job.total_slots);
                assert!(job.result.is_some());
            }
            JobStatus::Failed => {
                assert_eq!(job.error_code.as_deref(), Some("interrupted"), "{job:?}")
            }
            other => panic!("meals: a job reads {other:?} after the crash"),
        }
    }
    // A confirmation is whole: each date has none or all of its three meals.
    let per_date: Vec<i64> = rows(&conn, "SELECT count(*) FROM meal_history GROUP BY date");
    assert!(
        per_date.iter().all(|&n| n == 3),
        "meals: a plan confirmed in part: {per_date:?}"
    );
    assert!(complete > 0);
    eprintln!(
        "crash meals: {} kills, {} jobs ({complete} complete), {} confirmed, {secs:.1} s",
        kills(),
        ids.len(),
        per_date.len()
    );
}
