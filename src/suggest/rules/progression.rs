//! Progression rules (spec 004 "Progression Rules"), strongest evidence first:
//!
//! 1. **Large overshoot** (`large_overshoot`). Range mode: in each of the last 2 sessions every
//!    progression set has at least upper + 4 reps; target mode: at least target + 5. Increase the
//!    weight of each progression set by 1.5x the normal increment, and in range mode reset its
//!    target reps to the lower bound.
//! 2. **Double progression, range mode** (`double_progression_range`). In each of the last 2
//!    sessions every progression set hit the top of the range (reps >= upper). Increase the weight
//!    by the normal increment and reset target reps to the lower bound.
//! 3. **Double progression, target mode** (`double_progression_target`). In each of the last 2
//!    sessions every progression set exceeded the target by at least 1 (reps >= target + 1).
//!    Increase the weight by the normal increment.
//! 4. **Steady reps increase** (`steady_reps_increase`). Range mode only. A progression set
//!    repeated the same reps at the same weight (within 2.5 lb, 1.25 kg) in the last 2 sessions,
//!    with lower <= reps < upper and reps >= the set's target reps: raise its target reps to
//!    reps + 1 (capped at upper). Skipped for sets where a weight progression above qualifies.
//!
//! Shared definitions: the rep range is the prescribed one (with mode `notSet`, nothing here
//! fires; see [`super::evaluate`]). "The last 2 sessions" are the current performance and the previous
//! completed one ([`ExerciseContext::recent`]); with fewer, nothing fires. Progression sets are
//! [`metrics::progression_sets`] under the plan's training style; a session without any does not
//! satisfy a condition. Changes target the progression sets of the current performance, through
//! the set prescription with the same index (sets without one are skipped). Weight changes need a
//! target weight > 0 (body weight sets are left alone). The increment is
//! [`metrics::weight_increment`] at the set's target weight, and the new weight is
//! [`metrics::round_to_achievable`] of target weight + multiplier x increment. The window, the
//! thresholds, the load step and the raised load are [`progress`]'s: the workout planner's next
//! prescription is decided by the same code (one progression engine).
//!
//! Choices where the spec and the issue are silent:
//! - **Overshoot wins.** Large overshoot implies double progression on the same sets (reps of at
//!   least upper + 4 are at least upper; at least target + 5 is at least target + 1); when the large-overshoot condition holds, the double
//!   progression rules emit nothing, so only the bigger jump is suggested. This is checked on the
//!   condition, not on earlier drafts, so each rule gives the same answer alone.
//! - **No phantom increases.** A weight increase is emitted only if the rounded new weight is
//!   above the current target (owned plates or dumbbells may make the step unachievable). The reps
//!   reset belongs to the added weight: it is emitted only with a weight increase, and only when the
//!   set has per-set target reps (> 0) that differ from the lower bound. Its change type follows
//!   the direction: `decreaseReps` when the target reps are above the lower bound (the usual case),
//!   `increaseReps` in the rare case of target reps below it.
//! - **Steady reps compares the same set index** in the current and the previous performance;
//!   both must be completed regular sets, and the set's prescription must be regular with target
//!   reps > 0. Weights are compared with each other (not with the prescription). In range mode a
//!   set that qualifies here cannot also qualify for a weight increase (that needs reps >= upper),
//!   so the skip of [`super::weight_progression_indexes`] is a guard that keeps the spec's rule
//!   explicit. That function judges the progression *condition* (the current progression sets
//!   when overshoot or double progression qualifies), not the emitted drafts, as the original app
//!   does: a set whose increase rounds back to its current weight still counts as progressing.
//! - **Evidence**: the two performance ids (newest first), the union of their progression set
//!   indexes, and the figures that decided it (bounds, threshold, the lowest progression-set reps,
//!   increment and multiplier, or reps and weights for steady reps).

use super::super::metrics::{self, progression_sets};
use super::super::model::{
    ChangeProperty, ChangeType, ExerciseContext, ExercisePerformance, RepRangeMode, SetType,
    SuggestionDraft,
};
use super::super::progress::{
    self, load_step, next_reps, overshoot_threshold, raised_load, LoadStep, Window,
    OVERSHOOT_MULTIPLIER, TARGET_EXCEED_REPS,
};
use super::{draft, evidence, num, weight_text as fmt};

/// Rule id of the large overshoot progression.
pub(super) const LARGE_OVERSHOOT: &str = "large_overshoot";
/// Rule id of double progression in range mode.
pub(super) const DOUBLE_PROGRESSION_RANGE: &str = "double_progression_range";
/// Rule id of double progression in target mode.
pub(super) const DOUBLE_PROGRESSION_TARGET: &str = "double_progression_target";
/// Rule id of the steady reps increase within the range.
pub(super) const STEADY_REPS_INCREASE: &str = "steady_reps_increase";

/// Weight tolerance of "the same weight" for steady reps, in pounds.
const SAME_WEIGHT_LBS: f64 = 2.5;

/// The current and previous performance, if both exist.
fn last_two(ctx: &ExerciseContext) -> Option<[&ExercisePerformance; 2]> {
    let mut recent = ctx.recent();
    Some([recent.next()?, recent.next()?])
}

/// The last 2 sessions, if there are 2 and each has progression sets ([`progress::window`]).
fn window(ctx: &ExerciseContext) -> Option<Window<'_>> {
    progress::window(last_two(ctx)?, ctx.plan.training_style)
}

/// The load step the last 2 sessions earn under the prescribed rep goal
/// ([`progress::load_step`]), with their window.
fn earned(ctx: &ExerciseContext) -> Option<(LoadStep, Window<'_>)> {
    let w = window(ctx)?;
    Some((load_step(&ctx.prescription.rep_range, w.min_reps)?, w))
}

/// The indexes of the current progression sets when large overshoot or double progression
/// qualifies (on the condition, not on emitted drafts), ascending; else empty.
pub(super) fn weight_progression_warranted(ctx: &ExerciseContext) -> Vec<u32> {
    if earned(ctx).is_none() {
        return Vec::new();
    }
    progression_sets(&ctx.current, ctx.plan.training_style)
        .iter()
        .map(|s| s.index)
        .collect()
}

/// How a qualifying progression rule changes each current progression set.
struct Increase<'a> {
    rule: &'static str,
    /// Increments to add.
    multiplier: f64,
    /// Range mode: the lower bound to reset target reps to.
    reset_reps_to: Option<u32>,
    /// The figures of the condition, shared by every draft.
    figures: Vec<(&'static str, f64)>,
    /// The sentence explaining the weight increase.
    weight_reason: String,
    window: &'a Window<'a>,
}

/// Emits, by set index, the weight increase (and reps reset) for each progression set of the
/// current performance.
fn emit_increases(ctx: &ExerciseContext, inc: Increase<'_>, out: &mut Vec<SuggestionDraft>) {
    let unit = ctx.plan.unit;
    let ids = inc.window.perfs.map(|p| p.id.as_str());
    for set in progression_sets(&ctx.current, ctx.plan.training_style) {
        let Some(rx) = ctx.set_prescription(set.index) else {
            continue;
        };
        let weight = rx.target_weight;
        if weight <= 0.0 || !weight.is_finite() {
            continue;
        }
        let (new_weight, increment) =
            raised_load(weight, inc.multiplier, &ctx.exercise, &ctx.plan.load, unit);
        if new_weight <= weight {
            continue;
        }
        let mut figures = inc.figures.clone();
        figures.push(("increment", increment));
        figures.push(("multiplier", inc.multiplier));
        out.push(draft(
            inc.rule,
            ChangeType::IncreaseWeight,
            Some(rx.index),
            ChangeProperty::Weight,
            Some(num(weight)),
            num(new_weight),
            format!(
                "{} Go from {} to {}.",
                inc.weight_reason,
                fmt(weight),
                fmt(new_weight)
            ),
            evidence(ids, inc.window.set_indexes.iter().copied(), &figures),
        ));
        let Some(lower) = inc.reset_reps_to else {
            continue;
        };
        if rx.target_reps == 0 || rx.target_reps == lower {
            continue;
        }
        let change_type = if rx.target_reps > lower {
            ChangeType::DecreaseReps
        } else {
            ChangeType::IncreaseReps
        };
        let mut figures = inc.figures.clone();
        figures.push(("targetReps", rx.target_reps as f64));
        out.push(draft(
            inc.rule,
            change_type,
            Some(rx.index),
            ChangeProperty::Reps,
            Some(num(rx.target_reps as f64)),
            num(lower as f64),
            format!(
                "Reset target reps from {} to the bottom of your range ({lower}) for the heavier \
                 weight ({}).",
                rx.target_reps,
                fmt(new_weight)
            ),
            evidence(ids, inc.window.set_indexes.iter().copied(), &figures),
        ));
    }
}

/// Large overshoot: every progression set at upper + 4 (range) or target + 5 (target) reps in
/// both of the last 2 sessions -> 1.5x the weight increment, and in range mode reps reset to the
/// lower bound.
pub(super) fn large_overshoot(ctx: &ExerciseContext, out: &mut Vec<SuggestionDraft>) {
    let range = &ctx.prescription.rep_range;
    let (Some((LoadStep::Overshoot, w)), Some(threshold)) =
        (earned(ctx), overshoot_threshold(range))
    else {
        return;
    };
    let (bound, reset, weight_reason) = match range.mode {
        RepRangeMode::Range => (
            ("upper", range.upper as f64),
            Some(range.lower),
            format!(
                "Your working sets reached at least {} reps, {} past the top of your range ({}), \
                 in your last two sessions: make a bigger jump in weight.",
                w.min_reps,
                w.min_reps - range.upper,
                range.upper
            ),
        ),
        _ => (
            ("target", range.target as f64),
            None,
            format!(
                "Your working sets reached at least {} reps, {} past your target ({}), in your \
                 last two sessions: make a bigger jump in weight.",
                w.min_reps,
                w.min_reps - range.target,
                range.target
            ),
        ),
    };
    let figures = vec![
        bound,
        ("threshold", threshold as f64),
        ("minReps", w.min_reps as f64),
    ];
    let inc = Increase {
        rule: LARGE_OVERSHOOT,
        multiplier: OVERSHOOT_MULTIPLIER,
        reset_reps_to: reset,
        figures,
        weight_reason,
        window: &w,
    };
    emit_increases(ctx, inc, out);
}

/// Double progression in range mode: every progression set at the upper bound or more in both of
/// the last 2 sessions -> one weight increment, reps reset to the lower bound. Silent when the
/// large overshoot applies.
pub(super) fn double_progression_range(ctx: &ExerciseContext, out: &mut Vec<SuggestionDraft>) {
    let range = &ctx.prescription.rep_range;
    if range.mode != RepRangeMode::Range {
        return;
    }
    let Some((LoadStep::Double, w)) = earned(ctx) else {
        return;
    };
    let inc = Increase {
        rule: DOUBLE_PROGRESSION_RANGE,
        multiplier: 1.0,
        reset_reps_to: Some(range.lower),
        figures: vec![
            ("lower", range.lower as f64),
            ("upper", range.upper as f64),
            ("minReps", w.min_reps as f64),
        ],
        weight_reason: format!(
            "You hit the top of your rep range ({}) in your last two sessions: add weight.",
            range.upper
        ),
        window: &w,
    };
    emit_increases(ctx, inc, out);
}

/// Double progression in target mode: every progression set at target + 1 or more in both of the
/// last 2 sessions -> one weight increment. Silent when the large overshoot applies.
pub(super) fn double_progression_target(ctx: &ExerciseContext, out: &mut Vec<SuggestionDraft>) {
    let range = &ctx.prescription.rep_range;
    if range.mode != RepRangeMode::Target {
        return;
    }
    let Some((LoadStep::Double, w)) = earned(ctx) else {
        return;
    };
    let threshold = range.target.saturating_add(TARGET_EXCEED_REPS);
    let inc = Increase {
        rule: DOUBLE_PROGRESSION_TARGET,
        multiplier: 1.0,
        reset_reps_to: None,
        figures: vec![
            ("target", range.target as f64),
            ("threshold", threshold as f64),
            ("minReps", w.min_reps as f64),
        ],
        weight_reason: format!(
            "You beat your rep target ({}) in your last two sessions: add weight.",
            range.target
        ),
        window: &w,
    };
    emit_increases(ctx, inc, out);
}

/// Steady reps increase (range mode): a progression set repeating the same reps at the same
/// weight (within 2.5 lb) in the last 2 sessions, within the range and below its top, gets its
/// target reps raised to reps + 1 (at most upper). Skips sets a weight progression covers.
pub(super) fn steady_reps_increase(ctx: &ExerciseContext, out: &mut Vec<SuggestionDraft>) {
    let range = &ctx.prescription.rep_range;
    if range.mode != RepRangeMode::Range {
        return;
    }
    let Some(perfs) = last_two(ctx) else {
        return;
    };
    let [current, previous] = perfs;
    let covered = weight_progression_indexes(ctx);
    let tolerance = metrics::step(SAME_WEIGHT_LBS, ctx.plan.unit);
    let ids = perfs.map(|p| p.id.as_str());
    for set in progression_sets(current, ctx.plan.training_style) {
        let Some(rx) = ctx.set_prescription(set.index) else {
            continue;
        };
        if rx.set_type != SetType::Regular || rx.target_reps == 0 || covered.contains(&rx.index) {
            continue;
        }
        let working = |perf: &'_ ExercisePerformance| {
            perf.sets
                .iter()
                .find(|s| s.index == rx.index && s.completed && s.set_type == SetType::Regular)
                .map(|s| (s.reps, s.weight))
        };
        let (Some((reps, weight)), Some((prev_reps, prev_weight))) =
            (working(current), working(previous))
        else {
            continue;
        };
        // A hair of slack so that exactly 2.5 lb apart compares as within, whatever the floats.
        if reps != prev_reps || (weight - prev_weight).abs() > tolerance + 1e-9 {
            continue;
        }
        if reps < range.lower || reps >= range.upper || reps < rx.target_reps {
            continue;
        }
        let new_reps = next_reps(reps, range.upper);
        if new_reps <= rx.target_reps {
            continue;
        }
        out.push(draft(
            STEADY_REPS_INCREASE,
            ChangeType::IncreaseReps,
            Some(rx.index),
            ChangeProperty::Reps,
            Some(num(rx.target_reps as f64)),
            num(new_reps as f64),
            format!(
                "You did {reps} reps at {} in your last two sessions. Aim for {new_reps} next \
                 time to keep progressing within your range.",
                fmt(weight)
            ),
            evidence(
                ids,
                [rx.index],
                &[
                    ("reps", reps as f64),
                    ("weight", weight),
                    ("previousWeight", prev_weight),
                    ("lower", range.lower as f64),
                    ("upper", range.upper as f64),
                    ("targetReps", rx.target_reps as f64),
                ],
            ),
        ));
    }
}

/// Set indexes for which a progression rule (large overshoot or double progression) warrants a
/// weight increase: the current progression sets when one of those conditions holds, whether or
/// not an increase can actually be emitted (rounding may leave no heavier achievable load, or the
/// target weight may be 0). Rules that would otherwise fight progression check this first, as the
/// original app does.
pub(crate) fn weight_progression_indexes(ctx: &ExerciseContext) -> Vec<u32> {
    weight_progression_warranted(ctx)
}

#[cfg(test)]
mod tests;
