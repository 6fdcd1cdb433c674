//! Finding the JSON object in raw model text: the one extraction function every LLM feature uses.
//!
//! Models wrap their JSON in many ways. This module tolerates:
//! - `<think>…</think>` reasoning before the answer (the reasoning is skipped; an unclosed
//!   `<think>` means the model never answered, so no JSON is found);
//! - `<response>…</response>` around the answer (only its inside is searched);
//! - Markdown code fences (```` ```json … ``` ````): fenced blocks are searched first;
//! - prose before and after the JSON.
//!
//! It yields *candidates*: balanced `{…}` spans, in order, string-aware (braces inside strings and
//! escaped quotes do not count). A caller parses the first candidate and moves to the next only if
//! that one is not JSON at all. A span that never closes is yielded as it is, so the parser can
//! report the truncation.

/// The first JSON object candidate in `text`, if any. See [`json_candidates`].
pub fn extract_json(text: &str) -> Option<&str> {
    json_candidates(text).next()
}

/// All JSON object candidates in `text`, fenced blocks first, in order of appearance.
pub fn json_candidates(text: &str) -> impl Iterator<Item = &str> {
    let answer = answer_region(text);
    let fenced: Vec<&str> = fenced_blocks(answer).collect();
    let regions = if fenced.iter().any(|b| b.contains('{')) { fenced } else { vec![answer] };
    regions.into_iter().flat_map(|r| BalancedObjects { rest: r })
}

/// The part of the text that holds the answer: inside `<response>` if present, else after the
/// last `</think>`; empty when a `<think>` never closes.
fn answer_region(text: &str) -> &str {
    if let Some(start) = text.find("<response>") {
        let inner = &text[start + "<response>".len()..];
        return match inner.find("</response>") {
            Some(end) => &inner[..end],
            None => inner,
        };
    }
    if let Some(end) = text.rfind("</think>") {
        return &text[end + "</think>".len()..];
    }
    if text.contains("<think>") {
        return "";
    }
    text
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
        let body_start = if after[..body_start].contains('{') { 0 } else { body_start };
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
        let bytes = s.as_bytes();
        let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
        for (i, &b) in bytes.iter().enumerate() {
            if in_string {
                if escaped {
                    escaped = false;
                } else if b == b'\\' {
                    escaped = true;
                } else if b == b'"' {
                    in_string = false;
                }
                continue;
            }
            match b {
                b'"' => in_string = true,
                b'{' => depth += 1,
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        self.rest = &s[i + 1..];
                        return Some(&s[..=i]);
                    }
                }
                _ => {}
            }
        }
        self.rest = "";
        Some(s)
    }
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
        assert_eq!(extract_json("Here you go:\n{\"a\": {\"b\": 2}}\nEnjoy!"), Some("{\"a\": {\"b\": 2}}"));
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
        assert_eq!(all("note {x} then {\"a\":{\"b\":1}}"), vec!["{x}", "{\"a\":{\"b\":1}}"]);
    }

    #[test]
    fn truncated_object_is_still_a_candidate() {
        assert_eq!(extract_json("ok: {\"a\": [1, 2"), Some("{\"a\": [1, 2"));
    }

    #[test]
    fn no_json() {
        assert_eq!(extract_json("I cannot help with that."), None);
        assert_eq!(extract_json(""), None);
    }

    #[test]
    fn multibyte_text_is_safe() {
        assert_eq!(extract_json("Plan für heute 💪 {\"a\":\"é\"} ✓"), Some("{\"a\":\"é\"}"));
    }
}
