//! The meal-planning service: the only meal code that touches the store or a model. Recipes
//! (import, save, stage, keep, cleanup), the meal history (confirm a plan, log a meal), and plan
//! jobs (run a request slot by slot: search, rerank or fallback, variety checks, events).
//!
//! | file | what |
//! |---|---|
//! | `mod.rs` | recipes (import, save, list, search, delete, hide) and the meal history |
//! | [`builtin`] | the built-in recipes: the embedded set, loaded and upgraded on open |
//! | [`plan`] | planning a request slot by slot (search, model or fallback, staging) |
//! | [`jobs`] | plan jobs: the persisted status, events, cancellation, interrupted runners |
//! | [`shopping`] | shopping lists of finished plans, pantry staples |

pub mod builtin;
pub mod jobs;
pub mod plan;
pub mod shopping;

use crate::db::Store;
use crate::kernel::clock::Clock;
use crate::kernel::error::{Error, Result};
use crate::kernel::ids::IdGenerator;

use super::model::{
    MealHistoryEntry, MealLog, MealPlanResult, MealType, Recipe, RecipePage, RecipeSource,
};
use super::score::history_id;
use super::search::primary_protein;
use super::validate;

/// How long a staged copy lives unless kept: 72 hours.
pub const STAGE_TTL_MS: i64 = 72 * 3_600_000;

/// Imports core recipes from a JSON array (the format of `tests/data/recipes/`), replacing core
/// recipes with the same id. All or nothing: one invalid recipe refuses the whole import. Returns
/// how many were imported.
pub fn import_recipes_json(store: &Store, clock: &dyn Clock, json: &str) -> Result<u32> {
    validate::json_size("recipes JSON", json, validate::MAX_IMPORT_BYTES)?;
    crate::kernel::limits::check_json(json, &crate::kernel::limits::Caps::RECIPES)
        .map_err(|e| Error::InvalidArgument(format!("recipes JSON: {}", e.detail)))?;
    let recipes: Vec<Recipe> = crate::kernel::error::parse_request(json)
        .map_err(|e| Error::InvalidArgument(e.to_string()))?;
    import_recipes(store, clock, recipes)
}

/// Imports core recipes (see [`import_recipes_json`]).
pub fn import_recipes(store: &Store, clock: &dyn Clock, recipes: Vec<Recipe>) -> Result<u32> {
    if recipes.len() > validate::MAX_IMPORT_RECIPES {
        return Err(Error::InvalidArgument(format!(
            "recipes must hold at most {} entries",
            validate::MAX_IMPORT_RECIPES
        )));
    }
    let mut seen = std::collections::HashSet::new();
    for (i, r) in recipes.iter().enumerate() {
        validate::recipe(&format!("[{i}]"), r, true)?;
        if !seen.insert(r.id.as_str()) {
            return Err(Error::InvalidArgument(format!(
                "[{i}].id repeats an earlier id"
            )));
        }
    }
    let now = clock.now_ms();
    store.write(|db| {
        for r in &recipes {
            let mut r = r.clone();
            r.source = RecipeSource::Core;
            r.origin_id = None;
            r.expires_ms = None;
            db.upsert_recipe(&r, now)?;
        }
        Ok(recipes.len() as u32)
    })
}

/// Saves a recipe to the user's book (new, or replacing the user recipe with its id); an empty id
/// gets a new one. A built-in recipe with the id gives way: the user's recipe replaces it, and
/// later loads of the built-in set skip that id. Returns the stored recipe.
pub fn save_recipe(
    store: &Store,
    clock: &dyn Clock,
    ids: &mut IdGenerator,
    mut recipe: Recipe,
) -> Result<Recipe> {
    validate::recipe("recipe", &recipe, false)?;
    if recipe.id.is_empty() {
        recipe.id = format!("user-{}", ids.next_id());
    }
    recipe.source = RecipeSource::User;
    recipe.origin_id = None;
    recipe.expires_ms = None;
    let now = clock.now_ms();
    store.write(|db| {
        db.delete_builtin_recipe(&recipe.id)?;
        db.upsert_recipe(&recipe, now)
    })?;
    Ok(recipe)
}

/// Recipes per page, at most.
pub const MAX_PAGE: u32 = 200;
/// Search results, at most.
pub const MAX_SEARCH_RESULTS: u32 = 100;
/// Characters of a search text, at most.
const MAX_QUERY_CHARS: usize = 300;

/// One page of the recipes that are not hidden: of `source`, or user and core recipes when
/// `None`; user recipes first, then by title. `limit` 1 to [`MAX_PAGE`].
pub fn list_recipes(
    store: &Store,
    source: Option<RecipeSource>,
    offset: u32,
    limit: u32,
) -> Result<RecipePage> {
    if !(1..=MAX_PAGE).contains(&limit) {
        return Err(Error::InvalidArgument(format!(
            "limit must be 1 to {MAX_PAGE}"
        )));
    }
    let (recipes, total) = store.read(|db| db.recipe_page(source, offset, limit))?;
    Ok(RecipePage { recipes, total })
}

/// Searches user and core recipes (hidden ones left out) with the candidate search's full-text
/// index: every word of `text` first, then any of them (`meals::search::text_query`), of
/// `meal_type` or any, best first, at most `limit` (1 to [`MAX_SEARCH_RESULTS`]).
pub fn search_recipes(
    store: &Store,
    text: &str,
    meal_type: Option<MealType>,
    limit: u32,
) -> Result<Vec<Recipe>> {
    if !(1..=MAX_SEARCH_RESULTS).contains(&limit) {
        return Err(Error::InvalidArgument(format!(
            "limit must be 1 to {MAX_SEARCH_RESULTS}"
        )));
    }
    if text.chars().count() > MAX_QUERY_CHARS {
        return Err(Error::InvalidArgument(format!(
            "query must be at most {MAX_QUERY_CHARS} characters"
        )));
    }
    let query = super::search::text_query(text, meal_type, limit as usize);
    store.read(|db| db.search_candidates(&query))
}

/// Deletes a user recipe or a staged copy. `NotFound` for an unknown id; `InvalidArgument` for a
/// core recipe (hide it instead: [`hide_recipe`]). The meal history keeps its entries.
pub fn delete_recipe(store: &Store, id: &str) -> Result<()> {
    validate::id("id", id)?;
    store.write(|db| {
        match db.recipe(id)? {
            None => return Err(Error::NotFound("no recipe with that id".into())),
            Some(r) if r.source == RecipeSource::Core => {
                return Err(Error::InvalidArgument(
                    "a core recipe cannot be deleted; hide it instead".into(),
                ))
            }
            Some(_) => {}
        }
        db.delete_recipe(id, &[RecipeSource::User, RecipeSource::Stage])?;
        Ok(())
    })
}

/// Hides a core recipe for this user: search and plans leave it out until it is unhidden (it
/// stays hidden across upgrades of the built-in set). `NotFound` for an id that names no core
/// recipe.
pub fn hide_recipe(store: &Store, clock: &dyn Clock, id: &str) -> Result<()> {
    validate::id("id", id)?;
    let now = clock.now_ms();
    store.write(|db| match db.recipe(id)? {
        Some(r) if r.source == RecipeSource::Core => db.hide_recipe(id, now),
        _ => Err(Error::NotFound("no core recipe with that id".into())),
    })
}

/// Shows a hidden recipe again. Returns whether it was hidden.
pub fn unhide_recipe(store: &Store, id: &str) -> Result<bool> {
    validate::id("id", id)?;
    store.write(|db| db.unhide_recipe(id))
}

/// The ids of the hidden recipes, in id order.
pub fn hidden_recipes(store: &Store) -> Result<Vec<String>> {
    store.read(|db| db.hidden_recipe_ids())
}

/// The recipe with `id` (any source), or `None`.
pub fn recipe(store: &Store, id: &str) -> Result<Option<Recipe>> {
    validate::id("id", id)?;
    store.read(|db| db.recipe(id))
}

/// Stages a user-owned copy of the core recipe `core_id` that expires 72 h from now unless kept.
/// Returns the copy. `NotFound` when no core recipe has that id.
pub fn stage_recipe(
    store: &Store,
    clock: &dyn Clock,
    ids: &mut IdGenerator,
    core_id: &str,
) -> Result<Recipe> {
    validate::id("recipeId", core_id)?;
    let now = clock.now_ms();
    let stage_id = format!("stage-{}", ids.next_id());
    store.write(|db| stage_in(db, core_id, &stage_id, now))
}

/// Stages `core_id` inside a write transaction.
pub(crate) fn stage_in(
    db: &crate::db::Db<'_>,
    core_id: &str,
    stage_id: &str,
    now: i64,
) -> Result<Recipe> {
    let core = match db.recipe(core_id)? {
        Some(r) if r.source == RecipeSource::Core => r,
        _ => return Err(Error::NotFound("no core recipe with that id".into())),
    };
    let copy = Recipe {
        id: stage_id.to_string(),
        source: RecipeSource::Stage,
        origin_id: Some(core.id.clone()),
        expires_ms: Some(now + STAGE_TTL_MS),
        ..core
    };
    db.upsert_recipe(&copy, now)?;
    Ok(copy)
}

/// Keeps a staged copy: it no longer expires. `NotFound` when no staged copy has that id.
pub fn keep_staged_recipe(store: &Store, clock: &dyn Clock, id: &str) -> Result<()> {
    validate::id("id", id)?;
    let now = clock.now_ms();
    if store.write(|db| db.keep_stage(id, now))? {
        Ok(())
    } else {
        Err(Error::NotFound("no staged recipe with that id".into()))
    }
}

/// Deletes the staged copies that expired. Returns how many.
pub fn cleanup_staged_recipes(store: &Store, clock: &dyn Clock) -> Result<u32> {
    let now = clock.now_ms();
    store.write(|db| db.delete_expired_stages(now))
}

/// The history entry of eating `recipe` at `date`'s `meal_type`.
pub(crate) fn history_entry(
    recipe: &Recipe,
    date: String,
    meal_type: super::model::MealType,
) -> MealHistoryEntry {
    MealHistoryEntry {
        date,
        meal_type,
        recipe_id: history_id(recipe).to_string(),
        title: recipe.title.clone(),
        tags: recipe.tags.clone(),
        protein: primary_protein(recipe).map(str::to_string),
    }
}

/// Records the selections of a plan the user confirmed in the meal history (for variety in later
/// plans) and keeps the staged copies it selects. All or nothing: `NotFound` when a selection
/// names no stored recipe. Returns how many meals were recorded.
pub fn confirm_meal_plan(store: &Store, clock: &dyn Clock, plan: &MealPlanResult) -> Result<u32> {
    let picks = validate::confirmed(plan)?;
    let now = clock.now_ms();
    store.write(|db| {
        for (date, meal_type, id) in &picks {
            let Some(recipe) = db.recipe(id)? else {
                return Err(Error::NotFound(format!(
                    "the {} selection of {date} names no stored recipe",
                    meal_type.as_str()
                )));
            };
            if recipe.source == RecipeSource::Stage {
                db.keep_stage(id, now)?;
            }
            db.insert_meal_history(
                &history_entry(&recipe, date.to_string(), *meal_type),
                "plan",
                now,
            )?;
        }
        Ok(picks.len() as u32)
    })
}

/// Records one meal in the history. `NotFound` when the recipe does not exist. Returns the entry.
pub fn log_meal(store: &Store, clock: &dyn Clock, log: &MealLog) -> Result<MealHistoryEntry> {
    let date = validate::date("date", &log.date)?;
    validate::id("recipeId", &log.recipe_id)?;
    let now = clock.now_ms();
    store.write(|db| {
        let Some(recipe) = db.recipe(&log.recipe_id)? else {
            return Err(Error::NotFound("no recipe with that id".into()));
        };
        let entry = history_entry(&recipe, date.to_string(), log.meal_type);
        db.insert_meal_history(&entry, "log", now)?;
        Ok(entry)
    })
}

/// The meal history from `from` to `to` (`YYYY-MM-DD`, both included), by date and meal, at most
/// 500 entries (the latest).
pub fn meal_history(store: &Store, from: &str, to: &str) -> Result<Vec<MealHistoryEntry>> {
    let from = validate::date("from", from)?;
    let to = validate::date("to", to)?;
    store.read(|db| db.meal_history(&from.to_string(), &to.to_string(), 500))
}
