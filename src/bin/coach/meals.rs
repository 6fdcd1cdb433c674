//! `coach recipes import|list|search|show`, `coach meals plan`, `coach meals shopping-list` and
//! `coach meals staples`: the recipe store, meal-plan jobs, shopping lists and pantry staples
//! (spec 003, issue 24) over the public API.

use std::collections::HashMap;
use std::process::ExitCode;
use std::sync::Mutex;

use coachcore::kernel::limits::Caps;
use coachcore::llm::CancelToken;
use coachcore::meals::service::jobs::PlanSink;
use coachcore::meals::shopping::ShoppingListOptions;
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

/// A number flag, if given.
fn number(f: &HashMap<String, &str>, flag: &str) -> Result<Option<u32>, Usage> {
    f.get(flag)
        .map(|v| {
            v.parse::<u32>()
                .map_err(|_| Usage(format!("{flag}: a whole number")))
        })
        .transpose()
}

/// `--source user|core|stage` or `--meal-type breakfast|...`: a value of a JSON enum.
fn enum_flag<T: serde::de::DeserializeOwned>(
    f: &HashMap<String, &str>,
    flag: &str,
    values: &str,
) -> Result<Option<T>, Usage> {
    f.get(flag)
        .map(|v| {
            serde_json::from_value(serde_json::Value::String(v.to_string()))
                .map_err(|_| Usage(format!("{flag}: one of {values}")))
        })
        .transpose()
}

/// `coach recipes list [--db PATH] [--offset N] [--limit N] [--source user|core|stage]`: prints
/// `{"recipes": [...], "total": N}` (without `--db`, a new in-memory database: the built-in
/// recipes).
pub(crate) fn recipes_list(f: &HashMap<String, &str>) -> Result<ExitCode, Usage> {
    let offset = number(f, "--offset")?.unwrap_or(0);
    let limit = number(f, "--limit")?.unwrap_or(20);
    let source = enum_flag(f, "--source", "user, core, stage")?;
    Ok(print_result(open(f.get("--db")).and_then(|c| {
        c.meals().list_recipes(offset, limit, source)
    })))
}

/// `coach recipes search [--db PATH] [--meal-type T] [--limit N] QUERY`: prints the recipes found,
/// best first, as a JSON array.
pub(crate) fn recipes_search(f: &HashMap<String, &str>, query: &str) -> Result<ExitCode, Usage> {
    let limit = number(f, "--limit")?.unwrap_or(20);
    let meal_type = enum_flag(f, "--meal-type", "breakfast, lunch, dinner, snack, dessert")?;
    Ok(print_result(open(f.get("--db")).and_then(|c| {
        c.meals()
            .search_recipes(query.to_string(), meal_type, limit)
    })))
}

/// `coach recipes show [--db PATH] ID`: prints the recipe, or the `not_found` error JSON and exits
/// 1.
pub(crate) fn recipes_show(f: &HashMap<String, &str>, id: &str) -> Result<ExitCode, Usage> {
    Ok(print_result(open(f.get("--db")).and_then(|c| {
        c.meals().recipe(id.to_string())?.ok_or_else(|| {
            coachcore::kernel::error::Error::NotFound("no recipe with that id".into()).into()
        })
    })))
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

/// A comma-separated flag value as a list (`a, b` -> `["a", "b"]`; empty parts dropped).
fn list(value: Option<&&str>) -> Vec<String> {
    value.map_or_else(Vec::new, |v| {
        v.split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect()
    })
}

/// Prints `v` as one JSON line (exit 0), or the error JSON (exit 1).
fn print_result<T: serde::Serialize>(
    v: Result<T, coachcore::kernel::error::CoachError>,
) -> ExitCode {
    match v {
        Ok(v) => {
            out!("{}", serde_json::to_string(&v).unwrap_or_default());
            ExitCode::SUCCESS
        }
        Err(e) => print_error(&e),
    }
}

/// `coach meals shopping-list --db PATH --job ID [--days D1,D2] [--all]`: the job's shopping list
/// as JSON (`--all`: pantry staples listed too).
pub(crate) fn shopping_list(f: &HashMap<String, &str>, all: bool) -> Result<ExitCode, Usage> {
    let db = f
        .get("--db")
        .ok_or_else(|| Usage("--db is required".into()))?;
    let job = f
        .get("--job")
        .ok_or_else(|| Usage("--job is required".into()))?;
    let options = ShoppingListOptions {
        days: list(f.get("--days")),
        include_staples: all,
    };
    Ok(print_result(open(Some(db)).and_then(|c| {
        c.meals().shopping_list(job.to_string(), Some(options))
    })))
}

/// `coach meals staples --db PATH [--set a,b]`: prints the pantry staples as a JSON array, after
/// replacing them with the `--set` list when given (`--set ""` clears them).
pub(crate) fn staples(f: &HashMap<String, &str>) -> Result<ExitCode, Usage> {
    let db = f
        .get("--db")
        .ok_or_else(|| Usage("--db is required".into()))?;
    Ok(print_result(open(Some(db)).and_then(
        |c| match f.get("--set") {
            Some(_) => c.meals().set_pantry_staples(list(f.get("--set"))),
            None => c.meals().pantry_staples(),
        },
    )))
}
