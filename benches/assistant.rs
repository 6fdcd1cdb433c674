//! The assistant's deterministic hot paths (issue 5 goals):
//! - validating 20 operations: under 50 µs;
//! - applying 20 operations in one transaction on a file database (with an idempotency key and
//!   one audit entry each): under 5 ms;
//! - the week snapshot over 10,000 items: under 2 ms;
//! - the deterministic reading of a 200-character message against 16 items: under 1 ms.
//!
//! Run: `cargo bench --bench assistant` (`-- --quick` for fewer probes). Prints the median and the
//! best of each, and whether the goal is met.
//!
//! With feature `llama` (`cargo bench --features llama --bench assistant`) it also times the
//! streamed chat answer on the real model (issue 26 goal): from `assistant().send` of a chat
//! message to its first `textDelta` event, on warm calls (the model loaded and an answer already
//! given): under 400 ms. Model: env `COACH_MODEL`, else `models/SmolLM2-135M-Instruct.Q4_1.gguf`;
//! threads: env `COACH_BENCH_THREADS`, else 2.
//!
//! The 10,000 items: two years of dated todos and events around "today" (most past ones
//! completed), 1,200 backlog todos, 150 goals, and 120 repeating habits and todos (daily, weekly
//! on weekdays, monthly) with a year of completed occurrences each.

use std::time::Instant;

use coachcore::assistant::apply::{apply, backlog, week};
use coachcore::assistant::date::Date;
use coachcore::assistant::shape::{shape_operations, shape_typed, ShapedOp};
use coachcore::assistant::validate::validate;
use coachcore::assistant::*;
use coachcore::db::Store;
use coachcore::kernel::clock::FixedClock;
use coachcore::kernel::ids::IdGenerator;

const T0: i64 = 1_795_000_000_000;

fn today() -> Date {
    Date::parse("2026-11-18").unwrap()
}

fn stats(mut times: Vec<f64>) -> (f64, f64) {
    times.sort_by(f64::total_cmp);
    (times[times.len() / 2], times[0])
}

fn report(name: &str, unit: &str, (median, best): (f64, f64), goal: f64) {
    println!(
        "{name:<44} median {median:>9.3} {unit}  best {best:>9.3} {unit}  goal < {goal} {unit}: {}",
        if median < goal { "met" } else { "MISSED" }
    );
}

fn op(op: OpType, kind: ItemKind) -> PlannerOperation {
    PlannerOperation::new(op, kind)
}

fn item(kind: ItemKind, id: String, date: Option<String>, rec: Recurrence) -> PlannerItem {
    PlannerItem {
        kind,
        title: format!("{} {id}", kind.as_str()),
        id,
        notes: None,
        scheduled_for: date,
        time_of_day: None,
        end_time: None,
        priority: Priority::Medium,
        recurrence: rec,
        completed: false,
        completed_occurrences: Vec::new(),
        goal_items: Vec::new(),
        child_goals: Vec::new(),
        created_ms: T0,
        updated_ms: T0,
    }
}

fn known(kind: ItemKind, id: &str, rec: Recurrence, date: &str) -> KnownItem {
    KnownItem {
        kind,
        id: id.into(),
        recurrence: rec,
        completed: false,
        scheduled_for: Some(date.into()),
    }
}

fn daily() -> Recurrence {
    Recurrence {
        kind: RecurrenceType::Daily,
        interval: None,
        weekdays: vec![],
        until: None,
    }
}

/// The existing items the 20 operations name.
struct Targets {
    todo: String,
    event: String,
    habit: String,
    goal: String,
    child_goal: String,
    occurrence: String,
}

impl Targets {
    fn numbered(p: usize) -> Targets {
        Targets {
            todo: format!("t{p}"),
            event: format!("e{p}"),
            habit: "h".into(),
            goal: format!("g{p}"),
            child_goal: format!("c{p}"),
            occurrence: today().add_days(-(p as i64) - 1).to_string(),
        }
    }
}

/// 20 realistic operations over known items: creates of every kind, updates, completions, goal ops.
fn twenty_ops(x: &Targets) -> (Vec<ShapedOp>, KnownItems) {
    let mut k = KnownItems::new();
    k.insert(known(
        ItemKind::Todo,
        &x.todo,
        Recurrence::none(),
        "2026-11-19",
    ));
    k.insert(known(
        ItemKind::Event,
        &x.event,
        Recurrence::none(),
        "2026-11-20",
    ));
    k.insert(known(ItemKind::Habit, &x.habit, daily(), "2025-01-01"));
    k.insert(known(
        ItemKind::Goal,
        &x.goal,
        Recurrence::none(),
        "2026-11-01",
    ));
    k.insert(known(
        ItemKind::Goal,
        &x.child_goal,
        Recurrence::none(),
        "2026-11-01",
    ));
    let mut ops = Vec::new();
    for i in 0..6 {
        let mut o = op(OpType::Create, ItemKind::Todo);
        o.title = Some(format!("Todo number {i}"));
        o.scheduled_for = Some("2026-11-21".into());
        o.priority = Some(Priority::High);
        ops.push(o);
    }
    for i in 0..3 {
        let mut o = op(OpType::Create, ItemKind::Event);
        o.title = Some(format!("Meeting {i}"));
        o.scheduled_for = Some("2026-11-19".into());
        o.time_of_day = Some("10:00".into());
        o.end_time = Some("11:30".into());
        o.recurrence = Some(Recurrence::none());
        ops.push(o);
    }
    let mut o = op(OpType::Create, ItemKind::Habit);
    o.title = Some("Walk".into());
    o.scheduled_for = Some("2026-11-16".into());
    o.recurrence = Some(Recurrence {
        kind: RecurrenceType::Weekly,
        interval: Some(1),
        weekdays: vec![Weekday::Mon, Weekday::Wed, Weekday::Fri],
        until: Some("2027-06-30".into()),
    });
    ops.push(o);
    let mut o = op(OpType::Update, ItemKind::Todo);
    o.id = Some(x.todo.clone());
    o.title = Some("Renamed".into());
    o.recurrence = Some(Recurrence::none());
    ops.push(o);
    let mut o = op(OpType::Update, ItemKind::Event);
    o.id = Some(x.event.clone());
    o.time_of_day = Some("09:00".into());
    o.end_time = Some("09:45".into());
    ops.push(o);
    let mut o = op(OpType::Complete, ItemKind::Todo);
    o.id = Some(x.todo.clone());
    ops.push(o);
    let mut o = op(OpType::Complete, ItemKind::Habit); // repaired to complete_occurrence
    o.id = Some(x.habit.clone());
    ops.push(o);
    let mut o = op(OpType::CompleteOccurrence, ItemKind::Habit);
    o.id = Some(x.habit.clone());
    o.occurrence_date = Some(x.occurrence.clone());
    ops.push(o);
    let mut o = op(OpType::GoalCreate, ItemKind::Goal);
    o.title = Some("Fitness".into());
    o.items = vec![ItemRef {
        kind: ItemKind::Habit,
        id: x.habit.clone(),
    }];
    o.children = vec![x.child_goal.clone()];
    ops.push(o);
    let mut o = op(OpType::GoalAddItems, ItemKind::Goal);
    o.id = Some(x.goal.clone());
    o.items = vec![ItemRef {
        kind: ItemKind::Todo,
        id: x.todo.clone(),
    }];
    ops.push(o);
    let mut o = op(OpType::GoalAddChild, ItemKind::Goal);
    o.id = Some(x.goal.clone());
    o.child_id = Some(x.child_goal.clone());
    ops.push(o);
    let mut o = op(OpType::Delete, ItemKind::Event);
    o.id = Some(x.event.clone());
    ops.push(o);
    let mut o = op(OpType::GoalUpdate, ItemKind::Goal);
    o.id = Some(x.child_goal.clone());
    o.priority = Some(Priority::Low);
    ops.push(o);
    assert_eq!(ops.len(), 20);
    (shape_typed(ops), k)
}

fn bench_validate(probes: usize) {
    let (ops, known) = twenty_ops(&Targets::numbered(0));
    let v = validate(&ops, &known, today());
    assert!(v.all_valid(), "bench operations must be valid: {:?}", v);
    let reps = 50;
    let mut times = Vec::with_capacity(probes);
    for _ in 0..probes {
        let t = Instant::now();
        for _ in 0..reps {
            std::hint::black_box(validate(std::hint::black_box(&ops), &known, today()));
        }
        times.push(t.elapsed().as_secs_f64() * 1e6 / reps as f64);
    }
    report("validate 20 operations", "µs", stats(times), 50.0);

    let json = serde_json::to_string(&serde_json::json!({
        "operations": ops.iter().map(|s| s.operation.clone()).collect::<Vec<_>>()
    }))
    .unwrap();
    let mut times = Vec::with_capacity(probes);
    for _ in 0..probes {
        let t = Instant::now();
        for _ in 0..reps {
            let value: serde_json::Value = serde_json::from_str(&json).unwrap();
            let shaped = shape_operations(&value).unwrap();
            std::hint::black_box(validate(&shaped, &known, today()));
        }
        times.push(t.elapsed().as_secs_f64() * 1e6 / reps as f64);
    }
    let (m, b) = stats(times);
    println!(
        "{:<44} median {m:>9.3} µs  best {b:>9.3} µs  (no goal)",
        "parse + shape + validate 20 (JSON)"
    );
}

fn bench_apply(probes: usize) {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path().join("apply.db")).unwrap();
    let clock = FixedClock::new(T0);
    let mut ids = IdGenerator::seeded(1);
    // Items for the updates, completions and goal links of every probe.
    store
        .write(|db| {
            for p in 0..probes {
                db.insert_planner_item(&item(
                    ItemKind::Todo,
                    format!("t{p}"),
                    Some("2026-11-19".into()),
                    Recurrence::none(),
                ))?;
                db.insert_planner_item(&item(
                    ItemKind::Event,
                    format!("e{p}"),
                    Some("2026-11-20".into()),
                    Recurrence::none(),
                ))?;
                for g in [format!("g{p}"), format!("c{p}")] {
                    db.insert_planner_item(&item(ItemKind::Goal, g, None, Recurrence::none()))?;
                }
            }
            db.insert_planner_item(&item(
                ItemKind::Habit,
                "h".into(),
                Some("2025-01-01".into()),
                daily(),
            ))?;
            Ok(())
        })
        .unwrap();
    let mut times = Vec::with_capacity(probes);
    for p in 0..probes {
        let (shaped, _) = twenty_ops(&Targets::numbered(p));
        clock.advance_ms(1_000);
        let key = format!("bench-{p}");
        let t = Instant::now();
        let r = apply(&store, &clock, &mut ids, shaped, Some(&key), today()).unwrap();
        times.push(t.elapsed().as_secs_f64() * 1e3);
        assert_eq!(r.applied.len(), 20);
    }
    report(
        "apply 20 operations (file db, 1 transaction)",
        "ms",
        stats(times),
        5.0,
    );
}

fn bench_week(probes: usize) {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path().join("week.db")).unwrap();
    let t = today();
    let mut n = 0usize;
    let mut completions = 0usize;
    store
        .write(|db| {
            let mut next = |kind: ItemKind, date: Option<String>, rec: Recurrence| {
                n += 1;
                let mut it = item(kind, format!("item-{n:05}"), date, rec);
                it.priority = [Priority::Low, Priority::Medium, Priority::High][n % 3];
                if n % 4 != 0 {
                    it.time_of_day = Some(format!("{:02}:{:02}", 6 + n % 14, (n * 7) % 60));
                }
                it
            };
            // 120 repeating items, each with a year of completed occurrences.
            for i in 0..120 {
                let rec = match i % 3 {
                    0 => daily(),
                    1 => Recurrence {
                        kind: RecurrenceType::Weekly,
                        interval: Some(1 + (i % 2) as u32),
                        weekdays: vec![Weekday::Mon, Weekday::Thu],
                        until: None,
                    },
                    _ => Recurrence {
                        kind: RecurrenceType::Monthly,
                        interval: None,
                        weekdays: vec![],
                        until: None,
                    },
                };
                let kind = if i % 2 == 0 {
                    ItemKind::Habit
                } else {
                    ItemKind::Todo
                };
                let anchor = t.add_days(-365 - (i as i64 % 30));
                let it = next(kind, Some(anchor.to_string()), rec);
                db.insert_planner_item(&it)?;
                for d in coachcore::assistant::date::occurrences(&it.recurrence, anchor, anchor, t)
                {
                    if d.days_since_epoch() % 5 != 0 {
                        db.insert_completion(&it.id, &d.to_string(), T0)?;
                        completions += 1;
                    }
                }
            }
            for _ in 0..150 {
                let it = next(ItemKind::Goal, None, Recurrence::none());
                db.insert_planner_item(&it)?;
            }
            for _ in 0..1_200 {
                let it = next(ItemKind::Todo, None, Recurrence::none());
                db.insert_planner_item(&it)?;
            }
            // The rest: dated todos and events over two years around today; past ones mostly done.
            let rest = 10_000 - 120 - 150 - 1_200;
            for i in 0..rest {
                let offset = (i as i64 * 730 / rest as i64) - 365;
                let kind = if i % 3 == 0 {
                    ItemKind::Event
                } else {
                    ItemKind::Todo
                };
                let mut it = next(
                    kind,
                    Some(t.add_days(offset).to_string()),
                    Recurrence::none(),
                );
                it.completed = offset < -7 && i % 10 != 0;
                db.insert_planner_item(&it)?;
            }
            Ok(())
        })
        .unwrap();
    let w = week(&store, t).unwrap();
    let mut times = Vec::with_capacity(probes);
    for _ in 0..probes {
        let s = Instant::now();
        std::hint::black_box(week(&store, t).unwrap());
        times.push(s.elapsed().as_secs_f64() * 1e3);
    }
    report(
        &format!("week snapshot, {n} items ({} entries)", w.entries.len()),
        "ms",
        stats(times),
        2.0,
    );
    println!("  ({completions} completed occurrences stored)");
    let mut times = Vec::with_capacity(probes);
    for _ in 0..probes {
        let s = Instant::now();
        std::hint::black_box(backlog(&store, 50).unwrap());
        times.push(s.elapsed().as_secs_f64() * 1e3);
    }
    let (m, b) = stats(times);
    println!(
        "{:<44} median {m:>9.3} ms  best {b:>9.3} ms  (no goal)",
        "backlog, first 50 of 1200"
    );
}

fn bench_reading(probes: usize) {
    let msg = "Remind me to call mom tomorrow at 5pm for 30 minutes, it's urgent, and every \
               Monday and Thursday go for a run until June 1; also move the dentist thing to \
               next Tuesday from 2 to 3pm please, thanks!";
    let titles = [
        "Buy milk",
        "Submit expense report",
        "Call the plumber",
        "File taxes",
        "Buy birthday gift for Anna",
        "Renew car insurance",
        "Do laundry",
        "Return library books",
        "Team meeting",
        "Dentist appointment",
        "Dinner with Sam",
        "Morning run",
        "Meditate",
        "Read 20 pages",
        "Get fit",
        "Finish the house",
    ];
    let items: Vec<PlannerItem> = titles
        .iter()
        .enumerate()
        .map(|(i, t)| PlannerItem {
            title: t.to_string(),
            ..item(ItemKind::Todo, format!("t{i}"), None, Recurrence::none())
        })
        .collect();
    let reps = 50;
    let mut times = Vec::with_capacity(probes);
    for _ in 0..probes {
        let t = Instant::now();
        for _ in 0..reps {
            std::hint::black_box(coachcore::assistant::reading::read_message(
                std::hint::black_box(msg),
                today(),
                &items,
            ));
        }
        times.push(t.elapsed().as_secs_f64() * 1e3 / reps as f64);
    }
    report(
        "read a 200-character message (16 items)",
        "ms",
        stats(times),
        1.0,
    );
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let probes = if quick { 30 } else { 200 };
    println!("assistant benchmarks, {probes} probes each");
    bench_reading(probes);
    bench_validate(probes);
    bench_apply(probes);
    bench_week(probes);
    #[cfg(feature = "llama")]
    first_delta::bench(if quick { 5 } else { 20 });
}

/// Time to the first streamed piece of a chat answer on the real model.
#[cfg(feature = "llama")]
mod first_delta {
    use std::sync::{Arc, Mutex};
    use std::time::{Duration, Instant};

    use coachcore::assistant::{AssistantEvent, AssistantMode, AssistantRequest};
    use coachcore::ffi::{AssistantListener, Coach, ListenerError, ModelOptions, OpenOptions};

    /// Small talk and questions a chat answer is asked for, taken in turn (no two calls alike).
    const MESSAGES: [&str; 6] = [
        "thanks, that helps!",
        "good morning!",
        "how should I warm up before a run?",
        "any tips for sleeping better?",
        "what is a good stretch after squats?",
        "I feel tired today, should I rest?",
    ];

    /// When the first delta came (after the call started), how many came, and when `done` did.
    struct Clock {
        started: Instant,
        first: Mutex<Option<Duration>>,
        deltas: Mutex<usize>,
    }

    impl AssistantListener for Clock {
        fn on_event(&self, event: AssistantEvent) -> Result<(), ListenerError> {
            if let AssistantEvent::TextDelta { .. } = event {
                let mut first = self.first.lock().unwrap();
                first.get_or_insert_with(|| self.started.elapsed());
                *self.deltas.lock().unwrap() += 1;
            }
            Ok(())
        }
    }

    /// One chat message: time to its first delta, its deltas, and its total time.
    fn one(coach: &Coach, message: &str) -> Option<(f64, usize, f64)> {
        let clock = Arc::new(Clock {
            started: Instant::now(),
            first: Mutex::new(None),
            deltas: Mutex::new(0),
        });
        let request = AssistantRequest {
            message: message.into(),
            mode: AssistantMode::Chat,
            selection: None,
            today: Some("2026-11-18".into()),
            language: None,
        };
        let task = coach.assistant().send(request, Some(clock.clone()));
        let out = task.wait();
        let total = clock.started.elapsed().as_secs_f64() * 1e3;
        if let Err(e) = out {
            println!("  chat call failed: {e}");
            return None;
        }
        let first = (*clock.first.lock().unwrap())?.as_secs_f64() * 1e3;
        let n = *clock.deltas.lock().unwrap();
        Some((first, n, total))
    }

    pub fn bench(rounds: usize) {
        let path = std::env::var("COACH_MODEL").unwrap_or_else(|_| {
            format!(
                "{}/models/SmolLM2-135M-Instruct.Q4_1.gguf",
                env!("CARGO_MANIFEST_DIR")
            )
        });
        if !std::path::Path::new(&path).exists() {
            println!("first delta: no model at {path} (models/fetch.sh or COACH_MODEL); skipped");
            return;
        }
        let threads = std::env::var("COACH_BENCH_THREADS")
            .ok()
            .and_then(|t| t.parse().ok())
            .unwrap_or(2);
        let coach = Coach::open_in_memory_with_options(OpenOptions {
            builtin_recipes: false,
        })
        .expect("open");
        let info = coach
            .model()
            .load(
                path.clone(),
                ModelOptions {
                    context_tokens: 2048,
                    threads: Some(threads),
                },
                None,
            )
            .expect("load the model");
        // Cold: the first answer reads the whole chat prompt.
        let cold = one(&coach, "hello!");
        let mut firsts = Vec::new();
        let mut totals = Vec::new();
        let mut deltas = 0;
        for i in 0..rounds {
            if let Some((first, n, total)) = one(&coach, MESSAGES[i % MESSAGES.len()]) {
                firsts.push(first);
                totals.push(total);
                deltas += n;
            }
        }
        if firsts.is_empty() {
            println!("first delta: no chat answer streamed");
            return;
        }
        println!(
            "first delta on {} ({threads} threads), cold call: {}",
            info.name,
            cold.map_or("failed".into(), |(f, _, _)| format!("{f:.1} ms"))
        );
        let n = firsts.len();
        firsts.sort_by(f64::total_cmp);
        let p90 = firsts[(n * 9 / 10).min(n - 1)];
        super::report(
            &format!("first textDelta, warm chat call ({n} calls)"),
            "ms",
            super::stats(firsts.clone()),
            400.0,
        );
        println!(
            "  p90 {p90:.1} ms, worst {:.1} ms; {:.1} deltas a call; whole answer median {:.0} ms",
            firsts[n - 1],
            deltas as f64 / n as f64,
            super::stats(totals).0
        );
    }
}
