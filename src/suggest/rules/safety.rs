//! Safety and cleanup rules (spec 004 "Safety / Cleanup"), run after the progression rules, in
//! this order:
//!
//! 1. **Below range weight decrease** (`below_range_decrease`). Range mode only. Among the last 3
//!    sessions (current + 2 previous), count the sessions in which *every* progression set was
//!    below the lower bound *and* was attempted at the prescribed load (|weight - target| <= 2.5 lb,
//!    1.25 kg). With 2 or more such sessions, decrease each current progression set with a target
//!    weight above 0 by the normal increment: `round(max(0, w - increment))`.
//! 2. **Reduced weight to hit reps** (`reduced_weight_to_hit_reps`). Last 2 sessions. For every
//!    prescribed regular set, the completed set at its index in both sessions: both times it was
//!    done at more than 2.5 lb (1.25 kg) under the prescription and its reps were still at or
//!    below the floor (lower bound in range mode, target in target mode). Decrease that set's
//!    target weight to the average of the two weights used, rounded to an achievable load.
//! 3. **Match actual weight** (`match_actual_weight`). Last 3 sessions, all required. For a
//!    prescribed regular set logged as a completed regular set in all 3 sessions, whose weight
//!    deviates from the prescription by more than 5 lb (2.5 kg) in the same direction every time:
//!    set the target to the average used, rounded (increase or decrease accordingly). Skipped for
//!    sets a progression rule already wants to make heavier
//!    ([`super::weight_progression_indexes`], judged on the progression condition, so a set stays
//!    skipped when rounding leaves no heavier achievable load), as the spec says. A set that
//!    `reduced_weight_to_hit_reps` also lowers is *not* skipped: both decreases are emitted and
//!    the deduplicator keeps the larger one (spec 004's tie-breaks: same priority, both rules,
//!    then the larger |new - prev|). Skipping here would keep the smaller cut whenever the
//!    3-session average is lower than the 2-session one (prescribed 100, used 85, 85, 70: 85
//!    instead of 80).
//! 4. **Stagnation: increase rest** (`stagnation_increase_rest`). The current session and the 2
//!    previous ones must each have a session e1RM (Epley, best completed set); they plateau
//!    (newest vs third newest strictly within ±2%) and the user is struggling (in 2 of the last 3
//!    sessions a progression set fell below the floor or all were at most floor + 1). Then add
//!    15 s of rest: once for the exercise in all-same rest mode, else on each current progression
//!    set's own rest, except a set followed by a drop set (its rest is 0 on purpose).
//!
//! Decisions where the spec and the issue are silent:
//! - Rule 1 needs 2 qualifying sessions, so it can fire with only 2 sessions available (both
//!   below); a session with no progression sets, or with a progression set that has no
//!   prescription, does not count. Loads "at the prescription" use `<=` 2.5 lb (inclusive).
//! - Rule 2 is judged at each prescribed regular set's index, whatever its rank in the session,
//!   as the original app does: a set the user lightens usually drops out of the two heaviest, so
//!   limiting it to progression sets would miss the typical case. The average is that set's own
//!   two weights, so sets prescribed at different loads keep their own targets. "Still hit low
//!   reps" is `reps <= floor`, as in the original. With no rep goal (mode `notSet` and nothing to
//!   infer one from) there is no floor and the rule stays silent.
//! - Rule 3 only looks at regular sets (prescribed and logged): warmup and drop loads follow the
//!   working load and are adjusted freely. A body-weight set (target 0) with added load logged
//!   consistently is matched too.
//! - Rule 4 requires the e1RM of each of the 3 newest sessions (not the first 3 sessions that have
//!   one), since "the last 3 sessions" is what plateaus.
//! - All rules: a change whose rounded new value equals the old one is not emitted.
//! - All rules judge against the prescribed rep range; with mode `notSet` the rules that need a
//!   rep goal stay silent (see [`super::evaluate`]).

use super::super::metrics::{
    is_plateau, is_struggling, plateau_change_pct, progression_sets, rep_floor,
    round_to_achievable, session_e1rm, step, weight_increment,
};
use super::super::model::{
    ChangeProperty, ChangeType, ExerciseContext, ExercisePerformance, PerformedSet, RepRangeMode,
    RestMode, SetPrescription, SetType, SuggestionDraft,
};
use super::{draft, evidence, num, weight_progression_indexes, weight_text as fmt};

pub(super) const BELOW_RANGE_DECREASE: &str = "below_range_decrease";
pub(super) const REDUCED_WEIGHT_TO_HIT_REPS: &str = "reduced_weight_to_hit_reps";
pub(super) const MATCH_ACTUAL_WEIGHT: &str = "match_actual_weight";
pub(super) const STAGNATION_INCREASE_REST: &str = "stagnation_increase_rest";

/// Rest added by the stagnation rule, in seconds.
const REST_INCREASE_SECONDS: u32 = 15;

/// Slack for float comparisons of loads at an inclusive threshold.
const EPS: f64 = 1e-9;

/// The newest `n` evidence sessions, or `None` when fewer exist.
fn last(ctx: &ExerciseContext, n: usize) -> Option<Vec<&ExercisePerformance>> {
    let sessions: Vec<&ExercisePerformance> = ctx.recent().take(n).collect();
    (sessions.len() == n).then_some(sessions)
}

/// The ids of `sessions`, in their order (newest first).
fn ids<'a>(sessions: &'a [&'a ExercisePerformance]) -> impl Iterator<Item = &'a str> {
    sessions.iter().map(|p| p.id.as_str())
}

/// The prescribed sets in index order.
fn by_index(ctx: &ExerciseContext) -> impl Iterator<Item = &SetPrescription> {
    let mut sets: Vec<&SetPrescription> = ctx.prescription.sets.iter().collect();
    sets.sort_by_key(|s| s.index);
    sets.into_iter()
}

/// The completed set `index` of a performance.
fn completed(perf: &ExercisePerformance, index: u32) -> Option<&PerformedSet> {
    perf.sets.iter().find(|s| s.index == index && s.completed)
}

/// `weight` rounded to the nearest load the user can make for this exercise.
fn round(ctx: &ExerciseContext, weight: f64) -> f64 {
    round_to_achievable(
        weight,
        ctx.exercise.equipment,
        &ctx.plan.load,
        ctx.plan.unit,
    )
}

/// Rule 1: below the lower bound in 2 of the last 3 sessions at the prescribed load -> decrease
/// each current progression set by the normal increment.
pub(super) fn below_range_decrease(ctx: &ExerciseContext, out: &mut Vec<SuggestionDraft>) {
    let range = ctx.prescription.rep_range;
    if range.mode != RepRangeMode::Range {
        return;
    }
    let style = ctx.plan.training_style;
    let unit = ctx.plan.unit;
    let tolerance = step(2.5, unit);
    let window: Vec<&ExercisePerformance> = ctx.recent().take(3).collect();
    let below_at_load = |perf: &ExercisePerformance| {
        let sets = progression_sets(perf, style);
        !sets.is_empty()
            && sets.iter().all(|s| {
                ctx.set_prescription(s.index).is_some_and(|rx| {
                    s.reps < range.lower && (s.weight - rx.target_weight).abs() <= tolerance + EPS
                })
            })
    };
    let below = window.iter().filter(|p| below_at_load(p)).count();
    if below < 2 {
        return;
    }
    for set in progression_sets(&ctx.current, style) {
        let Some(rx) = ctx.set_prescription(set.index) else {
            continue;
        };
        let old = rx.target_weight;
        if old <= 0.0 {
            continue;
        }
        let increment = weight_increment(&ctx.exercise, old, unit);
        let new = round(ctx, (old - increment).max(0.0));
        if new >= old {
            continue;
        }
        out.push(draft(
            BELOW_RANGE_DECREASE,
            ChangeType::DecreaseWeight,
            Some(set.index),
            ChangeProperty::Weight,
            Some(num(old)),
            num(new),
            format!(
                "You fell below {} reps at the prescribed weight in {below} of your last {} \
                 sessions. Lower the weight from {old} to {new} {} to stay in your range.",
                range.lower,
                window.len(),
                unit.symbol(),
            ),
            evidence(
                ids(&window),
                [set.index],
                &[
                    ("sessionsBelow", below as f64),
                    ("sessions", window.len() as f64),
                    ("lower", range.lower as f64),
                    ("reps", set.reps as f64),
                    ("loadTolerance", tolerance),
                    ("increment", increment),
                ],
            ),
        ));
    }
}

/// Rule 2: a prescribed regular set done lighter than prescribed (by more than 2.5 lb) and still
/// at or below the rep floor in both of the last 2 sessions -> lower its target to the average
/// weight used.
pub(super) fn reduced_weight_to_hit_reps(ctx: &ExerciseContext, out: &mut Vec<SuggestionDraft>) {
    let Some(sessions) = last(ctx, 2) else {
        return;
    };
    let Some(floor) = rep_floor(&ctx.prescription.rep_range) else {
        return;
    };
    let unit = ctx.plan.unit;
    let tolerance = step(2.5, unit);
    for rx in by_index(ctx).filter(|rx| rx.set_type == SetType::Regular) {
        let hits: Vec<&PerformedSet> = sessions
            .iter()
            .filter_map(|perf| completed(perf, rx.index))
            .filter(|s| s.weight < rx.target_weight - tolerance && s.reps <= floor)
            .collect();
        if hits.len() < sessions.len() {
            continue;
        }
        let average = hits.iter().map(|s| s.weight).sum::<f64>() / hits.len() as f64;
        let old = rx.target_weight;
        let new = round(ctx, average);
        if new >= old {
            continue;
        }
        let mut figures = vec![("targetWeight", old), ("averageWeight", average)];
        figures.extend(hits.iter().map(|s| ("weight", s.weight)));
        figures.extend(hits.iter().map(|s| ("reps", s.reps as f64)));
        figures.extend([("floor", floor as f64), ("loadTolerance", tolerance)]);
        let used = hits
            .iter()
            .map(|s| format!("{} {} x {}", fmt(s.weight), unit.symbol(), s.reps))
            .collect::<Vec<_>>()
            .join(" and ");
        out.push(draft(
            REDUCED_WEIGHT_TO_HIT_REPS,
            ChangeType::DecreaseWeight,
            Some(rx.index),
            ChangeProperty::Weight,
            Some(num(old)),
            num(new),
            format!(
                "In your last 2 sessions you lowered set {} from {} {unit} to {used}, still only \
                 {floor} reps or fewer. Set the target to {} {unit} to match.",
                rx.index.saturating_add(1),
                fmt(old),
                fmt(new),
                unit = unit.symbol(),
            ),
            evidence(ids(&sessions), [rx.index], &figures),
        ));
    }
}

/// Rule 3: a regular set done more than 5 lb off the prescription, in the same direction, in each
/// of the last 3 sessions -> set its target to the average weight used.
pub(super) fn match_actual_weight(ctx: &ExerciseContext, out: &mut Vec<SuggestionDraft>) {
    let Some(sessions) = last(ctx, 3) else {
        return;
    };
    let unit = ctx.plan.unit;
    let threshold = step(5.0, unit);
    let progressing = weight_progression_indexes(ctx);
    for rx in by_index(ctx).filter(|rx| rx.set_type == SetType::Regular) {
        if progressing.contains(&rx.index) {
            continue;
        }
        let weights: Vec<f64> = sessions
            .iter()
            .filter_map(|perf| completed(perf, rx.index))
            .filter(|s| s.set_type == SetType::Regular)
            .map(|s| s.weight)
            .collect();
        if weights.len() < sessions.len() {
            continue;
        }
        let old = rx.target_weight;
        let all_above = weights.iter().all(|w| w - old > threshold);
        let all_below = weights.iter().all(|w| old - w > threshold);
        if !(all_above || all_below) {
            continue;
        }
        let average = weights.iter().sum::<f64>() / weights.len() as f64;
        let new = round(ctx, average);
        let change_type = if new > old {
            ChangeType::IncreaseWeight
        } else if new < old {
            ChangeType::DecreaseWeight
        } else {
            continue;
        };
        let mut figures = vec![("targetWeight", old), ("averageWeight", average)];
        figures.extend(weights.iter().map(|w| ("weight", *w)));
        figures.push(("deviationThreshold", threshold));
        out.push(draft(
            MATCH_ACTUAL_WEIGHT,
            change_type,
            Some(rx.index),
            ChangeProperty::Weight,
            Some(num(old)),
            num(new),
            format!(
                "You've used about {new} {unit} instead of {old} {unit} on this set for 3 \
                 sessions. Update the target to match the weight you actually lift.",
                unit = unit.symbol(),
            ),
            evidence(ids(&sessions), [rx.index], &figures),
        ));
    }
}

/// Rule 4: e1RM flat (within ±2%) over the last 3 sessions while struggling with the rep goal ->
/// add 15 s of rest (exercise-level in all-same mode, else per progression set).
pub(super) fn stagnation_increase_rest(ctx: &ExerciseContext, out: &mut Vec<SuggestionDraft>) {
    let Some(sessions) = last(ctx, 3) else {
        return;
    };
    let Some(e1rms) = sessions
        .iter()
        .map(|p| session_e1rm(p))
        .collect::<Option<Vec<f64>>>()
    else {
        return;
    };
    let range = ctx.prescription.rep_range;
    let style = ctx.plan.training_style;
    if !is_plateau(&e1rms) || !is_struggling(ctx.recent(), &range, style) {
        return;
    }
    let change_pct = plateau_change_pct(&e1rms).unwrap_or(0.0);
    let current_sets: Vec<u32> = progression_sets(&ctx.current, style)
        .iter()
        .map(|s| s.index)
        .collect();
    let mut figures = vec![
        ("e1rm", e1rms[0]),
        ("e1rmPrevious", e1rms[1]),
        ("e1rmThird", e1rms[2]),
        ("plateauChangePct", change_pct),
    ];
    if let Some(floor) = rep_floor(&range) {
        figures.push(("floor", floor as f64));
    }
    figures.push(("restIncreaseSeconds", REST_INCREASE_SECONDS as f64));
    let reasoning = |old: u32| {
        format!(
            "Your estimated 1RM moved only {change_pct:.1}% over 3 sessions and you're \
             struggling to reach your reps. Rest {} s instead of {old} s between sets to recover \
             better.",
            old.saturating_add(REST_INCREASE_SECONDS)
        )
    };
    match ctx.prescription.rest_mode {
        RestMode::AllSame => {
            let old = ctx.prescription.rest_seconds;
            out.push(draft(
                STAGNATION_INCREASE_REST,
                ChangeType::IncreaseRest,
                None,
                ChangeProperty::Rest,
                Some(num(old as f64)),
                num((old.saturating_add(REST_INCREASE_SECONDS)) as f64),
                reasoning(old),
                evidence(ids(&sessions), current_sets.iter().copied(), &figures),
            ));
        }
        RestMode::PerSet => {
            for index in current_sets {
                let Some(rx) = ctx.set_prescription(index) else {
                    continue;
                };
                // The rest before a drop set is 0 on purpose: the drop follows at once.
                let next = index.checked_add(1).and_then(|i| ctx.set_prescription(i));
                if next.is_some_and(|n| n.set_type == SetType::Drop) {
                    continue;
                }
                let old = rx.rest_seconds;
                out.push(draft(
                    STAGNATION_INCREASE_REST,
                    ChangeType::IncreaseRest,
                    Some(index),
                    ChangeProperty::Rest,
                    Some(num(old as f64)),
                    num((old.saturating_add(REST_INCREASE_SECONDS)) as f64),
                    reasoning(old),
                    evidence(ids(&sessions), [index], &figures),
                ));
            }
        }
    }
}

#[cfg(test)]
mod tests;
