//! `coach`: the command line over coachcore's public API, for demos, debugging and scripts.
//!
//! The contract (stable; other tools script against it):
//! - `coach plan transform --schema v2-flat|v1-current [--seed N] [--db PATH]`: model text on
//!   stdin. Exit 0 with exactly the `TodayPlan` JSON on stdout, or exit 2 with
//!   `{"error":{"code":C,"path":P,"detail":D}}` on stdout.
//! - `coach plan generate --db PATH --date YYYY-MM-DD [--schema v2-flat|v1-current]
//!   [--timezone TZ] [--seed N] [--units kg|lbs] [--days-per-week N] [--script FILE | --model GGUF]`:
//!   the user's goal
//!   and notes on stdin. Today's plan (spec 000, `workouts().todayPlan`), the model picking the
//!   exercises; without `--script` or `--model`, or when the model's answers stay invalid, each
//!   slot's first choice (`plan.source` `deterministic`, `fallbackReason` `no_model` or
//!   `invalid_answers`). The plan is saved. Prints the `PlanTransform` JSON
//!   (`{"plan":..,"schemaVersion":..,"rulesetVersion":..,"generationId":..,"fallbackReason":..}`)
//!   and exits 0, or the error JSON and exits 2 for rejected model output, 1 otherwise.
//! - `coach plan today --db PATH [--date YYYY-MM-DD]`: the newest plan saved for the date (default
//!   today's UTC date) as the `SavedTodayPlan` JSON (`{"plan","date","units","fallbackReason",
//!   "targets","createdAtMs","doneAtMs","sessionId"}`), or `null`; exit 0.
//! - `coach plan recent --db PATH [--limit N]`: up to N (default 10) saved plans, newest first, as
//!   a JSON array; exit 0.
//! - `coach plan done --db PATH --id PLAN_ID [--performed FILE] [--performed-at-ms MS]`: marks a
//!   saved plan done and logs it as training (`workouts().markTodayPlanDone`); FILE holds the
//!   exercises not done as planned (`[{"exerciseId":E,"sets":[{"weight":W,"reps":R}]}]`, no sets:
//!   not done), without it everything as planned. Prints the `SavedTodayPlan` JSON and exits 0, or the error JSON and exits 1
//!   (`not_found`, `invalid_argument`: nothing logged).
//! - `coach plan select-schema [--supported v1-current,v2-flat] [--override V]`: prints
//!   `{"schemaVersion":V,"reason":R}`.
//! - `coach suggest evaluate`: `{"context": ExerciseContext, "existing": [PrescriptionChange],
//!   "nowMs": N}` on stdin (`existing` optional). Prints `{"suggestions":[SuggestionDraft]}` and
//!   exits 0, or prints the error JSON with code `invalid_argument` (its `path` the JSON path of
//!   the problem) and exits 1. The input format is in docs/suggestions.md.
//! - `coach ops dryrun [--db PATH] [--today YYYY-MM-DD]`: planner operations JSON on stdin
//!   (`{"operations":[...]}` or an array). Prints the `Validation` JSON; exit 0 when every
//!   operation is valid, 2 when some are not (same output). The database is not changed.
//! - `coach ops apply --db PATH [--idempotency-key K] [--today YYYY-MM-DD]`: the same input;
//!   prints the `ApplyResult` JSON and exits 0, or exits 2 with the error JSON when the operations
//!   are rejected (`operations_rejected`, nothing applied), the key was used with other
//!   operations (`idempotency_conflict`) or the input is not an operation list
//!   (`invalid_argument`).
//! - `coach ops undo --db PATH REQUEST_ID`: reverts an applied request (`planner().undo`); prints the
//!   undo's `ApplyResult` JSON and exits 0, or exits 2 with `undo_conflict` (something changed
//!   since, or undone already; nothing changed) and 1 with `not_found` for an unknown request id.
//! - `coach assistant --db PATH [--mode plan|chat|auto] [--today YYYY-MM-DD] [--language TAG] [--script FILE]
//!   [--model GGUF] "message"`: prints every event of the message as one JSON line (as the
//!   listener gets them, as they come: a chat answer's `{"event":"textDelta","text":...}` lines
//!   while the model writes, then its `summary`; `done` last), then exits 0; on failure one more line with the error JSON
//!   and exit 1 (2 for rejected model output). `--script` is a JSON array of strings, the model's
//!   replies in order (for tests and tools); `--model` needs a build with the feature `llama`.
//!   Without either the pipeline runs without a model.
//! - `coach recipes import --db PATH`: a JSON array of recipes on stdin (the format of
//!   `docs/meals.md`); prints `{"imported":N}` and exits 0, or the error JSON and exits 1
//!   (nothing imported).
//! - `coach recipes list [--db PATH] [--offset N] [--limit N] [--source user|core|stage]`: one page
//!   of recipes (`Meals.listRecipes`; limit 20 by default) as `{"recipes": [..], "total": N}`.
//!   `coach recipes search [--db PATH] [--meal-type TYPE] [--limit N] QUERY`: the recipes that
//!   match QUERY, best first (`Meals.searchRecipes`), as a JSON array. `coach recipes show [--db
//!   PATH] ID`: the recipe, or exit 1 with `not_found`. Without `--db` they read a new
//!   in-memory database: the built-in recipes. Exit 1 with the error JSON for a refused request.
//! - Every command opens its database with the library's built-in recipes (loaded into a new
//!   file, upgraded in an older one); `COACH_BUILTIN_RECIPES=off` opens without them.
//! - `coach meals plan --db PATH --request FILE [--script FILE] [--model GGUF]`: a meal-plan job
//!   (spec 003). Prints each `progress` event as one JSON line, then the `completed` or `failed`
//!   event with the job envelope under `"job"`; exit 0 when completed, 1 when failed or the
//!   request is refused (the error JSON). Without `--script` or `--model` every slot is chosen by
//!   the deterministic fallback.
//! - `coach meals shopping-list --db PATH --job JOB_ID [--days YYYY-MM-DD,...] [--all]`: the
//!   shopping list of a finished meal-plan job (`meals().shoppingList`) as the `ShoppingList`
//!   JSON (`{"jobId","dates","sections":[{"section","items":[...]}],"skippedStaples",
//!   "missingRecipes"}`), exit 0; `--days` keeps some of the plan's days, `--all` lists pantry
//!   staples too. The error JSON and exit 1 for an unknown job (`not_found`), one without a plan
//!   (`job_not_complete`) or a day not in the plan (`invalid_argument`).
//! - `coach meals staples --db PATH [--set NAME,NAME,...]`: prints the pantry staples as a JSON
//!   array, after replacing them with the `--set` list when given (`--set ""` clears them);
//!   exit 0, or the error JSON and exit 1 (`invalid_argument`: nothing changed).
//! - `coach workout validate`: a Workout v1.2 YAML document on stdin. Prints `{"ok": WORKOUT}`
//!   (the document as JSON) and exits 0, or prints
//!   `{"error":{"code":"invalid_yaml"|"schema_violation","path":P,"detail":D}}` (`path` such as
//!   `sets[3].id`, or `null`) and exits 1.
//! - `coach workout generate --db PATH --request FILE [--script FILE] [--model GGUF]
//!   [--analyzer-timeout-ms MS] [--generator-timeout-ms MS]`: a workout
//!   (spec 001) for the `WorkoutRequest` JSON in FILE (stage budgets 90000 and 60000 ms by default). Prints each stage event as one JSON line
//!   (`{"event":"pre_analysis","attempt":0}`, ..., `done` last), then
//!   `{"event":"result","result":{"source":"model"|"deterministic","analyzer":{...},
//!   "workout":{...},"yaml":"..."}}` and exits 0; on failure the error JSON instead of the result
//!   line and exit 1 (2 for rejected model output). Without `--script` or `--model` the
//!   deterministic planner and generator make the workout. The workout is saved in the database.
//! - `coach workout render`: an analyzer plan JSON (`schemas/analyzer-v1.json`) on stdin; prints
//!   the deterministic workout YAML and exits 0, or the error JSON and exits 1.
//! - `coach workout log --db PATH [--performed-at-ms MS]`: a performed Workout v1.2 document on
//!   stdin, YAML or JSON (a workout `workout generate` saved in that database, with `actual_weight`
//!   and `actual_reps` filled; a set whose `actual_reps` is null was not done, a null
//!   `actual_weight` beside reps is body weight), read as `workout validate` reads it and logged
//!   through `workouts().log` (performed at noon UTC of the document's date unless
//!   `--performed-at-ms` says). Prints `{"ok":{"workoutId":ID,"sets":N}}` and exits 0; a
//!   document error as `workout validate` prints it, or the error JSON (`not_found` for a workout
//!   not in the database, `invalid_argument` for one logged already or a bad set), and exits 1.
//! - `coach workout week --db PATH --date YYYY-MM-DD [--days-per-week N]`: prints the
//!   `TrainingWeek` JSON (`workouts().week`: `{"from","to","sessions","muscles":[{"muscle",
//!   "sets","hardSets"}],"nextSession":{"sessionType","reason"}}`) and exits 0, or the error JSON
//!   and exits 1.
//! - `coach model check [--context-tokens N] [--available-bytes N] PATH`: whether the GGUF model
//!   file at PATH can be used here, decided without loading it (`modelAvailability`). Prints the
//!   `ModelAvailability` JSON (`{"status":S,"detail":D,"fileBytes":N,"ggufVersion":N,
//!   "architecture":A,"tensorCount":N,"metadataCount":N,"parameterCount":N,"quantization":Q,
//!   "contextTokens":N,"neededBytes":N,"availableBytes":N}`, S one of `available`, `fileMissing`,
//!   `unreadable`, `notGguf`, `unsupportedArchitecture`, `insufficientMemory`, `engineMissing`)
//!   and exits 0 when S is `available`, 2 otherwise (same output). `--context-tokens` (default
//!   2048) is the context the memory estimate is for; `--available-bytes` replaces the machine's
//!   available-memory reading. A build without the feature `llama` says `engineMissing` for a
//!   file that passes every other check.
//! - `coach demo [--db PATH] [--model GGUF]`: a readable walk through the library's main jobs;
//!   with `--model` (a build with the feature `llama`) its AI parts run on that model, else on a
//!   scripted one (`./demo.sh` chooses).
//!
//! Stdin, and the files `--request`, `--script` and `--performed` name, are read no further than
//! their cap (`src/kernel/limits.rs`; stdin: 512 KiB for `ops`, 32 MiB for `recipes import`,
//! 1 MiB otherwise; a `--request` file 256 KiB, a `--script` or `--performed` file 1 MiB), so a device or a sparse file
//! costs no more than the cap: larger input, or input that is not UTF-8, prints the error JSON
//! with code `invalid_argument` (exit 2 for `ops`, 1 otherwise; `plan transform` answers
//! non-UTF-8 with `invalid_json`, exit 2). A file that cannot be opened or read is a usage error.
//!
//! Encryption at rest: with `COACH_DB_KEY` set to a 32-byte key as 64 hexadecimal digits, `--db`
//! opens (or creates) the file encrypted with it, `coach demo`'s file included (a build with the
//! feature `encryption`; without it the error is `encryption_unavailable`). Set but empty, blank or
//! malformed, it is `invalid_argument` and nothing is opened or created. A wrong key is `wrong_key`, a plain file
//! `database_not_encrypted`, an encrypted file without the variable `database_encrypted` (so is
//! a file of random bytes, in every build: the two cannot be told apart); the file is left
//! untouched. The key is never taken as an argument.
//!
//! Usage errors print to stderr and exit 64; other failures print the error JSON
//! `{"error":{"code":C,"path":P,"detail":D}}` (keys in that order) and exit 1. A database given
//! with `--db` that is not the library's (not SQLite, corrupt, or another application's), or a
//! path that is not a regular file (`/dev/null`, a folder, a pipe), is refused with
//! `not_a_database` and left untouched, with nothing created beside it.
//!
//! Output: a reader that goes away early (`coach … | head -c 100`) ends the output quietly; the
//! command still finishes and exits with its normal code. A stdout that is closed when `coach`
//! starts (`coach … >&-`) is reported on stderr and exits 74 before anything is done (nothing
//! read, opened or applied). Any other failure to write stdout is reported on stderr and exits
//! 74. Error details never quote the input.
//!
//! This file owns the contract, usage, dispatch, flags and stdout/exit handling; the commands are
//! in `commands.rs`, `meals.rs` and `workout.rs`, the demo in `demo.rs`.

use std::collections::HashMap;
use std::io::Write;
use std::process::ExitCode;

use io::Usage;

const USAGE: &str = "usage:
  coach plan transform --schema v2-flat|v1-current [--seed N] [--db PATH]   (model text on stdin)
  coach plan generate --db PATH --date YYYY-MM-DD [--schema VERSION] [--timezone TZ] [--seed N] [--units kg|lbs] [--days-per-week N] [--script FILE|--model GGUF]   (goal and notes on stdin)
  coach plan today --db PATH [--date YYYY-MM-DD]
  coach plan recent --db PATH [--limit N]
  coach plan done --db PATH --id PLAN_ID [--performed FILE] [--performed-at-ms MS]
  coach plan select-schema [--supported v1-current,v2-flat] [--override VERSION]
  coach suggest evaluate   (one exercise context as JSON on stdin; see README)
  coach ops dryrun [--db PATH] [--today YYYY-MM-DD]   (operations JSON on stdin)
  coach ops apply --db PATH [--idempotency-key K] [--today YYYY-MM-DD]   (operations JSON on stdin)
  coach ops undo --db PATH REQUEST_ID
  coach assistant --db PATH [--mode plan|chat|auto] [--today YYYY-MM-DD] [--language TAG] [--script FILE] [--model GGUF] MESSAGE
  coach recipes import --db PATH   (a JSON array of recipes on stdin)
  coach recipes list [--db PATH] [--offset N] [--limit N] [--source user|core|stage]
  coach recipes search [--db PATH] [--meal-type TYPE] [--limit N] QUERY
  coach recipes show [--db PATH] RECIPE_ID
  coach meals plan --db PATH --request FILE [--script FILE] [--model GGUF]
  coach meals shopping-list --db PATH --job JOB_ID [--days YYYY-MM-DD,...] [--all]
  coach meals staples --db PATH [--set NAME,NAME,...]
  coach workout validate   (a workout YAML on stdin)
  coach workout generate --db PATH --request FILE [--script FILE] [--model GGUF] [--analyzer-timeout-ms MS] [--generator-timeout-ms MS]
  coach workout render   (an analyzer plan JSON on stdin)
  coach workout log --db PATH [--performed-at-ms MS]   (a performed workout, YAML or JSON, on stdin)
  coach workout week --db PATH --date YYYY-MM-DD [--days-per-week N]
  coach model check [--context-tokens N] [--available-bytes N] PATH
  coach demo [--db PATH] [--model GGUF]
environment: COACH_DB_KEY=<64 hex digits> opens --db encrypted with that key (feature encryption; set but empty is refused)
             COACH_BUILTIN_RECIPES=off opens without the built-in recipes";

/// Prints one line on stdout; never panics. After a failed write nothing more is printed.
macro_rules! out {
    ($($arg:tt)*) => { $crate::io::emit(format_args!($($arg)*)) };
}

/// Prints one line on stderr, ignoring failures (there is nowhere left to report them).
macro_rules! err_out {
    ($($arg:tt)*) => {{
        let _ = writeln!(std::io::stderr().lock(), $($arg)*);
    }};
}

// After the macros: the commands print with `out!`.
mod commands;
mod demo;
mod io;
mod meals;
mod workout;

fn main() -> ExitCode {
    // Output that would vanish: refused before anything is read, opened or applied, so a retry
    // with stdout open does the work once.
    if io::stdout_closed_at_start() {
        err_out!("coach: stdout is closed: nothing was done");
        return ExitCode::from(74);
    }
    let args: Vec<String> = std::env::args().skip(1).collect();
    let code = match run(&args) {
        Ok(code) => code,
        Err(Usage(msg)) => {
            err_out!("coach: {msg}\n{USAGE}");
            ExitCode::from(64)
        }
    };
    if io::stdout_failed() {
        return ExitCode::from(74);
    }
    code
}

fn run(args: &[String]) -> Result<ExitCode, Usage> {
    let words: Vec<&str> = args.iter().map(String::as_str).collect();
    match words.as_slice() {
        ["plan", "transform", rest @ ..] => {
            commands::plan_transform(&flags(rest, &["--schema", "--seed", "--db"])?)
        }
        ["plan", "generate", rest @ ..] => commands::plan_generate(&flags(
            rest,
            &[
                "--db",
                "--date",
                "--schema",
                "--timezone",
                "--seed",
                "--units",
                "--days-per-week",
                "--script",
                "--model",
            ],
        )?),
        ["plan", "today", rest @ ..] => commands::plan_today(&flags(rest, &["--db", "--date"])?),
        ["plan", "recent", rest @ ..] => commands::plan_recent(&flags(rest, &["--db", "--limit"])?),
        ["plan", "done", rest @ ..] => commands::plan_done(&flags(
            rest,
            &["--db", "--id", "--performed", "--performed-at-ms"],
        )?),
        ["plan", "select-schema", rest @ ..] => {
            commands::select(&flags(rest, &["--supported", "--override"])?)
        }
        ["suggest", "evaluate"] => commands::suggest_evaluate(),
        ["ops", "dryrun", rest @ ..] => commands::ops_dryrun(&flags(rest, &["--db", "--today"])?),
        ["ops", "apply", rest @ ..] => {
            commands::ops_apply(&flags(rest, &["--db", "--idempotency-key", "--today"])?)
        }
        ["ops", "undo", rest @ ..] => {
            let (request_id, rest) = match rest.split_last() {
                Some((r, rest)) if !r.starts_with("--") => (*r, rest),
                _ => return Err(Usage("ops undo needs a request id".into())),
            };
            commands::ops_undo(&flags(rest, &["--db"])?, request_id)
        }
        ["assistant", rest @ ..] => {
            let (message, rest) = match rest.split_last() {
                Some((m, rest)) if !m.starts_with("--") => (*m, rest),
                _ => return Err(Usage("assistant needs a message".into())),
            };
            commands::assistant(
                &flags(
                    rest,
                    &[
                        "--db",
                        "--mode",
                        "--today",
                        "--language",
                        "--script",
                        "--model",
                    ],
                )?,
                message,
            )
        }
        ["recipes", "import", rest @ ..] => meals::recipes_import(&flags(rest, &["--db"])?),
        ["recipes", "list", rest @ ..] => {
            meals::recipes_list(&flags(rest, &["--db", "--offset", "--limit", "--source"])?)
        }
        ["recipes", "search", rest @ ..] => {
            let (query, rest) = last_argument(rest, "recipes search needs a query")?;
            meals::recipes_search(&flags(rest, &["--db", "--meal-type", "--limit"])?, query)
        }
        ["recipes", "show", rest @ ..] => {
            let (id, rest) = last_argument(rest, "recipes show needs a recipe id")?;
            meals::recipes_show(&flags(rest, &["--db"])?, id)
        }
        ["meals", "plan", rest @ ..] => {
            meals::meals_plan(&flags(rest, &["--db", "--request", "--script", "--model"])?)
        }
        ["meals", "shopping-list", rest @ ..] => {
            let all = rest.contains(&"--all");
            let rest: Vec<&str> = rest.iter().copied().filter(|a| *a != "--all").collect();
            meals::shopping_list(&flags(&rest, &["--db", "--job", "--days"])?, all)
        }
        ["meals", "staples", rest @ ..] => meals::staples(&flags(rest, &["--db", "--set"])?),
        ["workout", "validate"] => workout::validate(),
        ["workout", "render"] => workout::render(),
        ["workout", "log", rest @ ..] => {
            workout::log(&flags(rest, &["--db", "--performed-at-ms"])?)
        }
        ["workout", "week", rest @ ..] => {
            workout::week(&flags(rest, &["--db", "--date", "--days-per-week"])?)
        }
        ["workout", "generate", rest @ ..] => workout::generate(&flags(
            rest,
            &[
                "--db",
                "--request",
                "--script",
                "--model",
                "--analyzer-timeout-ms",
                "--generator-timeout-ms",
            ],
        )?),
        ["model", "check", rest @ ..] => {
            let (path, rest) = last_argument(rest, "model check needs a model path")?;
            commands::model_check(
                &flags(rest, &["--context-tokens", "--available-bytes"])?,
                path,
            )
        }
        ["demo", rest @ ..] => demo::demo(&flags(rest, &["--db", "--model"])?),
        ["--help" | "-h" | "help"] => {
            out!("{USAGE}");
            Ok(ExitCode::SUCCESS)
        }
        _ => Err(Usage("unknown command".into())),
    }
}

/// The last argument (one that is not a flag) and the ones before it.
fn last_argument<'a, 'b>(
    args: &'b [&'a str],
    missing: &str,
) -> Result<(&'a str, &'b [&'a str]), Usage> {
    match args.split_last() {
        Some((last, rest)) if !last.starts_with("--") => Ok((*last, rest)),
        _ => Err(Usage(missing.into())),
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
