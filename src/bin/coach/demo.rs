//! `coach demo`: a readable walk through the library's main jobs (schema selection, a plan
//! transform, workout suggestions, an assistant exchange, the generation and audit records). Its
//! text is for people and may change.
//!
//! With `--model GGUF` (a build with the feature `llama`; `./demo.sh` fetches SmolLM2 and builds
//! it) the AI parts run on that model, loaded as an app loads it (`Coach.model().load`): the
//! assistant's message, the AI suggestions after the rules, and a plan written by the model;
//! each model call prints a line (tokens, time). Without it they replay a scripted model's
//! answers, and the output says so.

use std::collections::HashMap;
use std::process::ExitCode;
use std::sync::Arc;

use coachcore::assistant::service::EventSink;
use coachcore::assistant::{AssistantEvent, AssistantMode, AssistantRequest, AssistantResult};
use coachcore::ffi::{AssistantListener, ModelOptions};
use coachcore::kernel::logging::{LogLevel, LogListener};
use coachcore::llm::scripted::ScriptedModel;
use coachcore::llm::{CancelToken, LanguageModel};
use coachcore::{Coach, CoachError, SchemaVersion, TodayPlan};

use crate::io::{print_error, Usage};

/// The sample model output the demo transforms: fenced v2-flat JSON with prose around it and a
/// block given as a template.
const DEMO_OUTPUT: &str = include_str!("../../../tests/data/demo-model-output.txt");

pub(crate) fn demo(f: &HashMap<String, &str>) -> Result<ExitCode, Usage> {
    let temp = std::env::temp_dir().join(format!("coachcore-demo-{}.db", std::process::id()));
    let path = f
        .get("--db")
        .map_or_else(|| temp.display().to_string(), |p| p.to_string());
    let result = demo_run(&path, f.get("--model").copied());
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

/// Prints the library's log lines that say what the model did: one per model call (tokens,
/// time), the AI suggestion source's pick, the assistant's narrowed question.
struct ModelLines;

impl LogListener for ModelLines {
    fn on_log(&self, _level: LogLevel, target: String, message: String) {
        let shown = match target.as_str() {
            "coachcore::llm" => message.contains(" feature="),
            "coachcore::suggest" => message.starts_with("ai "),
            "coachcore::assistant" => message.contains(" narrowed "),
            _ => false,
        };
        if shown {
            // The request id is for matching log lines; the demo leaves it out.
            let text = message
                .split_once(' ')
                .filter(|(first, _)| first.starts_with("request="))
                .map_or(message.as_str(), |(_, rest)| rest);
            out!("    [model log] {text}");
        }
    }
}

/// Loads `path` as an app does (`Coach.model().load`) and prints what it is.
fn load(coach: &Coach, path: &str) -> Result<(), CoachError> {
    let started = std::time::Instant::now();
    let info = coach.model().load(
        path.to_string(),
        ModelOptions {
            context_tokens: 4096,
            threads: None,
        },
        None,
    )?;
    out!(
        "AI parts: on the model {} ({} parameters, {}), loaded in {} ms from {path}",
        info.name,
        info.parameter_count
            .map_or("?".into(), |n| format!("{:.0}M", n as f64 / 1e6)),
        info.quantization.as_deref().unwrap_or("?"),
        started.elapsed().as_millis()
    );
    coachcore::ffi::logging::set_log_listener(Some(Arc::new(ModelLines)), LogLevel::Info);
    Ok(())
}

fn demo_run(path: &str, model: Option<&str>) -> Result<(), CoachError> {
    out!("coachcore {} demo", coachcore::library_version());
    let coach = crate::io::open_file(path)?;
    out!("database: {path}");
    match model {
        Some(m) => load(&coach, m)?,
        None => out!(
            "AI parts: scripted (replayed model answers, no model loaded; ./demo.sh runs them on \
             SmolLM2-135M-Instruct)"
        ),
    }

    for supported in [
        vec![SchemaVersion::V2Flat],
        vec![SchemaVersion::V1Current, SchemaVersion::V2Flat],
    ] {
        let sel = coachcore::select_plan_schema(supported.clone(), None);
        let names: Vec<_> = supported.iter().map(|v| v.as_str()).collect();
        out!(
            "schema selection, model supports [{}]: {} ({})",
            names.join(", "),
            sel.schema_version.as_str(),
            sel.reason.as_str()
        );
    }

    let selection = coachcore::select_plan_schema(vec![SchemaVersion::V2Flat], None);
    out!(
        "\nmodel output (v2-flat, fenced, with prose and a block template):\n{}",
        DEMO_OUTPUT.trim_end()
    );
    let t = coach
        .workouts()
        .transform_plan(DEMO_OUTPUT.to_string(), selection, Some(2026))?;
    out!("\ntransformed with ruleset {}:\n", t.ruleset_version);
    print_plan(&t.plan);

    let broken = DEMO_OUTPUT.replace("\"blockIndex\": 2", "\"blockIndex\": 7");
    match coach.workouts().transform_plan(broken, selection, None) {
        Err(e) => out!(
            "\nthe same output with a block index of 7 is rejected: {} at {}",
            e.code(),
            e.path().unwrap_or("-")
        ),
        Ok(_) => out!("\nunexpected: the broken output was accepted"),
    }

    if model.is_some() {
        demo_generated_plan(&coach);
    }
    demo_suggestions(&coach)?;
    demo_assistant(&coach, model.is_some())?;
    coachcore::ffi::logging::set_log_listener(None, LogLevel::Warn);

    out!("\ngeneration metadata in the database:");
    for g in coach.workouts().plan_generations(10)? {
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

/// Today's plan from the loaded model (`workouts().todayPlan`: code reads the notes and plans the
/// slots, the model picks an exercise per slot): the plan, made by code alone when the model's
/// answers stayed invalid (the failure is recorded in the generation metadata), or the error.
fn demo_generated_plan(coach: &Coach) {
    use coachcore::kernel::clock::{Clock, SystemClock};
    let today = coachcore::kernel::date::Date::from_unix_ms(SystemClock.now_ms(), 0);
    let notes = "30 minutes, upper body, dumbbells only";
    out!("\ntoday's plan, exercises picked by the model (notes: \"{notes}\"):");
    let request = coachcore::TodayPlanRequest {
        date: today.to_string(),
        notes: notes.into(),
        schema_version: None,
        timezone: None,
        seed: Some(7),
        units: None,
        days_per_week: None,
    };
    match coach.workouts().today_plan(request) {
        Ok(t) => {
            if t.fallback_reason.is_some() {
                out!("  the model's answers were rejected: each slot's first choice instead");
            }
            print_plan(&t.plan)
        }
        Err(e) => out!("  no plan: {} ({})", e.code(), e.path().unwrap_or("-")),
    }
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
        coach.workouts().save_catalog_exercise(CatalogExercise {
            catalog_id: id.into(),
            name: name.into(),
            equipment: Equipment::Barbell,
            target_muscles: vec![muscle],
        })?;
    }
    coach.workouts().save_plan(WorkoutPlan {
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
    let start =
        coachcore::kernel::clock::Clock::now_ms(&coachcore::kernel::clock::SystemClock) - 5 * DAY;
    out!("\nsuggestions: logging 3 workouts of \"Full Body A\" (bench, squat, row; 3 x 8-12 each)");
    for (n, r) in reps.iter().enumerate() {
        let id = format!("demo-{start}-{n}");
        coach.workouts().log_session(SessionLog {
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
    let changes = coach.suggestions().for_session(last.clone())?;
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
        coach.suggestions().accept(first.id.clone())?;
        let deferred = coach.suggestions().defer_pending(last)?;
        out!("accepted the first, deferred {deferred} for review before the next workout");
        if let Some(plan) = coach.workouts().plan("demo-plan".into())? {
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

/// What the demo's scripted model replies to the narrowed question: the library has read the
/// three requests, their days, time and repeat; the model only names the three new items.
fn demo_script() -> Vec<String> {
    vec![r#"{"titles":["Call mom","Long run","Evening stretch"]}"#.to_string()]
}

/// Prints each assistant event as one line.
struct Show;

impl Show {
    fn line(event: &AssistantEvent) -> String {
        match event {
            AssistantEvent::Stage { stage } => format!("stage {stage:?}").to_lowercase(),
            AssistantEvent::Ops {
                valid_count,
                invalid_count,
                ..
            } => format!("ops: {valid_count} valid, {invalid_count} invalid"),
            AssistantEvent::TextDelta { text } => format!("text: {text:?}"),
            AssistantEvent::Summary { text } => format!("summary: {text}"),
            AssistantEvent::Clarify { clarification } => {
                format!("clarify: {}", clarification.question)
            }
            AssistantEvent::Result { .. } => "result".into(),
            AssistantEvent::Heartbeat => "heartbeat".into(),
            AssistantEvent::Done => "done".into(),
        }
    }
}

impl EventSink for Show {
    fn on_event(&self, event: AssistantEvent) {
        out!("  event: {}", Show::line(&event));
    }
}

impl AssistantListener for Show {
    fn on_event(&self, event: AssistantEvent) -> Result<(), coachcore::ffi::ListenerError> {
        // Heartbeats every few hundred ms while the model works: left out of the printout.
        if event != AssistantEvent::Heartbeat {
            out!("  event: {}", Show::line(&event));
        }
        Ok(())
    }
}

/// A message to the assistant (on the loaded model when `real`, else a scripted one): events,
/// proposal, apply, week view, audit.
fn demo_assistant(coach: &Arc<Coach>, real: bool) -> Result<(), CoachError> {
    use coachcore::kernel::clock::{Clock, SystemClock};
    use coachcore::kernel::date::Date;
    let today = Date::from_unix_ms(SystemClock.now_ms(), 0);
    let tomorrow = today.add_days(1);
    let message = "Remind me to call mom tomorrow, add a long run tomorrow at 7:30 and a daily \
                   stretch in the evening";
    let who = if real {
        "the model"
    } else {
        "a scripted model"
    };
    out!("\nassistant (plan mode, {who}; today is {today}):\n  user: {message}");
    let request = AssistantRequest {
        message: message.into(),
        mode: AssistantMode::Plan,
        selection: None,
        today: Some(today.to_string()),
        language: None,
    };
    let result: AssistantResult = if real {
        // As an app does when the assistant's screen opens: its fixed prompt beginning is read
        // into the model's cache, so the message reads only what follows.
        let warmed = coach
            .model()
            .prewarm(coachcore::ffi::AiFeature::Assistant)?;
        out!(
            "  (prewarm: the assistant's fixed prompt beginning, {warmed} tokens, is in the cache)"
        );
        // As an app sends it: in the background, events to a listener, then the result.
        let task = coach.assistant().send(request, Some(Arc::new(Show)));
        task.wait()?
    } else {
        let model: Arc<dyn LanguageModel> = ScriptedModel::texts(demo_script());
        coach
            .assistant()
            .run_message_with(request, Some(model), &Show, &CancelToken::new())?
    };
    out!("proposed operations (nothing applied yet):");
    for op in &result.operations {
        out!("  {}", serde_json::to_string(op).unwrap_or_default());
    }
    let applied = coach.planner().apply(
        result.operations.clone(),
        Some(format!("demo-{}", result.request_id)),
        Some(today.to_string()),
    )?;
    out!(
        "applied {} operations in one transaction (request {})",
        applied.applied.len(),
        applied.request_id
    );
    let week = coach.planner().week(tomorrow.to_string())?;
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
    for a in coach.planner().audit_log(10, None)? {
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
