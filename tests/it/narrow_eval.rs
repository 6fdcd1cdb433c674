//! The assistant's evaluation set scored on the narrowed pipeline without a model
//! (`assistant::narrow`): what the deterministic reading alone achieves. The `ai_eval` bench
//! scores the same set with the real model; this test keeps the model-free floor from slipping.

use std::collections::BTreeMap;

use coachcore::assistant::date::Date;
use coachcore::assistant::model::{Clarification, PlannerItem, PlannerOperation};
use coachcore::assistant::narrow::narrow_in;
use coachcore::kernel::lang::Language;
use serde_json::Value;

#[path = "../../benches/ai_eval/score.rs"]
#[allow(dead_code)]
mod score;

const EVAL_SET: &str = include_str!("../data/eval/assistant.json");

/// The set's fixtures by name.
fn fixtures(set: &Value) -> BTreeMap<String, Vec<PlannerItem>> {
    serde_json::from_value(set["fixtures"].clone()).unwrap()
}

/// What the reading alone makes of a task: its operations, whether the message was left open
/// for a model, and the question it asks back instead.
struct Read {
    ops: Vec<PlannerOperation>,
    open: bool,
    clarification: Option<Clarification>,
}

/// The operations the reading alone proposes for `task`, whether the message was left open for
/// a model, and the question it asks back.
fn read_task(fixtures: &BTreeMap<String, Vec<PlannerItem>>, lang: Language, task: &Value) -> Read {
    let items: Vec<PlannerItem> = match &task["items"] {
        Value::String(name) => fixtures[name].clone(),
        other => serde_json::from_value(other.clone()).unwrap(),
    };
    let today = Date::parse(task["today"].as_str().unwrap()).unwrap();
    let n = narrow_in(task["message"].as_str().unwrap(), lang, today, &items);
    Read {
        ops: n.resolve(None).operations,
        open: n.open,
        clarification: n.clarification,
    }
}

/// Whether a read meets a `clarify` expectation (`tests/data/eval/README.md`): a question, at
/// most 5 options, no operation, and the given first options in order.
fn asks_as_expected(read: &Read, expected: &Value) -> bool {
    let Some(c) = &read.clarification else {
        return false;
    };
    let first: Vec<&str> = expected["clarify"]["options"]
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let got: Vec<&str> = c.options.iter().map(|o| o.id.as_str()).collect();
    read.ops.is_empty()
        && !c.question.trim().is_empty()
        && c.options.len() <= 5
        && got.len() >= first.len()
        && got[..first.len()] == first[..]
}

/// The expected operations of a task that expects operations or no change.
fn expected_ops(expected: &Value) -> Vec<Value> {
    match expected {
        Value::String(s) if s == "no_change" => Vec::new(),
        e => e["ops"].as_array().cloned().unwrap_or_default(),
    }
}

#[test]
fn the_reading_alone_succeeds_on_most_evaluation_tasks_and_never_acts_wrongly() {
    let set: Value = serde_json::from_str(EVAL_SET).unwrap();
    let fixtures = fixtures(&set);
    let tasks = set["tasks"].as_array().unwrap();
    let (mut success, mut wrong) = (0, 0);
    let mut failures = Vec::new();
    for task in tasks {
        let id = task["id"].as_str().unwrap();
        let Read { ops, open, .. } = read_task(&fixtures, Language::En, task);
        let expected = expected_ops(&task["expected"]);
        let w = score::wrong_actions(&ops, &expected);
        wrong += w;
        if score::paired(&ops, &expected) {
            success += 1;
        } else {
            let got: Vec<String> = ops.iter().map(score::short).collect();
            failures.push(format!(
                "{id}: open={open} got [{}] wrong={w}",
                got.join("; ")
            ));
        }
    }
    println!(
        "reading alone: {success}/{} succeed, {wrong} wrong actions",
        tasks.len()
    );
    for f in &failures {
        println!("  {f}");
    }
    assert_eq!(wrong, 0, "{failures:#?}");
    assert!(
        success * 100 >= tasks.len() * 85,
        "{success}/{}: {failures:#?}",
        tasks.len()
    );
}

/// Issue 25's sets (`tests/data/eval/assistant.{de,fr,es,classes}.json`, the held-out
/// `assistant.classes.held.json`, `questions.*.json`) scored on the reading alone, as the code
/// stands: a by-hand run that prints the figures (`cargo test --test it issue_25_sets --
/// --ignored --nocapture`; with `EVAL_FAILURES` set it prints each miss, with `EVAL_ALL` every
/// task; `EVAL_SET=FILE` scores only that file of `tests/data/eval/`, or at that absolute path). `clarify` tasks
/// are scored as the README says; `answer` tasks succeed only once the reading answers
/// questions. Any operation proposed for them counts as a wrong action.
#[test]
#[ignore = "by-hand figures for issue 25's sets"]
fn issue_25_sets_scored_on_the_reading_alone() {
    let extra = std::env::var("EVAL_SET").ok();
    let files = [
        "assistant.classes.json",
        "assistant.classes.held.json",
        "assistant.classes.held2.json",
        "assistant.de.json",
        "assistant.fr.json",
        "assistant.es.json",
        "questions.en.json",
        "questions.de.json",
        "questions.fr.json",
        "questions.es.json",
    ];
    let files: Vec<&str> = match &extra {
        Some(path) => vec![path.as_str()],
        None => files.to_vec(),
    };
    for file in files {
        let (success, wrong, total) = score_file(file, std::env::var_os("EVAL_FAILURES").is_some());
        println!("{file}: {success}/{total} succeed, {wrong} wrong actions");
    }
}

/// Scores one of issue 25's sets on the reading alone: successes, wrong actions, tasks.
fn score_file(file: &str, print_misses: bool) -> (usize, usize, usize) {
    let path = if file.starts_with('/') {
        file.to_string()
    } else {
        format!("{}/tests/data/eval/{file}", env!("CARGO_MANIFEST_DIR"))
    };
    let set: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let fixtures = fixtures(&set);
    let lang = Language::read_as(set["language"].as_str());
    let tasks = set["tasks"].as_array().unwrap();
    let (mut success, mut wrong) = (0, 0);
    for task in tasks {
        let read = read_task(&fixtures, lang, task);
        let e = &task["expected"];
        let ok = if e == "clarify" || e.get("clarify").is_some() {
            wrong += read.ops.len();
            asks_as_expected(&read, e)
        } else if e.get("answer").is_some() {
            wrong += read.ops.len();
            false
        } else {
            let expected = expected_ops(e);
            wrong += score::wrong_actions(&read.ops, &expected);
            score::paired(&read.ops, &expected)
        };
        success += usize::from(ok);
        if (!ok && print_misses) || std::env::var_os("EVAL_ALL").is_some() {
            let got: Vec<String> = read.ops.iter().map(score::short).collect();
            let asked = read.clarification.as_ref().map(|c| {
                let ids: Vec<&str> = c.options.iter().map(|o| o.id.as_str()).collect();
                format!(" asked {:?} {ids:?}", c.question)
            });
            println!(
                "  {}: open={} got [{}]{}",
                task["id"].as_str().unwrap_or(""),
                read.open,
                got.join("; "),
                asked.unwrap_or_default()
            );
        }
    }
    (success, wrong, tasks.len())
}

/// The English classes of issue 25 (`assistant.classes.json`) and their held-out sets, scored
/// on the reading alone, clarify tasks included: these figures must not slip.
#[test]
fn issue_25_english_classes_on_the_reading_alone() {
    for (file, floor) in [
        ("assistant.classes.json", 39),
        ("assistant.classes.held.json", 20),
        ("assistant.classes.held2.json", 18),
    ] {
        let (success, wrong, total) = score_file(file, true);
        println!("{file}: {success}/{total} succeed, {wrong} wrong actions");
        assert_eq!(wrong, 0, "{file}");
        assert!(success >= floor, "{file}: {success}/{total}");
    }
}
