//! A deterministic reading of an assistant message (issue 10, section 2): what code can know for
//! sure about a message before any model sees it. Pure: the message, `today` and the user's items
//! come in, a [`Reading`] comes out; no store, no model, no clock.
//!
//! The reading finds, each with the byte range of the message it came from:
//! - the **intent** cues (create, complete, un-complete, delete, update, goal, nothing to do);
//! - the **kind** stated or implied (event, habit, goal; todo otherwise);
//! - **dates**, **recurrence**, **priority** (rules in `reading/when.rs`), **times and ranges**
//!   (`reading/time.rs`);
//! - **references** to existing items, by a fuzzy title match (`reading/refs.rs`);
//! - a **title** guess for a new item: the message minus cue words, dates, times, recurrence and
//!   priority phrases ("Remind me to call mom tomorrow at 5" gives "Call mom").
//!
//! Only the first [`MAX_INPUT_CHARS`] characters are read. The reading never guesses what it
//! cannot know: a vague "in the morning" leaves the time unset, an ambiguous "12/01" is skipped.
//!
//! ## Intent rules
//! A question (ending with `?`, or opening with a question word such as "what", "when", "do I",
//! "is") asks for information and reads as [`Intent::Nothing`], unless it is a polite request
//! ("can you", "could you", "would you", "will you", "please"). Otherwise the first cue in the
//! message decides, except that a goal cue ("goal", "I want to ... by DATE") wins over a
//! create cue (and a goal cue next to a delete or update cue gives the delete or update: "delete
//! the vacation goal"). Without any cue, a message with a date, time, recurrence or priority and
//! no question word reads as an implied create (its cue has no span); thanks, greetings and "ok"
//! read as nothing; anything else is left to the model (`intent` absent).

use std::collections::HashSet;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use super::date::Date;
use super::model::{ItemKind, PlannerItem, Priority, Recurrence};

mod refs;
mod time;
mod when;
mod words;

use words::*;

pub use refs::{MATCH_THRESHOLD, MAX_MATCHES};

/// Only this many characters of a message are read; the rest is ignored.
pub const MAX_INPUT_CHARS: usize = 2_000;

/// A byte range `start..end` of the message (of its first [`MAX_INPUT_CHARS`] characters).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Span {
    /// First byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
}

/// What the user wants done, as the words say it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Intent {
    /// Add something: "remind me to", "add", "schedule", "I need to", or implied by a date.
    Create,
    /// Mark something done: "mark X as done", "I finished", "done with", "I did".
    Complete,
    /// Mark something not done: "mark X as not done", "undo", "reopen", "didn't finish".
    Uncomplete,
    /// Remove something: "remove", "delete", "cancel", "get rid of".
    Delete,
    /// Change something: "move X to", "reschedule", "change", "rename", "push back".
    Update,
    /// Set or change a goal: "goal", "I want to ... by DATE".
    Goal,
    /// Nothing to change: questions, thanks, greetings.
    Nothing,
}

/// One intent cue: the words that signal an intent.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct IntentCue {
    /// The intent.
    pub intent: Intent,
    /// Where it was said; absent when implied (a create implied by a date, nothing by a question).
    pub span: Option<Span>,
}

/// The kind of item the message is about, when stated or implied.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct KindCue {
    /// The kind: event for "meeting", "appointment", "dinner", a time range or a duration; habit
    /// for a recurrence with an activity ("run", "meditate", "read" ...) or the word "habit";
    /// goal for a goal cue; todo otherwise.
    pub kind: ItemKind,
    /// The words that imply it; absent for the todo default.
    pub span: Option<Span>,
}

/// How a date is attached to the rest of the message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DateRole {
    /// The day something happens ("tomorrow", "on Friday", "to Thursday").
    On,
    /// A deadline ("by Friday", "before December 1", "due Monday").
    By,
    /// The end of a recurrence ("until June 1").
    Until,
}

/// A date the message names.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DateReading {
    /// The date (`YYYY-MM-DD`); the first day of a period ("next week": its Monday).
    pub date: String,
    /// The last day of a period ("next week", "this weekend", "next month"), else absent.
    pub through: Option<String>,
    /// How it is attached.
    pub role: DateRole,
    /// Where it was said (with its preposition: "on Friday").
    pub span: Span,
}

/// A time of day or a time range the message names.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TimeReading {
    /// The (start) time, `HH:MM`; absent when only a duration was said.
    pub time: Option<String>,
    /// The end time, `HH:MM`, from a range ("2-3pm") or from the start plus a duration.
    pub end_time: Option<String>,
    /// A duration said ("for 45 minutes"), in minutes.
    pub duration_minutes: Option<u32>,
    /// Where it was said (from the first to the last word of time and duration).
    pub span: Span,
}

/// A repeat rule the message names.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RecurrenceReading {
    /// The rule (`until` from an "until DATE").
    pub recurrence: Recurrence,
    /// Its first occurrence (`YYYY-MM-DD`): the first matching day on or after the date the
    /// message names, or on or after today when it names none.
    pub anchor: String,
    /// Where it was said.
    pub span: Span,
}

/// A priority the message names.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PriorityReading {
    /// High for "urgent", "asap", "important", "high priority"; low for "low priority",
    /// "whenever", "no rush", "not urgent"; medium for "medium/normal priority".
    pub priority: Priority,
    /// Where it was said.
    pub span: Span,
}

/// An existing item the message seems to name.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ItemMatch {
    /// The item's id.
    pub id: String,
    /// Its kind.
    pub kind: ItemKind,
    /// Its title.
    pub title: String,
    /// How well it matches, 0 to 1 (1: the whole title is in the message).
    pub score: f64,
}

/// What code can know for sure about a message. See the module docs for the rules.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Reading {
    /// The intent the reading settles on (see the module docs), or absent when the words do not
    /// say (the model decides).
    pub intent: Option<Intent>,
    /// Every intent cue found, in message order.
    pub cues: Vec<IntentCue>,
    /// Whether the message asks a question (not a polite request).
    pub question: bool,
    /// The kind stated or implied.
    pub kind: KindCue,
    /// The dates named, in message order.
    pub dates: Vec<DateReading>,
    /// The time or range named (the first one).
    pub time: Option<TimeReading>,
    /// The repeat rule named.
    pub recurrence: Option<RecurrenceReading>,
    /// The priority named.
    pub priority: Option<PriorityReading>,
    /// Existing items the message seems to name, best first, at most [`MAX_MATCHES`], none
    /// scoring below [`MATCH_THRESHOLD`].
    pub matches: Vec<ItemMatch>,
    /// A title for a new item (or the new title of a rename), when any words are left.
    pub title: Option<String>,
    /// Whether the message was longer than [`MAX_INPUT_CHARS`] and cut.
    pub truncated: bool,
}

impl Reading {
    /// The date an item should be scheduled for: the first "on" date, else the first deadline,
    /// else the recurrence anchor.
    pub fn scheduled_for(&self) -> Option<&str> {
        let first = |role| self.dates.iter().find(|d| d.role == role);
        first(DateRole::On)
            .or_else(|| first(DateRole::By))
            .map(|d| d.date.as_str())
            .or_else(|| self.recurrence.as_ref().map(|r| r.anchor.as_str()))
    }

    /// The time of day (`HH:MM`), if one was named.
    pub fn time_of_day(&self) -> Option<&str> {
        self.time.as_ref().and_then(|t| t.time.as_deref())
    }

    /// The end time (`HH:MM`), if a range or duration was named.
    pub fn end_time(&self) -> Option<&str> {
        self.time.as_ref().and_then(|t| t.end_time.as_deref())
    }
}

/// Reads `message` as of the user's `today`, matching references against `items`.
///
/// Deterministic and fast (microseconds for a typical message); only the first
/// [`MAX_INPUT_CHARS`] characters are read.
pub fn read_message(message: &str, today: Date, items: &[PlannerItem]) -> Reading {
    let cut = message
        .char_indices()
        .nth(MAX_INPUT_CHARS)
        .map_or(message.len(), |(i, _)| i);
    let text = &message[..cut];
    let mut p = Lexed::new(text);
    let found = when::read_when(&mut p, today);
    let priority = when::read_priority(&mut p);
    let (cues, question) = read_cues(&mut p);
    let has_when = !found.dates.is_empty()
        || found.time.is_some()
        || found.recurrence.is_some()
        || priority.is_some();
    let intent = settle_intent(&p, &cues, question, has_when, &found.dates);
    let mut all_cues = cues;
    if intent == Some(Intent::Create) && all_cues.is_empty() {
        all_cues.push(IntentCue {
            intent: Intent::Create,
            span: None,
        });
    }
    let kind = read_kind(&p, intent, &found);
    let title = guess_title(&mut p, intent);
    let matches = refs::rank(text, items);
    Reading {
        intent,
        cues: all_cues,
        question,
        kind,
        dates: found.dates,
        time: found.time,
        recurrence: found.recurrence,
        priority,
        matches,
        title,
        truncated: cut < message.len(),
    }
}

/// A word of the message: lowercase text and byte range.
#[derive(Debug, Clone)]
struct Tok {
    s: String,
    start: usize,
    end: usize,
}

/// The message as words, with which words a reading has used up.
struct Lexed<'a> {
    text: &'a str,
    t: Vec<Tok>,
    used: Vec<bool>,
}

impl<'a> Lexed<'a> {
    /// Words are runs of letters and digits; an apostrophe between letters ("don't"), a colon
    /// between digits ("17:30") and an ISO date ("2026-12-01") stay inside one word.
    fn new(text: &'a str) -> Self {
        let chars: Vec<(usize, char)> = text.char_indices().collect();
        let mut t = Vec::new();
        let mut k = 0;
        while k < chars.len() {
            let (start, c) = chars[k];
            if !c.is_alphanumeric() {
                k += 1;
                continue;
            }
            let mut e = k + 1;
            if is_iso_at(&text.as_bytes()[start..]) {
                e = k + 10;
            } else {
                while e < chars.len() {
                    let ch = chars[e].1;
                    let prev = chars[e - 1].1;
                    let next = chars.get(e + 1).map(|x| x.1);
                    let inner = ch.is_alphanumeric()
                        || ((ch == '\'' || ch == '’')
                            && prev.is_alphabetic()
                            && next.is_some_and(char::is_alphabetic))
                        || (ch == ':'
                            && prev.is_ascii_digit()
                            && next.is_some_and(|n| n.is_ascii_digit()));
                    if !inner {
                        break;
                    }
                    e += 1;
                }
            }
            let end = chars.get(e).map_or(text.len(), |x| x.0);
            t.push(Tok {
                s: text[start..end].to_lowercase().replace('’', "'"),
                start,
                end,
            });
            k = e;
        }
        let used = vec![false; t.len()];
        Lexed { text, t, used }
    }

    fn len(&self) -> usize {
        self.t.len()
    }

    /// Word `i`, or "" past the end.
    fn w(&self, i: usize) -> &str {
        self.t.get(i).map_or("", |t| t.s.as_str())
    }

    /// The raw text between word `i - 1` and word `i`.
    fn gap(&self, i: usize) -> &str {
        match (i.checked_sub(1).and_then(|p| self.t.get(p)), self.t.get(i)) {
            (Some(a), Some(b)) => &self.text[a.end..b.start],
            _ => "",
        }
    }

    /// Words `i..j` as a byte span.
    fn span(&self, i: usize, j: usize) -> Span {
        Span {
            start: self.t[i].start,
            end: self.t[j - 1].end,
        }
    }

    /// Whether words `i..j` exist and none is used.
    fn free(&self, i: usize, j: usize) -> bool {
        j <= self.len() && i < j && !self.used[i..j].iter().any(|u| *u)
    }

    fn mark(&mut self, i: usize, j: usize) {
        for u in &mut self.used[i..j] {
            *u = true;
        }
    }

    /// Whether the words from `i` are `pat` (words separated by spaces, alternatives by `|`);
    /// returns the index after them.
    fn seq(&self, i: usize, pat: &str) -> Option<usize> {
        let mut k = i;
        for word in pat.split(' ') {
            if !word.split('|').any(|a| a == self.w(k)) || k >= self.len() {
                return None;
            }
            k += 1;
        }
        Some(k)
    }

    /// Whether any word is one of `words`.
    fn has_any(&self, words: &[&str]) -> Option<usize> {
        self.t.iter().position(|t| words.contains(&t.s.as_str()))
    }
}

fn is_iso_at(b: &[u8]) -> bool {
    b.len() >= 10
        && b[..4].iter().all(u8::is_ascii_digit)
        && b[4] == b'-'
        && b[5..7].iter().all(u8::is_ascii_digit)
        && b[7] == b'-'
        && b[8..10].iter().all(u8::is_ascii_digit)
        && b.get(10).is_none_or(|c| !c.is_ascii_alphanumeric())
}

/// The words that can open a phrase of `pats` (a fast filter before matching phrases).
fn openers<'p>(pats: impl Iterator<Item = &'p str>) -> HashSet<&'p str> {
    pats.flat_map(|p| p.split(' ').next().unwrap_or("").split('|'))
        .collect()
}

fn read_cues(p: &mut Lexed) -> (Vec<IntentCue>, bool) {
    static OPENERS: OnceLock<HashSet<&'static str>> = OnceLock::new();
    let opens = OPENERS.get_or_init(|| openers(CUES.iter().flat_map(|(_, ps)| ps.iter().copied())));
    let mut cues = Vec::new();
    let mut i = 0;
    while i < p.len() {
        let mut hit = None;
        let phrases_here = if opens.contains(p.w(i)) { CUES } else { &[] };
        'outer: for (intent, phrases) in phrases_here {
            for pat in *phrases {
                if let Some(j) = p.seq(i, pat) {
                    if p.free(i, j) {
                        hit = Some((*intent, j));
                        break 'outer;
                    }
                }
            }
        }
        match hit {
            Some((intent, j)) => {
                // "complete" counts only as "mark X complete"; "i want to" becomes a goal cue
                // when the message names a deadline.
                cues.push(IntentCue {
                    intent,
                    span: Some(p.span(i, j)),
                });
                p.mark(i, j);
                i = j;
            }
            None => {
                if p.w(i) == "complete" && p.has_any(&["mark"]).is_some() && !p.used[i] {
                    cues.push(IntentCue {
                        intent: Intent::Complete,
                        span: Some(p.span(i, i + 1)),
                    });
                    p.mark(i, i + 1);
                }
                i += 1;
            }
        }
    }
    if cues
        .iter()
        .any(|c| matches!(c.intent, Intent::Complete | Intent::Uncomplete))
    {
        if let Some(m) = p.has_any(&["mark"]) {
            p.mark(m, m + 1);
        }
    }
    let first = p.w(0);
    let second = p.w(1);
    let polite = POLITE.contains(&first);
    let opener = QUESTION_OPENERS.contains(&first)
        || (matches!(first, "do" | "does" | "did")
            && matches!(second, "i" | "we" | "you" | "my" | "it"));
    let ends_q = p.text.trim_end().ends_with('?');
    let question = !polite && (opener || ends_q);
    (cues, question)
}

fn settle_intent(
    p: &Lexed,
    cues: &[IntentCue],
    question: bool,
    has_when: bool,
    dates: &[DateReading],
) -> Option<Intent> {
    if question {
        return Some(Intent::Nothing);
    }
    let want_by = |c: &IntentCue| {
        c.intent == Intent::Create
            && c.span.is_some_and(|s| {
                let w = p.text[s.start..s.end].to_lowercase();
                w.contains("want to") || w.contains("like to")
            })
            && dates.iter().any(|d| d.role == DateRole::By)
    };
    if cues.iter().any(|c| c.intent == Intent::Goal || want_by(c)) {
        let other = cues
            .iter()
            .find(|c| !matches!(c.intent, Intent::Goal | Intent::Create));
        return Some(other.map_or(Intent::Goal, |c| c.intent));
    }
    if let Some(c) = cues.first() {
        return Some(c.intent);
    }
    let asks = p.has_any(WH).is_some() || p.seq(0, "tell|show me").is_some();
    if has_when && !asks {
        return Some(Intent::Create);
    }
    if !has_when && past_report(p) {
        return Some(Intent::Complete);
    }
    let chat = p.len() > 0
        && p.t
            .iter()
            .all(|t| CHAT.contains(&t.s.as_str()) || t.s.len() < 3);
    if chat || p.has_any(&["thanks", "thank", "thx"]).is_some() {
        return Some(Intent::Nothing);
    }
    None
}

/// "I paid the car insurance", "I meditated this morning": a first-person report of something
/// done (a past-tense verb right after "I", "I just" or "I already"), with no negation and no
/// date or time (those announce a new item: "I booked a table for Friday").
fn past_report(p: &Lexed) -> bool {
    if p.len() < 3 || p.w(0) != "i" {
        return false;
    }
    let k = if matches!(p.w(1), "just" | "already" | "finally") {
        2
    } else {
        1
    };
    let verb = p.w(k);
    let past = PAST_IRREGULAR.contains(&verb)
        || (verb.len() > 4 && verb.ends_with("ed") && !matches!(verb, "need" | "needed"));
    past && p.has_any(NEGATIONS).is_none()
}

fn read_kind(p: &Lexed, intent: Option<Intent>, found: &when::Found) -> KindCue {
    let at = |i: usize| Some(p.span(i, i + 1));
    let goal_cue = p.has_any(&["goal", "goals", "objective"]);
    if let Some(i) = goal_cue {
        return KindCue {
            kind: ItemKind::Goal,
            span: at(i),
        };
    }
    if intent == Some(Intent::Goal) {
        return KindCue {
            kind: ItemKind::Goal,
            span: None,
        };
    }
    if let Some(i) = p.has_any(&["habit", "routine"]) {
        return KindCue {
            kind: ItemKind::Habit,
            span: at(i),
        };
    }
    if let Some(i) = p.has_any(EVENT_WORDS) {
        return KindCue {
            kind: ItemKind::Event,
            span: at(i),
        };
    }
    if let Some(t) = &found.time {
        if t.end_time.is_some() || t.duration_minutes.is_some() {
            return KindCue {
                kind: ItemKind::Event,
                span: Some(t.span),
            };
        }
    }
    if found.recurrence.is_some() {
        if let Some(i) = p.has_any(HABIT_WORDS) {
            return KindCue {
                kind: ItemKind::Habit,
                span: at(i),
            };
        }
    }
    KindCue {
        kind: ItemKind::Todo,
        span: p.has_any(TODO_WORDS).and_then(at),
    }
}

fn guess_title(p: &mut Lexed, intent: Option<Intent>) -> Option<String> {
    for i in 0..p.len() {
        for pat in TAIL_PHRASES {
            if let Some(j) = p.seq(i, pat) {
                if j == p.len() {
                    p.mark(i, j);
                }
            }
        }
    }
    let mut from = 0;
    if intent == Some(Intent::Update) {
        if let Some(r) = p.has_any(&["rename"]) {
            match (r + 1..p.len()).find(|&k| matches!(p.w(k), "to" | "as")) {
                Some(k) => from = k + 1,
                None => return None,
            }
        }
    }
    let kept: Vec<usize> = (from..p.len()).filter(|&i| !p.used[i]).collect();
    let mut lo = 0;
    while lo < kept.len() && LEAD_FILLER.contains(&p.w(kept[lo])) {
        lo += 1;
    }
    let mut hi = kept.len();
    while hi > lo && TAIL_FILLER.contains(&p.w(kept[hi - 1])) {
        hi -= 1;
    }
    let kept = &kept[lo..hi];
    if kept.is_empty() {
        return None;
    }
    let mut out = String::new();
    let mut seg_start = kept[0];
    for (n, &i) in kept.iter().enumerate() {
        let last = n + 1 == kept.len() || kept[n + 1] != i + 1;
        if last {
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(&p.text[p.t[seg_start].start..p.t[i].end]);
            if n + 1 < kept.len() {
                seg_start = kept[n + 1];
            }
        }
    }
    let out = out.trim_matches(|c: char| !c.is_alphanumeric() && c != ')' && c != '"');
    let mut chars = out.chars();
    let first = chars.next()?;
    Some(first.to_uppercase().chain(chars).collect())
}

#[cfg(test)]
mod tests;
