//! The meal evaluation set (`tests/data/eval/meals.json`) scored on the deterministic path: each
//! slot planned with no model (search, the slot-note reader, the fallback scoring), with the
//! bench's scoring (`benches/ai_eval/meals_score.rs`). The `ai_eval` bench scores the same set
//! with the real model. `MEALS_EVAL_SHOW=1 cargo test --test it meals_eval -- --nocapture`
//! prints every miss.

#[path = "../../benches/ai_eval/meals_score.rs"]
mod meals_score;

use coachcore::llm::scripted::ScriptedModel;
use coachcore::llm::LanguageModel;
use meals_score::{run_task, starter, tasks};

/// Tasks met by the deterministic path, at least.
const FLOOR: usize = 67;

#[test]
fn the_deterministic_path_meets_the_meal_evaluation_set() {
    let (tasks, starter) = (tasks(), starter());
    let (mut met, mut wrong, mut invalid, mut lenient) = (0, 0, 0, 0);
    let mut failures = Vec::new();
    for t in &tasks {
        let o = run_task(t, &starter, None);
        met += usize::from(o.success);
        wrong += usize::from(o.wrong);
        invalid += o.invalid;
        lenient += usize::from(o.fallback_where_nothing_fits);
        failures.extend(o.failure);
    }
    let report = format!(
        "{met} of {} met, {wrong} wrong picks ({lenient} of them fallback picks where nothing \
         fits), {invalid} outside the candidates\n  {}",
        tasks.len(),
        failures.join("\n  ")
    );
    if std::env::var_os("MEALS_EVAL_SHOW").is_some() {
        println!("{report}");
    }
    assert!(tasks.len() >= 40, "{}", tasks.len());
    assert_eq!(invalid, 0, "{report}");
    assert!(met >= FLOOR, "{report}");
}

/// A model that always names the candidate shown as `alias`.
fn always(alias: &str) -> std::sync::Arc<ScriptedModel> {
    let reply = format!(
        r#"{{"picks": [{{"recipeId": "{alias}", "confidence": 0.9, "reason": "fits"}}], "warnings": []}}"#
    );
    ScriptedModel::texts((0..4).map(|_| reply.clone()))
}

#[test]
fn the_model_is_asked_only_where_it_can_add_something() {
    let (tasks, starter) = (tasks(), starter());
    // A model that always names the first candidate it is shown (what SmolLM2-135M did on this
    // set) scores what code alone scores; one that always names the second can change only the
    // slots it is asked about, and never picks outside the candidates.
    let (mut asked, mut first_met, mut second_met, mut invalid) = (0, 0, 0, 0);
    for t in &tasks {
        let m = always("r1");
        let o = run_task(t, &starter, Some(&*m as &dyn LanguageModel));
        first_met += usize::from(o.success);
        asked += usize::from(!m.requests().is_empty());
        invalid += o.invalid;
        let m = always("r2");
        let o = run_task(t, &starter, Some(&*m as &dyn LanguageModel));
        second_met += usize::from(o.success);
        invalid += o.invalid;
    }
    if std::env::var_os("MEALS_EVAL_SHOW").is_some() {
        println!(
            "model asked in {asked} of {} slots; always r1: {first_met} met; always r2: \
             {second_met} met",
            tasks.len()
        );
    }
    assert_eq!(invalid, 0);
    assert_eq!(first_met, tasks.len());
    assert!(
        asked * 5 <= tasks.len(),
        "asked in {asked} of {}",
        tasks.len()
    );
    assert!(
        second_met + asked >= tasks.len(),
        "{second_met} met, asked {asked}"
    );
}
