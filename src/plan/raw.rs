//! The two LLM shapes as they are parsed. Every field is optional here so that a missing field is
//! reported by the validator with its JSON path; unknown fields are rejected by serde.
//! Strings are owned so the validated values move into the [`TodayPlan`](super::TodayPlan)
//! without a second copy.

use serde::{Deserialize, Deserializer};

/// A required-but-nullable field: `None` = absent, `Some(None)` = `null`.
fn present<'de, D, T>(d: D) -> Result<Option<Option<T>>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    Option::<T>::deserialize(d).map(Some)
}

/// The top-level fields both shapes share.
pub(super) struct PlanHeader {
    pub focus: Option<String>,
    pub duration_minutes: Option<i64>,
    pub equipment: Option<Vec<String>>,
    pub source: Option<String>,
    pub energy: Option<String>,
    pub summary: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(super) struct PlanV2 {
    pub focus: Option<String>,
    pub duration_minutes: Option<i64>,
    pub equipment: Option<Vec<String>>,
    pub source: Option<String>,
    pub energy: Option<String>,
    pub summary: Option<String>,
    pub blocks: Option<Vec<BlockV2>>,
    pub exercises: Option<Vec<ExerciseV2>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(super) struct PlanV1 {
    pub focus: Option<String>,
    pub duration_minutes: Option<i64>,
    pub equipment: Option<Vec<String>>,
    pub source: Option<String>,
    pub energy: Option<String>,
    pub summary: Option<String>,
    pub blocks: Option<Vec<BlockV1>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(super) struct BlockV2 {
    pub title: Option<String>,
    pub duration_minutes: Option<i64>,
    pub focus: Option<String>,
    pub block_template: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(super) struct BlockV1 {
    pub title: Option<String>,
    pub duration_minutes: Option<i64>,
    pub focus: Option<String>,
    pub block_template: Option<String>,
    pub exercises: Option<Vec<ExerciseV1>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(super) struct ExerciseV2 {
    pub block_index: Option<i64>,
    pub order: Option<i64>,
    pub name: Option<String>,
    pub prescription: Option<String>,
    #[serde(default, deserialize_with = "present")]
    pub detail: Option<Option<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(super) struct ExerciseV1 {
    pub name: Option<String>,
    pub prescription: Option<String>,
    #[serde(default, deserialize_with = "present")]
    pub detail: Option<Option<String>>,
}

impl PlanV2 {
    pub fn split(self) -> (PlanHeader, Option<Vec<BlockV2>>, Option<Vec<ExerciseV2>>) {
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
    pub fn split(self) -> (PlanHeader, Option<Vec<BlockV1>>) {
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
