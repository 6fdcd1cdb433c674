//! The app-facing entry object: transforms recorded in a real SQLite file, typed errors, bad
//! database files left untouched, and use from several threads.

use std::sync::Arc;

use coachcore::db::Store;
use coachcore::kernel::clock::FixedClock;
use coachcore::{
    Coach, CoachError, OutputErrorCode, SchemaSelection, SchemaVersion, SelectionReason,
};

const PLAN: &str = include_str!("../data/plans/worked-example.v2.json");

fn flat(reason: SelectionReason) -> SchemaSelection {
    SchemaSelection {
        schema_version: SchemaVersion::V2Flat,
        reason,
    }
}

#[test]
fn transforms_are_recorded_in_generation_metadata() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("coach.db");
    let clock = Arc::new(FixedClock::new(1_763_700_000_000));
    let coach = Coach::with_store(Store::open(&path).unwrap(), clock.clone());

    let sel = coachcore::select_plan_schema(vec![SchemaVersion::V2Flat], None);
    assert_eq!(sel, flat(SelectionReason::SingleSupported));
    let ok = coach
        .workouts()
        .transform_plan(PLAN.into(), sel, Some(5))
        .unwrap();
    assert_eq!(ok.schema_version, SchemaVersion::V2Flat);
    assert_eq!(ok.ruleset_version, "plan-expansion/1");
    assert_eq!(ok.plan.blocks.len(), 2);

    clock.advance_ms(1000);
    let broken = PLAN.replacen("\"blockIndex\": 1", "\"blockIndex\": 9", 1);
    let err = coach
        .workouts()
        .transform_plan(broken, flat(SelectionReason::Override), None)
        .unwrap_err();
    assert_eq!(
        err,
        CoachError::InvalidModelOutput {
            code: OutputErrorCode::BlockIndexOutOfRange,
            path: Some("exercises[1].blockIndex".into()),
            detail: "must be from 0 to 1 (the plan has 2 blocks)".into(),
        }
    );
    drop(coach);

    // Reopen the file: both generations are there, newest first.
    let coach = Coach::open(path.display().to_string()).unwrap();
    let rows = coach.workouts().plan_generations(10).unwrap();
    assert_eq!(rows.len(), 2);
    let (failed, succeeded) = (&rows[0], &rows[1]);
    assert_eq!(Some(succeeded.id), ok.generation_id);
    assert!(succeeded.succeeded && succeeded.error_code.is_none());
    assert_eq!(succeeded.selection_reason, SelectionReason::SingleSupported);
    assert_eq!(succeeded.created_at_ms, 1_763_700_000_000);
    assert!(!failed.succeeded);
    assert_eq!(
        failed.error_code,
        Some(OutputErrorCode::BlockIndexOutOfRange)
    );
    assert_eq!(
        failed.error_path.as_deref(),
        Some("exercises[1].blockIndex")
    );
    assert_eq!(failed.selection_reason, SelectionReason::Override);
    assert_eq!(failed.created_at_ms, 1_763_700_001_000);
    assert_eq!(failed.feature, "plan.transform");
    assert_eq!(coach.workouts().plan_generations(1).unwrap().len(), 1);
}

#[test]
fn selection_is_a_free_function() {
    use SchemaVersion::*;
    assert_eq!(
        coachcore::select_plan_schema(vec![V1Current], Some(V2Flat)).reason,
        SelectionReason::Override
    );
    assert_eq!(
        coachcore::select_plan_schema(vec![V1Current], None),
        SchemaSelection {
            schema_version: V1Current,
            reason: SelectionReason::SingleSupported
        }
    );
    let both = coachcore::select_plan_schema(vec![V1Current, V2Flat], None);
    assert_eq!(both.reason, SelectionReason::SmallestEstimate);
    let smaller = if V2Flat.estimated_size() <= V1Current.estimated_size() {
        V2Flat
    } else {
        V1Current
    };
    assert_eq!(both.schema_version, smaller);
}

#[test]
fn a_file_that_is_not_a_database_is_refused_and_kept() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("photo.jpg");
    let bytes: Vec<u8> = (0..4096u32).map(|i| (i % 256) as u8).collect();
    std::fs::write(&path, &bytes).unwrap();
    let err = Coach::open(path.display().to_string()).unwrap_err();
    assert!(matches!(err, CoachError::NotADatabase { .. }), "{err:?}");
    assert!(
        !err.to_string().contains("photo"),
        "no file path in the public error: {err}"
    );
    assert_eq!(std::fs::read(&path).unwrap(), bytes);
}

#[test]
fn open_creates_the_missing_folders_of_a_new_file() {
    // A fresh iOS install: Library/ exists, Application Support/ does not.
    let dir = tempfile::tempdir().unwrap();
    let path = dir
        .path()
        .join("Library/Application Support/coach/coach.db");
    let coach = Coach::open(path.display().to_string()).unwrap();
    coach.shutdown();
    assert!(path.is_file());
    // A folder that cannot be made (a file where it should be): `Storage`, without the path.
    std::fs::write(dir.path().join("taken"), b"x").unwrap();
    let blocked = dir.path().join("taken/coach.db");
    let err = Coach::open(blocked.display().to_string()).unwrap_err();
    assert!(matches!(err, CoachError::Storage { .. }), "{err:?}");
    assert!(!err.to_string().contains("taken"), "{err}");
}

#[test]
fn a_database_from_a_newer_library_is_refused_and_kept() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("coach.db");
    drop(Store::open(&path).unwrap());
    // Pretend a future version migrated it.
    set_user_version_in_header(&path, 1000);
    let before = std::fs::read(&path).unwrap();
    let err = Coach::open(path.display().to_string()).unwrap_err();
    assert_eq!(
        err,
        CoachError::DatabaseTooNew {
            found_version: 1000,
            supported_version: coachcore::db::SCHEMA_VERSION
        }
    );
    assert_eq!(std::fs::read(&path).unwrap(), before);
}

#[test]
fn a_database_of_another_application_is_refused_and_kept() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("notes.db");
    rusqlite::Connection::open(&path)
        .unwrap()
        .execute_batch("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes VALUES (1, 'x');")
        .unwrap();
    let before = std::fs::read(&path).unwrap();
    let err = Coach::open(path.display().to_string()).unwrap_err();
    match &err {
        CoachError::NotADatabase { detail } => {
            assert!(detail.contains("another application"), "{detail}")
        }
        other => panic!("expected NotADatabase, got {other:?}"),
    }
    assert!(!err.to_string().contains("notes"), "no file path: {err}");
    assert!(std::fs::read(&path).unwrap() == before, "the file changed");
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["notes.db"], "no -wal/-shm left behind");
}

#[test]
fn rejected_output_messages_show_the_path_plainly() {
    let coach = Coach::open_in_memory().unwrap();
    let broken = PLAN.replacen("\"blockIndex\": 1", "\"blockIndex\": 3", 1);
    let err = coach
        .workouts()
        .transform_plan(broken, flat(SelectionReason::Override), None)
        .unwrap_err();
    let msg = err.to_string();
    assert!(
        msg.starts_with(
            "invalid model output (block_index_out_of_range) at exercises[1].blockIndex: "
        ),
        "{msg}"
    );
    let err = coach
        .workouts()
        .transform_plan("no json".into(), flat(SelectionReason::Override), None)
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        format!("invalid model output (invalid_json): {}", err.detail())
    );
}

/// Sets `user_version` (bytes 60..64 of the header, big-endian) without going through SQLite.
/// The store was closed, so its WAL is already folded into the main file.
fn set_user_version_in_header(path: &std::path::Path, version: u32) {
    use std::io::{Seek, SeekFrom, Write};
    let mut f = std::fs::OpenOptions::new().write(true).open(path).unwrap();
    f.seek(SeekFrom::Start(60)).unwrap();
    f.write_all(&version.to_be_bytes()).unwrap();
}

#[test]
fn one_coach_serves_many_threads() {
    let coach = Coach::open_in_memory().unwrap();
    let threads: Vec<_> = (0..4)
        .map(|t| {
            let coach = Arc::clone(&coach);
            std::thread::spawn(move || {
                for i in 0..25 {
                    let text = if i % 5 == 0 {
                        "no json".to_string()
                    } else {
                        PLAN.to_string()
                    };
                    let r = coach.workouts().transform_plan(
                        text,
                        flat(SelectionReason::Override),
                        Some(t * 100 + i),
                    );
                    assert_eq!(r.is_ok(), i % 5 != 0);
                }
            })
        })
        .collect();
    threads.into_iter().for_each(|t| t.join().unwrap());
    let rows = coach.workouts().plan_generations(1000).unwrap();
    assert_eq!(rows.len(), 100);
    assert_eq!(rows.iter().filter(|r| r.succeeded).count(), 80);
    assert!(rows
        .iter()
        .filter(|r| !r.succeeded)
        .all(|r| r.error_code == Some(OutputErrorCode::InvalidJson)));
}

// ---- spec 002: the assistant through the entry object ----

mod assistant {
    use std::sync::mpsc;
    use std::sync::{Arc, Mutex};

    use coachcore::assistant::{
        AssistantEvent, AssistantMode, AssistantRequest, AssistantStage, ItemKind, OpType,
        PlannerOperation, Priority, Recurrence, RecurrenceType, RouteDecision,
    };
    use coachcore::db::Store;
    use coachcore::ffi::AssistantListener;
    use coachcore::kernel::clock::FixedClock;
    use coachcore::llm::scripted::ScriptedModel;
    use coachcore::{Coach, CoachError};

    use crate::common::Blocking;

    /// 2025-11-21 (a Friday), 04:40 UTC.
    const NOW_MS: i64 = 1_763_700_000_000;
    const TODAY: &str = "2025-11-21";

    fn file_coach() -> (tempfile::TempDir, Arc<Coach>) {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path().join("planner.db")).unwrap();
        let coach = Arc::new(Coach::with_store(store, Arc::new(FixedClock::new(NOW_MS))));
        (dir, coach)
    }

    fn todo(title: &str, date: Option<&str>) -> PlannerOperation {
        let mut op = PlannerOperation::new(OpType::Create, ItemKind::Todo);
        op.title = Some(title.into());
        op.scheduled_for = date.map(String::from);
        op
    }

    fn daily_habit(title: &str, anchor: &str) -> PlannerOperation {
        let mut op = PlannerOperation::new(OpType::Create, ItemKind::Habit);
        op.title = Some(title.into());
        op.scheduled_for = Some(anchor.into());
        op.time_of_day = Some("21:00".into());
        op.recurrence = Some(Recurrence {
            kind: RecurrenceType::Daily,
            ..Recurrence::none()
        });
        op
    }

    #[test]
    fn dry_run_apply_and_the_reads() {
        let (_dir, coach) = file_coach();
        let mut call = todo("Call mom", Some("2025-11-22"));
        call.priority = Some(Priority::High);
        let ops = vec![call, todo("Buy milk", None), daily_habit("Stretch", TODAY)];

        let v = coach
            .planner()
            .dry_run(ops.clone(), Some(TODAY.into()))
            .unwrap();
        assert!(v.all_valid(), "{v:?}");
        assert_eq!((v.valid_count, v.invalid_count), (3, 0));
        // The todos got their {type:'none'} recurrence; the habit needed nothing.
        assert!(!v.checks[0].repairs.is_empty() && !v.checks[1].repairs.is_empty());
        assert_eq!(v.checks[2].repairs, Vec::<String>::new());
        assert_eq!(
            v.checks[0].operation.as_ref().unwrap().recurrence,
            Some(Recurrence::none())
        );
        assert_eq!(
            coach.planner().audit_log(10, None).unwrap(),
            vec![],
            "dry-run applies nothing"
        );
        assert_eq!(coach.planner().backlog(10).unwrap(), vec![]);

        let r = coach
            .planner()
            .apply(ops.clone(), Some("key-1".into()), Some(TODAY.into()))
            .unwrap();
        assert!(!r.replayed);
        assert_eq!(r.applied.len(), 3);
        let kinds: Vec<_> = r.applied.iter().map(|a| (a.index, a.op, a.kind)).collect();
        assert_eq!(
            kinds,
            vec![
                (0, OpType::Create, ItemKind::Todo),
                (1, OpType::Create, ItemKind::Todo),
                (2, OpType::Create, ItemKind::Habit)
            ]
        );
        let call_id = r.applied[0].id.clone();
        let item = coach
            .planner()
            .item(ItemKind::Todo, call_id.clone())
            .unwrap()
            .unwrap();
        assert_eq!(item.title, "Call mom");
        assert_eq!(item.priority, Priority::High);
        assert_eq!(item.created_ms, NOW_MS);
        assert_eq!(
            coach
                .planner()
                .item(ItemKind::Event, call_id.clone())
                .unwrap(),
            None
        );

        // The week of Friday 2025-11-21: Monday 17 to Sunday 23; the habit on Fri, Sat and Sun.
        let week = coach.planner().week(TODAY.into()).unwrap();
        assert_eq!(
            (week.week_start.as_str(), week.week_end.as_str()),
            ("2025-11-17", "2025-11-23")
        );
        let entries: Vec<(&str, &str)> = week
            .entries
            .iter()
            .map(|e| (e.date.as_str(), e.item.title.as_str()))
            .collect();
        assert_eq!(
            entries,
            vec![
                ("2025-11-21", "Stretch"),
                ("2025-11-22", "Stretch"),
                ("2025-11-22", "Call mom"),
                ("2025-11-23", "Stretch"),
            ]
        );
        let backlog = coach.planner().backlog(10).unwrap();
        assert_eq!(backlog.len(), 1);
        assert_eq!(backlog[0].title, "Buy milk");

        // One audit entry per action, newest first, sharing the request id; paging by seq.
        let log = coach.planner().audit_log(10, None).unwrap();
        assert_eq!(log.len(), 3);
        assert!(log
            .iter()
            .all(|a| a.request_id == r.request_id && a.at_ms == NOW_MS));
        assert!(log
            .iter()
            .all(|a| a.before_json.is_none() && a.after_json.is_some()));
        assert!(log.windows(2).all(|w| w[0].seq > w[1].seq));
        assert_eq!(log[2].item_id, call_id);
        let older = coach.planner().audit_log(10, Some(log[0].seq)).unwrap();
        assert_eq!(older, log[1..].to_vec());
        assert_eq!(
            coach.planner().audit_log(1, None).unwrap(),
            log[..1].to_vec()
        );

        // Replay with the same key: the stored result; a different list: a conflict.
        let again = coach
            .planner()
            .apply(ops.clone(), Some("key-1".into()), Some(TODAY.into()))
            .unwrap();
        assert!(again.replayed);
        assert_eq!(
            (again.request_id.as_str(), &again.applied),
            (r.request_id.as_str(), &r.applied)
        );
        assert_eq!(
            coach.planner().audit_log(10, None).unwrap().len(),
            3,
            "nothing applied again"
        );
        let err = coach
            .planner()
            .apply(ops[..1].to_vec(), Some("key-1".into()), None)
            .unwrap_err();
        assert_eq!(err, CoachError::IdempotencyConflict);

        // Complete the todo, then an invalid list: nothing of it is applied.
        let mut done = PlannerOperation::new(OpType::Complete, ItemKind::Todo);
        done.id = Some(call_id.clone());
        let mut unknown = PlannerOperation::new(OpType::Complete, ItemKind::Todo);
        unknown.id = Some("no-such-todo".into());
        let err = coach
            .planner()
            .apply(vec![done.clone(), unknown], None, Some(TODAY.into()))
            .unwrap_err();
        match err {
            CoachError::OperationsRejected {
                invalid_count,
                total_count,
                detail,
            } => {
                assert_eq!((invalid_count, total_count), (1, 2));
                assert!(detail.starts_with("1: "), "{detail}");
            }
            other => panic!("{other:?}"),
        }
        assert!(
            !coach
                .planner()
                .item(ItemKind::Todo, call_id.clone())
                .unwrap()
                .unwrap()
                .completed
        );
        // A master `complete` of the repeating habit becomes `complete_occurrence` of today; without
        // `today` that is the clock's UTC date.
        let mut stretch_done = PlannerOperation::new(OpType::Complete, ItemKind::Habit);
        stretch_done.id = Some(r.applied[2].id.clone());
        let r2 = coach
            .planner()
            .apply(vec![done, stretch_done], None, None)
            .unwrap();
        assert_eq!(r2.applied[1].op, OpType::CompleteOccurrence);
        assert!(r2.repairs[0].contains(TODAY), "{:?}", r2.repairs);
        assert!(
            coach
                .planner()
                .item(ItemKind::Todo, call_id)
                .unwrap()
                .unwrap()
                .completed
        );
        let habit = coach
            .planner()
            .item(ItemKind::Habit, r.applied[2].id.clone())
            .unwrap()
            .unwrap();
        assert_eq!(habit.completed_occurrences, vec![TODAY.to_string()]);
        assert_eq!(coach.planner().audit_log(10, None).unwrap().len(), 5);
    }

    #[test]
    fn bad_dates_are_invalid_arguments() {
        let (_dir, coach) = file_coach();
        for bad in ["2025-13-01", "tomorrow", "2025-02-29", ""] {
            assert!(
                matches!(
                    coach.planner().week(bad.into()),
                    Err(CoachError::InvalidArgument { .. })
                ),
                "{bad}"
            );
            assert!(matches!(
                coach
                    .planner()
                    .dry_run(vec![todo("x", None)], Some(bad.into())),
                Err(CoachError::InvalidArgument { .. })
            ));
            assert!(matches!(
                coach
                    .planner()
                    .apply(vec![todo("x", None)], None, Some(bad.into())),
                Err(CoachError::InvalidArgument { .. })
            ));
        }
        assert_eq!(coach.planner().audit_log(10, None).unwrap(), vec![]);
        // The JSON forms (CLI, C API) take loosely shaped operations.
        let v = coach
            .planner()
            .dry_run_json(r#"[{"kind":"todo","title":"x","priority":"HIGH"}]"#, None)
            .unwrap();
        assert!(v.all_valid(), "{v:?}");
        assert!(matches!(
            coach.planner().apply_json("nope", None, None),
            Err(CoachError::InvalidArgument { .. })
        ));
    }

    /// Collects events; reports `done` on a channel.
    #[derive(Default)]
    struct Collect {
        events: Mutex<Vec<AssistantEvent>>,
    }

    impl AssistantListener for Collect {
        fn on_event(&self, event: AssistantEvent) -> Result<(), coachcore::ffi::ListenerError> {
            self.events.lock().unwrap().push(event);
            Ok(())
        }
    }

    impl Collect {
        /// The events without heartbeats.
        fn events(&self) -> Vec<AssistantEvent> {
            let all = self.events.lock().unwrap().clone();
            all.into_iter()
                .filter(|e| *e != AssistantEvent::Heartbeat)
                .collect()
        }
    }

    fn plan_request(message: &str) -> AssistantRequest {
        AssistantRequest {
            message: message.into(),
            mode: AssistantMode::Plan,
            selection: None,
            today: Some(TODAY.into()),
            language: None,
        }
    }

    const PROPOSAL: &str = r#"{"operations":[{"op":"create","kind":"todo","title":"Call mom","scheduledFor":"2025-11-22","priority":"High"}]}"#;

    #[test]
    fn send_message_streams_events_and_wait_returns_the_result() {
        let (_dir, coach) = file_coach();
        let model = ScriptedModel::texts([PROPOSAL, "I added a call to mom tomorrow."]);
        coach.model().set(Some(model.clone())).unwrap();
        let listener = Arc::new(Collect::default());
        let task = coach.assistant().send(
            // A message the reading leaves open: the model proposes the operations.
            plan_request("something about mom"),
            Some(listener.clone()),
        );
        let result = task.wait().unwrap();
        assert!(task.is_finished());
        assert_eq!(
            task.wait().unwrap(),
            result,
            "wait returns the same result again"
        );
        assert_eq!(result.decision, RouteDecision::Plan);
        assert_eq!(result.operations.len(), 1);
        assert_eq!(result.operations[0].title.as_deref(), Some("Call mom"));
        assert_eq!(result.operations[0].priority, Some(Priority::High));
        assert_eq!(
            result.summary.as_deref(),
            Some("I added a call to mom tomorrow.")
        );

        let events = listener.events();
        let stages: Vec<AssistantStage> = events
            .iter()
            .filter_map(|e| match e {
                AssistantEvent::Stage { stage } => Some(*stage),
                _ => None,
            })
            .collect();
        assert_eq!(
            stages,
            vec![
                AssistantStage::Proposing,
                AssistantStage::Validating,
                AssistantStage::Summarizing
            ]
        );
        let names: Vec<&str> = events
            .iter()
            .map(|e| match e {
                AssistantEvent::Stage { .. } => "stage",
                AssistantEvent::Clarify { .. } => "clarify",
                AssistantEvent::Ops { .. } => "ops",
                AssistantEvent::TextDelta { .. } => "textDelta",
                AssistantEvent::Summary { .. } => "summary",
                AssistantEvent::Result { .. } => "result",
                AssistantEvent::Heartbeat => "heartbeat",
                AssistantEvent::Done => "done",
            })
            .collect();
        assert_eq!(
            names,
            vec!["stage", "stage", "ops", "stage", "summary", "result", "done"]
        );
        assert_eq!(
            events[2],
            AssistantEvent::Ops {
                version: coachcore::assistant::OPS_VERSION,
                operations: result.operations.clone(),
                valid_count: 1,
                invalid_count: 0
            }
        );
        assert_eq!(
            events[5],
            AssistantEvent::Result {
                result: result.clone()
            }
        );
        // Nothing was applied; the operations apply as returned.
        assert_eq!(coach.planner().audit_log(10, None).unwrap(), vec![]);
        let applied = coach
            .planner()
            .apply(result.operations, None, Some(TODAY.into()))
            .unwrap();
        assert_eq!(applied.applied.len(), 1);
        assert_eq!(coach.planner().week(TODAY.into()).unwrap().entries.len(), 1);

        // Without a listener the task still runs.
        coach
            .model()
            .set(Some(ScriptedModel::texts([PROPOSAL, "Done."])))
            .unwrap();
        let quiet = coach.assistant().send(plan_request("again"), None);
        assert_eq!(quiet.wait().unwrap().operations.len(), 1);
    }

    /// A message sent to a [`Blocking`](crate::common::Blocking) model: its task, its listener, and the model's start signal.
    fn blocked_message(
        coach: &Arc<Coach>,
    ) -> (
        Arc<coachcore::ffi::AssistantTask>,
        Arc<Collect>,
        mpsc::Receiver<()>,
    ) {
        let (tx, rx) = mpsc::channel();
        coach
            .model()
            .set_assistant_model(Some(Arc::new(Blocking::new(tx))));
        let listener = Arc::new(Collect::default());
        let task = coach.assistant().send(
            plan_request("something about the garage"),
            Some(listener.clone()),
        );
        (task, listener, rx)
    }

    #[test]
    fn cancel_stops_a_running_message() {
        let (_dir, coach) = file_coach();
        let (task, listener, rx) = blocked_message(&coach);
        // Wait for the model call to start (or for the task to fail before reaching it).
        while rx.try_recv().is_err() {
            assert!(
                !task.is_finished(),
                "ended before the model: {:?}",
                task.wait()
            );
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        assert!(!task.is_finished(), "the model is still working");
        task.cancel();
        assert_eq!(task.wait().unwrap_err(), CoachError::Cancelled);
        assert!(task.is_finished());
        assert_eq!(task.wait().unwrap_err(), CoachError::Cancelled);
        task.cancel(); // after the end: nothing happens
        let events = listener.events();
        assert_eq!(events.last(), Some(&AssistantEvent::Done), "{events:?}");
        assert_eq!(
            events
                .iter()
                .filter(|e| **e == AssistantEvent::Done)
                .count(),
            1
        );
        assert!(!events
            .iter()
            .any(|e| matches!(e, AssistantEvent::Result { .. })));
        assert_eq!(coach.planner().audit_log(10, None).unwrap(), vec![]);
    }

    /// A listener that panics on every event (a Swift or Kotlin listener that throws reaches the
    /// library as a panic).
    struct Panicking(std::sync::atomic::AtomicU32);

    impl AssistantListener for Panicking {
        fn on_event(&self, _: AssistantEvent) -> Result<(), coachcore::ffi::ListenerError> {
            self.0.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            panic!("listener bug");
        }
    }

    #[test]
    fn a_listener_that_always_panics_cannot_hang_wait() {
        let (_dir, coach) = file_coach();
        coach
            .model()
            .set(Some(ScriptedModel::texts([PROPOSAL, "Added."])))
            .unwrap();
        let listener = Arc::new(Panicking(Default::default()));
        let task = coach
            .assistant()
            .send(plan_request("something about mom"), Some(listener.clone()));
        let result = task
            .wait()
            .expect("the message goes on without its listener");
        assert_eq!(result.operations.len(), 1);
        assert_eq!(result.summary.as_deref(), Some("Added."));
        assert_eq!(
            listener.0.load(std::sync::atomic::Ordering::SeqCst),
            1,
            "called once, then ignored"
        );
        // Also when the message fails (no model): wait returns the error.
        coach.model().set(None).unwrap();
        let listener = Arc::new(Panicking(Default::default()));
        let task = coach.assistant().send(
            plan_request("sailing lesson with Tom"),
            Some(listener.clone()),
        );
        assert!(task.wait().is_err());
        assert_eq!(listener.0.load(std::sync::atomic::Ordering::SeqCst), 1);
    }

    #[test]
    fn dropping_the_task_handle_cancels_the_message() {
        let (_dir, coach) = file_coach();
        let (task, listener, rx) = blocked_message(&coach);
        rx.recv().unwrap();
        drop(task);
        // The model call is cancelled: the listener hears `Done` (the Blocking model would
        // otherwise never return).
        let started = std::time::Instant::now();
        while listener.events().last() != Some(&AssistantEvent::Done) {
            assert!(started.elapsed().as_secs() < 30, "not cancelled");
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
    }

    #[test]
    fn several_messages_run_at_once() {
        let (_dir, coach) = file_coach();
        let tasks: Vec<_> = (0..4)
            .map(|i| {
                coach
                    .model()
                    .set(Some(ScriptedModel::texts([PROPOSAL, "ok"])))
                    .unwrap();
                let t = coach
                    .assistant()
                    .send(plan_request(&format!("message {i}")), None);
                t
            })
            .collect();
        for t in tasks {
            assert_eq!(t.wait().unwrap().operations.len(), 1);
        }
    }
}
