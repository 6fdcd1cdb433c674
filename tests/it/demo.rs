//! What the README and `coach demo` show about suggestions, checked against the real binary:
//! `coach suggest evaluate` on the README's two example files prints what the README documents,
//! and the demo's suggestion section (suggestions after workout 3, their rule ids and reasons, the
//! accepted and deferred lines, the updated plan) agrees with the database it leaves behind.

use crate::common::run_coach;
use std::process::Output;

use coachcore::suggest::rules::RULE_IDS;
use coachcore::suggest::{ChangeProperty, ChangeValue, Decision, PrescriptionChange};
use serde_json::Value;

const README: &str = include_str!("../../README.md");

/// Runs the CLI with `stdin`, whatever its exit code.
fn run(args: &[&str], stdin: &str) -> Output {
    run_coach(args, stdin, false)
}

/// Runs the CLI with `stdin` and checks it succeeded.
fn coach(args: &[&str], stdin: &str) -> Output {
    let o = run(args, stdin);
    assert_eq!(
        o.status.code(),
        Some(0),
        "coach {args:?}: {}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    o
}

fn evaluate(input: &str) -> Value {
    let o = coach(&["suggest", "evaluate"], input);
    serde_json::from_slice(&o.stdout).unwrap()
}

/// The first ```json block after the README line that starts with `` `{file}` `` (the example's
/// description), parsed.
fn documented_output(file: &str) -> Value {
    let intro = format!("`{file}` (");
    let at = README
        .lines()
        .position(|l| l.starts_with(&intro))
        .unwrap_or_else(|| panic!("README describes no output of {file}"));
    let block: Vec<&str> = README
        .lines()
        .skip(at)
        .skip_while(|l| *l != "```json")
        .skip(1)
        .take_while(|l| *l != "```")
        .collect();
    serde_json::from_str(&block.join("\n"))
        .unwrap_or_else(|e| panic!("README output of {file} is not JSON: {e}"))
}

/// The parts of a suggestion the README pins down: everything but the wording of `reasoning` and
/// the evidence `figures` (the rules may name and word those differently over time). Those are
/// checked for what the user relies on: a sentence with the deciding numbers in it, and figures
/// that are finite numbers.
fn stable_part(mut s: Value) -> Value {
    let reasoning = s["reasoning"].as_str().unwrap_or("").to_string();
    assert!(
        reasoning.chars().any(|c| c.is_ascii_digit()),
        "a reason without numbers: {reasoning:?}"
    );
    let figures = s["evidence"]["figures"].as_array().cloned().unwrap();
    assert!(!figures.is_empty(), "no figures: {s}");
    assert!(figures
        .iter()
        .all(|f| f["name"].as_str().is_some_and(|n| !n.is_empty())
            && f["value"].as_f64().is_some_and(f64::is_finite)));
    let obj = s.as_object_mut().unwrap();
    obj.remove("reasoning");
    obj["evidence"].as_object_mut().unwrap().remove("figures");
    s
}

fn stable(output: &Value) -> Vec<Value> {
    output["suggestions"]
        .as_array()
        .unwrap()
        .iter()
        .cloned()
        .map(stable_part)
        .collect()
}

#[test]
fn readme_examples_print_the_documented_suggestions() {
    for (file, input) in [
        (
            "tests/data/suggest/evaluate-input.json",
            include_str!("../data/suggest/evaluate-input.json"),
        ),
        (
            "tests/data/suggest/evaluate-with-history.json",
            include_str!("../data/suggest/evaluate-with-history.json"),
        ),
    ] {
        let documented = documented_output(file);
        let got = evaluate(input);
        assert_eq!(stable(&got), stable(&documented), "{file}: {got}");
        // Every field the README lists is in the output, with nothing else.
        for s in got["suggestions"].as_array().unwrap() {
            let mut keys: Vec<&str> = s.as_object().unwrap().keys().map(|k| k.as_str()).collect();
            keys.sort_unstable();
            assert_eq!(
                keys,
                [
                    "changeType",
                    "evidence",
                    "newValue",
                    "oldValue",
                    "property",
                    "reasoning",
                    "ruleId",
                    "source",
                    "targetSetIndex"
                ]
            );
        }
    }
}

#[test]
fn the_second_example_uses_its_history_and_existing_changes() {
    let input: Value =
        serde_json::from_str(include_str!("../data/suggest/evaluate-with-history.json")).unwrap();
    let rules = |v: &Value| -> Vec<(String, Value)> {
        v["suggestions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| {
                (
                    s["ruleId"].as_str().unwrap().to_string(),
                    s["targetSetIndex"].clone(),
                )
            })
            .collect()
    };
    let inferred = ("rep_range_inference".to_string(), Value::Null);
    let drop_set = ("drop_set_without_base".to_string(), Value::from(0));

    // As documented: only the rep range; the drop set's change is in cooldown.
    assert_eq!(rules(&evaluate(&input.to_string())), [inferred.clone()]);

    // Without the rejected change of 2 days ago, the drop set rule's change comes back.
    let mut without = input.clone();
    without["existing"].as_array_mut().unwrap().remove(0);
    assert_eq!(
        rules(&evaluate(&without.to_string())),
        [inferred.clone(), drop_set.clone()]
    );

    // A change the user made themselves never blocks.
    let mut overridden = input.clone();
    overridden["existing"][0]["userOverride"] = Value::Bool(true);
    assert_eq!(
        rules(&evaluate(&overridden.to_string())),
        [inferred.clone(), drop_set]
    );

    // Without the history there is nothing to infer the rep range from (one session only).
    let mut no_history = input.clone();
    no_history["context"]["history"] = Value::Null;
    assert_eq!(rules(&evaluate(&no_history.to_string())), []);

    // `existing` and `history` may be left out altogether.
    let mut minimal = input;
    let ctx = minimal["context"].as_object_mut().unwrap();
    ctx.remove("history");
    minimal.as_object_mut().unwrap().remove("existing");
    assert_eq!(rules(&evaluate(&minimal.to_string())).len(), 1);
}

#[test]
fn suggest_evaluate_refuses_what_save_plan_and_log_session_refuse() {
    use serde_json::json;
    let base: Value =
        serde_json::from_str(include_str!("../data/suggest/evaluate-input.json")).unwrap();
    // (case, the edited fields as (JSON pointer, new value), the printed detail)
    let cases = [
        (
            "range upside down (lower 12, upper 8)",
            vec![
                ("/context/prescription/repRange/lower", json!(12)),
                ("/context/prescription/repRange/upper", json!(8)),
            ],
            "context.prescription.repRange is inconsistent",
        ),
        (
            "negative logged weight",
            vec![("/context/current/sets/1/weight", json!(-135.25))],
            "context.current.sets[1].weight must be 0 to 5000",
        ),
        (
            "negative prescribed weight",
            vec![("/context/prescription/sets/2/targetWeight", json!(-140.75))],
            "context.prescription.sets[2].targetWeight must be 0 to 5000",
        ),
        (
            "weight over 5000 in an earlier performance",
            vec![("/context/previous/1/sets/0/weight", json!(5000.25))],
            "context.previous[1].sets[0].weight must be 0 to 5000",
        ),
    ];
    for (name, edits, detail) in cases {
        let mut input = base.clone();
        for (pointer, value) in &edits {
            *input.pointer_mut(pointer).unwrap() = value.clone();
        }
        let o = run(&["suggest", "evaluate"], &input.to_string());
        let out = String::from_utf8_lossy(&o.stdout);
        assert_eq!(o.status.code(), Some(1), "{name}: {out}");
        let v: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["error"]["code"], "invalid_argument", "{name}: {out}");
        assert_eq!(v["error"]["detail"], detail, "{name}");
        for (_, value) in &edits {
            assert!(
                !out.contains(&value.to_string()),
                "{name}: echoes {value}: {out}"
            );
        }
        assert!(v.get("suggestions").is_none(), "{name}: {out}");
    }
}

/// The lines of the demo's suggestion section, from "suggestions after workout 3" to the plan line.
fn suggestion_section(out: &str) -> Vec<&str> {
    let start = out
        .lines()
        .position(|l| l.starts_with("suggestions after workout 3 ("))
        .unwrap_or_else(|| panic!("no suggestions after workout 3:\n{out}"));
    out.lines()
        .skip(start)
        .take_while(|l| !l.is_empty())
        .collect()
}

#[test]
fn demo_shows_suggestions_after_workout_3_and_their_decisions() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("demo.db");
    let o = coach(&["demo", "--db", db.to_str().unwrap()], "");
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(
        out.contains("suggestions: logging 3 workouts of \"Full Body A\""),
        "{out}"
    );
    for n in 1..=3 {
        assert!(
            out.contains(&format!("  workout {n}: Bench Press 3 x ")),
            "{out}"
        );
    }
    let section = suggestion_section(&out);
    let count: usize = section[0]
        .trim_start_matches("suggestions after workout 3 (")
        .trim_end_matches("):")
        .parse()
        .unwrap();
    let lines = &section[1..=count];

    // The database the demo leaves behind: the session's changes, the first accepted, the rest
    // deferred for review before the next workout.
    let c = coachcore::Coach::open(db.display().to_string()).unwrap();
    let deferred = c.suggestions().deferred("demo-plan".into()).unwrap();
    assert_eq!(deferred.len(), count - 1);
    assert!(
        count >= 2,
        "the demo shows an accepted and a deferred suggestion\n{out}"
    );
    let session = deferred[0].session_id.clone();
    // Generated before: this returns the stored changes with their decisions.
    let changes: Vec<PrescriptionChange> = c.suggestions().for_session(session).unwrap();
    assert_eq!(changes.len(), count);
    assert_eq!(changes[0].decision, Decision::Accepted);
    assert!(changes[1..]
        .iter()
        .all(|ch| ch.decision == Decision::Deferred));

    // Each printed suggestion: a known rule id, the exercise, and a reason with numbers in it,
    // in the order stored.
    for (line, ch) in lines.iter().zip(&changes) {
        let rule = line
            .trim_start()
            .strip_prefix('[')
            .and_then(|l| l.split_once(']'))
            .map(|(r, _)| r)
            .unwrap_or_else(|| panic!("no rule id: {line}"));
        assert!(RULE_IDS.contains(&rule), "unknown rule id {rule}: {line}");
        assert_eq!(ch.draft.rule_id.as_deref(), Some(rule));
        assert!(line.contains(&format!("] {} ", ch.catalog_id)), "{line}");
        let reason = line
            .rsplit_once("  (")
            .map(|(_, r)| r.trim_end_matches(')'))
            .unwrap_or_else(|| panic!("no reason: {line}"));
        assert_eq!(reason, ch.draft.reasoning);
        assert!(reason.chars().any(|c| c.is_ascii_digit()), "{line}");
        assert!(!ch.draft.evidence.figures.is_empty(), "{line}");
        assert!(!ch.draft.evidence.performance_ids.is_empty(), "{line}");
    }
    assert_eq!(
        section[count + 1],
        format!(
            "accepted the first, deferred {} for review before the next workout",
            count - 1
        )
    );

    // The accepted change is in the plan, and the plan line prints the plan as stored.
    let first = &changes[0];
    let plan = c.workouts().plan("demo-plan".into()).unwrap().unwrap();
    let rx = plan
        .exercises
        .iter()
        .find(|e| e.id == first.prescription_id)
        .unwrap();
    let new = match &first.draft.new_value {
        ChangeValue::Number { value } => *value,
        other => panic!("the demo's first suggestion is not a number: {other:?}"),
    };
    let set = rx
        .sets
        .iter()
        .find(|s| Some(s.index) == first.draft.target_set_index)
        .unwrap();
    match first.draft.property {
        ChangeProperty::Weight => assert_eq!(set.target_weight, new),
        ChangeProperty::Reps => assert_eq!(f64::from(set.target_reps), new),
        other => panic!("the demo's first suggestion changes {other:?}"),
    }
    let sets: Vec<String> = rx
        .sets
        .iter()
        .map(|s| format!("{} x {}", s.target_weight, s.target_reps))
        .collect();
    assert_eq!(
        section.get(count + 2).copied(),
        Some(format!("plan now has {}: {}", rx.catalog_id, sets.join(", ")).as_str()),
        "{out}"
    );
}
