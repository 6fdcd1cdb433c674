//! When the narrowed path asks back instead of guessing (spec 002's clarify): which item a
//! message names ([`Target`]), whether it only names one ([`only_names`]), whether a request
//! to add says what ([`vague`]), and the options offered with the question ([`options`]). Pure.

use super::super::clarify::{rank_options, tokens, Ask};
use super::super::model::{ClarifyOption, PlannerItem};
use super::super::reading::{ItemMatch, Reading};
use super::words::words_of;

/// The existing item a message names.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Target {
    /// One item, clearly.
    One(ItemMatch),
    /// Several fit about as well (their ids, best first), or a descriptor names none exactly
    /// (no ids).
    Unclear(Vec<String>),
    /// No item is named.
    Unnamed,
}

/// Words around a bare reference that say nothing more ("so, the insurance thing").
const AROUND_A_NAME: &[&str] = &[
    "the",
    "that",
    "this",
    "my",
    "our",
    "um",
    "uh",
    "so",
    "and",
    "what",
    "about",
    "re",
    "regarding",
    "hey",
    "ok",
    "okay",
    "oh",
    "also",
    "again",
    "thing",
    "things",
    "stuff",
    "one",
];

/// Whether the message only names an item ("that dentist bill thing", "anna's birthday gift"):
/// outside a descriptor, or outside the best match's title words, only words that say nothing.
pub(super) fn only_names(message: &str, r: &Reading) -> bool {
    let quiet = |w: &str| AROUND_A_NAME.contains(&w);
    if let Some(d) = &r.reference {
        return words_of(message).iter().all(|(w, span)| {
            (span.start >= d.span.start && span.end <= d.span.end) || quiet(&w.to_lowercase())
        });
    }
    let Some(best) = r.matches.first() else {
        return false;
    };
    let title = tokens(&best.title);
    let in_title = |w: &str| {
        title.iter().any(|t| {
            t == w || (w.len().min(t.len()) >= 4 && (t.starts_with(w) || w.starts_with(t.as_str())))
        })
    };
    let words = tokens(message);
    !words.is_empty() && words.iter().all(|w| quiet(w) || in_title(w))
}

/// Words that say nothing of what to add ("add things", "plan my week").
const VAGUE: &[&str] = &[
    "thing",
    "things",
    "stuff",
    "something",
    "anything",
    "everything",
    "some",
    "item",
    "items",
    "task",
    "tasks",
    "todo",
    "todos",
    "week",
    "weekend",
    "day",
    "days",
    "month",
    "life",
    "schedule",
    "calendar",
    "plan",
    "plans",
    "planning",
    "help",
    "me",
    "my",
    "get",
    "organized",
    "organised",
    "organize",
    "organise",
    "sorted",
    "sort",
    "out",
    "more",
    "few",
    "couple",
    "a",
    "an",
    "the",
    "for",
    "to",
    "up",
    "of",
    "all",
    "please",
    "new",
    "stuff",
    "i",
    "need",
    "want",
];
/// Words that stand for an item the message does not name.
const PRONOUNS: &[&str] = &["it", "that", "this", "them", "those", "these", "one"];

/// What to ask about a new item's words (`title`: the reading's title guess, `None` when no
/// word was left): which item, for a pronoun ("schedule it for friday"); what to add, when
/// nothing says what ("add things", "plan my week"); `None` when the words name something.
pub(super) fn vague(title: Option<&str>) -> Option<Ask> {
    let Some(title) = title else {
        return Some(Ask::WhatToAdd);
    };
    let words: Vec<String> = words_of(title)
        .into_iter()
        .map(|(w, _)| w.to_lowercase())
        .collect();
    if words
        .iter()
        .all(|w| PRONOUNS.contains(&w.as_str()) || VAGUE.contains(&w.as_str()))
    {
        let pronoun = words.iter().any(|w| PRONOUNS.contains(&w.as_str()));
        return Some(if pronoun {
            Ask::WhichItem
        } else {
            Ask::WhatToAdd
        });
    }
    None
}

/// The options offered with a question: the items ranked by title match, then priority
/// (spec 002's clarify, [`rank_options`]), with the reading's own candidates (`first`) ahead in
/// that order.
pub(crate) fn options(
    message: &str,
    items: &[PlannerItem],
    first: &[String],
) -> Vec<ClarifyOption> {
    let option = |it: &PlannerItem| ClarifyOption {
        id: it.id.clone(),
        kind: it.kind,
        title: it.title.clone(),
        scheduled_for: it.scheduled_for.clone(),
    };
    let ranked = rank_options(message, &[], items);
    let candidates: Vec<PlannerItem> = items
        .iter()
        .filter(|it| first.contains(&it.id))
        .cloned()
        .collect();
    let mut out: Vec<ClarifyOption> = ranked
        .iter()
        .filter(|o| first.contains(&o.id))
        .cloned()
        .collect();
    for it in &candidates {
        if !out.iter().any(|o| o.id == it.id) {
            out.push(option(it));
        }
    }
    for o in ranked {
        if !out.iter().any(|x| x.id == o.id) {
            out.push(o);
        }
    }
    out
}
