//! The LLM schemas of spec 000, measured and chosen between.
//!
//! - [`SchemaVersion`]: `v1-current` (blocks nest their exercises) and `v2-flat` (exercises are
//!   top-level, joined by `blockIndex` + `order`). Both are JSON Schema files under `schemas/`.
//! - [`schema_depth`]: the spec's depth measure (each object or array on a path counts 1, the
//!   root object included).
//! - [`estimate_json_size`]: the static size estimate used for selection: the byte length of the
//!   smallest compact instance the schema shape allows, counting each free string as 8 characters
//!   (or its `maxLength` if smaller), each enum string at its longest value, each integer as one
//!   digit, each array at `max(minItems, 1)` items and, for `anyOf`, the first (canonical) branch.
//! - [`select_schema`]: the spec's selection algorithm.

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Version of the JSON shape the model is asked to write.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, uniffi::Enum)]
pub enum SchemaVersion {
    /// The original nested shape: plan -> blocks -> exercises. Kept as the fallback.
    #[serde(rename = "v1-current")]
    V1Current,
    /// The flattened shape: blocks and exercises side by side, joined by `blockIndex`, ordered by
    /// `order`. Nesting depth 3.
    #[serde(rename = "v2-flat")]
    V2Flat,
}

/// Why a schema version was chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, uniffi::Enum)]
#[serde(rename_all = "snake_case")]
pub enum SelectionReason {
    /// An explicit override (configuration or a debug flag) named the version.
    Override,
    /// The model declares support for exactly one version.
    SingleSupported,
    /// The version with the smallest estimated JSON size; ties go to `v2-flat`.
    SmallestEstimate,
}

/// A chosen schema version and the reason for it; recorded in generation metadata.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase")]
pub struct SchemaSelection {
    /// The version to ask the model for and to parse its output with.
    pub schema_version: SchemaVersion,
    /// Why it was chosen.
    pub reason: SelectionReason,
}

/// The canonical `TodayPlan` JSON Schema (the contract apps receive).
pub const TODAY_PLAN_SCHEMA: &str = include_str!("../../schemas/today-plan.json");

impl SchemaVersion {
    /// Every version, in the order ties are broken (`v2-flat` first).
    pub const ALL: [SchemaVersion; 2] = [SchemaVersion::V2Flat, SchemaVersion::V1Current];

    /// The spelling used in files, the CLI and metadata: `v1-current` or `v2-flat`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::V1Current => "v1-current",
            Self::V2Flat => "v2-flat",
        }
    }

    /// Parses `v1-current` or `v2-flat`.
    pub fn parse(s: &str) -> Option<SchemaVersion> {
        Self::ALL.into_iter().find(|v| v.as_str() == s)
    }

    /// The JSON Schema text for this version (what a grammar or validator is built from).
    pub fn schema_json(self) -> &'static str {
        match self {
            Self::V1Current => include_str!("../../schemas/today-plan.v1-current.json"),
            Self::V2Flat => include_str!("../../schemas/today-plan.v2-flat.json"),
        }
    }

    /// The static size estimate of this version's schema, computed once.
    pub fn estimated_size(self) -> usize {
        static SIZES: OnceLock<[usize; 2]> = OnceLock::new();
        let sizes = SIZES.get_or_init(|| {
            SchemaVersion::ALL.map(|v| {
                // Embedded schema files are checked by tests; failing here is a build defect.
                let schema: Value = serde_json::from_str(v.schema_json()).expect("embedded schema");
                estimate_json_size(&schema)
            })
        });
        sizes[Self::ALL.iter().position(|v| *v == self).unwrap_or(0)]
    }
}

impl SelectionReason {
    /// The spelling used by the CLI and in metadata: `override`, `single_supported`,
    /// `smallest_estimate`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Override => "override",
            Self::SingleSupported => "single_supported",
            Self::SmallestEstimate => "smallest_estimate",
        }
    }

    /// Parses the spelling of [`SelectionReason::as_str`].
    pub fn parse(s: &str) -> Option<SelectionReason> {
        [
            Self::Override,
            Self::SingleSupported,
            Self::SmallestEstimate,
        ]
        .into_iter()
        .find(|r| r.as_str() == s)
    }
}

/// Spec 000's selection algorithm:
/// 1. an explicit override wins;
/// 2. else, if the model supports exactly one version, that one;
/// 3. else the smallest [`estimate_json_size`] among the supported versions (all versions when
///    `supported` is empty), ties to `v2-flat`.
pub fn select_schema(
    supported: &[SchemaVersion],
    override_version: Option<SchemaVersion>,
) -> SchemaSelection {
    select_schema_with(supported, override_version, SchemaVersion::estimated_size)
}

/// [`select_schema`] with the size estimate given, so the tie rule can be tested.
fn select_schema_with(
    supported: &[SchemaVersion],
    override_version: Option<SchemaVersion>,
    estimate: impl Fn(SchemaVersion) -> usize,
) -> SchemaSelection {
    if let Some(v) = override_version {
        return SchemaSelection {
            schema_version: v,
            reason: SelectionReason::Override,
        };
    }
    let candidates: Vec<SchemaVersion> = SchemaVersion::ALL
        .into_iter()
        .filter(|v| supported.contains(v))
        .collect();
    if let [only] = candidates[..] {
        return SchemaSelection {
            schema_version: only,
            reason: SelectionReason::SingleSupported,
        };
    }
    let pool = if candidates.is_empty() {
        SchemaVersion::ALL.to_vec()
    } else {
        candidates
    };
    // `min_by_key` keeps the first of equal keys, and ALL lists v2-flat first.
    let schema_version = pool
        .into_iter()
        .min_by_key(|v| estimate(*v))
        .unwrap_or(SchemaVersion::V2Flat);
    SchemaSelection {
        schema_version,
        reason: SelectionReason::SmallestEstimate,
    }
}

fn first_branch(node: &Value) -> &Value {
    for key in ["anyOf", "oneOf"] {
        if let Some(first) = node.get(key).and_then(|b| b.get(0)) {
            return first_branch(first);
        }
    }
    node
}

fn node_type(node: &Value) -> Option<&str> {
    match node.get("type")? {
        Value::String(t) => Some(t),
        Value::Array(ts) => ts.iter().filter_map(Value::as_str).find(|t| *t != "null"),
        _ => None,
    }
}

/// Maximum nesting of objects and arrays along any path of instances of `schema`, counting each
/// object or array as 1 (so a root object holding an array of objects has depth 3). `anyOf` and
/// `oneOf` branches add nothing themselves; the deepest branch counts.
pub fn schema_depth(schema: &Value) -> usize {
    let branches: Vec<&Value> = ["anyOf", "oneOf"]
        .iter()
        .filter_map(|k| schema.get(*k).and_then(Value::as_array))
        .flatten()
        .collect();
    let own = match node_type(schema) {
        Some("object") => {
            1 + schema
                .get("properties")
                .and_then(Value::as_object)
                .map_or(0, |p| p.values().map(schema_depth).max().unwrap_or(0))
        }
        Some("array") => 1 + schema.get("items").map_or(0, schema_depth),
        _ => 0,
    };
    branches.into_iter().map(schema_depth).fold(own, usize::max)
}

/// Static size estimate, in bytes, of the smallest compact JSON instance of `schema` (see the
/// module documentation for the counting rules).
pub fn estimate_json_size(schema: &Value) -> usize {
    const NOMINAL_STRING: usize = 8;
    let node = first_branch(schema);
    match node_type(node) {
        Some("object") => {
            let props = node.get("properties").and_then(Value::as_object);
            let required: Vec<&str> = node
                .get("required")
                .and_then(Value::as_array)
                .map(|r| r.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            let fields: usize = required
                .iter()
                .map(|k| {
                    let value = props.and_then(|p| p.get(*k)).map_or(4, estimate_json_size);
                    k.len() + 3 + value // "key": value
                })
                .sum();
            2 + fields + required.len().saturating_sub(1)
        }
        Some("array") => {
            let n = node
                .get("minItems")
                .and_then(Value::as_u64)
                .unwrap_or(0)
                .max(1) as usize;
            let item = node.get("items").map_or(4, estimate_json_size);
            2 + n * item + (n - 1)
        }
        Some("string") => {
            let enum_max = node
                .get("enum")
                .and_then(Value::as_array)
                .and_then(|e| e.iter().filter_map(Value::as_str).map(str::len).max());
            let max_len = node
                .get("maxLength")
                .and_then(Value::as_u64)
                .map(|m| m as usize);
            2 + enum_max
                .unwrap_or_else(|| max_len.map_or(NOMINAL_STRING, |m| m.min(NOMINAL_STRING)))
        }
        Some("integer" | "number") => 1,
        Some("boolean") => 5,
        _ => 4, // null or unconstrained
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use SchemaVersion::*;

    fn schema(v: SchemaVersion) -> Value {
        serde_json::from_str(v.schema_json()).unwrap()
    }

    #[test]
    fn depth_by_the_spec_definition() {
        assert_eq!(
            schema_depth(&schema(V2Flat)),
            3,
            "v2-flat must stay at depth <= 3"
        );
        assert_eq!(schema_depth(&schema(V1Current)), 5);
        let canonical: Value = serde_json::from_str(TODAY_PLAN_SCHEMA).unwrap();
        assert_eq!(schema_depth(&canonical), 5);
        assert_eq!(schema_depth(&serde_json::json!({"type": "object"})), 1);
        assert_eq!(
            schema_depth(
                &serde_json::json!({"type":"object","properties":{"a":{"type":"array","items":{"type":"string"}}}})
            ),
            2
        );
    }

    #[test]
    fn estimate_counts_a_minimal_instance() {
        // {"a":"xxxxxxxx","n":1,"l":[1]}
        let s = serde_json::json!({"type":"object","required":["a","n","l"],"properties":{
            "a":{"type":"string"},"n":{"type":"integer"},"l":{"type":"array","items":{"type":"integer"}}}});
        assert_eq!(
            estimate_json_size(&s),
            r#"{"a":"xxxxxxxx","n":1,"l":[1]}"#.len()
        );
        let e = serde_json::json!({"type":"string","enum":["ai","manual"]});
        assert_eq!(estimate_json_size(&e), "\"manual\"".len());
    }

    #[test]
    fn selection_follows_the_spec_steps() {
        assert_eq!(
            select_schema(&[V2Flat], Some(V1Current)),
            SchemaSelection {
                schema_version: V1Current,
                reason: SelectionReason::Override
            }
        );
        assert_eq!(
            select_schema(&[V1Current], None),
            SchemaSelection {
                schema_version: V1Current,
                reason: SelectionReason::SingleSupported
            }
        );
        assert_eq!(
            select_schema(&[V2Flat, V2Flat], None).reason,
            SelectionReason::SingleSupported
        );
        let both = select_schema(&[V1Current, V2Flat], None);
        assert_eq!(both.reason, SelectionReason::SmallestEstimate);
        let smallest = if V2Flat.estimated_size() <= V1Current.estimated_size() {
            V2Flat
        } else {
            V1Current
        };
        assert_eq!(both.schema_version, smallest);
        assert_eq!(
            select_schema(&[], None),
            both,
            "no declaration means every version"
        );
    }

    #[test]
    fn shipped_schema_estimates() {
        // v2-flat repeats `"blockIndex":0,"order":0,` (25 bytes with its comma) per exercise, which the nesting
        // of v1-current does not need; see docs/adr/0002-plan-schema-contract.md.
        assert_eq!(
            (V1Current.estimated_size(), V2Flat.estimated_size()),
            (275, 300)
        );
    }

    #[test]
    fn ties_break_to_v2_flat_and_smaller_wins() {
        let sel = |a: usize, b: usize| {
            select_schema_with(&[V1Current, V2Flat], None, |v| {
                if v == V1Current {
                    a
                } else {
                    b
                }
            })
            .schema_version
        };
        assert_eq!(sel(100, 100), V2Flat);
        assert_eq!(sel(99, 100), V1Current);
        assert_eq!(sel(100, 99), V2Flat);
    }

    #[test]
    fn names_round_trip() {
        for v in SchemaVersion::ALL {
            assert_eq!(SchemaVersion::parse(v.as_str()), Some(v));
            assert_eq!(
                serde_json::to_string(&v).unwrap(),
                format!("\"{}\"", v.as_str())
            );
        }
        assert_eq!(SchemaVersion::parse("v3"), None);
    }
}
