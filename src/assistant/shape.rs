//! Operation shaping: raw JSON operations (from the model, the CLI or the C API) to typed
//! [`Operation`]s. (Stub: being written.)

use serde_json::Value;

use super::model::{OpIssue, Operation};

/// One operation after shaping: the typed operation if it could be read, and the problems found.
#[derive(Debug, Clone, PartialEq)]
pub struct ShapedOp {
    /// Position in the list as given.
    pub index: u32,
    /// The typed operation, or `None` when it could not be read (e.g. an unknown kind).
    pub operation: Option<Operation>,
    /// Problems found while shaping (e.g. `unknown_kind`, `bulk_not_supported`).
    pub issues: Vec<OpIssue>,
    /// Normalisations made (e.g. `inferred op "update" from the id`).
    pub repairs: Vec<String>,
}

/// Typed operations (from an app) as shaped ones, with nothing to report.
pub fn shape_typed(ops: Vec<Operation>) -> Vec<ShapedOp> {
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

/// Shapes `{"operations":[...]}` or a bare array. `Err` when the value holds no operation list.
pub fn shape_operations(_value: &Value) -> Result<Vec<ShapedOp>, OpIssue> {
    unimplemented!("shape_operations")
}
