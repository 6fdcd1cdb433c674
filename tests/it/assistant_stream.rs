//! The assistant's chat answer as it streams (issue 26): `textDelta` events while the model
//! writes, in order and whole characters, concatenating to the model's text; the `summary` after
//! them is the cleaned, authoritative answer; small talk in auto mode streams the same way; a
//! model that cannot stream gives one delta; a failed answer streams no summary; plan answers
//! never stream; events reach the sink one at a time while heartbeats and deltas come from helper
//! threads; and an app's async model (`setAsyncModel`) streams through the `Coach`.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use coachcore::assistant::service::{run_message, AssistantSettings, EventSink};
use coachcore::assistant::{
    AssistantEvent, AssistantMode, AssistantRequest, AssistantResult, RouteDecision,
};
use coachcore::db::Store;
use coachcore::ffi::{AssistantListener, Coach, ListenerError};
use coachcore::kernel::clock::FixedClock;
use coachcore::kernel::error::{CoachError, Error};
use coachcore::llm::scripted::{ScriptedModel, ScriptedReply};
use coachcore::llm::{
    AsyncLanguageModel, CancelToken, FinishReason, GenerationRequest, GenerationResult,
    LanguageModel, LlmError, ModelInfo, TokenListener,
};

const T0: i64 = 1_795_000_000_000;

#[derive(Default)]
struct Recorder(Mutex<Vec<AssistantEvent>>);

impl EventSink for Recorder {
    fn on_event(&self, event: AssistantEvent) {
        self.0.lock().unwrap().push(event);
    }
}

/// A message of `mode` on 2026-11-18 (read as the C API reads it: fields left out take their
/// defaults).
fn request(mode: AssistantMode, message: &str) -> AssistantRequest {
    let r = serde_json::json!({"message": message, "mode": mode, "today": "2026-11-18"});
    serde_json::from_value(r).unwrap()
}

/// One message on an empty planner with `model`: its outcome and events.
fn send(
    model: &dyn LanguageModel,
    request: &AssistantRequest,
    settings: &AssistantSettings,
    sink: &dyn EventSink,
) -> coachcore::kernel::error::Result<AssistantResult> {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path().join("planner.db")).unwrap();
    run_message(
        &store,
        &FixedClock::new(T0),
        Some(model),
        request,
        sink,
        &CancelToken::new(),
        settings,
    )
}

fn chat(
    model: &dyn LanguageModel,
    mode: AssistantMode,
    message: &str,
) -> (
    coachcore::kernel::error::Result<AssistantResult>,
    Vec<AssistantEvent>,
) {
    let sink = Recorder::default();
    let quiet = AssistantSettings {
        heartbeat_ms: 0,
        ..AssistantSettings::default()
    };
    let out = send(model, &request(mode, message), &quiet, &sink);
    (out, sink.0.into_inner().unwrap())
}

/// The texts of the `textDelta` events, in order.
fn deltas(events: &[AssistantEvent]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match e {
            AssistantEvent::TextDelta { text } => Some(text.clone()),
            _ => None,
        })
        .collect()
}

/// The events' names with each run of `textDelta`s as one `textDelta`.
fn shape(events: &[AssistantEvent]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for e in events {
        let name = serde_json::to_value(e).unwrap()["event"]
            .as_str()
            .unwrap()
            .to_string();
        if out.last().is_some_and(|l| *l == "textDelta") && name == "textDelta" {
            continue;
        }
        out.push(name);
    }
    out
}

#[test]
fn a_chat_answer_streams_deltas_then_the_authoritative_summary() {
    let raw = "<think>easy one</think>Take a **rest** day, then run easy.";
    let model = ScriptedModel::texts([raw]);
    let (out, events) = chat(
        &*model,
        AssistantMode::Chat,
        "any tips for running in the cold?",
    );
    let r = out.unwrap();
    assert_eq!(shape(&events), ["textDelta", "summary", "done"]);
    let d = deltas(&events);
    assert!(d.len() > 3, "streamed in pieces: {d:?}");
    assert_eq!(d.concat(), raw, "the deltas are the model's text, in order");
    // The summary is the cleaned answer, and it is what the result holds.
    let summary = "Take a rest day, then run easy.";
    assert_eq!(
        events[events.len() - 2],
        AssistantEvent::Summary {
            text: summary.into()
        }
    );
    assert_eq!(r.summary.as_deref(), Some(summary));
    assert_eq!(r.decision, RouteDecision::Chat);
    assert_eq!(
        serde_json::to_value(&events[0]).unwrap(),
        serde_json::json!({"event": "textDelta", "text": d[0]})
    );
}

#[test]
fn small_talk_in_auto_mode_streams() {
    let model = ScriptedModel::texts(["You're welcome, happy training!"]);
    let (out, events) = chat(&*model, AssistantMode::Auto, "thanks!");
    assert_eq!(out.unwrap().decision, RouteDecision::Chat);
    assert_eq!(shape(&events), ["textDelta", "summary", "done"]);
    assert_eq!(deltas(&events).concat(), "You're welcome, happy training!");
}

#[test]
fn a_character_cut_between_tokens_is_never_cut_in_a_delta() {
    let text = "Grüße aus München 😀";
    // Two bytes per token: ü, ß, ü and the emoji are each cut somewhere.
    let tokens: Vec<Vec<u8>> = text.as_bytes().chunks(2).map(<[u8]>::to_vec).collect();
    let model = ScriptedModel::new([ScriptedReply::Tokens(tokens)]);
    let (out, events) = chat(&*model, AssistantMode::Chat, "say hi in German");
    let d = deltas(&events);
    assert_eq!(d.concat(), text);
    assert!(
        d.iter().all(|p| !p.is_empty() && !p.contains('\u{fffd}')),
        "{d:?}"
    );
    assert!(
        d.contains(&"ü".to_string()),
        "a cut character comes whole: {d:?}"
    );
    assert_eq!(out.unwrap().summary.as_deref(), Some(text));
}

#[test]
fn a_model_that_cannot_stream_gives_one_delta() {
    let model = ScriptedModel::new([ScriptedReply::Unstreamed("Sleep eight hours.".into())]);
    let (_, events) = chat(&*model, AssistantMode::Chat, "tips?");
    assert_eq!(deltas(&events), ["Sleep eight hours."]);
    assert_eq!(shape(&events), ["textDelta", "summary", "done"]);
}

#[test]
fn an_answer_with_nothing_usable_streams_no_summary() {
    // Cleaning leaves nothing: the message fails after the deltas; no summary replaces them.
    let model = ScriptedModel::texts(["```json\n{\"a\":1}\n```"]);
    let (out, events) = chat(&*model, AssistantMode::Chat, "hi");
    assert!(matches!(
        out,
        Err(Error::Llm(LlmError::InvalidOutput { .. }))
    ));
    assert_eq!(shape(&events), ["textDelta", "done"]);
}

#[test]
fn a_plan_is_never_streamed() {
    // The narrowed path: the library read the day, the model names the todo under a grammar.
    let model = ScriptedModel::texts([r#"{"title":"Call mom"}"#]);
    let (out, events) = chat(
        &*model,
        AssistantMode::Plan,
        "remind me to call mom on saturday",
    );
    assert_eq!(out.unwrap().operations.len(), 1);
    assert!(deltas(&events).is_empty(), "{events:?}");
    assert!(model.requests()[0].json_schema.is_some());
}

/// Streams its words with a pause between them.
struct SlowStreamer(&'static str);

impl LanguageModel for SlowStreamer {
    fn info(&self) -> ModelInfo {
        ModelInfo::new("slow", 4096, false)
    }

    fn generate(
        &self,
        _: GenerationRequest,
        listener: Option<Arc<dyn TokenListener>>,
        _: Arc<CancelToken>,
    ) -> Result<GenerationResult, LlmError> {
        for w in self.0.split_inclusive(' ') {
            std::thread::sleep(Duration::from_millis(3));
            if let Some(l) = &listener {
                l.on_token(w.into());
            }
        }
        Ok(GenerationResult::untimed(self.0, FinishReason::Stop, 1, 1))
    }
}

/// Fails the test if two events are ever delivered at once.
#[derive(Default)]
struct Overlap {
    busy: AtomicBool,
    overlaps: AtomicUsize,
    events: Mutex<Vec<AssistantEvent>>,
}

impl EventSink for Overlap {
    fn on_event(&self, event: AssistantEvent) {
        if self.busy.swap(true, Ordering::SeqCst) {
            self.overlaps.fetch_add(1, Ordering::SeqCst);
        }
        std::thread::sleep(Duration::from_micros(300));
        self.events.lock().unwrap().push(event);
        self.busy.store(false, Ordering::SeqCst);
    }
}

#[test]
fn heartbeats_and_deltas_reach_the_sink_one_at_a_time() {
    let text = "one two three four five six seven eight nine ten eleven twelve thirteen";
    let sink = Overlap::default();
    let settings = AssistantSettings {
        heartbeat_ms: 1,
        ..AssistantSettings::default()
    };
    let out = send(
        &SlowStreamer(text),
        &request(AssistantMode::Chat, "count"),
        &settings,
        &sink,
    );
    assert!(out.is_ok());
    let events = sink.events.into_inner().unwrap();
    assert!(events.contains(&AssistantEvent::Heartbeat), "{events:?}");
    assert_eq!(deltas(&events).concat(), text);
    assert_eq!(sink.overlaps.load(Ordering::SeqCst), 0);
}

/// An app's async model, as Swift, Kotlin or Python would implement it: it answers from another
/// thread and streams its words.
struct AppModel;

#[async_trait::async_trait]
impl AsyncLanguageModel for AppModel {
    fn info(&self) -> ModelInfo {
        ModelInfo::new("platform", 4096, false)
    }

    async fn generate(
        &self,
        _: GenerationRequest,
        listener: Option<Arc<dyn TokenListener>>,
    ) -> Result<GenerationResult, LlmError> {
        let text = "Stretch for ten minutes.";
        // The answer is computed elsewhere: the call waits without holding this thread's work.
        let worker = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(20));
            text
        });
        while !worker.is_finished() {
            yield_now().await;
        }
        if let Some(l) = listener {
            for w in text.split_inclusive(' ') {
                l.on_token(w.into());
            }
        }
        Ok(GenerationResult::untimed(text, FinishReason::Stop, 5, 4))
    }
}

/// Lets the executor run again (wakes itself, returns once).
async fn yield_now() {
    let mut yielded = false;
    std::future::poll_fn(|cx| {
        if yielded {
            std::task::Poll::Ready(())
        } else {
            yielded = true;
            cx.waker().wake_by_ref();
            std::task::Poll::Pending
        }
    })
    .await
}

struct Listener(Mutex<Vec<AssistantEvent>>);

impl AssistantListener for Listener {
    fn on_event(&self, event: AssistantEvent) -> Result<(), ListenerError> {
        self.0.lock().unwrap().push(event);
        Ok(())
    }
}

#[test]
fn an_apps_async_model_streams_through_the_coach() {
    let coach = Coach::open_in_memory().unwrap();
    coach
        .model()
        .set_async_model(Some(Arc::new(AppModel)))
        .unwrap();
    assert_eq!(coach.model().info().unwrap().name, "platform");
    let listener = Arc::new(Listener(Mutex::new(Vec::new())));
    let task = coach.assistant().send(
        request(AssistantMode::Chat, "stretch tips?"),
        Some(listener.clone()),
    );
    let result = task.wait().unwrap();
    assert_eq!(result.summary.as_deref(), Some("Stretch for ten minutes."));
    let events: Vec<AssistantEvent> = listener
        .0
        .lock()
        .unwrap()
        .iter()
        .filter(|e| **e != AssistantEvent::Heartbeat)
        .cloned()
        .collect();
    assert_eq!(deltas(&events), ["Stretch ", "for ", "ten ", "minutes."]);
    assert_eq!(shape(&events), ["textDelta", "summary", "done"]);
    coach.shutdown();
    assert!(matches!(
        coach.model().set_async_model(None),
        Err(CoachError::Closed { .. })
    ));
}
