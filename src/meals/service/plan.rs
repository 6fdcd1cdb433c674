//! Planning a request slot by slot: days in date order, meals in the order breakfast, lunch,
//! dinner, snack, dessert. Per slot:
//! - a pinned recipe skips search and model (a pinned id that does not exist fails the slot);
//! - otherwise candidate search (`meals::search`) under the preferences and the note's refusals
//!   and diet (`meals::notes`), the hard rules checked again on every row, then the note's
//!   `only` terms and minutes available; no candidate fails the slot;
//! - code ranks the candidates (`meals::score`); a note that rules out every candidate fails the
//!   slot; the model is asked only where it can add something ([`model_can_add`]: several close
//!   candidates by `score::shortlist`, at most `rerank::MODEL_CANDIDATES`, and words of the note
//!   code could not weigh), validated with bounded repair; its pick is the selection, a decline
//!   keeps code's ranking; otherwise code's first is the selection (with the "model
//!   unavailable" warning when there is no model, or it failed or its breaker is open);
//! - a core pick is staged (the selection names the staged copy); variety warnings are added;
//! - with daily targets in the preferences, the search looks at up to [`TARGET_POOL`] recipes and
//!   the slot's candidates are the 25 best by the fallback ranking with the targets; that ranking
//!   (and so the short list the model sees) prefers candidates near the slot's share of what is
//!   left of the day (`servings::DayBudget`, `score::apply_targets`);
//! - a meal-prep slot (`isMealPrep` with a `repeat` marker) is planned as above and remembered;
//!   a later slot (by date, then meal) with the same marker and no `isMealPrep` is its repeat:
//!   the prep slot's recipe, with no search and no model (`pickedBy: repeat`, `repeatOf`, no
//!   variety warnings). A marker that names no earlier prep slot with a recipe is planned on its
//!   own, with a warning; a pinned slot is never a repeat.
//!
//! Every selection carries its recipe's ingredients scaled to the slot's servings and the slot's
//! nutrition; each day and the plan carry their sums per person (`meals::servings`).
//!
//! A failed slot never fails the plan: it is counted in `slotFailuresCount`.

use std::cell::Cell;
use std::collections::HashMap;
use std::sync::Arc;

use super::{history_entry, stage_in};
use crate::db::Store;
use crate::kernel::clock::Clock;
use crate::kernel::date::Date;
use crate::kernel::error::Result;
use crate::kernel::ids::IdGenerator;
use crate::llm::structured::{generate_validated, DEFAULT_ATTEMPTS};
use crate::llm::{
    CancelToken, ChatMessage, ChatRole, GenerationRequest, LanguageModel, LlmError, Sampling,
};
use crate::meals::model::{
    Alternative, MealHistoryEntry, MealPlanRequest, MealPlanResult, MealSlotRequest, MealType,
    PickedBy, PlannedDay, PlannedMeals, PlannedSlot, Recipe, RecipeSource, Selection, SlotFailure,
    SlotFailureCode, SlotRef,
};
use crate::meals::notes;
use crate::meals::rerank::{self, RerankReply};
use crate::meals::score::{self, history_id, SlotView};
use crate::meals::search::{self, candidate_query, exclusion_terms, matched_tags};
use crate::meals::servings::{self, DayBudget, SlotShare};
use crate::meals::validate;

/// Days of history that count as recent when the request does not say.
pub const DEFAULT_RECENT_DAYS: u32 = 7;
/// Alternatives per selection, at most.
pub const MAX_ALTERNATIVES: usize = 2;
/// The warning added when the fallback picked.
pub const FALLBACK_WARNING: &str = "Model unavailable: picked by the deterministic fallback";
/// What a slot without candidates (or without a fitting one) tells the user.
pub const NO_FIT_MESSAGE: &str =
    "Could not find a recipe fitting your criteria. Try loosening your constraints or adding recipes.";
/// What a slot whose pinned recipe does not exist tells the user.
pub const PINNED_MISSING_MESSAGE: &str =
    "The pinned recipe does not exist (deleted or expired). Pick another recipe or remove the pin.";

/// How the model is asked.
#[derive(Debug, Clone, PartialEq)]
pub struct PlanSettings {
    /// Generations per slot, the first plus repairs. Default 3.
    pub max_attempts: u32,
    /// Token choice (seeded: the same model and build give the same plan).
    pub sampling: Sampling,
    /// Tokens per reply. Default 150 (3 picks with reasons of at most 60 characters fit).
    pub max_tokens: u32,
    /// Limit per model call, in milliseconds. Default 30 s.
    pub timeout_ms: Option<u64>,
}

impl Default for PlanSettings {
    fn default() -> Self {
        PlanSettings {
            max_attempts: DEFAULT_ATTEMPTS,
            sampling: Sampling::default(),
            max_tokens: 150,
            timeout_ms: Some(30_000),
        }
    }
}

/// Everything a plan run needs besides the request.
pub struct PlanEnv<'a> {
    /// The database.
    pub store: &'a Store,
    /// Now (staging expiry).
    pub clock: &'a dyn Clock,
    /// The reranking model; `None` uses the fallback.
    pub model: Option<&'a dyn LanguageModel>,
    /// How the model is asked.
    pub settings: &'a PlanSettings,
    /// Stops the run between slots and inside a model call.
    pub cancel: &'a Arc<CancelToken>,
}

thread_local! {
    static SEARCHES: Cell<u64> = const { Cell::new(0) };
}

/// How many candidate searches plans have run on the calling thread so far (a plan runs on the
/// thread that calls [`plan`]). For tests and measurements: a meal-prep repeat runs none.
pub fn searches_on_this_thread() -> u64 {
    SEARCHES.with(Cell::get)
}

/// A meal-prep slot that later slots may repeat.
struct Prep {
    /// Where it is.
    at: SlotRef,
    /// The recipe cooked (for a staged pick: the core recipe it copies).
    recipe: Recipe,
    /// Its selection.
    selection: Selection,
    /// Its servings (what it cooks).
    servings: u32,
    /// Its servings less those its repeats so far eat.
    servings_left: i64,
}

/// One ranked pick before staging.
struct Pick {
    index: usize,
    confidence: f64,
    reason: Option<String>,
}

/// Plans `request` (validated here), calling `progress(processed, total)` after each slot.
/// Fails only with `Cancelled` (as `Error::Llm`) or a storage error; failed slots are in the
/// result.
pub fn plan(
    env: &PlanEnv<'_>,
    ids: &mut IdGenerator,
    request: &MealPlanRequest,
    progress: &mut dyn FnMut(u32, u32),
) -> Result<MealPlanResult> {
    let total = validate::request(request)?;
    let mut days: Vec<(Date, &crate::meals::model::DayRequest)> = request
        .days
        .iter()
        .enumerate()
        .map(|(i, d)| Ok((validate::date(&format!("days[{i}].date"), &d.date)?, d)))
        .collect::<Result<_>>()?;
    days.sort_by_key(|(d, _)| *d);
    let first = days[0].0;
    let window = i64::from(request.recent_days.unwrap_or(DEFAULT_RECENT_DAYS));
    let mut recent: Vec<MealHistoryEntry> = if window == 0 {
        Vec::new()
    } else {
        let from = first.add_days(-window).to_string();
        let to = first.add_days(-1).to_string();
        env.store.read(|db| db.meal_history(&from, &to, 500))?
    };
    let mut picked: Vec<String> = Vec::new();
    let mut preps: HashMap<String, Prep> = HashMap::new();
    let mut processed = 0u32;
    let mut out = Vec::with_capacity(days.len());
    for (date, day) in days {
        let mut meals = PlannedMeals::default();
        let mut budget = DayBudget::new(&request.preferences);
        let slots = day.meals.slots();
        for (i, &(meal_type, slot)) in slots.iter().enumerate() {
            if env.cancel.is_cancelled() {
                return Err(LlmError::Cancelled.into());
            }
            let later: Vec<MealType> = slots[i + 1..].iter().map(|(t, _)| *t).collect();
            let share = budget.as_ref().map(|b| b.share(meal_type, &later));
            let marker = slot.repeat.as_deref().filter(|m| !m.trim().is_empty());
            // A repeat: a marker, no meal prep of its own, no pinned recipe (the user's choice
            // wins).
            let repeats = marker.filter(|_| !slot.is_meal_prep && slot.pinned_recipe_id.is_none());
            let prep = repeats.and_then(|m| preps.get_mut(m));
            let (mut planned, eaten, repeated) = match prep {
                Some(prep) => (
                    filled(slot, Some(repeat_selection(prep, slot))),
                    Some(prep.recipe.clone()),
                    true,
                ),
                None => {
                    let (mut planned, eaten) = plan_slot(
                        env,
                        ids,
                        date,
                        meal_type,
                        slot,
                        request,
                        &recent,
                        &picked,
                        share.as_ref(),
                    )?;
                    if let (Some(m), Some(sel)) = (repeats, planned.selection.as_mut()) {
                        sel.warnings.push(format!(
                            "No earlier meal-prep slot marked \"{m}\" has a recipe: planned on its own"
                        ));
                    }
                    (planned, eaten, false)
                }
            };
            if let (Some(sel), Some(r)) = (planned.selection.as_mut(), eaten.as_ref()) {
                sel.ingredients = servings::scaled_ingredients(r, slot.servings);
                sel.nutrition = servings::slot_nutrition(r, slot.servings);
            }
            if let (Some(b), Some(s)) = (budget.as_mut(), share.as_ref()) {
                b.take(s, eaten.as_ref().and_then(|r| r.nutrition.as_ref()));
            }
            if let (Some(m), Some(sel), Some(r), true) = (
                marker,
                planned.selection.as_ref(),
                eaten.as_ref(),
                slot.is_meal_prep,
            ) {
                let at = SlotRef {
                    date: date.to_string(),
                    meal_type,
                };
                let prep = Prep {
                    at,
                    recipe: r.clone(),
                    selection: sel.clone(),
                    servings: slot.servings,
                    servings_left: i64::from(slot.servings),
                };
                preps.insert(m.to_string(), prep);
            }
            if let Some(r) = eaten {
                if !repeated {
                    picked.push(history_id(&r).to_string());
                }
                recent.push(history_entry(&r, date.to_string(), meal_type));
            }
            meals.set(meal_type, planned);
            processed += 1;
            progress(processed, total);
        }
        out.push(PlannedDay {
            date: date.to_string(),
            nutrition: servings::day_nutrition(&meals, &request.preferences),
            meals,
        });
    }
    let slot_failures_count = out
        .iter()
        .flat_map(|d| d.meals.slots())
        .filter(|(_, s)| s.selection.is_none())
        .count() as u32;
    Ok(MealPlanResult {
        nutrition: servings::plan_nutrition(&out, &request.preferences),
        days: out,
        slot_failures_count,
    })
}

/// The selection of a repeat of `prep` (the caller adds ingredients and nutrition): its recipe,
/// no alternatives, no variety warnings; a warning when the repeats eat more servings than the
/// prep slot cooks.
fn repeat_selection(prep: &mut Prep, slot: &MealSlotRequest) -> Selection {
    prep.servings_left -= i64::from(slot.servings);
    let (date, meal) = (&prep.at.date, prep.at.meal_type.as_str());
    let mut warnings = Vec::new();
    if prep.servings_left < 0 {
        warnings.push(format!(
            "The meal prep of {date} ({meal}) cooks {} servings; its repeats eat more",
            prep.servings
        ));
    }
    Selection {
        confidence: 1.0,
        reason: Some(format!("Meal prep from {date} ({meal})")),
        picked_by: PickedBy::Repeat,
        matched_tags: matched_tags(&prep.recipe, &slot.tags),
        warnings,
        alternatives: Vec::new(),
        repeat_of: Some(prep.at.clone()),
        ingredients: Vec::new(),
        nutrition: None,
        ..prep.selection.clone()
    }
}

fn failed(slot: &MealSlotRequest, code: SlotFailureCode, message: &str) -> PlannedSlot {
    PlannedSlot {
        selection: None,
        failure: Some(SlotFailure {
            code,
            message: message.into(),
        }),
        ..filled(slot, None)
    }
}

fn filled(slot: &MealSlotRequest, selection: Option<Selection>) -> PlannedSlot {
    PlannedSlot {
        servings: slot.servings,
        tags: slot.tags.clone(),
        note: slot.note.clone(),
        is_meal_prep: slot.is_meal_prep,
        repeat: slot.repeat.clone(),
        selection,
        failure: None,
    }
}

/// One slot: the planned slot and the recipe eaten (the pick, for the variety of later slots).
#[allow(clippy::too_many_arguments)]
fn plan_slot(
    env: &PlanEnv<'_>,
    ids: &mut IdGenerator,
    date: Date,
    meal_type: MealType,
    slot: &MealSlotRequest,
    request: &MealPlanRequest,
    recent: &[MealHistoryEntry],
    picked: &[String],
    share: Option<&SlotShare>,
) -> Result<(PlannedSlot, Option<Recipe>)> {
    let prefs = &request.preferences;
    let view = SlotView {
        date,
        meal_type,
        tags: &slot.tags,
        note: slot.note.as_deref(),
        prefs,
        recent,
    };
    if let Some(pin) = &slot.pinned_recipe_id {
        let Some(recipe) = env.store.read(|db| db.recipe(pin))? else {
            return Ok((
                failed(
                    slot,
                    SlotFailureCode::PinnedNotFound,
                    PINNED_MISSING_MESSAGE,
                ),
                None,
            ));
        };
        let mut warnings = score::variety_warnings(&view, &recipe, &[]);
        if let Some(rule) = search::violation(
            &recipe,
            meal_type,
            prefs,
            &exclusion_terms(&prefs.excluded_ingredients),
        ) {
            warnings.push(format!(
                "The pinned recipe does not meet the {rule} preference"
            ));
        }
        let pick = Pick {
            index: 0,
            confidence: 1.0,
            reason: None,
        };
        let sel = select(
            env,
            ids,
            &view,
            std::slice::from_ref(&recipe),
            &pick,
            PickedBy::Pinned,
            warnings,
        )?;
        return Ok((filled(slot, Some(sel)), Some(recipe)));
    }
    let pool = share.map_or(search::MAX_CANDIDATES, |_| TARGET_POOL);
    let mut candidates = candidates(env.store, meal_type, slot, request, picked, pool)?;
    if let Some(share) = share {
        candidates = best_for_share(&view, candidates, share);
    }
    if candidates.is_empty() {
        return Ok((
            failed(slot, SlotFailureCode::NoCandidates, NO_FIT_MESSAGE),
            None,
        ));
    }
    let mut warnings = Vec::new();
    let mut scored = score::fallback_rank(&view, &candidates);
    if let Some(share) = share {
        scored = score::apply_targets(scored, &candidates, share);
    }
    // The close candidates by the scoring, best first: none the note rules out, none far below
    // the best. When the note rules out every candidate, nothing fits (with or without a model).
    let offered = score::shortlist(&scored, rerank::MODEL_CANDIDATES);
    if offered.is_empty() {
        return Ok((failed(slot, SlotFailureCode::NoFit, NO_FIT_MESSAGE), None));
    }
    // The model is asked only where it can add something: several close candidates, and words
    // of the note that code could not weigh (none of them in any close candidate's text).
    // Otherwise code's ranking stands, and no model is needed.
    let close: Vec<Recipe> = offered
        .iter()
        .map(|s| candidates[s.index].clone())
        .collect();
    let model = env
        .model
        .filter(|_| model_can_add(slot.note.as_deref(), &close));
    let mut declined = false;
    let ranked = match model {
        Some(model) => {
            match rerank_with(env, model, date, meal_type, slot, request, recent, &close) {
                // A decline among candidates code found fitting keeps code's ranking.
                Ok((picks, _)) if picks.is_empty() => {
                    declined = true;
                    None
                }
                Ok((picks, model_warnings)) => {
                    warnings.extend(model_warnings);
                    let picks = picks
                        .into_iter()
                        .map(|p| Pick {
                            index: offered[p.index].index,
                            ..p
                        })
                        .collect::<Vec<_>>();
                    Some((picks, PickedBy::Model))
                }
                Err(LlmError::Cancelled) => return Err(LlmError::Cancelled.into()),
                Err(e) => {
                    log::warn!(target: "coachcore::meals", "rerank failed, fallback used: {e}");
                    None
                }
            }
        }
        None => None,
    };
    let (picks, by) = ranked.unwrap_or_else(|| {
        // The warning says the model was wanted and could not answer (none, failed, breaker).
        if env.model.is_none() || (model.is_some() && !declined) {
            warnings.push(FALLBACK_WARNING.to_string());
        }
        let picks = scored
            .iter()
            .take(1 + MAX_ALTERNATIVES)
            .map(|s| Pick {
                index: s.index,
                confidence: s.confidence,
                reason: Some(s.reason.clone()),
            })
            .collect();
        (picks, PickedBy::Fallback)
    });
    let Some(first) = picks.first() else {
        return Ok((failed(slot, SlotFailureCode::NoFit, NO_FIT_MESSAGE), None));
    };
    let pick = &candidates[first.index];
    let others: Vec<&Recipe> = candidates
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != first.index)
        .map(|(_, r)| r)
        .collect();
    let mut all_warnings = score::variety_warnings(&view, pick, &others);
    all_warnings.extend(warnings);
    let mut sel = select(env, ids, &view, &candidates, first, by, all_warnings)?;
    sel.alternatives = picks[1..]
        .iter()
        .take(MAX_ALTERNATIVES)
        .map(|p| {
            let r = &candidates[p.index];
            Alternative {
                source: r.source,
                recipe_id: r.id.clone(),
                title: r.title.clone(),
                confidence: p.confidence,
                reason: p.reason.clone(),
                matched_tags: matched_tags(r, &slot.tags),
            }
        })
        .collect();
    Ok((filled(slot, Some(sel)), Some(pick.clone())))
}

/// Whether the model can add something to code's ranking of `close` (the close candidates, best
/// first): there are several, and the note has words code could not weigh.
pub fn model_can_add(note: Option<&str>, close: &[Recipe]) -> bool {
    close.len() > 1 && !notes::read(note).unweighed(close).is_empty()
}

/// The slot's candidates: the search, then the hard rules checked again in code.
fn candidates(
    store: &Store,
    meal_type: MealType,
    slot: &MealSlotRequest,
    request: &MealPlanRequest,
    picked: &[String],
    limit: usize,
) -> Result<Vec<Recipe>> {
    let prefs = &request.preferences;
    let mut q = candidate_query(meal_type, &slot.tags, slot.note.as_deref(), prefs, picked);
    // The note's refusals and diet are hard rules too.
    let reading = notes::read(slot.note.as_deref());
    q.excluded.extend(reading.avoided.iter().cloned());
    q.excluded.sort();
    q.excluded.dedup();
    if let Some(d) = reading.diet {
        q.diet_bits |= d.bit();
    }
    q.limit = limit;
    SEARCHES.with(|n| n.set(n.get() + 1));
    let mut found = store.read(|db| db.search_candidates(&q))?;
    let before = found.len();
    found.retain(|r| search::violation(r, meal_type, prefs, &q.excluded).is_none());
    if found.len() != before {
        log::error!(target: "coachcore::meals",
            "search returned {} candidates breaking a hard rule; dropped", before - found.len());
    }
    // `only fish`: one of the terms; minutes available cap prep + cook when some candidate
    // keeps within them.
    found.retain(|r| reading.allows(r));
    if let Some(m) = reading.minutes {
        if found.iter().any(|r| r.prep_minutes + r.cook_minutes <= m) {
            found.retain(|r| r.prep_minutes + r.cook_minutes <= m);
        }
    }
    found.truncate(limit);
    Ok(found)
}

/// Recipes the search looks at for a slot planned against daily targets (instead of
/// `search::MAX_CANDIDATES`): the ones nearest the slot's share are often not among the first 25
/// in search order.
pub const TARGET_POOL: usize = 100;

/// The slot's candidates from a wider `pool`: the best `search::MAX_CANDIDATES` by the fallback
/// ranking with the daily targets, in that order.
fn best_for_share(view: &SlotView<'_>, pool: Vec<Recipe>, share: &SlotShare) -> Vec<Recipe> {
    let ranked = score::apply_targets(score::fallback_rank(view, &pool), &pool, share);
    let mut keep: Vec<Option<Recipe>> = pool.into_iter().map(Some).collect();
    ranked
        .iter()
        .take(search::MAX_CANDIDATES)
        .filter_map(|s| keep[s.index].take())
        .collect()
}

/// The selection of `candidates[pick.index]`: a core recipe is staged first.
fn select(
    env: &PlanEnv<'_>,
    ids: &mut IdGenerator,
    view: &SlotView<'_>,
    candidates: &[Recipe],
    pick: &Pick,
    by: PickedBy,
    warnings: Vec<String>,
) -> Result<Selection> {
    let recipe = &candidates[pick.index];
    let (source, recipe_id) = if recipe.source == RecipeSource::Core {
        let now = env.clock.now_ms();
        let stage_id = format!("stage-{}", ids.next_id());
        let staged = env
            .store
            .write(|db| stage_in(db, &recipe.id, &stage_id, now))?;
        (RecipeSource::Stage, staged.id)
    } else {
        (recipe.source, recipe.id.clone())
    };
    Ok(Selection {
        source,
        recipe_id,
        title: recipe.title.clone(),
        confidence: pick.confidence,
        reason: pick.reason.clone(),
        picked_by: by,
        matched_tags: matched_tags(recipe, view.tags),
        warnings,
        alternatives: Vec::new(),
        repeat_of: None,
        ingredients: Vec::new(),
        nutrition: None,
    })
}

/// Asks the model to rank `candidates` (best first by the fallback scoring; the last ones are left
/// out when the prompt would not fit the model's window): the picks (indexes into `candidates`)
/// and its warnings.
#[allow(clippy::too_many_arguments)]
fn rerank_with(
    env: &PlanEnv<'_>,
    model: &dyn LanguageModel,
    date: Date,
    meal_type: MealType,
    slot: &MealSlotRequest,
    request: &MealPlanRequest,
    recent: &[MealHistoryEntry],
    candidates: &[Recipe],
) -> std::result::Result<(Vec<Pick>, Vec<String>), LlmError> {
    let s = env.settings;
    let system = crate::kernel::prompts::MEALS_RERANK.trim_end();
    let context = model.info().context_tokens;
    // The fewest-points candidates give way until the prompt fits the model's window.
    let mut shown = candidates.len();
    let input = loop {
        let input = rerank::prompt_input(
            &date.to_string(),
            meal_type,
            slot,
            &request.preferences,
            recent,
            &candidates[..shown],
        );
        if shown == 1 || rerank::fits(system.len() + input.len(), s.max_tokens, context) {
            break input;
        }
        shown -= 1;
    };
    let candidates = &candidates[..shown];
    let gen = GenerationRequest {
        messages: vec![
            ChatMessage::new(ChatRole::System, system),
            ChatMessage::new(ChatRole::User, input),
        ],
        json_schema: Some(rerank::reply_schema(candidates.len())),
        sampling: s.sampling.clone(),
        max_tokens: s.max_tokens,
        timeout_ms: s.timeout_ms,
    };
    let n = candidates.len();
    let (reply, _) =
        generate_validated::<RerankReply>(model, gen, s.max_attempts, None, env.cancel, |r| {
            rerank::check_reply(r, n)
        })?;
    let picks = rerank::distinct_picks(&reply, n)
        .into_iter()
        .map(|(index, p)| Pick {
            index,
            confidence: (p.confidence * 100.0).round() / 100.0,
            reason: Some(rerank::cut(&p.reason, rerank::MAX_REASON_CHARS))
                .filter(|r| !r.is_empty()),
        })
        .collect();
    let warnings = reply
        .warnings
        .iter()
        .map(|w| rerank::cut(w, rerank::MAX_REASON_CHARS))
        .filter(|w| !w.is_empty())
        .collect();
    Ok((picks, warnings))
}
