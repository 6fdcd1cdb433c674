//! The JSON Schema of one full proposal (issue 10, "per-request schemas"): when a message goes to
//! the full proposal (the reading cannot build it), the model still writes under a grammar built
//! from what is on the table for that message, not under the general operations schema
//! (`schemas/assistant-ops.json`). Pure: the message, its [`Reading`], `today` and the items the
//! prompt shows come in; the schema text comes out.
//!
//! What the schema allows:
//! - **At most as many operations as the message can ask for**: one per clause ("and", commas,
//!   semicolons, "then", "also"), at most [`MAX_OPERATIONS`]; none is always allowed.
//! - **Only the operations its words cue**: with an intent cue ("delete", "mark ... done",
//!   "move" ...), the operations of those intents; without one, every operation.
//! - **Each operation with only the fields it uses**, one alternative per operation and kind:
//!   `{"op":"delete","kind":"todo","id":...}` has nothing else; a habit `create` must say how it
//!   repeats.
//! - **Ids as an enum of the aliases** the prompt shows (`t1`, `e2`, `h1`, `g3`) of that kind;
//!   `complete` only for one-off items, `complete_occurrence` only for repeating ones; an
//!   operation on a kind with no item shown is not offered.
//! - **Dates as an enum of the days the message can mean** (the reading's dates, the days of a
//!   period it names, a repeat's first day); when the reading found none but the words look like
//!   a date ("the 3rd", "12/01"), any `YYYY-MM-DD` date by pattern; when nothing in the message
//!   is a date, no date field at all. `until` likewise from the reading's "until" dates.
//! - **Times by pattern** (`HH:MM`, 24 h), only when the message names a time or has a digit or
//!   a time word; **priority** only when the reading found one or a priority word is there;
//!   **repeats** (on a todo or event) only when the message has a repeat word, else only
//!   `{"type":"none"}`.
//! - Titles of at most [`MAX_TITLE_CHARS`] characters; an `update` or `goal_update` carries a
//!   title only when the message asks for a rename ("rename", "call it" ...).
//!
//! What the words mention ([`Mentions`]) is also what the full proposal may change on an
//! existing item afterwards (`narrow/code_wins.rs`, [`drop_unmentioned`]).
//!
//! [`drop_unmentioned`]: super::narrow::code_wins::drop_unmentioned
//!
//! Validation after decoding is unchanged: the schema only narrows what the model can write.

use serde_json::{json, Value};

use super::date::Date;
use super::model::ItemKind;
use super::reading::{DateRole, Intent, Reading};
use super::words::parse_weekday;
use super::MAX_OPERATIONS;

/// The longest title the model may write, in characters.
pub const MAX_TITLE_CHARS: usize = 80;
/// The most days one date field offers (a period such as "next month" is cut to its first days).
const MAX_DAYS: usize = 31;
/// `HH:MM`, 24 h.
pub const TIME_PATTERN: &str = "^([01][0-9]|2[0-3]):[0-5][0-9]$";
/// `YYYY-MM-DD`.
pub const DATE_PATTERN: &str = "^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$";

/// An item the prompt shows, as the model may name it.
#[derive(Debug, Clone, PartialEq)]
pub struct Target {
    /// Its alias in the prompt (`t1`).
    pub alias: String,
    /// Its kind.
    pub kind: ItemKind,
    /// Whether it repeats (completed by occurrence).
    pub repeats: bool,
}

/// The most operations `message` can ask for: one per clause, at least 1, at most
/// [`MAX_OPERATIONS`].
pub fn max_operations(message: &str) -> usize {
    let mut text = format!(" {} ", message.to_lowercase());
    for sep in [" and ", ",", ";", " then ", " also ", " plus "] {
        text = text.replace(sep, " \u{1} ");
    }
    let clauses = text
        .split('\u{1}')
        .filter(|c| c.chars().any(char::is_alphanumeric))
        .count();
    clauses.clamp(1, MAX_OPERATIONS)
}

/// Words that make a message look like it names a date the reading did not read (weekdays are
/// read by [`parse_weekday`]).
#[rustfmt::skip]
const DATE_WORDS: &[&str] = &[
    "today", "tonight", "tomorrow", "yesterday", "day", "days", "week", "weeks", "weekend",
    "month", "months", "year", "jan", "january", "feb", "february", "mar", "march", "apr",
    "april", "may", "jun", "june", "jul", "july", "aug", "august", "sep", "sept", "september",
    "oct", "october", "nov", "november", "dec", "december", "date", "due", "deadline", "later",
    "next", "soon",
];
/// Words that make a message look like it names a time.
#[rustfmt::skip]
const TIME_WORDS: &[&str] = &[
    "am",
    "pm",
    "noon",
    "midnight",
    "morning",
    "afternoon",
    "evening",
    "night",
    "tonight",
    "o'clock",
    "oclock",
    "hour",
    "hours",
    "minutes",
    "min",
    "mins",
    "time",
    "earlier",
    "later",
];
/// Words that make a message look like it names a priority.
#[rustfmt::skip]
const PRIORITY_WORDS: &[&str] = &[
    "priority",
    "urgent",
    "important",
    "asap",
    "critical",
    "whenever",
    "rush",
    "low",
    "high",
    "medium",
    "normal",
    "top",
];
/// Words that ask for a new title.
#[rustfmt::skip]
const TITLE_WORDS: &[&str] = &[
    "rename", "renamed", "retitle", "title", "name", "called", "named",
];
/// Words that ask for notes.
#[rustfmt::skip]
const NOTES_WORDS: &[&str] = &[
    "note", "notes", "comment", "comments", "details", "description", "memo",
];
/// Words that make a message look like it names a repeat rule.
#[rustfmt::skip]
const REPEAT_WORDS: &[&str] = &[
    "every",
    "daily",
    "weekly",
    "monthly",
    "yearly",
    "annually",
    "weekdays",
    "weekends",
    "repeat",
    "repeats",
    "repeating",
    "recurring",
    "each",
    "always",
    "habit",
    "until",
    "once",
    "twice",
];

fn words(message: &str) -> Vec<String> {
    message
        .to_lowercase()
        .split(|c: char| !(c.is_alphanumeric() || c == '\''))
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

/// Which fields of an item a message's words can fill: what the proposal's schema offers, and
/// what the full proposal may change on an existing item.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Mentions {
    /// A date the reading read, a relative change of days, or words that look like a date (a
    /// digit, a weekday, "tomorrow", "next", "later" ...).
    pub date: bool,
    /// A time the reading read, a relative change, or words that look like a time (a digit,
    /// "am", "morning", "later" ...); an event's end moves with it.
    pub time: bool,
    /// A priority the reading read or a priority word.
    pub priority: bool,
    /// A repeat the reading read or a repeat word.
    pub repeats: bool,
    /// A word asking for a new title ("rename", "call it").
    pub title: bool,
    /// A word asking for notes ("note", "details").
    pub notes: bool,
}

impl Mentions {
    /// What `message` (read as `reading`) mentions.
    pub fn of(message: &str, reading: &Reading) -> Mentions {
        let ws = words(message);
        let has = |list: &[&str]| ws.iter().any(|w| list.contains(&w.as_str()));
        let digit = message.chars().any(|c| c.is_ascii_digit());
        let shift = reading.shift.as_ref();
        Mentions {
            date: !reading.dates.is_empty()
                || reading.recurrence.is_some()
                || shift.is_some_and(|s| s.days != 0 || s.months != 0)
                || has(DATE_WORDS)
                || digit
                || ws.iter().any(|w| parse_weekday(w).is_some()),
            time: reading.time.is_some() || shift.is_some() || digit || has(TIME_WORDS),
            priority: reading.priority.is_some() || has(PRIORITY_WORDS),
            repeats: reading.recurrence.is_some() || has(REPEAT_WORDS),
            title: has(TITLE_WORDS),
            notes: has(NOTES_WORDS),
        }
    }
}

/// The JSON Schema text of the proposal for `message` (see the module docs).
pub fn proposal_schema(
    message: &str,
    reading: &Reading,
    today: Date,
    targets: &[Target],
) -> String {
    let m = Mentions::of(message, reading);
    let f = Fields {
        date: day_schema(reading, m.date),
        until: until_schema(reading),
        time: m
            .time
            .then(|| json!({"type": "string", "pattern": TIME_PATTERN})),
        priority: m
            .priority
            .then(|| json!({"enum": ["low", "medium", "high"]})),
        repeats: m.repeats,
        rename: m.title,
    };
    let intents: Vec<Intent> = reading
        .cues
        .iter()
        .filter(|c| c.span.is_some())
        .map(|c| c.intent)
        .collect();
    let allowed = |family: &[Intent]| {
        intents.is_empty()
            || intents.contains(&Intent::Uncomplete)
            || intents.iter().any(|i| family.contains(i))
    };
    let of_kind = |k: ItemKind, repeating: Option<bool>| -> Vec<String> {
        targets
            .iter()
            .filter(|t| t.kind == k && repeating.is_none_or(|r| t.repeats == r))
            .map(|t| t.alias.clone())
            .collect()
    };
    let mut variants: Vec<Value> = Vec::new();
    let items = [ItemKind::Todo, ItemKind::Event, ItemKind::Habit];
    if allowed(&[Intent::Create]) {
        for k in items {
            variants.push(f.create(k));
        }
    }
    for k in items {
        let all = of_kind(k, None);
        if all.is_empty() {
            continue;
        }
        if allowed(&[Intent::Update]) {
            variants.push(f.update(k, &all));
        }
        if allowed(&[Intent::Delete]) {
            variants.push(object(k, "delete", &all, Vec::new(), &[]));
        }
        if allowed(&[Intent::Complete]) {
            let once = of_kind(k, Some(false));
            if !once.is_empty() {
                variants.push(object(k, "complete", &once, Vec::new(), &[]));
            }
            let repeating = of_kind(k, Some(true));
            if !repeating.is_empty() {
                let day = f.occurrence_day(reading, today);
                variants.push(object(
                    k,
                    "complete_occurrence",
                    &repeating,
                    vec![("occurrenceDate", day)],
                    &["occurrenceDate"],
                ));
            }
        }
    }
    let goals = of_kind(ItemKind::Goal, None);
    if allowed(&[Intent::Goal, Intent::Create]) {
        let mut props = vec![("title", title())];
        props.extend(f.priority.clone().map(|p| ("priority", p)));
        variants.push(object(
            ItemKind::Goal,
            "goal_create",
            &[],
            props,
            &["title"],
        ));
    }
    if !goals.is_empty() {
        let linkable: Vec<Value> = items
            .iter()
            .filter_map(|&k| {
                let ids = of_kind(k, None);
                (!ids.is_empty()).then(|| ref_schema(k, &ids))
            })
            .collect();
        if allowed(&[Intent::Goal, Intent::Update]) {
            let mut props: Vec<(&str, Value)> = Vec::new();
            if f.rename {
                props.push(("title", title()));
            }
            props.extend(f.priority.clone().map(|p| ("priority", p)));
            variants.push(object(ItemKind::Goal, "goal_update", &goals, props, &[]));
            if !linkable.is_empty() {
                let item = json!({"anyOf": linkable});
                let list = json!({"type": "array", "items": item, "minItems": 1,
                                  "maxItems": max_operations(message)});
                variants.push(object(
                    ItemKind::Goal,
                    "goal_add_items",
                    &goals,
                    vec![("items", list)],
                    &["items"],
                ));
                variants.push(object(
                    ItemKind::Goal,
                    "goal_remove_item",
                    &goals,
                    vec![("item", item)],
                    &["item"],
                ));
            }
            if goals.len() > 1 {
                for op in ["goal_add_child", "goal_remove_child"] {
                    variants.push(object(
                        ItemKind::Goal,
                        op,
                        &goals,
                        vec![("childId", json!({"enum": goals}))],
                        &["childId"],
                    ));
                }
            }
        }
        if allowed(&[Intent::Goal, Intent::Delete]) {
            variants.push(object(
                ItemKind::Goal,
                "goal_delete",
                &goals,
                Vec::new(),
                &[],
            ));
        }
    }
    let max = if variants.is_empty() {
        0
    } else {
        max_operations(message)
    };
    let mut list = json!({"type": "array", "maxItems": max});
    if !variants.is_empty() {
        list["items"] = json!({"anyOf": variants});
    } else {
        list["items"] = json!({"type": "null"});
    }
    let root = json!({
        "type": "object",
        PROPS: ordered(vec![("operations", list)]),
        "required": ["operations"],
        "additionalProperties": false,
    });
    let mut text = String::new();
    write_ordered(&root, &mut text);
    text
}

/// Where a schema built here keeps its `properties`, in order, until [`write_ordered`] writes
/// them (serde_json's maps sort their keys; llama.cpp's grammar follows the order written).
const PROPS: &str = "$properties in order";

/// Properties, in order, as [`write_ordered`] reads them.
fn ordered(props: Vec<(&str, Value)>) -> Value {
    Value::Array(
        props
            .into_iter()
            .map(|(k, v)| Value::Array(vec![Value::String(k.to_string()), v]))
            .collect(),
    )
}

/// Writes `v` as compact JSON, each [`PROPS`] entry as `properties` in its order.
fn write_ordered(v: &Value, out: &mut String) {
    match v {
        Value::Object(m) => {
            out.push('{');
            for (i, (k, val)) in m.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                if k == PROPS {
                    out.push_str("\"properties\":{");
                    for (j, pair) in val.as_array().into_iter().flatten().enumerate() {
                        if j > 0 {
                            out.push(',');
                        }
                        out.push_str(
                            &Value::String(pair[0].as_str().unwrap_or("").into()).to_string(),
                        );
                        out.push(':');
                        write_ordered(&pair[1], out);
                    }
                    out.push('}');
                } else {
                    out.push_str(&Value::String(k.clone()).to_string());
                    out.push(':');
                    write_ordered(val, out);
                }
            }
            out.push('}');
        }
        Value::Array(a) => {
            out.push('[');
            for (i, x) in a.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_ordered(x, out);
            }
            out.push(']');
        }
        other => out.push_str(&other.to_string()),
    }
}

/// The schemas of the fields a message can fill.
struct Fields {
    /// `scheduledFor` (and `occurrenceDate` when the reading has dates); `None`: no date field.
    date: Option<Value>,
    /// The recurrence's `until`.
    until: Option<Value>,
    time: Option<Value>,
    priority: Option<Value>,
    /// Whether a todo or event may repeat (a habit always does).
    repeats: bool,
    /// Whether an update may carry a new title.
    rename: bool,
}

impl Fields {
    /// Title, then the optional fields of kind `k` (scheduling, priority, repeat).
    fn item_props(
        &self,
        k: ItemKind,
        title_required: bool,
    ) -> (Vec<(&'static str, Value)>, Vec<&'static str>) {
        let mut props = Vec::new();
        if title_required || self.rename {
            props.push(("title", title()));
        }
        let mut required = if title_required {
            vec!["title"]
        } else {
            Vec::new()
        };
        if k == ItemKind::Habit {
            props.push(("recurrence", self.recurrence(true)));
            if title_required {
                required.push("recurrence");
            }
        }
        props.extend(self.date.clone().map(|d| ("scheduledFor", d)));
        if let Some(t) = &self.time {
            props.push(("timeOfDay", t.clone()));
            if k == ItemKind::Event {
                props.push(("endTime", t.clone()));
            }
        }
        props.extend(self.priority.clone().map(|p| ("priority", p)));
        if k != ItemKind::Habit {
            props.push(("recurrence", self.recurrence(false)));
        }
        (props, required)
    }

    fn create(&self, k: ItemKind) -> Value {
        let (props, required) = self.item_props(k, true);
        object(k, "create", &[], props, &required)
    }

    fn update(&self, k: ItemKind, ids: &[String]) -> Value {
        let (props, _) = self.item_props(k, false);
        object(k, "update", ids, props, &[])
    }

    /// A repeat rule; one that repeats when `must_repeat` (a habit's).
    fn recurrence(&self, must_repeat: bool) -> Value {
        let types: &[&str] = if must_repeat {
            &["daily", "weekly", "monthly", "yearly"]
        } else if self.repeats {
            &["none", "daily", "weekly", "monthly", "yearly"]
        } else {
            // Nothing in the message repeats: a one-off, as the prompt asks it to be written.
            return json!({"type": "object", PROPS: ordered(vec![("type", json!({"const": "none"}))]),
                          "required": ["type"], "additionalProperties": false});
        };
        let mut props = vec![
            ("type", json!({"enum": types})),
            (
                "interval",
                json!({"type": "integer", "minimum": 1, "maximum": 365}),
            ),
            (
                "weekdays",
                json!({"type": "array", "maxItems": 7, "items": {"enum":
                    ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]}}),
            ),
        ];
        props.extend(self.until.clone().map(|u| ("until", u)));
        json!({"type": "object", PROPS: ordered(props), "required": ["type"],
               "additionalProperties": false})
    }

    /// The day of an occurrence: the message's dates, else today or yesterday.
    fn occurrence_day(&self, reading: &Reading, today: Date) -> Value {
        match &self.date {
            Some(d) if !reading.dates.is_empty() => d.clone(),
            _ => json!({"enum": [today.to_string(), today.add_days(-1).to_string()]}),
        }
    }
}

fn title() -> Value {
    json!({"type": "string", "minLength": 1, "maxLength": MAX_TITLE_CHARS})
}

/// `{"kind": K, "id": one of ids}`.
fn ref_schema(k: ItemKind, ids: &[String]) -> Value {
    let props = ordered(vec![
        ("kind", json!({"const": k.as_str()})),
        ("id", json!({"enum": ids})),
    ]);
    json!({"type": "object", PROPS: props, "required": ["kind", "id"],
           "additionalProperties": false})
}

/// One operation's alternative: `op` and `kind` fixed, `id` one of `ids` (none for a create),
/// then `props`, of which `required` must be there.
fn object(
    k: ItemKind,
    op: &str,
    ids: &[String],
    props: Vec<(&str, Value)>,
    required: &[&str],
) -> Value {
    let mut p = vec![
        ("op", json!({"const": op})),
        ("kind", json!({"const": k.as_str()})),
    ];
    let mut req = vec!["op", "kind"];
    if !ids.is_empty() {
        p.push(("id", json!({"enum": ids})));
        req.push("id");
    }
    p.extend(props);
    req.extend(required.iter().copied());
    json!({"type": "object", PROPS: ordered(p), "required": req, "additionalProperties": false})
}

/// The days the message can mean (see the module docs), or `None` for no date field.
fn day_schema(reading: &Reading, datelike: bool) -> Option<Value> {
    let mut days: Vec<String> = Vec::new();
    let mut add = |d: String| {
        if !days.contains(&d) && days.len() < MAX_DAYS {
            days.push(d);
        }
    };
    for d in reading.dates.iter().filter(|d| d.role != DateRole::Until) {
        add(d.date.clone());
        if let (Some(a), Some(b)) = (
            Date::parse(&d.date),
            d.through.as_deref().and_then(Date::parse),
        ) {
            for n in 1..=a.days_until(b).clamp(0, MAX_DAYS as i64) {
                add(a.add_days(n).to_string());
            }
        }
    }
    if let Some(r) = &reading.recurrence {
        add(r.anchor.clone());
    }
    if !days.is_empty() {
        return Some(json!({"enum": days}));
    }
    datelike.then(|| json!({"type": "string", "pattern": DATE_PATTERN}))
}

/// The days an "until" can be: the reading's "until" dates; `None` when it read none.
fn until_schema(reading: &Reading) -> Option<Value> {
    let days: Vec<&str> = reading
        .dates
        .iter()
        .filter(|d| d.role == DateRole::Until)
        .map(|d| d.date.as_str())
        .collect();
    (!days.is_empty()).then(|| json!({"enum": days}))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assistant::reading::read_message;

    const MONDAY: &str = "2026-11-23";

    fn today() -> Date {
        Date::parse(MONDAY).unwrap()
    }

    fn targets() -> Vec<Target> {
        let t = |alias: &str, kind, repeats| Target {
            alias: alias.into(),
            kind,
            repeats,
        };
        vec![
            t("t1", ItemKind::Todo, false),
            t("t2", ItemKind::Todo, false),
            t("e1", ItemKind::Event, false),
            t("h1", ItemKind::Habit, true),
            t("g1", ItemKind::Goal, false),
        ]
    }

    fn schema(message: &str) -> Value {
        let reading = read_message(message, today(), &[]);
        serde_json::from_str(&proposal_schema(message, &reading, today(), &targets())).unwrap()
    }

    fn valid(schema: &Value, answer: Value) -> bool {
        jsonschema::validator_for(schema).unwrap().is_valid(&answer)
    }

    fn variants(schema: &Value) -> Vec<(String, String)> {
        schema["properties"]["operations"]["items"]["anyOf"]
            .as_array()
            .map(|v| {
                v.iter()
                    .map(|o| {
                        let p = &o["properties"];
                        (
                            p["op"]["const"].as_str().unwrap().to_string(),
                            p["kind"]["const"].as_str().unwrap().to_string(),
                        )
                    })
                    .collect()
            })
            .unwrap_or_default()
    }

    #[test]
    fn ids_are_the_aliases_shown_of_the_operations_kind() {
        let s = schema("Sort out the thing with the garage stuff");
        assert!(valid(
            &s,
            json!({"operations": [{"op": "delete", "kind": "todo", "id": "t2"}]})
        ));
        assert!(valid(&s, json!({"operations": []})));
        // An alias of another kind, an id not shown, a made-up id.
        for id in ["e1", "t3", "9f1c2d"] {
            let op = json!({"operations": [{"op": "delete", "kind": "todo", "id": id}]});
            assert!(!valid(&s, op), "{id}");
        }
        // complete only for one-off items, complete_occurrence only for repeating ones.
        let once = json!({"operations": [{"op": "complete", "kind": "habit", "id": "h1"}]});
        assert!(!valid(&s, once));
        let occurrence = json!({"operations": [{"op": "complete_occurrence", "kind": "habit",
            "id": "h1", "occurrenceDate": MONDAY}]});
        assert!(valid(&s, occurrence));
        let v = variants(&s);
        assert!(v.contains(&("goal_add_items".into(), "goal".into())));
        assert!(
            !v.contains(&("goal_add_child".into(), "goal".into())),
            "one goal only"
        );
    }

    #[test]
    fn fields_the_operation_does_not_use_are_refused() {
        let s = schema("Sort out the thing with the garage stuff");
        let extra = json!({"operations": [{"op": "delete", "kind": "todo", "id": "t1",
            "title": "x"}]});
        assert!(!valid(&s, extra));
        let end_on_todo = json!({"operations": [{"op": "create", "kind": "todo", "title": "x",
            "endTime": "10:00"}]});
        assert!(!valid(&s, end_on_todo));
        // Nothing in the message is a date, a time, a priority or a repeat: no such field.
        let text = s.to_string();
        for field in ["scheduledFor", "timeOfDay", "priority"] {
            let create_todo = &s["properties"]["operations"]["items"]["anyOf"][0];
            assert!(
                create_todo["properties"].get(field).is_none(),
                "{field}: {text}"
            );
        }
        let daily = json!({"operations": [{"op": "create", "kind": "todo", "title": "x",
            "recurrence": {"type": "daily"}}]});
        assert!(!valid(&s, daily), "nothing repeats");
        let once = json!({"operations": [{"op": "create", "kind": "todo", "title": "x",
            "recurrence": {"type": "none"}}]});
        assert!(valid(&s, once));
        // A habit says how it repeats.
        let habit = json!({"operations": [{"op": "create", "kind": "habit", "title": "Stretch"}]});
        assert!(!valid(&s, habit));
        let habit = json!({"operations": [{"op": "create", "kind": "habit", "title": "Stretch",
            "recurrence": {"type": "daily"}}]});
        assert!(valid(&s, habit));
    }

    #[test]
    fn dates_are_the_days_the_message_can_mean() {
        // "this weekend": Saturday and Sunday, nothing else.
        let s = schema("Sort out the garage stuff this weekend at 10");
        let op = |day: &str| {
            json!({"operations": [{"op": "create", "kind": "todo", "title": "Garage",
                "scheduledFor": day, "timeOfDay": "10:00"}]})
        };
        assert!(valid(&s, op("2026-11-28")));
        assert!(valid(&s, op("2026-11-29")));
        assert!(!valid(&s, op("2026-11-27")));
        assert!(!valid(&s, op("tomorrow")));
        // Times by pattern.
        let bad_time = json!({"operations": [{"op": "create", "kind": "todo", "title": "G",
            "timeOfDay": "10am"}]});
        assert!(!valid(&s, bad_time));
        // A date the reading cannot read: any date, by pattern.
        let s = schema("Garage stuff on the 3rd");
        let any = json!({"operations": [{"op": "create", "kind": "todo", "title": "Garage",
            "scheduledFor": "2026-12-03"}]});
        assert!(valid(&s, any));
        let bad = json!({"operations": [{"op": "create", "kind": "todo", "title": "Garage",
            "scheduledFor": "2026-12-3"}]});
        assert!(!valid(&s, bad));
    }

    #[test]
    fn no_more_operations_than_the_message_can_ask_for() {
        assert_eq!(max_operations("Sort out the garage"), 1);
        assert_eq!(
            max_operations("Garage, attic and the shed; then the car"),
            4
        );
        let s = schema("Sort out the garage stuff");
        let two = json!({"operations": [
            {"op": "delete", "kind": "todo", "id": "t1"},
            {"op": "delete", "kind": "todo", "id": "t2"}]});
        assert!(!valid(&s, two.clone()));
        let s = schema("Sort out the garage stuff and the attic stuff");
        assert!(valid(&s, two));
    }

    #[test]
    fn an_intent_cue_narrows_the_operations() {
        let s = schema("Delete the garage stuff");
        let mut ops: Vec<String> = variants(&s).into_iter().map(|(op, _)| op).collect();
        ops.dedup();
        assert_eq!(ops, ["delete", "goal_delete"]);
        let s = schema("Mark the garage stuff as done");
        let mut ops: Vec<String> = variants(&s).into_iter().map(|(op, _)| op).collect();
        ops.dedup();
        assert_eq!(ops, ["complete", "complete_occurrence"]);
    }
}
