//! Operation shaping (spec 002, `inferOperationShape`): raw JSON operations from the model, the
//! CLI or the C API to typed [`PlannerOperation`]s, with every normalisation recorded and every problem
//! reported as an [`OpIssue`]. Shaping never fails on an element: each element of the list gives
//! one [`ShapedOp`]; only a value that holds no list at all is an error (`no_operations`).
//!
//! What shaping accepts and does, per element:
//! - It must be a JSON object (`invalid_operation` otherwise).
//! - `kind`: `todo`, `event`, `habit`, `goal`, any case (`missing_kind`, `unknown_kind`). A missing
//!   kind is inferred as `goal` when the op is a `goal_*` one.
//! - `op` (aliases `action`, `type`): any case; `_`, `-` and spaces are ignored, so
//!   `complete-occurrence`, `completeOccurrence` and `COMPLETE_OCCURRENCE` are the same. Also read:
//!   `add`/`new` as `create`, `edit`/`modify` as `update`, `remove` as `delete`, `done` as
//!   `complete` (`unknown_op` otherwise). When `op` is missing it is inferred: no `id` → `create`
//!   (`goal_create` for goals); `id` and `occurrenceDate` → `complete_occurrence`; `id` and only
//!   `completed: true` → `complete`; a goal `id` with only `items` → `goal_add_items`; a goal `id`
//!   with `item` or `childId` is ambiguous (`missing_op`); any other `id` → `update`
//!   (`goal_update` for goals). `completed: false` instead of `true` infers `complete` too: it
//!   un-completes.
//! - Field names are camelCase; the snake_case spellings (`scheduled_for`, `time_of_day`,
//!   `end_time`, `occurrence_date`, `child_id`) are accepted too (camelCase wins when both are
//!   set). Unknown fields are ignored.
//! - Strings are trimmed; an empty string (or only spaces) is read as null for every nullable
//!   field (`id`, `title`, `notes`, `scheduledFor`, `timeOfDay`, `endTime`, `occurrenceDate`,
//!   `childId`, `priority`, `recurrence`). A wrong JSON type (e.g. a number as `title`) is
//!   `invalid_field` with the field's name, and the field is left out.
//! - `startTime` (or `start_time`) is read as `timeOfDay`. `completed` must be a boolean
//!   (`invalid_completed` otherwise).
//! - Times written `9:05` or `09:05:00` are rewritten `09:05`; a `scheduledFor` with a time
//!   (`2026-11-21T09:00`) keeps its date and gives its time to `timeOfDay` when that is absent.
//! - `priority`: `low`, `medium`, `high`, any case; `med` and `normal` read as `medium`
//!   (`invalid_priority` otherwise).
//! - `recurrence`: an object `{type, interval, weekdays, until}` (`type` any case; `end` is read as
//!   `until`), or a string shorthand for the type (`"daily"`, `"none"`; `"once"` reads as `none`).
//!   `{}` reads as absent. Two more words are read for the type: `weekdays` (weekly, Monday to
//!   Friday, unless `weekdays` lists the days) and `every_n_days` (daily; the interval from
//!   `interval`, `n` or `every`). Weekdays: `mon`, `monday`, `Mon`, `MO`... (`invalid_recurrence` with
//!   the field, e.g. `recurrence.weekdays`, for anything unreadable).
//! - Bulk markers are `bulk_not_supported`: a `where`, `filter` or `query` field, an `ids` field,
//!   `all: true`, an `id` of `*` or `all`, or an op that names a bulk operation (`bulk_delete`,
//!   `delete_all`: also `unknown_op`).
//! - Messages and repair notes quote a caller's value by at most 40 characters.
//!
//! An element whose kind or op cannot be read has `operation: None` (and at least one issue).

use serde_json::{Map, Value};

use super::model::{ItemKind, ItemRef, OpIssue, OpType, PlannerOperation, Priority, Recurrence};
use super::words::normalize_time;
use crate::kernel::limits::excerpt;

pub use super::words::{
    is_bulk_op, parse_kind, parse_op, parse_priority, parse_recurrence_alias,
    parse_recurrence_type, parse_weekday, type_str,
};

/// One operation after shaping: the typed operation if it could be read, and the problems found.
#[derive(Debug, Clone, PartialEq)]
pub struct ShapedOp {
    /// Position in the list as given.
    pub index: u32,
    /// The typed operation, or `None` when it could not be read (e.g. an unknown kind).
    pub operation: Option<PlannerOperation>,
    /// Problems found while shaping (e.g. `unknown_kind`, `bulk_not_supported`).
    pub issues: Vec<OpIssue>,
    /// Normalisations made (e.g. `inferred op "update" from the id`).
    pub repairs: Vec<String>,
}

/// Typed operations (from an app) as shaped ones, with nothing to report.
pub fn shape_typed(ops: Vec<PlannerOperation>) -> Vec<ShapedOp> {
    ops.into_iter()
        .enumerate()
        .map(|(i, op)| ShapedOp {
            index: i as u32,
            operation: Some(op),
            issues: Vec::new(),
            repairs: Vec::new(),
        })
        .collect()
}

/// Shapes `{"operations":[...]}` or a bare array. `Err` (code `no_operations`) when the value
/// holds no operation list. See the module documentation for what is accepted.
pub fn shape_operations(value: &Value) -> Result<Vec<ShapedOp>, OpIssue> {
    let list = match value {
        Value::Array(a) => a,
        Value::Object(m) => match m.get("operations") {
            Some(Value::Array(a)) => a,
            _ => {
                return Err(OpIssue {
                    code: "no_operations".into(),
                    field: Some("operations".into()),
                    message: "expected an object with an \"operations\" array, or an array".into(),
                })
            }
        },
        _ => {
            return Err(OpIssue {
                code: "no_operations".into(),
                field: None,
                message: "expected an object with an \"operations\" array, or an array".into(),
            })
        }
    };
    Ok(list
        .iter()
        .enumerate()
        .map(|(i, v)| shape_one(i as u32, v))
        .collect())
}

/// Shapes one element of an operation list (see the module documentation).
pub fn shape_one(index: u32, value: &Value) -> ShapedOp {
    let mut s = Shaper::default();
    let operation = match value {
        Value::Object(obj) => s.shape(obj),
        other => {
            s.issue(
                "invalid_operation",
                None,
                format!(
                    "an operation must be a JSON object, not {}",
                    json_type(other)
                ),
            );
            None
        }
    };
    ShapedOp {
        index,
        operation,
        issues: s.issues,
        repairs: s.repairs,
    }
}

/// A recurrence type (`daily`), or one of the words of [`parse_recurrence_alias`].
fn word(s: &str) -> Option<Recurrence> {
    parse_recurrence_type(s)
        .map(|kind| Recurrence {
            kind,
            ..Recurrence::none()
        })
        .or_else(|| parse_recurrence_alias(s))
}

fn json_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[derive(Default)]
struct Shaper {
    issues: Vec<OpIssue>,
    repairs: Vec<String>,
}

/// Content fields: any of them present makes an `id`-only operation an update.
const CONTENT: [&str; 15] = [
    "title",
    "notes",
    "scheduledFor",
    "scheduled_for",
    "timeOfDay",
    "time_of_day",
    "startTime",
    "start_time",
    "endTime",
    "end_time",
    "priority",
    "recurrence",
    "items",
    "item",
    "children",
];

fn is_blank(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::String(s) => s.trim().is_empty(),
        Value::Array(a) => a.is_empty(),
        _ => false,
    }
}

impl Shaper {
    fn issue(&mut self, code: &str, field: Option<&str>, message: String) {
        self.issues.push(OpIssue {
            code: code.to_string(),
            field: field.map(str::to_string),
            message,
        });
    }

    /// The first of `names` present with a non-null value, and the name it was found under.
    fn get<'a>(
        obj: &'a Map<String, Value>,
        names: &[&'static str],
    ) -> Option<(&'static str, &'a Value)> {
        names
            .iter()
            .find_map(|n| obj.get(*n).filter(|v| !v.is_null()).map(|v| (*n, v)))
    }

    /// A nullable string field: trimmed, blank → `None`, wrong type → `invalid_field`.
    fn string(&mut self, obj: &Map<String, Value>, names: &[&'static str]) -> Option<String> {
        let (name, v) = Self::get(obj, names)?;
        match v {
            Value::String(s) => {
                let t = s.trim();
                (!t.is_empty()).then(|| t.to_string())
            }
            other => {
                self.issue(
                    "invalid_field",
                    Some(names[0]),
                    format!("{name} must be a string, not {}", json_type(other)),
                );
                None
            }
        }
    }

    fn time(&mut self, obj: &Map<String, Value>, names: &[&'static str]) -> Option<String> {
        let s = self.string(obj, names)?;
        match normalize_time(&s) {
            Some(t) => {
                self.repairs.push(format!(
                    "{} \"{s}\" read as \"{t}\"",
                    names[0],
                    s = excerpt(&s)
                ));
                Some(t)
            }
            None => Some(s),
        }
    }

    fn shape(&mut self, obj: &Map<String, Value>) -> Option<PlannerOperation> {
        self.bulk_markers(obj);

        let id = self.string(obj, &["id"]);
        // op
        let mut op_field = Self::get(obj, &["op", "action", "type"]);
        // `"type":"todo"` without a kind: the model meant the kind.
        let mut kind_from_type = None;
        if let Some(("type", Value::String(s))) = op_field {
            if parse_op(s).is_none() && Self::get(obj, &["kind"]).is_none() {
                if let Some(k) = parse_kind(s) {
                    kind_from_type = Some(k);
                    op_field = None;
                }
            }
        }
        let op_given = match op_field {
            None => None,
            Some((_, Value::String(s))) if s.trim().is_empty() => None,
            Some((name, Value::String(s))) => match parse_op(s) {
                Some(op) => {
                    if op.as_str() != s.as_str() {
                        self.repairs.push(format!(
                            "{name} \"{s}\" read as \"{}\"",
                            op.as_str(),
                            s = excerpt(s)
                        ));
                    }
                    Some(op)
                }
                None => {
                    self.issue(
                        "unknown_op",
                        Some("op"),
                        format!("unknown op \"{}\"", excerpt(s)),
                    );
                    if is_bulk_op(s) {
                        self.issues.push(bulk_issue("op", &excerpt(s.trim())));
                    }
                    return None;
                }
            },
            Some((name, other)) => {
                self.issue(
                    "invalid_field",
                    Some("op"),
                    format!("{name} must be a string, not {}", json_type(other)),
                );
                return None;
            }
        };
        // kind
        let kind = match Self::get(obj, &["kind"]) {
            Some((_, Value::String(s))) if !s.trim().is_empty() => match parse_kind(s) {
                Some(k) => {
                    if k.as_str() != s.as_str() {
                        self.repairs.push(format!(
                            "kind \"{s}\" read as \"{}\"",
                            k.as_str(),
                            s = excerpt(s)
                        ));
                    }
                    k
                }
                None => {
                    self.issue(
                        "unknown_kind",
                        Some("kind"),
                        format!(
                            "unknown kind \"{}\" (todo, event, habit or goal)",
                            excerpt(s)
                        ),
                    );
                    return None;
                }
            },
            Some((_, Value::String(_))) | None => {
                if let Some(k) = kind_from_type {
                    self.repairs
                        .push(format!("kind read from type \"{}\"", k.as_str()));
                    k
                } else if op_given.is_some_and(|o| o.as_str().starts_with("goal_")) {
                    self.repairs
                        .push("kind inferred as \"goal\" from the op".to_string());
                    ItemKind::Goal
                } else {
                    self.issue(
                        "missing_kind",
                        Some("kind"),
                        "kind is required (todo, event, habit or goal)".into(),
                    );
                    return None;
                }
            }
            Some((_, other)) => {
                self.issue(
                    "invalid_field",
                    Some("kind"),
                    format!("kind must be a string, not {}", json_type(other)),
                );
                return None;
            }
        };
        let op = match op_given {
            Some(op) => op,
            None => self.infer_op(obj, kind, id.is_some())?,
        };

        let mut o = PlannerOperation::new(op, kind);
        o.id = id;
        o.title = self.string(obj, &["title"]);
        o.notes = self.string(obj, &["notes"]);
        o.scheduled_for = self.string(obj, &["scheduledFor", "scheduled_for"]);
        o.time_of_day = self.time(
            obj,
            &["timeOfDay", "time_of_day", "startTime", "start_time"],
        );
        self.split_date_time(&mut o);
        o.end_time = self.time(obj, &["endTime", "end_time"]);
        o.occurrence_date = self.string(obj, &["occurrenceDate", "occurrence_date"]);
        o.child_id = self.string(obj, &["childId", "child_id"]);
        o.priority = self.priority(obj);
        o.recurrence = self.recurrence(obj);
        if let Some((_, v)) = Self::get(obj, &["items"]) {
            o.items = self.item_refs(v);
        }
        if let Some((_, v)) = Self::get(obj, &["item"]) {
            o.item = self.item_ref(v, "item");
        }
        if let Some((_, v)) = Self::get(obj, &["children"]) {
            o.children = self.children(v);
        }
        o.completed = self.completed(obj);
        Some(o)
    }

    /// `scheduledFor` written as a date and time (`2026-11-21T09:00`, `2026-11-21 09:00:00`): the
    /// date stays, the time goes to `timeOfDay` unless one is given.
    fn split_date_time(&mut self, o: &mut PlannerOperation) {
        let Some(s) = o.scheduled_for.as_deref() else {
            return;
        };
        let b = s.as_bytes();
        if b.len() < 16 || !matches!(b[10], b'T' | b't' | b' ') || !s.is_char_boundary(10) {
            return;
        }
        let (date, rest) = (&s[..10], &s[11..]);
        if !rest.is_ascii() {
            return;
        }
        let time = match rest.len() {
            5 => rest.to_string(),
            8 if rest.ends_with(":00") => rest[..5].to_string(),
            _ => return,
        };
        if super::date::Date::parse(date).is_none() || super::date::parse_time(&time).is_none() {
            return;
        }
        let repair = if o.time_of_day.is_none() {
            format!(
                "scheduledFor \"{s}\" split into scheduledFor {date} and timeOfDay {time}",
                s = excerpt(s)
            )
        } else {
            format!(
                "scheduledFor \"{s}\" read as {date} (timeOfDay given)",
                s = excerpt(s)
            )
        };
        if o.time_of_day.is_none() {
            o.time_of_day = Some(time);
        }
        o.scheduled_for = Some(date.to_string());
        self.repairs.push(repair);
    }

    fn infer_op(
        &mut self,
        obj: &Map<String, Value>,
        kind: ItemKind,
        has_id: bool,
    ) -> Option<OpType> {
        let goal = kind == ItemKind::Goal;
        let present = |n: &str| obj.get(n).is_some_and(|v| !is_blank(v));
        let op = if !has_id {
            if goal {
                OpType::GoalCreate
            } else {
                OpType::Create
            }
        } else if goal {
            if present("item") || present("childId") || present("child_id") {
                self.issue(
                    "missing_op",
                    Some("op"),
                    "op is required: say which goal operation (goal_remove_item, goal_add_child, \
                     goal_remove_child...)"
                        .into(),
                );
                return None;
            }
            let only_items =
                present("items") && !CONTENT.iter().any(|n| *n != "items" && present(n));
            if only_items {
                OpType::GoalAddItems
            } else {
                OpType::GoalUpdate
            }
        } else if present("occurrenceDate") || present("occurrence_date") {
            OpType::CompleteOccurrence
        } else if matches!(obj.get("completed"), Some(Value::Bool(_)))
            && !CONTENT.iter().any(|n| present(n))
        {
            OpType::Complete
        } else {
            if let Some(Value::Bool(b)) = obj.get("completed") {
                self.repairs.push(format!(
                    "completed:{b} ignored on an update (completing is its own operation)"
                ));
            }
            OpType::Update
        };
        self.repairs
            .push(format!("op inferred as \"{}\"", op.as_str()));
        Some(op)
    }

    /// `completed`: a boolean (`false` un-completes); anything else is `invalid_completed`.
    fn completed(&mut self, obj: &Map<String, Value>) -> Option<bool> {
        match Self::get(obj, &["completed"])? {
            (_, Value::Bool(b)) => Some(*b),
            (_, other) => {
                self.issue(
                    "invalid_completed",
                    Some("completed"),
                    format!("completed must be true or false, not {}", json_type(other)),
                );
                None
            }
        }
    }

    fn bulk_markers(&mut self, obj: &Map<String, Value>) {
        for marker in ["where", "filter", "query", "ids"] {
            if obj.get(marker).is_some_and(|v| !v.is_null()) {
                self.issues.push(bulk_issue(marker, marker));
            }
        }
        if obj.get("all") == Some(&Value::Bool(true)) {
            self.issues.push(bulk_issue("all", "all: true"));
        }
        if let Some(Value::String(id)) = obj.get("id") {
            if is_bulk_id(id) {
                self.issues.push(bulk_issue("id", &excerpt(id.trim())));
            }
        }
    }

    fn priority(&mut self, obj: &Map<String, Value>) -> Option<Priority> {
        let (_, v) = Self::get(obj, &["priority"])?;
        match v {
            Value::String(s) if s.trim().is_empty() => None,
            Value::String(s) => match parse_priority(s) {
                Some(p) => {
                    let canon = match p {
                        Priority::Low => "low",
                        Priority::Medium => "medium",
                        Priority::High => "high",
                    };
                    if canon != s {
                        self.repairs.push(format!(
                            "priority \"{s}\" read as \"{canon}\"",
                            s = excerpt(s)
                        ));
                    }
                    Some(p)
                }
                None => {
                    self.issue(
                        "invalid_priority",
                        Some("priority"),
                        format!("unknown priority \"{}\" (low, medium or high)", excerpt(s)),
                    );
                    None
                }
            },
            other => {
                self.issue(
                    "invalid_priority",
                    Some("priority"),
                    format!(
                        "priority must be \"low\", \"medium\" or \"high\", not {}",
                        json_type(other)
                    ),
                );
                None
            }
        }
    }

    fn recurrence(&mut self, obj: &Map<String, Value>) -> Option<Recurrence> {
        let (_, v) = Self::get(obj, &["recurrence"])?;
        let bad = |s: &mut Self, field: &str, msg: String| {
            s.issue("invalid_recurrence", Some(field), msg);
            None
        };
        match v {
            Value::String(s) if s.trim().is_empty() => None,
            Value::String(s) => match word(s) {
                Some(rec) => {
                    self.repairs.push(format!(
                        "recurrence \"{s}\" read as {{type:'{}'{}}}",
                        type_str(rec.kind),
                        if rec.weekdays.is_empty() {
                            ""
                        } else {
                            ", weekdays mon to fri"
                        },
                        s = excerpt(s)
                    ));
                    Some(rec)
                }
                None => bad(
                    self,
                    "recurrence",
                    format!(
                        "unknown recurrence \"{}\" (none, daily, weekly, monthly or yearly)",
                        excerpt(s)
                    ),
                ),
            },
            Value::Object(r) if r.values().all(Value::is_null) => {
                self.repairs
                    .push("empty recurrence read as absent".to_string());
                None
            }
            Value::Object(r) => {
                let mut rec = match Self::get(r, &["type", "kind", "freq", "frequency"]) {
                    Some((_, Value::String(s))) => match word(s) {
                        Some(rec) => rec,
                        None => {
                            return bad(
                                self,
                                "recurrence.type",
                                format!("unknown recurrence type \"{}\" (none, daily, weekly, monthly or yearly)", excerpt(s)),
                            )
                        }
                    },
                    Some((_, other)) => {
                        return bad(
                            self,
                            "recurrence.type",
                            format!("recurrence.type must be a string, not {}", json_type(other)),
                        )
                    }
                    None => {
                        return bad(
                            self,
                            "recurrence.type",
                            "recurrence.type is required (none, daily, weekly, monthly or yearly)"
                                .into(),
                        )
                    }
                };
                if let Some((_, v)) = Self::get(r, &["interval", "n", "every"]) {
                    let n = v.as_u64().or_else(|| {
                        v.as_f64()
                            .filter(|f| f.fract() == 0.0 && *f >= 0.0 && *f <= u32::MAX as f64)
                            .map(|f| f as u64)
                    });
                    match n.and_then(|n| u32::try_from(n).ok()) {
                        Some(n) => rec.interval = Some(n),
                        None => {
                            self.issue(
                                "invalid_recurrence",
                                Some("recurrence.interval"),
                                "recurrence.interval must be a whole number from 1 to 365".into(),
                            );
                        }
                    }
                }
                if let Some((_, v)) = Self::get(r, &["weekdays", "days", "byday"]) {
                    let single;
                    let list: &[Value] = match v {
                        Value::Array(a) => a,
                        Value::String(_) => {
                            single = [v.clone()];
                            &single
                        }
                        _ => &[],
                    };
                    let mut good = matches!(v, Value::Array(_) | Value::String(_));
                    // Days given replace those of the `weekdays` word.
                    rec.weekdays.clear();
                    for d in list {
                        match d.as_str().and_then(parse_weekday) {
                            Some(w) => {
                                if !rec.weekdays.contains(&w) {
                                    rec.weekdays.push(w);
                                }
                            }
                            None => good = false,
                        }
                    }
                    if !good {
                        self.issue(
                            "invalid_recurrence",
                            Some("recurrence.weekdays"),
                            "recurrence.weekdays must be a list of mon, tue, wed, thu, fri, sat, sun"
                                .into(),
                        );
                    }
                }
                if let Some((_, v)) = Self::get(r, &["until", "end"]) {
                    match v {
                        Value::String(s) if s.trim().is_empty() => {}
                        Value::String(s) => rec.until = Some(s.trim().to_string()),
                        other => {
                            self.issue(
                                "invalid_recurrence",
                                Some("recurrence.until"),
                                format!(
                                    "recurrence.until must be a date (YYYY-MM-DD) or null, not {}",
                                    json_type(other)
                                ),
                            );
                        }
                    }
                }
                Some(rec)
            }
            other => bad(
                self,
                "recurrence",
                format!(
                    "recurrence must be an object like {{\"type\":\"none\"}}, not {}",
                    json_type(other)
                ),
            ),
        }
    }

    fn item_ref(&mut self, v: &Value, field: &str) -> Option<ItemRef> {
        let parsed = match v {
            Value::Object(m) => {
                let kind = m.get("kind").and_then(Value::as_str).and_then(parse_kind);
                let id = m
                    .get("id")
                    .and_then(Value::as_str)
                    .map(str::trim)
                    .filter(|s| !s.is_empty());
                kind.zip(id).map(|(kind, id)| ItemRef {
                    kind,
                    id: id.to_string(),
                })
            }
            _ => None,
        };
        if parsed.is_none() {
            self.issue(
                "invalid_field",
                Some(field),
                format!("{field} must be an object {{\"kind\":\"todo\",\"id\":\"...\"}}"),
            );
        }
        parsed
    }

    fn item_refs(&mut self, v: &Value) -> Vec<ItemRef> {
        match v {
            Value::Array(a) => {
                let mut out = Vec::with_capacity(a.len());
                for (i, x) in a.iter().enumerate() {
                    if let Some(r) = self.item_ref(x, &format!("items[{i}]")) {
                        out.push(r);
                    }
                }
                out
            }
            other => {
                self.issue(
                    "invalid_field",
                    Some("items"),
                    format!("items must be an array, not {}", json_type(other)),
                );
                Vec::new()
            }
        }
    }

    fn children(&mut self, v: &Value) -> Vec<String> {
        match v {
            Value::Array(a) => {
                let mut out = Vec::with_capacity(a.len());
                for (i, x) in a.iter().enumerate() {
                    match x.as_str().map(str::trim) {
                        Some(s) if !s.is_empty() => out.push(s.to_string()),
                        _ => self.issue(
                            "invalid_field",
                            Some(&format!("children[{i}]")),
                            "children must be goal ids (strings)".into(),
                        ),
                    }
                }
                out
            }
            other => {
                self.issue(
                    "invalid_field",
                    Some("children"),
                    format!(
                        "children must be an array of goal ids, not {}",
                        json_type(other)
                    ),
                );
                Vec::new()
            }
        }
    }
}

/// Whether an id stands for many items (`*`, `all`).
pub(crate) fn is_bulk_id(id: &str) -> bool {
    let id = id.trim();
    id == "*" || id.eq_ignore_ascii_case("all")
}

/// The `bulk_not_supported` issue for `field` (what the operation said: `what`).
pub(crate) fn bulk_issue(field: &str, what: &str) -> OpIssue {
    OpIssue {
        code: "bulk_not_supported".into(),
        field: Some(field.into()),
        message: format!(
            "bulk operations are not supported ({what}): name one item by id per operation"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn unreadable_elements_carry_an_issue() {
        for v in [json!(1), json!({}), json!({"kind": 1}), json!({"op": "x"})] {
            let s = shape_one(3, &v);
            assert_eq!(s.index, 3);
            assert_eq!(s.operation, None, "{v}");
            assert!(!s.issues.is_empty(), "{v}");
        }
    }
}
