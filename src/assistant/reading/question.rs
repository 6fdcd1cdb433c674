//! Questions about the planner (issue 25): what a question asks, about which days and which
//! items, read from the message's words so that code can answer it ([`crate::assistant::answer`]).
//! Pure.
//!
//! The reader works on the reading's words: a German, French or Spanish message has been
//! rewritten into English reading words first (`reading/lang.rs`), so the word lists below are
//! English and a language's table makes its question words read ("wann" as `when`, "überfällig"
//! as `overdue`). Dates come from the reading's dates, items from its matches.
//!
//! ## What counts as a question about the planner
//! A message the reading takes as a question ([`Reading::question`]: ends with `?` or opens
//! with a question word, not a polite request), or a request to show something (`show`, `list`,
//! `tell` or `give` followed by `me`, `us`, `my`, `our`, `what`, `when`, `everything` or `all`,
//! also after "can you" / "please": "show me my week", "list my todos"; not "tell mom about the
//! party"; and "remind me what"), that one of the rules below reads. A message opening with a
//! command and asking no wh-question ("move the dentist to Friday?", "book a table for
//! Saturday?") is a request, not a question. Anything else (small talk, "how are you?") is not one: [`read_question`] gives `None`.
//!
//! ## What it asks, first rule that applies
//! 1. **when**: `when`, `what time`, `what day`, `which day`, `what date`, `how late`, `until
//!    when`, `by when` (not with `free`), or a yes/no question opening with `is` / `are` that
//!    names an item and no done word ("is the team meeting tomorrow?"). The item is the
//!    reading's best match; an unknown item is answered as not found.
//! 2. **overdue**: `overdue`, `late`, `behind`, `missed`, `miss`, `past due`.
//! 3. **done**: opens with `did`, `have`, `has`, `had`, says `was I` / `were we`, or `done`,
//!    `finished`, `complete`, `completed`, `already`, `yet`, or is a first-person report asked
//!    as a question ("I went running on Saturday?"), and names an item ("did I pay the
//!    electricity bill?").
//! 4. **left**: `left`, `remaining`, `still`, `else`, `open`, `outstanding`, `pending`, `yet to`,
//!    in a listing question.
//! 5. **busy**: `busy`, `packed`, `full`, `booked`, `free`, `hectic`, `quiet`, `slammed` (or
//!    `look(s/ing)`, `how many`, `how much` in a listing question), with a day, a period word
//!    (`week`, `day`, `weekend`, `schedule`, `calendar`, `agenda`), a kind word, or `I` / `my`.
//! 6. **agenda** (what is on a day or range): a date, or `schedule`, `calendar`, `agenda`,
//!    `plans`, `planned`, `plate`, `happening`, `upcoming`, `coming up`, `do I have`,
//!    `have I got`, `what's on`, or a kind word, in a listing question.
//!
//! A listing question says `what`, `which`, `any`, `anything`, `how`, `do I have`, `have I
//! got` or `is there` (anywhere: "next week, how is it looking?"), asks to be shown, or is a day and
//! nothing else ("and the day after tomorrow?"): "should I train today?" names a day but asks
//! for advice, and is left to the model.
//!
//! ## Days
//! The reading's dates, from the first day named to the last (a period's last day). Adjusted
//! for questions: "this week" is Monday to Sunday (the reading's "this week" starts today);
//! "week", "weekend" or "month" without a date is this week, this weekend or this month, and
//! "upcoming", "coming up", "next few days" the next 7 days; "the rest of" starts today; a past
//! question ("did I", "was I", "had I", "I went ...?") about a weekday alone means the last
//! one, not the next ("did I go running on Saturday?" on a Monday: two days ago). Without a date: agenda and busy mean today (agenda
//! about a kind, "which appointments do I have?", the next 7 days), left means today; when,
//! done and overdue have no days. Left never looks before today.
//!
//! ## Kinds
//! `appointment(s)`, `meeting(s)`, `event(s)`: events; `todo(s)`, `to-do(s)`, `task(s)`:
//! todos; `habit(s)`, `routine(s)`: habits. A question naming kinds is about those only.
//!
//! ## Items
//! For when and done, the reading's matches of the kinds asked about, the best one and those
//! scoring within [`TIE`] of it; of those, the ones matching a word of the message that the
//! others do not match, when any does ("when do I buy Anna's gift?": the gift, not "Buy milk");
//! two equally good matches are both answered ("when is my appointment?").

use super::lang;
use super::lex::Lexed;
use super::refs;
use super::{DateReading, Intent, ItemMatch, Reading, MAX_INPUT_CHARS};
use crate::assistant::date::Date;
use crate::assistant::model::ItemKind;
use crate::assistant::words::parse_weekday;
use crate::kernel::lang::Language;

/// Matches scoring within this of the best one are answered with it.
pub const TIE: f64 = 0.05;
/// Days an agenda question about a kind without a date looks ahead, today included.
pub const KIND_DAYS: i64 = 7;

/// What a question about the planner asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Asks {
    /// What is on a day or a range ("what do I have on Thursday?").
    Agenda,
    /// What is still to do ("what's left for today?").
    Left,
    /// When an item is ("when is my dentist appointment?").
    When,
    /// Whether an item is done ("did I pay the electricity bill?").
    Done,
    /// What is overdue.
    Overdue,
    /// How busy a day or a range is ("how busy is my week?").
    Busy,
}

/// A question about the planner, as its words say it (see the module docs).
#[derive(Debug, Clone, PartialEq)]
pub struct Question {
    /// What it asks.
    pub asks: Asks,
    /// The first and last day it is about (the same day for one day); absent for when, done
    /// and overdue questions that name no day.
    pub days: Option<(Date, Date)>,
    /// The kinds it is about; empty: every kind.
    pub kinds: Vec<ItemKind>,
    /// The items it names (when, done), best first; empty for the other questions, and when
    /// the item named is not in the planner.
    pub items: Vec<ItemMatch>,
}

const WHEN: &[&str] = &[
    "when",
    "when's",
    "whens",
    "what|which time|day|date",
    "how late",
    "until|till|by when",
];
const OVERDUE: &[&str] = &["overdue", "late", "behind", "missed", "miss", "past due"];
const DONE_OPENERS: &[&str] = &["did", "didn't", "have", "has", "had", "haven't", "hasn't"];
const DONE_WORDS: &[&str] = &[
    "done",
    "finished",
    "complete",
    "completed",
    "already",
    "yet",
    "checked",
    "ticked",
];
const LEFT: &[&str] = &[
    "left",
    "remaining",
    "remain",
    "still",
    "else",
    "open",
    "outstanding",
    "pending",
    "unfinished",
];
const BUSY: &[&str] = &[
    "busy", "packed", "full", "booked", "free", "hectic", "quiet", "slammed",
];
/// Busy words that need a listing question ("how's my week looking?").
const BUSY_LISTING: &[&str] = &["look", "looks", "looking", "many", "much"];
/// The words of a question asking for a listing ("what", "anything", "do I have"), anywhere in
/// it ("next week, how is it looking?").
const LISTING: &[&str] = &[
    "what|what's|whats|which|any|anything|how|how's|hows",
    "do|did|will i|we have",
    "have|got i|we got",
    "is|are there",
];
const PERIOD: &[&str] = &[
    "week", "weeks", "day", "days", "weekend", "schedule", "calendar", "agenda",
];
const AGENDA: &[&str] = &[
    "schedule",
    "calendar",
    "agenda",
    "plans",
    "planned",
    "plate",
    "happening",
    "upcoming",
    "coming up",
    "do|did|will i|we have",
    "have|got i|we got",
    "i've|ive got",
    "what's|whats on",
    "what is on",
];
/// The words around a day asked about alone ("and on Friday?", "what about tomorrow?"),
/// with the languages' own "and" a table may leave as it is.
/// Articles and fillers of the four languages around a bare name in a question ("and the
/// plumber?", "und der Klempner?", "et le plombier ?", "¿y el fontanero?").
const ARTICLES: &[&str] = &[
    "the", "my", "that", "der", "die", "das", "den", "dem", "mein", "meine", "le", "la", "les",
    "l", "mon", "ma", "el", "lo", "los", "las", "mi", "del", "de", "du", "des",
];
const ELLIPSIS: &[&str] = &[
    "and", "what", "about", "how", "then", "so", "also", "on", "for", "et", "und", "y",
];
const ASKING: &[&str] = &[
    "show|list|tell|give me|us|my|our|what|what's|whats|when|everything|all",
    "remind me what|what's|whats",
];
const POLITE: &[&str] = &["can", "could", "would", "will", "please", "pls", "you"];
const PAST: &[&str] = &["did", "didn't", "was", "were", "had"];
const KINDS: &[(&str, ItemKind)] = &[
    ("appointment", ItemKind::Event),
    ("appointments", ItemKind::Event),
    ("appt", ItemKind::Event),
    ("meeting", ItemKind::Event),
    ("meetings", ItemKind::Event),
    ("event", ItemKind::Event),
    ("events", ItemKind::Event),
    ("todo", ItemKind::Todo),
    ("todos", ItemKind::Todo),
    ("to-do", ItemKind::Todo),
    ("to-dos", ItemKind::Todo),
    ("task", ItemKind::Todo),
    ("tasks", ItemKind::Todo),
    ("habit", ItemKind::Habit),
    ("habits", ItemKind::Habit),
    ("routine", ItemKind::Habit),
    ("routines", ItemKind::Habit),
];

/// The question `reading` (of the words `p`) asks, as of `today`; `reported`: the words are a
/// first-person report of something done ("I went running on Saturday?"). See
/// [`super::read_question`].
pub(super) fn read(reading: &Reading, p: &Lexed, reported: bool, today: Date) -> Option<Question> {
    Words {
        p,
        reading,
        reported,
        today,
    }
    .question()
}

/// The words the reading reads: the first [`MAX_INPUT_CHARS`] characters of `message`, rewritten
/// from `lang` into the reading's English words.
pub(super) fn reading_words(message: &str, lang: Language) -> Lexed<'_> {
    let cut = message
        .char_indices()
        .nth(MAX_INPUT_CHARS)
        .map_or(message.len(), |(i, _)| i);
    let mut p = Lexed::new(&message[..cut]);
    lang::normalize(&mut p, lang);
    p
}

/// The message's words and its reading, asked about.
struct Words<'a> {
    p: &'a Lexed<'a>,
    reading: &'a Reading,
    reported: bool,
    today: Date,
}

impl Words<'_> {
    /// Whether a phrase of `pats` (see [`Lexed::seq`]) starts at any word.
    fn says(&self, pats: &[&str]) -> bool {
        (0..self.p.len()).any(|i| pats.iter().any(|pat| self.p.seq(i, pat).is_some()))
    }

    /// The first word after any polite opening ("can you", "please").
    fn opener(&self) -> usize {
        (0..self.p.len())
            .find(|&i| !POLITE.contains(&self.p.w(i)))
            .unwrap_or(0)
    }

    /// Whether the words ask to be shown something ("show me my week", "can you list my
    /// todos"; not "tell mom about the party").
    fn asks_to_see(&self) -> bool {
        let at = self.opener();
        ASKING.iter().any(|pat| self.p.seq(at, pat).is_some())
    }

    /// Whether the message opens with a command to add, change or delete and asks no wh-question
    /// ("move the dentist to Friday?", "book a table for Saturday?"): a request with a question
    /// mark, not a question ("I went running on Saturday?" asks whether it is done, "I need to
    /// buy the gift by when?" when).
    fn commands(&self) -> bool {
        if self.says(WHEN) || self.p.has_any(super::WH).is_some() {
            return false;
        }
        let first = self.p.t.first().map_or(0, |t| t.start);
        self.reading.cues.iter().any(|c| {
            matches!(
                c.intent,
                Intent::Create | Intent::Update | Intent::Delete | Intent::Goal
            ) && c.span.is_some_and(|s| s.start == first)
        })
    }

    /// Whether the message is days and nothing else ("and the day after tomorrow?", "friday?"):
    /// every word is in a date the reading read, or a joining word.
    fn only_days(&self) -> bool {
        let dates = &self.reading.dates;
        !dates.is_empty()
            && self.p.t.iter().all(|t| {
                ELLIPSIS.contains(&t.s.as_str())
                    || dates
                        .iter()
                        .any(|d| t.start >= d.span.start && t.end <= d.span.end)
            })
    }

    /// Whether the words name the best of `items` and nothing else: each word is in its title
    /// (or shares a 4-letter prefix with a title word), a joining word ([`ELLIPSIS`]) or an
    /// article ([`ARTICLES`]).
    fn only_names(&self, items: &[ItemMatch]) -> bool {
        let Some(best) = items.first() else {
            return false;
        };
        let title = refs::stems(&best.title, None);
        let words = refs::stems(self.p.text, None);
        let quiet = |w: &str| ELLIPSIS.contains(&w) || ARTICLES.contains(&w);
        let raw = refs::words(self.p.text);
        raw.iter().any(|w| !quiet(w))
            && words
                .iter()
                .all(|w| quiet(w) || title.iter().any(|t| t == w || refs::prefix_hit(t, w, 4)))
            && raw.iter().all(|w| {
                quiet(w)
                    || words.iter().any(|s| w.starts_with(s.as_str()))
                    || title.iter().any(|t| refs::prefix_hit(t, w, 4))
            })
    }

    fn kinds(&self) -> Vec<ItemKind> {
        let mut out: Vec<ItemKind> = Vec::new();
        for i in 0..self.p.len() {
            if let Some((_, k)) = KINDS.iter().find(|(w, _)| *w == self.p.w(i)) {
                if !out.contains(k) {
                    out.push(*k);
                }
            }
        }
        out
    }

    /// The reading's matches of `kinds` (all when empty): the best and those tied with it; of
    /// tied ones, those matching a word of the message no other tied one matches ("Anna's
    /// gift" over "Buy milk" when both share "buy"), when any does.
    fn items(&self, kinds: &[ItemKind]) -> Vec<ItemMatch> {
        let fits = |m: &&ItemMatch| {
            m.kind != ItemKind::Goal && (kinds.is_empty() || kinds.contains(&m.kind))
        };
        let Some(best) = self.reading.matches.iter().find(fits) else {
            return Vec::new();
        };
        let tied: Vec<ItemMatch> = self
            .reading
            .matches
            .iter()
            .filter(fits)
            .filter(|m| m.score + TIE >= best.score)
            .cloned()
            .collect();
        if tied.len() < 2 {
            return tied;
        }
        let message = refs::stems(self.p.text, None);
        let hits: Vec<Vec<&String>> = tied
            .iter()
            .map(|m| {
                let title = refs::stems(&m.title, None);
                message
                    .iter()
                    .filter(|w| title.iter().any(|t| t == *w || refs::prefix_hit(t, w, 4)))
                    .collect()
            })
            .collect();
        let distinct: Vec<ItemMatch> = tied
            .iter()
            .zip(&hits)
            .enumerate()
            .filter(|(i, (_, h))| {
                h.iter().any(|w| {
                    hits.iter()
                        .enumerate()
                        .all(|(j, other)| j == *i || !other.contains(w))
                })
            })
            .map(|(_, (m, _))| m.clone())
            .collect();
        if distinct.is_empty() {
            tied
        } else {
            distinct
        }
    }

    /// The words of a date reading (the rewritten ones within its span).
    fn date_words(&self, d: &DateReading) -> Vec<&str> {
        self.p
            .t
            .iter()
            .filter(|t| t.start >= d.span.start && t.end <= d.span.end)
            .map(|t| t.s.as_str())
            .collect()
    }

    fn question(&self) -> Option<Question> {
        let p = self.p;
        let asks_to_see = self.asks_to_see();
        if p.len() == 0
            || !(self.reading.question || asks_to_see)
            || (self.commands() && !asks_to_see)
        {
            return None;
        }
        let kinds = self.kinds();
        let first = p.w(self.opener());
        let dated = !self.reading.dates.is_empty();
        let items = self.items(&kinds);
        let says_done = p.has_any(DONE_WORDS).is_some();
        let free = p.has_any(&["free"]).is_some();
        let listing = asks_to_see || self.says(LISTING) || self.only_days();
        let asks = if (self.says(WHEN) && !free)
            || (matches!(first, "is" | "are") && !items.is_empty() && !says_done)
        {
            Asks::When
        } else if self.says(OVERDUE) {
            Asks::Overdue
        } else if (DONE_OPENERS.contains(&first)
            || self.says(&["was|were i|we"])
            || says_done
            || self.reported)
            && !items.is_empty()
        {
            Asks::Done
        } else if (p.has_any(LEFT).is_some() || self.says(&["yet to"])) && listing {
            Asks::Left
        } else if (p.has_any(BUSY).is_some() || (p.has_any(BUSY_LISTING).is_some() && listing))
            && (dated
                || p.has_any(PERIOD).is_some()
                || !kinds.is_empty()
                || p.has_any(&["i", "my", "me", "i'm", "im"]).is_some())
        {
            Asks::Busy
        } else if (dated || self.says(AGENDA) || !kinds.is_empty()) && listing {
            Asks::Agenda
        } else if self.reading.question && self.only_names(&items) {
            // "and the plumber?", "und der Klempner?", "¿y el fontanero?": when is it.
            Asks::When
        } else {
            return None;
        };
        let items = match asks {
            Asks::When | Asks::Done => items,
            _ => Vec::new(),
        };
        Some(Question {
            asks,
            days: self.days(asks, !kinds.is_empty()),
            kinds,
            items,
        })
    }

    /// The days asked about (see the module docs).
    fn days(&self, asks: Asks, about_kinds: bool) -> Option<(Date, Date)> {
        let today = self.today;
        let week = (today.week_start(), today.week_start().add_days(6));
        let past = PAST.contains(&self.p.w(self.opener()))
            || self.p.has_any(&["did"]).is_some()
            || self.reported;
        let mut span: Option<(Date, Date)> = None;
        for d in &self.reading.dates {
            let Some(mut from) = Date::parse(&d.date) else {
                continue;
            };
            let mut to = d.through.as_deref().and_then(Date::parse).unwrap_or(from);
            let words = self.date_words(d);
            if words.contains(&"week") && from == today && to == week.1 {
                from = week.0;
            }
            let lone_weekday = d.through.is_none()
                && words.iter().any(|w| weekday(w))
                && from > today
                && today.days_until(from) <= 7;
            if past && lone_weekday {
                from = from.add_days(-7);
                to = from;
            }
            span = Some(match span {
                Some((a, b)) => (a.min(from), b.max(to)),
                None => (from, to),
            });
        }
        if span.is_none() {
            let has = |w: &str| self.p.has_any(&[w]).is_some();
            if has("weekend") {
                let sat = week.0.add_days(5);
                span = Some((sat.max(today), week.1));
            } else if has("week") {
                span = Some(week);
            } else if has("month") {
                let (y, m, _) = today.ymd();
                let first = Date::from_ymd(y, m, 1).unwrap_or(today);
                let next = Date::from_ymd(y + i32::from(m == 12), m % 12 + 1, 1);
                span = Some((first, next.map_or(today, |n| n.add_days(-1))));
            } else if self.says(&["upcoming", "coming up", "next few days"]) {
                span = Some((today, today.add_days(KIND_DAYS - 1)));
            }
        }
        // "the rest of the week": from today.
        if let (Some((a, b)), true) = (span, self.says(&["rest of"])) {
            span = Some((a.max(today), b.max(today)));
        }
        let span = match (span, asks) {
            (Some(s), _) => Some(s),
            (None, Asks::Agenda) if about_kinds => Some((today, today.add_days(KIND_DAYS - 1))),
            (None, Asks::Agenda | Asks::Busy | Asks::Left) => Some((today, today)),
            (None, _) => None,
        };
        match (span, asks) {
            (Some((a, b)), Asks::Left) => Some((a.max(today), b.max(today))),
            (s, _) => s,
        }
    }
}

/// Whether `w` is a weekday's name or its abbreviation of at least three letters (the reading's
/// English words; "we" and "do" are words, not days).
fn weekday(w: &str) -> bool {
    w.len() >= 3 && parse_weekday(w).is_some()
}

/// What a message that asks nothing of the planner says, for a short code-made reply when the
/// model's cannot be used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SmallTalk {
    /// Thanks ("thanks!", "danke", "merci", "gracias").
    Thanks,
    /// A greeting ("hi", "hallo", "bonjour", "hola").
    Greeting,
    /// Anything else.
    Other,
}

/// Thanks in the reading's words, and in the languages' own words a table may leave as they are.
const THANKS: &[&str] = &[
    "thanks", "thank", "thx", "ty", "cheers", "danke", "merci", "gracias",
];
const GREETINGS: &[&str] = &[
    "hi", "hello", "hey", "morning", "evening", "hallo", "moin", "servus", "bonjour", "salut",
    "coucou", "hola", "buenas", "buenos",
];

/// Reads `message`, written in `lang`, as small talk (see [`SmallTalk`]).
pub fn read_small_talk(message: &str, lang: Language) -> SmallTalk {
    let p = reading_words(message, lang);
    if p.has_any(THANKS).is_some() {
        SmallTalk::Thanks
    } else if p.has_any(GREETINGS).is_some() {
        SmallTalk::Greeting
    } else {
        SmallTalk::Other
    }
}
