//! Dry-run, apply and the planner reads: the part of the assistant that uses the store.
//! (Stub: the signatures are fixed; the bodies are being written.)

use super::date::Date;
use super::model::{
    ApplyResult, AuditEntry, ItemKind, ItemRef, KnownItems, PlannerItem, Validation, WeekSnapshot,
};
use super::shape::ShapedOp;
use crate::clock::Clock;
use crate::error::Result;
use crate::ids::IdGenerator;
use crate::store::Store;

/// The existing items among `refs` (missing ones are simply absent).
pub fn known_items(_store: &Store, _refs: &[ItemRef]) -> Result<KnownItems> {
    unimplemented!()
}

/// Validation results (with the deterministic repairs) for `ops`; the database is not changed.
pub fn dry_run(_store: &Store, _ops: Vec<ShapedOp>, _today: Date) -> Result<Validation> {
    unimplemented!()
}

/// `ops` as JSON (`{"operations":[...]}` or an array), shaped then dry-run. `InvalidArgument`
/// when the text holds no operation list.
pub fn dry_run_json(_store: &Store, _json: &str, _today: Date) -> Result<Validation> {
    unimplemented!()
}

/// Validates `ops` and, when all are valid, applies them in one transaction with one audit entry
/// per action. With `idempotency_key`: the same key and operations again return the stored result
/// (`replayed`); the same key with other operations is `Error::IdempotencyConflict`. Invalid
/// operations: `Error::OperationsRejected`, nothing applied. More than 20: `OperationsRejected`.
pub fn apply(
    _store: &Store,
    _clock: &dyn Clock,
    _ids: &mut IdGenerator,
    _ops: Vec<ShapedOp>,
    _idempotency_key: Option<&str>,
    _today: Date,
) -> Result<ApplyResult> {
    unimplemented!()
}

/// [`apply`] for operations as JSON.
pub fn apply_json(
    _store: &Store,
    _clock: &dyn Clock,
    _ids: &mut IdGenerator,
    _json: &str,
    _idempotency_key: Option<&str>,
    _today: Date,
) -> Result<ApplyResult> {
    unimplemented!()
}

/// One item, or `None`.
pub fn item(_store: &Store, _kind: ItemKind, _id: &str) -> Result<Option<PlannerItem>> {
    unimplemented!()
}

/// The Monday-to-Sunday week containing `date`: items not completed (repeating items once per
/// occurrence not yet completed).
pub fn week(_store: &Store, _date: Date) -> Result<WeekSnapshot> {
    unimplemented!()
}

/// Up to `limit` backlog todos (no date, not completed), high priority first, then most recently
/// changed.
pub fn backlog(_store: &Store, _limit: u32) -> Result<Vec<PlannerItem>> {
    unimplemented!()
}

/// Up to `limit` items of any kind that are not completed, most recently changed first (the
/// candidates for clarifying options).
pub fn open_items(_store: &Store, _limit: u32) -> Result<Vec<PlannerItem>> {
    unimplemented!()
}

/// The audit log, newest first: up to `limit` entries with `seq` below `before_seq` (all when
/// `None`).
pub fn audit_log(_store: &Store, _limit: u32, _before_seq: Option<i64>) -> Result<Vec<AuditEntry>> {
    unimplemented!()
}
