//! Tests of `rep_range.rs`, some through the whole rule engine (`rules::evaluate`).

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
