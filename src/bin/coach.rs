//! `coach`: the command line over coachcore's public API, for demos, debugging and scripts.
//!
//! The contract (stable; other tools script against it):
//! - `coach plan transform --schema v2-flat|v1-current [--seed N] [--db PATH]`: model text on
//!   stdin. Exit 0 with exactly the `TodayPlan` JSON on stdout, or exit 2 with
//!   `{"error":{"code":C,"path":P,"detail":D}}` on stdout.
//! - `coach plan select-schema [--supported v1-current,v2-flat] [--override V]`: prints
//!   `{"schemaVersion":V,"reason":R}`.
//! - `coach demo [--db PATH]`: a readable walk through the library's main job.
//!
//! Usage errors print to stderr and exit 64; other failures print the error JSON and exit 1.

use std::collections::HashMap;
use std::io::Read;
use std::process::ExitCode;

use coachcore::{Coach, CoachError, SchemaSelection, SchemaVersion, SelectionReason, TodayPlan};

const USAGE: &str = "usage:
  coach plan transform --schema v2-flat|v1-current [--seed N] [--db PATH]   (model text on stdin)
  coach plan select-schema [--supported v1-current,v2-flat] [--override VERSION]
  coach demo [--db PATH]";

/// The sample model output the demo transforms: fenced v2-flat JSON with prose around it and a
/// block given as a template.
const DEMO_OUTPUT: &str = include_str!("../../tests/data/demo-model-output.txt");

struct Usage(String);

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(code) => code,
        Err(Usage(msg)) => {
            eprintln!("coach: {msg}\n{USAGE}");
            ExitCode::from(64)
        }
    }
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
        ["demo", rest @ ..] => demo(&flags(rest, &["--db"])?),
        ["--help" | "-h" | "help"] => {
            println!("{USAGE}");
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

fn open(db: Option<&&str>) -> Result<std::sync::Arc<Coach>, CoachError> {
    match db {
        Some(path) => Coach::open(path.to_string()),
        None => Coach::open_in_memory(),
    }
}

fn print_error(e: &CoachError) -> ExitCode {
    println!("{}", serde_json::json!({ "error": e.to_json() }));
    match e {
        CoachError::InvalidModelOutput { .. } => ExitCode::from(2),
        _ => ExitCode::from(1),
    }
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
            println!("{}", serde_json::to_string(&t.plan).unwrap_or_default());
            ExitCode::SUCCESS
        }
        Err(e) => print_error(&e),
    })
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
    println!("{}", serde_json::to_string(&sel).unwrap_or_default());
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
    println!("coachcore {} demo", coachcore::library_version());
    let coach = Coach::open(path.to_string())?;
    println!("database: {path}");

    for supported in [
        vec![SchemaVersion::V2Flat],
        vec![SchemaVersion::V1Current, SchemaVersion::V2Flat],
    ] {
        let sel = coach.select_plan_schema(supported.clone(), None);
        let names: Vec<_> = supported.iter().map(|v| v.as_str()).collect();
        println!(
            "schema selection, model supports [{}]: {} ({})",
            names.join(", "),
            sel.schema_version.as_str(),
            sel.reason.as_str()
        );
    }

    let selection = coach.select_plan_schema(vec![SchemaVersion::V2Flat], None);
    println!(
        "\nmodel output (v2-flat, fenced, with prose and a block template):\n{}",
        DEMO_OUTPUT.trim_end()
    );
    let t = coach.transform_plan(DEMO_OUTPUT.to_string(), selection, Some(2026))?;
    println!("\ntransformed with ruleset {}:\n", t.ruleset_version);
    print_plan(&t.plan);

    let broken = DEMO_OUTPUT.replace("\"blockIndex\": 2", "\"blockIndex\": 7");
    match coach.transform_plan(broken, selection, None) {
        Err(e) => println!(
            "\nthe same output with a block index of 7 is rejected: {} at {}",
            e.code(),
            e.path().unwrap_or("-")
        ),
        Ok(_) => println!("\nunexpected: the broken output was accepted"),
    }

    println!("\ngeneration metadata in the database:");
    for g in coach.recent_generations(10)? {
        let outcome = match (&g.error_code, &g.error_path) {
            (None, _) => "ok".to_string(),
            (Some(c), p) => format!(
                "rejected: {} at {}",
                c.as_str(),
                p.as_deref().unwrap_or("-")
            ),
        };
        println!(
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

fn print_plan(p: &TodayPlan) {
    let energy = serde_json::to_value(p.energy)
        .ok()
        .and_then(|v| v.as_str().map(String::from))
        .unwrap_or_default();
    let source = serde_json::to_value(p.source)
        .ok()
        .and_then(|v| v.as_str().map(String::from))
        .unwrap_or_default();
    println!(
        "{} - {} min, {} energy, by {}",
        p.focus, p.duration_minutes, energy, source
    );
    if !p.equipment.is_empty() {
        println!("equipment: {}", p.equipment.join(", "));
    }
    println!("{}", p.summary);
    for (i, b) in p.blocks.iter().enumerate() {
        println!(
            "\n{}. {} ({} min, {})",
            i + 1,
            b.title,
            b.duration_minutes,
            b.focus
        );
        for e in &b.exercises {
            match &e.detail {
                Some(d) => println!("   - {}: {} ({d})", e.name, e.prescription),
                None => println!("   - {}: {}", e.name, e.prescription),
            }
        }
    }
}
