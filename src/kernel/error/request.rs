//! Reading a JSON request (to the C API or the CLI): [`parse_request`] and its [`RequestError`],
//! which names the JSON path and what was expected, never the offending value.

use std::fmt;

use super::json::{self, ErrorJson};

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
/// quotes the input (a value, an unknown key or an unknown enum value may be user data).
pub fn parse_request<'de, T: serde::Deserialize<'de>>(json: &'de str) -> Result<T, RequestError> {
    let syntax = |e: &serde_json::Error| RequestError {
        path: None,
        detail: json::describe(e),
    };
    let mut de = serde_json::Deserializer::from_str(json);
    match serde_path_to_error::deserialize(&mut de) {
        Ok(v) => de.end().map(|()| v).map_err(|e| syntax(&e)),
        // Syntax errors get line and column only: their path may name a key of an ignored value.
        Err(e) if !e.inner().is_data() => Err(syntax(e.inner())),
        Err(e) => {
            let unknown_key = e.inner().to_string().starts_with("unknown field");
            Err(RequestError {
                path: request_path(e.path(), unknown_key),
                detail: json::describe(e.inner()),
            })
        }
    }
}

/// The path as text (`context.sets[2].weight`), or `None` for the request as a whole. An unknown
/// key, the last segment when `unknown_key`, is left out: the path points at the object holding
/// it. A path with any other key that is not a plain identifier (so not a field name of the
/// library's types) is dropped entirely, so a key the caller chose is never echoed.
fn request_path(path: &serde_path_to_error::Path, unknown_key: bool) -> Option<String> {
    use serde_path_to_error::Segment;
    let plain = |k: &str| {
        !k.is_empty()
            && k.len() <= 64
            && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && !k.starts_with(|c: char| c.is_ascii_digit())
    };
    let segments: Vec<&Segment> = path.iter().collect();
    let keep = match segments.last() {
        Some(Segment::Map { .. }) if unknown_key => segments.len() - 1,
        _ => segments.len(),
    };
    let mut out = String::new();
    for seg in &segments[..keep] {
        match seg {
            Segment::Seq { index } => out.push_str(&format!("[{index}]")),
            Segment::Map { key: name } | Segment::Enum { variant: name } if plain(name) => {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::error::CoachError;

    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Req {
        n: u32,
        x: f64,
        tags: Vec<String>,
        by_name: std::collections::BTreeMap<String, u32>,
    }

    #[test]
    fn request_errors_describe_without_quoting() {
        let ok = r#"{"n":1,"x":1.5,"tags":[],"by_name":{}}"#;
        assert!(parse_request::<Req>(ok).is_ok());
        // (input, path, detail); "SECRET" stands for user data.
        let cases: &[(&str, Option<&str>, &str)] = &[
            (
                r#"{"n":"SECRET","x":1,"tags":[],"by_name":{}}"#,
                Some("n"),
                "wrong type: expected an integer",
            ),
            (
                r#"{"n":-1,"x":1,"tags":[],"by_name":{}}"#,
                Some("n"),
                "number out of range",
            ),
            (
                r#"{"n":4294967296,"x":1,"tags":[],"by_name":{}}"#,
                Some("n"),
                "number out of range",
            ),
            (
                r#"{"n":1,"x":"SECRET","tags":[],"by_name":{}}"#,
                Some("x"),
                "wrong type: expected a number",
            ),
            (
                r#"{"n":1,"x":1,"tags":[1],"by_name":{}}"#,
                Some("tags[0]"),
                "wrong type: expected a string",
            ),
            (
                r#"{"n":1,"x":1,"tags":"SECRET","by_name":{}}"#,
                Some("tags"),
                "wrong type: expected an array",
            ),
            (
                r#"{"n":1,"x":1,"tags":[],"by_name":{"ok_key":"SECRET"}}"#,
                Some("by_name.ok_key"),
                "wrong type: expected an integer",
            ),
            // A key the caller chose that is not a plain identifier drops the whole path.
            (
                r#"{"n":1,"x":1,"tags":[],"by_name":{"SECRET key":"v"}}"#,
                None,
                "wrong type: expected an integer",
            ),
            (
                r#"{"n":1,"x":1,"tags":[],"by_name":{},"SECRET":1}"#,
                None,
                "unknown field; expected one of `n`, `x`, `tags`, `by_name`",
            ),
            (
                r#"{"n":1,"n":2,"x":1,"tags":[],"by_name":{}}"#,
                None,
                "field given twice",
            ),
            (
                r#"{"x":1,"tags":[],"by_name":{}}"#,
                None,
                "missing field `n`",
            ),
            (r#""SECRET""#, None, "wrong type: expected an object"),
            (
                r#"{"n":1,"x":1,"tags":[],"by_name":{}} "SECRET""#,
                None,
                "malformed JSON at line 1 column 38",
            ),
            (
                r#"{"n":1,"x":1,"tags":["SECRET",}"#,
                None,
                "malformed JSON at line 1 column 31",
            ),
            ("", None, "the JSON ends early at line 1 column 0"),
        ];
        for (input, path, detail) in cases {
            let e = parse_request::<Req>(input).unwrap_err();
            assert_eq!(e.path.as_deref(), *path, "{input}");
            assert_eq!(e.detail, *detail, "{input}");
            let public = CoachError::from(e.clone()).to_string();
            assert!(!public.contains("SECRET"), "{public}");
            assert!(!e.to_json().to_response().contains("SECRET"), "{input}");
        }
    }
}
