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
//!    skipped when rounding leaves no heavier achievable load) and for sets
//!    `reduced_weight_to_hit_reps` has already decreased.
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
        let already_reduced = out.iter().any(|d| {
            d.rule_id.as_deref() == Some(REDUCED_WEIGHT_TO_HIT_REPS)
                && d.target_set_index == Some(rx.index)
        });
        if already_reduced {
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
mod tests {
    use super::super::testkit::{done, fired, Ctx};
    use super::super::{evaluate, weight_progression_indexes};
    use super::*;
    use crate::suggest::model::{ChangeType::*, Muscle, PerformedSet, SetType::*, WeightUnit};

    type Rule = fn(&ExerciseContext, &mut Vec<SuggestionDraft>);
    type Fired = Vec<(ChangeType, Option<u32>, Option<f64>)>;

    /// One rule alone, on an empty output.
    fn run(rule: Rule, ctx: &ExerciseContext) -> Vec<SuggestionDraft> {
        let mut out = Vec::new();
        rule(ctx, &mut out);
        out
    }

    /// Three completed regular sets, all at `weight`, with these reps.
    fn at(weight: f64, reps: [u32; 3]) -> Vec<PerformedSet> {
        (0..3)
            .map(|i| done(i, Regular, weight, reps[i as usize]))
            .collect()
    }

    /// Three completed regular sets at these weights, 10 reps each.
    fn weights(w: [f64; 3]) -> Vec<PerformedSet> {
        (0..3)
            .map(|i| done(i, Regular, w[i as usize], 10))
            .collect()
    }

    /// A kg plan: the prescription at 50 kg.
    fn kg(ctx: Ctx) -> Ctx {
        ctx.with(|c| c.plan.unit = WeightUnit::Kg)
            .rx(|rx| rx.sets.iter_mut().for_each(|s| s.target_weight = 50.0))
    }

    #[test]
    fn below_range_decrease_needs_two_of_three_sessions_at_the_prescribed_load() {
        let below = at(100.0, [7, 7, 7]);
        let fine = at(100.0, [10, 10, 10]);
        let down = vec![
            (DecreaseWeight, Some(0), Some(95.0)),
            (DecreaseWeight, Some(1), Some(95.0)),
        ];
        let cases: Vec<(&str, Ctx, Fired)> = vec![
            (
                "2 of 3: current and previous",
                Ctx::range(8, 12).performed(vec![below.clone(), below.clone(), fine.clone()]),
                down.clone(),
            ),
            (
                "2 of 3: current and third",
                Ctx::range(8, 12).performed(vec![below.clone(), fine.clone(), below.clone()]),
                down.clone(),
            ),
            (
                "2 of 3: the two previous",
                Ctx::range(8, 12).performed(vec![fine.clone(), below.clone(), below.clone()]),
                down.clone(),
            ),
            (
                "1 of 3",
                Ctx::range(8, 12).performed(vec![below.clone(), fine.clone(), fine.clone()]),
                vec![],
            ),
            (
                "the 4th session is outside the window",
                Ctx::range(8, 12).performed(vec![
                    below.clone(),
                    fine.clone(),
                    fine.clone(),
                    below.clone(),
                ]),
                vec![],
            ),
            (
                "2 of 2 available",
                Ctx::range(8, 12).performed(vec![below.clone(), below.clone()]),
                down.clone(),
            ),
            (
                "1 session only",
                Ctx::range(8, 12).performed(vec![below.clone()]),
                vec![],
            ),
            (
                "one progression set at the lower bound",
                Ctx::range(8, 12).performed(vec![at(100.0, [7, 8, 7]), at(100.0, [8, 7, 7])]),
                vec![],
            ),
            (
                "a non-progression set at the bound does not matter",
                Ctx::range(8, 12).performed(vec![at(100.0, [7, 7, 9]), at(100.0, [7, 7, 9])]),
                down.clone(),
            ),
            (
                "2.4 lb over the prescription",
                Ctx::range(8, 12).performed(vec![at(102.4, [7, 7, 7]), at(102.4, [7, 7, 7])]),
                down.clone(),
            ),
            (
                "2.6 lb over",
                Ctx::range(8, 12).performed(vec![at(102.6, [7, 7, 7]), at(102.6, [7, 7, 7])]),
                vec![],
            ),
            (
                "2.4 lb under",
                Ctx::range(8, 12).performed(vec![at(97.6, [7, 7, 7]), at(97.6, [7, 7, 7])]),
                down.clone(),
            ),
            (
                "2.6 lb under",
                Ctx::range(8, 12).performed(vec![at(97.4, [7, 7, 7]), at(97.4, [7, 7, 7])]),
                vec![],
            ),
            (
                "exactly 2.5 lb off counts",
                Ctx::range(8, 12).performed(vec![at(102.5, [7, 7, 7]), at(97.5, [7, 7, 7])]),
                down.clone(),
            ),
            (
                "kg: 1.2 kg off",
                kg(Ctx::range(8, 12)).performed(vec![at(51.2, [7, 7, 7]), at(48.8, [7, 7, 7])]),
                vec![
                    (DecreaseWeight, Some(0), Some(47.5)),
                    (DecreaseWeight, Some(1), Some(47.5)),
                ],
            ),
            (
                "kg: 1.3 kg off",
                kg(Ctx::range(8, 12)).performed(vec![at(51.3, [7, 7, 7]), at(51.3, [7, 7, 7])]),
                vec![],
            ),
            (
                "target mode",
                Ctx::target(10).performed(vec![at(100.0, [7, 7, 7]), at(100.0, [7, 7, 7])]),
                vec![],
            ),
            (
                "leg muscle: 10 lb increment",
                Ctx::range(8, 12)
                    .with(|c| c.exercise.target_muscles = vec![Muscle::Quads])
                    .performed(vec![below.clone(), below.clone()]),
                vec![
                    (DecreaseWeight, Some(0), Some(90.0)),
                    (DecreaseWeight, Some(1), Some(90.0)),
                ],
            ),
            (
                "body weight (target 0) is not decreased",
                Ctx::range(8, 12)
                    .rx(|rx| rx.sets.iter_mut().for_each(|s| s.target_weight = 0.0))
                    .performed(vec![at(0.0, [7, 7, 7]), at(0.0, [7, 7, 7])]),
                vec![],
            ),
        ];
        for (name, ctx, expected) in cases {
            let drafts = run(below_range_decrease, &ctx.build());
            assert_eq!(fired(&drafts, BELOW_RANGE_DECREASE), expected, "{name}");
        }
    }

    #[test]
    fn below_range_decrease_explains_itself() {
        let ctx = Ctx::range(8, 12)
            .performed(vec![
                at(100.0, [7, 7, 7]),
                at(100.0, [10, 10, 10]),
                at(100.0, [6, 7, 7]),
            ])
            .build();
        let d = &run(below_range_decrease, &ctx)[0];
        assert_eq!(d.rule_id.as_deref(), Some(BELOW_RANGE_DECREASE));
        assert_eq!(d.property, ChangeProperty::Weight);
        assert_eq!(d.old_value, Some(num(100.0)));
        assert_eq!(d.evidence.performance_ids, ["perf-0", "perf-1", "perf-2"]);
        assert_eq!(d.evidence.set_indexes, [0]);
        let figure = |n: &str| {
            d.evidence
                .figures
                .iter()
                .find(|f| f.name == n)
                .map(|f| f.value)
        };
        assert_eq!(figure("sessionsBelow"), Some(2.0));
        assert_eq!(figure("lower"), Some(8.0));
        assert_eq!(figure("increment"), Some(5.0));
        assert!(d.reasoning.contains("95"), "{}", d.reasoning);
    }

    #[test]
    fn reduced_weight_to_hit_reps_in_both_of_the_last_two_sessions() {
        let all = |w: f64| {
            vec![
                (DecreaseWeight, Some(0), Some(w)),
                (DecreaseWeight, Some(1), Some(w)),
                (DecreaseWeight, Some(2), Some(w)),
            ]
        };
        let cases: Vec<(&str, Ctx, Fired)> = vec![
            (
                "2.6 lb under, below the floor, twice",
                Ctx::range(8, 12).performed(vec![at(97.4, [7, 7, 7]), at(97.4, [7, 7, 7])]),
                all(97.5),
            ),
            (
                "2.4 lb under",
                Ctx::range(8, 12).performed(vec![at(97.6, [7, 7, 7]), at(97.6, [7, 7, 7])]),
                vec![],
            ),
            (
                "exactly 2.5 lb under is not reduced",
                Ctx::range(8, 12).performed(vec![at(97.5, [7, 7, 7]), at(97.5, [7, 7, 7])]),
                vec![],
            ),
            (
                "at the floor still counts (reps <= floor)",
                Ctx::range(8, 12).performed(vec![at(90.0, [8, 8, 8]), at(90.0, [8, 8, 8])]),
                all(90.0),
            ),
            (
                "one above the floor",
                Ctx::range(8, 12).performed(vec![at(90.0, [9, 9, 9]), at(90.0, [9, 9, 9])]),
                vec![],
            ),
            (
                "only the current session",
                Ctx::range(8, 12).performed(vec![at(90.0, [7, 7, 7]), at(100.0, [7, 7, 7])]),
                vec![],
            ),
            (
                "one session only",
                Ctx::range(8, 12).performed(vec![at(90.0, [7, 7, 7])]),
                vec![],
            ),
            (
                "average of the two sessions",
                Ctx::range(8, 12).performed(vec![at(90.0, [7, 7, 7]), at(85.0, [6, 6, 6])]),
                all(87.5),
            ),
            (
                "lightened sets outside the two heaviest are judged too",
                Ctx::range(8, 12).performed(vec![
                    vec![
                        done(0, Regular, 100.0, 8),
                        done(1, Regular, 90.0, 7),
                        done(2, Regular, 90.0, 7),
                    ];
                    2
                ]),
                vec![
                    (DecreaseWeight, Some(1), Some(90.0)),
                    (DecreaseWeight, Some(2), Some(90.0)),
                ],
            ),
            (
                "per set: each set's own weights",
                Ctx::range(8, 12).performed(vec![
                    vec![
                        done(0, Regular, 100.0, 7),
                        done(1, Regular, 90.0, 7),
                        done(2, Regular, 80.0, 7),
                    ];
                    2
                ]),
                vec![
                    (DecreaseWeight, Some(1), Some(90.0)),
                    (DecreaseWeight, Some(2), Some(80.0)),
                ],
            ),
            (
                "an incomplete set is not judged",
                Ctx::range(8, 12).performed(vec![
                    {
                        let mut s = at(90.0, [7, 7, 7]);
                        s[2].completed = false;
                        s
                    },
                    at(90.0, [7, 7, 7]),
                ]),
                vec![
                    (DecreaseWeight, Some(0), Some(90.0)),
                    (DecreaseWeight, Some(1), Some(90.0)),
                ],
            ),
            (
                "a prescribed warmup is not judged",
                Ctx::range(8, 12)
                    .rx(|rx| rx.sets[0].set_type = Warmup)
                    .performed(vec![at(90.0, [7, 7, 7]), at(90.0, [7, 7, 7])]),
                vec![
                    (DecreaseWeight, Some(1), Some(90.0)),
                    (DecreaseWeight, Some(2), Some(90.0)),
                ],
            ),
            (
                "target mode: at the target",
                Ctx::target(10).performed(vec![at(90.0, [10, 10, 10]), at(90.0, [10, 10, 10])]),
                all(90.0),
            ),
            (
                "target mode: above the target",
                Ctx::target(10).performed(vec![at(90.0, [11, 11, 11]), at(90.0, [11, 11, 11])]),
                vec![],
            ),
            (
                "no rep range, run alone: no floor, nothing",
                Ctx::not_set().performed(vec![at(90.0, [9, 9, 9]), at(90.0, [9, 9, 9])]),
                vec![],
            ),
            (
                "kg: 1.3 kg under",
                kg(Ctx::range(8, 12)).performed(vec![at(48.7, [7, 7, 7]), at(48.7, [7, 7, 7])]),
                all(48.75),
            ),
            (
                "kg: 1.2 kg under",
                kg(Ctx::range(8, 12)).performed(vec![at(48.8, [7, 7, 7]), at(48.8, [7, 7, 7])]),
                vec![],
            ),
        ];
        for (name, ctx, expected) in cases {
            let drafts = run(reduced_weight_to_hit_reps, &ctx.build());
            assert_eq!(
                fired(&drafts, REDUCED_WEIGHT_TO_HIT_REPS),
                expected,
                "{name}"
            );
        }
    }

    #[test]
    fn reduced_weight_needs_a_rep_goal() {
        // 90 lb instead of 100 with 9 reps twice: with no rep goal there is no floor to call
        // those reps low (only the rep range inference speaks), with a target of 9 every set is
        // reduced (9 is at that floor).
        let sessions = vec![at(90.0, [9, 9, 9]), at(90.0, [9, 9, 9])];
        let ctx = Ctx::not_set().performed(sessions.clone()).build();
        assert_eq!(fired(&evaluate(&ctx), REDUCED_WEIGHT_TO_HIT_REPS), vec![]);
        let ctx = Ctx::target(9).performed(sessions).build();
        let drafts = evaluate(&ctx);
        assert_eq!(
            fired(&drafts, REDUCED_WEIGHT_TO_HIT_REPS),
            vec![
                (DecreaseWeight, Some(0), Some(90.0)),
                (DecreaseWeight, Some(1), Some(90.0)),
                (DecreaseWeight, Some(2), Some(90.0)),
            ]
        );
        let floor = drafts[1]
            .evidence
            .figures
            .iter()
            .find(|f| f.name == "floor")
            .map(|f| f.value);
        assert_eq!(floor, Some(9.0));
    }

    #[test]
    fn match_actual_weight_after_three_sessions_off_in_one_direction() {
        let three = |w: [f64; 3]| {
            Ctx::range(8, 12).performed(vec![
                weights([w[0]; 3]),
                weights([w[1]; 3]),
                weights([w[2]; 3]),
            ])
        };
        let all = |t: ChangeType, w: f64| {
            vec![
                (t, Some(0), Some(w)),
                (t, Some(1), Some(w)),
                (t, Some(2), Some(w)),
            ]
        };
        let cases: Vec<(&str, Ctx, Fired)> = vec![
            (
                "5.1 lb above",
                three([105.1; 3]),
                all(IncreaseWeight, 105.0),
            ),
            ("exactly 5.0 lb above", three([105.0; 3]), vec![]),
            ("4.9 lb above", three([104.9; 3]), vec![]),
            ("5.1 lb below", three([94.9; 3]), all(DecreaseWeight, 95.0)),
            ("exactly 5.0 lb below", three([95.0; 3]), vec![]),
            ("4.9 lb below", three([95.1; 3]), vec![]),
            (
                "one session within 5 lb",
                three([110.0, 104.9, 110.0]),
                vec![],
            ),
            ("mixed directions", three([106.0, 94.0, 106.0]), vec![]),
            (
                "average used",
                three([110.0, 107.5, 105.1]),
                all(IncreaseWeight, 107.5),
            ),
            (
                "only 2 sessions",
                Ctx::range(8, 12).performed(vec![weights([110.0; 3]), weights([110.0; 3])]),
                vec![],
            ),
            (
                "one set only",
                Ctx::range(8, 12).performed(vec![weights([100.0, 100.0, 90.0]); 3]),
                vec![(DecreaseWeight, Some(2), Some(90.0))],
            ),
            (
                "kg: 2.6 kg above",
                kg(Ctx::range(8, 12)).performed(vec![weights([52.6; 3]); 3]),
                all(IncreaseWeight, 52.5),
            ),
            (
                "kg: 2.4 kg above",
                kg(Ctx::range(8, 12)).performed(vec![weights([52.4; 3]); 3]),
                vec![],
            ),
            (
                "prescribed warmup sets are left alone",
                Ctx::range(8, 12)
                    .rx(|rx| rx.sets[0].set_type = Warmup)
                    .performed(vec![weights([110.0, 100.0, 100.0]); 3]),
                vec![],
            ),
            (
                "a set logged as a warmup once is not matched",
                Ctx::range(8, 12).performed(vec![
                    weights([110.0; 3]),
                    vec![
                        done(0, Warmup, 110.0, 10),
                        done(1, Regular, 100.0, 10),
                        done(2, Regular, 100.0, 10),
                    ],
                    weights([110.0; 3]),
                ]),
                vec![],
            ),
        ];
        for (name, ctx, expected) in cases {
            let drafts = run(match_actual_weight, &ctx.build());
            assert_eq!(fired(&drafts, MATCH_ACTUAL_WEIGHT), expected, "{name}");
        }
    }

    #[test]
    fn match_actual_weight_skips_sets_that_double_progression_increases() {
        // Range 8-12, 110 lb instead of 100 for 3 sessions, the top of the range in the last two:
        // double progression increases the progression sets 0 and 1; set 2 is still matched.
        let ctx = Ctx::range(8, 12)
            .performed(vec![
                at(110.0, [12, 12, 12]),
                at(110.0, [12, 12, 12]),
                at(110.0, [10, 10, 10]),
            ])
            .build();
        assert_eq!(
            weight_progression_indexes(&ctx),
            vec![0, 1],
            "precondition: double progression qualifies (progression.rs)"
        );
        let drafts = evaluate(&ctx);
        assert_eq!(
            fired(&drafts, MATCH_ACTUAL_WEIGHT),
            vec![(IncreaseWeight, Some(2), Some(110.0))]
        );
        // Without the top of the range, every set is matched.
        let ctx = Ctx::range(8, 12)
            .performed(vec![
                at(110.0, [11, 11, 11]),
                at(110.0, [12, 12, 12]),
                at(110.0, [10, 10, 10]),
            ])
            .build();
        assert_eq!(weight_progression_indexes(&ctx), Vec::<u32>::new());
        assert_eq!(
            fired(&evaluate(&ctx), MATCH_ACTUAL_WEIGHT),
            vec![
                (IncreaseWeight, Some(0), Some(110.0)),
                (IncreaseWeight, Some(1), Some(110.0)),
                (IncreaseWeight, Some(2), Some(110.0))
            ]
        );
    }

    #[test]
    fn match_actual_weight_skips_progressing_sets_even_without_a_loadable_increase() {
        // Only 45 lb plates, prescribed 135, logged 225 x 12 (8-12 range) three times: double
        // progression qualifies on sets 0 and 1 but 135 + 5 rounds back to 135, so no increase is
        // emitted. As in the original, the sets still count as progressing: only set 2 is matched.
        let ctx = Ctx::range(8, 12)
            .rx(|rx| rx.sets.iter_mut().for_each(|s| s.target_weight = 135.0))
            .with(|c| {
                c.plan.load = crate::suggest::model::LoadConfig {
                    plates: vec![45.0],
                    bar_weight: 45.0,
                    dumbbells: vec![],
                }
            })
            .performed(vec![at(225.0, [12, 12, 12]); 3])
            .build();
        let drafts = evaluate(&ctx);
        assert!(drafts
            .iter()
            .all(|d| d.rule_id.as_deref() != Some("double_progression_range")));
        assert_eq!(
            fired(&drafts, MATCH_ACTUAL_WEIGHT),
            vec![(IncreaseWeight, Some(2), Some(225.0))]
        );
    }

    #[test]
    fn stagnation_needs_a_rep_goal() {
        // A flat e1RM with 7 reps everywhere: with no rep goal nobody is "struggling"; with a
        // target of 7, at most floor + 1 in every session is, and rest goes up.
        let ctx = Ctx::not_set().performed(vec![at(100.0, [7; 3]); 3]).build();
        assert_eq!(fired(&evaluate(&ctx), STAGNATION_INCREASE_REST), vec![]);
        let ctx = Ctx::target(7).performed(vec![at(100.0, [7; 3]); 3]).build();
        assert_eq!(
            fired(&evaluate(&ctx), STAGNATION_INCREASE_REST),
            vec![(IncreaseRest, None, Some(105.0))]
        );
    }

    #[test]
    fn match_actual_weight_skips_sets_already_reduced() {
        // 90 lb instead of 100 with 7 reps (range 8-12) three times on sets 0 and 1, 90 x 10 on
        // set 2: sets 0 and 1 are reduced by reduced_weight_to_hit_reps; match actual only takes
        // set 2 (above the floor, so not "reduced to hit reps").
        let session = vec![
            done(0, Regular, 90.0, 7),
            done(1, Regular, 90.0, 7),
            done(2, Regular, 90.0, 10),
        ];
        let ctx = Ctx::range(8, 12).performed(vec![session; 3]).build();
        let drafts = evaluate(&ctx);
        assert_eq!(
            fired(&drafts, REDUCED_WEIGHT_TO_HIT_REPS),
            vec![
                (DecreaseWeight, Some(0), Some(90.0)),
                (DecreaseWeight, Some(1), Some(90.0))
            ]
        );
        assert_eq!(
            fired(&drafts, MATCH_ACTUAL_WEIGHT),
            vec![(DecreaseWeight, Some(2), Some(90.0))]
        );
    }

    #[test]
    fn stagnation_increases_rest_on_a_plateau_while_struggling() {
        // e1RM moves with the weight when the reps stay the same.
        let sessions = |newest: f64, reps: u32| {
            vec![
                at(newest, [reps; 3]),
                at(100.0, [reps; 3]),
                at(100.0, [reps; 3]),
            ]
        };
        let per_set = |ctx: Ctx| {
            ctx.rx(|rx| {
                rx.rest_mode = RestMode::PerSet;
                for (s, rest) in rx.sets.iter_mut().zip([60, 90, 120]) {
                    s.rest_seconds = rest;
                }
            })
        };
        let exercise = vec![(IncreaseRest, None, Some(105.0))];
        let cases: Vec<(&str, Ctx, Fired)> = vec![
            (
                "+1.9%, struggling (below the floor)",
                Ctx::range(8, 12).performed(sessions(101.9, 7)),
                exercise.clone(),
            ),
            (
                "+2.1%",
                Ctx::range(8, 12).performed(sessions(102.1, 7)),
                vec![],
            ),
            (
                "-1.9%",
                Ctx::range(8, 12).performed(sessions(98.1, 7)),
                exercise.clone(),
            ),
            (
                "-2.1%",
                Ctx::range(8, 12).performed(sessions(97.9, 7)),
                vec![],
            ),
            (
                "struggling: all at floor + 1",
                Ctx::range(8, 12).performed(sessions(101.9, 9)),
                exercise.clone(),
            ),
            (
                "not struggling: floor + 2",
                Ctx::range(8, 12).performed(sessions(101.9, 10)),
                vec![],
            ),
            (
                "target mode, struggling",
                Ctx::target(10).performed(sessions(100.0, 9)),
                exercise.clone(),
            ),
            (
                "no rep range: never struggling",
                Ctx::not_set().performed(sessions(100.0, 7)),
                vec![],
            ),
            (
                "only 2 sessions",
                Ctx::range(8, 12).performed(vec![at(100.0, [7; 3]), at(100.0, [7; 3])]),
                vec![],
            ),
            (
                "a session without e1RM",
                Ctx::range(8, 12).performed(vec![
                    at(100.0, [7; 3]),
                    at(0.0, [7; 3]),
                    at(100.0, [7; 3]),
                    at(100.0, [7; 3]),
                ]),
                vec![],
            ),
            (
                "per-set rest: each progression set",
                per_set(Ctx::range(8, 12)).performed(sessions(101.9, 7)),
                vec![
                    (IncreaseRest, Some(0), Some(75.0)),
                    (IncreaseRest, Some(1), Some(105.0)),
                ],
            ),
            (
                "per-set rest, not a plateau",
                per_set(Ctx::range(8, 12)).performed(sessions(102.1, 7)),
                vec![],
            ),
            // Rest beyond what savePlan allows (a bypassed check): no overflow, it saturates.
            (
                "all same: prescribed u32::MAX",
                Ctx::range(8, 12)
                    .rx(|rx| rx.rest_seconds = u32::MAX)
                    .performed(sessions(101.9, 7)),
                vec![(IncreaseRest, None, Some(u32::MAX as f64))],
            ),
            (
                "per set: set 1 prescribed u32::MAX",
                per_set(Ctx::range(8, 12))
                    .rx(|rx| rx.sets[1].rest_seconds = u32::MAX)
                    .performed(sessions(101.9, 7)),
                vec![
                    (IncreaseRest, Some(0), Some(75.0)),
                    (IncreaseRest, Some(1), Some(u32::MAX as f64)),
                ],
            ),
        ];
        for (name, ctx, expected) in cases {
            let drafts = run(stagnation_increase_rest, &ctx.build());
            assert_eq!(fired(&drafts, STAGNATION_INCREASE_REST), expected, "{name}");
        }
    }

    #[test]
    fn stagnation_rest_change_and_evidence() {
        let ctx = Ctx::range(8, 12)
            .performed(vec![
                at(101.9, [7; 3]),
                at(101.0, [7; 3]),
                at(100.0, [7; 3]),
                at(90.0, [7; 3]),
            ])
            .build();
        let drafts = run(stagnation_increase_rest, &ctx);
        assert_eq!(drafts.len(), 1);
        let d = &drafts[0];
        assert_eq!(
            (d.target_set_index, d.property),
            (None, ChangeProperty::Rest)
        );
        assert_eq!(
            (d.old_value.clone(), d.new_value.clone()),
            (Some(num(90.0)), num(105.0))
        );
        assert_eq!(d.evidence.performance_ids, ["perf-0", "perf-1", "perf-2"]);
        let figure = |n: &str| {
            d.evidence
                .figures
                .iter()
                .find(|f| f.name == n)
                .map(|f| f.value)
                .unwrap()
        };
        let e = |w: f64| w * (1.0 + 7.0 / 30.0);
        assert!((figure("e1rm") - e(101.9)).abs() < 1e-9);
        assert!((figure("e1rmPrevious") - e(101.0)).abs() < 1e-9);
        assert!((figure("e1rmThird") - e(100.0)).abs() < 1e-9);
        assert!((figure("plateauChangePct") - 1.9).abs() < 1e-9);
        assert!(d.reasoning.contains("105 s"), "{}", d.reasoning);
    }

    #[test]
    fn stagnation_leaves_the_rest_before_a_drop_set_alone() {
        // Two working sets, then a drop set right after the second: that set's rest is 0 on
        // purpose, and stays so.
        let s = |w: f64| {
            vec![
                done(0, Regular, w, 7),
                done(1, Regular, w, 7),
                done(2, Drop, w * 0.7, 7),
            ]
        };
        let ctx = Ctx::range(8, 12)
            .rx(|rx| {
                rx.rest_mode = RestMode::PerSet;
                rx.sets[1].rest_seconds = 0;
                rx.sets[2].set_type = Drop;
                rx.sets[2].target_weight = 70.0;
            })
            .performed(vec![s(101.9), s(101.0), s(100.0), s(90.0)])
            .build();
        let drafts = run(stagnation_increase_rest, &ctx);
        assert_eq!(
            fired(&drafts, STAGNATION_INCREASE_REST),
            vec![(IncreaseRest, Some(0), Some(105.0))]
        );
    }
}
