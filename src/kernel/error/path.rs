//! The JSON path of the value at an error's line and column: where a request or a model answer
//! went wrong, found by one scan of the text after `serde_json` has reported the position.
//!
//! Reading a type through `serde_json` alone and finding the path afterwards costs one scan of
//! the text on error only; a path-tracking deserializer would instantiate a second copy of every
//! type's deserializer in the library (about 0.4 MB of the shipped code).

/// One step of a path: an object's key or an array's index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Segment {
    /// A key of an object, as written in the text (escapes kept).
    Key(String),
    /// The position in an array, from 0.
    Index(usize),
}

enum Frame {
    /// An object: the key of its current member, whether the next string is a key, and whether
    /// the key was just read (its `:` not yet).
    Object {
        key: Option<String>,
        expecting_key: bool,
        at_key: bool,
    },
    /// An array: the index of its current element.
    Array { index: usize },
}

/// The byte offset just after `serde_json`'s 1-based `line` and `column` (the last byte it read).
fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let start = text
        .match_indices('\n')
        .nth(line.saturating_sub(2))
        .map_or(0, |(i, _)| i + 1);
    let start = if line <= 1 { 0 } else { start };
    (start + column).min(text.len())
}

/// Where `serde_json` stopped at `line` and `column` of `text`: the keys and indexes of the
/// objects and arrays open there. An object just closed (a missing field is reported at its `}`)
/// is not part of it: the path names the member holding it. `at_key`: it stopped on a key itself
/// (an unknown or repeated field, an unknown variant written as a key), the path's last segment.
pub(crate) struct Stop {
    /// The path, outermost first.
    pub path: Vec<Segment>,
    /// Whether the last segment is the key `serde_json` refused.
    pub at_key: bool,
}

/// See [`Stop`].
pub(crate) fn path_at(text: &str, line: usize, column: usize) -> Stop {
    let end = offset_of(text, line, column);
    let bytes = text.as_bytes();
    let mut stack: Vec<Frame> = Vec::new();
    let mut i = 0;
    while i < end {
        match bytes[i] {
            b'"' => {
                let start = i + 1;
                let mut j = start;
                let mut escaped = false;
                while j < bytes.len() {
                    match bytes[j] {
                        _ if escaped => escaped = false,
                        b'\\' => escaped = true,
                        b'"' => break,
                        _ => {}
                    }
                    j += 1;
                }
                if let Some(Frame::Object {
                    key,
                    expecting_key,
                    at_key,
                }) = stack.last_mut()
                {
                    if *expecting_key {
                        // Escapes decoded as the deserializer decodes them (raw when cut short).
                        let quoted = text.get(start - 1..(j + 1).min(text.len())).unwrap_or("");
                        *key = Some(
                            serde_json::from_str(quoted)
                                .unwrap_or_else(|_| text[start..j].to_string()),
                        );
                        *expecting_key = false;
                        *at_key = true;
                    }
                }
                i = j + 1;
                continue;
            }
            b'{' => stack.push(Frame::Object {
                key: None,
                expecting_key: true,
                at_key: false,
            }),
            b':' => {
                if let Some(Frame::Object { at_key, .. }) = stack.last_mut() {
                    *at_key = false;
                }
            }
            b'[' => stack.push(Frame::Array { index: 0 }),
            b'}' | b']' => {
                stack.pop();
            }
            b',' => match stack.last_mut() {
                Some(Frame::Array { index }) => *index += 1,
                Some(Frame::Object { expecting_key, .. }) => *expecting_key = true,
                None => {}
            },
            _ => {}
        }
        i += 1;
    }
    let at_key = matches!(stack.last(), Some(Frame::Object { at_key: true, .. }));
    let path = stack
        .into_iter()
        .filter_map(|f| match f {
            Frame::Object { key, .. } => key.map(Segment::Key),
            Frame::Array { index } => Some(Segment::Index(index)),
        })
        .collect();
    Stop { path, at_key }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Inner {
        servings: u32,
        #[serde(default)]
        tags: Vec<String>,
    }

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Outer {
        name: String,
        days: Vec<std::collections::BTreeMap<String, Inner>>,
        #[serde(default)]
        kind: Option<Kind>,
    }

    #[derive(Debug, Deserialize)]
    #[serde(rename_all = "camelCase")]
    #[allow(dead_code)]
    enum Kind {
        Quick,
        Slow,
    }

    fn text(path: &[Segment]) -> String {
        path.iter()
            .map(|s| match s {
                Segment::Key(k) => format!(".{k}"),
                Segment::Index(i) => format!("[{i}]"),
            })
            .collect::<String>()
            .trim_start_matches('.')
            .to_string()
    }

    /// The reference: `serde_path_to_error` (a test dependency only) over the same inputs.
    fn both(json: &str) -> (String, String) {
        let plain = serde_json::from_str::<Outer>(json).unwrap_err();
        let mut stop = path_at(json, plain.line(), plain.column());
        // The reference keeps an unknown field's key and drops any other refused key.
        if stop.at_key && !plain.to_string().starts_with("unknown field") {
            stop.path.pop();
        }
        let mine = text(&stop.path);
        let mut de = serde_json::Deserializer::from_str(json);
        let tracked = serde_path_to_error::deserialize::<_, Outer>(&mut de).unwrap_err();
        let mut reference = tracked.path().to_string();
        if reference == "." {
            reference.clear();
        }
        (mine, reference)
    }

    #[test]
    fn paths_match_a_path_tracking_deserializer() {
        let cases = [
            r#"{"name": 1, "days": []}"#,
            r#"{"name": "a", "days": [{"lunch": {"servings": "two"}}]}"#,
            r#"{"name": "a", "days": [{}, {"lunch": {"servings": 2}, "dinner": {"servings": -1}}]}"#,
            "{\"name\": \"a\",\n \"days\": [\n {\"lunch\": {\"servings\": 2, \"tags\": [\"x\", 3]}}]}",
            r#"{"name": "a", "days": [{"lunch": {"tags": []}}]}"#,
            r#"{"name": "a", "days": [], "kind": "fast"}"#,
            r#"{"name": "a", "days": [], "kind": {"quick": 1}}"#,
            r#"{"name": "a", "days": {"lunch": 1}}"#,
            r#"{"name": "a\"b\\", "days": [{"lu\"nch": {"servings": true}}]}"#,
            r#"{"name": "é", "days": [{"déjeuner": {"servings": 2.5}}]}"#,
            r#"{"name": "a", "name": "b", "days": []}"#,
            r#"{"name": "a", "days": [{"lunch": {"servings": 1, "servings": 2}}]}"#,
            r#"{"name": "a", "days": [{"lunch": {"servings": 1, "other": 2}}]}"#,
            r#"[1, 2]"#,
            r#"{"days": []}"#,
        ];
        for json in cases {
            let (mine, reference) = both(json);
            assert_eq!(mine, reference, "{json}");
        }
    }

    #[test]
    fn an_unknown_key_is_the_last_segment() {
        let json = r#"{"name": "a", "days": [{"lunch": {"servings": 2, "extra": 1}}]}"#;
        let e = serde_json::from_str::<Outer>(json).unwrap_err();
        let stop = path_at(json, e.line(), e.column());
        assert!(stop.at_key);
        assert_eq!(text(&stop.path), "days[0].lunch.extra");
    }
}
