//! What applying operations computes without the store (spec 002, see
//! [`apply`](super::service::apply)): the operations text shaped, the request hash of an
//! idempotency key, the replayed result and the conflict, the rejection of an invalid list, the
//! accepted operations and their repairs, the item a creation makes and the fields an update sets,
//! the audit entry of each action, and the errors of an operation that cannot be carried out.
//! Pure: data in, data out (the service reads and writes the store around these).

use super::model::{
    ApplyResult, AuditEntry, ItemKind, OpType, PlannerItem, PlannerOperation, Priority, Recurrence,
    Validation,
};
use super::shape::{shape_operations, ShapedOp};
use super::MAX_OPERATIONS;
use crate::kernel::error::{Error, Result};

/// How many problems [`Error::OperationsRejected`] lists in its detail.
const MAX_DETAIL_ISSUES: usize = 5;

/// Operations as JSON text (`{"operations":[...]}` or an array), shaped; `InvalidArgument` when
/// the text is too large or too deep (see [`crate::kernel::limits`]), is not JSON or holds no operation
/// list; `OperationsRejected` (`too_many_operations`) when it holds more than [`MAX_OPERATIONS`],
/// counted before any is built.
pub(crate) fn shape_json(json: &str) -> Result<Vec<ShapedOp>> {
    use crate::kernel::limits::{check_json, check_size, count_operations, Caps};
    let capped = |e: crate::kernel::error::RequestError| {
        Error::InvalidArgument(format!("operations JSON: {}", e.detail))
    };
    check_size(json, &Caps::OPERATIONS).map_err(capped)?;
    if let Some(n) = count_operations(json).filter(|n| *n > MAX_OPERATIONS) {
        return Err(too_many(n));
    }
    check_json(json, &Caps::OPERATIONS).map_err(capped)?;
    let value: serde_json::Value = serde_json::from_str(json).map_err(|e| {
        let why = crate::kernel::error::json::describe(&e);
        Error::InvalidArgument(format!("operations are not valid JSON: {why}"))
    })?;
    shape_operations(&value).map_err(|issue| Error::InvalidArgument(issue.message))
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

/// The rejection of a list longer than [`MAX_OPERATIONS`].
pub(crate) fn too_many(total: usize) -> Error {
    Error::OperationsRejected {
        invalid: total as u32,
        total: total as u32,
        detail: format!("list: -: too_many_operations ({total}, at most {MAX_OPERATIONS})"),
    }
}

/// The stored result of an earlier apply under the same idempotency key, marked `replayed`;
/// `IdempotencyConflict` when it was stored for other operations (`stored_hash` is not `hash`).
pub(crate) fn replay(stored_hash: &str, hash: &str, response: &str) -> Result<ApplyResult> {
    if stored_hash != hash {
        return Err(Error::IdempotencyConflict);
    }
    let mut result: ApplyResult = serde_json::from_str(response)
        .map_err(|e| Error::Internal(format!("stored idempotent response unreadable: {e}")))?;
    result.replayed = true;
    Ok(result)
}

/// The operations of a validation to execute, in order, and its repairs (`index: repair`);
/// [`Error::OperationsRejected`] unless all `total` operations are valid.
pub(crate) fn accepted(
    validation: Validation,
    total: usize,
) -> Result<(Vec<PlannerOperation>, Vec<String>)> {
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
    Ok((valid, repairs))
}

/// An apply result as the JSON stored under its idempotency key.
pub(crate) fn result_json(result: &ApplyResult) -> Result<String> {
    serde_json::to_string(result).map_err(|e| Error::Internal(format!("apply result as JSON: {e}")))
}

/// `InvalidArgument` for an operation without a field it needs (`what`).
pub(crate) fn missing(what: &str, op: &PlannerOperation) -> Error {
    Error::InvalidArgument(format!(
        "{} {} needs {what}",
        op.op.as_str(),
        op.kind.as_str()
    ))
}

/// `NotFound` for a missing item: names its kind, never its id (an id may be user text).
pub(crate) fn not_found(kind: ItemKind) -> Error {
    Error::NotFound(format!("no such {}", kind.as_str()))
}

/// `item` as the JSON of an audit entry.
fn to_json(item: &PlannerItem) -> Result<String> {
    serde_json::to_string(item).map_err(|e| Error::Internal(format!("item as JSON: {e}")))
}

/// The audit entry of one action of `op` on the item `kind`/`item_id`, holding the item as JSON
/// before and after (`seq` is set by the store).
pub(crate) fn audit_entry(
    request_id: &str,
    op: &PlannerOperation,
    kind: ItemKind,
    item_id: String,
    before: Option<&PlannerItem>,
    after: Option<&PlannerItem>,
    at_ms: i64,
) -> Result<AuditEntry> {
    Ok(AuditEntry {
        seq: 0,
        request_id: request_id.to_string(),
        op: op.op,
        kind,
        item_id,
        before_json: before.map(to_json).transpose()?,
        after_json: after.map(to_json).transpose()?,
        at_ms,
    })
}

pub(crate) fn is_goal_op(op: &PlannerOperation) -> bool {
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

pub(crate) fn set_fields(it: &mut PlannerItem, op: &PlannerOperation) {
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

/// A new item of `kind` created at `now`: the defaults (medium priority, no date, time or
/// recurrence, not completed, no links), before the operation's fields are set.
pub(crate) fn new_item(kind: ItemKind, id: String, title: String, now: i64) -> PlannerItem {
    PlannerItem {
        kind,
        id,
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
    }
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
