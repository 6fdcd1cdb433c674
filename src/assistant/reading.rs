//! A deterministic reading of an assistant message (issue 10, section 2): what code can know for
//! sure about a message before any model sees it. Pure: the message, `today` and the user's items
//! come in, a [`Reading`] comes out; no store, no model, no clock.
//!
//! The reading finds, each with the byte range of the message it came from:
//! - the **intent** cues (create, complete, un-complete, delete, update, goal, nothing to do);
//! - the **kind** stated or implied (event, habit, goal; todo otherwise);
//! - **dates** (a calendar date wins over the weekday next to it), **recurrence**, **priority**
//!   (rules in `reading/when.rs`), **times and ranges** (`reading/time.rs`);
//! - **relative changes** of an item's day or time ("an hour later", "back a week":
//!   `reading/shift.rs`);
//! - **references** to existing items, by a fuzzy title match, and **descriptors** ("the
//!   dentist thing", "that appointment") with the items they name (`reading/refs.rs`);
//! - a **title** guess for a new item: the message minus cue words, dates, times, recurrence and
//!   priority phrases ("Remind me to call mom tomorrow at 5" gives "Call mom").
//!
//! A question about the planner ("what do I have on Thursday?") is read further by
//! [`read_question`] (`reading/question.rs`): what it asks, about which days and items.
//!
//! An English message's first command word is read through one typo ("remmind me", "ad a task":
//! `reading/typos.rs`). Only the first [`MAX_INPUT_CHARS`] characters are read. The reading never guesses what it
//! cannot know: a vague "in the morning" leaves the time unset, an ambiguous "12/01" is skipped.
//!
//! ## Intent rules
//! A question (ending with `?`, or opening with a question word such as "what", "when", "do I",
//! "is") asks for information and reads as [`Intent::Nothing`], unless it is a polite request
//! ("can you", "could you", "would you", "will you", "please", "plz"). Otherwise the first cue
//! in the message decides, except that a goal cue ("goal", "I want to ... by DATE") wins over a
//! create cue (and a goal cue next to a delete or update cue gives the delete or update: "delete
//! the vacation goal"). Only the first create cue is one: a later create word belongs to the item
//! ("add book flights", "I need to schedule a call"). A todo label opening the message ("todo:",
//! "task", "add task task") is a create cue; after a label with a colon no other cue is read
//! ("task: cancel the newspaper" is a todo). Without any cue:
//! - a relative change ("team meeting an hour later") reads as an update;
//! - a report of something done reads as a completion: a past-tense verb first (after "I",
//!   "just", "already", "finally"), no negation, recurrence or priority, no day after today;
//!   with "I" and no day or time, or naming a known item ("I paid the car insurance"); about a
//!   habit also without "I" and with "hit" or "got" ("hit my run today", "did piano today",
//!   "meditated today": a habit already repeats, so naming it for today reports it done);
//! - a date, time, recurrence or priority and no question word read as an implied create (its
//!   cue has no span), unless a "no", "not", "never" or "skip" is left over ("no gym today");
//! - thanks, greetings and "ok" read as nothing; anything else is left to the model (`intent`
//!   absent).

use std::collections::HashSet;
use std::sync::OnceLock;

use super::date::Date;
use super::model::{ItemKind, PlannerItem};
use crate::kernel::lang::Language;

mod lang;
mod lex;
mod question;
mod records;
mod refs;
mod shift;
mod time;
mod typos;
mod when;
mod words;

use words::*;

pub(crate) use lang::separators;
use lex::{openers, Lexed};
pub use question::{read_small_talk, Asks, Question, SmallTalk};
pub use records::*;
pub use refs::{MATCH_THRESHOLD, MAX_MATCHES};
pub(crate) use when::add_months;

/// Reads `message` as of the user's `today`, matching references against `items`.
///
/// Deterministic and fast (microseconds for a typical message); only the first
/// [`MAX_INPUT_CHARS`] characters are read.
pub fn read_message(message: &str, today: Date, items: &[PlannerItem]) -> Reading {
    read_message_in(message, Language::En, today, items)
}

/// The words the reading reads in `message` (written in `lang`): lowercase, rewritten into the
/// reading's English words (`reading/lang.rs`), separated by spaces. For code outside the reading
/// that looks for a word ("rename", "link") in a message of any language.
pub(crate) fn english_words(message: &str, lang: Language) -> String {
    let mut p = Lexed::new(message);
    lang::normalize(&mut p, lang);
    p.t.iter()
        .map(|t| t.s.as_str())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Reads `message`, written in `lang`, as of the user's `today` (see [`read_message`]): the
/// message's words are first rewritten into the reading's English words (`reading/lang.rs`),
/// keeping their byte ranges, so titles and spans stay the user's own text.
pub fn read_message_in(
    message: &str,
    lang: Language,
    today: Date,
    items: &[PlannerItem],
) -> Reading {
    let cut = message
        .char_indices()
        .nth(MAX_INPUT_CHARS)
        .map_or(message.len(), |(i, _)| i);
    let text = &message[..cut];
    let mut p = Lexed::new(text);
    lang::normalize(&mut p, lang);
    if lang == Language::En {
        typos::fix_commands(&mut p);
    }
    let shift = shift::read_shift(&mut p);
    let found = when::read_when(&mut p, today);
    let priority = when::read_priority(&mut p);
    let ref_text = lang::unread_text(&p);
    let (cues, question) = read_cues(&mut p);
    let matches = refs::rank(&ref_text, items, lang::ref_words(lang));
    let said = Said {
        dates: &found.dates,
        when: !found.dates.is_empty()
            || found.time.is_some()
            || found.recurrence.is_some()
            || priority.is_some(),
        repeats: found.recurrence.is_some() || priority.is_some(),
        timed: found.time.is_some(),
        shift: shift.is_some(),
        habit: matches.first().is_some_and(|m| m.kind == ItemKind::Habit),
        known: !matches.is_empty(),
        today,
    };
    let intent = settle_intent(&p, &cues, question, &said);
    let mut all_cues = cues;
    if intent == Some(Intent::Create) && all_cues.is_empty() {
        all_cues.push(IntentCue {
            intent: Intent::Create,
            span: None,
        });
    }
    let kind = read_kind(&p, intent, &found);
    let reference = refs::descriptor(&p, items, lang::ref_words(lang));
    let title = guess_title(&mut p, intent);
    Reading {
        intent,
        cues: all_cues,
        question,
        kind,
        dates: found.dates,
        time: found.time,
        recurrence: found.recurrence,
        priority,
        shift,
        reference,
        matches,
        title,
        truncated: cut < message.len(),
    }
}

/// Reads `message`, written in `lang`, as a question about the planner as of the user's
/// `today` (`reading/question.rs`: what it asks, about which days, kinds and items), matching
/// the items it names against `items` (done ones included, so "did I pay the bill?" finds a paid
/// bill). `None` when it is not one.
pub fn read_question(
    message: &str,
    lang: Language,
    today: Date,
    items: &[PlannerItem],
) -> Option<Question> {
    let reading = read_message_in(message, lang, today, items);
    let p = question::reading_words(message, lang);
    question::read(&reading, &p, past_report(&p), today)
}

fn read_cues(p: &mut Lexed) -> (Vec<IntentCue>, bool) {
    static OPENERS: OnceLock<HashSet<&'static str>> = OnceLock::new();
    let opens = OPENERS.get_or_init(|| openers(CUES.iter().flat_map(|(_, ps)| ps.iter().copied())));
    let cue_at = |p: &Lexed, i: usize| -> Option<(Intent, usize)> {
        if !opens.contains(p.w(i)) {
            return None;
        }
        CUES.iter().find_map(|(intent, phrases)| {
            phrases
                .iter()
                .find_map(|pat| p.seq(i, pat).filter(|j| p.free(i, *j)))
                .map(|j| (*intent, j))
        })
    };
    let mut cues = Vec::new();
    // Only the first create cue is one: later ones name the item ("add book flights").
    let mut create_verb = false;
    // A label with a colon ("todo: email Karen"): what follows is the item.
    let mut colon_label = false;
    // Still in the message's leading command words ("plz add task task ...").
    let mut leading = true;
    let mut i = 0;
    while i < p.len() {
        if leading && !p.used[i] && TODO_WORDS.contains(&p.w(i)) {
            let colon = p.gap(i + 1).contains(':');
            let other_cue = cue_at(p, i + 1).is_some_and(|(intent, _)| intent != Intent::Create);
            if colon || !other_cue {
                cues.push(IntentCue {
                    intent: Intent::Create,
                    span: Some(p.span(i, i + 1)),
                });
                p.mark(i, i + 1);
                colon_label |= colon;
                i += 1;
                continue;
            }
        }
        let hit = cue_at(p, i).filter(|(intent, _)| match intent {
            Intent::Create => !create_verb,
            _ => !colon_label,
        });
        match hit {
            Some((intent, j)) => {
                cues.push(IntentCue {
                    intent,
                    span: Some(p.span(i, j)),
                });
                create_verb |= intent == Intent::Create;
                p.mark(i, j);
                i = j;
            }
            None => {
                // "complete" counts only as "mark X complete".
                if p.w(i) == "complete" && p.has_any(&["mark"]).is_some() && !p.used[i] {
                    cues.push(IntentCue {
                        intent: Intent::Complete,
                        span: Some(p.span(i, i + 1)),
                    });
                    p.mark(i, i + 1);
                }
                leading &= p.used[i] || LABEL_OPENERS.contains(&p.w(i));
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

/// What the rest of the reading found, for settling the intent.
struct Said<'a> {
    dates: &'a [DateReading],
    /// A date, time, recurrence or priority.
    when: bool,
    /// A recurrence or priority (never part of a report of something done).
    repeats: bool,
    /// A time or duration.
    timed: bool,
    /// A relative change ("an hour later").
    shift: bool,
    /// The best match is a habit.
    habit: bool,
    /// Some existing item matches.
    known: bool,
    today: Date,
}

fn settle_intent(p: &Lexed, cues: &[IntentCue], question: bool, said: &Said) -> Option<Intent> {
    // "did my meditation": about a habit and without a question mark, a report, not a question.
    let did_my_habit =
        p.seq(0, "did my").is_some() && said.habit && !p.text.trim_end().ends_with('?');
    if question && !did_my_habit {
        return Some(Intent::Nothing);
    }
    let want_by = |c: &IntentCue| {
        c.intent == Intent::Create
            && c.span.is_some_and(|s| {
                let w: Vec<&str> =
                    p.t.iter()
                        .filter(|t| t.start >= s.start && t.end <= s.end)
                        .map(|t| t.s.as_str())
                        .collect();
                let w = w.join(" ");
                w.contains("want to") || w.contains("like to")
            })
            && said.dates.iter().any(|d| d.role == DateRole::By)
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
    // "team meeting an hour later": only an existing item moves by an amount.
    if said.shift {
        return Some(Intent::Update);
    }
    if reports_done(p, said) {
        return Some(Intent::Complete);
    }
    let asks = p.has_any(WH).is_some() || p.seq(0, "tell|show me").is_some();
    // "no gym today", "morgen kein Morgenlauf", "skip piano today": a date with a negation
    // left over names no new item.
    let negated = (0..p.len()).any(|k| !p.used[k] && NOT_THIS.contains(&p.w(k)));
    if said.when && !asks && !negated {
        return Some(Intent::Create);
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

/// The first verb of a report and whether "I" said it: the word after "I", "just", "already"
/// or "finally" at the start, and whether it is a past tense (irregular, or "-ed").
fn report_verb<'a>(p: &'a Lexed) -> (bool, &'a str, bool) {
    let subject = p.w(0) == "i";
    let mut k = usize::from(subject);
    if matches!(p.w(k), "just" | "already" | "finally") {
        k += 1;
    }
    let verb = p.w(k);
    let past = PAST_IRREGULAR.contains(&verb)
        || (verb.len() > 4 && verb.ends_with("ed") && !matches!(verb, "need" | "needed"));
    (subject, verb, past)
}

/// "I paid the car insurance", "I meditated this morning": a first-person report of something
/// done (a past-tense verb right after "I", "I just" or "I already"), with no negation.
fn past_report(p: &Lexed) -> bool {
    let (subject, _, past) = report_verb(p);
    subject && past && p.len() >= 3 && p.has_any(NEGATIONS).is_none()
}

/// A report of something done, read as a completion: a past-tense verb first (see
/// [`report_verb`]), no negation, recurrence or priority, and no day after today. With "I" it
/// is a report when it names no day or time, or names a known item ("I paid the car
/// insurance"); about a habit it is one with or without "I", also with "hit" or "got" ("hit my
/// run today", "did piano today", "meditated today"): a habit already repeats, so naming it for
/// today reports it done.
fn reports_done(p: &Lexed, said: &Said) -> bool {
    let (_, verb, past) = report_verb(p);
    let either = past || matches!(verb, "hit" | "got");
    let no_later_day = said
        .dates
        .iter()
        .all(|d| d.role == DateRole::On && Date::parse(&d.date).is_some_and(|x| x <= said.today));
    if said.repeats || !no_later_day || p.has_any(NEGATIONS).is_some() {
        return false;
    }
    if said.habit && either {
        return true;
    }
    let undated = said.dates.is_empty() && !said.timed;
    past_report(p) && (undated || said.known)
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
            // "rename X to Y"; or, with the verb last (German "X in Y umbenennen"), "X to Y
            // rename": the new title runs from "to" to the verb (the verb is used up).
            let after = (r + 1..p.len()).find(|&k| matches!(p.w(k), "to" | "as"));
            let last = (r + 1..p.len()).all(|k| matches!(p.w(k), "please" | "pls"));
            let before = (0..r)
                .rev()
                .find(|&k| last && matches!(p.w(k), "to" | "as"));
            match after.or(before) {
                Some(k) => from = k + 1,
                None => return None,
            }
        }
    }
    let kept: Vec<usize> = (from..p.len()).filter(|&i| !p.used[i]).collect();
    // A part of the day rewritten from another language ("abends") is filler at either edge.
    let hint = |k: usize| PARTS_OF_DAY.contains(&p.w(k)) && p.rewritten(k);
    let mut lo = 0;
    while lo < kept.len() && (LEAD_FILLER.contains(&p.w(kept[lo])) || hint(kept[lo])) {
        lo += 1;
    }
    let mut hi = kept.len();
    while hi > lo && (TAIL_FILLER.contains(&p.w(kept[hi - 1])) || hint(kept[hi - 1])) {
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
