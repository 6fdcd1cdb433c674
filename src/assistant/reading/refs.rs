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
//! shorter title, then id. "the milk thing" matches "Buy milk" at 0.5.
//!
//! A message in another language is matched with that language's words (`reading/lang/`): its
//! articles, prepositions, pronouns and generic words ("le", "de", "truc"; "el", "lo", "cosa")
//! are left out on both sides, and French and Spanish words are reduced without accents and
//! without their plural and a verb or noun ending ("appelé" and "appeler" agree, "courir" and
//! "course", "meditado" and "meditar"), so that "j'ai médité" names "Méditer".

use std::collections::BTreeSet;

use super::lang::{fold, title_words};
use super::ItemMatch;
use crate::assistant::clarify::tokens;
use crate::assistant::model::PlannerItem;
use crate::kernel::lang::Language;

/// Items scoring below this are not offered as references.
pub const MATCH_THRESHOLD: f64 = 0.3;
/// At most this many references are kept.
pub const MAX_MATCHES: usize = 3;

const GENERIC: &[&str] = &[
    "thing", "things", "stuff", "item", "items", "task", "todo", "event", "habit", "goal",
];

/// A light stemmer: plural, then "-ing" / "-ed", with a doubled final consonant undone.
fn stem(w: &str) -> String {
    let w = w.strip_suffix("'s").unwrap_or(w);
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

fn stems(text: &str, lang: Language) -> Vec<String> {
    let (stop, lang_stem) = title_words(lang);
    let stem_of = |t: &String| lang_stem.map_or_else(|| stem(t), |f| f(t));
    let all = tokens(text);
    let kept: Vec<String> = all
        .iter()
        .filter(|t| !GENERIC.contains(&t.as_str()) && !stop.contains(&fold(t).as_str()))
        .map(stem_of)
        .collect();
    if kept.is_empty() {
        all.iter().map(stem_of).collect()
    } else {
        kept
    }
}

fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|t| !t.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// Whether two stems share a prefix of at least 4 letters that is all of the shorter one or all
/// but its last letter ("renew" and "renewal", "meditate" and "meditation"). Stems of a
/// language's own stemmer are shorter: they must share 5 letters ("practic" and "practiqu",
/// not "medic" and "medit", nor "medi" and "medit").
fn prefix_hit(a: &str, b: &str, short_stems: bool) -> bool {
    let common = a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count();
    let shorter = a.len().min(b.len());
    let least = if short_stems { 5 } else { 4 };
    common >= least && common + 1 >= shorter
}

/// The score of one title against the message's stems and words (see the module docs).
pub(super) fn score(
    title: &str,
    msg: &BTreeSet<String>,
    msg_words: &[String],
    lang: Language,
) -> f64 {
    let tw = words(title);
    if !tw.is_empty() && msg_words.windows(tw.len()).any(|w| w == tw.as_slice()) {
        return 1.0;
    }
    let title: BTreeSet<String> = stems(title, lang).into_iter().collect();
    let short_stems = title_words(lang).1.is_some();
    if title.is_empty() {
        return 0.0;
    }
    let mut sum = 0.0;
    for t in &title {
        if msg.contains(t) {
            sum += 1.0;
        } else if msg.iter().any(|m| prefix_hit(m, t, short_stems)) {
            sum += 0.7;
        }
    }
    sum / title.len() as f64
}

/// The items `message`, written in `lang`, seems to name, best first.
pub(super) fn rank(message: &str, items: &[PlannerItem], lang: Language) -> Vec<ItemMatch> {
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
