//! The assistant's message pipeline on the real model (SmolLM2-135M-Instruct Q4_1,
//! `models/fetch.sh`) on a seeded planner file, in plan and auto mode: whatever the tiny model
//! proposes comes out validated (every returned operation passes a dry-run) or reported in
//! `invalid` with its reasons, never unvalidated; the events come in the spec's order with `done`
//! last; and the database is byte-identical afterwards. Prints the model's replies and timings
//! (with `--nocapture`).
//!
//! Model path: env `COACH_MODEL`, else `models/SmolLM2-135M-Instruct.Q4_1.gguf`. Without the file
//! the test prints a note and passes, except under CI (env `CI` set), where it fails.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use coachcore::assistant::apply::{apply_json, dry_run};
use coachcore::assistant::date::Date;
use coachcore::assistant::service::{run_message, AssistantSettings, EventSink};
use coachcore::assistant::shape::shape_typed;
use coachcore::assistant::{
    AssistantEvent, AssistantMode, AssistantRequest, AssistantResult, OpType, RouteDecision,
};
use coachcore::db::Store;
use coachcore::kernel::clock::FixedClock;
use coachcore::kernel::ids::IdGenerator;
use coachcore::llm::llama::{LlamaEngine, LlamaOptions};
use coachcore::llm::{
    CancelToken, GenerationRequest, GenerationResult, LanguageModel, LlmError, ModelInfo, Sampling,
    TokenListener,
};
use serde_json::json;

const TODAY: &str = "2026-11-18";

use crate::common::model_path;

/// The engine, printing every reply: what the model wrote and how long it took.
struct Printing(Arc<LlamaEngine>);

impl LanguageModel for Printing {
    fn info(&self) -> ModelInfo {
        self.0.info()
    }

    fn generate(
        &self,
        request: GenerationRequest,
        listener: Option<Arc<dyn TokenListener>>,
        cancel: Arc<CancelToken>,
    ) -> Result<GenerationResult, LlmError> {
        let schema = request.json_schema.is_some();
        let out = self.0.generate(request, listener, cancel);
        match &out {
            Ok(r) => eprintln!(
                "  reply (schema {schema}, {} prompt tokens in {} ms, {} tokens in {} ms, {:?}): {}",
                r.prompt_tokens,
                r.prompt_ms,
                r.completion_tokens,
                r.generation_ms,
                r.finish,
                r.text
            ),
            Err(e) => eprintln!("  model error: {e}"),
        }
        out
    }
}

#[derive(Default)]
struct Recorder(Mutex<Vec<AssistantEvent>>);

impl EventSink for Recorder {
    fn on_event(&self, event: AssistantEvent) {
        self.0.lock().unwrap().push(event);
    }
}

/// A stage's name (`routing`, ...) or the event's (`ops`, `done`, ...), as the JSON spells them.
fn name(e: &AssistantEvent) -> String {
    let v = serde_json::to_value(e).unwrap();
    let key = if v["event"] == "stage" {
        "stage"
    } else {
        "event"
    };
    v[key].as_str().unwrap().to_string()
}

struct Env {
    _dir: tempfile::TempDir,
    path: PathBuf,
    store: Store,
    clock: FixedClock,
}

impl Env {
    fn new() -> Env {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("planner.db");
        let store = Store::open(&path).unwrap();
        let clock = FixedClock::new(1_795_000_000_000);
        let ops = json!([
            {"op": "create", "kind": "todo", "title": "Buy milk", "scheduledFor": "2026-11-19",
             "priority": "high", "recurrence": {"type": "none"}},
            {"op": "create", "kind": "todo", "title": "Call the dentist", "recurrence": {"type": "none"}},
            {"op": "create", "kind": "habit", "title": "Morning run", "scheduledFor": "2026-11-16",
             "timeOfDay": "07:00", "recurrence": {"type": "daily"}},
            {"op": "create", "kind": "event", "title": "Team meeting", "scheduledFor": "2026-11-20",
             "timeOfDay": "10:00", "endTime": "11:00", "recurrence": {"type": "none"}},
            {"op": "goal_create", "kind": "goal", "title": "Get fit"}
        ]);
        apply_json(
            &store,
            &clock,
            &mut IdGenerator::seeded(3),
            &ops.to_string(),
            None,
            today(),
        )
        .unwrap();
        Env {
            _dir: dir,
            path,
            store,
            clock,
        }
    }

    fn files(&self) -> (Vec<u8>, Vec<u8>) {
        let side = rusqlite::Connection::open(&self.path).unwrap();
        side.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))
            .unwrap();
        drop(side);
        (
            std::fs::read(&self.path).unwrap(),
            std::fs::read(self.path.with_extension("db-wal")).unwrap_or_default(),
        )
    }
}

fn today() -> Date {
    Date::parse(TODAY).unwrap()
}

fn settings() -> AssistantSettings {
    AssistantSettings {
        heartbeat_ms: 250,
        sampling: Sampling::default(),
        timeout_ms: Some(120_000),
        router_max_tokens: 96,
        router_attempts: 2,
        propose_max_tokens: 200,
        summary_max_tokens: 48,
        chat_max_tokens: 48,
        ..AssistantSettings::default()
    }
}

/// Runs one message and checks what every run must satisfy; returns the result and the events
/// without heartbeats.
fn run(
    env: &Env,
    model: &dyn LanguageModel,
    mode: AssistantMode,
    message: &str,
) -> (AssistantResult, Vec<String>) {
    run_with(env, model, mode, message, &settings())
}

/// [`run`] with these settings.
fn run_with(
    env: &Env,
    model: &dyn LanguageModel,
    mode: AssistantMode,
    message: &str,
    settings: &AssistantSettings,
) -> (AssistantResult, Vec<String>) {
    let before = env.files();
    let sink = Recorder::default();
    let started = Instant::now();
    let out = run_message(
        &env.store,
        &env.clock,
        Some(model),
        &AssistantRequest {
            message: message.into(),
            mode,
            selection: None,
            today: Some(TODAY.into()),
            language: None,
        },
        &sink,
        &CancelToken::new(),
        settings,
    );
    eprintln!("{mode:?} {message:?}: {} ms", started.elapsed().as_millis());
    assert!(env.files() == before, "a message changed the database");
    let events = sink.0.into_inner().unwrap();
    assert_eq!(events.last(), Some(&AssistantEvent::Done), "done last");
    let names: Vec<String> = events
        .iter()
        .map(name)
        .filter(|n| n != "heartbeat" && n != "textDelta")
        .collect();
    let streamed: String = events
        .iter()
        .filter_map(|e| match e {
            AssistantEvent::TextDelta { text } => Some(text.as_str()),
            _ => None,
        })
        .collect();
    eprintln!("  events: {names:?}");
    let result = out.unwrap_or_else(|e| panic!("the pipeline failed: {e}"));
    // Only a chat answer streams (its deltas are the model's raw text, the summary its cleaning).
    assert_eq!(
        !streamed.is_empty(),
        result.decision == RouteDecision::Chat,
        "deltas {streamed:?} for a {:?} answer",
        result.decision
    );
    eprintln!(
        "  decision {:?}, {} valid, {} invalid, summary {:?} ({:?})",
        result.decision,
        result.operations.len(),
        result.invalid.len(),
        result.summary,
        result.summary_source
    );

    // Never unvalidated: every operation returned passes a dry-run against the database.
    let check = dry_run(&env.store, shape_typed(result.operations.clone()), today()).unwrap();
    assert!(
        check.all_valid(),
        "an unvalidated operation came out: {check:?}"
    );
    for c in &result.invalid {
        assert!(
            !c.valid && !c.errors.is_empty(),
            "reported with reasons: {c:?}"
        );
    }
    if let Some(AssistantEvent::Ops {
        version,
        operations,
        valid_count,
        invalid_count,
    }) = events
        .iter()
        .find(|e| matches!(e, AssistantEvent::Ops { .. }))
    {
        assert_eq!(*version, 1);
        assert_eq!(operations, &result.operations);
        assert_eq!(*valid_count as usize, result.operations.len());
        assert_eq!(*invalid_count as usize, result.invalid.len());
    }
    if let Some(AssistantEvent::Result { result: r }) = events
        .iter()
        .find(|e| matches!(e, AssistantEvent::Result { .. }))
    {
        assert_eq!(r, &result);
    }
    (result, names)
}

fn plan_events(names: &[String], routed: bool) {
    let mut want: Vec<&str> = Vec::new();
    if routed {
        want.push("routing");
    }
    want.extend(["proposing", "validating"]);
    if names.iter().any(|n| n == "repairing") {
        want.push("repairing");
    }
    want.extend(["ops", "summarizing", "summary", "result", "done"]);
    assert_eq!(names, want);
}

#[test]
fn real_model_plan_and_auto_are_validated_ordered_and_read_only() {
    let Some(path) = model_path() else { return };
    let engine = LlamaEngine::load(&path, LlamaOptions::default()).expect("load model");
    let model = Printing(engine);
    let env = Env::new();

    let (r, names) = run(
        &env,
        &model,
        AssistantMode::Plan,
        "Add a todo to buy bread tomorrow.",
    );
    assert_eq!(r.decision, RouteDecision::Plan);
    plan_events(&names, false);
    assert!(r.summary.as_deref().is_some_and(|s| !s.trim().is_empty()));

    let (r, names) = run(
        &env,
        &model,
        AssistantMode::Auto,
        "Move the team meeting to Friday at 3pm.",
    );
    match r.decision {
        // A message the reading understands takes the narrowed path: no routing.
        RouteDecision::Plan => plan_events(&names, names.first().is_some_and(|n| n == "routing")),
        RouteDecision::Chat => assert_eq!(names, ["routing", "summary", "done"]),
        RouteDecision::Clarify => {
            assert_eq!(names, ["routing", "clarify", "result", "done"]);
            let c = r.clarification.unwrap();
            assert!(!c.question.is_empty() && c.options.len() <= 5);
        }
    }
}

/// The full proposal on the real model writes under the message's own schema
/// (`assistant::proposal`): llama.cpp takes the grammar, and what comes back is only what the
/// words cue ("Add": new items only), validated.
#[test]
fn real_model_full_proposal_under_the_per_request_schema() {
    let Some(path) = model_path() else { return };
    let engine = LlamaEngine::load(&path, LlamaOptions::default()).expect("load model");
    let model = Printing(engine);
    let env = Env::new();
    // No time budget: this checks what the grammar lets the model write, however long it takes.
    let full = AssistantSettings {
        narrow: false,
        proposal_budget_ms: None,
        ..settings()
    };
    let (r, names) = run_with(
        &env,
        &model,
        AssistantMode::Plan,
        "Add a todo to buy bread tomorrow.",
        &full,
    );
    assert_eq!(r.decision, RouteDecision::Plan);
    plan_events(&names, false);
    for op in &r.operations {
        assert!(
            matches!(op.op, OpType::Create | OpType::GoalCreate),
            "only new items: {op:?}"
        );
        assert!(
            op.scheduled_for
                .as_deref()
                .is_none_or(|d| d == "2026-11-19"),
            "the only day the message means: {op:?}"
        );
    }
}
