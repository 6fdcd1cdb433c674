//! When the narrowed path asks back instead of guessing (spec 002's clarify): which item a
//! message names ([`Target`]), whether it only names one ([`only_names`]), whether a request
//! to add says what ([`vague`]), and the options offered with the question ([`options`]). Pure.

use super::super::clarify::{rank_options, tokens, Ask};
use super::super::model::{ClarifyOption, PlannerItem};
use super::super::reading::{english_words, ItemMatch, Reading};
use super::words::words_of;
use crate::kernel::lang::Language;

/// The existing item a message names.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Target {
    /// One item, clearly.
    One(ItemMatch),
    /// Several fit about as well (their ids, best first), or a descriptor names none exactly
    /// (no ids).
    Unclear(Vec<String>),
    /// No item is named.
    Unnamed,
}

/// Words around a bare reference that say nothing more ("so, the insurance thing").
const AROUND_A_NAME: &[&str] = &[
    "the",
    "that",
    "this",
    "my",
    "our",
    "um",
    "uh",
    "so",
    "and",
    "what",
    "about",
    "re",
    "regarding",
    "hey",
    "ok",
    "okay",
    "oh",
    "also",
    "again",
    "thing",
    "things",
    "stuff",
    "one",
    "right",
    "yeah",
    "yes",
    "well",
    "hmm",
    "business",
];

/// German words around a bare reference ("also, das Zahnarzt-Ding", "wegen der Bücher").
const AROUND_A_NAME_DE: &[&str] = &[
    "das",
    "die",
    "der",
    "den",
    "dem",
    "des",
    "also",
    "ähm",
    "äh",
    "ach",
    "ja",
    "und",
    "wegen",
    "mit",
    "sache",
    "ding",
    "dings",
    "zeug",
    "thema",
    "bezüglich",
    "betreffend",
    "nochmal",
    "noch",
    "mal",
    "na",
    "gut",
    "ok",
    "okay",
    "hm",
    "hmm",
    "mein",
    "meine",
    "meinen",
    "was",
    "ist",
];

/// French words around a bare reference ("bon, les impôts", "à propos des livres").
const AROUND_A_NAME_FR: &[&str] = &[
    "le",
    "la",
    "les",
    "l",
    "du",
    "de",
    "des",
    "d",
    "bon",
    "euh",
    "ah",
    "oui",
    "et",
    "alors",
    "à",
    "propos",
    "truc",
    "histoire",
    "chose",
    "sujet",
    "concernant",
    "mon",
    "ma",
    "mes",
    "ok",
    "bref",
    "au",
    "fait",
    "quoi",
];

/// Spanish words around a bare reference ("bueno, la renta", "lo del dentista").
const AROUND_A_NAME_ES: &[&str] = &[
    "lo", "el", "la", "los", "las", "del", "de", "bueno", "eh", "ah", "sí", "si", "y", "sobre",
    "tema", "asunto", "cosa", "pues", "oye", "mi", "mis", "vale", "ok", "qué", "que", "pasa",
    "con",
];

/// The words of `lang` that say nothing around a bare reference, besides the English ones.
fn around_a_name(lang: Language) -> &'static [&'static str] {
    match lang {
        Language::De => AROUND_A_NAME_DE,
        Language::Fr => AROUND_A_NAME_FR,
        Language::Es => AROUND_A_NAME_ES,
        Language::En => &[],
    }
}

/// Whether the message only names an item ("that dentist bill thing", "anna's birthday gift",
/// "das Zahnarzt-Ding", "bueno, la renta"): outside a descriptor, or outside the best match's
/// title words, only words that say nothing. In German a word may be a part of a title's
/// compound ("Geschenk" of "Geburtstagsgeschenk") or hold one ("Bibliotheksbücher").
pub(super) fn only_names(message: &str, r: &Reading, lang: Language) -> bool {
    let quiet = |w: &str| {
        let w = lower_word(w, lang);
        AROUND_A_NAME.contains(&w.as_str()) || around_a_name(lang).contains(&w.as_str())
    };
    if let Some(d) = &r.reference {
        return words_of(message)
            .iter()
            .all(|(w, span)| (span.start >= d.span.start && span.end <= d.span.end) || quiet(w));
    }
    let Some(best) = r.matches.first() else {
        return false;
    };
    let title = tokens(&best.title);
    let compounds = lang == Language::De;
    let in_title = |w: &str| {
        title.iter().any(|t| {
            t == w
                || (w.len().min(t.len()) >= 4 && (t.starts_with(w) || w.starts_with(t.as_str())))
                || (compounds
                    && w.chars().count().min(t.chars().count()) >= 5
                    && (t.contains(w) || w.ends_with(t.as_str())))
        })
    };
    let words = tokens(message);
    !words.is_empty() && words.iter().all(|w| quiet(w) || in_title(w))
}

/// Words that say nothing of what to add ("add things", "plan my week", "let's plan the week
/// together"): fillers, periods, planning verbs. A message's words are also read as the
/// reading's English words ([`english_words`]), so these serve every language for the words its
/// table rewrites; [`vague_words`] holds each language's own.
const VAGUE: &[&str] = &[
    "thing",
    "things",
    "stuff",
    "something",
    "anything",
    "everything",
    "some",
    "item",
    "items",
    "task",
    "tasks",
    "todo",
    "todos",
    "week",
    "weekend",
    "day",
    "days",
    "month",
    "life",
    "schedule",
    "calendar",
    "plan",
    "plans",
    "planning",
    "help",
    "me",
    "my",
    "get",
    "organized",
    "organised",
    "organize",
    "organise",
    "sorted",
    "sort",
    "out",
    "more",
    "few",
    "couple",
    "a",
    "an",
    "the",
    "for",
    "to",
    "up",
    "of",
    "all",
    "please",
    "pls",
    "plz",
    "new",
    "i",
    "need",
    "want",
    "let's",
    "lets",
    "let",
    "us",
    "we",
    "our",
    "can",
    "could",
    "would",
    "you",
    "make",
    "fill",
    "put",
    "what",
    "holidays",
    "holiday",
    "vacation",
    "break",
    "together",
    "this",
    "next",
    "in",
    "on",
    "at",
    "it's",
    "is",
    "be",
    "do",
    "and",
];

/// German words that say nothing of what to add.
const VAGUE_DE: &[&str] = &[
    "was",
    "etwas",
    "irgendwas",
    "irgendetwas",
    "sache",
    "sachen",
    "ding",
    "dinge",
    "zeug",
    "kram",
    "paar",
    "ein",
    "eine",
    "einen",
    "einer",
    "einige",
    "mehr",
    "woche",
    "wochenende",
    "tag",
    "tage",
    "monat",
    "leben",
    "kalender",
    "plan",
    "planen",
    "plane",
    "planung",
    "hilf",
    "helfen",
    "hilfst",
    "mir",
    "mich",
    "mein",
    "meine",
    "meinen",
    "meinem",
    "uns",
    "unser",
    "unsere",
    "lass",
    "lasst",
    "organisier",
    "organisiere",
    "organisieren",
    "ordnen",
    "sortier",
    "mach",
    "mache",
    "machen",
    "füll",
    "fülle",
    "füllen",
    "fuell",
    "fuelle",
    "für",
    "fürs",
    "fuer",
    "die",
    "der",
    "das",
    "den",
    "dem",
    "des",
    "zu",
    "am",
    "an",
    "im",
    "bitte",
    "mal",
    "kannst",
    "du",
    "könntest",
    "koenntest",
    "feiertage",
    "ferien",
    "urlaub",
    "morgigen",
    "nächste",
    "nächsten",
    "naechste",
    "naechsten",
    "diese",
    "diesen",
    "dieses",
    "zusammen",
    "neue",
    "neues",
    "termine",
    "aufgaben",
    "aufgabe",
    "und",
    "wir",
    "ich",
    "brauche",
];

/// French words that say nothing of what to add (elided words are read without their "l'",
/// "m'", "d'").
const VAGUE_FR: &[&str] = &[
    "truc",
    "trucs",
    "chose",
    "choses",
    "quelque",
    "quelques",
    "un",
    "une",
    "des",
    "du",
    "de",
    "la",
    "le",
    "les",
    "mon",
    "ma",
    "mes",
    "notre",
    "nos",
    "me",
    "moi",
    "semaine",
    "week",
    "end",
    "weekend",
    "journée",
    "journee",
    "jour",
    "jours",
    "mois",
    "vie",
    "planning",
    "plan",
    "planifie",
    "planifier",
    "planifions",
    "organise",
    "organiser",
    "organisons",
    "aide",
    "aider",
    "peux",
    "pourrais",
    "tu",
    "pour",
    "à",
    "a",
    "remplis",
    "remplir",
    "fais",
    "faire",
    "vacances",
    "fêtes",
    "fetes",
    "ensemble",
    "on",
    "nous",
    "stp",
    "svp",
    "s'il",
    "te",
    "plaît",
    "plait",
    "prochaine",
    "prochain",
    "cette",
    "ce",
    "ces",
    "et",
    "je",
    "besoin",
    "autres",
    "nouveau",
    "nouvelle",
    "tâches",
    "taches",
    "agenda",
];

/// Spanish words that say nothing of what to add.
const VAGUE_ES: &[&str] = &[
    "cosa",
    "cosas",
    "algo",
    "unas",
    "unos",
    "un",
    "una",
    "el",
    "la",
    "los",
    "las",
    "lo",
    "de",
    "del",
    "mi",
    "mis",
    "me",
    "nos",
    "nuestro",
    "nuestra",
    "semana",
    "finde",
    "fin",
    "día",
    "dia",
    "días",
    "dias",
    "mes",
    "vida",
    "plan",
    "planea",
    "planear",
    "planifica",
    "planificar",
    "organiza",
    "organizar",
    "organízame",
    "organizame",
    "ayuda",
    "ayudas",
    "ayúdame",
    "ayudame",
    "ayudar",
    "a",
    "al",
    "para",
    "llena",
    "llenar",
    "haz",
    "hacer",
    "vacaciones",
    "fiestas",
    "juntos",
    "juntas",
    "vamos",
    "porfa",
    "por",
    "favor",
    "que",
    "viene",
    "próxima",
    "proxima",
    "próximo",
    "proximo",
    "este",
    "esta",
    "y",
    "yo",
    "necesito",
    "otras",
    "nuevas",
    "tareas",
    "agenda",
    "puedes",
];

/// Words that begin who a plan is with or for ("with the kids", "together"): what follows them
/// names no item, so what comes before must.
const COMPANY: &[&str] = &[
    "with", "together", "mit", "zusammen", "avec", "ensemble", "con", "juntos", "juntas",
];

/// The words of `lang` that say nothing of what to add, besides the English [`VAGUE`].
fn vague_words(lang: Language) -> &'static [&'static str] {
    match lang {
        Language::De => VAGUE_DE,
        Language::Fr => VAGUE_FR,
        Language::Es => VAGUE_ES,
        Language::En => &[],
    }
}

/// Words that stand for an item the message does not name.
const PRONOUNS: &[&str] = &["it", "that", "this", "them", "those", "these", "one"];

/// `text`'s words, lowercase, a French elision ("l'", "m'") read without its article.
fn lower_words(text: &str, lang: Language) -> Vec<String> {
    words_of(text)
        .into_iter()
        .map(|(w, _)| lower_word(&w, lang))
        .collect()
}

/// A word lowercase, a French elision ("l'", "m'", "d'") read without its article.
fn lower_word(w: &str, lang: Language) -> String {
    let w = w.to_lowercase();
    match (lang, w.split_once('\'')) {
        (Language::Fr, Some((head, rest))) if head.chars().count() <= 2 => rest.to_string(),
        _ => w,
    }
}

/// Whether `words` name nothing to add: each is a filler, a period, a planning verb or a
/// pronoun, or the words before a company word ("with the kids") all are.
fn says_nothing(words: &[String], lang: Language) -> bool {
    let quiet =
        |w: &str| VAGUE.contains(&w) || vague_words(lang).contains(&w) || PRONOUNS.contains(&w);
    let head = match words.iter().position(|w| COMPANY.contains(&w.as_str())) {
        Some(k) => &words[..k],
        None => words,
    };
    head.iter().all(|w| quiet(w))
}

/// What to ask about a new item's words (`title`: the reading's title guess, `None` when no
/// word was left; written in `lang`): which item, for a pronoun ("schedule it for friday");
/// what to add, when nothing says what ("add things", "plan my week", "plan my weekend with
/// the kids", "füg was für Freitag hinzu"); `None` when the words name something.
pub(super) fn vague(title: Option<&str>, lang: Language) -> Option<Ask> {
    let Some(title) = title else {
        return Some(Ask::WhatToAdd);
    };
    let own = lower_words(title, lang);
    let english: Vec<String> = english_words(title, lang)
        .split_whitespace()
        .map(str::to_string)
        .collect();
    if says_nothing(&own, lang) || (lang != Language::En && says_nothing(&english, lang)) {
        let pronoun = own
            .iter()
            .chain(&english)
            .any(|w| PRONOUNS.contains(&w.as_str()));
        return Some(if pronoun {
            Ask::WhichItem
        } else {
            Ask::WhatToAdd
        });
    }
    None
}

/// The options offered with a question: the items ranked by title match, then priority
/// (spec 002's clarify, [`rank_options`]), with the reading's own candidates (`first`) ahead in
/// that order.
pub(crate) fn options(
    message: &str,
    items: &[PlannerItem],
    first: &[String],
) -> Vec<ClarifyOption> {
    let option = |it: &PlannerItem| ClarifyOption {
        id: it.id.clone(),
        kind: it.kind,
        title: it.title.clone(),
        scheduled_for: it.scheduled_for.clone(),
    };
    let ranked = rank_options(message, &[], items);
    let candidates: Vec<PlannerItem> = items
        .iter()
        .filter(|it| first.contains(&it.id))
        .cloned()
        .collect();
    let mut out: Vec<ClarifyOption> = ranked
        .iter()
        .filter(|o| first.contains(&o.id))
        .cloned()
        .collect();
    for it in &candidates {
        if !out.iter().any(|o| o.id == it.id) {
            out.push(option(it));
        }
    }
    for o in ranked {
        if !out.iter().any(|x| x.id == o.id) {
            out.push(o);
        }
    }
    out
}
