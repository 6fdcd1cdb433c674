//! The deterministic analyzer (pure): today's session skeleton and an analyzer plan built from
//! it, so the whole flow works with no model (source `deterministic`).
//!
//! The skeleton ([`skeleton`]) is a list of slots, each with its tier, sets, rep range and RIR
//! computed by code and up to [`MAX_SLOT_CANDIDATES`] allowed exercises that may fill it; the model
//! picks one per slot, the deterministic plan takes each slot's first. The slots are those of the
//! focus the instructions name ([`super::notes`], [`super::focus::slot_specs_for`]; nothing
//! named: the pre-analysis's split (`week.rs` chooses it from the days per week and the logged
//! sessions; full body without the days), the full-body slots in order Tier A a squat or hinge and
//! a horizontal push or vertical pull compound; Tier B a horizontal or vertical pull, a vertical
//! push, lunge or horizontal push; Tier C an arm and a core, shoulder, chest or leg accessory). An
//! exercise named as the focus comes first, Tier A, as its only candidate (the first allowed form
//! of the words: the barbell lift before its dumbbell form; an exercise asked for likewise), and
//! the first Tier A slot of its pattern goes. Candidates: allowed today (equipment, bans, anti-repeat; the
//! instructions' refusals and spared body parts are bans, see the pre-analysis), of the slot's
//! patterns and main muscles (Tier A: compounds only), offered in one slot only (so no answer
//! repeats an exercise);
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
//! still too many, the last slots are left out. When sets were trimmed, the picked antagonists
//! become supersets and sets come back as far as the minutes allow
//! ([`timebox::superset_when_short`]). The plan's session type is that of the slots' patterns (all
//! pushing: push; all pulling: pull; all upper body: upper; all lower body: lower; else full
//! body), or the split's when the split chose the slots; the split's reason is the plan's notes
//! when the request gave the days per week.
//!
//! Target loads and reps ([`prescribe`]): the suggestion engine's next prescription
//! (`suggest::progress`: reps up within the range at a load, a load step after the top of the
//! range twice, a deload after 3 sessions without progress, the e1RM after 30 days away) from the
//! exercise's progression state in the pre-analysis, for the slot's rep range and RIR; then
//! today's cap on top (fatigue, thin history: the loadable weight not above it). The plan's
//! `rep_range` is the target reps of every working set (`10`, `10/side`), or the goal's range for
//! an exercise without history (chosen by feel); its `notes` say why, in one line.

use super::catalog::{rounding_equipment, Inventory, LoadKind, WorkoutExercise};
use super::focus::{slot_specs_for, Focus, PATTERNS};
use super::model::{
    AnalyzerPlan, Goal, PlanMeta, PlanTargets, PlanTier, PlanTiers, PlannedExercise, SessionType,
    WarmupPolicy, WorkoutRequest,
};
use super::notes::{self, NotesReading};
use super::preanalysis::{load_cap, PreAnalysis};
use super::render::loadable_at_most;
use super::timebox;
use crate::suggest::{next_prescription, weight_text, Basis, RepGoal};

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

/// The low and high reps of a rep range (`8-12`, `5`, `10/side`; 1 when unreadable).
fn rep_bounds(range: &str) -> (u32, u32) {
    let r = range.trim_end_matches("/side");
    let n = |t: &str| t.trim().parse::<u32>().unwrap_or(1).max(1);
    match r.split_once('-') {
        Some((lo, hi)) => (n(lo), n(hi).max(n(lo))),
        None => (n(r), n(r)),
    }
}

/// An exercise's prescription today: what `generateWorkout` plans for it and today's plan can
/// show. Weights in the request's unit.
#[derive(Debug, Clone, PartialEq)]
pub struct Prescription {
    /// The working load: loadable and within today's cap; `None` for body weight, bands, or an
    /// exercise without loaded history (chosen by feel).
    pub load: Option<f64>,
    /// Most load allowed today (`None` without loaded history).
    pub load_cap: Option<f64>,
    /// Target reps of every working set (for an exercise chosen by feel, the range's bottom).
    pub reps: u32,
    /// The plan's `rep_range`: the target (`10`, per side `10/side`), or for an exercise without
    /// history the goal's range (`6-10`; per side, its bottom: `6/side`).
    pub rep_range: String,
    /// Why, in one line for the user (at most 200 characters): `reps 10/10/9 at 60 kg last time:
    /// same load, aim for 10/10/10`, `top of the range twice: 62.5 kg, reps back to 6`.
    pub reason: String,
}

/// Most characters of a prescription's reason (the analyzer plan's `notes`).
const MAX_REASON_CHARS: usize = 200;

/// The prescription of `e` today for `sets` working sets of the goal's rep range `reps` (`6-10`)
/// at `rir` (before the fatigue shift): the suggestion engine's next prescription from its
/// progression state in `pre`, with today's load cap on top (see the module docs).
pub fn prescribe(
    e: &WorkoutExercise,
    sets: u32,
    reps: &str,
    rir: u32,
    pre: &PreAnalysis,
) -> Prescription {
    let unit = pre.units;
    let facts = pre.facts(&e.id);
    let loaded = !matches!(e.load, LoadKind::Bodyweight | LoadKind::Other);
    let (lower, upper) = rep_bounds(reps);
    let mut exercise = e.to_catalog();
    exercise.equipment = rounding_equipment(e.load);
    let next = next_prescription(
        facts.and_then(|f| f.progression.as_ref()),
        RepGoal {
            lower,
            upper,
            rir,
            sets,
        },
        &exercise,
        &pre.inventory.load_config(e.load, unit),
    );
    // Today's cap from the load progression continued from with this range (a deload it
    // followed lowers it), never above the pre-analysis's.
    let cap = facts.and_then(|f| {
        let own = load_cap(next.reference, pre.policy(), f.thin, &exercise, unit);
        match (f.load_cap, own) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    });
    let cap = cap.filter(|_| loaded);
    let mut reason = next.reason;
    let load = next.load.filter(|_| loaded).map(|wanted| {
        match loadable_at_most(wanted, cap, e.load, &pre.inventory, unit) {
            Some(x) if x < wanted - 1e-9 => {
                let why = if pre.policy().rir_shift > 0 {
                    "tired today"
                } else {
                    "capped today"
                };
                reason = format!("{reason}; {why}: {} {}", weight_text(x), unit.symbol());
                x
            }
            Some(x) => x,
            // Nothing loadable fits under the cap: the cap, which the renderer notes.
            None => cap.unwrap_or(wanted),
        }
    });
    if reason.chars().count() > MAX_REASON_CHARS {
        reason = reason.chars().take(MAX_REASON_CHARS).collect();
    }
    let per_side = if e.per_side { "/side" } else { "" };
    let rep_range = match next.basis {
        Basis::New if e.per_side => format!("{lower}{per_side}"),
        Basis::New => reps.to_string(),
        _ => format!("{}{per_side}", next.reps),
    };
    Prescription {
        load,
        load_cap: cap,
        reps: next.reps,
        rep_range,
        reason,
    }
}

/// `e` planned at `tier` with `sets` x `reps` at `rir`: the equipment key of the inventory, the
/// tier's rest, and the loads, reps and reason of its [`prescribe`]d prescription.
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
    let rx = prescribe(e, sets, reps, rir, pre);
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
            rep_range: rx.rep_range,
            rir,
            target_load: rx.load,
            load_cap: rx.load_cap,
        },
        notes: rx.reason,
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
/// instructions name (nothing named: the pre-analysis's split), with their tier, sets, reps, RIR
/// and candidates; at least one slot when
/// any exercise is allowed.
pub fn skeleton<'a>(
    request: &WorkoutRequest,
    pre: &PreAnalysis,
    catalog: &'a [WorkoutExercise],
) -> Vec<Slot<'a>> {
    skeleton_for(
        request,
        pre,
        catalog,
        &notes::read(&request.instructions, catalog),
    )
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
    // A lift the user named is that lift: the first allowed form of the words (the barbell lift
    // before its dumbbell form), the slot's only choice, so no model can swap it for another.
    let lead: Vec<&WorkoutExercise> = reading
        .focus
        .lead
        .iter()
        .filter_map(allowed)
        .take(1)
        .collect();
    let wanted: Vec<Vec<&WorkoutExercise>> = reading
        .wanted
        .iter()
        .map(|ids| ids.iter().filter_map(allowed).take(1).collect::<Vec<_>>())
        .filter(|g| !g.is_empty())
        .collect();
    // Nothing named: the pre-analysis's split (full body without the days per week).
    let split;
    let focus = if pre.split {
        split = Focus::from(pre.session.session_type);
        &split
    } else {
        &reading.focus
    };
    build(
        request,
        pre,
        catalog,
        &slot_specs_for(focus),
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
/// its slot's tier, sets, reps and RIR ([`planned`]), in the frame of the slots' session type
/// (the split's, with its reason as the plan's notes, when the split chose the slots and the
/// request gave the days per week).
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
    // The split and why, for the user, when the split chose the slots (no focus named) and the
    // request gave the days per week.
    let (session, why) = if pre.split && request.days_per_week.is_some() {
        (pre.session.session_type, pre.session.reason.clone())
    } else {
        (session_type_of(slots), String::new())
    };
    frame(request, pre, session, exercise_plan, why)
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

    /// A session of `id` `days` before 2025-08-17 at `weight` (request unit) with these reps.
    fn logged(
        id: &str,
        days: i64,
        weight: f64,
        reps: &[u32],
    ) -> crate::suggest::ExercisePerformance {
        use crate::suggest::{PerformedSet, SetType};
        crate::suggest::ExercisePerformance {
            id: format!("{id}-{days}"),
            session_id: format!("s-{days}"),
            catalog_id: id.into(),
            performed_at_ms: 1_755_432_000_000 - days * 86_400_000,
            sets: reps
                .iter()
                .enumerate()
                .map(|(i, r)| PerformedSet {
                    index: i as u32,
                    set_type: SetType::Regular,
                    weight,
                    reps: *r,
                    rest_seconds: None,
                    completed: true,
                })
                .collect(),
        }
    }

    fn bench() -> &'static WorkoutExercise {
        builtin().iter().find(|e| e.id == "bb-bench-press").unwrap()
    }

    #[test]
    fn prescriptions_follow_the_progression_state_under_todays_cap() {
        let mut r = request(GYM, 60, Goal::Hypertrophy);
        r.instructions.clear();
        let history = [
            logged("bb-bench-press", 4, 135.0, &[10, 10, 10]),
            logged("bb-bench-press", 2, 135.0, &[10, 10, 9]),
        ];
        let pre_with = |r: &WorkoutRequest, h: &[crate::suggest::ExercisePerformance]| {
            let date = preanalysis::validate_request(r).unwrap();
            preanalysis::analyze(r, date, builtin(), h)
        };
        // Rested: the top of the range twice adds 5 lb, within the cap (135 + 1.5 x 5).
        let pre = pre_with(&r, &history);
        assert_eq!(pre.facts("bb-bench-press").unwrap().load_cap, Some(142.5));
        let rx = prescribe(bench(), 3, "6-10", 2, &pre);
        assert_eq!(
            (rx.load, rx.load_cap, rx.reps, rx.rep_range.as_str()),
            (Some(140.0), Some(142.5), 6, "6")
        );
        assert_eq!(rx.reason, "top of the range twice: 140 lb, reps back to 6");
        let p = planned(
            bench(),
            PlanTier::A,
            3,
            "6-10",
            2,
            r.meta.goal,
            &pre,
            &pre.inventory,
        );
        assert_eq!(
            (
                p.targets.target_load,
                p.targets.rep_range.as_str(),
                p.notes.as_str()
            ),
            (Some(140.0), "6", rx.reason.as_str())
        );
        // Tired (shift 2, cap 87.5% of 135 = 118.13): never above the cap, and said so.
        let mut tired = r.clone();
        tired.recovery = Some(crate::workout::model::Recovery {
            sleep_score: Some(30),
            body_battery: Some(10),
        });
        let pre = pre_with(&tired, &history);
        let rx = prescribe(bench(), 3, "6-10", 2, &pre);
        assert_eq!((rx.load, rx.load_cap), (Some(115.0), Some(118.13)));
        assert_eq!(
            rx.reason,
            "top of the range twice: 140 lb, reps back to 6; tired today: 115 lb"
        );
        // Thin history (one session): at most the last load; reps up.
        let pre = pre_with(&r, &history[1..]);
        let rx = prescribe(bench(), 3, "6-10", 2, &pre);
        assert_eq!(
            (rx.load, rx.load_cap, rx.reps),
            (Some(135.0), Some(135.0), 10)
        );
        assert_eq!(
            rx.reason,
            "reps 10/10/9 at 135 lb last time: same load, aim for 10/10/10"
        );
        // No history: by feel, the goal's range; per side, its bottom.
        let rx = prescribe(bench(), 3, "6-10", 2, &pre_with(&r, &[]));
        assert_eq!(
            (rx.load, rx.load_cap, rx.rep_range.as_str()),
            (None, None, "6-10")
        );
        assert!(rx.reason.starts_with("new exercise"), "{}", rx.reason);
        let lunge = builtin()
            .iter()
            .find(|e| e.id == "db-walking-lunge")
            .unwrap();
        let rx = prescribe(lunge, 3, "8-12", 2, &pre_with(&r, &[]));
        assert_eq!(rx.rep_range, "8/side");
        let pre = pre_with(&r, &[logged("db-walking-lunge", 2, 30.0, &[9, 9, 8])]);
        let rx = prescribe(lunge, 3, "8-12", 2, &pre);
        assert_eq!((rx.load, rx.rep_range.as_str()), (Some(30.0), "9/side"));
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
                &[("bb-bench-press", "cable-kneeling-pulldown")][..],
                2,
                4,
            ),
            (
                30,
                Goal::Hypertrophy,
                Some(4),
                &[
                    ("bb-bench-press", "bb-bent-over-row"),
                    ("cable-kneeling-pulldown", "bb-overhead-press"),
                ][..],
                8,
                9,
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
