//! The assistant's message pipeline (spec 002) with the scripted model on a real SQLite file:
//! the event order of every path (plan, auto to chat, auto to clarify, a follow-up with a
//! selection), the router's fallback, the repair pass (reasons in the prompt, the valid subset
//! kept, the rest reported), garbage model output, the rule-based summary fallback, heartbeats
//! during a slow call, the time budget of the full proposal, cancellation, that a message never
//! writes to the database, and asking instead of guessing (the narrowed path's question back in
//! the message's language; no change the message does not mention on the full proposal).

use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use coachcore::assistant::apply::{apply_json, dry_run_json};
use coachcore::assistant::date::Date;
use coachcore::assistant::service::{run_message, AssistantSettings, EventSink};
use coachcore::assistant::validate::OPS_SCHEMA;
use coachcore::assistant::{
    AssistantEvent, AssistantMode, AssistantRequest, AssistantResult, ClarifySelection, ItemKind,
    OpType, Priority, RouteDecision, SummarySource,
};
use coachcore::db::Store;
use coachcore::kernel::clock::FixedClock;
use coachcore::kernel::error::{CoachError, Error};
use coachcore::kernel::ids::IdGenerator;
use coachcore::llm::scripted::{ScriptedModel, ScriptedReply};
use coachcore::llm::{
    CancelToken, GenerationRequest, GenerationResult, LanguageModel, LlmError, ModelInfo,
    TokenListener,
};
use serde_json::{json, Value};

const T0: i64 = 1_795_000_000_000;
const TODAY: &str = "2026-11-18"; // a Wednesday; its week is 2026-11-16 to 2026-11-22

/// A planner on a file: a todo this week, a backlog todo, a daily habit, an event and a goal.
struct Env {
    _dir: tempfile::TempDir,
    path: PathBuf,
    store: Store,
    clock: FixedClock,
    milk: String,
    dentist_todo: String,
    run: String,
    dentist_event: String,
}

impl Env {
    fn new() -> Env {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("planner.db");
        let store = Store::open(&path).unwrap();
        let clock = FixedClock::new(T0);
        let ops = json!([
            {"op": "create", "kind": "todo", "title": "Buy milk", "scheduledFor": "2026-11-19",
             "priority": "high", "recurrence": {"type": "none"}},
            {"op": "create", "kind": "todo", "title": "Call dentist", "recurrence": {"type": "none"}},
            {"op": "create", "kind": "habit", "title": "Run", "scheduledFor": "2026-11-16",
             "timeOfDay": "07:00", "recurrence": {"type": "daily"}},
            {"op": "create", "kind": "event", "title": "Dentist appointment",
             "scheduledFor": "2026-11-20", "timeOfDay": "10:00", "endTime": "11:00",
             "recurrence": {"type": "none"}},
            {"op": "goal_create", "kind": "goal", "title": "Fitness"}
        ]);
        let applied = apply_json(
            &store,
            &clock,
            &mut IdGenerator::seeded(7),
            &ops.to_string(),
            None,
            Date::parse(TODAY).unwrap(),
        )
        .unwrap();
        let id = |i: usize| applied.applied[i].id.clone();
        Env {
            milk: id(0),
            dentist_todo: id(1),
            run: id(2),
            dentist_event: id(3),
            _dir: dir,
            path,
            store,
            clock,
        }
    }

    /// Fills the week and the backlog with 300 todos titled `title` and a number (ids from
    /// generators seeded from `seed`).
    fn fill(&self, title: &str, seed: u64) {
        let many: Vec<Value> = (0..300)
            .map(|i| {
                json!({"op": "create", "kind": "todo", "title": format!("{title} {i}"),
                       "scheduledFor": if i % 2 == 0 { Some("2026-11-17") } else { None },
                       "recurrence": {"type": "none"}})
            })
            .collect();
        for (i, chunk) in many.chunks(20).enumerate() {
            apply_json(
                &self.store,
                &self.clock,
                &mut IdGenerator::seeded(seed + i as u64),
                &Value::Array(chunk.to_vec()).to_string(),
                None,
                Date::parse(TODAY).unwrap(),
            )
            .unwrap();
        }
    }

    /// The database and WAL bytes after emptying the WAL into the database.
    fn files(&self) -> (Vec<u8>, Vec<u8>) {
        let side = rusqlite::Connection::open(&self.path).unwrap();
        side.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))
            .unwrap();
        drop(side);
        let wal = self.path.with_extension("db-wal");
        (
            std::fs::read(&self.path).unwrap(),
            std::fs::read(&wal).unwrap_or_default(),
        )
    }

    fn run(
        &self,
        model: Option<&dyn LanguageModel>,
        request: &AssistantRequest,
        settings: &AssistantSettings,
        cancel: &Arc<CancelToken>,
    ) -> (
        coachcore::kernel::error::Result<AssistantResult>,
        Vec<AssistantEvent>,
    ) {
        let before = self.files();
        let sink = Recorder::default();
        let out = run_message(
            &self.store,
            &self.clock,
            model,
            request,
            &sink,
            cancel,
            settings,
        );
        assert!(self.files() == before, "a message changed the database");
        let events = sink.0.lock().unwrap().clone();
        assert_eq!(
            events.last(),
            Some(&AssistantEvent::Done),
            "done comes last"
        );
        assert_eq!(
            events
                .iter()
                .filter(|e| **e == AssistantEvent::Done)
                .count(),
            1
        );
        (out, events)
    }

    fn message(
        &self,
        model: &dyn LanguageModel,
        request: &AssistantRequest,
    ) -> (
        coachcore::kernel::error::Result<AssistantResult>,
        Vec<AssistantEvent>,
    ) {
        self.run(Some(model), request, &quiet(), &CancelToken::new())
    }
}

/// Settings without heartbeats (so event lists are exact).
fn quiet() -> AssistantSettings {
    AssistantSettings {
        heartbeat_ms: 0,
        narrow: false,
        ..AssistantSettings::default()
    }
}

fn request(mode: AssistantMode, message: &str) -> AssistantRequest {
    AssistantRequest {
        message: message.into(),
        mode,
        selection: None,
        today: Some(TODAY.into()),
        language: None,
    }
}

#[derive(Default)]
struct Recorder(Mutex<Vec<AssistantEvent>>);

impl EventSink for Recorder {
    fn on_event(&self, event: AssistantEvent) {
        self.0.lock().unwrap().push(event);
    }
}

/// The events as short names: a stage's name (`routing`, `proposing`, ...) or the event's
/// (`clarify`, `ops`, `summary`, `result`, `heartbeat`, `done`), as the JSON spells them. The
/// chat answer's `textDelta`s are left out (`assistant_stream.rs` checks them).
fn names(events: &[AssistantEvent]) -> Vec<String> {
    events
        .iter()
        .filter(|e| !matches!(e, AssistantEvent::TextDelta { .. }))
        .map(|e| {
            let v = serde_json::to_value(e).unwrap();
            let key = if v["event"] == "stage" {
                "stage"
            } else {
                "event"
            };
            v[key].as_str().unwrap().to_string()
        })
        .collect()
}

const PLAN_EVENTS: [&str; 7] = [
    "proposing",
    "validating",
    "ops",
    "summarizing",
    "summary",
    "result",
    "done",
];

fn ops_event(
    events: &[AssistantEvent],
) -> (u32, Vec<coachcore::assistant::PlannerOperation>, u32, u32) {
    events
        .iter()
        .find_map(|e| match e {
            AssistantEvent::Ops {
                version,
                operations,
                valid_count,
                invalid_count,
            } => Some((*version, operations.clone(), *valid_count, *invalid_count)),
            _ => None,
        })
        .expect("an ops event")
}

fn router(decision: &str, confidence: f64, entities: &[&str], question: &str) -> String {
    json!({"decision": decision, "category": "schedule", "entities": entities, "missing": [],
           "confidence": confidence, "question": question})
    .to_string()
}

const BREAD: &str = r#"{"operations":[{"op":"create","kind":"todo","title":"Buy bread","scheduledFor":"2026-11-19","recurrence":{"type":"none"}}]}"#;

/// The JSON Schema of a proposal request: the message's own, not the general operations schema.
fn request_schema(req: &GenerationRequest) -> jsonschema::Validator {
    let text = req.json_schema.as_deref().expect("a schema");
    assert_ne!(text, OPS_SCHEMA);
    jsonschema::validator_for(&serde_json::from_str::<Value>(text).unwrap()).unwrap()
}

/// The alias the prompt gives the item titled `title`, e.g. `t1`.
fn alias_in(prompt: &str, title: &str) -> String {
    let line = prompt
        .lines()
        .find(|l| l.contains(&format!("\"{title}\"")))
        .unwrap_or_else(|| panic!("{title} not in the prompt:\n{prompt}"));
    let start = line.find('[').unwrap() + 1;
    let end = line.find(']').unwrap();
    line[start..end].to_string()
}

#[test]
fn plan_mode_proposes_validates_and_summarises_in_order() {
    let env = Env::new();
    let model = ScriptedModel::texts([
        BREAD,
        "<think>short</think><response>I'll add **Buy bread** for tomorrow.</response>",
    ]);
    let (out, events) = env.message(
        &*model,
        &request(AssistantMode::Plan, "add buy bread tomorrow"),
    );
    let r = out.unwrap();
    assert_eq!(names(&events), PLAN_EVENTS);
    assert_eq!(r.decision, RouteDecision::Plan);
    assert_eq!(r.route, None);
    assert_eq!(r.operations.len(), 1);
    assert_eq!(r.operations[0].op, OpType::Create);
    assert_eq!(r.operations[0].title.as_deref(), Some("Buy bread"));
    assert!(r.invalid.is_empty());
    assert_eq!(
        r.summary.as_deref(),
        Some("I'll add Buy bread for tomorrow.")
    );
    assert_eq!(r.summary_source, Some(SummarySource::Model));
    let (version, ops, valid, invalid) = ops_event(&events);
    assert_eq!(
        (version, ops, valid, invalid),
        (1, r.operations.clone(), 1, 0)
    );
    assert_eq!(
        events[events.len() - 3],
        AssistantEvent::Summary {
            text: "I'll add Buy bread for tomorrow.".into()
        }
    );
    assert_eq!(
        events[events.len() - 2],
        AssistantEvent::Result { result: r.clone() }
    );

    let reqs = model.requests();
    assert_eq!(reqs.len(), 2);
    // The message's own schema (`assistant::proposal`): the answer validates against it; an
    // id that is no alias, or another day than tomorrow, does not.
    let schema = request_schema(&reqs[0]);
    assert!(schema.is_valid(&serde_json::from_str(BREAD).unwrap()));
    let other_day = BREAD.replace("2026-11-19", "2026-11-20");
    assert!(!schema.is_valid(&serde_json::from_str(&other_day).unwrap()));
    let system = &reqs[0].messages[0].content;
    // "add": only new items.
    let milk = json!({"operations": [{"op": "delete", "kind": "todo", "id": alias_in(system, "Buy milk")}]});
    assert!(!schema.is_valid(&milk));
    assert!(
        system.contains("Today is 2026-11-18 (Wednesday)."),
        "{system}"
    );
    assert!(
        system.contains("This week (2026-11-16 to 2026-11-22)"),
        "{system}"
    );
    for title in [
        "Buy milk",
        "Run",
        "Dentist appointment",
        "Call dentist",
        "Fitness",
    ] {
        alias_in(system, title);
    }
    assert!(!system.contains(&env.milk), "ids are aliased");
    assert_eq!(reqs[0].messages[1].content, "add buy bread tomorrow");
    assert_eq!(reqs[1].json_schema, None);
    assert!(reqs[1].messages[1]
        .content
        .contains("Create todo “Buy bread” on 2026-11-19"));
}

#[test]
fn aliases_in_the_proposal_become_real_ids() {
    let env = Env::new();
    let model = ScriptedModel::texts(["", "Done."]);
    // First learn the aliases from a run's prompt.
    let _ = env.message(&*model, &request(AssistantMode::Plan, "x"));
    let prompt = model.requests()[0].messages[0].content.clone();
    let (milk, run) = (alias_in(&prompt, "Buy milk"), alias_in(&prompt, "Run"));
    let proposal = json!({"operations": [
        {"op": "update", "kind": "todo", "id": milk, "scheduledFor": "2026-11-21", "recurrence": {"type": "none"}},
        {"op": "complete_occurrence", "kind": "habit", "id": format!("[{}]", run.to_uppercase()), "occurrenceDate": "2026-11-18"}
    ]});
    let model = ScriptedModel::new([
        ScriptedReply::Text(proposal.to_string()),
        ScriptedReply::Fail(LlmError::Backend {
            detail: "down".into(),
        }),
    ]);
    let (out, _) = env.message(
        &*model,
        &request(AssistantMode::Plan, "move milk to saturday, ran today"),
    );
    let r = out.unwrap();
    assert!(r.invalid.is_empty(), "{:?}", r.invalid);
    assert_eq!(r.operations[0].id.as_deref(), Some(env.milk.as_str()));
    assert_eq!(r.operations[1].id.as_deref(), Some(env.run.as_str()));
    assert_eq!(r.summary_source, Some(SummarySource::Rules));
    assert_eq!(
        r.summary.as_deref(),
        Some("Update todo “Buy milk” (date 2026-11-21); Complete habit “Run” on 2026-11-18.")
    );
}

#[test]
fn auto_chat_sends_only_routing_summary_and_done() {
    let env = Env::new();
    let model = ScriptedModel::texts([
        router("chat", 0.9, &["friday"], ""),
        "<think>look at friday</think>On Friday you have the **dentist** at 10:00.".into(),
    ]);
    let (out, events) = env.message(&*model, &request(AssistantMode::Auto, "what's on friday?"));
    let r = out.unwrap();
    assert_eq!(names(&events), ["routing", "summary", "done"]);
    assert_eq!(r.decision, RouteDecision::Chat);
    let route = r.route.unwrap();
    assert_eq!(
        (route.model_decision, route.confidence),
        (RouteDecision::Chat, 0.9)
    );
    assert_eq!(
        r.summary.as_deref(),
        Some("On Friday you have the dentist at 10:00.")
    );
    assert!(r.operations.is_empty());
    let reqs = model.requests();
    assert_eq!(
        reqs[0].json_schema.as_deref(),
        Some(coachcore::assistant::router::ROUTER_SCHEMA)
    );
    assert_eq!(reqs[1].json_schema, None);
}

#[test]
fn chat_mode_sends_only_summary_and_done() {
    let env = Env::new();
    let model = ScriptedModel::texts(["You are doing fine."]);
    let (out, events) = env.message(&*model, &request(AssistantMode::Chat, "how am I doing?"));
    assert_eq!(names(&events), ["summary", "done"]);
    assert_eq!(out.unwrap().summary.as_deref(), Some("You are doing fine."));
    // A chat answer with nothing left after cleaning is an error, still ending with done.
    let model = ScriptedModel::texts(["```json\n{\"a\":1}\n```"]);
    let (out, events) = env.message(&*model, &request(AssistantMode::Chat, "hi"));
    assert!(matches!(
        out,
        Err(Error::Llm(LlmError::InvalidOutput { .. }))
    ));
    assert_eq!(names(&events), ["done"]);
}

#[test]
fn auto_clarify_offers_ranked_options() {
    let env = Env::new();
    let model = ScriptedModel::texts([router(
        "clarify",
        0.8,
        &["dentist"],
        "Which dentist item do you mean?",
    )]);
    let (out, events) = env.message(
        &*model,
        &request(AssistantMode::Auto, "move the dentist thing"),
    );
    let r = out.unwrap();
    assert_eq!(names(&events), ["routing", "clarify", "result", "done"]);
    assert_eq!(r.decision, RouteDecision::Clarify);
    let c = r.clarification.clone().unwrap();
    assert_eq!(c.question, "Which dentist item do you mean?");
    let ids: Vec<&str> = c.options.iter().map(|o| o.id.as_str()).collect();
    // Both match "dentist" once; equal priority (medium); the dated event comes first.
    assert_eq!(
        ids,
        vec![env.dentist_event.as_str(), env.dentist_todo.as_str()]
    );
    assert_eq!(c.options[0].kind, ItemKind::Event);
    assert_eq!(c.options[0].scheduled_for.as_deref(), Some("2026-11-20"));
    assert_eq!(events[1], AssistantEvent::Clarify { clarification: c });
    assert_eq!(model.remaining(), 0, "no proposal after clarify");

    // A confident "plan" below the clarify threshold clarifies too, with the default question.
    let model = ScriptedModel::texts([router("plan", 0.44, &[], "")]);
    let (out, events) = env.message(&*model, &request(AssistantMode::Auto, "buy milk"));
    let r = out.unwrap();
    assert_eq!(names(&events), ["routing", "clarify", "result", "done"]);
    let c = r.clarification.unwrap();
    assert_eq!(c.question, "Which one do you mean?");
    assert_eq!(c.options[0].id, env.milk);
    assert_eq!(r.route.unwrap().model_decision, RouteDecision::Plan);
}

#[test]
fn auto_plan_and_low_confidence_chat_plan() {
    let env = Env::new();
    for (decision, confidence) in [("plan", 0.45), ("chat", 0.69)] {
        let model = ScriptedModel::texts([
            router(decision, confidence, &["bread"], ""),
            BREAD.into(),
            "Adding bread.".into(),
        ]);
        let (out, events) = env.message(&*model, &request(AssistantMode::Auto, "bread tomorrow"));
        let r = out.unwrap();
        let mut want = vec!["routing"];
        want.extend(PLAN_EVENTS);
        assert_eq!(names(&events), want);
        assert_eq!(r.decision, RouteDecision::Plan);
        assert_eq!(r.route.unwrap().decision, RouteDecision::Plan);
        assert_eq!(r.operations.len(), 1);
        assert!(model.requests()[1].messages[0]
            .content
            .contains("The message mentions: \"bread\"."));
    }
}

#[test]
fn a_failing_router_falls_back_to_plan() {
    let env = Env::new();
    let model = ScriptedModel::texts([
        "I think you want to plan.",
        "{\"decision\": \"maybe\", \"confidence\": 0.9}",
        BREAD,
        "Adding bread.",
    ]);
    let (out, events) = env.message(&*model, &request(AssistantMode::Auto, "bread"));
    let r = out.unwrap();
    let mut want = vec!["routing"];
    want.extend(PLAN_EVENTS);
    assert_eq!(names(&events), want);
    assert_eq!((r.decision, r.route), (RouteDecision::Plan, None));
    let reqs = model.requests();
    assert!(
        reqs[1]
            .messages
            .last()
            .unwrap()
            .content
            .contains("holds no JSON object"),
        "the router's repair says what was wrong"
    );
}

#[test]
fn a_follow_up_with_a_selection_skips_the_router_and_seeds_where() {
    let env = Env::new();
    let model = ScriptedModel::texts(["", "ok"]);
    let _ = env.message(&*model, &request(AssistantMode::Plan, "x"));
    let milk = alias_in(&model.requests()[0].messages[0].content, "Buy milk");
    let proposal = json!({"operations": [{"op": "update", "kind": "todo", "id": milk,
        "scheduledFor": "2026-11-21", "priority": "low", "recurrence": {"type": "none"}}]});
    let model = ScriptedModel::texts([proposal.to_string(), "Moved.".into()]);
    let mut req = request(AssistantMode::Auto, "move it");
    req.selection = Some(ClarifySelection {
        ids: vec![env.milk.clone(), "no-such-id".into()],
        date: Some("2026-11-21".into()),
        priority: Some(Priority::Low),
    });
    let (out, events) = env.message(&*model, &req);
    let r = out.unwrap();
    assert_eq!(names(&events), PLAN_EVENTS, "no routing");
    assert_eq!(r.route, None);
    assert_eq!(r.operations[0].id.as_deref(), Some(env.milk.as_str()));
    let system = &model.requests()[0].messages[0].content;
    assert!(
        system.contains(&format!(
            "The user answered a question and chose: the items [{milk}] todo \"Buy milk\" 2026-11-19 high, the date 2026-11-21, priority low."
        )),
        "{system}"
    );

    // An empty selection is none: auto mode routes.
    let model = ScriptedModel::texts([router("chat", 0.95, &[], ""), "Hello.".into()]);
    req.selection = Some(ClarifySelection::default());
    let (_, events) = env.message(&*model, &req);
    assert_eq!(names(&events), ["routing", "summary", "done"]);
}

/// The issue messages validation gives `op` (as the repair prompt must quote them).
fn reasons(env: &Env, op: &Value) -> Vec<String> {
    let v = dry_run_json(
        &env.store,
        &json!([op]).to_string(),
        Date::parse(TODAY).unwrap(),
    )
    .unwrap();
    assert!(!v.checks[0].valid, "{op} should be invalid");
    v.checks[0]
        .errors
        .iter()
        .map(|e| e.message.clone())
        .collect()
}

#[test]
fn the_repair_pass_gets_the_reasons_and_fixes_the_proposal() {
    let env = Env::new();
    let bad = json!({"op": "create", "kind": "habit", "title": "Stretch", "scheduledFor": "2026-11-19",
                     "recurrence": {"type": "none"}});
    let good = json!({"op": "create", "kind": "todo", "title": "Buy bread", "recurrence": {"type": "none"}});
    let fixed = json!({"op": "create", "kind": "habit", "title": "Stretch", "scheduledFor": "2026-11-19",
                       "recurrence": {"type": "daily"}});
    let model = ScriptedModel::texts([
        json!({"operations": [good, bad]}).to_string(),
        json!({"operations": [fixed]}).to_string(),
        "Adding bread and a daily stretch.".into(),
    ]);
    let (out, events) = env.message(
        &*model,
        &request(AssistantMode::Plan, "bread, and stretch daily"),
    );
    let r = out.unwrap();
    assert_eq!(
        names(&events),
        [
            "proposing",
            "validating",
            "repairing",
            "ops",
            "summarizing",
            "summary",
            "result",
            "done"
        ]
    );
    assert!(r.invalid.is_empty(), "{:?}", r.invalid);
    let titles: Vec<&str> = r
        .operations
        .iter()
        .map(|o| o.title.as_deref().unwrap())
        .collect();
    assert_eq!(titles, ["Buy bread", "Stretch"]);
    assert_eq!(ops_event(&events).2, 2);

    let reqs = model.requests();
    assert_eq!(reqs.len(), 3);
    let repair = &reqs[1];
    assert_eq!(
        repair.json_schema, reqs[0].json_schema,
        "the same per-request schema"
    );
    let schema = request_schema(repair);
    assert!(
        !schema.is_valid(&json!({"operations": [bad]})),
        "a habit must repeat"
    );
    assert!(schema.is_valid(&json!({"operations": [good]})));
    // No intent cue: any operation, on the aliases shown, never on a real id.
    let milk = alias_in(&repair.messages[0].content, "Buy milk");
    assert!(schema.is_valid(&json!({"operations": [{"op": "delete", "kind": "todo", "id": milk}]})));
    let real_id = json!({"operations": [{"op": "delete", "kind": "todo", "id": env.milk}]});
    assert!(!schema.is_valid(&real_id));
    let msgs = &repair.messages;
    assert_eq!(
        msgs.len(),
        4,
        "system, user, the first answer, the repair request"
    );
    assert!(msgs[2].content.contains("\"Stretch\""));
    let ask = &msgs[3].content;
    assert!(ask.contains("1. {"), "{ask}");
    assert!(ask.contains("\"title\":\"Stretch\""), "{ask}");
    assert!(
        !ask.contains("Buy bread"),
        "only the invalid operation: {ask}"
    );
    for reason in reasons(&env, &bad) {
        assert!(ask.contains(&reason), "{reason} missing from {ask}");
    }
    assert!(ask.contains("corrected versions of these 1 operations"));
}

#[test]
fn still_invalid_after_repair_keeps_the_valid_subset_and_reports_the_rest() {
    let env = Env::new();
    let good = json!({"op": "create", "kind": "todo", "title": "Buy bread", "recurrence": {"type": "none"}});
    let habit_none = json!({"op": "create", "kind": "habit", "title": "Stretch",
                            "scheduledFor": "2026-11-19", "recurrence": {"type": "none"}});
    let unknown = json!({"op": "delete", "kind": "todo", "id": "nope"});
    let habit_fixed = json!({"op": "create", "kind": "habit", "title": "Stretch",
                             "scheduledFor": "2026-11-19", "recurrence": {"type": "weekly"}});
    let extra_bad = json!({"op": "complete", "kind": "todo", "id": "ghost"});
    let model = ScriptedModel::texts([
        json!({"operations": [good, habit_none, unknown]}).to_string(),
        // Fixes the habit, repeats the unknown delete, and adds an extra invalid op and a duplicate.
        json!({"operations": [habit_fixed, unknown, extra_bad, good]}).to_string(),
        "<b></b>".into(),
    ]);
    let (out, events) = env.message(&*model, &request(AssistantMode::Plan, "stuff"));
    let r = out.unwrap();
    let titles: Vec<Option<&str>> = r.operations.iter().map(|o| o.title.as_deref()).collect();
    assert_eq!(
        titles,
        [Some("Buy bread"), Some("Stretch")],
        "first-pass valid first, no duplicate"
    );
    let reported: Vec<(u32, &str)> = r
        .invalid
        .iter()
        .map(|c| (c.index, c.errors[0].code.as_str()))
        .collect();
    assert_eq!(reported, [(2, "unknown_id"), (3, "unknown_id")]);
    assert!(r.invalid.iter().all(|c| !c.valid));
    let (_, ops, valid, invalid) = ops_event(&events);
    assert_eq!((ops.len(), valid, invalid), (2, 2, 2));
    assert_eq!(
        r.summary_source,
        Some(SummarySource::Rules),
        "\"<b></b>\" cleans to nothing"
    );
    assert_eq!(
        r.summary.as_deref(),
        Some("Create todo “Buy bread”; Create habit “Stretch” on 2026-11-19, repeating weekly. 2 proposed changes were invalid.")
    );

    // When the repair answer is unreadable, the first pass's invalid ones are reported.
    let model = ScriptedModel::texts([
        json!({"operations": [good, habit_none, unknown]}).to_string(),
        "Sorry, I cannot fix these.".into(),
        "Summary.".into(),
    ]);
    let (out, _) = env.message(&*model, &request(AssistantMode::Plan, "stuff"));
    let r = out.unwrap();
    assert_eq!(r.operations.len(), 1);
    let reported: Vec<u32> = r.invalid.iter().map(|c| c.index).collect();
    assert_eq!(reported, [1, 2]);
    assert_eq!(r.invalid[0].errors[0].code, "habit_must_repeat");
}

#[test]
fn garbage_output_is_read_or_repaired() {
    let env = Env::new();
    // Reasoning, prose and fences around the JSON.
    let wrapped = format!("<think>they want bread {{\"x\":1}}</think>Sure! Here it is:\n```json\n{BREAD}\n```\nAnything else?");
    let model = ScriptedModel::texts([wrapped.as_str(), "Bread added."]);
    let (out, events) = env.message(&*model, &request(AssistantMode::Plan, "bread"));
    assert_eq!(names(&events), PLAN_EVENTS);
    assert_eq!(out.unwrap().operations.len(), 1);

    // A single operation without the wrapper, and a bare array.
    let single =
        r#"{"op":"create","kind":"todo","title":"Buy bread","recurrence":{"type":"none"}}"#;
    for text in [single.to_string(), format!("[{single}]")] {
        let model = ScriptedModel::texts([text.as_str(), "Bread added."]);
        let (out, events) = env.message(&*model, &request(AssistantMode::Plan, "bread"));
        assert_eq!(names(&events), PLAN_EVENTS, "{text}");
        assert_eq!(out.unwrap().operations.len(), 1);
    }

    // Prose only: the repair pass asks again with the parse error, and its answer is used.
    let model = ScriptedModel::texts(["I would add bread.", BREAD, "Bread added."]);
    let (out, events) = env.message(&*model, &request(AssistantMode::Plan, "bread"));
    assert!(names(&events).iter().any(|n| n == "repairing"));
    assert_eq!(out.unwrap().operations.len(), 1);
    let ask = &model.requests()[1].messages[3].content;
    assert!(ask.contains("no JSON object found"), "{ask}");

    // Garbage twice and a failing summary: no operations, a rule-based summary.
    let model = ScriptedModel::new([
        ScriptedReply::Text("<think>never ends".into()),
        ScriptedReply::Text("{\"operations\": 5}".into()),
        ScriptedReply::Fail(LlmError::TimedOut { after_ms: 10 }),
    ]);
    let (out, events) = env.message(&*model, &request(AssistantMode::Plan, "bread"));
    let r = out.unwrap();
    assert_eq!(
        names(&events),
        [
            "proposing",
            "validating",
            "repairing",
            "ops",
            "summarizing",
            "summary",
            "result",
            "done"
        ]
    );
    // Nothing readable twice: reported as one unreadable proposal, not as "nothing to change".
    assert!(r.operations.is_empty());
    assert_eq!(r.invalid.len(), 1, "{:?}", r.invalid);
    assert_eq!(r.invalid[0].operation, None);
    assert!(!r.invalid[0].valid);
    assert_eq!(r.invalid[0].errors.len(), 1);
    assert_eq!(r.invalid[0].errors[0].code, "invalid_json");
    assert_eq!(
        r.summary.as_deref(),
        Some("No changes proposed. 1 proposed change was invalid.")
    );
    assert_eq!(r.summary_source, Some(SummarySource::Rules));
    assert_eq!(model.remaining(), 1, "no model summary of nothing");
}

#[test]
fn model_failures_fall_back_or_end_with_done() {
    let env = Env::new();
    // The summary call fails: rule-based summary.
    let model = ScriptedModel::new([
        ScriptedReply::Text(BREAD.into()),
        ScriptedReply::Fail(LlmError::Backend {
            detail: "oops".into(),
        }),
    ]);
    let (out, events) = env.message(&*model, &request(AssistantMode::Plan, "bread"));
    assert_eq!(names(&events), PLAN_EVENTS);
    let r = out.unwrap();
    assert_eq!(
        r.summary.as_deref(),
        Some("Create todo “Buy bread” on 2026-11-19.")
    );
    assert_eq!(r.summary_source, Some(SummarySource::Rules));

    // The proposal call fails: the error, after done.
    let model = ScriptedModel::new([ScriptedReply::Fail(LlmError::TimedOut { after_ms: 5 })]);
    let (out, events) = env.message(&*model, &request(AssistantMode::Plan, "bread"));
    assert!(matches!(
        out,
        Err(Error::Llm(LlmError::TimedOut { after_ms: 5 }))
    ));
    assert_eq!(names(&events), ["proposing", "done"]);

    // No model at all.
    for mode in [
        AssistantMode::Plan,
        AssistantMode::Chat,
        AssistantMode::Auto,
    ] {
        let (out, events) = env.run(None, &request(mode, "bread"), &quiet(), &CancelToken::new());
        assert!(matches!(out, Err(Error::InvalidArgument(_))), "{mode:?}");
        assert_eq!(names(&events), ["done"]);
    }

    // Bad input.
    let model = ScriptedModel::texts([BREAD]);
    let (out, events) = env.message(&*model, &request(AssistantMode::Plan, "  "));
    assert!(matches!(out, Err(Error::InvalidArgument(_))));
    assert_eq!(names(&events), ["done"]);
    let mut req = request(AssistantMode::Plan, "bread");
    req.today = Some("18/11/2026".into());
    let (out, _) = env.message(&*model, &req);
    assert!(matches!(out, Err(Error::InvalidArgument(_))));
    assert_eq!(model.remaining(), 1, "no model call for bad input");
}

/// A scripted model whose every call takes `delay`, or waits for cancellation when `block`;
/// when it `honours` the request's timeout, a call fails with `TimedOut` at the timeout when
/// that comes first.
struct Slow {
    inner: Arc<ScriptedModel>,
    delay: Duration,
    block: bool,
    honours: bool,
    /// Set when a call has started: a test cancels only once the model is working.
    entered: Arc<std::sync::atomic::AtomicBool>,
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
        self.entered
            .store(true, std::sync::atomic::Ordering::SeqCst);
        if self.block {
            while !cancel.is_cancelled() {
                std::thread::sleep(Duration::from_millis(2));
            }
            return Err(LlmError::Cancelled);
        }
        match request.timeout_ms.map(Duration::from_millis) {
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
fn heartbeats_come_while_the_model_works_and_never_after_done() {
    let env = Env::new();
    let model = Slow {
        inner: ScriptedModel::texts([BREAD, "Bread."]),
        // 100 heartbeat periods per call: a heartbeat comes even on a machine busy enough to
        // hold the heartbeat thread back for most of a second.
        delay: Duration::from_millis(1000),
        block: false,
        honours: false,
        entered: Arc::default(),
    };
    let settings = AssistantSettings {
        heartbeat_ms: 10,
        narrow: false,
        ..AssistantSettings::default()
    };
    let (out, events) = env.run(
        Some(&model),
        &request(AssistantMode::Plan, "bread"),
        &settings,
        &CancelToken::new(),
    );
    out.unwrap();
    let n = names(&events);
    let proposing = n.iter().position(|e| *e == "proposing").unwrap();
    let validating = n.iter().position(|e| *e == "validating").unwrap();
    let summarizing = n.iter().position(|e| *e == "summarizing").unwrap();
    let summary = n.iter().position(|e| *e == "summary").unwrap();
    assert!(
        n[proposing + 1..validating]
            .iter()
            .any(|e| e == "heartbeat"),
        "a heartbeat during the proposal call: {n:?}"
    );
    assert!(
        n[summarizing + 1..summary].iter().any(|e| e == "heartbeat"),
        "a heartbeat during the summary call: {n:?}"
    );
    assert!(
        n[validating..summarizing].iter().all(|e| *e != "heartbeat"),
        "none between calls"
    );
    let without: Vec<String> = n.into_iter().filter(|e| *e != "heartbeat").collect();
    assert_eq!(without, PLAN_EVENTS);
}

#[test]
fn the_full_proposal_stops_at_its_time_budget_and_asks() {
    let env = Env::new();
    let budget = AssistantSettings {
        proposal_budget_ms: Some(300),
        ..quiet()
    };
    // A proposal slower than the whole budget: a question after the budget, not minutes.
    let slow = Slow {
        inner: ScriptedModel::texts(["{\"operations\":[]}"]),
        delay: Duration::from_secs(30),
        block: false,
        honours: true,
        entered: Arc::default(),
    };
    let started = Instant::now();
    let (out, events) = env.run(
        Some(&slow),
        &request(AssistantMode::Plan, "sailing lesson with Tom"),
        &budget,
        &CancelToken::new(),
    );
    let r = out.unwrap();
    let took = started.elapsed();
    assert!(took < Duration::from_secs(10), "{took:?}");
    assert_eq!(names(&events), ["proposing", "clarify", "result", "done"]);
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
        block: false,
        honours: false,
        entered: Arc::default(),
    };
    let (out, _) = env.run(
        Some(&slow),
        &request(AssistantMode::Plan, "sailing lesson with Tom"),
        &budget,
        &CancelToken::new(),
    );
    let r = out.unwrap();
    assert_eq!(r.decision, RouteDecision::Plan);
    assert_eq!(r.operations.len(), 1);
    assert_eq!(r.summary.as_deref(), Some("Create todo “Sailing lesson”."));
    assert_eq!(inner.remaining(), 1, "no summary call past the budget");
}

#[test]
fn cancellation_mid_call_returns_cancelled_and_ends_with_done() {
    let env = Env::new();
    let model = Slow {
        inner: ScriptedModel::texts([BREAD]),
        delay: Duration::ZERO,
        block: true,
        honours: false,
        entered: Arc::default(),
    };
    let cancel = CancelToken::new();
    let canceller = {
        let cancel = Arc::clone(&cancel);
        let entered = Arc::clone(&model.entered);
        // Cancels once the router's model call is under way (however busy the machine is).
        std::thread::spawn(move || {
            let give_up = std::time::Instant::now() + Duration::from_secs(30);
            while !entered.load(std::sync::atomic::Ordering::SeqCst)
                && std::time::Instant::now() < give_up
            {
                std::thread::sleep(Duration::from_millis(2));
            }
            cancel.cancel();
        })
    };
    let (out, events) = env.run(
        Some(&model),
        &request(AssistantMode::Auto, "bread"),
        &quiet(),
        &cancel,
    );
    canceller.join().unwrap();
    let err = out.unwrap_err();
    assert!(matches!(err, Error::Llm(LlmError::Cancelled)), "{err:?}");
    assert_eq!(CoachError::from(err), CoachError::Cancelled);
    assert_eq!(names(&events), ["routing", "done"]);

    // Cancelled before the start: nothing but done, no model call.
    let model = ScriptedModel::texts([BREAD]);
    let cancel = CancelToken::new();
    cancel.cancel();
    let (out, events) = env.run(
        Some(&*model),
        &request(AssistantMode::Plan, "bread"),
        &quiet(),
        &cancel,
    );
    assert!(matches!(out, Err(Error::Llm(LlmError::Cancelled))));
    assert_eq!(names(&events), ["done"]);
    assert_eq!(model.remaining(), 1);
}

/// Cancels the token during the summary call (after the proposal went through).
struct CancelOnSecondCall {
    inner: Arc<ScriptedModel>,
    cancel: Arc<CancelToken>,
}

impl LanguageModel for CancelOnSecondCall {
    fn info(&self) -> ModelInfo {
        self.inner.info()
    }

    fn generate(
        &self,
        request: GenerationRequest,
        listener: Option<Arc<dyn TokenListener>>,
        cancel: Arc<CancelToken>,
    ) -> Result<GenerationResult, LlmError> {
        if self.inner.requests().len() == 1 {
            self.cancel.cancel();
        }
        self.inner.generate(request, listener, cancel)
    }
}

#[test]
fn cancellation_during_the_summary_is_not_a_fallback() {
    let env = Env::new();
    let cancel = CancelToken::new();
    let model = CancelOnSecondCall {
        inner: ScriptedModel::texts([BREAD, "a long summary text"]),
        cancel: Arc::clone(&cancel),
    };
    let (out, events) = env.run(
        Some(&model),
        &request(AssistantMode::Plan, "bread"),
        &quiet(),
        &cancel,
    );
    assert!(matches!(out, Err(Error::Llm(LlmError::Cancelled))));
    assert_eq!(
        names(&events),
        ["proposing", "validating", "ops", "summarizing", "done"]
    );
}

#[test]
fn the_context_fits_a_small_model_window() {
    let env = Env::new();
    env.fill("Errand number", 1_000);
    struct Small(Arc<ScriptedModel>);
    impl LanguageModel for Small {
        fn info(&self) -> ModelInfo {
            ModelInfo {
                name: "small".into(),
                context_tokens: 2048,
                constrains_json_schema: true,
            }
        }
        fn generate(
            &self,
            r: GenerationRequest,
            l: Option<Arc<dyn TokenListener>>,
            c: Arc<CancelToken>,
        ) -> Result<GenerationResult, LlmError> {
            self.0.generate(r, l, c)
        }
    }
    let habit_none = json!({"operations": [{"op": "create", "kind": "habit", "title": "Stretch",
        "scheduledFor": "2026-11-19", "recurrence": {"type": "none"}}]});
    let inner = ScriptedModel::texts([
        router("plan", 0.9, &[], ""),
        habit_none.to_string(),
        BREAD.into(),
        "ok".into(),
    ]);
    let model = Small(Arc::clone(&inner));
    let settings = AssistantSettings {
        heartbeat_ms: 0,
        propose_max_tokens: 256,
        narrow: false,
        ..AssistantSettings::default()
    };
    let (out, _) = env.run(
        Some(&model),
        &request(AssistantMode::Auto, "bread"),
        &settings,
        &CancelToken::new(),
    );
    out.unwrap();
    for (i, req) in inner.requests().iter().enumerate() {
        let chars: usize = req.messages.iter().map(|m| m.content.len()).sum();
        let budget = (2048 - req.max_tokens as usize) * 3;
        assert!(chars < budget, "request {i}: {chars} chars over {budget}");
    }
    let reqs = inner.requests();
    assert_eq!(reqs.len(), 4, "router, proposal, repair, summary");
    let system = &reqs[1].messages[0].content;
    assert!(system.contains("more not shown)"), "{system}");
    assert!(system.contains("Backlog todos (no date):"), "{system}");
    assert!(
        reqs[2].messages[0].content.len() < system.len(),
        "the repair call's context is smaller"
    );
}

/// A model whose tokens are shorter than the budget's estimate (2.5 characters each, as German
/// titles are on SmolLM2's tokenizer) says the prompt overflows; every call then runs again with
/// less context and the message ends as if the window had been estimated right.
#[test]
fn a_prompt_over_the_window_runs_again_with_less_context() {
    let env = Env::new();
    env.fill("Wäsche für Oma Nummer", 2_000);
    struct Tight {
        inner: Arc<ScriptedModel>,
        overflows: Mutex<Vec<u32>>,
    }
    impl LanguageModel for Tight {
        fn info(&self) -> ModelInfo {
            ModelInfo {
                name: "tight".into(),
                context_tokens: 2048,
                constrains_json_schema: true,
            }
        }
        fn generate(
            &self,
            r: GenerationRequest,
            l: Option<Arc<dyn TokenListener>>,
            c: Arc<CancelToken>,
        ) -> Result<GenerationResult, LlmError> {
            let chars: usize = r.messages.iter().map(|m| m.content.chars().count()).sum();
            let tokens = (chars * 2).div_ceil(5) as u32 + 40;
            let window = 2048 - r.max_tokens;
            if tokens > window {
                self.overflows.lock().unwrap().push(tokens - window);
                return Err(LlmError::ContextOverflow {
                    prompt_tokens: tokens,
                    context_tokens: window,
                    over_by: tokens - window,
                });
            }
            self.inner.generate(r, l, c)
        }
    }
    let model = Tight {
        inner: ScriptedModel::texts([router("plan", 0.9, &[], ""), BREAD.into(), "ok".into()]),
        overflows: Mutex::default(),
    };
    let (out, events) = env.message(&model, &request(AssistantMode::Auto, "bread"));
    let result = out.expect("the message ends as if the window fitted");
    assert_eq!(result.decision, RouteDecision::Plan);
    assert_eq!(result.operations.len(), 1, "{result:?}");
    assert_eq!(result.operations[0].title.as_deref(), Some("Buy bread"));
    assert_eq!(ops_event(&events).2, 1);
    let overflows = model.overflows.lock().unwrap().clone();
    assert!(
        !overflows.is_empty(),
        "the budget's estimate overflowed at first"
    );
    assert!(
        overflows.len() <= 2,
        "one shrink serves the later calls: {overflows:?}"
    );
    let reqs = model.inner.requests();
    assert_eq!(reqs.len(), 3, "router, proposal, summary each ran once");
    assert!(
        reqs[1].messages[0].content.contains("more not shown)"),
        "the context was trimmed, not dropped"
    );
}

/// The per-request schema of a full proposal (`assistant::proposal`) leaves the model only what
/// is undecided: jump-forward decoding writes the rest (here "Delete", one todo and one event
/// shown: after "e" the whole operation is forced).
#[test]
fn the_proposal_grammar_forces_what_is_decided() {
    use coachcore::assistant::proposal::{proposal_schema, Target};
    use coachcore::assistant::reading::read_message;
    use coachcore::llm::jump::forced_text;
    let today = Date::parse("2026-11-23").unwrap();
    let targets = [
        Target {
            alias: "t1".into(),
            kind: ItemKind::Todo,
            repeats: false,
        },
        Target {
            alias: "t2".into(),
            kind: ItemKind::Todo,
            repeats: false,
        },
        Target {
            alias: "e1".into(),
            kind: ItemKind::Event,
            repeats: false,
        },
    ];
    let message = "Delete the garage stuff";
    let reading = read_message(message, today, &[]);
    let s = proposal_schema(message, &reading, today, &targets);
    assert_eq!(forced_text(&s, "").text, "{\"operations\":[");
    assert_eq!(
        forced_text(&s, "{\"operations\":[{").text,
        "\"op\":\"delete\",\"kind\":\""
    );
    let event = forced_text(&s, "{\"operations\":[{\"op\":\"delete\",\"kind\":\"e");
    assert_eq!(event.text, "vent\",\"id\":\"e1\"}]}");
    assert!(event.complete, "one operation at most");
    assert_eq!(
        forced_text(
            &s,
            "{\"operations\":[{\"op\":\"delete\",\"kind\":\"todo\",\"id\":\"t"
        )
        .text,
        ""
    );
}

// Asking instead of guessing (issue 25, spec 002's clarify).

#[test]
fn the_narrowed_path_asks_back_in_the_messages_language_with_or_without_a_model() {
    let env = Env::new();
    let narrowing = AssistantSettings {
        narrow: true,
        ..quiet()
    };
    let cancel = CancelToken::new();
    // No model: a name without an action is a question, not "No changes proposed".
    let (out, events) = env.run(
        None,
        &request(AssistantMode::Plan, "the milk thing"),
        &narrowing,
        &cancel,
    );
    let r = out.unwrap();
    assert_eq!(names(&events), ["clarify", "result", "done"]);
    assert_eq!(r.decision, RouteDecision::Clarify);
    assert!(r.operations.is_empty() && r.summary.is_none());
    let c = r.clarification.unwrap();
    assert_eq!(
        c.question,
        "What should I do with “Buy milk”: move it, mark it done or delete it?"
    );
    assert_eq!(c.options[0].id, env.milk);
    assert_eq!(events[0], AssistantEvent::Clarify { clarification: c });
    // With a model: no model call for a question back; every item offered, at most 5.
    let model = ScriptedModel::texts(["unused"]);
    let (out, _) = env.run(
        Some(&*model),
        &request(AssistantMode::Auto, "move it to friday"),
        &narrowing,
        &cancel,
    );
    let r = out.unwrap();
    assert_eq!(r.decision, RouteDecision::Clarify);
    assert_eq!(r.clarification.unwrap().options.len(), 5);
    assert_eq!(model.remaining(), 1);
    // The weekday and the date disagree: asked in German for a German message.
    let mut req = request(
        AssistantMode::Plan,
        "move the dentist appointment to Tuesday Dec 7",
    );
    req.language = Some("de-DE".into());
    let (out, events) = env.run(None, &req, &narrowing, &cancel);
    let r = out.unwrap();
    assert_eq!(names(&events), ["clarify", "result", "done"]);
    assert_eq!(r.reading_language, "de");
    let c = r.clarification.unwrap();
    assert_eq!(
        c.question,
        "Montag, 7. Dezember ist kein Dienstag. Welchen Tag meinst du?"
    );
    assert_eq!(c.options[0].id, env.dentist_event);
}

#[test]
fn the_full_proposal_never_changes_a_field_the_message_does_not_mention() {
    let env = Env::new();
    // "an hour later": the model moves the appointment, renames it to another item's title and
    // raises its priority.
    let proposal = json!({"operations": [{"op": "update", "kind": "event",
        "id": env.dentist_event, "title": "Buy milk", "timeOfDay": "11:00", "endTime": "12:00",
        "priority": "high", "recurrence": {"type": "none"}}]});
    let model = ScriptedModel::texts([proposal.to_string(), "Moved.".into()]);
    let (out, _) = env.message(
        &*model,
        &request(AssistantMode::Plan, "dentist appointment an hour later"),
    );
    let r = out.unwrap();
    assert_eq!(r.decision, RouteDecision::Plan);
    assert_eq!(r.operations.len(), 1, "{r:?}");
    let op = &r.operations[0];
    assert_eq!(op.id.as_deref(), Some(env.dentist_event.as_str()));
    assert_eq!(op.title, None, "no rename nobody asked for");
    assert_eq!(op.priority, None, "no priority nobody asked for");
    assert_eq!(op.time_of_day.as_deref(), Some("11:00"));
    assert_eq!(op.end_time.as_deref(), Some("12:00"));
    let summary = r.summary.unwrap();
    assert!(
        summary.contains(
            "the model's title, priority for “Dentist appointment” were not in the message: left out"
        ),
        "{summary}"
    );

    // A proposal that only renames: nothing the message mentions is left, so it asks.
    let rename = json!({"operations": [{"op": "update", "kind": "event",
        "id": env.dentist_event, "title": "Buy milk"}]});
    let model = ScriptedModel::texts([rename.to_string()]);
    let (out, events) = env.message(
        &*model,
        &request(AssistantMode::Plan, "hmm the dentist appointment, you know"),
    );
    let r = out.unwrap();
    assert_eq!(
        names(&events),
        ["proposing", "validating", "clarify", "result", "done"]
    );
    let c = r.clarification.unwrap();
    assert!(c.question.contains("Dentist appointment"), "{}", c.question);
    assert_eq!(c.options[0].id, env.dentist_event);

    // Asked for, a rename stays.
    let model = ScriptedModel::texts([rename.to_string(), "Renamed.".into()]);
    let (out, _) = env.message(
        &*model,
        &request(
            AssistantMode::Plan,
            "rename the dentist appointment to Buy milk",
        ),
    );
    assert_eq!(
        out.unwrap().operations[0].title.as_deref(),
        Some("Buy milk")
    );
}
