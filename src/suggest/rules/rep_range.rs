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
mod tests {
    use super::super::testkit::{done, Ctx};
    use super::*;
    use crate::suggest::model::{ExerciseHistory, Trend};

    /// (name, reps per session newest first, expected inference)
    type SessionCase = (&'static str, &'static [&'static [u32]], Option<RepRange>);

    fn history(lower: u32, upper: u32) -> ExerciseHistory {
        ExerciseHistory {
            catalog_id: "bench-press".into(),
            session_count: 20,
            typical_lower_reps: lower,
            typical_upper_reps: upper,
            best_e1rm: 0.0,
            last_e1rm: 0.0,
            trend: Trend::Unknown,
            updated_at_ms: 0,
        }
    }

    fn run(ctx: &ExerciseContext) -> Vec<SuggestionDraft> {
        let mut out = Vec::new();
        inference(ctx, &mut out);
        out
    }

    /// The inferred rep range, if the rule fired.
    fn inferred(ctx: &ExerciseContext) -> Option<RepRange> {
        let out = run(ctx);
        assert!(out.len() <= 1, "one exercise-level draft at most: {out:?}");
        out.first().map(|d| match &d.new_value {
            ChangeValue::RepRange { value } => *value,
            other => panic!("not a rep range: {other:?}"),
        })
    }

    fn t(target: u32) -> Option<RepRange> {
        Some(target_mode(target))
    }

    fn r(lower: u32, upper: u32) -> Option<RepRange> {
        Some(range_mode(lower, upper))
    }

    #[test]
    fn infers_from_recent_working_sets() {
        let cases: &[SessionCase] = &[
            ("all equal", &[&[10, 10, 10], &[10, 10, 10]], t(10)),
            (
                "vary by 1: most common",
                &[&[10, 10, 9], &[10, 9, 10]],
                t(10),
            ),
            ("vary by 1: tie goes lower", &[&[8, 9], &[9, 8]], t(8)),
            ("vary by 2: range", &[&[8, 10], &[9, 9]], r(8, 10)),
            ("min to max", &[&[8, 10, 12], &[9, 10, 11]], r(8, 12)),
            ("width 6 kept", &[&[6, 9, 12], &[6, 9, 12]], r(6, 12)),
            (
                "width 8 narrowed around the median",
                &[&[6, 10, 14], &[8, 10, 12]],
                r(7, 13),
            ),
            (
                "narrowed window stays inside the observed reps",
                &[&[5, 5, 5], &[5, 5, 15]],
                r(5, 11),
            ),
            (
                "four sessions count",
                &[&[10, 10], &[10, 10], &[10, 10], &[14, 14]],
                r(10, 14),
            ),
            ("one session is too few", &[&[10, 10, 10]], None),
        ];
        for (name, sessions, want) in cases {
            let ctx = Ctx::not_set().sessions(sessions).build();
            assert_eq!(inferred(&ctx), *want, "{name}");
        }
    }

    #[test]
    fn only_completed_working_sets_count() {
        use SetType::*;
        // A warmup with many reps and a drop set would make this a wide range if they counted.
        let ctx = Ctx::not_set()
            .performed(vec![
                vec![
                    done(0, Warmup, 45.0, 20),
                    done(1, Regular, 100.0, 10),
                    done(2, Drop, 70.0, 15),
                ],
                vec![
                    done(0, Warmup, 45.0, 20),
                    done(1, Regular, 100.0, 10),
                    done(2, Regular, 100.0, 10),
                ],
            ])
            .build();
        assert_eq!(inferred(&ctx), t(10));

        let mut undone = ctx.clone();
        undone.previous[0].sets[2].reps = 4;
        undone.previous[0].sets[2].completed = false;
        assert_eq!(inferred(&undone), t(10), "an incomplete set does not count");

        // A session with only warmups does not count: one session left, no history -> nothing.
        let warmups_only = Ctx::not_set()
            .performed(vec![
                vec![done(0, Warmup, 45.0, 12)],
                vec![done(0, Regular, 100.0, 10)],
            ])
            .build();
        assert_eq!(inferred(&warmups_only), None);
        let with_history = Ctx::not_set()
            .performed(vec![
                vec![done(0, Warmup, 45.0, 12)],
                vec![done(0, Regular, 100.0, 10)],
            ])
            .with(|c| c.history = Some(history(8, 12)))
            .build();
        assert_eq!(inferred(&with_history), r(8, 12));
    }

    #[test]
    fn infers_from_cached_history_when_sessions_are_few() {
        let cases: &[(&str, u32, u32, Option<RepRange>)] = &[
            ("typical range", 8, 12, r(8, 12)),
            ("equal bounds: target", 10, 10, t(10)),
            ("width 1 widened to 2", 8, 9, r(7, 9)),
            ("widened range never below 1", 1, 2, r(1, 3)),
            ("width 11 narrowed to 6", 4, 15, r(6, 12)),
            ("swapped bounds", 12, 8, r(8, 12)),
            ("unknown lower", 0, 12, None),
            ("unknown upper", 8, 0, None),
        ];
        for (name, lower, upper, want) in cases {
            let ctx = Ctx::not_set()
                .sessions(&[&[10, 10, 10]])
                .with(|c| c.history = Some(history(*lower, *upper)))
                .build();
            assert_eq!(inferred(&ctx), *want, "{name}");
        }
        let no_history = Ctx::not_set().sessions(&[&[10, 10, 10]]).build();
        assert_eq!(inferred(&no_history), None);
        // Two sessions win over the history.
        let both = Ctx::not_set()
            .sessions(&[&[10, 10], &[10, 10]])
            .with(|c| c.history = Some(history(6, 8)))
            .build();
        assert_eq!(inferred(&both), t(10));
    }

    #[test]
    fn only_when_the_mode_is_not_set() {
        let sessions: &[&[u32]] = &[&[10, 10, 10], &[10, 10, 10]];
        assert_eq!(
            inferred(&Ctx::range(8, 12).sessions(sessions).build()),
            None
        );
        assert_eq!(inferred(&Ctx::target(8).sessions(sessions).build()), None);
    }

    #[test]
    fn drafts_explain_themselves() {
        let ctx = Ctx::not_set()
            .sessions(&[&[8, 10, 12], &[9, 10, 11], &[10, 10]])
            .build();
        let out = run(&ctx);
        assert_eq!(out.len(), 1);
        let d = &out[0];
        assert_eq!(d.rule_id.as_deref(), Some(INFERENCE));
        assert_eq!(d.change_type, ChangeType::ChangeRepRange);
        assert_eq!(d.property, ChangeProperty::RepRange);
        assert_eq!(d.target_set_index, None);
        assert_eq!(
            d.old_value,
            Some(ChangeValue::RepRange {
                value: ctx.prescription.rep_range
            })
        );
        assert_eq!(
            d.new_value,
            ChangeValue::RepRange {
                value: range_mode(8, 12)
            }
        );
        assert_eq!(d.evidence.performance_ids, ["perf-0", "perf-1", "perf-2"]);
        assert_eq!(d.evidence.set_indexes, [0, 1, 2]);
        let fig = |name: &str| {
            d.evidence
                .figures
                .iter()
                .find(|f| f.name == name)
                .map(|f| f.value)
        };
        assert_eq!(fig("sessions"), Some(3.0));
        assert_eq!(fig("minReps"), Some(8.0));
        assert_eq!(fig("maxReps"), Some(12.0));
        assert_eq!(fig("lower"), Some(8.0));
        assert_eq!(fig("upper"), Some(12.0));
        assert!(d.reasoning.contains("8 to 12"), "{}", d.reasoning);

        let from_history = Ctx::not_set()
            .sessions(&[&[10]])
            .with(|c| c.history = Some(history(8, 12)))
            .build();
        let out = run(&from_history);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].rule_id.as_deref(), Some(INFERENCE));
        assert_eq!(out[0].evidence.performance_ids, ["perf-0"]);
        assert!(out[0]
            .evidence
            .figures
            .iter()
            .any(|f| f.name == "typicalLowerReps" && f.value == 8.0));
    }

    #[test]
    fn typical_reps_at_the_top_of_u32_neither_overflow_nor_reach_the_plan() {
        // The midpoint of the typical bounds overflowed (`(lo + hi) / 2`, a panic in debug).
        let huge = Ctx::not_set()
            .with(|c| c.history = Some(history(u32::MAX - 8, u32::MAX)))
            .build();
        assert_eq!(inferred(&huge), r(u32::MAX - 7, u32::MAX - 1));
        // A range accept would refuse (above 100 reps) is not suggested, however typical.
        let high = Ctx::not_set()
            .with(|c| c.history = Some(history(1000, 2000)))
            .build();
        for ctx in [&huge, &high] {
            assert!(
                super::super::evaluate(ctx)
                    .iter()
                    .all(|d| d.change_type != ChangeType::ChangeRepRange),
                "{:?}",
                ctx.history
            );
        }
        // And an outside context with typical reps beyond any logged set is refused, by path.
        let e = crate::suggest::validate::check_context_fields(&huge).unwrap_err();
        assert_eq!(e.path, "context.history.typicalLowerReps");
        assert!(crate::suggest::validate::check_context_fields(&high).is_ok());
    }
}
