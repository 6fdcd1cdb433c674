//! `coach`: the command line over coachcore's public API, for demos, debugging and scripts.
//!
//! The contract (stable; other tools script against it):
//! - `coach plan transform --schema v2-flat|v1-current [--seed N] [--db PATH]`: model text on
//!   stdin. Exit 0 with exactly the `TodayPlan` JSON on stdout, or exit 2 with
//!   `{"error":{"code":C,"path":P,"detail":D}}` on stdout.
//! - `coach plan select-schema [--supported v1-current,v2-flat] [--override V]`: prints
//!   `{"schemaVersion":V,"reason":R}`.
//! - `coach suggest evaluate`: `{"context": ExerciseContext, "existing": [PrescriptionChange],
//!   "nowMs": N}` on stdin (`existing` optional). Prints `{"suggestions":[SuggestionDraft]}` and
//!   exits 0, or prints the error JSON with code `invalid_argument` (its `path` the JSON path of
//!   the problem) and exits 1. The input format is in the README.
//! - `coach ops dryrun [--db PATH] [--today YYYY-MM-DD]`: planner operations JSON on stdin
//!   (`{"operations":[...]}` or an array). Prints the `Validation` JSON; exit 0 when every
//!   operation is valid, 2 when some are not (same output). The database is not changed.
//! - `coach ops apply --db PATH [--idempotency-key K] [--today YYYY-MM-DD]`: the same input;
//!   prints the `ApplyResult` JSON and exits 0, or exits 2 with the error JSON when the operations
//!   are rejected (`operations_rejected`, nothing applied), the key was used with other
//!   operations (`idempotency_conflict`) or the input is not an operation list
//!   (`invalid_argument`).
//! - `coach assistant --db PATH [--mode plan|chat|auto] [--today YYYY-MM-DD] [--script FILE]
//!   [--model GGUF] "message"`: prints every event of the message as one JSON line (as the
//!   listener gets them; `done` last), then exits 0; on failure one more line with the error JSON
//!   and exit 1 (2 for rejected model output). `--script` is a JSON array of strings, the model's
//!   replies in order (for tests and tools); `--model` needs a build with the feature `llama`.
//!   Without either the pipeline runs without a model.
//! - `coach demo [--db PATH]`: a readable walk through the library's main jobs.
//!
//! Usage errors print to stderr and exit 64; other failures print the error JSON
//! `{"error":{"code":C,"path":P,"detail":D}}` (keys in that order) and exit 1. A database given
//! with `--db` that is not the library's (not SQLite, corrupt, or another application's) is
//! refused with `not_a_database` and left untouched.
//!
//! Output: a reader that goes away early (`coach … | head -c 100`) ends the output quietly; the
//! command still finishes and exits with its normal code. Any other failure to write stdout is
//! reported on stderr and exits 74. Error details never quote the input.

use std::collections::HashMap;
use std::io::{Read, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicU8, Ordering};

use std::sync::Arc;

use coachcore::assistant::service::EventSink;
use coachcore::assistant::{AssistantEvent, AssistantMode, AssistantRequest};
use coachcore::llm::scripted::ScriptedModel;
use coachcore::llm::{CancelToken, LanguageModel};
use coachcore::{Coach, CoachError, SchemaSelection, SchemaVersion, SelectionReason, TodayPlan};

const USAGE: &str = "usage:
  coach plan transform --schema v2-flat|v1-current [--seed N] [--db PATH]   (model text on stdin)
  coach plan select-schema [--supported v1-current,v2-flat] [--override VERSION]
  coach suggest evaluate   (one exercise context as JSON on stdin; see README)
  coach ops dryrun [--db PATH] [--today YYYY-MM-DD]   (operations JSON on stdin)
  coach ops apply --db PATH [--idempotency-key K] [--today YYYY-MM-DD]   (operations JSON on stdin)
  coach assistant --db PATH [--mode plan|chat|auto] [--today YYYY-MM-DD] [--script FILE] [--model GGUF] MESSAGE
  coach demo [--db PATH]";

/// The sample model output the demo transforms: fenced v2-flat JSON with prose around it and a
/// block given as a template.
const DEMO_OUTPUT: &str = include_str!("../../tests/data/demo-model-output.txt");

struct Usage(String);

/// State of stdout: writable, closed by the reader (quietly stop printing), or failed otherwise.
static STDOUT: AtomicU8 = AtomicU8::new(STDOUT_OK);
const STDOUT_OK: u8 = 0;
const STDOUT_CLOSED: u8 = 1;
const STDOUT_FAILED: u8 = 2;

/// Prints one line on stdout; never panics. After a failed write nothing more is printed.
macro_rules! out {
    ($($arg:tt)*) => { emit(format_args!($($arg)*)) };
}

/// Prints one line on stderr, ignoring failures (there is nowhere left to report them).
macro_rules! err_out {
    ($($arg:tt)*) => {{
        let _ = writeln!(std::io::stderr().lock(), $($arg)*);
    }};
}

fn emit(line: std::fmt::Arguments<'_>) {
    if STDOUT.load(Ordering::Relaxed) != STDOUT_OK {
        return;
    }
    let mut stdout = std::io::stdout().lock();
    if let Err(e) = stdout
        .write_fmt(line)
        .and_then(|()| stdout.write_all(b"\n"))
        .and_then(|()| stdout.flush())
    {
        let state = if e.kind() == std::io::ErrorKind::BrokenPipe {
            STDOUT_CLOSED
        } else {
            err_out!("coach: cannot write the output: {e}");
            STDOUT_FAILED
        };
        STDOUT.store(state, Ordering::Relaxed);
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let code = match run(&args) {
        Ok(code) => code,
        Err(Usage(msg)) => {
            err_out!("coach: {msg}\n{USAGE}");
            ExitCode::from(64)
        }
    };
    if STDOUT.load(Ordering::Relaxed) == STDOUT_FAILED {
        return ExitCode::from(74);
    }
    code
}

fn run(args: &[String]) -> Result<ExitCode, Usage> {
    let words: Vec<&str> = args.iter().map(String::as_str).collect();
    match words.as_slice() {
        ["plan", "transform", rest @ ..] => {
            plan_transform(&flags(rest, &["--schema", "--seed", "--db"])?)
        }
        ["plan", "select-schema", rest @ ..] => {
            select(&flags(rest, &["--supported", "--override"])?)
        }
        ["suggest", "evaluate"] => suggest_evaluate(),
        ["ops", "dryrun", rest @ ..] => ops_dryrun(&flags(rest, &["--db", "--today"])?),
        ["ops", "apply", rest @ ..] => {
            ops_apply(&flags(rest, &["--db", "--idempotency-key", "--today"])?)
        }
        ["assistant", rest @ ..] => {
            let (message, rest) = match rest.split_last() {
                Some((m, rest)) if !m.starts_with("--") => (*m, rest),
                _ => return Err(Usage("assistant needs a message".into())),
            };
            assistant(
                &flags(rest, &["--db", "--mode", "--today", "--script", "--model"])?,
                message,
            )
        }
        ["demo", rest @ ..] => demo(&flags(rest, &["--db"])?),
        ["--help" | "-h" | "help"] => {
            out!("{USAGE}");
            Ok(ExitCode::SUCCESS)
        }
        _ => Err(Usage("unknown command".into())),
    }
}

fn flags<'a>(args: &[&'a str], known: &[&str]) -> Result<HashMap<String, &'a str>, Usage> {
    let mut out = HashMap::new();
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        if !known.contains(flag) {
            return Err(Usage(format!("unknown argument {flag}")));
        }
        let value = it
            .next()
            .ok_or_else(|| Usage(format!("{flag} needs a value")))?;
        if out.insert(flag.to_string(), *value).is_some() {
            return Err(Usage(format!("{flag} given twice")));
        }
    }
    Ok(out)
}

fn version(s: &str) -> Result<SchemaVersion, Usage> {
    SchemaVersion::parse(s).ok_or_else(|| {
        Usage(format!(
            "unknown schema version {s:?} (v1-current or v2-flat)"
        ))
    })
}

fn open(db: Option<&&str>) -> Result<Arc<Coach>, CoachError> {
    match db {
        Some(path) => Coach::open(path.to_string()),
        None => Coach::open_in_memory(),
    }
}

fn print_error(e: &CoachError) -> ExitCode {
    out!("{}", e.to_json().to_response());
    match e {
        CoachError::InvalidModelOutput { .. } | CoachError::ModelOutputRejected { .. } => {
            ExitCode::from(2)
        }
        _ => ExitCode::from(1),
    }
}

/// Exit code of an ops command's error: 2 when the input was refused, 1 otherwise.
fn print_ops_error(e: &CoachError) -> ExitCode {
    out!("{}", e.to_json().to_response());
    match e {
        CoachError::InvalidArgument { .. }
        | CoachError::OperationsRejected { .. }
        | CoachError::IdempotencyConflict => ExitCode::from(2),
        _ => ExitCode::from(1),
    }
}

fn read_stdin() -> Result<String, Usage> {
    let mut input = String::new();
    std::io::stdin()
        .read_to_string(&mut input)
        .map_err(|_| Usage("cannot read stdin as UTF-8".into()))?;
    Ok(input)
}

fn ops_dryrun(f: &HashMap<String, &str>) -> Result<ExitCode, Usage> {
    let input = read_stdin()?;
    let today = f.get("--today").copied();
    let result = open(f.get("--db")).and_then(|c| c.dry_run_operations_json(&input, today));
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

fn ops_apply(f: &HashMap<String, &str>) -> Result<ExitCode, Usage> {
    let db = f
        .get("--db")
        .ok_or_else(|| Usage("--db is required".into()))?;
    let input = read_stdin()?;
    let key = f.get("--idempotency-key").copied();
    let today = f.get("--today").copied();
    let result = open(Some(db)).and_then(|c| c.apply_operations_json(&input, key, today));
    Ok(match result {
        Ok(r) => {
            out!("{}", serde_json::to_string(&r).unwrap_or_default());
            ExitCode::SUCCESS
        }
        Err(e) => print_ops_error(&e),
    })
}

/// Prints each event as one JSON line, as it comes.
struct PrintEvents;

impl EventSink for PrintEvents {
    fn on_event(&self, event: AssistantEvent) {
        out!("{}", serde_json::to_string(&event).unwrap_or_default());
    }
}

fn scripted(path: &str) -> Result<Arc<dyn LanguageModel>, Usage> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Usage(format!("cannot read the --script file: {e}")))?;
    let replies: Vec<String> = coachcore::error::parse_request(&text)
        .map_err(|e| Usage(format!("--script must be a JSON array of strings ({e})")))?;
    Ok(ScriptedModel::texts(replies))
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

fn assistant(f: &HashMap<String, &str>, message: &str) -> Result<ExitCode, Usage> {
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
    if f.contains_key("--script") && f.contains_key("--model") {
        return Err(Usage("give --script or --model, not both".into()));
    }
    let model = match (f.get("--script"), f.get("--model")) {
        (Some(path), _) => Some(scripted(path)?),
        (None, Some(path)) => match gguf(path) {
            Ok(m) => Some(m),
            Err(e) => return Ok(print_error(&e)),
        },
        (None, None) => None,
    };
    let request = AssistantRequest {
        message: message.to_string(),
        mode,
        selection: None,
        today: f.get("--today").map(|s| s.to_string()),
    };
    let result = open(Some(db))
        .and_then(|c| c.run_message_with(request, model, &PrintEvents, &CancelToken::new()));
    Ok(match result {
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => print_error(&e),
    })
}

fn plan_transform(f: &HashMap<String, &str>) -> Result<ExitCode, Usage> {
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
    let mut input = Vec::new();
    if std::io::stdin().read_to_end(&mut input).is_err() {
        return Err(Usage("cannot read stdin".into()));
    }
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
    let result = open(f.get("--db")).and_then(|c| c.transform_plan(text, selection, seed));
    Ok(match result {
        Ok(t) => {
            out!("{}", serde_json::to_string(&t.plan).unwrap_or_default());
            ExitCode::SUCCESS
        }
        Err(e) => print_error(&e),
    })
}

/// The input of `coach suggest evaluate`.
#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct EvaluateInput {
    context: coachcore::suggest::ExerciseContext,
    #[serde(default)]
    existing: Vec<coachcore::suggest::PrescriptionChange>,
    now_ms: i64,
}

fn suggest_evaluate() -> Result<ExitCode, Usage> {
    let mut input = String::new();
    if std::io::stdin().read_to_string(&mut input).is_err() {
        return Err(Usage("cannot read stdin as UTF-8".into()));
    }
    let i = match coachcore::error::parse_request::<EvaluateInput>(&input) {
        Ok(i) => i,
        Err(e) => {
            out!("{}", e.to_json().to_response());
            return Ok(ExitCode::from(1));
        }
    };
    // Input savePlan / logSession would refuse is refused here too: invalid_argument, exit 1.
    match coachcore::evaluate_exercise(i.context, i.existing, i.now_ms) {
        Ok(suggestions) => {
            #[derive(serde::Serialize)]
            struct Output {
                suggestions: Vec<coachcore::suggest::SuggestionDraft>,
            }
            let out = Output { suggestions };
            out!("{}", serde_json::to_string(&out).unwrap_or_default());
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => Ok(print_error(&e)),
    }
}

fn select(f: &HashMap<String, &str>) -> Result<ExitCode, Usage> {
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

fn demo(f: &HashMap<String, &str>) -> Result<ExitCode, Usage> {
    let temp = std::env::temp_dir().join(format!("coachcore-demo-{}.db", std::process::id()));
    let path = f
        .get("--db")
        .map_or_else(|| temp.display().to_string(), |p| p.to_string());
    let result = demo_run(&path);
    if f.get("--db").is_none() {
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", temp.display()));
        }
    }
    Ok(match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => print_error(&e),
    })
}

fn demo_run(path: &str) -> Result<(), CoachError> {
    out!("coachcore {} demo", coachcore::library_version());
    let coach = Coach::open(path.to_string())?;
    out!("database: {path}");

    for supported in [
        vec![SchemaVersion::V2Flat],
        vec![SchemaVersion::V1Current, SchemaVersion::V2Flat],
    ] {
        let sel = coach.select_plan_schema(supported.clone(), None);
        let names: Vec<_> = supported.iter().map(|v| v.as_str()).collect();
        out!(
            "schema selection, model supports [{}]: {} ({})",
            names.join(", "),
            sel.schema_version.as_str(),
            sel.reason.as_str()
        );
    }

    let selection = coach.select_plan_schema(vec![SchemaVersion::V2Flat], None);
    out!(
        "\nmodel output (v2-flat, fenced, with prose and a block template):\n{}",
        DEMO_OUTPUT.trim_end()
    );
    let t = coach.transform_plan(DEMO_OUTPUT.to_string(), selection, Some(2026))?;
    out!("\ntransformed with ruleset {}:\n", t.ruleset_version);
    print_plan(&t.plan);

    let broken = DEMO_OUTPUT.replace("\"blockIndex\": 2", "\"blockIndex\": 7");
    match coach.transform_plan(broken, selection, None) {
        Err(e) => out!(
            "\nthe same output with a block index of 7 is rejected: {} at {}",
            e.code(),
            e.path().unwrap_or("-")
        ),
        Ok(_) => out!("\nunexpected: the broken output was accepted"),
    }

    demo_suggestions(&coach)?;
    demo_assistant(&coach)?;

    out!("\ngeneration metadata in the database:");
    for g in coach.recent_generations(10)? {
        let outcome = match (&g.error_code, &g.error_path) {
            (None, _) => "ok".to_string(),
            (Some(c), p) => format!(
                "rejected: {} at {}",
                c.as_str(),
                p.as_deref().unwrap_or("-")
            ),
        };
        out!(
            "  #{} {} schema {} ({}), ruleset {}: {}",
            g.id,
            g.feature,
            g.schema_version.as_str(),
            g.selection_reason.as_str(),
            g.ruleset_version,
            outcome
        );
    }
    Ok(())
}

/// Logs three workouts of a small plan and shows the suggestions the third one produces.
fn demo_suggestions(coach: &Coach) -> Result<(), CoachError> {
    use coachcore::suggest::model::*;
    const DAY: i64 = 86_400_000;
    let exercises = [
        ("bench", "Bench Press", Muscle::Chest, 135.0),
        ("squat", "Back Squat", Muscle::Quads, 185.0),
        ("row", "Barbell Row", Muscle::Back, 115.0),
    ];
    let range = RepRange {
        mode: RepRangeMode::Range,
        lower: 8,
        upper: 12,
        target: 0,
    };
    for (id, name, muscle, _) in exercises {
        coach.save_exercise(CatalogExercise {
            catalog_id: id.into(),
            name: name.into(),
            equipment: Equipment::Barbell,
            target_muscles: vec![muscle],
        })?;
    }
    coach.save_plan(WorkoutPlan {
        settings: PlanSettings {
            plan_id: "demo-plan".into(),
            unit: WeightUnit::Lbs,
            training_style: TrainingStyle::StraightSets,
            load: LoadConfig::default(),
        },
        name: "Full Body A".into(),
        exercises: exercises
            .iter()
            .enumerate()
            .map(|(i, (id, _, _, w))| ExercisePrescription {
                id: format!("rx-{id}"),
                catalog_id: id.to_string(),
                position: i as u32,
                rep_range: range,
                rest_mode: RestMode::AllSame,
                rest_seconds: 120,
                sets: (0..3)
                    .map(|k| SetPrescription {
                        index: k,
                        set_type: SetType::Regular,
                        target_weight: *w,
                        target_reps: 8,
                        rest_seconds: 120,
                    })
                    .collect(),
            })
            .collect(),
    })?;
    // Bench tops the range twice; squat falls below it on the prescribed load; row is steady.
    let reps = [[12, 9, 10], [12, 7, 9], [12, 7, 9]];
    let start = coachcore::clock::Clock::now_ms(&coachcore::clock::SystemClock) - 5 * DAY;
    out!("\nsuggestions: logging 3 workouts of \"Full Body A\" (bench, squat, row; 3 x 8-12 each)");
    for (n, r) in reps.iter().enumerate() {
        let id = format!("demo-{start}-{n}");
        coach.log_session(SessionLog {
            id: id.clone(),
            plan_id: Some("demo-plan".into()),
            performed_at_ms: start + n as i64 * 2 * DAY,
            exercises: exercises
                .iter()
                .enumerate()
                .map(|(i, (cat, _, _, w))| ExerciseLog {
                    id: format!("{id}-{cat}"),
                    catalog_id: cat.to_string(),
                    prescription_id: Some(format!("rx-{cat}")),
                    sets: (0..3)
                        .map(|k| PerformedSet {
                            index: k,
                            set_type: SetType::Regular,
                            weight: *w,
                            reps: r[i],
                            rest_seconds: Some(120),
                            completed: true,
                        })
                        .collect(),
                })
                .collect(),
        })?;
        let line: Vec<String> = exercises
            .iter()
            .enumerate()
            .map(|(i, (_, name, _, w))| format!("{name} 3 x {} @ {w}", r[i]))
            .collect();
        out!("  workout {}: {}", n + 1, line.join(", "));
    }
    let last = format!("demo-{start}-2");
    let changes = coach.suggestions_for_session(last.clone())?;
    out!("suggestions after workout 3 ({}):", changes.len());
    for c in &changes {
        let d = &c.draft;
        let target = d
            .target_set_index
            .map_or("exercise".to_string(), |i| format!("set {}", i + 1));
        let value = |v: &ChangeValue| match v {
            ChangeValue::Number { value } => format!("{value}"),
            other => serde_json::to_string(other).unwrap_or_default(),
        };
        out!(
            "  [{}] {} {:?} {}: {} -> {}  ({})",
            d.rule_id.as_deref().unwrap_or("ai"),
            c.catalog_id,
            d.change_type,
            target,
            d.old_value.as_ref().map(value).unwrap_or_default(),
            value(&d.new_value),
            d.reasoning
        );
    }
    if let Some(first) = changes.first() {
        coach.accept_change(first.id.clone())?;
        let deferred = coach.defer_pending(last)?;
        out!("accepted the first, deferred {deferred} for review before the next workout");
        if let Some(plan) = coach.plan("demo-plan".into())? {
            if let Some(rx) = plan
                .exercises
                .iter()
                .find(|e| e.id == first.prescription_id)
            {
                let sets: Vec<String> = rx
                    .sets
                    .iter()
                    .map(|s| format!("{} x {}", s.target_weight, s.target_reps))
                    .collect();
                out!("plan now has {}: {}", rx.catalog_id, sets.join(", "));
            }
        }
    }
    Ok(())
}

/// What the demo's scripted model replies: a proposal (a one-off todo without the recurrence the
/// rules require, an event, a daily habit), then a summary with markup to clean.
fn demo_script(tomorrow: &str, today: &str) -> Vec<String> {
    let proposal = serde_json::json!({"operations": [
        {"op": "create", "kind": "todo", "title": "Call mom", "scheduledFor": tomorrow,
         "priority": "High"},
        {"op": "create", "kind": "event", "title": "Long run", "scheduledFor": tomorrow,
         "timeOfDay": "07:30", "endTime": "08:30", "recurrence": {"type": "none"}},
        {"op": "create", "kind": "habit", "title": "Stretch", "scheduledFor": today,
         "timeOfDay": "21:00", "recurrence": {"type": "daily"}},
    ]});
    vec![
        format!("```json\n{proposal}\n```"),
        "**Added** a call to mom and a long run tomorrow, and a daily stretch.".to_string(),
    ]
}

/// A message to the assistant with a scripted model: events, proposal, apply, week view, audit.
fn demo_assistant(coach: &Coach) -> Result<(), CoachError> {
    use coachcore::assistant::date::Date;
    use coachcore::clock::{Clock, SystemClock};
    let today = Date::from_unix_ms(SystemClock.now_ms(), 0);
    let tomorrow = today.add_days(1);
    let message = "Remind me to call mom tomorrow, add a long run tomorrow at 7:30 and a daily \
                   stretch in the evening";
    out!("\nassistant (plan mode, a scripted model; today is {today}):\n  user: {message}");
    let model: Arc<dyn LanguageModel> =
        ScriptedModel::texts(demo_script(&tomorrow.to_string(), &today.to_string()));
    struct Show;
    impl EventSink for Show {
        fn on_event(&self, event: AssistantEvent) {
            let line = match &event {
                AssistantEvent::Stage { stage } => format!("stage {stage:?}").to_lowercase(),
                AssistantEvent::Ops {
                    valid_count,
                    invalid_count,
                    ..
                } => format!("ops: {valid_count} valid, {invalid_count} invalid"),
                AssistantEvent::Summary { text } => format!("summary: {text}"),
                AssistantEvent::Clarify { clarification } => {
                    format!("clarify: {}", clarification.question)
                }
                AssistantEvent::Result { .. } => "result".into(),
                AssistantEvent::Heartbeat => "heartbeat".into(),
                AssistantEvent::Done => "done".into(),
            };
            out!("  event: {line}");
        }
    }
    let request = AssistantRequest {
        message: message.into(),
        mode: AssistantMode::Plan,
        selection: None,
        today: Some(today.to_string()),
    };
    let result = coach.run_message_with(request, Some(model), &Show, &CancelToken::new())?;
    out!("proposed operations (nothing applied yet):");
    for op in &result.operations {
        out!("  {}", serde_json::to_string(op).unwrap_or_default());
    }
    let applied = coach.apply_operations(
        result.operations.clone(),
        Some(format!("demo-{}", result.request_id)),
        Some(today.to_string()),
    )?;
    out!(
        "applied {} operations in one transaction (request {})",
        applied.applied.len(),
        applied.request_id
    );
    let week = coach.week(tomorrow.to_string())?;
    out!("week {} to {}:", week.week_start, week.week_end);
    for e in &week.entries {
        let time = e.item.time_of_day.as_deref().unwrap_or("     ");
        out!(
            "  {} {} {:<5} {:<6} {}",
            e.date,
            time,
            e.item.kind.as_str(),
            format!("{:?}", e.item.priority).to_lowercase(),
            e.item.title
        );
    }
    out!("audit log:");
    for a in coach.audit_log(10, None)? {
        out!(
            "  #{} {} {} {}",
            a.seq,
            a.op.as_str(),
            a.kind.as_str(),
            a.item_id
        );
    }
    Ok(())
}

fn print_plan(p: &TodayPlan) {
    let energy = serde_json::to_value(p.energy)
        .ok()
        .and_then(|v| v.as_str().map(String::from))
        .unwrap_or_default();
    let source = serde_json::to_value(p.source)
        .ok()
        .and_then(|v| v.as_str().map(String::from))
        .unwrap_or_default();
    out!(
        "{} - {} min, {} energy, by {}",
        p.focus,
        p.duration_minutes,
        energy,
        source
    );
    if !p.equipment.is_empty() {
        out!("equipment: {}", p.equipment.join(", "));
    }
    out!("{}", p.summary);
    for (i, b) in p.blocks.iter().enumerate() {
        out!(
            "\n{}. {} ({} min, {})",
            i + 1,
            b.title,
            b.duration_minutes,
            b.focus
        );
        for e in &b.exercises {
            match &e.detail {
                Some(d) => out!("   - {}: {} ({d})", e.name, e.prescription),
                None => out!("   - {}: {}", e.name, e.prescription),
            }
        }
    }
}
