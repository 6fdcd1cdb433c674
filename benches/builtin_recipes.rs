//! The built-in recipes on first open (issue 24 goal: under 100 ms): the embedded set inflated and
//! parsed, then the whole load into a new database file (one write transaction: every recipe with
//! its full-text index rows, the version recorded), and the open of a file that is current (a
//! version check only), and a vegan week without peanut planned on a new file with no import and
//! no model (goal: under 200 ms). Prints p50, p95 and the best of each, the set's size embedded and
//! inflated, and whether the goal is met.
//!
//! Run: `cargo bench --bench builtin_recipes` (`-- --quick` for fewer probes).

use std::sync::Arc;
use std::time::Instant;

use coachcore::db::Store;
use coachcore::kernel::clock::FixedClock;
use coachcore::llm::CancelToken;
use coachcore::meals::service::builtin::{self, CORE_RECIPES_JSON_BYTES};
use coachcore::meals::service::jobs::PlanSink;
use coachcore::meals::{MealPlanEvent, MealPlanRequest};
use coachcore::{Coach, OpenOptions};

const T0: i64 = 1_795_000_000_000;
const GOAL_MS: f64 = 100.0;
const WEEK_GOAL_MS: f64 = 200.0;

fn stats(mut ms: Vec<f64>) -> (f64, f64, f64) {
    ms.sort_by(f64::total_cmp);
    (ms[ms.len() / 2], ms[ms.len() * 95 / 100], ms[0])
}

fn report(name: &str, ms: Vec<f64>, goal: Option<f64>) {
    let (p50, p95, best) = stats(ms);
    let verdict = goal.map_or(String::new(), |g| {
        format!(
            "  goal p50 < {g} ms: {}",
            if p50 < g { "met" } else { "MISSED" }
        )
    });
    println!("{name:<40} p50 {p50:>8.3} ms  p95 {p95:>8.3} ms  best {best:>8.3} ms{verdict}");
}

fn timed<T>(f: impl FnOnce() -> T) -> (T, f64) {
    let started = Instant::now();
    let out = f();
    (out, started.elapsed().as_secs_f64() * 1e3)
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let runs = if quick { 5 } else { 30 };
    let clock = FixedClock::new(T0);
    let n = builtin::builtin_recipes().unwrap().len();
    println!(
        "built-in set: {n} recipes, {} bytes embedded (deflated), {CORE_RECIPES_JSON_BYTES} bytes \
         of JSON inflated",
        builtin::embedded_bytes()
    );
    let (mut parse, mut load, mut open_new, mut open_current) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for i in 0..runs {
        parse.push(timed(|| builtin::builtin_recipes().unwrap()).1);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(format!("first-{i}.db"));
        // The first open of a new file: the schema, then the set.
        let (store, ms_open) = timed(|| Store::open(&path).unwrap());
        let (done, ms_load) = timed(|| builtin::ensure_builtin_recipes(&store, &clock).unwrap());
        assert_eq!(done.map(|d| d.loaded as usize), Some(n));
        load.push(ms_load);
        open_new.push(ms_open + ms_load);
        drop(store);
        // A later open: the version matches, nothing is loaded.
        let (store, ms_open) = timed(|| Store::open(&path).unwrap());
        let (done, ms_check) = timed(|| builtin::ensure_builtin_recipes(&store, &clock).unwrap());
        assert_eq!(done, None);
        open_current.push(ms_open + ms_check);
    }
    // Issue 24's goal: a new file plans 7 days x 3 meals, vegan, without peanut, with no import
    // and no model, in under 200 ms.
    let mut week = Vec::new();
    for i in 0..runs {
        let dir = tempfile::tempdir().unwrap();
        let coach = Coach::with_store_options(
            Store::open(dir.path().join(format!("week-{i}.db"))).unwrap(),
            Arc::new(FixedClock::new(T0)),
            &OpenOptions {
                builtin_recipes: true,
            },
        );
        let (job, ms) = timed(|| {
            coach
                .meals()
                .plan_with(vegan_week(), None, &Quiet, &CancelToken::new())
                .unwrap()
        });
        assert_eq!(job.result.map(|r| r.slot_failures_count), Some(0));
        week.push(ms);
    }
    report("inflate and parse the set", parse, None);
    report("load the set into a new file", load, Some(GOAL_MS));
    report("first open of a new file, set included", open_new, None);
    report("open of a current file", open_current, None);
    report(
        "plan a vegan week, no peanut (21 slots)",
        week,
        Some(WEEK_GOAL_MS),
    );
}

struct Quiet;
impl PlanSink for Quiet {
    fn on_event(&self, _: MealPlanEvent) {}
}

/// 7 days x breakfast, lunch and dinner for 2, vegan, without peanut: the request of
/// `tests/it/builtin_recipes.rs`, which checks every slot is filled.
fn vegan_week() -> MealPlanRequest {
    serde_json::from_str(include_str!("../tests/data/meals/vegan-week.request.json")).unwrap()
}
