//! The assistant's evaluation set scored on the narrowed pipeline without a model
//! (`assistant::narrow`): what the deterministic reading alone achieves. The `ai_eval` bench
//! scores the same set with the real model; this test keeps the model-free floor from slipping.

use std::collections::BTreeMap;

use coachcore::assistant::date::Date;
use coachcore::assistant::model::{PlannerItem, PlannerOperation};
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

/// The operations the reading alone proposes for `task`, and whether part of the message was
/// left open for a model.
fn read_task(
    fixtures: &BTreeMap<String, Vec<PlannerItem>>,
    lang: Language,
    task: &Value,
) -> (Vec<PlannerOperation>, bool) {
    let items: Vec<PlannerItem> = match &task["items"] {
        Value::String(name) => fixtures[name].clone(),
        other => serde_json::from_value(other.clone()).unwrap(),
    };
    let today = Date::parse(task["today"].as_str().unwrap()).unwrap();
    let n = narrow_in(task["message"].as_str().unwrap(), lang, today, &items);
    (n.resolve(None).operations, n.open)
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
        let (ops, open) = read_task(&fixtures, Language::En, task);
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

/// Issue 25's sets (`tests/data/eval/assistant.{de,fr,es,classes}.json`, `questions.*.json`)
/// scored on the reading alone, as the code stands: a by-hand run that prints the figures
/// (`cargo test --test it issue_25_sets -- --ignored --nocapture`). The reading has no question
/// back and no answers yet, so `clarify` and `answer` tasks succeed only once it has; any
/// operation proposed for them counts as a wrong action.
#[test]
#[ignore = "by-hand figures for issue 25's sets"]
fn issue_25_sets_scored_on_the_reading_alone() {
    for file in [
        "assistant.classes.json",
        "assistant.classes.held.json",
        "assistant.de.json",
        "assistant.fr.json",
        "assistant.es.json",
        "questions.en.json",
        "questions.de.json",
        "questions.fr.json",
        "questions.es.json",
    ] {
        let path = format!("{}/tests/data/eval/{file}", env!("CARGO_MANIFEST_DIR"));
        let set: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let fixtures = fixtures(&set);
        let lang = Language::read_as(set["language"].as_str());
        let tasks = set["tasks"].as_array().unwrap();
        let (mut success, mut wrong, mut asks) = (0, 0, 0);
        for task in tasks {
            let (ops, _) = read_task(&fixtures, lang, task);
            let e = &task["expected"];
            let asking = e == "clarify" || e.get("clarify").is_some() || e.get("answer").is_some();
            if asking {
                asks += 1;
                wrong += ops.len();
                continue;
            }
            let expected = expected_ops(e);
            wrong += score::wrong_actions(&ops, &expected);
            if score::paired(&ops, &expected) {
                success += 1;
            } else if std::env::var_os("EVAL_FAILURES").is_some() {
                let got: Vec<String> = ops.iter().map(score::short).collect();
                println!("  {}: got [{}]", task["id"], got.join("; "));
            }
        }
        println!(
            "{file}: {success}/{} succeed ({asks} clarify or answer tasks, none possible yet), \
             {wrong} wrong actions",
            tasks.len()
        );
    }
}
