//! Today-plan generation (`workouts().todayPlan`, spec 000) on the real model: the tasks of
//! `tests/data/eval/plan.json`, each the user's notes and what the plan must be (minutes, focus,
//! energy, equipment, movement patterns, what to avoid, exercises asked for, nothing trained
//! yesterday). Scored as the assistant is (see `tests/data/eval/README.md`):
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

use coachcore::db::Store;
use coachcore::kernel::clock::FixedClock;
use coachcore::llm::llama::LlamaEngine;
use coachcore::llm::metered::SharedModel;
use coachcore::llm::{
    CancelToken, GenerationRequest, GenerationResult, LanguageModel, LlmError, ModelInfo,
    TokenListener,
};
use coachcore::plan::{PlanGenerateSettings, FULL_GYM};
use coachcore::suggest::model::{ExerciseLog, PerformedSet, SessionLog, SetType};
use coachcore::workout::catalog::{builtin, capabilities_of};
use coachcore::{Coach, TodayPlan, TodayPlanRequest};
use serde_json::Value;

use super::Score;

const QUICK_TASKS: usize = 3;
/// 2025-08-18T12:00:00Z, the plans' date.
const NOW_MS: i64 = 1_755_518_400_000;
const DAY_MS: i64 = 86_400_000;

fn tasks() -> Vec<Value> {
    let all: Value = serde_json::from_str(include_str!("../../tests/data/eval/plan.json"))
        .expect("tests/data/eval/plan.json");
    all["tasks"].as_array().cloned().unwrap_or_default()
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|x| x.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

/// The task's constraints the plan breaks, and whether a working exercise is not in the catalog.
fn violations(task: &Value, plan: &TodayPlan) -> (Vec<String>, bool) {
    let mut out = Vec::new();
    if Some(u64::from(plan.duration_minutes)) != task["minutes"].as_u64() {
        out.push(format!("minutes {}", plan.duration_minutes));
    }
    if !plan.focus.starts_with(task["focus"].as_str().unwrap_or("")) {
        out.push(format!("focus {}", plan.focus));
    }
    let energy = serde_json::to_value(plan.energy).unwrap_or_default();
    if task["energy"] != energy {
        out.push(format!("energy {energy}"));
    }
    let sum: u32 = plan.blocks.iter().map(|b| b.duration_minutes).sum();
    if sum != plan.duration_minutes {
        out.push(format!("blocks add up to {sum}"));
    }
    let working: Vec<&str> = plan
        .blocks
        .iter()
        .filter(|b| b.title == "Main Lifts" || b.title == "Accessories")
        .flat_map(|b| b.exercises.iter().map(|e| e.name.as_str()))
        .collect();
    if working.len() < 2 {
        out.push(format!("{} working exercises", working.len()));
    }
    let gym = task["equipment"].as_str() == Some("gym");
    let allowed_caps: Vec<String> = if gym {
        FULL_GYM
            .iter()
            .flat_map(|k| capabilities_of(k))
            .map(|c| c.to_string())
            .collect()
    } else {
        strings(&task["equipment"])
    };
    let patterns = strings(&task["patterns"]);
    let avoid = strings(&task["avoid"]);
    let avoid_ids = strings(&task["avoidIds"]);
    let history = strings(&task["history"]);
    let mut invalid = false;
    let mut ids = Vec::new();
    for name in &working {
        let Some(e) = builtin().iter().find(|e| e.name == *name) else {
            invalid = true;
            out.push(format!("{name} is not in the catalog"));
            continue;
        };
        ids.push(e.id.clone());
        if let Some(r) = e.requires.iter().find(|r| !allowed_caps.contains(r)) {
            out.push(format!("{} needs {r}", e.id));
        }
        if !patterns.is_empty() && !patterns.contains(&e.pattern) {
            out.push(format!("{} ({}) off focus", e.id, e.pattern));
        }
        if avoid.contains(&e.pattern) || avoid_ids.contains(&e.id) {
            out.push(format!("{} should be avoided", e.id));
        }
        if history.contains(&e.id) {
            out.push(format!("{} trained yesterday", e.id));
        }
    }
    let want = strings(&task["want"]);
    if !want.is_empty() && !want.iter().any(|w| ids.contains(w)) {
        out.push(format!("none of {want:?}"));
    }
    (out, invalid)
}

/// A coach over a fresh store at noon of the plans' date, with yesterday's `history` logged.
fn coach(history: &[String]) -> Coach {
    let c = Coach::with_store(
        Store::open_in_memory().expect("in-memory store"),
        Arc::new(FixedClock::new(NOW_MS)),
    );
    if !history.is_empty() {
        for id in history {
            let e = builtin()
                .iter()
                .find(|e| &e.id == id)
                .expect("a catalog id");
            c.workouts()
                .save_catalog_exercise(e.to_catalog())
                .expect("exercise saved");
        }
        c.workouts()
            .log_session(SessionLog {
                id: "yesterday".into(),
                plan_id: None,
                performed_at_ms: NOW_MS - DAY_MS,
                exercises: history
                    .iter()
                    .map(|id| ExerciseLog {
                        id: format!("yesterday:{id}"),
                        catalog_id: id.clone(),
                        prescription_id: None,
                        sets: (0..3)
                            .map(|i| PerformedSet {
                                index: i,
                                set_type: SetType::Regular,
                                weight: 100.0,
                                reps: 8,
                                rest_seconds: Some(120),
                                completed: true,
                            })
                            .collect(),
                    })
                    .collect(),
            })
            .expect("history logged");
    }
    c
}

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
        let request = TodayPlanRequest {
            date: "2025-08-18".into(),
            notes: t["notes"].as_str().unwrap_or("").into(),
            schema_version: None,
            timezone: None,
            seed: Some(1),
            units: None,
            days_per_week: None,
        };
        let model: Arc<dyn LanguageModel> = counting.clone();
        let started = Instant::now();
        let out = c.workouts().today_plan_with(
            &request,
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
