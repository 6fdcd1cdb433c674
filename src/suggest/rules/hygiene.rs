//! Set type and rest hygiene rules (spec 004 "Set Type / Rest Hygiene"), run last, in this order:
//!
//! 1. **Short rest performance drop** (`short_rest_performance_drop`). Last 2 sessions. Each of
//!    them has a trigger: a completed regular set with the rest taken *before* it shorter than the
//!    prescribed rest minus 15 s and its reps dropped (2 or more fewer than the previous completed
//!    working set, or below the floor). Then add 15 s of rest: once for the exercise in all-same
//!    rest mode, else on the set *before* each set that dropped in the current session.
//! 2. **Drop set without base** (`drop_set_without_base`). In the current session's logged sets,
//!    the first drop set comes before any set logged as regular: make the prescribed set at that
//!    index regular (only the first one; nothing when it is already regular).
//! 3. **Warmup acting as working set** (`warmup_acting_as_working_set`). A prescribed warmup set
//!    whose weight was within 10% of that session's top regular weight (>= 90% of it) in both of
//!    the last 2 sessions: make it regular.
//! 4. **Regular acting as warmup** (`regular_acting_as_warmup`). One of the first two prescribed
//!    sets (index 0 or 1), prescribed regular, that weighed under 70% of the session's top regular
//!    weight in both of the last 2 sessions: make it a warmup.
//! 5. **Set type mismatch** (`set_type_mismatch`). In both of the last 2 sessions the set was
//!    logged with the same type, different from the prescribed one: change the prescription to
//!    the logged type. Sets already changed by rules 2-4 are left to them.
//!
//! Decisions where the spec and the issue are silent:
//! - Rest is logged on the set it *follows* ([`PerformedSet::rest_seconds`] is the rest taken
//!   after that set), so the rest before set `i` is the `rest_seconds` of the previous completed set
//!   of the same performance; a set whose previous set has no logged rest is not judged. The
//!   prescribed rest is the exercise's rest in all-same mode, else the previous set's own rest
//!   (its prescription's rest is the rest after it). In per-set mode the change therefore targets
//!   the previous set (the one whose rest is too short), as found in the current session.
//! - Only regular sets are judged for the short-rest drop: rest before a drop set is short on
//!   purpose. As in the original app, each of the last 2 sessions needs *some* trigger, not
//!   necessarily at the same set (fatigue moves from set to set); the changes follow the current
//!   session's triggers. "Shorter than target minus 15 s" is strict: exactly 15 s short does not
//!   fire.
//! - Rule 2 (drop set) reads the sets logged in the current session, as the original app does
//!   (whether completed or not: the order the user set up is what matters), and changes the
//!   prescribed set at that index. The prescription alone is not judged: a plan whose first drop
//!   set has no base but that the user does not log that way is left alone.
//! - Floors come from the prescribed rep range (none with mode `notSet`: only a drop of 2 or more
//!   reps then counts).
//! - Top regular weight: the heaviest completed set logged as regular in that session. A session
//!   with no completed regular set (or a top weight of 0) does not count, nor does one where the
//!   set itself was not completed. Rule 4's "early" is the prescription index (0 or 1, as in the
//!   original app), not the position relative to the top set: in a ramp 40/50/60/100 only the
//!   first two are flagged.
//! - Rule 5 compares completed sets only and skips any index that already has a set type change.

use super::super::metrics::{rep_floor, reps_dropped};
use super::super::model::{
    ChangeProperty, ChangeType, ChangeValue, Evidence, ExerciseContext, ExercisePerformance,
    PerformedSet, RestMode, SetPrescription, SetType, SuggestionDraft,
};
use super::{draft, evidence, num, weight_text as fmt};

pub(super) const SHORT_REST_PERFORMANCE_DROP: &str = "short_rest_performance_drop";
pub(super) const DROP_SET_WITHOUT_BASE: &str = "drop_set_without_base";
pub(super) const WARMUP_ACTING_AS_WORKING_SET: &str = "warmup_acting_as_working_set";
pub(super) const REGULAR_ACTING_AS_WARMUP: &str = "regular_acting_as_warmup";
pub(super) const SET_TYPE_MISMATCH: &str = "set_type_mismatch";

/// Rest added when rest is too short, in seconds.
const REST_INCREASE_SECONDS: u32 = 15;
/// How far under the prescribed rest counts as "short", in seconds.
const SHORT_REST_MARGIN_SECONDS: i64 = 15;
/// A warmup at or above this share of the top regular weight acts as a working set.
const WARMUP_AS_WORKING_RATIO: f64 = 0.9;
/// An early regular set under this share of the top regular weight acts as a warmup.
const REGULAR_AS_WARMUP_RATIO: f64 = 0.7;
/// The last prescribed set index that counts as "early" for regular-acting-as-warmup (the first
/// two sets, as in the original app).
const LAST_EARLY_INDEX: u32 = 1;
/// Slack for float comparisons at an inclusive threshold.
const EPS: f64 = 1e-9;

/// The current and the previous session, or `None` when there is no previous one.
fn last_two(ctx: &ExerciseContext) -> Option<[&ExercisePerformance; 2]> {
    let mut recent = ctx.recent();
    Some([recent.next()?, recent.next()?])
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

/// The top regular weight of a session: the heaviest completed set logged as regular; `None` when
/// there is none or it is 0.
pub(crate) fn top_regular(perf: &ExercisePerformance) -> Option<f64> {
    perf.sets
        .iter()
        .filter(|s| s.completed && s.set_type == SetType::Regular)
        .map(|s| s.weight)
        .reduce(f64::max)
        .filter(|w| *w > 0.0)
}

/// A set type as a change value.
fn set_type_value(value: SetType) -> ChangeValue {
    ChangeValue::SetType { value }
}

/// A set type's name for reasoning text.
fn type_name(set_type: SetType) -> &'static str {
    match set_type {
        SetType::Regular => "a regular set",
        SetType::Warmup => "a warmup",
        SetType::Drop => "a drop set",
    }
}

/// Whether a set type change for `index` is already in `out`.
fn type_changed(out: &[SuggestionDraft], index: u32) -> bool {
    out.iter()
        .any(|d| d.change_type == ChangeType::ChangeSetType && d.target_set_index == Some(index))
}

/// A set type change draft for prescribed set `rx`.
fn change_type_draft(
    rule: &str,
    rx: &SetPrescription,
    new: SetType,
    reasoning: String,
    evidence: Evidence,
) -> SuggestionDraft {
    draft(
        rule,
        ChangeType::ChangeSetType,
        Some(rx.index),
        ChangeProperty::SetType,
        Some(set_type_value(rx.set_type)),
        set_type_value(new),
        reasoning,
        evidence,
    )
}

/// What made set `index` of one session a short-rest drop.
struct ShortRest {
    /// The completed set before it (whose logged rest is the rest before `index`).
    before: u32,
    /// Rest taken before the set, in seconds.
    rest: u32,
    /// The prescribed rest before the set, in seconds.
    prescribed: u32,
    /// Reps of the set.
    reps: u32,
}

/// Ascending, without duplicates.
fn sorted(indexes: impl IntoIterator<Item = u32>) -> Vec<u32> {
    let mut v: Vec<u32> = indexes.into_iter().collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// Set `index` of `perf` as a short-rest drop: a completed regular set, rest before it (logged on
/// the previous completed set) under prescribed - 15 s, and its reps dropped.
fn short_rest(ctx: &ExerciseContext, perf: &ExercisePerformance, index: u32) -> Option<ShortRest> {
    let set = completed(perf, index).filter(|s| s.set_type == SetType::Regular)?;
    let before = perf
        .sets
        .iter()
        .filter(|s| s.completed && s.index < index)
        .max_by_key(|s| s.index)?;
    let rest = before.rest_seconds?;
    let prescribed = match ctx.prescription.rest_mode {
        RestMode::AllSame => ctx.prescription.rest_seconds,
        RestMode::PerSet => ctx.set_prescription(before.index)?.rest_seconds,
    };
    let short = i64::from(rest) < i64::from(prescribed) - SHORT_REST_MARGIN_SECONDS;
    let floor = rep_floor(&ctx.prescription.rep_range);
    (short && reps_dropped(perf, index, floor)).then_some(ShortRest {
        before: before.index,
        rest,
        prescribed,
        reps: set.reps,
    })
}

/// Every short-rest drop of one session, as (the set whose reps dropped, what made it one), by
/// set index.
fn short_rest_triggers(ctx: &ExerciseContext, perf: &ExercisePerformance) -> Vec<(u32, ShortRest)> {
    let mut indexes: Vec<u32> = perf.sets.iter().map(|s| s.index).collect();
    indexes.sort_unstable();
    indexes.dedup();
    indexes
        .into_iter()
        .filter_map(|i| Some((i, short_rest(ctx, perf, i)?)))
        .collect()
}

/// Rule 1: in each of the last 2 sessions some set had rest before it shorter than prescribed -
/// 15 s and its reps dropped -> add 15 s of rest.
pub(super) fn short_rest_performance_drop(ctx: &ExerciseContext, out: &mut Vec<SuggestionDraft>) {
    let Some(sessions) = last_two(ctx) else {
        return;
    };
    let now_triggers = short_rest_triggers(ctx, sessions[0]);
    let before_triggers = short_rest_triggers(ctx, sessions[1]);
    let (Some((_, first_now)), Some((_, first_before))) =
        (now_triggers.first(), before_triggers.first())
    else {
        return;
    };
    let trigger_sets = |triggers: &[(u32, ShortRest)]| -> Vec<u32> {
        triggers.iter().flat_map(|(i, t)| [t.before, *i]).collect()
    };
    let previous_sets = trigger_sets(&before_triggers);
    let floor = rep_floor(&ctx.prescription.rep_range);
    let figures = |now: &ShortRest, before: &ShortRest| {
        let mut f = vec![
            ("restTaken", now.rest as f64),
            ("restTakenPrevious", before.rest as f64),
            ("prescribedRest", now.prescribed as f64),
            ("shortRestMargin", SHORT_REST_MARGIN_SECONDS as f64),
            ("reps", now.reps as f64),
            ("repsPrevious", before.reps as f64),
        ];
        if let Some(floor) = floor {
            f.push(("floor", floor as f64));
        }
        f.push(("restIncreaseSeconds", REST_INCREASE_SECONDS as f64));
        f
    };
    let reasoning = |rest: u32, prescribed: u32, new: u32| {
        format!(
            "In your last 2 sessions you rested about {rest} s instead of {prescribed} s and your \
             reps dropped on the next set. Rest {new} s to keep your reps up."
        )
    };
    match ctx.prescription.rest_mode {
        RestMode::AllSame => {
            let old = ctx.prescription.rest_seconds;
            let new = old.saturating_add(REST_INCREASE_SECONDS);
            let mut sets = trigger_sets(&now_triggers);
            sets.extend(&previous_sets);
            sets.sort_unstable();
            sets.dedup();
            out.push(draft(
                SHORT_REST_PERFORMANCE_DROP,
                ChangeType::IncreaseRest,
                None,
                ChangeProperty::Rest,
                Some(num(old as f64)),
                num(new as f64),
                reasoning(first_now.rest, old, new),
                evidence(ids(&sessions), sets, &figures(first_now, first_before)),
            ));
        }
        RestMode::PerSet => {
            let mut targeted: Vec<u32> = Vec::new();
            for (i, now) in &now_triggers {
                if targeted.contains(&now.before) {
                    continue;
                }
                let Some(rx) = ctx.set_prescription(now.before) else {
                    continue;
                };
                targeted.push(now.before);
                let old = rx.rest_seconds;
                let new = old.saturating_add(REST_INCREASE_SECONDS);
                out.push(draft(
                    SHORT_REST_PERFORMANCE_DROP,
                    ChangeType::IncreaseRest,
                    Some(now.before),
                    ChangeProperty::Rest,
                    Some(num(old as f64)),
                    num(new as f64),
                    reasoning(now.rest, old, new),
                    evidence(
                        ids(&sessions),
                        sorted(
                            [now.before, *i]
                                .into_iter()
                                .chain(previous_sets.iter().copied()),
                        ),
                        &figures(now, first_before),
                    ),
                ));
            }
        }
    }
}

/// Rule 2: in the current session, the first set logged as a drop set comes before any set
/// logged as regular -> make the prescribed set at its index regular.
pub(super) fn drop_set_without_base(ctx: &ExerciseContext, out: &mut Vec<SuggestionDraft>) {
    let mut logged: Vec<&PerformedSet> = ctx.current.sets.iter().collect();
    logged.sort_by_key(|s| s.index);
    let Some(first_drop) = logged.iter().find(|s| s.set_type == SetType::Drop) else {
        return;
    };
    let has_base = logged
        .iter()
        .any(|s| s.set_type == SetType::Regular && s.index < first_drop.index);
    if has_base {
        return;
    }
    let Some(rx) = ctx.set_prescription(first_drop.index) else {
        return;
    };
    if rx.set_type == SetType::Regular {
        return;
    }
    let sets_before = logged.iter().filter(|s| s.index < first_drop.index).count();
    out.push(change_type_draft(
        DROP_SET_WITHOUT_BASE,
        rx,
        SetType::Regular,
        format!(
            "You logged set {} as a drop set with no regular set before it this session. A drop \
             set needs a heavier working set first: make it a regular set.",
            first_drop.index.saturating_add(1)
        ),
        evidence(
            [ctx.current.id.as_str()],
            sorted(
                logged
                    .iter()
                    .filter(|s| s.index <= first_drop.index)
                    .map(|s| s.index),
            ),
            &[
                ("dropSetIndex", first_drop.index as f64),
                ("dropSetWeight", first_drop.weight),
                ("setsBefore", sets_before as f64),
            ],
        ),
    ));
}

/// Rule 3: a prescribed warmup at >= 90% of the session's top regular weight in both of the last
/// 2 sessions -> make it regular.
pub(super) fn warmup_acting_as_working_set(ctx: &ExerciseContext, out: &mut Vec<SuggestionDraft>) {
    let Some(sessions) = last_two(ctx) else {
        return;
    };
    for rx in by_index(ctx).filter(|rx| rx.set_type == SetType::Warmup) {
        let hits: Vec<(f64, f64)> = sessions
            .iter()
            .filter_map(|perf| {
                let top = top_regular(perf)?;
                let set = completed(perf, rx.index)?;
                (set.weight >= WARMUP_AS_WORKING_RATIO * top - EPS).then_some((set.weight, top))
            })
            .collect();
        if hits.len() < sessions.len() {
            continue;
        }
        let (weight, top) = hits[0];
        out.push(change_type_draft(
            WARMUP_ACTING_AS_WORKING_SET,
            rx,
            SetType::Regular,
            format!(
                "Warmup set {} was {} ({:.0}% of your top working weight, {}) in your last 2 \
                 sessions, so it works like a working set. Make it a regular set.",
                rx.index.saturating_add(1),
                fmt(weight),
                weight / top * 100.0,
                fmt(top)
            ),
            evidence(
                ids(&sessions),
                [rx.index],
                &[
                    ("weight", weight),
                    ("topWeight", top),
                    ("weightPrevious", hits[1].0),
                    ("topWeightPrevious", hits[1].1),
                    ("minRatio", WARMUP_AS_WORKING_RATIO),
                ],
            ),
        ));
    }
}

/// Rule 4: one of the first two prescribed sets, prescribed regular, under 70% of the session's
/// top regular weight in both of the last 2 sessions -> make it a warmup.
pub(super) fn regular_acting_as_warmup(ctx: &ExerciseContext, out: &mut Vec<SuggestionDraft>) {
    let Some(sessions) = last_two(ctx) else {
        return;
    };
    let early = |rx: &&SetPrescription| rx.index <= LAST_EARLY_INDEX;
    for rx in by_index(ctx)
        .filter(|rx| rx.set_type == SetType::Regular)
        .filter(early)
    {
        let hits: Vec<(f64, f64)> = sessions
            .iter()
            .filter_map(|perf| {
                let top = top_regular(perf)?;
                let set = completed(perf, rx.index)?;
                (set.weight < REGULAR_AS_WARMUP_RATIO * top).then_some((set.weight, top))
            })
            .collect();
        if hits.len() < sessions.len() {
            continue;
        }
        let (weight, top) = hits[0];
        out.push(change_type_draft(
            REGULAR_ACTING_AS_WARMUP,
            rx,
            SetType::Warmup,
            format!(
                "Set {} was only {} ({:.0}% of your top working weight, {}) in your last 2 \
                 sessions, so it works like a warmup. Mark it as a warmup.",
                rx.index.saturating_add(1),
                fmt(weight),
                weight / top * 100.0,
                fmt(top)
            ),
            evidence(
                ids(&sessions),
                [rx.index],
                &[
                    ("weight", weight),
                    ("topWeight", top),
                    ("weightPrevious", hits[1].0),
                    ("topWeightPrevious", hits[1].1),
                    ("maxRatio", REGULAR_AS_WARMUP_RATIO),
                ],
            ),
        ));
    }
}

/// Rule 5: a set logged with the same type, other than the prescribed one, in both of the last 2
/// sessions -> prescribe the logged type (unless rules 2-4 already changed the set).
pub(super) fn set_type_mismatch(ctx: &ExerciseContext, out: &mut Vec<SuggestionDraft>) {
    let Some(sessions) = last_two(ctx) else {
        return;
    };
    for rx in by_index(ctx) {
        if type_changed(out, rx.index) {
            continue;
        }
        let (Some(now), Some(before)) = (
            completed(sessions[0], rx.index),
            completed(sessions[1], rx.index),
        ) else {
            continue;
        };
        if now.set_type != before.set_type || now.set_type == rx.set_type {
            continue;
        }
        out.push(change_type_draft(
            SET_TYPE_MISMATCH,
            rx,
            now.set_type,
            format!(
                "You logged set {} as {} in your last 2 sessions, but the plan has it as {}. \
                 Update the plan to match.",
                rx.index.saturating_add(1),
                type_name(now.set_type),
                type_name(rx.set_type)
            ),
            evidence(ids(&sessions), [rx.index], &[("sessionsMatching", 2.0)]),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::super::evaluate;
    use super::super::testkit::{done, fired, sets, Ctx};
    use super::*;
    use crate::suggest::model::{ChangeType::*, SetType::*};

    type Rule = fn(&ExerciseContext, &mut Vec<SuggestionDraft>);
    type Fired = Vec<(ChangeType, Option<u32>, Option<f64>)>;
    /// Set type changes as (set, old type, new type).
    type Types = Vec<(u32, SetType, SetType)>;

    /// One rule alone, on an empty output.
    fn run(rule: Rule, ctx: &ExerciseContext) -> Vec<SuggestionDraft> {
        let mut out = Vec::new();
        rule(ctx, &mut out);
        out
    }

    /// The set type changes of one rule, as (set, old type, new type).
    fn types(drafts: &[SuggestionDraft], rule: &str) -> Types {
        drafts
            .iter()
            .filter(|d| d.rule_id.as_deref() == Some(rule))
            .map(|d| {
                assert_eq!(
                    (d.change_type, d.property),
                    (ChangeSetType, ChangeProperty::SetType)
                );
                let ty = |v: &ChangeValue| match v {
                    ChangeValue::SetType { value } => *value,
                    other => panic!("not a set type: {other:?}"),
                };
                (
                    d.target_set_index.unwrap(),
                    ty(d.old_value.as_ref().unwrap()),
                    ty(&d.new_value),
                )
            })
            .collect()
    }

    /// Three regular sets at 100 lb: set 0 with `first` reps and `rest` s logged after it, then
    /// sets 1 and 2 with `second` reps (no rest logged after them).
    fn rested(rest: u32, first: u32, second: u32) -> Vec<PerformedSet> {
        let mut s = sets(&[
            (Regular, 100.0, first),
            (Regular, 100.0, second),
            (Regular, 100.0, second),
        ]);
        s[0].rest_seconds = Some(rest);
        s
    }

    /// Per-set rest mode with 60, 90 and 120 s after sets 0, 1 and 2.
    fn per_set(ctx: Ctx) -> Ctx {
        ctx.rx(|rx| {
            rx.rest_mode = RestMode::PerSet;
            for (s, rest) in rx.sets.iter_mut().zip([60, 90, 120]) {
                s.rest_seconds = rest;
            }
        })
    }

    #[test]
    fn short_rest_with_a_reps_drop_in_both_sessions_adds_15_s() {
        // All-same mode, 90 s prescribed: "short" is under 75 s.
        let cases: Vec<(&str, Ctx, Fired)> = vec![
            (
                "target - 16 s, 2 reps fewer, both sessions",
                Ctx::range(8, 12).performed(vec![rested(74, 10, 8), rested(74, 10, 8)]),
                vec![(IncreaseRest, None, Some(105.0))],
            ),
            (
                "target - 14 s",
                Ctx::range(8, 12).performed(vec![rested(76, 10, 8), rested(76, 10, 8)]),
                vec![],
            ),
            (
                "exactly target - 15 s",
                Ctx::range(8, 12).performed(vec![rested(75, 10, 8), rested(75, 10, 8)]),
                vec![],
            ),
            (
                "short only in the current session",
                Ctx::range(8, 12).performed(vec![rested(74, 10, 8), rested(76, 10, 8)]),
                vec![],
            ),
            (
                "triggers at different sets in each session",
                Ctx::range(8, 12).performed(vec![rested(60, 10, 8), {
                    // Set 2 dropped after short rest logged on set 1; set 1 had none before it.
                    let mut s = sets(&[
                        (Regular, 100.0, 10),
                        (Regular, 100.0, 10),
                        (Regular, 100.0, 8),
                    ]);
                    s[1].rest_seconds = Some(60);
                    s
                }]),
                vec![(IncreaseRest, None, Some(105.0))],
            ),
            (
                "short only in the previous session",
                Ctx::range(8, 12).performed(vec![rested(90, 10, 8), rested(60, 10, 8)]),
                vec![],
            ),
            (
                "one session only",
                Ctx::range(8, 12).performed(vec![rested(60, 10, 8)]),
                vec![],
            ),
            (
                "1 rep fewer, above the floor",
                Ctx::range(8, 12).performed(vec![rested(60, 10, 9), rested(60, 10, 9)]),
                vec![],
            ),
            (
                "1 rep fewer, below the floor",
                Ctx::range(8, 12).performed(vec![rested(60, 8, 7), rested(60, 8, 7)]),
                vec![(IncreaseRest, None, Some(105.0))],
            ),
            (
                "target mode: below the target",
                Ctx::target(10).performed(vec![rested(60, 10, 9), rested(60, 10, 9)]),
                vec![(IncreaseRest, None, Some(105.0))],
            ),
            (
                "no rest logged",
                Ctx::range(8, 12)
                    .performed(vec![sets(&[(Regular, 100.0, 10), (Regular, 100.0, 7)]); 2]),
                vec![],
            ),
            (
                "a drop set after short rest is not judged",
                Ctx::range(8, 12).performed(vec![
                    {
                        let mut s = rested(60, 10, 8);
                        s[1].set_type = Drop;
                        s[2].set_type = Drop;
                        s
                    };
                    2
                ]),
                vec![],
            ),
            // Per-set mode: the rest before set 1 is the rest after set 0, prescribed 60 s.
            (
                "per set: target - 16 s before set 1 -> set 0",
                per_set(Ctx::range(8, 12)).performed(vec![rested(44, 10, 8), rested(44, 10, 8)]),
                vec![(IncreaseRest, Some(0), Some(75.0))],
            ),
            (
                "per set: target - 14 s",
                per_set(Ctx::range(8, 12)).performed(vec![rested(46, 10, 8), rested(46, 10, 8)]),
                vec![],
            ),
            (
                "per set: set 1's own 90 s is not the target",
                per_set(Ctx::range(8, 12)).performed(vec![rested(70, 10, 8), rested(70, 10, 8)]),
                vec![],
            ),
            // Rest beyond what savePlan allows (a bypassed check): no overflow, the new rest
            // saturates.
            (
                "all same: prescribed u32::MAX",
                Ctx::range(8, 12)
                    .rx(|rx| rx.rest_seconds = u32::MAX)
                    .performed(vec![rested(74, 10, 8), rested(74, 10, 8)]),
                vec![(IncreaseRest, None, Some(u32::MAX as f64))],
            ),
            (
                "per set: prescribed u32::MAX after set 0",
                per_set(Ctx::range(8, 12))
                    .rx(|rx| rx.sets[0].rest_seconds = u32::MAX)
                    .performed(vec![rested(44, 10, 8), rested(44, 10, 8)]),
                vec![(IncreaseRest, Some(0), Some(u32::MAX as f64))],
            ),
        ];
        for (name, ctx, expected) in cases {
            let drafts = run(short_rest_performance_drop, &ctx.build());
            assert_eq!(
                fired(&drafts, SHORT_REST_PERFORMANCE_DROP),
                expected,
                "{name}"
            );
        }
    }

    #[test]
    fn short_rest_per_set_targets_each_set_before_a_drop() {
        // Rest after set 0 (prescribed 60) and after set 1 (prescribed 90) both short; reps fall
        // 12 -> 10 -> 8: sets 1 and 2 dropped, so sets 0 and 1 get more rest.
        let session = || {
            let mut s = sets(&[
                (Regular, 100.0, 12),
                (Regular, 100.0, 10),
                (Regular, 100.0, 8),
            ]);
            s[0].rest_seconds = Some(40);
            s[1].rest_seconds = Some(70);
            s
        };
        let ctx = per_set(Ctx::range(8, 12))
            .performed(vec![session(), session()])
            .build();
        let drafts = run(short_rest_performance_drop, &ctx);
        assert_eq!(
            fired(&drafts, SHORT_REST_PERFORMANCE_DROP),
            vec![
                (IncreaseRest, Some(0), Some(75.0)),
                (IncreaseRest, Some(1), Some(105.0))
            ]
        );
        // The sets that dropped and the sets before them, in both sessions.
        assert_eq!(drafts[1].evidence.set_indexes, [0, 1, 2]);
        assert_eq!(drafts[1].evidence.performance_ids, ["perf-0", "perf-1"]);
        let figure = |n: &str| {
            drafts[1]
                .evidence
                .figures
                .iter()
                .find(|f| f.name == n)
                .map(|f| f.value)
        };
        assert_eq!(figure("restTaken"), Some(70.0));
        assert_eq!(figure("prescribedRest"), Some(90.0));
        // All-same mode: one exercise-level change for both.
        let ctx = Ctx::range(8, 12)
            .performed(vec![session(), session()])
            .build();
        let drafts = run(short_rest_performance_drop, &ctx);
        assert_eq!(
            fired(&drafts, SHORT_REST_PERFORMANCE_DROP),
            vec![(IncreaseRest, None, Some(105.0))]
        );
        assert_eq!(drafts[0].property, ChangeProperty::Rest);
        assert_eq!(drafts[0].evidence.set_indexes, [0, 1, 2]);
    }

    #[test]
    fn drop_set_logged_without_a_regular_set_before_it_becomes_regular() {
        // (name, prescribed types, types logged in the current session, expected)
        type Case = (&'static str, [SetType; 4], Vec<SetType>, Types);
        let cases: Vec<Case> = vec![
            (
                "drop logged first",
                [Drop, Regular, Drop, Drop],
                vec![Drop, Regular, Drop, Drop],
                vec![(0, Drop, Regular)],
            ),
            (
                "drop logged after a warmup only",
                [Warmup, Drop, Drop, Regular],
                vec![Warmup, Drop, Drop, Regular],
                vec![(1, Drop, Regular)],
            ),
            (
                "prescribed warmup logged as the first drop",
                [Warmup, Regular, Drop, Drop],
                vec![Drop, Regular, Drop, Drop],
                vec![(0, Warmup, Regular)],
            ),
            (
                "drop logged after a regular set",
                [Regular, Drop, Drop, Regular],
                vec![Regular, Drop, Drop, Regular],
                vec![],
            ),
            (
                "prescription without base, logged with one",
                [Drop, Regular, Drop, Drop],
                vec![Regular, Regular, Drop, Drop],
                vec![],
            ),
            (
                "already regular in the plan: nothing",
                [Regular, Regular, Drop, Drop],
                vec![Drop, Regular, Drop, Drop],
                vec![],
            ),
            (
                "no drop set logged",
                [Drop, Regular, Regular, Regular],
                vec![Warmup, Regular, Regular, Regular],
                vec![],
            ),
            (
                "logged set without a prescription",
                [Regular, Regular, Regular, Regular],
                vec![Warmup, Warmup, Warmup, Warmup, Drop],
                vec![],
            ),
        ];
        for (name, layout, logged, expected) in cases {
            let ctx = Ctx::range(8, 12)
                .rx(|rx| {
                    rx.sets = (0..4)
                        .map(|i| SetPrescription {
                            index: i,
                            set_type: layout[i as usize],
                            target_weight: 100.0,
                            target_reps: 10,
                            rest_seconds: 90,
                        })
                        .collect()
                })
                .performed(vec![logged
                    .iter()
                    .enumerate()
                    .map(|(i, t)| done(i as u32, *t, 100.0, 10))
                    .collect()])
                .build();
            let drafts = run(drop_set_without_base, &ctx);
            assert_eq!(types(&drafts, DROP_SET_WITHOUT_BASE), expected, "{name}");
        }
        // Logged order counts, not the order of the list; an incomplete set still counts.
        let mut current = vec![done(1, Regular, 100.0, 10), done(0, Drop, 80.0, 10)];
        current[1].completed = false;
        let ctx = Ctx::range(8, 12)
            .rx(|rx| rx.sets[0].set_type = Drop)
            .performed(vec![current])
            .build();
        assert_eq!(
            types(&run(drop_set_without_base, &ctx), DROP_SET_WITHOUT_BASE),
            vec![(0, Drop, Regular)]
        );
    }

    #[test]
    fn warmup_within_10_percent_of_the_top_in_both_sessions_becomes_regular() {
        // Set 0 is a prescribed warmup; sets 1 and 2 are regular.
        let warmup_rx = |c: Ctx| c.rx(|rx| rx.sets[0].set_type = Warmup);
        let session =
            |w: f64, top: f64| sets(&[(Warmup, w, 10), (Regular, 100.0, 10), (Regular, top, 10)]);
        let fires = vec![(0, Warmup, Regular)];
        let cases: Vec<(&str, Ctx, Types)> = vec![
            (
                "90% both",
                warmup_rx(Ctx::range(8, 12))
                    .performed(vec![session(90.0, 100.0), session(90.0, 100.0)]),
                fires.clone(),
            ),
            (
                "89% both",
                warmup_rx(Ctx::range(8, 12))
                    .performed(vec![session(89.0, 100.0), session(89.0, 100.0)]),
                vec![],
            ),
            (
                "90% then 89%",
                warmup_rx(Ctx::range(8, 12))
                    .performed(vec![session(90.0, 100.0), session(89.0, 100.0)]),
                vec![],
            ),
            (
                "against the heaviest regular set: 99/110",
                warmup_rx(Ctx::range(8, 12))
                    .performed(vec![session(99.0, 110.0), session(99.0, 110.0)]),
                fires.clone(),
            ),
            (
                "against the heaviest regular set: 98/110",
                warmup_rx(Ctx::range(8, 12))
                    .performed(vec![session(98.0, 110.0), session(98.0, 110.0)]),
                vec![],
            ),
            (
                "one session only",
                warmup_rx(Ctx::range(8, 12)).performed(vec![session(95.0, 100.0)]),
                vec![],
            ),
            (
                "a regular set is not a warmup",
                Ctx::range(8, 12).performed(vec![session(95.0, 100.0), session(95.0, 100.0)]),
                vec![],
            ),
        ];
        for (name, ctx, expected) in cases {
            let drafts = run(warmup_acting_as_working_set, &ctx.build());
            assert_eq!(
                types(&drafts, WARMUP_ACTING_AS_WORKING_SET),
                expected,
                "{name}"
            );
        }
    }

    #[test]
    fn early_regular_set_under_70_percent_in_both_sessions_becomes_a_warmup() {
        let session = |w: [f64; 3]| {
            sets(&[
                (Regular, w[0], 10),
                (Regular, w[1], 10),
                (Regular, w[2], 10),
            ])
        };
        let cases: Vec<(&str, Ctx, Types)> = vec![
            (
                "69% both",
                Ctx::range(8, 12).performed(vec![session([69.0, 100.0, 100.0]); 2]),
                vec![(0, Regular, Warmup)],
            ),
            (
                "71% both",
                Ctx::range(8, 12).performed(vec![session([71.0, 100.0, 100.0]); 2]),
                vec![],
            ),
            (
                "exactly 70%",
                Ctx::range(8, 12).performed(vec![session([70.0, 100.0, 100.0]); 2]),
                vec![],
            ),
            (
                "69% then 71%",
                Ctx::range(8, 12).performed(vec![
                    session([69.0, 100.0, 100.0]),
                    session([71.0, 100.0, 100.0]),
                ]),
                vec![],
            ),
            (
                "two early light sets",
                Ctx::range(8, 12).performed(vec![session([50.0, 60.0, 100.0]); 2]),
                vec![(0, Regular, Warmup), (1, Regular, Warmup)],
            ),
            (
                "ramp 40/50/60/100: only the first two sets are early",
                Ctx::range(8, 12)
                    .rx(|rx| {
                        let mut fourth = rx.sets[2].clone();
                        fourth.index = 3;
                        rx.sets.push(fourth);
                    })
                    .performed(vec![
                        sets(&[
                            (Regular, 40.0, 10),
                            (Regular, 50.0, 10),
                            (Regular, 60.0, 10),
                            (Regular, 100.0, 10),
                        ]);
                        2
                    ]),
                vec![(0, Regular, Warmup), (1, Regular, Warmup)],
            ),
            (
                "set 1 light after a heavy set 0 is still early",
                Ctx::range(8, 12).performed(vec![session([100.0, 60.0, 100.0]); 2]),
                vec![(1, Regular, Warmup)],
            ),
            (
                "a light set after the top set is not early",
                Ctx::range(8, 12).performed(vec![session([100.0, 100.0, 69.0]); 2]),
                vec![],
            ),
            (
                "one session only",
                Ctx::range(8, 12).performed(vec![session([50.0, 100.0, 100.0])]),
                vec![],
            ),
            (
                "a prescribed warmup is left alone",
                Ctx::range(8, 12)
                    .rx(|rx| rx.sets[0].set_type = Warmup)
                    .performed(vec![session([50.0, 100.0, 100.0]); 2]),
                vec![],
            ),
        ];
        for (name, ctx, expected) in cases {
            let drafts = run(regular_acting_as_warmup, &ctx.build());
            assert_eq!(types(&drafts, REGULAR_ACTING_AS_WARMUP), expected, "{name}");
        }
    }

    #[test]
    fn set_type_mismatch_needs_the_same_logged_type_in_both_sessions() {
        let session =
            |t: SetType| sets(&[(Regular, 100.0, 10), (Regular, 100.0, 10), (t, 80.0, 10)]);
        let cases: Vec<(&str, Ctx, Types)> = vec![
            (
                "drop in both",
                Ctx::range(8, 12).performed(vec![session(Drop), session(Drop)]),
                vec![(2, Regular, Drop)],
            ),
            (
                "drop in the current session only",
                Ctx::range(8, 12).performed(vec![session(Drop), session(Regular)]),
                vec![],
            ),
            (
                "drop in the previous session only",
                Ctx::range(8, 12).performed(vec![session(Regular), session(Drop)]),
                vec![],
            ),
            (
                "drop then warmup",
                Ctx::range(8, 12).performed(vec![session(Drop), session(Warmup)]),
                vec![],
            ),
            (
                "as prescribed",
                Ctx::range(8, 12).performed(vec![session(Regular), session(Regular)]),
                vec![],
            ),
            (
                "one session only",
                Ctx::range(8, 12).performed(vec![session(Drop)]),
                vec![],
            ),
            (
                "prescribed drop logged regular twice",
                Ctx::range(8, 12)
                    .rx(|rx| rx.sets[2].set_type = Drop)
                    .performed(vec![session(Regular), session(Regular)]),
                vec![(2, Drop, Regular)],
            ),
        ];
        for (name, ctx, expected) in cases {
            let drafts = run(set_type_mismatch, &ctx.build());
            assert_eq!(types(&drafts, SET_TYPE_MISMATCH), expected, "{name}");
        }
        // An uncompleted set is not compared.
        let mut undone = session(Drop);
        undone[2].completed = false;
        let ctx = Ctx::range(8, 12)
            .performed(vec![undone, session(Drop)])
            .build();
        assert_eq!(
            types(&run(set_type_mismatch, &ctx), SET_TYPE_MISMATCH),
            vec![]
        );
    }

    #[test]
    fn set_type_mismatch_leaves_sets_changed_by_the_earlier_hygiene_rules() {
        // Prescribed warmup at 0, logged regular at 95 of 100 twice: warmup-as-working changes it;
        // the mismatch rule (which would say the same) stays out. Set 2 logged as drop is still
        // a mismatch.
        let ctx = Ctx::range(8, 12)
            .rx(|rx| rx.sets[0].set_type = Warmup)
            .performed(vec![
                sets(&[
                    (Regular, 95.0, 10),
                    (Regular, 100.0, 10),
                    (Drop, 80.0, 10)
                ]);
                2
            ])
            .build();
        let drafts = evaluate(&ctx);
        assert_eq!(
            types(&drafts, WARMUP_ACTING_AS_WORKING_SET),
            vec![(0, Warmup, Regular)]
        );
        assert_eq!(types(&drafts, SET_TYPE_MISMATCH), vec![(2, Regular, Drop)]);
        // Prescribed regular at 0, logged as a 50 lb warmup twice: regular-as-warmup changes it.
        let ctx = Ctx::range(8, 12)
            .performed(vec![
                sets(&[
                    (Warmup, 50.0, 10),
                    (Regular, 100.0, 10),
                    (Regular, 100.0, 10)
                ]);
                2
            ])
            .build();
        let drafts = evaluate(&ctx);
        assert_eq!(
            types(&drafts, REGULAR_ACTING_AS_WARMUP),
            vec![(0, Regular, Warmup)]
        );
        assert_eq!(types(&drafts, SET_TYPE_MISMATCH), vec![]);
        // Prescribed drop first and logged as a drop first: drop-without-base makes it regular,
        // and the mismatch rule has nothing to add (set 2, logged as warmup twice, still is one).
        let ctx = Ctx::range(8, 12)
            .rx(|rx| rx.sets[0].set_type = Drop)
            .performed(vec![
                sets(&[
                    (Drop, 50.0, 10),
                    (Regular, 100.0, 10),
                    (Warmup, 100.0, 10)
                ]);
                2
            ])
            .build();
        let drafts = evaluate(&ctx);
        assert_eq!(
            types(&drafts, DROP_SET_WITHOUT_BASE),
            vec![(0, Drop, Regular)]
        );
        assert_eq!(
            types(&drafts, SET_TYPE_MISMATCH),
            vec![(2, Regular, Warmup)]
        );
        // Prescribed drop first, logged as warmup twice: no drop set logged, so the mismatch rule
        // makes it a warmup.
        let ctx = Ctx::range(8, 12)
            .rx(|rx| rx.sets[0].set_type = Drop)
            .performed(vec![
                sets(&[
                    (Warmup, 50.0, 10),
                    (Regular, 100.0, 10),
                    (Regular, 100.0, 10)
                ]);
                2
            ])
            .build();
        let drafts = evaluate(&ctx);
        assert_eq!(types(&drafts, DROP_SET_WITHOUT_BASE), vec![]);
        assert_eq!(types(&drafts, SET_TYPE_MISMATCH), vec![(0, Drop, Warmup)]);
    }
}
