//! `workouts().todayPlan` (spec 000, the provider side) with the scripted model: the notes read by
//! code, the skeleton's slots as the grammar (one enum of allowed exercises per slot), the plan
//! written by code around the model's picks in the selected schema version and transformed,
//! repairs with the validator's line, the deterministic plan (each slot's first choice) without a
//! model or after three invalid answers, loads from the user's history in kg and lbs, the user's
//! history shaping the choices, the generation metadata, and the saved plans: read again, listed,
//! marked done and logged as training.

use std::sync::Arc;

use coachcore::db::Store;
use coachcore::kernel::clock::FixedClock;
use coachcore::kernel::units::WeightUnit;
use coachcore::llm::scripted::{ScriptedModel, ScriptedReply};
use coachcore::llm::{CancelToken, LlmError};
use coachcore::workout::service::{WorkoutSettings, WorkoutSink};
use coachcore::workout::LoadKind;
use coachcore::workout::{SetActual, WorkoutEvent, WorkoutLog, WorkoutRequest};
use coachcore::{
    Coach, CoachError, Energy, OutputErrorCode, PlanExercise, PlanFallbackReason, PlanSource,
    SavedTodayPlan, SchemaVersion, TodayExerciseDone, TodayPlan, TodayPlanRequest, TodayPlanTarget,
    TodaySetDone,
};
use serde_json::Value;

/// 2025-08-17T12:00:00Z.
const NOW_MS: i64 = 1_755_432_000_000;
const DAY_MS: i64 = 86_400_000;

/// An answer for "30 minutes, upper body" (a full gym, no history): one candidate per slot.
const UPPER: &str = r#"{"A1": "db-bench-press", "A2": "machine-lat-pulldown", "B1": "db-shoulder-press", "B2": "pull-up", "C1": "db-curl", "C2": "db-lateral-raise"}"#;

fn coach() -> Coach {
    Coach::with_store(
        Store::open_in_memory().unwrap(),
        Arc::new(FixedClock::new(NOW_MS)),
    )
}

fn request(notes: &str, version: Option<SchemaVersion>) -> TodayPlanRequest {
    TodayPlanRequest {
        date: "2025-08-18".into(),
        notes: notes.into(),
        schema_version: version,
        timezone: Some("Europe/Berlin".into()),
        seed: Some(7),
        units: None,
        days_per_week: None,
    }
}

/// The slot enums of a request's grammar: (slot, candidate ids).
fn slots(schema: &str) -> Vec<(String, Vec<String>)> {
    let v: Value = serde_json::from_str(schema).unwrap();
    let order: Vec<String> = serde_json::from_value(v["required"].clone()).unwrap();
    order
        .into_iter()
        .map(|k| {
            let ids = serde_json::from_value(v["properties"][&k]["enum"].clone()).unwrap();
            (k, ids)
        })
        .collect()
}

#[test]
fn the_models_picks_become_the_plan_code_writes_and_it_is_recorded() {
    let c = coach();
    let model = ScriptedModel::texts([UPPER]);
    c.model().set(Some(model.clone())).unwrap();
    let t = c
        .workouts()
        .today_plan(request("30 minutes, upper body", None))
        .unwrap();
    assert_eq!(
        t.schema_version,
        coachcore::select_plan_schema(vec![], None).schema_version,
        "no preference: the smallest"
    );
    let p = &t.plan;
    assert_eq!(
        (p.focus.as_str(), p.duration_minutes, p.energy),
        ("Upper Body Session", 30, Energy::Moderate)
    );
    let titles: Vec<&str> = p.blocks.iter().map(|b| b.title.as_str()).collect();
    assert_eq!(
        titles,
        ["Warm-up", "Main Lifts", "Accessories", "Cool-down"]
    );
    assert_eq!(p.blocks.iter().map(|b| b.duration_minutes).sum::<u32>(), 30);
    let main: Vec<(&str, &str)> = p.blocks[1]
        .exercises
        .iter()
        .map(|e| (e.name.as_str(), e.prescription.as_str()))
        .collect();
    assert_eq!(main.len(), 4, "Tier A and B");
    assert_eq!(p.blocks[2].exercises[0].name, "Dumbbell Curl");
    assert_eq!(main[0].0, "Dumbbell Bench Press");
    assert!(main.iter().any(|(n, _)| *n == "Pull-Up"), "{main:?}");
    assert!(main[0].1.ends_with(" x 5-8"), "{main:?}");
    assert_eq!(
        p.equipment[..2],
        ["Dumbbells".to_string(), "Bench".to_string()]
    );
    // The grammar: one enum per slot, the picks among them; the user turn holds the day, the
    // time zone, the notes and the slots.
    let reqs = model.requests();
    assert_eq!(reqs.len(), 1);
    let s = slots(reqs[0].json_schema.as_deref().unwrap());
    let keys: Vec<&str> = s.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(keys, ["A1", "A2", "B1", "B2", "C1", "C2"]);
    assert!(s.iter().all(|(_, ids)| (1..=4).contains(&ids.len())));
    assert!(s[0].1.contains(&"db-bench-press".to_string()));
    let user = &reqs[0].messages[1].content;
    assert!(
        user.starts_with("Date: 2025-08-18 (Monday)\nTime zone: Europe/Berlin\n"),
        "{user}"
    );
    assert!(
        user.contains("30 minutes, upper body") && user.contains("A1: Tier A, main press"),
        "{user}"
    );
    assert!(reqs[0].max_tokens <= 256);
    // Recorded as a generation.
    let rows = c.workouts().plan_generations(5).unwrap();
    assert_eq!(rows.len(), 1);
    assert_eq!(Some(rows[0].id), t.generation_id);
    assert_eq!(rows[0].feature, "plan.generate");
    assert!(rows[0].succeeded);
    // The other schema version makes the same plan.
    let c2 = coach();
    c2.model().set(Some(ScriptedModel::texts([UPPER]))).unwrap();
    let other = if t.schema_version == SchemaVersion::V1Current {
        SchemaVersion::V2Flat
    } else {
        SchemaVersion::V1Current
    };
    let t2 = c2
        .workouts()
        .today_plan(request("30 minutes, upper body", Some(other)))
        .unwrap();
    assert_eq!(t2.schema_version, other);
    assert_eq!(t2.plan.without_ids(), t.plan.without_ids());
}

#[test]
fn a_pick_outside_its_slot_is_repaired_with_the_slots_choices() {
    let c = coach();
    let wrong = UPPER.replace("db-bench-press", "bb-deadlift");
    let model = ScriptedModel::texts([wrong.as_str(), UPPER]);
    c.model().set(Some(model.clone())).unwrap();
    let t = c
        .workouts()
        .today_plan(request(
            "30 minutes, upper body",
            Some(SchemaVersion::V1Current),
        ))
        .unwrap();
    assert_eq!(t.schema_version, SchemaVersion::V1Current);
    assert_eq!(t.plan.blocks[1].exercises[0].name, "Dumbbell Bench Press");
    let reqs = model.requests();
    assert_eq!(reqs.len(), 2, "one repair");
    let repair = &reqs[1].messages.last().unwrap().content;
    assert!(repair.contains("A1"), "{repair}");
}

#[test]
fn three_invalid_answers_give_the_deterministic_plan_and_the_failure_is_recorded() {
    let c = coach();
    c.model()
        .set(Some(ScriptedModel::texts([
            "no json",
            "{\"focus\": 1}",
            "{\"A1\": \"bb-deadlift\"}",
        ])))
        .unwrap();
    let t = c
        .workouts()
        .today_plan(request("legs", Some(SchemaVersion::V2Flat)))
        .unwrap();
    assert_eq!(t.plan.source, PlanSource::Deterministic);
    assert_eq!(t.fallback_reason, Some(PlanFallbackReason::InvalidAnswers));
    let rows = c.workouts().plan_generations(5).unwrap();
    assert_eq!(rows.len(), 1);
    assert_eq!(Some(rows[0].id), t.generation_id, "the failure's record");
    assert_eq!(rows[0].feature, "plan.generate");
    assert!(!rows[0].succeeded);
    assert_eq!(rows[0].error_code, Some(OutputErrorCode::SchemaViolation));
    assert!(rows[0].error_path.is_some(), "{:?}", rows[0]);
    // The same plan as without a model: the same skeleton, each slot's first choice.
    let none = coach();
    let d = none
        .workouts()
        .today_plan(request("legs", Some(SchemaVersion::V2Flat)))
        .unwrap();
    assert_eq!(d.fallback_reason, Some(PlanFallbackReason::NoModel));
    assert_eq!(d.plan.without_ids(), t.plan.without_ids());
    let saved = c.workouts().saved_today_plan("2025-08-18".into()).unwrap();
    assert_eq!(
        saved.map(|s| (s.plan, s.fallback_reason)),
        Some((t.plan, t.fallback_reason))
    );
}

/// The working exercises of a plan, by name.
fn working(p: &TodayPlan) -> Vec<&str> {
    p.blocks
        .iter()
        .filter(|b| b.title == "Main Lifts" || b.title == "Accessories")
        .flat_map(|b| b.exercises.iter().map(|e| e.name.as_str()))
        .collect()
}

#[test]
fn without_a_model_each_slot_takes_its_first_choice() {
    for notes in ["30 minutes, upper body", "legs", "push day, 20 minutes", ""] {
        let c = coach();
        // The grammar a model gets: the slots and their choices, in order.
        let model = ScriptedModel::new([ScriptedReply::Fail(LlmError::Cancelled)]);
        c.model().set(Some(model.clone())).unwrap();
        assert!(matches!(
            c.workouts().today_plan(request(notes, None)),
            Err(CoachError::Cancelled)
        ));
        let s = slots(model.requests()[0].json_schema.as_deref().unwrap());
        c.model().set(None).unwrap();
        let t = c.workouts().today_plan(request(notes, None)).unwrap();
        assert_eq!(
            (t.plan.source, t.fallback_reason, t.generation_id),
            (
                PlanSource::Deterministic,
                Some(PlanFallbackReason::NoModel),
                None
            ),
            "{notes}"
        );
        let catalog = coachcore::workout::catalog::builtin();
        let first: Vec<&str> = s
            .iter()
            .map(|(_, ids)| {
                let e = catalog.iter().find(|e| e.id == ids[0]).unwrap();
                e.name.as_str()
            })
            .collect();
        let mut names = working(&t.plan);
        names.sort();
        let mut first = first;
        first.sort();
        assert_eq!(names, first, "{notes}");
        // Valid against the canonical schema, `deterministic` included.
        let schema: Value = serde_json::from_str(coachcore::plan::TODAY_PLAN_SCHEMA).unwrap();
        let v = coachcore::llm::schema::Validator::new(&schema).unwrap();
        assert!(
            v.issues(&serde_json::to_value(&t.plan).unwrap(), 5)
                .is_empty(),
            "{notes}"
        );
    }
}

#[test]
fn the_notes_narrow_the_choices() {
    let c = coach();
    // Fails at once: only the request matters here.
    let model = ScriptedModel::new([ScriptedReply::Fail(LlmError::Cancelled)]);
    c.model().set(Some(model.clone())).unwrap();
    let notes = "30 minutes, upper body with dumbbells, easy on the shoulders";
    assert!(c.workouts().today_plan(request(notes, None)).is_err());
    let s = slots(model.requests()[0].json_schema.as_deref().unwrap());
    let catalog = coachcore::workout::catalog::builtin();
    for (slot, ids) in &s {
        for id in ids {
            let e = catalog.iter().find(|e| &e.id == id).unwrap();
            assert!(
                e.requires.iter().all(|r| r == "dumbbells"),
                "{slot}: {id} needs {:?}",
                e.requires
            );
            assert_ne!(e.pattern, "push_v", "{slot}: {id} is an overhead press");
        }
    }
    assert!(!s.is_empty());
    // Body weight only: nothing that needs equipment.
    let model = ScriptedModel::new([ScriptedReply::Fail(LlmError::Cancelled)]);
    c.model().set(Some(model.clone())).unwrap();
    assert!(c
        .workouts()
        .today_plan(request("20 minutes, no equipment, hotel room", None))
        .is_err());
    let s = slots(model.requests()[0].json_schema.as_deref().unwrap());
    assert!(!s.is_empty());
    for (slot, ids) in &s {
        for id in ids {
            let e = catalog.iter().find(|e| &e.id == id).unwrap();
            assert!(e.requires.is_empty(), "{slot}: {id} needs {:?}", e.requires);
        }
    }
}

struct NoEvents;
impl WorkoutSink for NoEvents {
    fn on_event(&self, _: WorkoutEvent) {}
}

#[test]
fn what_the_user_trained_this_week_is_not_offered_again() {
    let c = coach();
    // A deterministic workout two days ago, logged.
    let trained = logged_workout(&c, "2025-08-16", 1, 50.0);
    let model = ScriptedModel::new([ScriptedReply::Fail(LlmError::Cancelled)]);
    c.model().set(Some(model.clone())).unwrap();
    let _ = c
        .workouts()
        .today_plan(request("45 minutes, full body", None));
    let s = slots(model.requests()[0].json_schema.as_deref().unwrap());
    assert!(!s.is_empty());
    for (slot, ids) in &s {
        for id in ids {
            assert!(!trained.contains(id), "{slot}: {id} trained yesterday");
        }
    }
}

#[test]
fn model_errors_and_bad_requests_are_typed_and_record_nothing() {
    let c = coach();
    c.model()
        .set(Some(ScriptedModel::new([ScriptedReply::Fail(
            LlmError::TimedOut { after_ms: 5 },
        )])))
        .unwrap();
    assert!(matches!(
        c.workouts().today_plan(request("legs", None)),
        Err(CoachError::TimedOut { .. })
    ));
    let mut r = request("legs", None);
    r.date = "tomorrow".into();
    assert!(matches!(
        c.workouts().today_plan(r),
        Err(CoachError::InvalidArgument { .. })
    ));
    assert!(c.workouts().plan_generations(5).unwrap().is_empty());
    assert!(c.workouts().recent_today_plans(5).unwrap().is_empty());
    assert!(matches!(
        c.workouts().saved_today_plan("18.08.2025".into()),
        Err(CoachError::InvalidArgument { .. })
    ));
}

/// Logs a deterministic full-body workout of `date` done `days_ago` days before [`NOW_MS`], each
/// set at its target or `weight` (lbs), 8 reps; returns its exercises.
fn logged_workout(c: &Coach, date: &str, days_ago: i64, weight: f64) -> Vec<String> {
    let mut w: WorkoutRequest =
        serde_json::from_str(include_str!("../data/workout/request.json")).unwrap();
    w.meta.date = date.into();
    let done = c
        .workouts()
        .generate_with(
            &w,
            None,
            &NoEvents,
            &CancelToken::new(),
            &WorkoutSettings::default(),
        )
        .unwrap();
    assert_eq!(
        done.workout.units,
        coachcore::kernel::units::WeightUnit::Lbs
    );
    let sets: Vec<SetActual> = done
        .workout
        .sets
        .iter()
        .map(|s| SetActual {
            set_id: s.id.clone(),
            actual_weight: s.target_weight.unwrap_or(weight),
            actual_reps: 8,
        })
        .collect();
    c.workouts()
        .log(WorkoutLog {
            workout_id: done.workout.workout_id.clone(),
            performed_at_ms: NOW_MS - days_ago * DAY_MS,
            sets,
            post_workout: None,
        })
        .unwrap();
    done.analyzer
        .exercise_plan
        .iter()
        .map(|p| p.exercise.clone())
        .collect()
}

/// The full-body plan of 2025-08-18 in `units`, and the plan saved for that day, checked to be it
/// (in `units`, not done).
fn made_and_saved(c: &Coach, units: WeightUnit) -> (coachcore::PlanTransform, SavedTodayPlan) {
    let mut r = request("45 minutes, full body", None);
    r.units = Some(units);
    let t = c.workouts().today_plan(r).unwrap();
    let saved = c
        .workouts()
        .saved_today_plan("2025-08-18".into())
        .unwrap()
        .unwrap();
    assert_eq!(saved.plan, t.plan);
    assert_eq!((saved.units, saved.done_at_ms), (units, None));
    (t, saved)
}

#[test]
fn loads_come_from_the_history_in_the_users_units() {
    let mut by_unit = Vec::new();
    for units in [WeightUnit::Lbs, WeightUnit::Kg] {
        let c = coach();
        // Ten days ago: no anti-repeat, the exercises with history come first.
        let trained = logged_workout(&c, "2025-08-07", 10, 100.0);
        let (t, saved) = made_and_saved(&c, units);
        let exercises: Vec<&PlanExercise> =
            t.plan.blocks.iter().flat_map(|b| &b.exercises).collect();
        let loaded: Vec<&TodayPlanTarget> =
            saved.targets.iter().filter(|t| t.load.is_some()).collect();
        assert!(!loaded.is_empty(), "{:?}", saved.targets);
        for target in &saved.targets {
            let e = exercises
                .iter()
                .find(|e| e.id == target.exercise_id)
                .unwrap_or_else(|| panic!("{target:?} is not in the plan"));
            assert!(e
                .prescription
                .starts_with(&format!("{} x {}", target.sets, target.reps)));
            match target.load {
                Some(load) => {
                    assert!(
                        trained.contains(&target.catalog_id),
                        "a load only from history: {target:?}"
                    );
                    let lbs = units.convert(load, WeightUnit::Lbs);
                    assert!(lbs > 0.0 && lbs <= 100.0 + 1e-6, "{target:?}");
                    let symbol = units.symbol();
                    assert!(
                        e.prescription.ends_with(&format!(" {symbol}"))
                            && e.prescription.contains(" at "),
                        "{}",
                        e.prescription
                    );
                }
                None => assert!(!e.prescription.contains(" at "), "{}", e.prescription),
            }
        }
        by_unit.push(saved.targets);
    }
    // The same loads, once in pounds and once in kilograms, each rounded to a weight loadable in
    // its unit (5 lb, 2.5 kg steps): at most one step apart. Dumbbells aside: a full gym's rack
    // (`eq_dumbbells_set_5-50`) holds 5 to 50 in the plan's unit, so 100 lb logged is 50 lb (the
    // heaviest pair) in pounds but 45 kg in kilograms.
    let (lbs, kg) = (&by_unit[0], &by_unit[1]);
    assert_eq!(lbs.len(), kg.len());
    for (a, b) in lbs.iter().zip(kg) {
        assert_eq!(a.catalog_id, b.catalog_id);
        match (a.load, b.load) {
            (Some(_), Some(_)) if a.catalog_id.starts_with("db-") => {}
            (Some(x), Some(y)) => assert!((x - y * 2.20462).abs() <= 5.52, "{x} lb, {y} kg"),
            (x, y) => assert_eq!(x.is_some(), y.is_some()),
        }
    }
}

/// The training history of an exercise (kilograms), if it was ever logged.
fn performed(c: &Coach, catalog_id: &str) -> Option<coachcore::suggest::ExerciseHistory> {
    c.workouts()
        .history(catalog_id.into(), Some(coachcore::suggest::WeightUnit::Kg))
        .unwrap()
}

#[test]
fn a_plan_marked_done_is_logged_as_training_the_next_plan_reads() {
    let c = coach();
    let (t, saved) = made_and_saved(&c, WeightUnit::Kg);
    assert_eq!(
        c.workouts().recent_today_plans(5).unwrap(),
        std::slice::from_ref(&saved)
    );
    // No history, no loads: a loaded exercise left out of `performed` is refused, nothing logged.
    let catalog = coachcore::workout::catalog::builtin();
    let loaded = |t: &&TodayPlanTarget| {
        let e = catalog.iter().find(|e| e.id == t.catalog_id).unwrap();
        !matches!(e.load, LoadKind::Bodyweight | LoadKind::Other)
    };
    let needs: Vec<&TodayPlanTarget> = saved.targets.iter().filter(loaded).collect();
    assert!(!needs.is_empty());
    let e = c
        .workouts()
        .mark_today_plan_done(t.plan.id.clone(), None, None)
        .unwrap_err();
    assert!(matches!(e, CoachError::InvalidArgument { .. }), "{e:?}");
    // Bad input: refused, nothing logged.
    let set = |weight: f64, reps: u32| TodaySetDone { weight, reps };
    let done = |id: &str, sets: Vec<TodaySetDone>| TodayExerciseDone {
        exercise_id: id.into(),
        sets,
    };
    let first = &needs[0].exercise_id;
    for bad in [
        vec![done("not-in-the-plan", vec![set(10.0, 5)])],
        vec![done(first, vec![set(10.0, 5)]), done(first, vec![])],
        vec![done(first, vec![set(-1.0, 5)])],
        vec![done(first, vec![set(f64::NAN, 5)])],
        vec![done(first, vec![set(10.0, 1001)])],
        vec![done(first, vec![set(10.0, 5); 51])],
    ] {
        let e = c
            .workouts()
            .mark_today_plan_done(t.plan.id.clone(), Some(bad.clone()), None)
            .unwrap_err();
        assert!(
            matches!(e, CoachError::InvalidArgument { .. }),
            "{bad:?}: {e:?}"
        );
    }
    assert!(matches!(
        c.workouts()
            .mark_today_plan_done("no-such-plan".into(), None, None),
        Err(CoachError::NotFound { .. })
    ));
    assert!(
        performed(&c, &needs[0].catalog_id).is_none(),
        "nothing logged"
    );
    // The loaded exercises with what was lifted (the first one skipped), the rest as planned.
    let given: Vec<TodayExerciseDone> = needs
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let sets = if i == 0 {
                vec![]
            } else {
                vec![set(20.0 + i as f64, 8); t.sets as usize]
            };
            done(&t.exercise_id, sets)
        })
        .collect();
    let at = NOW_MS + 3_600_000;
    let marked = c
        .workouts()
        .mark_today_plan_done(t.plan.id.clone(), Some(given), Some(at))
        .unwrap();
    let session = format!("today:{}", t.plan.id);
    assert_eq!(
        (marked.done_at_ms, marked.session_id.as_deref()),
        (Some(at), Some(session.as_str()))
    );
    assert_eq!(marked.plan, saved.plan);
    assert_eq!(
        c.workouts().saved_today_plan("2025-08-18".into()).unwrap(),
        Some(marked.clone())
    );
    assert!(performed(&c, &needs[0].catalog_id).is_none(), "skipped");
    for (i, t) in needs.iter().enumerate().skip(1) {
        let h = performed(&c, &t.catalog_id).unwrap_or_else(|| panic!("{t:?} not logged"));
        let w = 20.0 + i as f64;
        // Logged in kilograms as given: its e1RM (Epley) read back in kilograms.
        assert!(
            (h.last_e1rm - w * (1.0 + 8.0 / 30.0)).abs() < 0.01,
            "{t:?}: {h:?}"
        );
    }
    for t in saved.targets.iter().filter(|t| !loaded(t)) {
        assert!(performed(&c, &t.catalog_id).is_some(), "{t:?} as planned");
    }
    // Once only.
    assert!(matches!(
        c.workouts()
            .mark_today_plan_done(t.plan.id.clone(), None, None),
        Err(CoachError::InvalidArgument { .. })
    ));
    // Training the next plans read: the next day's plan offers none of what was done.
    let next = c.workouts().today_plan(TodayPlanRequest {
        date: "2025-08-19".into(),
        ..request("45 minutes, full body", None)
    });
    let next = next.unwrap();
    assert_ne!(next.plan.id, t.plan.id, "a seed gives each day its own ids");
    let done_names: Vec<&str> = needs
        .iter()
        .skip(1)
        .map(|t| {
            let e = catalog.iter().find(|e| e.id == t.catalog_id).unwrap();
            e.name.as_str()
        })
        .collect();
    for name in working(&next.plan) {
        assert!(!done_names.contains(&name), "{name} was done yesterday");
    }
}

#[test]
fn a_seed_replaces_the_plan_it_made_until_that_one_is_done() {
    let c = coach();
    let a = c.workouts().today_plan(request("legs", None)).unwrap();
    let b = c
        .workouts()
        .today_plan(request("arms, 20 minutes", None))
        .unwrap();
    assert_eq!(a.plan.id, b.plan.id, "reproducible ids");
    let recent = c.workouts().recent_today_plans(5).unwrap();
    assert_eq!(recent.len(), 1);
    assert_eq!(recent[0].plan, b.plan, "the newer replaced it");
    let bodyweight = |t: &TodayPlanTarget| TodayExerciseDone {
        exercise_id: t.exercise_id.clone(),
        sets: vec![TodaySetDone {
            weight: 40.0,
            reps: 10,
        }],
    };
    let given: Vec<TodayExerciseDone> = recent[0].targets.iter().map(bodyweight).collect();
    c.workouts()
        .mark_today_plan_done(b.plan.id.clone(), Some(given), None)
        .unwrap();
    assert!(matches!(
        c.workouts().today_plan(request("legs", None)),
        Err(CoachError::InvalidArgument { .. })
    ));
    let kept = c.workouts().recent_today_plans(5).unwrap();
    assert_eq!(kept.len(), 1);
    assert_eq!(kept[0].plan, b.plan);
    assert!(kept[0].done_at_ms.is_some());
    // Without a seed, every plan is saved on its own.
    let mut r = request("legs", None);
    r.seed = None;
    c.workouts().today_plan(r.clone()).unwrap();
    c.workouts().today_plan(r).unwrap();
    assert_eq!(c.workouts().recent_today_plans(5).unwrap().len(), 3);
}
