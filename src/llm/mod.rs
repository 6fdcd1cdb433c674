//! Everything about language-model output. Today: finding the JSON in what a model wrote
//! ([`extract`]). The on-device engine and the `LanguageModel` trait live here too once added.

pub mod extract;
