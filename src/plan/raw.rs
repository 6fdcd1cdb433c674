//! The two LLM shapes as they are parsed.
//!
//! Absent and `null` are different things here, as in the JSON Schemas:
//! - a required field may be absent at parse time (`None`), so the validator reports it with its
//!   JSON path; but an explicit `null` in a field the schema types as a string, integer or array
//!   fails the parse as a wrong type, with its path ([`not_null`]). So `{"blockTemplate": "x",
//!   "title": null}` is rejected exactly like the schema rejects it, rather than read as a template
//!   block without a title;
//! - `detail` is required but nullable: `None` = absent, `Some(None)` = `null` ([`present`]);
//! - `blocks` keeps absent and `null` apart too, and both are `missing_blocks`.
//!
//! Integers are [`Whole`]: any JSON number without a fraction, as JSON Schema 2020-12 counts
//! integers (`30.0` and `3e1` are 30), of any size. Unknown fields are rejected by serde. Strings
//! are owned so the validated values move into the [`TodayPlan`](super::TodayPlan) without a
//! second copy.

use std::fmt;

use serde::de::{self, Deserializer, Unexpected, Visitor};
use serde::Deserialize;

/// A field where absent and `null` differ: `None` = absent, `Some(None)` = `null`.
pub(super) type Nullable<T> = Option<Option<T>>;

/// A required-but-nullable field: `None` = absent, `Some(None)` = `null`.
fn present<'de, D, T>(d: D) -> Result<Nullable<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    Option::<T>::deserialize(d).map(Some)
}

/// A required, non-nullable field (with `#[serde(default)]`): `None` = absent; `null` is a wrong
/// type, reported by the parser with the field's path.
fn not_null<'de, D, T>(d: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    T::deserialize(d).map(Some)
}

/// A JSON number with no fractional part: what JSON Schema calls an integer (`1.0` is one).
///
/// The variants are declared in numeric order, so the derived ordering is the numbers' order
/// (used to sort exercises by `order`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Whole {
    /// Below zero; no rule needs to know by how much.
    Negative,
    /// From 0 to `u64::MAX`, exactly.
    Exact(u64),
    /// Above `u64::MAX`. The parser read it as an `f64`; this holds that `f64`'s bits, which for
    /// positive finite numbers order like the numbers.
    Beyond(u64),
}

impl<'de> Deserialize<'de> for Whole {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Whole;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an integer")
            }
            fn visit_u64<E>(self, v: u64) -> Result<Whole, E> {
                Ok(Whole::Exact(v))
            }
            fn visit_i64<E>(self, v: i64) -> Result<Whole, E> {
                Ok(u64::try_from(v).map_or(Whole::Negative, Whole::Exact))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Whole, E> {
                if !v.is_finite() || v.fract() != 0.0 {
                    Err(E::invalid_type(Unexpected::Float(v), &self))
                } else if v < 0.0 {
                    Ok(Whole::Negative)
                } else if v < 18_446_744_073_709_551_616.0 {
                    // 2^64: every whole f64 below it converts exactly.
                    Ok(Whole::Exact(v as u64))
                } else {
                    Ok(Whole::Beyond(v.to_bits()))
                }
            }
        }
        d.deserialize_any(V)
    }
}

/// The top-level fields both shapes share.
pub(super) struct PlanHeader {
    pub focus: Option<String>,
    pub duration_minutes: Option<Whole>,
    pub equipment: Option<Vec<String>>,
    pub source: Option<String>,
    pub energy: Option<String>,
    pub summary: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(super) struct PlanV2 {
    #[serde(default, deserialize_with = "not_null")]
    pub focus: Option<String>,
    #[serde(default, deserialize_with = "not_null")]
    pub duration_minutes: Option<Whole>,
    #[serde(default, deserialize_with = "not_null")]
    pub equipment: Option<Vec<String>>,
    #[serde(default, deserialize_with = "not_null")]
    pub source: Option<String>,
    #[serde(default, deserialize_with = "not_null")]
    pub energy: Option<String>,
    #[serde(default, deserialize_with = "not_null")]
    pub summary: Option<String>,
    #[serde(default, deserialize_with = "present")]
    pub blocks: Nullable<Vec<BlockV2>>,
    #[serde(default, deserialize_with = "not_null")]
    pub exercises: Option<Vec<ExerciseV2>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(super) struct PlanV1 {
    #[serde(default, deserialize_with = "not_null")]
    pub focus: Option<String>,
    #[serde(default, deserialize_with = "not_null")]
    pub duration_minutes: Option<Whole>,
    #[serde(default, deserialize_with = "not_null")]
    pub equipment: Option<Vec<String>>,
    #[serde(default, deserialize_with = "not_null")]
    pub source: Option<String>,
    #[serde(default, deserialize_with = "not_null")]
    pub energy: Option<String>,
    #[serde(default, deserialize_with = "not_null")]
    pub summary: Option<String>,
    #[serde(default, deserialize_with = "present")]
    pub blocks: Nullable<Vec<BlockV1>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(super) struct BlockV2 {
    #[serde(default, deserialize_with = "not_null")]
    pub title: Option<String>,
    #[serde(default, deserialize_with = "not_null")]
    pub duration_minutes: Option<Whole>,
    #[serde(default, deserialize_with = "not_null")]
    pub focus: Option<String>,
    #[serde(default, deserialize_with = "not_null")]
    pub block_template: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(super) struct BlockV1 {
    #[serde(default, deserialize_with = "not_null")]
    pub title: Option<String>,
    #[serde(default, deserialize_with = "not_null")]
    pub duration_minutes: Option<Whole>,
    #[serde(default, deserialize_with = "not_null")]
    pub focus: Option<String>,
    #[serde(default, deserialize_with = "not_null")]
    pub block_template: Option<String>,
    #[serde(default, deserialize_with = "not_null")]
    pub exercises: Option<Vec<ExerciseV1>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(super) struct ExerciseV2 {
    #[serde(default, deserialize_with = "not_null")]
    pub block_index: Option<Whole>,
    #[serde(default, deserialize_with = "not_null")]
    pub order: Option<Whole>,
    #[serde(default, deserialize_with = "not_null")]
    pub name: Option<String>,
    #[serde(default, deserialize_with = "not_null")]
    pub prescription: Option<String>,
    #[serde(default, deserialize_with = "present")]
    pub detail: Nullable<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(super) struct ExerciseV1 {
    #[serde(default, deserialize_with = "not_null")]
    pub name: Option<String>,
    #[serde(default, deserialize_with = "not_null")]
    pub prescription: Option<String>,
    #[serde(default, deserialize_with = "present")]
    pub detail: Nullable<String>,
}

impl PlanV2 {
    pub fn split(self) -> (PlanHeader, Nullable<Vec<BlockV2>>, Option<Vec<ExerciseV2>>) {
        let h = PlanHeader {
            focus: self.focus,
            duration_minutes: self.duration_minutes,
            equipment: self.equipment,
            source: self.source,
            energy: self.energy,
            summary: self.summary,
        };
        (h, self.blocks, self.exercises)
    }
}

impl PlanV1 {
    pub fn split(self) -> (PlanHeader, Nullable<Vec<BlockV1>>) {
        let h = PlanHeader {
            focus: self.focus,
            duration_minutes: self.duration_minutes,
            equipment: self.equipment,
            source: self.source,
            energy: self.energy,
            summary: self.summary,
        };
        (h, self.blocks)
    }
}

/// The field names of both shapes: a field the schema does not allow *here* but that is one of
/// these is named in the error path; any other unknown name is the model's text and is not echoed.
pub(super) const KNOWN_FIELDS: [&str; 15] = [
    "focus",
    "durationMinutes",
    "equipment",
    "source",
    "energy",
    "summary",
    "blocks",
    "exercises",
    "title",
    "blockTemplate",
    "blockIndex",
    "order",
    "name",
    "prescription",
    "detail",
];

#[cfg(test)]
mod tests {
    use super::Whole::{self, *};

    fn whole(json: &str) -> Result<Whole, serde_json::Error> {
        serde_json::from_str(json)
    }

    #[test]
    fn whole_numbers_as_json_schema_counts_them() {
        let table: [(&str, Option<Whole>); 14] = [
            ("0", Some(Exact(0))),
            ("1", Some(Exact(1))),
            ("1.0", Some(Exact(1))),
            ("3e1", Some(Exact(30))),
            ("-0.0", Some(Exact(0))),
            ("-1", Some(Negative)),
            ("-1.0", Some(Negative)),
            ("-1e300", Some(Negative)),
            ("18446744073709551615", Some(Exact(u64::MAX))),
            ("1e19", Some(Exact(10_000_000_000_000_000_000))),
            ("0.5", None),
            ("30.5", None),
            ("\"3\"", None),
            ("true", None),
        ];
        for (json, want) in table {
            assert_eq!(whole(json).ok(), want, "{json}");
        }
        assert!(matches!(whole("18446744073709551616"), Ok(Beyond(_))));
        assert!(matches!(whole("1e300"), Ok(Beyond(_))));
    }

    #[test]
    fn whole_numbers_order_like_numbers() {
        let mut v: Vec<Whole> = [
            "1e300",
            "2e19",
            "18446744073709551615",
            "7",
            "-3",
            "0",
            "1e20",
        ]
        .iter()
        .map(|j| whole(j).unwrap())
        .collect();
        v.sort();
        let want: Vec<Whole> = [
            "-3",
            "0",
            "7",
            "18446744073709551615",
            "2e19",
            "1e20",
            "1e300",
        ]
        .iter()
        .map(|j| whole(j).unwrap())
        .collect();
        assert_eq!(v, want);
    }
}
