//! Tests of `safety.rs`, some through the whole rule engine (`rules::evaluate`).

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
fn match_actual_weight_also_judges_sets_already_reduced() {
    // 90 lb instead of 100 with 7 reps (range 8-12) three times on sets 0 and 1, 90 x 10 on
    // set 2: reduced_weight_to_hit_reps lowers sets 0 and 1, match actual weight lowers all
    // three (the deduplicator keeps one decrease per set, the larger).
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
        vec![
            (DecreaseWeight, Some(0), Some(90.0)),
            (DecreaseWeight, Some(1), Some(90.0)),
            (DecreaseWeight, Some(2), Some(90.0))
        ]
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
