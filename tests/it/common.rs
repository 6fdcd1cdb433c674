//! Shared by the integration tests: the test model for the real-model modules (`llama*.rs`), the
//! CLI runner for the CLI modules (`cli.rs`, `demo.rs`, `encryption.rs`: a child process with a time
//! limit, and optionally a memory or file-size limit), a seedable random stream for the
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
    let how = Child {
        reader_gone: close_stdout,
        ..Child::default()
    };
    run_coach_with(args, stdin.as_bytes(), &how)
}

/// How [`run_coach_with`] runs the CLI as a child process. Every run has a time limit
/// ([`CHILD_TIME_LIMIT`]: a hang fails the test instead of stalling it); the rest is optional.
#[derive(Default)]
pub struct Child<'a> {
    /// Environment variables set for the child (it inherits this process's others, except
    /// `COACH_DB_KEY`, which it gets only from here).
    pub env: &'a [(&'a str, &'a str)],
    /// The address space the child may use (`RLIMIT_AS`): input read whole runs out of it.
    pub memory_bytes: Option<u64>,
    /// The largest file the child may write (`RLIMIT_FSIZE`, `SIGXFSZ` ignored): a write that
    /// grows a file past it fails as on a full disk.
    pub file_bytes: Option<u64>,
    /// Stdout closed when the child starts (`coach … >&-`).
    pub stdout_closed: bool,
    /// The reader closes stdout before the child writes anything (`coach … | head -c 0`).
    pub reader_gone: bool,
}

/// How long a CLI child may run before it is killed and the test fails (a guard against hangs,
/// not a measurement: a run takes well under a second).
pub const CHILD_TIME_LIMIT: std::time::Duration = std::time::Duration::from_secs(120);

/// Runs the CLI with `stdin` as `how` says; panics if it runs past [`CHILD_TIME_LIMIT`].
pub fn run_coach_with(args: &[&str], stdin: &[u8], how: &Child<'_>) -> Output {
    use std::io::Read;
    use std::os::unix::process::CommandExt;
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_coach"));
    cmd.args(args)
        .env_remove("COACH_DB_KEY")
        .envs(how.env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let (memory, file, closed) = (how.memory_bytes, how.file_bytes, how.stdout_closed);
    // SAFETY: between fork and exec the closure only makes async-signal-safe calls (setrlimit,
    // signal, close) on plain values it owns.
    unsafe {
        cmd.pre_exec(move || {
            let limit = |resource, bytes: u64| {
                let l = libc::rlimit {
                    rlim_cur: bytes as libc::rlim_t,
                    rlim_max: bytes as libc::rlim_t,
                };
                if libc::setrlimit(resource, &l) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            };
            if let Some(bytes) = memory {
                limit(libc::RLIMIT_AS, bytes)?;
            }
            if let Some(bytes) = file {
                libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
                limit(libc::RLIMIT_FSIZE, bytes)?;
            }
            if closed {
                libc::close(1);
            }
            Ok(())
        })
    };
    let mut child = cmd.spawn().unwrap();
    if how.reader_gone {
        drop(child.stdout.take());
    }
    let drain = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_end(&mut bytes);
            }
            bytes
        })
    };
    let stdout = drain(child.stdout.take().map(|p| Box::new(p) as _));
    let stderr = drain(child.stderr.take().map(|p| Box::new(p) as _));
    let mut input = child.stdin.take().unwrap();
    let stdin = stdin.to_vec();
    // A command that fails before reading stdin (a usage error), or reads only up to a cap,
    // closes the pipe early.
    let writer = std::thread::spawn(move || {
        if let Err(e) = input.write_all(&stdin) {
            assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
        }
    });
    let deadline = std::time::Instant::now() + CHILD_TIME_LIMIT;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("coach {args:?} ran longer than {CHILD_TIME_LIMIT:?} and was killed");
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    };
    writer.join().unwrap();
    Output {
        status,
        stdout: stdout.join().unwrap(),
        stderr: stderr.join().unwrap(),
    }
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
