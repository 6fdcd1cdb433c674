//! The deterministic generator (pure): an analyzer plan rendered into the Workout v1.2 document,
//! with no model. It is the fallback of the model path and the reference in tests.
//!
//! - One node per set; `order` from 1.
//! - Warm-up ramp for the first Tier A compound: `tiers.warmup_policy.ramp_sets` sets (at least the
//!   exercise's `warmups`) at 40/60/80 % (3 sets; 1: 60 %; 2: 50/75 %; 4: 40/55/70/85 %) of the
//!   working load for 8/5/3 reps (4 sets: 8/5/3/2), each rounded to a loadable weight with the
//!   suggestion engine's plate math, duplicates and loads not below the working load dropped;
//!   without a working load one set on the empty bar (barbell) or by feel. RIR 4, 60 s rest.
//! - Fatigue policy: working RIR = targets.rir + rir_shift (at most 4); working load = the target
//!   load capped at `load_cap`, rounded to a loadable weight not above the cap.
//! - Supersets: the exercises of one `superset` label are done in rounds at the place of the
//!   first (warm-ups first): one set of each in plan order, each set followed by its partner's at
//!   once (`rest_s` 0), the last of a round with its own rest (the pair's shared rest). An
//!   exercise with more sets than its partner does the rest alone. Unlabelled exercises one
//!   after the other, as planned.
//! - Time-boxing: sets are walked in order with their time (`timebox.rs`); a set that ends past
//!   the budget moves down a tier (A to B, B to C) and loses `must`; `cut_order` lists the tiers
//!   to drop, C then B, those the document has sets of (`["C", "B"]`, as the original app writes
//!   it).

use super::catalog::{rounding_equipment, Inventory, LoadKind, WorkoutExercise};
use super::ids;
use super::model::{
    AnalyzerPlan, PlanTier, PlannedExercise, PostWorkout, SetTier, TargetReps, WeightUnit, Workout,
    WorkoutSet, WORKOUT_VERSION,
};
use super::timebox;
use crate::suggest::{round_at_most, round_to_achievable};

/// The ramp: (fraction of the working load, reps) for `n` warm-up sets.
pub fn ramp(n: u32) -> &'static [(f64, u32)] {
    match n {
        0 => &[],
        1 => &[(0.6, 5)],
        2 => &[(0.5, 8), (0.75, 4)],
        3 => &[(0.4, 8), (0.6, 5), (0.8, 3)],
        _ => &[(0.4, 8), (0.55, 5), (0.7, 3), (0.85, 2)],
    }
}

/// `rep_range` as the document's target reps: `5` an integer, `8-12` and `20/side` strings.
pub fn target_reps(rep_range: &str) -> TargetReps {
    match rep_range.parse::<u32>() {
        Ok(value) => TargetReps::Count { value },
        Err(_) => TargetReps::Text {
            value: rep_range.to_string(),
        },
    }
}

/// The loadable weight nearest `weight` that is not above `cap` (when given); `None` when even
/// the lightest loadable weight (the empty bar of a barbell) is above the cap.
pub fn loadable_at_most(
    weight: f64,
    cap: Option<f64>,
    kind: LoadKind,
    inv: &Inventory,
    unit: WeightUnit,
) -> Option<f64> {
    let load = inv.load_config(kind, unit);
    round_at_most(weight, cap, rounding_equipment(kind), &load, unit)
}

/// The loadable weight nearest `weight` (no cap).
fn loadable(weight: f64, kind: LoadKind, inv: &Inventory, unit: WeightUnit) -> f64 {
    let load = inv.load_config(kind, unit);
    round_to_achievable(weight, rounding_equipment(kind), &load, unit)
}

/// Whether `weight` is a loadable weight of `kind` (what the plate math would round it to).
pub fn is_loadable(weight: f64, kind: LoadKind, inv: &Inventory, unit: WeightUnit) -> bool {
    (loadable(weight, kind, inv, unit) - weight).abs() < 1e-6
}

/// The note of an exercise whose load cap is below the lightest loadable weight.
pub const BELOW_BAR_NOTE: &str =
    "load cap below the lightest loadable weight: use a lighter implement";

/// The working load of a planned exercise (`None`: body weight, bands, or chosen by feel).
pub fn working_load(
    p: &PlannedExercise,
    def: Option<&WorkoutExercise>,
    inv: &Inventory,
    unit: WeightUnit,
) -> Option<f64> {
    let kind = def.map_or(LoadKind::Other, |d| d.load);
    if matches!(kind, LoadKind::Bodyweight | LoadKind::Other) {
        return None;
    }
    let target = p.targets.target_load?;
    loadable_at_most(target, p.targets.load_cap, kind, inv, unit)
}

/// Whether the plan gives `p` a load that nothing loadable fits under its cap.
fn below_lightest(
    p: &PlannedExercise,
    def: &WorkoutExercise,
    inv: &Inventory,
    unit: WeightUnit,
) -> bool {
    !matches!(def.load, LoadKind::Bodyweight | LoadKind::Other)
        && p.targets.target_load.is_some()
        && working_load(p, Some(def), inv, unit).is_none()
}

/// Index of the exercise that gets the warm-up ramp: the first Tier A compound.
pub fn ramp_exercise(plan: &AnalyzerPlan, catalog: &[WorkoutExercise]) -> Option<usize> {
    plan.exercise_plan.iter().position(|p| {
        p.tier == PlanTier::A && find(catalog, &p.exercise).is_some_and(|d| d.compound)
    })
}

/// The catalog entry of `id`.
pub fn find<'a>(catalog: &'a [WorkoutExercise], id: &str) -> Option<&'a WorkoutExercise> {
    catalog.iter().find(|e| e.id == id)
}

/// A set before time-boxing.
#[allow(clippy::too_many_arguments)]
fn node(
    id: String,
    tier: SetTier,
    p: &PlannedExercise,
    reps: TargetReps,
    weight: Option<f64>,
    rir: u32,
    rest_s: u32,
    notes: String,
) -> WorkoutSet {
    WorkoutSet {
        id,
        tier,
        must: matches!(tier, SetTier::W | SetTier::A),
        superset: p.superset.clone(),
        order: 0,
        exercise: p.exercise.clone(),
        equipment: p.equipment.clone(),
        target_reps: reps,
        target_weight: weight,
        rir,
        rest_s,
        actual_weight: None,
        actual_reps: None,
        notes,
    }
}

/// The warm-up sets of `p` with working load `work`.
fn warmups(
    p: &PlannedExercise,
    def: &WorkoutExercise,
    n: u32,
    work: Option<f64>,
    inv: &Inventory,
    unit: WeightUnit,
) -> Vec<WorkoutSet> {
    let slug = def.slug();
    let mut out: Vec<WorkoutSet> = Vec::new();
    let mut push = |weight: Option<f64>, reps: u32, note: String| {
        let id = ids::set_id(SetTier::W, &slug, out.len() as u32 + 1);
        out.push(node(
            id,
            SetTier::W,
            p,
            TargetReps::Count { value: reps },
            weight,
            4,
            timebox::WARMUP_REST_S,
            note,
        ));
    };
    match work {
        Some(w) if n > 0 => {
            let mut last = None;
            for (pct, reps) in ramp(n) {
                let x = loadable(w * pct, def.load, inv, unit);
                if x >= w || last == Some(x) {
                    continue;
                }
                last = Some(x);
                push(Some(x), *reps, format!("warm-up {:.0}%", pct * 100.0));
            }
        }
        None if n > 0 => {
            let bar = (def.load == LoadKind::Barbell)
                .then(|| loadable(0.0, def.load, inv, unit))
                .filter(|b| p.targets.load_cap.is_none_or(|c| *b <= c + 1e-9));
            push(bar, 8, "warm-up: light".into());
        }
        _ => {}
    }
    out
}

/// The warm-up sets the renderer writes for `plan` (the ramp of its first Tier A compound; none
/// without one).
pub fn planned_warmups(
    plan: &AnalyzerPlan,
    catalog: &[WorkoutExercise],
    inv: &Inventory,
) -> Vec<WorkoutSet> {
    let unit = plan.meta.units;
    let Some(p) = ramp_exercise(plan, catalog).map(|i| &plan.exercise_plan[i]) else {
        return Vec::new();
    };
    let Some(def) = find(catalog, &p.exercise) else {
        return Vec::new();
    };
    let n = plan.tiers.warmup_policy.ramp_sets.max(p.warmups);
    warmups(p, def, n, working_load(p, Some(def), inv, unit), inv, unit)
}

/// The exercises of `plan` in the order they are done, grouped: one group per superset label
/// (its exercises in plan order, at the place of the first) and one per exercise without a
/// label.
pub fn superset_groups(plan: &AnalyzerPlan) -> Vec<Vec<usize>> {
    let mut groups: Vec<(Option<&str>, Vec<usize>)> = Vec::new();
    for (i, p) in plan.exercise_plan.iter().enumerate() {
        let label = p.superset.as_deref();
        match groups.iter_mut().find(|g| label.is_some() && g.0 == label) {
            Some(g) => g.1.push(i),
            None => groups.push((label, vec![i])),
        }
    }
    groups.into_iter().map(|g| g.1).collect()
}

/// Renders `plan` into the Workout v1.2 document; `seq` is the workout's number on its date and
/// location (the id's `NN`). Exercises missing from `catalog` render as body-weight accessories.
pub fn render(
    plan: &AnalyzerPlan,
    catalog: &[WorkoutExercise],
    inv: &Inventory,
    seq: u32,
) -> Workout {
    let unit = plan.meta.units;
    let shift = plan.fatigue_policy.rir_shift;
    let ramp_at = ramp_exercise(plan, catalog);
    // Per exercise: its warm-up and working sets, and whether its reps are per side.
    let mut blocks: Vec<(Vec<WorkoutSet>, Vec<WorkoutSet>, bool)> = Vec::new();
    for (i, p) in plan.exercise_plan.iter().enumerate() {
        let fallback;
        let def = match find(catalog, &p.exercise) {
            Some(d) => d,
            None => {
                fallback = WorkoutExercise {
                    id: p.exercise.clone(),
                    name: p.exercise.clone(),
                    requires: vec![],
                    muscles: vec![],
                    compound: false,
                    load: LoadKind::Other,
                    pattern: String::new(),
                    per_side: false,
                };
                &fallback
            }
        };
        let work = working_load(p, Some(def), inv, unit);
        let warm = if ramp_at == Some(i) {
            let n = plan.tiers.warmup_policy.ramp_sets.max(p.warmups);
            warmups(p, def, n, work, inv, unit)
        } else {
            Vec::new()
        };
        let rir = (p.targets.rir + shift).min(4);
        let per_side = def.per_side || p.targets.rep_range.ends_with("/side");
        let tier = SetTier::from(p.tier);
        let working = (1..=p.working_sets)
            .map(|n| {
                node(
                    ids::set_id(tier, &def.slug(), n),
                    tier,
                    p,
                    target_reps(&p.targets.rep_range),
                    work,
                    rir,
                    p.rest_s,
                    if below_lightest(p, def, inv, unit) {
                        BELOW_BAR_NOTE.to_string()
                    } else {
                        p.notes.clone()
                    },
                )
            })
            .collect();
        blocks.push((warm, working, per_side));
    }
    // Supersets: the exercises of one label, in rounds at the first one's place.
    let mut sets: Vec<(WorkoutSet, u32)> = Vec::new();
    let mut started: Vec<bool> = vec![false; blocks.len()];
    for group in superset_groups(plan) {
        for &i in &group {
            for w in std::mem::take(&mut blocks[i].0) {
                sets.push((w, i as u32));
            }
        }
        let rounds = group.iter().map(|&i| blocks[i].1.len()).max().unwrap_or(0);
        for r in 0..rounds {
            let members: Vec<usize> = group
                .iter()
                .copied()
                .filter(|&i| r < blocks[i].1.len())
                .collect();
            for (k, &i) in members.iter().enumerate() {
                let mut set = blocks[i].1[r].clone();
                if k + 1 < members.len() {
                    // The partner's set follows at once: the round shares the last set's rest.
                    set.rest_s = 0;
                }
                sets.push((set, i as u32));
            }
        }
    }
    // (set, seconds it takes: its work and rest, and the set-up before its exercise's first set)
    let mut sets: Vec<(WorkoutSet, u32)> = sets
        .into_iter()
        .map(|(s, i)| {
            let i = i as usize;
            let first = !std::mem::replace(&mut started[i], true);
            let per_side = blocks[i].2 && s.tier != SetTier::W;
            let secs = timebox::set_seconds(s.rest_s, per_side)
                + if first { timebox::EXERCISE_SETUP_S } else { 0 };
            (s, secs)
        })
        .collect();
    // Time-boxing.
    let budget = timebox::available_seconds(plan.meta.duration_minutes);
    let mut elapsed = 0;
    for (s, secs) in sets.iter_mut() {
        elapsed += *secs;
        if elapsed > budget {
            let demoted = match s.tier {
                SetTier::A => SetTier::B,
                SetTier::B | SetTier::C => SetTier::C,
                SetTier::W => SetTier::W,
            };
            if demoted != s.tier {
                let (_, slug, n) = ids::parse_set_id(&s.id).unwrap_or((s.tier, "", 1));
                s.id = ids::set_id(demoted, slug, n);
                s.tier = demoted;
                s.must = false;
            }
        }
    }
    let mut out: Vec<WorkoutSet> = sets.into_iter().map(|(s, _)| s).collect();
    for (i, s) in out.iter_mut().enumerate() {
        s.order = i as u32 + 1;
    }
    let cut_order: Vec<String> = [SetTier::C, SetTier::B]
        .into_iter()
        .filter(|t| out.iter().any(|s| s.tier == *t))
        .map(|t| t.letter().to_string())
        .collect();
    let mut notes = Vec::new();
    if shift > 0 {
        notes.push(format!(
            "Fatigue: +{shift} RIR on working sets; loads capped at {:.0}% of last.",
            plan.fatigue_policy.load_cap_pct * 100.0
        ));
    }
    if !plan.notes.trim().is_empty() {
        notes.push(plan.notes.trim().to_string());
    }
    let mut notes_to_user = notes.join(" ");
    if notes_to_user.len() > 1000 {
        let mut cut = 1000;
        while !notes_to_user.is_char_boundary(cut) {
            cut -= 1;
        }
        notes_to_user.truncate(cut);
    }
    Workout {
        version: WORKOUT_VERSION,
        workout_id: ids::workout_id(&plan.meta.date, &plan.meta.location, seq),
        date: plan.meta.date.clone(),
        location: plan.meta.location.clone(),
        units: unit,
        duration_minutes: plan.meta.duration_minutes,
        goal: plan.meta.goal,
        cut_order,
        notes_to_user: (!notes_to_user.is_empty()).then_some(notes_to_user),
        sets: out,
        post_workout: PostWorkout::default(),
    }
}
