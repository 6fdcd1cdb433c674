//! Ingredient quantities (pure): which kind a unit measures, conversions within a kind, scaling to
//! a number of servings with readable rounding, and sums for a shopping list.
//!
//! Rules:
//! - Mass: `g`, `kg`, `oz`, `lb` (and their spelled-out forms); volume: `ml`, `l`, `tsp`, `tbsp`,
//!   `cup` (a US cup, 240 ml), `fl oz`. Everything else is a count: no unit (`2 eggs`) or a named
//!   one (`cloves`, `cans`, `handful`); counts add only with the same unit, singular and plural
//!   alike (`1 clove` + `2 cloves`).
//! - Rounding after scaling: spoons and cups to the nearest 1/4, grams and millilitres to whole
//!   numbers, kilograms and litres to 0.05, ounces and pounds to 1/4, counts to the nearest half;
//!   a positive amount never rounds to 0 (it becomes the smallest step).

/// What a unit measures.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// Grams are the base.
    Mass,
    /// Millilitres are the base.
    Volume,
    /// A count of the named unit in its singular form (`""` for a bare count: `2 eggs`).
    Count(String),
}

/// A known unit: its kind, its size in the kind's base (grams, millilitres; 1 for counts) and its
/// rounding step after scaling.
#[derive(Debug, Clone, PartialEq)]
pub struct Unit {
    /// What it measures.
    pub kind: Kind,
    /// Grams or millilitres in one of it (1 for counts).
    pub base: f64,
    /// The step amounts of it round to after scaling.
    pub step: f64,
    /// Its short written form, e.g. `tbsp` (empty for a bare count).
    pub symbol: &'static str,
}

/// Mass units: (names, grams, rounding step, symbol).
const MASS: &[(&[&str], f64, f64, &str)] = &[
    (&["g", "gram", "grams", "gr"], 1.0, 1.0, "g"),
    (
        &["kg", "kilogram", "kilograms", "kilo", "kilos"],
        1000.0,
        0.05,
        "kg",
    ),
    (&["oz", "ounce", "ounces"], 28.3495, 0.25, "oz"),
    (&["lb", "lbs", "pound", "pounds"], 453.592, 0.25, "lb"),
];

/// Volume units: (names, millilitres, rounding step, symbol).
const VOLUME: &[(&[&str], f64, f64, &str)] = &[
    (
        &[
            "ml",
            "millilitre",
            "millilitres",
            "milliliter",
            "milliliters",
        ],
        1.0,
        1.0,
        "ml",
    ),
    (
        &["l", "litre", "litres", "liter", "liters"],
        1000.0,
        0.05,
        "l",
    ),
    (&["tsp", "teaspoon", "teaspoons"], 5.0, 0.25, "tsp"),
    (
        &["tbsp", "tablespoon", "tablespoons", "tbs"],
        15.0,
        0.25,
        "tbsp",
    ),
    (&["cup", "cups"], 240.0, 0.25, "cup"),
    (
        &["fl oz", "fl. oz", "fluid ounce", "fluid ounces"],
        29.5735,
        0.25,
        "fl oz",
    ),
];

/// Plurals the suffix rules of [`singular`] would get wrong.
const IRREGULAR: &[(&str, &str)] = &[
    ("chillies", "chilli"),
    ("cookies", "cookie"),
    ("pies", "pie"),
    ("brownies", "brownie"),
    ("smoothies", "smoothie"),
    ("leaves", "leaf"),
    ("halves", "half"),
    ("loaves", "loaf"),
];

/// The singular of a counted unit or an ingredient word: `cloves` -> `clove`, `bunches` ->
/// `bunch`, `pieces` -> `piece`, `glasses` -> `glass`, `chillies` -> `chilli`, `leaves` -> `leaf`.
pub fn singular(word: &str) -> String {
    let w = word.trim().to_lowercase();
    if let Some((_, one)) = IRREGULAR.iter().find(|(many, _)| *many == w) {
        return one.to_string();
    }
    for (plural, one) in [
        ("ches", "ch"),
        ("shes", "sh"),
        ("sses", "ss"),
        ("xes", "x"),
        ("ies", "y"),
        ("oes", "o"),
    ] {
        if let Some(stem) = w.strip_suffix(plural) {
            return format!("{stem}{one}");
        }
    }
    match w.strip_suffix('s') {
        Some(stem) if !stem.ends_with('s') && !stem.is_empty() => stem.to_string(),
        _ => w,
    }
}

/// The unit written as `unit` (`None`: a bare count). Never fails: an unknown unit is a count of
/// itself.
pub fn parse(unit: Option<&str>) -> Unit {
    let Some(raw) = unit else {
        return count(String::new());
    };
    let key = raw.trim().to_lowercase();
    let key = key.trim_end_matches('.');
    let mass = MASS.iter().map(|u| (Kind::Mass, u));
    let volume = VOLUME.iter().map(|u| (Kind::Volume, u));
    for (kind, (names, base, step, symbol)) in mass.chain(volume) {
        if names.contains(&key) {
            return Unit {
                kind,
                base: *base,
                step: *step,
                symbol,
            };
        }
    }
    count(singular(key))
}

fn count(name: String) -> Unit {
    Unit {
        kind: Kind::Count(name),
        base: 1.0,
        step: 0.5,
        symbol: "",
    }
}

/// `amount` rounded to `step`; a positive amount never becomes 0.
pub fn round_to(amount: f64, step: f64) -> f64 {
    if amount <= 0.0 || !amount.is_finite() {
        return 0.0;
    }
    let r = (amount / step).round() * step;
    // Clean binary noise (0.30000000000000004 -> 0.3).
    let r = (r * 1000.0).round() / 1000.0;
    if r <= 0.0 {
        step
    } else {
        r
    }
}

/// `quantity` of `unit` for `servings` where the recipe makes `recipe_servings`, rounded to the
/// unit's step. `None` (to taste) stays `None`.
pub fn scale(
    quantity: Option<f64>,
    unit: Option<&str>,
    recipe_servings: u32,
    servings: u32,
) -> Option<f64> {
    let q = quantity?;
    let factor = f64::from(servings) / f64::from(recipe_servings.max(1));
    Some(round_to(q * factor, parse(unit).step))
}

/// A running sum of one ingredient's amounts of one kind, remembering which units went in so the
/// total is written the way the recipes wrote it (spoons and cups stay spoons and cups; ounces
/// stay ounces).
#[derive(Debug, Clone, PartialEq)]
pub struct Total {
    /// What is summed.
    pub kind: Kind,
    /// The sum in the kind's base (grams, millilitres or the count).
    pub base: f64,
    /// The counted unit as first written (plural or not), for a count.
    name: String,
    /// Whether every amount came in US units (oz, lb, tsp, tbsp, cup, fl oz).
    us: bool,
}

fn is_us(symbol: &str) -> bool {
    matches!(symbol, "oz" | "lb" | "tsp" | "tbsp" | "cup" | "fl oz")
}

impl Total {
    /// A total starting with `amount` of `unit`.
    pub fn new(amount: f64, unit: Option<&str>) -> Total {
        let u = parse(unit);
        Total {
            base: amount * u.base,
            us: is_us(u.symbol),
            name: unit.unwrap_or("").trim().to_string(),
            kind: u.kind,
        }
    }

    /// Adds `amount` of `unit`; returns `false` (and adds nothing) when the unit measures another
    /// kind (grams onto cloves): the caller keeps it as another line of the same item.
    pub fn add(&mut self, amount: f64, unit: Option<&str>) -> bool {
        let u = parse(unit);
        if u.kind != self.kind {
            return false;
        }
        self.base += amount * u.base;
        self.us &= is_us(u.symbol);
        true
    }

    /// The total written readably: `(amount, unit)`, rounded to that unit's step. Mass: kg from
    /// 1,000 g, or oz / lb (from 16 oz) when every amount was in ounces or pounds. Volume: l from
    /// 1,000 ml, or cups (from 1/4 cup), tbsp (from 1 tbsp) or tsp when every amount was in US
    /// units; of the US units, the largest whose rounded amount is within 10% of the sum (9 tbsp
    /// stays 9 tbsp rather than 1/2 cup; 18 oz stays 18 oz rather than 1 lb). Counts: the count with the unit as written (plural from 2 when given singular).
    pub fn display(&self) -> (f64, Option<String>) {
        let pick = |symbol: &'static str| -> (f64, Option<String>) {
            let u = parse(Some(symbol));
            (
                round_to(self.base / u.base, u.step),
                Some(symbol.to_string()),
            )
        };
        // The largest unit whose rounded amount is within 10% of the sum (9 tbsp stays 9 tbsp,
        // not 1/2 cup); the last one always.
        let closest = |choices: &[(&'static str, f64)]| -> (f64, Option<String>) {
            let mut best = pick(choices[choices.len() - 1].0);
            for (symbol, _) in choices.iter().filter(|(_, from)| self.base >= *from) {
                best = pick(symbol);
                let written = best.0 * parse(Some(symbol)).base;
                if (written - self.base).abs() <= 0.1 * self.base {
                    break;
                }
            }
            best
        };
        match &self.kind {
            Kind::Mass if self.us => closest(&[("lb", 16.0 * 28.3495), ("oz", 0.0)]),
            Kind::Mass => pick(if self.base >= 1000.0 { "kg" } else { "g" }),
            Kind::Volume if self.us => closest(&[("cup", 60.0), ("tbsp", 15.0), ("tsp", 0.0)]),
            Kind::Volume => pick(if self.base >= 1000.0 { "l" } else { "ml" }),
            Kind::Count(one) => {
                let n = round_to(self.base, 0.5);
                if one.is_empty() {
                    return (n, None);
                }
                let written = if n > 1.0 && singular(&self.name) == self.name.to_lowercase() {
                    plural(&self.name)
                } else {
                    self.name.clone()
                };
                (n, Some(written))
            }
        }
    }
}

fn plural(word: &str) -> String {
    let w = word.to_string();
    if w.ends_with("ch") || w.ends_with("sh") || w.ends_with('s') {
        format!("{w}es")
    } else if w.ends_with('y') && !w.ends_with("ey") && !w.ends_with("ay") {
        format!("{}ies", &w[..w.len() - 1])
    } else {
        format!("{w}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_and_singular_forms() {
        assert_eq!(parse(Some("Tbsp")).kind, Kind::Volume);
        assert_eq!(parse(Some("cups")).base, 240.0);
        assert_eq!(parse(Some("lbs")).kind, Kind::Mass);
        assert_eq!(parse(Some("cloves")).kind, Kind::Count("clove".into()));
        assert_eq!(parse(Some("clove")).kind, Kind::Count("clove".into()));
        assert_eq!(parse(Some("bunches")).kind, Kind::Count("bunch".into()));
        assert_eq!(parse(None).kind, Kind::Count(String::new()));
        assert_eq!(singular("glass"), "glass");
        assert_eq!(singular("glasses"), "glass");
        assert_eq!(singular("boxes"), "box");
        assert_eq!(singular("chillies"), "chilli");
        assert_eq!(singular("chilli"), "chilli");
        assert_eq!(singular("leaves"), "leaf");
        assert_eq!(singular("olives"), "olive");
        assert_eq!(singular("tomatoes"), "tomato");
        assert_eq!(singular("berries"), "berry");
    }

    #[test]
    fn scaling_rounds_each_kind_to_its_step() {
        // 2 tbsp for 4 -> 3 servings: 1.5 tbsp; 1 cup for 3 -> 2: 0.667 -> 0.75.
        assert_eq!(scale(Some(2.0), Some("tbsp"), 4, 3), Some(1.5));
        assert_eq!(scale(Some(1.0), Some("cup"), 3, 2), Some(0.75));
        // Grams to whole numbers, counts to halves, never 0 for a positive amount.
        assert_eq!(scale(Some(400.0), Some("g"), 3, 2), Some(267.0));
        assert_eq!(scale(Some(3.0), None, 4, 1), Some(1.0));
        assert_eq!(scale(Some(1.0), Some("cloves"), 4, 1), Some(0.5));
        assert_eq!(scale(Some(1.0), Some("pinch"), 8, 1), Some(0.5));
        assert_eq!(scale(Some(0.5), Some("kg"), 2, 3), Some(0.75));
        assert_eq!(scale(None, Some("g"), 2, 4), None);
    }

    #[test]
    fn totals_add_within_a_kind_only() {
        let mut t = Total::new(2.0, Some("cloves"));
        assert!(t.add(3.0, Some("clove")));
        assert!(!t.add(10.0, Some("g")));
        assert_eq!(t.display(), (5.0, Some("cloves".into())));

        let mut g = Total::new(600.0, Some("g"));
        assert!(g.add(0.5, Some("kg")));
        assert_eq!(g.display(), (1.1, Some("kg".into())));

        let mut spoons = Total::new(2.0, Some("tbsp"));
        assert!(spoons.add(3.0, Some("tsp")));
        assert_eq!(spoons.display(), (3.0, Some("tbsp".into())));
        assert!(spoons.add(1.0, Some("cup")));
        assert_eq!(spoons.display(), (1.25, Some("cup".into())));
        assert!(spoons.add(100.0, Some("ml")));
        assert_eq!(spoons.display(), (385.0, Some("ml".into())));

        let mut nine = Total::new(2.0, Some("tbsp"));
        nine.add(4.0, Some("tbsp"));
        nine.add(3.0, Some("tbsp"));
        assert_eq!(nine.display(), (9.0, Some("tbsp".into())));
        nine.add(3.0, Some("tbsp"));
        assert_eq!(nine.display(), (0.75, Some("cup".into())));
        let mut ounces = Total::new(10.0, Some("oz"));
        ounces.add(8.0, Some("oz"));
        assert_eq!(ounces.display(), (18.0, Some("oz".into())));

        let mut oz = Total::new(12.0, Some("oz"));
        assert!(oz.add(0.5, Some("lb")));
        assert_eq!(oz.display(), (1.25, Some("lb".into())));

        let mut eggs = Total::new(2.0, None);
        assert!(eggs.add(1.0, None));
        assert_eq!(eggs.display(), (3.0, None));
        let mut can = Total::new(1.0, Some("can"));
        can.add(1.0, Some("can"));
        assert_eq!(can.display(), (2.0, Some("cans".into())));
    }
}
