//! The vocabulary of the workout flow (spec 001): the app's [`WorkoutRequest`] (camelCase JSON),
//! the analyzer's [`AnalyzerPlan`] and the [`Workout`] v1.2 document (snake_case, the names of
//! `schemas/analyzer-v1.json` and `schemas/workout-v1.2.json`), the result, stage events and the
//! errors. Pure data: serde for JSON and YAML, UniFFI for Swift, Kotlin and Python.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

pub use crate::kernel::units::WeightUnit;

/// What the session should train for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, uniffi::Enum)]
#[serde(rename_all = "lowercase")]
pub enum Goal {
    /// Heavy, low reps, long rests.
    Strength,
    /// Moderate loads, 6 to 15 reps.
    Hypertrophy,
    /// Light loads, high reps, short rests.
    Endurance,
    /// A balanced session.
    General,
}

impl Goal {
    /// The snake_case spelling of the documents.
    pub fn as_str(self) -> &'static str {
        match self {
            Goal::Strength => "strength",
            Goal::Hypertrophy => "hypertrophy",
            Goal::Endurance => "endurance",
            Goal::General => "general",
        }
    }
}

/// The session's frame: when, where, in which unit, how long, for what.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct WorkoutMeta {
    /// The user's local date of the session, `YYYY-MM-DD`.
    pub date: String,
    /// Free text such as `gym:downtown` (at most 80 characters); its kebab form goes into the
    /// workout id.
    pub location: String,
    /// Unit of every weight in the request's equipment keys and in the workout.
    pub units: WeightUnit,
    /// Minutes available, 10 to 180.
    pub duration_minutes: u32,
    /// What the session trains for.
    pub goal: Goal,
}

/// One recent cardio activity, as from Strava.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CardioActivity {
    /// Its local date, `YYYY-MM-DD`.
    pub date: String,
    /// Kind of activity (`run`, `ride`, ...), at most 40 characters.
    #[serde(rename = "type")]
    pub activity_type: String,
    /// Duration in minutes, at most 1440.
    pub duration_minutes: u32,
    /// Strava's Relative Effort score (0 to 1000); absent: one point per minute is assumed.
    #[serde(default)]
    pub relative_effort: Option<u32>,
}

/// Recovery signals from a wearable, each 0 to 100.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct Recovery {
    /// Sleep score (Garmin, Fitbit, ...).
    pub sleep_score: Option<u32>,
    /// Garmin Body Battery or a similar energy score.
    pub body_battery: Option<u32>,
}

/// Everything the app knows about today's session. Bounds (checked before anything else; errors
/// name the field): instructions and history text at most 20,000 characters, at most 100 bans, 100
/// equipment keys and 60 cardio activities; upcoming cardio at most 2,000 characters.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct WorkoutRequest {
    /// Date, location, units, duration and goal.
    pub meta: WorkoutMeta,
    /// The user's own text: program notes, injuries, preferences. The library reads from it
    /// (English) the session's focus (a session type such as "push day", body parts and muscle
    /// groups such as "chest and tris", an exercise named as the focus such as "bench day"),
    /// exercises asked for or refused ("no squats", "skip deadlifts"), body parts to spare ("my
    /// lower back is tweaked": no hinges) and equipment refused or named ("no barbell", "just
    /// dumbbells"); lines of the form `no <exercise id>`, `avoid <exercise id>` or
    /// `ban <exercise id or equipment key>` are bans too. The model sees the whole text.
    #[serde(default)]
    pub instructions: String,
    /// Exercise ids or equipment keys to exclude.
    #[serde(default)]
    pub bans: Vec<String>,
    /// The equipment inventory keys available (e.g. `eq_dumbbells_set_5-50`); body weight is
    /// always available.
    #[serde(default)]
    pub equipment: Vec<String>,
    /// Recent cardio, newest or oldest first.
    #[serde(default)]
    pub recent_cardio: Vec<CardioActivity>,
    /// Planned cardio of the next days, free text (goes to the model).
    #[serde(default)]
    pub upcoming_cardio: String,
    /// Recovery signals, if the app has them.
    #[serde(default)]
    pub recovery: Option<Recovery>,
    /// Raw history the app pastes (goes to the model; the logged sessions are read from the
    /// database).
    #[serde(default)]
    pub history_text: Option<String>,
    /// Days a week the user trains, 1 to 7, if the app knows. A session whose instructions name
    /// no focus then follows a split: full body for 1 to 3 days, upper and lower in turn for 4,
    /// push, pull and legs in turn for 5 to 7, after the logged sessions and balanced over the
    /// last 7 days (`workouts().week` shows the choice and why). `None`: full body.
    #[serde(default)]
    #[uniffi(default = None)]
    pub days_per_week: Option<u32>,
}

/// The tier of an exercise in the analyzer plan.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, uniffi::Enum,
)]
pub enum PlanTier {
    /// Must do: the main lifts.
    A,
    /// Should do.
    B,
    /// Nice to do: cut first.
    C,
}

/// The tier of a set in the workout: `W` (warm-up) first, then A, B, C.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, uniffi::Enum,
)]
pub enum SetTier {
    /// Warm-up.
    W,
    /// Must do.
    A,
    /// Should do.
    B,
    /// Nice to do.
    C,
}

impl SetTier {
    /// The letter.
    pub fn letter(self) -> &'static str {
        match self {
            SetTier::W => "W",
            SetTier::A => "A",
            SetTier::B => "B",
            SetTier::C => "C",
        }
    }
}

impl From<PlanTier> for SetTier {
    fn from(t: PlanTier) -> Self {
        match t {
            PlanTier::A => SetTier::A,
            PlanTier::B => SetTier::B,
            PlanTier::C => SetTier::C,
        }
    }
}

/// The session split the analyzer chose.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, uniffi::Enum)]
#[serde(rename_all = "snake_case")]
pub enum SessionType {
    #[allow(missing_docs)]
    FullBody,
    #[allow(missing_docs)]
    Upper,
    #[allow(missing_docs)]
    Lower,
    #[allow(missing_docs)]
    Push,
    #[allow(missing_docs)]
    Pull,
    #[allow(missing_docs)]
    Legs,
}

/// The analyzer's `meta` (snake_case, as the schema).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, uniffi::Record)]
#[serde(deny_unknown_fields)]
pub struct PlanMeta {
    /// `YYYY-MM-DD`.
    pub date: String,
    /// The request's location.
    pub location: String,
    /// `lbs` or `kg`.
    pub units: WeightUnit,
    /// 10 to 180.
    pub duration_minutes: u32,
    /// The goal.
    pub goal: Goal,
}

/// How the first Tier A compound is warmed up.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, uniffi::Record)]
#[serde(deny_unknown_fields)]
pub struct WarmupPolicy {
    /// Ramp sets, 0 to 4.
    pub ramp_sets: u32,
    /// Always `first_tier_a_compound`.
    pub applies_to: String,
}

/// The plan's tier settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, uniffi::Record)]
#[serde(deny_unknown_fields)]
pub struct PlanTiers {
    /// The warm-up ramp.
    pub warmup_policy: WarmupPolicy,
}

/// Fatigue gating: reps in reserve added to every working set, and the load cap factor.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, uniffi::Record)]
#[serde(deny_unknown_fields)]
pub struct FatiguePolicy {
    /// Added to every working set's RIR (at most 4 after the shift), 0 to 2.
    pub rir_shift: u32,
    /// Today's loads at most this factor of the working load (the load progression continues
    /// from: the last session's, unless that was a lighter day), 0.8 to 1.05.
    pub load_cap_pct: f64,
}

/// What fits the session's minutes.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, uniffi::Record)]
#[serde(deny_unknown_fields)]
pub struct TimeBudget {
    /// The request's minutes.
    pub duration_minutes: u32,
    /// Working sets that fit (see `timebox.rs`).
    pub max_working_sets: u32,
}

/// An exercise's targets.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, uniffi::Record)]
#[serde(deny_unknown_fields)]
pub struct PlanTargets {
    /// `8-12`, `5` or `20/side`.
    pub rep_range: String,
    /// Reps in reserve before the fatigue shift, 0 to 4.
    pub rir: u32,
    /// Working load before the cap (request unit); `None`: chosen by feel (no history).
    pub target_load: Option<f64>,
    /// Most load allowed today; `None` without history.
    pub load_cap: Option<f64>,
}

/// One exercise of the plan.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, uniffi::Record)]
#[serde(deny_unknown_fields)]
pub struct PlannedExercise {
    /// A, B or C.
    pub tier: PlanTier,
    /// Exercise id from today's allowed list.
    pub exercise: String,
    /// The equipment used (an inventory key or `bodyweight`).
    pub equipment: String,
    /// Superset label `S1`..`S9`, or none.
    pub superset: Option<String>,
    /// Warm-up sets (only the first Tier A compound gets a ramp), 0 to 4.
    pub warmups: u32,
    /// Working sets, 1 to 8.
    pub working_sets: u32,
    /// Rest after each set, 0 to 600 s.
    pub rest_s: u32,
    /// Reps, RIR and loads.
    pub targets: PlanTargets,
    /// Short notes.
    pub notes: String,
}

/// The analyzer's output (`schemas/analyzer-v1.json`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, uniffi::Record)]
#[serde(deny_unknown_fields)]
pub struct AnalyzerPlan {
    /// From the request.
    pub meta: PlanMeta,
    /// The split.
    pub session_type: SessionType,
    /// Warm-up policy.
    pub tiers: PlanTiers,
    /// Fatigue gating.
    pub fatigue_policy: FatiguePolicy,
    /// Time budget.
    pub time_budget: TimeBudget,
    /// The exercises, in order.
    pub exercise_plan: Vec<PlannedExercise>,
    /// Notes for the user.
    pub notes: String,
}

/// A set's target reps: a count, a range `8-12`, or per side `20/side`.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Enum)]
pub enum TargetReps {
    /// A rep count (an integer in the document).
    Count {
        /// The reps.
        value: u32,
    },
    /// `8-12` or `20/side` (a string in the document).
    Text {
        /// The text.
        value: String,
    },
}

impl Serialize for TargetReps {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            TargetReps::Count { value } => s.serialize_u32(*value),
            TargetReps::Text { value } => s.serialize_str(value),
        }
    }
}

impl<'de> Deserialize<'de> for TargetReps {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            N(u32),
            S(String),
        }
        Ok(match Raw::deserialize(d)? {
            Raw::N(value) => TargetReps::Count { value },
            Raw::S(value) => TargetReps::Text { value },
        })
    }
}

/// One set of the workout: planned targets, and the actual values the user logs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, uniffi::Record)]
#[serde(deny_unknown_fields)]
pub struct WorkoutSet {
    /// `<TIER>-<SLUG>-(WU#|#)`, e.g. `A-BB-BACK-SQUAT-1`, `W-BB-BACK-SQUAT-WU2`.
    pub id: String,
    /// W, A, B or C.
    pub tier: SetTier,
    /// True for W and A.
    pub must: bool,
    /// Superset label, or none.
    pub superset: Option<String>,
    /// Position in the session, from 1.
    pub order: u32,
    /// Exercise id.
    pub exercise: String,
    /// Equipment used.
    pub equipment: String,
    /// Target reps.
    pub target_reps: TargetReps,
    /// Target load (request unit), rounded to loadable plates; `None`: by feel.
    pub target_weight: Option<f64>,
    /// Reps in reserve, 0 to 4.
    pub rir: u32,
    /// Rest after the set, 0 to 600 s.
    pub rest_s: u32,
    /// What the user lifted (null until logged).
    pub actual_weight: Option<f64>,
    /// Reps the user did (null until logged).
    pub actual_reps: Option<u32>,
    /// Short notes.
    pub notes: String,
}

/// The user's feedback after the session.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, uniffi::Record)]
#[serde(deny_unknown_fields)]
pub struct PostWorkout {
    /// 1 to 10.
    pub perceived_difficulty: Option<u32>,
    /// Minutes the session took.
    pub completion_time_minutes: Option<u32>,
    /// Free text.
    pub notes: Option<String>,
}

/// The `version` of every Workout document: the number 1.2, as the original app of spec 001
/// writes it.
pub const WORKOUT_VERSION: f64 = 1.2;

/// The Workout v1.2 document (`schemas/workout-v1.2.json`), in the shape the original app of
/// spec 001 reads and writes. Documents the library wrote in its earlier form (`version` the
/// string `"1.2"`, `cut_order` set ids) are read in this shape (see `document::upgrade`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, uniffi::Record)]
#[serde(deny_unknown_fields)]
pub struct Workout {
    /// Always the number 1.2 ([`WORKOUT_VERSION`]).
    pub version: f64,
    /// `YYYY-MM-DD-<kebab-location>-NN`.
    pub workout_id: String,
    /// `YYYY-MM-DD`.
    pub date: String,
    /// Location.
    pub location: String,
    /// `lbs` or `kg`.
    pub units: WeightUnit,
    /// Minutes planned.
    pub duration_minutes: u32,
    /// The goal.
    pub goal: Goal,
    /// The tiers to drop when time runs short, in order: `["C", "B"]` drops the C sets first,
    /// then the B sets. Only `B` and `C` (W and A are never cut), each one a tier the workout has
    /// sets of, C before B; empty when nothing can be cut.
    pub cut_order: Vec<String>,
    /// A note for the user.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notes_to_user: Option<String>,
    /// One node per set, in order.
    pub sets: Vec<WorkoutSet>,
    /// Filled by the user after the session.
    pub post_workout: PostWorkout,
}

/// Which path made a workout.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, uniffi::Enum)]
#[serde(rename_all = "lowercase")]
pub enum WorkoutSource {
    /// The model's analyzer plan and the model's document (validated).
    Model,
    /// The deterministic analyzer and/or generator (no model, or the model failed validation).
    Deterministic,
}

/// A generated workout.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase")]
pub struct WorkoutResult {
    /// `model` when the model wrote the document, else `deterministic`.
    pub source: WorkoutSource,
    /// The plan the document renders.
    pub analyzer: AnalyzerPlan,
    /// The document.
    pub workout: Workout,
    /// The document as YAML.
    pub yaml: String,
}

/// A stage of the flow, for events and errors.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, uniffi::Enum)]
#[serde(rename_all = "snake_case")]
pub enum WorkoutStage {
    /// Deterministic facts from the history and the request.
    PreAnalysis,
    /// The analyzer's first answer.
    Analyzer,
    /// An analyzer repair.
    AnalyzerRepair,
    /// The generator's first answer.
    Generator,
    /// A generator repair.
    GeneratorRepair,
    /// Finished (also after an error or a cancellation).
    Done,
}

/// A saved workout in a list.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase")]
pub struct WorkoutSummary {
    /// The workout id.
    pub workout_id: String,
    /// `YYYY-MM-DD`.
    pub date: String,
    /// Location.
    pub location: String,
    /// Which path made it.
    pub source: WorkoutSource,
    /// Number of sets.
    pub set_count: u32,
    /// Whether actual values were logged.
    pub logged: bool,
    /// When it was saved.
    pub created_at_ms: i64,
}

/// The actual values of one set, for [`workouts().log`](crate::Workouts::log).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SetActual {
    /// The set id in the workout.
    pub set_id: String,
    /// Load lifted (the workout's unit), 0 to 2000; 0 for body weight.
    pub actual_weight: f64,
    /// Reps done, 0 to 1000 (0: skipped).
    pub actual_reps: u32,
}

/// What the user did in a saved workout.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct WorkoutLog {
    /// The saved workout.
    pub workout_id: String,
    /// When it was performed (ms since the epoch).
    pub performed_at_ms: i64,
    /// The sets done; sets not listed were skipped.
    pub sets: Vec<SetActual>,
    /// Feedback.
    #[serde(default)]
    pub post_workout: Option<PostWorkout>,
}

impl WorkoutLog {
    /// What a performed Workout v1.2 document says was done, as [`workouts().log`] takes it: each
    /// set with `actual_reps` filled was done (`actual_weight` null with it: body weight, 0), a
    /// set whose `actual_reps` is null was not; the document's `post_workout` when it holds
    /// anything. `performed_at_ms` `None`: noon UTC of the document's date. `InvalidArgument` at
    /// the set's path for a weight without reps.
    ///
    /// [`workouts().log`]: crate::Workouts::log
    pub fn from_document(
        w: &Workout,
        performed_at_ms: Option<i64>,
    ) -> crate::kernel::error::Result<WorkoutLog> {
        let mut sets = Vec::new();
        for (i, s) in w.sets.iter().enumerate() {
            match (s.actual_weight, s.actual_reps) {
                (weight, Some(reps)) => sets.push(SetActual {
                    set_id: s.id.clone(),
                    actual_weight: weight.unwrap_or(0.0),
                    actual_reps: reps,
                }),
                (Some(_), None) => {
                    return Err(crate::kernel::error::Error::InvalidArgument(format!(
                        "workout.sets[{i}].actual_reps: null while actual_weight is given"
                    )))
                }
                (None, None) => {}
            }
        }
        let noon = || {
            crate::kernel::date::Date::parse(&w.date)
                .map_or(0, |d| d.days_since_epoch() * 86_400_000 + 43_200_000)
        };
        let p = &w.post_workout;
        let feedback = p.perceived_difficulty.is_some()
            || p.completion_time_minutes.is_some()
            || p.notes.is_some();
        Ok(WorkoutLog {
            workout_id: w.workout_id.clone(),
            performed_at_ms: performed_at_ms.unwrap_or_else(noon),
            sets,
            post_workout: feedback.then(|| p.clone()),
        })
    }
}

/// A progress event of [`workouts().generate`](crate::Workouts::generate).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase")]
pub struct WorkoutEvent {
    /// The stage that starts (or `done`).
    pub stage: WorkoutStage,
    /// The model call within the stage, from 1 (repairs count on); 0 for stages without one.
    pub attempt: u32,
}

/// Limits of the model stages of a workout generation. Every field has a default; out of bounds
/// the generation fails with `InvalidArgument` naming the field.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct WorkoutSettings {
    /// Wall-clock budget of the analyzer stage, repairs included, in ms (1 to 600000; default
    /// 90000). Past it the generation throws `TimedOut` with stage `analyzer`.
    #[uniffi(default = 90000)]
    pub analyzer_timeout_ms: u64,
    /// Wall-clock budget of the generator stage, repairs included, in ms (1 to 600000; default
    /// 60000). Past it the generation throws `TimedOut` with stage `generator`.
    #[uniffi(default = 60000)]
    pub generator_timeout_ms: u64,
    /// Model calls per stage, the first and its repairs (1 to 5; default 3).
    #[uniffi(default = 3)]
    pub max_attempts: u32,
    /// Use the deterministic plan when the analyzer's answers stay invalid (default: fail with
    /// `ModelOutputRejected`).
    #[uniffi(default = false)]
    pub analyzer_fallback: bool,
    /// Token limit of an analyzer answer (64 to 4096; default 384).
    #[uniffi(default = 384)]
    pub analyzer_max_tokens: u32,
    /// Token limit of a generator answer (64 to 4096; default 512).
    #[uniffi(default = 512)]
    pub generator_max_tokens: u32,
}

impl Default for WorkoutSettings {
    fn default() -> Self {
        WorkoutSettings {
            analyzer_timeout_ms: 90_000,
            generator_timeout_ms: 60_000,
            max_attempts: 3,
            analyzer_fallback: false,
            analyzer_max_tokens: 384,
            generator_max_tokens: 512,
        }
    }
}

impl WorkoutSettings {
    /// The bounds of every field (see the fields).
    pub fn check(&self) -> crate::kernel::error::Result<()> {
        let bad = |field: &str, range: &str| {
            Err(crate::kernel::error::Error::InvalidArgument(format!(
                "settings.{field}: {range}"
            )))
        };
        if !(1..=600_000).contains(&self.analyzer_timeout_ms) {
            return bad("analyzerTimeoutMs", "1 to 600000");
        }
        if !(1..=600_000).contains(&self.generator_timeout_ms) {
            return bad("generatorTimeoutMs", "1 to 600000");
        }
        if !(1..=5).contains(&self.max_attempts) {
            return bad("maxAttempts", "1 to 5");
        }
        if !(64..=4096).contains(&self.analyzer_max_tokens) {
            return bad("analyzerMaxTokens", "64 to 4096");
        }
        if !(64..=4096).contains(&self.generator_max_tokens) {
            return bad("generatorMaxTokens", "64 to 4096");
        }
        Ok(())
    }
}
