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

/// What matching references (`reading/refs.rs`) needs of a language whose titles are written in
/// it: its stop words and generic words (left out on both sides), its stemmer, and whether its
/// nouns compound ("Zahnarzttermin": a word that ends another counts as half a match).
pub(in crate::assistant::reading) struct RefWords {
    /// Words left out of titles and messages ("der", "für", "mit").
    pub(in crate::assistant::reading) stop: &'static [&'static str],
    /// Words that name no item ("Ding", "Sache", "Aufgabe").
    pub(in crate::assistant::reading) generic: &'static [&'static str],
    /// A light stemmer, on a lowercase word.
    pub(in crate::assistant::reading) stem: fn(&str) -> String,
    /// Whether a word ending another ("Geschenk", "Geburtstagsgeschenk") counts.
    pub(in crate::assistant::reading) compounds: bool,
}
