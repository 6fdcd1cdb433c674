//! `suggestions_for_session` on a real SQLite file: a 10-exercise session with a year of history
//! (about 150 sessions) in the database, and the same with 10x the history.
//!
//! Goals (issue 3): p50 under 2 ms for the call that generates a session's suggestions; 10x the
//! history costs under 1.5x (indexed reads, no scans). Run: `cargo bench --bench suggestions`
//! (`-- --quick` for fewer probes, as CI does).
//!
//! The database is built through the public API the way an app fills it: every workout is logged
//! (the plan's sets at the plan's weights, reps that fall as the weight rises and wander from
//! session to session, rest that is sometimes short), its suggestions are generated, and the user
//! decides them in a mix: about 40% accepted (applied to the plan, so the next workouts follow
//! it), 20% rejected, 20% deferred, 20% left pending and deferred when the summary closes; before
//! the next workout the deferred ones are reviewed (half accepted, half rejected). So the changes
//! table grows with the history, outcomes get evaluated, and the changes of the last three
//! workouts (2 days apart) sit in the 7-day cooldown window when a new session is generated.
//!
//! The probes continue that timeline: each is the next workout, logged (not timed), then
//! `suggestions_for_session` is timed twice: the first call (reads, rules, cooldown, inserts) and
//! the second (returns the stored changes). The history starts `probes / 2` sessions short of its
//! nominal size, so the median probe sees exactly 150 (or 1500) earlier sessions. The two
//! databases are probed alternately so machine noise hits both alike.
//!
//! Encryption at rest: `cargo bench --features encryption --bench suggestions -- --encrypted`
//! probes two more databases, the same users in files encrypted with SQLCipher (a raw 32-byte
//! key), alternately with the plain ones (so load hits all alike), and prints encrypted against
//! plain (README, "Encryption at rest").

use std::sync::Arc;
use std::time::{Duration, Instant};

use coachcore::db::{DatabaseKey, Store};
use coachcore::kernel::clock::FixedClock;
use coachcore::suggest::model::*;
use coachcore::Coach;

const HOUR: i64 = 3_600_000;
const DAY: i64 = 24 * HOUR;
const T0: i64 = 1_700_000_000_000;
const EXERCISES: usize = 10;
const PLAN: &str = "plan";
/// Days between workouts: about 3.5 a week, so a year is about 150-180 sessions.
const GAP_DAYS: i64 = 2;

/// A deterministic pseudo-random stream (a 64-bit LCG; the high bits are good enough here).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % n
    }
}

/// What the simulated user did, for the printout.
#[derive(Default)]
struct Tally {
    changes: usize,
    accepted: usize,
    rejected: usize,
    deferred: usize,
    left_pending: usize,
    /// Accepts the library refused (the plan moved on since the change was made): rejected instead.
    accept_refused: usize,
    /// Setup time spent logging workouts (with the plan read), generating, and deciding.
    setup_log: Duration,
    setup_generate: Duration,
    setup_decide: Duration,
}

/// One user with one plan in one database file, on a fixed clock.
struct Sim {
    coach: Coach,
    clock: Arc<FixedClock>,
    rng: Rng,
    /// Per exercise, reps above or below the usual (-4 to 4): a random walk, so good and bad
    /// stretches last a few workouts, as they do.
    form: [i32; EXERCISES],
    /// How long the last `log_session` call took.
    last_log: Duration,
    sessions: usize,
    tally: Tally,
    /// `created_at_ms` of every stored change, for counting the cooldown window.
    created: Vec<i64>,
    dir: tempfile::TempDir,
}

impl Sim {
    fn new(seed: u64, encrypted: bool) -> Sim {
        let dir = tempfile::tempdir().unwrap();
        let clock = Arc::new(FixedClock::new(T0));
        let store = open_store(&dir.path().join("bench.db"), encrypted);
        let coach = Coach::with_store(store, clock.clone());
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
                .workouts()
                .save_catalog_exercise(CatalogExercise {
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
                        target_weight: if k == 0 { 65.0 } else { start_weight(i) },
                        target_reps: 8,
                        rest_seconds: 120,
                    })
                    .collect(),
            });
        }
        coach
            .workouts()
            .save_plan(WorkoutPlan {
                settings: PlanSettings {
                    plan_id: PLAN.into(),
                    unit: WeightUnit::Lbs,
                    training_style: TrainingStyle::StraightSets,
                    load: LoadConfig::default(),
                },
                name: "Bench plan".into(),
                exercises,
            })
            .unwrap();
        Sim {
            coach,
            clock,
            rng: Rng(seed),
            form: [0; EXERCISES],
            last_log: Duration::ZERO,
            sessions: 0,
            tally: Tally::default(),
            created: Vec::new(),
            dir,
        }
    }

    fn now(&self) -> i64 {
        coachcore::kernel::clock::Clock::now_ms(&*self.clock)
    }

    /// Moves the clock to `at` (never backwards).
    fn set_now(&self, at: i64) {
        self.clock.advance_ms((at - self.now()).max(0));
    }

    /// Reps for a set: the rep goal's middle, one fewer per 5 lb above the exercise's starting
    /// weight, plus the exercise's current form, plus or minus one.
    fn reps(&mut self, rx: &ExercisePrescription, set: &SetPrescription, i: usize) -> u32 {
        if set.set_type == SetType::Warmup {
            return 10;
        }
        let goal = match rx.rep_range.mode {
            RepRangeMode::Range => f64::from(rx.rep_range.lower + rx.rep_range.upper) / 2.0,
            RepRangeMode::Target => f64::from(rx.rep_range.target),
            RepRangeMode::NotSet => 10.0,
        };
        let strength = (start_weight(i) - set.target_weight) / 5.0;
        let noise = self.rng.below(3) as f64 - 1.0;
        (goal + strength + f64::from(self.form[i]) + noise)
            .round()
            .clamp(1.0, 30.0) as u32
    }

    /// Logs the next workout (following the plan as it is now), 2 days after the previous one.
    /// Returns its id.
    fn log_next(&mut self) -> String {
        let at = T0 + self.sessions as i64 * GAP_DAYS * DAY;
        self.set_now(at);
        let plan = self.coach.workouts().plan(PLAN.into()).unwrap().unwrap();
        let id = format!("s{}", self.sessions);
        let mut exercises = Vec::new();
        for (i, rx) in plan.exercises.iter().enumerate() {
            self.form[i] = (self.form[i] + self.rng.below(3) as i32 - 1).clamp(-4, 4);
            let mut sets = Vec::new();
            for s in &rx.sets {
                let rest = match rx.rest_mode {
                    RestMode::AllSame => rx.rest_seconds,
                    RestMode::PerSet => s.rest_seconds,
                };
                // One set in six is rested short.
                let rest = if self.rng.below(6) == 0 {
                    rest / 2
                } else {
                    rest
                };
                sets.push(PerformedSet {
                    index: s.index,
                    set_type: s.set_type,
                    weight: s.target_weight,
                    reps: self.reps(rx, s, i),
                    rest_seconds: Some(rest),
                    completed: true,
                });
            }
            exercises.push(ExerciseLog {
                id: format!("{id}-{i}"),
                catalog_id: rx.catalog_id.clone(),
                prescription_id: Some(rx.id.clone()),
                sets,
            });
        }
        let log = SessionLog {
            id: id.clone(),
            plan_id: Some(PLAN.into()),
            performed_at_ms: at,
            exercises,
        };
        let t = Instant::now();
        self.coach.workouts().log_session(log).unwrap();
        self.last_log = t.elapsed();
        self.sessions += 1;
        self.set_now(at + HOUR);
        id
    }

    fn accept_or_reject(&mut self, id: String) {
        if self.coach.suggestions().accept(id.clone()).is_ok() {
            self.tally.accepted += 1;
        } else {
            self.tally.accept_refused += 1;
            self.coach.suggestions().reject(id).unwrap();
            self.tally.rejected += 1;
        }
    }

    /// The user decides a fresh session's suggestions, then leaves the summary.
    fn decide(&mut self, session: &str, changes: &[PrescriptionChange]) {
        self.tally.changes += changes.len();
        self.created.extend(changes.iter().map(|c| c.created_at_ms));
        for c in changes {
            match self.rng.below(10) {
                0..=3 => self.accept_or_reject(c.id.clone()),
                4 | 5 => {
                    self.coach.suggestions().reject(c.id.clone()).unwrap();
                    self.tally.rejected += 1;
                }
                6 | 7 => {
                    self.coach.suggestions().defer_change(c.id.clone()).unwrap();
                    self.tally.deferred += 1;
                }
                _ => self.tally.left_pending += 1,
            }
        }
        self.coach
            .suggestions()
            .defer_pending(session.to_string())
            .unwrap();
    }

    /// Before the next workout the user reviews what was deferred: half accepted, half rejected.
    fn review_deferred(&mut self) {
        self.set_now(T0 + self.sessions as i64 * GAP_DAYS * DAY - HOUR);
        for c in self.coach.suggestions().deferred(PLAN.into()).unwrap() {
            if self.rng.below(2) == 0 {
                self.accept_or_reject(c.id);
            } else {
                self.coach.suggestions().reject(c.id).unwrap();
                self.tally.rejected += 1;
            }
        }
    }

    /// One workout of the history: logged, suggestions generated and decided.
    fn history_step(&mut self) {
        let t = Instant::now();
        self.review_deferred();
        let t1 = Instant::now();
        let id = self.log_next();
        let t2 = Instant::now();
        let changes = self.coach.suggestions().for_session(id.clone()).unwrap();
        let t3 = Instant::now();
        self.decide(&id, &changes);
        self.tally.setup_log += t2 - t1;
        self.tally.setup_generate += t3 - t2;
        self.tally.setup_decide += (t1 - t) + t3.elapsed();
    }

    /// One timed probe: the next workout's first `suggestions_for_session` call (generation) and
    /// second call (stored), then the user decides as in the history. Returns the two durations,
    /// the number of suggestions, how many stored changes were in the cooldown window, and how long
    /// logging the workout took.
    fn probe(&mut self) -> (Duration, Duration, usize, usize, Duration) {
        self.review_deferred();
        let id = self.log_next();
        let window = self
            .created
            .iter()
            .filter(|&&t| t >= self.now() - 7 * DAY)
            .count();
        let t = Instant::now();
        let first = self.coach.suggestions().for_session(id.clone()).unwrap();
        let generate = t.elapsed();
        let t = Instant::now();
        let second = self.coach.suggestions().for_session(id.clone()).unwrap();
        let stored = t.elapsed();
        assert_eq!(first.len(), second.len());
        self.decide(&id, &first);
        (generate, stored, first.len(), window, self.last_log)
    }
}

/// The working weight exercise `i` starts at (lb).
fn start_weight(i: usize) -> f64 {
    100.0 + 10.0 * i as f64
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

/// Timings of one database.
struct Run {
    history: usize,
    encrypted: bool,
    sim: Sim,
    setup: Duration,
    generate_ms: Vec<f64>,
    stored_ms: Vec<f64>,
    log_ms: Vec<f64>,
    suggestions: usize,
    window_rows: usize,
}

impl Run {
    fn new(history: usize, probes: usize, seed: u64, encrypted: bool) -> Run {
        let t = Instant::now();
        let mut sim = Sim::new(seed, encrypted);
        for _ in 0..history - probes / 2 {
            sim.history_step();
        }
        Run {
            history,
            encrypted,
            sim,
            setup: t.elapsed(),
            generate_ms: Vec::new(),
            stored_ms: Vec::new(),
            log_ms: Vec::new(),
            suggestions: 0,
            window_rows: 0,
        }
    }

    fn probe(&mut self) {
        let (g, s, n, w, l) = self.sim.probe();
        self.log_ms.push(l.as_secs_f64() * 1e3);
        self.generate_ms.push(g.as_secs_f64() * 1e3);
        self.stored_ms.push(s.as_secs_f64() * 1e3);
        self.suggestions += n;
        self.window_rows += w;
    }

    /// p50 and p95 of the generating and the stored calls.
    fn stats(&mut self) -> [f64; 4] {
        self.generate_ms.sort_by(f64::total_cmp);
        self.stored_ms.sort_by(f64::total_cmp);
        self.log_ms.sort_by(f64::total_cmp);
        [
            percentile(&self.generate_ms, 0.5),
            percentile(&self.generate_ms, 0.95),
            percentile(&self.stored_ms, 0.5),
            percentile(&self.stored_ms, 0.95),
        ]
    }
}

fn verdict(met: bool) -> &'static str {
    if met {
        "MET"
    } else {
        "MISSED"
    }
}

/// The key of `--encrypted` runs: 32 fixed bytes.
const BENCH_KEY: [u8; 32] = [0x42; 32];

/// The bench's database at `path`: plain, or encrypted with [`BENCH_KEY`].
fn open_store(path: &std::path::Path, encrypted: bool) -> Store {
    if encrypted {
        let key = DatabaseKey::from_bytes(&BENCH_KEY).unwrap();
        Store::open_encrypted(path, &key)
            .expect("--encrypted needs a build with the feature `encryption`")
    } else {
        Store::open(path).unwrap()
    }
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let probes = if quick { 30 } else { 100 };
    let encrypted = std::env::args().any(|a| a == "--encrypted");
    let file = if encrypted {
        "file databases, plain and encrypted (SQLCipher, raw 32-byte key; `enc` rows)"
    } else {
        "file database"
    };
    println!(
        "suggestions_for_session: {EXERCISES} exercises x 4 sets, {file}, workouts every \
         {GAP_DAYS} days, {probes} probes per size (median probe sees the nominal history)"
    );
    let mut runs = vec![
        Run::new(150, probes, 1, false),
        Run::new(1500, probes, 2, false),
    ];
    if encrypted {
        // The same users (same seeds) in encrypted files.
        runs.push(Run::new(150, probes, 1, true));
        runs.push(Run::new(1500, probes, 2, true));
    }
    for p in 0..probes {
        // Rotate which database goes first.
        for k in 0..runs.len() {
            let i = (p + k) % runs.len();
            runs[i].probe();
        }
    }
    println!(
        "\n{:>8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>9} {:>9} {:>9} {:>9}",
        "history",
        "setup s",
        "changes",
        "accept",
        "reject",
        "defer",
        "cooldown",
        "sugg/",
        "generate",
        "generate",
        "stored",
        "stored"
    );
    println!(
        "{:>8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>9} {:>9} {:>9} {:>9}",
        "sessions",
        "",
        "stored",
        "",
        "",
        "",
        "rows",
        "session",
        "p50 ms",
        "p95 ms",
        "p50 ms",
        "p95 ms"
    );
    let mut p50 = vec![[0.0; 2]; runs.len()];
    for (r, run) in runs.iter_mut().enumerate() {
        let s = run.stats();
        p50[r] = [s[0], s[2]];
        let t = &run.sim.tally;
        let label = if run.encrypted { " enc" } else { "" };
        println!(
            "{:>8} {:>8.1} {:>8} {:>8} {:>8} {:>8} {:>8.1} {:>8.1} {:>9.3} {:>9.3} {:>9.3} {:>9.3}",
            format!("{}{label}", run.history),
            run.setup.as_secs_f64(),
            t.changes,
            t.accepted,
            t.rejected,
            t.deferred + t.left_pending,
            run.window_rows as f64 / probes as f64,
            run.suggestions as f64 / probes as f64,
            s[0],
            s[1],
            s[2],
            s[3]
        );
    }
    println!(
        "(accept: applied to the plan; {} + {} accepts refused because the plan had moved on were \
         rejected instead; defer: deferred or left pending, then reviewed before the next workout; \
         cooldown rows: stored changes created in the 7 days before the probe)",
        runs[0].sim.tally.accept_refused, runs[1].sim.tally.accept_refused
    );
    for run in &runs {
        let t = &run.sim.tally;
        println!(
            "setup of {} sessions{}: logging {:.1} s, generating {:.1} s, deciding {:.1} s",
            run.history,
            if run.encrypted { " (encrypted)" } else { "" },
            t.setup_log.as_secs_f64(),
            t.setup_generate.as_secs_f64(),
            t.setup_decide.as_secs_f64()
        );
    }
    let ratio = p50[1][0] / p50[0][0];
    let stored_ratio = p50[1][1] / p50[0][1];
    println!(
        "\ngoal: generating call p50 < 2 ms with 150 sessions of history: {:.3} ms: {}",
        p50[0][0],
        verdict(p50[0][0] < 2.0)
    );
    println!(
        "goal: 10x history costs < 1.5x (generating call, p50): {ratio:.2}x: {}",
        verdict(ratio < 1.5)
    );
    println!(
        "(stored call: 10x history costs {stored_ratio:.2}x: {})",
        verdict(stored_ratio < 1.5)
    );
    let log = [
        percentile(&runs[0].log_ms, 0.5),
        percentile(&runs[1].log_ms, 0.5),
    ];
    println!(
        "(for reference, no goal: log_session of the same workouts, p50 {:.3} ms and {:.3} ms: \
         10x history costs {:.2}x)",
        log[0],
        log[1],
        log[1] / log[0]
    );
    let mut open_p50 = Vec::new();
    for run in &runs {
        let path = run.sim.dir.path().join("bench.db");
        open_p50.push(open_cost(run.history, &path, run.encrypted));
    }
    if encrypted {
        println!("\nencryption at rest (SQLCipher), encrypted / plain, p50 of the same users:");
        for (plain, enc) in [(0, 2), (1, 3)] {
            println!(
                "  {} sessions: generating call {:.3} / {:.3} ms ({:.2}x), stored call {:.3} / \
                 {:.3} ms ({:.2}x), log_session {:.3} / {:.3} ms ({:.2}x), open {:.2} / {:.2} ms \
                 ({:.2}x)",
                runs[plain].history,
                p50[enc][0],
                p50[plain][0],
                p50[enc][0] / p50[plain][0],
                p50[enc][1],
                p50[plain][1],
                p50[enc][1] / p50[plain][1],
                percentile(&runs[enc].log_ms, 0.5),
                percentile(&runs[plain].log_ms, 0.5),
                percentile(&runs[enc].log_ms, 0.5) / percentile(&runs[plain].log_ms, 0.5),
                open_p50[enc],
                open_p50[plain],
                open_p50[enc] / open_p50[plain],
            );
        }
    }
}

/// What opening the file costs, and how much of it is `PRAGMA quick_check` (run by every open,
/// issue 14): p50 of `Store::open` and of the check alone on the bench's database; returns the
/// former.
fn open_cost(history: usize, path: &std::path::Path, encrypted: bool) -> f64 {
    const N: usize = 21;
    let size = std::fs::metadata(path).map_or(0, |m| m.len());
    let mut open_ms = Vec::new();
    let mut check_ms = Vec::new();
    for _ in 0..N {
        let t = Instant::now();
        let store = open_store(path, encrypted);
        open_ms.push(t.elapsed().as_secs_f64() * 1e3);
        drop(store);
        let conn = rusqlite::Connection::open(path).unwrap();
        if encrypted {
            let hex: String = BENCH_KEY.iter().map(|b| format!("{b:02x}")).collect();
            conn.execute_batch(&format!("PRAGMA key = \"x'{hex}'\""))
                .unwrap();
        }
        let t = Instant::now();
        let ok: String = conn
            .query_row("PRAGMA quick_check(1)", [], |r| r.get(0))
            .unwrap();
        check_ms.push(t.elapsed().as_secs_f64() * 1e3);
        assert_eq!(ok, "ok");
    }
    open_ms.sort_by(f64::total_cmp);
    check_ms.sort_by(f64::total_cmp);
    println!(
        "(open of the {history}-session database{}, {:.1} MB: Store::open p50 {:.2} ms, of which \
         PRAGMA quick_check p50 {:.2} ms)",
        if encrypted { " (encrypted)" } else { "" },
        size as f64 / 1e6,
        percentile(&open_ms, 0.5),
        percentile(&check_ms, 0.5)
    );
    percentile(&open_ms, 0.5)
}
