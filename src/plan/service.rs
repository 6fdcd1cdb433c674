//! The plan transform as a service: transform, then record how it went in generation metadata.

use super::{transform, PlanTransform, Ruleset, SchemaSelection};
use crate::clock::Clock;
use crate::error::{Error, Result};
use crate::ids::IdGenerator;
use crate::store::{NewGeneration, Store};

/// The `feature` value of plan-transform rows in generation metadata.
pub const PLAN_TRANSFORM_FEATURE: &str = "plan.transform";

/// Transforms `text` with the selected schema and, when a store is given, records one metadata row
/// (success or failure) with the schema version, the selection reason and the ruleset version.
///
/// When the transform fails, its error is returned even if recording the failure also failed.
/// Text over 1 MiB ([`crate::limits::MAX_REQUEST_BYTES`]) is refused with `InvalidArgument`
/// before anything is parsed or recorded.
pub fn transform_and_record(
    store: Option<&Store>,
    clock: &dyn Clock,
    ruleset: &Ruleset,
    text: &str,
    selection: SchemaSelection,
    ids: &mut IdGenerator,
) -> Result<PlanTransform> {
    crate::limits::check_size(text, &crate::limits::Caps::REQUEST)
        .map_err(|e| Error::InvalidArgument(format!("plan text: {}", e.detail)))?;
    let result = transform(text, selection.schema_version, ruleset, ids);
    let recorded = store.map(|s| {
        let (error_code, error_path) = match &result {
            Ok(_) => (None, None),
            Err(e) => (Some(e.code), e.path.clone()),
        };
        s.insert_generation(&NewGeneration {
            feature: PLAN_TRANSFORM_FEATURE.into(),
            schema_version: selection.schema_version,
            selection_reason: selection.reason,
            ruleset_version: ruleset.ruleset_version.clone(),
            error_code,
            error_path,
            created_at_ms: clock.now_ms(),
        })
    });
    let plan = result.map_err(Error::Output)?;
    let generation_id = recorded.transpose()?;
    Ok(PlanTransform {
        plan,
        schema_version: selection.schema_version,
        ruleset_version: ruleset.ruleset_version.clone(),
        generation_id,
    })
}
