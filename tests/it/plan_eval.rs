//! The today-plan evaluation set (`tests/data/eval/plan.json`) scored on the deterministic path:
//! `workouts().todayPlan` with a model that answers every slot with its first candidate, the
//! plan code alone would make. Constraints are code's job (the model only chooses among
//! exercises that already meet them), so this path must meet the notes by itself; the `ai_eval`
//! bench scores the same set with the real model, with the same scoring (`plan_score.rs`).

use std::sync::Arc;

use coachcore::llm::metered::SharedModel;
use coachcore::llm::{
    CancelToken, FinishReason, GenerationRequest, GenerationResult, LanguageModel, LlmError,
    ModelInfo, TokenListener,
};
use coachcore::plan::PlanGenerateSettings;
use serde_json::{Map, Value};

#[path = "../../benches/ai_eval/plan_score.rs"]
mod plan_score;

use plan_score::{coach, request, strings, tasks, violations};

/// The tasks written with the first notes reader; the rest were written later, in other
/// people's phrasing, and scored before the reader changed for them.
const FIRST_TASKS: usize = 14;

/// A model that picks each slot's first candidate: the grammar's first enum value per slot.
struct FirstCandidate;

impl LanguageModel for FirstCandidate {
    fn info(&self) -> ModelInfo {
        ModelInfo {
            name: "first-candidate".into(),
            context_tokens: 8192,
            constrains_json_schema: true,
        }
    }

    fn generate(
        &self,
        request: GenerationRequest,
        _listener: Option<Arc<dyn TokenListener>>,
        _cancel: Arc<CancelToken>,
    ) -> Result<GenerationResult, LlmError> {
        let schema: Value =
            serde_json::from_str(request.json_schema.as_deref().unwrap_or("{}")).unwrap();
        let mut answer = Map::new();
        for key in strings(&schema["required"]) {
            answer.insert(key.clone(), schema["properties"][&key]["enum"][0].clone());
        }
        Ok(GenerationResult {
            text: Value::Object(answer).to_string(),
            finish: FinishReason::Stop,
            prompt_tokens: 0,
            completion_tokens: 0,
            prompt_ms: 0,
            generation_ms: 0,
        })
    }
}

/// (tasks met, wrong actions, invalid plans, failure lines) of `tasks`.
fn score(tasks: &[Value]) -> (usize, usize, usize, Vec<String>) {
    let (mut met, mut wrong, mut invalid) = (0, 0, 0);
    let mut failures = Vec::new();
    for t in tasks {
        let c = coach(&strings(&t["history"]));
        let id = t["id"].as_str().unwrap_or("?");
        let model: Arc<dyn LanguageModel> = Arc::new(FirstCandidate);
        match c.workouts().today_plan_with(
            &request(t),
            SharedModel::plain(model),
            &CancelToken::new(),
            &PlanGenerateSettings::default(),
        ) {
            Ok(p) => {
                let (v, bad) = violations(t, &p.plan);
                invalid += usize::from(bad);
                wrong += v.len();
                if v.is_empty() {
                    met += 1;
                } else {
                    failures.push(format!("{id}: {}", v.join("; ")));
                }
            }
            Err(e) => failures.push(format!("{id}: error {e}")),
        }
    }
    (met, wrong, invalid, failures)
}

#[test]
fn the_deterministic_plan_meets_the_notes_of_the_evaluation_set() {
    let all = tasks();
    let (first, later) = all.split_at(FIRST_TASKS);
    let (met_first, wrong_first, invalid_first, f1) = score(first);
    let (met_later, wrong_later, invalid_later, f2) = score(later);
    println!(
        "deterministic plans: first {FIRST_TASKS} tasks {met_first} met, {wrong_first} wrong actions; \
         later {} tasks {met_later} met, {wrong_later} wrong actions; all {} of {} met",
        later.len(),
        met_first + met_later,
        all.len()
    );
    for f in f1.iter().chain(&f2) {
        println!("  {f}");
    }
    assert_eq!(
        invalid_first + invalid_later,
        0,
        "exercises not in the catalog"
    );
    assert!(later.len() >= 40, "at least 40 later tasks");
    // Floors: the figures measured when they were set; raise them, never lower them. (The first
    // reader met 22 of the later tasks, with 125 wrong actions.)
    assert!(met_first >= 14 && wrong_first == 0, "{f1:#?}");
    assert!(met_later >= 22 && wrong_later <= 125, "{f2:#?}");
}
