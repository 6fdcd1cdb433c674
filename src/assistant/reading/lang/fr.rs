//! French words for the reading (see [`super`]): phrases and the English words they become.

use super::super::lex::Lexed;
use super::table::{Rewrite, Table};

pub(super) static TABLE: Table = Table {
    phrases: PHRASES,
    hook,
    conjunctions: CONJUNCTIONS,
};

const CONJUNCTIONS: &[&str] = &["et"];

/// Phrases, each with the English words it becomes (an empty string drops the words).
const PHRASES: &[(&str, &str)] = &[
    ("demain", "tomorrow"),
    ("apres demain", "in 2 days"),
    ("aujourd'hui", "today"),
];

/// What the table cannot say.
fn hook(_p: &Lexed, _i: usize) -> Option<Rewrite> {
    None
}
