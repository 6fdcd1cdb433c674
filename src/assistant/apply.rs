//! Dry-run, apply and the planner reads: the part of the assistant that uses the store.
//!
//! # Apply
//! [`apply`] runs in ONE IMMEDIATE transaction:
//! 1. with an idempotency key, looks the key up: the same operations again return the stored
//!    result with `replayed: true`; other operations are [`Error::IdempotencyConflict`];
//! 2. looks up the items the operations name and validates the list
//!    ([`validate::validate`](super::validate::validate)); any invalid operation, or a list-level
//!    error such as more than 20 operations, is [`Error::OperationsRejected`];
//! 3. executes the (repaired) operations in order ([`execute`]) with one audit entry per action,
//!    holding the item as JSON before and after;
//! 4. stores the result under the key.
//!
//! Any failure on the way (a constraint, an item deleted by an earlier operation of the same list)
//! rolls the whole transaction back: nothing of the list is applied, no audit entry, no key.
//!
//! The request hash of an idempotency key is a 128-bit FNV-1a of the canonical JSON of the shaped
//! operations (the typed operations as serde writes them, in order). It does not cover `today`:
//! a retry after midnight with the same key and operations is still a replay.

use std::collections::HashSet;

use super::date::{occurrences, Date};
use super::model::{
    AppliedOp, ApplyResult, AuditEntry, ItemKind, ItemRef, KnownItems, OpType, PlannerItem,
    PlannerOperation, Priority, Recurrence, Validation, WeekEntry, WeekSnapshot,
};
use super::shape::{shape_operations, ShapedOp};
use super::validate::{referenced_items, validate};
use super::MAX_OPERATIONS;
use crate::clock::Clock;
use crate::error::{Error, Result};
use crate::ids::IdGenerator;
use crate::store::{Db, Store};

/// How many problems [`Error::OperationsRejected`] lists in its detail.
const MAX_DETAIL_ISSUES: usize = 5;

/// The existing items among `refs` (missing ones are simply absent).
pub fn known_items(store: &Store, refs: &[ItemRef]) -> Result<KnownItems> {
    store.read(|db| db.known_items(refs))
}

/// Validation results (with the deterministic repairs) for `ops`; the database is not changed.
pub fn dry_run(store: &Store, ops: Vec<ShapedOp>, today: Date) -> Result<Validation> {
    let known = known_items(store, &referenced_items(&ops))?;
    Ok(validate(&ops, &known, today))
}

fn shape_json(json: &str) -> Result<Vec<ShapedOp>> {
    let value: serde_json::Value = serde_json::from_str(json).map_err(|e| {
        let why = crate::error::describe_json_error(&e);
        Error::InvalidArgument(format!("operations are not valid JSON: {why}"))
    })?;
    shape_operations(&value).map_err(|issue| Error::InvalidArgument(issue.message))
}

/// `ops` as JSON (`{"operations":[...]}` or an array), shaped then dry-run. `InvalidArgument`
/// when the text holds no operation list.
pub fn dry_run_json(store: &Store, json: &str, today: Date) -> Result<Validation> {
    dry_run(store, shape_json(json)?, today)
}

/// 128-bit FNV-1a of the canonical JSON of the operations, as 32 hex digits.
pub fn request_hash(ops: &[ShapedOp]) -> String {
    let canonical: Vec<Option<&PlannerOperation>> =
        ops.iter().map(|s| s.operation.as_ref()).collect();
    let bytes = serde_json::to_vec(&canonical).unwrap_or_default();
    format!("{:032x}", fnv1a_128(&bytes))
}

fn fnv1a_128(bytes: &[u8]) -> u128 {
    const OFFSET: u128 = 0x6c62_272e_07bb_0142_62b8_2175_6295_c58d;
    const PRIME: u128 = 0x0000_0000_0100_0000_0000_0000_0000_013b;
    bytes
        .iter()
        .fold(OFFSET, |h, b| (h ^ *b as u128).wrapping_mul(PRIME))
}

/// The rejection error: `index: field: code` lines (codes, not messages: messages quote the
/// caller's values, and errors carry no user data; `dry_run` gives the messages).
fn rejected(v: &Validation, total: usize) -> Error {
    let mut lines: Vec<String> = v
        .errors
        .iter()
        .map(|e| format!("list: {}: {}", e.field.as_deref().unwrap_or("-"), e.code))
        .collect();
    for c in v.checks.iter().filter(|c| !c.valid) {
        for e in &c.errors {
            lines.push(format!(
                "{}: {}: {}",
                c.index,
                e.field.as_deref().unwrap_or("-"),
                e.code
            ));
        }
    }
    let more = lines.len().saturating_sub(MAX_DETAIL_ISSUES);
    lines.truncate(MAX_DETAIL_ISSUES);
    if more > 0 {
        lines.push(format!("and {more} more"));
    }
    let invalid = if v.invalid_count == 0 && !v.errors.is_empty() {
        total as u32
    } else {
        v.invalid_count
    };
    Error::OperationsRejected {
        invalid,
        total: total as u32,
        detail: lines.join("; "),
    }
}

fn too_many(total: usize) -> Error {
    Error::OperationsRejected {
        invalid: total as u32,
        total: total as u32,
        detail: format!("list: -: too_many_operations ({total}, at most {MAX_OPERATIONS})"),
    }
}

/// Validates `ops` and, when all are valid, applies them in one transaction with one audit entry
/// per action. With `idempotency_key`: the same key and operations again return the stored result
/// (`replayed`); the same key with other operations is `Error::IdempotencyConflict`. Invalid
/// operations: `Error::OperationsRejected`, nothing applied. More than 20: `OperationsRejected`.
pub fn apply(
    store: &Store,
    clock: &dyn Clock,
    ids: &mut IdGenerator,
    ops: Vec<ShapedOp>,
    idempotency_key: Option<&str>,
    today: Date,
) -> Result<ApplyResult> {
    let total = ops.len();
    if total > MAX_OPERATIONS {
        return Err(too_many(total));
    }
    let hash = idempotency_key.map(|_| request_hash(&ops));
    store.write(|db| {
        if let (Some(key), Some(hash)) = (idempotency_key, hash.as_deref()) {
            if let Some((stored_hash, response)) = db.idempotency_get(key)? {
                if stored_hash != hash {
                    return Err(Error::IdempotencyConflict);
                }
                let mut result: ApplyResult = serde_json::from_str(&response).map_err(|e| {
                    Error::Internal(format!("stored idempotent response unreadable: {e}"))
                })?;
                result.replayed = true;
                return Ok(result);
            }
        }
        let known = db.known_items(&referenced_items(&ops))?;
        let validation = validate(&ops, &known, today);
        if !validation.all_valid() || validation.checks.len() != total {
            return Err(rejected(&validation, total));
        }
        let mut repairs = Vec::new();
        let mut valid = Vec::with_capacity(total);
        for c in validation.checks {
            repairs.extend(c.repairs.iter().map(|r| format!("{}: {r}", c.index)));
            match c.operation {
                Some(op) => valid.push(op),
                None => return Err(Error::Internal("a valid check without an operation".into())),
            }
        }
        let request_id = ids.next_id();
        let now = clock.now_ms();
        let applied = execute(db, ids, &valid, &request_id, now)?;
        let result = ApplyResult {
            request_id,
            applied,
            repairs,
            replayed: false,
        };
        if let (Some(key), Some(hash)) = (idempotency_key, hash.as_deref()) {
            let json = serde_json::to_string(&result)
                .map_err(|e| Error::Internal(format!("apply result as JSON: {e}")))?;
            db.idempotency_put(key, hash, &json, now)?;
        }
        Ok(result)
    })
}

/// [`apply`] for operations as JSON.
pub fn apply_json(
    store: &Store,
    clock: &dyn Clock,
    ids: &mut IdGenerator,
    json: &str,
    idempotency_key: Option<&str>,
    today: Date,
) -> Result<ApplyResult> {
    apply(store, clock, ids, shape_json(json)?, idempotency_key, today)
}

fn missing(what: &str, op: &PlannerOperation) -> Error {
    Error::InvalidArgument(format!(
        "{} {} needs {what}",
        op.op.as_str(),
        op.kind.as_str()
    ))
}

/// `NotFound` for a missing item: names its kind, never its id (an id may be user text).
fn not_found(kind: ItemKind) -> Error {
    Error::NotFound(format!("no such {}", kind.as_str()))
}

fn to_json(item: &PlannerItem) -> Result<String> {
    serde_json::to_string(item).map_err(|e| Error::Internal(format!("item as JSON: {e}")))
}

/// Executes operations that passed validation, in order, on `db` (call it inside
/// [`Store::write`]): creations get ids from `ids`, updates change only the fields they give, and
/// every action appends one audit entry under `request_id` with the item before and after. An
/// operation that cannot be carried out (its item is gone, e.g. deleted by an earlier operation of
/// the same list; a goal link to a missing item; a cycle of child goals) is an error, and the
/// caller's transaction then rolls back everything.
pub fn execute(
    db: &Db<'_>,
    ids: &mut IdGenerator,
    ops: &[PlannerOperation],
    request_id: &str,
    now_ms: i64,
) -> Result<Vec<AppliedOp>> {
    let mut applied = Vec::with_capacity(ops.len());
    for (index, op) in ops.iter().enumerate() {
        let (kind, id, before, after) = execute_one(db, ids, op, now_ms)?;
        db.insert_audit(&AuditEntry {
            seq: 0,
            request_id: request_id.to_string(),
            op: op.op,
            kind,
            item_id: id.clone(),
            before_json: before.as_ref().map(to_json).transpose()?,
            after_json: after.as_ref().map(to_json).transpose()?,
            at_ms: now_ms,
        })?;
        applied.push(AppliedOp {
            index: index as u32,
            op: op.op,
            kind,
            id,
        });
    }
    Ok(applied)
}

type Outcome = (ItemKind, String, Option<PlannerItem>, Option<PlannerItem>);

fn is_goal_op(op: &PlannerOperation) -> bool {
    op.kind == ItemKind::Goal
        || !matches!(
            op.op,
            OpType::Create
                | OpType::Update
                | OpType::Delete
                | OpType::Complete
                | OpType::CompleteOccurrence
        )
}

fn execute_one(
    db: &Db<'_>,
    ids: &mut IdGenerator,
    op: &PlannerOperation,
    now: i64,
) -> Result<Outcome> {
    let kind = if is_goal_op(op) {
        ItemKind::Goal
    } else {
        op.kind
    };
    if matches!(op.op, OpType::Create | OpType::GoalCreate) {
        return create(db, ids, op, kind, now);
    }
    let id = op.id.clone().ok_or_else(|| missing("id", op))?;
    let before = db.planner_item(kind, &id)?.ok_or_else(|| not_found(kind))?;
    let mut after = before.clone();
    after.updated_ms = now;
    match op.op {
        OpType::Create | OpType::GoalCreate => {
            return Err(Error::Internal("creation handled above".into()))
        }
        OpType::Update | OpType::GoalUpdate => {
            set_fields(&mut after, op);
            db.update_planner_item(&after)?;
        }
        OpType::Delete | OpType::GoalDelete => {
            db.delete_planner_item(kind, &id)?;
            return Ok((kind, id, Some(before), None));
        }
        OpType::Complete => {
            after.completed = true;
            db.update_planner_item(&after)?;
        }
        OpType::CompleteOccurrence => {
            let date = op
                .occurrence_date
                .as_deref()
                .ok_or_else(|| missing("occurrenceDate", op))?;
            if db.insert_completion(&id, date, now)? {
                let at = after
                    .completed_occurrences
                    .binary_search_by(|d| d.as_str().cmp(date))
                    .unwrap_or_else(|i| i);
                after.completed_occurrences.insert(at, date.to_string());
            }
            db.touch_planner_item(kind, &id, now)?;
        }
        OpType::GoalAddItems => {
            if op.items.is_empty() {
                return Err(missing("items", op));
            }
            for it in &op.items {
                if db.add_goal_item(&id, it)? {
                    after.goal_items.push(it.clone());
                }
            }
            db.touch_planner_item(kind, &id, now)?;
        }
        OpType::GoalRemoveItem => {
            let it = op.item.as_ref().ok_or_else(|| missing("item", op))?;
            if db.remove_goal_item(&id, it)? {
                after.goal_items.retain(|x| x != it);
            }
            db.touch_planner_item(kind, &id, now)?;
        }
        OpType::GoalAddChild => {
            let child = op
                .child_id
                .as_deref()
                .ok_or_else(|| missing("childId", op))?;
            link_child(db, &id, child)?;
            if !after.child_goals.iter().any(|c| c == child) {
                after.child_goals.push(child.to_string());
            }
            db.touch_planner_item(kind, &id, now)?;
        }
        OpType::GoalRemoveChild => {
            let child = op
                .child_id
                .as_deref()
                .ok_or_else(|| missing("childId", op))?;
            if db.remove_goal_child(&id, child)? {
                after.child_goals.retain(|c| c != child);
            }
            db.touch_planner_item(kind, &id, now)?;
        }
    }
    Ok((kind, id, Some(before), Some(after)))
}

/// Links `child` under `parent`, refusing a missing child goal and a cycle.
fn link_child(db: &Db<'_>, parent: &str, child: &str) -> Result<()> {
    if db.planner_item(ItemKind::Goal, child)?.is_none() {
        return Err(not_found(ItemKind::Goal));
    }
    if db.goal_is_descendant(parent, child)? {
        return Err(Error::InvalidArgument(
            "a goal cannot be a child of itself or of its own descendants".into(),
        ));
    }
    db.add_goal_child(parent, child)?;
    Ok(())
}

fn set_fields(it: &mut PlannerItem, op: &PlannerOperation) {
    if let Some(t) = &op.title {
        it.title = t.clone();
    }
    if let Some(n) = &op.notes {
        it.notes = Some(n.clone());
    }
    if let Some(p) = op.priority {
        it.priority = p;
    }
    if it.kind == ItemKind::Goal {
        return;
    }
    if let Some(d) = &op.scheduled_for {
        it.scheduled_for = Some(d.clone());
    }
    if let Some(t) = &op.time_of_day {
        it.time_of_day = Some(t.clone());
    }
    if let Some(t) = &op.end_time {
        it.end_time = Some(t.clone());
    }
    if let Some(r) = &op.recurrence {
        it.recurrence = r.clone();
    }
}

fn create(
    db: &Db<'_>,
    ids: &mut IdGenerator,
    op: &PlannerOperation,
    kind: ItemKind,
    now: i64,
) -> Result<Outcome> {
    let title = op.title.clone().ok_or_else(|| missing("title", op))?;
    let mut it = PlannerItem {
        kind,
        id: ids.next_id(),
        title,
        notes: None,
        scheduled_for: None,
        time_of_day: None,
        end_time: None,
        priority: Priority::Medium,
        recurrence: Recurrence::none(),
        completed: false,
        completed_occurrences: Vec::new(),
        goal_items: Vec::new(),
        child_goals: Vec::new(),
        created_ms: now,
        updated_ms: now,
    };
    set_fields(&mut it, op);
    db.insert_planner_item(&it)?;
    if kind == ItemKind::Goal {
        let mut seen = HashSet::new();
        for r in &op.items {
            if db.add_goal_item(&it.id, r)? && seen.insert(r.clone()) {
                it.goal_items.push(r.clone());
            }
        }
        for c in &op.children {
            link_child(db, &it.id, c)?;
            if !it.child_goals.contains(c) {
                it.child_goals.push(c.clone());
            }
        }
    }
    Ok((kind, it.id.clone(), None, Some(it)))
}

/// One item, or `None`.
pub fn item(store: &Store, kind: ItemKind, id: &str) -> Result<Option<PlannerItem>> {
    store.read(|db| db.planner_item(kind, id))
}

/// The Monday-to-Sunday week containing `date`: items not completed (repeating items once per
/// occurrence not yet completed).
///
/// In the entries of repeating items, `item.completedOccurrences` lists only the done occurrences
/// inside this week (the full list is in [`item`]). Goals are not part of the week.
pub fn week(store: &Store, date: Date) -> Result<WeekSnapshot> {
    let start = date.week_start();
    let end = start.add_days(6);
    let (start_s, end_s) = (start.to_string(), end.to_string());
    let (one_off, repeating) = store.read(|db| db.week_items(&start_s, &end_s))?;
    Ok(WeekSnapshot {
        entries: week_entries(one_off, repeating, start, end),
        week_start: start_s,
        week_end: end_s,
    })
}

/// Expands repeating items over `start..=end` (minus their completed occurrences), adds the
/// one-off items, and orders the entries: by date, then time (untimed last), then priority (high
/// first), then title, then id.
fn week_entries(
    one_off: Vec<PlannerItem>,
    repeating: Vec<PlannerItem>,
    start: Date,
    end: Date,
) -> Vec<WeekEntry> {
    let mut entries = Vec::with_capacity(one_off.len() + repeating.len() * 2);
    for item in one_off {
        if let Some(date) = item.scheduled_for.clone() {
            entries.push(WeekEntry { date, item });
        }
    }
    for item in repeating {
        let Some(anchor) = item.scheduled_for.as_deref().and_then(Date::parse) else {
            continue;
        };
        for d in occurrences(&item.recurrence, anchor, start, end) {
            let date = d.to_string();
            if !item.completed_occurrences.contains(&date) {
                entries.push(WeekEntry {
                    date,
                    item: item.clone(),
                });
            }
        }
    }
    let rank = |p: Priority| match p {
        Priority::High => 0,
        Priority::Medium => 1,
        Priority::Low => 2,
    };
    entries.sort_by(|a, b| {
        a.date
            .cmp(&b.date)
            .then_with(|| match (&a.item.time_of_day, &b.item.time_of_day) {
                (Some(x), Some(y)) => x.cmp(y),
                (Some(_), None) => std::cmp::Ordering::Less,
                (None, Some(_)) => std::cmp::Ordering::Greater,
                (None, None) => std::cmp::Ordering::Equal,
            })
            .then_with(|| rank(a.item.priority).cmp(&rank(b.item.priority)))
            .then_with(|| a.item.title.cmp(&b.item.title))
            .then_with(|| a.item.id.cmp(&b.item.id))
    });
    entries
}

/// Up to `limit` backlog todos (no date, not completed), high priority first, then most recently
/// changed.
pub fn backlog(store: &Store, limit: u32) -> Result<Vec<PlannerItem>> {
    store.read(|db| db.backlog_items(limit))
}

/// Up to `limit` items of any kind that are not completed, most recently changed first (the
/// candidates for clarifying options).
pub fn open_items(store: &Store, limit: u32) -> Result<Vec<PlannerItem>> {
    store.read(|db| db.open_planner_items(limit))
}

/// The audit log, newest first: up to `limit` entries with `seq` below `before_seq` (all when
/// `None`).
pub fn audit_log(store: &Store, limit: u32, before_seq: Option<i64>) -> Result<Vec<AuditEntry>> {
    store.read(|db| db.audit_entries(limit, before_seq))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a_128_known_vectors() {
        // Reference values of FNV-1a 128 (draft-eastlake-fnv).
        assert_eq!(fnv1a_128(b""), 0x6c62272e07bb014262b821756295c58d);
        assert_eq!(fnv1a_128(b"a"), 0xd228cb696f1a8caf78912b704e4a8964);
    }
}
