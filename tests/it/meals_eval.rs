//! The meal evaluation set (`tests/data/eval/meals.json`) scored on the deterministic path: each
//! slot planned with no model (search, the slot-note reader, the fallback scoring), with the
//! bench's scoring (`benches/ai_eval/meals_score.rs`). The `ai_eval` bench scores the same set
//! with the real model. `MEALS_EVAL_SHOW=1 cargo test --test it meals_eval -- --nocapture`
//! prints every miss.

#[path = "../../benches/ai_eval/meals_score.rs"]
mod meals_score;

use meals_score::{run_task, starter, tasks};

/// Tasks met by the deterministic path, at least.
const FLOOR: usize = 24;

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
