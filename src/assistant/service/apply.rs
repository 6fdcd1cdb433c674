//! Dry-run, apply and the planner reads: the part of the assistant that uses the store.
//!
//! # Apply
//! [`apply`] runs in ONE IMMEDIATE transaction:
//! 1. with an idempotency key, looks the key up: the same operations again return the stored
//!    result with `replayed: true`; other operations are [`Error::IdempotencyConflict`];
//! 2. looks up the items the operations name and validates the list
//!    ([`validate::validate`](crate::assistant::validate::validate)); any invalid operation, or a
//!    list-level error such as more than 20 operations, is [`Error::OperationsRejected`];
//! 3. executes the (repaired) operations in order ([`execute`]) with one audit entry per action,
//!    holding the item as JSON before and after;
//! 4. stores the result under the key.
//!
//! Any failure on the way (a constraint, an item deleted by an earlier operation of the same list)
//! rolls the whole transaction back: nothing of the list is applied, no audit entry, no key.
//!
//! The request hash of an idempotency key ([`request_hash`]) is a 128-bit FNV-1a of the canonical
//! JSON of the shaped operations (the typed operations as serde writes them, in order). It does
//! not cover `today`: a retry after midnight with the same key and operations is still a replay.
//!
//! A deletion also writes one audit entry per goal that linked the deleted item (op
//! `goal_remove_item`, or `goal_remove_child` for a deleted child goal): the database drops those
//! links with the item, and the log holds every item whose state changed.
//!
//! # Undo
//! [`undo`] reverts one applied request from its audit entries, in one IMMEDIATE transaction,
//! when every item it changed is still as the request left it (compared in full: fields, done
//! occurrences, goal links, `updatedMs`), no goal links an item it created, and every item a
//! restored goal linked still exists. Otherwise [`Error::UndoConflict`] names the first item that
//! changed, and nothing is written. The undo is itself a request in the audit log, with the id
//! `undo:` + the request id (so a second undo of the same request is refused, and an undo can be
//! undone). Restored done occurrences get the undo's time.
//!
//! What this computes from data (the hash, the rejection, the audit entries, the week's entries)
//! is in the pure [`changes`](crate::assistant::changes) and [`week`](crate::assistant::week).

use std::collections::HashSet;

use crate::assistant::changes::{
    accepted, audit_entry, is_goal_op, missing, new_item, not_found, replay, result_json,
    set_fields, shape_json, too_many,
};
use crate::assistant::date::Date;
use crate::assistant::model::{
    AppliedOp, ApplyResult, AuditEntry, ItemKind, ItemRef, KnownItems, OpType, PlannerItem,
    PlannerOperation, Validation, WeekSnapshot,
};
use crate::assistant::shape::ShapedOp;
use crate::assistant::validate::{referenced_items, too_many_issue, validate};
use crate::assistant::week::week_entries;
use crate::assistant::MAX_OPERATIONS;
use crate::db::{Db, Store};
use crate::kernel::clock::Clock;
use crate::kernel::error::{Error, Result};
use crate::kernel::ids::IdGenerator;

pub use crate::assistant::changes::request_hash;

/// The existing items among `refs` (missing ones are simply absent).
pub fn known_items(store: &Store, refs: &[ItemRef]) -> Result<KnownItems> {
    store.read(|db| db.known_items(refs))
}

/// Validation results (with the deterministic repairs) for `ops`; the database is not changed.
pub fn dry_run(store: &Store, ops: Vec<ShapedOp>, today: Date) -> Result<Validation> {
    let known = known_items(store, &referenced_items(&ops))?;
    Ok(validate(&ops, &known, today))
}

/// `ops` as JSON (`{"operations":[...]}` or an array), shaped then dry-run. `InvalidArgument`
/// when the text holds no operation list or breaks a cap of [`crate::kernel::limits`]. More than
/// [`MAX_OPERATIONS`] are counted, not shaped: the validation has no checks, only the list error
/// `too_many_operations`.
pub fn dry_run_json(store: &Store, json: &str, today: Date) -> Result<Validation> {
    match shape_json(json) {
        Err(Error::OperationsRejected { total, .. }) => Ok(Validation {
            valid_count: 0,
            invalid_count: total,
            checks: Vec::new(),
            errors: vec![too_many_issue(total as usize)],
        }),
        shaped => dry_run(store, shaped?, today),
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
                return replay(&stored_hash, hash, &response);
            }
        }
        let known = db.known_items(&referenced_items(&ops))?;
        let validation = validate(&ops, &known, today);
        let (valid, repairs) = accepted(validation, total)?;
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
            db.idempotency_put(key, hash, &result_json(&result)?, now)?;
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
        let unlinked = unlinked_by(db, op)?;
        let (kind, id, before, after) = execute_one(db, ids, op, now_ms)?;
        db.insert_audit(&audit_entry(
            request_id,
            op,
            kind,
            id.clone(),
            before.as_ref(),
            after.as_ref(),
            now_ms,
        )?)?;
        for (link_op, goal_before, goal_after) in unlinked {
            db.insert_audit(&AuditEntry {
                seq: 0,
                request_id: request_id.to_string(),
                op: link_op,
                kind: ItemKind::Goal,
                item_id: goal_before.id.clone(),
                before_json: Some(item_json(&goal_before)?),
                after_json: Some(item_json(&goal_after)?),
                at_ms: now_ms,
            })?;
        }
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

/// For a deletion: each goal that links the item, as it is and as it will be once the deletion
/// drops the link (with the op that names that change).
fn unlinked_by(
    db: &Db<'_>,
    op: &PlannerOperation,
) -> Result<Vec<(OpType, PlannerItem, PlannerItem)>> {
    let (true, Some(id)) = (
        matches!(op.op, OpType::Delete | OpType::GoalDelete),
        op.id.as_deref(),
    ) else {
        return Ok(Vec::new());
    };
    let kind = if is_goal_op(op) {
        ItemKind::Goal
    } else {
        op.kind
    };
    let mut out = Vec::new();
    for (goal_id, as_child) in db.goals_linking(kind, id)? {
        let Some(before) = db.planner_item(ItemKind::Goal, &goal_id)? else {
            continue;
        };
        let mut after = before.clone();
        if as_child {
            after.child_goals.retain(|c| c != id);
        } else {
            after.goal_items.retain(|r| !(r.kind == kind && r.id == id));
        }
        let link_op = if as_child {
            OpType::GoalRemoveChild
        } else {
            OpType::GoalRemoveItem
        };
        out.push((link_op, before, after));
    }
    Ok(out)
}

fn item_json(item: &PlannerItem) -> Result<String> {
    serde_json::to_string(item).map_err(|_| Error::Internal("encoding an item failed".into()))
}

/// An audit entry's item as a read would return it: done occurrences only for a repeating item,
/// links only for a goal (an update that ends a repetition keeps the list in its copy).
fn parse_item(json: Option<&str>) -> Result<Option<PlannerItem>> {
    json.map(|j| {
        let mut it: PlannerItem = serde_json::from_str(j)
            .map_err(|_| Error::Internal("an audit entry's item cannot be read".into()))?;
        if !it.recurrence.repeats() {
            it.completed_occurrences.clear();
        }
        if it.kind != ItemKind::Goal {
            it.goal_items.clear();
            it.child_goals.clear();
        }
        Ok(it)
    })
    .transpose()
}

/// One item an undo restores: its kind and id, the state to restore (`None`: delete it) and the
/// state the request left (`None`: it deleted the item).
struct Revert {
    kind: ItemKind,
    id: String,
    restore: Option<PlannerItem>,
    left: Option<PlannerItem>,
}

fn conflict(id: &str, detail: &str) -> Error {
    Error::UndoConflict {
        item_id: Some(id.to_string()),
        detail: detail.to_string(),
    }
}

/// Reverts the applied request `request_id` (see the module doc): `NotFound` for a request the
/// audit log does not hold, [`Error::UndoConflict`] when something changed since or it was undone
/// already. Returns the undo's own result: its request id (`undo:` + `request_id`) and one action
/// per item (`delete` for an item the request created, `create` for one it deleted, `update`
/// otherwise; the goal forms for goals).
pub fn undo(store: &Store, clock: &dyn Clock, request_id: &str) -> Result<ApplyResult> {
    let undo_id = format!("undo:{request_id}");
    store.write(|db| {
        if db.audit_has_request(&undo_id)? {
            return Err(Error::UndoConflict {
                item_id: None,
                detail: "the request was undone already".into(),
            });
        }
        let entries = db.audit_for_request(request_id)?;
        if entries.is_empty() {
            return Err(Error::NotFound("no applied request with this id".into()));
        }
        // Per item, in first-touched order: the state before the request and the state it left.
        let mut reverts: Vec<Revert> = Vec::new();
        for e in &entries {
            let after = parse_item(e.after_json.as_deref())?;
            match reverts
                .iter_mut()
                .find(|r| r.kind == e.kind && r.id == e.item_id)
            {
                Some(r) => r.left = after,
                None => reverts.push(Revert {
                    kind: e.kind,
                    id: e.item_id.clone(),
                    restore: parse_item(e.before_json.as_deref())?,
                    left: after,
                }),
            }
        }
        check_undo(db, &reverts)?;
        let now = clock.now_ms();
        for r in reverts.iter().rev().filter(|r| r.restore.is_none()) {
            if r.left.is_some() {
                db.delete_planner_item(r.kind, &r.id)?;
            }
        }
        for it in reverts.iter().filter_map(|r| r.restore.as_ref()) {
            if !db.update_planner_item(it)? {
                db.insert_planner_item(it)?;
            }
        }
        for it in reverts.iter().filter_map(|r| r.restore.as_ref()) {
            if it.recurrence.repeats() {
                db.set_completions(&it.id, &it.completed_occurrences, now)?;
            }
            if it.kind == ItemKind::Goal {
                db.set_goal_links(&it.id, &it.goal_items, &it.child_goals)?;
            }
        }
        let mut applied = Vec::with_capacity(reverts.len());
        for (index, r) in reverts.iter().enumerate() {
            let goal = r.kind == ItemKind::Goal;
            let op = match (&r.left, &r.restore, goal) {
                (Some(_), None, false) => OpType::Delete,
                (Some(_), None, true) => OpType::GoalDelete,
                (None, Some(_), false) => OpType::Create,
                (None, Some(_), true) => OpType::GoalCreate,
                (_, _, false) => OpType::Update,
                (_, _, true) => OpType::GoalUpdate,
            };
            db.insert_audit(&AuditEntry {
                seq: 0,
                request_id: undo_id.clone(),
                op,
                kind: r.kind,
                item_id: r.id.clone(),
                before_json: r.left.as_ref().map(item_json).transpose()?,
                after_json: r.restore.as_ref().map(item_json).transpose()?,
                at_ms: now,
            })?;
            applied.push(AppliedOp {
                index: index as u32,
                op,
                kind: r.kind,
                id: r.id.clone(),
            });
        }
        Ok(ApplyResult {
            request_id: undo_id.clone(),
            applied,
            repairs: Vec::new(),
            replayed: false,
        })
    })
}

/// The conflicts that refuse an undo: an item not as the request left it, a goal (outside the
/// request) linking an item the request created, a restored goal linking an item that is gone.
fn check_undo(db: &Db<'_>, reverts: &[Revert]) -> Result<()> {
    let touched = |kind: ItemKind, id: &str| reverts.iter().find(|r| r.kind == kind && r.id == id);
    for r in reverts {
        let now = db.planner_item(r.kind, &r.id)?;
        match (&r.left, &now) {
            (Some(_), None) => return Err(conflict(&r.id, "the item was deleted since")),
            (None, Some(_)) => return Err(conflict(&r.id, "the item exists again")),
            (Some(left), Some(now)) if left != now => {
                return Err(conflict(&r.id, "the item was changed since"))
            }
            _ => {}
        }
        if r.restore.is_none() && r.left.is_some() {
            for (goal_id, _) in db.goals_linking(r.kind, &r.id)? {
                if touched(ItemKind::Goal, &goal_id).is_none() {
                    return Err(conflict(
                        &goal_id,
                        "a goal links an item the request created",
                    ));
                }
            }
        }
    }
    for goal in reverts.iter().filter_map(|r| r.restore.as_ref()) {
        let refs = goal
            .goal_items
            .iter()
            .map(|r| (r.kind, r.id.as_str()))
            .chain(
                goal.child_goals
                    .iter()
                    .map(|c| (ItemKind::Goal, c.as_str())),
            );
        for (kind, id) in refs {
            let there = match touched(kind, id) {
                Some(r) => r.restore.is_some(),
                None => db.planner_item(kind, id)?.is_some(),
            };
            if !there {
                return Err(conflict(id, "an item the goal linked was deleted since"));
            }
        }
    }
    Ok(())
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
            // `completed: false` un-completes.
            after.completed = op.completed.unwrap_or(true);
            db.update_planner_item(&after)?;
        }
        OpType::CompleteOccurrence => {
            let date = op
                .occurrence_date
                .as_deref()
                .ok_or_else(|| missing("occurrenceDate", op))?;
            let found = after
                .completed_occurrences
                .binary_search_by(|d| d.as_str().cmp(date));
            if op.completed == Some(false) {
                if db.delete_completion(&id, date)? {
                    if let Ok(at) = found {
                        after.completed_occurrences.remove(at);
                    }
                }
            } else if db.insert_completion(&id, date, now)? {
                let at = found.unwrap_or_else(|i| i);
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

fn create(
    db: &Db<'_>,
    ids: &mut IdGenerator,
    op: &PlannerOperation,
    kind: ItemKind,
    now: i64,
) -> Result<Outcome> {
    let title = op.title.clone().ok_or_else(|| missing("title", op))?;
    let mut it = new_item(kind, ids.next_id(), title, now);
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

/// Days before `today` whose done items a question about the planner can name ("did I pay the
/// bill?"); open and repeating items are read whatever their date.
pub const ANSWER_DAYS_BEFORE: i64 = 92;
/// Days after `today` whose done items a question can name.
pub const ANSWER_DAYS_AFTER: i64 = 366;
/// The most items read to answer a question.
pub const ANSWER_ITEMS_LIMIT: u32 = 1_000;

/// The todos, events and habits a question about the planner asked on `today` may name, with
/// their completions: every open one, every repeating one, and the done ones dated from
/// [`ANSWER_DAYS_BEFORE`] days before `today` to [`ANSWER_DAYS_AFTER`] days after; open ones
/// first, at most [`ANSWER_ITEMS_LIMIT`].
pub fn answer_items(store: &Store, today: Date) -> Result<Vec<PlannerItem>> {
    let start = today.add_days(-ANSWER_DAYS_BEFORE).to_string();
    let end = today.add_days(ANSWER_DAYS_AFTER).to_string();
    store.read(|db| db.answer_items(&start, &end, ANSWER_ITEMS_LIMIT))
}

/// The audit log, newest first: up to `limit` entries with `seq` below `before_seq` (all when
/// `None`).
pub fn audit_log(store: &Store, limit: u32, before_seq: Option<i64>) -> Result<Vec<AuditEntry>> {
    store.read(|db| db.audit_entries(limit, before_seq))
}
