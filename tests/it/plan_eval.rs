//! The today-plan evaluation set (`tests/data/eval/plan.json`) scored on the deterministic path:
//! `workouts().todayPlan` with no model, so each slot takes its first candidate (the plan's
//! source is `deterministic`). Constraints are code's job (the model only chooses among
//! exercises that already meet them), so this path must meet the notes by itself; the `ai_eval`
//! bench scores the same set with the real model, with the same scoring (`plan_score.rs`).
//! `PLAN_EVAL_SHOW=1 cargo test --test it plan_eval -- --nocapture` prints every plan.
//!
//! The same notes as a workout's instructions (`generateWorkout`, no model, a full gym, 60
//! minutes) are scored on what applies to a workout: its exercises' patterns, those to avoid,
//! the exercises asked for or named as the focus, the muscle groups; the analyzer plan passes the
//! domain checks a model's plan must pass.

use coachcore::llm::CancelToken;
use coachcore::plan::{PlanGenerateSettings, FULL_GYM};
use coachcore::workout::catalog::builtin;
use coachcore::workout::check::analyzer_issues;
use coachcore::workout::service::{pre_analysis, NoEvents, WorkoutSettings};
use coachcore::workout::{Goal, WeightUnit, WorkoutMeta, WorkoutRequest};
use serde_json::Value;

#[path = "../../benches/ai_eval/plan_score.rs"]
mod plan_score;

use plan_score::{coach, exercise_violations, request, strings, tasks, violations};

/// The tasks written with the first notes reader. The later ones were written in other people's
/// phrasing and scored before the reader changed for them; those whose id starts with `held-`
/// were written after that change and scored before any change for them.
const FIRST_TASKS: usize = 14;

/// (tasks met, wrong actions, invalid plans, failure lines) of `tasks`.
fn score(tasks: &[Value]) -> (usize, usize, usize, Vec<String>) {
    let (mut met, mut wrong, mut invalid) = (0, 0, 0);
    let mut failures = Vec::new();
    for t in tasks {
        let c = coach(&strings(&t["history"]));
        let id = t["id"].as_str().unwrap_or("?");
        match c.workouts().today_plan_with(
            &request(t),
            None,
            &CancelToken::new(),
            &PlanGenerateSettings::default(),
        ) {
            Ok(p) => {
                if std::env::var_os("PLAN_EVAL_SHOW").is_some() {
                    let working: Vec<String> = p
                        .plan
                        .blocks
                        .iter()
                        .filter(|b| b.title == "Main Lifts" || b.title == "Accessories")
                        .flat_map(|b| b.exercises.iter())
                        .map(|e| format!("{} {}", e.name, e.prescription))
                        .collect();
                    println!(
                        "{id} | {} | {} | {:?} | {}",
                        t["notes"],
                        p.plan.focus,
                        p.plan.energy,
                        working.join(", ")
                    );
                }
                let (v, bad) = violations(t, &p.plan);
                invalid += usize::from(bad);
                wrong += v.len();
                if v.is_empty() {
                    met += 1;
                } else {
                    failures.push(format!("{id}: {}", v.join("; ")));
                }
            }
            Err(e) => failures.push(format!("{id}: error {e}")),
        }
    }
    (met, wrong, invalid, failures)
}

#[test]
fn the_deterministic_plan_meets_the_notes_of_the_evaluation_set() {
    let all = tasks();
    let (first, rest) = all.split_at(FIRST_TASKS);
    let (held_out, later): (Vec<Value>, Vec<Value>) = rest
        .iter()
        .cloned()
        .partition(|t| t["id"].as_str().is_some_and(|id| id.starts_with("held-")));
    let mut met_all = 0;
    let mut lines = Vec::new();
    let mut figures = Vec::new();
    for (name, set) in [
        ("first", first),
        ("later", later.as_slice()),
        ("held out", held_out.as_slice()),
    ] {
        let (met, wrong, invalid, failures) = score(set);
        println!(
            "deterministic plans, {name} tasks: {met} of {} met, {wrong} wrong actions",
            set.len()
        );
        assert_eq!(invalid, 0, "exercises not in the catalog");
        met_all += met;
        lines.extend(failures);
        figures.push((set.len(), met, wrong));
    }
    println!("all: {met_all} of {} met", all.len());
    assert!(met_all * 10 >= all.len() * 9, "at least 90% of all tasks");
    for f in &lines {
        println!("  {f}");
    }
    assert!(figures[1].0 >= 40, "at least 40 later tasks");
    // Floors: the figures measured when they were set; raise them, never lower them. Before
    // the one reader of notes and instructions, the first notes reader met 14 of 14, 22 of 66
    // (125 wrong actions) and 11 of 24 (25 wrong actions); the new reader met 18 of the 24
    // held-out tasks (15 wrong actions) before the classes they found were fixed.
    let floors = [(14, 0), (66, 0), (24, 0)];
    for ((_, met, wrong), (min_met, max_wrong)) in figures.iter().zip(floors) {
        assert!(*met >= min_met && *wrong <= max_wrong, "{lines:#?}");
    }
}

#[test]
fn the_notes_as_a_workouts_instructions_shape_the_deterministic_workout() {
    let all = tasks();
    let (mut met, mut wrong) = (0, 0);
    let mut failures = Vec::new();
    for t in &all {
        let id = t["id"].as_str().unwrap_or("?");
        let c = coach(&[]);
        let request = WorkoutRequest {
            meta: WorkoutMeta {
                date: "2025-08-18".into(),
                location: "gym".into(),
                units: WeightUnit::Lbs,
                duration_minutes: 60,
                goal: Goal::General,
            },
            instructions: t["notes"].as_str().unwrap_or("").into(),
            bans: Vec::new(),
            equipment: FULL_GYM.iter().map(|k| k.to_string()).collect(),
            recent_cardio: Vec::new(),
            upcoming_cardio: String::new(),
            recovery: None,
            history_text: None,
            days_per_week: None,
        };
        let result = c
            .workouts()
            .generate_with(
                &request,
                None,
                &NoEvents,
                &CancelToken::new(),
                &WorkoutSettings::default(),
            )
            .unwrap_or_else(|e| panic!("{id}: {e}"));
        let store = coachcore::db::Store::open_in_memory().unwrap();
        let (pre, _) = pre_analysis(&store, &request).unwrap();
        let issues = analyzer_issues(&result.analyzer, &request, &pre, &pre.inventory);
        assert!(issues.is_empty(), "{id}: {issues:?}");
        let exercises: Vec<_> = result
            .analyzer
            .exercise_plan
            .iter()
            .map(|p| builtin().iter().find(|e| e.id == p.exercise).unwrap())
            .collect();
        // A workout's equipment is the request's; nothing was trained yesterday.
        let mut applies = t.clone();
        for key in ["equipment", "history"] {
            applies.as_object_mut().unwrap().remove(key);
        }
        let v = exercise_violations(&applies, &exercises);
        wrong += v.len();
        if v.is_empty() {
            met += 1;
        } else {
            failures.push(format!("{id}: {}", v.join("; ")));
        }
    }
    println!(
        "deterministic workouts: {met} of {} met, {wrong} wrong actions",
        all.len()
    );
    for f in &failures {
        println!("  {f}");
    }
    // The floor: the figure measured when it was set; raise it, never lower it. (Before the
    // one reader, when instructions were read only for `no <id>` lines and every workout was
    // full body: 32 of 104 met, 198 wrong actions.)
    assert!(met >= 104 && wrong == 0, "{failures:#?}");
}
