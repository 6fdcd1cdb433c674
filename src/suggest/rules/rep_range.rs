//! Rep range inference (spec 004 "Rep Range Inference"): when an exercise's rep range mode is
//! `notSet`, infer a mode and its values from recent history or the cached typical range, as one
//! exercise-level change (`changeRepRange`, property `repRange`).
//!
//! The spec only says "infer a mode and values from recent history or cached typical range"; the
//! choices made here:
//!
//! - **Observed reps.** The reps (> 0) of the completed working (regular) sets of the evidence
//!   sessions ([`ExerciseContext::recent`]: the current performance and up to 3 earlier ones).
//!   Warmup and drop sets never count. At least 2 sessions must have such a set; otherwise the
//!   cached history is used.
//! - **Target or range.** If the observed reps vary by at most 1 (max - min <= 1) the user trains
//!   to a number: target mode, target = the most common rep count (ties: the lower). Otherwise
//!   range mode from the lowest to the highest observed reps.
//! - **Width.** A range is 2 to 6 reps wide. A wider one is narrowed to 6 around the median (the
//!   lower median for an even count), kept inside the observed reps: lower = median - 3, moved
//!   into [min, max - 6]. A narrower one (only possible from history) is widened to 2
//!   symmetrically around the median: median - 1 ..= median + 1. A range never starts below 1
//!   rep (it is shifted up instead).
//! - **Cached history.** When fewer than 2 sessions qualify and the history has both a typical
//!   lower and upper rep count (> 0): range mode from typical lower to typical upper with the
//!   same width rule (median = their mean, rounded down); equal bounds give target mode.
//! - **Value.** Target mode writes `target` and zeroes the bounds; range mode writes the bounds
//!   and zeroes `target`.
//! - **Evidence.** The performances examined (newest first, also on the history path, where they
//!   were too few), the set indexes of the counted working sets, and the figures: sessions and
//!   min/max/median reps, or the typical bounds and history session count, plus the result.

use super::super::model::{
    ChangeProperty, ChangeType, ChangeValue, Evidence, ExerciseContext, ExercisePerformance,
    PerformedSet, RepRange, RepRangeMode, SetType, SuggestionDraft,
};
use super::{draft, evidence};

/// Rule id of rep range inference.
pub(super) const INFERENCE: &str = "rep_range_inference";

/// Sessions with working sets needed to infer from recent performances.
const MIN_SESSIONS: usize = 2;
/// Narrowest inferred range (upper - lower).
const MIN_WIDTH: u32 = 2;
/// Widest inferred range (upper - lower).
const MAX_WIDTH: u32 = 6;

/// Rep range inference: proposes a rep range (or target) for an exercise whose mode is not set,
/// from the working sets of the last sessions or, failing that, the cached typical range.
pub(super) fn inference(ctx: &ExerciseContext, out: &mut Vec<SuggestionDraft>) {
    let current = ctx.prescription.rep_range;
    let Some(Inferred {
        value,
        reasoning,
        evidence,
    }) = infer(ctx)
    else {
        return;
    };
    out.push(draft(
        INFERENCE,
        ChangeType::ChangeRepRange,
        None,
        ChangeProperty::RepRange,
        Some(ChangeValue::RepRange { value: current }),
        ChangeValue::RepRange { value },
        reasoning,
        evidence,
    ));
}

/// An inferred rep range with what explains it.
struct Inferred {
    value: RepRange,
    reasoning: String,
    evidence: Evidence,
}

/// The inference itself (see the module docs); `None` when the mode is set or nothing supports
/// one.
fn infer(ctx: &ExerciseContext) -> Option<Inferred> {
    if ctx.prescription.rep_range.mode != RepRangeMode::NotSet {
        return None;
    }
    let examined: Vec<&str> = ctx.recent().map(|p| p.id.as_str()).collect();
    let sessions: Vec<(&ExercisePerformance, Vec<u32>)> = ctx
        .recent()
        .map(|p| (p, working_reps(p)))
        .filter(|(_, reps)| !reps.is_empty())
        .collect();

    let (value, reasoning, ev) = if sessions.len() >= MIN_SESSIONS {
        let mut reps: Vec<u32> = sessions
            .iter()
            .flat_map(|(_, r)| r.iter().copied())
            .collect();
        reps.sort_unstable();
        let (min, max) = (reps[0], reps[reps.len() - 1]);
        let median = reps[(reps.len() - 1) / 2];
        let mut set_indexes: Vec<u32> = sessions
            .iter()
            .flat_map(|(p, _)| working_sets(p).map(|s| s.index))
            .collect();
        set_indexes.sort_unstable();
        set_indexes.dedup();
        let n = sessions.len();
        let mut figures = vec![
            ("sessions", n as f64),
            ("minReps", min as f64),
            ("maxReps", max as f64),
            ("medianReps", median as f64),
        ];
        let (value, reasoning) = if max - min <= 1 {
            let target = most_common(&reps);
            figures.push(("target", target as f64));
            let reasoning = format!(
                "Your working sets over the last {n} sessions were all {min} to {max} reps. \
                 Set a target of {target} reps."
            );
            (target_mode(target), reasoning)
        } else {
            let (lower, upper) = clamp_width(min, max, median);
            figures.push(("lower", lower as f64));
            figures.push(("upper", upper as f64));
            let reasoning = format!(
                "Your working sets over the last {n} sessions ranged from {min} to {max} reps. \
                 Set a rep range of {lower} to {upper}."
            );
            (range_mode(lower, upper), reasoning)
        };
        let ids = sessions.iter().map(|(p, _)| p.id.as_str());
        (value, reasoning, evidence(ids, set_indexes, &figures))
    } else {
        let h = ctx.history.as_ref()?;
        if h.typical_lower_reps == 0 || h.typical_upper_reps == 0 {
            return None;
        }
        let lo = h.typical_lower_reps.min(h.typical_upper_reps);
        let hi = h.typical_lower_reps.max(h.typical_upper_reps);
        let mut figures = vec![
            ("typicalLowerReps", h.typical_lower_reps as f64),
            ("typicalUpperReps", h.typical_upper_reps as f64),
            ("historySessions", h.session_count as f64),
        ];
        let (value, reasoning) = if lo == hi {
            figures.push(("target", lo as f64));
            let reasoning =
                format!("You typically do {lo} reps on this exercise. Set a target of {lo} reps.");
            (target_mode(lo), reasoning)
        } else {
            let (lower, upper) = clamp_width(lo, hi, lo + (hi - lo) / 2);
            figures.push(("lower", lower as f64));
            figures.push(("upper", upper as f64));
            let reasoning = format!(
                "You typically do {lo} to {hi} reps on this exercise. \
                 Set a rep range of {lower} to {upper}."
            );
            (range_mode(lower, upper), reasoning)
        };
        (value, reasoning, evidence(examined, [], &figures))
    };

    Some(Inferred {
        value,
        reasoning,
        evidence: ev,
    })
}

/// The completed working sets with reps of a performance.
fn working_sets(perf: &ExercisePerformance) -> impl Iterator<Item = &PerformedSet> {
    perf.sets
        .iter()
        .filter(|s| s.completed && s.set_type == SetType::Regular && s.reps > 0)
}

/// The reps of [`working_sets`].
fn working_reps(perf: &ExercisePerformance) -> Vec<u32> {
    working_sets(perf).map(|s| s.reps).collect()
}

/// The most common value of a sorted, non-empty slice; ties go to the lower value.
fn most_common(sorted: &[u32]) -> u32 {
    let mut best = (sorted[0], 0usize);
    let mut i = 0;
    while i < sorted.len() {
        let run = sorted[i..].iter().take_while(|&&r| r == sorted[i]).count();
        if run > best.1 {
            best = (sorted[i], run);
        }
        i += run;
    }
    best.0
}

/// Bounds `min..=max` made 2 to 6 reps wide around `median` (see the module doc), never below 1.
fn clamp_width(min: u32, max: u32, median: u32) -> (u32, u32) {
    let (min, max, median) = (min as i64, max as i64, median as i64);
    let (lower, upper) = if max - min > MAX_WIDTH as i64 {
        let half = MAX_WIDTH as i64 / 2;
        let lower = (median - half).clamp(min, max - MAX_WIDTH as i64);
        (lower, lower + MAX_WIDTH as i64)
    } else if max - min < MIN_WIDTH as i64 {
        let half = MIN_WIDTH as i64 / 2;
        (median - half, median + half)
    } else {
        (min, max)
    };
    let shift = (1 - lower).max(0);
    ((lower + shift) as u32, (upper + shift) as u32)
}

/// A target-mode rep range.
fn target_mode(target: u32) -> RepRange {
    RepRange {
        mode: RepRangeMode::Target,
        lower: 0,
        upper: 0,
        target,
    }
}

/// A range-mode rep range.
fn range_mode(lower: u32, upper: u32) -> RepRange {
    RepRange {
        mode: RepRangeMode::Range,
        lower,
        upper,
        target: 0,
    }
}

#[cfg(test)]
mod tests;
