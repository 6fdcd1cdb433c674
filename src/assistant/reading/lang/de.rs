//! German words for the reading (see [`super`]): phrases and the English words they become.

use super::super::lex::Lexed;
use super::table::{Rewrite, Table};

pub(super) static TABLE: Table = Table {
    phrases: PHRASES,
    hook,
    conjunctions: CONJUNCTIONS,
    elisions: &[],
    title_stop_words: &[],
    stem: None,
};

const CONJUNCTIONS: &[&str] = &["und"];

/// Phrases, each with the English words it becomes (an empty string drops the words).
const PHRASES: &[(&str, &str)] = &[
    ("morgen", "tomorrow"),
    ("übermorgen|uebermorgen", "in 2 days"),
    ("heute", "today"),
];

/// What the table cannot say.
fn hook(_p: &Lexed, _i: usize) -> Option<Rewrite> {
    None
}
