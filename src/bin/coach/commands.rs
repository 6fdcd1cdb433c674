//! The commands of `coach` that do one job each: `plan transform`, `plan generate`,
//! `plan today`, `plan recent`, `plan done`, `plan select-schema`,
//! `suggest evaluate`, `ops dryrun`, `ops apply`, `ops undo`, `assistant` and `model check`. Each reads its flags and input,
//! calls the library's public API and prints the result; `main.rs` owns usage and exit handling.

use std::collections::HashMap;
use std::process::ExitCode;
use std::sync::Arc;

use coachcore::assistant::service::EventSink;
use coachcore::assistant::{AssistantEvent, AssistantMode, AssistantRequest};
use coachcore::ffi::requests::{EvaluateRequest, MarkTodayPlanDoneRequest};
use coachcore::kernel::error::ErrorJson;
use coachcore::kernel::limits::{
    check_json, Caps, MAX_JOB_REQUEST_BYTES, MAX_OPERATIONS_BYTES, MAX_REQUEST_BYTES,
};
use coachcore::llm::scripted::ScriptedModel;
use coachcore::llm::{CancelToken, LanguageModel};
use coachcore::{CoachError, SchemaSelection, SelectionReason};

use crate::io::{
    number, open, print_error, print_ops_error, read_file, read_stdin, read_stdin_bytes, required,
    version, Usage,
};

/// The operations text on stdin, or the exit of its refusal (too large, not UTF-8: exit 2).
fn ops_input() -> Result<Result<String, ExitCode>, Usage> {
    Ok(read_stdin(MAX_OPERATIONS_BYTES)?.map_err(|e| {
        out!("{}", e.to_response());
        ExitCode::from(2)
    }))
}

pub(crate) fn ops_dryrun(f: &HashMap<String, &str>) -> Result<ExitCode, Usage> {
    let input = match ops_input()? {
        Ok(input) => input,
        Err(code) => return Ok(code),
    };
    let today = f.get("--today").copied();
    let result = open(f.get("--db")).and_then(|c| c.planner().dry_run_json(&input, today));
    Ok(match result {
        Ok(v) => {
            out!("{}", serde_json::to_string(&v).unwrap_or_default());
            if v.all_valid() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(2)
            }
        }
        Err(e) => print_ops_error(&e),
    })
}

pub(crate) fn ops_apply(f: &HashMap<String, &str>) -> Result<ExitCode, Usage> {
    let db = f
        .get("--db")
        .ok_or_else(|| Usage("--db is required".into()))?;
    let input = match ops_input()? {
        Ok(input) => input,
        Err(code) => return Ok(code),
    };
    let key = f.get("--idempotency-key").copied();
    let today = f.get("--today").copied();
    let result = open(Some(db)).and_then(|c| c.planner().apply_json(&input, key, today));
    Ok(match result {
        Ok(r) => {
            out!("{}", serde_json::to_string(&r).unwrap_or_default());
            ExitCode::SUCCESS
        }
        Err(e) => print_ops_error(&e),
    })
}

pub(crate) fn ops_undo(f: &HashMap<String, &str>, request_id: &str) -> Result<ExitCode, Usage> {
    let db = f
        .get("--db")
        .ok_or_else(|| Usage("--db is required".into()))?;
    Ok(
        match open(Some(db)).and_then(|c| c.planner().undo(request_id)) {
            Ok(r) => {
                out!("{}", serde_json::to_string(&r).unwrap_or_default());
                ExitCode::SUCCESS
            }
            Err(e) => print_ops_error(&e),
        },
    )
}

/// Prints each event as one JSON line, as it comes.
struct PrintEvents;

impl EventSink for PrintEvents {
    fn on_event(&self, event: AssistantEvent) {
        out!("{}", serde_json::to_string(&event).unwrap_or_default());
    }
}

/// The scripted model of `--script FILE` (at most 1 MiB: larger or not UTF-8 is the inner `Err`,
/// `invalid_argument`); a usage error when the file cannot be read or is not a JSON array of
/// strings.
fn scripted(path: &str) -> Result<Result<Arc<dyn LanguageModel>, CoachError>, Usage> {
    let text = match read_file("--script", path, MAX_REQUEST_BYTES)? {
        Ok(text) => text,
        Err(e) => return Ok(Err(e)),
    };
    let replies: Vec<String> = coachcore::kernel::error::parse_request(&text)
        .map_err(|e| Usage(format!("--script must be a JSON array of strings ({e})")))?;
    Ok(Ok(ScriptedModel::texts(replies)))
}

#[cfg(feature = "llama")]
fn gguf(path: &str) -> Result<Arc<dyn LanguageModel>, CoachError> {
    coachcore::ffi::load_model(
        path.to_string(),
        coachcore::ffi::ModelOptions {
            context_tokens: 4096,
            threads: None,
        },
        None,
    )
}

#[cfg(not(feature = "llama"))]
fn gguf(_path: &str) -> Result<Arc<dyn LanguageModel>, CoachError> {
    Err(CoachError::ModelUnusable {
        detail: "this coach was built without the llama feature".into(),
    })
}

/// The text of the `--request FILE` flag's file (required), read no further than
/// [`MAX_JOB_REQUEST_BYTES`]: larger or not UTF-8 is the inner `Err` (`invalid_argument`).
fn request_file(f: &HashMap<String, &str>) -> Result<Result<String, CoachError>, Usage> {
    let path = f
        .get("--request")
        .ok_or_else(|| Usage("--request is required".into()))?;
    read_file("--request", path, MAX_JOB_REQUEST_BYTES)
}

/// The model `--script FILE` or `--model GGUF` names (neither: none); a usage error for both, a
/// `CoachError` for a model file that cannot be loaded.
pub(crate) fn model_flags(
    f: &HashMap<String, &str>,
) -> Result<Result<Option<Arc<dyn LanguageModel>>, CoachError>, Usage> {
    Ok(match (f.get("--script"), f.get("--model")) {
        (Some(_), Some(_)) => return Err(Usage("give --script or --model, not both".into())),
        (Some(path), None) => scripted(path)?.map(Some),
        (None, Some(path)) => gguf(path).map(Some),
        (None, None) => Ok(None),
    })
}

/// The inputs of a model-backed job command (`meals plan`, `workout generate`).
pub(crate) struct JobInputs<'a, R> {
    /// `--db`.
    pub db: &'a str,
    /// The `--request` file, parsed.
    pub request: R,
    /// The model `--script` or `--model` names, if any.
    pub model: Option<Arc<dyn LanguageModel>>,
}

/// Reads a model-backed job command's flags, in this order: `--db` (required), the `--request`
/// file, the model ([`model_flags`]), then the request read by `parse`. A usage error is `Err`;
/// `Ok(Err(exit))` when the model or the request is refused (the error is printed).
pub(crate) fn job_inputs<'a, R>(
    f: &HashMap<String, &'a str>,
    parse: impl FnOnce(&str) -> Result<R, CoachError>,
) -> Result<Result<JobInputs<'a, R>, ExitCode>, Usage> {
    let db = *f
        .get("--db")
        .ok_or_else(|| Usage("--db is required".into()))?;
    let text = request_file(f)?;
    let model = match model_flags(f)? {
        Ok(m) => m,
        Err(e) => return Ok(Err(print_error(&e))),
    };
    Ok(match text.and_then(|text| parse(&text)) {
        Ok(request) => Ok(JobInputs { db, request, model }),
        Err(e) => Err(print_error(&e)),
    })
}

pub(crate) fn assistant(f: &HashMap<String, &str>, message: &str) -> Result<ExitCode, Usage> {
    let db = f
        .get("--db")
        .ok_or_else(|| Usage("--db is required".into()))?;
    let mode = match f.get("--mode").copied().unwrap_or("plan") {
        "plan" => AssistantMode::Plan,
        "chat" => AssistantMode::Chat,
        "auto" => AssistantMode::Auto,
        other => {
            return Err(Usage(format!(
                "unknown mode {other:?} (plan, chat or auto)"
            )))
        }
    };
    let model = match model_flags(f)? {
        Ok(m) => m,
        Err(e) => return Ok(print_error(&e)),
    };
    let request = AssistantRequest {
        message: message.to_string(),
        mode,
        selection: None,
        today: f.get("--today").map(|s| s.to_string()),
        language: f.get("--language").map(|s| s.to_string()),
    };
    let result = open(Some(db)).and_then(|c| {
        c.assistant()
            .run_message_with(request, model, &PrintEvents, &CancelToken::new())
    });
    Ok(match result {
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => print_error(&e),
    })
}

pub(crate) fn plan_transform(f: &HashMap<String, &str>) -> Result<ExitCode, Usage> {
    let schema = version(
        f.get("--schema")
            .ok_or_else(|| Usage("--schema is required".into()))?,
    )?;
    let seed = match f.get("--seed") {
        Some(s) => Some(
            s.parse::<u64>()
                .map_err(|_| Usage("--seed must be a non-negative integer".into()))?,
        ),
        None => None,
    };
    let Some(input) = read_stdin_bytes(MAX_REQUEST_BYTES)? else {
        let e = CoachError::InvalidArgument {
            detail: format!("the input is larger than {MAX_REQUEST_BYTES} bytes"),
        };
        return Ok(print_error(&e));
    };
    let text = match String::from_utf8(input) {
        Ok(t) => t,
        Err(_) => {
            let e = CoachError::InvalidModelOutput {
                code: coachcore::OutputErrorCode::InvalidJson,
                path: None,
                detail: "the input is not UTF-8 text".into(),
            };
            return Ok(print_error(&e));
        }
    };
    let selection = SchemaSelection {
        schema_version: schema,
        reason: SelectionReason::Override,
    };
    let result =
        open(f.get("--db")).and_then(|c| c.workouts().transform_plan(text, selection, seed));
    Ok(match result {
        Ok(t) => {
            out!("{}", serde_json::to_string(&t.plan).unwrap_or_default());
            ExitCode::SUCCESS
        }
        Err(e) => print_error(&e),
    })
}

/// `coach plan generate --db PATH --date D [--schema V] [--timezone Z] [--seed N] [--units U]
/// [--days-per-week N] [--script FILE | --model GGUF]`: the user's goal and notes on stdin; prints the
/// `PlanTransform` JSON and exits 0, or the error JSON (exit 2 for rejected model output, 1
/// otherwise). Without a model the plan is the deterministic one.
pub(crate) fn plan_generate(f: &HashMap<String, &str>) -> Result<ExitCode, Usage> {
    let db = required(f, "--db")?;
    let date = required(f, "--date")?;
    let schema_version = f.get("--schema").map(|v| version(v)).transpose()?;
    let seed = number::<u64>(f, "--seed")?;
    let units = f.get("--units").map(|u| units(u)).transpose()?;
    let days_per_week = crate::io::days_per_week(f)?;
    let model = match model_flags(f)? {
        Ok(m) => m,
        Err(e) => return Ok(print_error(&e)),
    };
    let notes = match crate::io::stdin_or_refuse(MAX_REQUEST_BYTES)? {
        Ok(text) => text,
        Err(code) => return Ok(code),
    };
    let request = coachcore::TodayPlanRequest {
        date: date.to_string(),
        notes,
        schema_version,
        timezone: f.get("--timezone").map(|s| s.to_string()),
        seed,
        units,
        days_per_week,
    };
    let model = model.map(|model| coachcore::llm::metered::SharedModel {
        model,
        breaker: None,
        details: None,
    });
    Ok(print_result(open(Some(&db)).and_then(|c| {
        c.workouts().today_plan_with(
            &request,
            model,
            &CancelToken::new(),
            &coachcore::plan::PlanGenerateSettings::default(),
        )
    })))
}

/// `kg` or `lbs`.
fn units(s: &str) -> Result<coachcore::kernel::units::WeightUnit, Usage> {
    use coachcore::kernel::units::WeightUnit;
    match s {
        "kg" => Ok(WeightUnit::Kg),
        "lbs" => Ok(WeightUnit::Lbs),
        other => Err(Usage(format!("unknown unit {other:?} (kg or lbs)"))),
    }
}

/// Prints `value` as one line of JSON and exits 0, or the error JSON (exit 2 for rejected model
/// output, 1 otherwise).
pub(crate) fn print_result<T: serde::Serialize>(result: Result<T, CoachError>) -> ExitCode {
    match result {
        Ok(v) => {
            out!("{}", serde_json::to_string(&v).unwrap_or_default());
            ExitCode::SUCCESS
        }
        Err(e) => print_error(&e),
    }
}

/// `coach plan today --db PATH [--date YYYY-MM-DD]`: the newest plan saved for the date (today's
/// UTC date by default) as `SavedTodayPlan` JSON, or `null`.
pub(crate) fn plan_today(f: &HashMap<String, &str>) -> Result<ExitCode, Usage> {
    use coachcore::kernel::clock::{Clock, SystemClock};
    let db = required(f, "--db")?;
    let date = match f.get("--date") {
        Some(d) => d.to_string(),
        None => coachcore::kernel::date::Date::from_unix_ms(SystemClock.now_ms(), 0).to_string(),
    };
    Ok(print_result(
        open(Some(&db)).and_then(|c| c.workouts().saved_today_plan(date)),
    ))
}

/// `coach plan recent --db PATH [--limit N]`: up to N (default 10) saved plans, newest first, as
/// a JSON array of `SavedTodayPlan`.
pub(crate) fn plan_recent(f: &HashMap<String, &str>) -> Result<ExitCode, Usage> {
    let db = required(f, "--db")?;
    let limit = number::<u32>(f, "--limit")?.unwrap_or(10);
    Ok(print_result(
        open(Some(&db)).and_then(|c| c.workouts().recent_today_plans(limit)),
    ))
}

/// `coach plan done --db PATH --id PLAN_ID [--performed FILE] [--performed-at-ms MS]`: marks a
/// saved plan done and logs it as training; FILE holds the exercises not done as planned
/// (`[TodayExerciseDone]`, read no further than 1 MiB), without it everything as planned. Prints
/// the `SavedTodayPlan` JSON now done and exits 0, or the error JSON and exits 1.
pub(crate) fn plan_done(f: &HashMap<String, &str>) -> Result<ExitCode, Usage> {
    let db = required(f, "--db")?;
    let plan_id = required(f, "--id")?;
    let performed_at_ms = number::<i64>(f, "--performed-at-ms")?;
    let performed = match f.get("--performed") {
        None => None,
        Some(path) => {
            let text = match read_file("--performed", path, MAX_REQUEST_BYTES)? {
                Ok(text) => text,
                Err(e) => return Ok(print_error(&e)),
            };
            // The request error keeps the JSON path of the problem.
            let parsed = check_json(&text, &Caps::REQUEST).and_then(|()| {
                coachcore::kernel::error::parse_request::<Vec<coachcore::TodayExerciseDone>>(&text)
            });
            match parsed {
                Ok(p) => Some(p),
                Err(e) => {
                    out!("{}", e.to_json().to_response());
                    return Ok(ExitCode::from(1));
                }
            }
        }
    };
    let request = MarkTodayPlanDoneRequest {
        plan_id: plan_id.to_string(),
        performed,
        performed_at_ms,
    };
    Ok(print_result(
        open(Some(&db)).and_then(|c| request.mark(&c.workouts())),
    ))
}

/// `coach suggest evaluate`: an [`EvaluateRequest`] on stdin, the suggestions on stdout.
pub(crate) fn suggest_evaluate() -> Result<ExitCode, Usage> {
    let refuse = |e: ErrorJson| {
        out!("{}", e.to_response());
        Ok(ExitCode::from(1))
    };
    let input = match read_stdin(MAX_REQUEST_BYTES)? {
        Ok(input) => input,
        Err(e) => return refuse(e),
    };
    let parsed = check_json(&input, &Caps::REQUEST)
        .and_then(|()| coachcore::kernel::error::parse_request::<EvaluateRequest>(&input));
    let request = match parsed {
        Ok(request) => request,
        Err(e) => return refuse(e.to_json()),
    };
    // Input savePlan / logSession would refuse is refused here too: invalid_argument, exit 1,
    // with the path of the refused field.
    match request.evaluate_or_error_json() {
        Ok(suggestions) => {
            #[derive(serde::Serialize)]
            struct Output {
                suggestions: Vec<coachcore::suggest::SuggestionDraft>,
            }
            let out = Output { suggestions };
            out!("{}", serde_json::to_string(&out).unwrap_or_default());
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => refuse(e),
    }
}

pub(crate) fn select(f: &HashMap<String, &str>) -> Result<ExitCode, Usage> {
    let supported = match f.get("--supported") {
        Some(list) => list
            .split(',')
            .filter(|s| !s.is_empty())
            .map(version)
            .collect::<Result<Vec<_>, _>>()?,
        None => Vec::new(),
    };
    let override_version = f.get("--override").map(|v| version(v)).transpose()?;
    let sel = coachcore::plan::select_schema(&supported, override_version);
    out!("{}", serde_json::to_string(&sel).unwrap_or_default());
    Ok(ExitCode::SUCCESS)
}

/// `coach model check PATH`: whether the model file can be used, decided without loading it.
pub(crate) fn model_check(f: &HashMap<String, &str>, path: &str) -> Result<ExitCode, Usage> {
    let options = coachcore::llm::availability::ModelCheckOptions {
        context_tokens: number(f, "--context-tokens")?
            .unwrap_or(coachcore::llm::availability::DEFAULT_CHECK_CONTEXT),
        available_bytes: number(f, "--available-bytes")?,
    };
    let availability = coachcore::model_availability(path.to_string(), Some(options));
    out!(
        "{}",
        serde_json::to_string(&availability).unwrap_or_default()
    );
    Ok(
        if availability.status == coachcore::llm::availability::ModelAvailabilityStatus::Available {
            ExitCode::SUCCESS
        } else {
            ExitCode::from(2)
        },
    )
}
