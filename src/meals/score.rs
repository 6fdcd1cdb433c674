//! The deterministic side of choosing (pure): code's ranking of a slot's candidates (the pick
//! unless the model is asked and chooses; also when there is no model, it fails or its circuit
//! breaker is open), and the variety warnings computed for every pick, whoever made it.
//!
//! Fallback points of a candidate (documented in `docs/meals.md`):
//! - +3 for each slot tag it carries;
//! - +2 for each wanted word of the note (`notes::NoteReading::wanted`) found in its title, tags,
//!   description or ingredients; -3 for each refused taste word (`no sweets`) found there;
//! - what the note says beyond its words ([`note_points`]: minutes, hot or cold, dish types,
//!   portable, no cooking, spicy or mild, light or filling);
//! - time: +2 when the preferences set a limit and it is within every limit; otherwise -1 for
//!   every started 10 minutes over;
//! - variety: -4 when it (or the core recipe it copies) is in the recent meals; -2 when its
//!   primary protein is that of any meal the day before;
//! - +1 for a user recipe;
//! - daily targets (when the preferences set `dailyKcal` or `dailyProteinG`, [`apply_targets`]):
//!   -1 for each fifth of the slot's kcal share the candidate's serving strays from it and -1
//!   for each 2/5 of the protein share (each rounded to the nearest point; at most -6 together);
//!   a candidate without nutrition counts as 2/5 off each target. The slot's share is
//!   `meals::servings::DayBudget`'s.
//!
//! Highest points first; ties keep the search order (with daily targets: the candidate nearer
//! the slot's share first). Confidence is `0.3 + 0.6 * points / best possible` (0.3 for no
//! positive points; the best possible leaves the daily targets out, which take 0.05 per point
//! instead, never below 0.3), rounded to 2 decimals.
//!
//! Variety warnings ([`variety_warnings`]): the pick repeats a recipe of the recent meals; or its
//! primary protein is that of any meal the day before (breakfast to dessert, whatever the slot's
//! meal) while another candidate of the slot has a different one.

use std::collections::HashSet;

use super::model::{MealHistoryEntry, MealPreferences, MealType, Nutrition, Recipe, RecipeSource};
use super::notes::{self, NoteReading, Size, Spice};
use super::search::{matched_tags, minutes_over, primary_protein, words};
use super::servings::SlotShare;
use crate::kernel::date::Date;

/// A candidate's fallback score.
#[derive(Debug, Clone, PartialEq)]
pub struct Scored {
    /// Index into the candidates.
    pub index: usize,
    /// Points (see the module docs).
    pub points: i32,
    /// 0.3 to 0.9.
    pub confidence: f64,
    /// What earned the points, in a few words.
    pub reason: String,
    /// Avoid terms of the note (`no pork`) it holds.
    pub avoid_hits: u32,
}

/// What a slot is scored against.
#[derive(Debug, Clone, Copy)]
pub struct SlotView<'a> {
    /// The slot's day.
    pub date: Date,
    /// The slot's meal.
    pub meal_type: MealType,
    /// The slot's tags.
    pub tags: &'a [String],
    /// The slot's note.
    pub note: Option<&'a str>,
    /// Standing preferences.
    pub prefs: &'a MealPreferences,
    /// The meal history of the window plus the picks made so far in the job.
    pub recent: &'a [MealHistoryEntry],
}

/// The id a recipe has in the history: a staged copy counts as the core recipe it copies.
pub fn history_id(recipe: &Recipe) -> &str {
    recipe.origin_id.as_deref().unwrap_or(&recipe.id)
}

/// The meals of the day before the slot that name a primary protein; the slot's own meal type
/// first (so a warning names yesterday's dinner for a dinner when both apply).
fn yesterdays_meals<'v>(view: &SlotView<'v>) -> Vec<&'v MealHistoryEntry> {
    let yesterday = view.date.add_days(-1).to_string();
    let mut meals: Vec<&MealHistoryEntry> = view
        .recent
        .iter()
        .filter(|m| m.date == yesterday && m.protein.is_some())
        .collect();
    meals.sort_by_key(|m| m.meal_type != view.meal_type);
    meals
}

fn yesterday_proteins(view: &SlotView<'_>) -> HashSet<String> {
    yesterdays_meals(view)
        .into_iter()
        .filter_map(|m| m.protein.clone())
        .collect()
}

/// The candidates ranked by fallback points, best first.
pub fn fallback_rank(view: &SlotView<'_>, candidates: &[Recipe]) -> Vec<Scored> {
    let reading = notes::read(view.note);
    let (include, avoid) = (&reading.wanted, &reading.avoided_words);
    let has_limit = view.prefs.max_prep_minutes.is_some() || view.prefs.max_cook_minutes.is_some();
    let best = (3 * view.tags.len() + 2 * include.len()) as i32 + if has_limit { 2 } else { 0 } + 1;
    let eaten: HashSet<&str> = view.recent.iter().map(|m| m.recipe_id.as_str()).collect();
    let yesterday = yesterday_proteins(view);
    let mut scored: Vec<Scored> = candidates
        .iter()
        .enumerate()
        .map(|(index, r)| {
            let mut points = 0i32;
            let mut why: Vec<String> = Vec::new();
            let tags = matched_tags(r, view.tags).len() as i32;
            if tags > 0 {
                points += 3 * tags;
                why.push(format!("{tags} tag(s)"));
            }
            let text: HashSet<String> = words(&r.title)
                .into_iter()
                .chain(r.tags.iter().flat_map(|t| words(t)))
                .chain(words(&r.description))
                .chain(r.ingredients.iter().flat_map(|i| words(&i.name)))
                .collect();
            let found = |w: &String| text.contains(w) || text.contains(&format!("{w}s"));
            let hits = include.iter().filter(|w| found(w)).count() as i32;
            if hits > 0 {
                points += 2 * hits;
                why.push(format!("{hits} note word(s)"));
            }
            let avoid_hits = avoid.iter().filter(|w| found(w)).count() as u32;
            points -= 3 * avoid_hits as i32;
            let over = minutes_over(r, view.prefs);
            if has_limit && over == 0 {
                points += 2;
                why.push("within time".into());
            } else if over > 0 {
                points -= over.div_ceil(10) as i32;
                why.push(format!("{over} min over"));
            }
            if eaten.contains(history_id(r)) {
                points -= 4;
                why.push("eaten recently".into());
            }
            if primary_protein(r).is_some_and(|p| yesterday.contains(p)) {
                points -= 2;
            }
            let (note, note_why) = note_points(&reading, r);
            points += note;
            why.extend(note_why);
            if r.source == RecipeSource::User {
                points += 1;
                why.push("your recipe".into());
            }
            let share = f64::from(points.max(0)) / f64::from(best.max(1));
            let confidence = ((0.3 + 0.6 * share.min(1.0)) * 100.0).round() / 100.0;
            let reason = if why.is_empty() {
                "fits the meal type".to_string()
            } else {
                why.join(", ")
            };
            Scored {
                index,
                points,
                confidence,
                reason,
                avoid_hits,
            }
        })
        .collect();
    // Stable: ties keep the search order.
    scored.sort_by_key(|s| std::cmp::Reverse(s.points));
    scored
}

/// The points a recipe earns from what the slot's note says beyond its words (see
/// `docs/meals.md`, "Slot notes"), and what earned them:
/// - minutes available: +3 within them (prep + cook), else -1 for every started 10 minutes over;
/// - hot or cold: +3 when the recipe says it is that (`warm`, `soup`; `cold`, `salad`), +1 when
///   only its cooking time does, -3 when it says it is the other;
/// - a dish type wanted: +4 when it is one; a dish type refused: -4;
/// - portable: +3 for a recipe made to carry (wrap, sandwich, make-ahead), +1 for one eaten
///   cold without cooking; no cooking: +3 for no cooking time;
/// - spicy: +4 tagged spicy, +2 with chilli; mild: -4 and -2 for the same, +1 when it says mild;
/// - light or filling: +2 when its words say the same, -2 when they say the other.
pub fn note_points(reading: &NoteReading, recipe: &Recipe) -> (i32, Vec<String>) {
    if reading.is_empty() {
        return (0, Vec::new());
    }
    let t = notes::traits(recipe);
    let mut points = 0;
    let mut why = Vec::new();
    if let Some(m) = reading.minutes {
        let total = recipe.prep_minutes + recipe.cook_minutes;
        if total <= m {
            points += 3;
            why.push(format!("ready in {total} min"));
        } else {
            points -= (total - m).div_ceil(10) as i32;
        }
    }
    if let Some(want) = reading.temperature {
        match t.temperature {
            Some((have, true)) if have == want => {
                points += 3;
                why.push(
                    if want == notes::Temperature::Hot {
                        "hot"
                    } else {
                        "cold"
                    }
                    .into(),
                );
            }
            Some((have, false)) if have == want => points += 1,
            Some((_, true)) => points -= 3,
            _ => {}
        }
    }
    if reading.dishes.iter().any(|d| t.dishes.contains(d)) {
        points += 4;
        why.push("the dish asked for".into());
    }
    if reading.refused_dishes.iter().any(|d| t.dishes.contains(d)) {
        points -= 4;
    }
    if reading.portable {
        points += [0, 1, 3][usize::from(t.portable.min(2))];
        if t.portable == 2 {
            why.push("easy to carry".into());
        }
    }
    if reading.no_cook && recipe.cook_minutes == 0 {
        points += 3;
        why.push("no cooking".into());
    }
    match reading.spice {
        Some(Spice::Spicy) => {
            points += 2 * i32::from(t.spicy);
            if t.spicy > 0 {
                why.push("spicy".into());
            }
        }
        Some(Spice::Mild) => {
            points -= 2 * i32::from(t.spicy);
            points += i32::from(t.mild);
        }
        None => {}
    }
    if let (Some(want), Some(have)) = (reading.size, t.size) {
        if want == have {
            points += 2;
            why.push(
                if want == Size::Light {
                    "light"
                } else {
                    "filling"
                }
                .into(),
            );
        } else {
            points -= 2;
        }
    }
    (points, why)
}

/// The candidates the model is offered (see `docs/meals.md`, Reranking), from `ranked` (best
/// first, as [`fallback_rank`] returns them): none the note rules out (an avoid term), none more
/// than [`SHORTLIST_MARGIN`] points below the best of the others, at most `max`, best first.
/// Empty when the note rules out every candidate.
pub fn shortlist(ranked: &[Scored], max: usize) -> Vec<&Scored> {
    let allowed: Vec<&Scored> = ranked.iter().filter(|s| s.avoid_hits == 0).collect();
    let Some(best) = allowed.first().map(|s| s.points) else {
        return Vec::new();
    };
    allowed
        .into_iter()
        .filter(|s| s.points >= best - SHORTLIST_MARGIN)
        .take(max)
        .collect()
}

/// Points below the best that a candidate may trail and still be offered to the model: less than
/// one slot tag (3), so a clear tag winner is offered alone (the model then confirms it or says
/// nothing fits), while a note word (2) or a time fit (2) leaves the choice to the model.
pub const SHORTLIST_MARGIN: i32 = 2;

/// Points off for each fifth of a slot's kcal share a candidate strays from it (at most
/// [`MAX_TARGET_POINTS`]); half as many for protein.
pub const KCAL_POINTS_PER_SHARE: f64 = 5.0;
/// Points the daily targets take off a candidate, at most.
pub const MAX_TARGET_POINTS: i32 = 6;
/// How far (as a part of the share) a candidate without nutrition counts as straying.
pub const UNKNOWN_NUTRITION_DISTANCE: f64 = 0.4;

/// How far a candidate's serving strays from the slot's share of the daily targets: the points it
/// loses and the distance (the part of the kcal share it strays, plus half the part of the protein
/// share) that orders ties. A candidate without nutrition counts as
/// [`UNKNOWN_NUTRITION_DISTANCE`] off each target.
pub fn target_penalty(share: &SlotShare, nutrition: Option<&Nutrition>) -> (i32, f64) {
    let off = |want: Option<f64>, got: Option<f64>| -> f64 {
        match (want, got) {
            (None, _) => 0.0,
            (Some(w), Some(g)) => (g - w).abs() / w.max(1.0),
            (Some(_), None) => UNKNOWN_NUTRITION_DISTANCE,
        }
    };
    let kcal = off(share.kcal, nutrition.map(|n| n.kcal));
    let protein = off(share.protein_g, nutrition.map(|n| n.protein_g));
    let points =
        (kcal * KCAL_POINTS_PER_SHARE).round() + (protein * KCAL_POINTS_PER_SHARE / 2.0).round();
    ((points as i32).min(MAX_TARGET_POINTS), kcal + protein / 2.0)
}

/// `ranked` (as [`fallback_rank`] returns it) with the daily targets applied: each candidate loses
/// its [`target_penalty`] points (and 0.05 confidence per point, never below 0.3), its reason says
/// how it stands against the slot's share, and the order is by points, then by distance to the
/// share, then the search order.
pub fn apply_targets(ranked: Vec<Scored>, candidates: &[Recipe], share: &SlotShare) -> Vec<Scored> {
    let mut out: Vec<(Scored, f64)> = ranked
        .into_iter()
        .map(|mut s| {
            let nutrition = candidates[s.index].nutrition.as_ref();
            let (points, distance) = target_penalty(share, nutrition);
            s.points -= points;
            s.confidence =
                ((s.confidence - 0.05 * f64::from(points)).max(0.3) * 100.0).round() / 100.0;
            let note = match (nutrition, share.kcal) {
                (None, _) => "no nutrition".to_string(),
                (Some(n), Some(k)) if (n.kcal - k).abs() > 0.1 * k => {
                    let d = (n.kcal - k).round();
                    format!(
                        "{}{d} kcal against the day's target",
                        if d > 0.0 { "+" } else { "" }
                    )
                }
                _ => "fits the day's target".to_string(),
            };
            s.reason = if s.reason == "fits the meal type" {
                note
            } else {
                format!("{}, {note}", s.reason)
            };
            (s, distance)
        })
        .collect();
    // Stable: ties of points and distance keep the search order.
    out.sort_by(|(a, da), (b, db)| b.points.cmp(&a.points).then(da.total_cmp(db)));
    out.into_iter().map(|(s, _)| s).collect()
}

/// The variety warnings of picking `pick` for the slot; `others` are the slot's other candidates
/// (for "while an alternative exists").
pub fn variety_warnings(view: &SlotView<'_>, pick: &Recipe, others: &[&Recipe]) -> Vec<String> {
    let mut out = Vec::new();
    let key = history_id(pick);
    if let Some(m) = view.recent.iter().rev().find(|m| m.recipe_id == key) {
        out.push(format!(
            "Repeats a recipe from {} ({})",
            m.date,
            m.meal_type.as_str()
        ));
    }
    if let Some(p) = primary_protein(pick) {
        let alternative = others.iter().any(|o| primary_protein(o) != Some(p));
        let yesterday = yesterdays_meals(view)
            .into_iter()
            .find(|m| m.protein.as_deref() == Some(p));
        if let (true, Some(m)) = (alternative, yesterday) {
            out.push(format!(
                "Same main protein ({p}) as yesterday's {}",
                m.meal_type.as_str()
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::meals::model::Ingredient;

    fn recipe(id: &str, protein: &str) -> Recipe {
        Recipe {
            id: id.into(),
            source: RecipeSource::Core,
            title: format!("{protein} dish"),
            description: String::new(),
            meal_types: vec![MealType::Dinner],
            tags: vec![protein.into()],
            ingredients: vec![Ingredient {
                name: protein.into(),
                quantity: None,
                unit: None,
                preparation: None,
            }],
            prep_minutes: 10,
            cook_minutes: 10,
            servings: 2,
            diets: vec![],
            origin_id: None,
            expires_ms: None,
            steps: vec![],
            nutrition: None,
        }
    }

    fn eaten(date: &str, meal_type: MealType, id: &str, protein: &str) -> MealHistoryEntry {
        MealHistoryEntry {
            date: date.into(),
            meal_type,
            recipe_id: id.into(),
            title: id.into(),
            tags: vec![],
            protein: Some(protein.into()),
        }
    }

    #[test]
    fn protein_warnings_need_an_alternative_and_any_meal_of_yesterday() {
        let prefs = MealPreferences::default();
        let recent = [
            eaten("2026-11-22", MealType::Lunch, "core-b", "beef"),
            eaten("2026-11-22", MealType::Dinner, "core-a", "chicken"),
            eaten("2026-11-22", MealType::Breakfast, "core-e", "chicken"),
            eaten("2026-11-21", MealType::Dinner, "core-d", "fish"),
            eaten("2026-11-20", MealType::Dinner, "core-c", "pork"),
        ];
        let view = SlotView {
            date: Date::parse("2026-11-23").unwrap(),
            meal_type: MealType::Dinner,
            tags: &[],
            note: None,
            prefs: &prefs,
            recent: &recent,
        };
        let chicken = recipe("core-x", "chicken");
        let other_chicken = recipe("core-y", "chicken");
        let beef = recipe("core-z", "beef");
        let fish = recipe("core-f", "fish");
        // Yesterday's dinner (and breakfast) was chicken and a beef candidate exists: a warning
        // naming the same meal first.
        assert_eq!(
            variety_warnings(&view, &chicken, &[&other_chicken, &beef]),
            ["Same main protein (chicken) as yesterday's dinner"]
        );
        // Only chicken to choose from: no warning (variety is soft).
        assert!(variety_warnings(&view, &chicken, &[&other_chicken]).is_empty());
        // Beef was yesterday's lunch, not dinner: still back-to-back beef, a warning.
        assert_eq!(
            variety_warnings(&view, &beef, &[&chicken]),
            ["Same main protein (beef) as yesterday's lunch"]
        );
        // For a lunch slot, yesterday's chicken dinner counts just the same.
        let lunch = SlotView {
            meal_type: MealType::Lunch,
            ..view
        };
        assert_eq!(
            variety_warnings(&lunch, &chicken, &[&fish]),
            ["Same main protein (chicken) as yesterday's dinner"]
        );
        // Fish two days ago is no back-to-back protein.
        assert!(variety_warnings(&view, &fish, &[&beef]).is_empty());
        // The fallback ranks yesterday's proteins (of any meal) below the fish.
        let ranked = fallback_rank(&lunch, &[beef.clone(), chicken.clone(), fish.clone()]);
        assert_eq!(ranked[0].index, 2, "{ranked:?}");
        assert_eq!(ranked[1].points, ranked[0].points - 2);
        // Pork two days ago is no back-to-back protein; a repeat of a recipe is, whatever the
        // protein (a staged copy counts as the recipe it copies).
        let mut staged = recipe("stage-1", "pork");
        staged.origin_id = Some("core-c".into());
        assert_eq!(
            variety_warnings(&view, &staged, &[&beef]),
            ["Repeats a recipe from 2026-11-20 (dinner)"]
        );
    }

    #[test]
    fn daily_targets_take_points_by_distance_from_the_slots_share() {
        let n = |kcal: f64, protein_g: f64| Nutrition {
            kcal,
            protein_g,
            ..Nutrition::default()
        };
        let kcal_only = SlotShare {
            kcal: Some(500.0),
            protein_g: None,
        };
        assert_eq!(target_penalty(&kcal_only, Some(&n(500.0, 0.0))), (0, 0.0));
        // 150 over 500: 0.3 of the share, 1.5 points rounded to 2.
        assert_eq!(target_penalty(&kcal_only, Some(&n(650.0, 0.0))), (2, 0.3));
        assert_eq!(target_penalty(&kcal_only, Some(&n(5000.0, 0.0))).0, 6);
        assert_eq!(target_penalty(&kcal_only, None), (2, 0.4));
        let both = SlotShare {
            kcal: Some(500.0),
            protein_g: Some(40.0),
        };
        // Protein 20 under 40: half the share, 1.25 points rounded to 1; distance 0 + 0.25.
        assert_eq!(target_penalty(&both, Some(&n(500.0, 20.0))), (1, 0.25));
        let (points, distance) = target_penalty(&both, None);
        assert_eq!(points, 3);
        assert!((distance - 0.6).abs() < 1e-9);

        let mut a = recipe("core-a", "beef");
        a.nutrition = Some(n(900.0, 0.0));
        let mut b = recipe("core-b", "tofu");
        b.nutrition = Some(n(560.0, 0.0));
        let mut c = recipe("core-c", "fish");
        c.nutrition = Some(n(480.0, 0.0));
        let scored = |index: usize, points: i32| Scored {
            index,
            points,
            confidence: 0.6,
            reason: "1 tag(s)".into(),
            avoid_hits: 0,
        };
        let ranked = vec![scored(0, 3), scored(1, 0), scored(2, 0)];
        let got = apply_targets(ranked, &[a, b, c], &kcal_only);
        // a: 0.8 off, -4; b: 0.12 off, -1; c: 0.04 off, 0. a and b tie at -1: the nearer (b)
        // first.
        let order: Vec<(usize, i32)> = got.iter().map(|s| (s.index, s.points)).collect();
        assert_eq!(order, [(2, 0), (1, -1), (0, -1)]);
        assert_eq!(got[0].reason, "1 tag(s), fits the day's target");
        assert_eq!(got[1].reason, "1 tag(s), +60 kcal against the day's target");
        assert_eq!(
            got[2].reason,
            "1 tag(s), +400 kcal against the day's target"
        );
        assert_eq!(
            (got[0].confidence, got[1].confidence, got[2].confidence),
            (0.6, 0.55, 0.4)
        );
    }

    #[test]
    fn the_model_is_offered_the_close_candidates_the_note_allows() {
        let s = |index: usize, points: i32, avoid_hits: u32| Scored {
            index,
            points,
            confidence: 0.5,
            reason: String::new(),
            avoid_hits,
        };
        let ids = |v: Vec<&Scored>| v.into_iter().map(|s| s.index).collect::<Vec<_>>();
        // Ranked best first: a ruled-out top candidate is skipped, the best of the rest sets the
        // bar, one 3 points below it is left out.
        let ranked = [s(4, 6, 1), s(0, 5, 0), s(2, 3, 0), s(1, 2, 0), s(3, 0, 0)];
        assert_eq!(ids(shortlist(&ranked, 5)), [0, 2]);
        assert_eq!(ids(shortlist(&ranked, 1)), [0]);
        // Ties (no signal in the slot) are all offered, up to the cap.
        let ranked = [s(0, 0, 0), s(1, 0, 0), s(2, 0, 0), s(3, 0, 0)];
        assert_eq!(ids(shortlist(&ranked, 3)), [0, 1, 2]);
        // The note rules out every candidate: nothing to offer.
        let ranked = [s(0, -3, 1), s(1, -3, 1)];
        assert!(shortlist(&ranked, 5).is_empty());
    }
}
