//! What the model reads and may answer when it reranks one slot's candidates (pure).
//!
//! Candidates are shown under short aliases (`r1`, `r2`, ... in search order) instead of their
//! ids: fewer tokens for a small model, and the per-request JSON Schema makes `recipeId` an enum
//! of exactly these aliases, so a constrained model cannot name any other recipe. The reply is
//! validated anyway ([`check_reply`]): an alias not among the candidates, a repeated one, more
//! than 3 picks or a confidence outside 0..1 goes back to the model for repair.
//!
//! The input follows spec 003 (slot, preferences, recent meals, candidates with id, title, tags,
//! prep and cook time and a short summary), as compact JSON, one candidate per line.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::model::{MealHistoryEntry, MealPreferences, MealSlotRequest, MealType, Recipe};
use crate::llm::structured::Issue;

/// The static part of the reply schema (`schemas/meals-rerank.json`).
pub const RERANK_SCHEMA: &str = include_str!("../../schemas/meals-rerank.json");
/// Picks per slot, at most.
pub const MAX_PICKS: usize = 3;
/// Characters of a recipe's description shown as its summary.
pub const SUMMARY_CHARS: usize = 70;
/// Tags shown per candidate.
const PROMPT_TAGS: usize = 4;
/// Recent meals shown, at most (the ones nearest the slot).
pub const PROMPT_RECENT: usize = 8;
/// Characters of a reason or warning kept.
pub const MAX_REASON_CHARS: usize = 100;

/// One pick of the model's reply.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RawPick {
    /// A candidate alias, e.g. `r3`.
    pub recipe_id: String,
    /// 0 to 1.
    pub confidence: f64,
    /// Why, in a few words.
    #[serde(default)]
    pub reason: String,
}

/// The model's reply for one slot.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RerankReply {
    /// Best first; empty when nothing fits.
    pub picks: Vec<RawPick>,
    /// Things the user should know.
    #[serde(default)]
    pub warnings: Vec<String>,
}

/// The alias of the candidate at `index`: `r1` for the first.
pub fn alias(index: usize) -> String {
    format!("r{}", index + 1)
}

/// The index of the candidate an alias names, if it names one of `count`.
pub fn alias_index(alias: &str, count: usize) -> Option<usize> {
    let n: usize = alias.strip_prefix('r')?.parse().ok()?;
    (1..=count).contains(&n).then(|| n - 1)
}

/// The reply schema for `count` candidates: `recipeId` an enum of their aliases.
pub fn reply_schema(count: usize) -> String {
    let mut schema: Value = serde_json::from_str(RERANK_SCHEMA).unwrap_or(Value::Null);
    let aliases: Vec<Value> = (0..count).map(|i| Value::String(alias(i))).collect();
    if let Some(e) = schema.pointer_mut("/properties/picks/items/properties/recipeId/enum") {
        *e = Value::Array(aliases);
    }
    schema.to_string()
}

/// What is wrong with a reply for `count` candidates (empty when it is valid).
pub fn check_reply(reply: &RerankReply, count: usize) -> Vec<Issue> {
    let mut issues = Vec::new();
    let mut issue = |path: String, message: &str| {
        issues.push(Issue {
            path,
            message: message.into(),
        })
    };
    if reply.picks.len() > MAX_PICKS {
        issue("picks".into(), "must hold at most 3 picks");
    }
    let mut seen = Vec::new();
    for (i, p) in reply.picks.iter().enumerate() {
        match alias_index(&p.recipe_id, count) {
            None => issue(
                format!("picks[{i}].recipeId"),
                &format!("must be one of the candidates r1 to r{count}"),
            ),
            Some(k) if seen.contains(&k) => {
                issue(format!("picks[{i}].recipeId"), "repeats an earlier pick")
            }
            Some(k) => seen.push(k),
        }
        if !p.confidence.is_finite() || !(0.0..=1.0).contains(&p.confidence) {
            issue(format!("picks[{i}].confidence"), "must be from 0 to 1");
        }
    }
    if reply.warnings.len() > MAX_PICKS {
        issue("warnings".into(), "must hold at most 3 warnings");
    }
    issues
}

/// Text cut to `max` characters at a character boundary, trimmed, control characters removed.
pub fn cut(s: &str, max: usize) -> String {
    s.chars()
        .filter(|c| !c.is_control())
        .take(max)
        .collect::<String>()
        .trim()
        .to_string()
}

/// The slot as the model reads it (fields in the spec's order).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SlotInput<'a> {
    date: &'a str,
    meal_type: MealType,
    servings: u32,
    tags: &'a [String],
    note: Option<&'a str>,
    is_meal_prep: bool,
}

/// The preferences as the model reads them.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PreferencesInput<'a> {
    diet: Option<super::model::Diet>,
    excluded_ingredients: &'a [String],
    max_prep_minutes: Option<u32>,
    max_cook_minutes: Option<u32>,
}

/// One recent meal as the model reads it.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct RecentInput<'a> {
    date: &'a str,
    meal_type: MealType,
    title: &'a str,
    protein: Option<&'a str>,
}

/// One candidate as the model reads it.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct CandidateInput<'a> {
    recipe_id: String,
    title: &'a str,
    tags: &'a [String],
    prep_minutes: u32,
    cook_minutes: u32,
    summary: String,
}

fn line<T: Serialize>(label: &str, v: &T) -> String {
    format!("{label}{}", serde_json::to_string(v).unwrap_or_default())
}

/// The user turn: the slot, the preferences, the recent meals and the candidates (aliased), one
/// JSON value per line.
pub fn prompt_input(
    date: &str,
    meal_type: MealType,
    slot: &MealSlotRequest,
    prefs: &MealPreferences,
    recent: &[MealHistoryEntry],
    candidates: &[Recipe],
) -> String {
    let slot = SlotInput {
        date,
        meal_type,
        servings: slot.servings,
        tags: &slot.tags,
        note: slot.note.as_deref(),
        is_meal_prep: slot.is_meal_prep,
    };
    let prefs = PreferencesInput {
        diet: prefs.diet,
        excluded_ingredients: &prefs.excluded_ingredients,
        max_prep_minutes: prefs.max_prep_minutes,
        max_cook_minutes: prefs.max_cook_minutes,
    };
    let start = recent.len().saturating_sub(PROMPT_RECENT);
    let recent: Vec<RecentInput<'_>> = recent[start..]
        .iter()
        .map(|m| RecentInput {
            date: &m.date,
            meal_type: m.meal_type,
            title: &m.title,
            protein: m.protein.as_deref(),
        })
        .collect();
    let mut out = vec![
        line("slot: ", &slot),
        line("preferences: ", &prefs),
        line("recentMeals: ", &recent),
        "candidates:".to_string(),
    ];
    for (i, r) in candidates.iter().enumerate() {
        out.push(line(
            "",
            &CandidateInput {
                recipe_id: alias(i),
                title: &r.title,
                tags: &r.tags[..r.tags.len().min(PROMPT_TAGS)],
                prep_minutes: r.prep_minutes,
                cook_minutes: r.cook_minutes,
                summary: cut(&r.description, SUMMARY_CHARS),
            },
        ));
    }
    out.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn schema_enumerates_exactly_the_aliases() {
        let s: Value = serde_json::from_str(&reply_schema(3)).unwrap();
        assert_eq!(
            s.pointer("/properties/picks/items/properties/recipeId/enum")
                .unwrap(),
            &json!(["r1", "r2", "r3"])
        );
        assert_eq!(alias_index("r3", 3), Some(2));
        assert_eq!(alias_index("r4", 3), None);
        assert_eq!(alias_index("r0", 3), None);
        assert_eq!(alias_index("core-1", 3), None);
    }

    #[test]
    fn replies_naming_other_recipes_are_rejected() {
        let reply = RerankReply {
            picks: vec![
                RawPick {
                    recipe_id: "r1".into(),
                    confidence: 0.9,
                    reason: String::new(),
                },
                RawPick {
                    recipe_id: "core-99".into(),
                    confidence: 1.5,
                    reason: String::new(),
                },
                RawPick {
                    recipe_id: "r1".into(),
                    confidence: 0.5,
                    reason: String::new(),
                },
            ],
            warnings: vec![],
        };
        let paths: Vec<String> = check_reply(&reply, 2)
            .into_iter()
            .map(|i| format!("{}: {}", i.path, i.message))
            .collect();
        assert_eq!(
            paths,
            vec![
                "picks[1].recipeId: must be one of the candidates r1 to r2",
                "picks[1].confidence: must be from 0 to 1",
                "picks[2].recipeId: repeats an earlier pick",
            ]
        );
    }
}
