//! What a GGUF model file says about itself, read from its header without loading it: the
//! architecture's sizes (layers, embedding, attention heads: what the KV cache costs), the
//! parameter count (from the tensor shapes), the quantization (`general.file_type`) and whether it
//! carries a chat template. The memory pre-flight (`super::memory`) and the model info are built
//! from it before llama.cpp maps the file.
//!
//! The reader is bounded: every count and length is checked against the bytes the file has left
//! before anything is allocated, so a truncated or hostile file is a typed error (`NotAGguf`),
//! never a huge allocation or a panic.

use std::fs::File;
use std::io::{BufReader, Read};
use std::path::Path;

use super::model::LlmError;

/// The header facts of a GGUF file the library uses.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct GgufFacts {
    /// Bytes of the whole file.
    pub file_bytes: u64,
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

/// A GGUF (the magic matched) whose header cannot be read: truncated or corrupt, as llama.cpp
/// would report it.
fn bad(detail: impl Into<String>) -> LlmError {
    LlmError::UnsupportedModel {
        detail: detail.into(),
    }
}

/// A bounded little-endian reader over the file.
struct Reader {
    inner: BufReader<File>,
    left: u64,
}

impl Reader {
    fn bytes(&mut self, n: u64) -> Result<Vec<u8>, LlmError> {
        if n > self.left {
            return Err(bad(
                "the GGUF header is truncated or declares more than the file holds",
            ));
        }
        let mut buf = vec![0u8; n as usize];
        self.inner
            .read_exact(&mut buf)
            .map_err(|_| bad("the GGUF header is truncated"))?;
        self.left -= n;
        Ok(buf)
    }

    fn skip(&mut self, n: u64) -> Result<(), LlmError> {
        if n > self.left {
            return Err(bad(
                "the GGUF header is truncated or declares more than the file holds",
            ));
        }
        let step = i64::try_from(n).map_err(|_| bad("a GGUF length is out of range"))?;
        // Within the buffer this moves no data (the tokenizer's strings are skipped thousands of
        // times per file).
        self.inner
            .seek_relative(step)
            .map_err(|_| bad("the GGUF header is truncated"))?;
        self.left -= n;
        Ok(())
    }

    fn u32(&mut self) -> Result<u32, LlmError> {
        let b = self.bytes(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn u64(&mut self) -> Result<u64, LlmError> {
        let b = self.bytes(8)?;
        let mut a = [0u8; 8];
        a.copy_from_slice(&b);
        Ok(u64::from_le_bytes(a))
    }

    /// A count that must fit in what is left of the file at `min_size` bytes per item.
    fn count(&mut self, min_size: u64) -> Result<u64, LlmError> {
        let n = self.u64()?;
        if n.saturating_mul(min_size) > self.left {
            return Err(bad("a GGUF count exceeds the file"));
        }
        Ok(n)
    }

    fn string(&mut self) -> Result<String, LlmError> {
        let n = self.count(1)?;
        Ok(String::from_utf8_lossy(&self.bytes(n)?).into_owned())
    }

    fn skip_string(&mut self) -> Result<(), LlmError> {
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
fn fixed_size(kind: u32) -> Result<Option<u64>, LlmError> {
    Ok(match kind {
        0 | 1 | 7 => Some(1),
        2 | 3 => Some(2),
        4..=6 => Some(4),
        10..=12 => Some(8),
        8 | 9 => None,
        _ => return Err(bad(format!("unknown GGUF value type {kind}"))),
    })
}

fn read_value(r: &mut Reader, kind: u32, keep_text: bool) -> Result<Value, LlmError> {
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
        8 if keep_text => Ok(Value::Text(r.string()?)),
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
/// Errors: no file there, `ModelNotFound`; no GGUF magic, `NotAGguf`; an unsupported version or a
/// header that is truncated or declares more than the file holds, `UnsupportedModel`.
pub fn read_facts(path: &Path) -> Result<GgufFacts, LlmError> {
    let shown = path.display();
    let file = File::open(path).map_err(|e| LlmError::ModelNotFound {
        detail: format!("cannot open {shown}: {e}"),
    })?;
    let meta = file.metadata().map_err(|e| LlmError::ModelNotFound {
        detail: format!("cannot read {shown}: {e}"),
    })?;
    if meta.is_dir() {
        return Err(LlmError::ModelNotFound {
            detail: format!("{shown} is a directory"),
        });
    }
    let mut r = Reader {
        inner: BufReader::with_capacity(64 * 1024, file),
        left: meta.len(),
    };
    let mut facts = GgufFacts {
        file_bytes: meta.len(),
        ..GgufFacts::default()
    };
    if r.bytes(4).ok().as_deref() != Some(b"GGUF") {
        return Err(LlmError::NotAGguf {
            detail: format!("{shown} does not start with the GGUF magic"),
        });
    }
    let version = r.u32()?;
    if !(2..=3).contains(&version) {
        return Err(bad(format!("GGUF version {version} is not supported")));
    }
    let tensors = r.count(8)?;
    let entries = r.count(12)?;
    if tensors > MAX_ENTRIES || entries > MAX_ENTRIES {
        return Err(bad("the GGUF header declares too many entries"));
    }
    let mut ints: Vec<(String, u64)> = Vec::new();
    for _ in 0..entries {
        let key = r.string()?;
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
        r.skip(12)?; // type (u32) and offset (u64)
        facts.parameter_count = facts.parameter_count.saturating_add(elements);
    }
    Ok(facts)
}

/// A GGUF file in memory, for tests: the given metadata (integers as u32, strings) and tensors.
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
    for (i, dims) in tensors.iter().enumerate() {
        string(&mut out, &format!("t{i}"));
        out.extend_from_slice(&(dims.len() as u32).to_le_bytes());
        for d in *dims {
            out.extend_from_slice(&d.to_le_bytes());
        }
        out.extend_from_slice(&0u32.to_le_bytes());
        out.extend_from_slice(&0u64.to_le_bytes());
    }
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
}
