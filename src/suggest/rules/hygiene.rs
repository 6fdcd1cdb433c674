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
mod tests;
