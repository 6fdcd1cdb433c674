//! Bounds on everything meal planning accepts, checked before anything is built or stored:
//! counts and sizes first, then each field. Errors are `InvalidArgument` naming the field by its
//! JSON path (`days[2].meals.lunch.servings`) and never quoting the value. Pure.

use std::collections::HashSet;

use super::model::{MealPlanRequest, MealPlanResult, MealType, Recipe};
use crate::kernel::date::Date;
use crate::kernel::error::{Error, Result};

pub use crate::kernel::limits::{MAX_IMPORT_BYTES, MAX_IMPORT_RECIPES};

/// Bytes of a request read as JSON, at most (checked before parsing).
pub const MAX_REQUEST_BYTES: usize = crate::kernel::limits::MAX_JOB_REQUEST_BYTES;
/// Days per plan, at most.
pub const MAX_DAYS: usize = 31;
/// Longest id.
pub const MAX_ID_CHARS: usize = 64;
const MAX_TITLE: usize = 120;
const MAX_DESCRIPTION: usize = 1_000;
const MAX_TAGS: usize = 20;
const MAX_TAG_CHARS: usize = 40;
const MAX_INGREDIENTS: usize = 60;
const MAX_INGREDIENT_CHARS: usize = 80;
const MAX_UNIT_CHARS: usize = 20;
const MAX_QUANTITY: f64 = 100_000.0;
const MAX_STEPS: usize = 40;
const MAX_STEP_CHARS: usize = 1_000;
const MAX_KCAL: f64 = 10_000.0;
const MAX_GRAMS: f64 = 1_000.0;
const MAX_MINUTES: u32 = 1_440;
const MAX_SERVINGS: u32 = 100;
const MAX_SLOT_TAGS: usize = 10;
const MAX_NOTE_CHARS: usize = 300;
const MAX_REPEAT_CHARS: usize = 40;
const MAX_EXCLUDED: usize = 30;
const MAX_RECENT_DAYS: u32 = 60;
/// Smallest daily energy target, in kilocalories.
pub const MIN_DAILY_KCAL: u32 = 500;
/// Largest daily energy target, in kilocalories.
pub const MAX_DAILY_KCAL: u32 = 10_000;
/// Smallest daily protein target, in grams.
pub const MIN_DAILY_PROTEIN_G: u32 = 10;
/// Largest daily protein target, in grams.
pub const MAX_DAILY_PROTEIN_G: u32 = 500;

fn invalid(path: &str, what: &str) -> Error {
    Error::InvalidArgument(format!("{path} {what}"))
}

fn chars(s: &str) -> usize {
    s.chars().count()
}

/// A text field of `min..=max` characters.
fn text(path: &str, s: &str, min: usize, max: usize) -> Result<()> {
    let n = chars(s);
    if n < min || n > max || (min > 0 && s.trim().is_empty()) {
        return Err(invalid(
            path,
            &format!("must be {min} to {max} characters (not blank)"),
        ));
    }
    if s.chars().any(char::is_control) {
        return Err(invalid(path, "must not contain control characters"));
    }
    Ok(())
}

/// An id: 1 to 64 characters of `A-Z a-z 0-9 _ - . :`.
pub fn id(path: &str, s: &str) -> Result<()> {
    let ok = !s.is_empty()
        && s.len() <= MAX_ID_CHARS
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | ':'));
    if ok {
        Ok(())
    } else {
        Err(invalid(
            path,
            "must be 1 to 64 characters of A-Z a-z 0-9 _ - . :",
        ))
    }
}

/// A `YYYY-MM-DD` date.
pub fn date(path: &str, s: &str) -> Result<Date> {
    Date::parse(s).ok_or_else(|| invalid(path, "must be a date YYYY-MM-DD"))
}

fn list_len(path: &str, n: usize, min: usize, max: usize) -> Result<()> {
    if n < min || n > max {
        return Err(invalid(path, &format!("must hold {min} to {max} entries")));
    }
    Ok(())
}

/// Checks a recipe's bounds. `id_required`: an empty id is refused (import); otherwise it is left
/// for the library to fill (save).
pub fn recipe(path: &str, r: &Recipe, id_required: bool) -> Result<()> {
    // Counts first.
    list_len(&format!("{path}.mealTypes"), r.meal_types.len(), 1, 5)?;
    list_len(&format!("{path}.tags"), r.tags.len(), 0, MAX_TAGS)?;
    list_len(
        &format!("{path}.ingredients"),
        r.ingredients.len(),
        1,
        MAX_INGREDIENTS,
    )?;
    list_len(&format!("{path}.diets"), r.diets.len(), 0, 6)?;
    list_len(&format!("{path}.steps"), r.steps.len(), 0, MAX_STEPS)?;
    if id_required || !r.id.is_empty() {
        id(&format!("{path}.id"), &r.id)?;
    }
    text(&format!("{path}.title"), &r.title, 1, MAX_TITLE)?;
    text(
        &format!("{path}.description"),
        &r.description,
        0,
        MAX_DESCRIPTION,
    )?;
    let types: HashSet<_> = r.meal_types.iter().collect();
    if types.len() != r.meal_types.len() {
        return Err(invalid(
            &format!("{path}.mealTypes"),
            "must not repeat a type",
        ));
    }
    for (i, t) in r.tags.iter().enumerate() {
        text(&format!("{path}.tags[{i}]"), t, 1, MAX_TAG_CHARS)?;
    }
    for (i, ing) in r.ingredients.iter().enumerate() {
        let at = format!("{path}.ingredients[{i}]");
        text(&format!("{at}.name"), &ing.name, 1, MAX_INGREDIENT_CHARS)?;
        if let Some(q) = ing.quantity {
            if !q.is_finite() || !(0.0..=MAX_QUANTITY).contains(&q) {
                return Err(invalid(
                    &format!("{at}.quantity"),
                    "must be a number from 0 to 100000",
                ));
            }
        }
        if let Some(u) = &ing.unit {
            text(&format!("{at}.unit"), u, 1, MAX_UNIT_CHARS)?;
        }
        if let Some(p) = &ing.preparation {
            text(&format!("{at}.preparation"), p, 0, MAX_INGREDIENT_CHARS)?;
        }
    }
    for (i, step) in r.steps.iter().enumerate() {
        text(&format!("{path}.steps[{i}]"), step, 1, MAX_STEP_CHARS)?;
    }
    if let Some(n) = &r.nutrition {
        let at = format!("{path}.nutrition");
        amount(&format!("{at}.kcal"), n.kcal, MAX_KCAL)?;
        amount(&format!("{at}.proteinG"), n.protein_g, MAX_GRAMS)?;
        amount(&format!("{at}.carbohydrateG"), n.carbohydrate_g, MAX_GRAMS)?;
        amount(&format!("{at}.fatG"), n.fat_g, MAX_GRAMS)?;
        amount(&format!("{at}.fibreG"), n.fibre_g, MAX_GRAMS)?;
    }
    minutes(&format!("{path}.prepMinutes"), r.prep_minutes)?;
    minutes(&format!("{path}.cookMinutes"), r.cook_minutes)?;
    servings(&format!("{path}.servings"), r.servings)?;
    Ok(())
}

fn amount(path: &str, v: f64, max: f64) -> Result<()> {
    if !v.is_finite() || !(0.0..=max).contains(&v) {
        return Err(invalid(path, &format!("must be a number from 0 to {max}")));
    }
    Ok(())
}

fn minutes(path: &str, m: u32) -> Result<()> {
    if m > MAX_MINUTES {
        return Err(invalid(path, "must be at most 1440 minutes"));
    }
    Ok(())
}

fn servings(path: &str, n: u32) -> Result<()> {
    if n == 0 || n > MAX_SERVINGS {
        return Err(invalid(path, "must be from 1 to 100"));
    }
    Ok(())
}

/// Checks a plan request: 1 to 31 distinct valid dates, at least one meal per day, servings above
/// 0, and every text and list within its bounds. Returns the number of slots.
pub fn request(r: &MealPlanRequest) -> Result<u32> {
    if r.days.is_empty() {
        return Err(invalid("days", "must hold at least one day"));
    }
    if r.days.len() > MAX_DAYS {
        return Err(invalid("days", "must hold at most 31 days"));
    }
    let p = &r.preferences;
    list_len(
        "preferences.excludedIngredients",
        p.excluded_ingredients.len(),
        0,
        MAX_EXCLUDED,
    )?;
    for (i, e) in p.excluded_ingredients.iter().enumerate() {
        let path = format!("preferences.excludedIngredients[{i}]");
        text(&path, e, 1, MAX_TAG_CHARS)?;
        if super::search::exclusion_term(e).chars().count() < 2 {
            return Err(invalid(&path, "must hold a word of at least 2 letters"));
        }
    }
    if let Some(m) = p.max_prep_minutes {
        minutes("preferences.maxPrepMinutes", m)?;
    }
    if let Some(m) = p.max_cook_minutes {
        minutes("preferences.maxCookMinutes", m)?;
    }
    if p.daily_kcal
        .is_some_and(|k| !(MIN_DAILY_KCAL..=MAX_DAILY_KCAL).contains(&k))
    {
        return Err(invalid(
            "preferences.dailyKcal",
            &format!("must be from {MIN_DAILY_KCAL} to {MAX_DAILY_KCAL}"),
        ));
    }
    if p.daily_protein_g
        .is_some_and(|g| !(MIN_DAILY_PROTEIN_G..=MAX_DAILY_PROTEIN_G).contains(&g))
    {
        return Err(invalid(
            "preferences.dailyProteinG",
            &format!("must be from {MIN_DAILY_PROTEIN_G} to {MAX_DAILY_PROTEIN_G}"),
        ));
    }
    if r.recent_days.is_some_and(|d| d > MAX_RECENT_DAYS) {
        return Err(invalid("recentDays", "must be at most 60"));
    }
    let mut seen = HashSet::new();
    let mut slots = 0u32;
    for (i, day) in r.days.iter().enumerate() {
        let d = date(&format!("days[{i}].date"), &day.date)?;
        if !seen.insert(d) {
            return Err(invalid(
                &format!("days[{i}].date"),
                "repeats an earlier day's date",
            ));
        }
        let meals = day.meals.slots();
        if meals.is_empty() {
            return Err(invalid(
                &format!("days[{i}].meals"),
                "must hold at least one of breakfast, lunch, dinner, snack, dessert",
            ));
        }
        for (t, s) in meals {
            let at = format!("days[{i}].meals.{}", t.as_str());
            servings(&format!("{at}.servings"), s.servings)
                .map_err(|_| invalid(&format!("{at}.servings"), "must be above 0 (at most 100)"))?;
            list_len(&format!("{at}.tags"), s.tags.len(), 0, MAX_SLOT_TAGS)?;
            for (j, tag) in s.tags.iter().enumerate() {
                text(&format!("{at}.tags[{j}]"), tag, 1, MAX_TAG_CHARS)?;
            }
            if let Some(n) = &s.note {
                text(&format!("{at}.note"), n, 0, MAX_NOTE_CHARS)?;
            }
            if let Some(rep) = &s.repeat {
                text(&format!("{at}.repeat"), rep, 0, MAX_REPEAT_CHARS)?;
            }
            if let Some(pin) = &s.pinned_recipe_id {
                id(&format!("{at}.pinnedRecipeId"), pin)?;
            }
            slots += 1;
        }
    }
    Ok(slots)
}

/// Checks a plan handed back to `meals().confirm`: at most 31 days of valid dates; returns the
/// selections to record as `(date, meal type, recipe id)`.
pub fn confirmed(plan: &MealPlanResult) -> Result<Vec<(Date, MealType, String)>> {
    if plan.days.len() > MAX_DAYS {
        return Err(invalid("days", "must hold at most 31 days"));
    }
    let mut out = Vec::new();
    for (i, day) in plan.days.iter().enumerate() {
        let d = date(&format!("days[{i}].date"), &day.date)?;
        for (t, slot) in day.meals.slots() {
            if let Some(sel) = &slot.selection {
                id(
                    &format!("days[{i}].meals.{}.selection.recipeId", t.as_str()),
                    &sel.recipe_id,
                )?;
                out.push((d, t, sel.recipe_id.clone()));
            }
        }
    }
    Ok(out)
}

/// Checks the size of JSON text before it is parsed.
pub fn json_size(what: &str, json: &str, max: usize) -> Result<()> {
    if json.len() > max {
        return Err(invalid(what, &format!("must be at most {max} bytes")));
    }
    Ok(())
}
