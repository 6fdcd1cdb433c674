//! The llama.cpp engine against a real model (SmolLM2-135M-Instruct Q4_1, `models/fetch.sh`).
//!
//! Model path: env `COACH_MODEL`, else `models/SmolLM2-135M-Instruct.Q4_1.gguf`. Without the file
//! the model tests print a note and pass, except under CI (env `CI` set), where they fail. The
//! file-error tests need no model.

use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use coachcore::llm::llama::{LlamaEngine, LlamaOptions};
use coachcore::llm::{
    CancelToken, ChatMessage, ChatRole, FinishReason, GenerationRequest, GenerationResult,
    LanguageModel, LlmError, Sampling, TokenListener,
};

use crate::common::model_path;

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
            jump_forward: true,
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

// --- Jump-forward decoding of grammar-forced text ----------------------------------------------

use coachcore::llm::jump::JumpPredictor;
use coachcore::llm::llama::{backend, compact_json_grammar, GenerationStats};
use llama_cpp_2::model::params::LlamaModelParams;
use llama_cpp_2::model::LlamaModel;
use llama_cpp_2::sampling::LlamaSampler;
use llama_cpp_2::token::data::LlamaTokenData;
use llama_cpp_2::token::data_array::LlamaTokenDataArray;
use llama_cpp_2::token::LlamaToken;

fn schema_file(name: &str) -> String {
    std::fs::read_to_string(format!("{}/schemas/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

/// Compact documents valid for each schema, written to go through many grammar positions (enum
/// prefixes, bounded strings at their limit, optional and nullable values, alternatives).
fn grammar_cases() -> Vec<(String, Vec<&'static str>)> {
    let mut cases = vec![
        (
            SCHEMA_CHANGE.to_string(),
            vec![
                r#"{"change":"weight","setIndex":0,"value":62.5,"reasoning":"Heavier"}"#,
                r#"{"change":"rest","setIndex":-3,"value":-1e+2,"reasoning":"\"quoted\" and \\ and \n and \u00e9"}"#,
                r#"{"change":"reps","setIndex":12,"value":0.25E-1,"reasoning":"123456789012345678901234567890123456789012345678901234567890"}"#,
            ],
        ),
        (
            SCHEMA_LIST.to_string(),
            vec![r#"["a"]"#, r#"["squats","lunges","","abcdefghijklmnopqrstuvwx"]"#],
        ),
        (
            SCHEMA_MEAL.to_string(),
            vec![
                r#"{"name":"Pasta","vegetarian":true,"macros":{"protein":30,"carbs":90},"tags":[]}"#,
                r#"{"name":"","vegetarian":false,"macros":{"protein":0,"carbs":-5},"tags":["quick","high-protein","cheap"]}"#,
            ],
        ),
        (
            r#"{"type":"object","properties":{"a":{"type":"integer","minimum":1,"maximum":5},"b":{"type":["string","null"],"maxLength":3},"c":{"type":"boolean"},"d":{"type":"array","items":{"type":"integer","minimum":-1,"maximum":19},"minItems":2,"maxItems":3}},"required":["d","b"],"additionalProperties":false}"#.to_string(),
            vec![
                r#"{"b":null,"d":[-1,19,2]}"#,
                r#"{"b":"abc","d":[0,1],"a":3,"c":false}"#,
                r#"{"b":"","d":[5,10],"c":true}"#,
            ],
        ),
        (
            schema_file("ai-suggestion-step.json"),
            vec![
                r#"{"tool":"getExerciseHistoryContext"}"#,
                r#"{"tool":"getRecentExercisePerformances","limit":5}"#,
                r#"{"suggestions":[]}"#,
                r#"{"suggestions":[{"changeType":"increaseWeight","targetSetIndex":-1,"newValue":65,"reasoning":"All reps done."},{"changeType":"decreaseRest","targetSetIndex":19,"newValue":90.5,"reasoning":""}]}"#,
            ],
        ),
        (
            schema_file("today-plan.v2-flat.json"),
            vec![
                r#"{"focus":"Legs","durationMinutes":45,"equipment":["barbell","bench"],"source":"ai","energy":"moderate","summary":"Squat day.","blocks":[{"blockTemplate":"warmup-basic"},{"title":"Main","durationMinutes":30,"focus":"Strength"}],"exercises":[{"blockIndex":1,"order":0,"name":"Back squat","prescription":"5x5 @ 100 kg","detail":null},{"blockIndex":1,"order":1,"name":"Lunge","prescription":"3x10","detail":"Slow."}]}"#,
            ],
        ),
    ];
    if let Ok(router) = std::fs::read_to_string(format!(
        "{}/schemas/assistant-router.json",
        env!("CARGO_MANIFEST_DIR")
    )) {
        cases.push((
            router,
            vec![
                r#"{"decision":"clarify","category":"plan","entities":["squat","monday"],"missing":["time"],"confidence":0.4,"question":"When?"}"#,
            ],
        ));
    }
    cases
}

/// The characters the grammar allows next among printable ASCII, and whether it allows the end.
fn grammar_allows(
    grammar: &mut LlamaSampler,
    chars: &[(char, LlamaToken)],
    eos: LlamaToken,
) -> (Vec<char>, bool) {
    let mut data: Vec<LlamaTokenData> = chars
        .iter()
        .map(|&(_, t)| LlamaTokenData::new(t, 1.0, 0.0))
        .collect();
    data.push(LlamaTokenData::new(eos, 1.0, 0.0));
    let mut candidates = LlamaTokenDataArray::new(data, false);
    candidates.apply_sampler(grammar);
    let allowed: Vec<LlamaToken> = candidates
        .data
        .iter()
        .filter(|d| d.logit() != f32::NEG_INFINITY)
        .map(|d| d.id())
        .collect();
    let end = allowed.contains(&eos);
    let chars = chars
        .iter()
        .filter(|(_, t)| allowed.contains(t))
        .map(|&(c, _)| c)
        .collect();
    (chars, end)
}

/// The predictor against llama.cpp's own grammar, character by character through valid compact
/// documents of every schema: whenever it forces a character, that is the only character the
/// grammar allows (and not the end); when it says the document is complete, the grammar allows
/// only the end. Also shows that the compact grammar parses and refuses whitespace.
#[test]
fn forced_text_is_exactly_what_the_grammar_allows() {
    let Some(path) = model_path() else { return };
    let model = LlamaModel::load_from_file(backend().unwrap(), &path, &LlamaModelParams::default())
        .unwrap();
    let vocab = model.vocab();
    // Single-character tokens of printable ASCII.
    let chars: Vec<(char, LlamaToken)> = (0x20u8..0x7f)
        .filter_map(|b| {
            let toks = vocab.tokenize(&[b], false, false);
            (toks.len() == 1).then(|| (b as char, toks[0]))
        })
        .collect();
    assert!(chars.len() > 90, "{} single-character tokens", chars.len());
    let token_of = |c: char| chars.iter().find(|(x, _)| *x == c).map(|&(_, t)| t);
    let eos = vocab.eos();
    let (mut forced_positions, mut missed) = (0, 0);
    for (schema, docs) in grammar_cases() {
        let (gbnf, compact) = compact_json_grammar(&schema).unwrap();
        assert!(compact);
        let validator = jsonschema::validator_for(&serde_json::from_str(&schema).unwrap()).unwrap();
        for doc in docs {
            let value: serde_json::Value = serde_json::from_str(doc).unwrap();
            assert!(validator.is_valid(&value), "{doc}");
            let mut grammar = LlamaSampler::grammar(&model, &gbnf, "root").unwrap();
            let mut predictor = JumpPredictor::new(&schema).unwrap();
            for (i, c) in doc.char_indices() {
                let (allowed, end) = grammar_allows(&mut grammar, &chars, eos);
                assert!(allowed.contains(&c), "{doc} at {i}: grammar refuses {c:?}");
                // No whitespace between JSON tokens.
                if !in_string(&doc[..i]) {
                    assert!(!allowed.contains(&' '), "{doc} at {i}: space allowed");
                }
                let forced = predictor.forced(1);
                if let Some(f) = forced.text.chars().next() {
                    forced_positions += 1;
                    assert_eq!(
                        (allowed.as_slice(), end),
                        (&[f][..], false),
                        "{doc} at {i}: predictor forces {f:?}"
                    );
                } else if allowed.len() == 1 && !end {
                    missed += 1;
                }
                grammar.accept(token_of(c).unwrap());
                predictor.push(&c.to_string());
            }
            let (allowed, end) = grammar_allows(&mut grammar, &chars, eos);
            assert!(
                end && allowed.is_empty(),
                "{doc}: {allowed:?} after the end"
            );
            assert_eq!(predictor.forced(1).text, "");
            assert!(predictor.forced(1).complete, "{doc}: not complete");
        }
    }
    eprintln!("{forced_positions} forced positions checked; {missed} forced by the grammar but not predicted");
    assert!(forced_positions > 300);
}

/// Whether `prefix` of a compact JSON document ends inside a string.
fn in_string(prefix: &str) -> bool {
    let mut inside = false;
    let mut escaped = false;
    for c in prefix.chars() {
        match (inside, escaped, c) {
            (true, true, _) => escaped = false,
            (true, false, '\\') => escaped = true,
            (_, false, '"') => inside = !inside,
            _ => {}
        }
    }
    inside
}

fn generate_stats(
    engine: &LlamaEngine,
    req: GenerationRequest,
) -> (GenerationResult, GenerationStats) {
    engine
        .generate_with_stats(req, None, CancelToken::new())
        .unwrap()
}

fn assert_valid(schema: &str, text: &str) {
    let validator = jsonschema::validator_for(&serde_json::from_str(schema).unwrap()).unwrap();
    let value: serde_json::Value =
        serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text:?}"));
    let errors: Vec<String> = validator
        .iter_errors(&value)
        .map(|e| e.to_string())
        .collect();
    assert!(errors.is_empty(), "{errors:?} in {text}");
}

/// Schema-shaped output costs fewer model steps than tokens: forced tokens are decoded in batches.
#[test]
fn jump_forward_takes_fewer_decode_steps_than_tokens() {
    let Some(engine) = engine() else { return };
    assert!(engine.jump_forward());
    let suggestion = schema_file("ai-suggestion-step.json");
    let plan = schema_file("today-plan.v2-flat.json");
    let cases = [
        (
            SCHEMA_CHANGE,
            "Suggest one change to my bench press: 3 sets of 8 reps at 60 kg, 90 s rest.",
        ),
        (
            SCHEMA_MEAL,
            "Describe a simple dinner with its protein and carbs in grams.",
        ),
        (
            suggestion.as_str(),
            "Suggest changes for my squat: 3 sets of 5 at 100 kg, 180 s rest.",
        ),
        (plan.as_str(), "Plan a 45 minute leg workout for today."),
    ];
    let (mut tokens, mut steps) = (0, 0);
    for (schema, user) in cases {
        for seed in 0..3 {
            let req = request(
                "Answer in JSON.",
                user,
                Some(schema),
                seeded(seed, 0.7),
                400,
            );
            let (out, stats) = generate_stats(&engine, req.clone());
            eprintln!(
                "seed {seed}: {} tokens, {} steps ({} forced in {} jumps): {}",
                out.completion_tokens,
                stats.decode_steps,
                stats.forced_tokens,
                stats.jumps,
                out.text
            );
            // The small model may ramble in the plan's long strings until the limit.
            if out.finish == FinishReason::Stop || schema != plan {
                assert_eq!(out.finish, FinishReason::Stop, "{}", out.text);
                assert_valid(schema, &out.text);
            }
            assert_eq!(
                stats.sampled_tokens + stats.forced_tokens,
                out.completion_tokens
            );
            assert!(stats.forced_tokens > 0 && stats.jumps > 0);
            // One step per sampled token at most (the last sampled token needs none).
            assert!(stats.decode_steps <= stats.sampled_tokens);
            assert!(
                stats.decode_steps < out.completion_tokens,
                "{stats:?} for {} tokens",
                out.completion_tokens
            );
            // Same seed, same text and the same steps (the repeat may read its prompt from the
            // cache, which changes nothing else).
            let (again, again_stats) = generate_stats(&engine, req);
            assert_eq!(again.text, out.text);
            assert_eq!(
                GenerationStats {
                    cached_prompt_tokens: 0,
                    ..again_stats
                },
                GenerationStats {
                    cached_prompt_tokens: 0,
                    ..stats
                }
            );
            tokens += out.completion_tokens;
            steps += stats.decode_steps;
        }
    }
    eprintln!("{tokens} tokens in {steps} decode steps");
    // Keys and punctuation are a large share of these outputs.
    assert!(steps * 10 < tokens * 9, "{steps} steps for {tokens} tokens");
}

/// Without jump-forward every token is sampled and costs a step; with it, fewer steps, and both
/// follow the schema.
#[test]
fn jump_forward_can_be_disabled() {
    let Some(path) = model_path() else { return };
    let Some(engine) = engine() else { return };
    let plain = LlamaEngine::load(
        &path,
        LlamaOptions {
            context_tokens: 1024,
            jump_forward: false,
            ..LlamaOptions::default()
        },
    )
    .unwrap();
    assert!(!plain.jump_forward());
    let user = "Describe a simple dinner with its protein and carbs in grams.";
    for seed in [4, 5] {
        let req = request(
            "Answer in JSON.",
            user,
            Some(SCHEMA_MEAL),
            seeded(seed, 0.7),
            300,
        );
        let (slow, slow_stats) = generate_stats(&plain, req.clone());
        assert_valid(SCHEMA_MEAL, &slow.text);
        assert_eq!(slow_stats.forced_tokens, 0);
        assert_eq!(slow_stats.sampled_tokens, slow.completion_tokens);
        // The end token is sampled after the last text token, which needs a step.
        assert_eq!(slow_stats.decode_steps, slow.completion_tokens);
        let (fast, fast_stats) = generate_stats(&engine, req);
        assert_valid(SCHEMA_MEAL, &fast.text);
        eprintln!(
            "seed {seed}: without {} tokens / {} steps, with {} tokens / {} steps\n  {}\n  {}",
            slow.completion_tokens,
            slow_stats.decode_steps,
            fast.completion_tokens,
            fast_stats.decode_steps,
            slow.text,
            fast.text
        );
        assert!(fast_stats.decode_steps < slow_stats.decode_steps);
    }
    // Free text is unaffected: no jumps, one step per token.
    let req = request(
        "You are a coach.",
        "Give me one tip.",
        None,
        seeded(1, 0.7),
        30,
    );
    let (out, stats) = generate_stats(&engine, req);
    assert_eq!(stats.forced_tokens, 0);
    assert_eq!(stats.sampled_tokens, out.completion_tokens);
    assert!(stats.decode_steps >= out.completion_tokens.saturating_sub(1));
}

/// Jumps respect max_tokens (cut short, exactly at the limit) and stream their text.
#[test]
fn jumps_stop_at_max_tokens_and_stream() {
    let Some(engine) = engine() else { return };
    let user = "Describe a simple dinner with its protein and carbs in grams.";
    for max in [1, 2, 3, 5, 8, 13] {
        let req = request(
            "Answer in JSON.",
            user,
            Some(SCHEMA_MEAL),
            seeded(9, 0.7),
            max,
        );
        let listener = Arc::new(Collect {
            pieces: Mutex::new(Vec::new()),
        });
        let (out, stats) = engine
            .generate_with_stats(req, Some(listener.clone()), CancelToken::new())
            .unwrap();
        assert_eq!(out.finish, FinishReason::Length, "{max}: {}", out.text);
        assert_eq!(out.completion_tokens, max);
        assert_eq!(stats.sampled_tokens + stats.forced_tokens, max);
        assert_eq!(listener.pieces.lock().unwrap().concat(), out.text);
        assert!(out.text.starts_with('{'), "{}", out.text);
    }
}

#[test]
fn a_repeated_prompt_prefix_is_read_from_the_cache() {
    let Some(path) = model_path() else { return };
    let engine = LlamaEngine::load(
        &path,
        LlamaOptions {
            context_tokens: 1024,
            threads: Some(2),
            ..LlamaOptions::default()
        },
    )
    .unwrap();
    let system = ChatMessage::new(
        ChatRole::System,
        "You are a planner. Answer with one short sentence about the day. ".repeat(12),
    );
    let ask = |user: &str| GenerationRequest {
        messages: vec![system.clone(), ChatMessage::new(ChatRole::User, user)],
        json_schema: None,
        sampling: seeded(7, 0.0),
        max_tokens: 4,
        timeout_ms: None,
    };
    let (cold, cold_stats) = engine
        .generate_with_stats(ask("What is first?"), None, CancelToken::new())
        .unwrap();
    assert_eq!(
        cold_stats.cached_prompt_tokens, 0,
        "a new engine has nothing cached"
    );
    let (warm, warm_stats) = engine
        .generate_with_stats(ask("And then?"), None, CancelToken::new())
        .unwrap();
    let shared = warm_stats.cached_prompt_tokens;
    assert!(
        shared > warm.prompt_tokens / 2 && shared < warm.prompt_tokens,
        "the system prompt is reused, the user turn decoded: {shared} of {}",
        warm.prompt_tokens
    );
    // The same prompt twice: the second time everything but the last token comes from the
    // cache, and greedy decoding gives the same text as the cold call did.
    let (first, _) = engine
        .generate_with_stats(ask("What is first?"), None, CancelToken::new())
        .unwrap();
    let (again, again_stats) = engine
        .generate_with_stats(ask("What is first?"), None, CancelToken::new())
        .unwrap();
    assert_eq!(again_stats.cached_prompt_tokens, again.prompt_tokens - 1);
    assert_eq!(first.text, cold.text);
    assert_eq!(again.text, cold.text);

    // A prewarm fills the cache with the prefix alone; with the cache off nothing is reused.
    let fresh = LlamaEngine::load(
        &path,
        LlamaOptions {
            context_tokens: 1024,
            threads: Some(2),
            ..LlamaOptions::default()
        },
    )
    .unwrap();
    let prefix = fresh.prewarm(std::slice::from_ref(&system)).unwrap();
    assert!(prefix > 100, "{prefix}");
    let (_, stats) = fresh
        .generate_with_stats(ask("What is first?"), None, CancelToken::new())
        .unwrap();
    assert_eq!(
        stats.cached_prompt_tokens, prefix,
        "the prewarmed prefix is reused whole"
    );
    fresh.set_prompt_cache(false);
    let (_, stats) = fresh
        .generate_with_stats(ask("What is first?"), None, CancelToken::new())
        .unwrap();
    assert_eq!(stats.cached_prompt_tokens, 0);
}

/// A looping output is stopped early, also when jump-forward forces tokens between the sampled
/// ones (each step here: the model samples `,` and the grammar forces `"ab"`, so the token count
/// after a sampled token never lands on a fixed multiple). The call ends as a truncated answer
/// (finish `Length`), far below its token limit.
#[test]
fn a_looping_output_is_stopped_early_between_forced_tokens() {
    let Some(engine) = engine() else { return };
    let schema = r#"{"type":"array","items":{"type":"string","enum":["ab"]},"minItems":1}"#;
    let max = 1500;
    let req = request(
        "Answer in JSON.",
        "Write the list [\"ab\", \"ab\", \"ab\", ...] with \"ab\" repeated as often as you can.",
        Some(schema),
        seeded(3, 0.0),
        max,
    );
    let (out, stats) = generate_stats(&engine, req);
    eprintln!("{} tokens, {stats:?}: {}", out.completion_tokens, out.text);
    assert!(stats.forced_tokens > 0 && stats.jumps > 0, "{stats:?}");
    assert!(stats.stopped_looping, "{stats:?}: {}", out.text);
    assert_eq!(out.finish, FinishReason::Length);
    assert!(
        coachcore::llm::runaway::is_looping(&out.text),
        "{}",
        out.text
    );
    // Stopped within one check period (8 sampled steps, one per item) of the loop becoming
    // long enough to count as one.
    let enough = (1..200)
        .find(|&k| coachcore::llm::runaway::is_looping(&format!("[{}", "\"ab\",".repeat(k))))
        .unwrap();
    let repeats = out.text.matches("\"ab\"").count();
    assert!(
        (enough - 1..enough + 9).contains(&repeats),
        "{repeats} repeats (a loop from {enough}), {} tokens",
        out.completion_tokens
    );
    assert!(out.completion_tokens < max / 2, "{}", out.completion_tokens);
}
