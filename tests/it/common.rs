//! Shared by the integration tests: the test model for the real-model modules (`llama*.rs`), the
//! CLI runner for the CLI modules (`cli.rs`, `demo.rs`), a seedable random stream for the
//! generated-input runs ([`Rng`]), and the log of a workout done as written ([`log_at_targets`]).
//! The soak (`tests/soak`) includes this file too.

// Each module uses part of this one, and the real-model modules exist only with feature `llama`.
#![allow(dead_code)]

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// The test model: env `COACH_MODEL`, else `models/SmolLM2-135M-Instruct.Q4_1.gguf`
/// (`models/fetch.sh`). Without it the test is skipped, except under CI, where that is a failure.
pub fn model_path() -> Option<String> {
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

/// Runs the CLI with `stdin`; with `close_stdout` its stdout is closed before it writes anything
/// (as `coach … | head -c 0`).
pub fn run_coach(args: &[&str], stdin: &str, close_stdout: bool) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_coach"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    if close_stdout {
        drop(child.stdout.take());
    }
    // A command that fails before reading stdin (a usage error) closes the pipe early.
    if let Err(e) = child.stdin.take().unwrap().write_all(stdin.as_bytes()) {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
    }
    child.wait_with_output().unwrap()
}

/// A xorshift stream seeded from the clock, for the kill tests: the seed (for the caller to print,
/// so a failing run can be told apart) and `rand(n)`, a number in `0..n`.
pub fn clock_seeded_rand() -> (u64, impl FnMut(u64) -> u64) {
    let mut seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos() as u64
        | 1;
    let first = seed;
    let rand = move |n: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n
    };
    (first, rand)
}

/// SplitMix64: a small deterministic random stream for generated test inputs.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64 <= p
    }

    pub fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len())]
    }
}

/// A model that blocks until its call is cancelled, telling the test (through the sender) when
/// each call started.
pub struct Blocking {
    started: std::sync::Mutex<std::sync::mpsc::Sender<()>>,
}

impl Blocking {
    /// A blocking model that sends `()` on `started` as each call begins.
    pub fn new(started: std::sync::mpsc::Sender<()>) -> Self {
        Blocking {
            started: std::sync::Mutex::new(started),
        }
    }
}

impl coachcore::llm::LanguageModel for Blocking {
    fn info(&self) -> coachcore::llm::ModelInfo {
        coachcore::llm::ModelInfo {
            name: "blocking".into(),
            context_tokens: 8192,
            constrains_json_schema: false,
        }
    }

    fn generate(
        &self,
        _request: coachcore::llm::GenerationRequest,
        _listener: Option<std::sync::Arc<dyn coachcore::llm::TokenListener>>,
        cancel: std::sync::Arc<coachcore::llm::CancelToken>,
    ) -> Result<coachcore::llm::GenerationResult, coachcore::llm::LlmError> {
        let _ = self.started.lock().unwrap().send(());
        while !cancel.is_cancelled() {
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
        Err(coachcore::llm::LlmError::Cancelled)
    }
}

/// The log of workout `w` done as written: every set at its target weight (100 lb without one)
/// for `reps` reps.
pub fn log_at_targets(
    w: &coachcore::workout::Workout,
    performed_at_ms: i64,
    reps: u32,
) -> coachcore::workout::WorkoutLog {
    coachcore::workout::WorkoutLog {
        workout_id: w.workout_id.clone(),
        performed_at_ms,
        sets: w
            .sets
            .iter()
            .map(|s| coachcore::workout::SetActual {
                set_id: s.id.clone(),
                actual_weight: s.target_weight.unwrap_or(100.0),
                actual_reps: reps,
            })
            .collect(),
        post_workout: None,
    }
}
