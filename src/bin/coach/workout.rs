//! `coach workout validate`, `coach workout generate`, `coach workout render`, `coach workout log`
//! and `coach workout week`: the workout flow of spec 001 over the public API.

use std::collections::HashMap;
use std::process::ExitCode;

use coachcore::llm::metered::SharedModel;
use coachcore::llm::CancelToken;
use coachcore::workout::document::DocumentError;
use coachcore::workout::service::{WorkoutSettings, WorkoutSink};
use coachcore::workout::{Workout, WorkoutEvent, WorkoutLog, WorkoutResult};
use coachcore::Workouts;
use serde::Serialize;

use crate::commands::{job_inputs, print_result, JobInputs};
use crate::io::{days_per_week, number, open, print_error, required, stdin_or_refuse, Usage};
use coachcore::kernel::limits::MAX_REQUEST_BYTES;

/// `{"ok": WORKOUT}`.
#[derive(Serialize)]
struct Valid<'a> {
    ok: &'a Workout,
}

/// `{"error": {"code", "path", "detail"}}`, keys in contract order.
#[derive(Serialize)]
struct Invalid<'a> {
    error: &'a DocumentError,
}

/// The workout document on stdin (YAML, or JSON, which YAML reads too), read no further than
/// 1 MiB and checked as `workout validate` checks it; `Err` is the exit after the refusal was
/// printed (the document error, exit 1).
fn document_on_stdin() -> Result<Result<Workout, ExitCode>, Usage> {
    let yaml = match stdin_or_refuse(MAX_REQUEST_BYTES)? {
        Ok(text) => text,
        Err(code) => return Ok(Err(code)),
    };
    let v = coachcore::validate_workout_yaml(yaml);
    Ok(match (v.workout, v.error) {
        (Some(w), _) => Ok(w),
        (None, Some(e)) => {
            out!(
                "{}",
                serde_json::to_string(&Invalid { error: &e }).unwrap_or_default()
            );
            Err(ExitCode::from(1))
        }
        (None, None) => Err(ExitCode::from(1)),
    })
}

/// `coach workout validate`: a workout YAML on stdin; `{"ok": WORKOUT}` and exit 0, or the
/// document error and exit 1.
pub(crate) fn validate() -> Result<ExitCode, Usage> {
    Ok(match document_on_stdin()? {
        Ok(w) => {
            out!(
                "{}",
                serde_json::to_string(&Valid { ok: &w }).unwrap_or_default()
            );
            ExitCode::SUCCESS
        }
        Err(code) => code,
    })
}

/// `coach workout log --db PATH [--performed-at-ms MS]`: a performed Workout v1.2 document on
/// stdin (YAML or JSON: a saved workout with `actual_weight` and `actual_reps` filled; sets left
/// null were not done) logged through `workouts().log` ([`WorkoutLog::from_document`]). Prints
/// `{"ok":{"workoutId":ID,"sets":N}}` (the sets logged) and exits 0; a document error as
/// `workout validate` prints it, or the error JSON, and exits 1.
pub(crate) fn log(f: &HashMap<String, &str>) -> Result<ExitCode, Usage> {
    let db = required(f, "--db")?;
    let at = number::<i64>(f, "--performed-at-ms")?;
    let w = match document_on_stdin()? {
        Ok(w) => w,
        Err(code) => return Ok(code),
    };
    /// `{"ok": {"workoutId": ID, "sets": N}}`.
    #[derive(Serialize)]
    struct Line<'a> {
        ok: Logged<'a>,
    }
    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Logged<'a> {
        workout_id: &'a str,
        sets: usize,
    }
    let logged = WorkoutLog::from_document(&w, at)
        .map_err(coachcore::CoachError::from)
        .and_then(|log| {
            let sets = log.sets.len();
            open(Some(&db))?.workouts().log(log)?;
            Ok(Line {
                ok: Logged {
                    workout_id: &w.workout_id,
                    sets,
                },
            })
        });
    Ok(print_result(logged))
}

/// Prints each event as one JSON line: `{"event": STAGE, "attempt": N}`.
struct PrintEvents;

impl WorkoutSink for PrintEvents {
    fn on_event(&self, event: WorkoutEvent) {
        #[derive(Serialize)]
        struct Line {
            event: coachcore::workout::WorkoutStage,
            attempt: u32,
        }
        let line = Line {
            event: event.stage,
            attempt: event.attempt,
        };
        out!("{}", serde_json::to_string(&line).unwrap_or_default());
    }
}

/// The last line of `coach workout generate`.
#[derive(Serialize)]
struct ResultLine<'a> {
    event: &'static str,
    result: &'a WorkoutResult,
}

/// `coach workout generate --db PATH --request FILE [--model GGUF | --script FILE]
/// [--analyzer-timeout-ms MS] [--generator-timeout-ms MS]`: the stage events as JSON lines, then
/// `{"event": "result", "result": WorkoutResult}`; on failure the error JSON as the last line and
/// exit 1 (2 for rejected model output).
pub(crate) fn generate(f: &HashMap<String, &str>) -> Result<ExitCode, Usage> {
    let JobInputs { db, request, model } = match job_inputs(f, Workouts::request_from_json)? {
        Ok(inputs) => inputs,
        Err(code) => return Ok(code),
    };
    let mut settings = WorkoutSettings::default();
    for (flag, field) in [
        ("--analyzer-timeout-ms", &mut settings.analyzer_timeout_ms),
        ("--generator-timeout-ms", &mut settings.generator_timeout_ms),
    ] {
        if let Some(v) = f.get(flag) {
            *field = v
                .parse()
                .map_err(|_| Usage(format!("{flag}: a number of milliseconds")))?;
        }
    }
    let run = open(Some(&db)).and_then(|c| {
        c.workouts().generate_with(
            &request,
            model.map(SharedModel::plain),
            &PrintEvents,
            &CancelToken::new(),
            &settings,
        )
    });
    Ok(match run {
        Ok(result) => {
            let line = ResultLine {
                event: "result",
                result: &result,
            };
            out!("{}", serde_json::to_string(&line).unwrap_or_default());
            ExitCode::SUCCESS
        }
        Err(e) => print_error(&e),
    })
}

/// `coach workout render`: an analyzer plan JSON on stdin, the deterministic workout YAML out.
pub(crate) fn render() -> Result<ExitCode, Usage> {
    let input = match stdin_or_refuse(MAX_REQUEST_BYTES)? {
        Ok(text) => text,
        Err(code) => return Ok(code),
    };
    Ok(match Workouts::render_plan(&input) {
        Ok(yaml) => {
            out!("{}", yaml.trim_end());
            ExitCode::SUCCESS
        }
        Err(e) => print_error(&e),
    })
}

/// `coach workout week --db PATH --date D [--days-per-week N]`: the `TrainingWeek` JSON (the last
/// 7 days per muscle group and the next session's split) and exit 0, or the error JSON and exit 1.
pub(crate) fn week(f: &HashMap<String, &str>) -> Result<ExitCode, Usage> {
    let [db, date] = ["--db", "--date"].map(|flag| {
        f.get(flag)
            .ok_or_else(|| Usage(format!("{flag} is required")))
    });
    let (db, date, days) = (db?, date?, days_per_week(f)?);
    let week = open(Some(db)).and_then(|c| c.workouts().week(date.to_string(), days));
    Ok(match week {
        Ok(week) => {
            out!("{}", serde_json::to_string(&week).unwrap_or_default());
            ExitCode::SUCCESS
        }
        Err(e) => print_error(&e),
    })
}
