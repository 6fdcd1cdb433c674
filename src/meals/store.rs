//! Meal planning (spec 003): recipes of every source with their full-text index, candidate
//! search, staged copies, the built-in set and the hidden list, the meal history and meal-plan
//! jobs. Schema: `migrations/0005_meals.sql` (jobs' owners and leases: `0008_meal_job_leases.sql`;
//! recipes' steps and nutrition: `0010_recipe_steps.sql`; built-in recipes, their version and the
//! hidden list: `0011_builtin_recipes.sql`; pantry staples: `0012_pantry_staples.sql`). The search
//! rules are `meals::search`; this file only runs them.

use rusqlite::{params, OptionalExtension, Row};

use crate::db::codec::{from_json, from_text, json};
use crate::db::Db;
use crate::kernel::error::{Error, Result};
use crate::meals::model::{
    Diet, JobStatus, MealHistoryEntry, MealPlanJob, MealType, Recipe, RecipeSource,
};
use crate::meals::search::{ingredient_text, CandidateQuery};

const RECIPE_COLUMNS: &str = "r.id, r.source, r.title, r.description, r.meal_types, r.diets, \
     r.tags_json, r.ingredients_json, r.prep_minutes, r.cook_minutes, r.servings, r.origin_id, \
     r.expires_ms, r.steps_json, r.nutrition_json";

fn meal_type_mask(types: &[MealType]) -> i64 {
    types.iter().fold(0, |m, t| m | t.bit())
}

fn recipe_row(r: &Row<'_>) -> rusqlite::Result<Recipe> {
    let types: i64 = r.get(4)?;
    let diets: i64 = r.get(5)?;
    Ok(Recipe {
        id: r.get(0)?,
        source: from_text(&r.get::<_, String>(1)?, 1)?,
        title: r.get(2)?,
        description: r.get(3)?,
        meal_types: MealType::ALL
            .into_iter()
            .filter(|t| types & t.bit() != 0)
            .collect(),
        diets: Diet::ALL
            .into_iter()
            .filter(|d| diets & d.bit() != 0)
            .collect(),
        tags: from_json(&r.get::<_, String>(6)?, 6)?,
        ingredients: from_json(&r.get::<_, String>(7)?, 7)?,
        prep_minutes: r.get(8)?,
        cook_minutes: r.get(9)?,
        servings: r.get(10)?,
        origin_id: r.get(11)?,
        expires_ms: r.get(12)?,
        steps: from_json(&r.get::<_, String>(13)?, 13)?,
        nutrition: match r.get::<_, Option<String>>(14)? {
            Some(t) => Some(from_json(&t, 14)?),
            None => None,
        },
    })
}

/// Who runs a job: the process (its id, for people reading the file) and the open of the file
/// ([`crate::db::Store::instance_id`]).
#[derive(Debug, Clone, Copy)]
pub struct JobOwner<'a> {
    /// The process id.
    pub pid: u32,
    /// The open of the file that runs the job.
    pub instance: &'a str,
}

/// A job stored as `PENDING` or `RUNNING`, with its owner and lease (both `None` for a job from
/// before leases).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnfinishedJob {
    /// The job id.
    pub id: String,
    /// The open of the file that runs it.
    pub owner_instance: Option<String>,
    /// Until when its runner counts as alive for the other opens of the file.
    pub lease_until_ms: Option<i64>,
}

fn job_row(r: &Row<'_>) -> rusqlite::Result<MealPlanJob> {
    let result: Option<String> = r.get(2)?;
    Ok(MealPlanJob {
        id: r.get(0)?,
        status: from_text(&r.get::<_, String>(1)?, 1)?,
        result: result.map(|s| from_json(&s, 2)).transpose()?,
        error_code: r.get(3)?,
        error_message: r.get(4)?,
        processed_slots: r.get(5)?,
        total_slots: r.get(6)?,
        created_ms: r.get(7)?,
        updated_ms: r.get(8)?,
    })
}

impl Db<'_> {
    /// Inserts `recipe`, or updates the recipe with its id when that one has the same source.
    /// Fails with `InvalidArgument` when the id belongs to a recipe of another source.
    pub fn upsert_recipe(&self, recipe: &Recipe, now_ms: i64) -> Result<()> {
        if !self.upsert_recipe_row(recipe, false, now_ms)? {
            return Err(Error::InvalidArgument(
                "recipe id is taken by a recipe of another source".into(),
            ));
        }
        Ok(())
    }

    /// Inserts a recipe of the library's built-in set (source `core`, `builtin = 1`), or updates
    /// the built-in recipe with its id. Returns false, changing nothing, when the id belongs to
    /// any other recipe (a user recipe, a staged copy, a core recipe the app imported): that one
    /// wins.
    pub fn upsert_builtin_recipe(&self, recipe: &Recipe, now_ms: i64) -> Result<bool> {
        self.upsert_recipe_row(recipe, true, now_ms)
    }

    /// The upsert of both: an update needs the same source, and a built-in row is only ever
    /// replaced by a built-in one (an import over a built-in id takes the row over). A built-in
    /// row loaded again unchanged keeps its `updated_ms` (when its content last changed).
    fn upsert_recipe_row(&self, recipe: &Recipe, builtin: bool, now_ms: i64) -> Result<bool> {
        let n = self
            .conn
            .prepare_cached(
                "INSERT INTO recipes (id, source, title, description, meal_types, diets, diet_mask,
                     tags_json, ingredients_json, ingredient_text, prep_minutes, cook_minutes,
                     servings, origin_id, expires_ms, steps_json, nutrition_json, builtin,
                     created_ms, updated_ms)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?17,
                     ?18, ?19, ?16, ?16)
                 ON CONFLICT (id) DO UPDATE SET title = excluded.title,
                     description = excluded.description, meal_types = excluded.meal_types,
                     diets = excluded.diets, diet_mask = excluded.diet_mask,
                     tags_json = excluded.tags_json, ingredients_json = excluded.ingredients_json,
                     ingredient_text = excluded.ingredient_text,
                     prep_minutes = excluded.prep_minutes, cook_minutes = excluded.cook_minutes,
                     servings = excluded.servings, steps_json = excluded.steps_json,
                     nutrition_json = excluded.nutrition_json, builtin = excluded.builtin,
                     updated_ms = CASE WHEN excluded.builtin = 1 AND recipes.builtin = 1
                         AND recipes.title IS excluded.title
                         AND recipes.description IS excluded.description
                         AND recipes.meal_types IS excluded.meal_types
                         AND recipes.diets IS excluded.diets
                         AND recipes.tags_json IS excluded.tags_json
                         AND recipes.ingredients_json IS excluded.ingredients_json
                         AND recipes.prep_minutes IS excluded.prep_minutes
                         AND recipes.cook_minutes IS excluded.cook_minutes
                         AND recipes.servings IS excluded.servings
                         AND recipes.steps_json IS excluded.steps_json
                         AND recipes.nutrition_json IS excluded.nutrition_json
                         THEN recipes.updated_ms ELSE excluded.updated_ms END
                 WHERE recipes.source = excluded.source
                   AND (excluded.builtin = 0 OR recipes.builtin = 1)",
            )?
            .execute(params![
                recipe.id,
                recipe.source.as_str(),
                recipe.title,
                recipe.description,
                meal_type_mask(&recipe.meal_types),
                recipe.diets.iter().fold(0, |m, d| m | d.bit()),
                Diet::implied_mask(&recipe.diets),
                json(&recipe.tags),
                json(&recipe.ingredients),
                ingredient_text(&recipe.ingredients),
                recipe.prep_minutes,
                recipe.cook_minutes,
                recipe.servings,
                recipe.origin_id,
                recipe.expires_ms,
                now_ms,
                json(&recipe.steps),
                recipe.nutrition.as_ref().map(json),
                builtin,
            ])?;
        Ok(n == 1)
    }

    /// Deletes the built-in recipes whose id is not in `keep`. Returns how many.
    pub fn delete_builtin_recipes_except(&self, keep: &[&str]) -> Result<u32> {
        let n = self
            .conn
            .prepare_cached(
                "DELETE FROM recipes WHERE builtin = 1
                    AND id NOT IN (SELECT value FROM json_each(?1))",
            )?
            .execute([json(&keep)])?;
        Ok(n as u32)
    }

    /// Deletes the built-in recipe `id`, if it is one. Returns whether it was.
    pub fn delete_builtin_recipe(&self, id: &str) -> Result<bool> {
        let n = self
            .conn
            .prepare_cached("DELETE FROM recipes WHERE id = ?1 AND builtin = 1")?
            .execute([id])?;
        Ok(n == 1)
    }

    /// The version of the built-in set `name` the file holds, if any.
    pub fn builtin_set_version(&self, name: &str) -> Result<Option<String>> {
        Ok(self
            .conn
            .prepare_cached("SELECT version FROM builtin_sets WHERE name = ?1")?
            .query_row([name], |r| r.get(0))
            .optional()?)
    }

    /// Records that the file holds `version` of the built-in set `name`.
    pub fn set_builtin_set_version(&self, name: &str, version: &str, now_ms: i64) -> Result<()> {
        self.conn
            .prepare_cached(
                "INSERT INTO builtin_sets (name, version, loaded_ms) VALUES (?1, ?2, ?3)
                 ON CONFLICT (name) DO UPDATE SET version = excluded.version,
                     loaded_ms = excluded.loaded_ms",
            )?
            .execute(params![name, version, now_ms])?;
        Ok(())
    }

    /// How many built-in recipes are stored.
    pub fn builtin_recipe_count(&self) -> Result<u32> {
        Ok(self
            .conn
            .prepare_cached("SELECT count(*) FROM recipes WHERE builtin = 1")?
            .query_row([], |r| r.get(0))?)
    }

    /// One page of recipes that are not hidden: of `source`, or user and core recipes when
    /// `None`; user recipes first, then by title (case-insensitive) and id. Returns the page and
    /// how many there are in all.
    pub fn recipe_page(
        &self,
        source: Option<RecipeSource>,
        offset: u32,
        limit: u32,
    ) -> Result<(Vec<Recipe>, u32)> {
        const WHERE: &str = "(?1 IS NULL AND r.source <> 'stage' OR r.source = ?1)
             AND r.id NOT IN (SELECT recipe_id FROM hidden_recipes)";
        let source = source.map(RecipeSource::as_str);
        let total: u32 = self
            .conn
            .prepare_cached(&format!("SELECT count(*) FROM recipes AS r WHERE {WHERE}"))?
            .query_row([source], |r| r.get(0))?;
        let recipes = self
            .conn
            .prepare_cached(&format!(
                "SELECT {RECIPE_COLUMNS} FROM recipes AS r WHERE {WHERE}
                  ORDER BY r.source = 'core', r.title COLLATE NOCASE, r.id LIMIT ?2 OFFSET ?3"
            ))?
            .query_map(params![source, limit, offset], recipe_row)?
            .collect::<rusqlite::Result<_>>()?;
        Ok((recipes, total))
    }

    /// Deletes the recipe `id` when its source is one of `sources`. Returns whether it did.
    pub fn delete_recipe(&self, id: &str, sources: &[RecipeSource]) -> Result<bool> {
        let sources: Vec<&str> = sources.iter().map(|s| s.as_str()).collect();
        let n = self
            .conn
            .prepare_cached(
                "DELETE FROM recipes WHERE id = ?1
                    AND source IN (SELECT value FROM json_each(?2))",
            )?
            .execute(params![id, json(&sources)])?;
        Ok(n == 1)
    }

    /// Adds `id` to the hidden list (kept as it was when already there).
    pub fn hide_recipe(&self, id: &str, now_ms: i64) -> Result<()> {
        self.conn
            .prepare_cached(
                "INSERT INTO hidden_recipes (recipe_id, hidden_ms) VALUES (?1, ?2)
                 ON CONFLICT (recipe_id) DO NOTHING",
            )?
            .execute(params![id, now_ms])?;
        Ok(())
    }

    /// Removes `id` from the hidden list. Returns whether it was there.
    pub fn unhide_recipe(&self, id: &str) -> Result<bool> {
        let n = self
            .conn
            .prepare_cached("DELETE FROM hidden_recipes WHERE recipe_id = ?1")?
            .execute([id])?;
        Ok(n == 1)
    }

    /// The hidden recipe ids, in id order.
    pub fn hidden_recipe_ids(&self) -> Result<Vec<String>> {
        Ok(self
            .conn
            .prepare_cached("SELECT recipe_id FROM hidden_recipes ORDER BY recipe_id")?
            .query_map([], |r| r.get(0))?
            .collect::<rusqlite::Result<_>>()?)
    }

    /// The recipe with `id` (any source), or `None`.
    pub fn recipe(&self, id: &str) -> Result<Option<Recipe>> {
        Ok(self
            .conn
            .prepare_cached(&format!(
                "SELECT {RECIPE_COLUMNS} FROM recipes AS r WHERE r.id = ?1"
            ))?
            .query_row([id], recipe_row)
            .optional()?)
    }

    /// How many recipes of `source` are stored.
    pub fn recipe_count(&self, source: RecipeSource) -> Result<u32> {
        Ok(self
            .conn
            .prepare_cached("SELECT count(*) FROM recipes WHERE source = ?1")?
            .query_row([source.as_str()], |r| r.get(0))?)
    }

    /// Runs a slot's candidate search (see `meals::search`): the tiers in order, each filling the
    /// places the ones before left, at most `q.limit` recipes in rank order. The hard rules are
    /// applied here in SQL; the caller checks them again.
    ///
    /// Each tier sorts rowids only (the wide columns stay out of the sorter), then the few rows
    /// kept are read by rowid.
    pub fn search_candidates(&self, q: &CandidateQuery) -> Result<Vec<Recipe>> {
        let mut rowids: Vec<i64> = Vec::new();
        for tier in &q.tiers {
            let wanted = q.limit.saturating_sub(rowids.len());
            if wanted == 0 {
                break;
            }
            // Later tiers leave out what earlier ones found.
            let found = self.search_tier(q, tier.as_deref(), &rowids, wanted)?;
            rowids.extend(found);
        }
        let mut st = self.conn.prepare_cached(&format!(
            "SELECT {RECIPE_COLUMNS} FROM recipes AS r WHERE r.rowid = ?1"
        ))?;
        let mut out = Vec::with_capacity(rowids.len());
        for id in rowids {
            if let Some(r) = st.query_row([id], recipe_row).optional()? {
                out.push(r);
            }
        }
        Ok(out)
    }

    /// One tier: the rowids of up to `limit` recipes in rank order, leaving out the ids
    /// `q.exclude_ids` and the rowids `found`.
    fn search_tier(
        &self,
        q: &CandidateQuery,
        fts: Option<&str>,
        found: &[i64],
        limit: usize,
    ) -> Result<Vec<i64>> {
        use rusqlite::types::Value as V;
        let mut args: Vec<V> = Vec::new();
        let mut arg = |v: V| {
            args.push(v);
            format!("?{}", args.len())
        };
        let mut sql = String::from("SELECT r.rowid FROM ");
        let mut order = String::from("r.source = 'core'");
        if let Some(m) = fts {
            let p = arg(V::Text(m.to_string()));
            sql.push_str(&format!(
                "recipes_fts JOIN recipes AS r ON r.rowid = recipes_fts.rowid
                 WHERE recipes_fts MATCH {p} AND "
            ));
        } else {
            sql.push_str("recipes AS r WHERE ");
        }
        let t = arg(V::Integer(q.meal_type_bit));
        let d = arg(V::Integer(q.diet_bits));
        sql.push_str(&format!(
            "r.meal_types & {t} <> 0 AND r.diet_mask & {d} = {d} AND r.source <> 'stage'
             AND r.id NOT IN (SELECT recipe_id FROM hidden_recipes)"
        ));
        for term in &q.excluded {
            let p = arg(V::Text(term.clone()));
            sql.push_str(&format!(" AND instr(r.ingredient_text, {p}) = 0"));
        }
        if !q.exclude_ids.is_empty() {
            let p = arg(V::Text(json(&q.exclude_ids)));
            sql.push_str(&format!(
                " AND r.id NOT IN (SELECT value FROM json_each({p}))"
            ));
        }
        if !found.is_empty() {
            let p = arg(V::Text(json(&found)));
            sql.push_str(&format!(
                " AND r.rowid NOT IN (SELECT value FROM json_each({p}))"
            ));
        }
        let mut over = Vec::new();
        if let Some(m) = q.max_prep_minutes {
            let p = arg(V::Integer(i64::from(m)));
            over.push(format!("max(r.prep_minutes - {p}, 0)"));
        }
        if let Some(m) = q.max_cook_minutes {
            let p = arg(V::Integer(i64::from(m)));
            over.push(format!("max(r.cook_minutes - {p}, 0)"));
        }
        if !over.is_empty() {
            order.push_str(&format!(", {}", over.join(" + ")));
        }
        if fts.is_some() {
            order.push_str(", bm25(recipes_fts)");
        }
        let l = arg(V::Integer(limit as i64));
        sql.push_str(&format!(" ORDER BY {order}, r.id LIMIT {l}"));
        let mut st = self.conn.prepare_cached(&sql)?;
        let rows = st.query_map(rusqlite::params_from_iter(args), |r| r.get(0))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Deletes the staged copies whose expiry is at or before `now_ms`. Returns how many.
    pub fn delete_expired_stages(&self, now_ms: i64) -> Result<u32> {
        let n = self
            .conn
            .prepare_cached(
                "DELETE FROM recipes WHERE source = 'stage' AND expires_ms IS NOT NULL
                     AND expires_ms <= ?1",
            )?
            .execute([now_ms])?;
        Ok(n as u32)
    }

    /// Keeps a staged copy (it no longer expires). Returns whether a staged copy with `id`
    /// exists.
    pub fn keep_stage(&self, id: &str, now_ms: i64) -> Result<bool> {
        let n = self
            .conn
            .prepare_cached(
                "UPDATE recipes SET expires_ms = NULL, updated_ms = ?2
                  WHERE id = ?1 AND source = 'stage'",
            )?
            .execute(params![id, now_ms])?;
        Ok(n == 1)
    }

    /// Records a meal in the history; `origin` is `plan` or `log`.
    pub fn insert_meal_history(
        &self,
        entry: &MealHistoryEntry,
        origin: &str,
        now_ms: i64,
    ) -> Result<()> {
        self.conn
            .prepare_cached(
                "INSERT INTO meal_history (date, meal_type, recipe_id, title, tags_json, protein,
                     origin, created_ms)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            )?
            .execute(params![
                entry.date,
                entry.meal_type.as_str(),
                entry.recipe_id,
                entry.title,
                json(&entry.tags),
                entry.protein,
                origin,
                now_ms,
            ])?;
        Ok(())
    }

    /// The history from `from` to `to` (`YYYY-MM-DD`, both included), by date and meal type,
    /// at most `limit` entries (the latest kept).
    pub fn meal_history(&self, from: &str, to: &str, limit: u32) -> Result<Vec<MealHistoryEntry>> {
        let mut rows: Vec<MealHistoryEntry> = self
            .conn
            .prepare_cached(
                "SELECT date, meal_type, recipe_id, title, tags_json, protein FROM meal_history
                  WHERE date BETWEEN ?1 AND ?2 ORDER BY date DESC, seq DESC LIMIT ?3",
            )?
            .query_map(params![from, to, limit], |r| {
                Ok(MealHistoryEntry {
                    date: r.get(0)?,
                    meal_type: from_text(&r.get::<_, String>(1)?, 1)?,
                    recipe_id: r.get(2)?,
                    title: r.get(3)?,
                    tags: from_json(&r.get::<_, String>(4)?, 4)?,
                    protein: r.get(5)?,
                })
            })?
            .collect::<rusqlite::Result<_>>()?;
        rows.sort_by(|a, b| (&a.date, a.meal_type).cmp(&(&b.date, b.meal_type)));
        Ok(rows)
    }

    /// Inserts a new job, `PENDING`, with its request, owned by `owner` with a lease until
    /// `lease_until_ms`.
    pub fn insert_meal_plan_job(
        &self,
        id: &str,
        request_json: &str,
        total_slots: u32,
        now_ms: i64,
        owner: &JobOwner<'_>,
        lease_until_ms: i64,
    ) -> Result<()> {
        self.conn
            .prepare_cached(
                "INSERT INTO meal_plan_jobs (id, status, request_json, total_slots, created_ms,
                     updated_ms, owner_pid, owner_instance, lease_until_ms)
                 VALUES (?1, 'PENDING', ?2, ?3, ?4, ?4, ?5, ?6, ?7)",
            )?
            .execute(params![
                id,
                request_json,
                total_slots,
                now_ms,
                owner.pid,
                owner.instance,
                lease_until_ms
            ])?;
        Ok(())
    }

    /// Sets a job's status and progress (not a final state: see [`Db::finish_meal_plan_job`])
    /// and renews its lease, when the job is unfinished and owned by `instance`. Returns whether
    /// it was (false: unknown, finished, or taken for interrupted).
    pub fn set_meal_plan_job_progress(
        &self,
        id: &str,
        instance: &str,
        status: JobStatus,
        processed_slots: u32,
        now_ms: i64,
        lease_until_ms: i64,
    ) -> Result<bool> {
        let n = self
            .conn
            .prepare_cached(
                "UPDATE meal_plan_jobs SET status = ?3, processed_slots = ?4, updated_ms = ?5,
                     lease_until_ms = ?6
                  WHERE id = ?1 AND owner_instance = ?2 AND status IN ('PENDING', 'RUNNING')",
            )?
            .execute(params![
                id,
                instance,
                status.as_str(),
                processed_slots,
                now_ms,
                lease_until_ms
            ])?;
        Ok(n == 1)
    }

    /// Renews the lease of a job that is unfinished and owned by `instance`. Returns whether it
    /// was.
    pub fn renew_meal_plan_job_lease(
        &self,
        id: &str,
        instance: &str,
        lease_until_ms: i64,
    ) -> Result<bool> {
        let n = self
            .conn
            .prepare_cached(
                "UPDATE meal_plan_jobs SET lease_until_ms = ?3
                  WHERE id = ?1 AND owner_instance = ?2 AND status IN ('PENDING', 'RUNNING')",
            )?
            .execute(params![id, instance, lease_until_ms])?;
        Ok(n == 1)
    }

    /// Moves a job that is still `PENDING` or `RUNNING` to its final state: `COMPLETE` with a
    /// result, or `FAILED` with an error; with `instance`, only a job that open owns (its
    /// runner's final state), without, any (an interrupted job). Returns whether it moved (false:
    /// unknown, already final, or another's).
    pub fn finish_meal_plan_job(
        &self,
        job: &MealPlanJob,
        instance: Option<&str>,
        now_ms: i64,
    ) -> Result<bool> {
        let n = self
            .conn
            .prepare_cached(
                "UPDATE meal_plan_jobs SET status = ?2, result_json = ?3, error_code = ?4,
                     error_message = ?5, processed_slots = ?6, updated_ms = ?7
                  WHERE id = ?1 AND status IN ('PENDING', 'RUNNING')
                    AND (?8 IS NULL OR owner_instance = ?8)",
            )?
            .execute(params![
                job.id,
                job.status.as_str(),
                job.result.as_ref().map(json),
                job.error_code,
                job.error_message,
                job.processed_slots,
                now_ms,
                instance,
            ])?;
        Ok(n == 1)
    }

    /// The job with `id`, as stored.
    pub fn meal_plan_job(&self, id: &str) -> Result<Option<MealPlanJob>> {
        Ok(self
            .conn
            .prepare_cached(
                "SELECT id, status, result_json, error_code, error_message, processed_slots,
                        total_slots, created_ms, updated_ms
                   FROM meal_plan_jobs WHERE id = ?1",
            )?
            .query_row([id], job_row)
            .optional()?)
    }

    /// The jobs stored as `PENDING` or `RUNNING` (only the one with id `only` when given): id,
    /// owner and lease, by id.
    pub fn unfinished_meal_plan_jobs(&self, only: Option<&str>) -> Result<Vec<UnfinishedJob>> {
        Ok(self
            .conn
            .prepare_cached(
                "SELECT id, owner_instance, lease_until_ms FROM meal_plan_jobs
                  WHERE status IN ('PENDING', 'RUNNING') AND (?1 IS NULL OR id = ?1)
                  ORDER BY id",
            )?
            .query_map([only], |r| {
                Ok(UnfinishedJob {
                    id: r.get(0)?,
                    owner_instance: r.get(1)?,
                    lease_until_ms: r.get(2)?,
                })
            })?
            .collect::<rusqlite::Result<_>>()?)
    }
}

// ---------------------------------------------------------------------------------------------
// Pantry staples (the user's list that shopping lists leave out)

impl Db<'_> {
    /// The pantry staples in the order they were set.
    pub fn pantry_staples(&self) -> Result<Vec<String>> {
        Ok(self
            .conn
            .prepare_cached("SELECT name FROM pantry_staples ORDER BY position, key")?
            .query_map([], |r| r.get(0))?
            .collect::<rusqlite::Result<_>>()?)
    }

    /// Replaces the pantry staples with `staples`: `(key, name)` pairs, keys distinct, in order.
    pub fn set_pantry_staples(&self, staples: &[(String, String)], now_ms: i64) -> Result<()> {
        self.conn
            .prepare_cached("DELETE FROM pantry_staples")?
            .execute([])?;
        let mut st = self.conn.prepare_cached(
            "INSERT INTO pantry_staples (key, name, position, created_ms) VALUES (?1, ?2, ?3, ?4)",
        )?;
        for (i, (key, name)) in staples.iter().enumerate() {
            st.execute(params![key, name, i as i64, now_ms])?;
        }
        Ok(())
    }
}
