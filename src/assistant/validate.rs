//! Validation of operations and the deterministic repairs. (Stub: being written.)

use super::date::Date;
use super::model::{ItemRef, KnownItems, Validation};
use super::shape::ShapedOp;

/// The existing items the operations name (targets, goal items, children), for the store to look up.
pub fn referenced_items(_ops: &[ShapedOp]) -> Vec<ItemRef> {
    unimplemented!("referenced_items")
}

/// Validates `ops` against `known`, after the deterministic repairs; `today` anchors repeating
/// items that lack a date.
pub fn validate(_ops: &[ShapedOp], _known: &KnownItems, _today: Date) -> Validation {
    unimplemented!("validate")
}
