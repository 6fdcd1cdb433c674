//! The model's lifecycle on a `Coach`: whether a file can be used (`modelAvailability`, checked
//! against what loading does), loading with the memory pre-flight, the model's info, unloading,
//! one model shared by every feature. The real-model test needs feature `llama` and
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

/// `modelAvailability` says what `load` would do, without loading: the same memory estimate, and
/// a status for every file `load` refuses.
#[test]
fn availability_agrees_with_the_load() {
    use coachcore::llm::availability::{ModelAvailabilityStatus as S, ModelCheckOptions};
    use coachcore::model_availability;
    let coach = Coach::open_in_memory().unwrap();
    let check = |path: &str, context_tokens: u32| {
        model_availability(
            path.into(),
            Some(ModelCheckOptions {
                context_tokens,
                available_bytes: None,
            }),
        )
    };
    // Too big: both refuse it, with the same figures.
    let a = check(HUGE_KV, 2048);
    assert_eq!(a.status, S::InsufficientMemory, "{a:?}");
    match coach.model().load(HUGE_KV.into(), options(2048), None) {
        Err(CoachError::InsufficientMemory {
            needed_bytes,
            available_bytes,
        }) => {
            assert_eq!(a.needed_bytes, Some(needed_bytes));
            assert!(a.available_bytes.is_some() && available_bytes < needed_bytes);
        }
        other => panic!("{other:?}"),
    }
    // The context passed is the one estimated: a bigger one needs more.
    let bigger = check(HUGE_KV, 4096);
    assert!(bigger.needed_bytes > a.needed_bytes);
    assert_eq!((a.context_tokens, bigger.context_tokens), (2048, 4096));

    // Files the load refuses as unusable: each with its own status.
    let dir = tempfile::tempdir().unwrap();
    let foreign = dir.path().join("notes.gguf");
    std::fs::write(&foreign, "not a model at all").unwrap();
    let truncated = dir.path().join("half.gguf");
    let mut half = b"GGUF".to_vec();
    half.extend(3u32.to_le_bytes());
    std::fs::write(&truncated, &half).unwrap();
    let missing = dir.path().join("absent.gguf");
    for (path, status) in [
        (missing.as_path(), S::FileMissing),
        (dir.path(), S::Unreadable),
        (foreign.as_path(), S::NotGguf),
        (truncated.as_path(), S::NotGguf),
    ] {
        let path = path.to_string_lossy().into_owned();
        assert_eq!(check(&path, 2048).status, status, "{path}");
        let e = coach.model().load(path, options(2048), None).unwrap_err();
        assert_eq!(e.code(), "model_unusable", "{e:?}");
    }
}

/// The test model is available where the engine is, and its figures are those `load` reports.
#[cfg(feature = "llama")]
#[test]
fn the_real_model_is_available() {
    use coachcore::llm::availability::{ModelAvailabilityStatus, ModelCheckOptions};
    let Some(path) = crate::common::model_path() else {
        return;
    };
    let a = coachcore::model_availability(
        path.clone(),
        Some(ModelCheckOptions {
            context_tokens: 1024,
            available_bytes: None,
        }),
    );
    assert_eq!(a.status, ModelAvailabilityStatus::Available, "{a:?}");
    assert_eq!(a.architecture.as_deref(), Some("llama"));
    assert_eq!(a.gguf_version, Some(3));
    let coach = Coach::open_in_memory().unwrap();
    let info = coach.model().load(path, options(1024), None).unwrap();
    assert_eq!(a.needed_bytes, info.estimated_memory_bytes);
    assert_eq!(a.parameter_count, info.parameter_count);
    assert_eq!(a.quantization, info.quantization);
    assert_eq!(a.file_bytes, info.file_bytes);
}
