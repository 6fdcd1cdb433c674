//! Whether a GGUF model file can be used on this device, decided without loading it: the answer
//! of the free `modelAvailability(path)` (C: `model.availability`; CLI: `coach model check`).
//!
//! Only the file's header is read ([`super::gguf`]: magic, version, counts, metadata, tensor
//! shapes; bounded, no allocation larger than the file justifies), then the memory pre-flight of a
//! load ([`super::memory`]: the same estimate against the same available-memory reading) and the
//! engine's presence. The checks run in this order and the first that fails is the status:
//!
//! 1. `fileMissing`: no file at the path;
//! 2. `unreadable`: a path that cannot be read (permissions, a folder, an I/O error);
//! 3. `notGguf`: no GGUF magic, a GGUF version other than 2 or 3, or a header that is truncated
//!    or declares more than the file holds;
//! 4. `unsupportedArchitecture`: `general.architecture` missing or not in
//!    [`SUPPORTED_ARCHITECTURES`];
//! 5. `insufficientMemory`: the file plus the KV cache of the context plus compute buffers is
//!    more than the device has available now (what `model().load` would refuse);
//! 6. `engineMissing`: a build without the on-device engine (feature `llama`), or a device whose
//!    CPU lacks the instructions the engine's kernels were built for ([`super::cpu`]).
//!
//! The file is judged before the engine, so a file's problem reads the same in every build.
//! [`decide`] is the pure decision; [`check`] reads the file and the device.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::gguf::{self, GgufFacts, GgufProblem, GGUF_VERSIONS};
use super::memory;

/// The model architectures (`general.architecture`) the library is meant for: small instruct
/// models the bundled llama.cpp runs (SmolLM2, Llama 3.x and Mistral-style models are `llama`;
/// Qwen 2.5 `qwen2`; Qwen 3 `qwen3`; Gemma 2 and 3; Phi-3 and 3.5 mini `phi3`; SmolLM3). The one
/// list: the availability check, its tests and the documentation read it.
pub const SUPPORTED_ARCHITECTURES: &[&str] = &[
    "llama", "qwen2", "qwen3", "gemma2", "gemma3", "phi3", "smollm3",
];

/// The context the check assumes when none is given: `model().load`'s usual 2048 tokens.
pub const DEFAULT_CHECK_CONTEXT: u32 = 2048;

/// Whether a model file can be used, or the first reason it cannot (in the order they are
/// checked). In Swift `.available`, `.fileMissing`, ...; in Kotlin `AVAILABLE`, `FILE_MISSING`, ...
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, uniffi::Enum)]
#[serde(rename_all = "camelCase")]
pub enum ModelAvailabilityStatus {
    /// Every check passed: `model().load` with the same context is expected to succeed.
    Available,
    /// No file at the path: ship or download the model first.
    FileMissing,
    /// The path exists but cannot be read (permissions, a folder, an I/O error).
    Unreadable,
    /// Not a GGUF file this library reads: no GGUF magic, a GGUF version other than 2 or 3, or a
    /// truncated or corrupt header (an interrupted download: fetch it again).
    NotGguf,
    /// A GGUF whose model architecture the library is not meant for (`architecture` says which).
    UnsupportedArchitecture,
    /// The model would take more memory than the device has available now (`neededBytes` against
    /// `availableBytes`): offer a smaller model or context, or try again after freeing memory.
    InsufficientMemory,
    /// The file is fine but this library cannot run it here: a build without the on-device
    /// engine, or a phone whose CPU lacks the instructions the engine was built for.
    EngineMissing,
}

/// The answer of `modelAvailability`: the status and the figures behind it. Figures the check
/// did not reach are `None` (for a missing file, all of them).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase")]
pub struct ModelAvailability {
    /// `available`, or the first reason the model cannot be used.
    pub status: ModelAvailabilityStatus,
    /// Why, in a sentence for logs (not for users); `None` when available.
    pub detail: Option<String>,
    /// Bytes of the file.
    pub file_bytes: Option<u64>,
    /// The GGUF format version.
    pub gguf_version: Option<u32>,
    /// `general.architecture`, e.g. `llama`.
    pub architecture: Option<String>,
    /// Tensors the header declares.
    pub tensor_count: Option<u64>,
    /// Metadata entries the header declares.
    pub metadata_count: Option<u64>,
    /// Parameters (weights), from the tensor shapes.
    pub parameter_count: Option<u64>,
    /// The weights' quantization as llama.cpp names it (`Q4_1`, `Q4_K_M`, ...).
    pub quantization: Option<String>,
    /// The context (tokens) the memory figures are for.
    pub context_tokens: u32,
    /// Memory the model would take at `contextTokens`: the file, the KV cache and compute
    /// buffers (the estimate `model().load` checks before loading).
    pub needed_bytes: Option<u64>,
    /// Memory the device has available now (or the figure passed in `availableBytes`); `None`
    /// when the platform does not say, and then memory never refuses a model.
    pub available_bytes: Option<u64>,
}

/// How to check a model file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ModelCheckOptions {
    /// The context the app will load the model with, in tokens (the KV cache grows with it).
    #[serde(default = "default_context")]
    #[uniffi(default = 2048)]
    pub context_tokens: u32,
    /// The available memory to check against, in bytes, in place of the device's reading (for
    /// tests and for planning a download for another device); `None` reads the device.
    #[serde(default)]
    #[uniffi(default = None)]
    pub available_bytes: Option<u64>,
}

fn default_context() -> u32 {
    DEFAULT_CHECK_CONTEXT
}

impl Default for ModelCheckOptions {
    fn default() -> Self {
        ModelCheckOptions {
            context_tokens: DEFAULT_CHECK_CONTEXT,
            available_bytes: None,
        }
    }
}

/// Checks the model file at `path` (see the module documentation): reads its header, the device's
/// available memory (unless `options.available_bytes` is given) and whether the engine can run.
pub fn check(path: &Path, options: &ModelCheckOptions) -> ModelAvailability {
    let (facts, problem) = gguf::inspect(path);
    let available = match (&problem, options.available_bytes) {
        (_, Some(given)) => Some(given),
        (None, None) => memory::available_bytes(),
        (Some(_), None) => None,
    };
    decide(
        &facts,
        problem.as_ref(),
        options.context_tokens,
        available,
        engine_problem().as_deref(),
    )
}

/// Why the engine cannot run in this build or on this device, or `None`.
pub fn engine_problem() -> Option<String> {
    if !cfg!(feature = "llama") {
        return Some("this build of the library has no on-device engine (feature `llama`)".into());
    }
    super::cpu::engine_cpu_problem()
}

/// The decision from what was read (pure): `facts` and the header's `problem` from
/// [`gguf::inspect`], the context, the available memory, and the engine's problem if any.
pub fn decide(
    facts: &GgufFacts,
    problem: Option<&GgufProblem>,
    context_tokens: u32,
    available: Option<u64>,
    engine: Option<&str>,
) -> ModelAvailability {
    // The context a load uses (`model().load` raises a smaller one to 16).
    let context_tokens = context_tokens.max(16);
    let mut out = ModelAvailability {
        status: ModelAvailabilityStatus::Available,
        detail: None,
        file_bytes: None,
        gguf_version: None,
        architecture: None,
        tensor_count: None,
        metadata_count: None,
        parameter_count: None,
        quantization: None,
        context_tokens,
        needed_bytes: None,
        available_bytes: None,
    };
    if let Some(p) = problem {
        let (status, detail) = match p {
            GgufProblem::Missing(d) => (ModelAvailabilityStatus::FileMissing, d.clone()),
            GgufProblem::Unreadable(d) => (ModelAvailabilityStatus::Unreadable, d.clone()),
            GgufProblem::NotGguf(d) | GgufProblem::Malformed(d) => {
                (ModelAvailabilityStatus::NotGguf, d.clone())
            }
            GgufProblem::UnsupportedVersion(v) => (
                ModelAvailabilityStatus::NotGguf,
                format!(
                    "GGUF version {v}: the engine reads versions {} to {}",
                    GGUF_VERSIONS.start(),
                    GGUF_VERSIONS.end()
                ),
            ),
        };
        // What was read before the problem: the size once the file was read, the version once
        // read.
        if status == ModelAvailabilityStatus::NotGguf || facts.file_bytes > 0 {
            out.file_bytes = Some(facts.file_bytes);
        }
        out.gguf_version = (facts.version != 0).then_some(facts.version);
        out.status = status;
        out.detail = Some(detail);
        return out;
    }
    out.file_bytes = Some(facts.file_bytes);
    out.gguf_version = Some(facts.version);
    out.architecture = facts.architecture.clone();
    out.tensor_count = Some(facts.tensor_count);
    out.metadata_count = Some(facts.metadata_count);
    out.parameter_count = Some(facts.parameter_count);
    out.quantization = facts.quantization.clone();
    let estimate = memory::estimate_with(facts, context_tokens, available);
    out.needed_bytes = Some(estimate.needed_bytes());
    out.available_bytes = available;

    let (status, detail) = match facts.architecture.as_deref() {
        None => (
            ModelAvailabilityStatus::UnsupportedArchitecture,
            "the GGUF names no model architecture (general.architecture)".to_string(),
        ),
        Some(a) if !SUPPORTED_ARCHITECTURES.contains(&a) => (
            ModelAvailabilityStatus::UnsupportedArchitecture,
            format!(
                "architecture {a:?} is not one the library is meant for ({})",
                SUPPORTED_ARCHITECTURES.join(", ")
            ),
        ),
        Some(_) if estimate.check().is_err() => (
            ModelAvailabilityStatus::InsufficientMemory,
            format!(
                "the model needs {} bytes at a {context_tokens}-token context (file {}, KV cache \
                 {}, compute {}), {} are available",
                estimate.needed_bytes(),
                estimate.file_bytes,
                estimate.kv_cache_bytes,
                estimate.compute_bytes,
                available.unwrap_or_default()
            ),
        ),
        Some(_) => match engine {
            Some(why) => (ModelAvailabilityStatus::EngineMissing, why.to_string()),
            None => return out,
        },
    };
    out.status = status;
    out.detail = Some(detail);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llm::gguf::{parse, synthetic};

    /// A SmolLM2-shaped header (30 layers, 576 wide, 9 heads, 3 KV heads) of `arch`.
    fn header(arch: &str) -> Vec<u8> {
        let key = |k: &str| format!("{arch}.{k}");
        let (blocks, width, heads, kv) = (
            key("block_count"),
            key("embedding_length"),
            key("attention.head_count"),
            key("attention.head_count_kv"),
        );
        synthetic(
            &[
                ("general.file_type", 3),
                (&blocks, 30),
                (&width, 576),
                (&heads, 9),
                (&kv, 3),
            ],
            &[("general.architecture", arch)],
            &[&[576, 1000], &[576]],
        )
    }

    fn facts_of(bytes: &[u8]) -> GgufFacts {
        parse(std::io::Cursor::new(bytes), bytes.len() as u64).unwrap()
    }

    const PLENTY: Option<u64> = Some(1 << 40);

    #[test]
    fn a_supported_header_that_fits_is_available_with_its_figures() {
        let facts = facts_of(&header("llama"));
        let a = decide(&facts, None, 2048, PLENTY, None);
        assert_eq!(a.status, ModelAvailabilityStatus::Available);
        assert_eq!(a.detail, None);
        assert_eq!(a.architecture.as_deref(), Some("llama"));
        assert_eq!(a.gguf_version, Some(3));
        assert_eq!(a.tensor_count, Some(2));
        assert_eq!(a.metadata_count, Some(6));
        assert_eq!(a.parameter_count, Some(576 * 1000 + 576));
        assert_eq!(a.quantization.as_deref(), Some("Q4_1"));
        // The figures of the load's own pre-flight, at the same context.
        let estimate = memory::estimate_with(&facts, 2048, PLENTY);
        assert_eq!(a.needed_bytes, Some(estimate.needed_bytes()));
        assert_eq!(a.available_bytes, PLENTY);
        // The KV cache grows with the context.
        let bigger = decide(&facts, None, 8192, PLENTY, None);
        assert!(bigger.needed_bytes > a.needed_bytes);
        for arch in SUPPORTED_ARCHITECTURES {
            let a = decide(&facts_of(&header(arch)), None, 2048, PLENTY, None);
            assert_eq!(a.status, ModelAvailabilityStatus::Available, "{arch}");
        }
    }

    #[test]
    fn each_problem_of_the_file_is_its_own_status() {
        let none = GgufFacts::default();
        let missing = decide(
            &none,
            Some(&GgufProblem::Missing("no file".into())),
            2048,
            PLENTY,
            None,
        );
        assert_eq!(missing.status, ModelAvailabilityStatus::FileMissing);
        assert_eq!(missing.file_bytes, None);
        let unreadable = decide(
            &none,
            Some(&GgufProblem::Unreadable("denied".into())),
            2048,
            PLENTY,
            None,
        );
        assert_eq!(unreadable.status, ModelAvailabilityStatus::Unreadable);
        assert_eq!(unreadable.detail.as_deref(), Some("denied"));
        assert_eq!(unreadable.file_bytes, None);

        // A wrong magic, a truncation and an old version are all "not GGUF", the version kept.
        let mut bytes = header("llama");
        bytes[4..8].copy_from_slice(&1u32.to_le_bytes());
        let cursor = std::io::Cursor::new(&bytes);
        let problem = parse(cursor, bytes.len() as u64).unwrap_err();
        let old = decide(
            &GgufFacts {
                version: 1,
                file_bytes: bytes.len() as u64,
                ..GgufFacts::default()
            },
            Some(&problem),
            2048,
            PLENTY,
            None,
        );
        assert_eq!(old.status, ModelAvailabilityStatus::NotGguf);
        assert_eq!(old.gguf_version, Some(1));
        assert_eq!(old.file_bytes, Some(bytes.len() as u64));
        assert!(old.detail.unwrap().contains("version 1"));
        let full = header("llama");
        for cut in [0, 3, 20, full.len() - 1] {
            let p = parse(std::io::Cursor::new(&full[..cut]), cut as u64).unwrap_err();
            let a = decide(&none, Some(&p), 2048, PLENTY, None);
            assert_eq!(a.status, ModelAvailabilityStatus::NotGguf, "cut at {cut}");
        }
    }

    #[test]
    fn an_architecture_outside_the_list_or_none_is_unsupported() {
        let a = decide(&facts_of(&header("mamba")), None, 2048, PLENTY, None);
        assert_eq!(a.status, ModelAvailabilityStatus::UnsupportedArchitecture);
        assert_eq!(a.architecture.as_deref(), Some("mamba"));
        assert!(a.detail.unwrap().contains("llama"));
        // Its figures are still there.
        assert!(a.needed_bytes.is_some() && a.parameter_count.is_some());
        let nameless = synthetic(&[("general.file_type", 3)], &[], &[&[4]]);
        let a = decide(&facts_of(&nameless), None, 2048, PLENTY, None);
        assert_eq!(a.status, ModelAvailabilityStatus::UnsupportedArchitecture);
        assert_eq!(a.architecture, None);
    }

    #[test]
    fn memory_refuses_what_the_load_would_refuse() {
        let facts = facts_of(&header("llama"));
        let needed = memory::estimate_with(&facts, 2048, None).needed_bytes();
        let tight = decide(&facts, None, 2048, Some(needed - 1), None);
        assert_eq!(tight.status, ModelAvailabilityStatus::InsufficientMemory);
        assert_eq!(
            (tight.needed_bytes, tight.available_bytes),
            (Some(needed), Some(needed - 1))
        );
        assert_eq!(
            decide(&facts, None, 2048, Some(needed), None).status,
            ModelAvailabilityStatus::Available
        );
        // A platform that does not say what is available never refuses.
        let unknown = decide(&facts, None, 1 << 30, None, None);
        assert_eq!(unknown.status, ModelAvailabilityStatus::Available);
        assert_eq!(unknown.available_bytes, None);
        // Memory is judged before the engine: a file too big reads the same in every build.
        let both = decide(&facts, None, 2048, Some(1), Some("no engine"));
        assert_eq!(both.status, ModelAvailabilityStatus::InsufficientMemory);
    }

    #[test]
    fn a_good_file_without_the_engine_is_engine_missing() {
        let facts = facts_of(&header("qwen2"));
        let a = decide(&facts, None, 2048, PLENTY, Some("no engine here"));
        assert_eq!(a.status, ModelAvailabilityStatus::EngineMissing);
        assert_eq!(a.detail.as_deref(), Some("no engine here"));
        assert_eq!(a.architecture.as_deref(), Some("qwen2"));
    }

    #[test]
    fn check_reads_a_file_and_honours_the_given_memory() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("m.gguf");
        std::fs::write(&path, header("llama")).unwrap();
        let roomy = ModelCheckOptions {
            available_bytes: PLENTY,
            ..ModelCheckOptions::default()
        };
        let a = check(&path, &roomy);
        let expected = if cfg!(feature = "llama") {
            ModelAvailabilityStatus::Available
        } else {
            ModelAvailabilityStatus::EngineMissing
        };
        assert_eq!(a.status, expected);
        assert_eq!(a.file_bytes, Some(header("llama").len() as u64));
        let tight = ModelCheckOptions {
            available_bytes: Some(1),
            ..ModelCheckOptions::default()
        };
        assert_eq!(
            check(&path, &tight).status,
            ModelAvailabilityStatus::InsufficientMemory
        );
        assert_eq!(
            check(&dir.path().join("absent.gguf"), &roomy).status,
            ModelAvailabilityStatus::FileMissing
        );
        assert_eq!(
            check(dir.path(), &roomy).status,
            ModelAvailabilityStatus::Unreadable
        );
        // The device's own reading when none is given (Linux says; the test host is Linux).
        #[cfg(target_os = "linux")]
        assert!(check(&path, &ModelCheckOptions::default())
            .available_bytes
            .is_some_and(|b| b > 0));
    }
}
