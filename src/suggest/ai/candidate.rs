//! A [`Candidate`]: one change the model may pick, valid by construction; shared by the candidate
//! builders (`choices.rs`) and their set type candidates (`set_types.rs`), with the helpers both
//! use. Pure.

use super::prompt::fmt;
use crate::suggest::model::{ChangeType, ExerciseContext, SetPrescription, SetType};

/// The tolerance of float comparisons of loads and shares.
pub(super) const EPS: f64 = 1e-9;

/// One change the model may pick, valid by construction.
#[derive(Debug, Clone, PartialEq)]
pub struct Candidate {
    /// What kind of change.
    pub change_type: ChangeType,
    /// The set it targets, or `None` for the exercise's rest (all-same rest mode).
    pub target_set_index: Option<u32>,
    /// The prescription's current value.
    pub old_value: f64,
    /// The proposed value (an achievable load, whole reps or seconds).
    pub new_value: f64,
    /// What code saw, one sentence for the model (and the draft's reasoning when the model gives
    /// none). Holds numbers and set indexes only.
    pub evidence: String,
    /// The figures of the evidence, for the draft.
    pub figures: Vec<(&'static str, f64)>,
    /// For a set type change: the set's type now and the proposed one (`old_value` and
    /// `new_value` are then 0).
    pub set_type: Option<(SetType, SetType)>,
}

impl Candidate {
    /// The change in a few words, e.g. `increase rest from 60 to 90 s`.
    pub fn summary(&self, unit: &str) -> String {
        if let Some((old, new)) = self.set_type {
            let set = self.target_set_index.unwrap_or(0);
            return format!(
                "make set {set} {} (now {})",
                type_words(new),
                type_words(old)
            );
        }
        let (verb, what, suffix) = match self.change_type {
            ChangeType::IncreaseWeight => ("increase", "weight", unit),
            ChangeType::DecreaseWeight => ("decrease", "weight", unit),
            ChangeType::IncreaseReps => ("increase", "target reps", ""),
            ChangeType::DecreaseReps => ("decrease", "target reps", ""),
            ChangeType::IncreaseRest => ("increase", "rest", "s"),
            _ => ("decrease", "rest", "s"),
        };
        let target = self
            .target_set_index
            .map_or_else(String::new, |i| format!(" of set {i}"));
        let sep = if suffix.is_empty() { "" } else { " " };
        format!(
            "{verb} {what}{target} from {} to {}{sep}{suffix}",
            fmt(self.old_value),
            fmt(self.new_value)
        )
    }
}

/// The prescribed regular sets, by index; only those with a load (target weight above 0) when
/// `loaded`.
pub(super) fn regular_sets(ctx: &ExerciseContext, loaded: bool) -> Vec<&SetPrescription> {
    let mut v: Vec<&SetPrescription> = ctx
        .prescription
        .sets
        .iter()
        .filter(|rx| rx.set_type == SetType::Regular && (!loaded || rx.target_weight > 0.0))
        .collect();
    v.sort_by_key(|rx| rx.index);
    v
}

/// `a drop set`, `a warmup`, `a regular set`.
pub(super) fn type_words(t: SetType) -> &'static str {
    match t {
        SetType::Regular => "a regular set",
        SetType::Warmup => "a warmup",
        SetType::Drop => "a drop set",
    }
}
