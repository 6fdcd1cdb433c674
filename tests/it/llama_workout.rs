//! The workout flow (spec 001) and today-plan generation (spec 000) on the real model
//! (SmolLM2-135M-Instruct Q4_1 on 2 threads, one test at a time, tokens and attempts bounded to
//! keep the run short, so answers are often cut off): whatever the small model writes, the app
//! gets a valid document or a typed error, never an invalid document.
//!
//! Model path: env `COACH_MODEL`, else `models/SmolLM2-135M-Instruct.Q4_1.gguf`; without it the
//! tests print a note and pass, except under CI.

use std::sync::{Arc, Mutex, OnceLock};

use coachcore::db::Store;
use coachcore::kernel::clock::FixedClock;
use coachcore::llm::llama::{LlamaEngine, LlamaOptions};
use coachcore::llm::metered::SharedModel;
use coachcore::llm::{CancelToken, LanguageModel};
use coachcore::plan::PlanGenerateSettings;
use coachcore::workout::service::{NoEvents, WorkoutSettings};
use coachcore::workout::{validate_workout_yaml, WorkoutRequest, WorkoutSource};
use coachcore::{Coach, CoachError, TodayPlanRequest};

use crate::common::model_path;

/// One engine for these tests, 2 threads, the default context (2048 tokens): the workout's
/// prompts and answers fit it.
fn engine() -> Option<Arc<LlamaEngine>> {
    static ENGINE: OnceLock<Arc<LlamaEngine>> = OnceLock::new();
    let path = model_path()?;
    Some(
        ENGINE
            .get_or_init(|| {
                let options = LlamaOptions {
                    context_tokens: 2048,
                    threads: Some(2),
                    ..LlamaOptions::default()
                };
                LlamaEngine::load(&path, options).expect("load model")
            })
            .clone(),
    )
}

/// The tests share the engine; one at a time keeps llama.cpp at 2 threads.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

fn coach() -> Coach {
    Coach::with_store(
        Store::open_in_memory().unwrap(),
        Arc::new(FixedClock::new(1_755_432_000_000)),
    )
}

#[test]
fn a_workout_from_the_model_is_valid_or_the_typed_error() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|p| p.into_inner());
    let Some(engine) = engine() else { return };
    let request: WorkoutRequest =
        serde_json::from_str(include_str!("../data/workout/request.json")).unwrap();
    // The default settings: the model's choices fit the default answer sizes.
    let settings = WorkoutSettings::default();
    let c = coach();
    let model: Arc<dyn LanguageModel> = engine;
    let started = std::time::Instant::now();
    let out = c.workouts().generate_with(
        &request,
        Some(SharedModel::plain(model)),
        &NoEvents,
        &CancelToken::new(),
        &settings,
    );
    eprintln!("workout flow: {:.1} s", started.elapsed().as_secs_f64());
    match out {
        Ok(r) => {
            // The document the app gets is the one its YAML says, valid by the schema.
            assert_eq!(validate_workout_yaml(&r.yaml).unwrap(), r.workout);
            let planned: Vec<&str> = r
                .analyzer
                .exercise_plan
                .iter()
                .map(|p| p.exercise.as_str())
                .collect();
            assert!(r
                .workout
                .sets
                .iter()
                .all(|s| planned.contains(&s.exercise.as_str())));
            assert!(
                r.workout
                    .sets
                    .iter()
                    .all(|s| s.equipment != "eq_smith_machine"),
                "a banned key"
            );
            assert!(r.workout.sets.iter().all(|s| s.exercise != "bb-deadlift"));
            let saved = c
                .workouts()
                .get(r.workout.workout_id.clone())
                .unwrap()
                .unwrap();
            assert_eq!(saved, r);
            eprintln!(
                "workout from the model: source {:?}, {} sets",
                r.source,
                r.workout.sets.len()
            );
            assert!(matches!(
                r.source,
                WorkoutSource::Model | WorkoutSource::Deterministic
            ));
        }
        Err(e @ CoachError::ModelOutputRejected { .. }) => {
            assert!(e.to_string().contains("analyzer:"), "{e}");
            eprintln!("typed: {e}")
        }
        Err(e @ CoachError::TimedOut { .. }) => eprintln!("typed: {e}"),
        Err(e) => panic!("not a typed model outcome: {e:?}"),
    }
}

#[test]
fn a_today_plan_comes_from_the_model_and_keeps_to_the_notes() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|p| p.into_inner());
    let Some(engine) = engine() else { return };
    let c = coach();
    let request = TodayPlanRequest {
        date: "2025-08-18".into(),
        notes: "30 minutes, upper body with dumbbells, easy on the shoulders".into(),
        schema_version: None,
        timezone: Some("Europe/Berlin".into()),
        seed: Some(1),
        units: None,
        days_per_week: None,
    };
    let settings = PlanGenerateSettings {
        max_tokens: 256,
        max_attempts: 2,
        timeout_ms: Some(60_000),
    };
    let model = SharedModel {
        model: engine,
        breaker: None,
        details: None,
    };
    let started = std::time::Instant::now();
    let out = c
        .workouts()
        .today_plan_with(&request, Some(model), &CancelToken::new(), &settings);
    eprintln!(
        "today plan: {:.1} s, {out:?}",
        started.elapsed().as_secs_f64()
    );
    let rows = c.workouts().plan_generations(5).unwrap();
    let t = out.expect("a plan from the model");
    assert_eq!(t.fallback_reason, None, "the model's picks");
    assert_eq!(rows.len(), 1);
    assert!(rows[0].succeeded && rows[0].feature == "plan.generate");
    assert_eq!(Some(rows[0].id), t.generation_id);
    assert_eq!(t.plan.duration_minutes, 30);
    assert!(t.plan.focus.starts_with("Upper Body"), "{}", t.plan.focus);
    let catalog = coachcore::workout::catalog::builtin();
    let working: Vec<&str> = t
        .plan
        .blocks
        .iter()
        .filter(|b| b.title == "Main Lifts" || b.title == "Accessories")
        .flat_map(|b| b.exercises.iter().map(|e| e.name.as_str()))
        .collect();
    assert!(!working.is_empty(), "{:?}", t.plan);
    for name in working {
        let e = catalog
            .iter()
            .find(|e| e.name == name)
            .expect("a catalog exercise");
        assert!(e.requires.iter().all(|r| r == "dumbbells"), "{name}");
        assert_ne!(e.pattern, "push_v", "{name}: an overhead press");
    }
}
