//! The choices the AI source offers a small model (pure): candidate changes for one exercise that
//! are valid by construction, each with the evidence code sees for it, the per-request schema of
//! the pick, the prompt that lists them, and reading the model's pick back.
//!
//! ## Candidates
//! Each detector below looks at the last sessions ([`ExerciseContext::recent`]: this session
//! first) and, when its evidence holds, proposes one change of one kind, on the set where the
//! evidence is strongest. "Working sets" are the prescribed regular sets logged as completed
//! regular sets at the same index; "at the load" means within 2.5 lb (1.25 kg) of the set's target
//! weight, "at least the load" no lighter than that.
//!
//! | kind | evidence (both of the last 2 sessions unless said) | new value |
//! |---|---|---|
//! | `decreaseWeight` | a working set was left not done or fell below the floor at the load (floor: the lower bound, the target, or without a rep goal the set's target reps - 2) | one load step down |
//! | `increaseRest` | reps fell by more than 30% from the first working set to the weakest, with less than 90 s of rest prescribed (and taken, when logged) | rest + 30 s |
//! | `decreaseReps` | every working set did fewer reps than its target, none below the floor, at least at the load (range mode; without a rep goal, 1 or 2 short); the set furthest short | the reps done, within target - 2 to target - 1 |
//! | `increaseWeight` | every working set reached the goal (the upper bound, target + 1, or without a rep goal the set's target reps) at least at the load: range and target mode in 2 of the last 3 sessions, this one included; without a rep goal in each of the last 3 | one load step up |
//! | `increaseReps` | range mode: a set did more reps than its target but fewer than the upper bound, at least the load | the fewest reps done, at most target + 2 |
//! | `decreaseRest` | every working set held the first set's reps, at least the load, with 150 s or more of rest prescribed, on a non-barbell exercise | rest - 30 s |
//! | `changeSetType` to drop | the last prescribed set, regular (not the only one), done as a completed regular set right after a set at the session's top weight, at 50% to 85% of it | drop set |
//! | `changeSetType` to warmup | a prescribed regular set from index 2 on (the rules judge the first two), done before every set at the session's top weight, at under 70% of it, every set before it a prescribed warmup or as light | warmup |
//!
//! Decisions:
//! - **Contradictions.** Evidence of struggling (`decreaseWeight`, `increaseRest`,
//!   `decreaseReps`) removes the progressions (`increaseWeight`, `increaseReps`, `decreaseRest`);
//!   a drop explained by short rest (`increaseRest`) removes `decreaseWeight` and `decreaseReps`.
//! - **The rules first.** A candidate is left out when a rule draft already writes the same
//!   property (any set): the rules cover it, and the deduplicator would let the rule win anyway.
//! - **Load steps** start from [`metrics::weight_increment`] and walk in 2.5 lb (1.25 kg) steps
//!   until [`metrics::round_to_achievable`] gives a different load (plates and dumbbells owned):
//!   a candidate exists only when such a load is within a third to three times the current one.
//!   Body-weight sets (target 0) get no weight candidate.
//! - **Rest** changes follow the rest mode: the exercise's rest in all-same mode, else the rest
//!   after the set before the weakest set (per-set mode); bounded to 0..900 s.
//! - **Set types** are offered where the hygiene rules are silent (their rules judge a warmup at
//!   working weight, an early light set, a drop set without base and a logged type that differs
//!   from the plan): a light last set after the top set that the user logs as regular (a drop set
//!   in all but name), and a light ramp-up set after the first two. Both need the evidence in
//!   each of the last 2 sessions (the top weight of a session: its heaviest completed regular
//!   set). Rep ranges and set counts are not offered.
//! - Every numeric candidate is checked by the same normalisation and checks as the tool loop's
//!   replies ([`super::checks`]), every set-type candidate by the admission of AI drafts (the
//!   accept check, [`crate::suggest::apply`]); one that would not pass is not offered. At most
//!   one candidate per kind, at most [`MAX_CANDIDATES`], in the table's order (safety first).

use serde::Deserialize;

pub use super::candidate::Candidate;

use super::candidate::{regular_sets, EPS};
use super::checks::{normalise_one, AiChange};
use super::prompt::fmt;
use super::set_types;
use crate::suggest::apply::admit;
use crate::suggest::metrics;
use crate::suggest::model::{
    ChangeProperty, ChangeType, ChangeValue, Equipment, Evidence, EvidenceFigure, ExerciseContext,
    ExercisePerformance, PerformedSet, RepRangeMode, RestMode, SetPrescription, SetType,
    SuggestionDraft, SuggestionSource,
};

/// Candidates offered to the model, at most.
pub const MAX_CANDIDATES: usize = 4;
/// The reason the model writes, in characters at most (the pick schema's `maxLength`).
pub const MAX_REASON_CHARS: usize = 140;
/// Rest under which a fall in reps counts as rest-limited, in seconds.
pub const SHORT_REST_SECONDS: u32 = 90;
/// Rest from which steady reps suggest resting less, in seconds.
pub const LONG_REST_SECONDS: u32 = 150;
/// The rest step of a rest candidate, in seconds.
pub const REST_STEP_SECONDS: u32 = 30;
/// The fall in reps across sets (share of the first working set's reps) that counts as a drop.
pub const REPS_FALL_SHARE: f64 = 0.3;
/// The largest rest a candidate proposes, in seconds.
const MAX_REST: u32 = 900;

/// The candidates for `ctx`, given what the rules proposed (`rule_drafts`): see the module
/// documentation. Empty when no candidate has evidence.
pub fn candidates(ctx: &ExerciseContext, rule_drafts: &[SuggestionDraft]) -> Vec<Candidate> {
    let last: Vec<&ExercisePerformance> = ctx.recent().collect();
    let mut out: Vec<Candidate> = Vec::new();
    let dw = decrease_weight(ctx, &last);
    let ir = increase_rest(ctx, &last);
    let dr = decrease_reps(ctx, &last);
    let struggling = dw.is_some() || ir.is_some() || dr.is_some();
    if ir.is_none() {
        out.extend(dw);
    }
    out.extend(ir.clone());
    if ir.is_none() {
        out.extend(dr);
    }
    if !struggling {
        out.extend(increase_weight(ctx, &last));
        out.extend(increase_reps(ctx, &last));
        out.extend(decrease_rest(ctx, &last));
    }
    out.extend(set_types::drop_set(ctx, &last));
    out.extend(set_types::ramp_warmup(ctx, &last));
    out.retain(|c| {
        !rule_drafts
            .iter()
            .any(|d| d.property == c.change_type.property())
            && admitted(ctx, c, &c.evidence, &[]).is_some()
    });
    out.truncate(MAX_CANDIDATES);
    out
}

/// The draft of candidate `c` with `reasoning` and the recent sessions `performance_ids` as
/// evidence, as admitted: numeric changes through the tool loop's checks ([`checked`]), set type
/// changes through the admission of AI drafts (the accept check). `None` when refused.
pub(super) fn admitted(
    ctx: &ExerciseContext,
    c: &Candidate,
    reasoning: &str,
    performance_ids: &[String],
) -> Option<SuggestionDraft> {
    let Some((old, new)) = c.set_type else {
        return checked(ctx, c, reasoning)
            .map(|change| change.into_draft_with(performance_ids, &c.figures));
    };
    let draft = SuggestionDraft {
        source: SuggestionSource::Ai,
        rule_id: None,
        change_type: ChangeType::ChangeSetType,
        target_set_index: c.target_set_index,
        property: ChangeProperty::SetType,
        old_value: Some(ChangeValue::SetType { value: old }),
        new_value: ChangeValue::SetType { value: new },
        reasoning: reasoning.to_string(),
        evidence: Evidence {
            performance_ids: performance_ids.to_vec(),
            set_indexes: c.target_set_index.into_iter().collect(),
            figures: c
                .figures
                .iter()
                .map(|(name, value)| EvidenceFigure {
                    name: (*name).to_string(),
                    value: *value,
                })
                .collect(),
        },
    };
    admit(ctx, &draft)
}

/// The candidate as the tool loop's checks read it, with `reasoning`: `None` when they would
/// refuse it (or normalising would change its value).
pub(super) fn checked(ctx: &ExerciseContext, c: &Candidate, reasoning: &str) -> Option<AiChange> {
    let name = super::AI_CHANGE_TYPES
        .iter()
        .copied()
        .find(|n| super::checks::change_type(n) == Some(c.change_type))?;
    let change = normalise_one(
        ctx,
        name,
        c.target_set_index.map_or(-1, i64::from),
        c.new_value,
        reasoning,
    )
    .ok()?;
    (change.new_value() == c.new_value).then_some(change)
}

/// Working sets of `perf`: (prescription, performed) for prescribed regular sets logged as
/// completed regular sets at the same index, by index.
fn working<'a>(
    ctx: &'a ExerciseContext,
    perf: &'a ExercisePerformance,
) -> Vec<(&'a SetPrescription, &'a PerformedSet)> {
    let mut v: Vec<(&SetPrescription, &PerformedSet)> = ctx
        .prescription
        .sets
        .iter()
        .filter(|rx| rx.set_type == SetType::Regular)
        .filter_map(|rx| {
            perf.sets
                .iter()
                .find(|s| s.index == rx.index && s.completed && s.set_type == SetType::Regular)
                .map(|s| (rx, s))
        })
        .collect();
    v.sort_by_key(|(rx, _)| rx.index);
    v
}

/// [`working`] sets when every prescribed regular set was done as one (and there is one).
fn all_working<'a>(
    ctx: &'a ExerciseContext,
    perf: &'a ExercisePerformance,
) -> Option<Vec<(&'a SetPrescription, &'a PerformedSet)>> {
    let sets = working(ctx, perf);
    (!sets.is_empty() && sets.len() == regular_sets(ctx, false).len()).then_some(sets)
}

/// The load tolerance of the plan's unit (2.5 lb, 1.25 kg).
fn tolerance(ctx: &ExerciseContext) -> f64 {
    metrics::step(2.5, ctx.plan.unit) + EPS
}

fn at_load(ctx: &ExerciseContext, rx: &SetPrescription, s: &PerformedSet) -> bool {
    (s.weight - rx.target_weight).abs() <= tolerance(ctx)
}

fn at_least_load(ctx: &ExerciseContext, rx: &SetPrescription, s: &PerformedSet) -> bool {
    s.weight >= rx.target_weight - tolerance(ctx)
}

/// The lowest acceptable reps of set `rx`: the rep range's floor, or without a rep goal the set's
/// target reps - 2 (`None` without either).
fn floor(ctx: &ExerciseContext, rx: &SetPrescription) -> Option<u32> {
    match ctx.prescription.rep_range.mode {
        RepRangeMode::NotSet => (rx.target_reps > 0).then(|| rx.target_reps.saturating_sub(2)),
        _ => metrics::rep_floor(&ctx.prescription.rep_range).filter(|f| *f > 0),
    }
}

/// The reps that count as the goal reached for set `rx`.
fn goal(ctx: &ExerciseContext, rx: &SetPrescription) -> Option<u32> {
    let r = &ctx.prescription.rep_range;
    match r.mode {
        RepRangeMode::Range => (r.upper > 0).then_some(r.upper),
        RepRangeMode::Target => (r.target > 0).then_some(r.target + 1),
        RepRangeMode::NotSet => (rx.target_reps > 0).then_some(rx.target_reps),
    }
}

/// The next achievable load above (`up`) or below `w`, within a third to three times `w`.
fn load_step(ctx: &ExerciseContext, w: f64, up: bool) -> Option<f64> {
    if !(w > 0.0 && w.is_finite()) {
        return None;
    }
    let unit = ctx.plan.unit;
    let inc = metrics::weight_increment(&ctx.exercise, w, unit);
    let fine = metrics::step(2.5, unit);
    for k in 0..400 {
        let delta = inc + f64::from(k) * fine;
        let x = if up { w + delta } else { w - delta };
        if x <= 0.0 || x < w / 3.0 || x > w * 3.0 {
            return None;
        }
        let r = metrics::round_to_achievable(x, ctx.exercise.equipment, &ctx.plan.load, unit);
        if (up && r > w + EPS) || (!up && r < w - EPS && r > 0.0) {
            return (r >= w / 3.0 - EPS && r <= w * 3.0).then_some(r);
        }
    }
    None
}

fn weight_candidate(
    ctx: &ExerciseContext,
    rx: &SetPrescription,
    up: bool,
    evidence: String,
    figures: Vec<(&'static str, f64)>,
) -> Option<Candidate> {
    let new = load_step(ctx, rx.target_weight, up)?;
    Some(Candidate {
        change_type: if up {
            ChangeType::IncreaseWeight
        } else {
            ChangeType::DecreaseWeight
        },
        target_set_index: Some(rx.index),
        old_value: rx.target_weight,
        new_value: new,
        evidence,
        figures,
        set_type: None,
    })
}

/// A set left not done or below the floor at the load, in both of the last 2 sessions.
fn decrease_weight(ctx: &ExerciseContext, last: &[&ExercisePerformance]) -> Option<Candidate> {
    let [now, before] = last.get(..2)? else {
        return None;
    };
    let missed = |perf: &ExercisePerformance, rx: &SetPrescription| -> Option<u32> {
        let f = floor(ctx, rx)?;
        let s = perf.sets.iter().find(|s| s.index == rx.index)?;
        if s.set_type != SetType::Regular || !at_load(ctx, rx, s) {
            return None;
        }
        if !s.completed {
            return Some(0);
        }
        (s.reps < f).then_some(s.reps)
    };
    let rx = regular_sets(ctx, true)
        .into_iter()
        .find(|rx| missed(now, rx).is_some() && missed(before, rx).is_some())?;
    let f = floor(ctx, rx)?;
    let (a, b) = (missed(now, rx)?, missed(before, rx)?);
    let unit = ctx.plan.unit.symbol();
    let done = |n: u32| match n {
        0 => "not done".to_string(),
        n => format!("{n} reps"),
    };
    weight_candidate(
        ctx,
        rx,
        false,
        format!(
            "set {} missed its reps at {} {unit} 2 sessions running ({} and {}, floor {f})",
            rx.index,
            fmt(rx.target_weight),
            done(a),
            done(b)
        ),
        vec![
            ("reps", f64::from(a)),
            ("previousReps", f64::from(b)),
            ("floor", f64::from(f)),
        ],
    )
}

/// The fall in reps of one session's working sets: (first reps, weakest reps, index of the set
/// before the weakest, the rest before the weakest if logged) when it is more than
/// [`REPS_FALL_SHARE`].
fn reps_fall(
    ctx: &ExerciseContext,
    perf: &ExercisePerformance,
) -> Option<(u32, u32, u32, Option<u32>)> {
    let sets = working(ctx, perf);
    if sets.len() < 2 || sets.iter().any(|(rx, s)| !at_least_load(ctx, rx, s)) {
        return None;
    }
    let first = sets[0].1.reps;
    let (pos, weakest) = sets
        .iter()
        .enumerate()
        .skip(1)
        .min_by_key(|(i, (_, s))| (s.reps, *i))?;
    let fell = f64::from(first.saturating_sub(weakest.1.reps)) > REPS_FALL_SHARE * f64::from(first);
    let before = sets[pos - 1].1;
    fell.then_some((first, weakest.1.reps, before.index, before.rest_seconds))
}

/// Rest prescribed after set `index` (per-set mode) or for the exercise.
fn prescribed_rest(ctx: &ExerciseContext, index: u32) -> Option<u32> {
    match ctx.prescription.rest_mode {
        RestMode::AllSame => Some(ctx.prescription.rest_seconds),
        RestMode::PerSet => ctx.set_prescription(index).map(|s| s.rest_seconds),
    }
}

fn rest_candidate(
    ctx: &ExerciseContext,
    before_index: u32,
    up: bool,
    evidence: String,
    figures: Vec<(&'static str, f64)>,
) -> Option<Candidate> {
    let old = prescribed_rest(ctx, before_index)?;
    let new = if up {
        (old + REST_STEP_SECONDS).min(MAX_REST)
    } else {
        old.checked_sub(REST_STEP_SECONDS)?
    };
    if new == old || old > MAX_REST {
        return None;
    }
    Some(Candidate {
        change_type: if up {
            ChangeType::IncreaseRest
        } else {
            ChangeType::DecreaseRest
        },
        target_set_index: match ctx.prescription.rest_mode {
            RestMode::AllSame => None,
            RestMode::PerSet => Some(before_index),
        },
        old_value: f64::from(old),
        new_value: f64::from(new),
        evidence,
        figures,
        set_type: None,
    })
}

/// Reps fell by more than 30% across sets with short rest, in both of the last 2 sessions.
fn increase_rest(ctx: &ExerciseContext, last: &[&ExercisePerformance]) -> Option<Candidate> {
    let [now, before] = last.get(..2)? else {
        return None;
    };
    let short = |perf: &ExercisePerformance| {
        let (first, weakest, idx, taken) = reps_fall(ctx, perf)?;
        let rest = prescribed_rest(ctx, idx)?;
        (rest < SHORT_REST_SECONDS && taken.is_none_or(|t| t < SHORT_REST_SECONDS))
            .then_some((first, weakest, idx, rest))
    };
    let (first, weakest, idx, rest) = short(now)?;
    let (first_b, weakest_b, _, _) = short(before)?;
    let pct = |a: u32, b: u32| (100.0 * f64::from(a - b) / f64::from(a)).round();
    rest_candidate(
        ctx,
        idx,
        true,
        format!(
            "reps fell from {first} to {weakest} ({}%) across sets with {rest} s rest; last time {first_b} to {weakest_b}",
            pct(first, weakest)
        ),
        vec![
            ("firstReps", f64::from(first)),
            ("weakestReps", f64::from(weakest)),
            ("restSeconds", f64::from(rest)),
        ],
    )
}

/// Every working set short of its target reps but at or above the floor, at least at the load, in
/// both of the last 2 sessions (range mode, or no rep goal): the set furthest short.
fn decrease_reps(ctx: &ExerciseContext, last: &[&ExercisePerformance]) -> Option<Candidate> {
    if ctx.prescription.rep_range.mode == RepRangeMode::Target {
        return None;
    }
    let [now, before] = last.get(..2)? else {
        return None;
    };
    let short = |perf: &'_ ExercisePerformance| -> Option<Vec<(u32, u32)>> {
        all_working(ctx, perf)?
            .iter()
            .map(|(rx, s)| {
                let f = floor(ctx, rx)?;
                (at_least_load(ctx, rx, s) && s.reps < rx.target_reps && s.reps >= f)
                    .then_some((rx.index, s.reps))
            })
            .collect()
    };
    let (a_sets, b_sets) = (short(now)?, short(before)?);
    let (gap, rx, a, b) = a_sets
        .iter()
        .filter_map(|(i, a)| {
            let b = b_sets.iter().find(|(j, _)| j == i)?.1;
            let rx = ctx.set_prescription(*i)?;
            Some((rx.target_reps - (*a).max(b), rx, *a, b))
        })
        .max_by_key(|(gap, rx, _, _)| (*gap, std::cmp::Reverse(rx.index)))?;
    debug_assert!(gap > 0);
    let t = rx.target_reps;
    let lower = floor(ctx, rx)?.max(1);
    let new = a
        .max(b)
        .clamp(t.saturating_sub(2).max(lower).min(t - 1), t - 1);
    (new < t).then(|| Candidate {
        change_type: ChangeType::DecreaseReps,
        target_set_index: Some(rx.index),
        old_value: f64::from(t),
        new_value: f64::from(new),
        evidence: format!(
            "every set fell short of its target reps in the last 2 sessions; set {} did {a} and {b} against {t}",
            rx.index
        ),
        figures: vec![("reps", f64::from(a)), ("previousReps", f64::from(b))],
        set_type: None,
    })
}

/// Whether every prescribed regular set of `perf` reached its goal at least at the load.
fn all_reached(ctx: &ExerciseContext, perf: &ExercisePerformance) -> bool {
    all_working(ctx, perf).is_some_and(|sets| {
        sets.iter()
            .all(|(rx, s)| goal(ctx, rx).is_some_and(|g| s.reps >= g) && at_least_load(ctx, rx, s))
    })
}

/// Every working set reached its goal: 2 of the last 3 sessions with this one (rep goal), each of
/// the last 3 (no rep goal).
fn increase_weight(ctx: &ExerciseContext, last: &[&ExercisePerformance]) -> Option<Candidate> {
    let three = last.get(..3)?;
    let reached = three.iter().filter(|p| all_reached(ctx, p)).count();
    let need = match ctx.prescription.rep_range.mode {
        RepRangeMode::NotSet => 3,
        _ => 2,
    };
    if !all_reached(ctx, three[0]) || reached < need {
        return None;
    }
    let mut regular = regular_sets(ctx, true);
    regular.sort_by(|a, b| {
        b.target_weight
            .total_cmp(&a.target_weight)
            .then(a.index.cmp(&b.index))
    });
    let rx = regular.first()?;
    let g = goal(ctx, rx)?;
    let unit = ctx.plan.unit.symbol();
    weight_candidate(
        ctx,
        rx,
        true,
        format!(
            "every working set reached {g} reps at {} {unit} in {reached} of the last 3 sessions, this one included",
            fmt(rx.target_weight)
        ),
        vec![("sessionsReached", reached as f64), ("goalReps", f64::from(g))],
    )
}

/// Range mode: a set above its target reps but under the upper bound in both of the last 2
/// sessions.
fn increase_reps(ctx: &ExerciseContext, last: &[&ExercisePerformance]) -> Option<Candidate> {
    let r = ctx.prescription.rep_range;
    if r.mode != RepRangeMode::Range {
        return None;
    }
    let [now, before] = last.get(..2)? else {
        return None;
    };
    let above = |perf: &ExercisePerformance, rx: &SetPrescription| -> Option<u32> {
        let s = working(ctx, perf)
            .into_iter()
            .find(|(x, _)| x.index == rx.index)?
            .1;
        (at_least_load(ctx, rx, s) && s.reps > rx.target_reps && s.reps < r.upper).then_some(s.reps)
    };
    let rx = ctx
        .prescription
        .sets
        .iter()
        .filter(|rx| rx.target_reps > 0 && rx.target_reps < r.upper)
        .filter(|rx| above(now, rx).is_some() && above(before, rx).is_some())
        .min_by_key(|rx| rx.index)?;
    let (a, b) = (above(now, rx)?, above(before, rx)?);
    let t = rx.target_reps;
    let new = a.min(b).min(t + 2).min(r.upper);
    (new > t).then(|| Candidate {
        change_type: ChangeType::IncreaseReps,
        target_set_index: Some(rx.index),
        old_value: f64::from(t),
        new_value: f64::from(new),
        evidence: format!(
            "set {} did {a} and {b} reps against a target of {t} (range {}-{}) in the last 2 sessions",
            rx.index, r.lower, r.upper
        ),
        figures: vec![("reps", f64::from(a)), ("previousReps", f64::from(b))],
        set_type: None,
    })
}

/// Every working set held the first set's reps with long rest, in both of the last 2 sessions, on
/// a non-barbell exercise.
fn decrease_rest(ctx: &ExerciseContext, last: &[&ExercisePerformance]) -> Option<Candidate> {
    if ctx.exercise.equipment == Equipment::Barbell {
        return None;
    }
    let [now, before] = last.get(..2)? else {
        return None;
    };
    let held = |perf: &ExercisePerformance| -> Option<(u32, u32)> {
        let sets = all_working(ctx, perf).filter(|s| s.len() >= 2)?;
        let first = sets[0].1.reps;
        let ok = sets.iter().all(|(rx, s)| {
            s.reps >= first && at_least_load(ctx, rx, s) && s.reps >= rx.target_reps
        });
        let rest = prescribed_rest(ctx, sets[0].0.index)?;
        (ok && rest >= LONG_REST_SECONDS).then_some((first, rest))
    };
    let (reps, rest) = held(now)?;
    held(before)?;
    let first_index = working(ctx, now).first()?.0.index;
    rest_candidate(
        ctx,
        first_index,
        false,
        format!("every set held {reps} reps with {rest} s rest, 2 sessions running"),
        vec![("reps", f64::from(reps)), ("restSeconds", f64::from(rest))],
    )
}

/// The schema of the pick: `{"pick": "none" | "c1".., "reason": text}`.
pub fn pick_schema(count: usize) -> String {
    let mut names = vec!["\"none\"".to_string()];
    names.extend((1..=count).map(|i| format!("\"c{i}\"")));
    format!(
        "{{\"type\":\"object\",\"properties\":{{\"pick\":{{\"enum\":[{}]}},\"reason\":{{\"type\":\"string\",\"maxLength\":{MAX_REASON_CHARS}}}}},\"required\":[\"pick\",\"reason\"],\"additionalProperties\":false}}",
        names.join(",")
    )
}

/// The user turn: the exercise and the candidates with their evidence, one line each.
pub fn choices_prompt(ctx: &ExerciseContext, candidates: &[Candidate]) -> String {
    let unit = ctx.plan.unit.symbol();
    let mut t = format!("Exercise: {}\nCandidates:\n", ctx.exercise.name);
    for (i, c) in candidates.iter().enumerate() {
        t.push_str(&format!(
            "c{}: {}. Evidence: {}.\n",
            i + 1,
            c.summary(unit),
            c.evidence
        ));
    }
    t.push_str("Reply with the JSON object.");
    t
}

/// A reply as parsed.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawPick {
    pub(super) pick: String,
    #[serde(default)]
    pub(super) reason: String,
}

/// The candidate a pick names: `Ok(None)` for `none`, `Err` with the issue for anything else.
pub(super) fn read_pick(pick: &str, count: usize) -> Result<Option<usize>, String> {
    let p = pick.trim();
    if p.eq_ignore_ascii_case("none") {
        return Ok(None);
    }
    p.strip_prefix('c')
        .and_then(|n| n.parse::<usize>().ok())
        .filter(|n| (1..=count).contains(n))
        .map(|n| Some(n - 1))
        .ok_or_else(|| {
            format!(
                "pick must be \"none\" or one of {}",
                (1..=count)
                    .map(|i| format!("\"c{i}\""))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        })
}

/// The reason the draft shows: the model's when it reads as a sentence (some letters, at most
/// [`MAX_REASON_CHARS`]), else the candidate's evidence.
pub(super) fn reason_text(reason: &str, c: &Candidate) -> String {
    let r: String = reason.split_whitespace().collect::<Vec<_>>().join(" ");
    let letters = r.chars().filter(|ch| ch.is_alphabetic()).count();
    if letters >= 10 && r.chars().count() <= MAX_REASON_CHARS {
        r
    } else {
        let mut e = c.evidence.clone();
        if let Some(first) = e.get(..1) {
            e = first.to_uppercase() + &e[1..];
        }
        format!("{e}.")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::suggest::model::{Equipment, LoadConfig};
    use crate::suggest::rules::testkit::Ctx;

    fn with_load(equipment: Equipment, load: LoadConfig) -> ExerciseContext {
        Ctx::range(8, 12)
            .with(|c| {
                c.exercise.equipment = equipment;
                c.plan.load = load;
            })
            .build()
    }

    #[test]
    fn load_steps_are_the_next_loads_the_user_can_make() {
        let dumbbells = with_load(
            Equipment::Dumbbell,
            LoadConfig {
                dumbbells: vec![20.0, 25.0, 35.0],
                ..LoadConfig::default()
            },
        );
        // 25 -> 30 rounds back to 25 or up to 35: the next owned pair is 35; down, 20.
        assert_eq!(load_step(&dumbbells, 25.0, true), Some(35.0));
        assert_eq!(load_step(&dumbbells, 25.0, false), Some(20.0));
        assert_eq!(
            load_step(&dumbbells, 35.0, true),
            None,
            "none heavier owned"
        );
        let bar = with_load(
            Equipment::Barbell,
            LoadConfig {
                plates: vec![45.0, 25.0],
                bar_weight: 45.0,
                ..LoadConfig::default()
            },
        );
        // With 45s and 25s only: 95 -> 135 (105..125 cannot be built), and nothing below the bar.
        assert_eq!(load_step(&bar, 95.0, true), Some(135.0));
        assert_eq!(load_step(&bar, 95.0, false), Some(45.0));
        assert_eq!(load_step(&bar, 45.0, false), None);
        assert_eq!(load_step(&bar, 0.0, true), None, "body weight");
    }

    #[test]
    fn picks_read_back_strictly() {
        assert_eq!(read_pick("none", 2), Ok(None));
        assert_eq!(read_pick(" c2 ", 2), Ok(Some(1)));
        assert!(read_pick("c3", 2).unwrap_err().contains("\"c1\", \"c2\""));
        assert!(read_pick("c0", 2).is_err());
        assert!(read_pick("increaseRest", 2).is_err());
    }

    #[test]
    fn a_reason_that_is_not_a_sentence_falls_back_on_the_evidence() {
        let c = Candidate {
            change_type: ChangeType::IncreaseRest,
            target_set_index: None,
            old_value: 60.0,
            new_value: 90.0,
            evidence: "reps fell from 12 to 7".into(),
            figures: vec![],
            set_type: None,
        };
        assert_eq!(reason_text("  ", &c), "Reps fell from 12 to 7.");
        assert_eq!(reason_text("12 7 !!", &c), "Reps fell from 12 to 7.");
        assert_eq!(
            reason_text("More rest  keeps your reps up.", &c),
            "More rest keeps your reps up."
        );
        assert_eq!(c.summary("lb"), "increase rest from 60 to 90 s");
    }

    /// A context of `n` regular sets at 100 lb (range 8-12), with these sessions (newest first).
    fn sets_ctx(n: u32, sessions: Vec<Vec<PerformedSet>>) -> ExerciseContext {
        Ctx::range(8, 12)
            .rx(|rx| {
                rx.sets = (0..n)
                    .map(|index| SetPrescription {
                        index,
                        set_type: SetType::Regular,
                        target_weight: 100.0,
                        target_reps: 10,
                        rest_seconds: 90,
                    })
                    .collect();
            })
            .performed(sessions)
            .build()
    }

    fn set_types(ctx: &ExerciseContext) -> Vec<(Option<u32>, Option<(SetType, SetType)>)> {
        let rules = crate::suggest::rules::evaluate(ctx);
        candidates(ctx, &rules)
            .iter()
            .filter(|c| c.change_type == ChangeType::ChangeSetType)
            .map(|c| (c.target_set_index, c.set_type))
            .collect()
    }

    #[test]
    fn a_light_last_set_after_the_top_set_is_offered_as_a_drop_set() {
        use crate::suggest::rules::testkit::sets;
        use SetType::Regular as R;
        let drop = |w: f64| sets(&[(R, 100.0, 10), (R, 100.0, 10), (R, 100.0, 9), (R, w, 12)]);
        let ctx = sets_ctx(4, vec![drop(75.0), drop(70.0)]);
        assert_eq!(
            set_types(&ctx),
            [(Some(3), Some((SetType::Regular, SetType::Drop)))]
        );
        let c = candidates(&ctx, &crate::suggest::rules::evaluate(&ctx));
        let c = c.iter().find(|c| c.set_type.is_some()).unwrap();
        assert_eq!(c.summary("lb"), "make set 3 a drop set (now a regular set)");
        // The draft is one the accept check takes.
        let d = admitted(&ctx, c, "A lighter set after the top set.", &["p0".into()]).unwrap();
        assert_eq!(
            d.new_value,
            ChangeValue::SetType {
                value: SetType::Drop
            }
        );
        assert!(crate::suggest::apply::applied(&ctx.prescription, &d).is_ok());
        // One session only, too light, not light enough, or not right after the top set: none.
        assert!(set_types(&sets_ctx(4, vec![drop(75.0)])).is_empty());
        assert!(set_types(&sets_ctx(4, vec![drop(40.0), drop(40.0)])).is_empty());
        assert!(set_types(&sets_ctx(4, vec![drop(95.0), drop(95.0)])).is_empty());
        let after_light = sets(&[(R, 100.0, 10), (R, 100.0, 10), (R, 90.0, 9), (R, 75.0, 12)]);
        assert!(set_types(&sets_ctx(4, vec![after_light.clone(), after_light])).is_empty());
    }

    #[test]
    fn a_light_ramp_up_set_after_the_first_two_is_offered_as_a_warmup() {
        use crate::suggest::rules::testkit::sets;
        use SetType::{Regular as R, Warmup as W};
        // The first two are warmups already (accepted from the rules); the third still ramps up.
        let ramp = sets(&[
            (W, 45.0, 10),
            (W, 55.0, 8),
            (R, 65.0, 5),
            (R, 100.0, 10),
            (R, 100.0, 9),
        ]);
        let mut ctx = sets_ctx(5, vec![ramp.clone(), ramp.clone()]);
        ctx.prescription.sets[0].set_type = SetType::Warmup;
        ctx.prescription.sets[1].set_type = SetType::Warmup;
        assert_eq!(
            set_types(&ctx),
            [(Some(2), Some((SetType::Regular, SetType::Warmup)))]
        );
        let rules = crate::suggest::rules::evaluate(&ctx);
        for c in candidates(&ctx, &rules) {
            assert!(admitted(&ctx, &c, &c.evidence, &[]).is_some(), "{c:?}");
        }
        // At 80% of the top set it is a working set: none.
        let heavy = sets(&[
            (W, 45.0, 10),
            (W, 55.0, 8),
            (R, 80.0, 8),
            (R, 100.0, 10),
            (R, 100.0, 9),
        ]);
        let mut ctx = sets_ctx(5, vec![heavy.clone(), heavy]);
        ctx.prescription.sets[0].set_type = SetType::Warmup;
        ctx.prescription.sets[1].set_type = SetType::Warmup;
        assert!(set_types(&ctx).is_empty());
        // Straight sets at one weight: no set type candidate at all.
        let straight = sets(&[(R, 100.0, 10), (R, 100.0, 10), (R, 100.0, 10)]);
        assert!(set_types(&sets_ctx(3, vec![straight.clone(), straight])).is_empty());
    }

    #[test]
    fn no_candidate_without_a_previous_session() {
        let ctx = Ctx::range(8, 12).sessions(&[&[12, 7, 5]]).build();
        assert!(candidates(&ctx, &[]).is_empty());
    }
}
