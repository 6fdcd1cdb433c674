//! AI suggestions on the evaluation scenarios (`tests/data/eval/suggestions.json`): each scenario's
//! exercise context goes through the rules, then the AI source on the real model, as the pipeline
//! runs them. A scenario succeeds when the AI's drafts hold the warranted kind of change (or,
//! warranting none, when there is no AI draft); a wrong action is an AI draft of another kind (any
//! draft when none is warranted); invalid output reaching the app is a draft the accept check
//! would refuse. Also prints the two goal figures and the wall time of a session's AI suggestions
//! (the first 10 scenarios, one after the other, as one session's exercises).
//!
//! `COACH_SUGGESTIONS_MODE=toolLoop` runs the tool loop instead of choices (the "before").

use std::sync::Arc;
use std::time::Instant;

use coachcore::llm::llama::LlamaEngine;
use coachcore::llm::{CancelToken, LanguageModel};
use coachcore::suggest::ai::{AiSuggestionMode, AiSuggestionSettings, LlmSuggestionSource};
use coachcore::suggest::apply::{apply_change, current_value, same_value};
use coachcore::suggest::model::{
    ChangeType, ExerciseContext, ExerciseHistory, ExercisePerformance, SuggestionDraft,
};
use coachcore::suggest::rules;
use coachcore::suggest::service::{check_context, SuggestionTools};
use serde_json::Value;

use super::Score;

/// Scenarios in quick mode.
const QUICK_SCENARIOS: usize = 4;
/// Exercises of the session whose wall time is printed.
const SESSION_EXERCISES: usize = 10;

/// The tools over the scenario's own context (tool-loop mode).
struct ScenarioTools<'a>(&'a ExerciseContext);

impl SuggestionTools for ScenarioTools<'_> {
    fn exercise_history(
        &self,
        _: &str,
    ) -> coachcore::kernel::error::Result<Option<ExerciseHistory>> {
        Ok(self.0.history.clone())
    }

    fn recent_performances(
        &self,
        _: &str,
        _: i64,
        limit: u32,
    ) -> coachcore::kernel::error::Result<Vec<ExercisePerformance>> {
        Ok(self
            .0
            .previous
            .iter()
            .take(limit as usize)
            .cloned()
            .collect())
    }
}

/// Whether the accept check would take `d` on `ctx`'s prescription: its old value is the current
/// one, it applies, and the changed prescription is valid.
fn acceptable(ctx: &ExerciseContext, d: &SuggestionDraft) -> bool {
    let rx = &ctx.prescription;
    let current = current_value(rx, d.property, d.target_set_index);
    let old_ok = match (&d.old_value, &current) {
        (Some(old), Some(cur)) => same_value(old, cur),
        _ => false,
    };
    let mut changed = ctx.clone();
    old_ok
        && apply_change(&mut changed.prescription, d).is_ok()
        && changed.prescription != *rx
        && check_context(&changed).is_ok()
}

fn kind(d: &SuggestionDraft) -> String {
    serde_json::to_value(d.change_type)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

pub fn run(engine: &Arc<LlamaEngine>, quick: bool) {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/eval/suggestions.json"
    ))
    .expect("tests/data/eval/suggestions.json");
    let set: Value = serde_json::from_str(&text).expect("the scenario set is JSON");
    let scenarios = set["scenarios"].as_array().expect("scenarios");
    let take = if quick {
        QUICK_SCENARIOS
    } else {
        scenarios.len()
    };
    let mode = match std::env::var("COACH_SUGGESTIONS_MODE").as_deref() {
        Ok("toolLoop") => AiSuggestionMode::ToolLoop,
        _ => AiSuggestionMode::Choices,
    };
    let model: Arc<dyn LanguageModel> = engine.clone();
    let source = LlmSuggestionSource::with_settings(
        model,
        AiSuggestionSettings {
            mode,
            ..AiSuggestionSettings::default()
        },
    );
    let cancel = Arc::new(CancelToken::new());
    let mut score = Score::default();
    let (mut nones, mut nones_ok, mut ones, mut ones_ok) = (0, 0, 0, 0);
    let mut session_ms = 0u64;
    for (i, s) in scenarios.iter().take(take).enumerate() {
        let id = s["id"].as_str().unwrap_or("?");
        let ctx: ExerciseContext =
            serde_json::from_value(s["context"].clone()).expect("an exercise context");
        let expected: Option<ChangeType> = match &s["expected"] {
            Value::String(n) if n == "none" => None,
            e => Some(serde_json::from_value(e["changeType"].clone()).expect("a change type")),
        };
        let rule_drafts = rules::evaluate(&ctx);
        let started = Instant::now();
        let out = source.run(&ctx, &rule_drafts, &ScenarioTools(&ctx), &cancel);
        let ms = started.elapsed().as_millis() as u64;
        score.latencies_ms.push(ms);
        if i < SESSION_EXERCISES {
            session_ms += ms;
        }
        score.tasks += 1;
        let (drafts, failed) = match out {
            Ok(run) => {
                score.prompt_tokens += u64::from(run.report.prompt_tokens);
                score.completion_tokens += u64::from(run.report.completion_tokens);
                (run.drafts, false)
            }
            Err(e) => {
                score.failures.push(format!("{id}: error {e}"));
                (Vec::new(), true)
            }
        };
        score.invalid += drafts.iter().filter(|d| !acceptable(&ctx, d)).count();
        let wrong = drafts
            .iter()
            .filter(|d| Some(d.change_type) != expected)
            .count();
        score.wrong += wrong;
        // An error is a failed scenario, also where none was warranted.
        let ok = !failed
            && match expected {
                None => drafts.is_empty(),
                Some(k) => drafts.iter().any(|d| d.change_type == k),
            };
        match expected {
            None => {
                nones += 1;
                nones_ok += usize::from(ok);
            }
            Some(_) => {
                ones += 1;
                ones_ok += usize::from(ok);
            }
        }
        if ok {
            score.success += 1;
        } else if !failed {
            let got: Vec<String> = drafts.iter().map(kind).collect();
            score
                .failures
                .push(format!("{id}: got [{}] wrong={wrong}", got.join(", ")));
        }
    }
    let pct = |a: usize, b: usize| 100.0 * a as f64 / b.max(1) as f64;
    let label = match mode {
        AiSuggestionMode::Choices => "suggestions",
        AiSuggestionMode::ToolLoop => "suggestions (tool loop)",
    };
    score.print(label);
    println!(
        "{label}: warrant-none got none {nones_ok}/{nones} ({:.0}%, goal >= 95%); warrant-one got \
         that kind {ones_ok}/{ones} ({:.0}%, goal >= 50%)",
        pct(nones_ok, nones),
        pct(ones_ok, ones)
    );
    println!(
        "{label}: a {}-exercise session's AI suggestions took {session_ms} ms on {} threads \
         (goal under 10 s)",
        take.min(SESSION_EXERCISES),
        engine.threads()
    );
}
