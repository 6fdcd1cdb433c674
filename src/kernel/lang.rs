//! The languages the library reads and writes: a message's language comes from the app as a
//! BCP 47 tag (`de-DE`, `fr`, `es-419`); only its primary subtag decides. Pure.
//!
//! The readers of user text are code, so a language costs word tables and templates, not a
//! bigger model: the model's prompts stay English and titles keep the user's words. A tag the
//! library does not read (or no tag) is read as English, and results say which language was
//! read.

use std::fmt;

/// A language the library reads messages in and writes summaries, answers and questions in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Language {
    /// English (the default).
    #[default]
    En,
    /// German.
    De,
    /// French.
    Fr,
    /// Spanish.
    Es,
}

impl Language {
    /// Every language the library reads, English first.
    pub const ALL: [Language; 4] = [Language::En, Language::De, Language::Fr, Language::Es];

    /// The language of a BCP 47 tag (`"de-DE"`, `"fr_CA"`, `"ES"`), by its primary subtag;
    /// `None` when the library does not read that language.
    pub fn from_tag(tag: &str) -> Option<Language> {
        let primary = tag
            .trim()
            .split(['-', '_'])
            .next()
            .unwrap_or("")
            .to_ascii_lowercase();
        match primary.as_str() {
            "en" => Some(Language::En),
            "de" => Some(Language::De),
            "fr" => Some(Language::Fr),
            "es" => Some(Language::Es),
            _ => None,
        }
    }

    /// The language a request's optional tag is read in: the tag's when the library reads it,
    /// else English.
    pub fn read_as(tag: Option<&str>) -> Language {
        tag.and_then(Language::from_tag).unwrap_or_default()
    }

    /// The two-letter code (`en`, `de`, `fr`, `es`), as results report the language read.
    pub fn code(self) -> &'static str {
        match self {
            Language::En => "en",
            Language::De => "de",
            Language::Fr => "fr",
            Language::Es => "es",
        }
    }
}

impl fmt::Display for Language {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_are_read_by_their_primary_subtag() {
        assert_eq!(Language::from_tag("de-DE"), Some(Language::De));
        assert_eq!(Language::from_tag(" FR_ca "), Some(Language::Fr));
        assert_eq!(Language::from_tag("es-419"), Some(Language::Es));
        assert_eq!(Language::from_tag("en"), Some(Language::En));
        assert_eq!(Language::from_tag("pt-BR"), None);
        assert_eq!(Language::from_tag(""), None);
        assert_eq!(Language::read_as(Some("it")), Language::En);
        assert_eq!(Language::read_as(None), Language::En);
        assert_eq!(Language::read_as(Some("de")).code(), "de");
    }
}
