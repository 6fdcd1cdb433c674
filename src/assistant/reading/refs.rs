//! References to existing items: a fuzzy match of every item's title against the message.
//!
//! Both sides are split into words as [`crate::assistant::clarify::tokens`] does (lowercase
//! letters and digits, no stop words, no one-letter words), without the generic words "thing",
//! "stuff", "item", "task", "todo", "event", "habit", "goal", then stemmed lightly ("meetings",
//! "meeting" and "meet" agree; "running" and "run"; "groceries" and "grocery"). Each distinct
//! title word scores 1 when the message has it, 0.7 when the two share a prefix of at least 4
//! letters that is all of the shorter word or all but its last letter ("renew" and "renewal",
//! "meditate" and "meditation"), else 0; an item's score is the mean over its title words (one word
//! of a three-word title: 0.33, of a four-word title: 0.25, left out). A title whose
//! words all appear in the message, in order and next to each other, scores 1. Items scoring
//! below [`MATCH_THRESHOLD`] are left out; the best [`MAX_MATCHES`] are kept, by score, then the
//! shorter title, then id. "the milk thing" matches "Buy milk" at 0.5. A few irregular past
//! tenses stem to their verb ("ran" and "run", "paid" and "pay").
//!
//! Titles in another language are matched with that language's words (`reading/lang.rs`): its
//! stop words and generic words are left out too and its stemmer replaces the English one. In a
//! language whose nouns compound (German):
//! - a message word that is a part of a title word (its start, at least 4 letters shorter, or
//!   its end: "Zahnarzt" or "Termin" of "Zahnarzttermin", "Geschenk" of "Geburtstagsgeschenk")
//!   scores 0.5, as one word of a two-word title, so a part never matches strongly alone;
//! - a title with capitalised words (nouns) matches only when one of them does: "Bank anrufen"
//!   does not name "Klempner anrufen"; its other words (verbs) weigh half, so the noun alone
//!   is a strong match ("Spesenabrechnung" of "Spesenabrechnung einreichen": 0.67).
//!
//! The message is matched without the words the reading rewrote and read as dates, times,
//! repeat rules, priorities or parts of the day ("morgen" and "morgens" name no "Morgenlauf").
//!
//! ## Descriptors
//! An item named by a descriptor rather than its title ([`descriptor`]): a determiner ("the",
//! "that", "this", "my", "our"), up to three words and a descriptor noun ("the dentist thing",
//! "the library stuff", "the sam dinner", "that appointment"), or the noun first ("the thing
//! with the plumber"). Generic nouns ("thing", "stuff", "business", "one", "item", "task") are
//! left out of the descriptor's words, nouns that name a kind of item ("appointment",
//! "meeting", "call", "dinner" ...) kept; a kind noun alone needs "that" or "this" ("that
//! appointment", not "the call"), and after "the" or "my" it is a descriptor only when an item
//! holds its words ("the team meeting", not "the client meeting" when there is none). The
//! items whose titles hold every word of the descriptor (stemmed as the language stems) are
//! its referents. The reading's words are used, so a language's descriptor words that
//! `reading/lang.rs` rewrites into these ("das Zahnarzt-Ding": "the dentist thing") work alike.

use std::collections::BTreeSet;

use super::lang::RefWords;
use super::lex::Lexed;
use super::{ItemMatch, ReferenceReading};
use crate::assistant::clarify::tokens;
use crate::assistant::model::PlannerItem;

/// Items scoring below this are not offered as references.
pub const MATCH_THRESHOLD: f64 = 0.3;
/// At most this many references are kept.
pub const MAX_MATCHES: usize = 3;

const GENERIC: &[&str] = &[
    "thing", "things", "stuff", "item", "items", "task", "todo", "event", "habit", "goal",
];

/// Irregular past tenses of everyday activities and their verbs.
const IRREGULAR: &[(&str, &str)] = &[
    ("ran", "run"),
    ("swam", "swim"),
    ("rode", "ride"),
    ("wrote", "write"),
    ("ate", "eat"),
    ("drank", "drink"),
    ("slept", "sleep"),
    ("bought", "buy"),
    ("paid", "pay"),
    ("sent", "send"),
    ("made", "make"),
    ("took", "take"),
    ("met", "meet"),
];

/// A light stemmer: irregular past tenses, plural, then "-ing" / "-ed", with a doubled final
/// consonant undone.
fn stem(w: &str) -> String {
    let w = w.strip_suffix("'s").unwrap_or(w);
    if let Some((_, verb)) = IRREGULAR.iter().find(|(past, _)| *past == w) {
        return (*verb).to_string();
    }
    let n = w.len();
    let mut s = if n > 4 && w.ends_with("ies") {
        format!("{}y", &w[..n - 3])
    } else if n > 4
        && ["ches", "shes", "xes", "sses"]
            .iter()
            .any(|e| w.ends_with(e))
    {
        w[..n - 2].to_string()
    } else if n > 3 && w.ends_with('s') && !w.ends_with("ss") && !w.ends_with("us") {
        w[..n - 1].to_string()
    } else {
        w.to_string()
    };
    let cut = if s.len() > 5 && s.ends_with("ing") {
        3
    } else if s.len() > 4 && s.ends_with("ed") && !s.ends_with("eed") {
        2
    } else {
        0
    };
    if cut > 0 {
        s.truncate(s.len() - cut);
        let b = s.as_bytes();
        let l = b.len();
        if l >= 3 && b[l - 1] == b[l - 2] && !b"aeiouls".contains(&b[l - 1]) {
            s.truncate(l - 1);
        }
    }
    s
}

pub(super) fn stems(text: &str, lang: Option<&RefWords>) -> Vec<String> {
    let all: Vec<String> = tokens(text)
        .into_iter()
        .filter(|t| lang.is_none_or(|l| !l.stop.contains(&t.as_str())))
        .collect();
    let stem_of = |t: &String| lang.map_or_else(|| stem(t), |l| (l.stem)(t));
    let generic = |t: &String| {
        GENERIC.contains(&t.as_str()) || lang.is_some_and(|l| l.generic.contains(&t.as_str()))
    };
    let kept: Vec<String> = all.iter().filter(|t| !generic(t)).map(stem_of).collect();
    if kept.is_empty() {
        all.iter().map(stem_of).collect()
    } else {
        kept
    }
}

/// `text`'s words, lowercase.
pub(super) fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|t| !t.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// Whether two stems share a prefix of at least `least` letters (4; a language's own, see
/// [`RefWords::prefix`]) that is all of the shorter one or all but its last letter ("renew" and
/// "renewal", "meditate" and "meditation").
pub(super) fn prefix_hit(a: &str, b: &str, least: usize) -> bool {
    let common = a.chars().zip(b.chars()).take_while(|(x, y)| x == y).count();
    let shorter = a.chars().count().min(b.chars().count());
    common >= least && common + 1 >= shorter
}

/// Whether the shorter of two stems, at least 4 letters, ends the longer ("geschenk" and
/// "geburtstagsgeschenk").
fn suffix_hit(a: &str, b: &str) -> bool {
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    short.chars().count() >= 4 && long.len() > short.len() && long.ends_with(short)
}

/// The score of one title against the message's stems and words (see the module docs).
pub(super) fn score(
    title: &str,
    msg: &BTreeSet<String>,
    msg_words: &[String],
    lang: Option<&RefWords>,
) -> f64 {
    let tw = words(title);
    if !tw.is_empty() && msg_words.windows(tw.len()).any(|w| w == tw.as_slice()) {
        return 1.0;
    }
    let title_text = title;
    let title: BTreeSet<String> = stems(title, lang).into_iter().collect();
    if title.is_empty() {
        return 0.0;
    }
    let compounds = lang.is_some_and(|l| l.compounds);
    let least = lang.map_or(4, |l| l.prefix);
    let nouns = if compounds {
        nouns(title_text, lang)
    } else {
        BTreeSet::new()
    };
    // Where nouns are capitalised, the other words (verbs: "anrufen") weigh half.
    let weight = |t: &String| {
        if nouns.is_empty() || nouns.contains(t) {
            1.0
        } else {
            0.5
        }
    };
    let (mut sum, mut total) = (0.0, 0.0);
    let mut noun_hit = false;
    for t in &title {
        let part = |m: &String| compounds && part_hit(m, t);
        let hit = if msg.contains(t) {
            1.0
        } else if msg.iter().any(|m| prefix_hit(m, t, least) && !part(m)) {
            0.7
        } else if msg.iter().any(part) {
            0.5
        } else {
            0.0
        };
        noun_hit |= hit > 0.0 && nouns.contains(t);
        sum += hit * weight(t);
        total += weight(t);
    }
    if !nouns.is_empty() && !noun_hit {
        return 0.0;
    }
    sum / total
}

/// In a language whose nouns compound: the message's word is a part of the title's ("zahnarzt"
/// of "zahnarzttermin", "geschenk" of "geburtstagsgeschenk"), or the title's ends the message's.
fn part_hit(m: &str, t: &str) -> bool {
    let (mn, tn) = (m.chars().count(), t.chars().count());
    (mn >= 4 && tn >= mn + 4 && t.starts_with(m)) || suffix_hit(m, t)
}

/// The stems of a title's capitalised words (German nouns, and the first word).
fn nouns(title: &str, lang: Option<&RefWords>) -> BTreeSet<String> {
    title
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.chars().next().is_some_and(char::is_uppercase))
        .flat_map(|w| stems(w, lang))
        .collect()
}

/// The items `message` seems to name, best first.
pub(super) fn rank(
    message: &str,
    items: &[PlannerItem],
    lang: Option<&RefWords>,
) -> Vec<ItemMatch> {
    let msg: BTreeSet<String> = stems(message, lang).into_iter().collect();
    let msg_words = words(message);
    let mut out: Vec<ItemMatch> = items
        .iter()
        .map(|it| ItemMatch {
            id: it.id.clone(),
            kind: it.kind,
            title: it.title.clone(),
            score: (score(&it.title, &msg, &msg_words, lang) * 100.0).round() / 100.0,
        })
        .filter(|m| m.score >= MATCH_THRESHOLD)
        .collect();
    out.sort_by(|a, b| {
        b.score
            .total_cmp(&a.score)
            .then(a.title.len().cmp(&b.title.len()))
            .then_with(|| a.id.cmp(&b.id))
    });
    out.truncate(MAX_MATCHES);
    out
}

/// Determiners that open a descriptor; the demonstratives may name an item by its kind alone.
const DETERMINERS: &[&str] = &["the", "that", "this", "my", "our", "those", "these"];
const DEMONSTRATIVES: &[&str] = &["that", "this", "those", "these"];
/// Nouns that stand for any item: left out of the descriptor's words.
const GENERIC_NOUNS: &[&str] = &[
    "thing", "things", "stuff", "business", "one", "item", "task", "todo", "event",
];
/// Nouns that name a kind of item: kept among the descriptor's words.
const KIND_NOUNS: &[&str] = &[
    "appointment",
    "appt",
    "meeting",
    "call",
    "dinner",
    "lunch",
    "breakfast",
    "session",
    "class",
    "visit",
    "practice",
    "errand",
];
/// Words a descriptor's words stop at.
const STOPS: &[&str] = &[
    "to", "on", "at", "for", "by", "in", "is", "was", "and", "or", "with", "about", "from", "of",
    "a", "an", "the", "it", "be", "should", "now", "instead", "as",
];

/// The first descriptor of the message (see the module docs) and its referents among `items`.
pub(super) fn descriptor(
    p: &Lexed,
    items: &[PlannerItem],
    lang: Option<&RefWords>,
) -> Option<ReferenceReading> {
    let word_ok = |j: usize| {
        j < p.len()
            && !p.used[j]
            && p.w(j).chars().any(char::is_alphabetic)
            && !STOPS.contains(&p.w(j))
            && !DETERMINERS.contains(&p.w(j))
    };
    for i in 0..p.len() {
        let det = DETERMINERS.contains(&p.w(i)) && !p.used[i];
        if !det && i > 0 {
            continue;
        }
        let from = if det { i + 1 } else { i };
        // "the dentist thing", "the sam dinner", "that appointment"
        let mut j = from;
        while j < from + 4 && word_ok(j) {
            let w = p.w(j);
            let generic = GENERIC_NOUNS.contains(&w);
            let kind = KIND_NOUNS.contains(&w);
            if generic || kind {
                let mut words: Vec<String> = (from..j).map(|k| p.w(k).to_string()).collect();
                if kind {
                    words.push(w.to_string());
                }
                let demonstrative = DEMONSTRATIVES.contains(&p.w(i));
                let ok =
                    !words.is_empty() && (det || generic) && (j > from || generic || demonstrative);
                if ok {
                    // A kind noun after "the" is an ordinary title ("the water bill call")
                    // unless it names a known item.
                    let found = reference(p, i, j + 1, words, items, lang);
                    if generic || demonstrative || !found.ids.is_empty() {
                        return Some(found);
                    }
                }
                break;
            }
            j += 1;
        }
        // "the thing with the plumber"
        if det && GENERIC_NOUNS.contains(&p.w(from)) && !p.used[from] {
            let mut k = from + 1;
            if !matches!(p.w(k), "with" | "about" | "for" | "at" | "from" | "of") {
                continue;
            }
            k += 1;
            if matches!(p.w(k), "the" | "my" | "our") {
                k += 1;
            }
            let start = k;
            while k < start + 2 && word_ok(k) {
                k += 1;
            }
            if k > start {
                let words = (start..k).map(|x| p.w(x).to_string()).collect();
                return Some(reference(p, i, k, words, items, lang));
            }
        }
    }
    None
}

/// The referents of a descriptor's `words` said at words `i..j`.
fn reference(
    p: &Lexed,
    i: usize,
    j: usize,
    words: Vec<String>,
    items: &[PlannerItem],
    lang: Option<&RefWords>,
) -> ReferenceReading {
    let wanted: Vec<String> = words
        .iter()
        .map(|w| lang.map_or_else(|| stem(w), |l| (l.stem)(w)))
        .collect();
    let mut hits: Vec<(f64, &PlannerItem)> = items
        .iter()
        .filter_map(|it| {
            let title = stems(&it.title, lang);
            let all = wanted.iter().all(|w| {
                title
                    .iter()
                    .any(|t| t == w || prefix_hit(t, w, lang.map_or(4, |l| l.prefix)))
            });
            all.then(|| (wanted.len() as f64 / title.len().max(1) as f64, it))
        })
        .collect();
    hits.sort_by(|a, b| {
        b.0.total_cmp(&a.0)
            .then(a.1.title.len().cmp(&b.1.title.len()))
            .then_with(|| a.1.id.cmp(&b.1.id))
    });
    ReferenceReading {
        words,
        ids: hits.into_iter().map(|(_, it)| it.id.clone()).collect(),
        span: p.span(i, j),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stems_agree() {
        for (a, b) in [
            ("meetings", "meet"),
            ("meeting", "meet"),
            ("running", "run"),
            ("groceries", "grocery"),
            ("dishes", "dish"),
            ("walked", "walk"),
            ("mom's", "mom"),
            ("class", "class"),
            ("need", "need"),
        ] {
            assert_eq!(stem(a), stem(b), "{a} {b}");
        }
    }
}
