//! `validateWorkoutYaml` against the size of its input (issue 22): the time must grow linearly,
//! for documents the YAML caps let through (the parse runs to the end) and for hostile ones they
//! stop (nested flow collections took minutes, an alias bomb gigabytes).
//!
//! Goal: per shape, the time per KiB at the largest size at most 2x the time per KiB at 32 KiB
//! (linear, with room for noise); every refused shape under 10 ms at 256 KiB
//! (stopped at the cap; a few ms are fixed: libyaml looks up to 1024 characters ahead).
//! Run: `cargo bench --bench yaml` (`-- --quick`: fewer rounds; `-- --max-kib N`: sizes up to N
//! KiB, for a build where a shape is slow).

use std::hint::black_box;
use std::time::{Duration, Instant};

use coachcore::workout::validate_workout_yaml;

const KIB: usize = 1024;

/// A shape of input and its text of about `bytes`.
struct Shape {
    name: String,
    /// Refused by a cap (the rest parse to the end).
    refused: bool,
    text: Box<dyn Fn(usize) -> String>,
}

fn shape(name: &str, refused: bool, text: impl Fn(usize) -> String + 'static) -> Shape {
    Shape {
        name: name.into(),
        refused,
        text: Box::new(text),
    }
}

/// `unit` repeated to about `bytes`.
fn repeat(unit: &str, bytes: usize) -> String {
    unit.repeat(bytes / unit.len())
}

/// A workout document (the schema's example shape) whose sets are repeated to about `bytes`: a
/// schema violation past 80 sets, read to the end first.
fn workout(bytes: usize) -> String {
    let head = "version: 1.2\nworkout_id: 2025-08-17-gym-downtown-01\ndate: '2025-08-17'\n\
                location: gym\nunits: lbs\nduration_minutes: 60\ngoal: hypertrophy\n\
                cut_order: []\nsets:\n";
    let set = "- id: A-BB-BACK-SQUAT-1\n  tier: A\n  must: true\n  superset: null\n  order: 1\n  \
               exercise: bb-back-squat\n  equipment: eq_barbell_olympic\n  target_reps: 6-10\n  \
               target_weight: 225\n  rir: 2\n  rest_s: 120\n  actual_weight: null\n  \
               actual_reps: null\n  notes: Brace, two seconds down, drive through the floor.\n";
    let tail = "post_workout:\n  perceived_difficulty: null\n  completion_time_minutes: null\n  \
                notes: null\n";
    format!(
        "{head}{}{tail}",
        repeat(set, bytes - head.len() - tail.len())
    )
}

/// Collections nested `depth` deep, repeated in one sequence to about `bytes`.
fn nested(unit_open: &str, unit_close: &str, depth: usize, bytes: usize) -> String {
    let one = format!("{}x{}", unit_open.repeat(depth), unit_close.repeat(depth));
    format!("[{}]", repeat(&format!("{one},"), bytes))
}

/// Units that, repeated, nest past the cap: the flow patterns, `[` and block sequences.
const DEEP_UNITS: [&str; 6] = ["[[[a: ", "[a: ", "{? ", "{a: ", "[", "- "];

fn shapes() -> Vec<Shape> {
    let mut all = vec![
        shape("workout, sets repeated", false, workout),
        shape("flow sequence of scalars", false, |b| {
            format!("[{}x]", repeat("x, ", b))
        }),
        shape("block mapping, one key a line", false, |b| {
            (0..b / 12).map(|i| format!("k{i:07}: v\n")).collect()
        }),
        shape("[...] 63 deep, repeated", false, |b| {
            nested("[", "]", 63, b)
        }),
        shape("[a: ...] 31 deep, repeated", false, |b| {
            nested("[a: ", "]", 31, b)
        }),
        shape("small aliases within the budget", false, |b| {
            format!("a: &x yes\nb: [{}*x]\n", repeat("*x, ", b.min(60 * KIB)))
        }),
    ];
    for unit in DEEP_UNITS {
        all.push(shape(&format!("{unit:?} repeated"), true, move |b| {
            repeat(unit, b)
        }));
    }
    all.push(shape("alias bomb (one scalar, aliased)", true, |b| {
        let scalar = b * 3 / 4;
        let aliases = (b - scalar) / 3;
        format!(
            "a: &x {}\nc: [{}*x]\n",
            "b".repeat(scalar),
            "*x,".repeat(aliases)
        )
    }));
    all.push(shape("%TAG directives", true, |b| {
        let tags: String = (0..b / 28)
            .map(|i| format!("%TAG !t{i}! tag:x,{i}:\n"))
            .collect();
        tags + "---\na: 1\n"
    }));
    all
}

/// Median wall time of one call, in milliseconds: `rounds` rounds, each repeating the call for at
/// least `budget` (and at least once).
fn time(rounds: usize, budget: Duration, text: &str) -> f64 {
    let mut per_call: Vec<f64> = (0..rounds)
        .map(|_| {
            let (start, mut calls) = (Instant::now(), 0u32);
            while calls == 0 || start.elapsed() < budget {
                black_box(validate_workout_yaml(black_box(text)).ok());
                calls += 1;
            }
            start.elapsed().as_secs_f64() * 1e3 / f64::from(calls)
        })
        .collect();
    per_call.sort_by(f64::total_cmp);
    per_call[per_call.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let quick = args.iter().any(|a| a == "--quick");
    let max_kib: usize = args
        .iter()
        .position(|a| a == "--max-kib")
        .and_then(|i| args.get(i + 1)?.parse().ok())
        .unwrap_or(256);
    let (rounds, budget) = if quick {
        (3, Duration::from_millis(20))
    } else {
        (7, Duration::from_millis(100))
    };
    let sizes: Vec<usize> = [16, 32, 64, 128, 256]
        .into_iter()
        .filter(|&k| k <= max_kib)
        .collect();
    println!("validateWorkoutYaml, median ms per call ({rounds} rounds) by input size; µs per KiB");
    print!("{:<34}", "shape");
    for k in &sizes {
        print!(" {:>14}", format!("{k} KiB"));
    }
    println!("  goal: linear (per KiB at most 2x that at 32 KiB); refused under 10 ms");
    let mut missed = 0;
    for shape in shapes() {
        print!("{:<34}", shape.name);
        let mut per_kib = Vec::new();
        let mut last = (0.0, String::new());
        for &k in &sizes {
            // A little under the size, so the largest input stays within the document cap.
            let text = (shape.text)(k * KIB - 64);
            assert!(
                text.len() <= 256 * KIB,
                "{}: {} bytes",
                shape.name,
                text.len()
            );
            let ms = time(rounds, budget, &text);
            let kib = text.len() as f64 / KIB as f64;
            per_kib.push((k, ms * 1e3 / kib));
            print!(" {:>7.3} {:>6.2}", ms, ms * 1e3 / kib);
            last = (ms, text);
        }
        let at = |k: usize| per_kib.iter().find(|(s, _)| *s == k).map(|(_, v)| *v);
        let linear = match (at(32), per_kib.last()) {
            (Some(base), Some((_, top))) => *top <= 2.0 * base.max(0.001),
            _ => true,
        };
        let fast = !shape.refused || last.0 < 10.0;
        let verdict = match validate_workout_yaml(&last.1) {
            Err(e) if shape.refused => format!("refused: {}", e.detail),
            Err(e) => format!("read, then {}", e.code),
            Ok(_) => "valid".into(),
        };
        println!(
            "  {} ({verdict})",
            if linear && fast { "met" } else { "MISSED" }
        );
        missed += usize::from(!(linear && fast));
    }
    println!("shapes that missed the goal: {missed}");
}
