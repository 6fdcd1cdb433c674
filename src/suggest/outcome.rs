//! Outcome evaluation (the spec notes outcomes are not evaluated in the original app; here they
//! are): after the next performance of an exercise with an accepted change, did the user hit the
//! new target?
//!
//! - Weight: the set was done at the new weight (within 2.5 lb) and reached the rep floor (lower
//!   bound, target, or the set's target reps): good; below the floor: too aggressive; at or past
//!   upper + 4 (target + 5): too easy; another weight or not done: ignored.
//! - Reps: done at the prescribed weight with at least the new reps: good (new + 4 or more: too
//!   easy); fewer: too aggressive.
//! - Rest: judged on the completed regular sets and the rest taken before each (logged on the
//!   previous completed set), the pairs the short-rest rule reads: warmups and drop sets are not
//!   judged, nor the rest after the last set. For a per-set rest change (the rest after set `i`),
//!   only the completed set right after `i`, when it is regular. The average of those rests at or
//!   above the new rest minus 15 s: good unless the reps of one of those sets still dropped (2 or
//!   more fewer than the previous completed regular set, or below the floor): too aggressive;
//!   shorter, or no such rest timed: ignored.
//! - Set type: the set was completed as the new type: good; otherwise ignored.
//! - Set count: as many sets completed (warmups included, as the prescription counts them) as
//!   the new count: good; otherwise ignored.
//! - Rep range: every completed working set within the range: good; any below the floor: too
//!   aggressive; all at or past upper + 4 (target + 5): too easy.

use super::metrics::{rep_floor, reps_dropped, step};
use super::model::{
    ChangeProperty, ChangeValue, ExercisePerformance, ExercisePrescription, Outcome, PerformedSet,
    PrescriptionChange, RepRange, RepRangeMode, SetType, WeightUnit,
};

fn too_easy(range: &RepRange, reps: u32) -> bool {
    match range.mode {
        // In u64: no overflow whatever the stored values.
        RepRangeMode::Range => u64::from(reps) >= u64::from(range.upper) + 4,
        RepRangeMode::Target => u64::from(reps) >= u64::from(range.target) + 5,
        RepRangeMode::NotSet => false,
    }
}

/// The sets a rest change is judged on, as (set index, seconds rested before it): the completed
/// regular sets whose rest before them was timed (logged on the previous completed set, as the
/// short-rest rule reads it). With `target` (per-set rest: the rest after that set), only the set
/// right after the target, when the target set was completed with its rest logged and the next
/// completed set is regular.
fn rested_sets(perf: &ExercisePerformance, target: Option<u32>) -> Vec<(u32, u32)> {
    let mut done: Vec<&PerformedSet> = perf.sets.iter().filter(|s| s.completed).collect();
    done.sort_by_key(|s| s.index);
    done.windows(2)
        .filter(|w| w[1].set_type == SetType::Regular && target.is_none_or(|i| w[0].index == i))
        .filter_map(|w| Some((w[1].index, w[0].rest_seconds?)))
        .collect()
}

/// The outcome of `change` judged on `perf`, the next performance after it was accepted, against
/// the prescription as it is now.
pub fn evaluate(
    change: &PrescriptionChange,
    rx: &ExercisePrescription,
    perf: &ExercisePerformance,
    unit: WeightUnit,
) -> (Outcome, String) {
    let d = &change.draft;
    let done = |i: u32| perf.sets.iter().find(|s| s.index == i && s.completed);
    let planned = |i: u32| rx.sets.iter().find(|s| s.index == i);
    let tolerance = step(2.5, unit);
    let ignored = |why: &str| (Outcome::Ignored, why.to_string());
    match (d.property, d.target_set_index) {
        (ChangeProperty::Weight, Some(i)) => {
            let (Some(s), Some(new)) = (done(i), d.new_value.number()) else {
                return ignored("the set was not done");
            };
            if (s.weight - new).abs() > tolerance {
                return (
                    Outcome::Ignored,
                    format!("done at {} instead of {new}", s.weight),
                );
            }
            let floor = rep_floor(&rx.rep_range)
                .or(planned(i).map(|p| p.target_reps))
                .unwrap_or(0);
            if s.reps < floor {
                (
                    Outcome::TooAggressive,
                    format!("{} reps at {new}, below {floor}", s.reps),
                )
            } else if too_easy(&rx.rep_range, s.reps) {
                (
                    Outcome::TooEasy,
                    format!("{} reps at {new}, well past the goal", s.reps),
                )
            } else {
                (Outcome::Good, format!("{} reps at {new}", s.reps))
            }
        }
        (ChangeProperty::Reps, Some(i)) => {
            let (Some(s), Some(new)) = (done(i), d.new_value.number()) else {
                return ignored("the set was not done");
            };
            if planned(i).is_some_and(|p| (s.weight - p.target_weight).abs() > tolerance) {
                return ignored("done at another weight");
            }
            let new = new.round() as u32;
            match s.reps {
                r if r < new => (
                    Outcome::TooAggressive,
                    format!("{r} reps, below the new {new}"),
                ),
                r if u64::from(r) >= u64::from(new) + 4 => (
                    Outcome::TooEasy,
                    format!("{r} reps, well past the new {new}"),
                ),
                r => (Outcome::Good, format!("{r} reps for the new {new}")),
            }
        }
        (ChangeProperty::Rest, target) => {
            let Some(new) = d.new_value.number() else {
                return ignored("not a rest value");
            };
            let judged = rested_sets(perf, target);
            if judged.is_empty() {
                return ignored("rest before a working set was not timed");
            }
            let avg = judged.iter().map(|&(_, r)| r as f64).sum::<f64>() / judged.len() as f64;
            if avg < new - 15.0 {
                return (
                    Outcome::Ignored,
                    format!("rested {avg:.0} s, not the new {new:.0} s"),
                );
            }
            let floor = rep_floor(&rx.rep_range);
            let dropped = judged.iter().any(|&(i, _)| reps_dropped(perf, i, floor));
            if dropped {
                (
                    Outcome::TooAggressive,
                    "reps still dropped with the longer rest".into(),
                )
            } else {
                (
                    Outcome::Good,
                    format!("rested {avg:.0} s and kept the reps"),
                )
            }
        }
        (ChangeProperty::SetType, Some(i)) => match (done(i), &d.new_value) {
            (Some(s), ChangeValue::SetType { value }) if s.set_type == *value => {
                (Outcome::Good, "done as the new set type".into())
            }
            _ => ignored("done as another set type"),
        },
        (ChangeProperty::RepRange, _) => {
            let ChangeValue::RepRange { value } = &d.new_value else {
                return ignored("not a rep range");
            };
            let reps: Vec<u32> = perf
                .sets
                .iter()
                .filter(|s| s.completed && s.set_type == SetType::Regular)
                .map(|s| s.reps)
                .collect();
            let Some(floor) = rep_floor(value) else {
                return ignored("no rep goal");
            };
            if reps.is_empty() {
                ignored("no working set was done")
            } else if reps.iter().any(|&r| r < floor) {
                (
                    Outcome::TooAggressive,
                    format!("a working set fell below {floor}"),
                )
            } else if reps.iter().all(|&r| too_easy(value, r)) {
                (
                    Outcome::TooEasy,
                    "every working set went well past the range".into(),
                )
            } else {
                (Outcome::Good, "working sets landed in the new range".into())
            }
        }
        (ChangeProperty::SetCount, _) => {
            let n = perf.sets.iter().filter(|s| s.completed).count() as f64;
            if d.new_value.number() == Some(n) {
                (Outcome::Good, format!("{n} sets done"))
            } else {
                ignored("another number of sets was done")
            }
        }
        _ => ignored("the change names no set"),
    }
}
