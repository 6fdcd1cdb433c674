//! Tests of `progress.rs`: the shared conditions, the state and the next prescription, in kg and
//! in lbs, and the rules and the planner agreeing on one history.

use super::*;
use crate::suggest::model::{Muscle, SetType::*};
use crate::suggest::rules::testkit::{done, perf, Ctx};

fn barbell(muscle: Muscle) -> CatalogExercise {
    CatalogExercise {
        catalog_id: "bb-bench-press".into(),
        name: "Bench press".into(),
        equipment: Equipment::Barbell,
        target_muscles: vec![muscle],
    }
}

fn plates(unit: WeightUnit) -> LoadConfig {
    LoadConfig {
        plates: match unit {
            WeightUnit::Kg => vec![25.0, 20.0, 15.0, 10.0, 5.0, 2.5, 1.25],
            WeightUnit::Lbs => vec![45.0, 35.0, 25.0, 10.0, 5.0, 2.5],
        },
        bar_weight: 0.0,
        dumbbells: vec![],
    }
}

const GOAL: RepGoal = RepGoal {
    lower: 6,
    upper: 10,
    rir: 2,
    sets: 3,
};

/// A session `ago` days ago: a warm-up, then working sets at `weight` with these reps.
fn session(n: usize, weight: f64, reps: &[u32]) -> ExercisePerformance {
    let mut sets = vec![done(0, Warmup, weight / 2.0, 8)];
    sets.extend(
        reps.iter()
            .enumerate()
            .map(|(i, r)| done(i as u32 + 1, Regular, weight, *r)),
    );
    perf(n, sets)
}

/// The state of sessions given oldest first, one every 2 days, the newest `newest_ago` days ago.
fn state_of(unit: WeightUnit, newest_ago: i64, sessions: &[(f64, &[u32])]) -> ProgressionState {
    let n = sessions.len();
    let perfs: Vec<ExercisePerformance> = sessions
        .iter()
        .enumerate()
        .map(|(i, (w, r))| session(n - 1 - i, *w, r))
        .collect();
    let dated: Vec<(i64, &ExercisePerformance)> = perfs
        .iter()
        .enumerate()
        .map(|(i, p)| (newest_ago + 2 * (n - 1 - i) as i64, p))
        .collect();
    ProgressionState::read(&dated, unit).expect("sessions with working sets")
}

/// An 8-12 goal (Tier B).
const GOAL_8_12: RepGoal = RepGoal {
    lower: 8,
    upper: 12,
    rir: 2,
    sets: 3,
};

/// The next bench press (a barbell, kg plates) for `goal`.
fn next_kg(state: &ProgressionState, goal: RepGoal) -> NextPrescription {
    next_prescription(
        Some(state),
        goal,
        &barbell(Muscle::Chest),
        &plates(WeightUnit::Kg),
    )
}

/// The walk with [`GOAL`]'s range: (load, sessions at it, lighter days).
fn walked(state: &ProgressionState) -> (f64, usize, usize) {
    let range = RepRange {
        mode: RepRangeMode::Range,
        lower: GOAL.lower,
        upper: GOAL.upper,
        target: 0,
    };
    let w = state.walk(Some(&range));
    (w.load, w.at_load.len(), w.lighter.len())
}

fn next(state: &ProgressionState, muscle: Muscle) -> NextPrescription {
    next_prescription(Some(state), GOAL, &barbell(muscle), &plates(state.unit))
}

#[test]
fn load_steps_follow_the_rules_thresholds() {
    let range = RepRange {
        mode: RepRangeMode::Range,
        lower: 6,
        upper: 10,
        target: 0,
    };
    assert_eq!(load_step(&range, 9), None);
    assert_eq!(load_step(&range, 10), Some(LoadStep::Double));
    assert_eq!(load_step(&range, 13), Some(LoadStep::Double));
    assert_eq!(load_step(&range, 14), Some(LoadStep::Overshoot));
    let target = RepRange {
        mode: RepRangeMode::Target,
        lower: 0,
        upper: 0,
        target: 8,
    };
    assert_eq!(load_step(&target, 8), None);
    assert_eq!(load_step(&target, 9), Some(LoadStep::Double));
    assert_eq!(load_step(&target, 13), Some(LoadStep::Overshoot));
    let not_set = RepRange {
        mode: RepRangeMode::NotSet,
        ..range
    };
    assert_eq!(load_step(&not_set, 99), None);
    assert_eq!(next_reps(9, 10), 10);
    assert_eq!(next_reps(10, 10), 10);
    assert_eq!(next_reps(u32::MAX, 10), 10);
    assert!(is_hard_set(3) && !is_hard_set(4));
}

#[test]
fn raised_loads_in_kg_and_lbs() {
    let kg = WeightUnit::Kg;
    let lbs = WeightUnit::Lbs;
    let chest = barbell(Muscle::Chest);
    let legs = barbell(Muscle::Quads);
    assert_eq!(raised_load(60.0, 1.0, &chest, &plates(kg), kg), (62.5, 2.5));
    assert_eq!(
        raised_load(100.0, 1.0, &legs, &plates(kg), kg),
        (105.0, 5.0)
    );
    assert_eq!(
        raised_load(100.0, 1.5, &legs, &plates(kg), kg),
        (107.5, 5.0)
    );
    assert_eq!(
        raised_load(135.0, 1.0, &chest, &plates(lbs), lbs),
        (140.0, 5.0)
    );
    assert_eq!(
        raised_load(225.0, 1.5, &legs, &plates(lbs), lbs),
        (240.0, 10.0)
    );
}

#[test]
fn no_history_is_chosen_by_feel() {
    let p = next_prescription(None, GOAL, &barbell(Muscle::Chest), &LoadConfig::default());
    assert_eq!((p.load, p.reps, p.basis), (None, 6, Basis::New));
    assert_eq!(p.reason, "new exercise: pick a load for 6-10 reps at RIR 2");
}

#[test]
fn reps_rise_within_the_range_at_a_load() {
    let st = state_of(
        WeightUnit::Kg,
        2,
        &[(60.0, &[9, 9, 8]), (60.0, &[10, 10, 9])],
    );
    let p = next(&st, Muscle::Chest);
    assert_eq!((p.load, p.reps, p.basis), (Some(60.0), 10, Basis::Reps));
    assert_eq!(
        p.reason,
        "reps 10/10/9 at 60 kg last time: same load, aim for 10/10/10"
    );
    // The fewest reps set the aim: 8/7/7 gives 8/8/8; below the range, its bottom.
    let st = state_of(WeightUnit::Lbs, 2, &[(135.0, &[8, 7, 7])]);
    assert_eq!(next(&st, Muscle::Chest).reps, 8);
    let st = state_of(WeightUnit::Lbs, 2, &[(135.0, &[4, 3, 3])]);
    assert_eq!(next(&st, Muscle::Chest).reps, 6);
    // At the top once: again at the top.
    let st = state_of(WeightUnit::Lbs, 2, &[(130.0, &[10; 3]), (135.0, &[10; 3])]);
    let p = next(&st, Muscle::Chest);
    assert_eq!((p.load, p.reps, p.basis), (Some(135.0), 10, Basis::Reps));
}

#[test]
fn the_top_of_the_range_twice_adds_one_increment_and_resets_reps() {
    let cases: [(WeightUnit, f64, Muscle, f64, &str); 4] = [
        (
            WeightUnit::Kg,
            60.0,
            Muscle::Chest,
            62.5,
            "top of the range twice: 62.5 kg, reps back to 6",
        ),
        (
            WeightUnit::Kg,
            100.0,
            Muscle::Quads,
            105.0,
            "top of the range twice: 105 kg, reps back to 6",
        ),
        (
            WeightUnit::Lbs,
            135.0,
            Muscle::Chest,
            140.0,
            "top of the range twice: 140 lb, reps back to 6",
        ),
        (
            WeightUnit::Lbs,
            225.0,
            Muscle::Quads,
            235.0,
            "top of the range twice: 235 lb, reps back to 6",
        ),
    ];
    for (unit, load, muscle, want, reason) in cases {
        // 10/10/9 counts: the progression sets are the two heaviest (spec 004).
        let st = state_of(unit, 2, &[(load, &[10, 10, 9]), (load, &[10, 10, 10])]);
        let p = next(&st, muscle);
        assert_eq!(
            (p.load, p.reps, p.basis),
            (Some(want), 6, Basis::LoadStep(LoadStep::Double)),
            "{unit:?} {load}"
        );
        assert_eq!(p.reason, reason);
    }
}

#[test]
fn a_large_overshoot_adds_one_and_a_half_increments() {
    let machine = CatalogExercise {
        equipment: Equipment::Machine,
        ..barbell(Muscle::Chest)
    };
    for (unit, load, want) in [
        (WeightUnit::Kg, 60.0, 63.75),
        (WeightUnit::Lbs, 100.0, 107.5),
    ] {
        let st = state_of(unit, 2, &[(load, &[14, 15, 14]), (load, &[15, 14, 16])]);
        let p = next_prescription(Some(&st), GOAL, &machine, &LoadConfig::default());
        assert_eq!(
            (p.load, p.reps, p.basis),
            (Some(want), 6, Basis::LoadStep(LoadStep::Overshoot))
        );
        assert!(
            p.reason.starts_with("4 or more reps past the top twice"),
            "{}",
            p.reason
        );
    }
}

#[test]
fn three_sessions_without_progress_deload_ten_percent() {
    // 7/7/7, then 8/8/7 (progress), 8/8/7, 8/8/6, 8/8/6: three in a row without a gained rep.
    let stalled: [(f64, &[u32]); 5] = [
        (60.0, &[7, 7, 7]),
        (60.0, &[8, 8, 7]),
        (60.0, &[8, 8, 7]),
        (60.0, &[8, 8, 6]),
        (60.0, &[8, 8, 6]),
    ];
    let st = state_of(WeightUnit::Kg, 2, &stalled);
    let p = next(&st, Muscle::Chest);
    // 54 kg rounds to 55 with 1.25 kg plates a side (2.5 kg steps).
    assert_eq!((p.load, p.reps, p.basis), (Some(55.0), 6, Basis::Deload));
    assert_eq!(
        p.reason,
        "3 sessions without progress: deload to 55 kg, reps back to 6"
    );
    let machine = CatalogExercise {
        equipment: Equipment::Machine,
        ..barbell(Muscle::Chest)
    };
    let p = next_prescription(Some(&st), GOAL, &machine, &LoadConfig::default());
    assert_eq!(p.load, Some(53.75));
    // In lbs: 200 -> 180.
    let lbs: Vec<(f64, &[u32])> = stalled.iter().map(|(_, r)| (200.0, *r)).collect();
    let st = state_of(WeightUnit::Lbs, 2, &lbs);
    assert_eq!(next(&st, Muscle::Chest).load, Some(180.0));
    // Two sessions without progress are not yet three.
    let st = state_of(WeightUnit::Kg, 2, &stalled[..4]);
    assert_eq!(next(&st, Muscle::Chest).basis, Basis::Reps);
    // A rep that moves from one set to another is no progress: 8/8/6, 8/6/8, 6/8/8.
    let moved: [(f64, &[u32]); 4] = [
        (60.0, &[8, 8, 7]),
        (60.0, &[8, 8, 6]),
        (60.0, &[8, 6, 8]),
        (60.0, &[6, 8, 8]),
    ];
    assert_eq!(
        next(&state_of(WeightUnit::Kg, 2, &moved), Muscle::Chest).basis,
        Basis::Deload
    );
    // A rep back after a bad day is no progress either: 8/8/7, 8/7/7, 8/8/7, 8/7/7.
    let back: [(f64, &[u32]); 4] = [
        (60.0, &[8, 8, 7]),
        (60.0, &[8, 7, 7]),
        (60.0, &[8, 8, 7]),
        (60.0, &[8, 7, 7]),
    ];
    assert_eq!(
        next(&state_of(WeightUnit::Kg, 2, &back), Muscle::Chest).basis,
        Basis::Deload
    );
    // Three at the load with no earlier one to compare with the first: not yet either.
    let st = state_of(WeightUnit::Kg, 2, &stalled[2..]);
    assert_eq!(next(&st, Muscle::Chest).basis, Basis::Reps);
    // The deloaded sessions start a new load, and the climb starts again from it.
    let mut after: Vec<(f64, &[u32])> = stalled.to_vec();
    after.push((55.0, &[9, 9, 9]));
    let st = state_of(WeightUnit::Kg, 2, &after);
    assert_eq!((walked(&st).0, walked(&st).1), (55.0, 1));
    let p = next(&st, Muscle::Chest);
    assert_eq!((p.load, p.reps, p.basis), (Some(55.0), 10, Basis::Reps));
}

#[test]
fn unpractised_for_30_days_starts_from_the_e1rm() {
    // Best: 80 kg x 5 (e1RM 93.3); 10 reps at most at 70 kg; 10 - RIR 2 = 8 reps.
    let st = state_of(
        WeightUnit::Kg,
        45,
        &[(80.0, &[5, 5, 4]), (75.0, &[6, 6, 6])],
    );
    let p = next(&st, Muscle::Chest);
    assert_eq!(
        (p.load, p.reps, p.basis),
        (Some(70.0), 8, Basis::Unpractised)
    );
    assert_eq!(
        p.reason,
        "not done for 45 days: from your 90-day best, 70 kg, aim for 8/8/8"
    );
    // Never above the estimate: 225 lb x 5 (262.5): 196.9 -> 195 lb.
    let st = state_of(WeightUnit::Lbs, 30, &[(225.0, &[5, 5, 5])]);
    assert_eq!(next(&st, Muscle::Chest).load, Some(195.0));
    // 29 days: still practised.
    let st = state_of(WeightUnit::Lbs, 29, &[(225.0, &[5, 5, 5])]);
    assert_eq!(next(&st, Muscle::Chest).basis, Basis::Reps);
}

#[test]
fn lighter_days_keep_the_load_unless_a_deload_was_due_or_they_settle() {
    let kg = WeightUnit::Kg;
    // A capped day at 55 with the reps asked for: the load stays 60.
    let st = state_of(
        kg,
        2,
        &[(60.0, &[8, 8, 8]), (60.0, &[9, 9, 8]), (55.0, &[9, 9, 9])],
    );
    assert_eq!(walked(&st), (60.0, 2, 1));
    let p = next(&st, Muscle::Chest);
    assert_eq!((p.load, p.reps), (Some(60.0), 9));
    assert_eq!(
        p.reason,
        "reps 9/9/8 at 60 kg before a lighter day: same load, aim for 9/9/9"
    );
    // Back at 60: the lighter day is gone from the state, the sessions at 60 go on.
    let st = state_of(
        kg,
        2,
        &[
            (60.0, &[8, 8, 8]),
            (60.0, &[9, 9, 8]),
            (55.0, &[9, 9, 9]),
            (60.0, &[9, 9, 9]),
        ],
    );
    assert_eq!(walked(&st), (60.0, 3, 0));
    // Lighter with fewer reps (the bottom of the range after a capped load step): a lighter day.
    let st = state_of(kg, 2, &[(60.0, &[10, 10, 10]), (55.0, &[6, 6, 6])]);
    assert_eq!(walked(&st), (60.0, 1, 1));
    // Five lighter days in a row (tired, each capped lower): the load stands.
    let mut lighter: Vec<(f64, &[u32])> = vec![(60.0, &[8, 8, 8])];
    lighter.extend([55.0, 52.5, 50.0, 55.0, 55.0].map(|w| (w, &[9u32, 9, 9][..])));
    let st = state_of(kg, 2, &lighter);
    assert_eq!(walked(&st), (60.0, 1, 5));
    // The sixth: settled at the heaviest of them, with the sessions at it.
    lighter.push((50.0, &[10, 10, 9]));
    let st = state_of(kg, 2, &lighter);
    assert_eq!(walked(&st), (55.0, 3, 0));
    // A heavier session is followed at once; so is any session after a 30-day gap.
    let st = state_of(kg, 2, &[(60.0, &[8, 8, 8]), (62.5, &[6, 6, 6])]);
    assert_eq!((walked(&st).0, walked(&st).1), (62.5, 1));
    let early = session(1, 60.0, &[9, 9, 9]);
    let late = session(0, 60.0, &[7, 7, 7]);
    let st = ProgressionState::read(&[(40, &early), (5, &late)], kg).unwrap();
    assert_eq!((walked(&st).0, walked(&st).1, st.days_since), (60.0, 1, 5));
}

#[test]
fn no_heavier_load_and_body_weight() {
    // Dumbbells up to 40 lb: at the top twice with the heaviest, stay and aim at the top.
    let db = CatalogExercise {
        equipment: Equipment::Dumbbell,
        ..barbell(Muscle::Chest)
    };
    let bells = LoadConfig {
        dumbbells: vec![30.0, 35.0, 40.0],
        ..LoadConfig::default()
    };
    let st = state_of(WeightUnit::Lbs, 2, &[(40.0, &[10; 3]), (40.0, &[10; 3])]);
    let p = next_prescription(Some(&st), GOAL, &db, &bells);
    assert_eq!(
        (p.load, p.reps, p.basis),
        (Some(40.0), 10, Basis::NoHeavierLoad)
    );
    // Body weight: reps only.
    let bw = CatalogExercise {
        equipment: Equipment::Bodyweight,
        ..barbell(Muscle::Chest)
    };
    let st = state_of(WeightUnit::Kg, 2, &[(0.0, &[9, 8, 8])]);
    let p = next_prescription(Some(&st), GOAL, &bw, &LoadConfig::default());
    assert_eq!((p.load, p.reps), (None, 9));
    assert_eq!(p.reason, "reps 9/8/8 last time: aim for 9/9/9");
    let st = state_of(WeightUnit::Kg, 2, &[(0.0, &[10; 3]), (0.0, &[10; 3])]);
    let p = next_prescription(Some(&st), GOAL, &bw, &LoadConfig::default());
    assert_eq!((p.load, p.reps, p.basis), (None, 10, Basis::NoHeavierLoad));
}

#[test]
fn the_rules_and_the_planner_agree_on_one_history() {
    // The rules' double progression and the planner's next load, on the same two sessions.
    for (reps, want) in [(12, Some(105.0)), (16, Some(107.5)), (11, None)] {
        let ctx = Ctx::range(8, 12)
            .sessions(&[&[reps; 3], &[reps; 3]])
            .build();
        let rule = crate::suggest::rules::evaluate(&ctx)
            .into_iter()
            .find(|d| d.change_type == crate::suggest::model::ChangeType::IncreaseWeight)
            .and_then(|d| d.new_value.number());
        let dated: Vec<(i64, &ExercisePerformance)> = ctx
            .recent()
            .enumerate()
            .map(|(i, p)| (i as i64, p))
            .collect();
        let st = ProgressionState::read(&dated, WeightUnit::Lbs).unwrap();
        let goal = RepGoal {
            lower: 8,
            upper: 12,
            rir: 2,
            sets: 3,
        };
        let planned = next_prescription(Some(&st), goal, &ctx.exercise, &ctx.plan.load);
        assert_eq!(rule, want, "{reps} reps: the rule");
        let stepped = matches!(planned.basis, Basis::LoadStep(_));
        assert_eq!(
            stepped.then_some(planned.load).flatten(),
            want,
            "{reps} reps: the planner"
        );
    }
}

#[test]
fn a_lighter_day_after_the_top_twice_is_no_deload() {
    // 12/12/12 at 47.5 kg (8-12) after 11/12/12: no progress in the last 3, but the top of the
    // range twice came first. A tired day at 40 after it is a lighter day: the load step comes.
    let st = state_of(
        WeightUnit::Kg,
        2,
        &[
            (47.5, &[12, 12, 11]),
            (47.5, &[12, 12, 12]),
            (47.5, &[12, 12, 12]),
            (47.5, &[12, 12, 12]),
            (40.0, &[8, 8, 8]),
        ],
    );
    let p = next_kg(&st, GOAL_8_12);
    assert_eq!(
        (p.load, p.reference, p.basis),
        (Some(50.0), 47.5, Basis::LoadStep(LoadStep::Double))
    );
}

#[test]
fn near_the_top_of_the_range_is_no_stall() {
    // 12/12/12, 11/12/12, 11/12/12, 12/12/12 at 47.5 kg (8-12): no new best since the first, but
    // the last is at the top: no deload; the top once, so again the top.
    let st = state_of(
        WeightUnit::Kg,
        2,
        &[
            (47.5, &[11, 11, 11]),
            (47.5, &[12, 12, 12]),
            (47.5, &[11, 12, 12]),
            (47.5, &[11, 12, 12]),
            (47.5, &[12, 12, 12]),
        ],
    );
    let p = next_kg(&st, GOAL_8_12);
    assert_eq!((p.load, p.reps, p.basis), (Some(47.5), 12, Basis::Reps));
}

#[test]
fn only_the_range_tells_a_deload_from_a_lighter_day() {
    // Stalled at 60, then a session at 55: with the range it is the deload the engine asked
    // for; without one (today's cap before the range is known) the load stays 60, the higher.
    let st = state_of(
        WeightUnit::Kg,
        2,
        &[
            (60.0, &[7, 7, 7]),
            (60.0, &[8, 8, 7]),
            (60.0, &[8, 8, 7]),
            (60.0, &[8, 8, 6]),
            (60.0, &[8, 8, 6]),
            (55.0, &[6, 6, 6]),
        ],
    );
    assert_eq!(walked(&st), (55.0, 1, 0));
    let free = st.walk(None);
    assert_eq!(
        (free.load, free.at_load.len(), free.lighter.len()),
        (60.0, 5, 1)
    );
    assert_eq!(next(&st, Muscle::Chest).reference, 55.0);
}
