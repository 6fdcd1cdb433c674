//! [`OutputStage`], where validation of a model's output stopped: shared by the internal errors,
//! [`LlmError`](super::LlmError) and the public [`CoachError`](super::CoachError).

use std::fmt;

/// Where validation of a model's output stopped. Every answer passes the stages in this order.
///
/// In Rust an enum; across the FFI (`LlmError.InvalidOutput` in Kotlin, Swift and Python) and in
/// messages it is the word [`as_str`](Self::as_str) gives: `extract`, `parse`, `schema`, `domain`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum OutputStage {
    /// No JSON object was found in the text.
    Extract,
    /// The JSON is malformed or cut off.
    Parse,
    /// The JSON does not fit the expected shape (a wrong type, a missing or unknown field).
    Schema,
    /// The value breaks the feature's own rules (an id that does not exist, a number too large).
    Domain,
}

impl OutputStage {
    /// Every stage, in order.
    pub const ALL: [OutputStage; 4] = [Self::Extract, Self::Parse, Self::Schema, Self::Domain];

    /// The stage's word: `extract`, `parse`, `schema` or `domain`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Extract => "extract",
            Self::Parse => "parse",
            Self::Schema => "schema",
            Self::Domain => "domain",
        }
    }

    /// The stage named by `word` (as [`as_str`](Self::as_str) spells it).
    pub fn from_word(word: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.as_str() == word)
    }
}

impl fmt::Display for OutputStage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl PartialEq<str> for OutputStage {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for OutputStage {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

// Across the FFI a stage is its word, so the bindings keep a string field. A model implemented by
// the app that reports another word fails as `LlmError::Backend` ("app model failed").
uniffi::custom_type!(OutputStage, String, {
    lower: |stage| stage.as_str().to_string(),
    try_lift: |word| OutputStage::from_word(&word)
        .ok_or_else(|| uniffi::deps::anyhow::anyhow!("unknown output stage")),
});
