//! One slot of the meal evaluation set (`tests/data/eval/meals.json`) planned and scored, with a
//! model or without one: shared by the bench on the real model (`ai_eval/meals.rs`) and by
//! `tests/it/meals_eval.rs`, which scores the deterministic path and keeps its figure from
//! slipping. Scoring: `tests/data/eval/README.md`.

use std::time::Instant;

use coachcore::db::Store;
use coachcore::kernel::clock::FixedClock;
use coachcore::kernel::ids::IdGenerator;
use coachcore::llm::metered::Metered;
use coachcore::llm::{CancelToken, LanguageModel};
use coachcore::meals::search::{candidate_query, exclusion_terms, violation};
use coachcore::meals::service::plan::{plan, PlanEnv, PlanSettings, FALLBACK_WARNING};
use coachcore::meals::service::{self as meals};
use coachcore::meals::{MealLog, MealPlanRequest, MealType, PickedBy, Recipe};
use serde_json::{json, Value};

/// Noon of 2026-11-24, the tasks' day (staging expiry only).
const NOW_MS: i64 = 1_795_521_600_000;

/// The tasks of `tests/data/eval/meals.json`.
pub fn tasks() -> Vec<Value> {
    let set: Value = serde_json::from_str(
        &std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/eval/meals.json"
        ))
        .expect("tests/data/eval/meals.json"),
    )
    .expect("the task set is JSON");
    set["tasks"].as_array().expect("tasks").clone()
}

/// The recipes the tasks' candidates name (`tests/data/recipes/starter.json`).
pub fn starter() -> Vec<Recipe> {
    serde_json::from_str(
        &std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/recipes/starter.json"
        ))
        .expect("tests/data/recipes/starter.json"),
    )
    .expect("the starter recipes parse")
}

/// How one task went.
#[derive(Debug, Default)]
pub struct Outcome {
    /// The expected pick, or no fit as expected.
    pub success: bool,
    /// Another recipe than the expected one, or a model pick where nothing fits.
    pub wrong: bool,
    /// A pick where nothing fits made by the deterministic fallback with its "model
    /// unavailable" warning: a wrong pick, which the set's first scoring counted as a success
    /// (the model did not endorse it).
    pub fallback_where_nothing_fits: bool,
    /// Selections and alternatives that are not one of the task's candidates or break a hard
    /// rule (must be 0).
    pub invalid: usize,
    /// Why it failed, in one line.
    pub failure: Option<String>,
    /// Wall time of the plan.
    pub latency_ms: u64,
    /// Model calls made.
    pub calls: u32,
    /// Prompt tokens sent.
    pub prompt_tokens: u32,
    /// Tokens generated.
    pub completion_tokens: u32,
}

/// Plans `task`'s slot (with `model`, or the fallback when `None`) and scores it.
pub fn run_task(task: &Value, starter: &[Recipe], model: Option<&dyn LanguageModel>) -> Outcome {
    let mut out = Outcome::default();
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
    out.latency_ms = started.elapsed().as_millis() as u64;
    if let Some(m) = &metered {
        let usage = m.usage();
        out.calls = usage.calls;
        out.prompt_tokens = usage.prompt_tokens;
        out.completion_tokens = usage.completion_tokens;
    }
    let result = match result {
        Ok(r) => r,
        Err(e) => {
            out.failure = Some(format!("{id}: error {e}"));
            return out;
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
            out.success = true;
        } else {
            out.failure = Some(format!("{id}: no selection"));
        }
        return out;
    };
    out.invalid = std::iter::once(sel.recipe_id.as_str())
        .chain(sel.alternatives.iter().map(|a| a.recipe_id.as_str()))
        .filter(|rid| !valid(rid))
        .count();
    let picked = origin(&sel.recipe_id).map_or_else(|| sel.recipe_id.clone(), |r| r.id);
    let by = match sel.picked_by {
        PickedBy::Model => "model",
        PickedBy::Fallback => "fallback",
        PickedBy::Pinned => "pinned",
        PickedBy::Repeat => "repeat",
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
        Some(want) if want == picked => out.success = true,
        Some(want) => {
            out.wrong = true;
            out.failure = Some(format!(
                "{id}: {by} picked {picked} ({alias} of {}), expected {want}",
                order.len()
            ));
        }
        None => {
            out.wrong = true;
            out.fallback_where_nothing_fits = sel.picked_by == PickedBy::Fallback
                && sel.warnings.iter().any(|w| w == FALLBACK_WARNING);
            out.failure = Some(format!(
                "{id}: {by} picked {picked} ({alias}) where nothing fits"
            ));
        }
    }
    out
}
