//! What the reading of a message finds: [`Reading`] and its parts (intent cues, kind, dates,
//! times, recurrence, priority, item matches), each with the [`Span`] it was read from. Pure data.

use serde::{Deserialize, Serialize};

use crate::assistant::model::{ItemKind, Priority, Recurrence, Weekday};

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
    /// A weekday said next to this calendar date that the date does not fall on ("Tuesday
    /// Dec 7" when December 7 is a Monday): the message contradicts itself. The date is kept
    /// and the narrowed path asks which day is meant. Absent when they agree or no weekday was
    /// said.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub contradicted_by: Option<Weekday>,
}

/// A change relative to an item's stored day or time: "an hour later", "30 minutes earlier",
/// "a day later", "back a week", "out two weeks". Negative amounts are earlier.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ShiftReading {
    /// Minutes to move the time by (hours are 60 minutes); 0 when the shift is in days.
    pub minutes: i32,
    /// Days to move the date by (weeks are 7 days).
    pub days: i32,
    /// Months to move the date by (the day of the month kept, clamped to the month's end).
    pub months: i32,
    /// Where it was said.
    pub span: Span,
}

/// An existing item named by a descriptor rather than its title: "the dentist thing", "that
/// appointment", "the library stuff", "the sam dinner", "the thing with the plumber".
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReferenceReading {
    /// The descriptor's own words, lowercase: the words between the determiner and the noun
    /// ("dentist"), and the noun when it names a kind of item ("appointment").
    pub words: Vec<String>,
    /// The items whose titles hold every one of those words (by the fuzzy match of
    /// `reading/refs.rs`), best first; empty when the descriptor names nothing known.
    pub ids: Vec<String>,
    /// Where it was said.
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
    /// A change relative to an item's stored day or time ("an hour later").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shift: Option<ShiftReading>,
    /// An existing item named by a descriptor ("the dentist thing").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reference: Option<ReferenceReading>,
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

    /// The first date whose weekday contradicts it ("Tuesday Dec 7" when December 7 is a
    /// Monday), if any.
    pub fn contradiction(&self) -> Option<&DateReading> {
        self.dates.iter().find(|d| d.contradicted_by.is_some())
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
