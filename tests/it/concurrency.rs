//! Concurrency (issue 14): 8 threads on one `Coach` and 8 processes on one file, each mixing
//! writes (assistant apply, logged sessions with their suggestions accepted, rejected or deferred)
//! and reads (week, backlog, audit log, plan) for a bounded time. Checked: every call succeeds (no
//! "database is locked", no untyped error), every write is in the file afterwards (rows counted
//! against the successes), and everything finishes before a deadline (no deadlock).
//!
//! Longer runs: `COACH_CONCURRENCY_SECS=60 cargo test --release --test it -- concurrency::`.

use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::sync::Arc;
use std::time::{Duration, Instant};

use coachcore::{Coach, CoachError};
use serde_json::json;

use crate::data_export::{coach_at, session, training_setup};

const WORKERS: usize = 8;

fn run_secs() -> u64 {
    std::env::var("COACH_CONCURRENCY_SECS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3)
}

/// What one worker wrote: todos created, sessions logged, changes decided, reads made.
#[derive(Debug, Default, Clone, Copy, PartialEq)]
struct Tally {
    todos: u64,
    sessions: u64,
    decided: u64,
    reads: u64,
}

/// Mixed calls for `secs` seconds as worker `worker` of run `tag`: the first error stops it.
fn work(c: &Coach, tag: &str, worker: usize, secs: u64) -> Result<Tally, (String, CoachError)> {
    let mut t = Tally::default();
    let end = Instant::now() + Duration::from_secs(secs);
    let mut i = 0u64;
    while Instant::now() < end {
        let step = (i as usize + worker) % 4;
        let r = match step {
            0 => c
                .planner().apply_json(
                    &json!([{"op": "create", "kind": "todo", "title": format!("{tag}-w{worker}-{i}")}])
                        .to_string(),
                    Some(&format!("{tag}-w{worker}-{i}")),
                    Some("2026-11-18"),
                )
                .map(|r| {
                    assert_eq!(r.applied.len(), 1);
                    t.todos += 1
                }),
            1 => {
                let id = format!("{tag}-w{worker}-s{i}");
                c.workouts().log_session(session(&id, (i % 50) as i64, 135.0, 12))
                    .and_then(|()| {
                        t.sessions += 1;
                        c.suggestions().for_session(id)
                    })
                    .and_then(|changes| {
                        for (k, ch) in changes.into_iter().enumerate() {
                            let decided = match k % 3 {
                                0 => c.suggestions().accept(ch.id),
                                1 => c.suggestions().reject(ch.id),
                                _ => c.suggestions().defer_change(ch.id),
                            };
                            match decided {
                                Ok(_) => t.decided += 1,
                                // Another worker's accepted change made this one out of date:
                                // a typed refusal, not a failure of concurrency.
                                Err(CoachError::InvalidArgument { .. }) => {}
                                Err(e) => return Err(e),
                            }
                        }
                        Ok(())
                    })
            }
            2 => c.planner().week("2026-11-18".into()).map(|w| {
                assert!(w.week_start == "2026-11-16");
                t.reads += 1
            }),
            _ => c
                .planner().backlog(20)
                .and_then(|_| c.planner().audit_log(20, None))
                .and_then(|_| c.workouts().plan("upper-lower".into()))
                .map(|p| {
                    assert!(p.is_some());
                    t.reads += 1
                }),
        };
        r.map_err(|e| (format!("worker {worker} step {step} call {i}"), e))?;
        i += 1;
    }
    Ok(t)
}

fn count(path: &Path, sql: &str) -> u64 {
    rusqlite::Connection::open(path)
        .unwrap()
        .query_row(sql, [], |r| r.get::<_, i64>(0))
        .unwrap() as u64
}

/// The rows the tallies promise are in the file.
fn check_rows(path: &Path, tag: &str, total: Tally) {
    let todos = count(
        path,
        &format!("SELECT count(*) FROM planner_items WHERE title LIKE '{tag}-%'"),
    );
    assert_eq!(todos, total.todos, "todos created = todos in the file");
    let keys = count(
        path,
        &format!("SELECT count(*) FROM assistant_idempotency WHERE key LIKE '{tag}-%'"),
    );
    assert_eq!(keys, total.todos);
    let sessions = count(
        path,
        &format!("SELECT count(*) FROM workout_sessions WHERE id LIKE '{tag}-%'"),
    );
    assert_eq!(
        sessions, total.sessions,
        "sessions logged = sessions in the file"
    );
    let sets = count(
        path,
        &format!(
            "SELECT count(*) FROM performed_sets s JOIN exercise_performances e ON e.id = s.performance_id
              WHERE e.session_id LIKE '{tag}-%'"
        ),
    );
    assert_eq!(sets, 6 * total.sessions);
    let decided = count(
        path,
        &format!(
            "SELECT count(*) FROM prescription_changes WHERE decision <> 'pending' AND session_id LIKE '{tag}-%'"
        ),
    );
    assert_eq!(
        decided, total.decided,
        "decisions made = decisions in the file"
    );
    let ok: String = rusqlite::Connection::open(path)
        .unwrap()
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    assert_eq!(ok, "ok");
    assert_eq!(
        count(path, "SELECT count(*) FROM pragma_foreign_key_check"),
        0
    );
}

fn sum(tallies: &[Tally]) -> Tally {
    tallies.iter().fold(Tally::default(), |a, t| Tally {
        todos: a.todos + t.todos,
        sessions: a.sessions + t.sessions,
        decided: a.decided + t.decided,
        reads: a.reads + t.reads,
    })
}

#[test]
fn eight_threads_on_one_coach_lose_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("threads.db");
    let coach = Arc::new(coach_at(&path));
    training_setup(&coach);
    let secs = run_secs();
    let (tx, rx) = mpsc::channel();
    for w in 0..WORKERS {
        let (coach, tx) = (coach.clone(), tx.clone());
        std::thread::spawn(move || {
            let _ = tx.send(work(&coach, "t", w, secs));
        });
    }
    let deadline = Instant::now() + Duration::from_secs(secs + 60);
    let mut tallies = Vec::new();
    for _ in 0..WORKERS {
        let left = deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left) {
            Ok(Ok(t)) => tallies.push(t),
            Ok(Err((what, e))) => panic!("{what}: {e:?}"),
            Err(_) => panic!("a worker did not finish within {} s: deadlock?", secs + 60),
        }
    }
    let total = sum(&tallies);
    eprintln!("8 threads, {secs} s: {total:?}");
    assert!(total.todos > 0 && total.sessions > 0 && total.decided > 0 && total.reads > 0);
    drop(coach);
    check_rows(&path, "t", total);
}

/// The child side of [`eight_processes_on_one_file_lose_nothing`]: opens the file, works, prints
/// its tally (or the error) as one line.
#[test]
#[ignore = "run as a child process by eight_processes_on_one_file_lose_nothing"]
fn process_child() {
    let path = std::env::var("COACH_CONC_DB").unwrap();
    let worker: usize = std::env::var("COACH_CONC_WORKER").unwrap().parse().unwrap();
    let secs: u64 = std::env::var("COACH_CONC_SECS").unwrap().parse().unwrap();
    let coach = Coach::open(path).unwrap();
    match work(&coach, "p", worker, secs) {
        Ok(t) => println!("TALLY {} {} {} {}", t.todos, t.sessions, t.decided, t.reads),
        Err((what, e)) => println!("ERROR {what}: {e:?}"),
    }
}

#[test]
fn eight_processes_on_one_file_lose_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("processes.db");
    training_setup(&coach_at(&path));
    let secs = run_secs();
    let exe = std::env::current_exe().unwrap();
    let children: Vec<_> = (0..WORKERS)
        .map(|w| {
            Command::new(&exe)
                .args([
                    "concurrency::process_child",
                    "--exact",
                    "--ignored",
                    "--nocapture",
                    "-q",
                ])
                .env("COACH_CONC_DB", &path)
                .env("COACH_CONC_WORKER", w.to_string())
                .env("COACH_CONC_SECS", secs.to_string())
                .stdout(Stdio::piped())
                .stderr(Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    let deadline = Instant::now() + Duration::from_secs(secs + 120);
    let mut tallies = Vec::new();
    for mut child in children {
        while child.try_wait().unwrap().is_none() {
            if Instant::now() > deadline {
                let _ = child.kill();
                panic!(
                    "a process did not finish within {} s: deadlock?",
                    secs + 120
                );
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let mut out = String::new();
        std::io::Read::read_to_string(&mut child.stdout.take().unwrap(), &mut out).unwrap();
        let line = out
            .lines()
            .find(|l| l.starts_with("TALLY ") || l.starts_with("ERROR "))
            .unwrap_or_else(|| panic!("no result from a child: {out}"));
        let n: Vec<u64> = match line.strip_prefix("TALLY ") {
            Some(rest) => rest.split(' ').map(|x| x.parse().unwrap()).collect(),
            None => panic!("{line}"),
        };
        tallies.push(Tally {
            todos: n[0],
            sessions: n[1],
            decided: n[2],
            reads: n[3],
        });
    }
    let total = sum(&tallies);
    eprintln!("8 processes, {secs} s: {total:?}");
    assert!(total.todos > 0 && total.sessions > 0 && total.reads > 0);
    check_rows(&path, "p", total);
}
