//! The vocabulary of spec 004: plans and their per-set prescriptions, logged workouts, cached
//! history, and the [`PrescriptionChange`] a suggestion becomes. Pure data: serde for JSON (the CLI
//! and the C API) and UniFFI for Swift, Kotlin and Python.
//!
//! Weights are in the plan's [`WeightUnit`]; the engine's thresholds are stated in pounds and
//! converted for kg plans. Times are milliseconds since the Unix epoch.

use serde::{Deserialize, Serialize};

pub use crate::kernel::units::WeightUnit;

/// The role of a set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, uniffi::Enum)]
#[serde(rename_all = "camelCase")]
pub enum SetType {
    /// A working set: counts for progression.
    Regular,
    /// A lighter preparation set.
    Warmup,
    /// A set right after a working set with the weight reduced.
    Drop,
}

/// How an exercise's reps are prescribed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, uniffi::Enum)]
#[serde(rename_all = "camelCase")]
pub enum RepRangeMode {
    /// No rep goal yet; the engine may infer one.
    NotSet,
    /// Between `lower` and `upper` reps.
    Range,
    /// Exactly `target` reps.
    Target,
}

/// An exercise's rep goal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase")]
pub struct RepRange {
    /// Which of the bounds below apply.
    pub mode: RepRangeMode,
    /// Lowest acceptable reps in range mode.
    pub lower: u32,
    /// Highest reps before adding weight, in range mode.
    pub upper: u32,
    /// The rep goal in target mode.
    pub target: u32,
}

/// Whether every set of an exercise shares one rest time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, uniffi::Enum)]
#[serde(rename_all = "camelCase")]
pub enum RestMode {
    /// One rest time for the exercise (`ExercisePrescription::rest_seconds`).
    AllSame,
    /// Each set has its own rest time (`SetPrescription::rest_seconds`).
    PerSet,
}

/// How the user arranges working sets; used to pick progression sets when none is marked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, uniffi::Enum)]
#[serde(rename_all = "camelCase")]
pub enum TrainingStyle {
    /// The heaviest set comes first, then back-off sets.
    HeaviestFirst,
    /// All working sets at one weight.
    StraightSets,
    /// Weight rises set by set.
    Pyramid,
    /// Not known.
    Unknown,
}

/// Equipment an exercise uses; decides which loads are achievable.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, uniffi::Enum)]
#[serde(rename_all = "camelCase")]
pub enum Equipment {
    /// Loaded with plates on both sides of a bar.
    Barbell,
    /// A pair of fixed dumbbells.
    Dumbbell,
    /// Weight stack machine.
    Machine,
    /// Cable stack.
    Cable,
    /// Kettlebell.
    Kettlebell,
    /// Body weight (added load, if any, in plates).
    Bodyweight,
    /// Anything else.
    Other,
}

/// Muscles, for choosing a weight increment (spec 004 metrics).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, uniffi::Enum)]
#[serde(rename_all = "camelCase")]
pub enum Muscle {
    #[allow(missing_docs)]
    Quads,
    #[allow(missing_docs)]
    Hamstrings,
    #[allow(missing_docs)]
    Glutes,
    #[allow(missing_docs)]
    Calves,
    #[allow(missing_docs)]
    Forearms,
    #[allow(missing_docs)]
    Wrists,
    #[allow(missing_docs)]
    RotatorCuff,
    #[allow(missing_docs)]
    Chest,
    #[allow(missing_docs)]
    Back,
    #[allow(missing_docs)]
    Lats,
    #[allow(missing_docs)]
    Shoulders,
    #[allow(missing_docs)]
    Biceps,
    #[allow(missing_docs)]
    Triceps,
    #[allow(missing_docs)]
    Traps,
    #[allow(missing_docs)]
    Abs,
    /// Any other muscle.
    Other,
}

/// An exercise of the catalog.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase")]
pub struct CatalogExercise {
    /// Stable id, shared by every plan and workout that uses the exercise.
    pub catalog_id: String,
    /// Display name.
    pub name: String,
    /// Equipment it uses.
    pub equipment: Equipment,
    /// Target muscles, the primary one first.
    pub target_muscles: Vec<Muscle>,
}

/// The loads the user can actually make; empty lists mean "round to 2.5 lb (or its kg
/// equivalent)". `savePlan` and `evaluateExercise` refuse impossible values with
/// `InvalidArgument` (limits below, in the plan unit; every number finite).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase", default)]
pub struct LoadConfig {
    /// Plate weights the user owns, one entry per size, loaded in pairs (plan unit): at most 32
    /// sizes, each above 0 and at most 100.
    pub plates: Vec<f64>,
    /// Empty bar weight for barbell exercises (plan unit), 0 to 100; 0 means 45 lb / 20 kg.
    pub bar_weight: f64,
    /// Dumbbell weights the user owns (plan unit): at most 200 sizes, each above 0 and at most
    /// 500.
    pub dumbbells: Vec<f64>,
}

/// One set as planned.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase")]
pub struct SetPrescription {
    /// Position in the exercise, from 0.
    pub index: u32,
    /// Planned role of the set.
    pub set_type: SetType,
    /// Planned weight (plan unit); 0 for body weight.
    pub target_weight: f64,
    /// Planned reps (per set; the exercise's rep range sets the goal), at most 1000.
    pub target_reps: u32,
    /// Planned rest after the set, in seconds (used in per-set rest mode), at most 3600.
    pub rest_seconds: u32,
}

/// One exercise of a plan, with its sets.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase")]
pub struct ExercisePrescription {
    /// Id of this exercise within its plan.
    pub id: String,
    /// Which catalog exercise it is.
    pub catalog_id: String,
    /// Position in the plan, from 0.
    pub position: u32,
    /// The rep goal.
    pub rep_range: RepRange,
    /// One rest time for all sets, or one per set.
    pub rest_mode: RestMode,
    /// Rest between sets in all-same mode, in seconds, at most 3600.
    pub rest_seconds: u32,
    /// The sets, by index.
    pub sets: Vec<SetPrescription>,
}

/// The plan-level settings the engine needs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase")]
pub struct PlanSettings {
    /// The plan's id.
    pub plan_id: String,
    /// Unit of every weight in the plan.
    pub unit: WeightUnit,
    /// How the user arranges working sets.
    pub training_style: TrainingStyle,
    /// Achievable loads.
    pub load: LoadConfig,
}

/// One set as performed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase")]
pub struct PerformedSet {
    /// Position in the exercise, from 0 (matches `SetPrescription::index`).
    pub index: u32,
    /// The role the user logged.
    pub set_type: SetType,
    /// Weight used, in the unit of the session's plan when it was logged (pounds for a session
    /// without a plan). Performances read back for a context are converted to the plan's unit.
    pub weight: f64,
    /// Reps done.
    pub reps: u32,
    /// Rest taken before the next set, in seconds, if the app timed it.
    pub rest_seconds: Option<u32>,
    /// Whether the user marked the set done.
    pub completed: bool,
}

/// One exercise as performed in one workout session.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase")]
pub struct ExercisePerformance {
    /// Id of this performance.
    pub id: String,
    /// The session it belongs to.
    pub session_id: String,
    /// Which catalog exercise.
    pub catalog_id: String,
    /// When the session was performed.
    pub performed_at_ms: i64,
    /// The sets, by index.
    pub sets: Vec<PerformedSet>,
}

/// Direction of an exercise's estimated one-rep max over recent sessions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, uniffi::Enum)]
#[serde(rename_all = "camelCase")]
pub enum Trend {
    /// Rising by more than 2%.
    Improving,
    /// Within ±2%.
    Stable,
    /// Falling by more than 2%.
    Declining,
    /// Fewer than 3 sessions with an e1RM.
    Unknown,
}

/// Cached summary of an exercise's whole history. Its e1RMs are in the unit the reader asked for
/// (the plan's unit in a suggestion context; pounds from `Coach.workouts().history` unless a unit is
/// given): the cache itself keeps pounds, whatever unit each workout was logged in.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase")]
pub struct ExerciseHistory {
    /// Which catalog exercise.
    pub catalog_id: String,
    /// Sessions in which the exercise was completed (at least one set done), counted from the
    /// stored workouts.
    pub session_count: u32,
    /// Typical reps of working sets: 25th percentile (0 when unknown).
    pub typical_lower_reps: u32,
    /// Typical reps of working sets: 75th percentile (0 when unknown).
    pub typical_upper_reps: u32,
    /// Best session e1RM ever (Epley).
    pub best_e1rm: f64,
    /// e1RM of the latest session.
    pub last_e1rm: f64,
    /// Direction over the last 3 sessions.
    pub trend: Trend,
    /// When the summary was computed.
    pub updated_at_ms: i64,
}

/// Where a suggestion came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, uniffi::Enum)]
#[serde(rename_all = "camelCase")]
pub enum SuggestionSource {
    /// The deterministic rule engine.
    Rule,
    /// The language model.
    Ai,
}

/// What a suggestion changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, uniffi::Enum)]
#[serde(rename_all = "camelCase")]
pub enum ChangeType {
    #[allow(missing_docs)]
    IncreaseWeight,
    #[allow(missing_docs)]
    DecreaseWeight,
    #[allow(missing_docs)]
    IncreaseReps,
    #[allow(missing_docs)]
    DecreaseReps,
    #[allow(missing_docs)]
    IncreaseRest,
    #[allow(missing_docs)]
    DecreaseRest,
    /// Change a set's type (regular, warmup, drop).
    ChangeSetType,
    /// Set the rep range mode and its bounds (exercise level).
    ChangeRepRange,
    #[allow(missing_docs)]
    AddSet,
    #[allow(missing_docs)]
    RemoveSet,
}

impl ChangeType {
    /// The prescription field a change of this type writes.
    pub fn property(self) -> ChangeProperty {
        match self {
            ChangeType::IncreaseWeight | ChangeType::DecreaseWeight => ChangeProperty::Weight,
            ChangeType::IncreaseReps | ChangeType::DecreaseReps => ChangeProperty::Reps,
            ChangeType::IncreaseRest | ChangeType::DecreaseRest => ChangeProperty::Rest,
            ChangeType::ChangeSetType => ChangeProperty::SetType,
            ChangeType::ChangeRepRange => ChangeProperty::RepRange,
            ChangeType::AddSet | ChangeType::RemoveSet => ChangeProperty::SetCount,
        }
    }
}

/// The prescription field a change writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, uniffi::Enum)]
#[serde(rename_all = "camelCase")]
pub enum ChangeProperty {
    /// A set's target weight.
    Weight,
    /// A set's target reps.
    Reps,
    /// Rest: the exercise's (all-same mode, no set index) or a set's.
    Rest,
    /// A set's type.
    SetType,
    /// The exercise's rep range.
    RepRange,
    /// The number of sets.
    SetCount,
}

/// A value before or after a change.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, uniffi::Enum)]
#[serde(rename_all = "camelCase", tag = "kind")]
pub enum ChangeValue {
    /// Weight (plan unit), reps, rest seconds or set count.
    Number {
        /// The number.
        value: f64,
    },
    /// A set type.
    SetType {
        /// The set type.
        value: SetType,
    },
    /// A whole rep range.
    RepRange {
        /// The rep range.
        value: RepRange,
    },
}

/// A figure a rule looked at, e.g. `reps` = 12 or `e1rmChangePct` = 1.4.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase")]
pub struct EvidenceFigure {
    /// What the number is.
    pub name: String,
    /// The number.
    pub value: f64,
}

/// Why a suggestion was made: what its source looked at.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase", default)]
pub struct Evidence {
    /// Ids of the exercise performances examined, newest first.
    pub performance_ids: Vec<String>,
    /// Set indexes examined.
    pub set_indexes: Vec<u32>,
    /// The numbers that decided it.
    pub figures: Vec<EvidenceFigure>,
}

/// A proposed change before it is stored: what rules and the AI source produce.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase")]
pub struct SuggestionDraft {
    /// Rule engine or AI.
    pub source: SuggestionSource,
    /// The rule that fired (e.g. `double_progression_range`); `None` for AI.
    pub rule_id: Option<String>,
    /// What kind of change.
    pub change_type: ChangeType,
    /// The set it targets, or `None` for the exercise as a whole.
    pub target_set_index: Option<u32>,
    /// The field it writes.
    pub property: ChangeProperty,
    /// The current value.
    pub old_value: Option<ChangeValue>,
    /// The proposed value.
    pub new_value: ChangeValue,
    /// One or two sentences for the user.
    pub reasoning: String,
    /// What the source looked at.
    pub evidence: Evidence,
}

/// The user's decision on a suggestion.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, uniffi::Enum)]
#[serde(rename_all = "camelCase")]
pub enum Decision {
    /// Not decided yet.
    Pending,
    /// Applied to the plan.
    Accepted,
    /// Declined.
    Rejected,
    /// Asked again before the next workout of the plan.
    Deferred,
}

/// How an accepted change worked out in the next performance of the exercise.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, uniffi::Enum)]
#[serde(rename_all = "camelCase")]
pub enum Outcome {
    /// Not evaluated yet (or not accepted).
    NotEvaluated,
    /// The user hit the new target.
    Good,
    /// The user fell short of the new target.
    TooAggressive,
    /// The user beat the new target by a wide margin.
    TooEasy,
    /// The user did not follow the new prescription.
    Ignored,
}

/// A stored suggestion: a [`SuggestionDraft`] with its identity, decision and outcome.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase")]
pub struct PrescriptionChange {
    /// Id of the change.
    pub id: String,
    /// The workout session that produced it.
    pub session_id: String,
    /// The plan it changes.
    pub plan_id: String,
    /// The exercise prescription it changes.
    pub prescription_id: String,
    /// The catalog exercise.
    pub catalog_id: String,
    /// What was proposed and why.
    pub draft: SuggestionDraft,
    /// The user's decision.
    pub decision: Decision,
    /// When it was created.
    pub created_at_ms: i64,
    /// When it was decided (accepted, rejected or deferred).
    pub decided_at_ms: Option<i64>,
    /// True when the user made this change themselves: it does not block similar suggestions.
    pub user_override: bool,
    /// How it worked out, once evaluated.
    pub outcome: Outcome,
    /// Why that outcome.
    pub outcome_reason: Option<String>,
    /// When the outcome was evaluated.
    pub evaluated_at_ms: Option<i64>,
}

/// Everything the rule engine and the AI source look at for one exercise of one session.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase")]
pub struct ExerciseContext {
    /// Plan-level settings.
    pub plan: PlanSettings,
    /// The catalog exercise.
    pub exercise: CatalogExercise,
    /// Its prescription in the plan.
    pub prescription: ExercisePrescription,
    /// This session's performance of it.
    pub current: ExercisePerformance,
    /// Up to 3 earlier completed performances, newest first.
    pub previous: Vec<ExercisePerformance>,
    /// Cached history, if computed.
    pub history: Option<ExerciseHistory>,
}

impl ExerciseContext {
    /// The evidence sessions: the current performance, then the earlier ones, newest first.
    pub fn recent(&self) -> impl Iterator<Item = &ExercisePerformance> {
        std::iter::once(&self.current).chain(self.previous.iter().take(3))
    }

    /// The prescription of set `index`, if the plan has it.
    pub fn set_prescription(&self, index: u32) -> Option<&SetPrescription> {
        self.prescription.sets.iter().find(|s| s.index == index)
    }
}

impl ChangeValue {
    /// The number, for numeric values.
    pub fn number(&self) -> Option<f64> {
        match self {
            ChangeValue::Number { value } => Some(*value),
            _ => None,
        }
    }
}

impl SuggestionDraft {
    /// Size of the change, for tie-breaking: |new - old| for numbers, 0 otherwise.
    pub fn magnitude(&self) -> f64 {
        match (
            self.old_value.as_ref().and_then(ChangeValue::number),
            self.new_value.number(),
        ) {
            (Some(old), Some(new)) => (new - old).abs(),
            (None, Some(new)) => new.abs(),
            _ => 0.0,
        }
    }
}

/// A workout plan as the app saves it: settings plus its exercises in order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase")]
pub struct WorkoutPlan {
    /// Plan-level settings (id, unit, training style, achievable loads).
    pub settings: PlanSettings,
    /// Display name.
    pub name: String,
    /// The exercises; their `position`s must be distinct.
    pub exercises: Vec<ExercisePrescription>,
}

/// One exercise of a finished workout, as the app logs it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase")]
pub struct ExerciseLog {
    /// Id of this performance.
    pub id: String,
    /// Which catalog exercise.
    pub catalog_id: String,
    /// The plan exercise it followed, if the session came from a plan.
    pub prescription_id: Option<String>,
    /// The sets, by index.
    pub sets: Vec<PerformedSet>,
}

/// A finished workout session, as the app logs it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase")]
pub struct SessionLog {
    /// Id of the session.
    pub id: String,
    /// The plan it followed, if any (suggestions need one).
    pub plan_id: Option<String>,
    /// When it was performed.
    pub performed_at_ms: i64,
    /// The exercises, in the order done.
    pub exercises: Vec<ExerciseLog>,
}

impl SessionLog {
    /// Exercise `e` of this session as a performance (its id, this session's id and time).
    pub(crate) fn performance(&self, e: &ExerciseLog) -> ExercisePerformance {
        ExercisePerformance {
            id: e.id.clone(),
            session_id: self.id.clone(),
            catalog_id: e.catalog_id.clone(),
            performed_at_ms: self.performed_at_ms,
            sets: e.sets.clone(),
        }
    }
}
