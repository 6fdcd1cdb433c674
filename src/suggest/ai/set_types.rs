//! The set type candidates of the AI source's choices ([`super::choices`], pure): a light last
//! set after the top set that the user logs as regular (a drop set in all but name), and a light
//! ramp-up set after the first two (a warmup), each in both of the last 2 sessions, where the
//! hygiene rules are silent (`crate::suggest::rules::hygiene` judges a warmup at working weight,
//! an early light set, a drop set without base and a logged type that differs from the plan).

use super::candidate::{regular_sets, Candidate, EPS};
use super::prompt::fmt;
use crate::suggest::model::{
    ChangeType, ExerciseContext, ExercisePerformance, SetPrescription, SetType,
};
use crate::suggest::rules::top_regular;

/// A drop set under this share of the top weight is not one (a different exercise, a mistake).
const DROP_MIN_SHARE: f64 = 0.5;
/// A drop set weighs at most this share of the top weight.
const DROP_MAX_SHARE: f64 = 0.85;
/// A ramp-up set weighs under this share of the top weight (the rules' early-warmup ratio).
const RAMP_MAX_SHARE: f64 = 0.7;

fn set_type_candidate(
    rx: &SetPrescription,
    new: SetType,
    evidence: String,
    figures: Vec<(&'static str, f64)>,
) -> Candidate {
    Candidate {
        change_type: ChangeType::ChangeSetType,
        target_set_index: Some(rx.index),
        old_value: 0.0,
        new_value: 0.0,
        evidence,
        figures,
        set_type: Some((rx.set_type, new)),
    }
}

/// The last prescribed set, regular and not the only regular one, logged as a completed regular
/// set right after a set at the session's top weight and at 50% to 85% of it, in both of the last
/// 2 sessions: a drop set.
pub(super) fn drop_set(ctx: &ExerciseContext, last: &[&ExercisePerformance]) -> Option<Candidate> {
    let [now, before] = last.get(..2)? else {
        return None;
    };
    let sets = regular_sets(ctx, true);
    let rx = ctx.prescription.sets.iter().max_by_key(|s| s.index)?;
    if rx.set_type != SetType::Regular || sets.len() < 2 {
        return None;
    }
    let share = |perf: &ExercisePerformance| -> Option<(f64, f64)> {
        let top = top_regular(perf)?;
        let s = perf
            .sets
            .iter()
            .find(|s| s.index == rx.index && s.completed && s.set_type == SetType::Regular)?;
        let prev = perf
            .sets
            .iter()
            .filter(|p| p.index < rx.index && p.completed)
            .max_by_key(|p| p.index)?;
        let r = s.weight / top;
        ((prev.weight - top).abs() <= EPS && (DROP_MIN_SHARE..=DROP_MAX_SHARE).contains(&r))
            .then_some((s.weight, top))
    };
    let (w, top) = share(now)?;
    let (wb, topb) = share(before)?;
    let unit = ctx.plan.unit.symbol();
    Some(set_type_candidate(
        rx,
        SetType::Drop,
        format!(
            "the last set, logged as regular, went from {} to {} {unit} right after the top set, 2 sessions running (last time {} to {})",
            fmt(top),
            fmt(w),
            fmt(topb),
            fmt(wb)
        ),
        vec![("weight", w), ("topWeight", top)],
    ))
}

/// A prescribed regular set from index 2 on, done before every set at the session's top weight
/// at under 70% of it, with every set before it a prescribed warmup or as light, in both of the
/// last 2 sessions: a ramp-up set, a warmup.
pub(super) fn ramp_warmup(
    ctx: &ExerciseContext,
    last: &[&ExercisePerformance],
) -> Option<Candidate> {
    let [now, before] = last.get(..2)? else {
        return None;
    };
    let light = |perf: &ExercisePerformance, index: u32| -> Option<(f64, f64)> {
        let top = top_regular(perf)?;
        let first_top = perf
            .sets
            .iter()
            .filter(|s| s.completed && s.set_type == SetType::Regular)
            .filter(|s| (s.weight - top).abs() <= EPS)
            .map(|s| s.index)
            .min()?;
        let s = perf
            .sets
            .iter()
            .find(|s| s.index == index && s.completed && s.set_type == SetType::Regular)?;
        (index < first_top && s.weight < RAMP_MAX_SHARE * top).then_some((s.weight, top))
    };
    let mut sets: Vec<&SetPrescription> = ctx.prescription.sets.iter().collect();
    sets.sort_by_key(|s| s.index);
    let rx = sets.iter().copied().find(|rx| {
        rx.index >= 2
            && rx.set_type == SetType::Regular
            && light(now, rx.index).is_some()
            && light(before, rx.index).is_some()
            && sets
                .iter()
                .filter(|b| b.index < rx.index)
                .all(|b| b.set_type == SetType::Warmup || light(now, b.index).is_some())
    })?;
    let (w, top) = light(now, rx.index)?;
    let (wb, topb) = light(before, rx.index)?;
    let unit = ctx.plan.unit.symbol();
    Some(set_type_candidate(
        rx,
        SetType::Warmup,
        format!(
            "set {} ramps up at {} {unit} before the top set of {} {unit}, 2 sessions running (last time {} of {})",
            rx.index,
            fmt(w),
            fmt(top),
            fmt(wb),
            fmt(topb)
        ),
        vec![("weight", w), ("topWeight", top)],
    ))
}
