//! The small choices the model makes in the workout flow (pure). A small on-device model gets
//! small choices (rule 9): code computes everything it can, and the per-request schema holds only
//! what needs judgement, so the prompt and the answer fit a 2048-token context with room.
//!
//! - Analyzer: the model picks the session type and, per exercise, the exercise (an enum of
//!   today's candidates), its tier, its working sets (1 to [`MAX_SETS_PER_EXERCISE`]) and its rep
//!   range (an enum of the goal's ranges). Code adds the rest with [`planner::planned`] and
//!   [`planner::frame`]: equipment key, rest, RIR by goal and tier, loads from the history within
//!   today's cap (none without loaded history), the warm-up, fatigue and time policies. The
//!   result is the spec's analyzer plan, checked like any other.
//! - Generator: the model picks the reps of each working set within its range, a short cue per
//!   exercise and a note to the user; code renders the rest ([`render::render`]): ids, order, the
//!   warm-up ramp, loadable weights, time-boxing. The result is the Workout v1.2 document.

use serde::Deserialize;
use serde_json::{json, Map, Value};

use super::catalog::{Inventory, WorkoutExercise};
use super::model::{AnalyzerPlan, PlanTier, SessionType, TargetReps, Workout, WorkoutRequest};
use super::planner;
use super::preanalysis::PreAnalysis;
use super::render;

/// Most exercises the model is shown (those with history first, then compounds).
pub const MAX_CANDIDATES: usize = 24;
/// Most exercises the model may plan.
pub const MAX_EXERCISES: usize = 8;
/// Most working sets of one planned exercise.
pub const MAX_SETS_PER_EXERCISE: u32 = 6;
/// Characters of the user's instructions and pasted history quoted in the prompt.
const MAX_QUOTED_CHARS: usize = 300;

/// The analyzer's answer.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnalyzerChoice {
    /// The split.
    pub session_type: SessionType,
    /// The exercises in order.
    pub exercises: Vec<ExerciseChoice>,
}

/// One exercise of the analyzer's answer.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExerciseChoice {
    /// A candidate's id.
    pub exercise: String,
    /// A, B or C.
    pub tier: PlanTier,
    /// Working sets.
    pub sets: u32,
    /// One of the goal's rep ranges.
    pub reps: String,
}

/// The exercises shown to the model, at most [`MAX_CANDIDATES`] of the allowed ones: `preferred`
/// first (the deterministic planner's picks, so a sensible plan is always possible), then those
/// with history, then one of each movement pattern before a second of any, compounds first.
pub fn candidates<'a>(
    pre: &PreAnalysis,
    catalog: &'a [WorkoutExercise],
    preferred: &[&str],
) -> Vec<&'a WorkoutExercise> {
    let mut seen: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    let mut out: Vec<(bool, bool, usize, bool, &WorkoutExercise)> = catalog
        .iter()
        .filter(|e| pre.is_allowed(&e.id))
        .map(|e| {
            let rank = seen.entry(e.pattern.as_str()).or_default();
            *rank += 1;
            (
                !preferred.contains(&e.id.as_str()),
                pre.facts(&e.id).is_none(),
                *rank,
                !e.compound,
                e,
            )
        })
        .collect();
    out.sort_by_key(|(a, b, c, d, _)| (*a, *b, *c, *d));
    out.into_iter().take(MAX_CANDIDATES).map(|t| t.4).collect()
}

/// The goal's rep ranges (Tier A, B and C of the deterministic planner's prescription).
pub fn rep_ranges(request: &WorkoutRequest) -> Vec<&'static str> {
    let mut out = Vec::new();
    for tier in [PlanTier::A, PlanTier::B, PlanTier::C] {
        let r = planner::prescription(request.meta.goal, tier).1;
        if !out.contains(&r) {
            out.push(r);
        }
    }
    out
}

/// The analyzer's per-request schema: only the model's choices.
pub fn analyzer_schema(
    request: &WorkoutRequest,
    pre: &PreAnalysis,
    candidates: &[&WorkoutExercise],
) -> Value {
    let ids: Vec<&str> = candidates.iter().map(|e| e.id.as_str()).collect();
    let max_sets = MAX_SETS_PER_EXERCISE
        .min(pre.budget.max_working_sets)
        .max(1);
    let max_items = MAX_EXERCISES
        .min(pre.budget.max_working_sets as usize)
        .max(1);
    json!({
        "type": "object",
        "additionalProperties": false,
        "required": ["exercises", "session_type"],
        "properties": {
            "session_type": { "enum": ["full_body", "upper", "lower", "push", "pull", "legs"] },
            "exercises": {
                "type": "array",
                "minItems": 1,
                "maxItems": max_items,
                "items": {
                    "type": "object",
                    "additionalProperties": false,
                    "required": ["exercise", "reps", "sets", "tier"],
                    "properties": {
                        "exercise": { "enum": ids },
                        "reps": { "enum": rep_ranges(request) },
                        "sets": { "type": "integer", "minimum": 1, "maximum": max_sets },
                        "tier": { "enum": ["A", "B", "C"] }
                    }
                }
            }
        }
    })
}

/// The first `n` characters of `text` on one line.
fn quoted(text: &str, n: usize) -> String {
    let one_line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut out: String = one_line.chars().take(n).collect();
    if one_line.chars().count() > n {
        out.push_str("...");
    }
    out
}

/// The analyzer's user turn: the request's frame and the facts code computed, one line each.
pub fn analyzer_prompt(
    request: &WorkoutRequest,
    pre: &PreAnalysis,
    candidates: &[&WorkoutExercise],
) -> String {
    let m = &request.meta;
    let policy = pre.policy();
    let mut lines = vec![
        format!(
            "Today: {}, {} minutes, goal {}, weights in {}.",
            m.date,
            m.duration_minutes,
            serde_json::to_string(&m.goal)
                .unwrap_or_default()
                .trim_matches('"'),
            serde_json::to_string(&m.units)
                .unwrap_or_default()
                .trim_matches('"'),
        ),
        format!(
            "User notes: {}",
            quoted(&request.instructions, MAX_QUOTED_CHARS)
        ),
    ];
    if let Some(h) = request
        .history_text
        .as_deref()
        .filter(|h| !h.trim().is_empty())
    {
        lines.push(format!(
            "User's history notes: {}",
            quoted(h, MAX_QUOTED_CHARS)
        ));
    }
    if !request.upcoming_cardio.trim().is_empty() {
        lines.push(format!(
            "Upcoming cardio: {}",
            quoted(&request.upcoming_cardio, 120)
        ));
    }
    lines.push(format!(
        "Fatigue: RIR +{}, loads at most {:.0}% of last (code applies both).",
        policy.rir_shift,
        policy.load_cap_pct * 100.0
    ));
    lines.push(format!(
        "Working sets that fit: {} in all.",
        pre.budget.max_working_sets
    ));
    lines.push("Exercises you may use (id: pattern, compound, history):".into());
    for e in candidates {
        let history = match pre.facts(&e.id) {
            Some(f) if f.last_load > 0.0 => {
                format!(
                    "last {}x{} {} days ago",
                    f.last_load, f.last_reps, f.days_ago
                )
            }
            Some(f) => format!("done {} days ago", f.days_ago),
            None => "new".into(),
        };
        lines.push(format!(
            "- {}: {}, {}, {history}",
            e.id,
            e.pattern,
            if e.compound { "compound" } else { "accessory" }
        ));
    }
    let ranges = rep_ranges(request);
    lines.push(format!(
        "Pick 4 to 6 exercises: Tier A main compounds first, then B, then C accessories; sets within the budget; reps from {}.",
        ranges.join(", ")
    ));
    lines.join("\n")
}

/// The analyzer plan an answer stands for, or why it cannot be one (an exercise that is not a
/// candidate; the schema prevents it, a scripted model may not).
pub fn plan_of(
    choice: &AnalyzerChoice,
    request: &WorkoutRequest,
    pre: &PreAnalysis,
    catalog: &[WorkoutExercise],
    inv: &Inventory,
) -> Result<AnalyzerPlan, (String, String)> {
    let goal = request.meta.goal;
    let mut planned = Vec::with_capacity(choice.exercises.len());
    for (i, c) in choice.exercises.iter().enumerate() {
        let Some(e) = render::find(catalog, &c.exercise) else {
            return Err((format!("exercises[{i}].exercise"), "not a candidate".into()));
        };
        let rir = planner::prescription(goal, c.tier).2;
        planned.push(planner::planned(
            e, c.tier, c.sets, &c.reps, rir, goal, pre, inv,
        ));
    }
    Ok(planner::frame(
        request,
        pre,
        choice.session_type,
        planned,
        String::new(),
    ))
}

/// A path of the plan as a path of the answer (`exercise_plan[2].targets.rep_range` ->
/// `exercises[2]...`), so the repair message points at what the model wrote.
pub fn answer_path(plan_path: &str) -> String {
    plan_path.replacen("exercise_plan", "exercises", 1)
}

/// The generator's per-request schema: per planned exercise (by id) the reps of each working set
/// within its range and a cue, and a note to the user.
pub fn generator_schema(plan: &AnalyzerPlan) -> Value {
    let mut props = Map::new();
    let mut required = vec![json!("notes_to_user")];
    for p in &plan.exercise_plan {
        let (lo, hi) = rep_bounds(&p.targets.rep_range);
        props.insert(
            p.exercise.clone(),
            json!({
                "type": "object",
                "additionalProperties": false,
                "required": ["cue", "reps"],
                "properties": {
                    "cue": { "type": "string", "maxLength": 60 },
                    "reps": {
                        "type": "array",
                        "minItems": p.working_sets,
                        "maxItems": p.working_sets,
                        "items": { "type": "integer", "minimum": lo, "maximum": hi }
                    }
                }
            }),
        );
        required.push(json!(p.exercise));
    }
    props.insert(
        "notes_to_user".into(),
        json!({ "type": "string", "maxLength": 160 }),
    );
    json!({
        "type": "object",
        "additionalProperties": false,
        "required": required,
        "properties": props
    })
}

/// The low and high reps of a rep range (`8-12`, `5`, `10/side`).
pub fn rep_bounds(range: &str) -> (u32, u32) {
    let r = range.trim_end_matches("/side");
    match r.split_once('-') {
        Some((lo, hi)) => (lo.parse().unwrap_or(1), hi.parse().unwrap_or(1)),
        None => {
            let n = r.parse().unwrap_or(1);
            (n, n)
        }
    }
}

/// The generator's user turn: the plan as code made it, one line per exercise.
pub fn generator_prompt(
    plan: &AnalyzerPlan,
    catalog: &[WorkoutExercise],
    inv: &Inventory,
) -> String {
    let m = &plan.meta;
    let units = serde_json::to_string(&m.units).unwrap_or_default();
    let mut lines = vec![format!(
        "Workout {}, {} minutes, goal {}.",
        m.date,
        m.duration_minutes,
        serde_json::to_string(&m.goal)
            .unwrap_or_default()
            .trim_matches('"')
    )];
    for p in &plan.exercise_plan {
        let def = render::find(catalog, &p.exercise);
        let load = render::working_load(p, def, inv, m.units).map_or_else(
            || "load by feel".to_string(),
            |w| format!("{w} {}", units.trim_matches('"')),
        );
        lines.push(format!(
            "- {}: tier {}, {} sets x {} reps, {load}, RIR {}",
            p.exercise,
            serde_json::to_string(&p.tier)
                .unwrap_or_default()
                .trim_matches('"'),
            p.working_sets,
            p.targets.rep_range,
            (p.targets.rir + plan.fatigue_policy.rir_shift).min(4)
        ));
    }
    lines.push("For each exercise give the reps of every working set within its range and a short coaching cue; then one short note to the user.".into());
    lines.join("\n")
}

/// The document with the generator's choices applied to the rendered `base`: each working set's
/// reps (per side where the plan says so), the cue on the exercise's first working set, the note
/// after the renderer's notes. `answer` must have passed [`generator_schema`].
pub fn apply_generator(base: Workout, plan: &AnalyzerPlan, answer: &Value) -> Workout {
    let mut w = base;
    for p in &plan.exercise_plan {
        let Some(choice) = answer.get(&p.exercise) else {
            continue;
        };
        let reps: Vec<u32> = choice["reps"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|r| r.as_u64())
                    .map(|r| r as u32)
                    .collect()
            })
            .unwrap_or_default();
        let cue = choice["cue"].as_str().unwrap_or("").trim();
        let per_side = p.targets.rep_range.ends_with("/side");
        let working = w
            .sets
            .iter_mut()
            .filter(|s| s.exercise == p.exercise && s.tier != super::model::SetTier::W);
        for (k, s) in working.enumerate() {
            if let Some(r) = reps.get(k) {
                s.target_reps = if per_side {
                    TargetReps::Text {
                        value: format!("{r}/side"),
                    }
                } else {
                    TargetReps::Count { value: *r }
                };
            }
            if k == 0 && !cue.is_empty() {
                s.notes = cut(
                    &if s.notes.is_empty() {
                        cue.to_string()
                    } else {
                        format!("{} {cue}", s.notes)
                    },
                    300,
                );
            }
        }
    }
    if let Some(note) = answer["notes_to_user"]
        .as_str()
        .map(str::trim)
        .filter(|n| !n.is_empty())
    {
        let text = match w.notes_to_user.take() {
            Some(before) => format!("{before} {note}"),
            None => note.to_string(),
        };
        w.notes_to_user = Some(cut(&text, 1000));
    }
    w
}

/// `text` cut to at most `n` bytes at a character boundary.
fn cut(text: &str, n: usize) -> String {
    let mut end = text.len().min(n);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text[..end].to_string()
}
