//! Applying an accepted change to its exercise prescription (pure): reading the value a change
//! would replace (to tell whether a stored suggestion is out of date), the accept check
//! (`applied`), an edited acceptance, the deferred changes still worth reviewing, and the
//! admission of an AI source's drafts (which reuses the accept check).

use std::collections::HashMap;

use super::model::{
    ChangeProperty, ChangeType, ChangeValue, Decision, ExerciseContext, ExercisePrescription,
    PrescriptionChange, RepRange, RepRangeMode, SetType, SuggestionDraft, SuggestionSource,
    WeightUnit, WorkoutPlan,
};
use super::rules::weight_text;
use super::validate::{check_prescription, check_weight, invalid, MAX_WEIGHT_FACTOR};
use crate::kernel::error::Result;

/// The value of `property` in `rx` now (at set `set_index`, or at exercise level when `None`):
/// what a change of that property would replace. `None` when the set does not exist, or the
/// property needs a set and none is named.
pub fn current_value(
    rx: &ExercisePrescription,
    property: ChangeProperty,
    set_index: Option<u32>,
) -> Option<ChangeValue> {
    let set = || set_index.and_then(|i| rx.sets.iter().find(|s| s.index == i));
    let number = |value: f64| Some(ChangeValue::Number { value });
    match property {
        ChangeProperty::Weight => number(set()?.target_weight),
        ChangeProperty::Reps => number(set()?.target_reps as f64),
        ChangeProperty::Rest => match set_index {
            None => number(rx.rest_seconds as f64),
            Some(_) => number(set()?.rest_seconds as f64),
        },
        ChangeProperty::SetType => Some(ChangeValue::SetType {
            value: set()?.set_type,
        }),
        ChangeProperty::RepRange => Some(ChangeValue::RepRange {
            value: rx.rep_range,
        }),
        ChangeProperty::SetCount => number(rx.sets.len() as f64),
    }
}

/// Whether two values are the same (numbers within a millionth).
pub fn same_value(a: &ChangeValue, b: &ChangeValue) -> bool {
    match (a, b) {
        (ChangeValue::Number { value: x }, ChangeValue::Number { value: y }) => {
            (x - y).abs() <= 1e-6
        }
        _ => a == b,
    }
}

/// Writes `draft`'s new value into `rx`. Fails (with a reason for the app) when the change no longer
/// fits the prescription, e.g. its set was removed since.
pub fn apply_change(rx: &mut ExercisePrescription, draft: &SuggestionDraft) -> Result<(), String> {
    let set_index = draft.target_set_index;
    let number = || {
        draft
            .new_value
            .number()
            .ok_or_else(|| "the new value is not a number".to_string())
    };
    let whole = |v: f64| -> Result<u32, String> {
        if v.is_finite() && v >= 0.0 && v <= u32::MAX as f64 {
            Ok(v.round() as u32)
        } else {
            Err("the new value is out of range".into())
        }
    };
    let set = |i: Option<u32>| -> Result<usize, String> {
        let i = i.ok_or_else(|| "the change names no set".to_string())?;
        rx.sets
            .iter()
            .position(|s| s.index == i)
            .ok_or_else(|| format!("set {i} is no longer in the prescription"))
    };
    match draft.property {
        ChangeProperty::Weight => {
            let i = set(set_index)?;
            let w = number()?;
            if !w.is_finite() || w < 0.0 {
                return Err("the new weight is out of range".into());
            }
            rx.sets[i].target_weight = w;
        }
        ChangeProperty::Reps => {
            let i = set(set_index)?;
            rx.sets[i].target_reps = whole(number()?)?;
        }
        ChangeProperty::Rest => {
            let secs = whole(number()?)?;
            match set_index {
                None => rx.rest_seconds = secs,
                Some(_) => {
                    let i = set(set_index)?;
                    rx.sets[i].rest_seconds = secs;
                }
            }
        }
        ChangeProperty::SetType => {
            let ChangeValue::SetType { value } = draft.new_value else {
                return Err("the new value is not a set type".into());
            };
            let i = set(set_index)?;
            rx.sets[i].set_type = value;
        }
        ChangeProperty::RepRange => {
            let ChangeValue::RepRange { value } = draft.new_value else {
                return Err("the new value is not a rep range".into());
            };
            rx.rep_range = value;
        }
        ChangeProperty::SetCount => {
            let n = whole(number()?)? as usize;
            if n == 0 || n > 20 {
                return Err("a prescription holds 1 to 20 sets".into());
            }
            match draft.change_type {
                ChangeType::AddSet | ChangeType::RemoveSet => {}
                _ => return Err("only add-set and remove-set change the set count".into()),
            }
            rx.sets.sort_by_key(|s| s.index);
            rx.sets.truncate(n);
            while rx.sets.len() < n {
                let mut next = rx
                    .sets
                    .last()
                    .cloned()
                    .ok_or_else(|| "the prescription has no set to copy".to_string())?;
                next.index = next.index.saturating_add(1);
                rx.sets.push(next);
            }
        }
    }
    Ok(())
}

/// Whether a numeric change of type `t` from `old` to `new` goes the way its type says
/// (`None` for the non-numeric types).
pub(crate) fn direction_fits(t: ChangeType, old: f64, new: f64) -> Option<bool> {
    match t {
        ChangeType::IncreaseWeight
        | ChangeType::IncreaseReps
        | ChangeType::IncreaseRest
        | ChangeType::AddSet => Some(new > old),
        ChangeType::DecreaseWeight
        | ChangeType::DecreaseReps
        | ChangeType::DecreaseRest
        | ChangeType::RemoveSet => Some(new < old),
        ChangeType::ChangeSetType | ChangeType::ChangeRepRange => None,
    }
}

/// Admits an AI draft if the domain allows it, with its `old_value` set to the prescription's
/// current value (so a later accept can tell whether the plan moved on). Refused: a draft not
/// marked as AI; a property its change type does not write; a set the prescription lacks; an old
/// value that is not the current one; a value of the wrong kind; a change that changes nothing or
/// goes against its type (an increase that lowers); a weight change on a body-weight set, outside a
/// third to three times the current weight, or above 5000; a result that `savePlan` would refuse
/// (e.g. an inconsistent rep range).
pub(crate) fn admit(ctx: &ExerciseContext, d: &SuggestionDraft) -> Option<SuggestionDraft> {
    if d.source != SuggestionSource::Ai || d.change_type.property() != d.property {
        return None;
    }
    if d.target_set_index
        .is_some_and(|i| ctx.set_prescription(i).is_none())
    {
        return None;
    }
    let rx = &ctx.prescription;
    let current = current_value(rx, d.property, d.target_set_index)?;
    if let (Some(old), Some(new)) = (current.number(), d.new_value.number()) {
        if direction_fits(d.change_type, old, new) == Some(false) {
            return None;
        }
        if d.property == ChangeProperty::Weight
            && !(old > 0.0
                && new >= old / MAX_WEIGHT_FACTOR - 1e-9
                && new <= old * MAX_WEIGHT_FACTOR
                && check_weight(new, String::new).is_ok())
        {
            return None;
        }
    }
    // The accept check (old value current, change fits, valid result), and a change at all.
    if applied(rx, d).map_or(true, |probe| probe == *rx) {
        return None;
    }
    let mut admitted = d.clone();
    admitted.old_value = Some(current);
    Some(admitted)
}

/// `rx` with `draft` applied, or why it cannot be: the prescription moved on since the
/// suggestion (its current value is not the suggestion's old value), the change no longer fits
/// (its set is gone), or the result is a prescription `save_plan` would refuse.
pub(crate) fn applied(
    rx: &ExercisePrescription,
    draft: &SuggestionDraft,
) -> Result<ExercisePrescription> {
    let current = current_value(rx, draft.property, draft.target_set_index);
    if let (Some(old), Some(current)) = (&draft.old_value, &current) {
        if !same_value(old, current) {
            return Err(invalid(
                "the prescription changed since this suggestion was made; it is out of date",
            ));
        }
    }
    let mut rx = rx.clone();
    apply_change(&mut rx, draft).map_err(|why| invalid(format!("cannot apply: {why}")))?;
    check_prescription(&rx, "the changed prescription")?;
    Ok(rx)
}

/// `rx` with `draft` edited to the user's `new_value` applied, and the edited draft: the value
/// must be finite, whole for reps, rest and set count, and change the prescription; a numeric
/// value that goes the other way than suggested turns the change type around; the draft's new
/// value is the one written into the prescription. Fails as [`applied`] does otherwise.
pub(crate) fn edited(
    rx: &ExercisePrescription,
    draft: &SuggestionDraft,
    new_value: ChangeValue,
) -> Result<(SuggestionDraft, ExercisePrescription)> {
    let mut draft = draft.clone();
    if let Some(new) = new_value.number() {
        if !new.is_finite() {
            return Err(invalid("the edited value must be a finite number"));
        }
        let whole = matches!(
            draft.property,
            ChangeProperty::Reps | ChangeProperty::Rest | ChangeProperty::SetCount
        );
        if whole && new.fract() != 0.0 {
            return Err(invalid(
                "the edited value must be a whole number for reps, rest and set count",
            ));
        }
    }
    let current = current_value(rx, draft.property, draft.target_set_index);
    if let (Some(old), Some(new)) = (
        current.as_ref().and_then(ChangeValue::number),
        new_value.number(),
    ) {
        if direction_fits(draft.change_type, old, new) == Some(false) && new != old {
            draft.change_type = opposite(draft.change_type);
        }
    }
    if current.as_ref().is_some_and(|c| same_value(c, &new_value)) {
        return Err(invalid(
            "the edited value leaves the prescription as it is; reject the change instead",
        ));
    }
    draft.new_value = new_value;
    let edited = applied(rx, &draft)?;
    // Keep the value as written into the prescription.
    if let Some(written) = current_value(&edited, draft.property, draft.target_set_index) {
        draft.new_value = written;
    }
    Ok((draft, edited))
}

/// Adds the user's choice to an edited draft's reasoning ([`chosen_sentence`]); `suggested` is
/// the source's value.
pub(crate) fn add_choice(draft: &mut SuggestionDraft, suggested: &ChangeValue, unit: WeightUnit) {
    let choice = chosen_sentence(draft, suggested, unit);
    draft.reasoning = match draft.reasoning.trim_end() {
        "" => choice,
        why => format!("{why} {choice}"),
    };
}

/// The sentence an edited acceptance adds to the reasoning: "You chose 143 lb instead of the
/// suggested 140 lb." (`suggested` is the source's value, `edited.new_value` the user's).
fn chosen_sentence(edited: &SuggestionDraft, suggested: &ChangeValue, unit: WeightUnit) -> String {
    let unit = unit.symbol();
    let number = |v: &ChangeValue| v.number().map(weight_text).unwrap_or_default();
    let set_type = |v: &ChangeValue| match v {
        ChangeValue::SetType { value } => match value {
            SetType::Regular => "a regular set",
            SetType::Warmup => "a warmup set",
            SetType::Drop => "a drop set",
        },
        _ => "another set type",
    };
    let range = |v: &ChangeValue| match v {
        ChangeValue::RepRange { value } => rep_range_text(value),
        _ => "another rep goal".to_string(),
    };
    let (chosen, instead) = match edited.property {
        ChangeProperty::Weight => (
            format!("{} {unit}", number(&edited.new_value)),
            format!("{} {unit}", number(suggested)),
        ),
        ChangeProperty::Reps => (
            format!("{} reps", number(&edited.new_value)),
            number(suggested),
        ),
        ChangeProperty::Rest => (
            format!("{} s of rest", number(&edited.new_value)),
            format!("{} s", number(suggested)),
        ),
        ChangeProperty::SetCount => (
            format!("{} sets", number(&edited.new_value)),
            number(suggested),
        ),
        ChangeProperty::SetType => (
            set_type(&edited.new_value).to_string(),
            set_type(suggested).trim_start_matches("a ").to_string(),
        ),
        ChangeProperty::RepRange => (range(&edited.new_value), range(suggested)),
    };
    format!("You chose {chosen} instead of the suggested {instead}.")
}

/// A rep goal for a sentence: "8-12 reps", "10 reps", "no rep goal".
fn rep_range_text(r: &RepRange) -> String {
    match r.mode {
        RepRangeMode::Range => format!("{}-{} reps", r.lower, r.upper),
        RepRangeMode::Target => format!("{} reps", r.target),
        RepRangeMode::NotSet => "no rep goal".to_string(),
    }
}

/// The change type going the other way.
fn opposite(t: ChangeType) -> ChangeType {
    match t {
        ChangeType::IncreaseWeight => ChangeType::DecreaseWeight,
        ChangeType::DecreaseWeight => ChangeType::IncreaseWeight,
        ChangeType::IncreaseReps => ChangeType::DecreaseReps,
        ChangeType::DecreaseReps => ChangeType::IncreaseReps,
        ChangeType::IncreaseRest => ChangeType::DecreaseRest,
        ChangeType::DecreaseRest => ChangeType::IncreaseRest,
        ChangeType::AddSet => ChangeType::RemoveSet,
        ChangeType::RemoveSet => ChangeType::AddSet,
        other => other,
    }
}

/// The deferred changes of `plan` still worth reviewing, from `open` (its undecided changes whose
/// exercise is still in it, oldest first): those the accept check ([`applied`]) takes, and not
/// superseded by a newer similar change (same exercise, change type and set) that is itself
/// undecided and acceptable.
pub(crate) fn to_review(
    plan: &WorkoutPlan,
    mut open: Vec<PrescriptionChange>,
) -> Vec<PrescriptionChange> {
    open.retain(|c| {
        plan.exercises
            .iter()
            .find(|x| x.id == c.prescription_id)
            .is_some_and(|rx| applied(rx, &c.draft).is_ok())
    });
    // Newest acceptable undecided change per (exercise, change type, set).
    let mut newest: HashMap<(&str, ChangeType, Option<u32>), i64> = HashMap::new();
    for c in &open {
        let key = (
            c.prescription_id.as_str(),
            c.draft.change_type,
            c.draft.target_set_index,
        );
        let at = newest.entry(key).or_insert(c.created_at_ms);
        *at = (*at).max(c.created_at_ms);
    }
    open.iter()
        .filter(|c| c.decision == Decision::Deferred)
        .filter(|c| {
            let key = (
                c.prescription_id.as_str(),
                c.draft.change_type,
                c.draft.target_set_index,
            );
            newest.get(&key).is_none_or(|&at| at <= c.created_at_ms)
        })
        .cloned()
        .collect()
}
