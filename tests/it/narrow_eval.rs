//! The assistant's evaluation set scored on the narrowed pipeline without a model
//! (`assistant::narrow`): what the deterministic reading alone achieves. The `ai_eval` bench
//! scores the same set with the real model; this test keeps the model-free floor from slipping.

use std::collections::BTreeMap;

use coachcore::assistant::date::Date;
use coachcore::assistant::model::PlannerItem;
use coachcore::assistant::narrow::narrow;
use serde_json::Value;

#[path = "../../benches/ai_eval/score.rs"]
#[allow(dead_code)]
mod score;

const EVAL_SET: &str = include_str!("../data/eval/assistant.json");

#[test]
fn the_reading_alone_succeeds_on_most_evaluation_tasks_and_never_acts_wrongly() {
    let set: Value = serde_json::from_str(EVAL_SET).unwrap();
    let fixtures: BTreeMap<String, Vec<PlannerItem>> =
        serde_json::from_value(set["fixtures"].clone()).unwrap();
    let tasks = set["tasks"].as_array().unwrap();
    let (mut success, mut wrong) = (0, 0);
    let mut failures = Vec::new();
    for task in tasks {
        let id = task["id"].as_str().unwrap();
        let items: Vec<PlannerItem> = match &task["items"] {
            Value::String(name) => fixtures[name].clone(),
            other => serde_json::from_value(other.clone()).unwrap(),
        };
        let today = Date::parse(task["today"].as_str().unwrap()).unwrap();
        let n = narrow(task["message"].as_str().unwrap(), today, &items);
        let ops = n.resolve(None).operations;
        let expected: Vec<Value> = match &task["expected"] {
            Value::String(s) if s == "no_change" => Vec::new(),
            e => e["ops"].as_array().cloned().unwrap_or_default(),
        };
        let w = score::wrong_actions(&ops, &expected);
        wrong += w;
        if score::paired(&ops, &expected) {
            success += 1;
        } else {
            let got: Vec<String> = ops.iter().map(score::short).collect();
            failures.push(format!(
                "{id}: open={} got [{}] wrong={w}",
                n.open,
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
