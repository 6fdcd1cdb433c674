//! `Coach::shutdown` and the service objects' lifetimes: after a shutdown every call of the
//! `Coach` and of each service object throws `Closed` and running tasks end cancelled; what was
//! written before is in the file; a service object keeps the database open after the `Coach` is
//! released, and closes it when released last. Every exported object is `Send + Sync`.

use std::sync::mpsc;
use std::sync::Arc;
use std::time::Duration;

use coachcore::assistant::{AssistantMode, AssistantRequest, ItemKind, OpType, PlannerOperation};
use coachcore::llm::CancelToken;
use coachcore::{Coach, CoachError};

use crate::common::Blocking;

const TODAY: &str = "2026-11-23";

fn todo(title: &str) -> PlannerOperation {
    let mut op = PlannerOperation::new(OpType::Create, ItemKind::Todo);
    op.title = Some(title.into());
    op
}

fn closed<T: std::fmt::Debug>(r: Result<T, CoachError>) {
    match r {
        Err(CoachError::Closed { .. }) => {}
        other => panic!("expected Closed, got {other:?}"),
    }
}

#[test]
fn after_shutdown_every_service_throws_closed_and_the_data_stays_in_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("coach.db");
    let coach = Coach::open(path.to_string_lossy().into_owned()).unwrap();
    coach
        .planner()
        .apply(vec![todo("Buy milk")], None, Some(TODAY.into()))
        .unwrap();
    // Services taken before the shutdown, and asked for after it.
    let (planner, meals, workouts) = (coach.planner(), coach.meals(), coach.workouts());
    let (suggestions, model, data) = (coach.suggestions(), coach.model(), coach.data());

    coach.shutdown();
    coach.shutdown(); // a second time: nothing happens

    closed(planner.backlog(10));
    closed(planner.week(TODAY.into()));
    closed(planner.dry_run(vec![todo("x")], Some(TODAY.into())));
    closed(planner.apply(vec![todo("x")], None, Some(TODAY.into())));
    closed(planner.undo("r1"));
    closed(meals.recipe("r".into()));
    closed(meals.job("j".into()));
    closed(meals.cleanup_staged());
    closed(workouts.list(5));
    closed(workouts.exercises());
    closed(workouts.plan_generations(5));
    closed(workouts.plan("p".into()));
    closed(suggestions.deferred("p".into()));
    closed(suggestions.for_session("s".into()));
    closed(model.set(None));
    closed(model.prewarm(coachcore::ffi::AiFeature::Assistant));
    assert_eq!(model.info(), None);
    closed(data.export_all());
    closed(data.check_integrity());
    closed(data.erase_all());
    closed(coach.planner().backlog(10));
    let message = coach.assistant().send(
        AssistantRequest {
            message: "Remind me to call mom tomorrow at 5".into(),
            mode: AssistantMode::Plan,
            selection: None,
            today: Some(TODAY.into()),
            language: None,
        },
        None,
    );
    closed(message.wait());
    assert_eq!(CoachError::Closed { detail: "x".into() }.code(), "closed");

    // The write before the shutdown is in the file, and the write-ahead log was checkpointed.
    drop((planner, meals, workouts, suggestions, model, data, message));
    drop(coach);
    let wal = dir.path().join("coach.db-wal");
    assert!(
        std::fs::metadata(&wal).map_or(true, |m| m.len() == 0),
        "the log was left with {:?} bytes",
        std::fs::metadata(&wal).map(|m| m.len())
    );
    let again = Coach::open(path.to_string_lossy().into_owned()).unwrap();
    let backlog = again.planner().backlog(10).unwrap();
    assert_eq!(backlog.len(), 1);
    assert_eq!(backlog[0].title, "Buy milk");
}

#[test]
fn a_service_object_keeps_the_database_open_after_the_coach_is_released() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.db");
    let planner = Coach::open(path.to_string_lossy().into_owned())
        .unwrap()
        .planner();
    planner
        .apply(vec![todo("Call the bank")], None, Some(TODAY.into()))
        .unwrap();
    assert_eq!(planner.backlog(10).unwrap().len(), 1);
    // Released last, it closes the file: the log is checkpointed.
    drop(planner);
    let wal = dir.path().join("c.db-wal");
    assert!(std::fs::metadata(&wal).map_or(true, |m| m.len() == 0));
}

#[test]
fn shutdown_cancels_the_running_tasks() {
    let dir = tempfile::tempdir().unwrap();
    let coach = Coach::open(dir.path().join("c.db").to_string_lossy().into_owned()).unwrap();
    let (tx, rx) = mpsc::channel();
    coach
        .model()
        .set(Some(Arc::new(Blocking::new(tx))))
        .unwrap();
    let message = coach.assistant().send(
        AssistantRequest {
            message: "plan a quiet week for me".into(),
            mode: AssistantMode::Chat,
            selection: None,
            today: Some(TODAY.into()),
            language: None,
        },
        None,
    );
    rx.recv_timeout(Duration::from_secs(30))
        .expect("the model call started");
    assert!(!message.is_finished());
    coach.shutdown();
    // Without the cancel from `shutdown`, the model would block this wait forever.
    assert_eq!(message.wait().unwrap_err(), CoachError::Cancelled);
    // A meal plan started after the shutdown fails at once: its job cannot be stored.
    let request = serde_json::from_value(serde_json::json!({
        "days": [{"date": TODAY, "meals": {"dinner": {"servings": 2}}}]
    }))
    .unwrap();
    closed(coach.meals().plan(request, None).map(|t| t.wait()));
}

#[test]
fn every_exported_object_is_send_and_sync() {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<Coach>();
    send_sync::<coachcore::Planner>();
    send_sync::<coachcore::Assistant>();
    send_sync::<coachcore::Workouts>();
    send_sync::<coachcore::Meals>();
    send_sync::<coachcore::Suggestions>();
    send_sync::<coachcore::Models>();
    send_sync::<coachcore::UserData>();
    send_sync::<coachcore::ffi::AssistantTask>();
    send_sync::<coachcore::ffi::WorkoutTask>();
    send_sync::<coachcore::ffi::MealPlanTask>();
    send_sync::<CancelToken>();
}
