//! Narrowing a message to small choices (issue 10): code builds the operations the deterministic
//! reading ([`super::reading`]) understands, and leaves the model only what needs judgement.
//!
//! Pure: a [`Reading`] (or several, one per clause), `today` and the user's items come in; a
//! [`Narrowed`] comes out, with the question for the model ([`Narrowed::question_schema`]) and the
//! way its answer becomes operations ([`Narrowed::resolve`]).
//!
//! ## What code settles, what the model is asked
//! - **Dates, times, ranges, recurrence, priority and the target item** come from the reading,
//!   always: calendar arithmetic and fuzzy title matching are code's job.
//! - **The intent**, when the words say it (a cue such as "remind me to", "mark ... as done",
//!   "move", "cancel", or a date implying a new item), is settled by code. When they do not
//!   ("Make the expense report low priority"), the model chooses among at most three options
//!   built by code: change the named item, add a new one, or change nothing. Deleting or
//!   completing is never offered without a cue word: without one it would be a guess.
//! - **The name** of a new item (and the new title of a rename) is the model's: it writes it
//!   under a grammar whose only words are the message's own words outside its dates, times,
//!   recurrence, priority and intent cues, so it cannot invent a title or put "tomorrow at 5"
//!   in it. A name that shares no word with the reading's title guess is replaced by that guess
//!   (code wins; the repair is reported).
//! - **Nothing** is asked when nothing needs judgement (a completion of a clearly named item, a
//!   move to a named day): those messages never reach the model.
//! - Without a model, or when its answer is unusable, the defaults apply: the settled intent,
//!   "change nothing" for an open one, and the reading's title guess.
//! - **The target item** is a descriptor's only referent ("the dentist thing"), else the best
//!   match when it is clearly the one meant. A descriptor names an existing item: with a change
//!   and no "remind me" it is a change of that item, never a new one ("put the tax stuff on
//!   wednesday"). A relative change ("an hour later") is computed from the item's stored day
//!   and time (`narrow/relative.rs`).
//!
//! ## Asking instead of guessing
//! When the words do not decide, code asks back ([`Narrowed::clarification`], spec 002's
//! clarify: a question in the message's language and at most 5 options, the reading's own
//! candidates first, then the items ranked by title match and priority; `narrow/ask.rs`):
//! - a weekday next to a date it does not fall on ("Tuesday Dec 7"): which day (the item to
//!   change offered, none for a new item);
//! - a completion, deletion or change whose item is missing ("move it to friday"), ambiguous
//!   (two matches as good, a descriptor with several referents) or unknown: which one (what it
//!   is called, when the planner holds nothing to offer);
//! - a change of a named item the words do not say ("change the dentist appointment", a
//!   relative change of a todo with no day): what should change;
//! - a name with no action ("the insurance thing", "anna's birthday gift"): what to do with it;
//! - a request to add that says nothing of what ("add things", "plan my week", "help me get
//!   organized"): what to add, never a todo named after the leftover word.
//!
//! A message the reading cannot build (no intent cue and no known item named, an un-completion,
//! a completion of a goal, a removal of a habit on a day: "cancel piano today" skips a day, it
//! does not delete the habit) is [`Narrowed::open`]: the model proposes the operations itself,
//! as before.

use std::collections::BTreeSet;

mod ask;
pub mod code_wins;
mod relative;
mod words;

pub(crate) use ask::options as clarify_options;

use serde_json::{json, Value};

use super::clarify::{self, Ask};
use super::date::Date;
use super::model::{
    Clarification, ItemKind, ItemRef, OpType, PlannerItem, PlannerOperation, Priority,
};
use super::reading::{
    english_words, read_message_in, separators, DateRole, Intent, ItemMatch, Reading, Span,
};
use crate::kernel::lang::Language;
use ask::Target;
use words::words_of;

/// The most words of a name the model may write.
pub const MAX_NAME_WORDS: usize = 10;
/// The most distinct words offered to the name grammar.
const MAX_VOCABULARY: usize = 40;
/// The most clauses one message is split into (each becomes at most one operation).
const MAX_CLAUSES: usize = 4;
/// A second match this close to the first makes the target ambiguous: code does not pick.
const AMBIGUOUS_GAP: f64 = 0.05;
/// A match at least this good lets a message without an intent cue be about that item (more
/// than half of the item's title words are in the message).
const STRONG_MATCH: f64 = 0.6;

/// What the model's answer chooses: one option's operations.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Choice {
    /// Change the named existing item.
    Update,
    /// Add a new item.
    Create,
    /// Change nothing.
    Nothing,
    /// The intent the words settled (the only option).
    Settled,
}

impl Choice {
    /// The word the answer uses.
    pub fn as_str(self) -> &'static str {
        match self {
            Choice::Update => "change",
            Choice::Create => "add",
            Choice::Nothing => "nothing",
            Choice::Settled => "do",
        }
    }
}

/// One operation built by code, and whether the model names it.
#[derive(Debug, Clone, PartialEq)]
pub struct Draft {
    /// The operation, complete: the title is the reading's guess until the model names it.
    pub op: PlannerOperation,
    /// Whether the model is asked for the title (a new item, a rename).
    pub named: bool,
    /// The reading's title guess (the default name).
    pub guess: Option<String>,
    /// The title of the existing item it changes, for the prompt.
    pub target: Option<String>,
}

/// One option the model may choose.
#[derive(Debug, Clone, PartialEq)]
pub struct Option_ {
    /// What it is.
    pub choice: Choice,
    /// Its operations (none for [`Choice::Nothing`]).
    pub drafts: Vec<Draft>,
    /// A short description for the prompt ("change t1: priority low").
    pub describe: String,
}

/// A message narrowed to small choices. See the module docs.
#[derive(Debug, Clone, PartialEq)]
pub struct Narrowed {
    /// The options, the default first. One option: code settled it (the model may still name).
    pub options: Vec<Option_>,
    /// The words a name may use (the message's words outside dates, times, cues ...).
    pub vocabulary: Vec<String>,
    /// The reading could not build the request: the model proposes operations itself.
    pub open: bool,
    /// The words do not decide: a question back instead of operations (spec 002's clarify, in
    /// the message's language; see the module docs). Then there are no options.
    pub clarification: Option<Clarification>,
    /// The reading of the (whole) message.
    pub reading: Reading,
}

/// What resolving an answer gave.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Resolved {
    /// The operations, to be validated like any proposal.
    pub operations: Vec<PlannerOperation>,
    /// What code changed in the model's answer (no user text): logged, and reported at the end
    /// of the summary ([`code_wins::summary_with_repairs`]).
    pub repairs: Vec<code_wins::Repair>,
    /// The option taken.
    pub choice: Option<&'static str>,
}

/// Narrows `message` as of `today` against the user's open `items`.
pub fn narrow(message: &str, today: Date, items: &[PlannerItem]) -> Narrowed {
    narrow_in(message, Language::En, today, items)
}

/// Narrows `message`, written in `lang`, as of `today` against the user's open `items`.
pub fn narrow_in(message: &str, lang: Language, today: Date, items: &[PlannerItem]) -> Narrowed {
    let reading = read_message_in(message, lang, today, items);
    let vocabulary = vocabulary(message, &reading);
    let mut out = Narrowed {
        options: Vec::new(),
        vocabulary,
        open: false,
        clarification: None,
        reading: reading.clone(),
    };
    let n = Narrowing {
        message,
        // The words looked for below ("rename", "link") are the reading's, in any language.
        said: english_words(message, lang),
        lang,
        today,
        items,
        r: &reading,
    };
    // A weekday the date next to it does not fall on: which day is meant.
    if let Some(d) = reading.contradiction() {
        if let (Some(said), Some(date)) = (d.contradicted_by, Date::parse(&d.date)) {
            let changes = matches!(
                reading.intent,
                Some(Intent::Update | Intent::Delete | Intent::Complete)
            );
            let first = match target_of(&reading, items) {
                Target::One(t) => vec![t.id],
                Target::Unclear(ids) => ids,
                Target::Unnamed => Vec::new(),
            };
            let options = if changes {
                ask::options(message, items, &first)
            } else {
                Vec::new()
            };
            out.clarification = Some(clarify::ask_in(
                lang,
                &Ask::WhichDay { said, date },
                options,
            ));
            return out;
        }
    }
    if let Some(drafts) = clauses(message, lang, today, items, &when_spans(&reading)) {
        out.options.push(Option_ {
            choice: Choice::Settled,
            describe: describe_all(&drafts),
            drafts,
        });
        return out;
    }
    match n.decide() {
        Outcome::Options(options) => out.options = options,
        Outcome::Ask(c) => out.clarification = Some(c),
        Outcome::Open => out.open = true,
    }
    out
}

/// What narrowing a message comes to.
enum Outcome {
    /// Options for the model (or one settled by code).
    Options(Vec<Option_>),
    /// A question back.
    Ask(Clarification),
    /// The full proposal.
    Open,
}

/// One message being narrowed.
struct Narrowing<'a> {
    message: &'a str,
    /// The message's words as the reading reads them (rewritten into English words).
    said: String,
    lang: Language,
    today: Date,
    items: &'a [PlannerItem],
    r: &'a Reading,
}

impl Narrowing<'_> {
    fn decide(&self) -> Outcome {
        let r = self.r;
        let target = target_of(r, self.items);
        match r.intent {
            Some(Intent::Nothing) => Outcome::Options(vec![nothing()]),
            Some(Intent::Create) => self.create(target),
            Some(intent @ (Intent::Complete | Intent::Delete | Intent::Update)) => match target {
                Target::One(t) => {
                    match settled(intent, &t, r, self.today, &self.said, self.stored(&t)) {
                        Some(d) => settle(d),
                        None if intent == Intent::Update => self.ask(
                            &Ask::WhatChange {
                                title: t.title.clone(),
                            },
                            &[t.id],
                        ),
                        // Completing a goal: the model's call.
                        None => Outcome::Open,
                    }
                }
                Target::Unclear(ids) => self.ask(&Ask::WhichItem, &ids),
                Target::Unnamed => self.ask(&Ask::WhichItem, &[]),
            },
            Some(Intent::Goal) => match goal_of(r, &self.said) {
                Some(op) => settle(draft(op, r)),
                None => Outcome::Open,
            },
            Some(Intent::Uncomplete) => Outcome::Open,
            None => self.without_cue(target),
        }
    }

    /// The stored item a match names.
    fn stored(&self, t: &ItemMatch) -> Option<&PlannerItem> {
        self.items
            .iter()
            .find(|it| it.id == t.id && it.kind == t.kind)
    }

    fn update(&self, t: &ItemMatch) -> Option<PlannerOperation> {
        update_of(t, self.r, &self.said, self.stored(t))
    }

    /// A question back, with options ranked as spec 002 ranks them (`first` ahead); none when
    /// it asks what to add.
    fn ask(&self, what: &Ask, first: &[String]) -> Outcome {
        let options = match what {
            Ask::WhatToAdd => Vec::new(),
            _ => ask::options(self.message, self.items, first),
        };
        // Nothing to choose from: ask what the item is called.
        let what = match what {
            Ask::WhichItem if options.is_empty() => &Ask::NotFound,
            other => other,
        };
        Outcome::Ask(clarify::ask_in(self.lang, what, options))
    }

    /// A create cue, or a date, time, recurrence or priority without one.
    fn create(&self, target: Target) -> Outcome {
        let r = self.r;
        let said = |w: &str| {
            r.cues.iter().any(|c| {
                c.intent == Intent::Create
                    && c.span
                        .is_some_and(|s| self.message[s.start..s.end].to_lowercase().contains(w))
            })
        };
        let cue = r
            .cues
            .iter()
            .any(|c| c.intent == Intent::Create && c.span.is_some());
        // A descriptor names an existing item ("put the tax stuff on wednesday", "the plumber
        // thing is on thursday now"): a change of it, never a new item.
        if r.reference.is_some() && !said("remind") {
            match &target {
                Target::One(t) => {
                    return match self.update(t) {
                        Some(op) => settle(draft(op, r)),
                        None => self.ask(
                            &Ask::WhatChange {
                                title: t.title.clone(),
                            },
                            std::slice::from_ref(&t.id),
                        ),
                    };
                }
                Target::Unclear(ids) if !cue => return self.ask(&Ask::WhichItem, ids),
                _ => {}
            }
        }
        if !cue {
            // "Make the expense report low priority": no cue word, a priority or date, and the
            // words name an existing item. Changing it is the likelier reading (and not
            // destructive); adding a new item or changing nothing are offered too.
            let strong = unique_match(r).filter(|m| m.score >= STRONG_MATCH);
            if let Some(op) = strong.and_then(|t| self.update(t)) {
                let change = draft(op, r);
                let mut options = vec![Option_ {
                    choice: Choice::Update,
                    describe: describe(&change),
                    drafts: vec![change],
                }];
                if let Some(op) = create_of(r) {
                    let add = draft(op, r);
                    options.push(Option_ {
                        choice: Choice::Create,
                        describe: describe(&add),
                        drafts: vec![add],
                    });
                }
                options.push(nothing());
                return Outcome::Options(options);
            }
        }
        // "add things", "plan my week", "schedule it for friday": what, or which?
        if let Some(what) = ask::vague(r.title.as_deref(), self.lang) {
            let first: Vec<String> = r.matches.iter().map(|m| m.id.clone()).collect();
            return self.ask(&what, &first);
        }
        match create_of(r) {
            Some(op) => settle(draft(op, r)),
            None => self.ask(&Ask::WhatToAdd, &[]),
        }
    }

    /// No intent cue and no date: a bare name asks what to do with it; a clearly named item
    /// may be changed (or not: the default); a remark about it changes nothing; a request that
    /// says nothing of what asks what to add.
    fn without_cue(&self, target: Target) -> Outcome {
        let r = self.r;
        let named = r.reference.is_some() || !r.matches.is_empty();
        if named && ask::only_names(self.message, r, self.lang) {
            return match target {
                Target::One(t) => self.ask(
                    &Ask::WhatToDo {
                        title: t.title.clone(),
                    },
                    &[t.id],
                ),
                Target::Unclear(ids) => self.ask(&Ask::WhichItem, &ids),
                Target::Unnamed => self.ask(&Ask::WhichItem, &[]),
            };
        }
        match target {
            Target::One(t) => match self.update(&t) {
                // An open intent defaults to changing nothing: the safe reading.
                Some(op) => {
                    let change = draft(op, r);
                    Outcome::Options(vec![
                        nothing(),
                        Option_ {
                            choice: Choice::Update,
                            describe: describe(&change),
                            drafts: vec![change],
                        },
                    ])
                }
                // A remark about an existing item that names no change ("I haven't returned
                // the library books yet"): nothing to do.
                None => Outcome::Options(vec![nothing()]),
            },
            Target::Unnamed
                if ask::vague(Some(self.message), self.lang) == Some(Ask::WhatToAdd) =>
            {
                self.ask(&Ask::WhatToAdd, &[])
            }
            _ => Outcome::Open,
        }
    }
}

/// One option, settled by code.
fn settle(d: Draft) -> Outcome {
    Outcome::Options(vec![Option_ {
        choice: Choice::Settled,
        describe: describe(&d),
        drafts: vec![d],
    }])
}

fn nothing() -> Option_ {
    Option_ {
        choice: Choice::Nothing,
        drafts: Vec::new(),
        describe: "change nothing".into(),
    }
}

impl Narrowed {
    /// Whether the model has anything to decide: a choice among options, or a name.
    pub fn asks_model(&self) -> bool {
        !self.open && self.clarification.is_none() && (self.options.len() > 1 || self.names() > 0)
    }

    /// How many names the model is asked for (the most over the options).
    pub fn names(&self) -> usize {
        self.options
            .iter()
            .map(|o| o.drafts.iter().filter(|d| d.named).count())
            .max()
            .unwrap_or(0)
    }

    /// The JSON Schema of the model's answer, built for this message: `choice` (an enum of the
    /// options' words, present only when there is a choice) and `title` or `titles` (each a
    /// string of at most [`MAX_NAME_WORDS`] of the message's own words). `None` when nothing is
    /// asked.
    pub fn question_schema(&self) -> Option<String> {
        if !self.asks_model() {
            return None;
        }
        let mut props = serde_json::Map::new();
        let mut required = Vec::new();
        if self.options.len() > 1 {
            let words: Vec<&str> = self.options.iter().map(|o| o.choice.as_str()).collect();
            props.insert("choice".into(), json!({"type": "string", "enum": words}));
            required.push("choice");
        }
        let names = self.names();
        if names > 0 {
            let name = self.name_schema();
            if names == 1 {
                props.insert("title".into(), name);
                required.push("title");
            } else {
                props.insert(
                    "titles".into(),
                    json!({"type": "array", "items": name, "minItems": names, "maxItems": names}),
                );
                required.push("titles");
            }
        }
        let schema = json!({
            "type": "object",
            "properties": props,
            "required": required,
            "additionalProperties": false,
        });
        Some(schema.to_string())
    }

    /// A name: the message's words, separated by single spaces.
    fn name_schema(&self) -> Value {
        let alternatives: Vec<String> = self
            .vocabulary
            .iter()
            .flat_map(|w| {
                let cap = capitalized(w);
                if cap == *w {
                    vec![regex_escape(w)]
                } else {
                    vec![regex_escape(w), regex_escape(&cap)]
                }
            })
            .collect();
        let word = format!("({})", alternatives.join("|"));
        json!({
            "type": "string",
            "pattern": format!("^{word}( {word}){{0,{}}}$", MAX_NAME_WORDS - 1),
        })
    }

    /// The user turn of the question: the options (one line each, `word: description`) and
    /// the message. The system prompt is fixed text (`prompts/assistant.narrow.md`).
    pub fn user_turn(&self, message: &str) -> String {
        let mut s = String::from("Options:\n");
        for o in &self.options {
            let word = match (self.options.len(), o.choice) {
                (1, _) if o.drafts.iter().all(|d| d.op.id.is_none()) => Choice::Create.as_str(),
                (1, _) => Choice::Update.as_str(),
                (_, c) => c.as_str(),
            };
            s.push_str(&format!("{word}: {}\n", o.describe));
        }
        s.push_str("Message: ");
        s.push_str(message);
        s
    }

    /// The operations of the model's `answer` (`None`: no model, or its answer was unusable):
    /// the chosen option (the default when absent or unknown) with its names applied where they
    /// pass the checks (see the module docs), else the reading's guesses.
    pub fn resolve(&self, answer: Option<&Value>) -> Resolved {
        let mut out = Resolved::default();
        if self.open || self.clarification.is_some() || self.options.is_empty() {
            return out;
        }
        let chosen = answer
            .and_then(|a| a["choice"].as_str())
            .and_then(|w| self.options.iter().find(|o| o.choice.as_str() == w));
        if self.options.len() > 1 && answer.is_some() && chosen.is_none() {
            out.repairs.push(code_wins::Repair::DefaultOption);
        }
        let option = chosen.unwrap_or(&self.options[0]);
        out.choice = Some(option.choice.as_str());
        let names: Vec<Option<&str>> = match answer {
            Some(a) if a["title"].is_string() => vec![a["title"].as_str()],
            Some(a) => a["titles"]
                .as_array()
                .map(|v| v.iter().map(Value::as_str).collect())
                .unwrap_or_default(),
            None => Vec::new(),
        };
        let mut next = 0;
        for d in &option.drafts {
            let mut op = d.op.clone();
            if d.named {
                let name = names.get(next).copied().flatten();
                next += 1;
                match (name, d.guess.as_deref()) {
                    (Some(n), guess) if self.acceptable_name(n, guess) => {
                        op.title = Some(tidy_name(n));
                    }
                    (Some(_), _) => out.repairs.push(code_wins::Repair::TitleKept),
                    (None, _) if answer.is_some() => out.repairs.push(code_wins::Repair::NoTitle),
                    (None, _) => {}
                }
            }
            if op.title.is_some() || !matches!(op.op, OpType::Create | OpType::GoalCreate) {
                out.operations.push(op);
            }
        }
        out
    }

    /// A name passes when all its words are the message's, no word comes twice in a row, and,
    /// when the reading guessed a title, it keeps every content word of that guess (three or
    /// more letters, not a filler word): the model may reorder, trim filler and add the
    /// message's words, not drop what the item is about ("Gym" for "Gym membership").
    fn acceptable_name(&self, name: &str, guess: Option<&str>) -> bool {
        let words: Vec<String> = words_of(name)
            .into_iter()
            .map(|(w, _)| w.to_lowercase())
            .collect();
        if words.is_empty() || words.len() > MAX_NAME_WORDS {
            return false;
        }
        if words.windows(2).any(|p| p[0] == p[1]) {
            return false;
        }
        // A content word twice ("Pls a passport renew a passport"), or a request's politeness
        // or command word the guess left out, is the message copied, not a name.
        let content = |w: &&String| w.chars().count() >= 3 && !FILLER.contains(&w.as_str());
        let mut seen = BTreeSet::new();
        if !words
            .iter()
            .filter(content)
            .all(|w| seen.insert(w.as_str()))
        {
            return false;
        }
        let in_guess = |w: &str| {
            guess.is_some_and(|g| words_of(g).iter().any(|(x, _)| x.eq_ignore_ascii_case(w)))
        };
        if words
            .iter()
            .any(|w| NOT_A_NAME.contains(&w.as_str()) && !in_guess(w))
        {
            return false;
        }
        let vocab: BTreeSet<String> = self.vocabulary.iter().map(|w| w.to_lowercase()).collect();
        if !words.iter().all(|w| vocab.contains(w)) {
            return false;
        }
        match guess {
            None => true,
            Some(g) => words_of(g)
                .into_iter()
                .map(|(w, _)| w.to_lowercase())
                .filter(|w| w.chars().count() >= 3 && !FILLER.contains(&w.as_str()))
                .all(|w| words.contains(&w)),
        }
    }
}

/// Words of a request that a name holds only when the reading's guess does ("pls", "add",
/// "task", "remind").
const NOT_A_NAME: &[&str] = &[
    "pls", "plz", "please", "add", "ad", "task", "todo", "remind", "reminder", "me", "can", "you",
    "could", "would",
];

/// Words a name may leave out of the reading's guess.
const FILLER: &[&str] = &[
    "the", "for", "with", "and", "about", "from", "into", "this", "that", "some", "our", "your",
    "their", "all", "any",
];

/// A name as the app shows it: single spaces, first letter capital.
fn tidy_name(name: &str) -> String {
    let joined = name.split_whitespace().collect::<Vec<_>>().join(" ");
    capitalized(&joined)
}

fn capitalized(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

fn regex_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        if "\\^$.|?*+()[]{}/".contains(ch) {
            out.push('\\');
        }
        out.push(ch);
    }
    out
}

/// The message's words outside the spans of dates, times, recurrence, priority and cues.
fn vocabulary(message: &str, r: &Reading) -> Vec<String> {
    let mut spans: Vec<Span> = r.dates.iter().map(|d| d.span).collect();
    spans.extend(r.time.as_ref().map(|t| t.span));
    spans.extend(r.recurrence.as_ref().map(|t| t.span));
    spans.extend(r.priority.as_ref().map(|t| t.span));
    spans.extend(r.cues.iter().filter_map(|c| c.span));
    let inside = |s: &Span| spans.iter().any(|x| s.start >= x.start && s.end <= x.end);
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    let cut = message
        .char_indices()
        .nth(super::reading::MAX_INPUT_CHARS)
        .map_or(message.len(), |(i, _)| i);
    for (w, span) in words_of(&message[..cut]) {
        if inside(&span) || !seen.insert(w.to_lowercase()) {
            continue;
        }
        out.push(w);
        if out.len() == MAX_VOCABULARY {
            break;
        }
    }
    out
}

/// A message of several requests joined by "and", commas or semicolons ("Buy eggs tomorrow and
/// call the vet on Wednesday"): one create per clause, when every clause reads as a new item
/// with a title of its own and a date, time or repeat of its own. Otherwise `None` (the message
/// is read whole: "every Monday and Thursday" leaves a clause with no title). A separator inside
/// one of `when` (the whole message's dates, times and repeat) does not split: "de 2 a 3 y media",
/// "entre 10h et 11h".
fn clauses(
    message: &str,
    lang: Language,
    today: Date,
    items: &[PlannerItem],
    when: &[Span],
) -> Option<Vec<Draft>> {
    let lower = message.to_lowercase();
    let seps = separators(lang);
    let mut parts: Vec<&str> = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i < lower.len() {
        let rest = &lower[i..];
        let inside = when.iter().any(|s| s.start < i && i < s.end);
        let sep = seps
            .iter()
            .find(|s| !inside && rest.starts_with(s.as_str()))
            .map(|s| s.len());
        match sep {
            Some(n) => {
                parts.push(&message[start..i]);
                i += n;
                start = i;
            }
            None => i += rest.chars().next().map_or(1, char::len_utf8),
        }
    }
    parts.push(&message[start..]);
    if parts.len() < 2 || parts.len() > MAX_CLAUSES {
        return None;
    }
    let mut drafts = Vec::new();
    for part in parts {
        let r = read_message_in(part, lang, today, items);
        let dated = !r.dates.is_empty() || r.time.is_some() || r.recurrence.is_some();
        if r.intent != Some(Intent::Create) || r.title.is_none() || !dated {
            return None;
        }
        let op = create_of(&r)?;
        drafts.push(draft(op, &r));
    }
    Some(drafts)
}

/// The spans of a reading's dates, time and repeat.
fn when_spans(r: &Reading) -> Vec<Span> {
    let mut spans: Vec<Span> = r.dates.iter().map(|d| d.span).collect();
    spans.extend(r.time.as_ref().map(|t| t.span));
    spans.extend(r.recurrence.as_ref().map(|t| t.span));
    spans
}

fn draft(op: PlannerOperation, r: &Reading) -> Draft {
    let named = matches!(op.op, OpType::Create | OpType::GoalCreate)
        || (op.title.is_some() && matches!(op.op, OpType::Update | OpType::GoalUpdate));
    let target = op.id.as_ref().and_then(|id| {
        r.matches
            .iter()
            .find(|m| &m.id == id && m.kind == op.kind)
            .map(|m| m.title.clone())
    });
    Draft {
        guess: r.title.clone(),
        op,
        named,
        target,
    }
}

/// The item the reading names: a descriptor's only referent, else the best match when it is
/// clearly the one meant.
fn target_of(r: &Reading, items: &[PlannerItem]) -> Target {
    if let Some(d) = &r.reference {
        return match d.ids.as_slice() {
            [id] => item_match(id, r, items).map_or(Target::Unnamed, Target::One),
            ids => Target::Unclear(ids.to_vec()),
        };
    }
    match unique_match(r) {
        Some(m) => Target::One(m.clone()),
        None if !r.matches.is_empty() => {
            Target::Unclear(r.matches.iter().map(|m| m.id.clone()).collect())
        }
        None => Target::Unnamed,
    }
}

/// The match of item `id`: the reading's, else one made from the stored item.
fn item_match(id: &str, r: &Reading, items: &[PlannerItem]) -> Option<ItemMatch> {
    if let Some(m) = r.matches.iter().find(|m| m.id == id) {
        return Some(m.clone());
    }
    items.iter().find(|it| it.id == id).map(|it| ItemMatch {
        id: it.id.clone(),
        kind: it.kind,
        title: it.title.clone(),
        score: 1.0,
    })
}

/// The best match when it is clearly the one meant.
fn unique_match(r: &Reading) -> Option<&ItemMatch> {
    let first = r.matches.first()?;
    match r.matches.get(1) {
        Some(second) if first.score - second.score < AMBIGUOUS_GAP => None,
        _ => Some(first),
    }
}

/// The operation of a settled intent, or `None` when the reading cannot build it.
/// The operation of a completion, deletion or change of the item `t`, or `None` when the
/// reading cannot build it (a goal's completion, a change the words do not say).
fn settled(
    intent: Intent,
    t: &ItemMatch,
    r: &Reading,
    today: Date,
    message: &str,
    stored: Option<&PlannerItem>,
) -> Option<Draft> {
    let op = match intent {
        Intent::Complete => match t.kind {
            ItemKind::Habit => {
                let mut op = target_op(OpType::CompleteOccurrence, t);
                let day = r
                    .dates
                    .iter()
                    .find(|d| d.role == DateRole::On)
                    .map(|d| d.date.clone());
                op.occurrence_date = Some(day.unwrap_or_else(|| today.to_string()));
                op
            }
            ItemKind::Goal => return None,
            _ => target_op(OpType::Complete, t),
        },
        Intent::Delete => {
            // "cancel piano today", "Klavier fällt heute aus": one day of a habit, not the
            // habit; code does not delete it (the model may skip the day).
            if t.kind == ItemKind::Habit && r.dates.iter().any(|d| d.role == DateRole::On) {
                return None;
            }
            let op = if t.kind == ItemKind::Goal {
                OpType::GoalDelete
            } else {
                OpType::Delete
            };
            target_op(op, t)
        }
        Intent::Update => update_of(t, r, message, stored)?,
        _ => return None,
    };
    Some(draft(op, r))
}

fn target_op(op: OpType, t: &ItemMatch) -> PlannerOperation {
    let mut o = PlannerOperation::new(op, t.kind);
    o.id = Some(t.id.clone());
    o
}

/// A new item from the reading: its kind, title, day, time, range, priority and recurrence.
fn create_of(r: &Reading) -> Option<PlannerOperation> {
    let title = r.title.clone()?;
    if r.kind.kind == ItemKind::Goal {
        let mut op = PlannerOperation::new(OpType::GoalCreate, ItemKind::Goal);
        op.title = Some(title);
        op.priority = r.priority.as_ref().map(|p| p.priority);
        return Some(op);
    }
    let mut op = PlannerOperation::new(OpType::Create, r.kind.kind);
    op.title = Some(title);
    op.scheduled_for = r.scheduled_for().map(str::to_string);
    op.time_of_day = r.time_of_day().map(str::to_string);
    if r.kind.kind == ItemKind::Event {
        op.end_time = r.end_time().map(str::to_string);
    }
    op.priority = r.priority.as_ref().map(|p| p.priority);
    op.recurrence = r.recurrence.as_ref().map(|x| x.recurrence.clone());
    Some(op)
}

/// A goal: linking a named item to a named goal, else a new goal.
fn goal_of(r: &Reading, message: &str) -> Option<PlannerOperation> {
    let lower = message.to_lowercase();
    let links = ["link", "add", "attach", "connect", "put"]
        .iter()
        .any(|w| words_of(&lower).iter().any(|(x, _)| x == w));
    let goal = r.matches.iter().find(|m| m.kind == ItemKind::Goal);
    let other = r.matches.iter().find(|m| m.kind != ItemKind::Goal);
    if let (true, Some(g), Some(o)) = (links, goal, other) {
        let mut op = target_op(OpType::GoalAddItems, g);
        op.items = vec![ItemRef {
            kind: o.kind,
            id: o.id.clone(),
        }];
        return Some(op);
    }
    let mut r = r.clone();
    r.kind.kind = ItemKind::Goal;
    create_of(&r)
}

/// The change the reading names for an existing item: a day, a time or range, a priority, a
/// repeat rule, a new title ("rename ... to ..."), or a relative change computed from the
/// `stored` item ("an hour later": `narrow/relative.rs`). `None` when it names no change.
fn update_of(
    t: &ItemMatch,
    r: &Reading,
    message: &str,
    stored: Option<&PlannerItem>,
) -> Option<PlannerOperation> {
    let rename = words_of(&message.to_lowercase())
        .iter()
        .any(|(w, _)| w == "rename");
    if t.kind == ItemKind::Goal {
        let mut op = target_op(OpType::GoalUpdate, t);
        if rename {
            op.title = r.title.clone();
        }
        op.priority = r.priority.as_ref().map(|p| p.priority);
        return (op.title.is_some() || op.priority.is_some()).then_some(op);
    }
    let mut op = target_op(OpType::Update, t);
    if rename {
        op.title = r.title.clone();
    }
    if r.recurrence.is_some() && t.kind == ItemKind::Habit {
        op.recurrence = r.recurrence.as_ref().map(|x| x.recurrence.clone());
    } else {
        // Without a repeat, "until" names the new day too ("it can wait till saturday").
        op.scheduled_for = r
            .dates
            .iter()
            .find(|d| d.role != DateRole::Until || r.recurrence.is_none())
            .map(|d| d.date.clone());
        op.recurrence = r.recurrence.as_ref().map(|x| x.recurrence.clone());
    }
    op.time_of_day = r.time_of_day().map(str::to_string);
    if t.kind == ItemKind::Event {
        op.end_time = r.end_time().map(str::to_string);
    }
    op.priority = r.priority.as_ref().map(|p| p.priority);
    if let Some(shift) = &r.shift {
        relative::apply(shift, stored?, &mut op)?;
    }
    let changes = op.title.is_some()
        || op.scheduled_for.is_some()
        || op.time_of_day.is_some()
        || op.priority.is_some()
        || op.recurrence.is_some();
    changes.then_some(op)
}

fn describe_all(drafts: &[Draft]) -> String {
    drafts.iter().map(describe).collect::<Vec<_>>().join("; ")
}

/// A short, model-facing description of a draft (no ids: the target's title).
fn describe(d: &Draft) -> String {
    let op = &d.op;
    let mut s = match (op.op, &d.target) {
        (OpType::Create | OpType::GoalCreate, _) => format!("add a {}", op.kind.as_str()),
        (other, Some(t)) => format!(
            "{} the {} \"{t}\"",
            other.as_str().replace('_', " "),
            op.kind.as_str()
        ),
        (other, None) => format!(
            "{} the {}",
            other.as_str().replace('_', " "),
            op.kind.as_str()
        ),
    };
    if let Some(d) = &op.scheduled_for {
        s.push_str(&format!(" on {d}"));
    }
    if let Some(t) = &op.time_of_day {
        s.push_str(&format!(" at {t}"));
    }
    if let Some(p) = op.priority {
        let p = match p {
            Priority::Low => "low",
            Priority::Medium => "medium",
            Priority::High => "high",
        };
        s.push_str(&format!(", priority {p}"));
    }
    s
}

#[cfg(test)]
mod tests;
