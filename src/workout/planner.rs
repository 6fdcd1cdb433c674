//! The deterministic analyzer (pure): today's session skeleton and an analyzer plan built from
//! it, so the whole flow works with no model (source `deterministic`).
//!
//! The skeleton ([`skeleton`]) is a list of slots, each with its tier, sets, rep range and RIR
//! computed by code and up to [`MAX_SLOT_CANDIDATES`] allowed exercises that may fill it; the model
//! picks one per slot, the deterministic plan takes each slot's first. The slots are those of the
//! focus the instructions name ([`super::notes`], [`super::focus::slot_specs_for`]; nothing
//! named: the full-body slots, in order Tier A a squat or hinge and a horizontal push or vertical
//! pull compound; Tier B a horizontal or vertical pull, a vertical push, lunge or horizontal push;
//! Tier C an arm and a core, shoulder, chest or leg accessory). An exercise named as the focus
//! comes first, Tier A, its alternatives as candidates, and the first Tier A slot of its pattern
//! goes. Candidates: allowed today (equipment, bans, anti-repeat; the instructions' refusals and
//! spared body parts are bans, see the pre-analysis), of the slot's patterns and main muscles
//! (Tier A: compounds only), offered in one slot only (so no answer repeats an exercise);
//! ordered exercises with history first (loads are known), then one of each pattern before a
//! second of any, then catalog order; a slot's first choice is of its first pattern when one is
//! left. Every slot gets its first choice before any slot gets alternatives, so that
//! alternatives never leave a later slot of the same kind empty. An exercise asked for narrows the first slot offering it to
//! the exercises of its words, else becomes the only choice of the first slot of its pattern that
//! nothing else asked for took, else gets a slot of its own (Tier B, or C for an isolation
//! exercise). A slot without a candidate is left out; when every slot is empty, one Tier A slot
//! offers the first allowed exercises; when no slot is Tier A, the first becomes Tier A. Sets and reps by goal (A, B, C):
//! strength 4x3-5, 3x6-8, 2x10-12; hypertrophy 3x6-10, 3x8-12, 3x12-15; endurance 2x12-15,
//! 2x15-20, 2x15-20; general 3x5-8, 3x8-12, 2x10-15. RIR: A 2, B 2, C 1 (before the fatigue
//! shift). Sets are trimmed from C, then B, to the budget's working sets; when one set per slot is
//! still too many, the last slots are left out. The plan's session type is that of the slots'
//! patterns (all pushing: push; all pulling: pull; all upper body: upper; all lower body: lower;
//! else full body). Target loads: the last working load within today's cap.

use super::catalog::{Inventory, LoadKind, WorkoutExercise};
use super::focus::{slot_specs_for, PATTERNS};
use super::model::{
    AnalyzerPlan, Goal, PlanMeta, PlanTargets, PlanTier, PlanTiers, PlannedExercise, SessionType,
    WarmupPolicy, WorkoutRequest,
};
use super::notes::{self, NotesReading};
use super::preanalysis::PreAnalysis;
use super::timebox;

pub use super::focus::{SlotSpec, FULL_BODY_SLOTS};

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
    /// The main muscles its exercise may have (empty: any).
    pub muscles: &'static [&'static str],
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

/// Today's session skeleton (see the module docs): the slots of the focus `request`'s
/// instructions name, with their tier, sets, reps, RIR and candidates; at least one slot when
/// any exercise is allowed.
pub fn skeleton<'a>(
    request: &WorkoutRequest,
    pre: &PreAnalysis,
    catalog: &'a [WorkoutExercise],
) -> Vec<Slot<'a>> {
    let reading = notes::read(&request.instructions, catalog);
    skeleton_for(request, pre, catalog, &reading)
}

/// The skeleton of what `reading` says: the slots of its focus, the exercise named as the focus
/// first, the exercises asked for placed (see the module docs). Today's plan calls it with the
/// reading of its notes.
pub fn skeleton_for<'a>(
    request: &WorkoutRequest,
    pre: &PreAnalysis,
    catalog: &'a [WorkoutExercise],
    reading: &NotesReading,
) -> Vec<Slot<'a>> {
    let allowed = |id: &String| catalog.iter().find(|e| &e.id == id && pre.is_allowed(id));
    let lead: Vec<&WorkoutExercise> = reading.focus.lead.iter().filter_map(allowed).collect();
    let wanted: Vec<Vec<&WorkoutExercise>> = reading
        .wanted
        .iter()
        .map(|ids| ids.iter().filter_map(allowed).collect::<Vec<_>>())
        .filter(|g| !g.is_empty())
        .collect();
    build(
        request,
        pre,
        catalog,
        &slot_specs_for(&reading.focus),
        &lead,
        &wanted,
    )
}

/// The skeleton of `specs` (the kinds of slot, in order) rather than those of the instructions:
/// the same candidates, prescription, budget and keys as [`skeleton`].
pub fn skeleton_of<'a>(
    request: &WorkoutRequest,
    pre: &PreAnalysis,
    catalog: &'a [WorkoutExercise],
    specs: &[SlotSpec],
) -> Vec<Slot<'a>> {
    build(request, pre, catalog, specs, &[], &[])
}

/// A slot of `tier` for `candidates` (the pattern of the first, if the catalog knows it).
fn slot_for<'a>(
    goal: Goal,
    tier: PlanTier,
    role: &'static str,
    candidates: Vec<&'a WorkoutExercise>,
) -> Slot<'a> {
    let patterns: &'static [&'static str] = candidates
        .first()
        .and_then(|e| PATTERNS.iter().position(|p| *p == e.pattern))
        .map_or(&[], |k| &PATTERNS[k..=k]);
    let (sets, reps, rir) = prescription(goal, tier);
    Slot {
        key: String::new(),
        tier,
        role,
        patterns,
        muscles: &[],
        sets,
        reps,
        rir,
        candidates,
    }
}

fn build<'a>(
    request: &WorkoutRequest,
    pre: &PreAnalysis,
    catalog: &'a [WorkoutExercise],
    specs: &[SlotSpec],
    lead: &[&'a WorkoutExercise],
    wanted: &[Vec<&'a WorkoutExercise>],
) -> Vec<Slot<'a>> {
    let goal = request.meta.goal;
    let allowed: Vec<(usize, &WorkoutExercise)> = catalog
        .iter()
        .filter(|e| pre.is_allowed(&e.id))
        .enumerate()
        .collect();
    let mut specs: Vec<SlotSpec> = specs.to_vec();
    let mut offered: Vec<&str> = Vec::new();
    let mut slots: Vec<Slot<'a>> = Vec::new();
    if let Some(first) = lead.first() {
        // The lead takes the place of the first Tier A slot of its pattern.
        if let Some(k) = specs
            .iter()
            .position(|s| s.tier == PlanTier::A && s.patterns.contains(&first.pattern.as_str()))
        {
            specs.remove(k);
        }
        let candidates: Vec<&WorkoutExercise> =
            lead.iter().copied().take(MAX_SLOT_CANDIDATES).collect();
        offered.extend(candidates.iter().map(|e| e.id.as_str()));
        slots.push(slot_for(
            goal,
            PlanTier::A,
            "the day's focus lift",
            candidates,
        ));
    }
    // Each slot's fitting exercises in order: history first, one of each pattern before a
    // second of any, then catalog order.
    let fitting_of = |spec: &SlotSpec| -> Vec<&'a WorkoutExercise> {
        let mut rank: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
        let mut fitting: Vec<(bool, usize, usize, &'a WorkoutExercise)> = allowed
            .iter()
            .filter(|(_, e)| {
                spec.fits(&e.pattern, e.muscles.first().map(String::as_str))
                    && (spec.tier != PlanTier::A || e.compound)
            })
            .map(|(i, e)| {
                let no_history = pre.facts(&e.id).is_none();
                let r = rank.entry(e.pattern.as_str()).or_default();
                *r += 1;
                (no_history, *r, *i, *e)
            })
            .collect();
        fitting.sort_by_key(|(h, r, i, _)| (*h, *r, *i));
        fitting.into_iter().map(|t| t.3).collect()
    };
    // First each slot's first choice, then the alternatives, so that a slot's alternatives
    // never leave a later slot of the same kind empty.
    let mut filled: Vec<(
        &SlotSpec,
        Vec<&'a WorkoutExercise>,
        Vec<&'a WorkoutExercise>,
    )> = Vec::new();
    for spec in &specs {
        let fitting = fitting_of(spec);
        let free = |e: &&&WorkoutExercise| !offered.contains(&e.id.as_str());
        // The first choice is of the slot's first pattern when one is left (a row for `row`).
        let first = fitting
            .iter()
            .filter(free)
            .find(|e| spec.patterns.first() == Some(&e.pattern.as_str()))
            .or_else(|| fitting.iter().find(free));
        if let Some(first) = first {
            offered.push(first.id.as_str());
            filled.push((spec, vec![*first], fitting));
        }
    }
    for (_, candidates, fitting) in &mut filled {
        for e in fitting.iter() {
            if candidates.len() == MAX_SLOT_CANDIDATES {
                break;
            }
            if !offered.contains(&e.id.as_str()) {
                offered.push(e.id.as_str());
                candidates.push(*e);
            }
        }
    }
    for (spec, candidates, _) in filled {
        let (sets, reps, rir) = prescription(goal, spec.tier);
        slots.push(Slot {
            key: String::new(),
            tier: spec.tier,
            role: spec.role,
            patterns: spec.patterns,
            muscles: spec.muscles,
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
            muscles: &[],
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
    honour_wanted(&mut slots, wanted, !lead.is_empty(), goal);
    // Every session has a main lift: with no Tier A slot (`calves and abs`), the first is one.
    if !slots.iter().any(|s| s.tier == PlanTier::A) {
        if let Some(s) = slots.first_mut() {
            s.tier = PlanTier::A;
            (s.sets, s.reps, s.rir) = prescription(goal, PlanTier::A);
        }
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

/// Gives each exercise asked for (`wanted`: per exercise named, the allowed exercises of its
/// words) its place: the first slot offering some of them offers only those; else the first slot
/// of their pattern (Tier A: compounds only) nothing else asked for took offers only them; else
/// they get a slot of their own, Tier B (C when none is a compound), after the slots of its tier.
/// The lead's slot (the first, when `lead`) keeps its choices.
pub fn honour_wanted<'a>(
    slots: &mut Vec<Slot<'a>>,
    wanted: &[Vec<&'a WorkoutExercise>],
    lead: bool,
    goal: Goal,
) {
    let mut fixed = vec![false; slots.len()];
    if lead && !fixed.is_empty() {
        fixed[0] = true;
    }
    let member =
        |group: &[&WorkoutExercise], e: &WorkoutExercise| group.iter().any(|g| g.id == e.id);
    for group in wanted {
        if let Some(i) = slots
            .iter()
            .position(|s| s.candidates.iter().any(|c| member(group, c)))
        {
            if !fixed[i] {
                slots[i].candidates.retain(|c| member(group, c));
                fixed[i] = true;
            }
            continue;
        }
        let fits = |s: &Slot<'_>, e: &WorkoutExercise| {
            s.patterns.contains(&e.pattern.as_str()) && (s.tier != PlanTier::A || e.compound)
        };
        let place =
            (0..slots.len()).find(|&i| !fixed[i] && group.iter().any(|e| fits(&slots[i], e)));
        if let Some(i) = place {
            let chosen: Vec<&WorkoutExercise> = group
                .iter()
                .copied()
                .filter(|e| fits(&slots[i], e))
                .take(MAX_SLOT_CANDIDATES)
                .collect();
            slots[i].candidates = chosen;
            fixed[i] = true;
            continue;
        }
        let tier = if group.iter().any(|e| e.compound) {
            PlanTier::B
        } else {
            PlanTier::C
        };
        let pattern = group[0].pattern.as_str();
        let chosen: Vec<&WorkoutExercise> = group
            .iter()
            .copied()
            .filter(|e| e.pattern == pattern && (tier == PlanTier::C || e.compound))
            .take(MAX_SLOT_CANDIDATES)
            .collect();
        let at = slots
            .iter()
            .rposition(|s| s.tier <= tier)
            .map_or(0, |k| k + 1);
        slots.insert(at, slot_for(goal, tier, "asked for", chosen));
        fixed.insert(at, true);
    }
}

/// The session type of `slots`: that of their patterns (see the module docs).
pub fn session_type_of(slots: &[Slot<'_>]) -> SessionType {
    const PUSH: &[&str] = &["push_h", "push_v", "chest", "shoulders", "arms"];
    const PULL: &[&str] = &["pull_h", "pull_v", "back", "hinge", "arms", "shoulders"];
    const UPPER: &[&str] = &[
        "push_h",
        "push_v",
        "pull_h",
        "pull_v",
        "back",
        "chest",
        "shoulders",
        "arms",
    ];
    const LOWER: &[&str] = &["squat", "hinge", "lunge", "legs", "calves", "core"];
    let patterns: Vec<&str> = slots
        .iter()
        .flat_map(|s| s.patterns.iter().copied())
        .collect();
    let within = |set: &[&str]| patterns.iter().all(|p| set.contains(p));
    if patterns.is_empty() {
        SessionType::FullBody
    } else if within(PUSH) {
        SessionType::Push
    } else if within(PULL) {
        SessionType::Pull
    } else if within(UPPER) {
        SessionType::Upper
    } else if within(LOWER) {
        SessionType::Lower
    } else {
        SessionType::FullBody
    }
}

/// The plan of `slots` filled with `picks` (one exercise per slot, in order): each planned with
/// its slot's tier, sets, reps and RIR ([`planned`]), in the frame of the slots' session type.
pub fn plan_of_slots(
    request: &WorkoutRequest,
    pre: &PreAnalysis,
    slots: &[Slot<'_>],
    picks: &[&WorkoutExercise],
) -> AnalyzerPlan {
    let goal = request.meta.goal;
    let inv = &pre.inventory;
    let exercise_plan = slots
        .iter()
        .zip(picks)
        .map(|(s, e)| planned(e, s.tier, s.sets, s.reps, s.rir, goal, pre, inv))
        .collect();
    frame(
        request,
        pre,
        session_type_of(slots),
        exercise_plan,
        String::new(),
    )
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
    use crate::workout::model::{WeightUnit, WorkoutMeta};
    use crate::workout::preanalysis;

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
    fn the_instructions_shape_the_skeleton_and_what_is_allowed() {
        let with = |instructions: &str| {
            let mut r = request(GYM, 60, Goal::Hypertrophy);
            r.instructions = instructions.into();
            let pre = pre_of(&r);
            let slots = skeleton(&r, &pre, builtin());
            let p = plan(&r, &pre, builtin());
            (pre, slots, p)
        };
        let (_, slots, p) = with("Push day today.");
        assert_eq!(p.session_type, SessionType::Push);
        for s in &slots {
            for c in &s.candidates {
                assert!(
                    ["push_h", "push_v", "chest", "shoulders", "arms"]
                        .contains(&c.pattern.as_str()),
                    "{}",
                    c.id
                );
            }
        }
        let (_, slots, p) = with("chest and tris");
        assert_eq!(p.session_type, SessionType::Push);
        assert!(slots
            .iter()
            .any(|s| s.candidates[0].muscles[0] == "triceps"));
        let (_, slots, _) = with("bench day");
        assert_eq!(slots[0].candidates[0].id, "bb-bench-press");
        // Refusals and spared parts are bans of the pre-analysis.
        let (pre, _, _) =
            with("Left shoulder is cranky, no squats.\nHotel gym this week: just dumbbells.");
        for out in [
            "bb-overhead-press",
            "db-shoulder-press",
            "bb-back-squat",
            "db-goblet-squat",
            "bb-bench-press",
        ] {
            assert!(!pre.is_allowed(out), "{out}");
            assert!(pre
                .excluded
                .iter()
                .any(|e| e.exercise == out && e.reason == "banned"));
        }
        assert!(pre.is_allowed("db-floor-press") && pre.is_allowed("push-up"));
        assert!(
            !pre.is_allowed("db-bench-press"),
            "just dumbbells: no bench"
        );
        // A place alone does not narrow the app's inventory.
        let (pre, _, p) = with("Home workout in the living room.");
        assert!(pre.is_allowed("bb-back-squat"));
        assert_eq!(p.session_type, SessionType::FullBody);
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
}
