//! The AI suggestion source (spec 004 "AI Suggestion Integration") with the scripted model, in
//! its tool-loop mode (choices mode: `suggestion_choices.rs`): the tool loop, the repair loop with the domain validator's lines, normalisation, the step limit,
//! model errors, and the merge with the rules through `Coach`. Deterministic: no real model.

use std::sync::{Arc, Mutex};

use coachcore::db::Store;
use coachcore::kernel::clock::FixedClock;
use coachcore::kernel::error::Error;
use coachcore::llm::scripted::{ScriptedModel, ScriptedReply};
use coachcore::llm::{CancelToken, ChatRole, LlmError};
use coachcore::suggest::ai::{
    AiRun, AiSuggestionMode, AiSuggestionSettings, LlmSuggestionSource, AI_CHANGE_TYPES,
    STEP_SCHEMA,
};
use coachcore::suggest::model::*;
use coachcore::suggest::service::{
    AiSuggestionSource, SuggestionProgressListener, SuggestionTools,
};
use coachcore::Coach;
use serde_json::{json, Value};

const DAY: i64 = 86_400_000;
const T0: i64 = 1_763_000_000_000;

// ---------------------------------------------------------------------------------------------
// An exercise context and tools without a database.

fn set_rx(index: u32, weight: f64, reps: u32, rest: u32) -> SetPrescription {
    SetPrescription {
        index,
        set_type: SetType::Regular,
        target_weight: weight,
        target_reps: reps,
        rest_seconds: rest,
    }
}

fn performed(id: &str, day: i64, weight: f64, reps: u32) -> ExercisePerformance {
    ExercisePerformance {
        id: id.into(),
        session_id: format!("s-{id}"),
        catalog_id: "bench".into(),
        performed_at_ms: T0 + day * DAY,
        sets: (0..3)
            .map(|index| PerformedSet {
                index,
                set_type: SetType::Regular,
                weight,
                reps,
                rest_seconds: Some(120),
                completed: true,
            })
            .collect(),
    }
}

/// Bench press, 3 x 8 @ 135 lb, range 8-12, 120 s rest for all sets; this session (day 10) 3 x 10,
/// one earlier session (day 7).
fn ctx() -> ExerciseContext {
    ExerciseContext {
        plan: PlanSettings {
            plan_id: "p".into(),
            unit: WeightUnit::Lbs,
            training_style: TrainingStyle::StraightSets,
            load: LoadConfig::default(),
        },
        exercise: CatalogExercise {
            catalog_id: "bench".into(),
            name: "Bench Press".into(),
            equipment: Equipment::Barbell,
            target_muscles: vec![Muscle::Chest],
        },
        prescription: ExercisePrescription {
            id: "rx-bench".into(),
            catalog_id: "bench".into(),
            position: 0,
            rep_range: RepRange {
                mode: RepRangeMode::Range,
                lower: 8,
                upper: 12,
                target: 0,
            },
            rest_mode: RestMode::AllSame,
            rest_seconds: 120,
            sets: vec![
                set_rx(0, 135.0, 8, 120),
                set_rx(1, 135.0, 8, 120),
                set_rx(2, 135.0, 8, 120),
            ],
        },
        current: performed("p10", 10, 135.0, 10),
        previous: vec![performed("p7", 7, 135.0, 9)],
        history: None,
    }
}

/// Tools answering from fixed data and recording the calls.
#[derive(Default)]
struct FakeTools {
    history: Option<ExerciseHistory>,
    recent: Vec<ExercisePerformance>,
    calls: Mutex<Vec<String>>,
}

impl FakeTools {
    fn with_data() -> Self {
        FakeTools {
            history: Some(ExerciseHistory {
                catalog_id: "bench".into(),
                session_count: 14,
                typical_lower_reps: 8,
                typical_upper_reps: 10,
                best_e1rm: 180.25,
                last_e1rm: 176.0,
                trend: Trend::Stable,
                updated_at_ms: T0,
            }),
            recent: vec![
                performed("p7", 7, 135.0, 9),
                performed("p4", 4, 130.0, 9),
                performed("p1", 1, 130.0, 8),
            ],
            calls: Mutex::default(),
        }
    }

    fn calls(&self) -> Vec<String> {
        self.calls.lock().unwrap().clone()
    }
}

impl SuggestionTools for FakeTools {
    fn exercise_history(
        &self,
        catalog_id: &str,
    ) -> coachcore::kernel::error::Result<Option<ExerciseHistory>> {
        self.calls
            .lock()
            .unwrap()
            .push(format!("history {catalog_id}"));
        Ok(self.history.clone())
    }

    fn recent_performances(
        &self,
        catalog_id: &str,
        before_ms: i64,
        limit: u32,
    ) -> coachcore::kernel::error::Result<Vec<ExercisePerformance>> {
        self.calls.lock().unwrap().push(format!(
            "recent {catalog_id} {} {limit}",
            (before_ms - T0) / DAY
        ));
        Ok(self
            .recent
            .iter()
            .filter(|p| p.performed_at_ms < before_ms)
            .take(limit as usize)
            .cloned()
            .collect())
    }
}

/// The default settings in tool-loop mode.
fn tool_loop() -> AiSuggestionSettings {
    AiSuggestionSettings {
        mode: AiSuggestionMode::ToolLoop,
        ..AiSuggestionSettings::default()
    }
}

fn source(model: &Arc<ScriptedModel>) -> LlmSuggestionSource {
    LlmSuggestionSource::with_settings(model.clone(), tool_loop())
}

fn source_with(model: &Arc<ScriptedModel>, settings: AiSuggestionSettings) -> LlmSuggestionSource {
    LlmSuggestionSource::with_settings(model.clone(), settings)
}

fn run(src: &LlmSuggestionSource, ctx: &ExerciseContext, tools: &FakeTools) -> AiRun {
    src.run(ctx, &[], tools, &CancelToken::new()).unwrap()
}

/// A final answer with the given suggestions `(changeType, targetSetIndex, newValue)`.
fn answer(items: &[(&str, i64, f64)]) -> String {
    let list: Vec<Value> = items
        .iter()
        .map(|(t, i, v)| {
            json!({"changeType": t, "targetSetIndex": i, "newValue": v, "reasoning": format!("{t} on {i}")})
        })
        .collect();
    json!({ "suggestions": list }).to_string()
}

fn number(v: &Option<ChangeValue>) -> Option<f64> {
    v.as_ref().and_then(ChangeValue::number)
}

fn figure(d: &SuggestionDraft, name: &str) -> Option<f64> {
    d.evidence
        .figures
        .iter()
        .find(|f| f.name == name)
        .map(|f| f.value)
}

fn schema(req: &coachcore::llm::GenerationRequest) -> Value {
    serde_json::from_str(
        req.json_schema
            .as_deref()
            .expect("every step sends the schema"),
    )
    .unwrap()
}

/// The tool names a step's schema offers.
fn offered_tools(req: &coachcore::llm::GenerationRequest) -> Vec<String> {
    let s = schema(req);
    s["anyOf"]
        .as_array()
        .map(|alts| {
            alts.iter()
                .filter_map(|a| {
                    a["properties"]["tool"]["const"]
                        .as_str()
                        .map(str::to_string)
                })
                .collect()
        })
        .unwrap_or_default()
}

// ---------------------------------------------------------------------------------------------
// The tool loop.

#[test]
fn a_tool_call_is_answered_and_the_final_answer_becomes_drafts() {
    let model = ScriptedModel::texts([
        r#"{"tool": "getRecentExercisePerformances", "limit": 2}"#.to_string(),
        answer(&[("increaseReps", 1, 9.0)]),
    ]);
    let tools = FakeTools::with_data();
    let c = ctx();
    let out = run(&source(&model), &c, &tools);

    assert_eq!(
        tools.calls(),
        vec!["recent bench 10 2"],
        "before this session, limit 2"
    );
    let reqs = model.requests();
    assert_eq!(reqs.len(), 2);
    // First step: system and user prompt, every tool offered.
    assert_eq!(reqs[0].messages.len(), 2);
    assert_eq!(reqs[0].messages[0].role, ChatRole::System);
    let user = &reqs[0].messages[1].content;
    assert!(user.contains("\"name\":\"Bench Press\""), "{user}");
    assert!(user.contains("Weight unit: lb"), "{user}");
    assert!(
        user.contains(
            r#"Prescription (sets as "set: weight x reps"): {"repRange":"8-12","restSeconds":120,"sets":["0: 135x8","1: 135x8","2: 135x8"]}"#
        ),
        "compact prescription: {user}"
    );
    assert!(user.contains(r#""restSeconds":120"#), "{user}");
    assert!(
        user.contains(r#""daysAgo":3"#),
        "the earlier session: {user}"
    );
    assert!(user.contains("Rule engine proposals: nothing"), "{user}");
    assert_eq!(
        offered_tools(&reqs[0]),
        vec!["getExerciseHistoryContext", "getRecentExercisePerformances"]
    );
    // Second step: the call and its result are in the chat; the used tool is no longer offered.
    let m = &reqs[1].messages;
    assert_eq!(m.len(), 4);
    assert_eq!(m[2].role, ChatRole::Assistant);
    assert_eq!(
        m[2].content,
        r#"{"tool":"getRecentExercisePerformances","limit":2}"#
    );
    assert_eq!(m[3].role, ChatRole::User);
    assert!(
        m[3].content.starts_with(
            "getRecentExercisePerformances result (2 sessions before this one, newest first): [{\"daysAgo\":3,"
        ),
        "{}",
        m[3].content
    );
    assert!(m[3].content.contains(r#""daysAgo":6"#), "{}", m[3].content);
    assert!(
        m[3].content
            .contains(r#""sets":["0: 130x9 rest 120s","1: 130x9 rest 120s","#),
        "{}",
        m[3].content
    );
    assert_eq!(offered_tools(&reqs[1]), vec!["getExerciseHistoryContext"]);

    assert_eq!(out.drafts.len(), 1);
    let d = &out.drafts[0];
    assert_eq!(d.source, SuggestionSource::Ai);
    assert_eq!(d.rule_id, None);
    assert_eq!(d.change_type, ChangeType::IncreaseReps);
    assert_eq!(d.property, ChangeProperty::Reps);
    assert_eq!(d.target_set_index, Some(1));
    assert_eq!(number(&d.old_value), Some(8.0));
    assert_eq!(d.new_value.number(), Some(9.0));
    assert_eq!(d.reasoning, "increaseReps on 1");
    assert_eq!(
        d.evidence.performance_ids,
        vec!["p10", "p7", "p4"],
        "what the model saw, newest first"
    );
    assert_eq!(d.evidence.set_indexes, vec![1]);
    assert_eq!(
        (figure(d, "oldValue"), figure(d, "newValue")),
        (Some(8.0), Some(9.0))
    );
    assert_eq!(
        figure(d, "proposedValue"),
        None,
        "not changed by normalising"
    );
    assert_eq!(out.report.steps, 2);
    assert_eq!(out.report.tool_calls, vec!["getRecentExercisePerformances"]);
    assert_eq!(out.report.generations, 2);
    assert!(!out.report.forced_final);
}

#[test]
fn both_tools_then_only_the_final_answer_is_offered() {
    let model = ScriptedModel::texts([
        r#"{"tool":"getExerciseHistoryContext"}"#.to_string(),
        r#"```json
{"tool":"getRecentExercisePerformances","limit":5}
```"#
            .to_string(),
        answer(&[("increaseRest", -1, 150.0)]),
    ]);
    let tools = FakeTools::with_data();
    let out = run(&source(&model), &ctx(), &tools);
    assert_eq!(tools.calls(), vec!["history bench", "recent bench 10 5"]);
    let reqs = model.requests();
    assert_eq!(reqs.len(), 3);
    let history_msg = &reqs[1].messages[3].content;
    assert_eq!(
        history_msg,
        "getExerciseHistoryContext result: {\"sessions\":14,\"typicalReps\":{\"lower\":8,\"upper\":10},\
         \"bestE1rm\":180.3,\"lastE1rm\":176,\"trend\":\"stable\"}\n\
         Call the other tool or give the final answer."
    );
    assert_eq!(
        offered_tools(&reqs[1]),
        vec!["getRecentExercisePerformances"]
    );
    let last = &reqs[2].messages;
    assert_eq!(last.len(), 6);
    assert!(
        last[5].content.contains("(3 sessions before this one")
            && last[5].content.ends_with("Now give the final answer."),
        "{}",
        last[5].content
    );
    let final_schema = schema(&reqs[2]);
    assert!(
        final_schema.get("anyOf").is_none(),
        "final answer only: {final_schema}"
    );
    assert!(final_schema["properties"]["suggestions"].is_object());

    assert_eq!(out.drafts.len(), 1);
    let d = &out.drafts[0];
    assert_eq!(
        (d.change_type, d.property, d.target_set_index),
        (ChangeType::IncreaseRest, ChangeProperty::Rest, None),
        "exercise-level rest"
    );
    assert_eq!(
        (number(&d.old_value), d.new_value.number()),
        (Some(120.0), Some(150.0))
    );
    assert_eq!(d.evidence.performance_ids, vec!["p10", "p7", "p4", "p1"]);
    assert!(d.evidence.set_indexes.is_empty());
    assert_eq!(
        out.report.tool_calls,
        vec!["getExerciseHistoryContext", "getRecentExercisePerformances"]
    );
    assert_eq!(out.report.steps, 3);
    assert!(!out.report.forced_final, "the tools ran out, not the steps");
}

#[test]
fn performances_are_compact_in_the_prompt() {
    let mut c = ctx();
    c.current.sets[0].set_type = SetType::Warmup;
    c.current.sets[0].weight = 95.5;
    c.current.sets[1].rest_seconds = None;
    c.current.sets[2].completed = false;
    c.previous.clear();
    let model = ScriptedModel::texts([r#"{"suggestions":[]}"#]);
    run(&source(&model), &c, &FakeTools::default());
    let user = &model.requests()[0].messages[1].content;
    assert!(
        user.contains(
            r#"This session: {"daysAgo":0,"sets":["0: 95.5x10 warmup rest 120s","1: 135x10","2: 135x10 rest 120s not done"]}"#
        ),
        "{user}"
    );
    assert!(
        user.contains("Earlier sessions, newest first: none"),
        "{user}"
    );
}

#[test]
fn no_history_and_an_empty_answer_are_fine() {
    let model = ScriptedModel::texts([
        r#"{"tool":"getExerciseHistoryContext"}"#,
        r#"{"suggestions":[]}"#,
    ]);
    let out = run(&source(&model), &ctx(), &FakeTools::default());
    assert!(out.drafts.is_empty());
    assert!(model.requests()[1].messages[3]
        .content
        .starts_with("getExerciseHistoryContext result: \"no history yet\""));
}

#[test]
fn the_step_limit_forces_the_final_answer() {
    // max_steps 1: after one tool call only the final answer is allowed; a model that calls a tool
    // anyway is told so through the repair loop.
    let model = ScriptedModel::texts([
        r#"{"tool":"getExerciseHistoryContext"}"#.to_string(),
        r#"{"tool":"getRecentExercisePerformances","limit":3}"#.to_string(),
        answer(&[("decreaseReps", 2, 7.0)]),
    ]);
    let settings = AiSuggestionSettings {
        max_steps: 1,
        ..tool_loop()
    };
    let tools = FakeTools::with_data();
    let out = run(&source_with(&model, settings.clone()), &ctx(), &tools);
    assert_eq!(
        tools.calls(),
        vec!["history bench"],
        "the second call was refused"
    );
    let reqs = model.requests();
    assert_eq!(reqs.len(), 3);
    assert!(reqs[1].messages[3]
        .content
        .ends_with("Now give the final answer."));
    assert!(schema(&reqs[1]).get("anyOf").is_none(), "final answer only");
    let repair = &reqs[2].messages.last().unwrap().content;
    assert!(
        repair.contains("- tool: no more tool calls: give the final answer"),
        "{repair}"
    );
    assert_eq!(out.drafts.len(), 1);
    assert!(out.report.forced_final);
    assert_eq!(out.report.steps, 2);
    assert_eq!(out.report.generations, 3);

    // max_steps 0: no tools at all.
    let model = ScriptedModel::texts([r#"{"suggestions":[]}"#]);
    let settings = AiSuggestionSettings {
        max_steps: 0,
        ..settings
    };
    let out = run(&source_with(&model, settings), &ctx(), &tools);
    assert!(out.drafts.is_empty());
    assert!(schema(&model.requests()[0]).get("anyOf").is_none());
}

#[test]
fn a_model_that_keeps_calling_tools_ends_in_an_error() {
    let model = ScriptedModel::texts([
        r#"{"tool":"getExerciseHistoryContext"}"#,
        r#"{"tool":"getExerciseHistoryContext"}"#,
        r#"{"tool":"getExerciseHistoryContext"}"#,
        r#"{"tool":"getExerciseHistoryContext"}"#,
    ]);
    let err = run_err(&source(&model), &ctx());
    match err {
        Error::Llm(LlmError::InvalidOutput {
            stage,
            attempts,
            detail,
        }) => {
            assert_eq!((stage.as_str(), attempts), ("domain", 3));
            assert!(detail.contains("already called"), "{detail}");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn when_repairs_run_out_the_usable_part_of_the_last_reply_is_taken() {
    // A limit out of range three times: clamped to 5 and answered.
    let model = ScriptedModel::texts([
        r#"{"tool":"getRecentExercisePerformances","limit":9}"#.to_string(),
        r#"{"tool":"getRecentExercisePerformances","limit":0}"#.to_string(),
        r#"{"tool":"getRecentExercisePerformances","limit":9}"#.to_string(),
        // A tool call and suggestions at once: the suggestions are taken.
        r#"{"tool":"getExerciseHistoryContext","suggestions":[]}"#.to_string(),
        r#"{"tool":"getExerciseHistoryContext","suggestions":[]}"#.to_string(),
        format!(
            "{{\"tool\":\"getExerciseHistoryContext\",{}",
            &answer(&[("increaseReps", 0, 10.0)])[1..]
        ),
    ]);
    let tools = FakeTools::with_data();
    let out = run(&source(&model), &ctx(), &tools);
    assert_eq!(tools.calls(), vec!["recent bench 10 5"]);
    let reqs = model.requests();
    assert!(reqs[1].messages[3]
        .content
        .contains("- limit: must be 1 to 5"));
    assert!(reqs[4].messages[5]
        .content
        .contains("- (root): give either a tool call or the suggestions, not both"));
    assert_eq!(out.drafts.len(), 1);
    assert_eq!(out.drafts[0].new_value.number(), Some(10.0));
    assert_eq!(out.report.generations, 6);
}

fn run_err(src: &LlmSuggestionSource, ctx: &ExerciseContext) -> Error {
    src.run(ctx, &[], &FakeTools::with_data(), &CancelToken::new())
        .unwrap_err()
}

// ---------------------------------------------------------------------------------------------
// Validation, repair and normalisation.

#[test]
fn invalid_answers_are_repaired_with_the_validator_lines() {
    let model = ScriptedModel::texts([
        answer(&[("increaseReps", 9, 9.0)]),
        r#"{"suggestions":[{"changeType":"increaseReps","targetSetIndex":1,"newValue":"nine","reasoning":"x"}]}"#
            .to_string(),
        answer(&[("increaseReps", 1, 9.0)]),
    ]);
    let out = run(&source(&model), &ctx(), &FakeTools::with_data());
    assert_eq!(out.drafts.len(), 1);
    assert_eq!(out.drafts[0].target_set_index, Some(1));
    assert_eq!(out.report.generations, 3);
    assert_eq!(out.report.dropped, 0);
    let reqs = model.requests();
    let first_repair = &reqs[1].messages[3].content;
    assert!(
        first_repair
            .contains("- suggestions[0].targetSetIndex: there is no set 9; the sets are 0, 1, 2"),
        "{first_repair}"
    );
    let second_repair = &reqs[2].messages[5].content;
    assert!(
        second_repair.contains("suggestions[0].newValue: wrong type"),
        "{second_repair}"
    );
}

#[test]
fn every_kind_of_domain_error_is_reported() {
    let cases: Vec<(&str, i64, f64, &str)> = vec![
        ("changeSetType", 0, 1.0, "changeType: must be one of increaseWeight, decreaseWeight"),
        ("increaseWeight", -1, 140.0, "targetSetIndex: a weight change names a set (0, 1, 2), not -1"),
        ("decreaseReps", -1, 6.0, "targetSetIndex: a reps change names a set"),
        ("increaseReps", -2, 9.0, "targetSetIndex: there is no set -2"),
        ("increaseRest", 0, 150.0, "targetSetIndex: this exercise has one rest time for all sets: use -1"),
        ("increaseWeight", 0, 410.0, "newValue: the weight must be 45 to 405 lb (the current is 135)"),
        ("decreaseWeight", 0, 0.5, "newValue: the weight must be 45 to 405 lb"),
        ("decreaseWeight", 0, 40.0, "newValue: the weight must be 45 to 405 lb"),
        ("increaseReps", 0, 17.0, "newValue: reps must be 4 to 16 (half to twice the current 8)"),
        ("decreaseReps", 0, 3.4, "newValue: reps must be 4 to 16 (half to twice the current 8)"),
        ("increaseRest", -1, 901.0, "newValue: rest must be 0 to 900 seconds"),
        ("increaseReps", 0, 8.0, "newValue: the current reps is already 8"),
        ("increaseWeight", 0, 135.7, "newValue: 135.7 rounds to 135, the current weight is already 135"),
        ("increaseWeight", 0, 130.0, "newValue: increaseWeight needs a value above the current 135; use decreaseWeight for 130"),
        ("decreaseRest", -1, 150.0, "newValue: decreaseRest needs a value below the current 120; use increaseRest for 150"),
    ];
    for (t, i, v, expected) in cases {
        let model = ScriptedModel::texts([answer(&[(t, i, v)])]);
        let settings = AiSuggestionSettings {
            max_attempts: 1,
            ..tool_loop()
        };
        let out = run(
            &source_with(&model, settings),
            &ctx(),
            &FakeTools::default(),
        );
        assert!(out.drafts.is_empty(), "{t} {i} {v}: dropped");
        assert_eq!(out.report.dropped, 1);
        // The same answer followed by a valid one shows the repair message.
        let model =
            ScriptedModel::texts([answer(&[(t, i, v)]), r#"{"suggestions":[]}"#.to_string()]);
        run(&source(&model), &ctx(), &FakeTools::default());
        let repair = &model.requests()[1].messages[3].content;
        assert!(
            repair.contains(&format!("- suggestions[0].{expected}")),
            "{t} {i} {v}: {repair}"
        );
    }
}

#[test]
fn per_set_rest_names_a_set() {
    let mut c = ctx();
    c.prescription.rest_mode = RestMode::PerSet;
    c.prescription.sets[2].rest_seconds = 90;
    let model = ScriptedModel::texts([
        answer(&[("increaseRest", -1, 150.0)]),
        answer(&[("increaseRest", 2, 119.6)]),
    ]);
    let out = run(&source(&model), &c, &FakeTools::default());
    let repair = &model.requests()[1].messages[3].content;
    assert!(
        repair.contains(
            "targetSetIndex: this exercise has a rest time per set: name a set (0, 1, 2), not -1"
        ),
        "{repair}"
    );
    assert!(model.requests()[0].messages[1]
        .content
        .contains(r#""restSeconds":"per set","sets":["0: 135x8 rest 120s","1: 135x8 rest 120s","2: 135x8 rest 90s"]"#));
    let d = &out.drafts[0];
    assert_eq!(
        (
            d.target_set_index,
            number(&d.old_value),
            d.new_value.number()
        ),
        (Some(2), Some(90.0), Some(120.0)),
        "rest rounded to whole seconds"
    );
    assert_eq!(figure(d, "proposedValue"), Some(119.6));
}

#[test]
fn values_are_normalised() {
    let model = ScriptedModel::texts([answer(&[
        ("increaseWeight", 0, 136.3), // 2.5 lb steps: 136.3 -> 137.5
        ("decreaseWeight", 1, 131.2), // -> 130
        ("increaseReps", 2, 8.6),     // -> 9
        ("increaseRest", -1, 150.4),  // -> 150
        ("decreaseReps", 1, 7.5),     // halves up: 8 = current -> invalid, dropped at the end
    ])]);
    let settings = AiSuggestionSettings {
        max_attempts: 1,
        ..tool_loop()
    };
    let out = run(
        &source_with(&model, settings),
        &ctx(),
        &FakeTools::default(),
    );
    type Row = (ChangeType, Option<u32>, Option<f64>, Option<f64>);
    let got: Vec<Row> = out
        .drafts
        .iter()
        .map(|d| {
            (
                d.change_type,
                d.target_set_index,
                number(&d.old_value),
                d.new_value.number(),
            )
        })
        .collect();
    assert_eq!(
        got,
        vec![
            (
                ChangeType::IncreaseWeight,
                Some(0),
                Some(135.0),
                Some(137.5)
            ),
            (
                ChangeType::DecreaseWeight,
                Some(1),
                Some(135.0),
                Some(130.0)
            ),
            (ChangeType::IncreaseReps, Some(2), Some(8.0), Some(9.0)),
            (ChangeType::IncreaseRest, None, Some(120.0), Some(150.0)),
        ]
    );
    assert_eq!(
        out.report.dropped, 1,
        "the valid ones are kept, the invalid one dropped"
    );
    assert_eq!(figure(&out.drafts[0], "proposedValue"), Some(136.3));
    assert_eq!(figure(&out.drafts[0], "newValue"), Some(137.5));

    // Owned plates: bar 45 + pairs of 5 lb -> 10 lb steps; 141 -> 145. Owned dumbbells: nearest.
    let mut c = ctx();
    c.plan.load = LoadConfig {
        plates: vec![45.0, 25.0, 10.0, 5.0],
        bar_weight: 45.0,
        dumbbells: vec![],
    };
    let model = ScriptedModel::texts([answer(&[("increaseWeight", 0, 141.0)])]);
    let out = run(&source(&model), &c, &FakeTools::default());
    assert_eq!(out.drafts[0].new_value.number(), Some(145.0));
    c.exercise.equipment = Equipment::Dumbbell;
    c.prescription.sets[0].target_weight = 50.0;
    c.plan.load.dumbbells = vec![45.0, 50.0, 55.0, 60.0];
    let model = ScriptedModel::texts([answer(&[("increaseWeight", 0, 53.0)])]);
    let out = run(&source(&model), &c, &FakeTools::default());
    assert_eq!(out.drafts[0].new_value.number(), Some(55.0));
}

#[test]
fn kg_plans_bodyweight_sets_and_long_answers() {
    let mut c = ctx();
    c.plan.unit = WeightUnit::Kg;
    for s in &mut c.prescription.sets {
        s.target_weight = 60.0;
    }
    c.prescription.sets[2].target_weight = 0.0;
    let model = ScriptedModel::texts([answer(&[
        ("increaseWeight", 0, 61.0),  // 1.25 kg steps: 61.25
        ("increaseWeight", 2, 10.0),  // body weight: no weight change
        ("increaseWeight", 1, 200.0), // above 3x
    ])]);
    let settings = AiSuggestionSettings {
        max_attempts: 1,
        ..tool_loop()
    };
    let out = run(
        &source_with(&model, settings.clone()),
        &c,
        &FakeTools::default(),
    );
    assert_eq!(out.drafts.len(), 1);
    assert_eq!(out.drafts[0].new_value.number(), Some(61.25));
    assert_eq!(out.report.dropped, 2);
    assert!(model.requests()[0].messages[1]
        .content
        .contains("Weight unit: kg"));

    // Six suggestions: the first five valid ones are kept. Long reasoning is cut to 160 chars.
    let mut six: Value = serde_json::from_str(&answer(&[
        ("increaseReps", 0, 9.0),
        ("increaseReps", 1, 9.0),
        ("increaseReps", 2, 9.0),
        ("decreaseReps", 0, 7.0),
        ("decreaseReps", 1, 7.0),
        ("decreaseReps", 2, 7.0),
    ]))
    .unwrap();
    six["suggestions"][0]["reasoning"] = json!("word ".repeat(100));
    six["suggestions"][1]["reasoning"] = json!("  ");
    let model = ScriptedModel::texts([six.to_string()]);
    let out = run(
        &source_with(&model, settings),
        &ctx(),
        &FakeTools::default(),
    );
    assert_eq!(out.drafts.len(), 5);
    assert_eq!(out.report.dropped, 1);
    assert_eq!(out.drafts[0].reasoning.chars().count(), 160);
    assert_eq!(
        out.drafts[1].reasoning,
        "Change the reps of set 1 from 8 to 9."
    );
}

#[test]
fn model_errors_are_llm_errors_and_the_budget_is_enforced() {
    let model = ScriptedModel::new([ScriptedReply::Fail(LlmError::TimedOut { after_ms: 7 })]);
    let err = run_err(&source(&model), &ctx());
    assert!(
        matches!(err, Error::Llm(LlmError::TimedOut { after_ms: 7 })),
        "{err:?}"
    );

    let model = ScriptedModel::texts(["I think you should add weight."; 3]);
    let err = run_err(&source(&model), &ctx());
    assert!(
        matches!(err, Error::Llm(LlmError::InvalidOutput { ref stage, attempts: 3, .. }) if stage == "extract"),
        "{err:?}"
    );

    // Each request carries what is left of the budget; none left fails before calling the model.
    let model = ScriptedModel::texts([r#"{"suggestions":[]}"#]);
    let settings = AiSuggestionSettings {
        timeout_ms: Some(5_000),
        ..tool_loop()
    };
    run(
        &source_with(&model, settings),
        &ctx(),
        &FakeTools::default(),
    );
    let t = model.requests()[0].timeout_ms.unwrap();
    assert!(t <= 5_000 && t > 4_000, "{t}");
    let model = ScriptedModel::texts([r#"{"suggestions":[]}"#]);
    let settings = AiSuggestionSettings {
        timeout_ms: Some(0),
        ..tool_loop()
    };
    let err = run_err(&source_with(&model, settings), &ctx());
    assert!(
        matches!(err, Error::Llm(LlmError::TimedOut { after_ms: 0 })),
        "{err:?}"
    );
    assert!(model.requests().is_empty());

    // Cancelled before the call.
    let model = ScriptedModel::texts([r#"{"suggestions":[]}"#]);
    let cancel = CancelToken::new();
    cancel.cancel();
    let err = source(&model)
        .run(&ctx(), &[], &FakeTools::default(), &cancel)
        .unwrap_err();
    assert!(matches!(err, Error::Llm(LlmError::Cancelled)), "{err:?}");
}

#[test]
fn settings_reach_the_requests() {
    let model = ScriptedModel::texts([r#"{"suggestions":[]}"#]);
    let settings = AiSuggestionSettings {
        max_tokens: 300,
        sampling: coachcore::llm::Sampling {
            temperature: 0.0,
            top_p: 1.0,
            top_k: 0,
            seed: 7,
        },
        timeout_ms: None,
        ..tool_loop()
    };
    let src = source_with(&model, settings.clone());
    assert_eq!(src.settings(), &settings);
    let drafts = src
        .suggest(&ctx(), &[], &FakeTools::default(), &Default::default())
        .unwrap();
    assert!(drafts.is_empty());
    let r = &model.requests()[0];
    assert_eq!(
        (r.max_tokens, r.sampling.seed, r.timeout_ms),
        (300, 7, None)
    );
    let d = AiSuggestionSettings::default();
    assert_eq!(
        (d.mode, d.max_steps, d.max_attempts),
        (AiSuggestionMode::Choices, 4, 3)
    );
}

#[test]
fn the_schema_file_accepts_exactly_the_step_shapes() {
    let v = jsonschema::validator_for(&serde_json::from_str(STEP_SCHEMA).unwrap()).unwrap();
    let ok = [
        json!({"tool": "getExerciseHistoryContext"}),
        json!({"tool": "getRecentExercisePerformances", "limit": 5}),
        json!({"suggestions": []}),
        serde_json::from_str(&answer(&[
            ("increaseWeight", 0, 140.0),
            ("increaseRest", -1, 150.0),
        ]))
        .unwrap(),
    ];
    for x in &ok {
        assert!(v.is_valid(x), "{x}");
    }
    let bad = [
        json!({}),
        json!({"tool": "getRecentExercisePerformances"}),
        json!({"tool": "getRecentExercisePerformances", "limit": 6}),
        json!({"tool": "getExerciseHistoryContext", "limit": 2}),
        json!({"tool": "deleteEverything"}),
        serde_json::from_str(&answer(&[("changeSetType", 0, 1.0)])).unwrap(),
        serde_json::from_str(&answer(&[("increaseReps", -2, 9.0)])).unwrap(),
        serde_json::from_str(&answer(&[("increaseReps", 0, 9.0); 6])).unwrap(),
        json!({"suggestions": [{"changeType": "increaseReps", "targetSetIndex": 0, "newValue": 9}]}),
        json!({"suggestions": [{"changeType": "increaseReps", "targetSetIndex": 0, "newValue": 9, "reasoning": "x".repeat(161)}]}),
        json!({"suggestions": [], "tool": "getExerciseHistoryContext"}),
    ];
    for x in &bad {
        assert!(!v.is_valid(x), "{x}");
    }
    let s: Value = serde_json::from_str(STEP_SCHEMA).unwrap();
    let enumerated =
        &s["anyOf"][2]["properties"]["suggestions"]["items"]["properties"]["changeType"]["enum"];
    assert_eq!(enumerated, &json!(AI_CHANGE_TYPES));
}

// ---------------------------------------------------------------------------------------------
// Through the pipeline (`Coach`, SQLite).

struct World {
    coach: Coach,
    clock: Arc<FixedClock>,
    _dir: tempfile::TempDir,
}

fn world() -> World {
    let dir = tempfile::tempdir().unwrap();
    let clock = Arc::new(FixedClock::new(T0));
    let coach = Coach::with_store(
        Store::open(dir.path().join("coach.db")).unwrap(),
        clock.clone(),
    );
    for (id, name, muscle) in [
        ("bench", "Bench Press", Muscle::Chest),
        ("squat", "Back Squat", Muscle::Quads),
    ] {
        coach
            .workouts()
            .save_catalog_exercise(CatalogExercise {
                catalog_id: id.into(),
                name: name.into(),
                equipment: Equipment::Barbell,
                target_muscles: vec![muscle],
            })
            .unwrap();
    }
    let range = RepRange {
        mode: RepRangeMode::Range,
        lower: 8,
        upper: 12,
        target: 0,
    };
    let exercise = |id: &str, cat: &str, position, weight, rest| ExercisePrescription {
        id: id.into(),
        catalog_id: cat.into(),
        position,
        rep_range: range,
        rest_mode: RestMode::AllSame,
        rest_seconds: rest,
        sets: (0..3).map(|i| set_rx(i, weight, 8, rest)).collect(),
    };
    coach
        .workouts()
        .save_plan(WorkoutPlan {
            settings: PlanSettings {
                plan_id: "upper-lower".into(),
                unit: WeightUnit::Lbs,
                training_style: TrainingStyle::StraightSets,
                load: LoadConfig::default(),
            },
            name: "Upper / Lower".into(),
            exercises: vec![
                exercise("rx-bench", "bench", 0, 135.0, 120),
                exercise("rx-squat", "squat", 1, 225.0, 180),
            ],
        })
        .unwrap();
    World {
        coach,
        clock,
        _dir: dir,
    }
}

fn session(day: i64, bench: (f64, u32), squat: (f64, u32)) -> SessionLog {
    let ex = |id: &str, cat: &str, rx: &str, (w, r): (f64, u32)| ExerciseLog {
        id: format!("{id}-{day}"),
        catalog_id: cat.into(),
        prescription_id: Some(rx.into()),
        sets: (0..3)
            .map(|i| PerformedSet {
                index: i,
                set_type: SetType::Regular,
                weight: w,
                reps: r,
                rest_seconds: Some(120),
                completed: true,
            })
            .collect(),
    };
    SessionLog {
        id: format!("s{day}"),
        plan_id: Some("upper-lower".into()),
        performed_at_ms: T0 + day * DAY,
        exercises: vec![
            ex("bench", "bench", "rx-bench", bench),
            ex("squat", "squat", "rx-squat", squat),
        ],
    }
}

fn by_source(changes: &[PrescriptionChange], source: SuggestionSource) -> Vec<&PrescriptionChange> {
    changes
        .iter()
        .filter(|c| c.draft.source == source)
        .collect()
}

#[test]
fn ai_and_rule_suggestions_merge_with_rules_winning_ties() {
    let w = world();
    // Bench at the top of the range twice: the rules raise sets 0 and 1 to 140.
    w.coach
        .workouts()
        .log_session(session(0, (135.0, 12), (225.0, 9)))
        .unwrap();
    w.coach
        .workouts()
        .log_session(session(2, (135.0, 12), (225.0, 9)))
        .unwrap();
    w.clock.advance_ms(2 * DAY + 3_600_000);
    let model = ScriptedModel::texts([
        // Bench: look at the history, then propose.
        r#"{"tool":"getRecentExercisePerformances","limit":5}"#.to_string(),
        answer(&[
            ("increaseWeight", 0, 145.0), // same set as a rule's increase: the rule wins
            ("increaseWeight", 2, 143.0), // no rule for set 2: 143 -> 142.5
        ]),
        // Squat: a rest change only.
        answer(&[("increaseRest", -1, 210.0)]),
    ]);
    w.coach
        .model()
        .set_ai_source(Some(Arc::new(LlmSuggestionSource::with_settings(
            model.clone(),
            tool_loop(),
        ))));
    let changes = w.coach.suggestions().for_session("s2".into()).unwrap();
    assert_eq!(model.remaining(), 0);

    let reqs = model.requests();
    let bench_prompt = &reqs[0].messages[1].content;
    assert!(
        bench_prompt
            .contains(r#"{"changeType":"increaseWeight","targetSetIndex":0,"newValue":140}"#),
        "the rules' drafts are in the prompt: {bench_prompt}"
    );
    assert!(
        reqs[1].messages[3]
            .content
            .contains("(1 session before this one"),
        "the tool read the store: {}",
        reqs[1].messages[3].content
    );

    let set0: Vec<_> = changes
        .iter()
        .filter(|c| {
            c.prescription_id == "rx-bench"
                && c.draft.change_type == ChangeType::IncreaseWeight
                && c.draft.target_set_index == Some(0)
        })
        .collect();
    assert_eq!(set0.len(), 1, "{changes:#?}");
    assert_eq!(set0[0].draft.source, SuggestionSource::Rule);
    assert_eq!(set0[0].draft.new_value.number(), Some(140.0));

    let ai = by_source(&changes, SuggestionSource::Ai);
    let got: Vec<_> = ai
        .iter()
        .map(|c| {
            (
                c.prescription_id.as_str(),
                c.draft.change_type,
                c.draft.target_set_index,
                c.draft.new_value.number(),
            )
        })
        .collect();
    assert_eq!(
        got,
        vec![
            ("rx-bench", ChangeType::IncreaseWeight, Some(2), Some(142.5)),
            ("rx-squat", ChangeType::IncreaseRest, None, Some(210.0)),
        ]
    );
    assert!(ai.iter().all(|c| c.draft.rule_id.is_none()));
    assert_eq!(
        ai[0].draft.evidence.performance_ids,
        vec!["bench-2", "bench-0"]
    );
    assert!(!by_source(&changes, SuggestionSource::Rule).is_empty());
    // Stored: asking again returns the same changes without calling the model.
    assert_eq!(
        w.coach.suggestions().for_session("s2".into()).unwrap(),
        changes
    );
    assert_eq!(model.requests().len(), 3);
}

#[test]
fn a_failing_model_leaves_the_rule_suggestions() {
    let w = world();
    w.coach
        .workouts()
        .log_session(session(0, (135.0, 12), (225.0, 9)))
        .unwrap();
    w.coach
        .workouts()
        .log_session(session(2, (135.0, 12), (225.0, 9)))
        .unwrap();
    w.clock.advance_ms(2 * DAY);
    let model = ScriptedModel::new([
        ScriptedReply::Fail(LlmError::Backend {
            detail: "engine crashed".into(),
        }),
        ScriptedReply::Text("no JSON at all".into()),
        ScriptedReply::Text("still none".into()),
        ScriptedReply::Text("nope".into()),
    ]);
    w.coach
        .model()
        .set_ai_source(Some(Arc::new(LlmSuggestionSource::with_settings(
            model.clone(),
            tool_loop(),
        ))));
    let changes = w.coach.suggestions().for_session("s2".into()).unwrap();
    assert!(!changes.is_empty());
    assert!(
        changes
            .iter()
            .all(|c| c.draft.source == SuggestionSource::Rule),
        "{changes:#?}"
    );
    assert_eq!(
        model.requests().len(),
        4,
        "one call for bench, three attempts for squat"
    );
    assert!(changes
        .iter()
        .any(|c| c.prescription_id == "rx-bench"
            && c.draft.change_type == ChangeType::IncreaseWeight));
}

/// Records the progress a suggestion run reports, and cancels it on a chosen token.
#[derive(Default)]
struct Progress {
    exercises: Mutex<Vec<(u32, u32, String)>>,
    text: Mutex<String>,
    cancel_on: Option<(String, Arc<CancelToken>)>,
}

impl SuggestionProgressListener for Progress {
    fn on_exercise(
        &self,
        index: u32,
        count: u32,
        exercise_name: String,
    ) -> Result<(), coachcore::ffi::ListenerError> {
        self.exercises
            .lock()
            .unwrap()
            .push((index, count, exercise_name));
        Ok(())
    }

    fn on_token(&self, piece: String) -> Result<(), coachcore::ffi::ListenerError> {
        let mut text = self.text.lock().unwrap();
        text.push_str(&piece);
        if let Some((marker, cancel)) = &self.cancel_on {
            if text.contains(marker.as_str()) {
                cancel.cancel();
            }
        }
        Ok(())
    }
}

#[test]
fn a_run_streams_its_progress_and_text() {
    let w = world();
    w.coach
        .workouts()
        .log_session(session(0, (135.0, 12), (225.0, 9)))
        .unwrap();
    w.coach
        .workouts()
        .log_session(session(2, (135.0, 12), (225.0, 9)))
        .unwrap();
    w.clock.advance_ms(2 * DAY);
    let bench = answer(&[("increaseWeight", 2, 140.0)]);
    let squat = answer(&[("increaseRest", -1, 210.0)]);
    let model = ScriptedModel::texts([bench.clone(), squat.clone()]);
    w.coach
        .model()
        .set_ai_source(Some(Arc::new(LlmSuggestionSource::with_settings(
            model.clone(),
            tool_loop(),
        ))));
    let progress = Arc::new(Progress::default());
    let changes = w
        .coach
        .suggestions()
        .generate("s2".into(), Some(progress.clone()), None)
        .unwrap();
    assert_eq!(
        *progress.exercises.lock().unwrap(),
        vec![
            (0, 2, "Bench Press".to_string()),
            (1, 2, "Back Squat".to_string())
        ]
    );
    assert_eq!(*progress.text.lock().unwrap(), format!("{bench}{squat}"));
    assert_eq!(by_source(&changes, SuggestionSource::Ai).len(), 2);
}

#[test]
fn a_cancelled_run_stores_nothing_and_the_next_call_generates_afresh() {
    let w = world();
    w.coach
        .workouts()
        .log_session(session(0, (135.0, 12), (225.0, 9)))
        .unwrap();
    w.coach
        .workouts()
        .log_session(session(2, (135.0, 12), (225.0, 9)))
        .unwrap();
    w.clock.advance_ms(2 * DAY);
    // Words are the scripted model's tokens: cancel inside the squat's answer.
    let squat = r#"{"suggestions": [{"changeType": "increaseRest", "targetSetIndex": -1, "newValue": 210, "reasoning": "rest"}]}"#;
    let model = ScriptedModel::texts([answer(&[("increaseWeight", 2, 140.0)]), squat.to_string()]);
    w.coach
        .model()
        .set_ai_source(Some(Arc::new(LlmSuggestionSource::with_settings(
            model.clone(),
            tool_loop(),
        ))));
    let cancel = CancelToken::new();
    let progress = Arc::new(Progress {
        cancel_on: Some(("\"increaseRest\"".into(), cancel.clone())),
        ..Progress::default()
    });
    let err = w
        .coach
        .suggestions()
        .generate("s2".into(), Some(progress.clone()), Some(cancel))
        .unwrap_err();
    assert_eq!(err, coachcore::CoachError::Cancelled);
    assert_eq!(model.requests().len(), 2, "stopped in the second exercise");
    assert!(
        !progress.text.lock().unwrap().contains("210"),
        "the rest of the answer was not generated"
    );

    // Nothing was stored: without a model now, the rules alone generate and store.
    w.coach.model().set_ai_source(None);
    let changes = w.coach.suggestions().for_session("s2".into()).unwrap();
    assert!(!changes.is_empty());
    assert!(changes
        .iter()
        .all(|c| c.draft.source == SuggestionSource::Rule));

    // A token cancelled before the call stops before any model call.
    let w = world();
    w.coach
        .workouts()
        .log_session(session(0, (135.0, 12), (225.0, 9)))
        .unwrap();
    let model = ScriptedModel::texts([answer(&[])]);
    w.coach
        .model()
        .set_ai_source(Some(Arc::new(LlmSuggestionSource::with_settings(
            model.clone(),
            tool_loop(),
        ))));
    let cancel = CancelToken::new();
    cancel.cancel();
    assert_eq!(
        w.coach
            .suggestions()
            .generate("s0".into(), None, Some(cancel)),
        Err(coachcore::CoachError::Cancelled)
    );
    assert_eq!(model.requests().len(), 0);
}
