//! Process-wide llama.cpp state and the small pieces a call is made of: the backend, the CPU
//! features it runs with and the cores ([`backend`], [`system_info`], [`available_cores`], the
//! compute gate that lets concurrent decode steps take turns), the chat template of a GGUF,
//! cancellation and timeout checks, and a few helpers. Token bytes are decoded by
//! `crate::llm::utf8::Utf8Stream`.

use std::sync::{Condvar, Mutex, OnceLock};
use std::time::Instant;

use llama_cpp_2::llama_backend::LlamaBackend;
use llama_cpp_2::model::{LlamaChatMessage, LlamaChatTemplate, LlamaModel};
use llama_cpp_2::token::LlamaToken;

use crate::llm::{CancelToken, ChatRole, LlmError, TokenListener};

/// The cores this process may use (at least 1).
pub fn available_cores() -> u32 {
    std::thread::available_parallelism().map_or(1, |n| u32::try_from(n.get()).unwrap_or(u32::MAX))
}

/// The process's llama.cpp backend, initialised on first use with llama.cpp's logging silenced.
/// llama.cpp allows one per process: code that uses `llama-cpp-2` directly next to the engine must
/// use this one.
///
/// On a device whose CPU lacks the instructions ggml's kernels were compiled for
/// ([`crate::llm::cpu`]) llama.cpp is never started: `UnsupportedModel`, instead of SIGILL.
pub fn backend() -> Result<&'static LlamaBackend, LlmError> {
    static BACKEND: OnceLock<Result<LlamaBackend, LlmError>> = OnceLock::new();
    BACKEND
        .get_or_init(|| {
            if let Some(detail) = crate::llm::cpu::engine_cpu_problem() {
                return Err(LlmError::UnsupportedModel { detail });
            }
            let mut backend = LlamaBackend::init().map_err(|e| LlmError::Backend {
                detail: format!("llama.cpp backend: {e}"),
            })?;
            backend.void_logs();
            log::info!(target: "coachcore::llm", "llama.cpp system info: {}", system_info());
            Ok(backend)
        })
        .as_ref()
        .map_err(Clone::clone)
}

/// llama.cpp's system information: the CPU features ggml's kernels were compiled with and found
/// (e.g. `CPU : NEON = 1 | ARM_FMA = 1 | DOTPROD = 1 | ...`; on x86 `AVX2 = 1 | F16C = 1 | ...`),
/// as `llama_print_system_info` reports it. Complete once [`backend`] has been initialised.
pub fn system_info() -> String {
    // SAFETY: returns a pointer to a static NUL-terminated buffer llama.cpp owns (or NULL).
    let p = unsafe { llama_cpp_sys_2::llama_print_system_info() };
    if p.is_null() {
        return String::new();
    }
    // SAFETY: non-NULL, NUL-terminated, valid until the next call (read at once).
    unsafe { std::ffi::CStr::from_ptr(p) }
        .to_string_lossy()
        .trim()
        .to_string()
}

/// The template used when a GGUF has no chat template llama.cpp can apply.
pub const FALLBACK_TEMPLATE: &str = "chatml";

/// The GGUF's own chat template if llama.cpp can apply it, else [`FALLBACK_TEMPLATE`].
pub(super) fn chat_template(model: &LlamaModel) -> Result<(LlamaChatTemplate, bool), LlmError> {
    let probe = [LlamaChatMessage::new("user".into(), "hi".into()).expect("no NUL")];
    if let Ok(template) = model.chat_template(None) {
        if model.apply_chat_template(&template, &probe, true).is_ok() {
            return Ok((template, false));
        }
    }
    let template = LlamaChatTemplate::new(FALLBACK_TEMPLATE).expect("no NUL");
    model
        .apply_chat_template(&template, &probe, true)
        .map_err(|e| LlmError::UnsupportedModel {
            detail: format!("no usable chat template: {e}"),
        })?;
    Ok((template, true))
}

pub(super) fn role_name(role: ChatRole) -> &'static str {
    match role {
        ChatRole::System => "system",
        ChatRole::User => "user",
        ChatRole::Assistant => "assistant",
    }
}

pub(super) fn backend_err(e: impl std::fmt::Display) -> LlmError {
    LlmError::Backend {
        detail: format!("llama.cpp: {e}"),
    }
}

/// How many leading tokens `a` and `b` share.
pub(super) fn common_prefix(a: &[LlamaToken], b: &[LlamaToken]) -> usize {
    a.iter().zip(b).take_while(|(x, y)| x == y).count()
}

pub(super) fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

pub(super) fn emit(piece: String, text: &mut String, listener: Option<&dyn TokenListener>) {
    if piece.is_empty() {
        return;
    }
    text.push_str(&piece);
    if let Some(l) = listener {
        l.on_token(piece);
    }
}

pub(super) struct Deadline {
    pub(super) started: Instant,
    pub(super) timeout_ms: Option<u64>,
}

pub(super) fn check(cancel: &CancelToken, deadline: &Deadline) -> Result<(), LlmError> {
    if cancel.is_cancelled() {
        return Err(LlmError::Cancelled);
    }
    if let Some(ms) = deadline.timeout_ms {
        if deadline.started.elapsed().as_millis() >= u128::from(ms) {
            return Err(LlmError::TimedOut { after_ms: ms });
        }
    }
    Ok(())
}

/// Lets decode steps of concurrent calls share the cores without oversubscribing them: a step
/// with `n` threads holds `n` of the cores' units while it runs. With every call using all cores
/// (the default) steps take turns; with fewer threads per call, several run side by side.
pub(super) struct ComputeGate {
    free: Mutex<u32>,
    freed: Condvar,
    total: u32,
}

pub(super) struct GateTurn<'a> {
    gate: &'a ComputeGate,
    units: u32,
}

impl ComputeGate {
    /// One for the process: the cores are shared by every engine.
    pub(super) fn global() -> &'static ComputeGate {
        static GATE: OnceLock<ComputeGate> = OnceLock::new();
        GATE.get_or_init(|| ComputeGate::new(available_cores()))
    }

    fn new(total: u32) -> Self {
        ComputeGate {
            free: Mutex::new(total),
            freed: Condvar::new(),
            total,
        }
    }

    pub(super) fn acquire(&self, units: u32) -> GateTurn<'_> {
        let units = units.clamp(1, self.total);
        let mut free = lock(&self.free);
        while *free < units {
            free = self
                .freed
                .wait(free)
                .unwrap_or_else(std::sync::PoisonError::into_inner);
        }
        *free -= units;
        GateTurn { gate: self, units }
    }
}

impl Drop for GateTurn<'_> {
    fn drop(&mut self) {
        *lock(&self.gate.free) += self.units;
        self.gate.freed.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gate_lets_small_steps_run_side_by_side() {
        let gate = ComputeGate::new(2);
        let a = gate.acquire(1);
        let b = gate.acquire(1);
        assert_eq!(*lock(&gate.free), 0);
        drop((a, b));
        let c = gate.acquire(5);
        assert_eq!(c.units, 2);
    }
}
