//! The plan transform as a service: transform, then record how it went in generation metadata;
//! and today-plan generation: prompt the model in the selected schema version under that schema's
//! grammar, validate each answer with the transformer (repairing with its error lines), then
//! transform and record the valid text the same way.

use std::sync::{Arc, Mutex};

use serde_json::Value;

use super::generate::{user_prompt, validate_request, TodayPlanRequest};
use super::store::NewGeneration;
use super::{compose, notes, select_schema, transform, PlanTransform, Ruleset, SchemaSelection};
use crate::db::Store;
use crate::kernel::clock::Clock;
use crate::kernel::error::{Error, OutputError, OutputErrorCode, Result};
use crate::kernel::ids::IdGenerator;
use crate::llm::structured::{generate_validated, Issue};
use crate::llm::{
    CancelToken, ChatMessage, ChatRole, GenerationRequest, LanguageModel, LlmError, Sampling,
};
use crate::workout::{
    analyzer_prompt, analyzer_schema, answer_picks, document_validator, exercises,
    pre_analysis_over,
};

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
            max_tokens: 256,
            timeout_ms: Some(60_000),
        }
    }
}

/// Transforms `text` with the selected schema and, when a store is given, records one metadata row
/// (success or failure) with the schema version, the selection reason and the ruleset version.
///
/// When the transform fails, its error is returned even if recording the failure also failed.
/// Text over 1 MiB ([`crate::kernel::limits::MAX_REQUEST_BYTES`]) is refused with `InvalidArgument`
/// before anything is parsed or recorded.
pub fn transform_and_record(
    store: Option<&Store>,
    clock: &dyn Clock,
    ruleset: &Ruleset,
    text: &str,
    selection: SchemaSelection,
    ids: &mut IdGenerator,
) -> Result<PlanTransform> {
    crate::kernel::limits::check_size(text, &crate::kernel::limits::Caps::REQUEST)
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

/// Generates today's plan with `model` (spec 000, the provider side), the way a small model can:
/// code reads the notes ([`super::notes`]: minutes, focus, goal, energy, equipment, what to
/// spare, exercises wanted or refused), runs the workout flow's pre-analysis over the user's
/// history (anti-repeat, allowed exercises, time budget) and builds a skeleton of slots for the
/// focus ([`compose::skeleton`]), each with at most four
/// allowed exercises; the model picks one exercise per slot under a grammar where each slot is an
/// enum of its candidates (repaired with the validator's lines up to `settings.max_attempts`
/// generations); code writes the plan in the selected schema version around the picks
/// ([`super::compose`]) and the transformer validates, expands and gives it ids. The plan is
/// recorded (feature [`PLAN_GENERATE_FEATURE`]); when every answer was invalid, the failure is
/// recorded and the call fails with `ModelOutputRejected`. Model errors (timeout, cancellation,
/// an open breaker) fail as they are and record nothing. Notes whose equipment and bans leave no
/// exercise at all are `InvalidArgument`.
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
    let catalog = exercises(store)?;
    let reading = notes::read(&request.notes, &catalog);
    let workout_request = compose::workout_request(request, &reading);
    let pre = pre_analysis_over(store, &workout_request, &catalog)?;
    let slots = compose::skeleton(&workout_request, &reading, &pre, &catalog);
    if slots.is_empty() {
        return Err(Error::InvalidArgument(
            "request.notes: the equipment and bans they name leave no exercise".into(),
        ));
    }
    let schema = analyzer_schema(&slots);
    let validator = document_validator(&schema);
    let generation = GenerationRequest {
        messages: vec![
            ChatMessage::new(ChatRole::System, crate::kernel::prompts::PLAN_GENERATE),
            ChatMessage::new(
                ChatRole::User,
                user_prompt(request, &analyzer_prompt(&workout_request, &pre, &slots)),
            ),
        ],
        json_schema: Some(schema.to_string()),
        sampling: Sampling {
            temperature: 0.1,
            ..Sampling::default()
        },
        max_tokens: settings.max_tokens,
        timeout_ms: settings.timeout_ms,
    };
    let picks_of = |v: &Value| answer_picks(&validator, v, &slots);
    // The last answer's first issue is what a failure records.
    let last_issue: Mutex<Option<Issue>> = Mutex::new(None);
    let outcome = generate_validated::<Value>(
        model,
        generation,
        settings.max_attempts,
        None,
        cancel,
        |v| {
            let issues = picks_of(v).err().unwrap_or_default();
            *last_issue.lock().unwrap_or_else(|p| p.into_inner()) = issues.first().cloned();
            issues
        },
    );
    let (value, report) = match outcome {
        Ok(ok) => ok,
        Err(e @ LlmError::InvalidOutput { .. }) => {
            let last = last_issue.into_inner().unwrap_or_else(|p| p.into_inner());
            let last = match last {
                Some(i) => OutputError {
                    code: OutputErrorCode::SchemaViolation,
                    path: Some(i.path).filter(|p| !p.is_empty()),
                    detail: i.message,
                },
                // No answer held a readable JSON object.
                None => OutputError {
                    code: OutputErrorCode::InvalidJson,
                    path: None,
                    detail: "no JSON object".into(),
                },
            };
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
    let picks = picks_of(&value)
        .map_err(|_| Error::Internal("plan answer changed after validation".into()))?;
    log::info!(target: "coachcore::plan", "stage=generate outcome=valid schema={} slots={} attempts={} prompt_tokens={} completion_tokens={}",
        version.as_str(), slots.len(), report.attempts, report.prompt_tokens, report.completion_tokens);
    let items: Vec<compose::PlannedItem> = slots.iter().zip(picks).collect();
    let text = compose::plan_json(version, &reading, &items).to_string();
    let mut ids = IdGenerator::new(request.seed);
    // Code wrote this plan: a transform error is a defect, not the model's.
    let plan = transform(&text, version, ruleset, &mut ids)
        .map_err(|e| Error::Internal(format!("composed plan: {e}")))?;
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
