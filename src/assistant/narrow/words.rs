//! The words of a text with their byte ranges, as the narrowed path compares names, titles and
//! messages. Pure.

use super::super::reading::Span;

/// The words of `text` (letters, digits, inner apostrophes), with their byte ranges.
pub(super) fn words_of(text: &str) -> Vec<(String, Span)> {
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    for (k, &(i, c)) in chars.iter().enumerate() {
        let inner_apostrophe = (c == '\'' || c == '’')
            && k > 0
            && chars[k - 1].1.is_alphanumeric()
            && chars.get(k + 1).is_some_and(|n| n.1.is_alphanumeric());
        if c.is_alphanumeric() || (inner_apostrophe && start.is_some()) {
            start.get_or_insert(i);
        } else if let Some(s) = start.take() {
            out.push((text[s..i].replace('’', "'"), Span { start: s, end: i }));
        }
    }
    if let Some(s) = start {
        out.push((
            text[s..].replace('’', "'"),
            Span {
                start: s,
                end: text.len(),
            },
        ));
    }
    out
}
