//! The shape of a language's words for the reading (see [`super`]).

use super::super::lex::Lexed;

/// A rewrite found by a language's hook: the words `i..end` become `words`.
pub(super) struct Rewrite {
    pub(super) end: usize,
    pub(super) words: Vec<String>,
}

/// What a language gives the reading.
pub(super) struct Table {
    /// Phrases and the English words they become.
    pub(super) phrases: &'static [(&'static str, &'static str)],
    /// Rules a table cannot say, tried at each word before the phrases.
    pub(super) hook: fn(&Lexed, usize) -> Option<Rewrite>,
    /// The words joining two requests in one message ("und", "et", "y"), for splitting.
    pub(super) conjunctions: &'static [&'static str],
}
