//! Today's plan from a skeleton (pure): the reading of the notes ([`super::notes`]) becomes a
//! workout request for the workout flow's pre-analysis (the user's history, anti-repeat,
//! equipment, and what the notes refuse or spare, read again from the notes as instructions),
//! and the workout flow's skeleton of slots for the notes' focus ([`skeleton`]); the model picks
//! one exercise per slot; this module writes the plan JSON in the selected schema version around
//! the picks, which the transformer then validates, expands and gives ids like any model output.
//!
//! Layout: a warm-up template (`warmup-mobility` on an easy day or when sparing a body part, else
//! `warmup-basic`), the main lifts (Tier A and B), the accessories (Tier C), a `core-finisher` on
//! a core day of 30 minutes or more, and a `cooldown-stretch` from 30 minutes. The minutes left
//! after the templates are the workout's time budget and are split between the two working
//! blocks by sets. Prescriptions are `sets x reps` (`each side` for one-sided exercises) and
//! `at <load> <unit>` when the workout flow's plan of the picks has a target load (in the
//! request's unit); the detail is the reps in reserve (one more on an easy day, one fewer on an
//! intense one, 0 to 4), then the workout flow's note on the exercise, if any. The working
//! exercises of the transformed plan are found again by their place ([`working_exercises`]).

use serde_json::{json, Value};

use super::notes::DayReading;
use super::{Energy, PlanExercise, SchemaVersion, TodayPlan, TodayPlanRequest};
use crate::kernel::units::WeightUnit;
use crate::workout::{
    skeleton_for, title, Goal, PlanTier, PreAnalysis, Slot, WorkoutExercise, WorkoutMeta,
    WorkoutRequest,
};

/// The predefined blocks around the working blocks, with their minutes.
#[derive(Debug, Clone, PartialEq)]
pub struct Layout {
    /// The warm-up template and its minutes.
    pub warmup: (&'static str, u32),
    /// The core finisher's minutes, if any.
    pub finisher: Option<u32>,
    /// The cool-down's minutes, if any.
    pub cooldown: Option<u32>,
    /// Minutes left for the working blocks (at least 7).
    pub work_minutes: u32,
}

/// The layout of a day (minutes as in `schemas/plan-expansion.rules.json`).
pub fn layout(r: &DayReading) -> Layout {
    let warmup = if r.energy == Energy::Easy || !r.said.spare.is_empty() {
        ("warmup-mobility", 8)
    } else {
        ("warmup-basic", 5)
    };
    let cooldown = (r.minutes >= 30).then_some(5);
    let finisher = (r.focus.is_core_day() && r.minutes >= 30).then_some(6);
    let used = warmup.1 + cooldown.unwrap_or(0) + finisher.unwrap_or(0);
    Layout {
        warmup,
        finisher,
        cooldown,
        work_minutes: r.minutes.saturating_sub(used).max(7),
    }
}

/// Minutes the workout flow's time budget keeps for its own warm-up and transitions (5 minutes
/// of overhead and a 3-set ramp); the plan's warm-up template takes their place.
const WORKOUT_WARMUP_MINUTES: u32 = 10;

/// The workout request whose pre-analysis and skeleton make today's plan: the request's date and
/// unit, the working minutes
/// plus the minutes the workout budget keeps for its warm-up (the plan's warm-up template is
/// that warm-up), the goal, the equipment the notes name, and the notes as instructions (the
/// pre-analysis reads the refusals and the parts to spare from them, as for any workout).
pub fn workout_request(r: &TodayPlanRequest, reading: &DayReading) -> WorkoutRequest {
    WorkoutRequest {
        meta: WorkoutMeta {
            date: r.date.clone(),
            location: "today".into(),
            units: r.weight_unit(),
            duration_minutes: (layout(reading).work_minutes + WORKOUT_WARMUP_MINUTES)
                .clamp(10, 180),
            goal: reading.goal,
        },
        instructions: r.notes.clone(),
        bans: Vec::new(),
        equipment: reading.equipment.iter().map(|k| k.to_string()).collect(),
        recent_cardio: Vec::new(),
        upcoming_cardio: String::new(),
        recovery: None,
        history_text: None,
        days_per_week: r.days_per_week,
    }
}

/// Today's skeleton: the workout flow's slots for the notes' focus, the exercise named as the
/// focus first, the exercises asked for placed ([`skeleton_for`]).
pub fn skeleton<'a>(
    request: &WorkoutRequest,
    reading: &DayReading,
    pre: &PreAnalysis,
    catalog: &'a [WorkoutExercise],
) -> Vec<Slot<'a>> {
    skeleton_for(request, pre, catalog, &reading.said)
}

/// One exercise of the plan: its slot (tier, sets, reps, reps in reserve before the day's
/// energy) and the exercise picked for it.
pub type PlannedItem<'s, 'a> = (&'s Slot<'a>, &'a WorkoutExercise);

/// An item with its target, as the plan JSON is written from them.
type Targeted<'i, 's, 'a, 't> = (&'i PlannedItem<'s, 'a>, &'t ItemTarget);

fn goal_word(g: Goal) -> &'static str {
    match g {
        Goal::Strength => "Strength",
        Goal::Hypertrophy => "Hypertrophy",
        Goal::Endurance => "Endurance",
        Goal::General => "Session",
    }
}

/// An equipment requirement as a person reads it (`pullup_bar` -> `Pullup Bar`).
fn equipment_name(requirement: &str) -> String {
    title(requirement.split('_'))
}

/// What the workout flow's plan of the picks says of one item beyond its slot: the target load
/// (in the request's unit; `None`: by feel) and its note on the exercise (may be empty).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ItemTarget {
    /// The load of each working set.
    pub load: Option<f64>,
    /// The workout flow's note, e.g. why this load.
    pub note: String,
}

/// A load as a person reads it: at most one decimal, none when whole (`60`, `62.5`).
pub fn load_text(load: f64) -> String {
    let tenths = (load * 10.0).round() / 10.0;
    if tenths.fract() == 0.0 {
        format!("{tenths:.0}")
    } else {
        format!("{tenths:.1}")
    }
}

/// (name, prescription, detail) of an item on a day of `energy` with its `target` in `units`.
fn exercise_fields(
    item: &PlannedItem<'_, '_>,
    target: &ItemTarget,
    units: WeightUnit,
    energy: Energy,
) -> (String, String, String) {
    let rir = match energy {
        Energy::Easy => item.0.rir + 1,
        Energy::Moderate => item.0.rir,
        Energy::Intense => item.0.rir.saturating_sub(1),
    }
    .min(4);
    let side = if item.1.per_side { " each side" } else { "" };
    let load = target
        .load
        .map(|l| format!(" at {} {}", load_text(l), units.symbol()))
        .unwrap_or_default();
    let mut detail = format!(
        "Stop with {rir} rep{} in reserve",
        if rir == 1 { "" } else { "s" }
    );
    let note = target.note.trim();
    if !note.is_empty() {
        let mut c = note.chars();
        let first: String = c
            .next()
            .map(|f| f.to_uppercase().collect())
            .unwrap_or_default();
        detail.push_str(&format!(". {first}{}", c.as_str()));
        if !note.ends_with('.') {
            detail.push('.');
        }
    }
    (
        item.1.name.clone(),
        format!("{} x {}{side}{load}", item.0.sets, item.0.reps),
        detail,
    )
}

/// The working exercises of `plan` (made by [`plan_json`] from `items` and transformed), each
/// with the index of its item: the block after the warm-up holds the main lifts, the next the
/// accessories, each in item order. Empty when the plan does not have that shape.
pub fn working_exercises<'p>(
    plan: &'p TodayPlan,
    items: &[PlannedItem<'_, '_>],
) -> Vec<(&'p PlanExercise, usize)> {
    let main: Vec<usize> = (0..items.len())
        .filter(|&i| items[i].0.tier != PlanTier::C)
        .collect();
    let acc: Vec<usize> = (0..items.len())
        .filter(|&i| items[i].0.tier == PlanTier::C)
        .collect();
    let mut out = Vec::new();
    let mut block = 1;
    for group in [main, acc] {
        if group.is_empty() {
            continue;
        }
        let Some(b) = plan.blocks.get(block) else {
            return Vec::new();
        };
        if b.exercises.len() != group.len() {
            return Vec::new();
        }
        out.extend(b.exercises.iter().zip(group));
        block += 1;
    }
    out
}

/// The plan JSON in `version`'s schema for `items` (in slot order) on the day `reading` describes,
/// with `targets` (one per item, in order; missing ones count as none) in `units`.
pub fn plan_json(
    version: SchemaVersion,
    reading: &DayReading,
    items: &[PlannedItem<'_, '_>],
    targets: &[ItemTarget],
    units: WeightUnit,
) -> Value {
    let lay = layout(reading);
    let none = ItemTarget::default();
    let tiered = |main: bool| -> Vec<Targeted> {
        items
            .iter()
            .enumerate()
            .filter(|(_, i)| (i.0.tier != PlanTier::C) == main)
            .map(|(n, i)| (i, targets.get(n).unwrap_or(&none)))
            .collect()
    };
    let (main, acc) = (tiered(true), tiered(false));
    let sets = |l: &[Targeted]| l.iter().map(|i| i.0 .0.sets).sum::<u32>();
    let work = lay.work_minutes;
    let acc_minutes = match (main.is_empty(), acc.is_empty()) {
        (_, true) => 0,
        (true, false) => work,
        (false, false) => {
            (work * sets(&acc) / (sets(&main) + sets(&acc)).max(1)).clamp(1, work - 1)
        }
    };
    let mut working: Vec<(Value, Vec<Targeted>)> = Vec::new();
    if !main.is_empty() {
        let focus = match reading.goal {
            Goal::General => "Strength",
            g => goal_word(g),
        };
        working.push((
            json!({"title": "Main Lifts", "durationMinutes": work - acc_minutes, "focus": focus}),
            main,
        ));
    }
    if !acc.is_empty() {
        working.push((
            json!({"title": "Accessories", "durationMinutes": acc_minutes, "focus": "Accessory"}),
            acc,
        ));
    }
    let mut blocks: Vec<(Value, Vec<Targeted>)> =
        vec![(json!({"blockTemplate": lay.warmup.0}), Vec::new())];
    blocks.extend(working);
    if lay.finisher.is_some() {
        blocks.push((json!({"blockTemplate": "core-finisher"}), Vec::new()));
    }
    if lay.cooldown.is_some() {
        blocks.push((json!({"blockTemplate": "cooldown-stretch"}), Vec::new()));
    }
    let mut equipment: Vec<String> = Vec::new();
    for i in items {
        for r in &i.1.requires {
            let name = equipment_name(r);
            if !equipment.contains(&name) {
                equipment.push(name);
            }
        }
    }
    let total_sets: u32 = items.iter().map(|i| i.0.sets).sum();
    let label = reading.focus.label();
    let mut summary = format!(
        "A {}-minute {} session: warm-up, {} exercise{} in {} working sets{}.",
        reading.minutes,
        label.to_lowercase(),
        items.len(),
        if items.len() == 1 { "" } else { "s" },
        total_sets,
        if lay.cooldown.is_some() {
            ", then a cool-down"
        } else {
            ""
        },
    );
    if !reading.said.spare.is_empty() {
        let parts: Vec<String> = reading
            .said
            .spare
            .iter()
            .map(|s| s.part.to_lowercase())
            .collect();
        summary.push_str(&format!(" Chosen to spare the {}.", parts.join(" and ")));
    }
    let mut plan = json!({
        "focus": format!("{label} {}", goal_word(reading.goal)),
        "durationMinutes": reading.minutes,
        "equipment": equipment,
        "source": "ai",
        "energy": reading.energy,
        "summary": summary,
    });
    let exercise = |(item, target): &Targeted| {
        let (name, prescription, detail) = exercise_fields(item, target, units, reading.energy);
        json!({"name": name, "prescription": prescription, "detail": detail})
    };
    match version {
        SchemaVersion::V1Current => {
            plan["blocks"] = blocks
                .into_iter()
                .map(|(mut b, list)| {
                    if b.get("blockTemplate").is_none() {
                        b["exercises"] = list.iter().map(&exercise).collect();
                    }
                    b
                })
                .collect();
        }
        SchemaVersion::V2Flat => {
            let mut exercises = Vec::new();
            for (index, (_, list)) in blocks.iter().enumerate() {
                for (order, i) in list.iter().enumerate() {
                    let mut e = exercise(i);
                    e["blockIndex"] = json!(index);
                    e["order"] = json!(order);
                    exercises.push(e);
                }
            }
            plan["blocks"] = blocks.into_iter().map(|(b, _)| b).collect();
            plan["exercises"] = Value::Array(exercises);
        }
    }
    plan
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::ids::IdGenerator;
    use crate::plan::notes::read;
    use crate::plan::{transform, Ruleset};
    use crate::workout::{analyze, builtin, capabilities_of, validate_request};

    fn request(notes: &str) -> TodayPlanRequest {
        TodayPlanRequest {
            date: "2025-08-18".into(),
            notes: notes.into(),
            schema_version: None,
            timezone: None,
            seed: Some(1),
            units: None,
            days_per_week: None,
        }
    }

    /// The plan of `notes` with each slot's `pick`-th candidate (or its last), in `version`.
    fn plan_of(
        notes: &str,
        version: SchemaVersion,
        pick: usize,
    ) -> (crate::plan::TodayPlan, Vec<String>) {
        let (reading, slots) = read_and_plan(notes);
        assert!(!slots.is_empty(), "{notes}");
        let items: Vec<PlannedItem> = slots
            .iter()
            .map(|s| (s, s.candidates[pick.min(s.candidates.len() - 1)]))
            .collect();
        let ids = items.iter().map(|i| i.1.id.clone()).collect();
        let text = plan_json(version, &reading, &items, &[], WeightUnit::Lbs).to_string();
        let plan = transform(
            &text,
            version,
            Ruleset::embedded(),
            &mut IdGenerator::new(Some(1)),
        )
        .unwrap_or_else(|e| panic!("{notes} {version:?}: {e}\n{text}"));
        (plan, ids)
    }

    #[test]
    fn every_composed_plan_is_valid_in_both_versions_and_adds_up() {
        for notes in [
            "45 minutes, upper body, dumbbells only, easy on the knees",
            "an hour of heavy legs at the gym",
            "20 minutes bodyweight, tired",
            "push day, build muscle",
            "pull, 50 minutes",
            "abs and core, 40 min",
            "15 minutes",
            "kettlebell only, conditioning",
            "chest and tris, 40 min",
            "bench day, bad knee",
            "glute day, home with dumbbells and a bench",
            "",
        ] {
            let reading = read(notes, builtin());
            let mut plans = Vec::new();
            for version in SchemaVersion::ALL {
                for pick in [0, 3] {
                    let (plan, ids) = plan_of(notes, version, pick);
                    assert_eq!(plan.duration_minutes, reading.minutes, "{notes}");
                    let sum: u32 = plan.blocks.iter().map(|b| b.duration_minutes).sum();
                    assert_eq!(sum, reading.minutes, "{notes}: blocks add up");
                    assert!(plan.blocks[0].title.contains("Warm-up"), "{notes}");
                    let named: Vec<&str> = plan
                        .blocks
                        .iter()
                        .flat_map(|b| b.exercises.iter().map(|e| e.name.as_str()))
                        .collect();
                    for id in &ids {
                        let e = builtin().iter().find(|e| &e.id == id).unwrap();
                        assert!(named.contains(&e.name.as_str()), "{notes}: {}", e.name);
                        for r in &e.requires {
                            assert!(
                                reading
                                    .equipment
                                    .iter()
                                    .any(|k| capabilities_of(k).contains(&r.as_str())),
                                "{notes}: {id} needs {r}"
                            );
                        }
                        for s in &reading.said.spare {
                            assert!(!s.leaves_out(e), "{notes}: {id} spared");
                        }
                    }
                    if pick == 0 {
                        plans.push(plan.without_ids());
                    }
                }
            }
            assert_eq!(
                plans[0], plans[1],
                "{notes}: the same plan in v1 and v2-flat"
            );
        }
    }

    /// The slots of `notes` over the built-in catalog with no history.
    fn slots_of(notes: &str) -> Vec<Slot<'static>> {
        read_and_plan(notes).1
    }

    /// The reading of `notes` and today's skeleton for it (no history).
    fn read_and_plan(notes: &str) -> (DayReading, Vec<Slot<'static>>) {
        let reading = read(notes, builtin());
        let w = workout_request(&request(notes), &reading);
        let pre = analyze(&w, validate_request(&w).unwrap(), builtin(), &[]);
        let slots = skeleton(&w, &reading, &pre, builtin());
        (reading, slots)
    }

    #[test]
    fn what_the_notes_refuse_or_spare_is_never_offered() {
        for (notes, never) in [
            (
                "full body, skip walking lunges",
                &["db-walking-lunge", "walking-lunge"][..],
            ),
            (
                "legs but no squats or lunges",
                &["bb-back-squat", "db-goblet-squat", "bb-reverse-lunge"],
            ),
            (
                "Leg day but go easy on the lower back",
                &["bb-deadlift", "bb-back-squat", "bb-romanian-deadlift"],
            ),
            (
                "pull day w/o barbell",
                &["bb-bent-over-row", "inverted-row", "bb-deadlift"],
            ),
        ] {
            for s in slots_of(notes) {
                for c in &s.candidates {
                    assert!(
                        !never.contains(&c.id.as_str()),
                        "{notes}: {} in {}",
                        c.id,
                        s.key
                    );
                }
            }
        }
    }

    #[test]
    fn a_wanted_exercise_becomes_its_slots_only_choice() {
        let slots = slots_of("upper body, 45 minutes, I love pull-ups");
        let with: Vec<&Slot> = slots
            .iter()
            .filter(|s| s.candidates.iter().any(|c| c.id == "pull-up"))
            .collect();
        assert_eq!(with.len(), 1);
        assert_eq!(with[0].candidates.len(), 1, "{:?}", with[0]);
        // Not offered by the skeleton at all: the first slot of its pattern takes it.
        let legs = slots_of("full body, bodyweight squats please");
        assert_eq!(legs[0].candidates[0].id, "bodyweight-squat", "{legs:?}");
        // No slot of its pattern: a slot of its own.
        let big_three = slots_of("strength focus: squat, bench, deadlift. 75 min");
        let firsts: Vec<&str> = big_three
            .iter()
            .map(|s| s.candidates[0].id.as_str())
            .collect();
        assert_eq!(firsts[0], "bb-back-squat", "{firsts:?}");
        assert!(
            firsts.contains(&"bb-bench-press") && firsts.contains(&"bb-deadlift"),
            "{firsts:?}"
        );
    }

    #[test]
    fn the_focus_shapes_the_slots() {
        let main_muscles = |notes: &str| -> Vec<String> {
            slots_of(notes)
                .iter()
                .map(|s| s.candidates[0].muscles[0].clone())
                .collect()
        };
        let chest_tris = main_muscles("chest and tris");
        assert!(
            chest_tris.iter().all(|m| m == "chest" || m == "triceps"),
            "{chest_tris:?}"
        );
        assert!(chest_tris.contains(&"triceps".into()));
        let back = slots_of("back day");
        assert!(back
            .iter()
            .all(|s| ["pull_v", "pull_h", "back", "arms"]
                .contains(&s.candidates[0].pattern.as_str())));
        let bench = slots_of("bench day");
        assert_eq!(
            (bench[0].key.as_str(), bench[0].candidates[0].id.as_str()),
            ("A1", "bb-bench-press")
        );
        assert_eq!(
            bench.iter().filter(|s| s.tier == PlanTier::A).count(),
            1,
            "the lead replaces the main press"
        );
    }

    #[test]
    fn the_plan_reads_as_the_notes_asked() {
        let (p, _) = plan_of(
            "45 minutes, upper body, dumbbells only, easy on the knees",
            SchemaVersion::V2Flat,
            0,
        );
        assert_eq!(p.focus, "Upper Body Session");
        assert_eq!(p.energy, Energy::Moderate);
        assert!(
            p.equipment.iter().all(|e| e == "Dumbbells" || e == "Bench"),
            "{:?}",
            p.equipment
        );
        let titles: Vec<&str> = p.blocks.iter().map(|b| b.title.as_str()).collect();
        assert_eq!(
            titles,
            ["Mobility Warm-up", "Main Lifts", "Accessories", "Cool-down"]
        );
        assert!(
            p.summary.contains("45-minute upper body") && p.summary.contains("spare the knees"),
            "{}",
            p.summary
        );
        let first = &p.blocks[1].exercises[0];
        assert!(first.prescription.starts_with("3 x 5-8"), "{first:?}");
        assert_eq!(first.detail.as_deref(), Some("Stop with 2 reps in reserve"));

        let (p, _) = plan_of("20 minutes bodyweight, tired", SchemaVersion::V1Current, 0);
        assert_eq!((p.energy, p.duration_minutes), (Energy::Easy, 20));
        assert!(p.equipment.is_empty(), "{:?}", p.equipment);
        assert!(
            p.blocks.iter().all(|b| b.title != "Cool-down"),
            "no cool-down under 30 minutes"
        );
        assert!(p.blocks[1]
            .exercises
            .iter()
            .all(|e| e.detail.as_deref() == Some("Stop with 3 reps in reserve")));

        let (p, _) = plan_of("abs and core, 40 min", SchemaVersion::V2Flat, 0);
        assert!(p.blocks.iter().any(|b| b.title == "Core Finisher"));
        assert_eq!(p.focus, "Core and Full Body Session");
        let (p, _) = plan_of("chest and tris", SchemaVersion::V2Flat, 0);
        assert_eq!(p.focus, "Chest and Triceps Session");
        let (p, _) = plan_of("bench day", SchemaVersion::V2Flat, 0);
        assert_eq!(p.focus, "Bench Press Session");
        let (p, _) = plan_of("an hour of heavy legs at the gym", SchemaVersion::V2Flat, 0);
        assert_eq!(p.focus, "Lower Body Strength");
        assert!(
            p.blocks[1].exercises[0].prescription.ends_with(" x 3-5"),
            "{:?}",
            p.blocks[1]
        );
    }

    #[test]
    fn loads_and_notes_reach_the_plan_and_its_working_exercises_are_found_again() {
        assert_eq!(
            [
                load_text(60.0),
                load_text(62.5),
                load_text(61.234),
                load_text(0.04)
            ],
            ["60", "62.5", "61.2", "0"]
        );
        for notes in [
            "45 minutes, upper body",
            "abs and core, 40 min",
            "20 minutes bodyweight, tired",
            "legs",
            "15 minutes",
        ] {
            let (reading, slots) = read_and_plan(notes);
            let items: Vec<PlannedItem> = slots.iter().map(|s| (s, s.candidates[0])).collect();
            let targets: Vec<ItemTarget> = (0..items.len())
                .map(|i| ItemTarget {
                    load: (i % 2 == 0).then_some(20.0 + 2.5 * i as f64),
                    note: if i == 0 {
                        "top of the range twice".into()
                    } else {
                        String::new()
                    },
                })
                .collect();
            for version in SchemaVersion::ALL {
                let text = plan_json(version, &reading, &items, &targets, WeightUnit::Kg);
                let plan = transform(
                    &text.to_string(),
                    version,
                    Ruleset::embedded(),
                    &mut IdGenerator::new(Some(1)),
                )
                .unwrap();
                let found = working_exercises(&plan, &items);
                assert_eq!(found.len(), items.len(), "{notes}");
                let mut seen: Vec<usize> = found.iter().map(|(_, i)| *i).collect();
                seen.sort();
                assert_eq!(seen, (0..items.len()).collect::<Vec<_>>(), "{notes}");
                for (e, i) in found {
                    assert_eq!(e.name, items[i].1.name, "{notes}");
                    match targets[i].load {
                        Some(l) => assert!(
                            e.prescription
                                .ends_with(&format!(" at {} kg", load_text(l))),
                            "{notes}: {}",
                            e.prescription
                        ),
                        None => assert!(!e.prescription.contains(" at "), "{notes}"),
                    }
                    let detail = e.detail.as_deref().unwrap_or("");
                    assert_eq!(
                        detail.ends_with(". Top of the range twice."),
                        i == 0,
                        "{notes}: {detail}"
                    );
                }
            }
            // Another plan's blocks do not pass for this one's.
            let (other, _) = plan_of("push day", SchemaVersion::V2Flat, 0);
            if other.blocks[1].exercises.len()
                != items.iter().filter(|i| i.0.tier != PlanTier::C).count()
            {
                assert!(working_exercises(&other, &items).is_empty(), "{notes}");
            }
        }
    }
}
