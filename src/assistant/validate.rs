//! Validation of operations (spec 002, `validateProposal`) and the deterministic repairs. Pure: the
//! existing items an operation list names come in as [`KnownItems`] (looked up by the store with
//! [`referenced_items`]), and the app's date as `today`.
//!
//! Each operation is checked on its own against the stored state; of the effects of earlier
//! operations in the same list, only deletions are tracked: naming an item an earlier operation
//! deletes is `deleted_earlier` (other dependencies, e.g. a create then a link to the created
//! item, are not expressible: created ids are assigned by apply). Problems found while shaping (see
//! [`super::shape`]) are carried into the operation's check, which is then invalid; a field that
//! shaping already reported (e.g. a numeric `title`) is not reported again as missing, nor
//! repaired. Not checked here, for lack of the stored data: an update's `endTime` against the
//! stored start time, and cycles of child goals (apply refuses those).
//!
//! # Deterministic repairs (made first, recorded in [`OpCheck::repairs`])
//! - `create`/`update`/`delete` on a goal are read as `goal_create`/`goal_update`/`goal_delete`.
//! - Blank strings in nullable fields become absent.
//! - A todo or event `create` without `recurrence` gets `{type:'none'}`.
//! - An `id` on a create that names no stored item is dropped (the library assigns ids); one that
//!   names a stored item stays an error (`unexpected_id`: perhaps an update was meant).
//! - An `update` of a todo, event or habit without `recurrence` gets the stored item's recurrence
//!   (a repeating item never silently becomes a one-off).
//! - A repeating item without an anchor (`scheduledFor`) gets one: on `update` the stored item's
//!   `scheduledFor`, else `today`; on `create`, `today`.
//! - A master `complete` of a stored repeating item becomes `complete_occurrence` of `today` when
//!   today is one of its occurrences (otherwise it stays invalid: `use_complete_occurrence`); a
//!   `complete_occurrence` without `occurrenceDate` gets `today` under the same condition.
//! - Fields the operation does not use (e.g. `items` on a todo `update`, `recurrence` on a goal,
//!   `endTime` on a todo, `title` on a `delete`) are dropped.
//!
//! - `completed` is dropped from every op but `complete` and `complete_occurrence`, where `false`
//!   un-completes (the item, or the occurrence).
//!
//! Messages and repair notes quote a caller's value (an unknown id, an unreadable date) by at most
//! 40 characters ([`crate::kernel::limits::excerpt`]).
//!
//! A habit `create` without recurrence is NOT repaired (`missing_recurrence`: the model must say how
//! it repeats). Goals cannot be completed by an operation (`op_not_allowed`).
//!
//! # Issue codes (stable; `field` names the camelCase field when there is one)
//! | code | meaning |
//! |---|---|
//! | `no_operations` | (shaping, list) the JSON holds no operation list |
//! | `invalid_operation` | (shaping) an element is not a JSON object |
//! | `missing_kind`, `unknown_kind` | (shaping) no kind, or not todo/event/habit/goal |
//! | `missing_op`, `unknown_op` | (shaping) op cannot be inferred, or is not one of the 12 |
//! | `invalid_field` | (shaping) a field has the wrong JSON type or shape |
//! | `invalid_priority` | (shaping) not low/medium/high |
//! | `invalid_completed` | (shaping) `completed` is not a boolean |
//! | `bulk_not_supported` | `where`/`filter`/`query`/`ids`, `all: true`, id `*`/`all`, or a bulk op name (`bulk_delete`, `delete_all`; with `unknown_op`) |
//! | `too_many_operations` | (list, in [`Validation::errors`]) more than 20 operations (a text of operations is counted before it is shaped: its validation then has no checks) |
//! | `op_not_allowed` | the op does not apply to the kind (e.g. `goal_add_items` on a todo, `complete` on a goal) |
//! | `missing_id` | the op needs `id` |
//! | `unexpected_id` | `id` on a create naming a stored item (ids are assigned by the library; an id naming nothing is dropped, a deterministic repair) |
//! | `deleted_earlier` | the item is deleted by an earlier operation of the same list |
//! | `unknown_id` | no stored item of that kind with that id (`id`, `items[i]`, `item`, `childId`, `children[i]`) |
//! | `missing_title` | a create without a title |
//! | `invalid_title` | a title longer than 200 characters, or blank |
//! | `invalid_notes` | notes longer than 2000 characters ([`MAX_NOTES_CHARS`]) |
//! | `missing_recurrence` | a habit create without recurrence |
//! | `invalid_recurrence` | interval outside 1..=365, weekdays on a non-weekly rule, unreadable weekdays/type, `until` not a date or before the anchor |
//! | `habit_must_repeat` | a habit with `{type:'none'}` |
//! | `missing_anchor` | an event create without `scheduledFor` (repeating items get `today`) |
//! | `invalid_date` | `scheduledFor` or `occurrenceDate` not a `YYYY-MM-DD` date |
//! | `invalid_time` | `timeOfDay` or `endTime` not `HH:MM`, or an `endTime` without `timeOfDay` on an event create |
//! | `end_before_start` | an event `endTime` not after its `timeOfDay` |
//! | `use_complete_occurrence` | master `complete` of a repeating item that could not be converted (today is no occurrence) |
//! | `not_repeating` | `complete_occurrence` of an item that does not repeat |
//! | `missing_occurrence_date` | `complete_occurrence` without a date, and today is no occurrence |
//! | `not_an_occurrence` | `occurrenceDate` is not an occurrence of the item |
//! | `missing_items` | `goal_add_items` without items |
//! | `missing_item` | `goal_remove_item` without item |
//! | `invalid_item` | a goal item that is a goal (items are todos, events and habits) |
//! | `missing_child_id` | `goal_add_child`/`goal_remove_child` without `childId` |
//! | `self_child` | a goal as its own child |

mod fields;

use super::date::{occurs_on, Date};
use super::model::{
    ItemKind, ItemRef, KnownItem, KnownItems, OpCheck, OpIssue, OpType, PlannerOperation,
    Validation,
};
use super::shape::{bulk_issue, is_bulk_id, ShapedOp};
use super::MAX_OPERATIONS;
use crate::kernel::limits::excerpt;

/// The JSON Schema of a proposal (`{"operations":[...]}`), used for grammar-constrained decoding.
pub const OPS_SCHEMA: &str = include_str!("../../schemas/assistant-ops.json");

/// The longest title, in characters.
pub const MAX_TITLE_CHARS: usize = 200;

/// The existing items the operations name (targets, goal items, children), for the store to look
/// up; sorted, without duplicates.
pub fn referenced_items(ops: &[ShapedOp]) -> Vec<ItemRef> {
    let mut out = Vec::new();
    for op in ops.iter().filter_map(|s| s.operation.as_ref()) {
        let goal_op = op.op.as_str().starts_with("goal_");
        let target_kind = if goal_op { ItemKind::Goal } else { op.kind };
        if let Some(id) = &op.id {
            out.push(ItemRef {
                kind: target_kind,
                id: id.clone(),
            });
        }
        out.extend(op.items.iter().cloned());
        out.extend(op.item.iter().cloned());
        if let Some(c) = &op.child_id {
            out.push(ItemRef {
                kind: ItemKind::Goal,
                id: c.clone(),
            });
        }
        out.extend(op.children.iter().map(|c| ItemRef {
            kind: ItemKind::Goal,
            id: c.clone(),
        }));
    }
    out.sort();
    out.dedup();
    out
}

/// Validates `ops` against `known`, after the deterministic repairs; `today` anchors repeating
/// items that lack a date. See the module documentation for the repairs and the issue codes.
/// More than [`MAX_OPERATIONS`] operations is a list error (`too_many_operations`); each operation
/// is still checked.
pub fn validate(ops: &[ShapedOp], known: &KnownItems, today: Date) -> Validation {
    let mut checks: Vec<OpCheck> = ops.iter().map(|s| check_one(s, known, today)).collect();
    flag_uses_after_delete(&mut checks);
    let valid_count = checks.iter().filter(|c| c.valid).count() as u32;
    let mut errors = Vec::new();
    if ops.len() > MAX_OPERATIONS {
        errors.push(too_many_issue(ops.len()));
    }
    Validation {
        invalid_count: checks.len() as u32 - valid_count,
        valid_count,
        checks,
        errors,
    }
}

/// The list error of more than [`MAX_OPERATIONS`] operations (`too_many_operations`).
pub fn too_many_issue(count: usize) -> OpIssue {
    OpIssue {
        code: "too_many_operations".into(),
        field: Some("operations".into()),
        message: format!(
            "{count} operations: at most {MAX_OPERATIONS} may be proposed or applied at once"
        ),
    }
}

/// Operations are checked against the stored items one by one; the one dependency between them
/// that validation tracks is deletion: an operation naming an item that an earlier (valid)
/// operation of the list deletes is invalid (`deleted_earlier`), as applying it would fail.
fn flag_uses_after_delete(checks: &mut [OpCheck]) {
    let mut deleted: Vec<(ItemKind, String)> = Vec::new();
    for c in checks.iter_mut() {
        let Some(o) = &c.operation else { continue };
        let mut refs: Vec<(String, ItemKind, &str)> = Vec::new();
        if !matches!(o.op, OpType::Create | OpType::GoalCreate) {
            if let Some(id) = o.id.as_deref() {
                refs.push(("id".into(), o.kind, id));
            }
        }
        for (i, r) in o.items.iter().enumerate() {
            refs.push((format!("items[{i}]"), r.kind, &r.id));
        }
        if let Some(r) = &o.item {
            refs.push(("item".into(), r.kind, &r.id));
        }
        if let Some(id) = o.child_id.as_deref() {
            refs.push(("childId".into(), ItemKind::Goal, id));
        }
        for (i, id) in o.children.iter().enumerate() {
            refs.push((format!("children[{i}]"), ItemKind::Goal, id));
        }
        let mut issues = Vec::new();
        for (field, kind, id) in refs {
            if deleted.iter().any(|(k, d)| *k == kind && d == id) {
                issues.push(OpIssue {
                    code: "deleted_earlier".into(),
                    field: Some(field),
                    message: format!(
                        "an earlier operation of this list deletes this {}",
                        kind.as_str()
                    ),
                });
            }
        }
        if c.valid && matches!(o.op, OpType::Delete | OpType::GoalDelete) && issues.is_empty() {
            if let Some(id) = &o.id {
                deleted.push((o.kind, id.clone()));
            }
        }
        if !issues.is_empty() {
            c.errors.extend(issues);
            c.valid = false;
        }
    }
}

/// Validates one shaped operation (see [`validate`]).
pub fn check_one(shaped: &ShapedOp, known: &KnownItems, today: Date) -> OpCheck {
    let mut c = Checker {
        errors: shaped.issues.clone(),
        repairs: shaped.repairs.clone(),
        known,
        today,
    };
    let operation = shaped.operation.clone().map(|mut op| {
        c.check(&mut op);
        op
    });
    if operation.is_none() && c.errors.is_empty() {
        c.err(
            "invalid_operation",
            None,
            "the operation could not be read".into(),
        );
    }
    OpCheck {
        index: shaped.index,
        valid: c.errors.is_empty(),
        operation,
        errors: c.errors,
        repairs: c.repairs,
    }
}

struct Checker<'a> {
    errors: Vec<OpIssue>,
    repairs: Vec<String>,
    known: &'a KnownItems,
    today: Date,
}

fn blank_to_none(f: &mut Option<String>) -> bool {
    if f.as_deref().is_some_and(|s| s.trim().is_empty()) {
        *f = None;
        true
    } else {
        false
    }
}

/// The kinds an op applies to: todo/event/habit ops, or goal ops.
fn allowed(op: OpType, kind: ItemKind) -> bool {
    use OpType::*;
    match op {
        Create | Update | Delete | Complete | CompleteOccurrence => kind != ItemKind::Goal,
        GoalCreate | GoalUpdate | GoalDelete | GoalAddItems | GoalRemoveItem | GoalAddChild
        | GoalRemoveChild => kind == ItemKind::Goal,
    }
}

impl Checker<'_> {
    fn err(&mut self, code: &str, field: Option<&str>, message: String) {
        self.errors.push(OpIssue {
            code: code.to_string(),
            field: field.map(str::to_string),
            message,
        });
    }

    /// Whether shaping already reported `field` (or a part of it): its absence is not reported again
    /// and not repaired.
    fn bad(&self, field: &str) -> bool {
        self.errors.iter().any(|e| {
            e.field.as_deref().is_some_and(|f| {
                f.strip_prefix(field)
                    .is_some_and(|rest| rest.is_empty() || rest.starts_with(['.', '[']))
            })
        })
    }

    fn check(&mut self, o: &mut PlannerOperation) {
        self.normalize(o);

        if let Some(id) = o.id.as_deref().filter(|id| is_bulk_id(id)) {
            if !self.errors.iter().any(|e| e.code == "bulk_not_supported") {
                self.errors.push(bulk_issue("id", id));
            }
            return;
        }

        if o.kind == ItemKind::Goal {
            let synonym = match o.op {
                OpType::Create => Some(OpType::GoalCreate),
                OpType::Update => Some(OpType::GoalUpdate),
                OpType::Delete => Some(OpType::GoalDelete),
                _ => None,
            };
            if let Some(g) = synonym {
                self.repairs.push(format!(
                    "op \"{}\" on a goal read as \"{}\"",
                    o.op.as_str(),
                    g.as_str()
                ));
                o.op = g;
            }
        }
        if !allowed(o.op, o.kind) {
            let msg = if o.kind == ItemKind::Goal {
                format!(
                    "\"{}\" does not apply to goals (use goal_create, goal_update, goal_delete, goal_add_items, goal_remove_item, goal_add_child or goal_remove_child)",
                    o.op.as_str()
                )
            } else {
                format!(
                    "\"{}\" applies to goals only, not to a {}",
                    o.op.as_str(),
                    o.kind.as_str()
                )
            };
            self.err("op_not_allowed", Some("op"), msg);
            return;
        }

        // The target.
        let needs_id = !matches!(o.op, OpType::Create | OpType::GoalCreate);
        let known = self.known;
        let mut target: Option<&KnownItem> = None;
        if needs_id {
            match o.id.as_deref() {
                None if self.bad("id") => {}
                None => {
                    self.err(
                        "missing_id",
                        Some("id"),
                        format!(
                            "\"{}\" needs the id of the {}",
                            o.op.as_str(),
                            o.kind.as_str()
                        ),
                    );
                }
                Some(id) => match known.get(o.kind, id) {
                    Some(k) => target = Some(k),
                    None => self.err(
                        "unknown_id",
                        Some("id"),
                        format!(
                            "there is no {} with id \"{}\"",
                            o.kind.as_str(),
                            excerpt(id)
                        ),
                    ),
                },
            }
        } else if let Some(id) = o.id.as_deref() {
            if known.get(o.kind, id).is_some() {
                // It names a stored item: an update mislabelled as a create? Let the model decide.
                self.err(
                    "unexpected_id",
                    Some("id"),
                    "a create must not have an id (the library assigns it); to change an existing item use update".into(),
                );
            } else {
                // A made-up id (small models like to invent one): the library assigns ids anyway.
                o.id = None;
                self.repairs.push(
                    "dropped the id of a create (no such item; the library assigns ids)".into(),
                );
            }
        }

        // Master complete of a repeating item.
        if o.op == OpType::Complete {
            if let Some(k) = target.filter(|k| k.recurrence.repeats()) {
                if self.today_occurs(k) {
                    o.op = OpType::CompleteOccurrence;
                    o.occurrence_date = Some(self.today.to_string());
                    self.repairs.push(format!(
                        "complete of a repeating {} converted to complete_occurrence of {}",
                        o.kind.as_str(),
                        self.today
                    ));
                } else {
                    self.err(
                        "use_complete_occurrence",
                        Some("op"),
                        format!(
                            "the {} repeats and {} is not one of its occurrences: use complete_occurrence with the occurrenceDate",
                            o.kind.as_str(),
                            self.today
                        ),
                    );
                }
            }
        }

        self.drop_unused(o);

        match o.op {
            OpType::Create | OpType::Update => self.check_item(o, target),
            OpType::Delete | OpType::Complete | OpType::GoalDelete => {}
            OpType::CompleteOccurrence => self.check_occurrence(o, target),
            OpType::GoalCreate | OpType::GoalUpdate => {
                self.check_title(o);
                if o.op == OpType::GoalCreate {
                    self.check_goal_items(o);
                    for (i, c) in o.children.iter().enumerate() {
                        if self.known.get(ItemKind::Goal, c).is_none() {
                            self.errors.push(OpIssue {
                                code: "unknown_id".into(),
                                field: Some(format!("children[{i}]")),
                                message: format!("there is no goal with id \"{}\"", excerpt(c)),
                            });
                        }
                    }
                }
            }
            OpType::GoalAddItems => {
                if o.items.is_empty() && !self.bad("items") {
                    self.err(
                        "missing_items",
                        Some("items"),
                        "goal_add_items needs items [{kind, id}]".into(),
                    );
                }
                self.check_goal_items(o);
            }
            OpType::GoalRemoveItem => match &o.item {
                None if self.bad("item") => {}
                None => self.err(
                    "missing_item",
                    Some("item"),
                    "goal_remove_item needs item {kind, id}".into(),
                ),
                Some(r) => {
                    if r.kind == ItemKind::Goal {
                        self.err(
                            "invalid_item",
                            Some("item"),
                            "goal items are todos, events and habits; for a goal use goal_remove_child".into(),
                        );
                    } else if self.known.get(r.kind, &r.id).is_none() {
                        self.err(
                            "unknown_id",
                            Some("item"),
                            format!(
                                "there is no {} with id \"{}\"",
                                r.kind.as_str(),
                                excerpt(&r.id)
                            ),
                        );
                    }
                }
            },
            OpType::GoalAddChild | OpType::GoalRemoveChild => match o.child_id.as_deref() {
                None if self.bad("childId") => {}
                None => self.err(
                    "missing_child_id",
                    Some("childId"),
                    format!("{} needs childId (the child goal's id)", o.op.as_str()),
                ),
                Some(c) => {
                    if o.id.as_deref() == Some(c) {
                        self.err(
                            "self_child",
                            Some("childId"),
                            "a goal cannot be its own child".into(),
                        );
                    } else if self.known.get(ItemKind::Goal, c).is_none() {
                        self.err(
                            "unknown_id",
                            Some("childId"),
                            format!("there is no goal with id \"{}\"", excerpt(c)),
                        );
                    }
                }
            },
        }
    }

    fn normalize(&mut self, o: &mut PlannerOperation) {
        let mut n = 0;
        for f in [
            &mut o.id,
            &mut o.title,
            &mut o.notes,
            &mut o.scheduled_for,
            &mut o.time_of_day,
            &mut o.end_time,
            &mut o.occurrence_date,
            &mut o.child_id,
        ] {
            n += blank_to_none(f) as u32;
        }
        if let Some(r) = &mut o.recurrence {
            n += blank_to_none(&mut r.until) as u32;
        }
        if n > 0 {
            self.repairs.push("blank fields read as absent".to_string());
        }
    }

    /// Whether `today` is an occurrence of a stored repeating item.
    fn today_occurs(&self, k: &KnownItem) -> bool {
        k.scheduled_for
            .as_deref()
            .and_then(Date::parse)
            .is_some_and(|anchor| occurs_on(&k.recurrence, anchor, self.today))
    }

    /// Drops the fields `o.op` does not use, recording it.
    fn drop_unused(&mut self, o: &mut PlannerOperation) {
        use OpType::*;
        let item_fields = matches!(o.op, Create | Update);
        let goal_fields = matches!(o.op, GoalCreate | GoalUpdate);
        let mut dropped: [&str; 14] = [""; 14];
        let mut n = 0;
        let mut drop = |cond: bool, name: &'static str| {
            if cond {
                dropped[n] = name;
                n += 1;
            }
        };
        drop(!(item_fields || goal_fields) && o.title.is_some(), "title");
        drop(!(item_fields || goal_fields) && o.notes.is_some(), "notes");
        drop(
            !(item_fields || goal_fields) && o.priority.is_some(),
            "priority",
        );
        drop(!item_fields && o.scheduled_for.is_some(), "scheduledFor");
        drop(!item_fields && o.time_of_day.is_some(), "timeOfDay");
        drop(
            !(item_fields && o.kind == ItemKind::Event) && o.end_time.is_some(),
            "endTime",
        );
        drop(!item_fields && o.recurrence.is_some(), "recurrence");
        drop(
            o.op != CompleteOccurrence && o.occurrence_date.is_some(),
            "occurrenceDate",
        );
        drop(
            !matches!(o.op, GoalCreate | GoalAddItems) && !o.items.is_empty(),
            "items",
        );
        drop(o.op != GoalCreate && !o.children.is_empty(), "children");
        drop(o.op != GoalRemoveItem && o.item.is_some(), "item");
        drop(
            !matches!(o.op, GoalAddChild | GoalRemoveChild) && o.child_id.is_some(),
            "childId",
        );
        drop(
            !matches!(o.op, Complete | CompleteOccurrence) && o.completed.is_some(),
            "completed",
        );
        if n == 0 {
            return;
        }
        for name in &dropped[..n] {
            match *name {
                "title" => o.title = None,
                "notes" => o.notes = None,
                "priority" => o.priority = None,
                "scheduledFor" => o.scheduled_for = None,
                "timeOfDay" => o.time_of_day = None,
                "endTime" => o.end_time = None,
                "recurrence" => o.recurrence = None,
                "occurrenceDate" => o.occurrence_date = None,
                "items" => o.items.clear(),
                "children" => o.children.clear(),
                "item" => o.item = None,
                "completed" => o.completed = None,
                _ => o.child_id = None,
            }
        }
        self.repairs.push(format!(
            "dropped {} (not used by {} on a {})",
            dropped[..n].join(", "),
            o.op.as_str(),
            o.kind.as_str()
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::super::model::Recurrence;
    use super::super::shape::shape_operations;
    use super::*;
    use serde_json::json;

    fn today() -> Date {
        Date::parse("2026-11-21").unwrap()
    }

    fn run(v: serde_json::Value, known: &KnownItems) -> Validation {
        validate(&shape_operations(&v).unwrap(), known, today())
    }

    #[test]
    fn smoke_create_todo_repairs_recurrence() {
        let v = run(
            json!({"operations":[{"kind":"todo","title":"Buy milk","priority":"HIGH"}]}),
            &KnownItems::new(),
        );
        assert!(v.all_valid(), "{v:?}");
        let op = v.checks[0].operation.as_ref().unwrap();
        assert_eq!(op.op, OpType::Create);
        assert_eq!(op.recurrence, Some(Recurrence::none()));
    }

    #[test]
    fn smoke_habit_without_recurrence_is_invalid() {
        let v = run(
            json!([{"op":"create","kind":"habit","title":"Run"}]),
            &KnownItems::new(),
        );
        assert_eq!(v.invalid_count, 1);
        assert_eq!(v.checks[0].errors[0].code, "missing_recurrence");
    }
}
