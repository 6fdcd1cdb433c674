//! `coach recipes import` and `coach meals plan`: the recipe store and meal-plan jobs (spec 003)
//! over the public API.

use std::collections::HashMap;
use std::process::ExitCode;
use std::sync::Mutex;

use coachcore::kernel::limits::Caps;
use coachcore::llm::CancelToken;
use coachcore::meals::service::jobs::PlanSink;
use coachcore::meals::{MealPlanEvent, MealPlanJob};
use coachcore::Meals;

use crate::commands::{job_inputs, JobInputs};
use crate::io::{open, print_error, read_stdin, Usage};

/// `coach recipes import --db PATH`: a JSON array of recipes on stdin; prints `{"imported":N}`.
pub(crate) fn recipes_import(f: &HashMap<String, &str>) -> Result<ExitCode, Usage> {
    let db = f
        .get("--db")
        .ok_or_else(|| Usage("--db is required".into()))?;
    let input = match read_stdin(Caps::RECIPES.bytes)? {
        Ok(input) => input,
        Err(e) => {
            out!("{}", e.to_response());
            return Ok(ExitCode::from(1));
        }
    };
    Ok(
        match open(Some(db)).and_then(|c| c.meals().import_recipes(input)) {
            Ok(n) => {
                out!("{{\"imported\":{n}}}");
                ExitCode::SUCCESS
            }
            Err(e) => print_error(&e),
        },
    )
}

/// Prints `progress` events as JSON lines as they come; keeps the last event for the final line.
#[derive(Default)]
struct PrintProgress(Mutex<Option<MealPlanEvent>>);

impl PlanSink for PrintProgress {
    fn on_event(&self, event: MealPlanEvent) {
        match event {
            MealPlanEvent::Progress { .. } => {
                out!("{}", serde_json::to_string(&event).unwrap_or_default())
            }
            last => *self.0.lock().unwrap_or_else(|p| p.into_inner()) = Some(last),
        }
    }
}

/// The last line of `coach meals plan`: the final event's fields, then the job envelope.
#[derive(serde::Serialize)]
struct LastLine<'a> {
    #[serde(flatten)]
    event: &'a MealPlanEvent,
    job: &'a MealPlanJob,
}

/// The last line when the job ended without a final event.
#[derive(serde::Serialize)]
struct NoEventLine<'a> {
    event: &'static str,
    job: &'a MealPlanJob,
}

/// `coach meals plan --db PATH --request FILE [--model GGUF | --script FILE]`: events as JSON
/// lines; the last is the `completed` or `failed` event with the job envelope under `"job"`.
pub(crate) fn meals_plan(f: &HashMap<String, &str>) -> Result<ExitCode, Usage> {
    let JobInputs { db, request, model } = match job_inputs(f, Meals::request_from_json)? {
        Ok(inputs) => inputs,
        Err(code) => return Ok(code),
    };
    let sink = PrintProgress::default();
    let job = match open(Some(&db)).and_then(|c| {
        c.meals()
            .plan_with(request, model, &sink, &CancelToken::new())
    }) {
        Ok(job) => job,
        Err(e) => return Ok(print_error(&e)),
    };
    let last = sink.0.lock().unwrap_or_else(|p| p.into_inner()).take();
    let failed = !matches!(last, Some(MealPlanEvent::Completed { .. }));
    // Serialised straight from the records (never through `serde_json::Value`, whose maps sort
    // their keys): fields stay in declaration order, a day's meals breakfast to dessert.
    let line = match &last {
        Some(event) => serde_json::to_string(&LastLine { event, job: &job }),
        None => serde_json::to_string(&NoEventLine {
            event: "failed",
            job: &job,
        }),
    };
    out!("{}", line.unwrap_or_default());
    Ok(if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
