//! The built-in recipes: the library's own core set (`data/recipes/core.json`), embedded deflated
//! by `build.rs` and loaded into the database on open, so a fresh install plans meals with no
//! import.
//!
//! Rules (`docs/meals.md`, "Built-in recipes and nutrition"):
//! - The file records the version of the set it holds (a hash of the set's JSON). An open whose
//!   embedded version differs loads the set in one write transaction: every built-in recipe
//!   inserted or updated (source `core`, marked built-in), the built-in recipes no longer in the
//!   set deleted, the version recorded. The version is checked again inside the transaction, so
//!   two processes opening one new file load it once.
//! - Only rows marked built-in are ever replaced or deleted: an id held by a user recipe, a
//!   staged copy or a core recipe the app imported keeps that recipe (the built-in is skipped).
//! - Hidden recipes (`hidden_recipes`) stay stored; search leaves them out.

use crate::db::Store;
use crate::kernel::clock::Clock;
use crate::kernel::error::{Error, Result};
use crate::meals::model::{Recipe, RecipeSource};

include!(concat!(env!("OUT_DIR"), "/core_recipes.rs"));

/// The embedded set: its minified JSON, raw DEFLATE (see `build.rs`).
static CORE_RECIPES_DEFLATED: &[u8] =
    include_bytes!(concat!(env!("OUT_DIR"), "/core_recipes.deflate"));

/// The name of the recipes' row in `builtin_sets`.
const SET_NAME: &str = "recipes";

/// What loading a built-in set did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BuiltinLoad {
    /// The version now recorded.
    pub version: String,
    /// Built-in recipes inserted or updated.
    pub loaded: u32,
    /// Built-in recipes skipped because another recipe holds their id.
    pub skipped: u32,
    /// Built-in recipes of an earlier set deleted.
    pub removed: u32,
}

/// The embedded size of the set in bytes (deflated), for measurements.
pub fn embedded_bytes() -> usize {
    CORE_RECIPES_DEFLATED.len()
}

/// The embedded built-in recipes, in the file's order, as stored (source `core`).
pub fn builtin_recipes() -> Result<Vec<Recipe>> {
    let json = miniz_oxide::inflate::decompress_to_vec_with_limit(
        CORE_RECIPES_DEFLATED,
        CORE_RECIPES_JSON_BYTES,
    )
    .map_err(|_| Error::Internal("the embedded built-in recipes do not inflate".into()))?;
    let json = std::str::from_utf8(&json)
        .map_err(|_| Error::Internal("the embedded built-in recipes are not UTF-8".into()))?;
    // The parser `importRecipes` uses: no second copy of the recipe deserializer in the library.
    let recipes: Vec<Recipe> = crate::kernel::error::parse_request(json)
        .map_err(|e| Error::Internal(format!("the embedded built-in recipes do not parse: {e}")))?;
    Ok(recipes
        .into_iter()
        .map(|mut r| {
            r.source = RecipeSource::Core;
            r.origin_id = None;
            r.expires_ms = None;
            with_nutrition(r)
        })
        .collect())
}

/// Where a built-in recipe gets its nutrition per serving: computed from the ingredient table
/// (`meals::nutrition::per_serving`) unless the file gives it.
fn with_nutrition(mut r: Recipe) -> Recipe {
    if r.nutrition.is_none() {
        r.nutrition = crate::meals::nutrition::per_serving(&r);
    }
    r
}

/// Loads the embedded set when the file holds another version (or none); does nothing on a
/// read-only file. Returns what it did, `None` when the file was current.
pub fn ensure_builtin_recipes(store: &Store, clock: &dyn Clock) -> Result<Option<BuiltinLoad>> {
    if store.is_read_only() {
        return Ok(None);
    }
    let stored = store.read(|db| db.builtin_set_version(SET_NAME))?;
    if stored.as_deref() == Some(CORE_RECIPES_VERSION) {
        return Ok(None);
    }
    load_builtin_set(store, clock, &builtin_recipes()?, CORE_RECIPES_VERSION)
}

/// Loads `recipes` as the built-in set `version` in one write transaction, unless the file
/// already holds that version (see the module doc). Returns what it did, `None` when the file was
/// current. `ensure_builtin_recipes` calls it with the embedded set; tests call it with others.
pub fn load_builtin_set(
    store: &Store,
    clock: &dyn Clock,
    recipes: &[Recipe],
    version: &str,
) -> Result<Option<BuiltinLoad>> {
    let now = clock.now_ms();
    store.write(|db| {
        if db.builtin_set_version(SET_NAME)?.as_deref() == Some(version) {
            return Ok(None);
        }
        let (mut loaded, mut skipped) = (0, 0);
        for r in recipes {
            if db.upsert_builtin_recipe(r, now)? {
                loaded += 1;
            } else {
                skipped += 1;
            }
        }
        let ids: Vec<&str> = recipes.iter().map(|r| r.id.as_str()).collect();
        let removed = db.delete_builtin_recipes_except(&ids)?;
        db.set_builtin_set_version(SET_NAME, version, now)?;
        Ok(Some(BuiltinLoad {
            version: version.to_string(),
            loaded,
            skipped,
            removed,
        }))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::meals::validate;

    #[test]
    fn the_embedded_set_inflates_parses_and_validates() {
        let recipes = builtin_recipes().unwrap();
        let file: Vec<serde_json::Value> =
            serde_json::from_str(include_str!("../../../data/recipes/core.json")).unwrap();
        assert_eq!(recipes.len(), file.len());
        let mut ids = std::collections::HashSet::new();
        for (i, r) in recipes.iter().enumerate() {
            validate::recipe(&format!("[{i}]"), r, true).unwrap();
            assert!(ids.insert(r.id.clone()), "{} repeats", r.id);
            assert_eq!(r.source, RecipeSource::Core);
            assert!(r.nutrition.is_some(), "{} has its nutrition", r.id);
        }
        // Compact: the deflated set is well under half of the file.
        assert!(
            embedded_bytes() * 2 < CORE_RECIPES_JSON_BYTES,
            "{}",
            embedded_bytes()
        );
        assert_eq!(CORE_RECIPES_VERSION.len(), 16);
    }
}
