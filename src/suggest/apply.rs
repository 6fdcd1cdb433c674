//! Applying an accepted change to its exercise prescription, and reading the value a change
//! would replace (to tell whether a stored suggestion is out of date).

use super::model::{
    ChangeProperty, ChangeType, ChangeValue, ExercisePrescription, SuggestionDraft,
};

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
