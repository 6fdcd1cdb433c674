//! Tests of `hygiene.rs`, some through the whole rule engine (`rules::evaluate`).

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
    let session = |t: SetType| sets(&[(Regular, 100.0, 10), (Regular, 100.0, 10), (t, 80.0, 10)]);
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
