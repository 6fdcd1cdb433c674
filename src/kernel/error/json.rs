//! `serde_json`'s error messages in the library's words: the one place they are rewritten.
//!
//! serde's messages quote the offending value (`invalid type: string "…"`, ``unknown variant `…` ``,
//! ``unknown field `…` ``), and that value may be user data. [`describe`] keeps only what the
//! library itself defines: the expected type, the allowed values or field names, the name of a
//! missing field, and line and column for malformed JSON.
//!
//! Pure: these helpers depend on nothing else in the crate, and everything that reads JSON uses
//! them (request parsing in `super::request`, model output in `crate::llm::extract`, the assistant's
//! operations), so a case is worded the same way wherever it comes from.
//!
//! Two helpers read JSON text itself, before it is parsed: [`outside_strings`], the one scan of its
//! bytes that skips what is inside strings (the caps of `crate::kernel::limits` count with it), and
//! [`negative_zero_as_zero`].

use std::borrow::Cow;

use serde_json::error::Category;

/// The bytes of JSON text that are not inside a string, with their offsets: a string's opening
/// quote is yielded, its content and closing quote are not (an escaped quote does not end it).
/// Malformed text is scanned the same way; the parser that follows reports it.
pub(crate) fn outside_strings(text: &str) -> impl Iterator<Item = (usize, u8)> + '_ {
    let (mut in_string, mut escaped) = (false, false);
    text.bytes().enumerate().filter(move |&(_, b)| {
        if in_string {
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b'"' {
                in_string = false;
            }
            return false;
        }
        in_string = b == b'"';
        true
    })
}

/// `text` with every number `-0` written ` 0`. JSON's `-0` is zero, but `serde_json` reads it as
/// the float `-0.0`, which an integer field refuses. The text keeps its length, so an error's line
/// and column stay where they were; `-0.5`, `-0e3` and the text of strings are left alone.
pub(crate) fn negative_zero_as_zero(text: &str) -> Cow<'_, str> {
    let bytes = text.as_bytes();
    let negative_zero = |&(i, b): &(usize, u8)| {
        b == b'-'
            && bytes.get(i + 1) == Some(&b'0')
            && !matches!(bytes.get(i + 2), Some(b'0'..=b'9' | b'.' | b'e' | b'E'))
    };
    if !outside_strings(text).any(|p| negative_zero(&p)) {
        return Cow::Borrowed(text);
    }
    let mut out = bytes.to_vec();
    for (i, _) in outside_strings(text).filter(negative_zero) {
        out[i] = b' ';
    }
    // One ASCII byte for another: still UTF-8.
    String::from_utf8(out).map_or(Cow::Borrowed(text), Cow::Owned)
}

/// Describes any `serde_json` error: malformed or cut-off JSON with its line and column, or a
/// value that does not fit the expected type (see [`describe_data`]). Never quotes the input.
pub(crate) fn describe(e: &serde_json::Error) -> String {
    match e.classify() {
        Category::Eof => format!(
            "the JSON ends early at line {} column {}",
            e.line(),
            e.column()
        ),
        Category::Syntax | Category::Io => {
            format!("malformed JSON at line {} column {}", e.line(), e.column())
        }
        Category::Data => describe_data(e),
    }
}

/// Describes a data error (JSON that does not fit the type): the expected kind of value, the
/// allowed values or fields, a missing field's name, a field given twice or a number out of range.
pub(crate) fn describe_data(e: &serde_json::Error) -> String {
    let msg = e.to_string();
    let msg = msg.rfind(" at line ").map_or(msg.as_str(), |i| &msg[..i]);
    // The expected part comes last and is the library's (the value comes first and may itself
    // contain ", expected ").
    let expected = msg
        .rfind(", expected ")
        .map(|i| &msg[i + ", expected ".len()..]);
    if msg.starts_with("unknown variant") {
        match expected {
            Some(list) => format!("unknown value; expected {list}"),
            None => "unknown value".into(),
        }
    } else if msg.starts_with("unknown field") {
        match expected {
            Some(list) => format!("unknown field; expected {list}"),
            None => "unknown field; no fields are allowed here".into(),
        }
    } else if msg.starts_with("invalid type") {
        format!(
            "wrong type: expected {}",
            expected_kind(expected.unwrap_or_default())
        )
    } else if let Some(name) = msg.strip_prefix("missing field ") {
        // The name of one of the library's fields.
        format!("missing field {name}")
    } else if msg.starts_with("invalid value") {
        "number out of range".into()
    } else if msg.starts_with("duplicate field") {
        "field given twice".into()
    } else {
        "does not match the schema".into()
    }
}

/// The JSON kind serde's "expected …" names, in plain words (`u32` -> "an integer").
fn expected_kind(expected: &str) -> &'static str {
    match expected {
        "i8" | "i16" | "i32" | "i64" | "u8" | "u16" | "u32" | "u64" | "an integer" => "an integer",
        "f32" | "f64" | "a number" => "a number",
        "a string" | "a borrowed string" | "a character" => "a string",
        "a boolean" => "a boolean",
        "a sequence" | "an array" => "an array",
        x if x.starts_with("struct ") || x.starts_with("a map") => "an object",
        _ => "another type",
    }
}

/// An error as the CLI and the C API print it. Serializes to `{"code":C,"path":P,"detail":D}` with
/// the keys in this order (`path` is `null` when the error points at nothing in particular).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ErrorJson {
    /// The stable snake_case code ([`CoachError::code`](super::CoachError::code)).
    pub code: String,
    /// The JSON path the error points at, if any.
    pub path: Option<String>,
    /// A short description without user data.
    pub detail: String,
}

impl ErrorJson {
    /// The whole error response, `{"error":{"code":C,"path":P,"detail":D}}`, as one line of JSON.
    pub fn to_response(&self) -> String {
        #[derive(serde::Serialize)]
        struct Envelope<'a> {
            error: &'a ErrorJson,
        }
        // Strings and an option of one: serializing cannot fail.
        serde_json::to_string(&Envelope { error: self }).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct S {
        n: u8,
        kind: Kind,
        list: Vec<String>,
    }

    #[derive(Debug, serde::Deserialize)]
    #[serde(rename_all = "snake_case")]
    enum Kind {
        Plain,
        Fancy,
    }

    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Empty {}

    fn describe_str<T: serde::de::DeserializeOwned + std::fmt::Debug>(json: &str) -> String {
        describe(&serde_json::from_str::<T>(json).unwrap_err())
    }

    #[test]
    fn every_case_is_described_without_the_input() {
        // (input, description); "SECRET" stands for user data.
        let cases: &[(&str, &str)] = &[
            (
                r#"{"n":"SECRET","kind":"plain","list":[]}"#,
                "wrong type: expected an integer",
            ),
            (
                r#"{"n":300,"kind":"plain","list":[]}"#,
                "number out of range",
            ),
            (
                r#"{"n":1,"kind":"SECRET","list":[]}"#,
                "unknown value; expected `plain` or `fancy`",
            ),
            (
                r#"{"n":1,"kind":"plain","list":[],"SECRET":1}"#,
                "unknown field; expected one of `n`, `kind`, `list`",
            ),
            (
                r#"{"n":1,"n":2,"kind":"plain","list":[]}"#,
                "field given twice",
            ),
            (r#"{"n":1,"list":["SECRET"]}"#, "missing field `kind`"),
            (
                r#"{"n":1,"kind":"plain","list":"SECRET"}"#,
                "wrong type: expected an array",
            ),
            (
                r#"{"n":1,"kind":"SEC"#,
                "the JSON ends early at line 1 column 18",
            ),
            (r#"{"n":SECRET}"#, "malformed JSON at line 1 column 6"),
        ];
        for (input, want) in cases {
            assert_eq!(describe_str::<S>(input), *want, "{input}");
        }
        assert_eq!(
            describe_str::<Empty>(r#"{"SECRET":1}"#),
            "unknown field; no fields are allowed here"
        );
    }
}
