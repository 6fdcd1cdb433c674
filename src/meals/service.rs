//! The meal-planning service: the only meal code that touches the store or a model. Recipes
//! (import, save, stage, keep, cleanup), the meal history (confirm a plan, log a meal), and plan
//! jobs (run a request slot by slot: search, rerank or fallback, variety checks, events).

use crate::clock::Clock;
use crate::error::{Error, Result};
use crate::ids::IdGenerator;
use crate::store::Store;

use super::model::{Recipe, RecipeSource};
use super::validate;

/// How long a staged copy lives unless kept: 72 hours.
pub const STAGE_TTL_MS: i64 = 72 * 3_600_000;

/// Imports core recipes from a JSON array (the format of `tests/data/recipes/`), replacing core
/// recipes with the same id. All or nothing: one invalid recipe refuses the whole import. Returns
/// how many were imported.
pub fn import_recipes_json(store: &Store, clock: &dyn Clock, json: &str) -> Result<u32> {
    validate::json_size("recipes JSON", json, validate::MAX_IMPORT_BYTES)?;
    let recipes: Vec<Recipe> =
        crate::error::parse_request(json).map_err(|e| Error::InvalidArgument(e.to_string()))?;
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
/// gets a new one. Returns the stored recipe.
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
    store.write(|db| db.upsert_recipe(&recipe, now))?;
    Ok(recipe)
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
fn stage_in(db: &crate::store::Db<'_>, core_id: &str, stage_id: &str, now: i64) -> Result<Recipe> {
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
