//! What a GGUF model file says about itself, read from its header without loading it: the
//! architecture's sizes (layers, embedding, attention heads: what the KV cache costs), the
//! parameter count (from the tensor shapes), the quantization (`general.file_type`) and whether it
//! carries a chat template. The memory pre-flight (`super::memory`) and the model info are built
//! from it before llama.cpp maps the file.
//!
//! The availability check (`super::availability`) reads the same facts to decide, without
//! loading, whether a file can be used.
//!
//! The reader is bounded: every count and length is checked against the bytes the file has left
//! (and keys and kept texts against a cap) before anything is allocated, so a truncated or hostile
//! file is a typed [`GgufProblem`], never a huge allocation or a panic. The tensor shapes and
//! types give the size of the tensor data, so a file that ends before it (an interrupted
//! download) is refused too, without reading the data. [`parse`] reads any seekable source (a
//! byte buffer in tests); [`inspect`] and [`read_facts`] open a file.

use std::fs::File;
use std::io::{BufReader, Read, Seek};
use std::path::Path;

use super::model::LlmError;

/// The header facts of a GGUF file the library uses.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct GgufFacts {
    /// Bytes of the whole file.
    pub file_bytes: u64,
    /// The GGUF format version (2 and 3 are read; 0 until the header is read).
    pub version: u32,
    /// Tensors the header declares.
    pub tensor_count: u64,
    /// Metadata entries (key-value pairs) the header declares.
    pub metadata_count: u64,
    /// Bytes of tensor data the header describes (after the header and its alignment padding).
    pub data_bytes: u64,
    /// `general.architecture`, e.g. `llama`.
    pub architecture: Option<String>,
    /// `general.name`.
    pub name: Option<String>,
    /// `general.file_type` as llama.cpp names it (`Q4_1`, `Q4_K_M`, `F16`, ...).
    pub quantization: Option<String>,
    /// The sum of the elements of every tensor.
    pub parameter_count: u64,
    /// `<arch>.block_count`: transformer layers.
    pub layers: Option<u64>,
    /// `<arch>.embedding_length`.
    pub embedding: Option<u64>,
    /// `<arch>.attention.head_count`.
    pub heads: Option<u64>,
    /// `<arch>.attention.head_count_kv` (grouped-query attention; absent: as many as `heads`).
    pub kv_heads: Option<u64>,
    /// `<arch>.attention.key_length` (absent: `embedding / heads`).
    pub key_length: Option<u64>,
    /// `<arch>.attention.value_length` (absent: `embedding / heads`).
    pub value_length: Option<u64>,
    /// `<arch>.context_length`: the context the model was trained for.
    pub trained_context: Option<u64>,
    /// Tokens in the vocabulary (`tokenizer.ggml.tokens`).
    pub vocab: Option<u64>,
    /// Whether `tokenizer.chat_template` is present.
    pub has_chat_template: bool,
}

impl GgufFacts {
    /// KV-cache elements per token and layer: `n_embd_k_gqa + n_embd_v_gqa`, from the metadata;
    /// `None` when the sizes are missing.
    pub fn kv_elements_per_token_layer(&self) -> Option<u64> {
        let heads = self.heads.filter(|h| *h > 0)?;
        let embedding = self.embedding?;
        let kv_heads = self.kv_heads.unwrap_or(heads);
        let head_dim = embedding / heads;
        let k = self.key_length.unwrap_or(head_dim) * kv_heads;
        let v = self.value_length.unwrap_or(head_dim) * kv_heads;
        Some(k + v)
    }
}

/// The llama.cpp name of a `general.file_type` (`llama_ftype`).
fn file_type_name(t: u64) -> Option<&'static str> {
    Some(match t {
        0 => "F32",
        1 => "F16",
        2 => "Q4_0",
        3 => "Q4_1",
        7 => "Q8_0",
        8 => "Q5_0",
        9 => "Q5_1",
        10 => "Q2_K",
        11 => "Q3_K_S",
        12 => "Q3_K_M",
        13 => "Q3_K_L",
        14 => "Q4_K_S",
        15 => "Q4_K_M",
        16 => "Q5_K_S",
        17 => "Q5_K_M",
        18 => "Q6_K",
        19 => "IQ2_XXS",
        20 => "IQ2_XS",
        21 => "Q2_K_S",
        22 => "IQ3_XS",
        23 => "IQ3_XXS",
        24 => "IQ1_S",
        25 => "IQ4_NL",
        26 => "IQ3_S",
        27 => "IQ3_M",
        28 => "IQ2_S",
        29 => "IQ2_M",
        30 => "IQ4_XS",
        31 => "IQ1_M",
        32 => "BF16",
        36 => "TQ1_0",
        37 => "TQ2_0",
        _ => return None,
    })
}

/// Most metadata entries or tensors a header may declare (real models have hundreds).
const MAX_ENTRIES: u64 = 1 << 20;

/// Most dimensions of one tensor (GGML has 4).
const MAX_DIMS: u32 = 8;

/// Longest metadata key read (real keys are a few dozen bytes).
const MAX_KEY_BYTES: u64 = 64 * 1024;

/// Longest text value kept (`general.architecture`, `general.name`); longer ones are malformed.
const MAX_TEXT_BYTES: u64 = 64 * 1024;

/// GGUF format versions the reader (and llama.cpp) reads.
pub const GGUF_VERSIONS: std::ops::RangeInclusive<u32> = 2..=3;

/// Why a GGUF header could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GgufProblem {
    /// No file at the path.
    Missing(String),
    /// A path that exists but cannot be read: permissions, a folder, an I/O error.
    Unreadable(String),
    /// The file does not start with the GGUF magic.
    NotGguf(String),
    /// A GGUF format version outside [`GGUF_VERSIONS`].
    UnsupportedVersion(u32),
    /// The header is truncated, declares more than the file holds, or passes a cap.
    Malformed(String),
}

impl From<GgufProblem> for LlmError {
    /// The errors of a model load: a missing or unreadable file `ModelNotFound`, no magic
    /// `NotAGguf`, the rest `UnsupportedModel` (as llama.cpp would report it).
    fn from(p: GgufProblem) -> Self {
        match p {
            GgufProblem::Missing(detail) | GgufProblem::Unreadable(detail) => {
                LlmError::ModelNotFound { detail }
            }
            GgufProblem::NotGguf(detail) => LlmError::NotAGguf { detail },
            GgufProblem::UnsupportedVersion(v) => LlmError::UnsupportedModel {
                detail: format!("GGUF version {v} is not supported"),
            },
            GgufProblem::Malformed(detail) => LlmError::UnsupportedModel { detail },
        }
    }
}

fn bad(detail: impl Into<String>) -> GgufProblem {
    GgufProblem::Malformed(detail.into())
}

/// A failed read: past the end is a truncated header, anything else the source's own failure.
fn read_failed(e: std::io::Error) -> GgufProblem {
    if e.kind() == std::io::ErrorKind::UnexpectedEof {
        bad("the GGUF header is truncated")
    } else {
        GgufProblem::Unreadable(format!("reading the GGUF header failed: {e}"))
    }
}

/// A bounded little-endian reader over the source.
struct Reader<R> {
    inner: BufReader<R>,
    left: u64,
}

impl<R: Read + Seek> Reader<R> {
    fn bytes(&mut self, n: u64) -> Result<Vec<u8>, GgufProblem> {
        if n > self.left {
            return Err(bad(
                "the GGUF header is truncated or declares more than the file holds",
            ));
        }
        let mut buf = vec![0u8; n as usize];
        self.inner.read_exact(&mut buf).map_err(read_failed)?;
        self.left -= n;
        Ok(buf)
    }

    fn skip(&mut self, n: u64) -> Result<(), GgufProblem> {
        if n > self.left {
            return Err(bad(
                "the GGUF header is truncated or declares more than the file holds",
            ));
        }
        let step = i64::try_from(n).map_err(|_| bad("a GGUF length is out of range"))?;
        // Within the buffer this moves no data (the tokenizer's strings are skipped thousands of
        // times per file).
        self.inner.seek_relative(step).map_err(read_failed)?;
        self.left -= n;
        Ok(())
    }

    fn u32(&mut self) -> Result<u32, GgufProblem> {
        let b = self.bytes(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn u64(&mut self) -> Result<u64, GgufProblem> {
        let b = self.bytes(8)?;
        let mut a = [0u8; 8];
        a.copy_from_slice(&b);
        Ok(u64::from_le_bytes(a))
    }

    /// A count that must fit in what is left of the file at `min_size` bytes per item.
    fn count(&mut self, min_size: u64) -> Result<u64, GgufProblem> {
        let n = self.u64()?;
        if n.saturating_mul(min_size) > self.left {
            return Err(bad("a GGUF count exceeds the file"));
        }
        Ok(n)
    }

    /// A string of at most `cap` bytes.
    fn string(&mut self, cap: u64) -> Result<String, GgufProblem> {
        let n = self.count(1)?;
        if n > cap {
            return Err(bad("a GGUF key or text is longer than the reader's cap"));
        }
        Ok(String::from_utf8_lossy(&self.bytes(n)?).into_owned())
    }

    fn skip_string(&mut self) -> Result<(), GgufProblem> {
        let n = self.count(1)?;
        self.skip(n)
    }
}

/// A metadata value the library reads (integers, strings, array lengths); the others are skipped.
enum Value {
    Int(u64),
    Text(String),
    Array(u64),
    Other,
}

/// Bytes of a fixed-size GGUF value type, `None` for strings and arrays.
fn fixed_size(kind: u32) -> Result<Option<u64>, GgufProblem> {
    Ok(match kind {
        0 | 1 | 7 => Some(1),
        2 | 3 => Some(2),
        4..=6 => Some(4),
        10..=12 => Some(8),
        8 | 9 => None,
        _ => return Err(bad(format!("unknown GGUF value type {kind}"))),
    })
}

fn read_value<R: Read + Seek>(
    r: &mut Reader<R>,
    kind: u32,
    keep_text: bool,
) -> Result<Value, GgufProblem> {
    match kind {
        0 | 7 => Ok(Value::Int(u64::from(r.bytes(1)?[0]))),
        2 => {
            let b = r.bytes(2)?;
            Ok(Value::Int(u64::from(u16::from_le_bytes([b[0], b[1]]))))
        }
        4 => Ok(Value::Int(u64::from(r.u32()?))),
        5 => Ok(Value::Int(u64::from(r.u32()?).min(i32::MAX as u64))),
        10 => Ok(Value::Int(r.u64()?)),
        11 => Ok(Value::Int(r.u64()?.min(i64::MAX as u64))),
        8 if keep_text => Ok(Value::Text(r.string(MAX_TEXT_BYTES)?)),
        8 => r.skip_string().map(|()| Value::Other),
        9 => {
            let item = r.u32()?;
            match fixed_size(item)? {
                Some(size) => {
                    let n = r.count(size)?;
                    r.skip(n * size)?;
                    Ok(Value::Array(n))
                }
                None if item == 8 => {
                    let n = r.count(8)?;
                    for _ in 0..n {
                        r.skip_string()?;
                    }
                    Ok(Value::Array(n))
                }
                None => Err(bad("nested GGUF arrays are not supported")),
            }
        }
        other => {
            let size = fixed_size(other)?.unwrap_or(0);
            r.skip(size).map(|()| Value::Other)
        }
    }
}

/// Reads the header facts of the GGUF file at `path`.
///
/// Errors: no file there (or one that cannot be read), `ModelNotFound`; no GGUF magic, `NotAGguf`;
/// an unsupported version or a header that is truncated or declares more than the file holds,
/// `UnsupportedModel`.
pub fn read_facts(path: &Path) -> Result<GgufFacts, LlmError> {
    let (facts, problem) = inspect(path);
    match problem {
        None => Ok(facts),
        Some(p) => Err(p.into()),
    }
}

/// Reads the header of the GGUF file at `path`: the facts read (all of them, or those before the
/// problem: the file's size once it is open, the version once it is read) and the problem, if any.
pub fn inspect(path: &Path) -> (GgufFacts, Option<GgufProblem>) {
    let shown = path.display();
    let file = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return (
                GgufFacts::default(),
                Some(GgufProblem::Missing(format!("no file at {shown}"))),
            )
        }
        Err(e) => {
            return (
                GgufFacts::default(),
                Some(GgufProblem::Unreadable(format!("cannot open {shown}: {e}"))),
            )
        }
    };
    let meta = match file.metadata() {
        Ok(m) if m.is_dir() => {
            return (
                GgufFacts::default(),
                Some(GgufProblem::Unreadable(format!("{shown} is a directory"))),
            )
        }
        Ok(m) => m,
        Err(e) => {
            return (
                GgufFacts::default(),
                Some(GgufProblem::Unreadable(format!("cannot read {shown}: {e}"))),
            )
        }
    };
    let mut facts = GgufFacts::default();
    let problem = parse_into(file, meta.len(), &mut facts)
        .err()
        .map(|p| match p {
            GgufProblem::NotGguf(_) => {
                GgufProblem::NotGguf(format!("{shown} does not start with the GGUF magic"))
            }
            other => other,
        });
    (facts, problem)
}

/// Parses a GGUF header from `source`, `len` bytes long (a file, or a byte buffer in tests).
pub fn parse<R: Read + Seek>(source: R, len: u64) -> Result<GgufFacts, GgufProblem> {
    let mut facts = GgufFacts::default();
    parse_into(source, len, &mut facts)?;
    Ok(facts)
}

/// [`parse`], filling `facts` as it reads (so a caller keeps what was read before a problem).
fn parse_into<R: Read + Seek>(
    source: R,
    len: u64,
    facts: &mut GgufFacts,
) -> Result<(), GgufProblem> {
    let mut r = Reader {
        inner: BufReader::with_capacity(64 * 1024, source),
        left: len,
    };
    facts.file_bytes = len;
    if len < 4 || r.bytes(4)? != b"GGUF" {
        return Err(GgufProblem::NotGguf(
            "the data does not start with the GGUF magic".into(),
        ));
    }
    let version = r.u32()?;
    facts.version = version;
    if !GGUF_VERSIONS.contains(&version) {
        return Err(GgufProblem::UnsupportedVersion(version));
    }
    let tensors = r.count(8)?;
    facts.tensor_count = tensors;
    let entries = r.count(12)?;
    facts.metadata_count = entries;
    if tensors > MAX_ENTRIES || entries > MAX_ENTRIES {
        return Err(bad("the GGUF header declares too many entries"));
    }
    let mut ints: Vec<(String, u64)> = Vec::new();
    for _ in 0..entries {
        let key = r.string(MAX_KEY_BYTES)?;
        let kind = r.u32()?;
        let keep_text = matches!(key.as_str(), "general.architecture" | "general.name");
        match read_value(&mut r, kind, keep_text)? {
            Value::Int(v) => ints.push((key, v)),
            Value::Text(s) if key == "general.architecture" => facts.architecture = Some(s),
            Value::Text(s) => facts.name = Some(s).filter(|n| !n.trim().is_empty()),
            Value::Array(n) if key == "tokenizer.ggml.tokens" => facts.vocab = Some(n),
            _ if key == "tokenizer.chat_template" => facts.has_chat_template = true,
            _ => {}
        }
    }
    let arch = facts.architecture.clone().unwrap_or_default();
    let int = |name: &str| {
        let key = format!("{arch}.{name}");
        ints.iter().find(|(k, _)| *k == key).map(|(_, v)| *v)
    };
    facts.layers = int("block_count");
    facts.embedding = int("embedding_length");
    facts.heads = int("attention.head_count");
    facts.kv_heads = int("attention.head_count_kv");
    facts.key_length = int("attention.key_length");
    facts.value_length = int("attention.value_length");
    facts.trained_context = int("context_length");
    facts.quantization = ints
        .iter()
        .find(|(k, _)| k == "general.file_type")
        .and_then(|(_, t)| file_type_name(*t))
        .map(str::to_string);
    let mut data_end = 0u64;
    for _ in 0..tensors {
        r.skip_string()?;
        let dims = r.u32()?;
        if dims > MAX_DIMS {
            return Err(bad("a GGUF tensor has too many dimensions"));
        }
        let mut elements = 1u64;
        for _ in 0..dims {
            elements = elements.saturating_mul(r.u64()?);
        }
        let kind = r.u32()?;
        let offset = r.u64()?;
        let bytes = tensor_bytes(kind, elements).ok_or_else(|| {
            bad(format!(
                "a GGUF tensor has a type the engine does not know ({kind})"
            ))
        })?;
        data_end = data_end.max(offset.saturating_add(bytes));
        facts.parameter_count = facts.parameter_count.saturating_add(elements);
    }
    // The tensor data starts at the next multiple of `general.alignment` after the header.
    let alignment = ints
        .iter()
        .find(|(k, _)| k == "general.alignment")
        .map_or(DEFAULT_ALIGNMENT, |(_, a)| *a);
    if alignment == 0 || !alignment.is_power_of_two() {
        return Err(bad("the GGUF alignment is not a power of two"));
    }
    let header_end = len - r.left;
    facts.data_bytes = data_end;
    // Without tensor data nothing follows the header, not even the padding.
    let needed = match data_end {
        0 => header_end,
        _ => header_end
            .div_ceil(alignment)
            .saturating_mul(alignment)
            .saturating_add(data_end),
    };
    if needed > len {
        return Err(bad(format!(
            "the file ends at {len} bytes but its tensor data runs to {needed}: truncated (an \
             interrupted download?)"
        )));
    }
    Ok(())
}

/// `general.alignment` when the header does not say.
const DEFAULT_ALIGNMENT: u64 = 32;

/// Bytes of a tensor of ggml type `kind` with `elements` elements (ggml's block size and bytes
/// per block of each type the bundled llama.cpp reads); `None` for a type it does not know.
fn tensor_bytes(kind: u32, elements: u64) -> Option<u64> {
    let (block, bytes): (u64, u64) = match kind {
        0 => (1, 4),       // F32
        1 => (1, 2),       // F16
        2 => (32, 18),     // Q4_0
        3 => (32, 20),     // Q4_1
        6 => (32, 22),     // Q5_0
        7 => (32, 24),     // Q5_1
        8 => (32, 34),     // Q8_0
        9 => (32, 36),     // Q8_1
        10 => (256, 84),   // Q2_K
        11 => (256, 110),  // Q3_K
        12 => (256, 144),  // Q4_K
        13 => (256, 176),  // Q5_K
        14 => (256, 210),  // Q6_K
        15 => (256, 292),  // Q8_K
        16 => (256, 66),   // IQ2_XXS
        17 => (256, 74),   // IQ2_XS
        18 => (256, 98),   // IQ3_XXS
        19 => (256, 50),   // IQ1_S
        20 => (32, 18),    // IQ4_NL
        21 => (256, 110),  // IQ3_S
        22 => (256, 82),   // IQ2_S
        23 => (256, 136),  // IQ4_XS
        24 => (1, 1),      // I8
        25 => (1, 2),      // I16
        26 => (1, 4),      // I32
        27 | 28 => (1, 8), // I64, F64
        29 => (256, 56),   // IQ1_M
        30 => (1, 2),      // BF16
        34 => (256, 54),   // TQ1_0
        35 => (256, 66),   // TQ2_0
        39 => (32, 17),    // MXFP4
        40 => (64, 36),    // NVFP4
        41 => (128, 18),   // Q1_0
        42 => (64, 18),    // Q2_0
        _ => return None,
    };
    Some(elements.div_ceil(block).saturating_mul(bytes))
}

/// A GGUF file in memory, for tests: the given metadata (integers as u32, strings) and F32 tensors
/// of the given shapes, with their data (zeros).
#[cfg(test)]
pub(crate) fn synthetic(
    ints: &[(&str, u32)],
    texts: &[(&str, &str)],
    tensors: &[&[u64]],
) -> Vec<u8> {
    let mut out = Vec::new();
    let string = |out: &mut Vec<u8>, s: &str| {
        out.extend_from_slice(&(s.len() as u64).to_le_bytes());
        out.extend_from_slice(s.as_bytes());
    };
    out.extend_from_slice(b"GGUF");
    out.extend_from_slice(&3u32.to_le_bytes());
    out.extend_from_slice(&(tensors.len() as u64).to_le_bytes());
    out.extend_from_slice(&((ints.len() + texts.len()) as u64).to_le_bytes());
    for (k, v) in texts {
        string(&mut out, k);
        out.extend_from_slice(&8u32.to_le_bytes());
        string(&mut out, v);
    }
    for (k, v) in ints {
        string(&mut out, k);
        out.extend_from_slice(&4u32.to_le_bytes());
        out.extend_from_slice(&v.to_le_bytes());
    }
    // F32 tensors, one after the other, each at a multiple of the alignment.
    let mut offset = 0u64;
    for (i, dims) in tensors.iter().enumerate() {
        string(&mut out, &format!("t{i}"));
        out.extend_from_slice(&(dims.len() as u32).to_le_bytes());
        for d in *dims {
            out.extend_from_slice(&d.to_le_bytes());
        }
        out.extend_from_slice(&0u32.to_le_bytes());
        out.extend_from_slice(&offset.to_le_bytes());
        let bytes = 4 * dims.iter().product::<u64>();
        offset += bytes.div_ceil(DEFAULT_ALIGNMENT) * DEFAULT_ALIGNMENT;
    }
    // The padding to the data, then the data (zeros).
    let start = (out.len() as u64).div_ceil(DEFAULT_ALIGNMENT) * DEFAULT_ALIGNMENT;
    out.resize((start + offset) as usize, 0);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(bytes: &[u8]) -> tempfile::NamedTempFile {
        use std::io::Write;
        let mut f = tempfile::NamedTempFile::new().unwrap();
        f.write_all(bytes).unwrap();
        f
    }

    #[test]
    fn reads_sizes_parameters_quantization_and_template() {
        let bytes = synthetic(
            &[
                ("general.file_type", 3),
                ("llama.block_count", 30),
                ("llama.embedding_length", 576),
                ("llama.attention.head_count", 9),
                ("llama.attention.head_count_kv", 3),
                ("llama.context_length", 8192),
            ],
            &[
                ("general.architecture", "llama"),
                ("general.name", "Tiny"),
                ("tokenizer.chat_template", "{{ x }}"),
            ],
            &[&[576, 100], &[576]],
        );
        let f = write(&bytes);
        let facts = read_facts(f.path()).unwrap();
        assert_eq!(facts.name.as_deref(), Some("Tiny"));
        assert_eq!(facts.quantization.as_deref(), Some("Q4_1"));
        assert_eq!(facts.parameter_count, 576 * 100 + 576);
        assert_eq!(facts.layers, Some(30));
        assert_eq!(facts.trained_context, Some(8192));
        assert!(facts.has_chat_template);
        // head_dim 64, 3 KV heads: 192 for K and 192 for V.
        assert_eq!(facts.kv_elements_per_token_layer(), Some(384));
        assert_eq!(facts.file_bytes, bytes.len() as u64);
    }

    #[test]
    fn truncated_or_foreign_files_are_typed_errors() {
        let bytes = synthetic(&[("llama.block_count", 30)], &[], &[&[4, 4]]);
        let f = write(&bytes[..3]);
        assert!(matches!(
            read_facts(f.path()),
            Err(LlmError::NotAGguf { .. })
        ));
        for cut in [10, 30, bytes.len() - 1] {
            let f = write(&bytes[..cut]);
            assert!(
                matches!(read_facts(f.path()), Err(LlmError::UnsupportedModel { .. })),
                "cut at {cut}"
            );
        }
        let f = write(b"PK\x03\x04 not a model");
        assert!(matches!(
            read_facts(f.path()),
            Err(LlmError::NotAGguf { .. })
        ));
        // A count far beyond the file: refused before any allocation.
        let mut huge = bytes.clone();
        huge[16..24].copy_from_slice(&u64::MAX.to_le_bytes());
        let f = write(&huge);
        assert!(matches!(
            read_facts(f.path()),
            Err(LlmError::UnsupportedModel { .. })
        ));
        assert!(matches!(
            read_facts(Path::new("/no/such/model.gguf")),
            Err(LlmError::ModelNotFound { .. })
        ));
    }

    fn parsed(bytes: &[u8]) -> Result<GgufFacts, GgufProblem> {
        parse(std::io::Cursor::new(bytes), bytes.len() as u64)
    }

    fn small() -> Vec<u8> {
        synthetic(
            &[("llama.block_count", 30)],
            &[("general.architecture", "llama")],
            &[&[4, 4], &[8]],
        )
    }

    #[test]
    fn a_buffer_reports_version_and_counts() {
        let facts = parsed(&small()).unwrap();
        assert_eq!(facts.version, 3);
        assert_eq!(facts.tensor_count, 2);
        assert_eq!(facts.metadata_count, 2);
        assert_eq!(facts.architecture.as_deref(), Some("llama"));
        assert_eq!(facts.parameter_count, 16 + 8);
        assert_eq!(facts.layers, Some(30));
    }

    #[test]
    fn every_truncation_of_a_buffer_is_a_typed_problem() {
        let bytes = small();
        for cut in 0..bytes.len() {
            match parsed(&bytes[..cut]) {
                Err(GgufProblem::NotGguf(_)) => assert!(cut < 4, "cut at {cut}"),
                Err(GgufProblem::Malformed(_)) => assert!(cut >= 4, "cut at {cut}"),
                other => panic!("cut at {cut}: {other:?}"),
            }
        }
    }

    #[test]
    fn a_wrong_magic_or_version_is_named() {
        let mut bytes = small();
        bytes[..4].copy_from_slice(b"GGML");
        assert!(matches!(parsed(&bytes), Err(GgufProblem::NotGguf(_))));
        for version in [0u32, 1, 4, u32::MAX] {
            let mut bytes = small();
            bytes[4..8].copy_from_slice(&version.to_le_bytes());
            assert_eq!(
                parsed(&bytes),
                Err(GgufProblem::UnsupportedVersion(version))
            );
        }
    }

    /// Offsets into a synthetic header: magic 4, version 4, tensor count 8, entry count 8.
    const TENSORS_AT: usize = 8;
    const ENTRIES_AT: usize = 16;
    const FIRST_KEY_AT: usize = 24;

    #[test]
    fn huge_counts_and_lengths_are_refused_before_allocating() {
        // Each is a count or length far beyond the buffer: were it believed, the reader would
        // allocate (or loop) for it.
        for (at, value) in [
            (TENSORS_AT, u64::MAX),
            (TENSORS_AT, 1 << 40),
            (ENTRIES_AT, u64::MAX),
            (ENTRIES_AT, 1 << 40),
            (FIRST_KEY_AT, u64::MAX),
            (FIRST_KEY_AT, 1 << 40),
        ] {
            let mut bytes = small();
            bytes[at..at + 8].copy_from_slice(&value.to_le_bytes());
            assert!(
                matches!(parsed(&bytes), Err(GgufProblem::Malformed(_))),
                "{value} at {at}"
            );
        }
        // An array of u64 claiming more items than the rest of the buffer holds.
        let mut bytes = b"GGUF".to_vec();
        bytes.extend_from_slice(&3u32.to_le_bytes());
        bytes.extend_from_slice(&0u64.to_le_bytes());
        bytes.extend_from_slice(&1u64.to_le_bytes());
        bytes.extend_from_slice(&1u64.to_le_bytes());
        bytes.push(b'k');
        bytes.extend_from_slice(&9u32.to_le_bytes()); // array
        bytes.extend_from_slice(&10u32.to_le_bytes()); // of u64
        bytes.extend_from_slice(&(u64::MAX / 4).to_le_bytes());
        assert!(matches!(parsed(&bytes), Err(GgufProblem::Malformed(_))));
        // A tensor with more dimensions than GGML has.
        let mut bytes = synthetic(&[], &[], &[&[1]]);
        let dims_at = FIRST_KEY_AT + 8 + 2;
        bytes[dims_at..dims_at + 4].copy_from_slice(&1000u32.to_le_bytes());
        assert!(matches!(parsed(&bytes), Err(GgufProblem::Malformed(_))));
        // An unknown value type.
        let mut bytes = small();
        let kind_at = FIRST_KEY_AT + 8 + "general.architecture".len();
        bytes[kind_at..kind_at + 4].copy_from_slice(&99u32.to_le_bytes());
        assert!(matches!(parsed(&bytes), Err(GgufProblem::Malformed(_))));
    }

    #[test]
    fn keys_and_kept_texts_have_a_cap() {
        // Within the buffer, but longer than any real key or architecture name.
        let long = "x".repeat(MAX_TEXT_BYTES as usize + 1);
        let bytes = synthetic(&[], &[("general.architecture", &long)], &[]);
        assert!(matches!(parsed(&bytes), Err(GgufProblem::Malformed(_))));
        let bytes = synthetic(&[(&long, 1)], &[], &[]);
        assert!(matches!(parsed(&bytes), Err(GgufProblem::Malformed(_))));
        // A long text the reader skips is fine.
        let bytes = synthetic(&[], &[("tokenizer.chat_template", &long)], &[]);
        assert!(parsed(&bytes).unwrap().has_chat_template);
    }

    #[test]
    fn inspect_keeps_what_was_read_before_the_problem() {
        let mut bytes = small();
        bytes[4..8].copy_from_slice(&1u32.to_le_bytes());
        let f = write(&bytes);
        let (facts, problem) = inspect(f.path());
        assert_eq!(problem, Some(GgufProblem::UnsupportedVersion(1)));
        assert_eq!((facts.version, facts.file_bytes), (1, bytes.len() as u64));
        let dir = tempfile::tempdir().unwrap();
        assert!(matches!(
            inspect(dir.path()).1,
            Some(GgufProblem::Unreadable(_))
        ));
        assert!(matches!(
            inspect(&dir.path().join("absent.gguf")).1,
            Some(GgufProblem::Missing(_))
        ));
    }

    #[test]
    fn the_tensor_data_must_be_in_the_file() {
        let bytes = small();
        // Two F32 tensors, 16 and 8 elements: 64 bytes, then the second at offset 64: 96.
        assert_eq!(parsed(&bytes).unwrap().data_bytes, 96);
        // One byte short of the data: an interrupted download.
        let short = &bytes[..bytes.len() - 1];
        match parsed(short) {
            Err(GgufProblem::Malformed(d)) => assert!(d.contains("truncated"), "{d}"),
            other => panic!("{other:?}"),
        }
        // A tensor type ggml does not have (4 was Q4_2, removed): the second tensor's type,
        // found by the (type F32, offset 64) pair after its shape.
        let mut odd = small();
        let pair = [0, 0, 0, 0, 64, 0, 0, 0, 0, 0, 0, 0];
        let type_at = (0..odd.len() - 12)
            .find(|&i| odd[i..i + 12] == pair)
            .unwrap();
        odd[type_at..type_at + 4].copy_from_slice(&4u32.to_le_bytes());
        match parsed(&odd) {
            Err(GgufProblem::Malformed(d)) => assert!(d.contains("type"), "{d}"),
            other => panic!("{other:?}"),
        }
        // An alignment that is not a power of two.
        let bad_alignment = synthetic(&[("general.alignment", 24)], &[], &[&[4]]);
        assert!(matches!(
            parsed(&bad_alignment),
            Err(GgufProblem::Malformed(_))
        ));
        // A wider alignment moves the data further: the same file is then short of it.
        let mut wide = synthetic(&[("general.alignment", 4096)], &[], &[&[4]]);
        assert!(matches!(parsed(&wide), Err(GgufProblem::Malformed(_))));
        wide.resize(4096 + 16, 0);
        assert_eq!(parsed(&wide).unwrap().data_bytes, 16);
        // Without tensors nothing follows the header, not even the padding (the 302-byte fixture).
        let bare = std::fs::read(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/models/huge-kv-header.bin"
        ))
        .unwrap();
        assert_ne!(bare.len() % 32, 0);
        assert_eq!(parsed(&bare).unwrap().data_bytes, 0);
    }
}
