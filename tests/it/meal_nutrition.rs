//! Servings, nutrition, daily targets and meal prep in meal plans (issue 24): selections carry
//! their recipe scaled to the slot's servings and the slot's nutrition, days and plans their sums
//! per person; daily targets keep each day of a week near its target; a meal-prep slot is cooked
//! once and its repeats eat it with no search and no model; a day's meals come breakfast to
//! dessert in the JSON of the CLI and the C API.

use std::ffi::{CStr, CString};

use coachcore::db::Store;
use coachcore::kernel::clock::FixedClock;
use coachcore::kernel::error::Error;
use coachcore::llm::scripted::{ScriptedModel, ScriptedReply};
use coachcore::llm::{LanguageModel, LlmError};
use coachcore::meals::service::plan::searches_on_this_thread;
use coachcore::meals::service::{self as meals};
use coachcore::meals::*;
use serde_json::{json, Value};

use crate::common::run_coach;
use crate::meals::{plan_on, starter, starter_json};

const T0: i64 = 1_795_000_000_000;

/// A store holding `recipes` as the core registry.
struct Env {
    _dir: tempfile::TempDir,
    store: Store,
    clock: FixedClock,
    /// The id seed of the next run (each run stages copies under new ids).
    seed: std::cell::Cell<u64>,
}

impl Env {
    fn with(recipes: Vec<Recipe>) -> Env {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path().join("meals.db")).unwrap();
        let clock = FixedClock::new(T0);
        meals::import_recipes(&store, &clock, recipes).unwrap();
        Env {
            _dir: dir,
            store,
            clock,
            seed: std::cell::Cell::new(1),
        }
    }

    fn try_run(
        &self,
        model: Option<&dyn LanguageModel>,
        request: &MealPlanRequest,
    ) -> coachcore::kernel::error::Result<MealPlanResult> {
        let seed = self.seed.get();
        self.seed.set(seed + 1_000);
        plan_on(&self.store, &self.clock, model, request, seed)
    }

    fn run(&self, model: Option<&dyn LanguageModel>, request: &MealPlanRequest) -> MealPlanResult {
        self.try_run(model, request).unwrap()
    }

    /// The recipe a selection stands for (a staged copy's origin).
    fn origin(&self, sel: &Selection) -> Recipe {
        let r = meals::recipe(&self.store, &sel.recipe_id).unwrap().unwrap();
        match &r.origin_id {
            Some(o) => meals::recipe(&self.store, o).unwrap().unwrap(),
            None => r,
        }
    }
}

/// The selection of `day`'s meal `t` (which must have one).
fn sel(day: &PlannedDay, t: MealType) -> &Selection {
    day.meals.get(t).unwrap().selection.as_ref().unwrap()
}

fn request(v: Value) -> MealPlanRequest {
    serde_json::from_value(v).unwrap()
}

fn ingredient(name: &str, q: Option<f64>, unit: Option<&str>, prep: Option<&str>) -> Ingredient {
    Ingredient {
        name: name.into(),
        quantity: q,
        unit: unit.map(str::to_string),
        preparation: prep.map(str::to_string),
    }
}

fn nutrition(kcal: f64, protein_g: f64) -> Nutrition {
    Nutrition {
        kcal,
        protein_g,
        carbohydrate_g: kcal / 8.0,
        fat_g: kcal / 30.0,
        fibre_g: 4.0,
    }
}

/// A small recipe for `meal`, serving 4, with `kcal` per serving (`None`: no nutrition).
fn recipe(id: &str, meal: MealType, kcal: Option<f64>) -> Recipe {
    Recipe {
        id: id.into(),
        source: RecipeSource::Core,
        title: format!("Dish {id}"),
        description: String::new(),
        meal_types: vec![meal],
        tags: vec![],
        ingredients: vec![
            ingredient("brown rice", Some(300.0), Some("g"), None),
            ingredient("olive oil", Some(2.0), Some("tbsp"), None),
            ingredient("garlic", Some(3.0), Some("cloves"), Some("crushed")),
            ingredient("lemons", Some(1.0), None, Some("juiced")),
            ingredient("salt", None, None, None),
        ],
        prep_minutes: 10,
        cook_minutes: 20,
        servings: 4,
        diets: vec![],
        steps: vec!["Cook.".into()],
        nutrition: kcal.map(|k| nutrition(k, k / 20.0)),
        origin_id: None,
        expires_ms: None,
    }
}

// ---------------------------------------------------------------------------------------------
// Servings and nutrition

#[test]
fn selections_carry_the_recipe_scaled_and_days_their_sums_per_person() {
    let env = Env::with(vec![
        recipe("bowl", MealType::Lunch, Some(620.0)),
        recipe("oats", MealType::Breakfast, Some(410.0)),
        recipe("mystery", MealType::Dinner, None),
        recipe("mystery-2", MealType::Dinner, None),
    ]);
    let req = request(json!({
        "days": [
            {"date": "2026-11-23", "meals": {
                "lunch": {"servings": 3},
                "breakfast": {"servings": 2},
                "dinner": {"servings": 2},
            }},
            {"date": "2026-11-24", "meals": {"dinner": {"servings": 1}}},
        ],
        "preferences": {"dailyKcal": 2000, "dailyProteinG": 90},
    }));
    let result = env.run(None, &req);
    assert_eq!(result.slot_failures_count, 0);
    let day = &result.days[0];
    let lunch = sel(day, MealType::Lunch);
    // 4 servings -> 3: rice 225 g, oil 1.5 tbsp, garlic 2.25 -> 2.5 cloves (halves), one lemon
    // 0.75 -> 1; to taste stays; preparations are kept.
    let scaled: Vec<(Option<f64>, Option<&str>, Option<&str>)> = lunch
        .ingredients
        .iter()
        .map(|i| (i.quantity, i.unit.as_deref(), i.preparation.as_deref()))
        .collect();
    assert_eq!(
        scaled,
        [
            (Some(225.0), Some("g"), None),
            (Some(1.5), Some("tbsp"), None),
            (Some(2.5), Some("cloves"), Some("crushed")),
            (Some(1.0), None, Some("juiced")),
            (None, None, None),
        ]
    );
    let n = lunch.nutrition.unwrap();
    assert_eq!(n.per_serving.kcal, 620.0);
    assert_eq!((n.total.kcal, n.total.protein_g), (1860.0, 93.0));
    // The dinner's recipe has no nutrition: ingredients still scaled, no nutrition.
    let dinner = sel(day, MealType::Dinner);
    assert_eq!(dinner.ingredients[0].quantity, Some(150.0));
    assert!(dinner.nutrition.is_none());
    // The day: one serving of breakfast and lunch; the dinner named as left out.
    let dn = day.nutrition.as_ref().unwrap();
    assert_eq!(dn.per_person.kcal, 1030.0);
    assert_eq!(dn.per_person.protein_g, 51.5);
    assert_eq!(dn.meals_without_nutrition, [MealType::Dinner]);
    let gap = dn.vs_targets.unwrap().kcal.unwrap();
    assert_eq!(
        (gap.target, gap.difference, gap.percent),
        (2000.0, -970.0, -48.5)
    );
    assert_eq!(dn.vs_targets.unwrap().protein_g.unwrap().difference, -38.5);
    // A day with no nutrition at all has none; the plan counts the days that have it.
    assert!(result.days[1].nutrition.is_none());
    let pn = result.nutrition.as_ref().unwrap();
    assert_eq!((pn.days_counted, pn.meals_without_nutrition), (1, 2));
    assert_eq!(pn.daily_average.kcal, 1030.0);
    assert_eq!(pn.vs_targets.unwrap().kcal.unwrap().percent, -48.5);

    // The JSON names the new fields in camelCase and reads back (an app hands it to confirm).
    let text = serde_json::to_string(&result).unwrap();
    for key in [
        "\"perServing\"",
        "\"mealsWithoutNutrition\"",
        "\"vsTargets\"",
        "\"dailyAverage\"",
    ] {
        assert!(text.contains(key), "{key}");
    }
    let back: MealPlanResult = serde_json::from_str(&text).unwrap();
    assert_eq!(back, result);
    // A result stored before these fields existed still reads.
    let mut old: Value = serde_json::from_str(&text).unwrap();
    old.as_object_mut().unwrap().remove("nutrition");
    for d in old["days"].as_array_mut().unwrap() {
        d.as_object_mut().unwrap().remove("nutrition");
        for (_, slot) in d["meals"].as_object_mut().unwrap() {
            let sel = slot["selection"].as_object_mut().unwrap();
            sel.remove("ingredients");
            sel.remove("nutrition");
        }
    }
    let old: MealPlanResult = serde_json::from_value(old).unwrap();
    assert!(old.nutrition.is_none() && sel(&old.days[0], MealType::Lunch).ingredients.is_empty());
}

#[test]
fn daily_targets_are_bounded() {
    let env = Env::with(vec![recipe("oats", MealType::Breakfast, Some(400.0))]);
    for (prefs, field) in [
        (json!({"dailyKcal": 499}), "preferences.dailyKcal"),
        (json!({"dailyKcal": 10_001}), "preferences.dailyKcal"),
        (json!({"dailyProteinG": 9}), "preferences.dailyProteinG"),
        (json!({"dailyProteinG": 501}), "preferences.dailyProteinG"),
    ] {
        let req = request(json!({
            "days": [{"date": "2026-11-23", "meals": {"breakfast": {"servings": 1}}}],
            "preferences": prefs,
        }));
        match env.try_run(None, &req) {
            Err(Error::InvalidArgument(m)) => assert!(m.starts_with(field), "{m}"),
            other => panic!("{prefs}: {other:?}"),
        }
    }
    let ok = request(json!({
        "days": [{"date": "2026-11-23", "meals": {"breakfast": {"servings": 1}}}],
        "preferences": {"dailyKcal": 500, "dailyProteinG": 500},
    }));
    assert!(env.try_run(None, &ok).is_ok());
}

// ---------------------------------------------------------------------------------------------
// Daily targets

/// `recipes` with a nutrition per serving from a deterministic rule on the id: 200 to 1,000
/// kcal in steps of 100, protein 5% of the kcal plus 0 to 14 g. A spread wide enough that a plan
/// that ignores the target misses it.
pub fn with_rule_nutrition(recipes: Vec<Recipe>) -> Vec<Recipe> {
    recipes
        .into_iter()
        .map(|mut r| {
            let h = r.id.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
                (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
            });
            let kcal = 200.0 + 100.0 * (h % 9) as f64;
            r.nutrition = Some(nutrition(kcal, kcal / 20.0 + ((h >> 8) % 15) as f64));
            r
        })
        .collect()
}

/// A week (7 days x breakfast, lunch, dinner, 1 serving) with `prefs`.
fn week(prefs: Value) -> MealPlanRequest {
    let days: Vec<Value> = (23..30)
        .map(|d| {
            json!({"date": format!("2026-11-{d}"), "meals": {
                "breakfast": {"servings": 1},
                "lunch": {"servings": 1},
                "dinner": {"servings": 1},
            }})
        })
        .collect();
    request(json!({"days": days, "preferences": prefs}))
}

/// Each day's kcal difference from 2,000 in percent, planned by the fallback on `recipes`
/// (which must all carry nutrition), with the 2,000 kcal target or without it.
fn week_kcal_percents(recipes: Vec<Recipe>, target: bool) -> Vec<f64> {
    assert!(recipes.iter().all(|r| r.nutrition.is_some()));
    let env = Env::with(recipes);
    let prefs = if target {
        json!({"dailyKcal": 2000})
    } else {
        json!({})
    };
    let result = env.run(None, &week(prefs));
    assert_eq!(result.slot_failures_count, 0);
    result
        .days
        .iter()
        .map(|d| {
            let n = d.nutrition.as_ref().unwrap();
            assert!(n.meals_without_nutrition.is_empty());
            match n.vs_targets.and_then(|g| g.kcal) {
                Some(g) => {
                    assert_eq!(g.target, 2000.0);
                    g.percent
                }
                None => (n.per_person.kcal - 2000.0) / 20.0,
            }
        })
        .collect()
}

/// The check of issue 24 on a recipe set with nutrition: with a 2,000 kcal target every day of
/// the week lands within 15% of it. After the built-in recipes carry nutrition, point this at
/// them too.
fn assert_week_near_target(recipes: Vec<Recipe>) {
    let with = week_kcal_percents(recipes.clone(), true);
    assert!(
        with.iter().all(|p| p.abs() <= 15.0),
        "with the target: {with:?}"
    );
    // The same recipes without the target miss it on some day: the target did the work.
    let without = week_kcal_percents(recipes, false);
    assert!(
        without.iter().any(|p| p.abs() > 15.0),
        "without the target: {without:?}"
    );
}

#[test]
fn a_week_with_a_2000_kcal_target_lands_each_day_within_15_percent() {
    assert_week_near_target(with_rule_nutrition(starter()));
}

/// The built-in recipes (`data/recipes/core.json`), each with the nutrition the library computes
/// for it from its ingredient table.
fn built_in_with_nutrition() -> Vec<Recipe> {
    let text = std::fs::read_to_string(format!(
        "{}/data/recipes/core.json",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let mut recipes: Vec<Recipe> = serde_json::from_str(&text).unwrap();
    for r in &mut recipes {
        r.nutrition = coachcore::meals::nutrition::per_serving(r);
    }
    recipes
}

#[test]
fn a_week_on_the_built_in_recipes_lands_each_day_within_15_percent() {
    assert_week_near_target(built_in_with_nutrition());
}

#[test]
fn the_target_ranks_candidates_near_the_slots_share_first() {
    // Breakfast's share of 2,000 kcal over breakfast and dinner is 25/65: 769 kcal.
    let env = Env::with(vec![
        recipe("light", MealType::Breakfast, Some(300.0)),
        recipe("right", MealType::Breakfast, Some(750.0)),
        recipe("heavy", MealType::Breakfast, Some(1400.0)),
        recipe("unknown", MealType::Breakfast, None),
        recipe("dinner-a", MealType::Dinner, Some(600.0)),
        recipe("dinner-b", MealType::Dinner, Some(1200.0)),
    ]);
    let req = request(json!({
        "days": [{"date": "2026-11-23", "meals": {
            "breakfast": {"servings": 1}, "dinner": {"servings": 1},
        }}],
        "preferences": {"dailyKcal": 2000},
    }));
    let result = env.run(None, &req);
    let day = &result.days[0];
    let b = sel(day, MealType::Breakfast);
    assert_eq!(env.origin(b).id, "right");
    assert!(
        b.reason
            .as_deref()
            .unwrap()
            .contains("fits the day's target"),
        "{b:?}"
    );
    let alts: Vec<&str> = b
        .alternatives
        .iter()
        .map(|a| a.recipe_id.as_str())
        .collect();
    assert_eq!(
        alts,
        ["unknown", "light"],
        "2/5 off for no nutrition beats 3/5 off"
    );
    // Dinner gets what breakfast left: 1,250 kcal.
    let d = sel(day, MealType::Dinner);
    assert_eq!(env.origin(d).id, "dinner-b");
    let gap = day
        .nutrition
        .as_ref()
        .unwrap()
        .vs_targets
        .unwrap()
        .kcal
        .unwrap();
    assert_eq!((gap.difference, gap.percent), (-50.0, -2.5));
    // Without a target, the search order decides and nothing is said about a target.
    let req = request(json!({
        "days": [{"date": "2026-11-23", "meals": {
            "breakfast": {"servings": 1}, "dinner": {"servings": 1},
        }}],
    }));
    let plain = env.run(None, &req);
    let b = sel(&plain.days[0], MealType::Breakfast);
    assert!(!b.reason.as_deref().unwrap().contains("target"), "{b:?}");
    assert!(plain.days[0]
        .nutrition
        .as_ref()
        .unwrap()
        .vs_targets
        .is_none());
}

// ---------------------------------------------------------------------------------------------
// Meal prep and repeats

fn prep_request(repeat_marker: &str) -> MealPlanRequest {
    request(json!({
        "days": [
            {"date": "2026-11-24", "meals": {
                "lunch": {"servings": 1, "repeat": repeat_marker},
            }},
            {"date": "2026-11-23", "meals": {
                "dinner": {"servings": 4, "isMealPrep": true, "repeat": "batch", "tags": ["chicken"],
                    "note": "for grandma"},
            }},
            {"date": "2026-11-25", "meals": {
                "lunch": {"servings": 1, "repeat": repeat_marker},
            }},
        ],
    }))
}

fn failing_model() -> std::sync::Arc<ScriptedModel> {
    ScriptedModel::new((0..20).map(|_| {
        ScriptedReply::Fail(LlmError::Backend {
            detail: "down".into(),
        })
    }))
}

#[test]
fn a_prep_slot_is_cooked_once_and_its_repeats_eat_it_without_search_or_model() {
    let env = Env::with(with_rule_nutrition(starter()));
    let before = searches_on_this_thread();
    let result = env.run(None, &prep_request("batch"));
    assert_eq!(
        searches_on_this_thread() - before,
        1,
        "one search: the prep slot's"
    );
    assert_eq!(result.slot_failures_count, 0);
    let prep = result.days[0].meals.dinner.as_ref().unwrap();
    let cooked = prep.selection.as_ref().unwrap();
    assert_eq!(cooked.picked_by, PickedBy::Fallback);
    let recipe = env.origin(cooked);
    // Bought and cooked for 4 at the prep slot.
    let want: Vec<Option<f64>> = recipe
        .ingredients
        .iter()
        .map(|i| coachcore::meals::units::scale(i.quantity, i.unit.as_deref(), recipe.servings, 4))
        .collect();
    let got: Vec<Option<f64>> = cooked.ingredients.iter().map(|i| i.quantity).collect();
    assert_eq!(got, want);
    let prep_slot = SlotRef {
        date: "2026-11-23".into(),
        meal_type: MealType::Dinner,
    };
    for day in &result.days[1..] {
        let picked = sel(day, MealType::Lunch);
        assert_eq!(picked.picked_by, PickedBy::Repeat);
        assert_eq!(picked.repeat_of.as_ref(), Some(&prep_slot));
        assert_eq!(
            (&picked.recipe_id, picked.source),
            (&cooked.recipe_id, cooked.source)
        );
        assert!(picked.alternatives.is_empty());
        assert!(
            picked.warnings.is_empty(),
            "no variety warning on a repeat: {:?}",
            picked.warnings
        );
        assert_eq!(
            picked.nutrition.unwrap().per_serving,
            recipe.nutrition.unwrap()
        );
        assert_eq!(
            day.nutrition.as_ref().unwrap().per_person.kcal,
            recipe.nutrition.unwrap().kcal
        );
    }

    // The model is asked for the prep slot only (its note has words code cannot weigh): as many
    // model calls as a plan of the prep slot alone.
    let alone = request(json!({"days": [{"date": "2026-11-23", "meals": {
        "dinner": {"servings": 4, "isMealPrep": true, "repeat": "batch", "tags": ["chicken"],
                    "note": "for grandma"},
    }}]}));
    let (m1, m2) = (failing_model(), failing_model());
    env.run(Some(m1.as_ref()), &alone);
    env.run(Some(m2.as_ref()), &prep_request("batch"));
    assert!(!m1.requests().is_empty());
    assert_eq!(m2.requests().len(), m1.requests().len());
}

#[test]
fn a_repeat_naming_no_earlier_prep_slot_is_planned_on_its_own_with_a_warning() {
    let env = Env::with(starter());
    let before = searches_on_this_thread();
    let result = env.run(None, &prep_request("other"));
    assert_eq!(searches_on_this_thread() - before, 3);
    for day in &result.days[1..] {
        let picked = sel(day, MealType::Lunch);
        assert_eq!(picked.picked_by, PickedBy::Fallback);
        assert!(picked.repeat_of.is_none());
        assert!(
            picked.warnings.iter().any(|w| w
                == "No earlier meal-prep slot marked \"other\" has a recipe: planned on its own"),
            "{:?}",
            picked.warnings
        );
    }
    // Repeats that eat more than the prep slot cooks are told so.
    let req = request(json!({"days": [
        {"date": "2026-11-23", "meals": {"dinner": {"servings": 2, "isMealPrep": true, "repeat": "b"}}},
        {"date": "2026-11-24", "meals": {"dinner": {"servings": 2, "repeat": "b"}}},
        {"date": "2026-11-25", "meals": {"dinner": {"servings": 1, "repeat": "b"}}},
    ]}));
    let result = env.run(None, &req);
    let second = sel(&result.days[1], MealType::Dinner);
    assert!(second.warnings.is_empty());
    let third = sel(&result.days[2], MealType::Dinner);
    assert_eq!(third.picked_by, PickedBy::Repeat);
    assert_eq!(
        third.warnings,
        ["The meal prep of 2026-11-23 (dinner) cooks 2 servings; its repeats eat more"]
    );
    // A pinned slot with the marker is no repeat: the user's recipe, no warning.
    let req = request(json!({"days": [
        {"date": "2026-11-23", "meals": {"dinner": {"servings": 2, "isMealPrep": true, "repeat": "b"}}},
        {"date": "2026-11-24", "meals": {"dinner": {"servings": 2, "repeat": "b", "pinnedRecipeId": "core-mushroom-risotto"}}},
    ]}));
    let result = env.run(None, &req);
    let pinned = sel(&result.days[1], MealType::Dinner);
    assert_eq!(pinned.picked_by, PickedBy::Pinned);
    assert_eq!(env.origin(pinned).id, "core-mushroom-risotto");
    assert!(
        pinned.repeat_of.is_none() && pinned.warnings.is_empty(),
        "{pinned:?}"
    );
}

// ---------------------------------------------------------------------------------------------
// Day order in the JSON text

/// The keys of every `"meals":{...}` object in `text`, in the order they are written.
fn meal_keys(text: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("\"meals\":{") {
        rest = &rest[at + "\"meals\":{".len()..];
        let (mut depth, mut in_str, mut escaped, mut key_start) = (1, false, false, None);
        let mut keys = Vec::new();
        for (i, c) in rest.char_indices() {
            if in_str {
                match (escaped, c) {
                    (true, _) => escaped = false,
                    (false, '\\') => escaped = true,
                    (false, '"') => {
                        in_str = false;
                        if let Some(s) = key_start.take() {
                            keys.push(rest[s..i].to_string());
                        }
                    }
                    _ => {}
                }
                continue;
            }
            match c {
                '"' => {
                    in_str = true;
                    let expecting_key = depth == 1 && {
                        let before = rest[..i].trim_end();
                        before.is_empty() || before.ends_with(',')
                    };
                    key_start = expecting_key.then_some(i + 1);
                }
                '{' | '[' => depth += 1,
                '}' | ']' => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                _ => {}
            }
        }
        out.push(keys);
    }
    out
}

const ALL_MEALS_REQUEST: &str = r#"{"days": [{"date": "2026-11-23", "meals": {
    "dessert": {"servings": 2}, "snack": {"servings": 1}, "dinner": {"servings": 2},
    "lunch": {"servings": 2}, "breakfast": {"servings": 2}}}]}"#;

fn assert_eating_order(text: &str) {
    let keys = meal_keys(text);
    assert!(!keys.is_empty(), "{text}");
    for k in keys {
        assert_eq!(
            k,
            ["breakfast", "lunch", "dinner", "snack", "dessert"],
            "{text}"
        );
    }
}

#[test]
fn meal_keys_reads_the_order_written() {
    assert_eq!(
        meal_keys(r#"{"meals":{"b":{"x":{"meals":1}},"a":"}"},"meals":{}}"#),
        [vec!["b".to_string(), "a".to_string()], vec![]]
    );
}

#[test]
fn the_cli_writes_a_days_meals_in_eating_order() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("meals.db");
    let db = db.to_str().unwrap();
    let o = run_coach(&["recipes", "import", "--db", db], &starter_json(), false);
    assert_eq!(o.status.code(), Some(0));
    let req = dir.path().join("req.json");
    std::fs::write(&req, ALL_MEALS_REQUEST).unwrap();
    let o = run_coach(
        &[
            "meals",
            "plan",
            "--db",
            db,
            "--request",
            req.to_str().unwrap(),
        ],
        "",
        false,
    );
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let text = String::from_utf8_lossy(&o.stdout);
    let last = text.lines().last().unwrap();
    // The completed event's result and the job's result: both in eating order.
    assert_eq!(meal_keys(last).len(), 2, "{last}");
    assert_eating_order(last);
    let v: Value = serde_json::from_str(last).unwrap();
    assert_eq!(v["event"], "completed");
    assert_eq!(v["job"]["status"], "COMPLETE");
}

#[test]
fn the_c_api_writes_a_days_meals_in_eating_order() {
    // SAFETY: NULL path (in-memory), NULL error out-pointer, NUL-terminated strings, a live
    // handle, each result freed once.
    unsafe {
        let h = coachcore::capi::coach_open(std::ptr::null(), std::ptr::null_mut());
        let call = |method: &str, request: &str| -> String {
            let (m, r) = (
                CString::new(method).unwrap(),
                CString::new(request).unwrap(),
            );
            let out = coachcore::capi::coach_call(h, m.as_ptr(), r.as_ptr());
            let text = CStr::from_ptr(out).to_string_lossy().into_owned();
            coachcore::capi::coach_string_free(out);
            text
        };
        assert!(call("meals.importRecipes", &starter_json()).starts_with(r#"{"ok":"#));
        let planned = call("meals.plan", ALL_MEALS_REQUEST);
        assert_eating_order(&planned);
        let v: Value = serde_json::from_str(&planned).unwrap();
        let id = v["ok"]["job"]["id"].as_str().unwrap().to_string();
        let job = call("meals.job", &json!({"id": id}).to_string());
        assert_eq!(meal_keys(&job).len(), 1);
        assert_eating_order(&job);
        coachcore::capi::coach_close(h);
    }
}
