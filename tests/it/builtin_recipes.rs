//! The built-in recipes (issue 24) and recipe management: on the first open with no import,
//! upgraded in place (user recipes, app-imported recipes and the hidden list untouched, removed
//! built-ins gone), a user recipe with a built-in's id wins, the open option, two processes on a
//! new file, paging, search, hiding and deleting, and the user-data export and erase around them.

use std::path::Path;
use std::process::Command;
use std::sync::{Arc, Barrier};

use coachcore::db::Store;
use coachcore::kernel::clock::FixedClock;
use coachcore::meals::service::builtin::{self, builtin_recipes, CORE_RECIPES_VERSION};
use coachcore::meals::{MealType, Recipe, RecipeSource};
use coachcore::{Coach, CoachError, OpenOptions};

use crate::common::{run_coach, run_coach_with, Child};
use crate::data_export::T0;

fn with_builtins(on: bool) -> OpenOptions {
    OpenOptions {
        builtin_recipes: on,
    }
}

/// A `Coach` on `path` with or without the built-in recipes, its clock at `T0`.
fn open(path: &Path, builtins: bool) -> Coach {
    Coach::with_store_options(
        Store::open(path).unwrap(),
        Arc::new(FixedClock::new(T0)),
        &with_builtins(builtins),
    )
}

/// Every recipe id of the list of `source`, in list order.
fn ids(c: &Coach, source: Option<RecipeSource>) -> Vec<String> {
    let meals = c.meals();
    let mut out = Vec::new();
    loop {
        let page = meals.list_recipes(out.len() as u32, 200, source).unwrap();
        if page.recipes.is_empty() {
            return out;
        }
        out.extend(page.recipes.into_iter().map(|r| r.id));
    }
}

/// The version of the built-in set the file records, read with SQL.
fn stored_version(path: &Path) -> Option<String> {
    let conn = rusqlite::Connection::open(path).unwrap();
    conn.query_row(
        "SELECT version FROM builtin_sets WHERE name = 'recipes'",
        [],
        |r| r.get(0),
    )
    .ok()
}

fn user_recipe(id: &str, title: &str) -> Recipe {
    Recipe {
        id: id.into(),
        source: RecipeSource::User,
        title: title.into(),
        description: "A bowl of lentils with lemon.".into(),
        meal_types: vec![MealType::Lunch],
        tags: vec!["quick".into()],
        ingredients: vec![coachcore::meals::Ingredient {
            name: "red lentils".into(),
            quantity: Some(200.0),
            unit: Some("g".into()),
            preparation: None,
        }],
        prep_minutes: 5,
        cook_minutes: 20,
        servings: 2,
        diets: vec![],
        steps: vec!["Simmer the lentils.".into()],
        nutrition: None,
        origin_id: None,
        expires_ms: None,
    }
}

#[test]
fn the_first_open_has_every_built_in_recipe_without_an_import() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("fresh.db");
    let set = builtin_recipes().unwrap();
    let c = Coach::open(path.to_str().unwrap().to_string()).unwrap();
    let core = ids(&c, Some(RecipeSource::Core));
    assert_eq!(
        core.len(),
        set.len(),
        "every recipe of data/recipes/core.json"
    );
    let first = c.meals().recipe(set[0].id.clone()).unwrap().unwrap();
    assert_eq!(first, set[0], "stored as written (source core)");
    assert_eq!(stored_version(&path).as_deref(), Some(CORE_RECIPES_VERSION));
    c.shutdown();
    // A second open of a current file loads nothing.
    let store = Store::open(&path).unwrap();
    let clock = FixedClock::new(T0);
    assert_eq!(
        builtin::ensure_builtin_recipes(&store, &clock).unwrap(),
        None
    );
    // An in-memory database has them too.
    let mem = Coach::open_in_memory().unwrap();
    assert_eq!(
        mem.meals().list_recipes(0, 1, None).unwrap().total as usize,
        set.len()
    );
}

#[test]
fn the_open_option_leaves_the_built_in_recipes_out() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("none.db");
    let c =
        Coach::open_with_options(path.to_str().unwrap().to_string(), with_builtins(false)).unwrap();
    assert_eq!(c.meals().list_recipes(0, 10, None).unwrap().total, 0);
    assert_eq!(
        stored_version(&path),
        None,
        "nothing recorded: a later open loads them"
    );
    c.shutdown();
    let c = Coach::open(path.to_str().unwrap().to_string()).unwrap();
    assert_eq!(
        ids(&c, Some(RecipeSource::Core)).len(),
        builtin_recipes().unwrap().len()
    );
    let mem = Coach::open_in_memory_with_options(with_builtins(false)).unwrap();
    assert_eq!(mem.meals().list_recipes(0, 10, None).unwrap().total, 0);
}

#[test]
fn a_new_set_upgrades_in_place_and_touches_nothing_else() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("upgrade.db");
    let set = builtin_recipes().unwrap();
    let (kept, users, imported, hidden) = (&set[0], &set[1], &set[2], &set[3]);
    // The file as an older library left it: an older version of the first recipe, one the new
    // set no longer has, and the recipe the app will hide.
    let old_c = open(&path, false);
    let mut old_first = kept.clone();
    old_first.title = "Old title".into();
    let mut retired = kept.clone();
    retired.id = "core-retired".into();
    let store = Store::open(&path).unwrap();
    let clock = FixedClock::new(T0);
    let load =
        builtin::load_builtin_set(&store, &clock, &[old_first, retired, hidden.clone()], "old")
            .unwrap()
            .unwrap();
    assert_eq!((load.loaded, load.skipped, load.removed), (3, 0, 0));
    // Meanwhile: a user recipe of its own, one with an id the new set brings, a core recipe the
    // app imported under another id of the new set, and a hidden built-in.
    let m = old_c.meals();
    m.save_recipe(user_recipe("user-dal", "Lemon dal")).unwrap();
    m.save_recipe(user_recipe(&users.id, "My own version"))
        .unwrap();
    let mut app = imported.clone();
    app.title = "The app's version".into();
    m.import_recipes(serde_json::to_string(&[&app]).unwrap())
        .unwrap();
    m.hide_recipe(hidden.id.clone()).unwrap();
    assert_eq!(stored_version(&path).as_deref(), Some("old"));

    // The new library opens the file.
    let c = open(&path, true);
    let m = c.meals();
    assert_eq!(stored_version(&path).as_deref(), Some(CORE_RECIPES_VERSION));
    assert_eq!(
        m.recipe(kept.id.clone()).unwrap().unwrap().title,
        kept.title
    );
    assert_eq!(m.recipe("core-retired".into()).unwrap(), None, "removed");
    let own = m.recipe(users.id.clone()).unwrap().unwrap();
    assert_eq!(
        (own.source, own.title.as_str()),
        (RecipeSource::User, "My own version"),
        "a user recipe with a built-in's id wins"
    );
    assert_eq!(
        m.recipe(imported.id.clone()).unwrap().unwrap().title,
        "The app's version",
        "an app-imported core recipe is untouched"
    );
    assert_eq!(
        m.recipe("user-dal".into()).unwrap().unwrap().title,
        "Lemon dal"
    );
    assert_eq!(m.hidden_recipes().unwrap(), vec![hidden.id.clone()]);
    assert!(!ids(&c, None).contains(&hidden.id), "still hidden");
    // Every other built-in arrived: the set less the user's id (the app's import is core too).
    assert_eq!(ids(&c, Some(RecipeSource::Core)).len(), set.len() - 2);
    assert_eq!(ids(&c, Some(RecipeSource::User)).len(), 2);
}

#[test]
fn saving_a_user_recipe_over_a_built_in_replaces_it_for_good() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("same-id.db");
    let c = open(&path, true);
    let id = builtin_recipes().unwrap()[0].id.clone();
    let saved = c.meals().save_recipe(user_recipe(&id, "Mine")).unwrap();
    assert_eq!(saved.source, RecipeSource::User);
    // A later set (another version) skips the id.
    rusqlite::Connection::open(&path)
        .unwrap()
        .execute("UPDATE builtin_sets SET version = 'older'", [])
        .unwrap();
    let c = open(&path, true);
    let r = c.meals().recipe(id).unwrap().unwrap();
    assert_eq!((r.source, r.title.as_str()), (RecipeSource::User, "Mine"));
    // An imported (core) recipe still cannot take a user recipe's id.
    let mut core = r.clone();
    core.source = RecipeSource::Core;
    assert!(matches!(
        c.meals()
            .import_recipes(serde_json::to_string(&[core]).unwrap()),
        Err(CoachError::InvalidArgument { .. })
    ));
}

#[test]
fn hidden_recipes_leave_search_lists_and_plans() {
    let c = Coach::open_in_memory().unwrap();
    let m = c.meals();
    let target = &builtin_recipes().unwrap()[0];
    let found = m.search_recipes(target.title.clone(), None, 5).unwrap();
    assert_eq!(found[0].id, target.id, "search covers the built-in recipes");
    m.hide_recipe(target.id.clone()).unwrap();
    m.hide_recipe(target.id.clone()).unwrap();
    assert_eq!(m.hidden_recipes().unwrap(), vec![target.id.clone()]);
    let found = m.search_recipes(target.title.clone(), None, 100).unwrap();
    assert!(found.iter().all(|r| r.id != target.id));
    assert!(!ids(&c, None).contains(&target.id));
    // A search without words (every recipe of the meal type) leaves it out too: that is the
    // candidates' last tier.
    let all = m
        .search_recipes(String::new(), Some(target.meal_types[0]), 100)
        .unwrap();
    assert!(!all.is_empty() && all.iter().all(|r| r.id != target.id));
    // Still readable by id; unhidden, it is back.
    assert!(m.recipe(target.id.clone()).unwrap().is_some());
    assert!(m.unhide_recipe(target.id.clone()).unwrap());
    assert!(!m.unhide_recipe(target.id.clone()).unwrap());
    assert!(ids(&c, None).contains(&target.id));
    // Only core recipes can be hidden.
    let mine = m.save_recipe(user_recipe("", "Lemon dal")).unwrap();
    for id in [mine.id.as_str(), "no-such-recipe"] {
        assert!(matches!(
            m.hide_recipe(id.into()),
            Err(CoachError::NotFound { .. })
        ));
    }
}

#[test]
fn search_finds_user_and_core_recipes_by_their_words() {
    let c = Coach::open_in_memory().unwrap();
    let m = c.meals();
    m.save_recipe(user_recipe("user-dal", "Lemon dal")).unwrap();
    let found = m.search_recipes("lentils".into(), None, 50).unwrap();
    assert_eq!(found[0].id, "user-dal", "user recipes first");
    assert!(found.iter().all(|r| r.source != RecipeSource::Stage));
    let lunch = m
        .search_recipes("lentils".into(), Some(MealType::Breakfast), 50)
        .unwrap();
    assert!(lunch
        .iter()
        .all(|r| r.meal_types.contains(&MealType::Breakfast)));
    let without = m
        .search_recipes("lemon without lentils".into(), None, 50)
        .unwrap();
    assert!(without.iter().all(|r| r.id != "user-dal"));
    for (q, limit) in [("x", 0), ("x", 101)] {
        assert!(matches!(
            m.search_recipes(q.into(), None, limit),
            Err(CoachError::InvalidArgument { .. })
        ));
    }
    assert!(matches!(
        m.search_recipes("a".repeat(301), None, 10),
        Err(CoachError::InvalidArgument { .. })
    ));
}

#[test]
fn lists_page_through_every_recipe_once() {
    let c = Coach::open_in_memory().unwrap();
    let m = c.meals();
    m.save_recipe(user_recipe("user-b", "Zucchini fritters"))
        .unwrap();
    m.save_recipe(user_recipe("user-a", "apple porridge"))
        .unwrap();
    let n = builtin_recipes().unwrap().len();
    let mut seen = Vec::new();
    let mut offset = 0;
    loop {
        let page = m.list_recipes(offset, 7, None).unwrap();
        assert_eq!(page.total as usize, n + 2);
        if page.recipes.is_empty() {
            break;
        }
        assert!(page.recipes.len() <= 7);
        offset += page.recipes.len() as u32;
        seen.extend(page.recipes);
    }
    assert_eq!(seen.len(), n + 2);
    // User recipes first, by title without case.
    assert_eq!(seen[0].id, "user-a");
    assert_eq!(seen[1].id, "user-b");
    let mut unique: Vec<&str> = seen.iter().map(|r| r.id.as_str()).collect();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), n + 2);
    let users = m.list_recipes(0, 10, Some(RecipeSource::User)).unwrap();
    assert_eq!(users.total, 2);
    for limit in [0, 201] {
        assert!(matches!(
            m.list_recipes(0, limit, None),
            Err(CoachError::InvalidArgument { .. })
        ));
    }
}

#[test]
fn deleting_takes_user_recipes_and_refuses_core_ones() {
    let c = Coach::open_in_memory().unwrap();
    let m = c.meals();
    let mine = m.save_recipe(user_recipe("", "Lemon dal")).unwrap();
    m.delete_recipe(mine.id.clone()).unwrap();
    assert_eq!(m.recipe(mine.id.clone()).unwrap(), None);
    assert!(matches!(
        m.delete_recipe(mine.id),
        Err(CoachError::NotFound { .. })
    ));
    let core = builtin_recipes().unwrap()[0].id.clone();
    assert!(matches!(
        m.delete_recipe(core.clone()),
        Err(CoachError::InvalidArgument { .. })
    ));
    assert!(m.recipe(core.clone()).unwrap().is_some());
    // A staged copy can go.
    let staged = m.stage_recipe(core).unwrap();
    m.delete_recipe(staged.id.clone()).unwrap();
    assert_eq!(m.recipe(staged.id).unwrap(), None);
}

#[test]
fn two_opens_of_a_new_file_at_once_load_one_set() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("two.db");
    let barrier = Arc::new(Barrier::new(2));
    let opens: Vec<_> = (0..2)
        .map(|_| {
            let (path, barrier) = (path.clone(), Arc::clone(&barrier));
            std::thread::spawn(move || {
                barrier.wait();
                open(&path, true)
            })
        })
        .collect();
    let coaches: Vec<Coach> = opens.into_iter().map(|t| t.join().unwrap()).collect();
    let n = builtin_recipes().unwrap().len();
    for c in &coaches {
        assert_eq!(ids(c, Some(RecipeSource::Core)).len(), n);
    }
    let conn = rusqlite::Connection::open(&path).unwrap();
    let (rows, sets): (i64, i64) = conn
        .query_row(
            "SELECT (SELECT count(*) FROM recipes), (SELECT count(*) FROM builtin_sets)",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert_eq!((rows as usize, sets), (n, 1));
}

/// A child process of [`two_processes_open_a_new_file_at_once`]: opens `COACH_BR_DB` with the
/// built-in recipes when `COACH_BR_AT` (ms since the epoch) comes.
#[test]
#[ignore = "run as a child process by two_processes_open_a_new_file_at_once"]
fn open_child() {
    let Ok(path) = std::env::var("COACH_BR_DB") else {
        return;
    };
    let at: u128 = std::env::var("COACH_BR_AT").unwrap().parse().unwrap();
    let now = || {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_millis()
    };
    while now() < at {
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    let c = Coach::open(path).unwrap();
    println!("core={}", ids(&c, Some(RecipeSource::Core)).len());
}

#[test]
fn two_processes_open_a_new_file_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("procs.db");
    let at = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis()
        + 700;
    let children: Vec<_> = (0..2)
        .map(|_| {
            Command::new(std::env::current_exe().unwrap())
                .args([
                    "builtin_recipes::open_child",
                    "--exact",
                    "--ignored",
                    "--nocapture",
                    "-q",
                ])
                .env("COACH_BR_DB", &path)
                .env("COACH_BR_AT", at.to_string())
                .stdout(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    let n = builtin_recipes().unwrap().len();
    for child in children {
        let out = child.wait_with_output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(out.status.success(), "{text}");
        assert!(text.contains(&format!("core={n}")), "{text}");
    }
    let conn = rusqlite::Connection::open(&path).unwrap();
    let rows: i64 = conn
        .query_row("SELECT count(*) FROM recipes", [], |r| r.get(0))
        .unwrap();
    assert_eq!(rows as usize, n, "one copy of the set");
}

#[test]
fn user_data_moves_between_files_that_hold_the_built_ins() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a.db"), dir.path().join("b.db"));
    let source = open(&a, true);
    source
        .meals()
        .save_recipe(user_recipe("user-dal", "Lemon dal"))
        .unwrap();
    let hidden = builtin_recipes().unwrap()[1].id.clone();
    source.meals().hide_recipe(hidden.clone()).unwrap();
    let doc = source.data().export_all().unwrap();
    // A new file with the built-in recipes counts as empty (opened a day later).
    let target = Coach::with_store_options(
        Store::open(&b).unwrap(),
        Arc::new(FixedClock::new(T0 + 86_400_000)),
        &with_builtins(true),
    );
    target.data().import_all(&doc).unwrap();
    let m = target.meals();
    assert_eq!(
        m.recipe("user-dal".into()).unwrap().unwrap().title,
        "Lemon dal"
    );
    assert_eq!(m.hidden_recipes().unwrap(), vec![hidden]);
    let n = builtin_recipes().unwrap().len();
    assert_eq!(ids(&target, Some(RecipeSource::Core)).len(), n - 1);
    assert_eq!(stored_version(&b).as_deref(), Some(CORE_RECIPES_VERSION));
    // The built-in rows loaded again around the import are the document's, to the byte.
    let tables =
        |doc: &str| serde_json::from_str::<serde_json::Value>(doc).unwrap()["tables"].clone();
    assert_eq!(tables(&target.data().export_all().unwrap()), tables(&doc));
    // With a user recipe it is not empty any more.
    assert!(matches!(
        target.data().import_all(&doc),
        Err(CoachError::DatabaseNotEmpty { .. })
    ));
    // Erased, the file is like a new one: the built-in recipes, nothing of the user's.
    target.data().erase_all().unwrap();
    assert_eq!(m.recipe("user-dal".into()).unwrap(), None);
    assert_eq!(m.hidden_recipes().unwrap(), Vec::<String>::new());
    assert_eq!(ids(&target, Some(RecipeSource::Core)).len(), n);
}

#[test]
fn the_cli_lists_searches_and_shows_recipes() {
    let json = |o: &std::process::Output| -> serde_json::Value {
        serde_json::from_slice(&o.stdout).unwrap()
    };
    let set = builtin_recipes().unwrap();
    let out = run_coach(
        &["recipes", "list", "--limit", "3", "--source", "core"],
        "",
        false,
    );
    assert!(out.status.success());
    let v = json(&out);
    assert_eq!(v["total"], set.len());
    assert_eq!(v["recipes"].as_array().unwrap().len(), 3);
    let out = run_coach(
        &["recipes", "search", "--limit", "5", &set[0].title],
        "",
        false,
    );
    assert!(out.status.success());
    assert_eq!(json(&out)[0]["id"], set[0].id);
    let out = run_coach(&["recipes", "show", &set[0].id], "", false);
    assert_eq!(json(&out)["title"], set[0].title);
    let out = run_coach(&["recipes", "show", "no-such-recipe"], "", false);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(json(&out)["error"]["code"], "not_found");
    let out = run_coach(&["recipes", "list", "--source", "nope"], "", false);
    assert!(!out.status.success());
    let off = Child {
        env: &[("COACH_BUILTIN_RECIPES", "off")],
        ..Child::default()
    };
    let out = run_coach_with(&["recipes", "list"], b"", &off);
    assert_eq!(json(&out)["total"], 0);
}

/// A vegan week without peanut, 3 meals a day for 2 (`tests/data/meals/vegan-week.request.json`,
/// which `benches/builtin_recipes.rs` times).
fn vegan_week_request() -> coachcore::meals::MealPlanRequest {
    serde_json::from_str(&crate::data_export::data("meals/vegan-week.request.json")).unwrap()
}

#[test]
fn a_fresh_install_plans_a_vegan_week_without_peanut_from_the_built_ins() {
    let dir = tempfile::tempdir().unwrap();
    let c = open(&dir.path().join("fresh.db"), true);
    let job = c
        .meals()
        .plan_with(
            vegan_week_request(),
            None,
            &crate::data_export::Quiet,
            &coachcore::llm::CancelToken::new(),
        )
        .unwrap();
    let result = job.result.expect("a finished plan");
    assert_eq!(result.slot_failures_count, 0);
    let vegan = coachcore::meals::Diet::Vegan.bit();
    let mut titles = std::collections::HashSet::new();
    for day in &result.days {
        for t in [MealType::Breakfast, MealType::Lunch, MealType::Dinner] {
            let sel = day.meals.get(t).and_then(|s| s.selection.clone());
            let sel = sel.unwrap_or_else(|| panic!("{} {t:?} is filled", day.date));
            let r = c.meals().recipe(sel.recipe_id.clone()).unwrap().unwrap();
            assert!(
                coachcore::meals::Diet::implied_mask(&r.diets) & vegan != 0,
                "{} is vegan",
                r.title
            );
            assert!(
                r.ingredients.iter().all(|i| !i.name.contains("peanut")),
                "{} has no peanut",
                r.title
            );
            assert!(r.nutrition.is_some(), "{} carries its nutrition", r.title);
            titles.insert(r.title);
        }
    }
    // Variety: a week of 21 meals is not a handful of recipes on repeat.
    assert!(titles.len() >= 12, "{} distinct recipes", titles.len());
}
