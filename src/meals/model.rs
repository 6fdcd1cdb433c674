//! The vocabulary of meal planning (spec 003): recipes, plan requests, computed plans, the job
//! envelope and its events, and the meal history. Pure data: serde (camelCase JSON, for the CLI
//! and the C API) and UniFFI records for Swift, Kotlin and Python.
//!
//! Limits on every field are enforced by [`super::validate`] before anything is stored or run.

use serde::{Deserialize, Serialize};

/// Where a recipe lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, uniffi::Enum)]
#[serde(rename_all = "camelCase")]
pub enum RecipeSource {
    /// The user's recipe book (saved one by one by the app).
    User,
    /// The core registry: the library's built-in recipes (loaded on open) and any the app
    /// imports in bulk.
    Core,
    /// A user-owned copy of a core recipe made when a plan picked it; it expires 72 h after it was
    /// made unless the app keeps it.
    Stage,
}

impl RecipeSource {
    /// The JSON spelling: `user`, `core` or `stage`.
    pub fn as_str(self) -> &'static str {
        match self {
            RecipeSource::User => "user",
            RecipeSource::Core => "core",
            RecipeSource::Stage => "stage",
        }
    }
}

/// A meal of the day, in the order plans list them.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, uniffi::Enum,
)]
#[serde(rename_all = "camelCase")]
pub enum MealType {
    #[allow(missing_docs)]
    Breakfast,
    #[allow(missing_docs)]
    Lunch,
    #[allow(missing_docs)]
    Dinner,
    #[allow(missing_docs)]
    Snack,
    #[allow(missing_docs)]
    Dessert,
}

impl MealType {
    /// Every meal type, in plan order.
    pub const ALL: [MealType; 5] = [
        MealType::Breakfast,
        MealType::Lunch,
        MealType::Dinner,
        MealType::Snack,
        MealType::Dessert,
    ];

    /// The JSON spelling, e.g. `breakfast`.
    pub fn as_str(self) -> &'static str {
        match self {
            MealType::Breakfast => "breakfast",
            MealType::Lunch => "lunch",
            MealType::Dinner => "dinner",
            MealType::Snack => "snack",
            MealType::Dessert => "dessert",
        }
    }

    /// This type's bit in a meal-type mask (bit 0 breakfast ... bit 4 dessert).
    pub fn bit(self) -> i64 {
        1 << (self as i64)
    }
}

/// A diet a recipe suits. Implied diets count too: a vegan recipe suits vegetarian, pescatarian
/// and dairy-free requests; a vegetarian one suits pescatarian requests.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, uniffi::Enum)]
#[serde(rename_all = "camelCase")]
pub enum Diet {
    /// No meat or fish.
    Vegetarian,
    /// No animal products.
    Vegan,
    /// No meat; fish and seafood allowed.
    Pescatarian,
    /// No gluten.
    GlutenFree,
    /// No milk products.
    DairyFree,
    /// No nuts or peanuts.
    NutFree,
}

impl Diet {
    /// Every diet, in bit order.
    pub const ALL: [Diet; 6] = [
        Diet::Vegetarian,
        Diet::Vegan,
        Diet::Pescatarian,
        Diet::GlutenFree,
        Diet::DairyFree,
        Diet::NutFree,
    ];

    /// This diet's bit in a diet mask.
    pub fn bit(self) -> i64 {
        1 << (self as i64)
    }

    /// The mask of the diets a recipe marked with `diets` suits, implied ones included.
    pub fn implied_mask(diets: &[Diet]) -> i64 {
        let mut mask = diets.iter().fold(0, |m, d| m | d.bit());
        if mask & Diet::Vegan.bit() != 0 {
            mask |= Diet::Vegetarian.bit() | Diet::DairyFree.bit();
        }
        if mask & Diet::Vegetarian.bit() != 0 {
            mask |= Diet::Pescatarian.bit();
        }
        mask
    }
}

/// One ingredient line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Ingredient {
    /// What it is, e.g. `chickpeas` (1 to 80 characters).
    pub name: String,
    /// How much, in `unit`; `None` for "to taste". At most 100,000.
    #[serde(default)]
    pub quantity: Option<f64>,
    /// The unit of `quantity`, e.g. `g`, `tbsp`, `cup` (at most 20 characters); `None` for a count.
    #[serde(default)]
    pub unit: Option<String>,
    /// How it is prepared, e.g. `finely chopped` (at most 80 characters); shown after the name,
    /// never part of what search or the shopping list match on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preparation: Option<String>,
}

/// Nutrition of one serving: energy and the macronutrients in grams. Built-in recipes carry it
/// (computed from the library's ingredient table: estimates, see `docs/meals.md`); a user recipe
/// may give its own.
///
/// Limits: every value finite, `kcal` 0 to 10,000, grams 0 to 1,000.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Nutrition {
    /// Energy in kilocalories.
    pub kcal: f64,
    /// Protein in grams.
    pub protein_g: f64,
    /// Carbohydrate in grams.
    pub carbohydrate_g: f64,
    /// Fat in grams.
    pub fat_g: f64,
    /// Fibre in grams.
    pub fibre_g: f64,
}

/// A recipe of the user's book, the core registry or a staged copy.
///
/// Limits: `id` 1 to 64 characters of `A-Z a-z 0-9 _ - . :` (empty when saving a new user recipe:
/// the library makes one); `title` 1 to 120 characters; `description` at most 1,000; 1 to 5
/// distinct `mealTypes`; at most 20 `tags` of 1 to 40 characters; 1 to 60 `ingredients`; times
/// at most 1,440 minutes; `servings` 1 to 100; at most 6 `diets`; at most 40 `steps` of 1 to 1,000
/// characters.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Recipe {
    /// Stable id within the library (unique across sources).
    #[serde(default)]
    pub id: String,
    /// Where it lives. Set by the call that stores it (import: `core`, save: `user`).
    #[serde(default = "core_source")]
    pub source: RecipeSource,
    /// Display name.
    pub title: String,
    /// One or two sentences; the first ~80 characters are the summary a model reads.
    #[serde(default)]
    pub description: String,
    /// The meals it suits.
    pub meal_types: Vec<MealType>,
    /// Free tags, e.g. `quick`, `mexican`, `chicken`.
    #[serde(default)]
    pub tags: Vec<String>,
    /// The ingredient list.
    pub ingredients: Vec<Ingredient>,
    /// Preparation time in minutes.
    pub prep_minutes: u32,
    /// Cooking time in minutes.
    pub cook_minutes: u32,
    /// How many it serves.
    pub servings: u32,
    /// Diets it suits (implied ones need not be listed: see [`Diet`]).
    #[serde(default)]
    pub diets: Vec<Diet>,
    /// The method, one step per entry, in order.
    #[serde(default)]
    pub steps: Vec<String>,
    /// Nutrition of one serving, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nutrition: Option<Nutrition>,
    /// For a staged copy: the id of the core recipe it copies. Set by the library.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub origin_id: Option<String>,
    /// For a staged copy not kept yet: when it expires (ms since the Unix epoch). Set by the
    /// library.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires_ms: Option<i64>,
}

fn core_source() -> RecipeSource {
    RecipeSource::Core
}

/// One page of a recipe list (`Meals.listRecipes`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase")]
pub struct RecipePage {
    /// The recipes of the page, in list order.
    pub recipes: Vec<Recipe>,
    /// How many recipes the list holds in all (every page).
    pub total: u32,
}

/// The user's standing preferences for a plan.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct MealPreferences {
    /// A diet every pick must suit (hard rule).
    pub diet: Option<Diet>,
    /// Ingredients no pick may contain (hard rule): at most 30, each 1 to 40 characters. Matched
    /// case-insensitively inside ingredient names, singular and plural alike (`egg` excludes
    /// `eggs` and `egg yolks`).
    pub excluded_ingredients: Vec<String>,
    /// Preferred longest preparation (soft: ranks, never excludes).
    pub max_prep_minutes: Option<u32>,
    /// Preferred longest cooking (soft: ranks, never excludes).
    pub max_cook_minutes: Option<u32>,
    /// Daily energy target per person in kilocalories, 500 to 10,000 (soft: the fallback ranks
    /// the candidates that keep each day near it first; each day of the result says how far it
    /// is). See `docs/meals.md`, Daily targets.
    #[uniffi(default = None)]
    pub daily_kcal: Option<u32>,
    /// Daily protein target per person in grams, 10 to 500 (soft, like `daily_kcal`).
    #[uniffi(default = None)]
    pub daily_protein_g: Option<u32>,
}

/// Accessors by [`MealType`] for a record with one optional field per meal type.
macro_rules! by_meal_type {
    ($record:ty, $slot:ty) => {
        impl $record {
            /// The slot of type `t`, if present.
            pub fn get(&self, t: MealType) -> Option<&$slot> {
                match t {
                    MealType::Breakfast => self.breakfast.as_ref(),
                    MealType::Lunch => self.lunch.as_ref(),
                    MealType::Dinner => self.dinner.as_ref(),
                    MealType::Snack => self.snack.as_ref(),
                    MealType::Dessert => self.dessert.as_ref(),
                }
            }

            /// Sets the slot of type `t`.
            pub fn set(&mut self, t: MealType, slot: $slot) {
                let place = match t {
                    MealType::Breakfast => &mut self.breakfast,
                    MealType::Lunch => &mut self.lunch,
                    MealType::Dinner => &mut self.dinner,
                    MealType::Snack => &mut self.snack,
                    MealType::Dessert => &mut self.dessert,
                };
                *place = Some(slot);
            }

            /// The present slots in plan order (breakfast, lunch, dinner, snack, dessert).
            pub fn slots(&self) -> Vec<(MealType, &$slot)> {
                MealType::ALL
                    .iter()
                    .filter_map(|t| self.get(*t).map(|s| (*t, s)))
                    .collect()
            }
        }
    };
}

/// One requested meal of a day.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MealSlotRequest {
    /// Portions to cook, 1 to 100.
    pub servings: u32,
    /// Wanted tags; a candidate matching any of them ranks first (at most 10, 1 to 40 characters).
    #[serde(default)]
    pub tags: Vec<String>,
    /// The user's words, e.g. "something easy with rice" (at most 300 characters).
    #[serde(default)]
    pub note: Option<String>,
    /// Whether the user cooks ahead for several days.
    #[serde(default)]
    pub is_meal_prep: bool,
    /// The app's repeat marker, kept as given (at most 40 characters).
    #[serde(default)]
    pub repeat: Option<String>,
    /// A recipe the user chose: search and model are skipped.
    #[serde(default)]
    pub pinned_recipe_id: Option<String>,
}

/// The requested meals of one day, by type (only the five types exist; absent ones are not
/// planned).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct MealsRequest {
    #[allow(missing_docs)]
    pub breakfast: Option<MealSlotRequest>,
    #[allow(missing_docs)]
    pub lunch: Option<MealSlotRequest>,
    #[allow(missing_docs)]
    pub dinner: Option<MealSlotRequest>,
    #[allow(missing_docs)]
    pub snack: Option<MealSlotRequest>,
    #[allow(missing_docs)]
    pub dessert: Option<MealSlotRequest>,
}

by_meal_type!(MealsRequest, MealSlotRequest);

/// One requested day.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DayRequest {
    /// `YYYY-MM-DD`.
    pub date: String,
    /// Its meals (at least one).
    pub meals: MealsRequest,
}

/// A meal-plan request: 1 to 31 days (distinct dates, any order), each with at least one meal.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MealPlanRequest {
    /// The days to plan.
    pub days: Vec<DayRequest>,
    /// Standing preferences.
    #[serde(default)]
    pub preferences: MealPreferences,
    /// How many days of meal history before the first planned day count as recent (default 7,
    /// at most 60).
    #[serde(default)]
    pub recent_days: Option<u32>,
}

/// How a slot's recipe was chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, uniffi::Enum)]
#[serde(rename_all = "camelCase")]
pub enum PickedBy {
    /// The language model ranked the candidates.
    Model,
    /// Code's ranking (the deterministic scoring): the model was not needed (a lone clear
    /// winner, a note code read fully), declined, failed or is absent; the last two add the
    /// warning "Model unavailable: picked by the deterministic fallback".
    Fallback,
    /// The user pinned it.
    Pinned,
    /// A repeat of a meal-prep slot: the same recipe, cooked once there (see
    /// [`Selection::repeat_of`]).
    Repeat,
}

/// A slot of a plan: its date and meal.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase")]
pub struct SlotRef {
    /// `YYYY-MM-DD`.
    pub date: String,
    /// The meal.
    pub meal_type: MealType,
}

/// Another candidate the app may offer instead.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase")]
pub struct Alternative {
    /// Where it lives (`user` or `core`).
    pub source: RecipeSource,
    /// Its id in that source.
    pub recipe_id: String,
    /// Its title.
    pub title: String,
    /// 0 to 1.
    pub confidence: f64,
    /// Why it fits, in a few words (the model's, or the fallback's).
    pub reason: Option<String>,
    /// The slot's tags it carries.
    pub matched_tags: Vec<String>,
}

/// The recipe chosen for a slot.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase")]
pub struct Selection {
    /// Where to fetch it from: a core pick is staged, so `stage` (or `user`).
    pub source: RecipeSource,
    /// Its id in that source.
    pub recipe_id: String,
    /// Its title.
    pub title: String,
    /// 0 to 1.
    pub confidence: f64,
    /// Why it fits (the model's reason, or the fallback's).
    pub reason: Option<String>,
    /// How it was chosen.
    pub picked_by: PickedBy,
    /// The slot's tags it carries.
    pub matched_tags: Vec<String>,
    /// Things the user should know: variety (a repeat, the same protein as the day before), the
    /// model being unavailable, a pinned recipe breaking a preference, the model's own warnings.
    pub warnings: Vec<String>,
    /// Up to 2 other candidates, best first.
    pub alternatives: Vec<Alternative>,
    /// For a repeat (`pickedBy: repeat`): the meal-prep slot that cooks it. Its ingredients are
    /// bought and its servings cooked there: a shopping list counts a repeat's recipe once, at
    /// the prep slot's servings.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[uniffi(default = None)]
    pub repeat_of: Option<SlotRef>,
    /// The recipe's ingredients scaled to the slot's servings, in the recipe's order, with units
    /// kept readable (spoons and cups to the nearest 1/4, grams and millilitres to whole numbers,
    /// counts to the nearest half; see `meals::units`). For a repeat: what this slot eats of the
    /// prep slot's batch (the prep slot's list already holds it: buy from that one).
    #[serde(default)]
    #[uniffi(default = [])]
    pub ingredients: Vec<Ingredient>,
    /// The slot's nutrition, when the recipe has nutrition.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[uniffi(default = None)]
    pub nutrition: Option<SlotNutrition>,
}

/// The nutrition of a slot's meal.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase")]
pub struct SlotNutrition {
    /// One serving (what one person eats), as the recipe gives it.
    pub per_serving: Nutrition,
    /// The slot's servings together (kcal rounded to whole numbers, grams to 0.1).
    pub total: Nutrition,
}

/// How far a day (or a plan's daily average) is from a daily target.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase")]
pub struct TargetGap {
    /// The target, per person.
    pub target: f64,
    /// What the meals give minus the target (negative: under), per person.
    pub difference: f64,
    /// `difference` as a percentage of the target, to 0.1.
    pub percent: f64,
}

/// How far a day (or a plan's daily average) is from the daily targets that are set.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase")]
pub struct TargetGaps {
    /// Against `dailyKcal`, when set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[uniffi(default = None)]
    pub kcal: Option<TargetGap>,
    /// Against `dailyProteinG`, when set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[uniffi(default = None)]
    pub protein_g: Option<TargetGap>,
}

/// A planned day's nutrition per person: the sum of one serving of each of its meals that has
/// nutrition.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase")]
pub struct DayNutrition {
    /// The sum (kcal rounded to whole numbers, grams to 0.1).
    pub per_person: Nutrition,
    /// The day's meals left out of the sum: no selection, or a recipe without nutrition. Empty
    /// when the sum covers the whole day.
    pub meals_without_nutrition: Vec<MealType>,
    /// How far `perPerson` is from the preferences' daily targets, when any is set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[uniffi(default = None)]
    pub vs_targets: Option<TargetGaps>,
}

/// A plan's nutrition per person, over the days that carry nutrition.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase")]
pub struct PlanNutrition {
    /// Days with nutrition (those whose `nutrition` is set).
    pub days_counted: u32,
    /// Meals of the plan left out of the sums (no selection, or no nutrition).
    pub meals_without_nutrition: u32,
    /// The sum over the counted days.
    pub per_person: Nutrition,
    /// `perPerson` divided by `daysCounted`.
    pub daily_average: Nutrition,
    /// How far `dailyAverage` is from the preferences' daily targets, when any is set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[uniffi(default = None)]
    pub vs_targets: Option<TargetGaps>,
}

/// Why a slot has no selection.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, uniffi::Enum)]
#[serde(rename_all = "camelCase")]
pub enum SlotFailureCode {
    /// No recipe passed the meal type, diet and excluded ingredients (the note's refusals and
    /// diet included).
    NoCandidates,
    /// The note's refused words (`no sweets`) rule out every candidate.
    NoFit,
    /// The pinned recipe does not exist.
    PinnedNotFound,
}

/// A slot that could not be filled (it never fails the job).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase")]
pub struct SlotFailure {
    /// Why.
    pub code: SlotFailureCode,
    /// What to tell the user.
    pub message: String,
}

/// A planned meal: the request's slot settings and the selection.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase")]
pub struct PlannedSlot {
    /// As requested.
    pub servings: u32,
    /// As requested.
    pub tags: Vec<String>,
    /// As requested.
    pub note: Option<String>,
    /// As requested.
    pub is_meal_prep: bool,
    /// As requested.
    pub repeat: Option<String>,
    /// The chosen recipe; `None` when the slot could not be filled (see `failure`).
    pub selection: Option<Selection>,
    /// Why `selection` is `None`.
    pub failure: Option<SlotFailure>,
}

/// The planned meals of a day, in the order breakfast, lunch, dinner, snack, dessert.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase")]
pub struct PlannedMeals {
    #[allow(missing_docs)]
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub breakfast: Option<PlannedSlot>,
    #[allow(missing_docs)]
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub lunch: Option<PlannedSlot>,
    #[allow(missing_docs)]
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub dinner: Option<PlannedSlot>,
    #[allow(missing_docs)]
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub snack: Option<PlannedSlot>,
    #[allow(missing_docs)]
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub dessert: Option<PlannedSlot>,
}

by_meal_type!(PlannedMeals, PlannedSlot);

/// A planned day.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase")]
pub struct PlannedDay {
    /// `YYYY-MM-DD`.
    pub date: String,
    /// Its meals.
    pub meals: PlannedMeals,
    /// The day's nutrition per person; `None` when none of its meals has nutrition.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[uniffi(default = None)]
    pub nutrition: Option<DayNutrition>,
}

/// The computed plan (never the request echoed).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase")]
pub struct MealPlanResult {
    /// The days in date order.
    pub days: Vec<PlannedDay>,
    /// How many slots ended with no selection.
    pub slot_failures_count: u32,
    /// The plan's nutrition per person (totals and daily averages); `None` when no day has
    /// nutrition.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[uniffi(default = None)]
    pub nutrition: Option<PlanNutrition>,
}

/// A job's state, as stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, uniffi::Enum)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum JobStatus {
    /// Created, not started yet.
    Pending,
    /// A runner is working on it (in this process, or in another one on the same file).
    Running,
    /// Finished: `result` holds the plan (possibly with failed slots).
    Complete,
    /// Stopped: `errorCode` says why (`cancelled`, `interrupted`, `internal`, `storage`).
    Failed,
}

impl JobStatus {
    /// The stored spelling, e.g. `RUNNING`.
    pub fn as_str(self) -> &'static str {
        match self {
            JobStatus::Pending => "PENDING",
            JobStatus::Running => "RUNNING",
            JobStatus::Complete => "COMPLETE",
            JobStatus::Failed => "FAILED",
        }
    }
}

/// A meal-plan job: the envelope of spec 003.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase")]
pub struct MealPlanJob {
    /// The job id.
    pub id: String,
    /// Where it stands.
    pub status: JobStatus,
    /// The plan, once `COMPLETE`.
    pub result: Option<MealPlanResult>,
    /// Why it failed: `cancelled`, `interrupted` (its process ended while it ran), `internal` or
    /// `storage`.
    pub error_code: Option<String>,
    /// A short description of the failure.
    pub error_message: Option<String>,
    /// Slots done so far.
    pub processed_slots: u32,
    /// Slots requested.
    pub total_slots: u32,
    /// When it was created (ms since the Unix epoch).
    pub created_ms: i64,
    /// When it last changed.
    pub updated_ms: i64,
}

/// How a finished plan went.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, uniffi::Enum)]
#[serde(rename_all = "camelCase")]
pub enum PlanOutcome {
    /// Every slot has a selection.
    Completed,
    /// Some slots have none (`slotFailuresCount` > 0).
    Partial,
}

/// An event of a running meal-plan job: `progress` after each slot, then `completed` or `failed`
/// last.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, uniffi::Enum)]
#[serde(
    tag = "event",
    rename_all = "lowercase",
    rename_all_fields = "camelCase"
)]
pub enum MealPlanEvent {
    /// A slot is done.
    Progress {
        /// Slots done so far.
        processed_slots: u32,
        /// Slots requested.
        total_slots: u32,
    },
    /// The job finished with a plan.
    Completed {
        /// `completed`, or `partial` when some slots have no selection.
        status: PlanOutcome,
        /// Slots without a selection.
        slot_failures_count: u32,
        /// The plan.
        result: MealPlanResult,
    },
    /// The job stopped without a plan.
    Failed {
        /// `cancelled`, `interrupted`, `internal` or `storage`.
        error_code: String,
        /// A short description.
        message: String,
    },
}

/// A meal the user ate (or will eat), for variety: from a confirmed plan or logged alone.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase")]
pub struct MealHistoryEntry {
    /// `YYYY-MM-DD`.
    pub date: String,
    /// Which meal.
    pub meal_type: MealType,
    /// The recipe (for a staged copy, the core recipe it copies).
    pub recipe_id: String,
    /// The recipe's title when it was recorded.
    pub title: String,
    /// The recipe's tags when it was recorded.
    pub tags: Vec<String>,
    /// Its primary protein (`chicken`, `beef`, `tofu`, ...), if one is known.
    pub protein: Option<String>,
}

/// A single meal to record in the history ([`crate::Meals::log`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MealLog {
    /// `YYYY-MM-DD`.
    pub date: String,
    /// Which meal.
    pub meal_type: MealType,
    /// The recipe eaten (any source).
    pub recipe_id: String,
}
