//! Meal planning (spec 003, issue 12) on real SQLite: the starter recipe set, import bounds,
//! staging with expiry, candidate search (FTS, tags, notes, meal type, diet, exclusions, user
//! before core, time as a soft preference, picks of the job left out, at most 25), request
//! validation, reranking with a scripted model (per-slot enum schema, repair, rejection of ids not
//! among the candidates, no pick), the deterministic fallback (no model, model failure, open
//! breaker), pinned recipes, variety warnings, exclusions never violated (a seeded property test),
//! jobs read back after reopening, a job cut off by a crash, cancellation, and the history.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use coachcore::db::Store;
use coachcore::ffi::MealPlanListener;
use coachcore::kernel::clock::FixedClock;
use coachcore::kernel::error::{CoachError, Error};
use coachcore::kernel::ids::IdGenerator;
use coachcore::llm::breaker::{Breaker, BreakerConfig};
use coachcore::llm::metered::Metered;
use coachcore::llm::scripted::{ScriptedModel, ScriptedReply};
use coachcore::llm::{
    CancelToken, GenerationRequest, GenerationResult, LanguageModel, LlmError, ModelInfo,
    TokenListener,
};
use coachcore::meals::search::{candidate_query, exclusion_terms, primary_protein, violation};
use coachcore::meals::service::jobs::{self, PlanSink};
use coachcore::meals::service::plan::{plan, PlanEnv, PlanSettings, FALLBACK_WARNING};
use coachcore::meals::service::{self as meals};
use coachcore::meals::*;
use coachcore::Coach;
use serde_json::{json, Value};

const T0: i64 = 1_795_000_000_000;
const HOUR: i64 = 3_600_000;

/// The starter recipe set's JSON (`tests/data/recipes/starter.json`).
pub(crate) fn starter_json() -> String {
    std::fs::read_to_string(format!(
        "{}/tests/data/recipes/starter.json",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

/// The starter recipe set.
pub(crate) fn starter() -> Vec<Recipe> {
    serde_json::from_str(&starter_json()).unwrap()
}

/// Plans `request` on `store` with default settings, ids seeded with `seed`.
pub(crate) fn plan_on(
    store: &Store,
    clock: &FixedClock,
    model: Option<&dyn LanguageModel>,
    request: &MealPlanRequest,
    seed: u64,
) -> coachcore::kernel::error::Result<MealPlanResult> {
    let settings = PlanSettings::default();
    let cancel = CancelToken::new();
    let env = PlanEnv {
        store,
        clock,
        model,
        settings: &settings,
        cancel: &cancel,
    };
    plan(
        &env,
        &mut IdGenerator::seeded(seed),
        request,
        &mut |_, _| {},
    )
}

struct Env {
    _dir: tempfile::TempDir,
    path: PathBuf,
    store: Store,
    clock: FixedClock,
}

impl Env {
    fn new() -> Env {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("meals.db");
        let store = Store::open(&path).unwrap();
        let clock = FixedClock::new(T0);
        meals::import_recipes_json(&store, &clock, &starter_json()).unwrap();
        Env {
            _dir: dir,
            path,
            store,
            clock,
        }
    }

    fn run(&self, model: Option<&dyn LanguageModel>, request: &MealPlanRequest) -> MealPlanResult {
        plan_on(&self.store, &self.clock, model, request, 1).unwrap()
    }

    fn recipe(&self, id: &str) -> Recipe {
        meals::recipe(&self.store, id).unwrap().unwrap()
    }

    fn search(
        &self,
        t: MealType,
        tags: &[&str],
        note: Option<&str>,
        prefs: &MealPreferences,
    ) -> Vec<Recipe> {
        let tags: Vec<String> = tags.iter().map(|s| s.to_string()).collect();
        let q = candidate_query(t, &tags, note, prefs, &[]);
        self.store.read(|db| db.search_candidates(&q)).unwrap()
    }
}

fn slot(servings: u32, tags: &[&str], note: Option<&str>) -> MealSlotRequest {
    MealSlotRequest {
        servings,
        tags: tags.iter().map(|s| s.to_string()).collect(),
        note: note.map(str::to_string),
        is_meal_prep: false,
        repeat: None,
        pinned_recipe_id: None,
    }
}

fn request(json: Value) -> MealPlanRequest {
    serde_json::from_value(json).unwrap()
}

fn one_slot(date: &str, meal: &str, slot: Value, prefs: Value) -> MealPlanRequest {
    request(json!({"days": [{"date": date, "meals": {meal: slot}}], "preferences": prefs}))
}

fn only_slot(result: &MealPlanResult) -> &PlannedSlot {
    result.days[0].meals.slots()[0].1
}

/// The recipe a selection stands for (a staged copy's origin).
fn origin(env: &Env, sel: &Selection) -> Recipe {
    let r = env.recipe(&sel.recipe_id);
    match &r.origin_id {
        Some(o) => env.recipe(o),
        None => r,
    }
}

// ---------------------------------------------------------------------------------------------
// Recipes

#[test]
fn the_starter_set_is_varied_and_imports() {
    let all = starter();
    assert!(all.len() >= 120, "{}", all.len());
    for t in MealType::ALL {
        let n = all.iter().filter(|r| r.meal_types.contains(&t)).count();
        assert!(n >= 15, "{t:?}: {n}");
    }
    let proteins: std::collections::BTreeSet<_> = all.iter().filter_map(primary_protein).collect();
    for p in [
        "chicken",
        "beef",
        "pork",
        "lamb",
        "turkey",
        "fish",
        "shellfish",
        "tofu",
        "legumes",
        "egg",
    ] {
        assert!(proteins.contains(p), "no {p} recipe");
    }
    // Diets agree with the ingredients.
    let meat = [
        "chicken", "beef", "pork", "bacon", "lamb", "turkey", "sausage", "chorizo",
    ];
    let animal = [
        "egg", "milk", "butter", "cheese", "cream", "yogurt", "honey", "feta", "parmesan",
    ];
    for r in &all {
        let text = r
            .ingredients
            .iter()
            .map(|i| i.name.to_lowercase())
            .collect::<Vec<_>>()
            .join("|");
        if r.diets.contains(&Diet::Vegetarian) {
            assert!(!meat.iter().any(|m| text.contains(m)), "{}", r.id);
        }
        if r.diets.contains(&Diet::Vegan) {
            let text = text
                .replace("eggplant", "")
                .replace("butternut", "")
                .replace("peanut butter", "")
                .replace("almond butter", "")
                .replace("coconut milk", "")
                .replace("almond milk", "");
            assert!(!animal.iter().any(|m| text.contains(m)), "{}", r.id);
        }
        if r.diets.contains(&Diet::GlutenFree) {
            assert!(
                !["flour", "pasta", "bread", "soy sauce"]
                    .iter()
                    .any(|m| text.contains(m)),
                "{}",
                r.id
            );
        }
    }
    let env = Env::new();
    let n = env
        .store
        .read(|db| db.recipe_count(RecipeSource::Core))
        .unwrap();
    assert_eq!(n as usize, all.len());
    assert_eq!(env.recipe("core-shakshuka"), Recipe { ..all[0].clone() });
    // Importing again replaces, never duplicates.
    assert_eq!(
        meals::import_recipes_json(&env.store, &env.clock, &starter_json()).unwrap() as usize,
        all.len()
    );
    assert_eq!(
        env.store
            .read(|db| db.recipe_count(RecipeSource::Core))
            .unwrap() as usize,
        all.len()
    );
}

fn invalid(e: Error) -> String {
    match CoachError::from(e) {
        CoachError::InvalidArgument { detail } => detail,
        other => panic!("expected InvalidArgument, got {other:?}"),
    }
}

#[test]
fn imports_are_bounded_and_name_the_field_without_echoing() {
    let store = Store::open_in_memory().unwrap();
    let clock = FixedClock::new(T0);
    let mut r = json!({"id": "core-x", "title": "SECRET soup", "mealTypes": ["lunch"],
        "ingredients": [{"name": "water"}], "prepMinutes": 5, "cookMinutes": 5, "servings": 2});
    let cases: Vec<(Value, &str)> = vec![
        (json!({"servings": 0}), "[0].servings must be from 1 to 100"),
        (
            json!({"mealTypes": []}),
            "[0].mealTypes must hold 1 to 5 entries",
        ),
        (
            json!({"mealTypes": ["lunch", "lunch"]}),
            "[0].mealTypes must not repeat a type",
        ),
        (
            json!({"id": "SECRET id!"}),
            "[0].id must be 1 to 64 characters of A-Z a-z 0-9 _ - . :",
        ),
        (
            json!({"title": "x".repeat(121)}),
            "[0].title must be 1 to 120 characters (not blank)",
        ),
        (
            json!({"prepMinutes": 2000}),
            "[0].prepMinutes must be at most 1440 minutes",
        ),
        (
            json!({"ingredients": [{"name": "salt", "quantity": -1.0}]}),
            "[0].ingredients[0].quantity must be a number from 0 to 100000",
        ),
    ];
    for (patch, want) in cases {
        let mut bad = r.clone();
        for (k, v) in patch.as_object().unwrap() {
            bad[k] = v.clone();
        }
        let e = meals::import_recipes_json(&store, &clock, &json!([bad]).to_string()).unwrap_err();
        let d = invalid(e);
        assert_eq!(d, want);
        assert!(!d.contains("SECRET"));
    }
    // Unknown enum values and keys: the JSON path, no value.
    r["mealTypes"] = json!(["SECRETmeal"]);
    let d =
        invalid(meals::import_recipes_json(&store, &clock, &json!([r]).to_string()).unwrap_err());
    assert!(
        d.contains("[0].mealTypes[0]") && !d.contains("SECRET"),
        "{d}"
    );
    // Repeated ids, and nothing imported from a refused file.
    r["mealTypes"] = json!(["lunch"]);
    let d = invalid(
        meals::import_recipes_json(&store, &clock, &json!([r, r]).to_string()).unwrap_err(),
    );
    assert_eq!(d, "[1].id repeats an earlier id");
    assert_eq!(
        store
            .read(|db| db.recipe_count(RecipeSource::Core))
            .unwrap(),
        0
    );
    // Size before parsing.
    let huge = " ".repeat(33 * 1024 * 1024);
    assert!(
        invalid(meals::import_recipes_json(&store, &clock, &huge).unwrap_err())
            .starts_with("recipes JSON must be at most")
    );
}

#[test]
fn staged_copies_expire_after_72_hours_unless_kept() {
    let env = Env::new();
    let mut ids = IdGenerator::seeded(3);
    let a = meals::stage_recipe(&env.store, &env.clock, &mut ids, "core-shakshuka").unwrap();
    let b = meals::stage_recipe(&env.store, &env.clock, &mut ids, "core-paella").unwrap();
    assert_eq!(a.source, RecipeSource::Stage);
    assert_eq!(a.origin_id.as_deref(), Some("core-shakshuka"));
    assert_eq!(a.expires_ms, Some(T0 + 72 * HOUR));
    assert_eq!(a.title, "Shakshuka");
    meals::keep_staged_recipe(&env.store, &env.clock, &b.id).unwrap();
    assert_eq!(env.recipe(&b.id).expires_ms, None);
    env.clock.advance_ms(72 * HOUR - 1);
    assert_eq!(
        meals::cleanup_staged_recipes(&env.store, &env.clock).unwrap(),
        0
    );
    env.clock.advance_ms(1);
    assert_eq!(
        meals::cleanup_staged_recipes(&env.store, &env.clock).unwrap(),
        1
    );
    assert!(meals::recipe(&env.store, &a.id).unwrap().is_none());
    assert!(meals::recipe(&env.store, &b.id).unwrap().is_some(), "kept");
    // Only core recipes stage; only staged copies are kept.
    let e = meals::stage_recipe(&env.store, &env.clock, &mut ids, &b.id).unwrap_err();
    assert!(matches!(e, Error::NotFound(_)), "{e:?}");
    let e = meals::keep_staged_recipe(&env.store, &env.clock, "core-paella").unwrap_err();
    assert!(matches!(e, Error::NotFound(_)), "{e:?}");
}

// ---------------------------------------------------------------------------------------------
// Search

#[test]
fn search_uses_full_text_tags_notes_and_the_meal_type() {
    let env = Env::new();
    let none = MealPreferences::default();
    // A note term found only in ingredients.
    let found = env.search(MealType::Snack, &[], Some("something with tahini"), &none);
    assert!(
        found.iter().take(2).any(|r| r.id == "core-hummus-veg"),
        "{:?}",
        ids(&found)
    );
    // Stemming: "eggs" finds egg recipes.
    let found = env.search(MealType::Breakfast, &["eggs"], None, &none);
    assert!(
        found[0].tags.iter().any(|t| t == "eggs"),
        "{:?}",
        ids(&found)
    );
    // Every candidate has the meal type; at most 25, and tier 3 fills up.
    let found = env.search(MealType::Dinner, &["no-such-tag"], None, &none);
    assert_eq!(found.len(), 25);
    assert!(found
        .iter()
        .all(|r| r.meal_types.contains(&MealType::Dinner)));
    // Tags: any of them, matches first.
    let found = env.search(MealType::Dinner, &["salmon", "lamb"], None, &none);
    let first: Vec<_> = found
        .iter()
        .take(4)
        .map(|r| primary_protein(r).unwrap())
        .collect();
    assert!(
        first.iter().all(|p| *p == "fish" || *p == "lamb"),
        "{first:?}"
    );
    // Tags AND note terms before either alone.
    let found = env.search(
        MealType::Dinner,
        &["chicken"],
        Some("coconut please"),
        &none,
    );
    assert!(
        ["core-thai-green-curry", "core-jerk-chicken"].contains(&found[0].id.as_str()),
        "{:?}",
        ids(&found)
    );
    // FTS syntax in user text is inert.
    let found = env.search(MealType::Lunch, &["\"OR*"], Some("NEAR( -x AND"), &none);
    assert_eq!(found.len(), 25);
}

fn ids(rs: &[Recipe]) -> Vec<&str> {
    rs.iter().map(|r| r.id.as_str()).collect()
}

#[test]
fn search_hard_rules_soft_time_user_first_and_job_picks() {
    let env = Env::new();
    let vegan = MealPreferences {
        diet: Some(Diet::Vegan),
        ..Default::default()
    };
    let found = env.search(MealType::Dinner, &["curry"], None, &vegan);
    assert!(!found.is_empty());
    assert!(found
        .iter()
        .all(|r| Diet::implied_mask(&r.diets) & Diet::Vegan.bit() != 0));
    let vegetarian = MealPreferences {
        diet: Some(Diet::Vegetarian),
        ..Default::default()
    };
    let found = env.search(MealType::Dinner, &[], None, &vegetarian);
    assert!(
        found.iter().any(|r| r.diets.contains(&Diet::Vegan)),
        "vegan suits vegetarian"
    );
    let no_garlic = MealPreferences {
        excluded_ingredients: vec!["Garlic".into(), "tomatoes".into()],
        ..Default::default()
    };
    let found = env.search(MealType::Dinner, &["italian"], None, &no_garlic);
    assert!(!found.is_empty());
    for r in &found {
        assert!(
            r.ingredients
                .iter()
                .all(|i| !i.name.contains("garlic") && !i.name.contains("tomato")),
            "{}",
            r.id
        );
    }
    // Time: within the limits first, never excluded.
    let quick = MealPreferences {
        max_prep_minutes: Some(10),
        max_cook_minutes: Some(15),
        ..Default::default()
    };
    let found = env.search(MealType::Dinner, &["beef"], None, &quick);
    let over: Vec<u32> = found
        .iter()
        .map(|r| coachcore::meals::search::minutes_over(r, &quick))
        .collect();
    assert_eq!(over[0], 0);
    assert!(over.windows(2).take(4).all(|w| w[0] <= w[1]), "{over:?}");
    assert!(
        found.iter().any(|r| r.id == "core-beef-stew"),
        "long recipes stay candidates"
    );
    // A user recipe comes before core ones of the same tier.
    let mine = Recipe {
        id: String::new(),
        source: RecipeSource::Core,
        title: "Grandma's beef pie".into(),
        description: "Beef and onion pie".into(),
        meal_types: vec![MealType::Dinner],
        tags: vec!["beef".into()],
        ingredients: vec![Ingredient {
            name: "beef mince".into(),
            quantity: Some(500.0),
            unit: Some("g".into()),
            preparation: None,
        }],
        prep_minutes: 60,
        cook_minutes: 90,
        servings: 6,
        diets: vec![],
        origin_id: None,
        expires_ms: None,
        steps: vec![],
        nutrition: None,
    };
    let saved =
        meals::save_recipe(&env.store, &env.clock, &mut IdGenerator::seeded(9), mine).unwrap();
    assert_eq!(saved.source, RecipeSource::User);
    assert!(saved.id.starts_with("user-"));
    let found = env.search(MealType::Dinner, &["beef"], None, &quick);
    assert_eq!(found[0].id, saved.id);
    // Staged copies are not candidates; picks of the job are left out.
    meals::stage_recipe(
        &env.store,
        &env.clock,
        &mut IdGenerator::seeded(2),
        "core-beef-tacos",
    )
    .unwrap();
    let q = candidate_query(
        MealType::Dinner,
        &["beef".into()],
        None,
        &quick,
        &[saved.id.clone(), "core-beef-tacos".into()],
    );
    let found = env.store.read(|db| db.search_candidates(&q)).unwrap();
    assert!(found
        .iter()
        .all(|r| r.source == RecipeSource::Core && r.id != "core-beef-tacos"));
}

// ---------------------------------------------------------------------------------------------
// Requests

#[test]
fn requests_are_validated_naming_the_field() {
    let ok = json!({"servings": 2});
    let cases: Vec<(Value, &str)> = vec![
        (json!({"days": []}), "days must hold at least one day"),
        (
            json!({"days": (0..32).map(|i| json!({"date": format!("2026-01-{:02}", i % 28 + 1), "meals": {"lunch": ok}})).collect::<Vec<_>>()}),
            "days must hold at most 31 days",
        ),
        (
            json!({"days": [{"date": "2026-02-30", "meals": {"lunch": ok}}]}),
            "days[0].date must be a date YYYY-MM-DD",
        ),
        (
            json!({"days": [{"date": "2026-02-03", "meals": {}}]}),
            "days[0].meals must hold at least one of breakfast, lunch, dinner, snack, dessert",
        ),
        (
            json!({"days": [{"date": "2026-02-03", "meals": {"dinner": {"servings": 0}}}]}),
            "days[0].meals.dinner.servings must be above 0 (at most 100)",
        ),
        (
            json!({"days": [{"date": "2026-02-03", "meals": {"lunch": ok}}, {"date": "2026-02-03", "meals": {"lunch": ok}}]}),
            "days[1].date repeats an earlier day's date",
        ),
        (
            json!({"days": [{"date": "2026-02-03", "meals": {"lunch": {"servings": 1, "note": "x".repeat(301)}}}]}),
            "days[0].meals.lunch.note must be 0 to 300 characters (not blank)",
        ),
        (
            json!({"days": [{"date": "2026-02-03", "meals": {"lunch": ok}}], "preferences": {"excludedIngredients": ["s"]}}),
            "preferences.excludedIngredients[0] must hold a word of at least 2 letters",
        ),
    ];
    for (req, want) in cases {
        let r: MealPlanRequest = serde_json::from_value(req).unwrap();
        assert_eq!(
            invalid(coachcore::meals::validate::request(&r).unwrap_err()),
            want
        );
    }
    // Keys other than the five meals are refused when reading JSON, by path, without the key.
    let e = coachcore::Meals::request_from_json(
        r#"{"days":[{"date":"2026-02-03","meals":{"brunchSECRET":{"servings":1}}}]}"#,
    )
    .unwrap_err();
    let d = e.to_string();
    assert!(
        d.contains("days[0].meals") && d.contains("unknown field") && !d.contains("SECRET"),
        "{d}"
    );
    let e = coachcore::Meals::request_from_json(
        r#"{"days":[{"date":"2026-02-03","meals":{"lunch":{"servings":-1}}}]}"#,
    )
    .unwrap_err();
    assert!(
        e.to_string().contains("days[0].meals.lunch.servings"),
        "{e}"
    );
}

// ---------------------------------------------------------------------------------------------
// Fallback, model, pinned

fn week_request() -> MealPlanRequest {
    // Days given out of order: the result is in date order.
    let dates = [
        "2026-11-26",
        "2026-11-23",
        "2026-11-24",
        "2026-11-25",
        "2026-11-29",
        "2026-11-27",
        "2026-11-28",
    ];
    request(json!({
        "days": dates.iter().map(|d| json!({"date": d, "meals": {
            "dinner": {"servings": 4, "tags": ["quick"], "note": "something with rice", "isMealPrep": false, "repeat": null},
            "breakfast": {"servings": 2, "tags": ["eggs"]},
            "lunch": {"servings": 2, "tags": ["salad", "soup"], "isMealPrep": true, "repeat": "weekly"},
        }})).collect::<Vec<_>>(),
        "preferences": {"maxPrepMinutes": 20, "maxCookMinutes": 30}
    }))
}

#[test]
fn the_fallback_plans_a_week_in_order_without_repeats() {
    let env = Env::new();
    let result = env.run(None, &week_request());
    let dates: Vec<&str> = result.days.iter().map(|d| d.date.as_str()).collect();
    assert_eq!(
        dates,
        [
            "2026-11-23",
            "2026-11-24",
            "2026-11-25",
            "2026-11-26",
            "2026-11-27",
            "2026-11-28",
            "2026-11-29"
        ]
    );
    assert_eq!(result.slot_failures_count, 0);
    let mut seen = std::collections::HashSet::new();
    for day in &result.days {
        let order: Vec<MealType> = day.meals.slots().iter().map(|(t, _)| *t).collect();
        assert_eq!(
            order,
            [MealType::Breakfast, MealType::Lunch, MealType::Dinner]
        );
        for (t, s) in day.meals.slots() {
            let sel = s.selection.as_ref().unwrap();
            assert_eq!(sel.picked_by, PickedBy::Fallback);
            assert!(sel.warnings.iter().any(|w| w == FALLBACK_WARNING));
            assert_eq!(sel.source, RecipeSource::Stage, "core picks are staged");
            let r = origin(&env, sel);
            assert!(r.meal_types.contains(&t));
            assert!(seen.insert(r.id.clone()), "{} repeated", r.id);
            assert!(sel.alternatives.len() <= 2);
            assert!((0.3..=0.9).contains(&sel.confidence), "{}", sel.confidence);
        }
        // The slot keeps its settings.
        let lunch = day.meals.lunch.as_ref().unwrap();
        assert!(lunch.is_meal_prep);
        assert_eq!(lunch.repeat.as_deref(), Some("weekly"));
        assert_eq!(lunch.tags, ["salad", "soup"]);
    }
    // The first breakfast matches its tag.
    let b = result.days[0]
        .meals
        .breakfast
        .as_ref()
        .unwrap()
        .selection
        .as_ref()
        .unwrap();
    assert_eq!(b.matched_tags, ["eggs"]);
    // The JSON shape: meals in plan order, camelCase.
    let text = serde_json::to_string(&result).unwrap();
    let at = |k: &str| text.find(&format!("\"{k}\":{{\"servings\"")).unwrap();
    assert!(
        at("breakfast") < at("lunch") && at("lunch") < at("dinner"),
        "{text}"
    );
    let v = serde_json::to_value(&result).unwrap();
    assert!(v["days"][0]["meals"]["lunch"]["selection"]["recipeId"].is_string());
    assert_eq!(v["slotFailuresCount"], 0);
}

fn reply(picks: &[(&str, f64)], warnings: &[&str]) -> String {
    json!({
        "picks": picks.iter().map(|(id, c)| json!({"recipeId": id, "confidence": c, "reason": "fits"})).collect::<Vec<_>>(),
        "warnings": warnings,
    })
    .to_string()
}

#[test]
fn the_model_ranks_only_the_slots_candidates() {
    let env = Env::new();
    let req = one_slot(
        "2026-11-23",
        "dinner",
        // `grandma` is a word code cannot weigh: the model is asked among the close candidates.
        json!({"servings": 2, "tags": ["fish"], "note": "light, for grandma"}),
        json!({"diet": "pescatarian"}),
    );
    let model = ScriptedModel::texts([reply(&[("r2", 0.9), ("r1", 0.6)], &["Light on carbs"])]);
    let result = env.run(Some(&*model), &req);
    let reqs = model.requests();
    assert_eq!(reqs.len(), 1);
    let schema: Value = serde_json::from_str(reqs[0].json_schema.as_ref().unwrap()).unwrap();
    let aliases = schema
        .pointer("/properties/picks/items/properties/recipeId/enum")
        .unwrap()
        .as_array()
        .unwrap()
        .clone();
    let user = &reqs[0].messages[1].content;
    let lines: Vec<&str> = user
        .lines()
        .filter(|l| l.starts_with("{\"recipeId\""))
        .collect();
    assert_eq!(lines.len(), aliases.len());
    assert!(lines.len() <= coachcore::meals::rerank::MODEL_CANDIDATES);
    assert!(
        user.contains("\"mealType\":\"dinner\"") && user.contains("\"diet\":\"pescatarian\""),
        "{user}"
    );
    assert!(reqs[0].messages[0]
        .content
        .contains("Never invent a recipe"));
    // r2 is the second candidate line.
    let second: Value = serde_json::from_str(lines[1]).unwrap();
    let sel = only_slot(&result).selection.as_ref().unwrap();
    assert_eq!(sel.picked_by, PickedBy::Model);
    assert_eq!(sel.title, second["title"]);
    assert_eq!(sel.confidence, 0.9);
    assert_eq!(sel.reason.as_deref(), Some("fits"));
    assert!(sel.warnings.contains(&"Light on carbs".to_string()));
    assert_eq!(sel.alternatives.len(), 1);
    let first: Value = serde_json::from_str(lines[0]).unwrap();
    assert_eq!(sel.alternatives[0].title, first["title"]);
    assert_eq!(sel.alternatives[0].source, RecipeSource::Core);
}

#[test]
fn ids_not_among_the_candidates_are_repaired_then_fall_back() {
    let env = Env::new();
    let req = one_slot(
        "2026-11-23",
        "lunch",
        json!({"servings": 2, "tags": ["soup"], "note": "for grandma"}),
        json!({}),
    );
    // An id from outside the candidates, then a valid reply: repaired.
    let model = ScriptedModel::texts([
        reply(&[("core-paella", 0.9)], &[]),
        reply(&[("r1", 0.8)], &[]),
    ]);
    let result = env.run(Some(&*model), &req);
    let reqs = model.requests();
    assert_eq!(reqs.len(), 2);
    assert!(
        reqs[1]
            .messages
            .last()
            .unwrap()
            .content
            .contains("picks[0].recipeId: must be one of the candidates r1 to r"),
        "{}",
        reqs[1].messages.last().unwrap().content
    );
    assert_eq!(
        only_slot(&result).selection.as_ref().unwrap().picked_by,
        PickedBy::Model
    );
    // Never valid: the fallback picks, with its warning; not a failure.
    let model = ScriptedModel::texts([
        reply(&[("r99", 0.9)], &[]),
        "no json".to_string(),
        reply(&[("r1", 7.0)], &[]),
    ]);
    let result = env.run(Some(&*model), &req);
    let sel = only_slot(&result).selection.as_ref().unwrap();
    assert_eq!(sel.picked_by, PickedBy::Fallback);
    assert!(sel.warnings.iter().any(|w| w == FALLBACK_WARNING));
    assert_eq!(result.slot_failures_count, 0);
}

#[test]
fn model_failures_and_an_open_breaker_fall_back() {
    let env = Env::new();
    let req = one_slot(
        "2026-11-23",
        "dinner",
        json!({"servings": 2, "tags": ["chicken"], "note": "for grandma"}),
        json!({}),
    );
    let failing = ScriptedModel::new((0..10).map(|_| {
        ScriptedReply::Fail(LlmError::Backend {
            detail: "boom".into(),
        })
    }));
    let clock = Arc::new(FixedClock::new(T0));
    let breaker = Breaker::new(
        clock,
        BreakerConfig {
            failure_threshold: 1,
            window_ms: 60_000,
            cooldown_ms: 60_000,
        },
    );
    let metered = Metered::new(&*failing, "meals").with_breaker(Some(&breaker));
    let result = env.run(Some(&metered), &req);
    let sel = only_slot(&result).selection.as_ref().unwrap();
    assert_eq!(sel.picked_by, PickedBy::Fallback);
    assert!(sel.matched_tags.contains(&"chicken".to_string()));
    assert!(breaker.is_open());
    let calls = failing.requests().len();
    let result = env.run(Some(&metered), &req);
    assert_eq!(
        only_slot(&result).selection.as_ref().unwrap().picked_by,
        PickedBy::Fallback
    );
    assert_eq!(
        failing.requests().len(),
        calls,
        "the open breaker fails fast"
    );
}

#[test]
fn a_decline_keeps_codes_ranking_and_no_candidates_is_a_failure() {
    let env = Env::new();
    let req = request(json!({"days": [{"date": "2026-11-23", "meals": {
        "lunch": {"servings": 1, "note": "something with unicorn"},
        "dinner": {"servings": 1, "tags": ["beef"]},
    }}]}));
    // The model declines among the lunch candidates code found fitting: code's first stands (no
    // "model unavailable" warning: the model answered). The dinner needs no model.
    let model = ScriptedModel::texts([reply(&[], &["Nothing fits"]), reply(&[("r1", 0.7)], &[])]);
    let result = env.run(Some(&*model), &req);
    assert_eq!(model.requests().len(), 1);
    assert_eq!(result.slot_failures_count, 0);
    let lunch = result.days[0].meals.lunch.as_ref().unwrap();
    let sel = lunch.selection.as_ref().unwrap();
    assert_eq!(sel.picked_by, PickedBy::Fallback);
    assert!(
        !sel.warnings.iter().any(|w| w == FALLBACK_WARNING),
        "{:?}",
        sel.warnings
    );
    let dinner = result.days[0].meals.dinner.as_ref().unwrap();
    assert_eq!(
        dinner.selection.as_ref().unwrap().picked_by,
        PickedBy::Fallback
    );
    // Nothing passes the hard rules: no candidates, no model call.
    let req = one_slot(
        "2026-11-23",
        "dessert",
        json!({"servings": 1}),
        json!({"diet": "vegan", "excludedIngredients": ["sugar", "banana", "fruit", "mango", "berr", "pear", "date", "coconut", "cocoa", "chocolate", "coffee", "espresso", "rice", "oat", "apple", "peach", "lime", "chia"]}),
    );
    let model = ScriptedModel::texts(Vec::<String>::new());
    let result = env.run(Some(&*model), &req);
    let s = only_slot(&result);
    assert_eq!(
        s.failure.as_ref().unwrap().code,
        SlotFailureCode::NoCandidates
    );
    assert_eq!(model.requests().len(), 0);
}

#[test]
fn a_refused_ingredient_excludes_and_a_lone_candidate_needs_no_model() {
    // A store of four pork dinners, then one chicken dinner more.
    let store = Store::open_in_memory().unwrap();
    let clock = FixedClock::new(T0);
    let pick = |ids: &[&str]| -> Vec<Recipe> {
        starter()
            .into_iter()
            .filter(|r| ids.contains(&r.id.as_str()))
            .collect()
    };
    let pork = [
        "core-pork-chops-apples",
        "core-pork-stir-fry",
        "core-pulled-pork",
        "core-sheet-pan-sausage",
    ];
    meals::import_recipes(&store, &clock, pick(&pork)).unwrap();
    let run = |model: &dyn LanguageModel| {
        let settings = PlanSettings::default();
        let cancel = CancelToken::new();
        let env = PlanEnv {
            store: &store,
            clock: &clock,
            model: Some(model),
            settings: &settings,
            cancel: &cancel,
        };
        let req = one_slot(
            "2026-11-23",
            "dinner",
            json!({"servings": 2, "note": "no pork please"}),
            json!({}),
        );
        plan(&env, &mut IdGenerator::seeded(1), &req, &mut |_, _| {}).unwrap()
    };
    // Every candidate holds pork: the note's refusal excludes them all, and the model is not
    // asked.
    let model = ScriptedModel::texts([reply(&[("r1", 0.9)], &[])]);
    let result = run(&*model);
    assert!(model.requests().is_empty());
    let slot = only_slot(&result);
    assert!(slot.selection.is_none());
    assert_eq!(
        slot.failure.as_ref().unwrap().code,
        SlotFailureCode::NoCandidates
    );
    assert_eq!(result.slot_failures_count, 1);
    // One candidate without pork: a lone candidate is code's pick, the model is not asked.
    meals::import_recipes(&store, &clock, pick(&["core-honey-garlic-chicken"])).unwrap();
    let model = ScriptedModel::texts([reply(&[("r1", 0.9)], &[])]);
    let result = run(&*model);
    assert!(model.requests().is_empty());
    let sel = only_slot(&result).selection.as_ref().unwrap();
    assert_eq!(sel.picked_by, PickedBy::Fallback);
    assert!(!sel.warnings.iter().any(|w| w == FALLBACK_WARNING));
    assert_eq!(sel.title, "Honey Garlic Chicken Thighs");
}

#[test]
fn pinned_recipes_skip_search_and_model() {
    let env = Env::new();
    let req = request(json!({"days": [{"date": "2026-11-23", "meals": {
        "dinner": {"servings": 4, "pinnedRecipeId": "core-paella"},
        "lunch": {"servings": 4, "pinnedRecipeId": "core-does-not-exist"},
    }}], "preferences": {"excludedIngredients": ["prawns"]}}));
    let model = ScriptedModel::texts(Vec::<String>::new());
    let result = env.run(Some(&*model), &req);
    assert_eq!(model.requests().len(), 0);
    let dinner = result.days[0]
        .meals
        .dinner
        .as_ref()
        .unwrap()
        .selection
        .as_ref()
        .unwrap();
    assert_eq!(dinner.picked_by, PickedBy::Pinned);
    assert_eq!(dinner.confidence, 1.0);
    assert_eq!(dinner.source, RecipeSource::Stage);
    assert_eq!(origin(&env, dinner).id, "core-paella");
    assert!(
        dinner
            .warnings
            .iter()
            .any(|w| w.contains("excludedIngredients")),
        "{:?}",
        dinner.warnings
    );
    let lunch = result.days[0].meals.lunch.as_ref().unwrap();
    assert!(lunch.selection.is_none());
    let f = lunch.failure.as_ref().unwrap();
    assert_eq!(f.code, SlotFailureCode::PinnedNotFound);
    assert!(f.message.contains("pinned recipe does not exist"));
    assert_eq!(result.slot_failures_count, 1);
}

// ---------------------------------------------------------------------------------------------
// Variety

#[test]
fn variety_warnings_for_repeats_and_yesterdays_protein() {
    let env = Env::new();
    let log = |date: &str, t: MealType, id: &str| {
        meals::log_meal(
            &env.store,
            &env.clock,
            &MealLog {
                date: date.into(),
                meal_type: t,
                recipe_id: id.into(),
            },
        )
        .unwrap()
    };
    let e = log("2026-11-22", MealType::Dinner, "core-honey-garlic-chicken");
    assert_eq!(e.protein.as_deref(), Some("chicken"));
    log("2026-11-18", MealType::Lunch, "core-greek-salad");
    // A chicken dinner the day after a chicken dinner, alternatives existing: a warning.
    let req = one_slot(
        "2026-11-23",
        "dinner",
        json!({"servings": 2, "tags": ["chicken"], "note": "for grandma"}),
        json!({}),
    );
    let model = ScriptedModel::texts([reply(&[("r1", 0.9)], &[])]);
    let result = env.run(Some(&*model), &req);
    let sel = only_slot(&result).selection.as_ref().unwrap();
    assert_eq!(primary_protein(&origin(&env, sel)), Some("chicken"));
    assert!(
        sel.warnings
            .iter()
            .any(|w| w == "Same main protein (chicken) as yesterday's dinner"),
        "{:?}",
        sel.warnings
    );
    // The recent meals reach the prompt.
    assert!(model.requests()[0].messages[1]
        .content
        .contains("Honey Garlic Chicken Thighs"));
    // A repeat within the window (pinned, so it is certain).
    let req = one_slot(
        "2026-11-23",
        "lunch",
        json!({"servings": 2, "pinnedRecipeId": "core-greek-salad"}),
        json!({}),
    );
    let result = env.run(None, &req);
    let sel = only_slot(&result).selection.as_ref().unwrap();
    assert_eq!(sel.warnings, ["Repeats a recipe from 2026-11-18 (lunch)"]);
    // Outside the window: no warning.
    let req = request(
        json!({"days": [{"date": "2026-11-23", "meals": {"lunch": {"servings": 2, "pinnedRecipeId": "core-greek-salad"}}}], "recentDays": 3}),
    );
    let result = env.run(None, &req);
    assert!(only_slot(&result)
        .selection
        .as_ref()
        .unwrap()
        .warnings
        .is_empty());
    // The fallback ranks yesterday's protein and recent recipes lower.
    let history = env
        .store
        .read(|db| db.meal_history("2026-11-16", "2026-11-22", 50))
        .unwrap();
    let prefs = MealPreferences::default();
    let view = coachcore::meals::score::SlotView {
        date: coachcore::kernel::date::Date::parse("2026-11-23").unwrap(),
        meal_type: MealType::Dinner,
        tags: &[],
        note: None,
        prefs: &prefs,
        recent: &history,
    };
    let cands = [
        env.recipe("core-honey-garlic-chicken"),
        env.recipe("core-chicken-tikka-masala"),
        env.recipe("core-beef-tacos"),
    ];
    let ranked = coachcore::meals::score::fallback_rank(&view, &cands);
    let order: Vec<(usize, i32)> = ranked.iter().map(|s| (s.index, s.points)).collect();
    assert_eq!(order, [(2, 0), (1, -2), (0, -6)]);
}

// ---------------------------------------------------------------------------------------------
// Exclusions never violated: a seeded property test

/// Random numbers from the library's seeded id stream (SplitMix64): 48 random bits per id.
struct SplitMix(IdGenerator);

impl SplitMix {
    fn next(&mut self) -> u64 {
        u64::from_str_radix(&self.0.next_id().replace('-', "")[..12], 16).unwrap()
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
    fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len())]
    }
}

const POOL: &[&str] = &[
    "chicken thighs",
    "eggs",
    "egg noodles",
    "peanut butter",
    "roasted peanuts",
    "walnuts",
    "milk",
    "butter",
    "cheddar cheese",
    "tofu",
    "shrimp",
    "salmon fillets",
    "wheat flour",
    "rice",
    "tomatoes",
    "cherry tomato",
    "garlic",
    "onion",
    "sesame oil",
    "soy sauce",
    "mushrooms",
    "strawberries",
    "blueberry",
    "beef mince",
    "pork loin",
    "lentils",
    "chickpeas",
    "spinach",
    "coconut milk",
    "pine nuts",
];
const TAGS: &[&str] = &[
    "quick", "spicy", "italian", "comfort", "kids", "vegan", "bowl", "soup",
];
const EXCLUDE: &[&str] = &[
    "Eggs", "peanut", "nuts", "tomatoes", "milk", "shrimp", "berries", "garlic", "soy",
];
/// What each excluded ingredient must keep out of the pool (an independent table).
const MUST_EXCLUDE: &[(&str, &[&str])] = &[
    ("Eggs", &["eggs", "egg noodles"]),
    ("peanut", &["peanut butter", "roasted peanuts"]),
    ("nuts", &["walnuts", "pine nuts", "roasted peanuts"]),
    ("tomatoes", &["tomatoes", "cherry tomato"]),
    ("milk", &["milk", "coconut milk"]),
    ("shrimp", &["shrimp"]),
    ("berries", &["strawberries", "blueberry"]),
    ("garlic", &["garlic"]),
    ("soy", &["soy sauce"]),
];

#[test]
fn exclusions_and_diets_are_never_violated() {
    let mut rng = SplitMix(IdGenerator::seeded(0x5EED_0012));
    // Recipes checked, by whether the request excluded something and who picked.
    let (mut checked, mut under_exclusions, mut by_model) = (0, 0, 0);
    for round in 0..12 {
        let store = Store::open_in_memory().unwrap();
        let clock = FixedClock::new(T0);
        let recipes: Vec<Recipe> = (0..120)
            .map(|i| {
                let types: Vec<MealType> = MealType::ALL
                    .iter()
                    .copied()
                    .filter(|_| rng.chance(40))
                    .collect();
                let n = 1 + rng.below(6);
                Recipe {
                    id: format!("core-r{round}-{i}"),
                    source: RecipeSource::Core,
                    title: format!("Recipe {i} {}", rng.pick(TAGS)),
                    description: format!("A {} dish", rng.pick(POOL)),
                    meal_types: if types.is_empty() {
                        vec![MealType::Dinner]
                    } else {
                        types
                    },
                    tags: (0..rng.below(3))
                        .map(|_| rng.pick(TAGS).to_string())
                        .collect::<std::collections::BTreeSet<_>>()
                        .into_iter()
                        .collect(),
                    ingredients: (0..n)
                        .map(|_| Ingredient {
                            name: rng.pick(POOL).to_string(),
                            quantity: None,
                            unit: None,
                            preparation: None,
                        })
                        .collect(),
                    prep_minutes: rng.below(40) as u32,
                    cook_minutes: rng.below(90) as u32,
                    servings: 1 + rng.below(6) as u32,
                    diets: Diet::ALL
                        .iter()
                        .copied()
                        .filter(|_| rng.chance(30))
                        .collect(),
                    origin_id: None,
                    expires_ms: None,
                    steps: vec![],
                    nutrition: None,
                }
            })
            .collect();
        meals::import_recipes(&store, &clock, recipes).unwrap();
        for _ in 0..4 {
            let days = 1 + rng.below(4);
            let req = MealPlanRequest {
                days: (0..days)
                    .map(|d| {
                        let mut meals = MealsRequest::default();
                        for t in MealType::ALL {
                            if rng.chance(50) || t == MealType::Dinner {
                                let tags: Vec<&str> =
                                    (0..rng.below(3)).map(|_| *rng.pick(TAGS)).collect();
                                // `grandma`: a word code cannot weigh, so the model is asked
                                // where candidates are close.
                                let note = rng
                                    .chance(60)
                                    .then(|| format!("with {} for grandma", rng.pick(POOL)));
                                let s = slot(1 + rng.below(4) as u32, &tags, note.as_deref());
                                meals.set(t, s);
                            }
                        }
                        DayRequest {
                            date: format!("2026-12-{:02}", d + 1),
                            meals,
                        }
                    })
                    .collect(),
                preferences: MealPreferences {
                    diet: rng.chance(50).then(|| *rng.pick(&Diet::ALL)),
                    excluded_ingredients: (0..rng.below(4))
                        .map(|_| rng.pick(EXCLUDE).to_string())
                        .collect(),
                    max_prep_minutes: rng.chance(50).then(|| rng.below(30) as u32),
                    max_cook_minutes: None,
                    ..MealPreferences::default()
                },
                recent_days: None,
            };
            // Half the runs with a model that always names its first candidate.
            let model: Option<Arc<ScriptedModel>> = rng
                .chance(50)
                .then(|| ScriptedModel::texts((0..40).map(|_| reply(&[("r1", 0.9)], &[]))));
            let settings = PlanSettings::default();
            let cancel = CancelToken::new();
            let env = PlanEnv {
                store: &store,
                clock: &clock,
                model: model.as_deref().map(|m| m as &dyn LanguageModel),
                settings: &settings,
                cancel: &cancel,
            };
            let result = plan(&env, &mut IdGenerator::seeded(round), &req, &mut |_, _| {}).unwrap();
            let terms = exclusion_terms(&req.preferences.excluded_ingredients);
            for day in &result.days {
                for (t, s) in day.meals.slots() {
                    let Some(sel) = &s.selection else { continue };
                    by_model += usize::from(sel.picked_by == PickedBy::Model);
                    let mut ids = vec![sel.recipe_id.clone()];
                    ids.extend(sel.alternatives.iter().map(|a| a.recipe_id.clone()));
                    for id in ids {
                        let r = store.read(|db| db.recipe(&id)).unwrap().unwrap();
                        assert_eq!(
                            violation(&r, t, &req.preferences, &terms),
                            None,
                            "{id} in {req:?}"
                        );
                        for e in &req.preferences.excluded_ingredients {
                            let banned = MUST_EXCLUDE.iter().find(|(k, _)| k == e).unwrap().1;
                            assert!(
                                r.ingredients
                                    .iter()
                                    .all(|i| !banned.contains(&i.name.as_str())),
                                "{id} has {e}"
                            );
                        }
                        checked += 1;
                        under_exclusions +=
                            usize::from(!req.preferences.excluded_ingredients.is_empty());
                    }
                }
            }
        }
    }
    // The property was exercised: many selections, many under exclusions, both pickers.
    assert!(
        checked >= 100 && under_exclusions >= 50 && by_model >= 20,
        "checked {checked}, under exclusions {under_exclusions}, by the model {by_model}"
    );
}

// ---------------------------------------------------------------------------------------------
// Jobs

#[derive(Default)]
struct Events(Mutex<Vec<MealPlanEvent>>);

impl PlanSink for Events {
    fn on_event(&self, event: MealPlanEvent) {
        self.0.lock().unwrap().push(event);
    }
}

impl MealPlanListener for Events {
    fn on_event(&self, event: MealPlanEvent) -> Result<(), coachcore::ffi::ListenerError> {
        self.0.lock().unwrap().push(event);
        Ok(())
    }
}

fn coach_on(path: &std::path::Path) -> Arc<Coach> {
    Arc::new(Coach::with_store(
        Store::open(path).unwrap(),
        Arc::new(FixedClock::new(T0)),
    ))
}

#[test]
fn a_job_is_read_back_after_reopening() {
    let env = Env::new();
    let path = env.path.clone();
    drop(env.store);
    let coach = coach_on(&path);
    let events = Events::default();
    let req = week_request();
    let job = coach
        .meals()
        .plan_with(req, None, &events, &CancelToken::new())
        .unwrap();
    assert_eq!(job.status, JobStatus::Complete);
    assert_eq!((job.processed_slots, job.total_slots), (21, 21));
    let evs = events.0.into_inner().unwrap();
    assert_eq!(evs.len(), 22);
    assert_eq!(
        evs[0],
        MealPlanEvent::Progress {
            processed_slots: 1,
            total_slots: 21
        }
    );
    let MealPlanEvent::Completed {
        status,
        slot_failures_count,
        result,
    } = &evs[21]
    else {
        panic!("{:?}", evs[21])
    };
    assert_eq!((*status, *slot_failures_count), (PlanOutcome::Completed, 0));
    assert_eq!(Some(result), job.result.as_ref());
    let v = serde_json::to_value(&evs[21]).unwrap();
    assert_eq!(v["event"], "completed");
    assert_eq!(v["status"], "completed");
    assert_eq!(v["slotFailuresCount"], 0);
    drop(coach);
    let coach = coach_on(&path);
    let back = coach.meals().job(job.id.clone()).unwrap().unwrap();
    assert_eq!(back.status, JobStatus::Complete);
    assert_eq!(back.result, job.result);
    let v = serde_json::to_value(&back).unwrap();
    assert_eq!(v["status"], "COMPLETE");
    assert_eq!(v["errorCode"], Value::Null);
    assert!(coach.meals().job("no-such-job".into()).unwrap().is_none());
    // Confirming records the history and keeps the staged copies.
    let n = coach.meals().confirm(back.result.clone().unwrap()).unwrap();
    assert_eq!(n, 21);
    let hist = coach
        .meals()
        .history("2026-11-23".into(), "2026-11-29".into())
        .unwrap();
    assert_eq!(hist.len(), 21);
    let sel = back.result.unwrap().days[0]
        .meals
        .breakfast
        .clone()
        .unwrap()
        .selection
        .unwrap();
    assert_eq!(
        coach
            .meals()
            .recipe(sel.recipe_id)
            .unwrap()
            .unwrap()
            .expires_ms,
        None
    );
    assert_eq!(hist[0].recipe_id, origin_of(&coach, &hist[0].recipe_id));
}

fn origin_of(coach: &Coach, id: &str) -> String {
    let r = coach.meals().recipe(id.into()).unwrap().unwrap();
    r.origin_id.unwrap_or(r.id)
}

#[test]
fn a_job_cut_off_by_a_crash_reads_failed_once_its_lease_ran_out() {
    let env = Env::new();
    let req = week_request();
    // A runner that died with its process: its rows are left RUNNING and PENDING under their
    // owner (another open of the file), with the lease it last renewed; and a row from before
    // leases, without an owner.
    let json = serde_json::to_string(&req).unwrap();
    let dead = jobs::JobOwner {
        pid: 1,
        instance: "an-open-that-crashed",
    };
    env.store
        .write(|db| {
            db.insert_meal_plan_job("job-crashed", &json, 21, T0, &dead, T0 + jobs::LEASE_MS)?;
            db.set_meal_plan_job_progress(
                "job-crashed",
                dead.instance,
                JobStatus::Running,
                5,
                T0 + 1,
                T0 + 1 + jobs::LEASE_MS,
            )?;
            db.insert_meal_plan_job("job-pending", &json, 21, T0, &dead, T0 + jobs::LEASE_MS)
        })
        .unwrap();
    let path = env.path.clone();
    drop(env.store);
    let raw = rusqlite::Connection::open(&path).unwrap();
    raw.execute(
        "INSERT INTO meal_plan_jobs (id, status, request_json, total_slots, created_ms, updated_ms)
         VALUES ('job-old', 'RUNNING', ?1, 21, ?2, ?2)",
        rusqlite::params![json, T0],
    )
    .unwrap();
    // Within the lease another process cannot tell a dead runner from a live one: running. The
    // job from before leases reads interrupted at once, as it did.
    let coach = coach_on(&path);
    let job = coach.meals().job("job-crashed".into()).unwrap().unwrap();
    assert_eq!(job.status, JobStatus::Running, "{job:?}");
    let old = coach.meals().job("job-old".into()).unwrap().unwrap();
    assert_eq!(old.error_code.as_deref(), Some("interrupted"), "{old:?}");
    // Once the lease it renewed last has run out: interrupted.
    let later = Coach::with_store(
        Store::open(&path).unwrap(),
        Arc::new(FixedClock::new(T0 + 1 + jobs::LEASE_MS)),
    );
    let job = later.meals().job("job-crashed".into()).unwrap().unwrap();
    assert_eq!(job.status, JobStatus::Failed);
    assert_eq!(job.error_code.as_deref(), Some("interrupted"));
    assert_eq!(job.processed_slots, 5, "the progress it had is kept");
    assert!(job.error_message.unwrap().contains("start it again"));
    // Starting a job sweeps the others.
    let store = Store::open(&path).unwrap();
    assert_eq!(
        store
            .read(|db| db.meal_plan_job("job-pending"))
            .unwrap()
            .unwrap()
            .status,
        JobStatus::Pending
    );
    assert_eq!(
        jobs::recover_interrupted(&store, &FixedClock::new(T0 + jobs::LEASE_MS)).unwrap(),
        1
    );
    assert_eq!(
        store
            .read(|db| db.meal_plan_job("job-pending"))
            .unwrap()
            .unwrap()
            .error_code
            .as_deref(),
        Some("interrupted")
    );
}

/// A model that blocks until cancelled.
struct Blocking;

impl LanguageModel for Blocking {
    fn info(&self) -> ModelInfo {
        ModelInfo {
            name: "blocking".into(),
            context_tokens: 4096,
            constrains_json_schema: false,
        }
    }
    fn generate(
        &self,
        _: GenerationRequest,
        _: Option<Arc<dyn TokenListener>>,
        cancel: Arc<CancelToken>,
    ) -> Result<GenerationResult, LlmError> {
        while !cancel.is_cancelled() {
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
        Err(LlmError::Cancelled)
    }
}

#[test]
fn a_running_job_is_cancelled_and_reads_failed() {
    let env = Env::new();
    let path = env.path.clone();
    drop(env.store);
    let coach = coach_on(&path);
    coach.model().set_assistant_model(Some(Arc::new(Blocking)));
    let events = Arc::new(Events::default());
    let task = coach
        .meals()
        .plan(
            week_request(),
            Some(events.clone() as Arc<dyn MealPlanListener>),
        )
        .unwrap();
    // Running: the stored job is not interrupted (its runner is alive here).
    let mut tries = 0;
    loop {
        let job = coach.meals().job(task.id()).unwrap().unwrap();
        assert!(
            matches!(job.status, JobStatus::Pending | JobStatus::Running),
            "{job:?}"
        );
        if job.status == JobStatus::Running || tries > 200 {
            break;
        }
        tries += 1;
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    assert!(!task.is_finished());
    task.cancel();
    let job = task.wait();
    assert_eq!(job.status, JobStatus::Failed);
    assert_eq!(job.error_code.as_deref(), Some("cancelled"));
    let evs = events.0.lock().unwrap().clone();
    assert!(
        matches!(evs.last(), Some(MealPlanEvent::Failed { error_code, .. }) if error_code == "cancelled"),
        "{evs:?}"
    );
    let stored = coach.meals().job(task.id()).unwrap().unwrap();
    assert_eq!(stored.status, JobStatus::Failed);
    assert_eq!(stored.error_code.as_deref(), Some("cancelled"));
    assert_eq!(task.wait(), job, "wait returns the same envelope again");
}

/// A listener that panics on every event.
struct Panicking;

impl MealPlanListener for Panicking {
    fn on_event(&self, _: MealPlanEvent) -> Result<(), coachcore::ffi::ListenerError> {
        panic!("listener bug");
    }
}

#[test]
fn a_started_job_completes_with_events_even_if_the_listener_panics() {
    let env = Env::new();
    let path = env.path.clone();
    drop(env.store);
    let coach = coach_on(&path);
    let events = Arc::new(Events::default());
    let req = one_slot(
        "2026-11-23",
        "snack",
        json!({"servings": 2, "tags": ["dip"]}),
        json!({}),
    );
    let task = coach
        .meals()
        .plan(
            req.clone(),
            Some(events.clone() as Arc<dyn MealPlanListener>),
        )
        .unwrap();
    let job = task.wait();
    assert_eq!(job.status, JobStatus::Complete);
    let evs = events.0.lock().unwrap().clone();
    assert_eq!(evs.len(), 2);
    assert!(matches!(
        evs[1],
        MealPlanEvent::Completed {
            status: PlanOutcome::Completed,
            ..
        }
    ));
    let task = coach.meals().plan(req, Some(Arc::new(Panicking))).unwrap();
    assert_eq!(task.wait().status, JobStatus::Complete);
    assert_eq!(
        coach.meals().job(task.id()).unwrap().unwrap().status,
        JobStatus::Complete
    );
    // An invalid request throws and stores nothing.
    let bad = request(json!({"days": []}));
    let e = coach.meals().plan(bad, None).unwrap_err();
    assert_eq!(e.code(), "invalid_argument");
}

#[test]
fn meals_are_logged_for_known_recipes_only() {
    let env = Env::new();
    let e = meals::log_meal(
        &env.store,
        &env.clock,
        &MealLog {
            date: "2026-11-20".into(),
            meal_type: MealType::Lunch,
            recipe_id: "core-nope".into(),
        },
    )
    .unwrap_err();
    assert!(matches!(e, Error::NotFound(_)));
    let e = meals::log_meal(
        &env.store,
        &env.clock,
        &MealLog {
            date: "20-11-2026".into(),
            meal_type: MealType::Lunch,
            recipe_id: "core-gazpacho".into(),
        },
    )
    .unwrap_err();
    assert_eq!(invalid(e), "date must be a date YYYY-MM-DD");
    let staged = meals::stage_recipe(
        &env.store,
        &env.clock,
        &mut IdGenerator::seeded(4),
        "core-gazpacho",
    )
    .unwrap();
    let entry = meals::log_meal(
        &env.store,
        &env.clock,
        &MealLog {
            date: "2026-11-20".into(),
            meal_type: MealType::Lunch,
            recipe_id: staged.id,
        },
    )
    .unwrap();
    assert_eq!(
        entry.recipe_id, "core-gazpacho",
        "a staged copy counts as its core recipe"
    );
    assert_eq!(entry.protein, None);
}

// ---------------------------------------------------------------------------------------------
// The documented examples (tests/data/meals/): each request's plan with the deterministic
// fallback is a golden file (`UPDATE_GOLDEN=1` rewrites them).

#[test]
fn the_example_requests_give_the_golden_plans() {
    let dir = format!("{}/tests/data/meals", env!("CARGO_MANIFEST_DIR"));
    for name in ["week", "vegan-quick", "nothing-fits"] {
        let env = Env::new();
        meals::log_meal(
            &env.store,
            &env.clock,
            &MealLog {
                date: "2026-11-22".into(),
                meal_type: MealType::Dinner,
                recipe_id: "core-thai-green-curry".into(),
            },
        )
        .unwrap();
        let text = std::fs::read_to_string(format!("{dir}/{name}.request.json")).unwrap();
        let req = coachcore::Meals::request_from_json(&text).unwrap();
        let result = env.run(None, &req);
        let got = serde_json::to_string_pretty(&result).unwrap() + "\n";
        let path = format!("{dir}/{name}.result.json");
        if std::env::var_os("UPDATE_GOLDEN").is_some() {
            std::fs::write(&path, &got).unwrap();
        }
        let want = std::fs::read_to_string(&path).unwrap_or_default();
        assert_eq!(
            got, want,
            "{name}: run with UPDATE_GOLDEN=1 to rewrite {path}"
        );
    }
}
