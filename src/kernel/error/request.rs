//! Reading a JSON request (to the C API or the CLI): [`parse_request`] and its [`RequestError`],
//! which names the JSON path and what was expected, never the offending value.

use std::fmt;

use super::json::{self, ErrorJson};
use super::path::{path_at, Segment};

/// A JSON request (to the C API or the CLI) that could not be read: where and why, never the
/// offending value. Its code is `invalid_argument`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequestError {
    /// JSON path of the offending value, such as `context.sets[2].weight`; `None` when the text is
    /// not JSON or the problem is the request as a whole.
    pub path: Option<String>,
    /// What is wrong, in the library's words: the expected type, the allowed values or fields.
    pub detail: String,
}

impl RequestError {
    /// The error JSON, code `invalid_argument`.
    pub fn to_json(&self) -> ErrorJson {
        ErrorJson {
            code: "invalid_argument".into(),
            path: self.path.clone(),
            detail: format!("request JSON: {}", self.detail),
        }
    }
}

impl fmt::Display for RequestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.path {
            Some(p) => write!(f, "request JSON at {p}: {}", self.detail),
            None => write!(f, "request JSON: {}", self.detail),
        }
    }
}

impl std::error::Error for RequestError {}

/// Reads a JSON request into `T`. The error names the JSON path and what was expected; it never
/// quotes the input (a value, an unknown key or an unknown enum value may be user data). A number
/// `-0` is zero, in integer fields too ([`json::negative_zero_as_zero`]).
pub fn parse_request<T: serde::de::DeserializeOwned>(json: &str) -> Result<T, RequestError> {
    parse_request_borrowed(&json::negative_zero_as_zero(json))
}

/// [`parse_request`] into a type that borrows from the text (raw JSON slices read again later, with
/// [`parse_request`]): `-0` is left as `serde_json` reads it.
pub fn parse_request_borrowed<'de, T: serde::Deserialize<'de>>(
    json: &'de str,
) -> Result<T, RequestError> {
    let syntax = |e: &serde_json::Error| RequestError {
        path: None,
        detail: json::describe(e),
    };
    let mut de = serde_json::Deserializer::from_str(json);
    match T::deserialize(&mut de) {
        Ok(v) => de.end().map(|()| v).map_err(|e| syntax(&e)),
        // Syntax errors get line and column only: their path may name a key of an ignored value.
        Err(e) if !e.is_data() => Err(syntax(&e)),
        Err(e) => {
            let stop = path_at(json, e.line(), e.column());
            Err(RequestError {
                path: request_path(&stop.path, stop.at_key),
                detail: json::describe(&e),
            })
        }
    }
}

/// The path as text (`context.sets[2].weight`), or `None` for the request as a whole. A refused
/// key (unknown, repeated, an unknown variant), the last segment when `at_key`, is left out: the
/// path points at the object holding it. A path with any other key that is not a plain identifier (so not a field name of the
/// library's types) is dropped entirely, so a key the caller chose is never echoed.
fn request_path(segments: &[Segment], at_key: bool) -> Option<String> {
    let plain = |k: &str| {
        !k.is_empty()
            && k.len() <= 64
            && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && !k.starts_with(|c: char| c.is_ascii_digit())
    };
    let keep = match segments.last() {
        Some(Segment::Key(_)) if at_key => segments.len() - 1,
        _ => segments.len(),
    };
    let mut out = String::new();
    for seg in &segments[..keep] {
        match seg {
            Segment::Index(index) => out.push_str(&format!("[{index}]")),
            Segment::Key(name) if plain(name) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(name);
            }
            _ => return None,
        }
    }
    (!out.is_empty()).then_some(out)
}
