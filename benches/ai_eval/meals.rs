//! Meal planning (spec 003) on the evaluation set `tests/data/eval/meals.json`: one slot per task,
//! planned through the library's pipeline (search, rerank on the real model, checks, fallback)
//! over a store holding only the task's candidates (and the recipes of its recent meals).
//!
//! Scoring (see `tests/data/eval/README.md`):
//! - a `pick` task succeeds when the selection is that recipe (a staged copy of it counts); a
//!   selection of any other recipe is a wrong action;
//! - a `no_fit` task succeeds when the slot has no selection, or the deterministic fallback picked
//!   (the selection carries the "model unavailable" warning); a recipe the model picked is a
//!   wrong action;
//! - invalid output reaching the app: a selection or alternative that is not one of the slot's
//!   candidates or breaks a hard rule (diet, excluded ingredients, meal type). Must be 0.
//!
//! The same tasks are then planned without a model (the deterministic fallback scoring), printed
//! on a second line for comparison.

use std::sync::Arc;
use std::time::Instant;

use coachcore::db::Store;
use coachcore::kernel::clock::FixedClock;
use coachcore::kernel::ids::IdGenerator;
use coachcore::llm::llama::LlamaEngine;
use coachcore::llm::metered::Metered;
use coachcore::llm::{CancelToken, LanguageModel};
use coachcore::meals::search::{candidate_query, exclusion_terms, violation};
use coachcore::meals::service::plan::{plan, PlanEnv, PlanSettings, FALLBACK_WARNING};
use coachcore::meals::service::{self as meals};
use coachcore::meals::{MealLog, MealPlanRequest, MealType, PickedBy, Recipe};
use serde_json::{json, Value};

use super::Score;

/// Tasks run by `--quick`.
const QUICK_TASKS: usize = 3;
/// Noon of 2026-11-24, the tasks' day (staging expiry only).
const NOW_MS: i64 = 1_795_521_600_000;

/// Runs the meal tasks on `engine`, then on the fallback alone; prints both scores.
pub fn run(engine: &Arc<LlamaEngine>, quick: bool) {
    let set: Value = serde_json::from_str(
        &std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/eval/meals.json"
        ))
        .expect("tests/data/eval/meals.json"),
    )
    .expect("the task set is JSON");
    let starter: Vec<Recipe> = serde_json::from_str(
        &std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/recipes/starter.json"
        ))
        .expect("tests/data/recipes/starter.json"),
    )
    .expect("the starter recipes parse");
    let tasks = set["tasks"].as_array().expect("tasks");
    let take = if quick { QUICK_TASKS } else { tasks.len() };
    let model: &dyn LanguageModel = &**engine;
    for (label, model) in [
        ("meals", Some(model)),
        ("meals (fallback scoring, no model)", None),
    ] {
        let mut score = Score::default();
        for task in tasks.iter().take(take) {
            run_task(task, &starter, model, &mut score);
        }
        score.print(label);
    }
}

fn run_task(
    task: &Value,
    starter: &[Recipe],
    model: Option<&dyn LanguageModel>,
    score: &mut Score,
) {
    let id = task["id"].as_str().unwrap_or("?");
    let recipe = |rid: &str| {
        starter
            .iter()
            .find(|r| r.id == rid)
            .unwrap_or_else(|| panic!("{id}: no starter recipe {rid}"))
            .clone()
    };
    let candidates: Vec<String> = serde_json::from_value(task["candidates"].clone()).expect("ids");
    let recent = task["recent"].as_array().cloned().unwrap_or_default();
    let mut stored: Vec<Recipe> = candidates.iter().map(|c| recipe(c)).collect();
    for m in &recent {
        let rid = m["recipeId"].as_str().expect("recent recipeId");
        if !candidates.iter().any(|c| c == rid) {
            stored.push(recipe(rid));
        }
    }
    let store = Store::open_in_memory().expect("in-memory store");
    let clock = FixedClock::new(NOW_MS);
    meals::import_recipes(&store, &clock, stored).expect("import");
    for m in &recent {
        let log: MealLog = serde_json::from_value(m.clone()).expect("a recent meal is a MealLog");
        meals::log_meal(&store, &clock, &log).expect("log a recent meal");
    }
    let meal = task["mealType"].as_str().expect("mealType");
    let request: MealPlanRequest = serde_json::from_value(json!({
        "days": [{"date": task["date"], "meals": {meal: task["slot"]}}],
        "preferences": task.get("preferences").cloned().unwrap_or(json!({})),
    }))
    .expect("the task is a request");
    let meal_type: MealType = serde_json::from_value(json!(meal)).expect("meal type");

    let metered = model.map(|m| Metered::new(m, "eval"));
    // No time limit per call: what is measured is the picking (latency is reported, not
    // enforced; on a busy machine a 30 s limit would only measure the fallback).
    let settings = PlanSettings {
        timeout_ms: None,
        ..PlanSettings::default()
    };
    let cancel = CancelToken::new();
    let env = PlanEnv {
        store: &store,
        clock: &clock,
        model: metered.as_ref().map(|m| m as &dyn LanguageModel),
        settings: &settings,
        cancel: &cancel,
    };
    let started = Instant::now();
    let result = plan(&env, &mut IdGenerator::seeded(7), &request, &mut |_, _| {});
    score
        .latencies_ms
        .push(started.elapsed().as_millis() as u64);
    if let Some(m) = &metered {
        let usage = m.usage();
        score.prompt_tokens += u64::from(usage.prompt_tokens);
        score.completion_tokens += u64::from(usage.completion_tokens);
    }
    score.tasks += 1;
    let result = match result {
        Ok(r) => r,
        Err(e) => {
            score.failures.push(format!("{id}: error {e}"));
            return;
        }
    };
    let slot = result.days[0]
        .meals
        .get(meal_type)
        .expect("the planned slot");
    // The recipe a selection stands for: a staged copy counts as the core recipe it copies.
    let origin = |rid: &str| -> Option<Recipe> {
        let r = meals::recipe(&store, rid).ok().flatten()?;
        match &r.origin_id {
            Some(o) => meals::recipe(&store, o).ok().flatten(),
            None => Some(r),
        }
    };
    let terms = exclusion_terms(&request.preferences.excluded_ingredients);
    let valid = |rid: &str| {
        origin(rid).is_some_and(|r| {
            candidates.contains(&r.id)
                && violation(&r, meal_type, &request.preferences, &terms).is_none()
        })
    };
    let Some(sel) = &slot.selection else {
        if task["expected"] == "no_fit" {
            score.success += 1;
        } else {
            score.failures.push(format!("{id}: no selection"));
        }
        return;
    };
    let bad = std::iter::once(sel.recipe_id.as_str())
        .chain(sel.alternatives.iter().map(|a| a.recipe_id.as_str()))
        .filter(|rid| !valid(rid))
        .count();
    score.invalid += bad;
    let picked = origin(&sel.recipe_id).map_or_else(|| sel.recipe_id.clone(), |r| r.id);
    let by = match sel.picked_by {
        PickedBy::Model => "model",
        PickedBy::Fallback => "fallback",
        PickedBy::Pinned => "pinned",
    };
    // Its place in the search order (the model saw a short list in fallback-score order).
    let asked = request.days[0].meals.get(meal_type).expect("the slot");
    let q = candidate_query(
        meal_type,
        &asked.tags,
        asked.note.as_deref(),
        &request.preferences,
        &[],
    );
    let order = store
        .read(|db| db.search_candidates(&q))
        .unwrap_or_default();
    let alias = order
        .iter()
        .position(|r| r.id == picked)
        .map_or("-".into(), |i| format!("search #{}", i + 1));
    match task["expected"]["pick"].as_str() {
        Some(want) if want == picked => score.success += 1,
        Some(want) => {
            score.wrong += 1;
            score.failures.push(format!(
                "{id}: {by} picked {picked} ({alias} of {}), expected {want}",
                order.len()
            ));
        }
        None if sel.picked_by == PickedBy::Fallback
            && sel.warnings.iter().any(|w| w == FALLBACK_WARNING) =>
        {
            score.success += 1
        }
        None => {
            score.wrong += 1;
            score.failures.push(format!(
                "{id}: {by} picked {picked} ({alias}) where nothing fits"
            ));
        }
    }
}
