//! Asking instead of guessing (issue 25, spec 002's clarify) through the message pipeline on a
//! real SQLite file: the narrowed path sends a clarifying question in the message's language
//! (with or without a model), the full proposal never changes a field the message does not
//! mention (and asks when nothing mentioned is left), and the full proposal stops at its time
//! budget and asks instead of running on.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use coachcore::assistant::apply::apply_json;
use coachcore::assistant::date::Date;
use coachcore::assistant::service::{run_message, AssistantSettings, EventSink};
use coachcore::assistant::{
    AssistantEvent, AssistantMode, AssistantRequest, AssistantResult, RouteDecision,
};
use coachcore::db::Store;
use coachcore::kernel::clock::FixedClock;
use coachcore::kernel::ids::IdGenerator;
use coachcore::llm::scripted::ScriptedModel;
use coachcore::llm::{
    CancelToken, GenerationRequest, GenerationResult, LanguageModel, LlmError, ModelInfo,
    TokenListener,
};
use serde_json::json;

const TODAY: &str = "2026-11-23"; // a Monday

/// A planner with a team meeting (Tuesday 10:00-11:00), a dentist appointment and a car
/// insurance todo; the ids in order.
struct Env {
    _dir: tempfile::TempDir,
    store: Store,
    team: String,
    dentist: String,
    car: String,
}

impl Env {
    fn new() -> Env {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path().join("planner.db")).unwrap();
        let ops = json!([
            {"op": "create", "kind": "event", "title": "Team meeting", "scheduledFor": "2026-11-24",
             "timeOfDay": "10:00", "endTime": "11:00", "recurrence": {"type": "none"}},
            {"op": "create", "kind": "event", "title": "Dentist appointment",
             "scheduledFor": "2026-11-25", "timeOfDay": "15:00", "endTime": "16:00",
             "recurrence": {"type": "none"}},
            {"op": "create", "kind": "todo", "title": "Renew car insurance",
             "scheduledFor": "2026-11-30", "recurrence": {"type": "none"}}
        ]);
        let applied = apply_json(
            &store,
            &FixedClock::new(1_795_000_000_000),
            &mut IdGenerator::seeded(3),
            &ops.to_string(),
            None,
            Date::parse(TODAY).unwrap(),
        )
        .unwrap();
        let id = |i: usize| applied.applied[i].id.clone();
        Env {
            team: id(0),
            dentist: id(1),
            car: id(2),
            _dir: dir,
            store,
        }
    }

    fn send(
        &self,
        model: Option<&dyn LanguageModel>,
        message: &str,
        language: Option<&str>,
        settings: &AssistantSettings,
    ) -> (AssistantResult, Vec<String>) {
        let sink = Recorder::default();
        let request = AssistantRequest {
            message: message.into(),
            mode: AssistantMode::Plan,
            selection: None,
            today: Some(TODAY.into()),
            language: language.map(str::to_string),
        };
        let out = run_message(
            &self.store,
            &FixedClock::new(1_795_000_000_000),
            model,
            &request,
            &sink,
            &CancelToken::new(),
            settings,
        )
        .unwrap();
        let events = sink.0.lock().unwrap().clone();
        let names = events
            .iter()
            .map(|e| {
                let v = serde_json::to_value(e).unwrap();
                let key = if v["event"] == "stage" {
                    "stage"
                } else {
                    "event"
                };
                v[key].as_str().unwrap().to_string()
            })
            .filter(|n| n != "heartbeat")
            .collect();
        (out, names)
    }
}

#[derive(Default)]
struct Recorder(Mutex<Vec<AssistantEvent>>);

impl EventSink for Recorder {
    fn on_event(&self, event: AssistantEvent) {
        self.0.lock().unwrap().push(event);
    }
}

fn settings(narrow: bool) -> AssistantSettings {
    AssistantSettings {
        heartbeat_ms: 0,
        narrow,
        ..AssistantSettings::default()
    }
}

#[test]
fn the_narrowed_path_asks_back_in_the_messages_language_with_or_without_a_model() {
    let env = Env::new();
    // No model: a name without an action is a question, not "No changes proposed".
    let (r, names) = env.send(None, "the insurance thing", None, &settings(true));
    assert_eq!(names, ["clarify", "result", "done"]);
    assert_eq!(r.decision, RouteDecision::Clarify);
    assert!(r.operations.is_empty() && r.summary.is_none());
    let c = r.clarification.unwrap();
    assert_eq!(
        c.question,
        "What should I do with “Renew car insurance”: move it, mark it done or delete it?"
    );
    assert_eq!(c.options[0].id, env.car);
    assert!(c.options.len() <= 5);
    // With a model: the model is not asked.
    let model = ScriptedModel::texts(["unused"]);
    let (r, _) = env.send(Some(&*model), "move it to friday", None, &settings(true));
    assert_eq!(r.decision, RouteDecision::Clarify);
    assert_eq!(r.clarification.unwrap().options.len(), 3);
    assert_eq!(model.remaining(), 1, "no model call for a question back");
    // The weekday and the date disagree: asked in German for a German message.
    let (r, names) = env.send(
        None,
        "move the team meeting to Tuesday Dec 7",
        Some("de-DE"),
        &settings(true),
    );
    assert_eq!(names, ["clarify", "result", "done"]);
    assert_eq!(r.reading_language, "de");
    let c = r.clarification.unwrap();
    assert_eq!(
        c.question,
        "Der 7. Dezember ist ein Montag, kein Dienstag. Welchen Tag meinst du?"
    );
    assert_eq!(c.options[0].id, env.team);
}

#[test]
fn the_full_proposal_never_changes_a_field_the_message_does_not_mention() {
    let env = Env::new();
    // "an hour later": the model moves the meeting and renames it to another item's title.
    let proposal = json!({"operations": [{"op": "update", "kind": "event", "id": env.team,
        "title": "Dentist appointment", "timeOfDay": "11:00", "endTime": "12:00",
        "priority": "high", "recurrence": {"type": "none"}}]});
    let model = ScriptedModel::texts([proposal.to_string(), "Moved.".into()]);
    let (r, _) = env.send(
        Some(&*model),
        "team meeting an hour later",
        None,
        &settings(false),
    );
    assert_eq!(r.decision, RouteDecision::Plan);
    assert_eq!(r.operations.len(), 1, "{r:?}");
    let op = &r.operations[0];
    assert_eq!(op.id.as_deref(), Some(env.team.as_str()));
    assert_eq!(op.title, None, "no rename nobody asked for");
    assert_eq!(op.priority, None, "no priority nobody asked for");
    assert_eq!(op.time_of_day.as_deref(), Some("11:00"));
    assert_eq!(op.end_time.as_deref(), Some("12:00"));
    let summary = r.summary.unwrap();
    assert!(
        summary.contains(
            "the title, priority the model set on “Team meeting” was not in the message: left out"
        ),
        "{summary}"
    );

    // A proposal that only renames: nothing the message mentions is left, so it asks.
    let rename = json!({"operations": [{"op": "update", "kind": "event", "id": env.dentist,
        "title": "Team meeting"}]});
    let model = ScriptedModel::texts([rename.to_string()]);
    let (r, names) = env.send(
        Some(&*model),
        "hmm the dentist, you know",
        None,
        &settings(false),
    );
    assert_eq!(
        names,
        ["proposing", "validating", "clarify", "result", "done"]
    );
    let c = r.clarification.unwrap();
    assert!(c.question.contains("Dentist appointment"), "{}", c.question);
    assert_eq!(c.options[0].id, env.dentist);

    // Asked for, a rename stays.
    let model = ScriptedModel::texts([rename.to_string(), "Renamed.".into()]);
    let (r, _) = env.send(
        Some(&*model),
        "rename the dentist thing to Team meeting",
        None,
        &settings(false),
    );
    assert_eq!(r.operations[0].title.as_deref(), Some("Team meeting"));
}

/// A model whose every call takes `delay`; when it `honours` the request's timeout, a call
/// fails with `TimedOut` at the timeout when that comes first.
struct Slow {
    inner: Arc<ScriptedModel>,
    delay: Duration,
    honours: bool,
}

impl LanguageModel for Slow {
    fn info(&self) -> ModelInfo {
        self.inner.info()
    }

    fn generate(
        &self,
        request: GenerationRequest,
        listener: Option<Arc<dyn TokenListener>>,
        cancel: Arc<CancelToken>,
    ) -> Result<GenerationResult, LlmError> {
        let limit = request.timeout_ms.map(Duration::from_millis);
        match limit {
            Some(limit) if self.honours && limit < self.delay => {
                std::thread::sleep(limit);
                Err(LlmError::TimedOut {
                    after_ms: limit.as_millis() as u64,
                })
            }
            _ => {
                std::thread::sleep(self.delay);
                self.inner.generate(request, listener, cancel)
            }
        }
    }
}

#[test]
fn the_full_proposal_stops_at_its_budget_and_asks() {
    let env = Env::new();
    let budget = AssistantSettings {
        proposal_budget_ms: Some(300),
        ..settings(false)
    };
    // A proposal slower than the whole budget: a question after the budget, not minutes.
    let slow = Slow {
        inner: ScriptedModel::texts(["{\"operations\":[]}"]),
        delay: Duration::from_secs(30),
        honours: true,
    };
    let started = Instant::now();
    let (r, names) = env.send(Some(&slow), "sailing lesson with Tom", None, &budget);
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(names, ["proposing", "clarify", "result", "done"]);
    assert_eq!(r.decision, RouteDecision::Clarify);
    assert_eq!(
        r.clarification.unwrap().question,
        "That took too long to work out. Which item do you mean, and what should change?"
    );

    // A model that ignores timeouts (an app's own may) and answers valid operations past the
    // budget: they are kept, with the rules' summary (no model summary past the budget).
    let create = json!({"operations": [{"op": "create", "kind": "todo", "title": "Sailing lesson",
        "recurrence": {"type": "none"}}]});
    let inner = ScriptedModel::texts([create.to_string(), "Added.".into()]);
    let slow = Slow {
        inner: inner.clone(),
        delay: Duration::from_millis(400),
        honours: false,
    };
    let (r, _) = env.send(Some(&slow), "sailing lesson with Tom", None, &budget);
    assert_eq!(r.decision, RouteDecision::Plan);
    assert_eq!(r.operations.len(), 1);
    assert_eq!(r.summary.as_deref(), Some("Create todo “Sailing lesson”."));
    assert_eq!(inner.remaining(), 1, "no summary call past the budget");
}
