//! The memory pre-flight before a model is loaded: what the model will take (the file, mapped,
//! plus the KV cache of one context at the chosen size plus llama.cpp's compute buffers) against
//! what the device has available now. Loading a model that does not fit gets the app killed by the
//! system (iOS jetsam, Android's low-memory killer) with no error to show; the pre-flight turns
//! that into `InsufficientMemory` before anything is mapped.
//!
//! Available memory: `MemAvailable` of `/proc/meminfo` on Linux and Android;
//! `os_proc_available_memory()` on iOS, tvOS and watchOS (what the process may still use before
//! jetsam); the physical memory (`hw.memsize`, sysctl) on macOS, which pages out rather than
//! kills, so only a model larger than the machine is refused. Elsewhere the pre-flight is skipped.

use super::gguf::GgufFacts;
use super::model::LlmError;

/// Bytes per KV-cache element: llama.cpp keeps K and V in F16 by default.
const KV_BYTES_PER_ELEMENT: u64 = 2;

/// Tokens of one compute batch (the engine's prompt chunk): the logits buffer holds one row of the
/// vocabulary per token of it.
const BATCH_TOKENS: u64 = 256;

/// A fixed allowance for llama.cpp's compute graph and scratch buffers.
const COMPUTE_OVERHEAD: u64 = 48 * 1024 * 1024;

/// What loading a model would take, and what the device has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MemoryEstimate {
    /// The model file (memory-mapped: its pages count against the app on mobile systems).
    pub file_bytes: u64,
    /// The KV cache of one context of the chosen size.
    pub kv_cache_bytes: u64,
    /// Compute buffers (logits of a batch and a fixed allowance).
    pub compute_bytes: u64,
    /// What the device has available now, when the platform says.
    pub available_bytes: Option<u64>,
}

impl MemoryEstimate {
    /// Everything the model would take.
    pub fn needed_bytes(&self) -> u64 {
        self.file_bytes
            .saturating_add(self.kv_cache_bytes)
            .saturating_add(self.compute_bytes)
    }

    /// `Ok` when the model fits (or the platform does not say what is available),
    /// `InsufficientMemory` otherwise.
    pub fn check(&self) -> Result<(), LlmError> {
        match self.available_bytes {
            Some(available) if self.needed_bytes() > available => {
                Err(LlmError::InsufficientMemory {
                    needed_bytes: self.needed_bytes(),
                    available_bytes: available,
                })
            }
            _ => Ok(()),
        }
    }
}

/// The KV cache of a context of `context_tokens`: `n_layer * n_ctx * (n_embd_k_gqa +
/// n_embd_v_gqa) * bytes per element`, from the GGUF metadata. Without the sizes in the metadata
/// it is estimated from the parameter count (a model's KV cache per token grows about with the
/// square root of its size; this overestimates grouped-query models, which is the safe side).
pub fn kv_cache_bytes(facts: &GgufFacts, context_tokens: u32) -> u64 {
    let n_ctx = u64::from(context_tokens);
    match (facts.layers, facts.kv_elements_per_token_layer()) {
        (Some(layers), Some(per_layer)) => layers
            .saturating_mul(n_ctx)
            .saturating_mul(per_layer)
            .saturating_mul(KV_BYTES_PER_ELEMENT),
        _ => {
            // Per token: about 4 bytes per sqrt(parameter) per layer-equivalent; e.g. 1.2 B
            // parameters: ~140 KB per token.
            let per_token = 4 * (facts.parameter_count as f64).sqrt() as u64;
            n_ctx.saturating_mul(per_token)
        }
    }
}

/// The estimate for a model with `facts` at `context_tokens`, with the device's available memory.
pub fn estimate(facts: &GgufFacts, context_tokens: u32) -> MemoryEstimate {
    estimate_with(facts, context_tokens, available_bytes())
}

/// [`estimate`] against a given `available` (for tests and tools).
pub fn estimate_with(
    facts: &GgufFacts,
    context_tokens: u32,
    available: Option<u64>,
) -> MemoryEstimate {
    let logits = facts
        .vocab
        .unwrap_or(32_000)
        .saturating_mul(BATCH_TOKENS)
        .saturating_mul(4);
    MemoryEstimate {
        file_bytes: facts.file_bytes,
        kv_cache_bytes: kv_cache_bytes(facts, context_tokens),
        compute_bytes: logits.saturating_add(COMPUTE_OVERHEAD),
        available_bytes: available,
    }
}

/// The memory the process can still use now, if the platform says (see the module documentation).
pub fn available_bytes() -> Option<u64> {
    platform::available_bytes()
}

/// `MemAvailable` of a `/proc/meminfo` text, in bytes.
pub fn parse_meminfo(text: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let mut parts = line["MemAvailable:".len()..].split_whitespace();
    let n: u64 = parts.next()?.parse().ok()?;
    match parts.next() {
        Some("kB") | None => n.checked_mul(1024),
        Some(_) => None,
    }
}

#[cfg(any(target_os = "linux", target_os = "android"))]
mod platform {
    pub(super) fn available_bytes() -> Option<u64> {
        std::fs::read_to_string("/proc/meminfo")
            .ok()
            .and_then(|t| super::parse_meminfo(&t))
    }
}

#[cfg(any(target_os = "ios", target_os = "tvos", target_os = "watchos"))]
mod platform {
    extern "C" {
        /// libSystem (iOS 13+): bytes the process may still allocate before its memory limit.
        fn os_proc_available_memory() -> usize;
    }

    pub(super) fn available_bytes() -> Option<u64> {
        // SAFETY: a libSystem function without arguments or side effects.
        let n = unsafe { os_proc_available_memory() };
        // 0 means the process has no limit (e.g. the simulator): nothing to check against.
        (n > 0).then_some(n as u64)
    }
}

#[cfg(target_os = "macos")]
mod platform {
    use std::ffi::{c_char, c_int, c_void};

    extern "C" {
        fn sysctlbyname(
            name: *const c_char,
            oldp: *mut c_void,
            oldlenp: *mut usize,
            newp: *mut c_void,
            newlen: usize,
        ) -> c_int;
    }

    pub(super) fn available_bytes() -> Option<u64> {
        let mut value: u64 = 0;
        let mut len = std::mem::size_of::<u64>();
        // SAFETY: a NUL-terminated name and an out-buffer of the length passed.
        let rc = unsafe {
            sysctlbyname(
                c"hw.memsize".as_ptr(),
                (&mut value as *mut u64).cast(),
                &mut len,
                std::ptr::null_mut(),
                0,
            )
        };
        (rc == 0 && len == std::mem::size_of::<u64>()).then_some(value)
    }
}

#[cfg(not(any(
    target_os = "linux",
    target_os = "android",
    target_os = "ios",
    target_os = "tvos",
    target_os = "watchos",
    target_os = "macos"
)))]
mod platform {
    pub(super) fn available_bytes() -> Option<u64> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn smol() -> GgufFacts {
        // SmolLM2-135M: 30 layers, 576 wide, 9 heads, 3 KV heads (head dim 64).
        GgufFacts {
            file_bytes: 100_000_000,
            layers: Some(30),
            embedding: Some(576),
            heads: Some(9),
            kv_heads: Some(3),
            vocab: Some(49_152),
            parameter_count: 134_515_008,
            ..GgufFacts::default()
        }
    }

    #[test]
    fn kv_cache_follows_the_llama_cpp_formula() {
        // 30 layers * 2048 tokens * (192 + 192) * 2 bytes = 45 MiB, what llama.cpp reports.
        assert_eq!(kv_cache_bytes(&smol(), 2048), 30 * 2048 * 384 * 2);
        assert_eq!(kv_cache_bytes(&smol(), 2048), 47_185_920);
        // Without the sizes: estimated from the parameters, and it grows with the context.
        let bare = GgufFacts {
            parameter_count: 1_200_000_000,
            ..GgufFacts::default()
        };
        let e = kv_cache_bytes(&bare, 4096);
        assert!(e > 100_000_000 && e < 4_000_000_000, "{e}");
        assert_eq!(kv_cache_bytes(&bare, 8192), 2 * e);
    }

    #[test]
    fn check_refuses_what_does_not_fit() {
        let e = estimate_with(&smol(), 2048, Some(1_000_000_000));
        assert!(e.check().is_ok());
        let needed = e.needed_bytes();
        assert_eq!(
            needed,
            100_000_000 + 47_185_920 + 49_152 * 256 * 4 + COMPUTE_OVERHEAD
        );
        let tight = estimate_with(&smol(), 2048, Some(needed - 1));
        assert_eq!(
            tight.check(),
            Err(LlmError::InsufficientMemory {
                needed_bytes: needed,
                available_bytes: needed - 1
            })
        );
        // A platform that does not say: nothing to refuse.
        assert!(estimate_with(&smol(), 1 << 30, None).check().is_ok());
    }

    #[test]
    fn meminfo_is_read_in_kilobytes() {
        let text = "MemTotal:       16384000 kB\nMemFree:  100 kB\nMemAvailable:    8000000 kB\n";
        assert_eq!(parse_meminfo(text), Some(8_000_000 * 1024));
        assert_eq!(parse_meminfo("MemTotal: 5 kB\n"), None);
        assert_eq!(parse_meminfo("MemAvailable: lots kB\n"), None);
        #[cfg(target_os = "linux")]
        assert!(available_bytes().is_some_and(|b| b > 0));
    }
}
