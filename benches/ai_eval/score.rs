//! Scoring of the assistant task set (`tests/data/eval/README.md`, "Scoring"): shared by the
//! `ai_eval` bench and the integration test that scores the reading-only pipeline.

use coachcore::assistant::model::{PlannerAnswer, PlannerOperation};
use serde_json::Value;

/// One line per operation, for failure reports.
pub fn short(op: &PlannerOperation) -> String {
    let v = serde_json::to_value(op).unwrap_or_default();
    let mut s = String::new();
    if let Value::Object(m) = v {
        for (k, v) in m {
            s.push_str(&format!("{k}={v} "));
        }
    }
    s.trim_end().to_string()
}

/// Whether `ops` pair one to one with `expected` so that every pair matches.
pub fn paired(ops: &[PlannerOperation], expected: &[Value]) -> bool {
    if ops.len() != expected.len() {
        return false;
    }
    fn assign(ops: &[Value], expected: &[Value], used: &mut Vec<bool>, i: usize) -> bool {
        if i == expected.len() {
            return true;
        }
        for j in 0..ops.len() {
            if !used[j] && matches(&ops[j], &expected[i]) {
                used[j] = true;
                if assign(ops, expected, used, i + 1) {
                    return true;
                }
                used[j] = false;
            }
        }
        false
    }
    let values: Vec<Value> = ops
        .iter()
        .map(|o| serde_json::to_value(o).unwrap_or_default())
        .collect();
    assign(&values, expected, &mut vec![false; values.len()], 0)
}

/// Whether the operation (as JSON) matches a partial expected operation.
pub fn matches(op: &Value, want: &Value) -> bool {
    let Some(want) = want.as_object() else {
        return false;
    };
    want.iter().all(|(k, w)| match k.as_str() {
        "titleContains" => {
            let title = op["title"].as_str().unwrap_or("").to_lowercase();
            w.as_array().is_some_and(|words| {
                words
                    .iter()
                    .all(|x| title.contains(&x.as_str().unwrap_or("").to_lowercase()))
            })
        }
        // None of these words in the title (a command word or a misspelling left in it).
        "titleExcludes" => {
            let title = op["title"].as_str().unwrap_or("").to_lowercase();
            w.as_array().is_some_and(|words| {
                words
                    .iter()
                    .all(|x| !title.contains(&x.as_str().unwrap_or("").to_lowercase()))
            })
        }
        "recurrence" => recurrence_matches(&op["recurrence"], w),
        "items" => {
            let set = |v: &Value| -> Vec<String> {
                let mut s: Vec<String> = v
                    .as_array()
                    .map(|a| a.iter().map(|i| i.to_string()).collect())
                    .unwrap_or_default();
                s.sort();
                s
            };
            set(&op["items"]) == set(w)
        }
        _ => {
            if w.is_null() {
                op[k].is_null()
            } else {
                &op[k] == w
            }
        }
    })
}

fn recurrence_matches(got: &Value, want: &Value) -> bool {
    if got["type"] != want["type"] {
        return false;
    }
    let interval = |v: &Value| v["interval"].as_u64().unwrap_or(1);
    let days = |v: &Value| -> Vec<String> {
        let mut d: Vec<String> = v["weekdays"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|x| x.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default();
        d.sort();
        d
    };
    interval(got) == interval(want) && days(got) == days(want) && got["until"] == want["until"]
}

/// Proposed operations that do something not asked (see the README's scoring).
pub fn wrong_actions(ops: &[PlannerOperation], expected: &[Value]) -> usize {
    let named: Vec<&str> = expected.iter().filter_map(|e| e["id"].as_str()).collect();
    let destructive = ["delete", "goal_delete", "complete", "complete_occurrence"];
    let creates_expected = expected
        .iter()
        .filter(|e| matches!(e["op"].as_str(), Some("create" | "goal_create")))
        .count();
    let mut creates = 0;
    let mut wrong = 0;
    for op in ops {
        let v = serde_json::to_value(op).unwrap_or_default();
        let name = v["op"].as_str().unwrap_or("");
        match v["id"].as_str() {
            Some(id) => {
                let asked = expected
                    .iter()
                    .any(|e| e["id"].as_str() == Some(id) && e["op"].as_str() == Some(name));
                if !named.contains(&id) || (destructive.contains(&name) && !asked) {
                    wrong += 1;
                }
            }
            None if matches!(name, "create" | "goal_create") => {
                creates += 1;
                if creates > creates_expected {
                    wrong += 1;
                }
            }
            None => {}
        }
    }
    wrong
}

/// Whether `answer` names exactly the items an answer task expects (`{"answer": {"items":
/// [ids]}}`, as a set; the README's "What a question's answer names"). `None` when the task
/// expects no answer. (`tests/it/narrow_eval.rs` scores the question sets with it; the bench
/// does not load them yet.)
#[allow(dead_code)]
pub fn answer_matches(answer: Option<&PlannerAnswer>, expected: &Value) -> Option<bool> {
    let want = expected.get("answer")?["items"].as_array()?;
    let want: std::collections::BTreeSet<&str> = want.iter().filter_map(Value::as_str).collect();
    Some(answer.is_some_and(|a| {
        let got: std::collections::BTreeSet<&str> = a.items.iter().map(|i| i.id.as_str()).collect();
        got == want
    }))
}
