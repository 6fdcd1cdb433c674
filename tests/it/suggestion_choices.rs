//! AI suggestions as choices (issue 10), without a real model: the candidates code computes,
//! scored alone over the evaluation scenarios (`tests/data/eval/suggestions.json`), and the choices
//! mode of the AI source with the scripted model (one call, no call without candidates, the pick
//! becomes a draft the pipeline stores and `accept_change` applies).

use std::sync::Arc;

use coachcore::db::Store;
use coachcore::kernel::clock::FixedClock;
use coachcore::llm::scripted::ScriptedModel;
use coachcore::llm::CancelToken;
use coachcore::suggest::ai::choices::{candidates, pick_schema, Candidate, MAX_CANDIDATES};
use coachcore::suggest::ai::{AiSuggestionSettings, LlmSuggestionSource};
use coachcore::suggest::model::*;
use coachcore::suggest::rules;
use coachcore::suggest::service::{check_context, SuggestionTools};
use coachcore::Coach;
use serde_json::Value;

/// One evaluation scenario: its id, the kind of change it warrants (`None`: none) and context.
struct Scenario {
    id: String,
    expected: Option<ChangeType>,
    ctx: ExerciseContext,
}

fn scenarios() -> Vec<Scenario> {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/eval/suggestions.json"
    ))
    .unwrap();
    let set: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(set["feature"], "suggestions");
    set["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| Scenario {
            id: s["id"].as_str().unwrap().to_string(),
            expected: match &s["expected"] {
                Value::String(n) if n == "none" => None,
                e => Some(serde_json::from_value(e["changeType"].clone()).unwrap()),
            },
            ctx: serde_json::from_value(s["context"].clone()).unwrap(),
        })
        .collect()
}

#[test]
fn the_scenario_set_is_well_formed() {
    let all = scenarios();
    assert!(all.len() >= 20, "{}", all.len());
    let ones = all.iter().filter(|s| s.expected.is_some()).count();
    assert!(
        ones >= 10 && all.len() - ones >= 10,
        "{ones} of {}",
        all.len()
    );
    let mut ids: Vec<&str> = all.iter().map(|s| s.id.as_str()).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), all.len(), "ids are unique");
    for s in &all {
        check_context(&s.ctx).unwrap_or_else(|e| panic!("{}: {e}", s.id));
        // A warranted change is one the rules do not make.
        if let Some(kind) = s.expected {
            let rule_kinds: Vec<ChangeType> = rules::evaluate(&s.ctx)
                .iter()
                .map(|d| d.change_type)
                .collect();
            assert!(!rule_kinds.contains(&kind), "{}: rules make {kind:?}", s.id);
        }
    }
    // Every kind the AI may propose is warranted somewhere.
    for kind in [
        ChangeType::IncreaseWeight,
        ChangeType::DecreaseWeight,
        ChangeType::IncreaseReps,
        ChangeType::DecreaseReps,
        ChangeType::IncreaseRest,
        ChangeType::DecreaseRest,
    ] {
        assert!(
            all.iter().any(|s| s.expected == Some(kind)),
            "{kind:?} is warranted by some scenario"
        );
    }
}

/// The candidates the pipeline would offer for `ctx`.
fn offered(ctx: &ExerciseContext) -> Vec<Candidate> {
    candidates(ctx, &rules::evaluate(ctx))
}

#[test]
fn candidates_alone_cover_the_warranted_changes_and_stay_quiet_otherwise() {
    let all = scenarios();
    let (mut ones, mut covered, mut first, mut nones, mut quiet) = (0, 0, 0, 0, 0);
    let mut misses = Vec::new();
    for s in &all {
        let c = offered(&s.ctx);
        assert!(c.len() <= MAX_CANDIDATES);
        let kinds: Vec<ChangeType> = c.iter().map(|c| c.change_type).collect();
        let mut unique = kinds.clone();
        unique.dedup();
        assert_eq!(
            unique.len(),
            kinds.len(),
            "{}: one candidate per kind",
            s.id
        );
        match s.expected {
            Some(kind) => {
                ones += 1;
                if kinds.contains(&kind) {
                    covered += 1;
                } else {
                    misses.push(format!("{}: {kinds:?}, wanted {kind:?}", s.id));
                }
                first += usize::from(kinds.first() == Some(&kind));
            }
            None => {
                nones += 1;
                if kinds.is_empty() {
                    quiet += 1;
                } else {
                    misses.push(format!("{}: {kinds:?}, wanted none", s.id));
                }
            }
        }
    }
    println!(
        "candidates alone: {covered}/{ones} warranted kinds offered ({first} first), \
         {quiet}/{nones} warrant-none with no candidate; {misses:?}"
    );
    assert_eq!(covered, ones, "{misses:?}");
    assert!(
        first * 10 >= ones * 8,
        "the warranted kind comes first in most: {first}/{ones}"
    );
    assert_eq!(quiet, nones, "{misses:?}");
}

#[test]
fn every_candidate_is_valid_by_construction() {
    for s in scenarios() {
        let ctx = &s.ctx;
        let rule_drafts = rules::evaluate(ctx);
        for c in candidates(ctx, &rule_drafts) {
            let what = format!("{}: {c:?}", s.id);
            assert!(
                !rule_drafts
                    .iter()
                    .any(|d| d.property == c.change_type.property()),
                "not already proposed by a rule: {what}"
            );
            let rx = &ctx.prescription;
            let old = match (c.change_type.property(), c.target_set_index) {
                (ChangeProperty::Rest, None) => {
                    assert_eq!(rx.rest_mode, RestMode::AllSame, "{what}");
                    rx.rest_seconds as f64
                }
                (p, Some(i)) => {
                    let set = ctx.set_prescription(i).expect("the set exists");
                    match p {
                        ChangeProperty::Weight => set.target_weight,
                        ChangeProperty::Reps => set.target_reps as f64,
                        ChangeProperty::Rest => {
                            assert_eq!(rx.rest_mode, RestMode::PerSet, "{what}");
                            set.rest_seconds as f64
                        }
                        ChangeProperty::SetType => {
                            // A set type change names the set's type now (its values are 0).
                            assert_eq!(c.set_type.map(|t| t.0), Some(set.set_type), "{what}");
                            continue;
                        }
                        other => panic!("{other:?} is not offered: {what}"),
                    }
                }
                _ => panic!("only rest is exercise-level: {what}"),
            };
            assert_eq!(c.old_value, old, "{what}");
            let (new, up) = (
                c.new_value,
                matches!(
                    c.change_type,
                    ChangeType::IncreaseWeight
                        | ChangeType::IncreaseReps
                        | ChangeType::IncreaseRest
                ),
            );
            assert_eq!(up, new > old, "direction: {what}");
            match c.change_type.property() {
                ChangeProperty::Weight => {
                    assert_eq!(
                        new,
                        coachcore::suggest::metrics::round_to_achievable(
                            new,
                            ctx.exercise.equipment,
                            &ctx.plan.load,
                            ctx.plan.unit
                        ),
                        "achievable: {what}"
                    );
                    assert!(new >= old / 3.0 && new <= old * 3.0, "{what}");
                }
                ChangeProperty::Reps => {
                    assert!(new.fract() == 0.0 && (new - old).abs() <= 2.0, "{what}");
                    if rx.rep_range.mode == RepRangeMode::Range {
                        assert!(
                            new >= rx.rep_range.lower as f64 && new <= rx.rep_range.upper as f64,
                            "within the range: {what}"
                        );
                    }
                }
                _ => assert!(
                    (new - old).abs() == 30.0 && (0.0..=900.0).contains(&new),
                    "{what}"
                ),
            }
            assert!(!c.evidence.is_empty() && !c.figures.is_empty(), "{what}");
        }
    }
}

#[test]
fn the_pick_schema_lists_none_and_each_candidate() {
    let s: Value = serde_json::from_str(&pick_schema(3)).unwrap();
    assert_eq!(
        s["properties"]["pick"]["enum"],
        serde_json::json!(["none", "c1", "c2", "c3"])
    );
    assert_eq!(s["properties"]["reason"]["maxLength"], 140);
    assert_eq!(s["required"], serde_json::json!(["pick", "reason"]));
    let v = jsonschema::validator_for(&s).unwrap();
    assert!(v.is_valid(&serde_json::json!({"pick": "c2", "reason": "ok"})));
    assert!(!v.is_valid(&serde_json::json!({"pick": "c4", "reason": "ok"})));
    assert!(!v.is_valid(&serde_json::json!({"pick": "c1"})));
}

struct NoTools;

impl SuggestionTools for NoTools {
    fn exercise_history(
        &self,
        _: &str,
    ) -> coachcore::kernel::error::Result<Option<ExerciseHistory>> {
        panic!("choices call no tools")
    }

    fn recent_performances(
        &self,
        _: &str,
        _: i64,
        _: u32,
    ) -> coachcore::kernel::error::Result<Vec<ExercisePerformance>> {
        panic!("choices call no tools")
    }
}

fn scenario(id: &str) -> Scenario {
    scenarios().into_iter().find(|s| s.id == id).unwrap()
}

#[test]
fn one_call_picks_a_candidate_and_none_picks_nothing() {
    let s = scenario("rest-pulldown-reps-crash");
    let rule_drafts = rules::evaluate(&s.ctx);
    let model = ScriptedModel::texts([
        r#"{"pick":"c1","reason":"Your reps fell from 12 to 7 with 60 s rest; 90 s should help."}"#,
        r#"{"pick":"none","reason":"no change"}"#,
        r#"{"pick":"c7","reason":"x"}"#,
        r#"{"pick":"c1","reason":""}"#,
    ]);
    let src = LlmSuggestionSource::new(model.clone());
    let cancel = CancelToken::new();
    let run = src.run(&s.ctx, &rule_drafts, &NoTools, &cancel).unwrap();
    assert_eq!(run.drafts.len(), 1);
    let d = &run.drafts[0];
    assert_eq!(
        (
            d.source,
            d.change_type,
            d.target_set_index,
            d.rule_id.as_deref()
        ),
        (SuggestionSource::Ai, ChangeType::IncreaseRest, None, None)
    );
    assert_eq!(d.old_value, Some(ChangeValue::Number { value: 60.0 }));
    assert_eq!(d.new_value, ChangeValue::Number { value: 90.0 });
    assert!(d.reasoning.starts_with("Your reps fell"), "{}", d.reasoning);
    assert_eq!(
        d.evidence.performance_ids,
        vec![
            "rest-pulldown-reps-crash-p0",
            "rest-pulldown-reps-crash-p1",
            "rest-pulldown-reps-crash-p2"
        ]
    );
    assert!(d.evidence.figures.iter().any(|f| f.name == "firstReps"));
    assert_eq!(
        (
            run.report.candidates,
            run.report.pick.as_deref(),
            run.report.steps
        ),
        (1, Some("c1"), 1)
    );
    let req = &model.requests()[0];
    assert_eq!(req.messages.len(), 2);
    assert!(req.messages[0]
        .content
        .starts_with("You are a strength coach"));
    assert!(
        req.messages[1]
            .content
            .contains("c1: increase rest from 60 to 90 s. Evidence: reps fell from 12 to 7"),
        "{}",
        req.messages[1].content
    );
    assert_eq!(req.json_schema.as_deref(), Some(pick_schema(1).as_str()));
    assert!(req.max_tokens <= 80);

    // "none": no draft.
    let run = src.run(&s.ctx, &rule_drafts, &NoTools, &cancel).unwrap();
    assert!(run.drafts.is_empty());
    assert_eq!(run.report.pick.as_deref(), Some("none"));

    // A pick outside the list is repaired; an empty reason falls back on the evidence.
    let run = src.run(&s.ctx, &rule_drafts, &NoTools, &cancel).unwrap();
    assert_eq!(run.report.generations, 2);
    assert_eq!(run.drafts.len(), 1);
    assert!(
        run.drafts[0]
            .reasoning
            .starts_with("Reps fell from 12 to 7"),
        "{}",
        run.drafts[0].reasoning
    );
    assert!(model.requests()[3].messages.len() > 2, "the repair request");
    assert_eq!(model.remaining(), 0);
}

#[test]
fn without_candidates_the_model_is_not_called() {
    let s = scenario("none-first-session");
    let model = ScriptedModel::texts([r#"{"pick":"none","reason":""}"#]);
    let src = LlmSuggestionSource::with_settings(model.clone(), AiSuggestionSettings::default());
    let run = src
        .run(
            &s.ctx,
            &rules::evaluate(&s.ctx),
            &NoTools,
            &CancelToken::new(),
        )
        .unwrap();
    assert!(run.drafts.is_empty());
    assert_eq!((run.report.candidates, run.report.generations), (0, 0));
    assert_eq!(run.report.pick, None);
    assert_eq!(model.remaining(), 1);
}

/// The scenario as a plan and logged sessions in a fresh `Coach`; returns it and the current
/// session's id.
fn coach_for(s: &Scenario) -> (Coach, String) {
    let ctx = &s.ctx;
    let clock = Arc::new(FixedClock::new(ctx.current.performed_at_ms + 3_600_000));
    let coach = Coach::with_store(Store::open_in_memory().unwrap(), clock);
    coach
        .workouts()
        .save_catalog_exercise(ctx.exercise.clone())
        .unwrap();
    coach
        .workouts()
        .save_plan(WorkoutPlan {
            settings: ctx.plan.clone(),
            name: "Plan".into(),
            exercises: vec![ctx.prescription.clone()],
        })
        .unwrap();
    let mut perfs: Vec<&ExercisePerformance> = ctx.recent().collect();
    perfs.reverse();
    for p in perfs {
        coach
            .workouts()
            .log_session(SessionLog {
                id: p.session_id.clone(),
                plan_id: Some(ctx.plan.plan_id.clone()),
                performed_at_ms: p.performed_at_ms,
                exercises: vec![ExerciseLog {
                    id: p.id.clone(),
                    catalog_id: p.catalog_id.clone(),
                    prescription_id: Some(ctx.prescription.id.clone()),
                    sets: p.sets.clone(),
                }],
            })
            .unwrap();
    }
    (coach, ctx.current.session_id.clone())
}

#[test]
fn every_pick_is_stored_and_accepted_through_the_pipeline() {
    let mut picked = 0;
    for s in scenarios() {
        let n = offered(&s.ctx).len();
        for pick in 1..=n {
            let (coach, session) = coach_for(&s);
            let model = ScriptedModel::texts([format!(
                r#"{{"pick":"c{pick}","reason":"The evidence supports this change."}}"#
            )]);
            coach
                .model()
                .set_ai_source(Some(Arc::new(LlmSuggestionSource::new(model.clone()))));
            let changes = coach.suggestions().for_session(session).unwrap();
            assert_eq!(model.remaining(), 0, "{}: one call", s.id);
            let ai: Vec<&PrescriptionChange> = changes
                .iter()
                .filter(|c| c.draft.source == SuggestionSource::Ai)
                .collect();
            assert_eq!(ai.len(), 1, "{} c{pick}: {changes:#?}", s.id);
            let accepted = coach.suggestions().accept(ai[0].id.clone()).unwrap();
            assert_eq!(accepted.decision, Decision::Accepted, "{}", s.id);
            picked += 1;
        }
        if n == 0 {
            let (coach, session) = coach_for(&s);
            let model = ScriptedModel::texts([r#"{"pick":"none","reason":""}"#]);
            coach
                .model()
                .set_ai_source(Some(Arc::new(LlmSuggestionSource::new(model.clone()))));
            let changes = coach.suggestions().for_session(session).unwrap();
            assert_eq!(model.remaining(), 1, "{}: no call", s.id);
            assert!(changes
                .iter()
                .all(|c| c.draft.source == SuggestionSource::Rule));
        }
    }
    assert!(picked >= 14, "{picked}");
}
