//! Nutrition per serving of a recipe, computed from the library's ingredient table (pure).
//!
//! The table, `data/recipes/ingredients.json`, ships inside the library. Its values are estimates
//! written for this project from typical published figures, not laboratory data: per 100 g,
//! energy, protein, available carbohydrate (fibre apart), fat and fibre, plus what it takes to
//! turn a recipe's amounts into grams.
//!
//! Rules:
//! - An ingredient name finds its food case-insensitively: the exact name or an alias, then its
//!   singular form (`tomatoes` -> `tomato`), then the longest table name that appears in it as
//!   whole words (`extra virgin olive oil` -> `olive oil`, `garlic powder` before `garlic`).
//! - Amounts become grams by their unit's kind ([`super::units`]): mass as it is; volume times the
//!   food's grams per millilitre (1 when the table gives none: oil 0.92, flour 0.53, honey 1.42);
//!   a bare count (`2 eggs`) times the food's grams in one piece; a named count (`3 cloves`) by
//!   the food's own size of that unit, else the table's general one (`handful` 30 g, `can` 400 g).
//! - Oil whose preparation says it is for deep-frying counts a tenth of its amount, about what
//!   the food takes up.
//! - Ingredients without a quantity (salt "to taste") add nothing. A recipe with a quantified
//!   ingredient that cannot be found or converted has no computed nutrition; [`unresolved`] names
//!   those ingredients.
//! - Per serving: the sum divided by `servings`; kcal rounded to whole numbers, grams to 0.1.

use std::collections::HashMap;
use std::sync::OnceLock;

use serde::Deserialize;

use super::model::{Ingredient, Nutrition, Recipe};
use super::units::{self, Kind};

/// The table as shipped (see the module docs).
const TABLE_JSON: &str = include_str!("../../data/recipes/ingredients.json");

/// Share of deep-frying oil that counts: what the food takes up.
const FRYING_OIL_TAKEN_UP: f64 = 0.1;

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct TableFile {
    units: HashMap<String, f64>,
    foods: HashMap<String, FoodEntry>,
}

/// One food of the table as written in the file.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct FoodEntry {
    /// kcal, protein g, available carbohydrate g, fat g, fibre g per 100 g.
    per100g: [f64; 5],
    #[serde(default)]
    also: Vec<String>,
    each: Option<f64>,
    g_per_ml: Option<f64>,
    #[serde(default)]
    units: HashMap<String, f64>,
    /// Alcohol g per 100 g (it carries energy the macronutrients do not show).
    #[serde(default)]
    #[allow(dead_code)]
    alcohol: f64,
}

struct Table {
    /// General sizes of named count units, in grams.
    units: HashMap<String, f64>,
    /// Canonical name -> food.
    foods: HashMap<String, FoodEntry>,
    /// Every lowercase name and alias -> canonical name.
    names: HashMap<String, String>,
    /// `" name "` padded for whole-word matching, longest first, with the canonical name.
    by_length: Vec<(String, String)>,
}

fn table() -> Option<&'static Table> {
    static TABLE: OnceLock<Option<Table>> = OnceLock::new();
    TABLE.get_or_init(|| parse(TABLE_JSON)).as_ref()
}

fn parse(json: &str) -> Option<Table> {
    let file: TableFile = serde_json::from_str(json).ok()?;
    let mut names = HashMap::new();
    for (name, food) in &file.foods {
        for alias in std::iter::once(name).chain(food.also.iter()) {
            names.insert(normalise(alias), name.clone());
        }
    }
    let mut by_length: Vec<(String, String)> = names
        .iter()
        .map(|(alias, name)| (format!(" {alias} "), name.clone()))
        .collect();
    by_length.sort_by(|a, b| b.0.len().cmp(&a.0.len()).then_with(|| a.0.cmp(&b.0)));
    Some(Table {
        units: file.units,
        foods: file.foods,
        names,
        by_length,
    })
}

/// Lowercase, trimmed, single spaces.
fn normalise(name: &str) -> String {
    name.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

impl Table {
    /// The canonical table name for an ingredient name (see the module rules).
    fn lookup(&self, name: &str) -> Option<&str> {
        let exact = normalise(name);
        let one = units::singular(&exact);
        for key in [&exact, &one] {
            if let Some(found) = self.names.get(key) {
                return Some(found);
            }
        }
        let (exact, one) = (format!(" {exact} "), format!(" {one} "));
        self.by_length
            .iter()
            .find(|(padded, _)| exact.contains(padded.as_str()) || one.contains(padded.as_str()))
            .map(|(_, name)| name.as_str())
    }

    /// The food and the grams of a quantified ingredient, or `None` when it cannot be found or
    /// its unit cannot be converted for that food.
    fn grams(&self, ingredient: &Ingredient, quantity: f64) -> Option<(&FoodEntry, f64)> {
        let food = self.foods.get(self.lookup(&ingredient.name)?)?;
        let unit = units::parse(ingredient.unit.as_deref());
        let grams = match &unit.kind {
            Kind::Mass => quantity * unit.base,
            Kind::Volume => quantity * unit.base * food.g_per_ml.unwrap_or(1.0),
            Kind::Count(name) if name.is_empty() => quantity * food.each?,
            Kind::Count(name) => {
                quantity * food.units.get(name).or_else(|| self.units.get(name))?
            }
        };
        let deep_frying = ingredient
            .preparation
            .as_deref()
            .is_some_and(|p| p.to_lowercase().contains("deep-fr"));
        let share = if deep_frying {
            FRYING_OIL_TAKEN_UP
        } else {
            1.0
        };
        Some((food, grams * share))
    }
}

/// Nutrition of one serving of `recipe`, computed from the library's ingredient table (estimates:
/// see `docs/meals.md`). `None` when a quantified ingredient cannot be found in the table or its
/// amount cannot be turned into grams (see [`unresolved`]), or when no ingredient has a quantity.
/// kcal are whole numbers; grams are rounded to 0.1.
pub fn per_serving(recipe: &Recipe) -> Option<Nutrition> {
    let table = table()?;
    let mut sum = [0.0_f64; 5];
    let mut any = false;
    for ingredient in &recipe.ingredients {
        let Some(quantity) = ingredient.quantity else {
            continue;
        };
        let (food, grams) = table.grams(ingredient, quantity)?;
        for (total, per_100) in sum.iter_mut().zip(food.per100g) {
            *total += per_100 * grams / 100.0;
        }
        any = true;
    }
    if !any {
        return None;
    }
    let servings = f64::from(recipe.servings.max(1));
    let tenth = |v: f64| (v / servings * 10.0).round() / 10.0;
    Some(Nutrition {
        kcal: (sum[0] / servings).round(),
        protein_g: tenth(sum[1]),
        carbohydrate_g: tenth(sum[2]),
        fat_g: tenth(sum[3]),
        fibre_g: tenth(sum[4]),
    })
}

/// The names of `recipe`'s quantified ingredients that the table cannot turn into nutrition: not
/// found, or with a unit it cannot convert for that food (a bare count of a food without a piece
/// weight, an unknown named unit). Empty when [`per_serving`] can compute the recipe.
pub fn unresolved(recipe: &Recipe) -> Vec<String> {
    let Some(table) = table() else {
        return recipe.ingredients.iter().map(|i| i.name.clone()).collect();
    };
    recipe
        .ingredients
        .iter()
        .filter(|i| i.quantity.is_some_and(|q| table.grams(i, q).is_none()))
        .map(|i| i.name.clone())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::meals::model::{Diet, MealType};

    fn ing(name: &str, quantity: Option<f64>, unit: Option<&str>) -> Ingredient {
        Ingredient {
            name: name.into(),
            quantity,
            unit: unit.map(Into::into),
            preparation: None,
        }
    }

    fn recipe(servings: u32, ingredients: Vec<Ingredient>) -> Recipe {
        Recipe {
            id: "t".into(),
            source: crate::meals::model::RecipeSource::User,
            title: "t".into(),
            description: String::new(),
            meal_types: vec![MealType::Lunch],
            tags: vec![],
            ingredients,
            prep_minutes: 0,
            cook_minutes: 0,
            servings,
            diets: vec![],
            steps: vec![],
            nutrition: None,
            origin_id: None,
            expires_ms: None,
        }
    }

    fn n(kcal: f64, protein_g: f64, carbohydrate_g: f64, fat_g: f64, fibre_g: f64) -> Nutrition {
        Nutrition {
            kcal,
            protein_g,
            carbohydrate_g,
            fat_g,
            fibre_g,
        }
    }

    #[test]
    fn the_table_parses_and_each_food_adds_up() {
        let t = table().expect("the shipped table parses");
        assert!(t.foods.len() >= 300, "{} foods", t.foods.len());
        for (name, food) in &t.foods {
            let [kcal, protein, carbohydrate, fat, fibre] = food.per100g;
            assert!(food.per100g.iter().all(|v| *v >= 0.0), "{name}");
            assert!(protein + carbohydrate + fat + fibre <= 101.0, "{name}");
            // Energy from its parts: 4 kcal/g protein and carbohydrate, 9 fat, 2 fibre, 7 alcohol.
            let parts =
                4.0 * protein + 4.0 * carbohydrate + 9.0 * fat + 2.0 * fibre + 7.0 * food.alcohol;
            assert!(
                (kcal - parts).abs() <= (0.15 * kcal).max(25.0),
                "{name}: {kcal} kcal, its parts give {parts:.0}"
            );
            assert!(food.each.is_none_or(|g| g > 0.0), "{name}");
            assert!(
                food.g_per_ml.is_none_or(|d| (0.1..=2.0).contains(&d)),
                "{name}"
            );
        }
    }

    #[test]
    fn every_name_and_alias_belongs_to_one_food() {
        let file: serde_json::Value = serde_json::from_str(TABLE_JSON).unwrap();
        let mut seen = HashMap::new();
        for (name, food) in file["foods"].as_object().unwrap() {
            let aliases = food["also"].as_array().cloned().unwrap_or_default();
            let all = std::iter::once(name.clone())
                .chain(aliases.iter().map(|a| a.as_str().unwrap().to_string()));
            for alias in all {
                if let Some(other) = seen.insert(normalise(&alias), name.clone()) {
                    panic!("{alias} names both {other} and {name}");
                }
            }
        }
    }

    #[test]
    fn lookup_exact_then_singular_then_longest_contained_name() {
        let t = table().unwrap();
        assert_eq!(t.lookup("Olive Oil"), Some("olive oil"));
        assert_eq!(t.lookup("courgettes"), Some("zucchini"));
        assert_eq!(t.lookup("tomatoes"), Some("tomato"));
        assert_eq!(t.lookup("  extra   virgin olive oil "), Some("olive oil"));
        assert_eq!(t.lookup("garlic powder"), Some("garlic powder"));
        assert_eq!(t.lookup("roasted garlic"), Some("garlic"));
        assert_eq!(t.lookup("coconut milk"), Some("coconut milk"));
        assert_eq!(t.lookup("warm milk"), Some("milk"));
        assert_eq!(t.lookup("canned chickpeas"), Some("canned chickpeas"));
        assert_eq!(
            t.lookup("dairy-free dark chocolate"),
            Some("dark chocolate")
        );
        // Whole words only: "turmoil" holds "oil" but is no oil.
        assert_eq!(t.lookup("turmoil"), None);
        assert_eq!(t.lookup("dragon fruit"), None);
    }

    #[test]
    fn counts_volumes_and_masses_become_grams() {
        // 2 eggs at 50 g: 100 g of egg, for one.
        let eggs = recipe(1, vec![ing("eggs", Some(2.0), None)]);
        assert_eq!(per_serving(&eggs), Some(n(143.0, 12.6, 0.7, 9.5, 0.0)));

        // 2 tbsp = 30 ml of oil at 0.92 g/ml = 27.6 g, for two: 122 kcal, 13.8 g fat each.
        let oil = recipe(
            2,
            vec![ing("extra virgin olive oil", Some(2.0), Some("tbsp"))],
        );
        assert_eq!(per_serving(&oil), Some(n(122.0, 0.0, 0.0, 13.8, 0.0)));

        // 3 cloves of garlic at 4 g (its own unit) and a handful of parsley at 30 g (the general
        // handful); salt to taste adds nothing. Garlic per 100 g: 149 kcal, 6.4 protein, 30.9
        // carbohydrate, 0.5 fat, 2.1 fibre; parsley: 36, 3, 3, 0.8, 3.3.
        let herbs = recipe(
            1,
            vec![
                ing("garlic", Some(3.0), Some("cloves")),
                ing("parsley", Some(1.0), Some("handful")),
                ing("salt", None, None),
            ],
        );
        // kcal 17.88 + 10.8; protein 0.768 + 0.9; carbohydrate 3.708 + 0.9; fat 0.06 + 0.24;
        // fibre 0.252 + 0.99.
        assert_eq!(per_serving(&herbs), Some(n(29.0, 1.7, 4.6, 0.3, 1.2)));

        // 0.5 kg of rice for four: 125 g each.
        let rice = recipe(4, vec![ing("basmati rice", Some(0.5), Some("kg"))]);
        assert_eq!(per_serving(&rice), Some(n(445.0, 10.0, 95.9, 0.8, 1.6)));
    }

    #[test]
    fn deep_frying_oil_counts_what_the_food_takes_up() {
        let mut oil = ing("vegetable oil", Some(500.0), Some("ml"));
        oil.preparation = Some("for deep-frying".into());
        // 500 ml x 0.92 = 460 g, a tenth counts: 46 g of fat.
        let fried = recipe(1, vec![oil]);
        assert_eq!(per_serving(&fried), Some(n(407.0, 0.0, 0.0, 46.0, 0.0)));
    }

    #[test]
    fn an_unresolved_ingredient_leaves_the_recipe_without_nutrition() {
        let r = recipe(
            2,
            vec![
                ing("eggs", Some(2.0), None),
                ing("dragon fruit", Some(1.0), None),
                // A bare count of a food sold by weight has no piece weight.
                ing("olive oil", Some(2.0), None),
                // A unit the table does not know.
                ing("rice", Some(1.0), Some("fistful")),
                ing("black pepper", None, None),
            ],
        );
        assert_eq!(per_serving(&r), None);
        assert_eq!(unresolved(&r), vec!["dragon fruit", "olive oil", "rice"]);
        // Nothing quantified: nothing to compute.
        assert_eq!(per_serving(&recipe(1, vec![ing("salt", None, None)])), None);
        assert!(unresolved(&recipe(1, vec![ing("salt", None, None)])).is_empty());
    }

    /// The built-in recipes the library ships.
    fn core() -> Vec<Recipe> {
        serde_json::from_str(include_str!("../../data/recipes/core.json")).expect("core.json")
    }

    #[test]
    fn every_built_in_recipe_validates_and_has_nutrition() {
        let recipes = core();
        let mut ids = std::collections::HashSet::new();
        for r in &recipes {
            assert!(ids.insert(r.id.as_str()), "{} twice", r.id);
            crate::meals::validate::recipe(&r.id, r, true).unwrap();
            assert!(r.nutrition.is_none(), "{}: nutrition is computed", r.id);
            assert!((3..=8).contains(&r.steps.len()), "{}: steps", r.id);
            assert_eq!(unresolved(r), Vec::<String>::new(), "{}", r.id);
            let kcal = per_serving(r).unwrap().kcal;
            assert!((80.0..=1400.0).contains(&kcal), "{}: {kcal} kcal", r.id);
            for i in &r.ingredients {
                // Only seasoning goes unmeasured ("to taste").
                let name = i.name.to_lowercase();
                let seasoning = name.contains("salt") || name.contains("pepper");
                assert!(i.quantity.is_some() || seasoning, "{}: {}", r.id, i.name);
            }
        }
    }

    #[test]
    fn the_built_in_set_covers_every_meal_and_diet() {
        let recipes = core();
        assert!(recipes.len() >= 155, "{} recipes", recipes.len());
        for t in MealType::ALL {
            let count = recipes.iter().filter(|r| r.meal_types.contains(&t)).count();
            assert!(count >= 15, "{}: {count}", t.as_str());
        }
        for d in Diet::ALL {
            let count = recipes
                .iter()
                .filter(|r| Diet::implied_mask(&r.diets) & d.bit() != 0)
                .count();
            assert!(count >= 20, "{d:?}: {count}");
        }
    }

    /// Phrases that hold a forbidden word yet are allowed (`coconut milk` is not milk).
    const ALLOWED: &[&str] = &[
        "coconut milk",
        "almond milk",
        "oat milk",
        "soy milk",
        "peanut butter",
        "almond butter",
        "coconut cream",
        "coconut yogurt",
        "rice flour",
        "chickpea flour",
        "almond flour",
        "buckwheat flour",
        "corn tortilla",
        "corn tortillas",
        "rice noodles",
        "rice vermicelli",
        "dairy free",
        "nutritional yeast",
        "butternut",
        "chestnut",
        "nutmeg",
        "coconut",
    ];
    const MEAT: &[&str] = &[
        "chicken",
        "beef",
        "pork",
        "lamb",
        "turkey",
        "bacon",
        "sausage",
        "sausages",
        "chorizo",
        "ham",
        "prosciutto",
        "mince",
        "gelatine",
        "gelatin",
        "lard",
        "veal",
        "duck",
    ];
    const FISH: &[&str] = &[
        "fish",
        "salmon",
        "tuna",
        "cod",
        "trout",
        "halibut",
        "prawn",
        "prawns",
        "shrimp",
        "squid",
        "mussels",
        "anchovy",
        "anchovies",
        "dashi",
        "oyster sauce",
        "worcestershire",
        "sardines",
        "mackerel",
        "crab",
    ];
    const DAIRY: &[&str] = &[
        "milk",
        "butter",
        "cheese",
        "cheddar",
        "parmesan",
        "mozzarella",
        "feta",
        "ricotta",
        "mascarpone",
        "yogurt",
        "cream",
        "ghee",
        "buttermilk",
        "paneer",
        "halloumi",
        "brioche",
        "caesar",
        "pesto",
        "monterey jack",
    ];
    const ANIMAL: &[&str] = &[
        "egg",
        "eggs",
        "egg whites",
        "honey",
        "mayonnaise",
        "ladyfingers",
    ];
    const GLUTEN: &[&str] = &[
        "flour",
        "pasta",
        "spaghetti",
        "linguine",
        "penne",
        "lasagna",
        "cannelloni",
        "ditalini",
        "noodles",
        "bread",
        "bagel",
        "bagels",
        "baguette",
        "baguettes",
        "brioche",
        "pita",
        "couscous",
        "bulgur",
        "barley",
        "soy sauce",
        "oyster sauce",
        "hoisin",
        "breadcrumbs",
        "panko",
        "ale",
        "beer",
        "ladyfingers",
        "granola",
        "gnocchi",
        "gochujang",
        "muffins",
        "buns",
        "soba",
        "udon",
        "seitan",
        "semolina",
        "rye",
        "spelt",
        "orzo",
        "tortillas",
        "taco shells",
        "worcestershire",
        "teriyaki",
        "miso",
        "oats",
        "malt",
    ];
    const NUTS: &[&str] = &[
        "almond",
        "almonds",
        "cashew",
        "cashews",
        "walnut",
        "walnuts",
        "pecan",
        "pecans",
        "hazelnut",
        "hazelnuts",
        "pistachio",
        "pistachios",
        "peanut",
        "peanuts",
        "macadamia",
        "nut",
        "nuts",
        "pesto",
        "praline",
        "marzipan",
        "satay",
    ];

    fn forbidden(diet: Diet) -> Vec<&'static str> {
        match diet {
            Diet::Vegetarian => [MEAT, FISH].concat(),
            Diet::Pescatarian => MEAT.to_vec(),
            Diet::Vegan => [MEAT, FISH, DAIRY, ANIMAL].concat(),
            Diet::DairyFree => DAIRY.to_vec(),
            Diet::GlutenFree => GLUTEN.to_vec(),
            Diet::NutFree => NUTS.to_vec(),
        }
    }

    /// `name` as `" words "`, letters only, allowed phrases blanked out.
    fn words(name: &str) -> String {
        let letters: String = name
            .to_lowercase()
            .chars()
            .map(|c| if c.is_ascii_lowercase() { c } else { ' ' })
            .collect();
        let mut padded = format!(
            " {} ",
            letters.split_whitespace().collect::<Vec<_>>().join(" ")
        );
        for phrase in ALLOWED {
            padded = padded.replace(&format!(" {phrase} "), "  ");
        }
        padded
    }

    #[test]
    fn diets_are_true_to_the_ingredients() {
        let mut wrong = vec![];
        for r in core() {
            let mask = Diet::implied_mask(&r.diets);
            for diet in Diet::ALL.iter().filter(|d| mask & d.bit() != 0) {
                for i in &r.ingredients {
                    let name = words(&i.name);
                    for word in forbidden(*diet) {
                        if name.contains(&format!(" {word} ")) {
                            wrong.push(format!("{} {diet:?}: {}", r.id, i.name));
                        }
                    }
                }
            }
        }
        assert!(wrong.is_empty(), "{wrong:#?}");
        // A tag naming a diet promises that diet.
        let tagged = [
            ("vegan", Diet::Vegan),
            ("vegetarian", Diet::Vegetarian),
            ("gluten-free", Diet::GlutenFree),
            ("dairy-free", Diet::DairyFree),
        ];
        for r in core() {
            for (tag, diet) in tagged {
                let promised = r.tags.iter().any(|t| t == tag);
                let suits = Diet::implied_mask(&r.diets) & diet.bit() != 0;
                assert!(!promised || suits, "{} is tagged {tag}", r.id);
            }
        }
        // The check itself catches what it is for.
        assert!(words("unsalted butter").contains(" butter "));
        assert!(!words("peanut butter").contains(" butter "));
        assert!(!words("Coconut-Milk").contains(" milk "));
    }
}
