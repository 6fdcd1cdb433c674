//! The deterministic analyzer (pure): today's session skeleton and an analyzer plan built from
//! it, so the whole flow works with no model (source `deterministic`).
//!
//! The skeleton ([`skeleton`]) is a list of slots, each with its tier, sets, rep range and RIR
//! computed by code and up to [`MAX_SLOT_CANDIDATES`] allowed exercises that may fill it; the model
//! picks one per slot, the deterministic plan takes each slot's first. The slots are those of the
//! pre-analysis's split ([`session_slots`]; `week.rs` chooses it). Full body, in order: Tier A a
//! squat or hinge and a horizontal push or vertical pull compound; Tier B a horizontal or vertical
//! pull, a vertical push, lunge or horizontal push; Tier C an arm and a core, shoulder, chest or
//! leg accessory. Upper, lower (and legs), push and pull: the tables [`UPPER_SLOTS`],
//! [`LOWER_SLOTS`], [`PUSH_SLOTS`], [`PULL_SLOTS`]. Candidates: allowed today (equipment, bans,
//! anti-repeat), of the slot's patterns
//! (Tier A: compounds only), not offered in an earlier slot (so no answer repeats an exercise);
//! ordered exercises with history first (loads are known), then one of each pattern before a
//! second of any, then catalog order. A slot without a candidate is left out; when every slot is
//! empty, one Tier A slot offers the first allowed exercises. Sets and reps by goal (A, B, C):
//! strength 4x3-5, 3x6-8, 2x10-12; hypertrophy 3x6-10, 3x8-12, 3x12-15; endurance 2x12-15,
//! 2x15-20, 2x15-20; general 3x5-8, 3x8-12, 2x10-15. RIR: A 2, B 2, C 1 (before the fatigue
//! shift). Sets are trimmed from C, then B, to the budget's working sets; when one set per slot is
//! still too many, the last slots are left out. When sets were trimmed, the picked antagonists
//! become supersets and sets come back as far as the minutes allow
//! ([`timebox::superset_when_short`]). Target loads: the last working load within today's cap.
//! The plan's `session_type` is the split; its notes say why when the request gave the days per
//! week.

use super::catalog::{Inventory, LoadKind, WorkoutExercise};
use super::model::{
    AnalyzerPlan, Goal, PlanMeta, PlanTargets, PlanTier, PlanTiers, PlannedExercise, SessionType,
    WarmupPolicy, WorkoutRequest,
};
use super::preanalysis::PreAnalysis;
use super::timebox;

/// One kind of slot: its tier, the movement patterns that may fill it and what it is for in words
/// (shown to the model).
pub type SlotSpec = (PlanTier, &'static [&'static str], &'static str);

/// The full-body slots (the workout flow's skeleton).
pub const FULL_BODY_SLOTS: &[SlotSpec] = &[
    (PlanTier::A, &["squat", "hinge"], "main lower-body lift"),
    (PlanTier::A, &["push_h", "pull_v"], "main upper-body lift"),
    (PlanTier::B, &["pull_h", "pull_v"], "row or pull"),
    (
        PlanTier::B,
        &["push_v", "lunge", "push_h"],
        "press or lunge",
    ),
    (PlanTier::C, &["arms"], "arm accessory"),
    (
        PlanTier::C,
        &["core", "shoulders", "chest", "legs"],
        "core or shoulder accessory",
    ),
];

/// The upper-body slots: presses, pulls and rows, arms, shoulders or chest.
pub const UPPER_SLOTS: &[SlotSpec] = &[
    (PlanTier::A, &["push_h"], "main press"),
    (PlanTier::A, &["pull_v", "pull_h"], "main pull"),
    (PlanTier::B, &["push_v", "push_h"], "second press"),
    (PlanTier::B, &["pull_h", "back", "pull_v"], "row"),
    (PlanTier::C, &["arms"], "arm accessory"),
    (
        PlanTier::C,
        &["shoulders", "chest"],
        "shoulder or chest accessory",
    ),
];

/// The lower-body (legs) slots: a squat, a hinge, single-leg work, leg and calf accessories,
/// core.
pub const LOWER_SLOTS: &[SlotSpec] = &[
    (PlanTier::A, &["squat"], "main squat"),
    (PlanTier::A, &["hinge"], "main hinge"),
    (
        PlanTier::B,
        &["lunge", "squat"],
        "single-leg or second squat",
    ),
    (PlanTier::B, &["legs", "hinge"], "leg accessory"),
    (PlanTier::C, &["calves", "legs"], "calf or leg accessory"),
    (PlanTier::C, &["core"], "core"),
];

/// The push slots: presses, shoulders, triceps.
pub const PUSH_SLOTS: &[SlotSpec] = &[
    (PlanTier::A, &["push_h"], "main press"),
    (PlanTier::B, &["push_v"], "overhead press"),
    (PlanTier::B, &["push_h", "chest"], "second press"),
    (PlanTier::C, &["shoulders"], "shoulder accessory"),
    (PlanTier::C, &["arms"], "triceps or arm accessory"),
];

/// The pull slots: pulls and rows, back, biceps, rear shoulders.
pub const PULL_SLOTS: &[SlotSpec] = &[
    (PlanTier::A, &["pull_v", "pull_h"], "main pull"),
    (PlanTier::B, &["pull_h", "pull_v"], "row"),
    (PlanTier::B, &["back", "hinge"], "back accessory"),
    (PlanTier::C, &["arms"], "biceps or arm accessory"),
    (PlanTier::C, &["shoulders"], "rear shoulder accessory"),
];

/// The slots of a session type (lower body and legs share theirs).
pub fn session_slots(t: SessionType) -> &'static [SlotSpec] {
    match t {
        SessionType::FullBody => FULL_BODY_SLOTS,
        SessionType::Upper => UPPER_SLOTS,
        SessionType::Lower | SessionType::Legs => LOWER_SLOTS,
        SessionType::Push => PUSH_SLOTS,
        SessionType::Pull => PULL_SLOTS,
    }
}

/// Most exercises offered for one slot.
pub const MAX_SLOT_CANDIDATES: usize = 4;

/// One slot of today's session: everything but the exercise, and the exercises that may fill it.
#[derive(Debug, Clone, PartialEq)]
pub struct Slot<'a> {
    /// The slot's name in the model's answer: its tier and place (`A1`, `A2`, `B1`, ...).
    pub key: String,
    /// Its tier.
    pub tier: PlanTier,
    /// What it is for, in words (`main lower-body lift`).
    pub role: &'static str,
    /// The movement patterns that may fill it (none for the fallback slot of any allowed
    /// exercise).
    pub patterns: &'static [&'static str],
    /// Working sets (after the time budget).
    pub sets: u32,
    /// The goal's rep range for the tier (`6-10`).
    pub reps: &'static str,
    /// RIR before the fatigue shift.
    pub rir: u32,
    /// The exercises that may fill it, the deterministic pick first; never empty.
    pub candidates: Vec<&'a WorkoutExercise>,
}

/// (working sets, rep range, rir) per goal and tier.
pub fn prescription(goal: Goal, tier: PlanTier) -> (u32, &'static str, u32) {
    use PlanTier::*;
    match (goal, tier) {
        (Goal::Strength, A) => (4, "3-5", 2),
        (Goal::Strength, B) => (3, "6-8", 2),
        (Goal::Strength, C) => (2, "10-12", 1),
        (Goal::Hypertrophy, A) => (3, "6-10", 2),
        (Goal::Hypertrophy, B) => (3, "8-12", 2),
        (Goal::Hypertrophy, C) => (3, "12-15", 1),
        (Goal::Endurance, A) => (2, "12-15", 2),
        (Goal::Endurance, _) => (2, "15-20", 1),
        (Goal::General, A) => (3, "5-8", 2),
        (Goal::General, B) => (3, "8-12", 2),
        (Goal::General, C) => (2, "10-15", 1),
    }
}

/// `e` planned at `tier` with `sets` x `reps` at `rir`: the equipment key of the inventory, the
/// tier's rest, and the loads code computes (the last working load within today's cap; none
/// without loaded history). A per-side exercise gets `N/side` with the range's low end.
#[allow(clippy::too_many_arguments)]
pub fn planned(
    e: &WorkoutExercise,
    tier: PlanTier,
    sets: u32,
    reps: &str,
    rir: u32,
    goal: Goal,
    pre: &PreAnalysis,
    inv: &Inventory,
) -> PlannedExercise {
    let facts = pre.facts(&e.id);
    let loaded = !matches!(e.load, LoadKind::Bodyweight | LoadKind::Other);
    let cap = facts.and_then(|f| f.load_cap).filter(|_| loaded);
    let target = facts
        .filter(|f| f.last_load > 0.0 && loaded)
        .map(|f| cap.map_or(f.last_load, |c| f.last_load.min(c)));
    let rep_range = if e.per_side {
        format!("{}/side", reps.split('-').next().unwrap_or(reps))
    } else {
        reps.to_string()
    };
    PlannedExercise {
        tier,
        exercise: e.id.clone(),
        equipment: inv.equipment_for(e),
        superset: None,
        warmups: 0,
        working_sets: sets,
        rest_s: match tier {
            PlanTier::A => timebox::default_rest(goal),
            _ => timebox::accessory_rest(goal),
        },
        targets: PlanTargets {
            rep_range,
            rir,
            target_load: target,
            load_cap: cap,
        },
        notes: if facts.is_none() && loaded {
            "no recent history: pick a load at the target RIR".into()
        } else {
            String::new()
        },
    }
}

/// The frame of every plan of `request`: meta, the warm-up policy (a 3-set ramp), the fatigue
/// policy and the time budget of the pre-analysis, with `exercise_plan`.
pub fn frame(
    request: &WorkoutRequest,
    pre: &PreAnalysis,
    session_type: SessionType,
    exercise_plan: Vec<PlannedExercise>,
    notes: String,
) -> AnalyzerPlan {
    let meta = &request.meta;
    AnalyzerPlan {
        meta: PlanMeta {
            date: meta.date.clone(),
            location: meta.location.clone(),
            units: meta.units,
            duration_minutes: meta.duration_minutes,
            goal: meta.goal,
        },
        session_type,
        tiers: PlanTiers {
            warmup_policy: WarmupPolicy {
                ramp_sets: 3,
                applies_to: "first_tier_a_compound".into(),
            },
        },
        fatigue_policy: pre.policy(),
        time_budget: pre.budget,
        exercise_plan,
        notes,
    }
}

/// Today's session skeleton (see the module docs): the slots of the pre-analysis's split
/// ([`session_slots`]) with their tier, sets, reps, RIR and candidates; at least one slot when
/// any exercise is allowed.
pub fn skeleton<'a>(
    request: &WorkoutRequest,
    pre: &PreAnalysis,
    catalog: &'a [WorkoutExercise],
) -> Vec<Slot<'a>> {
    skeleton_of(
        request,
        pre,
        catalog,
        session_slots(pre.session.session_type),
    )
}

/// The skeleton of `specs` (the kinds of slot, in order) rather than the full-body slots: the
/// same candidates, prescription, budget and keys as [`skeleton`].
pub fn skeleton_of<'a>(
    request: &WorkoutRequest,
    pre: &PreAnalysis,
    catalog: &'a [WorkoutExercise],
    specs: &[SlotSpec],
) -> Vec<Slot<'a>> {
    let goal = request.meta.goal;
    let allowed: Vec<(usize, &WorkoutExercise)> = catalog
        .iter()
        .filter(|e| pre.is_allowed(&e.id))
        .enumerate()
        .collect();
    let mut offered: Vec<&str> = Vec::new();
    let mut slots: Vec<Slot<'a>> = Vec::new();
    for (tier, patterns, role) in specs {
        let mut rank: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
        let mut fitting: Vec<(bool, usize, usize, &WorkoutExercise)> = allowed
            .iter()
            .filter(|(_, e)| {
                patterns.contains(&e.pattern.as_str())
                    && (*tier != PlanTier::A || e.compound)
                    && !offered.contains(&e.id.as_str())
            })
            .map(|(i, e)| {
                let no_history = pre.facts(&e.id).is_none();
                let r = rank.entry(e.pattern.as_str()).or_default();
                *r += 1;
                (no_history, *r, *i, *e)
            })
            .collect();
        fitting.sort_by_key(|(h, r, i, _)| (*h, *r, *i));
        let candidates: Vec<&WorkoutExercise> = fitting
            .into_iter()
            .take(MAX_SLOT_CANDIDATES)
            .map(|t| t.3)
            .collect();
        if candidates.is_empty() {
            continue;
        }
        offered.extend(candidates.iter().map(|e| e.id.as_str()));
        let (sets, reps, rir) = prescription(goal, *tier);
        slots.push(Slot {
            key: String::new(),
            tier: *tier,
            role,
            patterns,
            sets,
            reps,
            rir,
            candidates,
        });
    }
    if slots.is_empty() && !allowed.is_empty() {
        let (sets, reps, rir) = prescription(goal, PlanTier::A);
        slots.push(Slot {
            key: String::new(),
            tier: PlanTier::A,
            role: "main lift",
            patterns: &[],
            sets,
            reps,
            rir,
            candidates: allowed
                .iter()
                .take(MAX_SLOT_CANDIDATES)
                .map(|(_, e)| *e)
                .collect(),
        });
    }
    // Trim to the budget: C first, then B, never below one set per slot.
    let max = pre.budget.max_working_sets;
    for tier in [PlanTier::C, PlanTier::B, PlanTier::A] {
        while slots.iter().map(|s| s.sets).sum::<u32>() > max {
            let Some(s) = slots
                .iter_mut()
                .rev()
                .filter(|s| s.tier == tier && s.sets > 1)
                .max_by_key(|s| s.sets)
            else {
                break;
            };
            s.sets -= 1;
        }
    }
    // A budget smaller than one set per slot keeps the first slots (C and B go first).
    while slots.len() > 1 && slots.iter().map(|s| s.sets).sum::<u32>() > max {
        slots.pop();
    }
    let mut counts = [0u32; 3];
    for s in &mut slots {
        let (letter, n) = match s.tier {
            PlanTier::A => ('A', &mut counts[0]),
            PlanTier::B => ('B', &mut counts[1]),
            PlanTier::C => ('C', &mut counts[2]),
        };
        *n += 1;
        s.key = format!("{letter}{n}");
    }
    slots
}

/// The plan of `slots` filled with `picks` (one exercise per slot, in order): each planned with
/// its slot's tier, sets, reps and RIR ([`planned`]), in the frame of the pre-analysis's split
/// (its reason as the plan's notes when the request gave the days per week).
pub fn plan_of_slots(
    request: &WorkoutRequest,
    pre: &PreAnalysis,
    slots: &[Slot<'_>],
    picks: &[&WorkoutExercise],
) -> AnalyzerPlan {
    let goal = request.meta.goal;
    let inv = &pre.inventory;
    let mut exercise_plan: Vec<PlannedExercise> = slots
        .iter()
        .zip(picks)
        .map(|(s, e)| planned(e, s.tier, s.sets, s.reps, s.rir, goal, pre, inv))
        .collect();
    // Sets the budget cut: antagonists in supersets keep more of them.
    let full: Vec<u32> = slots.iter().map(|s| prescription(goal, s.tier).0).collect();
    // The renderer's ramp: 3 sets before the first Tier A compound with a load, 1 without.
    let ramp = exercise_plan
        .iter()
        .zip(picks)
        .find(|(p, e)| p.tier == PlanTier::A && e.compound)
        .map_or(0, |(p, _)| {
            if p.targets.target_load.is_some() {
                3
            } else {
                1
            }
        });
    timebox::superset_when_short(
        &mut exercise_plan,
        picks,
        &full,
        ramp,
        request.meta.duration_minutes,
        2 * pre.budget.max_working_sets,
    );
    // The split and why, for the user, when the request gave the days per week.
    let why = match request.days_per_week {
        Some(_) => pre.session.reason.clone(),
        None => String::new(),
    };
    frame(request, pre, pre.session.session_type, exercise_plan, why)
}

/// The plan for `request` from its pre-analysis over `catalog`: each slot of the [`skeleton`]
/// with its first candidate.
pub fn plan(
    request: &WorkoutRequest,
    pre: &PreAnalysis,
    catalog: &[WorkoutExercise],
) -> AnalyzerPlan {
    let slots = skeleton(request, pre, catalog);
    let picks: Vec<&WorkoutExercise> = slots.iter().map(|s| s.candidates[0]).collect();
    plan_of_slots(request, pre, &slots, &picks)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workout::catalog::builtin;
    use crate::workout::model::{SetTier, WeightUnit, WorkoutMeta};
    use crate::workout::{document, preanalysis, render};

    fn request(equipment: &[&str], minutes: u32, goal: Goal) -> WorkoutRequest {
        WorkoutRequest {
            meta: WorkoutMeta {
                date: "2025-08-17".into(),
                location: "gym".into(),
                units: WeightUnit::Lbs,
                duration_minutes: minutes,
                goal,
            },
            instructions: "- no bb-deadlift".into(),
            bans: vec![],
            equipment: equipment.iter().map(|s| s.to_string()).collect(),
            recent_cardio: vec![],
            upcoming_cardio: String::new(),
            recovery: None,
            history_text: None,
            days_per_week: None,
        }
    }

    fn pre_of(r: &WorkoutRequest) -> PreAnalysis {
        let date = preanalysis::validate_request(r).unwrap();
        preanalysis::analyze(r, date, builtin(), &[])
    }

    const GYM: &[&str] = &[
        "eq_barbell_olympic",
        "eq_squat_rack",
        "eq_bench_adjustable",
        "eq_dumbbells_set_5-50",
        "eq_cable_machine_dual_stack",
        "eq_pullup_bar",
    ];

    #[test]
    fn the_skeleton_offers_allowed_disjoint_candidates_per_slot_within_the_budget() {
        for (equipment, minutes, goal) in [
            (GYM, 60, Goal::Hypertrophy),
            (GYM, 15, Goal::Strength),
            (GYM, 15, Goal::Hypertrophy),
            (&["eq_dumbbells_set_5-50"][..], 30, Goal::General),
            (&[][..], 20, Goal::Endurance),
            (&["eq_kettlebell"][..], 40, Goal::Endurance),
        ] {
            let r = request(equipment, minutes, goal);
            let pre = pre_of(&r);
            let slots = skeleton(&r, &pre, builtin());
            assert!(!slots.is_empty(), "{equipment:?}");
            assert_eq!(slots[0].tier, PlanTier::A, "{equipment:?}");
            let mut seen = std::collections::HashSet::new();
            for s in &slots {
                assert!(!s.candidates.is_empty() && s.candidates.len() <= MAX_SLOT_CANDIDATES);
                assert_eq!(
                    (s.reps, s.rir),
                    (prescription(goal, s.tier).1, prescription(goal, s.tier).2)
                );
                for e in &s.candidates {
                    assert!(pre.is_allowed(&e.id), "{} not allowed", e.id);
                    assert!(seen.insert(e.id.clone()), "{} offered twice", e.id);
                    assert!(s.tier != PlanTier::A || e.compound, "{}", e.id);
                }
            }
            assert!(!seen.contains("bb-deadlift"), "banned in the notes");
            let sets: u32 = slots.iter().map(|s| s.sets).sum();
            assert!(
                sets <= pre.budget.max_working_sets.max(1),
                "{sets} sets for a budget of {}",
                pre.budget.max_working_sets
            );
        }
        let r = request(GYM, 60, Goal::Hypertrophy);
        let slots = skeleton(&r, &pre_of(&r), builtin());
        let keys: Vec<&str> = slots.iter().map(|s| s.key.as_str()).collect();
        assert_eq!(keys, ["A1", "A2", "B1", "B2", "C1", "C2"]);
    }

    #[test]
    fn the_deterministic_plan_takes_each_slots_first_candidate() {
        let r = request(GYM, 60, Goal::Hypertrophy);
        let pre = pre_of(&r);
        let slots = skeleton(&r, &pre, builtin());
        let p = plan(&r, &pre, builtin());
        assert_eq!(p.exercise_plan.len(), slots.len());
        for (planned, s) in p.exercise_plan.iter().zip(&slots) {
            assert_eq!(planned.exercise, s.candidates[0].id);
            assert_eq!((planned.tier, planned.working_sets), (s.tier, s.sets));
        }
        // Another pick per slot gives the same frame and set counts.
        let picks: Vec<&WorkoutExercise> = slots
            .iter()
            .map(|s| *s.candidates.last().unwrap())
            .collect();
        let other = plan_of_slots(&r, &pre, &slots, &picks);
        assert_eq!((other.meta, other.time_budget), (p.meta, p.time_budget));
        assert_ne!(other.exercise_plan, p.exercise_plan);
    }

    /// Seconds the rendered `w` takes: each set's work and rest, one set-up per exercise.
    fn rendered_seconds(w: &crate::workout::Workout) -> u32 {
        let mut seen = std::collections::HashSet::new();
        w.sets
            .iter()
            .map(|s| {
                let per_side = s.tier != SetTier::W
                    && render::find(builtin(), &s.exercise).is_some_and(|e| e.per_side);
                timebox::set_seconds(s.rest_s, per_side)
                    + if seen.insert(&s.exercise) {
                        timebox::EXERCISE_SETUP_S
                    } else {
                        0
                    }
            })
            .sum()
    }

    #[test]
    fn a_short_session_pairs_antagonists_and_keeps_more_sets_within_its_minutes() {
        // (minutes, goal, days a week, the pairs, working sets kept by the budget alone, with
        // supersets)
        for (minutes, goal, days, pairs, budget_sets, kept) in [
            (
                20,
                Goal::Hypertrophy,
                None,
                &[("bb-bench-press", "bb-bent-over-row")][..],
                4,
                5,
            ),
            (
                20,
                Goal::Strength,
                Some(4),
                &[("bb-bench-press", "bb-bent-over-row")][..],
                2,
                4,
            ),
            (
                30,
                Goal::Hypertrophy,
                Some(4),
                &[
                    ("bb-bench-press", "bb-bent-over-row"),
                    ("bb-overhead-press", "db-one-arm-row"),
                ][..],
                8,
                11,
            ),
        ] {
            let mut r = request(GYM, minutes, goal);
            r.days_per_week = days;
            let date = preanalysis::validate_request(&r).unwrap();
            let pre = preanalysis::analyze(&r, date, builtin(), &[]);
            let slots = skeleton(&r, &pre, builtin());
            let p = plan(&r, &pre, builtin());
            let case = format!("{minutes} min {goal:?}");
            assert_eq!(
                slots.iter().map(|s| s.sets).sum::<u32>(),
                budget_sets,
                "{case}"
            );
            let sets: u32 = p.exercise_plan.iter().map(|e| e.working_sets).sum();
            assert_eq!(sets, kept, "{case}");
            let labelled: Vec<(&str, &str)> = (1..=9)
                .map(|k| {
                    p.exercise_plan
                        .iter()
                        .filter(|e| e.superset.as_deref() == Some(format!("S{k}").as_str()))
                        .map(|e| e.exercise.as_str())
                        .collect::<Vec<_>>()
                })
                .take_while(|g| !g.is_empty())
                .map(|g| (g[0], g[1]))
                .collect();
            assert_eq!(labelled, pairs, "{case}");
            // The pair shares one rest: the longer of the two (Tier A's rest when one is A).
            let rest_of = |x: &str| {
                let e = p.exercise_plan.iter().find(|e| e.exercise == x).unwrap();
                match e.tier {
                    PlanTier::A => timebox::default_rest(goal),
                    _ => timebox::accessory_rest(goal),
                }
            };
            // Rendered: the pair alternates, the first set of a round without rest; the session
            // fits its minutes, so no set is moved down a tier.
            let w = render::render(&p, builtin(), &pre.inventory, 1);
            assert!(document::validate_workout_yaml(&document::to_yaml(&w)).is_ok());
            for (a, b) in pairs {
                let rest = rest_of(a).max(rest_of(b));
                for x in [a, b] {
                    let e = p.exercise_plan.iter().find(|e| e.exercise == *x).unwrap();
                    assert_eq!(e.rest_s, rest, "{case} {x}");
                }
                let sets_of = |x: &str| {
                    p.exercise_plan
                        .iter()
                        .find(|e| e.exercise == x)
                        .map_or(0, |e| e.working_sets)
                };
                let (na, nb) = (sets_of(a), sets_of(b));
                let mut expected = Vec::new();
                for r in 0..na.max(nb) {
                    match (r < na, r < nb) {
                        (true, true) => expected.extend([(*a, 0), (*b, rest)]),
                        (true, false) => expected.push((*a, rest)),
                        _ => expected.push((*b, rest)),
                    }
                }
                let done: Vec<(&str, u32)> = w
                    .sets
                    .iter()
                    .filter(|s| s.tier != SetTier::W && (s.exercise == *a || s.exercise == *b))
                    .map(|s| (s.exercise.as_str(), s.rest_s))
                    .collect();
                assert_eq!(done, expected, "{case}");
                // Together: no other exercise's set between them.
                let at: Vec<usize> = w
                    .sets
                    .iter()
                    .enumerate()
                    .filter(|(_, s)| s.tier != SetTier::W && (s.exercise == *a || s.exercise == *b))
                    .map(|(i, _)| i)
                    .collect();
                assert_eq!(at.last().unwrap() - at[0] + 1, at.len(), "{case}");
            }
            assert!(
                rendered_seconds(&w) <= timebox::available_seconds(minutes),
                "{case}: {} s",
                rendered_seconds(&w)
            );
            for (e, planned) in p.exercise_plan.iter().map(|e| (e, SetTier::from(e.tier))) {
                assert!(w
                    .sets
                    .iter()
                    .filter(|s| s.exercise == e.exercise && s.tier != SetTier::W)
                    .all(|s| s.tier == planned));
            }
            // The same plan without supersets does not fit: sets move down a tier.
            let mut plain = p.clone();
            for e in &mut plain.exercise_plan {
                e.superset = None;
            }
            let picks: Vec<&WorkoutExercise> = plain
                .exercise_plan
                .iter()
                .map(|e| render::find(builtin(), &e.exercise).unwrap())
                .collect();
            let ramp = u32::from(p.exercise_plan[0].targets.target_load.is_none());
            assert!(
                timebox::plan_seconds(&plain.exercise_plan, &picks, ramp)
                    > timebox::available_seconds(minutes),
                "{case}"
            );
        }
        // An hour cuts nothing: no supersets.
        let r = request(GYM, 60, Goal::Hypertrophy);
        let date = preanalysis::validate_request(&r).unwrap();
        let p = plan(
            &r,
            &preanalysis::analyze(&r, date, builtin(), &[]),
            builtin(),
        );
        assert!(p.exercise_plan.iter().all(|e| e.superset.is_none()));
    }

    #[test]
    fn the_split_sets_the_slots_and_the_plan_says_why() {
        for (days, expected, first) in [
            (None, SessionType::FullBody, "bb-back-squat"),
            (Some(3), SessionType::FullBody, "bb-back-squat"),
            (Some(4), SessionType::Upper, "bb-bench-press"),
            (Some(6), SessionType::Push, "bb-bench-press"),
        ] {
            let mut r = request(GYM, 60, Goal::Hypertrophy);
            r.days_per_week = days;
            let date = preanalysis::validate_request(&r).unwrap();
            let pre = preanalysis::analyze(&r, date, builtin(), &[]);
            let p = plan(&r, &pre, builtin());
            assert_eq!(p.session_type, expected, "{days:?}");
            assert_eq!(p.exercise_plan[0].exercise, first, "{days:?}");
            assert_eq!(p.notes.is_empty(), days.is_none(), "{days:?}");
            if days.is_some() {
                assert_eq!(p.notes, pre.session.reason);
            }
        }
    }
}
