//! Today-plan generation (`workouts().todayPlan`, spec 000) on the real model: the tasks of
//! `tests/data/eval/plan.json`, each the user's notes and what the plan must be (minutes, focus,
//! energy, equipment, movement patterns, muscle groups, what to avoid, exercises asked for or
//! named as the focus, nothing trained yesterday). Scored as the assistant is (see
//! `tests/data/eval/README.md`; the constraints are checked in `plan_score.rs`, which
//! `tests/it/plan_eval.rs` shares to score the deterministic path):
//! - success: a plan that meets every constraint;
//! - wrong actions: constraints violated;
//! - invalid output reaching the app: a returned plan with a working exercise that is not in the
//!   catalog (must be 0).
//!
//! The model runs with the library's default settings in the 2048-token context `ai_eval` loads;
//! `--quick` runs the first 3 tasks.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

use coachcore::llm::llama::LlamaEngine;
use coachcore::llm::metered::SharedModel;
use coachcore::llm::{
    CancelToken, GenerationRequest, GenerationResult, LanguageModel, LlmError, ModelInfo,
    TokenListener,
};
use coachcore::plan::PlanGenerateSettings;

use super::plan_score::{coach, request, strings, tasks, violations};
use super::Score;

const QUICK_TASKS: usize = 3;

/// The engine, counting the tokens of its calls.
struct Counting {
    inner: Arc<LlamaEngine>,
    prompt: AtomicU64,
    completion: AtomicU64,
}

impl LanguageModel for Counting {
    fn info(&self) -> ModelInfo {
        self.inner.info()
    }

    fn generate(
        &self,
        request: GenerationRequest,
        listener: Option<Arc<dyn TokenListener>>,
        cancel: Arc<CancelToken>,
    ) -> Result<GenerationResult, LlmError> {
        let out = self.inner.generate(request, listener, cancel)?;
        self.prompt
            .fetch_add(u64::from(out.prompt_tokens), Ordering::Relaxed);
        self.completion
            .fetch_add(u64::from(out.completion_tokens), Ordering::Relaxed);
        Ok(out)
    }
}

/// Runs the plan tasks (the first 3 with `quick`) and prints the score line.
pub fn run(engine: &Arc<LlamaEngine>, quick: bool) {
    let tasks = tasks();
    let take = if quick { QUICK_TASKS } else { tasks.len() };
    let mut score = Score::default();
    let counting = Arc::new(Counting {
        inner: engine.clone(),
        prompt: AtomicU64::new(0),
        completion: AtomicU64::new(0),
    });
    // Plans whose exercises the model picked (the others: each slot's first choice after its
    // answers stayed invalid).
    let mut from_model = 0;
    for t in &tasks[..take] {
        let c = coach(&strings(&t["history"]));
        let req = request(t);
        let model: Arc<dyn LanguageModel> = counting.clone();
        let started = Instant::now();
        let out = c.workouts().today_plan_with(
            &req,
            Some(SharedModel::plain(model)),
            &CancelToken::new(),
            &PlanGenerateSettings::default(),
        );
        score
            .latencies_ms
            .push(started.elapsed().as_millis() as u64);
        score.tasks += 1;
        let id = t["id"].as_str().unwrap_or("?");
        match out {
            Ok(p) => {
                if p.fallback_reason.is_none() {
                    from_model += 1;
                }
                let (v, invalid) = violations(t, &p.plan);
                if invalid {
                    score.invalid += 1;
                }
                score.wrong += v.len();
                if v.is_empty() {
                    score.success += 1;
                } else {
                    score.failures.push(format!("{id}: {}", v.join("; ")));
                }
            }
            Err(e) => score.failures.push(format!("{id}: error {e}")),
        }
    }
    score.prompt_tokens = counting.prompt.load(Ordering::Relaxed);
    score.completion_tokens = counting.completion.load(Ordering::Relaxed);
    score.print("plan");
    println!("plan: exercises picked by the model {from_model}/{take} (the rest each slot's first choice after invalid answers)");
}
