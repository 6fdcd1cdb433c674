//! Shopping lists of meal plans (issue 24) on real SQLite: a plan of built-in recipes pinned for
//! two days gives an exact list (scaled, summed within each unit kind, by store section, staples
//! left out), a subset of days, a staged copy that expired listed as missing, a repeat bought
//! once, unknown and unfinished jobs refused with typed errors, and staples stored per user.

use std::sync::Arc;

use coachcore::db::Store;
use coachcore::kernel::clock::FixedClock;
use coachcore::kernel::error::CoachError;
use coachcore::llm::CancelToken;
use coachcore::meals::service::jobs::{JobOwner, PlanSink};
use coachcore::meals::shopping::{ShoppingItem, ShoppingList, ShoppingListOptions, StoreSection};
use coachcore::meals::*;
use coachcore::Coach;
use serde_json::json;

const T0: i64 = 1_795_000_000_000;
const HOUR: i64 = 3_600_000;

struct Quiet;

impl PlanSink for Quiet {
    fn on_event(&self, _: MealPlanEvent) {}
}

struct Env {
    _dir: tempfile::TempDir,
    path: std::path::PathBuf,
    store: Store,
    clock: Arc<FixedClock>,
    coach: Coach,
}

fn env() -> Env {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("shopping.db");
    let clock = Arc::new(FixedClock::new(T0));
    let coach = Coach::with_store(Store::open(&path).unwrap(), clock.clone());
    let starter = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/recipes/starter.json"
    ))
    .unwrap();
    coach.meals().import_recipes(starter).unwrap();
    Env {
        store: Store::open(&path).unwrap(),
        path,
        _dir: dir,
        clock,
        coach,
    }
}

/// Shakshuka (serves 3) for 3 and paella (serves 6) for 6 on Saturday, shakshuka for 6 on
/// Sunday: all pinned, so the plan is known.
fn weekend(e: &Env) -> MealPlanJob {
    let request: MealPlanRequest = serde_json::from_value(json!({"days": [
        {"date": "2026-12-05", "meals": {
            "breakfast": {"servings": 3, "pinnedRecipeId": "core-shakshuka"},
            "dinner": {"servings": 6, "pinnedRecipeId": "core-paella"}}},
        {"date": "2026-12-06", "meals": {
            "breakfast": {"servings": 6, "pinnedRecipeId": "core-shakshuka"}}}
    ]}))
    .unwrap();
    let job = e
        .coach
        .meals()
        .plan_with(request, None, &Quiet, &CancelToken::new())
        .unwrap();
    assert_eq!(job.status, JobStatus::Complete);
    job
}

/// `name: amounts (to taste)` per item, by section.
fn summary(items: &[ShoppingItem]) -> Vec<(StoreSection, String)> {
    items
        .iter()
        .map(|i| {
            let amounts: Vec<String> = i.amounts.iter().map(ToString::to_string).collect();
            let taste = if i.to_taste { " (to taste)" } else { "" };
            (
                i.section,
                format!("{}: {}{taste}", i.name, amounts.join(" + ")),
            )
        })
        .collect()
}

fn listed(l: &ShoppingList) -> Vec<(StoreSection, String)> {
    let items: Vec<ShoppingItem> = l.sections.iter().flat_map(|s| s.items.clone()).collect();
    summary(&items)
}

#[test]
fn a_planned_weekend_gives_the_exact_list() {
    let e = env();
    let job = weekend(&e);
    let meals = e.coach.meals();
    assert_eq!(
        meals
            .set_pantry_staples(vec!["Salt".into(), "olive oil".into()])
            .unwrap(),
        ["Salt", "olive oil"]
    );
    let l = meals.shopping_list(job.id.clone(), None).unwrap();
    assert_eq!(l.job_id, job.id);
    assert_eq!(l.dates, ["2026-12-05", "2026-12-06"]);
    use StoreSection::*;
    let s = |section, text: &str| (section, text.to_string());
    assert_eq!(
        listed(&l),
        [
            s(Produce, "garlic: 9 cloves"),
            s(Produce, "lemon: 1"),
            s(Produce, "onion: 4"),
            s(Produce, "parsley: 3 handfuls"),
            s(Produce, "red bell pepper: 4"),
            s(MeatAndFish, "mussels: 500 g"),
            s(MeatAndFish, "raw prawns: 300 g"),
            s(MeatAndFish, "squid: 200 g"),
            s(DairyAndEggs, "eggs: 18"),
            s(Pantry, "fish stock: 1 l"),
            s(Pantry, "paella rice: 350 g"),
            // 800 g + 1,600 g.
            s(Canned, "canned chopped tomatoes: 2.4 kg"),
            // 1 tsp + 2 tsp.
            s(SpicesAndCondiments, "ground cumin: 1 tbsp"),
            s(SpicesAndCondiments, "saffron: 1 pinch"),
            s(SpicesAndCondiments, "smoked paprika: 1 tbsp"),
            s(Frozen, "frozen peas: 150 g"),
        ]
    );
    // 2 + 4 + 3 tbsp; salt to taste.
    assert_eq!(
        summary(&l.skipped_staples),
        [
            s(Pantry, "olive oil: 9 tbsp"),
            s(SpicesAndCondiments, "salt:  (to taste)")
        ]
    );
    let garlic = &l.sections[0].items[0];
    let meals_of = |i: &ShoppingItem| -> Vec<(String, MealType, String)> {
        i.meals
            .iter()
            .map(|m| (m.date.clone(), m.meal_type, m.recipe_title.clone()))
            .collect()
    };
    assert_eq!(
        meals_of(garlic),
        [
            ("2026-12-05".into(), MealType::Breakfast, "Shakshuka".into()),
            (
                "2026-12-05".into(),
                MealType::Dinner,
                "Seafood Paella".into()
            ),
            ("2026-12-06".into(), MealType::Breakfast, "Shakshuka".into()),
        ]
    );
    assert!(l.missing_recipes.is_empty());

    // Sunday only, staples included: shakshuka for 6.
    let sunday = meals
        .shopping_list(
            job.id.clone(),
            Some(ShoppingListOptions {
                days: vec!["2026-12-06".into()],
                include_staples: true,
            }),
        )
        .unwrap();
    assert_eq!(sunday.dates, ["2026-12-06"]);
    assert_eq!(
        listed(&sunday),
        [
            s(Produce, "garlic: 4 cloves"),
            s(Produce, "onion: 2"),
            s(Produce, "parsley: 2 handfuls"),
            s(Produce, "red bell pepper: 2"),
            s(DairyAndEggs, "eggs: 12"),
            s(Pantry, "olive oil: 0.25 cup"),
            s(Canned, "canned chopped tomatoes: 1.6 kg"),
            s(SpicesAndCondiments, "ground cumin: 2 tsp"),
            s(SpicesAndCondiments, "salt:  (to taste)"),
            s(SpicesAndCondiments, "smoked paprika: 2 tsp"),
        ]
    );
    assert!(sunday.skipped_staples.is_empty());

    // The plan was not confirmed: 72 h later its staged copies are gone. The list says which
    // meals it cannot cover instead of dropping them.
    e.clock.advance_ms(72 * HOUR);
    assert_eq!(meals.cleanup_staged().unwrap(), 3);
    let later = meals.shopping_list(job.id.clone(), None).unwrap();
    assert!(later.sections.is_empty());
    let missing: Vec<(String, MealType, String)> = later
        .missing_recipes
        .iter()
        .map(|m| (m.date.clone(), m.meal_type, m.title.clone()))
        .collect();
    assert_eq!(
        missing,
        [
            ("2026-12-05".into(), MealType::Breakfast, "Shakshuka".into()),
            (
                "2026-12-05".into(),
                MealType::Dinner,
                "Seafood Paella".into()
            ),
            ("2026-12-06".into(), MealType::Breakfast, "Shakshuka".into()),
        ]
    );
}

#[test]
fn a_confirmed_plan_keeps_its_list() {
    let e = env();
    let job = weekend(&e);
    let meals = e.coach.meals();
    let before = meals.shopping_list(job.id.clone(), None).unwrap();
    meals.confirm(job.result.clone().unwrap()).unwrap();
    e.clock.advance_ms(100 * HOUR);
    meals.cleanup_staged().unwrap();
    assert_eq!(meals.shopping_list(job.id.clone(), None).unwrap(), before);
}

/// Stores a finished job with `result` as its plan, as a runner would.
fn store_complete(e: &Env, id: &str, result: MealPlanResult) {
    let owner = JobOwner {
        pid: 1,
        instance: "test",
    };
    e.store
        .write(|db| db.insert_meal_plan_job(id, "{}", 3, T0, &owner, T0 + 30_000))
        .unwrap();
    let job = MealPlanJob {
        id: id.into(),
        status: JobStatus::Complete,
        result: Some(result),
        error_code: None,
        error_message: None,
        processed_slots: 3,
        total_slots: 3,
        created_ms: T0,
        updated_ms: T0,
    };
    assert!(e
        .store
        .write(|db| db.finish_meal_plan_job(&job, None, T0))
        .unwrap());
}

#[test]
fn a_repeat_of_a_meal_prep_slot_is_bought_once() {
    let e = env();
    let job = weekend(&e);
    let mut plan = job.result.unwrap();
    // Sunday's breakfast becomes a repeat of Saturday's (cooked once, for 6).
    {
        let sat = plan.days[0].meals.breakfast.as_mut().unwrap();
        sat.servings = 6;
        sat.is_meal_prep = true;
    }
    let sel = plan.days[1]
        .meals
        .breakfast
        .as_mut()
        .unwrap()
        .selection
        .as_mut()
        .unwrap();
    sel.picked_by = PickedBy::Repeat;
    sel.repeat_of = Some(SlotRef {
        date: "2026-12-05".into(),
        meal_type: MealType::Breakfast,
    });
    store_complete(&e, "job-prep", plan);
    let l = e
        .coach
        .meals()
        .shopping_list("job-prep".into(), None)
        .unwrap();
    let eggs = l
        .sections
        .iter()
        .flat_map(|s| s.items.iter())
        .find(|i| i.name == "eggs")
        .unwrap();
    assert_eq!(summary(std::slice::from_ref(eggs))[0].1, "eggs: 12");
    assert_eq!(eggs.meals.len(), 1, "{:?}", eggs.meals);
    assert_eq!(eggs.meals[0].date, "2026-12-05");
    // Sunday alone buys nothing: its meal is cooked on Saturday.
    let sunday = e
        .coach
        .meals()
        .shopping_list(
            "job-prep".into(),
            Some(ShoppingListOptions {
                days: vec!["2026-12-06".into()],
                include_staples: false,
            }),
        )
        .unwrap();
    assert!(sunday.sections.is_empty() && sunday.missing_recipes.is_empty());
}

#[test]
fn unknown_and_unfinished_jobs_are_typed_errors() {
    let e = env();
    let meals = e.coach.meals();
    assert!(matches!(
        meals.shopping_list("no-such-job".into(), None),
        Err(CoachError::NotFound { .. })
    ));
    assert!(matches!(
        meals.shopping_list("bad id!".into(), None),
        Err(CoachError::InvalidArgument { .. })
    ));
    // A job another process is running (its lease still good) has no plan yet.
    let owner = JobOwner {
        pid: 1,
        instance: "another-process",
    };
    e.store
        .write(|db| db.insert_meal_plan_job("job-running", "{}", 3, T0, &owner, T0 + 30_000))
        .unwrap();
    let err = meals.shopping_list("job-running".into(), None).unwrap_err();
    assert_eq!(err.code(), "job_not_complete");
    assert!(
        matches!(&err, CoachError::JobNotComplete { status, .. } if status == "PENDING"),
        "{err:?}"
    );
    // Its process died: once the lease ran out the job reads FAILED, still without a plan.
    e.clock.advance_ms(31_000);
    let err = meals.shopping_list("job-running".into(), None).unwrap_err();
    assert!(
        matches!(&err, CoachError::JobNotComplete { status, .. } if status == "FAILED"),
        "{err:?}"
    );
    // A day outside the plan.
    let job = weekend(&e);
    let err = meals
        .shopping_list(
            job.id,
            Some(ShoppingListOptions {
                days: vec!["2026-12-07".into()],
                include_staples: false,
            }),
        )
        .unwrap_err();
    assert_eq!(
        err,
        CoachError::InvalidArgument {
            detail: "days[0] is not a day of the plan".into()
        }
    );
}

#[test]
fn staples_are_stored_per_user_and_bounded() {
    let e = env();
    let meals = e.coach.meals();
    assert_eq!(meals.pantry_staples().unwrap(), Vec::<String>::new());
    assert_eq!(
        meals
            .set_pantry_staples(vec![" salt".into(), "Onions".into(), "onion".into()])
            .unwrap(),
        ["salt", "Onions"]
    );
    let too_many: Vec<String> = (0..201).map(|i| format!("thing {i}")).collect();
    assert!(matches!(
        meals.set_pantry_staples(too_many),
        Err(CoachError::InvalidArgument { .. })
    ));
    assert!(matches!(
        meals.set_pantry_staples(vec!["x".repeat(81)]),
        Err(CoachError::InvalidArgument { .. })
    ));
    // Nothing changed by a refused list; another open of the file reads the same.
    let other = Coach::with_store(Store::open(&e.path).unwrap(), e.clock.clone());
    assert_eq!(other.meals().pantry_staples().unwrap(), ["salt", "Onions"]);
    assert_eq!(
        meals.set_pantry_staples(vec![]).unwrap(),
        Vec::<String>::new()
    );
    assert_eq!(meals.pantry_staples().unwrap(), Vec::<String>::new());
}
