//! The workout flow's deterministic hot paths (issue 11 goals):
//! - the pre-analysis over a year of logged history (read from the database and analysed):
//!   under 5 ms;
//! - the deterministic render of an analyzer plan (document, YAML out, YAML read back and
//!   validated against the schema): under 1 ms.
//!
//! - the whole flow on a real model (`--features llama`, env `COACH_MODEL`): wall time, source,
//!   model calls and tokens.
//!
//! Run: `cargo bench --bench workout` (`-- --quick` for fewer probes). Prints the median and the
//! best of each, and whether the goal is met.
//!
//! The year: a deterministic workout generated and logged every other day for 365 days (183
//! sessions, 6 exercises and about 20 sets each), on a file database.

use std::sync::Arc;
use std::time::Instant;

use coachcore::db::Store;
use coachcore::kernel::clock::FixedClock;
use coachcore::llm::CancelToken;
use coachcore::workout::catalog::{builtin, Inventory};
use coachcore::workout::service::{self, NoEvents, WorkoutSettings};
use coachcore::workout::*;
use coachcore::Coach;

const REQUEST: &str = include_str!("../tests/data/workout/request.json");
const DAY_MS: i64 = 86_400_000;
/// 2025-08-17T12:00:00Z.
const NOW_MS: i64 = 1_755_432_000_000;

fn stats(mut times: Vec<f64>) -> (f64, f64) {
    times.sort_by(f64::total_cmp);
    (times[times.len() / 2], times[0])
}

fn report(name: &str, unit: &str, (median, best): (f64, f64), goal: f64) {
    println!(
        "{name:<52} median {median:>9.3} {unit}  best {best:>9.3} {unit}  goal < {goal} {unit}: {}",
        if median < goal { "met" } else { "MISSED" }
    );
}

fn date_of(ms: i64) -> String {
    coachcore::kernel::date::Date::from_unix_ms(ms, 0).to_string()
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let probes = if quick { 20 } else { 200 };
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bench.db");
    let coach = Coach::with_store(
        Store::open(&path).unwrap(),
        Arc::new(FixedClock::new(NOW_MS)),
    );
    let base: WorkoutRequest = serde_json::from_str(REQUEST).unwrap();
    let started = Instant::now();
    let mut sessions = 0;
    let mut sets = 0;
    for day in (1..=365).rev().step_by(2) {
        let at = NOW_MS - day * DAY_MS;
        let mut r = base.clone();
        r.meta.date = date_of(at);
        r.recent_cardio.clear();
        let w = coach
            .workouts()
            .generate_with(
                &r,
                None,
                &NoEvents,
                &CancelToken::new(),
                &WorkoutSettings::default(),
            )
            .unwrap()
            .workout;
        let actual: Vec<SetActual> = w
            .sets
            .iter()
            .map(|s| SetActual {
                set_id: s.id.clone(),
                actual_weight: s.target_weight.unwrap_or(95.0),
                actual_reps: 10,
            })
            .collect();
        sets += actual.len();
        coach
            .workouts()
            .log(WorkoutLog {
                workout_id: w.workout_id,
                performed_at_ms: at,
                sets: actual,
                post_workout: None,
            })
            .unwrap();
        sessions += 1;
    }
    println!(
        "setup: {sessions} sessions, {sets} sets logged in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    drop(coach);

    let store = Store::open(&path).unwrap();
    let times: Vec<f64> = (0..probes)
        .map(|_| {
            let t = Instant::now();
            let (pre, _) = service::pre_analysis(&store, &base).unwrap();
            std::hint::black_box(pre);
            t.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    report(
        "pre-analysis, a year of history (db read + analysis)",
        "ms",
        stats(times),
        5.0,
    );

    let (pre, catalog) = service::pre_analysis(&store, &base).unwrap();
    println!(
        "  history: {} exercises, anti-repeat {}, allowed {}",
        pre.history.len(),
        pre.anti_repeat_active,
        pre.allowed.len()
    );
    let plan = planner::plan(&base, &pre, &catalog);
    let inv = Inventory::new(&base.equipment, base.meta.units);
    let times: Vec<f64> = (0..probes * 5)
        .map(|_| {
            let t = Instant::now();
            let w = render::render(&plan, builtin(), &inv, 1);
            std::hint::black_box(&w);
            t.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    report(
        "deterministic render (document only)",
        "ms",
        stats(times),
        1.0,
    );
    let times: Vec<f64> = (0..probes * 5)
        .map(|_| {
            let t = Instant::now();
            let w = render::render(&plan, builtin(), &inv, 1);
            let yaml = document::to_yaml(&w);
            let back = validate_workout_yaml(&yaml).unwrap();
            std::hint::black_box(back);
            t.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    report(
        "deterministic render + YAML + validate",
        "ms",
        stats(times),
        1.0,
    );
    model_flow();
}

/// The whole flow on the real model (feature `llama`, env `COACH_MODEL` naming a GGUF such as
/// SmolLM2-135M-Instruct): pre-analysis, analyzer, generator with their repairs, on 2 threads in
/// the default 2048-token context with the default settings; prints the wall time, the source of
/// the document (or the typed error), model calls, tokens and llama.cpp decode steps.
#[cfg(feature = "llama")]
fn model_flow() {
    use coachcore::llm::llama::{GenerationStats, LlamaEngine, LlamaOptions};
    use coachcore::llm::metered::Metered;
    use coachcore::llm::{GenerationRequest, GenerationResult, LanguageModel, LlmError, ModelInfo};
    use std::sync::Mutex;

    /// The engine, adding up each call's decode statistics.
    struct Counted {
        engine: Arc<LlamaEngine>,
        stats: Mutex<GenerationStats>,
    }
    impl LanguageModel for Counted {
        fn info(&self) -> ModelInfo {
            self.engine.info()
        }
        fn generate(
            &self,
            request: GenerationRequest,
            listener: Option<Arc<dyn coachcore::llm::TokenListener>>,
            cancel: Arc<CancelToken>,
        ) -> Result<GenerationResult, LlmError> {
            let (r, s) = self.engine.generate_with_stats(request, listener, cancel)?;
            let mut all = self.stats.lock().unwrap();
            all.decode_steps += s.decode_steps;
            all.sampled_tokens += s.sampled_tokens;
            all.forced_tokens += s.forced_tokens;
            Ok(r)
        }
    }

    let Ok(path) = std::env::var("COACH_MODEL") else {
        println!("whole flow on a model: skipped (set COACH_MODEL to a GGUF)");
        return;
    };
    // COACH_BENCH_THREADS=1: one thread on a busy machine (as `benches/llm.rs`).
    let threads = std::env::var("COACH_BENCH_THREADS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2)
        .clamp(1, 2);
    let options = LlamaOptions {
        context_tokens: 2048,
        threads: Some(threads),
        ..LlamaOptions::default()
    };
    let engine = LlamaEngine::load(&path, options).expect("the model loads");
    println!(
        "whole flow: {threads} threads, load average {}",
        std::fs::read_to_string("/proc/loadavg")
            .unwrap_or_default()
            .trim()
    );
    let request: WorkoutRequest = serde_json::from_str(REQUEST).unwrap();
    let settings = WorkoutSettings::default();
    let rounds = 3;
    for round in 1..=rounds {
        let store = Store::open_in_memory().unwrap();
        let clock = FixedClock::new(NOW_MS);
        let counted = Counted {
            engine: Arc::clone(&engine),
            stats: Mutex::default(),
        };
        let metered = Metered::new(&counted, "bench");
        let started = Instant::now();
        let out = service::generate(
            &store,
            &clock,
            Some(&metered),
            &request,
            &NoEvents,
            &CancelToken::new(),
            &settings,
        );
        let wall = started.elapsed().as_secs_f64();
        let usage = metered.usage();
        let stats = *counted.stats.lock().unwrap();
        let outcome = match out {
            Ok(r) => format!("{:?} document, {} sets", r.source, r.workout.sets.len()),
            Err(e) => format!("typed error: {e}"),
        };
        println!(
            "whole flow on {} ({round}/{rounds}): {wall:.1} s, {outcome}; {} model calls, {} prompt \
             and {} generated tokens ({} sampled, {} forced by the grammar) in {} decode steps",
            engine.info().name,
            usage.calls,
            usage.prompt_tokens,
            usage.completion_tokens,
            stats.sampled_tokens,
            stats.forced_tokens,
            stats.decode_steps
        );
    }
}

#[cfg(not(feature = "llama"))]
fn model_flow() {
    println!("whole flow on a model: needs --features llama and COACH_MODEL");
}
