//! "Code wins and the repair is reported" (issue 10), with the scripted model on a real SQLite
//! file: on the full-proposal path the dates and times the model wrote are checked against the
//! deterministic reading of the message, and where they disagree the reading's value is kept; on
//! the narrowed path a name the checks refuse gives way to the reading's. Either way the result's
//! summary says what the library corrected.

use coachcore::assistant::service::{run_message, AssistantSettings, EventSink};
use coachcore::assistant::{AssistantEvent, AssistantMode, AssistantRequest, AssistantResult};
use coachcore::db::Store;
use coachcore::kernel::clock::FixedClock;
use coachcore::llm::scripted::ScriptedModel;
use coachcore::llm::CancelToken;

const TODAY: &str = "2026-11-18"; // a Wednesday: "tomorrow" is 2026-11-19

struct Quiet;

impl EventSink for Quiet {
    fn on_event(&self, _event: AssistantEvent) {}
}

fn run(message: &str, replies: &[&str], narrow: bool) -> AssistantResult {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path().join("planner.db")).unwrap();
    let model = ScriptedModel::texts(replies.iter().copied());
    let settings = AssistantSettings {
        heartbeat_ms: 0,
        narrow,
        ..AssistantSettings::default()
    };
    let request = AssistantRequest {
        message: message.into(),
        mode: AssistantMode::Plan,
        selection: None,
        today: Some(TODAY.into()),
        language: None,
    };
    run_message(
        &store,
        &FixedClock::new(1_795_000_000_000),
        Some(&*model),
        &request,
        &Quiet,
        &CancelToken::new(),
        &settings,
    )
    .unwrap()
}

fn proposal(date: &str, time: &str) -> String {
    format!(
        r#"{{"operations":[{{"op":"create","kind":"event","title":"Dentist appointment","scheduledFor":"{date}","timeOfDay":"{time}","recurrence":{{"type":"none"}}}}]}}"#
    )
}

#[test]
fn the_models_date_and_time_give_way_to_the_reading_and_the_summary_says_so() {
    let message = "Add a dentist appointment tomorrow at 3pm";
    let wrong = proposal("2026-11-20", "16:00");
    let r = run(message, &[&wrong, "Added the dentist appointment."], false);
    assert_eq!(r.operations.len(), 1, "{r:?}");
    let op = &r.operations[0];
    assert_eq!(op.scheduled_for.as_deref(), Some("2026-11-19"));
    assert_eq!(op.time_of_day.as_deref(), Some("15:00"));
    assert!(r.invalid.is_empty(), "{:?}", r.invalid);
    let summary = r.summary.unwrap();
    assert!(
        summary.contains("(Corrected by the library: the date is 2026-11-19 (\"tomorrow\"), not the model's 2026-11-20; the time is 15:00"),
        "{summary}"
    );
    assert!(summary.contains("not the model's 16:00"), "{summary}");

    // The model agreeing with the reading: nothing corrected, nothing said.
    let right = proposal("2026-11-19", "15:00");
    let r = run(message, &[&right, "Added the dentist appointment."], false);
    assert_eq!(r.operations[0].scheduled_for.as_deref(), Some("2026-11-19"));
    assert!(!r.summary.unwrap().contains("Corrected"));
}

#[test]
fn a_refused_name_on_the_narrowed_path_is_reported_in_the_summary() {
    let message = "Remind me to call mom tomorrow";
    // A name with none of the message's words (the grammar would not allow it; a model the app
    // implements may ignore the grammar): the reading's title is kept.
    let r = run(message, &[r#"{"title":"Purchase bananas"}"#], true);
    assert_eq!(r.operations.len(), 1, "{r:?}");
    assert_eq!(r.operations[0].title.as_deref(), Some("Call mom"));
    assert_eq!(r.operations[0].scheduled_for.as_deref(), Some("2026-11-19"));
    let summary = r.summary.unwrap();
    assert!(
        summary.contains("(Corrected by the library: the model's title shared no word"),
        "{summary}"
    );
    // An acceptable name: nothing to report.
    let r = run(message, &[r#"{"title":"Call mom"}"#], true);
    assert!(!r.summary.unwrap().contains("Corrected"));
}
