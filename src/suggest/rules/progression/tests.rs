//! Tests of `progression.rs`, some through the whole rule engine (`rules::evaluate`).

use super::super::testkit::{done, fired, Ctx};
use super::super::weight_progression_indexes;
use super::*;
use crate::suggest::model::{ChangeValue, Equipment, LoadConfig, Muscle, PerformedSet, WeightUnit};
use ChangeType::{DecreaseReps, IncreaseReps, IncreaseWeight};

type Fired = Vec<(ChangeType, Option<u32>, Option<f64>)>;
/// (name, muscles, unit, current weight, double progression weight, overshoot weight)
type WeightCase = (&'static str, Vec<Muscle>, WeightUnit, f64, f64, f64);
/// (name, equipment, load, unit, weight, double progression weights, overshoot weights)
type LoadCase = (
    &'static str,
    Equipment,
    LoadConfig,
    WeightUnit,
    f64,
    Vec<f64>,
    Vec<f64>,
);
/// (name, set target reps, expected reps draft on each progression set)
type ResetCase = (&'static str, u32, Option<(ChangeType, f64)>);

/// The four progression rules in engine order.
fn run(ctx: &ExerciseContext) -> Vec<SuggestionDraft> {
    let mut out = Vec::new();
    large_overshoot(ctx, &mut out);
    double_progression_range(ctx, &mut out);
    double_progression_target(ctx, &mut out);
    steady_reps_increase(ctx, &mut out);
    out
}

/// Weight increase (and optional reps reset) on sets 0 and 1.
fn on_first_two(weight: f64, reset: Option<u32>) -> Fired {
    let mut v = Vec::new();
    for i in 0..2 {
        v.push((IncreaseWeight, Some(i), Some(weight)));
        if let Some(r) = reset {
            v.push((DecreaseReps, Some(i), Some(r as f64)));
        }
    }
    v
}

#[test]
fn range_mode_overshoot_and_double_progression_thresholds() {
    // 8-12 reps, 3 sets at 100 lb with 10 target reps, chest (5 lb). Progression sets are
    // sets 0 and 1 (the two heaviest; equal weights keep the earlier sets).
    let over = on_first_two(107.5, Some(8));
    let double = on_first_two(105.0, Some(8));
    let none: Fired = vec![];
    let cases: &[(&str, &[&[u32]], &Fired, &Fired)] = &[
        (
            "upper+4 in both",
            &[&[16, 16, 16], &[16, 16, 16]],
            &over,
            &none,
        ),
        ("upper+5 and +4", &[&[17, 16], &[16, 18]], &over, &none),
        (
            "upper+3 now, +4 before",
            &[&[15, 15, 15], &[16, 16, 16]],
            &none,
            &double,
        ),
        (
            "upper+4 now, +3 before",
            &[&[16, 16, 16], &[16, 15, 16]],
            &none,
            &double,
        ),
        (
            "upper+3 in both",
            &[&[15, 15, 15], &[15, 15, 15]],
            &none,
            &double,
        ),
        (
            "non-progression set 2 ignored",
            &[&[16, 16, 3], &[16, 16, 1]],
            &over,
            &none,
        ),
        (
            "at upper in both",
            &[&[12, 12, 12], &[12, 12, 11]],
            &none,
            &double,
        ),
        (
            "current short by one",
            &[&[12, 11, 12], &[12, 12, 12]],
            &none,
            &none,
        ),
        (
            "previous short by one",
            &[&[12, 12], &[11, 12]],
            &none,
            &none,
        ),
        ("one session only", &[&[16, 16, 16]], &none, &none),
        ("one session only, at upper", &[&[12, 12, 12]], &none, &none),
    ];
    for (name, sessions, want_over, want_double) in cases {
        let ctx = Ctx::range(8, 12).sessions(sessions).build();
        let out = run(&ctx);
        assert_eq!(
            fired(&out, LARGE_OVERSHOOT),
            **want_over,
            "{name}: overshoot"
        );
        assert_eq!(
            fired(&out, DOUBLE_PROGRESSION_RANGE),
            **want_double,
            "{name}: double"
        );
        assert_eq!(
            fired(&out, DOUBLE_PROGRESSION_TARGET),
            none,
            "{name}: target rule"
        );
    }
}

#[test]
fn target_mode_overshoot_and_double_progression_thresholds() {
    // Target 8 reps: overshoot at 13, double progression at 9; no reps reset in target mode.
    let over = on_first_two(107.5, None);
    let double = on_first_two(105.0, None);
    let none: Fired = vec![];
    let cases: &[(&str, &[&[u32]], &Fired, &Fired)] = &[
        (
            "target+5 in both",
            &[&[13, 13, 13], &[13, 13, 13]],
            &over,
            &none,
        ),
        (
            "target+4 now",
            &[&[12, 12, 12], &[13, 13, 13]],
            &none,
            &double,
        ),
        (
            "target+4 before",
            &[&[13, 13, 13], &[13, 12, 13]],
            &none,
            &double,
        ),
        ("target+4 in both", &[&[12, 12], &[12, 12]], &none, &double),
        ("target+1 in both", &[&[9, 9], &[9, 9]], &none, &double),
        ("at target now", &[&[8, 9], &[9, 9]], &none, &none),
        ("at target before", &[&[9, 9], &[9, 8]], &none, &none),
        ("one session only", &[&[13, 13, 13]], &none, &none),
    ];
    for (name, sessions, want_over, want_double) in cases {
        let ctx = Ctx::target(8).sessions(sessions).build();
        let out = run(&ctx);
        assert_eq!(
            fired(&out, LARGE_OVERSHOOT),
            **want_over,
            "{name}: overshoot"
        );
        assert_eq!(
            fired(&out, DOUBLE_PROGRESSION_TARGET),
            **want_double,
            "{name}: double"
        );
        assert_eq!(
            fired(&out, DOUBLE_PROGRESSION_RANGE),
            none,
            "{name}: range rule"
        );
        assert_eq!(
            fired(&out, STEADY_REPS_INCREASE),
            none,
            "{name}: steady is range only"
        );
    }
}

#[test]
fn not_set_mode_never_progresses() {
    use super::super::evaluate;
    // Reps 8 to 12 at the top of what would be an 8-12 range in both sessions: the engine
    // proposes that range (rep range inference) and nothing else, since the user has not
    // chosen a rep goal to progress against yet (as in the original app).
    let ctx = Ctx::not_set()
        .sessions(&[&[12, 12, 8], &[12, 12, 8]])
        .build();
    assert!(run(&ctx).is_empty());
    let out = evaluate(&ctx);
    assert_eq!(out.len(), 1, "{out:?}");
    assert_eq!(out[0].rule_id.as_deref(), Some("rep_range_inference"));
    // Far past any plausible goal (20 reps): still only the inference.
    let ctx = Ctx::not_set().sessions(&[&[20, 20], &[20, 20]]).build();
    let out = evaluate(&ctx);
    assert_eq!(out.len(), 1, "{out:?}");
    assert_eq!(out[0].rule_id.as_deref(), Some("rep_range_inference"));
    // Once the inferred range is the prescription's, the same sessions progress.
    let ctx = Ctx::range(8, 12)
        .sessions(&[&[12, 12, 8], &[12, 12, 8]])
        .build();
    assert_eq!(
        fired(&evaluate(&ctx), DOUBLE_PROGRESSION_RANGE),
        on_first_two(105.0, Some(8))
    );
}

#[test]
fn progression_warranted_on_the_condition_even_without_a_loadable_increase() {
    // Only 45 lb plates: 135 + 5 rounds back to 135, so no increase is emitted, yet the sets
    // still count as progressing (match actual weight must not fire on them).
    let ctx = Ctx::range(8, 12)
        .rx(|rx| rx.sets.iter_mut().for_each(|s| s.target_weight = 135.0))
        .with(|c| {
            c.plan.load = LoadConfig {
                plates: vec![45.0],
                bar_weight: 45.0,
                dumbbells: vec![],
            }
        })
        .sessions(&[&[12, 12, 12], &[12, 12, 12]])
        .build();
    assert!(run(&ctx).is_empty());
    assert_eq!(weight_progression_indexes(&ctx), vec![0, 1]);
    // Body weight (target 0): no increase either, still progressing.
    let ctx = Ctx::range(8, 12)
        .rx(|rx| rx.sets.iter_mut().for_each(|s| s.target_weight = 0.0))
        .sessions(&[&[12, 12, 12], &[12, 12, 12]])
        .build();
    assert_eq!(weight_progression_indexes(&ctx), vec![0, 1]);
    // Not at the top: nothing.
    let ctx = Ctx::range(8, 12)
        .sessions(&[&[12, 11, 12], &[12, 12, 12]])
        .build();
    assert_eq!(weight_progression_indexes(&ctx), Vec::<u32>::new());
}

#[test]
fn plates_that_cannot_make_the_increase_emit_nothing() {
    // 45s and 25s on a 45 lb bar, bench at 95: +5 (100) and +7.5 (102.5) both round back to 95
    // (30 per side cannot be built), so neither double progression nor overshoot fires.
    for reps in [12, 16] {
        let ctx = Ctx::range(8, 12)
            .rx(|rx| rx.sets.iter_mut().for_each(|s| s.target_weight = 95.0))
            .with(|c| {
                c.plan.load = LoadConfig {
                    plates: vec![45.0, 25.0],
                    bar_weight: 45.0,
                    dumbbells: vec![],
                }
            })
            .sessions(&[&[reps, reps, reps], &[reps, reps, reps]])
            .build();
        assert!(run(&ctx).is_empty(), "{reps} reps: {:?}", run(&ctx));
    }
}

#[test]
fn only_progression_sets_count() {
    use SetType::*;
    let session = |reps: u32| {
        vec![
            done(0, Warmup, 50.0, 20),
            done(1, Regular, 100.0, reps),
            done(2, Regular, 100.0, reps),
        ]
    };
    // The warmup's 20 reps are upper+8, but it is not a progression set.
    let ctx = Ctx::range(8, 12)
        .performed(vec![session(12), session(12)])
        .build();
    let out = run(&ctx);
    assert_eq!(fired(&out, LARGE_OVERSHOOT), vec![]);
    assert_eq!(
        fired(&out, DOUBLE_PROGRESSION_RANGE),
        vec![
            (IncreaseWeight, Some(1), Some(105.0)),
            (DecreaseReps, Some(1), Some(8.0)),
            (IncreaseWeight, Some(2), Some(105.0)),
            (DecreaseReps, Some(2), Some(8.0)),
        ]
    );
    assert_eq!(out[0].evidence.set_indexes, [1, 2]);
    let short = Ctx::range(8, 12)
        .performed(vec![session(11), session(12)])
        .build();
    assert!(
        run(&short).is_empty(),
        "the warmup's reps do not carry the session"
    );

    // The heaviest two of four working sets decide; the lighter back-off set does not.
    let backoff = |reps: u32| {
        vec![
            done(0, Regular, 100.0, reps),
            done(1, Regular, 100.0, reps),
            done(2, Regular, 80.0, 9),
        ]
    };
    let ctx = Ctx::range(8, 12)
        .performed(vec![backoff(12), backoff(12)])
        .build();
    assert_eq!(
        fired(&run(&ctx), DOUBLE_PROGRESSION_RANGE),
        on_first_two(105.0, Some(8))
    );

    // An incomplete set is no progression set: the next heaviest steps in.
    let mut ctx = Ctx::range(8, 12)
        .sessions(&[&[12, 12, 9], &[12, 12, 12]])
        .build();
    ctx.current.sets[1].completed = false;
    assert!(
        run(&ctx).is_empty(),
        "set 2 (9 reps) becomes a progression set"
    );
}

#[test]
fn overshoot_suppresses_double_progression() {
    let ctx = Ctx::range(8, 12)
        .sessions(&[&[16, 16, 16], &[16, 16, 16]])
        .build();
    let mut alone = Vec::new();
    double_progression_range(&ctx, &mut alone);
    assert!(alone.is_empty(), "also when run alone");
    let out = run(&ctx);
    assert_eq!(out.len(), 4);
    assert!(out
        .iter()
        .all(|d| d.rule_id.as_deref() == Some(LARGE_OVERSHOOT)));

    let ctx = Ctx::target(8).sessions(&[&[13, 13], &[13, 13]]).build();
    let mut alone = Vec::new();
    double_progression_target(&ctx, &mut alone);
    assert!(alone.is_empty());

    let cases: &[(&str, Ctx, Vec<u32>)] = &[
        (
            "overshoot",
            Ctx::range(8, 12).sessions(&[&[16, 16], &[16, 16]]),
            vec![0, 1],
        ),
        (
            "double range",
            Ctx::range(8, 12).sessions(&[&[12, 12], &[12, 12]]),
            vec![0, 1],
        ),
        (
            "double target",
            Ctx::target(8).sessions(&[&[9, 9], &[9, 9]]),
            vec![0, 1],
        ),
        (
            "steady only",
            Ctx::range(8, 12).sessions(&[&[10, 10], &[10, 10]]),
            vec![],
        ),
    ];
    for (name, ctx, want) in cases {
        assert_eq!(
            weight_progression_indexes(&ctx.clone().build()),
            *want,
            "{name}"
        );
    }
}

/// A context in `unit` at `weight` per set, with 12-reps (double progression) or 16-reps
/// (overshoot) sessions in an 8-12 range.
fn loaded(muscles: Vec<Muscle>, unit: WeightUnit, weight: f64, reps: u32) -> ExerciseContext {
    Ctx::range(8, 12)
        .rx(|rx| rx.sets.iter_mut().for_each(|s| s.target_weight = weight))
        .with(|c| {
            c.plan.unit = unit;
            c.exercise.target_muscles = muscles;
        })
        .sessions(&[&[reps, reps, reps], &[reps, reps, reps]])
        .build()
}

/// The new weights of the weight increases of `out`.
fn new_weights(out: &[SuggestionDraft]) -> Vec<f64> {
    out.iter()
        .filter(|d| d.change_type == IncreaseWeight)
        .filter_map(|d| d.new_value.number())
        .collect()
}

#[test]
fn exact_new_weights_by_muscle_and_unit() {
    use Muscle::*;
    use WeightUnit::{Kg, Lbs};
    let cases: &[WeightCase] = &[
        ("chest lb: 5 lb", vec![Chest], Lbs, 100.0, 105.0, 107.5),
        (
            "quads lb: 10 lb",
            vec![Quads, Glutes],
            Lbs,
            100.0,
            110.0,
            115.0,
        ),
        (
            "rotator cuff lb: 2.5 lb",
            vec![RotatorCuff],
            Lbs,
            20.0,
            22.5,
            25.0,
        ),
        ("no muscle, light: 2.5 lb", vec![], Lbs, 40.0, 42.5, 45.0),
        ("no muscle, heavy: 10 lb", vec![], Lbs, 200.0, 210.0, 215.0),
        (
            "chest lb, rounded to 2.5",
            vec![Chest],
            Lbs,
            101.0,
            105.0,
            107.5,
        ),
        ("chest kg: 2.5 kg", vec![Chest], Kg, 60.0, 62.5, 63.75),
        ("quads kg: 5 kg", vec![Quads], Kg, 60.0, 65.0, 67.5),
        (
            "no muscle kg, 68.1 kg is over 150 lb: 5 kg",
            vec![],
            Kg,
            68.1,
            72.5,
            75.0,
        ),
    ];
    for (name, muscles, unit, weight, double, over) in cases {
        let dp = run(&loaded(muscles.clone(), *unit, *weight, 12));
        assert_eq!(
            new_weights(&dp),
            vec![*double; 2],
            "{name}: double progression"
        );
        assert!(fired(&dp, DOUBLE_PROGRESSION_RANGE).len() == 4, "{name}");
        let os = run(&loaded(muscles.clone(), *unit, *weight, 16));
        assert_eq!(new_weights(&os), vec![*over; 2], "{name}: overshoot");
        assert!(fired(&os, LARGE_OVERSHOOT).len() == 4, "{name}");
        let mult = os[0]
            .evidence
            .figures
            .iter()
            .find(|f| f.name == "multiplier");
        assert_eq!(mult.map(|f| f.value), Some(1.5), "{name}");
    }
    // Target mode uses the same increment.
    let ctx = Ctx::target(8)
        .with(|c| c.exercise.target_muscles = vec![Quads])
        .sessions(&[&[9, 9], &[9, 9]])
        .build();
    assert_eq!(new_weights(&run(&ctx)), vec![110.0, 110.0]);
}

#[test]
fn rounding_to_owned_plates_and_dumbbells() {
    use WeightUnit::{Kg, Lbs};
    let plates = |p: &[f64], bar: f64| LoadConfig {
        plates: p.to_vec(),
        bar_weight: bar,
        dumbbells: vec![],
    };
    let bells = |d: &[f64]| LoadConfig {
        plates: vec![],
        bar_weight: 0.0,
        dumbbells: d.to_vec(),
    };
    let cases: Vec<LoadCase> = vec![
        (
            "plates down to 2.5 lb",
            Equipment::Barbell,
            plates(&[45.0, 25.0, 10.0, 5.0, 2.5], 45.0),
            Lbs,
            135.0,
            vec![140.0; 2],
            vec![145.0; 2],
        ),
        (
            "smallest plate 5 lb: 10 lb steps",
            Equipment::Barbell,
            plates(&[45.0, 10.0, 5.0], 45.0),
            Lbs,
            135.0,
            vec![145.0; 2],
            vec![145.0; 2],
        ),
        (
            "only 45s: no achievable increase",
            Equipment::Barbell,
            plates(&[45.0], 45.0),
            Lbs,
            135.0,
            vec![],
            vec![],
        ),
        (
            "kg plates, default 20 kg bar",
            Equipment::Barbell,
            plates(&[20.0, 10.0, 1.25], 0.0),
            Kg,
            60.0,
            vec![62.5; 2],
            vec![65.0; 2],
        ),
        (
            "dumbbells: tie goes heavier",
            Equipment::Dumbbell,
            bells(&[30.0, 35.0, 40.0, 50.0]),
            Lbs,
            40.0,
            vec![50.0; 2],
            vec![50.0; 2],
        ),
        (
            "dumbbells: exact",
            Equipment::Dumbbell,
            bells(&[30.0, 35.0, 40.0, 50.0]),
            Lbs,
            35.0,
            vec![40.0; 2],
            vec![40.0; 2],
        ),
        (
            "dumbbells: at the heaviest",
            Equipment::Dumbbell,
            bells(&[30.0, 35.0, 40.0]),
            Lbs,
            40.0,
            vec![],
            vec![],
        ),
    ];
    for (name, equipment, load, unit, weight, double, over) in cases {
        let with_load = |reps: u32| {
            let mut ctx = loaded(vec![Muscle::Chest], unit, weight, reps);
            ctx.exercise.equipment = equipment;
            ctx.plan.load = load.clone();
            ctx
        };
        let dp = run(&with_load(12));
        assert_eq!(new_weights(&dp), double, "{name}: double progression");
        if double.is_empty() {
            assert!(
                dp.is_empty(),
                "{name}: no reps reset without a weight increase"
            );
        }
        assert_eq!(new_weights(&run(&with_load(16))), over, "{name}: overshoot");
    }
}

#[test]
fn reps_reset_to_the_lower_bound() {
    let cases: &[ResetCase] = &[
        ("above lower: decrease", 10, Some((DecreaseReps, 8.0))),
        ("at lower: nothing", 8, None),
        ("below lower: raised to it", 6, Some((IncreaseReps, 8.0))),
        ("no per-set target: nothing", 0, None),
    ];
    for (name, target_reps, want) in cases {
        for reps in [12, 16] {
            let ctx = Ctx::range(8, 12)
                .rx(|rx| {
                    rx.sets
                        .iter_mut()
                        .for_each(|s| s.target_reps = *target_reps)
                })
                .sessions(&[&[reps, reps], &[reps, reps]])
                .build();
            let out = run(&ctx);
            let resets: Vec<_> = out
                .iter()
                .filter(|d| d.property == ChangeProperty::Reps)
                .map(|d| {
                    (
                        d.change_type,
                        d.target_set_index,
                        d.new_value.number(),
                        d.old_value.clone(),
                    )
                })
                .collect();
            let expect: Vec<_> = match want {
                Some((t, v)) => (0..2)
                    .map(|i| {
                        (
                            *t,
                            Some(i),
                            Some(*v),
                            Some(ChangeValue::Number {
                                value: *target_reps as f64,
                            }),
                        )
                    })
                    .collect(),
                None => vec![],
            };
            assert_eq!(resets, expect, "{name} at {reps} reps");
        }
    }
}

#[test]
fn sets_without_prescription_or_weight_are_skipped() {
    // Set 1 has no prescription; set 0 is body weight (0): nothing to increase.
    let ctx = Ctx::range(8, 12)
        .rx(|rx| {
            rx.sets.retain(|s| s.index != 1);
            rx.sets[0].target_weight = 0.0;
        })
        .sessions(&[&[12, 12, 12], &[12, 12, 12]])
        .build();
    // Performed set 0 is at 0 lb and set 1 at the default 100 lb; progression sets 1 and 2.
    let out = run(&ctx);
    assert_eq!(
        fired(&out, DOUBLE_PROGRESSION_RANGE),
        vec![
            (IncreaseWeight, Some(2), Some(105.0)),
            (DecreaseReps, Some(2), Some(8.0))
        ]
    );
}

/// Two sessions of sets 0 and 1 at the given (reps, weight), current first.
fn steady(sessions: [[(u32, f64); 2]; 2]) -> Ctx {
    let perf = |s: [(u32, f64); 2]| -> Vec<PerformedSet> {
        s.iter()
            .enumerate()
            .map(|(i, (r, w))| done(i as u32, SetType::Regular, *w, *r))
            .collect()
    };
    Ctx::range(8, 12).performed(sessions.into_iter().map(perf).collect())
}

#[test]
fn steady_reps_increase_thresholds() {
    let both = |to: f64| {
        vec![
            (IncreaseReps, Some(0), Some(to)),
            (IncreaseReps, Some(1), Some(to)),
        ]
    };
    let set0 = |to: f64| vec![(IncreaseReps, Some(0), Some(to))];
    let none: Fired = vec![];
    // Target reps 10 unless changed; 8-12 range; weights 100 lb.
    let cases: Vec<(&str, Ctx, Fired)> = vec![
        (
            "same reps, same weight",
            Ctx::range(8, 12).sessions(&[&[10, 10, 10], &[10, 10, 10]]),
            both(11.0),
        ),
        (
            "upper-1: capped at upper",
            Ctx::range(8, 12).sessions(&[&[11, 11], &[11, 11]]),
            both(12.0),
        ),
        (
            "reps changed",
            Ctx::range(8, 12).sessions(&[&[10, 10], &[9, 9]]),
            none.clone(),
        ),
        (
            "below the set's target reps",
            Ctx::range(8, 12).sessions(&[&[9, 9], &[9, 9]]),
            none.clone(),
        ),
        (
            "below lower",
            Ctx::range(8, 12)
                .rx(|rx| rx.sets.iter_mut().for_each(|s| s.target_reps = 6))
                .sessions(&[&[7, 7], &[7, 7]]),
            none.clone(),
        ),
        (
            "at lower",
            Ctx::range(8, 12)
                .rx(|rx| rx.sets.iter_mut().for_each(|s| s.target_reps = 6))
                .sessions(&[&[8, 8], &[8, 8]]),
            both(9.0),
        ),
        (
            "new reps not above target reps",
            Ctx::range(8, 12)
                .rx(|rx| rx.sets.iter_mut().for_each(|s| s.target_reps = 12))
                .sessions(&[&[11, 11], &[11, 11]]),
            none.clone(),
        ),
        (
            "no per-set target reps",
            Ctx::range(8, 12)
                .rx(|rx| rx.sets.iter_mut().for_each(|s| s.target_reps = 0))
                .sessions(&[&[10, 10], &[10, 10]]),
            none.clone(),
        ),
        (
            "one session only",
            Ctx::range(8, 12).sessions(&[&[10, 10]]),
            none.clone(),
        ),
        (
            "2.4 lb apart",
            steady([[(10, 100.0), (10, 100.0)], [(10, 102.4), (10, 97.6)]]),
            both(11.0),
        ),
        (
            "2.5 lb apart",
            steady([[(10, 100.0), (10, 100.0)], [(10, 102.5), (10, 97.5)]]),
            both(11.0),
        ),
        (
            "2.6 lb apart on set 1",
            steady([[(10, 100.0), (10, 100.0)], [(10, 102.4), (10, 102.6)]]),
            set0(11.0),
        ),
        (
            "kg: 1.2 kg apart",
            steady([[(10, 60.0), (10, 60.0)], [(10, 61.2), (10, 58.8)]])
                .with(|c| c.plan.unit = WeightUnit::Kg),
            both(11.0),
        ),
        (
            "kg: 1.3 kg apart on set 1",
            steady([[(10, 60.0), (10, 60.0)], [(10, 61.2), (10, 61.3)]])
                .with(|c| c.plan.unit = WeightUnit::Kg),
            set0(11.0),
        ),
        (
            "at upper, body weight: nothing at all",
            Ctx::range(8, 12)
                .rx(|rx| rx.sets.iter_mut().for_each(|s| s.target_weight = 0.0))
                .sessions(&[&[12, 12], &[12, 12]]),
            none.clone(),
        ),
        (
            "upper-1, body weight",
            Ctx::range(8, 12)
                .rx(|rx| rx.sets.iter_mut().for_each(|s| s.target_weight = 0.0))
                .sessions(&[&[11, 11], &[11, 11]]),
            both(12.0),
        ),
    ];
    for (name, ctx, want) in cases {
        let out = run(&ctx.build());
        assert_eq!(fired(&out, STEADY_REPS_INCREASE), want, "{name}");
        if name.starts_with("at upper, body weight") {
            assert!(out.is_empty(), "{name}: {out:?}");
        }
    }
}

#[test]
fn steady_reps_skipped_when_weight_progression_qualifies() {
    // At the top of the range in both sessions: double progression, not a rep increase.
    let ctx = Ctx::range(8, 12)
        .sessions(&[&[12, 12, 11], &[12, 12, 11]])
        .build();
    assert_eq!(weight_progression_indexes(&ctx), vec![0, 1]);
    let out = run(&ctx);
    assert_eq!(fired(&out, STEADY_REPS_INCREASE), vec![]);
    assert_eq!(
        fired(&out, DOUBLE_PROGRESSION_RANGE),
        on_first_two(105.0, Some(8))
    );
    // Likewise under a large overshoot.
    let ctx = Ctx::range(8, 12).sessions(&[&[16, 16], &[16, 16]]).build();
    assert_eq!(fired(&run(&ctx), STEADY_REPS_INCREASE), vec![]);
}

#[test]
fn steady_reps_needs_the_same_completed_working_set() {
    use SetType::*;
    let base = Ctx::range(8, 12).sessions(&[&[10, 10], &[10, 10]]).build();
    let mut undone = base.clone();
    undone.previous[0].sets[0].completed = false;
    let mut warmup = base.clone();
    warmup.previous[0].sets[1].set_type = Warmup;
    let mut rx_warmup = base.clone();
    rx_warmup.prescription.sets[0].set_type = Warmup;
    let cases: &[(&str, &ExerciseContext, Fired)] = &[
        (
            "both",
            &base,
            vec![
                (IncreaseReps, Some(0), Some(11.0)),
                (IncreaseReps, Some(1), Some(11.0)),
            ],
        ),
        (
            "previous set 0 not completed",
            &undone,
            vec![(IncreaseReps, Some(1), Some(11.0))],
        ),
        (
            "previous set 1 logged as warmup",
            &warmup,
            vec![(IncreaseReps, Some(0), Some(11.0))],
        ),
        (
            "set 0 prescribed as warmup",
            &rx_warmup,
            vec![(IncreaseReps, Some(1), Some(11.0))],
        ),
    ];
    for (name, ctx, want) in cases {
        assert_eq!(fired(&run(ctx), STEADY_REPS_INCREASE), *want, "{name}");
    }
}

#[test]
fn every_draft_explains_itself() {
    let scenarios = [
        Ctx::range(8, 12).sessions(&[&[16, 16], &[16, 16]]).build(),
        Ctx::target(8).sessions(&[&[13, 13], &[13, 13]]).build(),
        Ctx::range(8, 12).sessions(&[&[12, 12], &[12, 12]]).build(),
        Ctx::target(8).sessions(&[&[9, 9], &[9, 9]]).build(),
        Ctx::range(8, 12)
            .sessions(&[&[10, 10], &[10, 10], &[8, 8]])
            .build(),
    ];
    let mut seen = Vec::new();
    for ctx in &scenarios {
        let out = run(ctx);
        assert!(!out.is_empty());
        for d in &out {
            let rule = d.rule_id.as_deref().expect("rule id");
            assert!([
                LARGE_OVERSHOOT,
                DOUBLE_PROGRESSION_RANGE,
                DOUBLE_PROGRESSION_TARGET,
                STEADY_REPS_INCREASE
            ]
            .contains(&rule));
            seen.push(rule.to_string());
            assert_eq!(d.evidence.performance_ids, ["perf-0", "perf-1"], "{rule}");
            assert!(!d.evidence.figures.is_empty(), "{rule}");
            assert!(!d.evidence.set_indexes.is_empty(), "{rule}");
            assert!(!d.reasoning.is_empty(), "{rule}");
            assert!(d.target_set_index.is_some(), "{rule}");
            assert_ne!(
                d.old_value.as_ref().and_then(ChangeValue::number),
                d.new_value.number()
            );
        }
    }
    for rule in [
        LARGE_OVERSHOOT,
        DOUBLE_PROGRESSION_RANGE,
        DOUBLE_PROGRESSION_TARGET,
        STEADY_REPS_INCREASE,
    ] {
        assert!(
            seen.iter().any(|r| r == rule),
            "{rule} fired in some scenario"
        );
    }
    // The deciding numbers, for a double progression.
    let out = run(&scenarios[2]);
    let figs: Vec<(&str, f64)> = out[0]
        .evidence
        .figures
        .iter()
        .map(|f| (f.name.as_str(), f.value))
        .collect();
    assert_eq!(
        figs,
        [
            ("lower", 8.0),
            ("upper", 12.0),
            ("minReps", 12.0),
            ("increment", 5.0),
            ("multiplier", 1.0)
        ]
    );
    assert_eq!(out[0].evidence.set_indexes, [0, 1]);
    assert!(
        out[0].reasoning.contains("100 to 105"),
        "{}",
        out[0].reasoning
    );
}

#[test]
fn no_increase_beyond_the_weight_accept_allows() {
    // At 5000 lb a large overshoot would suggest 5015, which accept refuses (5000 at most):
    // the engine does not suggest it.
    let ctx = Ctx::range(8, 12)
        .rx(|rx| rx.sets.iter_mut().for_each(|s| s.target_weight = 5000.0))
        .sessions(&[&[16, 16, 16], &[16, 16, 16]])
        .build();
    let raw = run(&ctx);
    assert!(
        raw.iter()
            .any(|d| d.new_value.number().is_some_and(|w| w > 5000.0)),
        "the rule alone goes past the limit: {raw:?}"
    );
    let drafts = super::super::evaluate(&ctx);
    assert!(
        drafts.iter().all(|d| d.change_type != IncreaseWeight),
        "{drafts:?}"
    );
    for d in &drafts {
        assert!(
            crate::suggest::apply::applied(&ctx.prescription, d).is_ok(),
            "{d:?}"
        );
    }
}
