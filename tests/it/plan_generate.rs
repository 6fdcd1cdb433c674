//! `workouts().todayPlan` (spec 000, the provider side) with the scripted model: the notes read by
//! code, the skeleton's slots as the grammar (one enum of allowed exercises per slot), the plan
//! written by code around the model's picks in the selected schema version and transformed,
//! repairs with the validator's line, the typed error after three invalid answers, the user's
//! history shaping the choices, and the generation metadata.

use std::sync::Arc;

use coachcore::db::Store;
use coachcore::kernel::clock::FixedClock;
use coachcore::llm::scripted::{ScriptedModel, ScriptedReply};
use coachcore::llm::{CancelToken, LlmError};
use coachcore::workout::service::{WorkoutSettings, WorkoutSink};
use coachcore::workout::{SetActual, WorkoutEvent, WorkoutLog, WorkoutRequest};
use coachcore::{Coach, CoachError, Energy, OutputErrorCode, SchemaVersion, TodayPlanRequest};
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
fn three_invalid_answers_are_the_typed_error_and_the_failure_is_recorded() {
    let c = coach();
    c.model()
        .set(Some(ScriptedModel::texts([
            "no json",
            "{\"focus\": 1}",
            "{\"A1\": \"bb-deadlift\"}",
        ])))
        .unwrap();
    let e = c
        .workouts()
        .today_plan(request("legs", Some(SchemaVersion::V2Flat)))
        .unwrap_err();
    assert!(
        matches!(e, CoachError::ModelOutputRejected { attempts: 3, .. }),
        "{e:?}"
    );
    let rows = c.workouts().plan_generations(5).unwrap();
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0].feature, "plan.generate");
    assert!(!rows[0].succeeded);
    assert_eq!(rows[0].error_code, Some(OutputErrorCode::SchemaViolation));
    assert!(rows[0].error_path.is_some(), "{:?}", rows[0]);
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
    let mut w: WorkoutRequest =
        serde_json::from_str(include_str!("../data/workout/request.json")).unwrap();
    w.meta.date = "2025-08-16".into();
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
    c.workouts()
        .log(WorkoutLog {
            workout_id: done.workout.workout_id.clone(),
            performed_at_ms: NOW_MS - DAY_MS,
            sets: done
                .workout
                .sets
                .iter()
                .map(|s| SetActual {
                    set_id: s.id.clone(),
                    actual_weight: s.target_weight.unwrap_or(50.0),
                    actual_reps: 8,
                })
                .collect(),
            post_workout: None,
        })
        .unwrap();
    let trained: Vec<&str> = done
        .analyzer
        .exercise_plan
        .iter()
        .map(|p| p.exercise.as_str())
        .collect();
    let model = ScriptedModel::new([ScriptedReply::Fail(LlmError::Cancelled)]);
    c.model().set(Some(model.clone())).unwrap();
    let _ = c
        .workouts()
        .today_plan(request("45 minutes, full body", None));
    let s = slots(model.requests()[0].json_schema.as_deref().unwrap());
    assert!(!s.is_empty());
    for (slot, ids) in &s {
        for id in ids {
            assert!(
                !trained.contains(&id.as_str()),
                "{slot}: {id} trained yesterday"
            );
        }
    }
}

#[test]
fn model_errors_bad_requests_and_no_model_are_typed_and_record_nothing() {
    let c = coach();
    assert!(matches!(
        c.workouts().today_plan(request("legs", None)),
        Err(CoachError::ModelUnusable { .. })
    ));
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
}
