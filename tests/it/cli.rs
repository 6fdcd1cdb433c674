//! The `coach` CLI contract: exit codes and exact stdout, as scripts see them.

use crate::common::{run_coach, run_coach_with, Child};
use std::process::Output;

use serde_json::{json, Value};

const PLAN: &str = include_str!("../data/plans/worked-example.v2.json");
const PLAN_V1: &str = include_str!("../data/plans/worked-example.v1.json");

fn coach(args: &[&str], stdin: &str) -> Output {
    run_coach(args, stdin, false)
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
    let golden: Value = serde_json::from_str(include_str!(
        "../data/golden/worked-example.today-plan.json"
    ))
    .unwrap();
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
    // The keys in the contract's order, byte for byte (docs/adr/0003).
    let detail = serde_json::to_string(&v["error"]["detail"]).unwrap();
    assert_eq!(
        String::from_utf8(o.stdout.clone()).unwrap(),
        format!(
            "{{\"error\":{{\"code\":\"block_index_out_of_range\",\"path\":\"exercises[1].blockIndex\",\"detail\":{detail}}}}}\n"
        )
    );
    let o = coach(&["plan", "transform", "--schema", "v2-flat"], "no json");
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(
        text.starts_with(r#"{"error":{"code":"invalid_json","path":null,"detail":"#),
        "{text}"
    );

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
    // The assistant exchange: events, three operations applied, the week view, the audit log.
    for line in [
        "  event: stage proposing",
        "  event: ops: 3 valid, 0 invalid",
        "  event: summary: Create todo “Call mom” on ",
        "  event: done",
        "applied 3 operations in one transaction",
    ] {
        assert!(out.contains(line), "{line}\n{out}");
    }
    assert!(out.contains("07:30 todo  medium Long run"), "{out}");
    assert!(out.contains("todo  medium Call mom"), "{out}");
    assert!(out.contains("habit medium Evening stretch"), "{out}");
    // The file holds the two generations the demo recorded and the three applied actions.
    let c = coachcore::Coach::open(db.display().to_string()).unwrap();
    assert_eq!(c.workouts().plan_generations(10).unwrap().len(), 2);
    assert_eq!(c.planner().audit_log(10, None).unwrap().len(), 3);
}

#[test]
fn suggest_evaluate_prints_deduplicated_suggestions() {
    let input = include_str!("../data/suggest/evaluate-input.json");
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

#[test]
fn suggest_evaluate_errors_give_the_path_and_never_the_value() {
    let input: Value =
        serde_json::from_str(include_str!("../data/suggest/evaluate-input.json")).unwrap();
    let with = |pointer: &str, value: Value| {
        let mut v = input.clone();
        *v.pointer_mut(pointer).unwrap() = value;
        v.to_string()
    };
    // The sentinels stand for user data: none may come back.
    for (text, path, detail) in [
        (
            with("/context/plan/unit", json!("stone")),
            json!("context.plan.unit"),
            "request JSON: unknown value; expected `lbs` or `kg`",
        ),
        (
            with("/context/plan/planId", json!(42424242)),
            json!("context.plan.planId"),
            "request JSON: wrong type: expected a string",
        ),
        (
            with("/nowMs", json!("SECRET")),
            json!("nowMs"),
            "request JSON: wrong type: expected an integer",
        ),
        (
            format!("{} SECRET", input),
            Value::Null,
            "request JSON: malformed JSON at line 1 column",
        ),
    ] {
        let o = coach(&["suggest", "evaluate"], &text);
        assert_eq!(o.status.code(), Some(1), "{path}");
        let out = String::from_utf8(o.stdout.clone()).unwrap();
        for secret in ["stone", "42424242", "SECRET"] {
            assert!(!out.contains(secret), "{out}");
        }
        let v = stdout_json(&o);
        assert_eq!(v["error"]["code"], "invalid_argument");
        assert_eq!(v["error"]["path"], path);
        let got = v["error"]["detail"].as_str().unwrap();
        assert!(got.starts_with(detail), "{got}");
    }
}

#[test]
fn a_reader_that_goes_away_ends_the_output_quietly() {
    let bad = PLAN.replacen("\"blockIndex\": 1", "\"blockIndex\": 3", 1);
    for (args, stdin, code) in [
        (&["plan", "transform", "--schema", "v2-flat"][..], PLAN, 0),
        (&["plan", "transform", "--schema", "v2-flat"], &bad, 2),
        (&["plan", "select-schema"], "", 0),
        (
            &["suggest", "evaluate"],
            include_str!("../data/suggest/evaluate-input.json"),
            0,
        ),
        (&["demo"], "", 0),
        (&["--help"], "", 0),
    ] {
        let o = run_coach(args, stdin, true);
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(stderr.is_empty(), "{args:?}: {stderr}");
        assert_eq!(o.status.code(), Some(code), "{args:?}");
    }
}

#[test]
fn a_database_of_another_application_is_refused_and_untouched() {
    let dir = tempfile::tempdir().unwrap();
    for (name, sql) in [
        ("notes.db", "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes VALUES (1, 'x');"),
        ("meta.db", "CREATE TABLE generation_metadata (id INTEGER PRIMARY KEY);"),
        ("other-id.db", "CREATE TABLE t (x); PRAGMA application_id = 42;"),
    ] {
        let path = dir.path().join(name);
        rusqlite::Connection::open(&path)
            .unwrap()
            .execute_batch(sql)
            .unwrap();
        let before = std::fs::read(&path).unwrap();
        let db = path.to_str().unwrap();
        let o = coach(
            &["plan", "transform", "--schema", "v2-flat", "--db", db],
            PLAN,
        );
        assert_eq!(o.status.code(), Some(1), "{name}");
        let v = stdout_json(&o);
        assert_eq!(v["error"]["code"], "not_a_database", "{name}");
        assert_eq!(v["error"]["path"], Value::Null);
        let detail = v["error"]["detail"].as_str().unwrap();
        assert!(detail.contains("another application"), "{detail}");
        assert!(!detail.contains(name), "no file name in the error: {detail}");
        assert!(std::fs::read(&path).unwrap() == before, "{name} changed");
        for suffix in ["-wal", "-shm", "-journal"] {
            assert!(
                !dir.path().join(format!("{name}{suffix}")).exists(),
                "{name}{suffix} left behind"
            );
        }
    }
    // A new path and an empty file are fine.
    let new = dir.path().join("new.db");
    let empty = dir.path().join("empty.db");
    std::fs::write(&empty, b"").unwrap();
    for path in [new, empty] {
        let o = coach(
            &[
                "plan",
                "transform",
                "--schema",
                "v2-flat",
                "--db",
                path.to_str().unwrap(),
            ],
            PLAN,
        );
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&o.stdout)
        );
    }
}

// ---- spec 002: coach ops dryrun | apply, coach assistant ----

const CALL_MOM: &str = r#"{"operations":[{"op":"create","kind":"todo","title":"Call mom","scheduledFor":"2026-11-24","priority":"High"}]}"#;

fn temp_db() -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("planner.db").display().to_string();
    (dir, db)
}

fn is_uuid(v: &Value) -> bool {
    let s = v.as_str().unwrap_or("");
    s.len() == 36 && s.chars().filter(|c| *c == '-').count() == 4
}

#[test]
fn ops_dryrun_prints_the_validation_and_changes_nothing() {
    let (_dir, db) = temp_db();
    // Create the file first so its bytes can be compared.
    drop(coachcore::Coach::open(db.clone()).unwrap());
    let before = std::fs::read(&db).unwrap();

    let o = coach(
        &["ops", "dryrun", "--db", &db, "--today", "2026-11-23"],
        CALL_MOM,
    );
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(
        String::from_utf8(o.stdout).unwrap(),
        concat!(
            r#"{"checks":[{"index":0,"operation":{"op":"create","kind":"todo","title":"Call mom","#,
            r#""scheduledFor":"2026-11-24","priority":"high","recurrence":{"type":"none"}},"valid":true,"#,
            r#""errors":[],"repairs":["priority \"High\" read as \"high\"","added recurrence {type:'none'}"]}],"#,
            r#""validCount":1,"invalidCount":0,"errors":[]}"#,
            "\n"
        )
    );

    // Invalid operations: the same output shape, exit 2.
    let o = coach(
        &["ops", "dryrun", "--db", &db],
        r#"[{"op":"complete","kind":"todo","id":"no-such-todo"},
            {"op":"create","kind":"habit","title":"Stretch","recurrence":{"type":"none"}}]"#,
    );
    assert_eq!(o.status.code(), Some(2));
    let v = stdout_json(&o);
    assert_eq!(
        (v["validCount"].clone(), v["invalidCount"].clone()),
        (json!(0), json!(2))
    );
    let checks = v["checks"].as_array().unwrap();
    assert_eq!(checks.len(), 2);
    assert!(checks
        .iter()
        .all(|c| c["valid"] == false && !c["errors"].as_array().unwrap().is_empty()));
    assert!(
        checks[0]["errors"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["code"] == "unknown_id"),
        "{v}"
    );

    // Not an operation list: the error object, exit 2.
    for bad in ["not json", r#"{"ops":[]}"#, "42"] {
        let o = coach(&["ops", "dryrun", "--db", &db], bad);
        assert_eq!(o.status.code(), Some(2), "{bad}");
        let v = stdout_json(&o);
        assert_eq!(v["error"]["code"], "invalid_argument", "{bad}");
        assert_eq!(v.as_object().unwrap().len(), 1);
    }
    assert_eq!(
        std::fs::read(&db).unwrap(),
        before,
        "dry-run leaves the file byte-identical"
    );
}

#[test]
fn ops_apply_prints_the_result_and_replays_under_a_key() {
    let (_dir, db) = temp_db();
    let args = [
        "ops",
        "apply",
        "--db",
        &db,
        "--idempotency-key",
        "k-1",
        "--today",
        "2026-11-23",
    ];
    let first = coach(&args, CALL_MOM);
    assert_eq!(
        first.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    let v = stdout_json(&first);
    assert!(is_uuid(&v["requestId"]), "{v}");
    let id = v["applied"][0]["id"].clone();
    assert!(is_uuid(&id), "{v}");
    assert_eq!(
        v,
        json!({
            "requestId": v["requestId"],
            "applied": [{"index": 0, "op": "create", "kind": "todo", "id": id}],
            "repairs": ["0: priority \"High\" read as \"high\"", "0: added recurrence {type:'none'}"],
            "replayed": false
        })
    );

    // The same key and operations: the stored result, replayed, nothing applied again.
    let again = coach(&args, CALL_MOM);
    assert_eq!(again.status.code(), Some(0));
    let mut expected = v.clone();
    expected["replayed"] = json!(true);
    assert_eq!(stdout_json(&again), expected);

    // The same key with other operations: a conflict, exit 2.
    let conflict = coach(
        &args,
        r#"[{"op":"create","kind":"todo","title":"Call dad","recurrence":{"type":"none"}}]"#,
    );
    assert_eq!(conflict.status.code(), Some(2));
    assert_eq!(
        String::from_utf8(conflict.stdout).unwrap(),
        "{\"error\":{\"code\":\"idempotency_conflict\",\"path\":null,\"detail\":\"idempotency key reused with a different request\"}}\n"
    );

    let c = coachcore::Coach::open(db.clone()).unwrap();
    let item = c
        .planner()
        .item(
            coachcore::assistant::ItemKind::Todo,
            id.as_str().unwrap().into(),
        )
        .unwrap()
        .unwrap();
    assert_eq!(
        (item.title.as_str(), item.scheduled_for.as_deref()),
        ("Call mom", Some("2026-11-24"))
    );
    assert_eq!(
        c.planner().audit_log(10, None).unwrap().len(),
        1,
        "one action, applied once"
    );
    assert_eq!(
        c.planner().backlog(10).unwrap(),
        vec![],
        "the todo is dated"
    );
}

#[test]
fn ops_apply_rejects_invalid_operations_and_applies_nothing() {
    let (_dir, db) = temp_db();
    // A valid creation followed by an invalid completion: all or nothing.
    let o = coach(
        &["ops", "apply", "--db", &db],
        r#"[{"op":"create","kind":"todo","title":"Buy milk","recurrence":{"type":"none"}},
            {"op":"complete","kind":"todo","id":"no-such-todo"}]"#,
    );
    assert_eq!(o.status.code(), Some(2));
    let v = stdout_json(&o);
    assert_eq!(v["error"]["code"], "operations_rejected");
    assert!(
        v["error"]["detail"].as_str().unwrap().starts_with("1: "),
        "{v}"
    );
    let bad = coach(&["ops", "apply", "--db", &db], "{\"operations\": [");
    assert_eq!(bad.status.code(), Some(2));
    assert_eq!(stdout_json(&bad)["error"]["code"], "invalid_argument");

    let c = coachcore::Coach::open(db.clone()).unwrap();
    assert_eq!(c.planner().audit_log(10, None).unwrap(), vec![]);
    assert_eq!(
        c.planner().backlog(10).unwrap(),
        vec![],
        "Buy milk was not created"
    );
}

#[test]
fn ops_usage_errors_exit_64() {
    for args in [
        &["ops", "apply"][..],
        &["ops", "apply", "--db"],
        &["ops", "dryrun", "--today"],
        &["ops", "frobnicate"],
        &["assistant", "--db", "x.db", "--mode", "plan"],
        &["assistant", "--db", "x.db", "--mode", "brainstorm", "hello"],
        &["assistant", "hello"],
    ] {
        let o = coach(args, "[]");
        assert_eq!(o.status.code(), Some(64), "{args:?}");
        assert!(o.stdout.is_empty(), "{args:?}");
        assert!(String::from_utf8_lossy(&o.stderr).contains("usage"));
    }
    let (_dir, db) = temp_db();
    let o = coach(
        &["ops", "dryrun", "--db", &db, "--today", "2026-02-30"],
        CALL_MOM,
    );
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stdout_json(&o)["error"]["code"], "invalid_argument");
}

fn script_file(dir: &tempfile::TempDir, replies: &[&str]) -> String {
    let path = dir.path().join("script.json");
    std::fs::write(&path, serde_json::to_string(replies).unwrap()).unwrap();
    path.display().to_string()
}

#[test]
fn assistant_prints_the_events_as_json_lines() {
    let (dir, db) = temp_db();
    let script = script_file(
        &dir,
        &[
            // The narrowed question: code read the day; the model names the todo.
            r#"{"title":"call mom"}"#,
        ],
    );
    let o = coach(
        &[
            "assistant",
            "--db",
            &db,
            "--mode",
            "plan",
            "--today",
            "2026-11-23",
            "--script",
            &script,
            "remind me to call mom on tuesday",
        ],
        "",
    );
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let out = String::from_utf8(o.stdout).unwrap();
    let lines: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let request_id = lines[5]["result"]["requestId"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(is_uuid(&json!(request_id)));
    let op = r#"{"op":"create","kind":"todo","title":"Call mom","scheduledFor":"2026-11-24","recurrence":{"type":"none"}}"#;
    let expected = [
        r#"{"event":"stage","stage":"proposing"}"#.to_string(),
        r#"{"event":"stage","stage":"validating"}"#.to_string(),
        format!(
            r#"{{"event":"ops","version":1,"operations":[{op}],"validCount":1,"invalidCount":0}}"#
        ),
        r#"{"event":"stage","stage":"summarizing"}"#.to_string(),
        r#"{"event":"summary","text":"Create todo “Call mom” on 2026-11-24."}"#.to_string(),
        format!(
            r#"{{"event":"result","result":{{"requestId":"{request_id}","decision":"plan","route":null,"operations":[{op}],"invalid":[],"summary":"Create todo “Call mom” on 2026-11-24.","summarySource":"rules","clarification":null,"answer":null,"readingLanguage":"en"}}}}"#
        ),
        r#"{"event":"done"}"#.to_string(),
    ];
    assert_eq!(out, expected.join("\n") + "\n");
    // A message proposes only: nothing was applied.
    let c = coachcore::Coach::open(db.clone()).unwrap();
    assert_eq!(c.planner().audit_log(10, None).unwrap(), vec![]);
    assert_eq!(
        c.planner().week("2026-11-23".into()).unwrap().entries,
        vec![]
    );
    drop(c);

    // Chat: the answer streams as the model writes it (one line per piece), then the cleaned
    // summary and done.
    let script = script_file(&dir, &["Hello! Nice to **hear** from you."]);
    let o = coach(
        &[
            "assistant",
            "--db",
            &db,
            "--mode",
            "chat",
            "--script",
            &script,
            "hello there",
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(0));
    let mut expected: Vec<String> = ["Hello! ", "Nice ", "to ", "**hear** ", "from ", "you."]
        .iter()
        .map(|t| json!({"event": "textDelta", "text": t}).to_string())
        .collect();
    expected.push(r#"{"event":"summary","text":"Hello! Nice to hear from you."}"#.into());
    expected.push(r#"{"event":"done"}"#.into());
    assert_eq!(
        String::from_utf8(o.stdout).unwrap(),
        expected.join("\n") + "\n"
    );

    // A question about the planner is answered by code, the model not asked (its script is
    // empty): summary, result with the answer, done.
    let script = script_file(&dir, &[]);
    let o = coach(
        &[
            "assistant",
            "--db",
            &db,
            "--mode",
            "chat",
            "--script",
            &script,
            "--today",
            "2026-11-23",
            "what is on today?",
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(0));
    let lines: Vec<Value> = String::from_utf8(o.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert_eq!(
        lines[0],
        json!({"event": "summary", "text": "Nothing planned today."})
    );
    assert_eq!(
        lines[1]["result"]["answer"],
        json!({"text": "Nothing planned today.", "items": []})
    );
    assert_eq!(lines[2], json!({"event": "done"}));
}

#[test]
fn assistant_without_a_model_ends_with_done_and_the_error() {
    let (dir, db) = temp_db();
    // What the reading understands is handled without a model, and the summary says so.
    for mode in ["plan", "auto"] {
        let o = coach(
            &[
                "assistant",
                "--db",
                &db,
                "--mode",
                mode,
                "--today",
                "2026-11-23",
                "remind me to call mom on tuesday",
            ],
            "",
        );
        assert_eq!(o.status.code(), Some(0), "{mode}");
        let out = String::from_utf8(o.stdout).unwrap();
        let result: Value = out
            .lines()
            .map(|l| serde_json::from_str::<Value>(l).unwrap())
            .find(|v| v["event"] == "result")
            .unwrap();
        assert_eq!(
            result["result"]["operations"][0]["title"], "Call mom",
            "{mode}"
        );
        assert_eq!(
            result["result"]["operations"][0]["scheduledFor"],
            "2026-11-24"
        );
        assert!(result["result"]["summary"]
            .as_str()
            .unwrap()
            .ends_with("(Understood without the on-device model.)"));
    }
    // What needs the model (chat; a message the reading cannot build) is the typed error.
    for (mode, message) in [("chat", "hello"), ("plan", "sailing lesson with Tom")] {
        let o = coach(&["assistant", "--db", &db, "--mode", mode, message], "");
        assert_eq!(o.status.code(), Some(1), "{mode}");
        assert_eq!(
            String::from_utf8(o.stdout).unwrap(),
            "{\"event\":\"done\"}\n{\"error\":{\"code\":\"invalid_argument\",\"path\":null,\"detail\":\"no language model configured\"}}\n",
            "{mode}"
        );
    }
    // A script that runs out: the model's error after done.
    let script = script_file(&dir, &[]);
    let o = coach(
        &[
            "assistant",
            "--db",
            &db,
            "--script",
            &script,
            "sailing lesson with Tom",
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(1));
    let out = String::from_utf8(o.stdout).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[..2],
        [
            r#"{"event":"stage","stage":"proposing"}"#,
            r#"{"event":"done"}"#
        ]
    );
    assert_eq!(
        serde_json::from_str::<Value>(lines[2]).unwrap()["error"]["code"],
        "model_failure"
    );
    // A script that is not a list of strings is a usage error.
    std::fs::write(dir.path().join("bad.json"), "{\"replies\": 1}").unwrap();
    let bad = dir.path().join("bad.json").display().to_string();
    let o = coach(&["assistant", "--db", &db, "--script", &bad, "hi"], "");
    assert_eq!(o.status.code(), Some(64));
}

#[test]
fn recipes_import_then_meals_plan_prints_progress_then_the_job() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("meals.db");
    let db = db.to_str().unwrap();
    let recipes = include_str!("../data/recipes/starter.json");
    let o = coach(&["recipes", "import", "--db", db], recipes);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&o.stdout), "{\"imported\":127}\n");

    let request = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/meals/week.request.json"
    );
    let o = coach(&["meals", "plan", "--db", db, "--request", request], "");
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let lines: Vec<Value> = String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let (last, progress) = lines.split_last().unwrap();
    assert!(!progress.is_empty());
    assert!(progress.iter().all(|e| e["event"] == "progress"));
    assert_eq!(last["event"], "completed");
    assert_eq!(last["job"]["status"], "COMPLETE");
    assert_eq!(
        last["job"]["processedSlots"],
        progress.last().unwrap()["processedSlots"]
    );

    // Refused input: the error JSON, exit 1; a malformed recipe list imports nothing.
    let o = coach(&["recipes", "import", "--db", db], "[{\"SECRET\":1}]");
    assert_eq!(o.status.code(), Some(1));
    let e = stdout_json(&o);
    assert_eq!(e["error"]["code"], "invalid_argument");
    assert!(!String::from_utf8_lossy(&o.stdout).contains("SECRET"));
    let o = coach(&["meals", "plan", "--db", db], "");
    assert_eq!(o.status.code(), Some(64), "--request is required");
}

/// The workout request of the CLI tests.
const WORKOUT_REQUEST: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/workout/request.json"
);

#[test]
fn workout_generate_then_validate_and_render() {
    let (dir, db) = temp_db();
    let request = WORKOUT_REQUEST;
    let o = coach(
        &["workout", "generate", "--db", &db, "--request", request],
        "",
    );
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let lines: Vec<Value> = String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let events: Vec<&Value> = lines.iter().map(|l| &l["event"]).collect();
    assert_eq!(
        events,
        [&json!("pre_analysis"), &json!("done"), &json!("result")]
    );
    let result = &lines[2]["result"];
    assert_eq!(result["source"], "deterministic");
    assert_eq!(
        result["workout"]["workout_id"],
        "2025-08-17-gym-downtown-01"
    );
    assert_eq!(result["analyzer"]["meta"]["date"], "2025-08-17");
    // Issue 23: the original app's shape, the number 1.2 and the tiers to cut.
    assert_eq!(result["workout"]["version"], json!(1.2));
    assert_eq!(result["workout"]["cut_order"], json!(["C", "B"]));
    let yaml = result["yaml"].as_str().unwrap();
    assert!(
        yaml.starts_with("version: 1.2\n") && yaml.contains("\ncut_order:\n- C\n- B\n"),
        "{yaml}"
    );

    // validate: the document as JSON, exit 0; a broken id is exit 1 with its path.
    let o = coach(&["workout", "validate"], yaml);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stdout_json(&o), json!({ "ok": result["workout"] }));
    let first = result["workout"]["sets"][0]["id"].as_str().unwrap();
    let broken = yaml.replacen(&format!("id: {first}"), "id: not-an-id", 1);
    let o = coach(&["workout", "validate"], &broken);
    assert_eq!(o.status.code(), Some(1));
    let e = stdout_json(&o);
    assert_eq!(e["error"]["code"], "schema_violation");
    assert_eq!(e["error"]["path"], "sets[0].id");
    // Issue 22: a weight that is not a finite number, and a key given twice.
    let nan = yaml.replacen("target_weight: ", "target_weight: .nan # ", 1);
    let o = coach(&["workout", "validate"], &nan);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        String::from_utf8(o.stdout).unwrap(),
        "{\"error\":{\"code\":\"schema_violation\",\"path\":\"sets[0].target_weight\",\"detail\":\"must be a finite number\"}}\n"
    );
    let o = coach(&["workout", "validate"], &format!("{yaml}\nunits: kg\n"));
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        String::from_utf8(o.stdout).unwrap(),
        "{\"error\":{\"code\":\"invalid_yaml\",\"path\":\"units\",\"detail\":\"the key appears twice in its mapping\"}}\n"
    );
    let o = coach(&["workout", "validate"], "sets: [");
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout_json(&o)["error"]["code"], "invalid_yaml");
    assert!(
        String::from_utf8_lossy(&o.stdout)
            .starts_with(r#"{"error":{"code":"invalid_yaml","path":"#),
        "keys in contract order"
    );

    // render: the analyzer plan gives the same document (the first of its date and place).
    let o = coach(&["workout", "render"], &result["analyzer"].to_string());
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&o.stdout).trim_end(),
        yaml.trim_end()
    );
    let o = coach(&["workout", "render"], "{\"SECRET\": 1}");
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout_json(&o)["error"]["code"], "invalid_argument");

    // A second generation is saved next to the first; scripted invalid answers end typed.
    let script = script_file(&dir, &["no json", "still none", "{}"]);
    let o = coach(
        &[
            "workout",
            "generate",
            "--db",
            &db,
            "--request",
            request,
            "--script",
            &script,
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(2), "rejected model output");
    let out = String::from_utf8_lossy(&o.stdout);
    let lines: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let stages: Vec<&str> = lines.iter().filter_map(|l| l["event"].as_str()).collect();
    assert_eq!(
        stages,
        [
            "pre_analysis",
            "analyzer",
            "analyzer_repair",
            "analyzer_repair",
            "done"
        ]
    );
    assert_eq!(
        lines.last().unwrap()["error"]["code"],
        "model_output_rejected"
    );
    let o = coach(&["workout", "generate", "--db", &db], "");
    assert_eq!(o.status.code(), Some(64), "--request is required");
}

/// Issue 23: `coach workout validate` takes the original app's document (`version: 1.2`,
/// `cut_order: ["C", "B"]`) and the library's earlier form (read in the original's shape), and
/// refuses B before C with its path.
#[test]
fn workout_validate_takes_the_original_apps_shape() {
    let original = include_str!("../data/workout/original-app.yaml");
    let o = coach(&["workout", "validate"], original);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    let ok = &stdout_json(&o)["ok"];
    assert_eq!(
        (&ok["version"], &ok["cut_order"]),
        (&json!(1.2), &json!(["C", "B"]))
    );
    let o = coach(
        &["workout", "validate"],
        include_str!("../data/workout/earlier-library.yaml"),
    );
    assert_eq!(o.status.code(), Some(0));
    let ok = &stdout_json(&o)["ok"];
    assert_eq!(
        (&ok["version"], &ok["cut_order"]),
        (&json!(1.2), &json!(["C", "B"]))
    );
    let b_first = original.replacen(r#"cut_order: ["C", "B"]"#, r#"cut_order: ["B", "C"]"#, 1);
    assert_ne!(b_first, original);
    let o = coach(&["workout", "validate"], &b_first);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        String::from_utf8(o.stdout).unwrap(),
        "{\"error\":{\"code\":\"schema_violation\",\"path\":\"cut_order[1]\",\"detail\":\"C is cut before B: list C first\"}}\n"
    );
}

#[test]
fn plan_generate_prints_the_transform_from_the_models_answer() {
    let (dir, db) = temp_db();
    // One exercise per slot of "30 minutes, upper body" (a full gym, no history).
    let picks = r#"{"A1": "db-bench-press", "A2": "machine-lat-pulldown", "B1": "db-shoulder-press", "B2": "pull-up", "C1": "db-curl", "C2": "db-lateral-raise"}"#;
    let script = script_file(&dir, &["{\"focus\": 3}", picks]);
    let args = [
        "plan",
        "generate",
        "--db",
        &db,
        "--date",
        "2025-08-18",
        "--schema",
        "v2-flat",
        "--seed",
        "7",
        "--script",
        &script,
    ];
    let o = coach(&args, "30 minutes, upper body");
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    let t = stdout_json(&o);
    assert_eq!(t["schemaVersion"], "v2-flat");
    assert_eq!(t["plan"]["focus"], "Upper Body Session");
    assert_eq!(
        t["plan"]["blocks"][1]["exercises"][0]["name"],
        "Dumbbell Bench Press"
    );
    assert!(t["generationId"].as_i64().is_some());
    // Three invalid answers: exit 2 with the typed error.
    let script = script_file(&dir, &["{}", "{}", "{}"]);
    let args = [
        "plan",
        "generate",
        "--db",
        &db,
        "--date",
        "2025-08-18",
        "--script",
        &script,
    ];
    let t = ok_json(&args, "legs");
    assert_eq!(t["plan"]["source"], "deterministic");
    assert_eq!(t["fallbackReason"], "invalid_answers");
    // No model: the deterministic plan, the same skeleton.
    let d = ok_json(
        &["plan", "generate", "--db", &db, "--date", "2025-08-18"],
        "legs",
    );
    assert_eq!(d["fallbackReason"], "no_model");
    assert!(d["generationId"].is_null());
    assert_eq!(without_ids(&d["plan"]), without_ids(&t["plan"]));
}

/// The JSON the CLI prints for `args` and `stdin`, after checking it exits 0.
fn ok_json(args: &[&str], stdin: &str) -> Value {
    let o = coach(args, stdin);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stdout)
    );
    stdout_json(&o)
}

/// `v` without its `id` keys, at any depth (plans compared apart from their generated ids).
fn without_ids(v: &Value) -> Value {
    match v {
        Value::Object(m) => Value::Object(
            m.iter()
                .filter(|(k, _)| k.as_str() != "id")
                .map(|(k, v)| (k.clone(), without_ids(v)))
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.iter().map(without_ids).collect()),
        other => other.clone(),
    }
}

#[test]
fn plan_today_recent_and_done_print_the_saved_plans() {
    let (dir, db) = temp_db();
    let generate = |date: &str, notes: &str| {
        let args = [
            "plan", "generate", "--db", &db, "--date", date, "--units", "kg",
        ];
        ok_json(&args, notes)["plan"].clone()
    };
    let monday = generate("2025-08-18", "bodyweight only, 20 minutes");
    let tuesday = generate("2025-08-19", "bodyweight only, 30 minutes, legs");
    let saved = ok_json(&["plan", "today", "--db", &db, "--date", "2025-08-18"], "");
    assert_eq!(saved["plan"], monday);
    assert_eq!(saved["units"], "kg");
    assert_eq!(saved["fallbackReason"], "no_model");
    assert!(saved["doneAtMs"].is_null());
    let o = coach(&["plan", "today", "--db", &db, "--date", "2025-08-20"], "");
    assert_eq!((o.status.code(), stdout_json(&o)), (Some(0), Value::Null));
    let recent = ok_json(&["plan", "recent", "--db", &db, "--limit", "5"], "");
    let ids: Vec<&Value> = recent
        .as_array()
        .unwrap()
        .iter()
        .map(|p| &p["plan"]["id"])
        .collect();
    assert_eq!(ids, [&tuesday["id"], &monday["id"]], "newest first");
    // Done: the body-weight exercises as planned, one of them given otherwise.
    let first = &saved["targets"][0];
    let performed = dir.path().join("performed.json");
    std::fs::write(
        &performed,
        json!([{"exerciseId": first["exerciseId"], "sets": [{"weight": 0, "reps": 12}]}])
            .to_string(),
    )
    .unwrap();
    let id = monday["id"].as_str().unwrap();
    let args = [
        "plan",
        "done",
        "--db",
        &db,
        "--id",
        id,
        "--performed",
        performed.to_str().unwrap(),
        "--performed-at-ms",
        "1755500000000",
    ];
    let done = ok_json(&args, "");
    assert_eq!(done["doneAtMs"], 1_755_500_000_000_i64);
    assert_eq!(done["sessionId"], format!("today:{id}"));
    let (code, _) = refusal(&coach(&args, ""), 1, "done once");
    assert_eq!(code, "invalid_argument");
    let unknown = ["plan", "done", "--db", &db, "--id", "SECRET"];
    let (code, _) = refusal(&coach(&unknown, ""), 1, "unknown plan");
    assert_eq!(code, "not_found");
    std::fs::write(&performed, r#"[{"exerciseId": "x", "sets": "SECRET"}]"#).unwrap();
    let o = coach(&args, "");
    assert_eq!(o.status.code(), Some(1));
    let e = stdout_json(&o);
    assert_eq!(e["error"]["code"], "invalid_argument");
    assert_eq!(e["error"]["path"], "[0].sets");
    assert!(!e.to_string().contains("SECRET"));
    for args in [
        vec!["plan", "today"],
        vec!["plan", "recent", "--db", &db, "--limit", "x"],
        vec!["plan", "done", "--db", &db],
        [
            &["plan", "generate", "--db", &db][..],
            &["--units", "stone"],
        ]
        .concat(),
    ] {
        assert_eq!(coach(&args, "").status.code(), Some(64), "{args:?}");
    }
}

/// The last line `coach workout generate` prints for [`WORKOUT_REQUEST`] into `db` (the workout
/// is saved there): `{"event": "result", "result": WorkoutResult}`.
fn generated_workout(db: &str) -> Value {
    let args = [
        "workout",
        "generate",
        "--db",
        db,
        "--request",
        WORKOUT_REQUEST,
    ];
    let o = coach(&args, "");
    assert_eq!(o.status.code(), Some(0));
    let out = String::from_utf8(o.stdout).unwrap();
    serde_json::from_str(out.lines().last().unwrap()).unwrap()
}

#[test]
fn workout_log_takes_the_performed_document_as_yaml_or_json() {
    let (_dir, db) = temp_db();
    let generate = || generated_workout(&db)["result"].clone();
    // As JSON: every other set done at its target, the rest left null (not done); in the
    // library's earlier form (`version` a string), which is upgraded when read.
    let first = generate();
    let mut w = first["workout"].clone();
    w["version"] = json!("1.2");
    let sets = w["sets"].as_array_mut().unwrap();
    let total = sets.len();
    for s in sets.iter_mut().step_by(2) {
        s["actual_weight"] = s["target_weight"].clone();
        s["actual_reps"] = json!(8);
    }
    let log = ["workout", "log", "--db", &db];
    assert_eq!(
        ok_json(&log, &w.to_string()),
        json!({"ok": {"workoutId": w["workout_id"], "sets": total.div_ceil(2)}})
    );
    let (code, _) = refusal(&coach(&log, &w.to_string()), 1, "logged once");
    assert_eq!(code, "invalid_argument");
    // Logged through `workouts().log`: the saved workout holds the actual values, the sessions
    // the suggestion engine reads hold the sets done, performed at noon UTC of its date.
    let conn = rusqlite::Connection::open(&db).unwrap();
    let (session, at): (String, i64) = conn
        .query_row(
            "SELECT w.session_id, s.performed_at_ms FROM workouts w JOIN workout_sessions s
             ON s.id = w.session_id WHERE w.workout_id = ?1",
            [w["workout_id"].as_str().unwrap()],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert_eq!(
        session,
        format!("workout:{}", w["workout_id"].as_str().unwrap())
    );
    assert_eq!(at, 1_755_432_000_000, "2025-08-17T12:00:00Z");
    let sets: i64 = conn
        .query_row(
            "SELECT count(*) FROM performed_sets s JOIN exercise_performances p
             ON p.id = s.performance_id WHERE p.session_id = ?1",
            [&session],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(sets as usize, total.div_ceil(2));
    // As YAML, with the time given; a weight without reps is refused at its path.
    let second = generate();
    let yaml = second["yaml"].as_str().unwrap();
    let mut w2 = second["workout"].clone();
    w2["sets"][1]["actual_weight"] = json!(50);
    let (code, detail) = refusal(&coach(&log, &w2.to_string()), 1, "weight without reps");
    assert_eq!(code, "invalid_argument");
    assert!(detail.contains("sets[1].actual_reps"), "{detail}");
    let done_yaml = yaml.replacen("actual_reps: null", "actual_reps: 5", 1);
    assert_ne!(done_yaml, yaml);
    let at = [&log[..], &["--performed-at-ms", "1755450000000"]].concat();
    assert_eq!(ok_json(&at, &done_yaml)["ok"]["sets"], 1);
    // A document that does not validate is refused as `workout validate` refuses it; one not
    // in the database is not found.
    let (code, _) = refusal(&coach(&log, "sets: ["), 1, "not YAML");
    assert_eq!(code, "invalid_yaml");
    let other = yaml.replace("gym-downtown-02", "gym-downtown-09");
    let (code, _) = refusal(&coach(&log, &other), 1, "not saved");
    assert_eq!(code, "not_found");
    assert_eq!(coach(&["workout", "log"], yaml).status.code(), Some(64));
}

// ---- hostile files, devices and environments ----

/// The address space a CLI child gets where an input could be read whole: a run needs less than
/// 64 MiB; reading a large file or a device whole runs out of this.
const CHILD_MEMORY: u64 = 256 << 20;

fn coach_limited(args: &[&str], stdin: &[u8]) -> Output {
    let how = Child {
        memory_bytes: Some(CHILD_MEMORY),
        ..Child::default()
    };
    run_coach_with(args, stdin, &how)
}

/// The error JSON of `o`: its code and detail, after checking the exit code.
fn refusal(o: &Output, exit: i32, what: &str) -> (String, String) {
    assert_eq!(
        o.status.code(),
        Some(exit),
        "{what}: stdout {} stderr {}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    let v = stdout_json(o);
    (
        v["error"]["code"].as_str().unwrap_or_default().to_string(),
        v["error"]["detail"]
            .as_str()
            .unwrap_or_default()
            .to_string(),
    )
}

#[test]
fn request_and_script_files_are_read_no_further_than_their_cap() {
    let (dir, db) = temp_db();
    // 600 MB that take no room on disk, a device that never ends, and bytes that are not UTF-8.
    let sparse = dir.path().join("sparse.json");
    std::fs::File::create(&sparse)
        .unwrap()
        .set_len(600 << 20)
        .unwrap();
    let sparse = sparse.to_str().unwrap();
    let latin1 = dir.path().join("latin1.json");
    std::fs::write(&latin1, b"{\"date\": \"caf\xe9\"}").unwrap();
    let latin1 = latin1.to_str().unwrap();
    for file in [sparse, "/dev/zero"] {
        for args in [
            vec!["meals", "plan", "--db", &db, "--request", file],
            vec!["workout", "generate", "--db", &db, "--request", file],
        ] {
            let (code, detail) = refusal(&coach_limited(&args, b""), 1, &args.join(" "));
            assert_eq!(code, "invalid_argument", "{args:?}");
            assert_eq!(
                detail, "the --request file is larger than 262144 bytes",
                "{args:?}"
            );
        }
        let script = ["--script", file];
        for args in [
            [&["assistant", "--db", &db][..], &script, &["hello"]].concat(),
            [
                &["plan", "generate", "--db", &db, "--date", "2026-11-23"][..],
                &script,
            ]
            .concat(),
        ] {
            let (code, detail) = refusal(&coach_limited(&args, b"legs"), 1, &args.join(" "));
            assert_eq!(code, "invalid_argument", "{args:?}");
            assert_eq!(
                detail, "the --script file is larger than 1048576 bytes",
                "{args:?}"
            );
        }
    }
    for args in [
        vec!["meals", "plan", "--db", &db, "--request", latin1],
        vec!["workout", "generate", "--db", &db, "--request", latin1],
    ] {
        let (code, detail) = refusal(&coach_limited(&args, b""), 1, &args.join(" "));
        assert_eq!(
            (code.as_str(), detail.as_str()),
            ("invalid_argument", "the --request file is not UTF-8 text"),
            "{args:?}"
        );
    }
}

/// The names in `/dev` that start with one of the devices' names: SQLite would put its
/// `-journal`, `-wal` or `-shm` there.
fn device_siblings() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir("/dev")
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| ["null-", "zero-", "full-"].iter().any(|d| n.starts_with(d)))
        .collect();
    names.sort();
    names
}

#[test]
fn a_db_path_that_is_not_a_regular_file_is_not_a_database() {
    let (dir, db) = temp_db();
    // A pipe, a folder, and a pipe where SQLite looks for a rollback journal beside a database.
    let fifo = dir.path().join("pipe.db");
    let folder = dir.path().join("folder.db");
    std::fs::create_dir(&folder).unwrap();
    drop(coachcore::Coach::open(db.clone()).unwrap());
    let fifo_journal = format!("{db}-journal");
    for path in [fifo.to_str().unwrap(), &fifo_journal] {
        let made = std::process::Command::new("mkfifo")
            .arg(path)
            .status()
            .unwrap();
        assert!(made.success(), "mkfifo {path}");
    }
    let listing = crate::damaged_and_read_only::names_in(dir.path());
    let devices = device_siblings();
    let fifo = fifo.to_str().unwrap();
    for path in [
        "/dev/null",
        "/dev/zero",
        "/dev/full",
        fifo,
        folder.to_str().unwrap(),
        &db,
    ] {
        // A dry run promises no change, and an apply is refused before anything is written.
        for args in [
            vec!["ops", "dryrun", "--db", path, "--today", "2026-11-23"],
            vec!["ops", "apply", "--db", path, "--today", "2026-11-23"],
        ] {
            let (code, detail) = refusal(&coach_limited(&args, CALL_MOM.as_bytes()), 1, path);
            assert_eq!(code, "not_a_database", "{args:?}: {detail}");
        }
    }
    assert_eq!(device_siblings(), devices, "nothing was created in /dev");
    assert_eq!(crate::damaged_and_read_only::names_in(dir.path()), listing);
}

#[test]
fn a_closed_stdout_exits_74_before_doing_anything() {
    let (_dir, db) = temp_db();
    let how = Child {
        stdout_closed: true,
        ..Child::default()
    };
    let apply = ["ops", "apply", "--db", &db, "--today", "2026-11-23"];
    for args in [&apply[..], &["plan", "select-schema"], &["--help"]] {
        let o = run_coach_with(args, CALL_MOM.as_bytes(), &how);
        assert_eq!(o.status.code(), Some(74), "{args:?}");
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert!(stderr.contains("stdout"), "{args:?}: {stderr}");
    }
    // Nothing was applied: the database was not even created, so a retry applies once.
    assert!(!std::path::Path::new(&db).exists());
    let o = coach(&apply, CALL_MOM);
    assert_eq!(o.status.code(), Some(0));
    let c = coachcore::Coach::open(db.clone()).unwrap();
    assert_eq!(c.planner().audit_log(10, None).unwrap().len(), 1);
}

#[test]
fn reads_work_while_the_disk_is_full() {
    let (dir, db) = temp_db();
    let o = coach(
        &["ops", "apply", "--db", &db, "--today", "2026-11-23"],
        CALL_MOM,
    );
    assert_eq!(o.status.code(), Some(0));
    let listing = crate::damaged_and_read_only::names_in(dir.path());
    let bytes = std::fs::read(&db).unwrap();
    // No file may grow past 1 KiB: every write that needs room fails, as on a full disk.
    let full = Child {
        file_bytes: Some(1024),
        ..Child::default()
    };
    let dryrun = ["ops", "dryrun", "--db", &db, "--today", "2026-11-23"];
    let o = run_coach_with(&dryrun, CALL_MOM.as_bytes(), &full);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    assert_eq!(stdout_json(&o)["validCount"], 1);
    let o = run_coach_with(&["ops", "undo", "--db", &db, "no-such-request"], b"", &full);
    assert_eq!(stdout_json(&o)["error"]["code"], "not_found", "a read");
    // A write fails as storage and changes nothing.
    let apply = ["ops", "apply", "--db", &db, "--today", "2026-11-23"];
    let o = run_coach_with(&apply, CALL_MOM.as_bytes(), &full);
    let (code, _) = refusal(&o, 1, "apply on a full disk");
    assert_eq!(code, "storage");
    assert_eq!(crate::damaged_and_read_only::names_in(dir.path()), listing);
    assert!(std::fs::read(&db).unwrap() == bytes, "the file changed");
    let c = coachcore::Coach::open(db.clone()).unwrap();
    assert_eq!(c.planner().audit_log(10, None).unwrap().len(), 1);
}

#[test]
fn negative_zero_is_zero_in_integer_fields() {
    let mut evaluate: Value =
        serde_json::from_str(include_str!("../data/suggest/evaluate-input.json")).unwrap();
    evaluate["nowMs"] = json!(0);
    // An analyzer plan to render, from a generated workout: `warmups` is an integer.
    let (_dir, db) = temp_db();
    let analyzer = generated_workout(&db)["result"]["analyzer"].to_string();
    for (args, text, field) in [
        (&["suggest", "evaluate"], evaluate.to_string(), "\"nowMs\":"),
        (&["workout", "render"], analyzer, "\"warmups\":"),
    ] {
        let zero = format!("{field}0");
        assert!(text.contains(&zero), "{args:?}");
        let expected = coach(args, &text);
        assert_eq!(expected.status.code(), Some(0), "{args:?}");
        let o = coach(args, &text.replace(&zero, &format!("{field}-0")));
        assert_eq!(
            o.status.code(),
            Some(0),
            "{args:?}: {}",
            String::from_utf8_lossy(&o.stdout)
        );
        assert_eq!(o.stdout, expected.stdout, "{args:?}");
    }
}

#[test]
fn random_bytes_cannot_be_told_from_an_encrypted_database() {
    let (dir, _) = temp_db();
    let path = dir.path().join("random.db");
    let mut rng = crate::common::Rng(22);
    let bytes: Vec<u8> = (0..8192).map(|_| rng.next() as u8).collect();
    std::fs::write(&path, &bytes).unwrap();
    let o = coach(&["ops", "dryrun", "--db", path.to_str().unwrap()], CALL_MOM);
    let (code, _) = refusal(&o, 1, "random bytes");
    assert_eq!(code, "database_encrypted");
    assert!(std::fs::read(&path).unwrap() == bytes, "the file changed");
    assert_eq!(
        crate::damaged_and_read_only::names_in(dir.path()),
        ["random.db"]
    );
}

#[test]
fn meals_shopping_list_and_staples() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("shop.db");
    let db = db.to_str().unwrap();
    let recipes = include_str!("../data/recipes/starter.json");
    assert_eq!(
        coach(&["recipes", "import", "--db", db], recipes)
            .status
            .code(),
        Some(0)
    );
    let request = dir.path().join("request.json");
    std::fs::write(
        &request,
        json!({"days": [
            {"date": "2026-12-05", "meals": {"breakfast": {"servings": 3, "pinnedRecipeId": "core-shakshuka"}}},
            {"date": "2026-12-06", "meals": {"dinner": {"servings": 6, "pinnedRecipeId": "core-paella"}}}
        ]})
        .to_string(),
    )
    .unwrap();
    let o = coach(
        &[
            "meals",
            "plan",
            "--db",
            db,
            "--request",
            request.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(0));
    let last: Value =
        serde_json::from_str(String::from_utf8_lossy(&o.stdout).lines().last().unwrap()).unwrap();
    let job = last["job"]["id"].as_str().unwrap().to_string();

    let o = coach(
        &["meals", "staples", "--db", db, "--set", "salt, olive oil"],
        "",
    );
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        "[\"salt\",\"olive oil\"]\n"
    );
    let o = coach(&["meals", "staples", "--db", db], "");
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        "[\"salt\",\"olive oil\"]\n"
    );

    // The CLI prints exactly what the library returns.
    let library = |days: Vec<String>, all: bool| {
        let c = coachcore::Coach::open(db.to_string()).unwrap();
        let l = c
            .meals()
            .shopping_list(
                job.clone(),
                Some(coachcore::meals::shopping::ShoppingListOptions {
                    days,
                    include_staples: all,
                }),
            )
            .unwrap();
        format!("{}\n", serde_json::to_string(&l).unwrap())
    };
    let o = coach(&["meals", "shopping-list", "--db", db, "--job", &job], "");
    assert_eq!(o.status.code(), Some(0));
    let out = String::from_utf8_lossy(&o.stdout).to_string();
    assert_eq!(out, library(vec![], false));
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["sections"][0]["section"], "produce");
    assert_eq!(v["sections"][0]["items"][0]["name"], "garlic");
    // 2 cloves + 3 cloves.
    assert_eq!(
        v["sections"][0]["items"][0]["amounts"],
        json!([{"quantity": 5.0, "unit": "cloves"}])
    );
    let skipped: Vec<&str> = v["skippedStaples"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["name"].as_str().unwrap())
        .collect();
    assert_eq!(skipped, ["olive oil", "salt"]);

    let shop = |more: &[&str]| {
        let mut args = vec!["meals", "shopping-list", "--db", db];
        args.extend_from_slice(more);
        coach(&args, "")
    };
    let o = shop(&["--job", &job, "--days", "2026-12-06", "--all"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        library(vec!["2026-12-06".into()], true)
    );

    // Errors: the error JSON and exit 1; usage errors exit 64.
    let o = shop(&["--job", "no-such-job"]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout_json(&o)["error"]["code"], "not_found");
    let o = shop(&["--job", &job, "--days", "2026-12-09"]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout_json(&o)["error"]["code"], "invalid_argument");
    let long = "x".repeat(81);
    let o = coach(&["meals", "staples", "--db", db, "--set", &long], "");
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout_json(&o)["error"]["code"], "invalid_argument");
    assert_eq!(
        coach(&["meals", "shopping-list", "--db", db], "")
            .status
            .code(),
        Some(64)
    );
    let o = coach(&["meals", "staples", "--db", db, "--set", ""], "");
    assert_eq!(String::from_utf8_lossy(&o.stdout), "[]\n");
}

#[test]
fn model_check_prints_the_availability_and_exits_0_only_when_available() {
    let huge = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/models/huge-kv-header.bin"
    );
    // Too big for the machine: the status and figures, exit 2.
    let o = coach(&["model", "check", huge], "");
    assert_eq!(o.status.code(), Some(2));
    let v = stdout_json(&o);
    assert_eq!(v["status"], "insufficientMemory");
    assert_eq!(v["architecture"], "llama");
    assert_eq!(v["contextTokens"], 2048);
    assert!(
        v["neededBytes"].as_u64() > v["availableBytes"].as_u64(),
        "{v}"
    );
    // Room given: available where the engine is built in, else engineMissing (still exit 2).
    let roomy = u64::MAX.to_string();
    let o = coach(
        &[
            "model",
            "check",
            "--context-tokens",
            "512",
            "--available-bytes",
            &roomy,
            huge,
        ],
        "",
    );
    let v = stdout_json(&o);
    assert_eq!(v["contextTokens"], 512);
    if cfg!(feature = "llama") {
        assert_eq!(
            (o.status.code(), v["status"].as_str()),
            (Some(0), Some("available"))
        );
    } else {
        assert_eq!(
            (o.status.code(), v["status"].as_str()),
            (Some(2), Some("engineMissing"))
        );
    }
    let o = coach(&["model", "check", "/no/such/model.gguf"], "");
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stdout_json(&o)["status"], "fileMissing");
    // Usage: no path, or a bad number.
    assert_eq!(coach(&["model", "check"], "").status.code(), Some(64));
    let o = coach(&["model", "check", "--context-tokens", "many", huge], "");
    assert_eq!(o.status.code(), Some(64));
}
