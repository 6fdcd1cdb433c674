//! The deterministic analyzer (pure): a full-body analyzer plan built from the pre-analysis, so the
//! whole flow works with no model (source `deterministic`).
//!
//! Slots, in order, each filled with the first allowed exercise of the catalog with the pattern
//! (exercises with history first, so loads are known): Tier A a squat or hinge and a horizontal
//! push or vertical pull compound; Tier B a horizontal pull, a vertical push or lunge; Tier C an
//! arm and a core or shoulder accessory. Sets and reps by goal (A, B, C): strength 4x3-5, 3x6-8,
//! 2x10-12; hypertrophy 3x6-10, 3x8-12, 3x12-15; endurance 2x12-15, 2x15-20, 2x15-20; general
//! 3x5-8, 3x8-12, 2x10-15. RIR: A 2, B 2, C 1 (before the fatigue shift). Sets are trimmed from C,
//! then B, to the budget's working sets. Target loads: the last working load within today's cap.

use super::catalog::{Inventory, LoadKind, WorkoutExercise};
use super::model::{
    AnalyzerPlan, Goal, PlanMeta, PlanTargets, PlanTier, PlanTiers, PlannedExercise, SessionType,
    WarmupPolicy, WorkoutRequest,
};
use super::preanalysis::PreAnalysis;
use super::timebox;

/// The slots: tier and acceptable patterns.
const SLOTS: &[(PlanTier, &[&str])] = &[
    (PlanTier::A, &["squat", "hinge"]),
    (PlanTier::A, &["push_h", "pull_v"]),
    (PlanTier::B, &["pull_h", "pull_v"]),
    (PlanTier::B, &["push_v", "lunge", "push_h"]),
    (PlanTier::C, &["arms"]),
    (PlanTier::C, &["core", "shoulders", "chest", "legs"]),
];

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

/// The plan for `request` from its pre-analysis over `catalog`.
pub fn plan(
    request: &WorkoutRequest,
    pre: &PreAnalysis,
    catalog: &[WorkoutExercise],
) -> AnalyzerPlan {
    let meta = &request.meta;
    let inv = Inventory::new(&request.equipment, meta.units);
    let allowed: Vec<&WorkoutExercise> = catalog.iter().filter(|e| pre.is_allowed(&e.id)).collect();
    let mut chosen: Vec<(PlanTier, &WorkoutExercise)> = Vec::new();
    for (tier, patterns) in SLOTS {
        let fits = |e: &&&WorkoutExercise| {
            patterns.contains(&e.pattern.as_str())
                && (*tier != PlanTier::A || e.compound)
                && !chosen.iter().any(|(_, c)| c.id == e.id)
        };
        let pick = allowed
            .iter()
            .filter(fits)
            .find(|e| pre.facts(&e.id).is_some())
            .or_else(|| allowed.iter().find(fits));
        if let Some(e) = pick {
            chosen.push((*tier, e));
        }
    }
    if chosen.is_empty() {
        if let Some(e) = allowed.first() {
            chosen.push((PlanTier::A, e));
        }
    }
    let mut exercise_plan: Vec<PlannedExercise> = chosen
        .iter()
        .map(|(tier, e)| {
            let (sets, reps, rir) = prescription(meta.goal, *tier);
            planned(e, *tier, sets, reps, rir, meta.goal, pre, &inv)
        })
        .collect();
    // Trim to the budget: C first, then B, never below one set per exercise.
    let max = pre.budget.max_working_sets;
    for tier in [PlanTier::C, PlanTier::B, PlanTier::A] {
        while exercise_plan.iter().map(|p| p.working_sets).sum::<u32>() > max {
            let Some(p) = exercise_plan
                .iter_mut()
                .rev()
                .filter(|p| p.tier == tier && p.working_sets > 1)
                .max_by_key(|p| p.working_sets)
            else {
                break;
            };
            p.working_sets -= 1;
        }
    }
    frame(
        request,
        pre,
        SessionType::FullBody,
        exercise_plan,
        String::new(),
    )
}
