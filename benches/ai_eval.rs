//! How useful the on-device AI is: task success on the evaluation sets under `tests/data/eval/`,
//! run on the real model (SmolLM2-135M-Instruct on 2 threads unless `COACH_MODEL` names another
//! GGUF). Prints per feature: task success, wrong actions, invalid output reaching the app (must
//! be 0), p50 and p95 latency per task, prompt and generated tokens.
//!
//!     cargo bench --features llama --bench ai_eval            # every task
//!     cargo bench --features llama --bench ai_eval -- --quick # the first 12 tasks (CI)
//!     cargo bench --features llama --bench ai_eval -- --only assistant,cache,suggestions
//!     cargo bench --features llama --bench ai_eval -- --only languages,questions  # issue 25
//!     cargo bench --features llama --bench ai_eval -- --only held  # issue 25's held-out sets
//!
//! `COACH_BENCH_THREADS=1` runs the model on one thread (steadier on a machine with other work).
//! `COACH_EVAL_SET=assistant.vague.fr.json` runs that assistant set alone.
//!
//! `cache` prints the assistant's cold and warm time to first token (prompt caching and
//! `prewarm`, `ai_eval/cache.rs`).
//!
//! Scoring is described in `tests/data/eval/README.md`. Figures only: goals are read by people.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Instant;

use coachcore::assistant::apply;
use coachcore::assistant::date::Date;
use coachcore::assistant::model::{AssistantEvent, AssistantMode, AssistantRequest, PlannerItem};
use coachcore::assistant::service::{run_message, AssistantSettings, EventSink};
use coachcore::db::Store;
use coachcore::kernel::clock::FixedClock;
use coachcore::llm::llama::{LlamaEngine, LlamaOptions};
use coachcore::llm::metered::Metered;
use coachcore::llm::CancelToken;
use serde_json::Value;

#[path = "ai_eval/score.rs"]
mod score;
#[path = "ai_eval/suggestions.rs"]
mod suggestions;

use score::{expected, judge, short, Outcome};

#[path = "ai_eval/cache.rs"]
mod cache;
#[path = "ai_eval/meals.rs"]
mod meals;
#[path = "ai_eval/meals_score.rs"]
mod meals_score;
#[path = "ai_eval/plan.rs"]
mod plan;
#[path = "ai_eval/plan_score.rs"]
mod plan_score;
#[path = "ai_eval/workout.rs"]
mod workout;

const QUICK_TASKS: usize = 12;
/// Tasks of each of issue 25's sets in quick mode.
const QUICK_SET_TASKS: usize = 3;

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let path = std::env::var("COACH_MODEL").unwrap_or_else(|_| {
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/models/SmolLM2-135M-Instruct.Q4_1.gguf"
        )
        .into()
    });
    if !std::path::Path::new(&path).exists() {
        eprintln!("ai_eval: no model at {path}: run models/fetch.sh (or set COACH_MODEL)");
        std::process::exit(2);
    }
    let engine = LlamaEngine::load(
        &path,
        LlamaOptions {
            context_tokens: 2048,
            // COACH_BENCH_THREADS=1: one thread on a busy machine (as `benches/llm.rs`).
            threads: Some(
                std::env::var("COACH_BENCH_THREADS")
                    .ok()
                    .and_then(|v| v.parse().ok())
                    .unwrap_or(2)
                    .clamp(1, 2.min(coachcore::llm::llama::available_cores())),
            ),
            ..LlamaOptions::default()
        },
    )
    .expect("the model loads");
    println!(
        "ai_eval: model {} on {} threads{}",
        coachcore::llm::LanguageModel::info(&*engine).name,
        engine.threads(),
        if quick { " (quick)" } else { "" }
    );
    // `--only assistant,languages,questions,cache,suggestions,meals,workout,plan`: those parts.
    let only: Option<String> = std::env::args().skip_while(|a| a != "--only").nth(1);
    let part = |name: &str| {
        only.as_deref()
            .is_none_or(|o| o.split(',').any(|p| p == name))
    };
    // `COACH_EVAL_SET=FILE`: that assistant set alone (by hand).
    if let Ok(file) = std::env::var("COACH_EVAL_SET") {
        assistant(&engine, &file, None);
        return;
    }
    if part("assistant") {
        assistant(&engine, "assistant.json", quick.then_some(QUICK_TASKS));
    }
    // Issue 25's sets: the English classes, German, French and Spanish, and the questions
    // answered by code (quick: the first few of each).
    if part("languages") {
        for file in [
            "assistant.classes.json",
            "assistant.de.json",
            "assistant.fr.json",
            "assistant.es.json",
        ] {
            assistant(&engine, file, quick.then_some(QUICK_SET_TASKS));
        }
    }
    // The held-out sets of issue 25, the vague requests and bare names of every language (by hand only:
    // `--only held`).
    if only
        .as_deref()
        .is_some_and(|o| o.split(',').any(|p| p == "held"))
    {
        for file in [
            "assistant.classes.held.json",
            "assistant.classes.held2.json",
            "assistant.de.held.json",
            "assistant.fr.held.json",
            "assistant.es.held.json",
            "assistant.vague.en.json",
            "assistant.vague.de.json",
            "assistant.vague.fr.json",
            "assistant.vague.es.json",
            "assistant.names.en.json",
            "assistant.names.de.json",
            "assistant.names.fr.json",
            "assistant.names.es.json",
            "questions.en.held.json",
        ] {
            assistant(&engine, file, None);
        }
    }
    if part("questions") {
        for lang in ["en", "de", "fr", "es"] {
            let file = format!("questions.{lang}.json");
            assistant(&engine, &file, quick.then_some(QUICK_SET_TASKS));
        }
    }
    if part("cache") {
        cache::run(&engine, quick);
    }
    if part("meals") {
        meals::run(&engine, quick);
    }
    if part("workout") {
        workout::run(&engine, quick);
    }
    if part("plan") {
        plan::run(&engine, quick);
    }
    if part("suggestions") {
        suggestions::run(&engine, quick);
    }
}

/// What one feature's run scored.
#[derive(Default)]
struct Score {
    tasks: usize,
    success: usize,
    wrong: usize,
    invalid: usize,
    latencies_ms: Vec<u64>,
    prompt_tokens: u64,
    completion_tokens: u64,
    failures: Vec<String>,
}

impl Score {
    fn print(&mut self, feature: &str) {
        self.latencies_ms.sort_unstable();
        let pct = |p: f64| {
            let n = self.latencies_ms.len();
            if n == 0 {
                return 0;
            }
            self.latencies_ms[((n as f64 * p).ceil() as usize).clamp(1, n) - 1]
        };
        let n = self.tasks.max(1) as f64;
        println!(
            "{feature}: task success {}/{} ({:.0}%), wrong actions {} ({:.1}%), invalid output \
             reaching the app {}, latency p50 {} ms p95 {} ms, tokens per task: prompt {:.0}, \
             generated {:.0}",
            self.success,
            self.tasks,
            100.0 * self.success as f64 / n,
            self.wrong,
            100.0 * self.wrong as f64 / n,
            self.invalid,
            pct(0.5),
            pct(0.95),
            self.prompt_tokens as f64 / n,
            self.completion_tokens as f64 / n,
        );
        if let Some(max) = self.latencies_ms.last() {
            println!("  slowest task {max} ms");
        }
        for f in &self.failures {
            println!("  {f}");
        }
    }
}

struct Quiet;

impl EventSink for Quiet {
    fn on_event(&self, _: AssistantEvent) {}
}

/// An assistant task set (`tests/data/eval/assistant*.json`, `questions.*.json`).
struct AssistantSet {
    fixtures: BTreeMap<String, Vec<PlannerItem>>,
    tasks: Vec<Value>,
    /// The set's `language`, sent with each message.
    language: Option<String>,
}

impl AssistantSet {
    fn load(file: &str) -> AssistantSet {
        let path = format!("{}/tests/data/eval/{file}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).expect("the task set exists");
        let set: Value = serde_json::from_str(&text).expect("the task set is JSON");
        AssistantSet {
            fixtures: serde_json::from_value(set["fixtures"].clone())
                .expect("fixtures are planner items"),
            tasks: set["tasks"].as_array().expect("tasks").clone(),
            language: set["language"].as_str().map(str::to_string),
        }
    }

    /// The task's planner (an in-memory store with its items), clock, date and request.
    fn setup(&self, task: &Value) -> (Store, FixedClock, Date, AssistantRequest, Vec<PlannerItem>) {
        let items: Vec<PlannerItem> = match &task["items"] {
            Value::String(name) => self.fixtures[name].clone(),
            other => serde_json::from_value(other.clone()).expect("inline items"),
        };
        let store = Store::open_in_memory().expect("in-memory store");
        store
            .write(|db| {
                for it in &items {
                    db.insert_planner_item(it)?;
                    // A habit's done days: the questions' fixture has some ("meditate" today).
                    for day in &it.completed_occurrences {
                        db.insert_completion(&it.id, day, it.updated_ms)?;
                    }
                }
                Ok(())
            })
            .expect("fixture items insert");
        let today = task["today"].as_str().expect("today").to_string();
        let date = Date::parse(&today).expect("today is a date");
        let clock = FixedClock::new(date.days_since_epoch() * 86_400_000 + 9 * 3_600_000);
        let request = AssistantRequest {
            message: task["message"].as_str().expect("message").into(),
            mode: AssistantMode::Plan,
            selection: None,
            today: Some(today),
            language: self.language.clone(),
        };
        (store, clock, date, request, items)
    }
}

/// Runs the first `take` tasks of one set (all when `None`) and prints its score.
fn assistant(engine: &Arc<LlamaEngine>, file: &str, take: Option<usize>) {
    let set = AssistantSet::load(file);
    let tasks = &set.tasks;
    let take = take.unwrap_or(tasks.len());
    let settings = AssistantSettings {
        heartbeat_ms: 0,
        ..AssistantSettings::default()
    };
    let mut score = Score::default();
    for task in tasks.iter().take(take) {
        let id = task["id"].as_str().unwrap_or("?");
        let (store, clock, date, request, stored) = set.setup(task);
        let metered = Metered::new(&**engine, "eval");
        let started = Instant::now();
        let out = run_message(
            &store,
            &clock,
            Some(&metered),
            &request,
            &Quiet,
            &CancelToken::new(),
            &settings,
        );
        score
            .latencies_ms
            .push(started.elapsed().as_millis() as u64);
        let usage = metered.usage();
        score.prompt_tokens += u64::from(usage.prompt_tokens);
        score.completion_tokens += u64::from(usage.completion_tokens);
        score.tasks += 1;
        let result = match out {
            Ok(r) => r,
            // An error is a failed task, also where nothing was to change: the app got an error,
            // not "nothing to do".
            Err(e) => {
                score.failures.push(format!("{id}: error {e}"));
                continue;
            }
        };
        let ops = result.operations;
        let check = apply::dry_run(
            &store,
            coachcore::assistant::shape::shape_typed(ops.clone()),
            date,
        )
        .expect("dry run");
        score.invalid += check.checks.iter().filter(|c| !c.valid).count();
        let outcome = Outcome {
            ops: &ops,
            clarify: result
                .clarification
                .as_ref()
                .map(|c| c.options.iter().map(|o| o.id.clone()).collect()),
            answer: result
                .answer
                .as_ref()
                .map(|a| a.items.iter().map(|i| i.id.clone()).collect()),
            stored: &stored,
        };
        let (ok, wrong) = judge(&expected(&task["expected"]), &outcome);
        score.wrong += wrong;
        if ok && wrong == 0 {
            score.success += 1;
        } else {
            let got: Vec<String> = ops.iter().map(short).collect();
            score.failures.push(format!(
                "{id}: got [{}] clarify={:?} answer={:?} wrong={wrong}",
                got.join("; "),
                outcome.clarify,
                outcome.answer
            ));
        }
    }
    score.print(&format!("assistant {file}"));
}
