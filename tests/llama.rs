//! The llama.cpp engine against a real model (SmolLM2-135M-Instruct Q4_1, `models/fetch.sh`).
//!
//! Model path: env `COACH_MODEL`, else `models/SmolLM2-135M-Instruct.Q4_1.gguf`. Without the file
//! the model tests print a note and pass, except under CI (env `CI` set), where they fail. The
//! file-error tests need no model.
#![cfg(feature = "llama")]

use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use coachcore::llm::llama::{LlamaEngine, LlamaOptions};
use coachcore::llm::{
    CancelToken, ChatMessage, ChatRole, FinishReason, GenerationRequest, GenerationResult,
    LanguageModel, LlmError, Sampling, TokenListener,
};

fn model_path() -> Option<String> {
    let path = std::env::var("COACH_MODEL").unwrap_or_else(|_| {
        format!(
            "{}/models/SmolLM2-135M-Instruct.Q4_1.gguf",
            env!("CARGO_MANIFEST_DIR")
        )
    });
    if std::path::Path::new(&path).is_file() {
        return Some(path);
    }
    if std::env::var_os("CI").is_some() {
        panic!("model {path} missing under CI: run models/fetch.sh");
    }
    eprintln!("skipped: no model at {path} (run models/fetch.sh or set COACH_MODEL)");
    None
}

/// One engine for the whole test binary (tests run on parallel threads and share it).
fn engine() -> Option<Arc<LlamaEngine>> {
    static ENGINE: OnceLock<Arc<LlamaEngine>> = OnceLock::new();
    let path = model_path()?;
    Some(
        ENGINE
            .get_or_init(|| LlamaEngine::load(&path, LlamaOptions::default()).expect("load model"))
            .clone(),
    )
}

fn request(
    system: &str,
    user: &str,
    schema: Option<&str>,
    sampling: Sampling,
    max_tokens: u32,
) -> GenerationRequest {
    GenerationRequest {
        messages: vec![
            ChatMessage::new(ChatRole::System, system),
            ChatMessage::new(ChatRole::User, user),
        ],
        json_schema: schema.map(str::to_string),
        sampling,
        max_tokens,
        timeout_ms: None,
    }
}

fn seeded(seed: u64, temperature: f32) -> Sampling {
    Sampling {
        temperature,
        top_p: 0.95,
        top_k: 40,
        seed,
    }
}

fn generate(engine: &LlamaEngine, req: GenerationRequest) -> Result<GenerationResult, LlmError> {
    engine.generate(req, None, CancelToken::new())
}

const SCHEMA_CHANGE: &str = r#"{
  "type": "object",
  "properties": {
    "change": {"type": "string", "enum": ["weight", "reps", "rest"]},
    "setIndex": {"type": "integer"},
    "value": {"type": "number"},
    "reasoning": {"type": "string", "maxLength": 60}
  },
  "required": ["change", "setIndex", "value", "reasoning"],
  "additionalProperties": false
}"#;

const SCHEMA_LIST: &str = r#"{
  "type": "array",
  "items": {"type": "string", "maxLength": 24},
  "minItems": 1,
  "maxItems": 4
}"#;

const SCHEMA_MEAL: &str = r#"{
  "type": "object",
  "properties": {
    "name": {"type": "string", "maxLength": 30},
    "vegetarian": {"type": "boolean"},
    "macros": {
      "type": "object",
      "properties": {"protein": {"type": "integer"}, "carbs": {"type": "integer"}},
      "required": ["protein", "carbs"],
      "additionalProperties": false
    },
    "tags": {"type": "array", "items": {"type": "string", "enum": ["quick", "cheap", "high-protein"]}, "maxItems": 3}
  },
  "required": ["name", "vegetarian", "macros", "tags"],
  "additionalProperties": false
}"#;

#[test]
fn seeded_generations_follow_every_schema() {
    let Some(engine) = engine() else { return };
    let cases = [
        (
            SCHEMA_CHANGE,
            "Suggest one change to my bench press: 3 sets of 8 reps at 60 kg, 90 s rest.",
        ),
        (SCHEMA_LIST, "List a few warm-up exercises for squats."),
        (
            SCHEMA_MEAL,
            "Describe a simple dinner with its protein and carbs in grams.",
        ),
    ];
    for (schema, user) in cases {
        let validator = jsonschema::validator_for(&serde_json::from_str(schema).unwrap()).unwrap();
        for seed in 0..8 {
            let req = request(
                "Answer in JSON.",
                user,
                Some(schema),
                seeded(seed, 0.8),
                160,
            );
            let out = generate(&engine, req).unwrap();
            eprintln!("seed {seed}: {}", out.text);
            let value: serde_json::Value = serde_json::from_str(&out.text)
                .unwrap_or_else(|e| panic!("seed {seed}: not JSON ({e}): {:?}", out.text));
            let errors: Vec<String> = validator
                .iter_errors(&value)
                .map(|e| e.to_string())
                .collect();
            assert!(errors.is_empty(), "seed {seed}: {errors:?} in {}", out.text);
            assert_eq!(out.finish, FinishReason::Stop, "seed {seed}: {}", out.text);
            assert!(out.completion_tokens > 0 && out.prompt_tokens > 0);
        }
    }
}

#[test]
fn same_seed_same_text() {
    let Some(engine) = engine() else { return };
    let run = |seed| {
        generate(
            &engine,
            request(
                "You are a coach.",
                "Give me one tip for running.",
                None,
                seeded(seed, 0.9),
                40,
            ),
        )
        .unwrap()
        .text
    };
    let first = run(7);
    assert_eq!(first, run(7));
    assert!(!first.is_empty());
    let others: Vec<String> = (8..11).map(run).collect();
    assert!(
        others.iter().any(|t| *t != first),
        "different seeds gave the same text every time"
    );
    // Greedy (temperature 0) ignores the seed.
    let greedy = |seed| {
        generate(
            &engine,
            request(
                "You are a coach.",
                "Name a leg exercise.",
                None,
                seeded(seed, 0.0),
                24,
            ),
        )
        .unwrap()
        .text
    };
    assert_eq!(greedy(1), greedy(2));
}

struct Collect {
    pieces: Mutex<Vec<String>>,
}

impl TokenListener for Collect {
    fn on_token(&self, piece: String) {
        self.pieces.lock().unwrap().push(piece);
    }
}

#[test]
fn streamed_pieces_make_the_text() {
    let Some(engine) = engine() else { return };
    let listener = Arc::new(Collect {
        pieces: Mutex::new(Vec::new()),
    });
    let req = request(
        "You are a coach.",
        "Write two sentences about rest days. Add an emoji.",
        None,
        seeded(3, 0.7),
        60,
    );
    let out = engine
        .generate(req, Some(listener.clone()), CancelToken::new())
        .unwrap();
    let pieces = listener.pieces.lock().unwrap();
    assert!(!pieces.is_empty());
    assert!(pieces.len() as u32 <= out.completion_tokens);
    assert_eq!(pieces.concat(), out.text);
    // Constrained output streams too.
    let listener = Arc::new(Collect {
        pieces: Mutex::new(Vec::new()),
    });
    let req = request(
        "Answer in JSON.",
        "List warm-ups.",
        Some(SCHEMA_LIST),
        seeded(3, 0.7),
        80,
    );
    let out = engine
        .generate(req, Some(listener.clone()), CancelToken::new())
        .unwrap();
    assert_eq!(listener.pieces.lock().unwrap().concat(), out.text);
}

/// Cancels its token after `after` pieces, and keeps counting.
struct CancelAfter {
    after: usize,
    seen: AtomicUsize,
    cancel: Arc<CancelToken>,
}

impl TokenListener for CancelAfter {
    fn on_token(&self, _piece: String) {
        if self.seen.fetch_add(1, Ordering::SeqCst) + 1 == self.after {
            self.cancel.cancel();
        }
    }
}

#[test]
fn cancellation_stops_within_a_token_or_two() {
    let Some(engine) = engine() else { return };
    for schema in [None, Some(SCHEMA_MEAL)] {
        let cancel = CancelToken::new();
        let k = 5;
        let listener = Arc::new(CancelAfter {
            after: k,
            seen: AtomicUsize::new(0),
            cancel: cancel.clone(),
        });
        let req = request(
            "You are a coach.",
            "Write a long essay about marathon training.",
            schema,
            seeded(1, 0.7),
            400,
        );
        let err = engine
            .generate(req, Some(listener.clone()), cancel)
            .unwrap_err();
        assert_eq!(err, LlmError::Cancelled);
        let seen = listener.seen.load(Ordering::SeqCst);
        assert!(
            (k..=k + 2).contains(&seen),
            "{seen} pieces after cancelling at {k}"
        );
    }
    // Cancelled before it starts.
    let cancel = CancelToken::new();
    cancel.cancel();
    let req = request("You are a coach.", "Hi", None, seeded(1, 0.7), 10);
    assert_eq!(
        engine.generate(req, None, cancel).unwrap_err(),
        LlmError::Cancelled
    );
    // The engine works after cancellations.
    assert!(generate(
        &engine,
        request("You are a coach.", "Hi", None, seeded(1, 0.7), 8)
    )
    .is_ok());
}

#[test]
fn timeout_fires() {
    let Some(engine) = engine() else { return };
    let mut req = request(
        "You are a coach.",
        "Write a long essay about marathon training.",
        None,
        seeded(1, 0.7),
        400,
    );
    req.timeout_ms = Some(1);
    assert_eq!(
        generate(&engine, req.clone()).unwrap_err(),
        LlmError::TimedOut { after_ms: 1 }
    );
    // Fires mid-generation too: 400 tokens take far longer than 150 ms here.
    req.timeout_ms = Some(150);
    let listener = Arc::new(Collect {
        pieces: Mutex::new(Vec::new()),
    });
    let err = engine
        .generate(req, Some(listener.clone()), CancelToken::new())
        .unwrap_err();
    assert_eq!(err, LlmError::TimedOut { after_ms: 150 });
    // The call stopped early: far fewer than the 400 tokens it was allowed (no wall-clock
    // assertion: a busy machine only makes the prompt slower, which stops it earlier still).
    let streamed = listener.pieces.lock().unwrap().len();
    assert!(
        streamed < 400,
        "streamed {streamed} pieces before the timeout"
    );
}

#[test]
fn max_tokens_ends_with_length() {
    let Some(engine) = engine() else { return };
    let out = generate(
        &engine,
        request(
            "You are a coach.",
            "Write a long essay about sleep.",
            None,
            seeded(2, 0.7),
            12,
        ),
    )
    .unwrap();
    assert_eq!(out.finish, FinishReason::Length);
    assert_eq!(out.completion_tokens, 12);
}

#[test]
fn two_threads_share_one_engine() {
    let Some(engine) = engine() else { return };
    let req = |seed| {
        request(
            "You are a coach.",
            "Give me three tips for better sleep.",
            None,
            seeded(seed, 0.8),
            48,
        )
    };
    let alone: Vec<String> = [11, 12]
        .iter()
        .map(|&s| generate(&engine, req(s)).unwrap().text)
        .collect();
    let handles: Vec<_> = [11, 12]
        .into_iter()
        .map(|seed| {
            let engine = engine.clone();
            std::thread::spawn(move || generate(&engine, req(seed)).unwrap())
        })
        .collect();
    let together: Vec<String> = handles
        .into_iter()
        .map(|h| h.join().unwrap().text)
        .collect();
    assert_eq!(
        together, alone,
        "concurrent calls must not disturb each other"
    );
}

#[test]
fn prompt_too_long_for_the_context_overflows_by_the_right_amount() {
    let Some(path) = model_path() else { return };
    let small = LlamaEngine::load(
        &path,
        LlamaOptions {
            context_tokens: 96,
            ..LlamaOptions::default()
        },
    )
    .unwrap();
    let user = "Tell me about squats. ".repeat(12);
    let prompt = small
        .count_prompt_tokens(&request("Coach.", &user, None, seeded(1, 0.0), 1).messages)
        .unwrap();
    assert!(prompt > 40 && prompt < 96, "prompt of {prompt} tokens");
    // Exactly full: fine.
    let fits = request("Coach.", &user, None, seeded(1, 0.0), 96 - prompt);
    assert!(generate(&small, fits).is_ok());
    // Three tokens too many.
    let over = request("Coach.", &user, None, seeded(1, 0.0), 96 - prompt + 3);
    assert_eq!(
        generate(&small, over).unwrap_err(),
        LlmError::ContextOverflow {
            prompt_tokens: prompt,
            context_tokens: prompt - 3,
            over_by: 3
        }
    );
    // A prompt longer than the whole window.
    let huge = request(
        "Coach.",
        &"Squats and deadlifts. ".repeat(200),
        None,
        seeded(1, 0.0),
        10,
    );
    match generate(&small, huge).unwrap_err() {
        LlmError::ContextOverflow {
            prompt_tokens,
            context_tokens,
            over_by,
        } => {
            assert_eq!(context_tokens, 86);
            assert_eq!(over_by, prompt_tokens - 86);
            assert!(prompt_tokens > 800);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn invalid_schemas_are_typed_errors() {
    let Some(engine) = engine() else { return };
    for schema in [
        "not json",
        "[1, 2]",
        r##"{"type": "object", "properties": {"a": {"$ref": "#/$defs/missing"}}}"##,
    ] {
        let req = request("Answer in JSON.", "Hi", Some(schema), seeded(1, 0.0), 10);
        match generate(&engine, req) {
            Err(LlmError::InvalidSchema { .. }) => {}
            other => panic!("{schema}: {other:?}"),
        }
    }
}

#[test]
fn info_and_template() {
    let Some(engine) = engine() else { return };
    let info = engine.info();
    assert!(info.constrains_json_schema);
    assert_eq!(info.context_tokens, 2048);
    assert!(!info.name.is_empty());
    assert!(!engine.template_fallback(), "SmolLM2 ships a chat template");
    let cores = std::thread::available_parallelism().unwrap().get() as u32;
    assert!(engine.threads() >= 1 && engine.threads() <= cores);
}

#[test]
fn threads_never_exceed_cores_and_progress_is_reported() {
    let Some(path) = model_path() else { return };
    let seen = Arc::new(Mutex::new(Vec::new()));
    let sink = seen.clone();
    let engine = LlamaEngine::load(
        &path,
        LlamaOptions {
            context_tokens: 256,
            threads: Some(10_000),
            progress: Some(Box::new(move |p| sink.lock().unwrap().push(p))),
        },
    )
    .unwrap();
    let cores = std::thread::available_parallelism().unwrap().get() as u32;
    assert_eq!(engine.threads(), cores);
    let seen = seen.lock().unwrap();
    assert!(!seen.is_empty());
    assert!(seen.windows(2).all(|w| w[0] <= w[1]), "{seen:?}");
    assert_eq!(*seen.last().unwrap(), 1.0);
}

fn temp_file(bytes: &[u8]) -> tempfile::NamedTempFile {
    let mut f = tempfile::NamedTempFile::new().unwrap();
    f.write_all(bytes).unwrap();
    f.flush().unwrap();
    f
}

/// Deterministic pseudo-random bytes.
fn noise(n: usize, mut state: u64) -> Vec<u8> {
    (0..n)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state as u8
        })
        .collect()
}

fn load_err(path: &str) -> LlmError {
    LlamaEngine::load(path, LlamaOptions::default()).unwrap_err()
}

#[test]
fn missing_and_corrupt_files_give_typed_errors() {
    assert!(matches!(
        load_err("/nonexistent/dir/model.gguf"),
        LlmError::ModelNotFound { .. }
    ));
    let dir = tempfile::tempdir().unwrap();
    assert!(matches!(
        load_err(dir.path().to_str().unwrap()),
        LlmError::ModelNotFound { .. }
    ));

    for bytes in [
        Vec::new(),
        b"GGU".to_vec(),
        noise(4096, 1),
        b"{\"not\": \"a model\"}".to_vec(),
    ] {
        let f = temp_file(&bytes);
        match load_err(f.path().to_str().unwrap()) {
            LlmError::NotAGguf { .. } => {}
            other => panic!("{} bytes: {other:?}", bytes.len()),
        }
    }

    // The GGUF magic followed by garbage: llama.cpp refuses it.
    for (i, tail) in [noise(4096, 2), noise(64, 3), Vec::new()]
        .into_iter()
        .enumerate()
    {
        let mut bytes = b"GGUF".to_vec();
        bytes.extend(tail);
        let f = temp_file(&bytes);
        match load_err(f.path().to_str().unwrap()) {
            LlmError::UnsupportedModel { .. } => {}
            other => panic!("case {i}: {other:?}"),
        }
    }
    // A version-3 header with random counts.
    let mut bytes = b"GGUF".to_vec();
    bytes.extend(3u32.to_le_bytes());
    bytes.extend(noise(1024, 4));
    let f = temp_file(&bytes);
    assert!(matches!(
        load_err(f.path().to_str().unwrap()),
        LlmError::UnsupportedModel { .. }
    ));
}

#[test]
fn truncated_model_is_unsupported() {
    let Some(path) = model_path() else { return };
    let head = {
        use std::io::Read;
        let mut buf = vec![0u8; 2 << 20];
        let mut f = std::fs::File::open(&path).unwrap();
        f.read_exact(&mut buf).unwrap();
        buf
    };
    let f = temp_file(&head);
    assert!(matches!(
        load_err(f.path().to_str().unwrap()),
        LlmError::UnsupportedModel { .. }
    ));
}
