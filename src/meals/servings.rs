//! Servings and nutrition of a plan (pure): a recipe scaled to a slot's servings, a slot's
//! nutrition, a day's and a plan's sums per person, the gap to the daily targets, and the share
//! of a day's targets each slot is planned against.
//!
//! Rules (documented in `docs/meals.md`, Servings and nutrition, Daily targets):
//! - Scaling: each quantity times `slot servings / recipe servings`, rounded by
//!   [`units::scale`]; the preparation is kept; "to taste" stays without a quantity.
//! - A day per person: one serving of each meal that has nutrition (a repeat counts like any
//!   meal); the others are named in `mealsWithoutNutrition`. Kcal rounds to whole numbers, grams
//!   to 0.1.
//! - A slot's share of a day's target: what is left of the target once the day's earlier slots
//!   are counted, split over this slot and the day's later slots by meal weight (breakfast 25,
//!   lunch 35, dinner 40, snack 10, dessert 10). An earlier slot without nutrition counts as
//!   having eaten its own share. A share is never below 5% of the daily target.

use super::model::{
    DayNutrition, Ingredient, MealPreferences, MealType, Nutrition, PlanNutrition, PlannedDay,
    PlannedMeals, Recipe, SlotNutrition, TargetGap, TargetGaps,
};
use super::units;

/// The recipe's ingredients for `servings` (see the module rules).
pub fn scaled_ingredients(recipe: &Recipe, servings: u32) -> Vec<Ingredient> {
    recipe
        .ingredients
        .iter()
        .map(|i| Ingredient {
            quantity: units::scale(i.quantity, i.unit.as_deref(), recipe.servings, servings),
            ..i.clone()
        })
        .collect()
}

/// The nutrition of `servings` of `recipe`, when it has nutrition.
pub fn slot_nutrition(recipe: &Recipe, servings: u32) -> Option<SlotNutrition> {
    let n = recipe.nutrition?;
    Some(SlotNutrition {
        per_serving: n,
        total: rounded(&times(&n, f64::from(servings))),
    })
}

/// The sum of `a` and `b`.
pub fn add(a: &Nutrition, b: &Nutrition) -> Nutrition {
    Nutrition {
        kcal: a.kcal + b.kcal,
        protein_g: a.protein_g + b.protein_g,
        carbohydrate_g: a.carbohydrate_g + b.carbohydrate_g,
        fat_g: a.fat_g + b.fat_g,
        fibre_g: a.fibre_g + b.fibre_g,
    }
}

fn times(n: &Nutrition, k: f64) -> Nutrition {
    Nutrition {
        kcal: n.kcal * k,
        protein_g: n.protein_g * k,
        carbohydrate_g: n.carbohydrate_g * k,
        fat_g: n.fat_g * k,
        fibre_g: n.fibre_g * k,
    }
}

fn round1(v: f64) -> f64 {
    (v * 10.0).round() / 10.0
}

/// `n` written readably: kcal to whole numbers, grams to 0.1.
pub fn rounded(n: &Nutrition) -> Nutrition {
    Nutrition {
        kcal: n.kcal.round(),
        protein_g: round1(n.protein_g),
        carbohydrate_g: round1(n.carbohydrate_g),
        fat_g: round1(n.fat_g),
        fibre_g: round1(n.fibre_g),
    }
}

/// How far `actual` is from `target` (a target of 0 gives 0 percent).
pub fn gap(actual: f64, target: f64) -> TargetGap {
    let difference = actual - target;
    let percent = if target > 0.0 {
        round1(difference / target * 100.0)
    } else {
        0.0
    };
    TargetGap {
        target,
        difference: round1(difference),
        percent,
    }
}

/// How far `n` is from the preferences' daily targets; `None` when none is set.
pub fn gaps(n: &Nutrition, prefs: &MealPreferences) -> Option<TargetGaps> {
    let gaps = TargetGaps {
        kcal: prefs.daily_kcal.map(|t| gap(n.kcal, f64::from(t))),
        protein_g: prefs
            .daily_protein_g
            .map(|t| gap(n.protein_g, f64::from(t))),
    };
    (gaps.kcal.is_some() || gaps.protein_g.is_some()).then_some(gaps)
}

/// A day's nutrition per person from its planned meals; `None` when no meal has nutrition.
pub fn day_nutrition(meals: &PlannedMeals, prefs: &MealPreferences) -> Option<DayNutrition> {
    let mut sum = Nutrition::default();
    let mut counted = 0;
    let mut without = Vec::new();
    for (t, slot) in meals.slots() {
        match slot.selection.as_ref().and_then(|s| s.nutrition.as_ref()) {
            Some(n) => {
                sum = add(&sum, &n.per_serving);
                counted += 1;
            }
            None => without.push(t),
        }
    }
    if counted == 0 {
        return None;
    }
    let per_person = rounded(&sum);
    Some(DayNutrition {
        vs_targets: gaps(&per_person, prefs),
        per_person,
        meals_without_nutrition: without,
    })
}

/// A plan's nutrition per person from its days (their `nutrition` already computed); `None` when
/// no day has nutrition.
pub fn plan_nutrition(days: &[PlannedDay], prefs: &MealPreferences) -> Option<PlanNutrition> {
    let mut sum = Nutrition::default();
    let mut counted = 0u32;
    let mut without = 0u32;
    for day in days {
        match &day.nutrition {
            Some(n) => {
                sum = add(&sum, &n.per_person);
                counted += 1;
                without += n.meals_without_nutrition.len() as u32;
            }
            None => without += day.meals.slots().len() as u32,
        }
    }
    if counted == 0 {
        return None;
    }
    let daily_average = rounded(&times(&sum, 1.0 / f64::from(counted)));
    Some(PlanNutrition {
        days_counted: counted,
        meals_without_nutrition: without,
        per_person: rounded(&sum),
        vs_targets: gaps(&daily_average, prefs),
        daily_average,
    })
}

/// A meal's weight when a day's targets are split over its slots (see the module rules).
pub fn meal_weight(t: MealType) -> f64 {
    match t {
        MealType::Breakfast => 25.0,
        MealType::Lunch => 35.0,
        MealType::Dinner => 40.0,
        MealType::Snack | MealType::Dessert => 10.0,
    }
}

/// A share of the day's targets is never below this part of the daily target.
pub const MIN_SHARE: f64 = 0.05;

/// What one slot is planned against: its share of each daily target that is set, per person.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct SlotShare {
    /// Kilocalories, when `dailyKcal` is set.
    pub kcal: Option<f64>,
    /// Protein grams, when `dailyProteinG` is set.
    pub protein_g: Option<f64>,
}

/// What is left of a day's targets while its slots are planned in order.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DayBudget {
    daily: SlotShare,
    left: SlotShare,
}

impl DayBudget {
    /// A fresh day; `None` when the preferences set no daily target.
    pub fn new(prefs: &MealPreferences) -> Option<DayBudget> {
        let daily = SlotShare {
            kcal: prefs.daily_kcal.map(f64::from),
            protein_g: prefs.daily_protein_g.map(f64::from),
        };
        (daily.kcal.is_some() || daily.protein_g.is_some())
            .then_some(DayBudget { daily, left: daily })
    }

    /// The share of the next slot, of type `t`, with `later` the types of the day's slots
    /// still to plan after it.
    pub fn share(&self, t: MealType, later: &[MealType]) -> SlotShare {
        let w = meal_weight(t);
        let all = w + later.iter().map(|l| meal_weight(*l)).sum::<f64>();
        let part = |left: Option<f64>, daily: Option<f64>| -> Option<f64> {
            let (left, daily) = (left?, daily?);
            Some((left.max(0.0) * w / all).max(MIN_SHARE * daily))
        };
        SlotShare {
            kcal: part(self.left.kcal, self.daily.kcal),
            protein_g: part(self.left.protein_g, self.daily.protein_g),
        }
    }

    /// Counts a planned slot: one serving of `eaten` when its nutrition is known, else its
    /// `share`.
    pub fn take(&mut self, share: &SlotShare, eaten: Option<&Nutrition>) {
        let used_kcal = eaten.map(|n| n.kcal).or(share.kcal);
        let used_protein = eaten.map(|n| n.protein_g).or(share.protein_g);
        if let (Some(l), Some(u)) = (self.left.kcal.as_mut(), used_kcal) {
            *l -= u;
        }
        if let (Some(l), Some(u)) = (self.left.protein_g.as_mut(), used_protein) {
            *l -= u;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::meals::model::{PickedBy, PlannedSlot, RecipeSource, Selection};

    fn n(kcal: f64, protein_g: f64) -> Nutrition {
        Nutrition {
            kcal,
            protein_g,
            carbohydrate_g: 10.0,
            fat_g: 5.0,
            fibre_g: 1.25,
        }
    }

    fn ingredient(name: &str, q: Option<f64>, unit: Option<&str>) -> Ingredient {
        Ingredient {
            name: name.into(),
            quantity: q,
            unit: unit.map(str::to_string),
            preparation: Some("chopped".into()),
        }
    }

    #[test]
    fn a_recipe_scales_to_the_slots_servings_keeping_units_and_preparation() {
        let r = Recipe {
            id: "r".into(),
            source: RecipeSource::Core,
            title: "R".into(),
            description: String::new(),
            meal_types: vec![MealType::Dinner],
            tags: vec![],
            ingredients: vec![
                ingredient("onion", Some(1.0), None),
                ingredient("rice", Some(300.0), Some("g")),
                ingredient("oil", Some(2.0), Some("tbsp")),
                ingredient("salt", None, None),
            ],
            prep_minutes: 5,
            cook_minutes: 5,
            servings: 4,
            diets: vec![],
            steps: vec![],
            nutrition: Some(n(412.0, 20.04)),
            origin_id: None,
            expires_ms: None,
        };
        let got = scaled_ingredients(&r, 3);
        let q: Vec<Option<f64>> = got.iter().map(|i| i.quantity).collect();
        assert_eq!(q, [Some(1.0), Some(225.0), Some(1.5), None]);
        assert_eq!(got[2].unit.as_deref(), Some("tbsp"));
        assert!(got
            .iter()
            .all(|i| i.preparation.as_deref() == Some("chopped")));
        let s = slot_nutrition(&r, 3).unwrap();
        assert_eq!(s.per_serving.kcal, 412.0);
        assert_eq!(
            (s.total.kcal, s.total.protein_g, s.total.fibre_g),
            (1236.0, 60.1, 3.8)
        );
        assert!(slot_nutrition(
            &Recipe {
                nutrition: None,
                ..r
            },
            2
        )
        .is_none());
    }

    fn planned(nutrition: Option<Nutrition>) -> PlannedSlot {
        PlannedSlot {
            servings: 2,
            tags: vec![],
            note: None,
            is_meal_prep: false,
            repeat: None,
            selection: Some(Selection {
                source: RecipeSource::User,
                recipe_id: "r".into(),
                title: "R".into(),
                confidence: 1.0,
                reason: None,
                picked_by: PickedBy::Fallback,
                matched_tags: vec![],
                warnings: vec![],
                alternatives: vec![],
                repeat_of: None,
                ingredients: vec![],
                nutrition: nutrition.map(|per_serving| SlotNutrition {
                    per_serving,
                    total: per_serving,
                }),
            }),
            failure: None,
        }
    }

    #[test]
    fn days_sum_one_serving_per_meal_and_name_the_meals_without_data() {
        let prefs = MealPreferences {
            daily_kcal: Some(2000),
            daily_protein_g: Some(100),
            ..MealPreferences::default()
        };
        let mut meals = PlannedMeals::default();
        meals.set(MealType::Dinner, planned(Some(n(900.0, 40.0))));
        meals.set(MealType::Breakfast, planned(Some(n(500.0, 20.0))));
        meals.set(MealType::Lunch, planned(None));
        let day = day_nutrition(&meals, &prefs).unwrap();
        assert_eq!(day.per_person.kcal, 1400.0);
        assert_eq!(day.per_person.fibre_g, 2.5);
        assert_eq!(day.meals_without_nutrition, [MealType::Lunch]);
        let kcal = day.vs_targets.unwrap().kcal.unwrap();
        assert_eq!(
            (kcal.target, kcal.difference, kcal.percent),
            (2000.0, -600.0, -30.0)
        );
        assert_eq!(day.vs_targets.unwrap().protein_g.unwrap().percent, -40.0);

        let mut empty = PlannedMeals::default();
        empty.set(MealType::Lunch, planned(None));
        assert!(day_nutrition(&empty, &prefs).is_none());

        let days = [
            PlannedDay {
                date: "2026-11-23".into(),
                nutrition: Some(day),
                meals,
            },
            PlannedDay {
                date: "2026-11-24".into(),
                nutrition: None,
                meals: empty,
            },
        ];
        let plan = plan_nutrition(&days, &prefs).unwrap();
        assert_eq!((plan.days_counted, plan.meals_without_nutrition), (1, 2));
        assert_eq!(plan.daily_average.kcal, 1400.0);
        assert_eq!(plan.vs_targets.unwrap().kcal.unwrap().difference, -600.0);
    }

    #[test]
    fn each_slot_gets_its_share_of_what_is_left_of_the_day() {
        let prefs = MealPreferences {
            daily_kcal: Some(2000),
            ..MealPreferences::default()
        };
        assert!(DayBudget::new(&MealPreferences::default()).is_none());
        let mut day = DayBudget::new(&prefs).unwrap();
        let b = day.share(MealType::Breakfast, &[MealType::Lunch, MealType::Dinner]);
        assert_eq!(
            b,
            SlotShare {
                kcal: Some(500.0),
                protein_g: None
            }
        );
        // Breakfast ate 800: lunch gets 35/75 of the 1,200 left.
        day.take(&b, Some(&n(800.0, 10.0)));
        let l = day.share(MealType::Lunch, &[MealType::Dinner]);
        assert_eq!(l.kcal, Some(560.0));
        // A lunch without nutrition counts as its share: dinner gets the rest, 640.
        day.take(&l, None);
        assert_eq!(day.share(MealType::Dinner, &[]).kcal, Some(640.0));
        // Over the target already: the share floors at 5% of the day.
        day.take(&l, Some(&n(1500.0, 0.0)));
        assert_eq!(day.share(MealType::Dinner, &[]).kcal, Some(100.0));
    }
}
