//! The message as words ([`Lexed`]): what every part of the reading walks, marking the words it
//! has used up. Pure.

use std::collections::HashSet;

use super::Span;

/// A word of the message: lowercase text and byte range.
#[derive(Debug, Clone)]
pub(super) struct Tok {
    pub(super) s: String,
    pub(super) start: usize,
    pub(super) end: usize,
}

/// The message as words, with which words a reading has used up.
pub(super) struct Lexed<'a> {
    pub(super) text: &'a str,
    pub(super) t: Vec<Tok>,
    pub(super) used: Vec<bool>,
}

impl<'a> Lexed<'a> {
    /// Words are runs of letters and digits; an apostrophe between letters ("don't"), a colon
    /// between digits ("17:30") and an ISO date ("2026-12-01") stay inside one word.
    pub(super) fn new(text: &'a str) -> Self {
        let chars: Vec<(usize, char)> = text.char_indices().collect();
        let mut t = Vec::new();
        let mut k = 0;
        while k < chars.len() {
            let (start, c) = chars[k];
            if !c.is_alphanumeric() {
                k += 1;
                continue;
            }
            let mut e = k + 1;
            if is_iso_at(&text.as_bytes()[start..]) {
                e = k + 10;
            } else {
                while e < chars.len() {
                    let ch = chars[e].1;
                    let prev = chars[e - 1].1;
                    let next = chars.get(e + 1).map(|x| x.1);
                    let inner = ch.is_alphanumeric()
                        || ((ch == '\'' || ch == '’')
                            && prev.is_alphabetic()
                            && next.is_some_and(char::is_alphabetic))
                        || (ch == ':'
                            && prev.is_ascii_digit()
                            && next.is_some_and(|n| n.is_ascii_digit()));
                    if !inner {
                        break;
                    }
                    e += 1;
                }
            }
            let end = chars.get(e).map_or(text.len(), |x| x.0);
            t.push(Tok {
                s: text[start..end].to_lowercase().replace('’', "'"),
                start,
                end,
            });
            k = e;
        }
        let used = vec![false; t.len()];
        Lexed { text, t, used }
    }

    pub(super) fn len(&self) -> usize {
        self.t.len()
    }

    /// Word `i`, or "" past the end.
    pub(super) fn w(&self, i: usize) -> &str {
        self.t.get(i).map_or("", |t| t.s.as_str())
    }

    /// The raw text between word `i - 1` and word `i` (a space between two words rewritten from
    /// one: `reading/lang.rs`).
    pub(super) fn gap(&self, i: usize) -> &str {
        match (i.checked_sub(1).and_then(|p| self.t.get(p)), self.t.get(i)) {
            (Some(a), Some(b)) if a.end > b.start => " ",
            (Some(a), Some(b)) => &self.text[a.end..b.start],
            _ => "",
        }
    }

    /// Words `i..j` as a byte span.
    pub(super) fn span(&self, i: usize, j: usize) -> Span {
        Span {
            start: self.t[i].start,
            end: self.t[j - 1].end,
        }
    }

    /// Whether words `i..j` exist and none is used.
    pub(super) fn free(&self, i: usize, j: usize) -> bool {
        j <= self.len() && i < j && !self.used[i..j].iter().any(|u| *u)
    }

    pub(super) fn mark(&mut self, i: usize, j: usize) {
        for u in &mut self.used[i..j] {
            *u = true;
        }
    }

    /// Whether the words from `i` are `pat` (words separated by spaces, alternatives by `|`);
    /// returns the index after them.
    pub(super) fn seq(&self, i: usize, pat: &str) -> Option<usize> {
        let mut k = i;
        for word in pat.split(' ') {
            if !word.split('|').any(|a| a == self.w(k)) || k >= self.len() {
                return None;
            }
            k += 1;
        }
        Some(k)
    }

    /// Whether word `k` was rewritten from another language (`reading/lang.rs`): its text is not
    /// the message's own.
    pub(super) fn rewritten(&self, k: usize) -> bool {
        self.t
            .get(k)
            .is_some_and(|t| t.s != self.text[t.start..t.end].to_lowercase().replace('’', "'"))
    }

    /// Whether any word is one of `words`.
    pub(super) fn has_any(&self, words: &[&str]) -> Option<usize> {
        self.t.iter().position(|t| words.contains(&t.s.as_str()))
    }
}

pub(super) fn is_iso_at(b: &[u8]) -> bool {
    b.len() >= 10
        && b[..4].iter().all(u8::is_ascii_digit)
        && b[4] == b'-'
        && b[5..7].iter().all(u8::is_ascii_digit)
        && b[7] == b'-'
        && b[8..10].iter().all(u8::is_ascii_digit)
        && b.get(10).is_none_or(|c| !c.is_ascii_alphanumeric())
}

/// The words that can open a phrase of `pats` (a fast filter before matching phrases).
pub(super) fn openers<'p>(pats: impl Iterator<Item = &'p str>) -> HashSet<&'p str> {
    pats.flat_map(|p| p.split(' ').next().unwrap_or("").split('|'))
        .collect()
}
