//! Spanish words for the reading (see [`super`]): phrases and the English words they become.

use super::super::lex::Lexed;
use super::table::{Rewrite, Table};

pub(super) static TABLE: Table = Table {
    phrases: PHRASES,
    hook,
    conjunctions: CONJUNCTIONS,
};

const CONJUNCTIONS: &[&str] = &["y", "e"];

/// Phrases, each with the English words it becomes (an empty string drops the words).
const PHRASES: &[(&str, &str)] = &[
    ("mañana", "tomorrow"),
    ("pasado mañana", "in 2 days"),
    ("hoy", "today"),
];

/// What the table cannot say.
fn hook(_p: &Lexed, _i: usize) -> Option<Rewrite> {
    None
}
