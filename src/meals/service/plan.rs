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
//! - a core pick is staged (the selection names the staged copy); variety warnings are added.
//!
//! A failed slot never fails the plan: it is counted in `slotFailuresCount`.

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
    SlotFailureCode,
};
use crate::meals::notes;
use crate::meals::rerank::{self, RerankReply};
use crate::meals::score::{self, history_id, SlotView};
use crate::meals::search::{self, candidate_query, exclusion_terms, matched_tags};
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
    let mut processed = 0u32;
    let mut out = Vec::with_capacity(days.len());
    for (date, day) in days {
        let mut meals = PlannedMeals::default();
        for (meal_type, slot) in day.meals.slots() {
            if env.cancel.is_cancelled() {
                return Err(LlmError::Cancelled.into());
            }
            let (planned, eaten) =
                plan_slot(env, ids, date, meal_type, slot, request, &recent, &picked)?;
            if let Some(r) = eaten {
                picked.push(history_id(&r).to_string());
                recent.push(history_entry(&r, date.to_string(), meal_type));
            }
            meals.set(meal_type, planned);
            processed += 1;
            progress(processed, total);
        }
        out.push(PlannedDay {
            date: date.to_string(),
            meals,
        });
    }
    let slot_failures_count = out
        .iter()
        .flat_map(|d| d.meals.slots())
        .filter(|(_, s)| s.selection.is_none())
        .count() as u32;
    Ok(MealPlanResult {
        days: out,
        slot_failures_count,
    })
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
    let candidates = candidates(env.store, meal_type, slot, request, picked)?;
    if candidates.is_empty() {
        return Ok((
            failed(slot, SlotFailureCode::NoCandidates, NO_FIT_MESSAGE),
            None,
        ));
    }
    let mut warnings = Vec::new();
    let scored = score::fallback_rank(&view, &candidates);
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
    found.truncate(search::MAX_CANDIDATES);
    Ok(found)
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
