//! `generateTodayPlan` (spec 000, the provider side) with the scripted model: the prompt in the
//! selected schema version under its bounded grammar, the transformer as the validator, repairs
//! with its error line, the typed error after three invalid answers, and the generation metadata.

use std::sync::Arc;

use coachcore::clock::FixedClock;
use coachcore::llm::scripted::{ScriptedModel, ScriptedReply};
use coachcore::llm::LlmError;
use coachcore::store::Store;
use coachcore::{Coach, CoachError, OutputErrorCode, SchemaVersion, TodayPlanRequest};
use serde_json::Value;

const PLAN_V2: &str = include_str!("../data/plans/worked-example.v2.json");
const PLAN_V1: &str = include_str!("../data/plans/worked-example.v1.json");

fn coach() -> Coach {
    Coach::with_store(
        Store::open_in_memory().unwrap(),
        Arc::new(FixedClock::new(1_755_432_000_000)),
    )
}

fn request(version: Option<SchemaVersion>) -> TodayPlanRequest {
    TodayPlanRequest {
        date: "2025-08-18".into(),
        notes: "30 minutes, upper body, dumbbells".into(),
        schema_version: version,
        timezone: Some("Europe/Berlin".into()),
        seed: Some(7),
    }
}

#[test]
fn a_valid_answer_becomes_the_plan_and_is_recorded() {
    let c = coach();
    let model = ScriptedModel::texts([PLAN_V1]);
    c.use_language_model(Some(model.clone()));
    let t = c.generate_today_plan(request(None)).unwrap();
    let selected = c.select_plan_schema(vec![], None);
    assert_eq!(
        t.schema_version, selected.schema_version,
        "no preference: the smallest"
    );
    assert_eq!(t.schema_version, SchemaVersion::V1Current);
    let same = c.transform_plan(PLAN_V1.into(), selected, Some(7)).unwrap();
    assert_eq!(
        t.plan, same.plan,
        "the transformer's plan, ids from the seed"
    );
    // The request: system prompt, the user turn with the day and notes, the bounded grammar.
    let reqs = model.requests();
    assert_eq!(reqs.len(), 1);
    let user = &reqs[0].messages[1].content;
    assert!(user.contains("Date: 2025-08-18 (Monday)"), "{user}");
    assert!(user.contains("Europe/Berlin") && user.contains("upper body, dumbbells"));
    let schema: Value = serde_json::from_str(reqs[0].json_schema.as_deref().unwrap()).unwrap();
    assert_eq!(schema["$id"], "coachcore:today-plan/v1-current");
    assert_eq!(schema["properties"]["blocks"]["maxItems"], 6);
    assert!(reqs[0].max_tokens <= 1024);
    // Recorded as a generation.
    let rows = c.recent_generations(5).unwrap();
    assert_eq!(rows.len(), 2);
    let row = rows.iter().find(|r| Some(r.id) == t.generation_id).unwrap();
    assert_eq!(row.feature, "plan.generate");
    assert!(row.succeeded);
}

#[test]
fn the_requested_version_is_used_and_a_bad_answer_is_repaired_with_the_error() {
    let c = coach();
    // v1 asked; the first answer has an exercise pointing at no block in v2 terms: invalid v1.
    let model = ScriptedModel::texts([PLAN_V2, PLAN_V1]);
    c.use_language_model(Some(model.clone()));
    let t = c
        .generate_today_plan(request(Some(SchemaVersion::V1Current)))
        .unwrap();
    assert_eq!(t.schema_version, SchemaVersion::V1Current);
    let reqs = model.requests();
    assert_eq!(reqs.len(), 2, "one repair");
    let repair = &reqs[1].messages.last().unwrap().content;
    assert!(repair.contains("schema_violation"), "{repair}");
    let schema: Value = serde_json::from_str(reqs[0].json_schema.as_deref().unwrap()).unwrap();
    assert_eq!(schema["$id"], "coachcore:today-plan/v1-current");
}

#[test]
fn three_invalid_answers_are_the_typed_error_and_the_failure_is_recorded() {
    let c = coach();
    let bad = PLAN_V2.replace("\"blockIndex\": 1", "\"blockIndex\": 5");
    c.use_language_model(Some(ScriptedModel::texts([
        "no json",
        "{\"focus\": 1}",
        &bad,
    ])));
    let e = c
        .generate_today_plan(request(Some(SchemaVersion::V2Flat)))
        .unwrap_err();
    assert!(
        matches!(e, CoachError::ModelOutputRejected { attempts: 3, ref stage, .. } if stage == "domain"),
        "{e:?}"
    );
    let rows = c.recent_generations(5).unwrap();
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0].feature, "plan.generate");
    assert!(!rows[0].succeeded);
    assert_eq!(
        rows[0].error_code,
        Some(OutputErrorCode::BlockIndexOutOfRange)
    );
    assert_eq!(
        rows[0].error_path.as_deref(),
        Some("exercises[1].blockIndex")
    );
}

#[test]
fn model_errors_bad_requests_and_no_model_are_typed_and_record_nothing() {
    let c = coach();
    assert!(matches!(
        c.generate_today_plan(request(None)),
        Err(CoachError::ModelUnusable { .. })
    ));
    c.use_language_model(Some(ScriptedModel::new([ScriptedReply::Fail(
        LlmError::TimedOut { after_ms: 5 },
    )])));
    assert!(matches!(
        c.generate_today_plan(request(None)),
        Err(CoachError::TimedOut { .. })
    ));
    let mut r = request(None);
    r.date = "tomorrow".into();
    assert!(matches!(
        c.generate_today_plan(r),
        Err(CoachError::InvalidArgument { .. })
    ));
    assert!(c.recent_generations(5).unwrap().is_empty());
}
