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
pub(crate) struct RefWords {
    /// Words left out of titles and messages ("der", "für", "mit").
    pub(crate) stop: &'static [&'static str],
    /// Words that name no item ("Ding", "Sache", "Aufgabe").
    pub(crate) generic: &'static [&'static str],
    /// A light stemmer, on a lowercase word.
    pub(crate) stem: fn(&str) -> String,
    /// Whether a word ending another ("Geschenk", "Geburtstagsgeschenk") counts.
    pub(crate) compounds: bool,
}

/// A word without case and accents ("Übermorgen" and "uebermorgen" stay different; "après" and
/// "apres" become one).
pub(crate) fn fold(word: &str) -> String {
    word.chars()
        .map(|c| match c {
            'à' | 'á' | 'â' | 'ä' | 'ã' => 'a',
            'è' | 'é' | 'ê' | 'ë' => 'e',
            'ì' | 'í' | 'î' | 'ï' => 'i',
            'ò' | 'ó' | 'ô' | 'ö' | 'õ' => 'o',
            'ù' | 'ú' | 'û' | 'ü' => 'u',
            'ç' => 'c',
            'ñ' => 'n',
            c => c,
        })
        .flat_map(char::to_lowercase)
        .collect()
}
