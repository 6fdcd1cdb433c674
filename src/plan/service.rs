//! The plan transform as a service: transform, then record how it went in generation metadata;
//! and today-plan generation: prompt the model in the selected schema version under that schema's
//! grammar, validate each answer with the transformer (repairing with its error lines), then
//! transform and record the valid text the same way.

use std::sync::{Arc, Mutex};

use serde_json::Value;

use super::generate::{generation_schema, user_prompt, validate_request, TodayPlanRequest};
use super::{select_schema, transform, PlanTransform, Ruleset, SchemaSelection};
use crate::clock::Clock;
use crate::error::{Error, OutputError, OutputErrorCode, Result};
use crate::ids::IdGenerator;
use crate::llm::structured::{generate_validated, Issue};
use crate::llm::{
    CancelToken, ChatMessage, ChatRole, GenerationRequest, LanguageModel, LlmError, Sampling,
};
use crate::store::{NewGeneration, Store};

/// The `feature` value of plan-transform rows in generation metadata.
pub const PLAN_TRANSFORM_FEATURE: &str = "plan.transform";

/// The `feature` value of the rows of plans the library generated with its model.
pub const PLAN_GENERATE_FEATURE: &str = "plan.generate";

/// Limits of a today-plan generation.
#[derive(Debug, Clone, PartialEq)]
pub struct PlanGenerateSettings {
    /// Generations (the first plus repairs).
    pub max_attempts: u32,
    /// Token limit of one answer.
    pub max_tokens: u32,
    /// Wall-clock limit of one model call (ms).
    pub timeout_ms: Option<u64>,
}

impl Default for PlanGenerateSettings {
    fn default() -> Self {
        PlanGenerateSettings {
            max_attempts: 3,
            max_tokens: 1024,
            timeout_ms: Some(60_000),
        }
    }
}

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
        record(
            s,
            clock,
            ruleset,
            PLAN_TRANSFORM_FEATURE,
            selection,
            result.as_ref().err(),
        )
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

/// Records one generation-metadata row: `error` `None` for a success.
fn record(
    store: &Store,
    clock: &dyn Clock,
    ruleset: &Ruleset,
    feature: &str,
    selection: SchemaSelection,
    error: Option<&OutputError>,
) -> Result<i64> {
    store.insert_generation(&NewGeneration {
        feature: feature.into(),
        schema_version: selection.schema_version,
        selection_reason: selection.reason,
        ruleset_version: ruleset.ruleset_version.clone(),
        error_code: error.map(|e| e.code),
        error_path: error.and_then(|e| e.path.clone()),
        created_at_ms: clock.now_ms(),
    })
}

/// Generates today's plan with `model` (spec 000, the provider side): the prompt in the selected
/// schema version (the request's, else [`select_schema`] with no preference), the bounded
/// [`generation_schema`] as the grammar, each answer checked by the transformer and repaired with
/// its error line up to `settings.max_attempts` generations. The valid text is transformed and
/// recorded (feature [`PLAN_GENERATE_FEATURE`]); when every answer was invalid, the last
/// transform error is recorded and the call fails with `ModelOutputRejected`. Model errors
/// (timeout, cancellation, an open breaker) fail as they are and record nothing.
pub fn generate_and_record(
    store: &Store,
    clock: &dyn Clock,
    ruleset: &Ruleset,
    model: &dyn LanguageModel,
    request: &TodayPlanRequest,
    cancel: &Arc<CancelToken>,
    settings: &PlanGenerateSettings,
) -> Result<PlanTransform> {
    validate_request(request)?;
    let selection = select_schema(&[], request.schema_version);
    let version = selection.schema_version;
    let schema = generation_schema(version);
    let generation = GenerationRequest {
        messages: vec![
            ChatMessage::new(ChatRole::System, crate::prompts::PLAN_GENERATE),
            ChatMessage::new(ChatRole::User, user_prompt(request, &schema)),
        ],
        json_schema: Some(schema.to_string()),
        sampling: Sampling {
            temperature: 0.2,
            ..Sampling::default()
        },
        max_tokens: settings.max_tokens,
        timeout_ms: settings.timeout_ms,
    };
    // The transformer is the validator; its last error is what a failure records.
    let last_error: Mutex<Option<OutputError>> = Mutex::new(None);
    let outcome = generate_validated::<Value>(
        model,
        generation,
        settings.max_attempts,
        None,
        cancel,
        |v| {
            let checked = transform(
                &v.to_string(),
                version,
                ruleset,
                &mut IdGenerator::new(Some(0)),
            );
            let issues = match &checked {
                Ok(_) => Vec::new(),
                Err(e) => vec![Issue {
                    path: e.path.clone().unwrap_or_default(),
                    message: format!("{}: {}", e.code, e.detail),
                }],
            };
            *last_error.lock().unwrap_or_else(|p| p.into_inner()) = checked.err();
            issues
        },
    );
    let (value, report) = match outcome {
        Ok(ok) => ok,
        Err(e @ LlmError::InvalidOutput { .. }) => {
            let last = last_error.into_inner().unwrap_or_else(|p| p.into_inner());
            // No transform ran: the answers held no readable JSON.
            let last = last.unwrap_or(OutputError {
                code: OutputErrorCode::InvalidJson,
                path: None,
                detail: "no JSON object".into(),
            });
            record(
                store,
                clock,
                ruleset,
                PLAN_GENERATE_FEATURE,
                selection,
                Some(&last),
            )?;
            log::warn!(target: "coachcore::plan", "stage=generate outcome=rejected schema={}", version.as_str());
            return Err(e.into());
        }
        Err(e) => return Err(e.into()),
    };
    log::info!(target: "coachcore::plan", "stage=generate outcome=valid schema={} attempts={} prompt_tokens={} completion_tokens={}",
        version.as_str(), report.attempts, report.prompt_tokens, report.completion_tokens);
    let mut ids = IdGenerator::new(request.seed);
    let plan = transform(&value.to_string(), version, ruleset, &mut ids).map_err(Error::Output)?;
    let generation_id = record(
        store,
        clock,
        ruleset,
        PLAN_GENERATE_FEATURE,
        selection,
        None,
    )?;
    Ok(PlanTransform {
        plan,
        schema_version: version,
        ruleset_version: ruleset.ruleset_version.clone(),
        generation_id: Some(generation_id),
    })
}
