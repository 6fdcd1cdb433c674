//! Shopping lists of finished plans and the user's pantry staples: reads the job, its recipes
//! and the staples, then builds the list with `meals::shopping` (pure).

use std::collections::HashMap;

use crate::db::Store;
use crate::kernel::clock::Clock;
use crate::kernel::error::{Error, Result};
use crate::meals::model::JobStatus;
use crate::meals::shopping::{self, item_key, ShoppingList, ShoppingListOptions};

use super::jobs::read_job;

/// The shopping list of job `job_id`'s plan (see `meals::shopping` for the rules). `NotFound`
/// for an unknown job; `JobNotComplete` for one that has no plan (pending, running or failed);
/// `InvalidArgument` naming `days[i]` for a date that is malformed, not a day of the plan, or
/// repeated. A selection whose recipe is no longer stored is listed in `missingRecipes`.
pub fn shopping_list(
    store: &Store,
    clock: &dyn Clock,
    job_id: &str,
    options: &ShoppingListOptions,
) -> Result<ShoppingList> {
    let Some(job) = read_job(store, clock, job_id)? else {
        return Err(Error::NotFound("no meal-plan job with that id".into()));
    };
    let plan = match (job.status, job.result) {
        (JobStatus::Complete, Some(plan)) => plan,
        (status, _) => {
            return Err(Error::JobNotComplete {
                status: status.as_str().to_string(),
            })
        }
    };
    let dates = shopping::chosen_dates(&plan, options)?;
    let ids = shopping::recipe_ids(&plan, &dates);
    let (recipes, staples) = store.read(|db| {
        let mut recipes = HashMap::new();
        for id in ids {
            if let Some(r) = db.recipe(&id)? {
                recipes.insert(id, r);
            }
        }
        Ok((recipes, db.pantry_staples()?))
    })?;
    Ok(shopping::build(
        job_id,
        &plan,
        &dates,
        &recipes,
        &staples,
        options.include_staples,
    ))
}

/// The user's pantry staples, in the order they were set.
pub fn pantry_staples(store: &Store) -> Result<Vec<String>> {
    store.read(|db| db.pantry_staples())
}

/// Replaces the user's pantry staples (see [`shopping::check_staples`]: at most 200 names of 1
/// to 80 characters; names that match an earlier one are dropped). All or nothing. Returns the
/// list as stored.
pub fn set_pantry_staples(
    store: &Store,
    clock: &dyn Clock,
    names: &[String],
) -> Result<Vec<String>> {
    let names = shopping::check_staples(names)?;
    let rows: Vec<(String, String)> = names.iter().map(|n| (item_key(n), n.clone())).collect();
    let now = clock.now_ms();
    store.write(|db| db.set_pantry_staples(&rows, now))?;
    Ok(names)
}
