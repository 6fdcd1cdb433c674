//! Clarifying questions: the question to ask and the candidate items to offer, ranked by a fuzzy
//! match of their titles against the message and the router's entities. Pure.
//!
//! ## Ranking
//! Text is split into tokens: lowercase runs of letters and digits (any script); tokens of one
//! character and common English stop words ("the", "my", "to", "on", ...) are dropped. Each
//! candidate scores, for every distinct token of its title:
//! - 2 when the query holds the same token;
//! - else 1 when one is a prefix of the other and the shorter has at least 3 characters
//!   (`run` matches `running`, `meet` matches `meeting`).
//!
//! Candidates scoring more than 0 are ranked by score (highest first), then priority (high
//! first), then date (earliest first, undated last), then title (case-insensitive), then id. When
//! no candidate matches at all, the same order without the score is used, so the user still gets
//! something to pick from. At most [`MAX_OPTIONS`] are offered.
//!
//! ## Questions code asks
//! The router's question is the model's; the questions code asks itself (the narrowed path, the
//! full proposal past its time budget or left with no supported change) come from the templates
//! of the user's language (`phrasing/`), one per reason ([`Ask`], `clarify/ask.rs`), with
//! [`ask_in`].

use std::cmp::Ordering;
use std::collections::BTreeSet;

use super::model::{Clarification, ClarifyOption, PlannerItem, Priority, Route};
use crate::kernel::lang::Language;

mod ask;

pub use ask::Ask;

/// The most options offered with one question.
pub const MAX_OPTIONS: usize = 5;
/// The longest question kept from the model, in characters.
pub const MAX_QUESTION_CHARS: usize = 200;

const STOP_WORDS: &[&str] = &[
    "a", "about", "add", "after", "again", "all", "am", "an", "and", "any", "are", "as", "at",
    "be", "before", "but", "by", "can", "could", "do", "does", "for", "from", "get", "have", "i",
    "in", "into", "is", "it", "its", "me", "move", "my", "need", "of", "on", "one", "or", "please",
    "put", "set", "so", "some", "that", "the", "their", "them", "then", "this", "to", "up", "us",
    "want", "was", "we", "what", "when", "which", "will", "with", "would", "you", "your",
];

/// The tokens of `text`: lowercase alphanumeric runs, without stop words and one-letter tokens.
pub fn tokens(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|t| !t.is_empty())
        .map(str::to_lowercase)
        .filter(|t| t.chars().count() > 1 && !STOP_WORDS.contains(&t.as_str()))
        .collect()
}

/// How well a title matches the query tokens (see the module docs).
pub fn score(title: &str, query: &BTreeSet<String>) -> u32 {
    let title: BTreeSet<String> = tokens(title).into_iter().collect();
    title
        .iter()
        .map(|t| {
            if query.contains(t) {
                2
            } else if query.iter().any(|q| prefix_match(q, t)) {
                1
            } else {
                0
            }
        })
        .sum()
}

fn prefix_match(a: &str, b: &str) -> bool {
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    short.chars().count() >= 3 && long.starts_with(short)
}

fn priority_rank(p: Priority) -> u8 {
    match p {
        Priority::High => 0,
        Priority::Medium => 1,
        Priority::Low => 2,
    }
}

fn tie_break(a: &PlannerItem, b: &PlannerItem) -> Ordering {
    priority_rank(a.priority)
        .cmp(&priority_rank(b.priority))
        .then_with(|| match (&a.scheduled_for, &b.scheduled_for) {
            (Some(x), Some(y)) => x.cmp(y),
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (None, None) => Ordering::Equal,
        })
        .then_with(|| a.title.to_lowercase().cmp(&b.title.to_lowercase()))
        .then_with(|| a.id.cmp(&b.id))
}

/// The best [`MAX_OPTIONS`] candidates for `message` and `entities`, best first.
pub fn rank_options(
    message: &str,
    entities: &[String],
    candidates: &[PlannerItem],
) -> Vec<ClarifyOption> {
    let query: BTreeSet<String> = std::iter::once(message)
        .chain(entities.iter().map(String::as_str))
        .flat_map(tokens)
        .collect();
    let mut scored: Vec<(u32, &PlannerItem)> = candidates
        .iter()
        .map(|c| (score(&c.title, &query), c))
        .collect();
    if scored.iter().any(|(s, _)| *s > 0) {
        scored.retain(|(s, _)| *s > 0);
    }
    scored.sort_by(|(sa, a), (sb, b)| sb.cmp(sa).then_with(|| tie_break(a, b)));
    scored
        .into_iter()
        .take(MAX_OPTIONS)
        .map(|(_, c)| ClarifyOption {
            id: c.id.clone(),
            kind: c.kind,
            title: c.title.clone(),
            scheduled_for: c.scheduled_for.clone(),
        })
        .collect()
}

/// The question: the router's own (whitespace collapsed, at most [`MAX_QUESTION_CHARS`]
/// characters) when it wrote one, else a default that fits whether there are options.
pub fn question(route: Option<&Route>, has_options: bool) -> String {
    let own = route
        .and_then(|r| r.question.as_deref())
        .map(|q| q.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|q| q.chars().any(char::is_alphanumeric));
    match own {
        Some(q) if q.chars().count() <= MAX_QUESTION_CHARS => q,
        Some(q) => {
            let mut cut: String = q.chars().take(MAX_QUESTION_CHARS - 1).collect();
            cut.push('…');
            cut
        }
        None if has_options => "Which one do you mean?".into(),
        None => "Could you say which item and which day you mean?".into(),
    }
}

/// The clarification code asks for `ask`, in `lang`, offering `options` (at most
/// [`MAX_OPTIONS`] kept).
pub fn ask_in(lang: Language, ask: &Ask, mut options: Vec<ClarifyOption>) -> Clarification {
    options.truncate(MAX_OPTIONS);
    Clarification {
        question: ask::question(lang, ask),
        options,
    }
}

/// The clarification for a message: question and ranked options.
pub fn clarify(message: &str, route: Option<&Route>, candidates: &[PlannerItem]) -> Clarification {
    let entities = route.map_or(&[][..], |r| &r.entities[..]);
    let options = rank_options(message, entities, candidates);
    Clarification {
        question: question(route, !options.is_empty()),
        options,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assistant::model::{ItemKind, RouteDecision};

    fn item(id: &str, title: &str, priority: Priority, date: Option<&str>) -> PlannerItem {
        PlannerItem {
            priority,
            ..PlannerItem::sample(ItemKind::Todo, id, title, date)
        }
    }

    fn ids(options: &[ClarifyOption]) -> Vec<&str> {
        options.iter().map(|o| o.id.as_str()).collect()
    }

    #[test]
    fn tokenizes_lowercase_alphanumerics_without_stop_words() {
        assert_eq!(
            tokens("Move my Dentist-appointment to 3pm, please! Café x"),
            vec!["dentist", "appointment", "3pm", "café"]
        );
        assert!(tokens("to the of a").is_empty());
    }

    #[test]
    fn exact_tokens_beat_prefixes_and_no_match_is_dropped() {
        let q: BTreeSet<String> = tokens("the running meeting").into_iter().collect();
        assert_eq!(score("Team meeting", &q), 2);
        assert_eq!(score("Run", &q), 1);
        assert_eq!(score("Meet", &q), 1);
        assert_eq!(score("Re", &q), 0, "too short for a prefix");
        assert_eq!(score("Buy milk", &q), 0);
        let cands = [
            item("1", "Buy milk", Priority::High, None),
            item("2", "Run", Priority::Low, None),
            item("3", "Team meeting", Priority::Low, None),
            item("4", "Meeting notes meeting", Priority::Low, None),
        ];
        // "Meeting notes meeting" has one distinct matching token: same score as "Team meeting".
        assert_eq!(
            ids(&rank_options("the running meeting", &[], &cands)),
            vec!["4", "3", "2"]
        );
    }

    #[test]
    fn ties_break_by_priority_then_date_then_title() {
        let cands = [
            item("a", "Call dentist", Priority::Low, Some("2026-11-20")),
            item("b", "dentist bill", Priority::Medium, None),
            item("c", "Dentist", Priority::Medium, Some("2026-11-25")),
            item("d", "Dentist", Priority::Medium, Some("2026-11-22")),
            item("e", "Dentist", Priority::High, None),
            item("f", "Book dentist", Priority::Medium, Some("2026-11-22")),
        ];
        let got = rank_options("dentist", &[], &cands);
        assert_eq!(ids(&got), vec!["e", "f", "d", "c", "b"]);
        assert_eq!(got.len(), MAX_OPTIONS);
        assert_eq!(got[0].kind, ItemKind::Todo);
        assert_eq!(got[1].scheduled_for.as_deref(), Some("2026-11-22"));
    }

    #[test]
    fn entities_count_and_no_match_falls_back_to_priority_order() {
        let cands = [
            item("1", "Buy milk", Priority::Low, None),
            item("2", "Gym", Priority::High, None),
            item("3", "Taxes", Priority::Medium, Some("2026-11-30")),
        ];
        assert_eq!(
            ids(&rank_options("change it", &["taxes".into()], &cands)),
            vec!["3"]
        );
        assert_eq!(
            ids(&rank_options("change it", &[], &cands)),
            vec!["2", "3", "1"]
        );
        assert!(rank_options("anything", &[], &[]).is_empty());
    }

    fn route(question: Option<&str>) -> Route {
        Route {
            decision: RouteDecision::Clarify,
            model_decision: RouteDecision::Clarify,
            category: "schedule".into(),
            entities: vec!["milk".into()],
            missing: vec!["date".into()],
            confidence: 0.3,
            question: question.map(str::to_string),
        }
    }

    #[test]
    fn questions_come_from_the_router_or_a_default() {
        assert_eq!(
            question(Some(&route(Some("  Which\n day? "))), true),
            "Which day?"
        );
        assert_eq!(
            question(Some(&route(Some(" ?? "))), true),
            "Which one do you mean?"
        );
        assert_eq!(
            question(None, false),
            "Could you say which item and which day you mean?"
        );
        let long = "why ".repeat(100);
        let q = question(Some(&route(Some(&long))), true);
        assert_eq!(q.chars().count(), MAX_QUESTION_CHARS);
        assert!(q.ends_with('…'));
        let c = clarify(
            "move it",
            Some(&route(None)),
            &[item("m", "Buy milk", Priority::Low, None)],
        );
        assert_eq!(c.question, "Which one do you mean?");
        assert_eq!(ids(&c.options), vec!["m"]);
    }
}
