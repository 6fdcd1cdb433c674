//! `suggestions_for_session` on a real SQLite file: a 10-exercise session with a year of history
//! (about 150 sessions), and the same with 10x the history.
//!
//! Goals (issue 3): p50 under 2 ms; 10x the history costs under 1.5x (indexed reads, no scans).
//! Run: `cargo bench --bench suggestions` (`-- --quick` for fewer probes).
//!
//! Each probe is a separate, not yet generated session. All probes share one timestamp after the
//! history, so each sees exactly the same history; the clock moves 8 days between probes so earlier
//! probes' suggestions fall out of the 7-day cooldown window and every probe does the same work.

use std::sync::Arc;
use std::time::Instant;

use coachcore::clock::FixedClock;
use coachcore::store::Store;
use coachcore::suggest::model::*;
use coachcore::Coach;

const DAY: i64 = 86_400_000;
const T0: i64 = 1_700_000_000_000;
const EXERCISES: usize = 10;

fn setup(history_sessions: usize, probes: usize) -> (Coach, Arc<FixedClock>, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let clock = Arc::new(FixedClock::new(T0));
    let coach = Coach::with_store(
        Store::open(dir.path().join("bench.db")).unwrap(),
        clock.clone(),
    );
    let muscles = [
        Muscle::Chest,
        Muscle::Quads,
        Muscle::Back,
        Muscle::Shoulders,
        Muscle::Hamstrings,
    ];
    let mut exercises = Vec::new();
    for i in 0..EXERCISES {
        coach
            .save_exercise(CatalogExercise {
                catalog_id: format!("ex-{i}"),
                name: format!("Exercise {i}"),
                equipment: Equipment::Barbell,
                target_muscles: vec![muscles[i % muscles.len()]],
            })
            .unwrap();
        exercises.push(ExercisePrescription {
            id: format!("rx-{i}"),
            catalog_id: format!("ex-{i}"),
            position: i as u32,
            rep_range: RepRange {
                mode: RepRangeMode::Range,
                lower: 8,
                upper: 12,
                target: 0,
            },
            rest_mode: RestMode::AllSame,
            rest_seconds: 120,
            sets: (0..4)
                .map(|k| SetPrescription {
                    index: k,
                    set_type: if k == 0 {
                        SetType::Warmup
                    } else {
                        SetType::Regular
                    },
                    target_weight: if k == 0 { 60.0 } else { 100.0 },
                    target_reps: 8,
                    rest_seconds: 120,
                })
                .collect(),
        });
    }
    coach
        .save_plan(WorkoutPlan {
            settings: PlanSettings {
                plan_id: "plan".into(),
                unit: WeightUnit::Lbs,
                training_style: TrainingStyle::StraightSets,
                load: LoadConfig::default(),
            },
            name: "Bench plan".into(),
            exercises,
        })
        .unwrap();
    let session = |id: String, at: i64, n: usize| SessionLog {
        id: id.clone(),
        plan_id: Some("plan".into()),
        performed_at_ms: at,
        exercises: (0..EXERCISES)
            .map(|i| ExerciseLog {
                id: format!("{id}-{i}"),
                catalog_id: format!("ex-{i}"),
                prescription_id: Some(format!("rx-{i}")),
                sets: (0..4)
                    .map(|k| PerformedSet {
                        index: k,
                        set_type: if k == 0 {
                            SetType::Warmup
                        } else {
                            SetType::Regular
                        },
                        weight: if k == 0 { 60.0 } else { 100.0 },
                        // Reps wander over the range so different rules fire.
                        reps: 7 + ((n * 7 + i * 3 + k as usize) % 7) as u32,
                        rest_seconds: Some(90 + ((n + k as usize) % 4) as u32 * 15),
                        completed: true,
                    })
                    .collect(),
            })
            .collect(),
    };
    for n in 0..history_sessions {
        coach
            .log_session(session(format!("h{n}"), T0 + n as i64 * DAY * 2, n))
            .unwrap();
    }
    let probe_at = T0 + history_sessions as i64 * DAY * 2;
    for p in 0..probes {
        coach
            .log_session(session(format!("p{p}"), probe_at, history_sessions + p))
            .unwrap();
    }
    clock.advance_ms(probe_at - T0 + DAY);
    (coach, clock, dir)
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

fn run(history: usize, probes: usize) -> (f64, f64, usize) {
    let (coach, clock, _dir) = setup(history, probes);
    let mut times = Vec::with_capacity(probes);
    let mut produced = 0;
    for p in 0..probes {
        clock.advance_ms(8 * DAY);
        let t = Instant::now();
        let s = coach.suggestions_for_session(format!("p{p}")).unwrap();
        times.push(t.elapsed().as_secs_f64() * 1e3);
        produced += s.len();
    }
    times.sort_by(f64::total_cmp);
    (
        percentile(&times, 0.5),
        percentile(&times, 0.95),
        produced / probes.max(1),
    )
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let probes = if quick { 30 } else { 120 };
    println!("suggestions_for_session, {EXERCISES} exercises x 4 sets, file database, {probes} probes each");
    println!(
        "{:>16} {:>9} {:>9} {:>22}",
        "history sessions", "p50 ms", "p95 ms", "suggestions/session"
    );
    let (p50_a, p95_a, n_a) = run(150, probes);
    println!("{:>16} {:>9.3} {:>9.3} {:>22}", 150, p50_a, p95_a, n_a);
    let (p50_b, p95_b, n_b) = run(1500, probes);
    println!("{:>16} {:>9.3} {:>9.3} {:>22}", 1500, p50_b, p95_b, n_b);
    println!(
        "goal p50 < 2 ms: {}; 10x history costs {:.2}x (goal < 1.5x): {}",
        if p50_a < 2.0 { "met" } else { "MISSED" },
        p50_b / p50_a,
        if p50_b / p50_a < 1.5 { "met" } else { "MISSED" }
    );
}
