//! The workout flow (spec 001) on the real model: the tasks of `tests/data/eval/workout.json`,
//! each a request (the base request with a patch) and constraints the workout must meet (bans
//! respected, equipment only from the inventory, the must-do sets within the duration, the
//! fatigue policy, units). Scored as the assistant is (see `tests/data/eval/README.md`):
//! - success: a workout that meets every constraint (whichever source wrote the document; how
//!   many the model wrote is printed on its own line);
//! - wrong actions: constraints violated;
//! - invalid output reaching the app: a returned document that fails the schema or the checks
//!   against its analyzer plan (must be 0).
//!
//! First a reference pass with the deterministic planner and generator (no model) proves that
//! every task's constraints can be met. The model runs with the library's default settings (the
//! model's small choices: analyzer answers up to 384 tokens, generator answers up to 512), in the
//! 2048-token context `ai_eval` loads; `--quick` runs the first 2 tasks. With
//! `COACH_EVAL_TRACE=1` each model call's last user turn and raw answer go to stderr.

use std::sync::Arc;
use std::time::Instant;

use coachcore::db::Store;
use coachcore::kernel::clock::FixedClock;
use coachcore::kernel::date::Date;
use coachcore::llm::llama::LlamaEngine;
use coachcore::llm::metered::Metered;
use coachcore::llm::{
    CancelToken, GenerationRequest, GenerationResult, LanguageModel, LlmError, ModelInfo,
    TokenListener,
};
use coachcore::workout::catalog::{builtin, Inventory};
use coachcore::workout::service::{self, NoEvents, WorkoutSettings};
use coachcore::workout::timebox::{SESSION_OVERHEAD_S, WORK_S};
use coachcore::workout::{
    check, validate_workout_yaml, SetTier, WorkoutRequest, WorkoutResult, WorkoutSource,
};
use serde_json::Value;

use super::Score;

const QUICK_TASKS: usize = 2;

/// One task: its id, the request and the constraints.
struct Task {
    id: String,
    request: WorkoutRequest,
    constraints: Value,
}

fn merge(base: &mut Value, patch: &Value) {
    match (base, patch) {
        (Value::Object(b), Value::Object(p)) => {
            for (k, v) in p {
                match b.get_mut(k) {
                    Some(slot) if slot.is_object() && v.is_object() => merge(slot, v),
                    _ => {
                        b.insert(k.clone(), v.clone());
                    }
                }
            }
        }
        (b, p) => *b = p.clone(),
    }
}

fn tasks() -> Vec<Task> {
    let root = env!("CARGO_MANIFEST_DIR");
    let text = std::fs::read_to_string(format!("{root}/tests/data/eval/workout.json"))
        .expect("tests/data/eval/workout.json");
    let set: Value = serde_json::from_str(&text).expect("the task set is JSON");
    let base_path = set["base"].as_str().expect("base");
    let base: Value = serde_json::from_str(
        &std::fs::read_to_string(format!("{root}/{base_path}")).expect("the base request"),
    )
    .expect("the base request is JSON");
    set["tasks"]
        .as_array()
        .expect("tasks")
        .iter()
        .map(|t| {
            let mut request = base.clone();
            merge(&mut request, &t["patch"]);
            Task {
                id: t["id"].as_str().expect("id").to_string(),
                request: serde_json::from_value(request).expect("a valid request"),
                constraints: t["constraints"].clone(),
            }
        })
        .collect()
}

/// The constraints `r` violates, each as a short line.
fn violations(task: &Task, r: &WorkoutResult) -> Vec<String> {
    let c = &task.constraints;
    let req = &task.request;
    let w = &r.workout;
    let strings = |key: &str| -> Vec<String> {
        c[key]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|x| x.as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default()
    };
    let mut out = Vec::new();
    let working: Vec<_> = w.sets.iter().filter(|s| s.tier != SetTier::W).collect();
    for banned in strings("bannedExercises") {
        if w.sets.iter().any(|s| s.exercise == banned) {
            out.push(format!("banned exercise {banned}"));
        }
    }
    for banned in strings("bannedEquipment") {
        if w.sets.iter().any(|s| s.equipment == banned) {
            out.push(format!("banned equipment {banned}"));
        }
    }
    // Equipment only from the inventory (or body weight), and the allowed list when given.
    let allowed = strings("allowedEquipment");
    for s in &w.sets {
        let in_inventory = s.equipment == "bodyweight" || req.equipment.contains(&s.equipment);
        if !in_inventory || (!allowed.is_empty() && !allowed.contains(&s.equipment)) {
            out.push(format!("equipment {} not available", s.equipment));
            break;
        }
    }
    // The must-do sets (warm-ups and tier A) fit the duration.
    let must_s: u32 = w
        .sets
        .iter()
        .filter(|s| s.must)
        .map(|s| WORK_S + s.rest_s)
        .sum::<u32>()
        + SESSION_OVERHEAD_S;
    if must_s > req.meta.duration_minutes * 60 {
        out.push(format!(
            "must-do sets take {} min of {}",
            must_s / 60,
            req.meta.duration_minutes
        ));
    }
    if w.duration_minutes != req.meta.duration_minutes || w.date != req.meta.date {
        out.push("meta differs from the request".into());
    }
    let exercises: std::collections::HashSet<&str> =
        working.iter().map(|s| s.exercise.as_str()).collect();
    if let Some(n) = c["minExercises"].as_u64() {
        if (exercises.len() as u64) < n {
            out.push(format!(
                "{} exercises, at least {n} expected",
                exercises.len()
            ));
        }
    }
    let policy = &r.analyzer.fatigue_policy;
    if let Some(n) = c["minRirShift"].as_u64() {
        if u64::from(policy.rir_shift) < n {
            out.push(format!("rir_shift {} below {n}", policy.rir_shift));
        }
    }
    if let Some(n) = c["maxRirShift"].as_u64() {
        if u64::from(policy.rir_shift) > n {
            out.push(format!("rir_shift {} above {n}", policy.rir_shift));
        }
    }
    if let Some(x) = c["maxLoadCapPct"].as_f64() {
        if policy.load_cap_pct > x + 1e-9 {
            out.push(format!("load_cap_pct {} above {x}", policy.load_cap_pct));
        }
    }
    if let Some(n) = c["minWorkingRir"].as_u64() {
        if working.iter().any(|s| u64::from(s.rir) < n) {
            out.push(format!("a working set below RIR {n}"));
        }
    }
    if let Some(u) = c["units"].as_str() {
        if serde_json::to_value(w.units)
            .ok()
            .as_ref()
            .and_then(Value::as_str)
            != Some(u)
        {
            out.push(format!("units not {u}"));
        }
    }
    out
}

/// Whether a document reaching the app is invalid: its YAML fails the schema, differs from the
/// workout, or the workout fails the checks against its analyzer plan.
fn invalid(r: &WorkoutResult, request: &WorkoutRequest) -> bool {
    match validate_workout_yaml(&r.yaml) {
        Ok(w) if w == r.workout => {
            let inv = Inventory::new(&request.equipment, r.workout.units);
            !check::workout_issues(
                &r.workout,
                &r.analyzer,
                builtin(),
                &inv,
                &r.workout.workout_id,
            )
            .is_empty()
        }
        _ => true,
    }
}

/// A fresh store and a clock at noon UTC of the request's date.
fn setup(task: &Task) -> (Store, FixedClock) {
    let date = Date::parse(&task.request.meta.date).expect("a date");
    (
        Store::open_in_memory().expect("in-memory store"),
        FixedClock::new(date.days_since_epoch() * 86_400_000 + 12 * 3_600_000),
    )
}

fn generate(
    task: &Task,
    model: Option<&Metered<'_>>,
) -> coachcore::kernel::error::Result<WorkoutResult> {
    let (store, clock) = setup(task);
    let settings = WorkoutSettings::default();
    service::generate(
        &store,
        &clock,
        model,
        &task.request,
        &NoEvents,
        &CancelToken::new(),
        &settings,
    )
}

/// The engine, printing each call's last user turn and raw answer to stderr (a debug run).
struct Traced<'a>(&'a LlamaEngine);

impl LanguageModel for Traced<'_> {
    fn info(&self) -> ModelInfo {
        self.0.info()
    }

    fn generate(
        &self,
        request: GenerationRequest,
        listener: Option<Arc<dyn TokenListener>>,
        cancel: Arc<CancelToken>,
    ) -> Result<GenerationResult, LlmError> {
        let user = request
            .messages
            .last()
            .map(|m| m.content.clone())
            .unwrap_or_default();
        let out = self.0.generate(request, listener, cancel);
        match &out {
            Ok(r) => eprintln!(
                "--- prompt ({} tokens, {} ms):\n{user}\n--- answer ({} tokens, {} ms):\n{}",
                r.prompt_tokens, r.prompt_ms, r.completion_tokens, r.generation_ms, r.text
            ),
            Err(e) => eprintln!("--- prompt:\n{user}\n--- error: {e}"),
        }
        out
    }
}

/// Runs the workout tasks (the first 2 with `quick`) and prints the score line.
pub fn run(engine: &Arc<LlamaEngine>, quick: bool) {
    let tasks = tasks();
    let take = if quick { QUICK_TASKS } else { tasks.len() };
    let tasks = &tasks[..take];
    // The reference: the deterministic flow must meet every constraint.
    let mut reference = Vec::new();
    for t in tasks {
        let problems = match generate(t, None) {
            Ok(r) => violations(t, &r),
            Err(e) => vec![format!("error {e}")],
        };
        if !problems.is_empty() {
            reference.push(format!("{}: {}", t.id, problems.join(", ")));
        }
    }
    println!(
        "workout (deterministic reference): constraints met in {}/{} tasks{}",
        take - reference.len(),
        take,
        if reference.is_empty() {
            String::new()
        } else {
            format!(" ({})", reference.join("; "))
        }
    );
    let mut score = Score::default();
    let mut from_model = 0;
    let trace = std::env::var("COACH_EVAL_TRACE").is_ok_and(|v| v == "1");
    let traced = Traced(engine);
    let model: &dyn LanguageModel = if trace { &traced } else { &**engine };
    for t in tasks {
        if trace {
            eprintln!("=== task {}", t.id);
        }
        let metered = Metered::new(model, "eval");
        let started = Instant::now();
        let out = generate(t, Some(&metered));
        score
            .latencies_ms
            .push(started.elapsed().as_millis() as u64);
        let usage = metered.usage();
        score.prompt_tokens += u64::from(usage.prompt_tokens);
        score.completion_tokens += u64::from(usage.completion_tokens);
        score.tasks += 1;
        let r = match out {
            Ok(r) => r,
            Err(e) => {
                score.failures.push(format!("{}: error {e}", t.id));
                continue;
            }
        };
        if r.source == WorkoutSource::Model {
            from_model += 1;
        }
        if invalid(&r, &t.request) {
            score.invalid += 1;
        }
        let v = violations(t, &r);
        score.wrong += v.len();
        if v.is_empty() {
            score.success += 1;
        } else {
            score
                .failures
                .push(format!("{} ({:?}): {}", t.id, r.source, v.join("; ")));
        }
    }
    score.print("workout");
    println!("workout: documents written by the model {from_model}/{take} (the rest by the deterministic generator after failed repairs)");
}
