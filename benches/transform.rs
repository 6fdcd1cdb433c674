//! Transform throughput next to a bare `serde_json::from_slice::<Value>` of the same bytes.
//!
//! Goal (issue 2): transform (extract, parse, validate, join, order, ids) costs at most 1.5x the
//! bare parse on plans of 5 to 500 exercises. Run: `cargo bench --bench transform`.
//! Prints one line per plan size and schema; measurements interleave the two so machine noise
//! hits both alike, and report the median of several rounds.

use std::hint::black_box;
use std::time::{Duration, Instant};

use coachcore::kernel::ids::IdGenerator;
use coachcore::plan::{transform, Ruleset, SchemaVersion};
use serde_json::{json, Value};

/// A realistic plan with `n` exercises spread over `n / 8 + 1` blocks, as the model would write it.
fn plan(n: usize, version: SchemaVersion) -> String {
    let n_blocks = n / 8 + 1;
    let blocks: Vec<Value> = (0..n_blocks)
        .map(|b| json!({"title": format!("Block {b}: Strength Circuit"), "durationMinutes": 10, "focus": "Upper body push and pull"}))
        .collect();
    let exercise = |i: usize| {
        json!({"name": format!("Dumbbell Exercise Number {i}"), "prescription": "3 x 10-12 @ RPE 8",
               "detail": if i % 3 == 0 { Value::Null } else { json!("Controlled tempo, two seconds down, full range of motion") }})
    };
    let mut root = json!({"focus": "Upper Body Strength", "durationMinutes": 60, "equipment": ["Dumbbells", "Bench", "Pull-up Bar"],
                          "source": "ai", "energy": "moderate", "summary": "A balanced push and pull session with supersets and a finisher."});
    match version {
        SchemaVersion::V2Flat => {
            root["blocks"] = json!(blocks);
            // Reverse order within the list so the join really sorts.
            let ex: Vec<Value> = (0..n)
                .rev()
                .map(|i| {
                    let mut e = exercise(i);
                    e["blockIndex"] = json!(i % n_blocks);
                    e["order"] = json!(i / n_blocks);
                    e
                })
                .collect();
            root["exercises"] = json!(ex);
        }
        SchemaVersion::V1Current => {
            root["blocks"] = json!(blocks
                .into_iter()
                .enumerate()
                .map(|(b, mut bl)| {
                    bl["exercises"] = json!((0..n)
                        .filter(|i| i % n_blocks == b)
                        .map(exercise)
                        .collect::<Vec<_>>());
                    bl
                })
                .collect::<Vec<_>>());
        }
    }
    serde_json::to_string_pretty(&root).unwrap()
}

/// Runs `f` repeatedly for about `budget`, returning nanoseconds per call.
fn time_per_call(budget: Duration, mut f: impl FnMut()) -> f64 {
    let mut iters = 0u64;
    let start = Instant::now();
    while start.elapsed() < budget {
        for _ in 0..16 {
            f();
        }
        iters += 16;
    }
    start.elapsed().as_nanos() as f64 / iters as f64
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let (rounds, budget) = if quick {
        (3, Duration::from_millis(40))
    } else {
        (9, Duration::from_millis(150))
    };
    let rules = Ruleset::embedded();
    println!(
        "plan transform vs serde_json::from_slice::<Value> (median of {rounds} interleaved rounds)"
    );
    println!(
        "{:<11} {:>9} {:>9} {:>12} {:>14} {:>7}  goal <= 1.5x",
        "schema", "exercises", "bytes", "parse MB/s", "transform MB/s", "ratio"
    );
    let mut worst: f64 = 0.0;
    for version in [SchemaVersion::V2Flat, SchemaVersion::V1Current] {
        for n in [5, 20, 100, 500] {
            let text = plan(n, version);
            let bytes = text.as_bytes();
            // Sanity: the input is valid and transforms.
            transform(&text, version, rules, &mut IdGenerator::seeded(1))
                .expect("benchmark plan transforms");
            let (mut parse, mut trans) = (Vec::new(), Vec::new());
            for _ in 0..rounds {
                parse.push(time_per_call(budget, || {
                    black_box(serde_json::from_slice::<Value>(black_box(bytes)).unwrap());
                }));
                let mut ids = IdGenerator::seeded(7);
                trans.push(time_per_call(budget, || {
                    black_box(transform(black_box(&text), version, rules, &mut ids).unwrap());
                }));
            }
            let (p, t) = (median(parse), median(trans));
            let mbs = |ns: f64| bytes.len() as f64 / ns * 1e9 / 1e6;
            let ratio = t / p;
            worst = worst.max(ratio);
            println!(
                "{:<11} {:>9} {:>9} {:>12.1} {:>14.1} {:>6.2}x  {}",
                version.as_str(),
                n,
                bytes.len(),
                mbs(p),
                mbs(t),
                ratio,
                if ratio <= 1.5 { "met" } else { "MISSED" }
            );
        }
    }
    println!("worst ratio: {worst:.2}x");
}
