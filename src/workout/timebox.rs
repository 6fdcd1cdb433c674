//! The time budget (pure): how long a set takes, how many working sets fit the session, and
//! supersets when the budget is short.
//!
//! A set takes its work time (40 s, 70 s for per-side reps) plus its rest; each exercise adds 60 s
//! of set-up; the session keeps 5 minutes for a general warm-up and transitions. The budget's
//! working sets assume the goal's default rest (strength 150 s, hypertrophy 90 s, endurance 45 s,
//! general 75 s) and room for a 3-set warm-up ramp.
//!
//! Supersets ([`superset_when_short`]): when the budget cut sets of the goal's prescription,
//! antagonist exercises are paired, in this order: a horizontal push with a horizontal pull, a
//! vertical push with a vertical pull, a triceps with a biceps arm exercise, then any push with
//! any pull left; each exercise once, the first free partner in plan order. The two alternate
//! set by set with no rest between them and share one rest (the longer of the two) after each
//! round, so a round takes both sets' work and one rest. Then the cut sets come back as far as
//! the session's time allows: from the goal's prescription, sets are cut again from C, then B,
//! then A (the exercise with the most sets first, the later one on a tie) until the session fits
//! its minutes (the warm-up ramp, set-ups, work and rests as the renderer counts them) and at
//! most twice the budget's working sets, never below what the budget kept without supersets.
use super::catalog::WorkoutExercise;
use super::model::{Goal, PlanTier, PlannedExercise, TimeBudget};

/// Seconds of work in one set.
pub const WORK_S: u32 = 40;
/// Seconds of work in one set with per-side reps.
pub const WORK_PER_SIDE_S: u32 = 70;
/// Set-up seconds per exercise.
pub const EXERCISE_SETUP_S: u32 = 60;
/// Seconds kept for a general warm-up and transitions.
pub const SESSION_OVERHEAD_S: u32 = 300;
/// Rest after a warm-up set.
pub const WARMUP_REST_S: u32 = 60;

/// The goal's default rest between working sets (Tier A; B and C use [`accessory_rest`]).
pub fn default_rest(goal: Goal) -> u32 {
    match goal {
        Goal::Strength => 150,
        Goal::Hypertrophy => 90,
        Goal::Endurance => 45,
        Goal::General => 75,
    }
}

/// Rest for Tier B and C sets.
pub fn accessory_rest(goal: Goal) -> u32 {
    match goal {
        Goal::Strength => 120,
        Goal::Hypertrophy => 75,
        Goal::Endurance => 45,
        Goal::General => 60,
    }
}

/// Seconds one set takes, rest included.
pub fn set_seconds(rest_s: u32, per_side: bool) -> u32 {
    (if per_side { WORK_PER_SIDE_S } else { WORK_S }) + rest_s
}

/// Seconds available for sets and exercise set-up.
pub fn available_seconds(duration_minutes: u32) -> u32 {
    (duration_minutes * 60).saturating_sub(SESSION_OVERHEAD_S)
}

/// The budget of a session: working sets that fit after a 3-set ramp, with the goal's rest and
/// one exercise set-up per 3 sets; 1 to 60.
pub fn budget(duration_minutes: u32, goal: Goal) -> TimeBudget {
    let ramp = 3 * set_seconds(WARMUP_REST_S, false);
    let per_set = set_seconds(default_rest(goal), false) + EXERCISE_SETUP_S / 3;
    let sets = available_seconds(duration_minutes).saturating_sub(ramp) / per_set;
    TimeBudget {
        duration_minutes,
        max_working_sets: sets.clamp(1, 60),
    }
}

/// The pairs of antagonist movements, the first pairs first: (one side, the other side), each a
/// list of movements ([`movement`]).
pub const ANTAGONISTS: &[(&[&str], &[&str])] = &[
    (&["push_h"], &["pull_h"]),
    (&["push_v"], &["pull_v"]),
    (&["arms:triceps"], &["arms:biceps"]),
    (&["push_h", "push_v"], &["pull_h", "pull_v"]),
];

/// The movement of an exercise for pairing: its pattern, an arm exercise with its first muscle
/// (`arms:biceps`).
pub fn movement(e: &WorkoutExercise) -> String {
    match e.pattern.as_str() {
        "arms" => format!("arms:{}", e.muscles.first().map_or("", |m| m.as_str())),
        p => p.to_string(),
    }
}

/// The antagonist pairs among `exercises` (indexes, the earlier first), by the rule of the module
/// docs, in the order of their first exercise.
pub fn antagonist_pairs(exercises: &[&WorkoutExercise]) -> Vec<(usize, usize)> {
    let moves: Vec<String> = exercises.iter().map(|e| movement(e)).collect();
    let on = |i: usize, side: &[&str]| side.contains(&moves[i].as_str());
    let mut paired = vec![false; exercises.len()];
    let mut pairs = Vec::new();
    for (a, b) in ANTAGONISTS {
        for i in 0..exercises.len() {
            if paired[i] {
                continue;
            }
            let other = if on(i, a) {
                b
            } else if on(i, b) {
                a
            } else {
                continue;
            };
            if let Some(j) = (i + 1..exercises.len()).find(|&j| !paired[j] && on(j, other)) {
                paired[i] = true;
                paired[j] = true;
                pairs.push((i, j));
            }
        }
    }
    pairs.sort_unstable();
    pairs
}

/// Seconds the sets of `plan` (`exercises` its exercises, in order) take as the renderer lays
/// them out: `ramp_sets` warm-up sets, one set-up per exercise, each set's work and rest, a
/// superset's rounds with one rest.
pub fn plan_seconds(
    plan: &[PlannedExercise],
    exercises: &[&WorkoutExercise],
    ramp_sets: u32,
) -> u32 {
    let per_side = |j: usize| plan[j].targets.rep_range.ends_with("/side") || exercises[j].per_side;
    let mut total = ramp_sets * set_seconds(WARMUP_REST_S, false);
    let mut done = vec![false; plan.len()];
    for i in 0..plan.len() {
        if done[i] {
            continue;
        }
        let group: Vec<usize> = match &plan[i].superset {
            Some(label) => (i..plan.len())
                .filter(|&j| plan[j].superset.as_ref() == Some(label))
                .collect(),
            None => vec![i],
        };
        let rounds = group
            .iter()
            .map(|&j| plan[j].working_sets)
            .max()
            .unwrap_or(0);
        for r in 0..rounds {
            let members: Vec<usize> = group
                .iter()
                .copied()
                .filter(|&j| r < plan[j].working_sets)
                .collect();
            for (k, &j) in members.iter().enumerate() {
                let rest = if k + 1 < members.len() {
                    0
                } else {
                    plan[j].rest_s
                };
                total += set_seconds(rest, per_side(j));
            }
        }
        for j in group {
            done[j] = true;
            total += EXERCISE_SETUP_S;
        }
    }
    total
}

/// Supersets for a session the budget cut (see the module docs): `plan` the exercises with the
/// sets the budget kept, `exercises` their catalog entries, `full` each one's sets in the goal's
/// prescription. Labels the antagonist
/// pairs `S1`, `S2`, ... with the longer rest of the two, and gives sets back within the
/// session's `duration_minutes` and at most `max_sets` in all. Nothing changes when the budget
/// cut nothing or no two exercises are antagonists.
pub fn superset_when_short(
    plan: &mut [PlannedExercise],
    exercises: &[&WorkoutExercise],
    full: &[u32],
    ramp_sets: u32,
    duration_minutes: u32,
    max_sets: u32,
) {
    if !plan.iter().zip(full).any(|(p, f)| p.working_sets < *f) {
        return;
    }
    let pairs = antagonist_pairs(exercises);
    for (k, (i, j)) in pairs.iter().enumerate().take(9) {
        let rest = plan[*i].rest_s.max(plan[*j].rest_s);
        for x in [*i, *j] {
            plan[x].superset = Some(format!("S{}", k + 1));
            plan[x].rest_s = rest;
        }
    }
    if pairs.is_empty() {
        return;
    }
    let floor: Vec<u32> = plan.iter().map(|p| p.working_sets).collect();
    for (p, f) in plan.iter_mut().zip(full) {
        p.working_sets = p.working_sets.max(*f);
    }
    let available = available_seconds(duration_minutes);
    let fits = |plan: &[PlannedExercise]| {
        plan_seconds(plan, exercises, ramp_sets) <= available
            && plan.iter().map(|p| p.working_sets).sum::<u32>() <= max_sets
    };
    while !fits(plan) {
        let cut = [PlanTier::C, PlanTier::B, PlanTier::A]
            .into_iter()
            .find_map(|tier| {
                (0..plan.len())
                    .filter(|&i| plan[i].tier == tier && plan[i].working_sets > floor[i])
                    .max_by_key(|&i| (plan[i].working_sets, i))
            });
        let Some(i) = cut else {
            break;
        };
        plan[i].working_sets -= 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_grow_with_minutes_and_shrink_with_rest() {
        assert_eq!(budget(60, Goal::Hypertrophy).max_working_sets, 20);
        assert_eq!(budget(60, Goal::Strength).max_working_sets, 14);
        assert_eq!(budget(10, Goal::Strength).max_working_sets, 1);
        assert!(budget(180, Goal::Endurance).max_working_sets <= 60);
    }

    fn exercises(ids: &[&str]) -> Vec<&'static WorkoutExercise> {
        ids.iter()
            .map(|id| {
                crate::workout::catalog::builtin()
                    .iter()
                    .find(|e| e.id == *id)
                    .unwrap()
            })
            .collect()
    }

    #[test]
    fn antagonists_pair_in_the_rules_order() {
        // Horizontal, vertical and arm pairs, whatever the plan order.
        let e = exercises(&[
            "bb-back-squat",
            "machine-lat-pulldown",
            "bb-bench-press",
            "cable-triceps-pushdown",
            "db-shoulder-press",
            "bb-bent-over-row",
            "db-curl",
        ]);
        assert_eq!(antagonist_pairs(&e), vec![(1, 4), (2, 5), (3, 6)]);
        // The first rules first: the bench press takes the row before the pulldown may.
        let e = exercises(&["bb-bench-press", "pull-up", "db-bent-over-row"]);
        assert_eq!(antagonist_pairs(&e), vec![(0, 2)]);
        // Then any push with any pull; two curls or a squat pair with nothing.
        let e = exercises(&["bb-overhead-press", "cable-row", "db-curl", "ez-curl"]);
        assert_eq!(antagonist_pairs(&e), vec![(0, 1)]);
        let e = exercises(&["bb-back-squat", "bb-romanian-deadlift", "dead-bug"]);
        assert!(antagonist_pairs(&e).is_empty());
    }

    fn planned(id: &str, tier: PlanTier, sets: u32, rest_s: u32) -> PlannedExercise {
        PlannedExercise {
            tier,
            exercise: id.into(),
            equipment: "bodyweight".into(),
            superset: None,
            warmups: 0,
            working_sets: sets,
            rest_s,
            targets: crate::workout::model::PlanTargets {
                rep_range: "8-12".into(),
                rir: 2,
                target_load: None,
                load_cap: None,
            },
            notes: String::new(),
        }
    }

    #[test]
    fn a_superset_round_takes_both_sets_and_one_rest() {
        let e = exercises(&["push-up", "inverted-row"]);
        let mut plan = vec![
            planned("push-up", PlanTier::A, 3, 90),
            planned("inverted-row", PlanTier::B, 3, 75),
        ];
        // 3 ramp sets (300 s), 2 set-ups, 6 sets of 40 s and their rests.
        assert_eq!(
            plan_seconds(&plan, &e, 3),
            300 + 120 + 240 + 3 * 90 + 3 * 75
        );
        plan[0].superset = Some("S1".into());
        plan[1].superset = Some("S1".into());
        plan[0].rest_s = 90;
        plan[1].rest_s = 90;
        assert_eq!(plan_seconds(&plan, &e, 3), 300 + 120 + 240 + 3 * 90);
        // A partner with a set more does it alone, with its rest.
        plan[0].working_sets = 4;
        assert_eq!(plan_seconds(&plan, &e, 0), 120 + 240 + 3 * 90 + 40 + 90);
    }

    #[test]
    fn supersets_only_when_the_budget_cut_sets() {
        let e = exercises(&["push-up", "inverted-row", "bodyweight-squat"]);
        let base = vec![
            planned("push-up", PlanTier::A, 3, 90),
            planned("inverted-row", PlanTier::B, 3, 75),
            planned("bodyweight-squat", PlanTier::A, 3, 90),
        ];
        // Nothing cut: nothing changes.
        let mut plan = base.clone();
        superset_when_short(&mut plan, &e, &[3, 3, 3], 3, 20, 60);
        assert_eq!(plan, base);
        // Cut to one set each in 25 minutes: the pair shares 90 s and sets come back, B first
        // cut again, never below the budget's; at most `max_sets` in all.
        let one_each: Vec<PlannedExercise> = base
            .iter()
            .map(|p| PlannedExercise {
                working_sets: 1,
                ..p.clone()
            })
            .collect();
        let mut plan = one_each.clone();
        superset_when_short(&mut plan, &e, &[3, 3, 3], 3, 25, 60);
        let got: Vec<(Option<&str>, u32, u32)> = plan
            .iter()
            .map(|p| (p.superset.as_deref(), p.rest_s, p.working_sets))
            .collect();
        // 1200 s: ramp 300, set-ups 180, a round of 170 s, two push-ups alone and two squats
        // of 130 s.
        assert_eq!(
            got,
            [(Some("S1"), 90, 3), (Some("S1"), 90, 1), (None, 90, 2)]
        );
        assert_eq!(plan_seconds(&plan, &e, 3), 1170);
        let mut capped = one_each;
        superset_when_short(&mut capped, &e, &[3, 3, 3], 0, 60, 4);
        assert_eq!(capped.iter().map(|p| p.working_sets).sum::<u32>(), 4);
    }
}
