//! Scoring of the today-plan task set (`tests/data/eval/README.md`, "`plan.json`"): shared by the
//! `ai_eval` bench (the real model) and `tests/it/plan_eval.rs` (the deterministic path, each
//! slot's first candidate), so both count success and wrong actions the same way.

use std::sync::Arc;

use coachcore::db::Store;
use coachcore::kernel::clock::FixedClock;
use coachcore::plan::FULL_GYM;
use coachcore::suggest::model::{ExerciseLog, PerformedSet, SessionLog, SetType};
use coachcore::workout::catalog::{builtin, capabilities_of, WorkoutExercise};
use coachcore::{Coach, TodayPlan, TodayPlanRequest};
use serde_json::Value;

/// 2025-08-18T12:00:00Z, the plans' date.
pub const NOW_MS: i64 = 1_755_518_400_000;
const DAY_MS: i64 = 86_400_000;

/// Every task of `tests/data/eval/plan.json`.
pub fn tasks() -> Vec<Value> {
    let all: Value = serde_json::from_str(include_str!("../../tests/data/eval/plan.json"))
        .expect("tests/data/eval/plan.json");
    all["tasks"].as_array().cloned().unwrap_or_default()
}

/// The strings of a JSON array (none for anything else).
pub fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|x| x.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

/// The catalog muscles of a muscle group of `muscles`: a group is trained when a working
/// exercise's main (first) muscle is one of them.
fn group_muscles(group: &str) -> &'static [&'static str] {
    match group {
        "chest" => &["chest"],
        "back" => &["back", "lats"],
        "shoulders" => &["shoulders", "traps"],
        "arms" => &["biceps", "triceps", "forearms"],
        "biceps" => &["biceps"],
        "triceps" => &["triceps"],
        "glutes" => &["glutes"],
        "quads" => &["quads"],
        "hamstrings" => &["hamstrings"],
        "calves" => &["calves"],
        "core" => &["abs"],
        _ => &[],
    }
}

/// The request of a task's notes, for the plans' date.
pub fn request(task: &Value) -> TodayPlanRequest {
    TodayPlanRequest {
        date: "2025-08-18".into(),
        notes: task["notes"].as_str().unwrap_or("").into(),
        schema_version: None,
        timezone: None,
        seed: Some(1),
        units: None,
        days_per_week: None,
    }
}

/// The task's constraints the plan breaks, and whether a working exercise is not in the catalog.
pub fn violations(task: &Value, plan: &TodayPlan) -> (Vec<String>, bool) {
    let mut out = Vec::new();
    if Some(u64::from(plan.duration_minutes)) != task["minutes"].as_u64() {
        out.push(format!("minutes {}", plan.duration_minutes));
    }
    if !plan.focus.starts_with(task["focus"].as_str().unwrap_or("")) {
        out.push(format!("focus {}", plan.focus));
    }
    let energy = serde_json::to_value(plan.energy).unwrap_or_default();
    if task["energy"] != energy {
        out.push(format!("energy {energy}"));
    }
    let sum: u32 = plan.blocks.iter().map(|b| b.duration_minutes).sum();
    if sum != plan.duration_minutes {
        out.push(format!("blocks add up to {sum}"));
    }
    let working: Vec<&str> = plan
        .blocks
        .iter()
        .filter(|b| b.title == "Main Lifts" || b.title == "Accessories")
        .flat_map(|b| b.exercises.iter().map(|e| e.name.as_str()))
        .collect();
    if working.len() < 2 {
        out.push(format!("{} working exercises", working.len()));
    }
    let mut invalid = false;
    let mut exercises = Vec::new();
    for name in &working {
        match builtin().iter().find(|e| e.name == *name) {
            Some(e) => exercises.push(e),
            None => {
                invalid = true;
                out.push(format!("{name} is not in the catalog"));
            }
        }
    }
    out.extend(exercise_violations(task, &exercises));
    (out, invalid)
}

/// The constraints on the working exercises (`exercises`, in order) that they break:
/// `equipment`, `patterns`, `avoid`, `avoidIds`, `history`, `want`, `wantEach`, `lead`,
/// `muscles`; a key absent is free.
pub fn exercise_violations(task: &Value, exercises: &[&WorkoutExercise]) -> Vec<String> {
    let mut out = Vec::new();
    let allowed_caps: Option<Vec<String>> = match &task["equipment"] {
        Value::String(s) if s == "gym" => Some(
            FULL_GYM
                .iter()
                .flat_map(|k| capabilities_of(k))
                .map(|c| c.to_string())
                .collect(),
        ),
        Value::Array(_) => Some(strings(&task["equipment"])),
        _ => None,
    };
    let patterns = strings(&task["patterns"]);
    let avoid = strings(&task["avoid"]);
    let avoid_ids = strings(&task["avoidIds"]);
    let history = strings(&task["history"]);
    let ids: Vec<&str> = exercises.iter().map(|e| e.id.as_str()).collect();
    let main_muscles: Vec<&str> = exercises
        .iter()
        .filter_map(|e| e.muscles.first().map(String::as_str))
        .collect();
    for e in exercises {
        let caps = allowed_caps.as_deref().unwrap_or_default();
        if let Some(r) = e
            .requires
            .iter()
            .find(|r| allowed_caps.is_some() && !caps.contains(r))
        {
            out.push(format!("{} needs {r}", e.id));
        }
        if !patterns.is_empty() && !patterns.contains(&e.pattern) {
            out.push(format!("{} ({}) off focus", e.id, e.pattern));
        }
        if avoid.contains(&e.pattern) || avoid_ids.contains(&e.id) {
            out.push(format!("{} should be avoided", e.id));
        }
        if history.contains(&e.id) {
            out.push(format!("{} trained yesterday", e.id));
        }
    }
    let mut wanted: Vec<Vec<String>> = task["wantEach"]
        .as_array()
        .map(|a| a.iter().map(strings).collect())
        .unwrap_or_default();
    wanted.push(strings(&task["want"]));
    for want in wanted.iter().filter(|w| !w.is_empty()) {
        if !want.iter().any(|w| ids.contains(&w.as_str())) {
            out.push(format!("none of {want:?}"));
        }
    }
    let lead = strings(&task["lead"]);
    if !lead.is_empty()
        && !ids
            .first()
            .is_some_and(|first| lead.iter().any(|l| l == first))
    {
        out.push(format!("{:?} first, not one of {lead:?}", ids.first()));
    }
    for group in strings(&task["muscles"]) {
        let m = group_muscles(&group);
        if m.is_empty() || !main_muscles.iter().any(|x| m.contains(x)) {
            out.push(format!("{group} not trained"));
        }
    }
    out
}

/// A coach over a fresh store at noon of the plans' date, with yesterday's `history` logged.
pub fn coach(history: &[String]) -> Coach {
    let c = Coach::with_store(
        Store::open_in_memory().expect("in-memory store"),
        Arc::new(FixedClock::new(NOW_MS)),
    );
    if !history.is_empty() {
        for id in history {
            let e = builtin()
                .iter()
                .find(|e| &e.id == id)
                .expect("a catalog id");
            c.workouts()
                .save_catalog_exercise(e.to_catalog())
                .expect("exercise saved");
        }
        c.workouts()
            .log_session(SessionLog {
                id: "yesterday".into(),
                plan_id: None,
                performed_at_ms: NOW_MS - DAY_MS,
                exercises: history
                    .iter()
                    .map(|id| ExerciseLog {
                        id: format!("yesterday:{id}"),
                        catalog_id: id.clone(),
                        prescription_id: None,
                        sets: (0..3)
                            .map(|i| PerformedSet {
                                index: i,
                                set_type: SetType::Regular,
                                weight: 100.0,
                                reps: 8,
                                rest_seconds: Some(120),
                                completed: true,
                            })
                            .collect(),
                    })
                    .collect(),
            })
            .expect("history logged");
    }
    c
}
