//! The shape of a language's words for the reading (see [`super`]), and the folding every
//! language's words are matched with.

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
    /// Elided words split off the word they lean on before anything is rewritten, so that each
    /// keeps its own byte range (French "l'" of "l'objectif", "d'" of "d'appeler").
    pub(super) elisions: &'static [&'static str],
    /// Words a title match leaves out (articles, prepositions, pronouns, and generic words such
    /// as "truc" or "cosa"), folded (`reading/refs.rs`).
    pub(super) title_stop_words: &'static [&'static str],
    /// How a word of a title and of the message is reduced before they are compared; `None`:
    /// the English stemmer of `reading/refs.rs`.
    pub(super) stem: Option<fn(&str) -> String>,
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
