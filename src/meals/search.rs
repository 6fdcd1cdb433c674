//! The rules of candidate search (pure: the SQL that runs them is in `store.rs`).
//!
//! Per slot, candidates are gathered in up to three tiers, each a full-text (FTS5) query over
//! title, description, tags and ingredient names, all under the same filters:
//! 1. the slot's tags (any of them) AND every include term of its note;
//! 2. any tag OR any note term (only when it differs from tier 1);
//! 3. no text condition: every recipe of the meal type.
//!
//! Later tiers only fill the places earlier ones left, up to [`MAX_CANDIDATES`]. The filters, in
//! every tier: the meal type; the diet (hard); no excluded ingredient (hard); user recipes and
//! core recipes only (staged copies are copies); not a recipe picked earlier in the same job.
//! Within a tier, user recipes come before core ones, then the recipes that fit the time limits
//! (minutes over the limits, fewest first: a soft preference), then full-text rank, then id.
//!
//! Hard rules are checked again in code on every row SQL returns ([`violation`]): a candidate that
//! breaks one is dropped, whatever the SQL did.

use super::model::{Diet, Ingredient, MealPreferences, MealType, Recipe};

/// Candidates per slot, at most.
pub const MAX_CANDIDATES: usize = 25;
/// Include terms taken from a note, at most.
pub const MAX_NOTE_TERMS: usize = 8;

/// Words of a note that say nothing about the recipe.
pub const STOPWORDS: &[&str] = &[
    "a",
    "an",
    "and",
    "any",
    "anything",
    "are",
    "be",
    "but",
    "can",
    "could",
    "day",
    "dinner",
    "dish",
    "do",
    "for",
    "from",
    "get",
    "have",
    "i",
    "id",
    "im",
    "in",
    "is",
    "it",
    "ive",
    "just",
    "kind",
    "kinds",
    "like",
    "ll",
    "lunch",
    "make",
    "maybe",
    "me",
    "meal",
    "meals",
    "my",
    "of",
    "on",
    "or",
    "our",
    "please",
    "really",
    "s",
    "so",
    "some",
    "something",
    "t",
    "that",
    "the",
    "this",
    "to",
    "today",
    "tomorrow",
    "tonight",
    "us",
    "ve",
    "very",
    "want",
    "we",
    "week",
    "what",
    "with",
    "would",
    "you",
    "breakfast",
    "snack",
    "dessert",
    "food",
    "recipe",
    "eat",
    "cook",
    "have",
    "need",
    "let",
    "lets",
    "try",
    "time",
    "again",
    "more",
    "less",
    "bit",
];

/// Words that turn the next term into something to avoid.
const NEGATIONS: &[&str] = &[
    "no", "not", "without", "avoid", "skip", "hate", "dont", "never",
];

/// A slot's search, ready for the store.
#[derive(Debug, Clone, PartialEq)]
pub struct CandidateQuery {
    /// The full-text condition of each tier in order; `None` is the tier without one.
    pub tiers: Vec<Option<String>>,
    /// The meal type's bit.
    pub meal_type_bit: i64,
    /// Diet bits every candidate's implied diet mask must hold (0 for none).
    pub diet_bits: i64,
    /// Normalised excluded-ingredient terms ([`exclusion_terms`]).
    pub excluded: Vec<String>,
    /// Recipe ids left out (picked earlier in the job).
    pub exclude_ids: Vec<String>,
    /// Soft time limits; `None` is no limit.
    pub max_prep_minutes: Option<u32>,
    /// Soft time limits; `None` is no limit.
    pub max_cook_minutes: Option<u32>,
    /// Candidates wanted.
    pub limit: usize,
}

/// The search for one slot.
pub fn candidate_query(
    meal_type: MealType,
    tags: &[String],
    note: Option<&str>,
    prefs: &MealPreferences,
    exclude_ids: &[String],
) -> CandidateQuery {
    CandidateQuery {
        tiers: fts_tiers(tags, note),
        meal_type_bit: meal_type.bit(),
        diet_bits: prefs.diet.map_or(0, Diet::bit),
        excluded: exclusion_terms(&prefs.excluded_ingredients),
        exclude_ids: exclude_ids.to_vec(),
        max_prep_minutes: prefs.max_prep_minutes,
        max_cook_minutes: prefs.max_cook_minutes,
        limit: MAX_CANDIDATES,
    }
}

/// An app's recipe search ([`crate::meals::service::search_recipes`]): the words of `text` as a
/// note's terms (every include term, then any of them; `no X` leaves out recipes with X), of one
/// meal type or any, at most `limit` recipes. Text without terms matches every recipe.
pub fn text_query(text: &str, meal_type: Option<MealType>, limit: usize) -> CandidateQuery {
    let (include, avoid) = note_terms(Some(text));
    let mut tiers = fts_tiers(&[], Some(text));
    if !include.is_empty() {
        // The tier without a text condition would return recipes the text does not name.
        tiers.pop();
    }
    CandidateQuery {
        tiers,
        meal_type_bit: meal_type.map_or((1 << MealType::ALL.len()) - 1, MealType::bit),
        diet_bits: 0,
        excluded: exclusion_terms(&avoid),
        exclude_ids: Vec::new(),
        max_prep_minutes: None,
        max_cook_minutes: None,
        limit,
    }
}

/// Lowercase alphanumeric words of `s`.
pub fn words(s: &str) -> Vec<String> {
    s.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// A note's include terms (at most [`MAX_NOTE_TERMS`], stopwords left out) and its avoid terms
/// (the word after `no`, `without`, `not`, ...).
pub fn note_terms(note: Option<&str>) -> (Vec<String>, Vec<String>) {
    let mut include: Vec<String> = Vec::new();
    let mut avoid = Vec::new();
    let mut negate = false;
    for w in words(note.unwrap_or_default()) {
        if NEGATIONS.contains(&w.as_str()) {
            negate = true;
            continue;
        }
        if STOPWORDS.contains(&w.as_str()) || w.len() < 2 {
            continue;
        }
        if negate {
            avoid.push(w);
            negate = false;
        } else if !include.contains(&w) && include.len() < MAX_NOTE_TERMS {
            include.push(w);
        }
    }
    (include, avoid)
}

/// A phrase for FTS5: its words in double quotes (words are alphanumeric, so nothing in them is
/// FTS syntax). `None` for text without words.
fn phrase(s: &str) -> Option<String> {
    let w = words(s);
    (!w.is_empty()).then(|| format!("\"{}\"", w.join(" ")))
}

/// The full-text conditions of the tiers (see the module docs); the last is always `None`.
pub fn fts_tiers(tags: &[String], note: Option<&str>) -> Vec<Option<String>> {
    let mut tag_phrases: Vec<String> = tags.iter().filter_map(|t| phrase(t)).collect();
    tag_phrases.dedup();
    let (include, _) = note_terms(note);
    let notes: Vec<String> = include.iter().map(|w| format!("\"{w}\"")).collect();
    let any_tag = (!tag_phrases.is_empty()).then(|| format!("({})", tag_phrases.join(" OR ")));
    let all_notes = (!notes.is_empty()).then(|| format!("({})", notes.join(" AND ")));
    let mut tiers = Vec::new();
    let first = match (&any_tag, &all_notes) {
        (Some(t), Some(n)) => Some(format!("{t} AND {n}")),
        (Some(t), None) => Some(t.clone()),
        (None, Some(n)) => Some(n.clone()),
        (None, None) => None,
    };
    if let Some(first) = first {
        let atoms: Vec<String> = tag_phrases.iter().chain(&notes).cloned().collect();
        let any = format!("({})", atoms.join(" OR "));
        let differs = atoms.len() > 1 && !(all_notes.is_none() && any_tag.is_some());
        tiers.push(Some(first));
        if differs {
            tiers.push(Some(any));
        }
    }
    tiers.push(None);
    tiers
}

/// An excluded ingredient as the text searched for inside lowercase ingredient names: lowercase,
/// single spaces, plural endings cut (`berries` -> `berr`, `tomatoes` -> `tomato`, `eggs` ->
/// `egg`), so singular and plural names both match. Cutting only ever widens what is excluded.
pub fn exclusion_term(s: &str) -> String {
    let t = words(s).join(" ");
    if t.len() > 4 && t.ends_with("ies") {
        t[..t.len() - 3].to_string()
    } else if t.len() > 4 && t.ends_with("oes") {
        t[..t.len() - 2].to_string()
    } else if t.len() > 3 && t.ends_with('s') && !t.ends_with("ss") {
        t[..t.len() - 1].to_string()
    } else {
        t
    }
}

/// Every excluded ingredient as an [`exclusion_term`], empty ones left out.
pub fn exclusion_terms(excluded: &[String]) -> Vec<String> {
    let mut out: Vec<String> = excluded
        .iter()
        .map(|s| exclusion_term(s))
        .filter(|t| !t.is_empty())
        .collect();
    out.sort();
    out.dedup();
    out
}

/// The ingredient names as the store keeps them for exclusion checks: lowercase words, names
/// joined by ` | ` (so a term never matches across two names).
pub fn ingredient_text(ingredients: &[Ingredient]) -> String {
    ingredients
        .iter()
        .map(|i| words(&i.name).join(" "))
        .collect::<Vec<_>>()
        .join(" | ")
}

/// Which hard rule `recipe` breaks for a slot of `meal_type` under `prefs`, if any: `mealType`,
/// `diet` or `excludedIngredients`.
pub fn violation(
    recipe: &Recipe,
    meal_type: MealType,
    prefs: &MealPreferences,
    excluded_terms: &[String],
) -> Option<&'static str> {
    if !recipe.meal_types.contains(&meal_type) {
        return Some("mealType");
    }
    if let Some(d) = prefs.diet {
        if Diet::implied_mask(&recipe.diets) & d.bit() == 0 {
            return Some("diet");
        }
    }
    let text = ingredient_text(&recipe.ingredients);
    if excluded_terms.iter().any(|t| text.contains(t.as_str())) {
        return Some("excludedIngredients");
    }
    None
}

/// Minutes over the soft time limits (0 when within them or without limits).
pub fn minutes_over(recipe: &Recipe, prefs: &MealPreferences) -> u32 {
    let over = |have: u32, limit: Option<u32>| limit.map_or(0, |l| have.saturating_sub(l));
    over(recipe.prep_minutes, prefs.max_prep_minutes)
        + over(recipe.cook_minutes, prefs.max_cook_minutes)
}

/// The slot's tags `recipe` carries (compared as lowercase words).
pub fn matched_tags(recipe: &Recipe, tags: &[String]) -> Vec<String> {
    let have: Vec<Vec<String>> = recipe.tags.iter().map(|t| words(t)).collect();
    tags.iter()
        .filter(|t| {
            let w = words(t);
            !w.is_empty() && have.contains(&w)
        })
        .cloned()
        .collect()
}

/// Primary proteins and the words that name them; within one tag or ingredient the first listed
/// wins (fish before beef: `tuna steaks` is fish).
pub const PROTEINS: &[(&str, &[&str])] = &[
    ("chicken", &["chicken"]),
    ("turkey", &["turkey"]),
    (
        "shellfish",
        &[
            "shrimp", "prawn", "scallop", "mussel", "crab", "clam", "squid",
        ],
    ),
    (
        "fish",
        &[
            "salmon",
            "cod",
            "tuna",
            "trout",
            "mackerel",
            "sardine",
            "haddock",
            "halibut",
            "tilapia",
            "anchovy",
            "anchovies",
            "sea bass",
            "fish",
        ],
    ),
    ("beef", &["beef", "steak", "brisket", "sirloin", "chuck"]),
    (
        "pork",
        &[
            "pork",
            "bacon",
            "ham",
            "chorizo",
            "prosciutto",
            "pancetta",
            "sausage",
        ],
    ),
    ("lamb", &["lamb"]),
    ("tofu", &["tofu", "tempeh", "seitan"]),
    (
        "legumes",
        &[
            "lentil",
            "chickpea",
            "black bean",
            "kidney bean",
            "cannellini",
            "white bean",
            "pinto",
            "edamame",
            "split pea",
        ],
    ),
    ("egg", &["egg"]),
];

/// Whether the words `text` (single spaces) hold `key`'s words, the last one possibly plural.
fn names(text: &str, key: &str) -> bool {
    let padded = format!(" {text} ");
    ["", "s", "es"]
        .iter()
        .any(|end| padded.contains(&format!(" {key}{end} ")))
}

/// The recipe's primary protein: the first protein named by its tags, else by its ingredients in
/// their order (whole words: `eggplant` names no egg).
pub fn primary_protein(recipe: &Recipe) -> Option<&'static str> {
    let find = |text: &str| {
        let text = words(text).join(" ");
        PROTEINS
            .iter()
            .find(|(_, keys)| keys.iter().any(|k| names(&text, k)))
            .map(|(p, _)| *p)
    };
    recipe
        .tags
        .iter()
        .find_map(|t| find(t))
        .or_else(|| recipe.ingredients.iter().find_map(|i| find(&i.name)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn tiers_combine_tags_any_and_note_terms_all() {
        let t = fts_tiers(
            &s(&["chicken", "gluten-free"]),
            Some("Something with rice, no mushrooms"),
        );
        assert_eq!(
            t,
            vec![
                Some("(\"chicken\" OR \"gluten free\") AND (\"rice\")".into()),
                Some("(\"chicken\" OR \"gluten free\" OR \"rice\")".into()),
                None
            ]
        );
        assert_eq!(fts_tiers(&[], None), vec![None]);
        assert_eq!(
            fts_tiers(&s(&["a b", "c"]), None),
            vec![Some("(\"a b\" OR \"c\")".into()), None]
        );
        // FTS syntax in user text is only ever words in quotes.
        let t = fts_tiers(&s(&["\"x\" OR y*"]), Some("NEAR(apple pie) -cheese"));
        assert_eq!(
            t[0].as_deref(),
            Some("(\"x or y\") AND (\"near\" AND \"apple\" AND \"pie\" AND \"cheese\")")
        );
    }

    #[test]
    fn notes_drop_stopwords_and_negate() {
        let (inc, avoid) = note_terms(Some("I want something quick without mushrooms please"));
        assert_eq!(inc, s(&["quick"]));
        assert_eq!(avoid, s(&["mushrooms"]));
    }

    #[test]
    fn exclusion_terms_cover_plurals() {
        assert_eq!(exclusion_term("Eggs"), "egg");
        assert_eq!(exclusion_term("tomatoes"), "tomato");
        assert_eq!(exclusion_term("Berries"), "berr");
        assert_eq!(exclusion_term("swiss"), "swiss");
        assert_eq!(exclusion_term(" Peanut  Butter "), "peanut butter");
    }
}
