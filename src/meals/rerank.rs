//! What the model reads and may answer when it reranks one slot's candidates (pure).
//!
//! Candidates are shown under short aliases (`r1`, `r2`, ... in search order) instead of their
//! ids: fewer tokens for a small model, and the per-request JSON Schema makes `recipeId` an enum
//! of exactly these aliases, so a constrained model cannot name any other recipe. The reply is
//! validated anyway ([`check_reply`]): an alias not among the candidates, more than 3 picks or a
//! confidence outside 0..1 goes back to the model for repair. A repeated alias (a small model
//! often writes its first pick again) is dropped ([`distinct_picks`]): a deterministic repair.
//!
//! The input follows spec 003 (slot, preferences, recent meals, candidates with id, title, tags,
//! prep and cook time and a short summary), as compact JSON, one candidate per line, in the order
//! preferences, recent meals, slot, candidates: the parts a job's slots share come first, so the
//! prompt cache of the engine reuses them (the system prompt is fixed).

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
/// Candidates shown to the model, at most: the short list of the slot's candidates by the
/// fallback scoring (`score::shortlist`). Small choices for a small model (SmolLM2-135M chose
/// worse than the scoring alone among 10) and a short prompt.
pub const MODEL_CANDIDATES: usize = 4;
/// Characters per prompt token assumed when fitting a prompt to a model's context window (JSON
/// lines with ids and numbers tokenize densely; measured about 2.5 on SmolLM2, so this is safe).
pub const CHARS_PER_TOKEN: usize = 2;
/// Prompt tokens a chat template adds around the messages, at most (assumed).
pub const TEMPLATE_TOKENS: usize = 32;

/// Whether a prompt of `chars` characters leaves `reply_tokens` for the reply in a window of
/// `context_tokens` (estimated with [`CHARS_PER_TOKEN`]).
pub fn fits(chars: usize, reply_tokens: u32, context_tokens: u32) -> bool {
    chars / CHARS_PER_TOKEN + TEMPLATE_TOKENS + reply_tokens as usize <= context_tokens as usize
}

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
///
/// The schema's text is kept as written (only its one empty `enum` is filled in): the grammar
/// follows the order of `properties`, and `recipeId` must come first, so that the model names its
/// pick before it writes a confidence or a reason (a `serde_json::Value` would sort the keys).
pub fn reply_schema(count: usize) -> String {
    let aliases: Vec<Value> = (0..count).map(|i| Value::String(alias(i))).collect();
    RERANK_SCHEMA.replacen(
        r#""enum": []"#,
        &format!(r#""enum": {}"#, Value::Array(aliases)),
        1,
    )
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
            // A repeat is dropped when the reply is read ([`distinct_picks`]), not repaired.
            Some(k) if seen.contains(&k) => {}
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

/// The picks of a valid reply as candidate indexes, repeats dropped (the first one kept).
pub fn distinct_picks(reply: &RerankReply, count: usize) -> Vec<(usize, &RawPick)> {
    let mut out: Vec<(usize, &RawPick)> = Vec::new();
    for p in &reply.picks {
        if let Some(k) = alias_index(&p.recipe_id, count) {
            if out.iter().all(|(seen, _)| *seen != k) {
                out.push((k, p));
            }
        }
    }
    out
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

/// The user turn: the preferences, the recent meals, the slot and its candidates (aliased), one
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
    // What stays the same across a job's slots comes first (after the fixed system prompt), so
    // that consecutive calls share a long prompt prefix the engine's prompt cache reuses: the
    // preferences, then the recent meals (a job appends its picks to them), then the slot and its
    // candidates.
    let mut out = vec![
        line("preferences: ", &prefs),
        line("recentMeals: ", &recent),
        line("slot: ", &slot),
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
        let text = reply_schema(3);
        // The pick is named first, then its confidence and reason (the grammar's order).
        let at = |k: &str| text.find(&format!("\"{k}\":")).unwrap();
        assert!(at("recipeId") < at("confidence") && at("confidence") < at("reason"));
        let s: Value = serde_json::from_str(&text).unwrap();
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
    fn prompts_are_fitted_to_the_window() {
        assert!(fits(2 * (2048 - 32 - 200), 200, 2048));
        assert!(!fits(2 * (2048 - 32 - 200) + 2, 200, 2048));
        assert!(!fits(0, 4000, 2048));
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
            ]
        );
        // A repeat is no issue: it is dropped when the picks are read.
        let reply = RerankReply {
            picks: vec![
                RawPick {
                    recipe_id: "r2".into(),
                    confidence: 0.9,
                    reason: "a".into(),
                },
                RawPick {
                    recipe_id: "r2".into(),
                    confidence: 0.8,
                    reason: "b".into(),
                },
                RawPick {
                    recipe_id: "r1".into(),
                    confidence: 0.5,
                    reason: "c".into(),
                },
            ],
            warnings: vec![],
        };
        assert!(check_reply(&reply, 2).is_empty());
        let picks: Vec<(usize, &str)> = distinct_picks(&reply, 2)
            .into_iter()
            .map(|(k, p)| (k, p.reason.as_str()))
            .collect();
        assert_eq!(picks, [(1, "a"), (0, "c")]);
    }
}
