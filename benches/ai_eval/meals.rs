//! Meal planning (spec 003) on the evaluation set `tests/data/eval/meals.json`: one slot per task,
//! planned through the library's pipeline (search, the note reader, the model where it is asked,
//! checks, fallback) over a store holding only the task's candidates (and the recipes of its
//! recent meals). Scoring (`meals_score.rs`, `tests/data/eval/README.md`):
//! - a `pick` task succeeds when the selection is that recipe (a staged copy of it counts); a
//!   selection of any other recipe is a wrong pick;
//! - a `no_fit` task succeeds when the slot has no selection; any pick is a wrong pick (the line
//!   also counts those the fallback made with its "model unavailable" warning, which the set's
//!   first scoring counted as successes);
//! - picks outside the candidates: a selection or alternative that is not one of the slot's
//!   candidates or breaks a hard rule (diet, excluded ingredients, meal type). Must be 0.
//!
//! The same tasks are then planned without a model (the deterministic path), printed on a second
//! line for comparison.

use std::sync::Arc;

use coachcore::llm::llama::LlamaEngine;
use coachcore::llm::LanguageModel;

use super::meals_score::{run_task, starter, tasks};
use super::Score;

/// Tasks run by `--quick`.
const QUICK_TASKS: usize = 3;

/// Runs the meal tasks on `engine`, then on the fallback alone; prints both scores.
pub fn run(engine: &Arc<LlamaEngine>, quick: bool) {
    let tasks = tasks();
    let starter = starter();
    let take = if quick { QUICK_TASKS } else { tasks.len() };
    let model: &dyn LanguageModel = &**engine;
    for (label, model) in [
        ("meals", Some(model)),
        ("meals (deterministic path, no model)", None),
    ] {
        let mut score = Score::default();
        let (mut calls, mut asked, mut lenient) = (0u32, 0usize, 0usize);
        for task in tasks.iter().take(take) {
            let o = run_task(task, &starter, model);
            score.tasks += 1;
            score.success += usize::from(o.success);
            score.wrong += usize::from(o.wrong);
            score.invalid += o.invalid;
            score.latencies_ms.push(o.latency_ms);
            score.prompt_tokens += u64::from(o.prompt_tokens);
            score.completion_tokens += u64::from(o.completion_tokens);
            score.failures.extend(o.failure);
            calls += o.calls;
            asked += usize::from(o.calls > 0);
            lenient += usize::from(o.fallback_where_nothing_fits);
        }
        println!(
            "{label}: model asked in {asked} of {} slots ({calls} calls); {lenient} fallback \
             picks where nothing fits (successes under the set's first scoring)",
            score.tasks
        );
        score.print(label);
    }
}
