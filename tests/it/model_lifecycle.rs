//! The model's lifecycle on a `Coach`: loading with the memory pre-flight, the model's info,
//! unloading, one model shared by every feature. The real-model test needs feature `llama` and
//! the test model (`COACH_MODEL`); the others run in every build.

use coachcore::ffi::ModelOptions;
use coachcore::llm::scripted::ScriptedModel;
use coachcore::{Coach, CoachError};

/// A GGUF header (no weights; `.bin`: `*.gguf` is git-ignored) declaring 100,000 layers 8192 wide: its KV cache at 2048 tokens
/// is terabytes, more than any device has.
const HUGE_KV: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/models/huge-kv-header.bin"
);

fn options(context_tokens: u32) -> ModelOptions {
    ModelOptions {
        context_tokens,
        threads: Some(2),
    }
}

#[test]
fn a_model_that_does_not_fit_is_refused_before_loading() {
    let coach = Coach::open_in_memory().unwrap();
    coach
        .model()
        .set(Some(ScriptedModel::texts(["x"])))
        .unwrap();
    let e = coach
        .model()
        .load(HUGE_KV.into(), options(2048), None)
        .unwrap_err();
    match &e {
        CoachError::InsufficientMemory {
            needed_bytes,
            available_bytes,
        } => {
            // 100,000 layers * 2048 tokens * (8192 + 8192) * 2 bytes.
            assert!(*needed_bytes >= 100_000 * 2048 * 16_384 * 2, "{e:?}");
            assert!(available_bytes < needed_bytes);
        }
        other => panic!("expected InsufficientMemory, got {other:?}"),
    }
    assert_eq!(e.code(), "insufficient_memory");
    assert!(
        coach.model().info().is_none(),
        "the model in use before was let go"
    );
}

#[test]
fn missing_or_foreign_files_are_model_unusable() {
    let coach = Coach::open_in_memory().unwrap();
    let e = coach
        .model()
        .load("/no/such/model.gguf".into(), options(2048), None)
        .unwrap_err();
    assert_eq!(e.code(), "model_unusable", "{e:?}");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("notes.gguf");
    std::fs::write(&path, "not a model at all").unwrap();
    let e = coach
        .model()
        .load(path.to_string_lossy().into_owned(), options(2048), None)
        .unwrap_err();
    assert_eq!(e.code(), "model_unusable", "{e:?}");
    assert!(!coach.model().unload(), "nothing was loaded");
}

#[test]
fn an_app_model_has_info_and_unloads() {
    let coach = Coach::open_in_memory().unwrap();
    assert_eq!(coach.model().info(), None);
    coach
        .model()
        .set(Some(ScriptedModel::texts(["x"])))
        .unwrap();
    let info = coach.model().info().expect("info of the app's model");
    assert!(!info.embedded);
    assert_eq!(info.parameter_count, None);
    assert!(info.context_tokens > 0);
    assert!(coach.model().unload());
    assert_eq!(coach.model().info(), None);
    assert!(!coach.model().unload());
}

#[cfg(feature = "llama")]
#[test]
fn the_real_model_loads_with_its_info_and_serves_the_assistant() {
    use coachcore::assistant::{AssistantMode, AssistantRequest};
    let Some(path) = crate::common::model_path() else {
        return;
    };
    let coach = Coach::open_in_memory().unwrap();
    let info = coach.model().load(path, options(1024), None).unwrap();
    assert!(info.embedded);
    assert_eq!(info.context_tokens, 1024);
    let params = info.parameter_count.unwrap();
    assert!((100_000_000..200_000_000).contains(&params), "{params}");
    assert_eq!(info.quantization.as_deref(), Some("Q4_1"));
    assert_eq!(info.has_chat_template, Some(true));
    let file = info.file_bytes.unwrap();
    assert!(info.estimated_memory_bytes.unwrap() > file);
    assert_eq!(coach.model().info(), Some(info));
    // The loaded model serves the assistant (chat: one short model call).
    let request = AssistantRequest {
        message: "hello".into(),
        mode: AssistantMode::Chat,
        selection: None,
        today: Some("2025-11-21".into()),
        language: None,
    };
    let out = coach.assistant().send(request, None).wait();
    assert!(out.is_ok(), "{out:?}");
    assert!(coach.model().unload());
    assert_eq!(coach.model().info(), None);
}
