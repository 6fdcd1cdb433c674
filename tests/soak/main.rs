//! The multi-process soak (issue 22): several processes (8 by default) write one database file at
//! once for a while, through the library's Rust API, mixing every write path: planner apply and
//! undo, recipes import, meal-plan jobs and their confirmation, logged meals, workouts generated
//! and logged, training plans saved, sessions logged, suggestions generated and decided. Each
//! process appends every write that reported success to a log file of its own (one JSON line per
//! write, written once the call returned) and every error a call returned. Then the file is
//! checked against the logs: every write that reported success is there, as reported, and nothing
//! else changed (each table holds exactly the rows the logs account for). Any lost write, extra
//! row or error (a "database is locked" included) fails the run.
//!
//!     cargo test --test soak                 8 processes, 30 s
//!     cargo test --release --test soak -- 600 --processes 8
//!     COACH_SOAK_SECS=600 cargo test --release --test soak
//!
//! test.sh runs it after the Rust tests. It is its own test target (no test harness) so that its
//! children are this small program, and `cargo test` without `--test soak` leaves it out.
//!
//! | file | what |
//! |---|---|
//! | `main.rs` | arguments, the file's setup, the processes, the verdict |
//! | `worker.rs` | one process: the write mix and its log |
//! | `check.rs` | the file against the logs |

mod check;
#[path = "../it/common.rs"]
mod common;
mod worker;

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use coachcore::suggest::CatalogExercise;
use coachcore::Coach;
use serde_json::json;

const DEFAULT_SECS: u64 = 30;
const DEFAULT_PROCESSES: usize = 8;

/// A file of `tests/data`.
pub fn data(path: &str) -> String {
    std::fs::read_to_string(format!("{}/tests/data/{path}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64
}

/// The catalog exercises the training sessions use.
pub const EXERCISES: [&str; 2] = ["bench", "squat"];

/// What every process finds in the file: the starter recipes and the two catalog exercises.
fn setup(path: &Path) {
    let c = Coach::open(path.to_string_lossy().into_owned()).unwrap();
    c.meals()
        .import_recipes(data("recipes/starter.json"))
        .unwrap();
    for id in EXERCISES {
        let ex: CatalogExercise = serde_json::from_value(
            json!({"catalogId": id, "name": id, "equipment": "barbell", "targetMuscles": ["chest"]}),
        )
        .unwrap();
        c.workouts().save_catalog_exercise(ex).unwrap();
    }
}

struct Args {
    secs: u64,
    processes: usize,
    keep: Option<PathBuf>,
}

fn args() -> Result<Args, String> {
    let mut a = Args {
        secs: std::env::var("COACH_SOAK_SECS")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(DEFAULT_SECS),
        processes: DEFAULT_PROCESSES,
        keep: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--processes" => {
                a.processes = it
                    .next()
                    .and_then(|n| n.parse().ok())
                    .filter(|&n| n > 0)
                    .ok_or("--processes N (N > 0)")?
            }
            "--keep" => a.keep = Some(it.next().ok_or("--keep DIR")?.into()),
            // What cargo's test runner passes to every test target.
            "--nocapture" | "--quiet" | "-q" => {}
            secs => {
                a.secs = secs
                    .parse()
                    .map_err(|_| format!("unknown argument {secs}"))?
            }
        }
    }
    Ok(a)
}

fn main() -> ExitCode {
    if let Ok(worker) = std::env::var("COACH_SOAK_WORKER") {
        worker::run(
            worker.parse().unwrap(),
            Path::new(&std::env::var("COACH_SOAK_DB").unwrap()),
            Path::new(&std::env::var("COACH_SOAK_LOG").unwrap()),
            std::env::var("COACH_SOAK_UNTIL").unwrap().parse().unwrap(),
        );
        return ExitCode::SUCCESS;
    }
    let a = match args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("soak: {e}\nusage: soak [SECONDS] [--processes N] [--keep DIR]");
            return ExitCode::from(2);
        }
    };
    let tmp = tempfile::tempdir().unwrap();
    let dir = a.keep.clone().unwrap_or_else(|| tmp.path().to_path_buf());
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("soak.db");
    setup(&db);
    let baseline = check::Counts::of(&db);
    eprintln!(
        "soak: {} processes on one file for {} s ({})",
        a.processes,
        a.secs,
        db.display()
    );
    let started = Instant::now();
    let until = now_ms() + a.secs as i64 * 1000;
    let exe = std::env::current_exe().unwrap();
    let logs: Vec<PathBuf> = (0..a.processes)
        .map(|w| dir.join(format!("worker-{w}.log")))
        .collect();
    let mut children: Vec<_> = logs
        .iter()
        .enumerate()
        .map(|(w, log)| {
            Command::new(&exe)
                .env("COACH_SOAK_WORKER", w.to_string())
                .env("COACH_SOAK_DB", &db)
                .env("COACH_SOAK_LOG", log)
                .env("COACH_SOAK_UNTIL", until.to_string())
                .stdout(Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    let deadline = Instant::now() + Duration::from_secs(a.secs + 120);
    let mut failed = 0;
    for (w, child) in children.iter_mut().enumerate() {
        loop {
            if let Some(status) = child.try_wait().unwrap() {
                if !status.success() {
                    eprintln!("soak: process {w} ended with {status}");
                    failed += 1;
                }
                break;
            }
            if Instant::now() > deadline {
                let _ = child.kill();
                eprintln!("soak: process {w} still running {} s after the end", 120);
                failed += 1;
                break;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
    let ran = started.elapsed().as_secs_f64();
    let report = check::check(&db, &baseline, &logs);
    report.print(a.processes, ran);
    if a.keep.is_none() && (failed > 0 || !report.ok()) {
        // Keep what failed for a look.
        let kept = tmp.keep();
        eprintln!("soak: the file and the logs are kept in {}", kept.display());
    }
    if failed == 0 && report.ok() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
