//! Finding the JSON object in raw model text: the one extraction function every LLM feature uses.
//!
//! Models wrap their JSON in many ways. This module tolerates:
//! - `<think>…</think>` reasoning before the answer, when the text starts with it (the reasoning
//!   is skipped; an unclosed `<think>` means the model never answered, so no JSON is found);
//! - `<response>…</response>` around the answer, when it opens before the first `{` (only its
//!   inside is searched). Tags elsewhere are text: a plan's summary may mention `</think>`;
//! - Markdown code fences (```` ```json … ``` ````): fenced blocks are searched first;
//! - prose before and after the JSON.
//!
//! It yields *candidates*: balanced `{…}` spans, in order, string-aware (braces inside strings and
//! escaped quotes do not count). A span that never closes is yielded as it is, so the parser can
//! report the truncation.
//!
//! [`parse_model_json`] is what features call: it parses the candidates in order into a typed value
//! and returns the first that fits. A candidate that is not JSON, or JSON of another shape (say a
//! `{"note": …}` in the prose before the answer), is passed over; when none fits, the error is the
//! largest candidate's (see [`parse_model_json_with`] for features that can tell their answer
//! apart). Fenced blocks are searched first, then the whole answer, so a fenced snippet of
//! something else cannot hide the JSON outside it. Its happy path parses straight from the first
//! `{` (no separate scan), and builds JSON paths only when there is an error to report.

use serde::de::DeserializeOwned;
use serde::Deserialize;

use crate::kernel::error::path::{path_at, Segment};
use crate::kernel::error::{json, OutputError, OutputErrorCode};

/// Parses the JSON object in model text into `T`.
///
/// Errors: [`OutputErrorCode::InvalidJson`] when no candidate is JSON (with line and column of the
/// syntax error, or "no JSON object found"); [`OutputErrorCode::SchemaViolation`] with the JSON
/// path when the JSON does not fit `T` (wrong type, unknown field). When several candidates fail,
/// the error is the largest one's (the answer, not an aside next to it). Details never quote the
/// input.
pub fn parse_model_json<T: DeserializeOwned>(text: &str) -> Result<T, OutputError> {
    parse_model_json_with(text, Ok, |_| false)
}

/// [`parse_model_json`] for a feature with invariants of its own, such as a plan's.
///
/// Candidates are tried in order. One fits when it parses into `T` and `check` accepts the value;
/// the first that fits wins, so an aside such as `{"units": "metric"}` or a repeated template
/// before the answer is passed over. When none fits, the error reported is that of the largest
/// failing candidate that `is_answer` calls an answer (for a plan: an object whose own keys
/// include `blocks` or `exercises`), else that of the largest failing candidate, so the error
/// is about the answer and not about a note next to it or a fragment after a stray brace.
pub fn parse_model_json_with<T: DeserializeOwned, U>(
    text: &str,
    check: impl Fn(T) -> Result<U, OutputError>,
    is_answer: impl Fn(&str) -> bool,
) -> Result<U, OutputError> {
    /// Why a candidate failed; built into an error only for the one reported.
    enum Failure<'a> {
        Syntax(serde_json::Error),
        Data(&'a str),
        Check(OutputError),
    }
    let describe = |f: Failure<'_>| match f {
        Failure::Syntax(e) => {
            // Model output that ends early was cut off, most often by the token limit.
            let detail = if e.is_eof() {
                format!("{} (truncated output)", json::describe(&e))
            } else {
                json::describe(&e)
            };
            OutputError::new(OutputErrorCode::InvalidJson, None, detail)
        }
        Failure::Data(candidate) => data_error::<T>(candidate),
        Failure::Check(e) => e,
    };
    // The largest failing answer, and the largest failing candidate of any kind.
    let mut answer: Option<(usize, Failure<'_>)> = None;
    let mut largest: Option<(usize, Failure<'_>)> = None;
    for region in regions(text) {
        let mut rest = region;
        while let Some(start) = rest.find('{') {
            let candidate = &rest[start..];
            // Deserializing without `end()` stops after the object: trailing prose is ignored.
            let mut de = serde_json::Deserializer::from_str(candidate);
            let failure = match T::deserialize(&mut de) {
                Ok(v) => match check(v) {
                    Ok(u) => return Ok(u),
                    Err(e) => Failure::Check(e),
                },
                Err(e) if e.is_data() => Failure::Data(candidate),
                Err(e) => Failure::Syntax(e),
            };
            let len = balanced_len(candidate);
            let slot = if is_answer(&candidate[..len]) {
                &mut answer
            } else {
                &mut largest
            };
            if slot.as_ref().is_none_or(|(l, _)| len > *l) {
                *slot = Some((len, failure));
            }
            rest = &candidate[len..];
        }
    }
    Err(match answer.or(largest) {
        Some((_, failure)) => describe(failure),
        None => OutputError::new(
            OutputErrorCode::InvalidJson,
            None,
            "no JSON object found in the text",
        ),
    })
}

/// Whether the JSON object at the start of `candidate` has one of `keys` as its own (top-level)
/// key. A candidate that is not valid JSON (cut short, or with a stray brace) is judged on its
/// text instead: one of `keys` written as a key (`"blocks":`) anywhere in it.
pub fn has_top_level_key(candidate: &str, keys: &[&str]) -> bool {
    let mut de = serde_json::Deserializer::from_str(candidate);
    match <std::collections::HashMap<String, serde::de::IgnoredAny>>::deserialize(&mut de) {
        Ok(map) => keys.iter().any(|k| map.contains_key(*k)),
        Err(_) => keys.iter().any(|k| {
            let quoted = format!("\"{k}\"");
            candidate
                .match_indices(&quoted)
                .any(|(i, _)| candidate[i + quoted.len()..].trim_start().starts_with(':'))
        }),
    }
}

/// Parses `candidate` again to describe a type error, with the path of the value it stopped at.
fn data_error<T: DeserializeOwned>(candidate: &str) -> OutputError {
    match serde_json::from_str::<T>(candidate) {
        Ok(_) => OutputError::new(
            OutputErrorCode::SchemaViolation,
            None,
            "does not match the schema",
        ),
        Err(e) => {
            // The path ends with the key when the key itself is refused (unknown, given twice).
            let path = path_text(&path_at(candidate, e.line(), e.column()).path);
            let path = (!path.is_empty()).then_some(path);
            OutputError::new(
                OutputErrorCode::SchemaViolation,
                path,
                json::describe_data(&e),
            )
        }
    }
}

/// A path as `blocks[0].exercises[2].sets`.
fn path_text(path: &[Segment]) -> String {
    let mut out = String::new();
    for seg in path {
        match seg {
            Segment::Index(i) => out.push_str(&format!("[{i}]")),
            Segment::Key(k) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(k);
            }
        }
    }
    out
}

/// The first JSON object candidate in `text`, if any. See [`json_candidates`].
pub fn extract_json(text: &str) -> Option<&str> {
    json_candidates(text).next()
}

/// All JSON object candidates in `text`, fenced blocks first, in order of appearance; each once.
pub fn json_candidates(text: &str) -> impl Iterator<Item = &str> {
    let regions = regions(text);
    let fenced = regions[..regions.len() - 1].to_vec();
    let inside_fence = move |c: &str| {
        let at = c.as_ptr() as usize;
        fenced
            .iter()
            .any(|f| (f.as_ptr() as usize..f.as_ptr() as usize + f.len()).contains(&at))
    };
    let last = regions.len() - 1;
    regions
        .into_iter()
        .enumerate()
        .flat_map(|(i, r)| BalancedObjects { rest: r }.map(move |c| (i, c)))
        .filter(move |(i, c)| *i < last || !inside_fence(c))
        .map(|(_, c)| c)
}

/// Where to look, in order: the fenced blocks of the answer that hold a `{`, then the whole answer
/// (so JSON outside a fence is still found when a fence holds something else).
fn regions(text: &str) -> Vec<&str> {
    // Fast path: without `<` or a backtick there are no tags and no fences to consider.
    if memchr::memchr2(b'<', b'`', text.as_bytes()).is_none() {
        return vec![text];
    }
    let answer = answer_region(text);
    let mut out: Vec<&str> = fenced_blocks(answer).filter(|b| b.contains('{')).collect();
    out.push(answer);
    out
}

/// Length of the balanced object at the start of `s` (all of `s` when it never closes).
fn balanced_len(s: &str) -> usize {
    let mut it = BalancedObjects { rest: s };
    it.next().map_or(s.len(), str::len)
}

/// The part of the text that holds the answer. Tags count only where a model puts them, never
/// inside the JSON (a plan's summary may well say "</think>"):
/// - `<think>` only when the text starts with it: the answer follows its first `</think>`, and
///   is empty when it never closes (the model never answered);
/// - then `<response>` only when it comes before the first `{`: the answer is inside it, up to
///   its last `</response>`.
fn answer_region(text: &str) -> &str {
    let mut t = text;
    let trimmed = t.trim_start();
    if let Some(after) = trimmed.strip_prefix("<think>") {
        match after.find("</think>") {
            Some(end) => t = &after[end + "</think>".len()..],
            None => return "",
        }
    }
    if let Some(start) = t.find("<response>") {
        if t.find('{').is_none_or(|brace| start < brace) {
            let inner = &t[start + "<response>".len()..];
            return match inner.rfind("</response>") {
                Some(end) => &inner[..end],
                None => inner,
            };
        }
    }
    t
}

/// Contents of Markdown code fences (the info string such as `json` is skipped). An unclosed
/// fence runs to the end of the text.
fn fenced_blocks(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        let open = rest.find("```")?;
        let after = &rest[open + 3..];
        let body_start = after.find('\n').map_or(after.len(), |i| i + 1);
        // A fence with JSON on the same line (```{"a":1}```) has no newline before the body.
        let body_start = if after[..body_start].contains('{') {
            0
        } else {
            body_start
        };
        let body = &after[body_start..];
        match body.find("```") {
            Some(close) => {
                rest = &body[close + 3..];
                Some(&body[..close])
            }
            None => {
                rest = "";
                Some(body)
            }
        }
    })
}

struct BalancedObjects<'a> {
    rest: &'a str,
}

impl<'a> Iterator for BalancedObjects<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        let start = self.rest.find('{')?;
        let s = &self.rest[start..];
        let len = closed_object_len(s).unwrap_or(s.len());
        self.rest = &s[len..];
        Some(&s[..len])
    }
}

/// Length of the balanced `{…}` at the start of `s` (braces inside strings do not count), or
/// `None` when it never closes (cut-off JSON).
pub(crate) fn closed_object_len(s: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (i, b) in json::outside_strings(s) {
        match b {
            b'{' => depth += 1,
            b'}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(text: &str) -> Vec<&str> {
        json_candidates(text).collect()
    }

    #[test]
    fn bare_object() {
        assert_eq!(extract_json(r#"{"a":1}"#), Some(r#"{"a":1}"#));
    }

    #[test]
    fn prose_around() {
        assert_eq!(
            extract_json("Here you go:\n{\"a\": {\"b\": 2}}\nEnjoy!"),
            Some("{\"a\": {\"b\": 2}}")
        );
    }

    #[test]
    fn fenced_block_wins_over_prose_braces() {
        let t = "Use {curly} braces.\n```json\n{\"a\":1}\n```\nbye {x}";
        assert_eq!(extract_json(t), Some("{\"a\":1}"));
        let t = "```\n{\"a\":1}\n```";
        assert_eq!(extract_json(t), Some("{\"a\":1}"));
        assert_eq!(extract_json("```{\"a\":1}```"), Some("{\"a\":1}"));
    }

    #[test]
    fn think_and_response_wrappers() {
        let t = "<think>maybe {\"a\":0}?</think><response>```json\n{\"a\":1}\n```</response>";
        assert_eq!(extract_json(t), Some("{\"a\":1}"));
        let t = "<think>plan {\"draft\":true}</think>\n{\"a\":2}";
        assert_eq!(extract_json(t), Some("{\"a\":2}"));
        assert_eq!(extract_json("<think>still thinking {\"a\":1}"), None);
    }

    #[test]
    fn braces_and_quotes_inside_strings() {
        let t = r#"{"s":"a } \" { b","t":"\\"} trailing"#;
        assert_eq!(extract_json(t), Some(r#"{"s":"a } \" { b","t":"\\"}"#));
    }

    #[test]
    fn later_candidates_start_after_earlier_ones() {
        assert_eq!(
            all("note {x} then {\"a\":{\"b\":1}}"),
            vec!["{x}", "{\"a\":{\"b\":1}}"]
        );
    }

    #[test]
    fn truncated_object_is_still_a_candidate() {
        assert_eq!(extract_json("ok: {\"a\": [1, 2"), Some("{\"a\": [1, 2"));
    }

    #[derive(serde::Deserialize, Debug, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct T {
        a: i64,
        b: Option<Vec<String>>,
    }

    #[test]
    fn parse_skips_non_json_candidates_and_ignores_trailing_text() {
        let t: T = parse_model_json("Use {curly} braces: {\"a\": 1}</response> bye").unwrap();
        assert_eq!(t, T { a: 1, b: None });
        let t: T = parse_model_json("<response>{\"a\":2}</response>").unwrap();
        assert_eq!(t.a, 2);
    }

    #[test]
    fn parse_errors_say_what_and_where_without_the_value() {
        let e = parse_model_json::<T>("{\"a\": 1, \"b\": [\"x\", 7]}").unwrap_err();
        assert_eq!(
            (e.code, e.path.as_deref()),
            (OutputErrorCode::SchemaViolation, Some("b[1]"))
        );
        assert_eq!(e.detail, "wrong type: expected a string");
        let e = parse_model_json::<T>("{\"a\": \"SECRET\"}").unwrap_err();
        assert_eq!(e.path.as_deref(), Some("a"));
        assert!(!e.detail.contains("SECRET"));
        let e = parse_model_json::<T>("{\"a\": 1, \"zzz\": 0}").unwrap_err();
        assert_eq!(e.path.as_deref(), Some("zzz"));
        let e = parse_model_json::<T>("nothing here").unwrap_err();
        assert_eq!(
            (e.code, e.path, e.detail.as_str()),
            (
                OutputErrorCode::InvalidJson,
                None,
                "no JSON object found in the text"
            )
        );
        let e = parse_model_json::<T>("{\"a\": 1, \"b\": [").unwrap_err();
        assert_eq!(e.code, OutputErrorCode::InvalidJson);
        assert!(e.detail.contains("truncated"), "{}", e.detail);
    }

    #[test]
    fn parse_passes_over_json_of_another_shape() {
        // A JSON aside in the prose before the answer does not hide the answer.
        let t: T = parse_model_json("Note: {\"tip\": 1}\nThe answer: {\"a\": 3}").unwrap();
        assert_eq!(t.a, 3);
        // When nothing fits, the error is the largest candidate's, with its path.
        let e = parse_model_json::<T>("{\"b\": []} and {\"a\": \"xyz\"}").unwrap_err();
        assert_eq!(
            (e.code, e.path.as_deref()),
            (OutputErrorCode::SchemaViolation, Some("a"))
        );
        // A small malformed aside before a larger data error: the larger one is reported.
        let e = parse_model_json::<T>("{oops} {\"a\": true}").unwrap_err();
        assert_eq!(e.code, OutputErrorCode::SchemaViolation);
        // A stray `}` cuts the answer short: its syntax error, not a fragment after it.
        let e = parse_model_json::<T>("{\"a\": 1, \"b\": [\"x\"}, {\"zz\": 1}]}").unwrap_err();
        assert_eq!(e.code, OutputErrorCode::InvalidJson);
        // A later candidate that fits wins over an earlier one that does not.
        let t: T = parse_model_json_with(
            "{\"a\": \"broken\"} Sorry, corrected: {\"a\": 1}",
            |t: T| Ok(t),
            |c| has_top_level_key(c, &["a"]),
        )
        .unwrap();
        assert_eq!(t.a, 1);
        // When none fits, an answer's error wins over a larger non-answer's.
        let e = parse_model_json_with(
            "{\"note\": \"a long aside without the key\"} {\"a\": \"x\"}",
            |t: T| Ok(t),
            |c| has_top_level_key(c, &["a"]),
        )
        .unwrap_err();
        assert_eq!(e.path.as_deref(), Some("a"));
    }

    #[test]
    fn a_fence_of_something_else_does_not_hide_the_json_outside_it() {
        let t = "Like this:\n```python\nd = {1: 2}\n```\nHere: {\"a\": 4}";
        let v: T = parse_model_json(t).unwrap();
        assert_eq!(v.a, 4);
        // Fenced candidates come first and each candidate is listed once.
        let t = "x {\"p\":0}\n```json\n{\"a\":1}\n```\n{\"a\":2}";
        assert_eq!(all(t), vec!["{\"a\":1}", "{\"p\":0}", "{\"a\":2}"]);
    }

    #[test]
    fn top_level_keys() {
        assert!(has_top_level_key("{\"blocks\": []}", &["blocks"]));
        assert!(!has_top_level_key("{\"x\": {\"blocks\": []}}", &["blocks"]));
        assert!(!has_top_level_key(
            "{\"required\": [\"blocks\"]}",
            &["blocks"]
        ));
        // Not JSON: judged on the text, as a key.
        assert!(has_top_level_key("{\"blocks\" : [..]}", &["blocks"]));
        assert!(!has_top_level_key(
            "{\"list\": [\"blocks\" ..]}",
            &["blocks"]
        ));
    }

    #[test]
    fn tags_count_only_outside_the_json() {
        let t = "{\"a\": 5, \"b\": [\"skip the </think> part\", \"<response>x</response>\"]}";
        assert_eq!(parse_model_json::<T>(t).unwrap().a, 5);
        let fenced = format!("```json\n{t}\n```");
        assert_eq!(parse_model_json::<T>(&fenced).unwrap().a, 5);
        let prose = format!("Here you go: {t} Enjoy.");
        assert_eq!(parse_model_json::<T>(&prose).unwrap().a, 5);
        let wrapped = format!("<think>ok</think><response>{t}</response>");
        assert_eq!(parse_model_json::<T>(&wrapped).unwrap().a, 5);
    }

    #[test]
    fn no_json() {
        assert_eq!(extract_json("I cannot help with that."), None);
        assert_eq!(extract_json(""), None);
    }

    #[test]
    fn multibyte_text_is_safe() {
        assert_eq!(
            extract_json("Plan für heute 💪 {\"a\":\"é\"} ✓"),
            Some("{\"a\":\"é\"}")
        );
    }
}
