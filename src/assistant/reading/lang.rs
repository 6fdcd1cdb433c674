//! Messages in German, French and Spanish, read by the English reading: before any rule runs,
//! the message's words are rewritten into the words the reading knows ("übermorgen" becomes
//! "in 2 days", "jeden Montag" "every monday", "erledigt" "done"). Each rewritten word keeps the
//! byte range of the words it came from, so spans, references and title guesses still point at
//! the user's own text: a title keeps the user's words ("Zahnarzt anrufen"), never a
//! translation. Pure.
//!
//! | file | language |
//! |---|---|
//! | `lang/de.rs` | German (its rules in its module docs) |
//! | `lang/de/tests.rs` | the German reading's unit tests, one per rule class |
//! | `lang/fr.rs` | French |
//! | `lang/es.rs` | Spanish |
//! | `lang/table.rs` | the shape of a language's table and reference words; folding |
//!
//! Each language gives a [`Table`]: phrases (words separated by spaces, alternatives by `|`,
//! matched without accents and case: "apres|après demain") and the English words they become
//! (an empty replacement drops the words), plus a hook for what a table cannot say (German
//! "halb drei" is 2:30). At each word the hook runs first, then the longest phrase wins. A
//! language may also give [`RefWords`] for matching titles written in it (`reading/refs.rs`):
//! stop words, generic words, a stemmer, compounds. A language file imports what it shares with
//! this one from `lang/table.rs` (this file uses the languages).

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::OnceLock;

use super::lex::{Lexed, Tok};
use super::words::PARTS_OF_DAY;
use crate::kernel::lang::Language;

mod de;
mod es;
mod fr;
mod table;

pub(super) use table::{fold, RefWords};
use table::{Rewrite, Table};

fn table(lang: Language) -> Option<&'static Table> {
    match lang {
        Language::En => None,
        Language::De => Some(&de::TABLE),
        Language::Fr => Some(&fr::TABLE),
        Language::Es => Some(&es::TABLE),
    }
}

/// What matching references needs of `lang` (stop words, generic words, stemmer, compounds);
/// `None`: the English rules of `reading/refs.rs` alone.
pub(super) fn ref_words(lang: Language) -> Option<&'static RefWords> {
    match lang {
        Language::De => Some(&de::REFS),
        _ => None,
    }
}

/// The message without the words that were rewritten and then read as a date, time, repeat
/// rule, priority or part of the day: what references are matched on, so that "morgen"
/// (tomorrow) and "morgens" do not name "Morgenlauf". English words are never rewritten: an
/// English message comes back whole.
pub(super) fn unread_text<'a>(p: &Lexed<'a>) -> Cow<'a, str> {
    let spans: Vec<(usize, usize)> = (0..p.len())
        .filter(|&k| (p.used[k] || PARTS_OF_DAY.contains(&p.w(k))) && p.rewritten(k))
        .map(|k| (p.t[k].start, p.t[k].end))
        .collect();
    if spans.is_empty() {
        return Cow::Borrowed(p.text);
    }
    let out = p
        .text
        .char_indices()
        .map(|(b, c)| {
            if spans.iter().any(|(s, e)| b >= *s && b < *e) {
                ' '
            } else {
                c
            }
        })
        .collect();
    Cow::Owned(out)
}

/// The separators between two requests of one message, lowercase, with their spaces
/// (`", and "`, `" and "`, `", "`, `"; "` in English).
pub(crate) fn separators(lang: Language) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let words: &[&str] = table(lang).map_or(&["and"], |t| t.conjunctions);
    for w in words {
        out.push(format!(", {w} "));
        out.push(format!(" {w} "));
    }
    out.push(", ".into());
    out.push("; ".into());
    out
}

/// The phrases of a language by the folded alternatives of their first word.
type Index = HashMap<String, Vec<(Vec<Vec<String>>, &'static str)>>;

fn index(lang: Language) -> Option<&'static Index> {
    static INDEXES: OnceLock<[Index; 3]> = OnceLock::new();
    let all = INDEXES.get_or_init(|| {
        [Language::De, Language::Fr, Language::Es].map(|l| {
            let mut idx: Index = HashMap::new();
            for (pat, to) in table(l).map_or(&[][..], |t| t.phrases) {
                let words: Vec<Vec<String>> = pat
                    .split(' ')
                    .map(|w| w.split('|').map(fold).collect())
                    .collect();
                for first in &words[0] {
                    idx.entry(first.clone())
                        .or_default()
                        .push((words.clone(), *to));
                }
            }
            idx
        })
    });
    match lang {
        Language::En => None,
        Language::De => Some(&all[0]),
        Language::Fr => Some(&all[1]),
        Language::Es => Some(&all[2]),
    }
}

/// Rewrites the words of `p` from `lang` into the reading's English words. English is left as
/// it is.
pub(super) fn normalize(p: &mut Lexed, lang: Language) {
    let (Some(t), Some(idx)) = (table(lang), index(lang)) else {
        return;
    };
    let folded: Vec<String> = p.t.iter().map(|t| fold(&t.s)).collect();
    let mut out: Vec<Tok> = Vec::with_capacity(p.t.len());
    let mut i = 0;
    while i < p.t.len() {
        let rewrite = (t.hook)(p, i).or_else(|| {
            let mut best: Option<(usize, &str)> = None;
            for (words, to) in idx.get(&folded[i]).into_iter().flatten() {
                let end = i + words.len();
                let fits = end <= folded.len()
                    && words
                        .iter()
                        .zip(&folded[i..end])
                        .all(|(alts, w)| alts.iter().any(|a| a == w));
                if fits && best.is_none_or(|(e, _)| end > e) {
                    best = Some((end, to));
                }
            }
            best.map(|(end, to)| Rewrite {
                end,
                words: to.split_whitespace().map(str::to_string).collect(),
            })
        });
        match rewrite {
            Some(r) if r.end > i => {
                let (start, end) = (p.t[i].start, p.t[r.end - 1].end);
                out.extend(r.words.into_iter().map(|s| Tok { s, start, end }));
                i = r.end;
            }
            _ => {
                out.push(p.t[i].clone());
                i += 1;
            }
        }
    }
    p.used = vec![false; out.len()];
    p.t = out;
}
