//! The `coach` CLI contract: exit codes and exact stdout, as scripts see them.

use std::io::Write;
use std::process::{Command, Output, Stdio};

use serde_json::{json, Value};

const PLAN: &str = include_str!("data/plans/worked-example.v2.json");
const PLAN_V1: &str = include_str!("data/plans/worked-example.v1.json");

fn coach(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_coach"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A command that fails before reading stdin (a usage error) closes the pipe early.
    if let Err(e) = child.stdin.take().unwrap().write_all(stdin.as_bytes()) {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
    }
    child.wait_with_output().unwrap()
}

fn stdout_json(o: &Output) -> Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not JSON ({e}): {}",
            String::from_utf8_lossy(&o.stdout)
        )
    })
}

#[test]
fn transform_prints_exactly_the_plan() {
    let o = coach(
        &["plan", "transform", "--schema", "v2-flat", "--seed", "42"],
        PLAN,
    );
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let golden: Value =
        serde_json::from_str(include_str!("data/golden/worked-example.today-plan.json")).unwrap();
    assert_eq!(stdout_json(&o), golden);
    assert_eq!(
        String::from_utf8(o.stdout)
            .unwrap()
            .trim_end()
            .lines()
            .count(),
        1,
        "one line of compact JSON"
    );

    let v1 = coach(
        &[
            "plan",
            "transform",
            "--schema",
            "v1-current",
            "--seed",
            "42",
        ],
        PLAN_V1,
    );
    assert_eq!(v1.status.code(), Some(0));
    assert_eq!(
        stdout_json(&v1),
        golden,
        "same plan, same seed, either schema"
    );
}

#[test]
fn transform_failure_is_exit_2_with_the_error_object() {
    let broken = PLAN.replacen("\"blockIndex\": 1", "\"blockIndex\": 3", 1);
    let o = coach(&["plan", "transform", "--schema", "v2-flat"], &broken);
    assert_eq!(o.status.code(), Some(2));
    let v = stdout_json(&o);
    assert_eq!(v["error"]["code"], "block_index_out_of_range");
    assert_eq!(v["error"]["path"], "exercises[1].blockIndex");
    assert!(v["error"]["detail"].is_string());
    assert_eq!(v.as_object().unwrap().len(), 1);
    assert_eq!(v["error"].as_object().unwrap().len(), 3);

    for (input, schema, code, path) in [
        ("not json at all", "v2-flat", "invalid_json", Value::Null),
        (PLAN, "v1-current", "schema_violation", json!("exercises")),
        (
            &PLAN.replace("\"moderate\"", "\"brutal\""),
            "v2-flat",
            "unknown_enum_value",
            json!("energy"),
        ),
        (
            &PLAN.replacen(
                "\"blockIndex\": 1, \"order\": 0",
                "\"blockIndex\": 0, \"order\": 0",
                1,
            ),
            "v2-flat",
            "duplicate_order",
            json!("exercises[1].order"),
        ),
        (
            r#"{"focus":"x","durationMinutes":5,"equipment":[],"source":"ai","energy":"easy","summary":"s","exercises":[]}"#,
            "v2-flat",
            "missing_blocks",
            json!("blocks"),
        ),
    ] {
        let o = coach(&["plan", "transform", "--schema", schema], input);
        assert_eq!(o.status.code(), Some(2), "{code}");
        let v = stdout_json(&o);
        assert_eq!(
            (&v["error"]["code"], &v["error"]["path"]),
            (&json!(code), &path)
        );
    }
}

#[test]
fn select_schema_prints_version_and_reason() {
    let run = |args: &[&str]| {
        let mut all = vec!["plan", "select-schema"];
        all.extend_from_slice(args);
        let o = coach(&all, "");
        assert_eq!(o.status.code(), Some(0));
        stdout_json(&o)
    };
    assert_eq!(
        run(&["--override", "v1-current"]),
        json!({"schemaVersion": "v1-current", "reason": "override"})
    );
    assert_eq!(
        run(&["--supported", "v2-flat", "--override", "v1-current"])["reason"],
        "override"
    );
    assert_eq!(
        run(&["--supported", "v2-flat"]),
        json!({"schemaVersion": "v2-flat", "reason": "single_supported"})
    );
    assert_eq!(
        run(&["--supported", "v1-current"]),
        json!({"schemaVersion": "v1-current", "reason": "single_supported"})
    );
    let both = run(&["--supported", "v1-current,v2-flat"]);
    assert_eq!(both["reason"], "smallest_estimate");
    assert_eq!(run(&[]), both);
}

#[test]
fn usage_errors_exit_64() {
    for args in [
        &["plan", "transform"][..],
        &["plan", "transform", "--schema", "v3"],
        &["plan", "select-schema", "--supported", "v9"],
        &["bogus"],
        &["plan", "transform", "--schema", "v2-flat", "--seed", "-1"],
    ] {
        let o = coach(args, PLAN);
        assert_eq!(o.status.code(), Some(64), "{args:?}");
        assert!(o.stdout.is_empty());
        assert!(String::from_utf8_lossy(&o.stderr).contains("usage"));
    }
}

#[test]
fn demo_runs_against_a_real_database_file() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("demo.db");
    let o = coach(&["demo", "--db", db.to_str().unwrap()], "");
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(out.contains("Upper Body Strength - 40 min"), "{out}");
    assert!(out.contains("1. Warm-up (5 min, Prep)"));
    assert!(out.contains("rejected: block_index_out_of_range at exercises[3].blockIndex"));
    // The file holds the two generations the demo recorded.
    let c = coachcore::Coach::open(db.display().to_string()).unwrap();
    assert_eq!(c.recent_generations(10).unwrap().len(), 2);
}

#[test]
fn suggest_evaluate_prints_deduplicated_suggestions() {
    let input = include_str!("data/suggest/evaluate-input.json");
    let o = coach(&["suggest", "evaluate"], input);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let v = stdout_json(&o);
    let s = v["suggestions"].as_array().unwrap();
    // Two sessions at the top of 8-12 on both working sets: +5 lb on sets 1 and 2 (the warmup stays).
    let got: Vec<(String, u64, f64)> = s
        .iter()
        .map(|d| {
            (
                d["changeType"].as_str().unwrap().to_string(),
                d["targetSetIndex"].as_u64().unwrap(),
                d["newValue"]["value"].as_f64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        got,
        vec![
            ("increaseWeight".into(), 1, 140.0),
            ("increaseWeight".into(), 2, 140.0)
        ]
    );
    assert!(s.iter().all(|d| d["ruleId"] == "double_progression_range"
        && d["evidence"]["performanceIds"][0] == "perf-3"));

    // The same increases, already suggested 2 days ago and still pending, are in cooldown.
    let mut with_existing: Value = serde_json::from_str(input).unwrap();
    let existing: Vec<Value> = s
        .iter()
        .enumerate()
        .map(|(i, d)| json!({"id": format!("c{i}"), "sessionId": "s2", "planId": "upper-lower", "prescriptionId": "rx-bench",
            "catalogId": "bench", "draft": d, "decision": "pending", "createdAtMs": 1763300000000i64 - 2 * 86400000,
            "decidedAtMs": null, "userOverride": false, "outcome": "notEvaluated", "outcomeReason": null, "evaluatedAtMs": null}))
        .collect();
    with_existing["existing"] = json!(existing);
    let o = coach(&["suggest", "evaluate"], &with_existing.to_string());
    assert_eq!(stdout_json(&o)["suggestions"], json!([]));

    let bad = coach(
        &["suggest", "evaluate"],
        r#"{"nowMs": 1, "context": {"plan": {"unit": "stone"}}}"#,
    );
    assert_eq!(bad.status.code(), Some(1));
    assert_eq!(stdout_json(&bad)["error"]["code"], "invalid_argument");
}
