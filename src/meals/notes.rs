//! The reader of a meal slot's note (pure and deterministic): what code can place in "20 min
//! tops, something warm, no mushrooms" before any model sees it. English, lower-cased, word by
//! word (apostrophes dropped: `don't` is `dont`); clauses split at `,` `.` `;` `!` `?`, brackets,
//! a dash between spaces and `but`. What it reads ([`NoteReading`]):
//! - **Minutes available** (prep + cook): a number in digits or words with a unit (`15 minutes`,
//!   `fifteen minutes`, `20 min tops`, `20min`, `1 hour`, `an hour`, `half an hour`), or
//!   `no time`, `running late`, `in a rush`, `in a hurry` (15); `quick`, `fast` alone (30).
//! - **Hot or cold**: hot (`hot`, `warm`, `warming`, `cosy`, `freezing`, `snowing`, `chilly`,
//!   `winter`, `cold outside`, `cold day`); cold (`cold`, `chilled`, `refreshing`, `heatwave`,
//!   `scorching`, `boiling`, `too hot`, `degrees` after a number of at least 25); refused
//!   (`nothing hot`): the other one.
//! - **Dish types** wanted or refused ([`DISHES`]: soup, salad, bowl, sandwich, wrap, curry,
//!   pasta, stir-fry, tacos, stew, burger, ...); `bowl of` is a bowl of something, not a bowl.
//! - **Portable**: `grab and go`, `on the go`, `lunchbox`, `packed lunch`, `take to work`,
//!   `at my desk`, `on the train`, `commute`, `in my bag`, `hike`, `picnic`, `portable`.
//! - **No cooking**: `no cooking`, `no cook`, `without cooking`, `too hot to cook`.
//! - **Spicy or mild**: spicy (`spicy`, `fiery`, `kick`, `chilli`, `heat`), mild (`mild`, and
//!   `spicy` refused: `nothing spicy`, `hate spicy`).
//! - **Light or filling**: light (`light`, `lighter`, `not hungry`, `small`), filling
//!   (`filling`, `hearty`, `substantial`, `big meal`, `satisfying`).
//! - **A diet**: `vegan`, `plant based`, `vegetarian`, `veggie`, `pescatarian`, `gluten free`,
//!   `dairy free`, `nut free`.
//! - **Ingredients avoided** (hard): every food word after a refusing word up to the clause's
//!   end (`no`, `not`, `without`, `avoid`, `skip`, `hate`, `dont`, `never`, `nothing`, `none`,
//!   `out of`, `allergic to`, `sick of`, `tired of`, `cant`), or before `allergy`, `allergic`,
//!   `intolerant`; a category stands for its members (`meat`, `fish`, `seafood`, `shellfish` by
//!   the protein words of `search::PROTEINS`; [`CATEGORIES`]: `dairy`, `nuts`, `bread`;
//!   `lactose` is dairy). Taste words refused (`no sweets`) are scored down, not excluded.
//! - **Only**: food words after `only` (`only fish or seafood`): a candidate must hold one.
//! - **Wanted**: the other words that are not fillers (`with chickpeas`; an adjective as its food:
//!   `fruity` is fruit): scored up where a
//!   recipe holds them. Those no candidate holds are the words code could not weigh
//!   ([`NoteReading::unweighed`]): only then may the model be asked.

use super::model::{Diet, Recipe};
use super::search::{exclusion_term, words, PROTEINS, STOPWORDS};
use crate::kernel::text::{minutes_unit, number, number_word, singular};

/// Hot or cold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Temperature {
    /// Hot food.
    Hot,
    /// Cold food.
    Cold,
}

/// Spicy or mild.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Spice {
    /// Chilli wanted.
    Spicy,
    /// No chilli.
    Mild,
}

/// Light or filling.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Size {
    /// A light meal.
    Light,
    /// A filling meal.
    Filling,
}

/// What a slot's note says; `None` and empty lists where it says nothing.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct NoteReading {
    /// Minutes available for prep and cook together.
    pub minutes: Option<u32>,
    /// Hot or cold food.
    pub temperature: Option<Temperature>,
    /// Dish types wanted (names of [`DISHES`]).
    pub dishes: Vec<&'static str>,
    /// Dish types refused.
    pub refused_dishes: Vec<&'static str>,
    /// Something to carry.
    pub portable: bool,
    /// Nothing to cook.
    pub no_cook: bool,
    /// Spicy or mild.
    pub spice: Option<Spice>,
    /// Light or filling.
    pub size: Option<Size>,
    /// A diet the note states.
    pub diet: Option<Diet>,
    /// Ingredients refused, as exclusion terms (`search::exclusion_term`): hard.
    pub avoided: Vec<String>,
    /// Other refused words (tastes such as `sweet`): scored down.
    pub avoided_words: Vec<String>,
    /// Ingredient terms of which a candidate must hold one (`only fish`).
    pub only: Vec<String>,
    /// Other words of the note (singular): scored up where a recipe holds them.
    pub wanted: Vec<String>,
}

/// Dish types: the name and the words (single spaces) that make a recipe one.
pub const DISHES: &[(&str, &[&str])] = &[
    (
        "soup",
        &["soup", "broth", "chowder", "gazpacho", "minestrone"],
    ),
    ("salad", &["salad", "tabbouleh", "slaw"]),
    ("bowl", &["bowl", "poke"]),
    (
        "sandwich",
        &["sandwich", "sub", "banh mi", "club", "toastie", "panini"],
    ),
    ("wrap", &["wrap", "burrito", "pita", "roll"]),
    ("curry", &["curry", "dal", "tikka", "masala", "korma"]),
    (
        "pasta",
        &[
            "pasta",
            "spaghetti",
            "linguine",
            "penne",
            "gnocchi",
            "lasagna",
            "cannelloni",
            "macaroni",
            "ravioli",
            "noodle",
        ],
    ),
    ("stir fry", &["stir fry", "stir fried"]),
    (
        "taco",
        &["taco", "tacos", "quesadilla", "fajita", "enchilada"],
    ),
    ("stew", &["stew", "tagine", "casserole"]),
    ("burger", &["burger"]),
    ("pizza", &["pizza"]),
    ("omelette", &["omelette", "omelet", "frittata"]),
    ("risotto", &["risotto"]),
    ("pie", &["pie", "cobbler", "crumble"]),
    ("smoothie", &["smoothie"]),
    ("dip", &["dip", "hummus"]),
    ("skewer", &["skewer", "kebab", "kofta"]),
];

/// Words that stand for several ingredients when refused or required.
pub const CATEGORIES: &[(&str, &[&str])] = &[
    (
        "dairy",
        &[
            "milk",
            "cheese",
            "cream",
            "butter",
            "yogurt",
            "feta",
            "parmesan",
            "mozzarella",
            "ricotta",
            "mascarpone",
            "cheddar",
            "ghee",
        ],
    ),
    (
        "nut",
        &[
            "nut",
            "almond",
            "cashew",
            "walnut",
            "pecan",
            "pistachio",
            "hazelnut",
        ],
    ),
    (
        "bread",
        &[
            "bread",
            "baguette",
            "ciabatta",
            "bagel",
            "pita",
            "bun",
            "brioche",
            "sourdough",
            "muffin",
            "toast",
        ],
    ),
];

/// Words about the meal or the day that say nothing about a recipe (besides the search's
/// stopwords).
const FILLERS: &[&str] = &[
    "morning",
    "evening",
    "afternoon",
    "night",
    "tonight",
    "today",
    "long",
    "tops",
    "max",
    "thanks",
    "thank",
    "fancy",
    "love",
    "craving",
    "crave",
    "feel",
    "feeling",
    "mood",
    "friend",
    "coming",
    "over",
    "house",
    "home",
    "party",
    "guest",
    "hungry",
    "something",
    "nothing",
    "eating",
    "minute",
    "hour",
    "late",
    "all",
    "lot",
    "good",
    "nice",
    "yummy",
    "tasty",
    "easy",
    "great",
    "big",
    "huge",
    "out",
    "were",
    "we",
    "its",
    "it",
    "im",
    "off",
    "stomach",
    "had",
    "one",
    "another",
    "much",
    "possible",
    "as",
    "at",
    "take",
    "keep",
    "bag",
    "go",
    "again",
    "been",
    "same",
    "still",
    "too",
    "up",
    "way",
    "week",
    "weekend",
    "outside",
    "there",
    "here",
    "them",
    "they",
    "he",
    "she",
    "his",
    "her",
    "family",
    "also",
    "either",
    "need",
    "needs",
    "degree",
    "cold",
    "hot",
    "warm",
    "only",
    "allergic",
    "allergy",
    "free",
    "wed",
    "youre",
    "theyre",
    "ill",
    "whats",
    "lets",
    "thats",
    "gonna",
    "wanna",
    "kinda",
];

/// Words that refuse what follows them, to the clause's end.
const REFUSING: &[&str] = &[
    "no",
    "not",
    "without",
    "avoid",
    "skip",
    "hate",
    "dont",
    "never",
    "nothing",
    "none",
    "out of",
    "allergic to",
    "sick of",
    "tired of",
    "cant",
    "cannot",
];

/// Taste words: refusing one scores down, never excludes (`no sweets`).
const TASTES: &[&str] = &[
    "sweet", "sugary", "sugar", "fried", "greasy", "salty", "rich", "heavy",
];

/// Refused words that are not about ingredients.
const NOT_FOOD: &[&str] = &[
    "time", "cook", "cooking", "more", "way", "problem", "worries",
];

/// The note as clauses of words.
fn clauses(note: &str) -> Vec<Vec<String>> {
    let text = note
        .to_lowercase()
        .replace(['\'', '\u{2019}', '\u{2018}', '`'], "")
        .replace(" - ", ". ")
        .replace(" but ", ". ");
    text.split([',', '.', ';', '!', '?', '(', ')', '\n', ':'])
        .map(words)
        .filter(|w| !w.is_empty())
        .collect()
}

/// Whether the clause has `phrase` (words separated by spaces) at `i`.
fn at(c: &[String], i: usize, phrase: &str) -> bool {
    phrase
        .split(' ')
        .enumerate()
        .all(|(k, p)| c.get(i + k).is_some_and(|w| w == p || singular(w) == p))
}

/// The length of the first of `phrases` at `i`.
fn at_any(c: &[String], i: usize, phrases: &[&str]) -> Option<usize> {
    phrases
        .iter()
        .find(|p| at(c, i, p))
        .map(|p| p.split(' ').count())
}

/// The minutes a number at `i` says with its unit (`15 minutes`, `20min`, `fifteen minutes`,
/// `1 hour`), and the words it took.
fn minutes_at(c: &[String], i: usize) -> Option<(u32, usize)> {
    if at(c, i, "half an hour") || at(c, i, "half hour") {
        return Some((30, 3));
    }
    if let Some(n) = at_any(c, i, &["an hour", "one hour", "an hr"]) {
        return Some((60, n));
    }
    let (v, stuck) = match number(&c[i]) {
        Some((v, u)) => (v, u),
        None => (f64::from(number_word(&c[i])?), ""),
    };
    if !stuck.is_empty() {
        return minutes_unit(stuck).map(|f| ((v * f) as u32, 1));
    }
    let f = minutes_unit(c.get(i + 1)?)?;
    Some(((v * f) as u32, 2))
}

const HURRY: &[&str] = &[
    "no time",
    "running late",
    "in a rush",
    "in a hurry",
    "short on time",
];
const PORTABLE: &[&str] = &[
    "grab and go",
    "on the go",
    "lunchbox",
    "lunch box",
    "packed lunch",
    "take to work",
    "to work",
    "at my desk",
    "at the desk",
    "on the train",
    "commute",
    "in my bag",
    "hike",
    "hiking",
    "picnic",
    "portable",
    "travel",
    "road trip",
];
const NO_COOK: &[&str] = &[
    "no cooking",
    "no cook",
    "without cooking",
    "too hot to cook",
];
const HOT: &[&str] = &[
    "hot",
    "warm",
    "warming",
    "cosy",
    "cozy",
    "freezing",
    "snowing",
    "chilly",
    "winter",
    "cold outside",
    "cold day",
    "cold out",
    "cold night",
    "cold weather",
    "raining",
];
const COLD: &[&str] = &[
    "too hot",
    "hot day",
    "hot outside",
    "cold",
    "chilled",
    "refreshing",
    "heatwave",
    "scorching",
    "boiling",
    "sweltering",
    "muggy",
    "cool",
];
const SPICY: &[&str] = &["spicy", "fiery", "kick", "chilli", "chili", "heat", "spice"];
const MILD: &[&str] = &["mild", "not spicy", "nothing spicy", "no spice"];
const LIGHT: &[&str] = &["light", "lighter", "not hungry", "small", "not too heavy"];
const FILLING: &[&str] = &[
    "filling",
    "hearty",
    "substantial",
    "big meal",
    "satisfying",
    "fill me up",
];
const DIETS: &[(&str, Diet)] = &[
    ("vegan", Diet::Vegan),
    ("plant based", Diet::Vegan),
    ("vegetarian", Diet::Vegetarian),
    ("veggie", Diet::Vegetarian),
    ("pescatarian", Diet::Pescatarian),
    ("gluten free", Diet::GlutenFree),
    ("dairy free", Diet::DairyFree),
    ("nut free", Diet::NutFree),
];

/// Phrases and what they say.
type Saying = (&'static [&'static str], fn(&mut NoteReading));

/// The phrases read as they are, in this order.
const SAYINGS: &[Saying] = &[
    (NO_COOK, |r| {
        r.no_cook = true;
        r.temperature.get_or_insert(Temperature::Cold);
    }),
    (PORTABLE, |r| r.portable = true),
    (MILD, |r| r.spice = Some(Spice::Mild)),
    (LIGHT, |r| r.size = Some(Size::Light)),
    (FILLING, |r| r.size = Some(Size::Filling)),
];

fn push<T: PartialEq>(v: &mut Vec<T>, x: T) {
    if !v.contains(&x) {
        v.push(x);
    }
}

/// Adjectives read as the food they name (`fruity` is fruit).
const ADJECTIVES: &[(&str, &str)] = &[
    ("fruity", "fruit"),
    ("cheesy", "cheese"),
    ("meaty", "meat"),
    ("nutty", "nut"),
    ("lemony", "lemon"),
    ("herby", "herb"),
    ("garlicky", "garlic"),
    ("chocolatey", "chocolate"),
    ("chocolaty", "chocolate"),
    ("lactose", "dairy"),
];

/// A word singular, an adjective as its food.
fn food_word(w: &str) -> String {
    let s = singular(w);
    ADJECTIVES
        .iter()
        .find(|(a, _)| *a == s)
        .map_or(s, |(_, f)| f.to_string())
}

/// The ingredient terms a refused or required food word stands for.
fn food_terms(w: &str) -> Vec<String> {
    let s = food_word(w);
    if s == "meat" {
        return PROTEINS
            .iter()
            .filter(|(p, _)| ["chicken", "turkey", "beef", "pork", "lamb"].contains(p))
            .flat_map(|(_, keys)| keys.iter().map(|k| k.to_string()))
            .collect();
    }
    if s == "seafood" {
        return PROTEINS
            .iter()
            .filter(|(p, _)| ["fish", "shellfish"].contains(p))
            .flat_map(|(_, keys)| keys.iter().map(|k| k.to_string()))
            .chain(std::iter::once("seafood".to_string()))
            .collect();
    }
    if let Some((_, keys)) = PROTEINS.iter().find(|(p, _)| *p == s) {
        return keys.iter().map(|k| k.to_string()).collect();
    }
    if let Some((_, keys)) = CATEGORIES.iter().find(|(c, _)| *c == s) {
        return keys.iter().map(|k| k.to_string()).collect();
    }
    vec![exclusion_term(w)]
}

/// Reads `note` (see the module docs).
pub fn read(note: Option<&str>) -> NoteReading {
    let mut r = NoteReading::default();
    let Some(note) = note else {
        return r;
    };
    let mut hurry = None;
    for c in clauses(note) {
        let mut refusing = false;
        let mut only = false;
        let mut i = 0;
        while i < c.len() {
            let w = c[i].as_str();
            let s = singular(w);
            // Phrases first, longest meaning first.
            if let Some((m, n)) = minutes_at(&c, i) {
                r.minutes.get_or_insert(m);
                i += n;
                continue;
            }
            if let Some(n) = at_any(&c, i, HURRY) {
                hurry = Some(15);
                i += n;
                continue;
            }
            if let Some((n, say)) = SAYINGS
                .iter()
                .find_map(|(p, say)| at_any(&c, i, p).map(|n| (n, say)))
            {
                say(&mut r);
                i += n;
                continue;
            }
            if let Some((n, d)) = DIETS
                .iter()
                .find_map(|(p, d)| at(&c, i, p).then(|| (p.split(' ').count(), *d)))
            {
                r.diet.get_or_insert(d);
                i += n;
                continue;
            }
            // `degrees` after a number: hot weather wants cold food.
            if w == "degrees" || w == "degree" {
                let warm = i > 0 && number(&c[i - 1]).is_some_and(|(v, _)| v >= 25.0);
                r.temperature = Some(if warm {
                    Temperature::Cold
                } else {
                    Temperature::Hot
                });
                i += 1;
                continue;
            }
            // `cold outside` is hot food (a longer HOT phrase wins); a refused temperature is the
            // other one (`nothing hot`).
            let cold = at_any(&c, i, COLD).filter(|_| at_any(&c, i, HOT).unwrap_or(0) < 2);
            if let Some((n, t)) = cold
                .map(|n| (n, Temperature::Cold))
                .or_else(|| at_any(&c, i, HOT).map(|n| (n, Temperature::Hot)))
            {
                r.temperature = Some(match (refusing, t) {
                    (false, t) => t,
                    (true, Temperature::Hot) => Temperature::Cold,
                    (true, Temperature::Cold) => Temperature::Hot,
                });
                i += n;
                continue;
            }
            if at(&c, i, "bowl of") {
                i += 2;
                continue;
            }
            if let Some((name, n)) = DISHES.iter().find_map(|(name, keys)| {
                keys.iter()
                    .find(|k| at(&c, i, k))
                    .map(|k| (*name, k.split(' ').count()))
            }) {
                if refusing {
                    push(&mut r.refused_dishes, name);
                } else {
                    push(&mut r.dishes, name);
                }
                i += n;
                continue;
            }
            if SPICY.contains(&s.as_str()) {
                r.spice = Some(if refusing { Spice::Mild } else { Spice::Spicy });
                i += 1;
                continue;
            }
            if let Some(n) = at_any(&c, i, REFUSING) {
                refusing = true;
                only = false;
                i += n;
                continue;
            }
            if w == "only" {
                only = true;
                i += 1;
                continue;
            }
            // A food word before `allergy`, `allergic` or `free` is refused.
            let refused_after = c.get(i + 1).is_some_and(|n| {
                ["allergy", "allergies", "allergic", "intolerant"].contains(&n.as_str())
            });
            if STOPWORDS.contains(&w)
                || FILLERS.contains(&w)
                || FILLERS.contains(&s.as_str())
                || w.len() < 2
            {
                i += 1;
                continue;
            }
            if number(w).is_some() || number_word(w).is_some() {
                i += 1;
                continue;
            }
            if refusing || refused_after {
                if TASTES.contains(&s.as_str()) {
                    push(&mut r.avoided_words, s);
                } else if !NOT_FOOD.contains(&w) {
                    for t in food_terms(w) {
                        push(&mut r.avoided, t);
                    }
                }
            } else if only {
                for t in food_terms(w) {
                    push(&mut r.only, t);
                }
            } else {
                push(&mut r.wanted, food_word(w));
            }
            i += 1;
        }
    }
    if r.minutes.is_none() {
        r.minutes = hurry.or_else(|| {
            r.wanted
                .iter()
                .any(|w| w == "quick" || w == "fast" || w == "quickly")
                .then_some(30)
        });
    }
    r.wanted
        .retain(|w| !["quick", "fast", "quickly"].contains(&w.as_str()));
    r
}

/// A recipe's words as one string (single spaces, padded): title, tags, description and
/// ingredient names, singular.
pub fn recipe_text(recipe: &Recipe) -> String {
    let all = words(&recipe.title)
        .into_iter()
        .chain(recipe.tags.iter().flat_map(|t| words(t)))
        .chain(words(&recipe.description))
        .chain(recipe.ingredients.iter().flat_map(|i| words(&i.name)))
        .map(|w| singular(&w))
        .collect::<Vec<_>>()
        .join(" ");
    format!(" {all} ")
}

/// Whether the padded `text` holds `phrase` as whole words.
pub fn holds(text: &str, phrase: &str) -> bool {
    let p: Vec<String> = phrase.split(' ').map(singular).collect();
    text.contains(&format!(" {} ", p.join(" ")))
}

/// What a recipe is, as far as a note's words go (from its tags, title, description and
/// ingredients; see `docs/meals.md`, "Slot notes").
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RecipeTraits {
    /// Hot or cold, and whether the recipe says so (`warm`, `soup`, `cold`, `chilled`) rather
    /// than only by its cooking time.
    pub temperature: Option<(Temperature, bool)>,
    /// Dish types it is (names of [`DISHES`]).
    pub dishes: Vec<&'static str>,
    /// 2: made to carry (a wrap, a sandwich, make-ahead); 1: eaten cold without cooking; 0.
    pub portable: u8,
    /// 2: tagged spicy; 1: chilli among its ingredients; 0.
    pub spicy: u8,
    /// Says it is mild.
    pub mild: bool,
    /// Light or filling, when its words say so.
    pub size: Option<Size>,
}

const COLD_MARKS: &[&str] = &[
    "cold",
    "chilled",
    "no cook",
    "sorbet",
    "raw",
    "salad",
    "set overnight",
    "soaked overnight",
    "ice cream",
    "smoothie",
];
const HOT_MARKS: &[&str] = &[
    "warm", "warming", "hot", "soup", "stew", "curry", "roast", "baked", "braised", "simmered",
    "comfort", "porridge", "fried", "grilled", "seared", "stir fry",
];
const CARRY_MARKS: &[&str] = &[
    "wrap",
    "sandwich",
    "bagel",
    "burrito",
    "make ahead",
    "meal prep",
    "hiking",
    "muffin",
    "trail",
    "bar",
    "lunchbox",
    "pita",
];
const CHILLI_MARKS: &[&str] = &[
    "chilli",
    "chili",
    "jalapeno",
    "cayenne",
    "scotch bonnet",
    "gochujang",
    "harissa",
    "sriracha",
    "chipotle",
    "pul biber",
    "green curry paste",
    "hot sauce",
    "kimchi",
];
const LIGHT_MARKS: &[&str] = &[
    "salad", "light", "fresh", "summer", "grill", "grilled", "low carb", "broth", "miso", "skewer",
    "chilled",
];
const FILLING_MARKS: &[&str] = &[
    "comfort",
    "stew",
    "pie",
    "hearty",
    "roast",
    "baked",
    "lasagna",
    "burger",
    "rice",
    "bowl",
    "pasta",
    "potato",
    "meal prep",
    "high protein",
    "noodle",
];

/// What `recipe` is (see [`RecipeTraits`]).
pub fn traits(recipe: &Recipe) -> RecipeTraits {
    let text = recipe_text(recipe);
    let any = |marks: &[&str]| marks.iter().any(|m| holds(&text, m));
    let temperature = if any(COLD_MARKS) {
        Some((Temperature::Cold, true))
    } else if any(HOT_MARKS) {
        Some((Temperature::Hot, true))
    } else if recipe.cook_minutes == 0 {
        Some((Temperature::Cold, false))
    } else if recipe.cook_minutes >= 10 {
        Some((Temperature::Hot, false))
    } else {
        None
    };
    let dishes = DISHES
        .iter()
        .filter(|(_, keys)| keys.iter().any(|k| holds(&text, k)))
        .map(|(name, _)| *name)
        .collect();
    let portable = if any(CARRY_MARKS) {
        2
    } else if recipe.cook_minutes == 0 {
        1
    } else {
        0
    };
    let tagged_spicy = recipe
        .tags
        .iter()
        .any(|t| words(t).iter().any(|w| w == "spicy"));
    let spicy = if tagged_spicy {
        2
    } else {
        u8::from(any(CHILLI_MARKS))
    };
    let (light, filling) = (
        LIGHT_MARKS.iter().filter(|m| holds(&text, m)).count(),
        FILLING_MARKS.iter().filter(|m| holds(&text, m)).count(),
    );
    let size = match light.cmp(&filling) {
        std::cmp::Ordering::Greater => Some(Size::Light),
        std::cmp::Ordering::Less => Some(Size::Filling),
        std::cmp::Ordering::Equal => None,
    };
    RecipeTraits {
        temperature,
        dishes,
        portable,
        spicy,
        mild: holds(&text, "mild"),
        size,
    }
}

impl NoteReading {
    /// Whether the note says anything code reads.
    pub fn is_empty(&self) -> bool {
        *self == NoteReading::default()
    }

    /// The wanted words none of `candidates` holds: what code could not weigh.
    pub fn unweighed(&self, candidates: &[Recipe]) -> Vec<String> {
        let texts: Vec<String> = candidates.iter().map(recipe_text).collect();
        self.wanted
            .iter()
            .filter(|w| !texts.iter().any(|t| holds(t, w)))
            .cloned()
            .collect()
    }

    /// Whether `recipe` meets the note's hard rules: its diet, no avoided ingredient, one of the
    /// `only` terms.
    pub fn allows(&self, recipe: &Recipe) -> bool {
        if let Some(d) = self.diet {
            if Diet::implied_mask(&recipe.diets) & d.bit() == 0 {
                return false;
            }
        }
        let ingredients = super::search::ingredient_text(&recipe.ingredients);
        if self
            .avoided
            .iter()
            .any(|t| ingredients.contains(t.as_str()))
        {
            return false;
        }
        if !self.only.is_empty() {
            let text = recipe_text(recipe);
            let any = self
                .only
                .iter()
                .any(|t| ingredients.contains(t.as_str()) || holds(&text, t));
            if !any {
                return false;
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(note: &str) -> NoteReading {
        read(Some(note))
    }

    #[test]
    fn minutes_in_digits_words_and_phrases() {
        for (note, want) in [
            ("I only have 15 minutes tonight", Some(15)),
            ("I've got fifteen minutes for lunch", Some(15)),
            ("20 min tops, long day", Some(20)),
            ("kids are starving, 20 mins", Some(20)),
            ("20min", Some(20)),
            ("half an hour max please", Some(30)),
            ("we have an hour", Some(60)),
            ("1 hour", Some(60)),
            ("no time this morning", Some(15)),
            ("running late, no time to cook in the morning", Some(15)),
            ("in a rush", Some(15)),
            ("something quick", Some(30)),
            ("something with chickpeas", None),
            ("for 4 people", None),
        ] {
            assert_eq!(r(note).minutes, want, "{note}");
        }
        // `no time` is no refused ingredient.
        assert!(r("no time this morning").avoided.is_empty());
    }

    #[test]
    fn hot_or_cold_reads_the_weather_as_the_food() {
        use Temperature::*;
        for (note, want) in [
            (
                "it is freezing outside, I want a hot bowl of soup",
                Some(Hot),
            ),
            ("warm soup please, it's freezing", Some(Hot)),
            ("something warm for a winter night", Some(Hot)),
            ("warm and cosy, it's snowing", Some(Hot)),
            ("it's cold outside", Some(Hot)),
            ("hot lunch, not another sandwich", Some(Hot)),
            ("something cold, it's 35 degrees out", Some(Cold)),
            ("something chilled", Some(Cold)),
            ("way too hot to cook", Some(Cold)),
            ("heatwave again", Some(Cold)),
            ("it's boiling today, nothing hot", Some(Cold)),
            ("nothing cold please", Some(Hot)),
            ("something with rice", None),
        ] {
            assert_eq!(r(note).temperature, want, "{note}");
        }
        assert!(r("way too hot to cook").no_cook);
    }

    #[test]
    fn dish_types_wanted_and_refused() {
        assert_eq!(r("fancy a bowl of pasta").dishes, ["pasta"]);
        assert_eq!(r("it is freezing, a hot bowl of soup").dishes, ["soup"]);
        assert_eq!(r("stir-fry night!").dishes, ["stir fry"]);
        assert_eq!(r("sandwich for lunch").dishes, ["sandwich"]);
        assert_eq!(r("a curry tonight, or tacos").dishes, ["curry", "taco"]);
        assert_eq!(r("poke bowl or a wrap").dishes, ["bowl", "wrap"]);
        let x = r("hot lunch, not another sandwich");
        assert_eq!((x.dishes.len(), x.refused_dishes), (0, vec!["sandwich"]));
        assert_eq!(r("no soup again").refused_dishes, ["soup"]);
    }

    #[test]
    fn portable_spice_and_size() {
        for note in [
            "something I can take to work in a lunchbox",
            "grab and go, eating on the train",
            "for the hike, something to keep in my bag",
            "need it on the go",
            "packed lunch",
        ] {
            assert!(r(note).portable, "{note}");
        }
        assert!(!r("a cosy dinner at home").portable);
        use Spice::*;
        for (note, want) in [
            ("something with a kick", Some(Spicy)),
            ("craving something hot and fiery", Some(Spicy)),
            ("spicy please", Some(Spicy)),
            ("nothing spicy, my stomach is off", Some(Mild)),
            (
                "curry, but mild please - the kids hate spicy food",
                Some(Mild),
            ),
            ("mild, it's for the kids", Some(Mild)),
            ("no chilli", Some(Mild)),
            ("something with rice", None),
        ] {
            assert_eq!(r(note).spice, want, "{note}");
        }
        assert_eq!(r("curry, but mild please").dishes, ["curry"]);
        use Size::*;
        for (note, want) in [
            ("something light, we had a huge lunch", Some(Light)),
            ("just a light salad", Some(Light)),
            (
                "need something filling, long hike this afternoon",
                Some(Filling),
            ),
            ("a hearty stew", Some(Filling)),
            ("something with rice", None),
        ] {
            assert_eq!(r(note).size, want, "{note}");
        }
    }

    #[test]
    fn refused_ingredients_lists_and_categories() {
        let a = |note: &str| r(note).avoided;
        assert_eq!(a("no pork please, we don't eat it"), PROTEINS[5].1);
        assert_eq!(a("no mushrooms please"), ["mushroom"]);
        assert_eq!(a("no milk or cheese for me"), ["milk", "cheese"]);
        assert_eq!(a("we're out of rice, something without it"), ["rice"]);
        assert_eq!(a("no eggs, I'm allergic"), ["egg"]);
        assert!(a("allergic to shellfish").contains(&"prawn".to_string()));
        assert!(a("nut allergy in the house").contains(&"almond".to_string()));
        assert!(a("no bread today").contains(&"baguette".to_string()));
        assert!(a("I'm vegetarian, nothing with meat").contains(&"chicken".to_string()));
        let beef_pork = a("no beef, no pork");
        assert!(
            beef_pork.contains(&"steak".to_string()) && beef_pork.contains(&"bacon".to_string())
        );
        // Tastes are scored down, not excluded; the clause ends the refusal.
        let x = r("after the gym, as much protein as possible, no sweets");
        assert_eq!(
            (x.avoided.len(), x.avoided_words),
            (0, vec!["sweet".to_string()])
        );
        assert!(x.wanted.contains(&"protein".to_string()));
        let x = r("no onions, with chickpeas");
        assert_eq!(
            (x.avoided, x.wanted),
            (vec!["onion".to_string()], vec!["chickpea".to_string()])
        );
    }

    #[test]
    fn diets_only_and_what_is_left() {
        assert_eq!(r("a vegan friend is coming over").diet, Some(Diet::Vegan));
        assert_eq!(r("pescatarian tonight").diet, Some(Diet::Pescatarian));
        assert_eq!(
            r("I'm vegetarian, nothing with meat").diet,
            Some(Diet::Vegetarian)
        );
        assert_eq!(r("gluten free please").diet, Some(Diet::GlutenFree));
        assert_eq!(r("veggie please").diet, Some(Diet::Vegetarian));
        assert!(r("lactose intolerant")
            .avoided
            .contains(&"milk".to_string()));
        assert_eq!(r("something fruity, not chocolate").wanted, ["fruit"]);
        let only = r("only fish or seafood tonight").only;
        assert!(only.contains(&"salmon".to_string()) && only.contains(&"prawn".to_string()));
        assert_eq!(
            r("I'd love something with salmon or tuna").wanted,
            ["salmon", "tuna"]
        );
        assert_eq!(
            r("for a children's birthday party").wanted,
            ["children", "birthday"]
        );
        assert!(read(None).is_empty());
        assert!(r("please, thanks!").is_empty());
    }
}
