//! The small choices the model makes in the workout flow (pure). A small on-device model gets
//! small choices (rule 9): code computes everything it can, and the per-request schema holds only
//! what needs judgement, so the prompt and the answer fit a 2048-token context with room.
//!
//! - Analyzer: code builds today's session skeleton
//!   ([`planner::skeleton`](super::planner::skeleton)): slots with their tier, sets, rep range
//!   and RIR from the goal, the time budget and the fatigue policy, each with up to
//!   [`planner::MAX_SLOT_CANDIDATES`](super::planner::MAX_SLOT_CANDIDATES) exercises allowed
//!   today. The model picks one exercise per slot (each slot's ids an enum in the grammar:
//!   `{"A1": id, "A2": id, ...}`); code fills in the rest with
//!   [`planner::plan_of_slots`](super::planner::plan_of_slots): equipment key, rest, loads from
//!   the history within today's cap (none without loaded history), the warm-up, fatigue and time
//!   policies.
//!   The result is the spec's analyzer plan, checked like any other.
//! - Generator: the model picks the reps of each working set within its range (the rep target of
//!   each set: heavy lifts may drop a rep on later sets); code renders the rest
//!   ([`render::render`]): ids, order, the warm-up ramp, loadable weights, time-boxing, notes.
//!   The result is the Workout v1.2 document. (Free-text cues and notes were asked for before;
//!   SmolLM2-135M wrote "1" or "30" there, so the model no longer writes text the user reads.)

use std::collections::BTreeMap;

use serde_json::{json, Map, Value};

use super::catalog::{Inventory, WorkoutExercise};
use super::document;
use super::model::{AnalyzerPlan, PlanTier, TargetReps, Workout, WorkoutRequest};
use super::planner::Slot;
use super::preanalysis::PreAnalysis;
use super::render;
use crate::llm::structured::Issue;

/// Characters of the user's instructions and pasted history quoted in the prompt.
const MAX_QUOTED_CHARS: usize = 300;

/// The analyzer's per-request schema: one property per slot (`A1`, `A2`, `B1`, ...; all
/// required, in that order), each the enum of the slot's candidate ids.
pub fn analyzer_schema(slots: &[Slot<'_>]) -> Value {
    let mut props = Map::new();
    for s in slots {
        let ids: Vec<&str> = s.candidates.iter().map(|e| e.id.as_str()).collect();
        props.insert(s.key.clone(), json!({ "enum": ids }));
    }
    let required: Vec<&str> = slots.iter().map(|s| s.key.as_str()).collect();
    json!({
        "type": "object",
        "additionalProperties": false,
        "required": required,
        "properties": props
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

/// A tier as the model reads it.
fn tier_name(t: PlanTier) -> &'static str {
    match t {
        PlanTier::A => "Tier A",
        PlanTier::B => "Tier B",
        PlanTier::C => "Tier C",
    }
}

/// The analyzer's user turn: the request's frame, the facts code computed, and one line per slot
/// with its candidates and, for those with history, their last load.
pub fn analyzer_prompt(request: &WorkoutRequest, pre: &PreAnalysis, slots: &[Slot<'_>]) -> String {
    let m = &request.meta;
    let policy = pre.policy();
    let mut lines = vec![
        format!(
            "Today: {}, {} minutes, goal {}.",
            m.date,
            m.duration_minutes,
            serde_json::to_string(&m.goal)
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
    if policy.rir_shift > 0 || policy.load_cap_pct < 1.0 {
        lines.push(format!(
            "Tired today: code keeps {} more rep{} in reserve and loads at most {:.0}% of last.",
            policy.rir_shift,
            if policy.rir_shift == 1 { "" } else { "s" },
            policy.load_cap_pct * 100.0
        ));
    }
    lines.push("Slots (code sets tiers, sets, reps and loads):".into());
    for s in slots {
        let options: Vec<String> = s
            .candidates
            .iter()
            .map(|e| match pre.facts(&e.id) {
                Some(f) if f.last_load > 0.0 => format!(
                    "{} (last {}x{} {} days ago)",
                    e.id, f.last_load, f.last_reps, f.days_ago
                ),
                Some(f) => format!("{} (done {} days ago)", e.id, f.days_ago),
                None => e.id.clone(),
            })
            .collect();
        lines.push(format!(
            "{}: {}, {}, {} set{} x {}; choose from {}",
            s.key,
            tier_name(s.tier),
            s.role,
            s.sets,
            if s.sets == 1 { "" } else { "s" },
            s.reps,
            options.join(", ")
        ));
    }
    lines.push("For each slot pick the exercise that suits the user's notes best.".into());
    lines.join("\n")
}

/// The exercises an answer (slot key to exercise id) picks, one per slot in order, or why it
/// cannot be read so: a slot left out, an exercise that is not one of its slot's candidates, a key
/// that is no slot (the schema prevents all three, a model without the grammar may not).
pub fn picks_of<'a>(
    answer: &BTreeMap<String, String>,
    slots: &[Slot<'a>],
) -> Result<Vec<&'a WorkoutExercise>, (String, String)> {
    let mut picks = Vec::with_capacity(slots.len());
    for s in slots {
        let Some(id) = answer.get(&s.key) else {
            return Err((s.key.clone(), "missing: pick one of its exercises".into()));
        };
        let Some(e) = s.candidates.iter().find(|e| &e.id == id) else {
            let ids: Vec<&str> = s.candidates.iter().map(|e| e.id.as_str()).collect();
            return Err((s.key.clone(), format!("must be one of {}", ids.join(", "))));
        };
        picks.push(*e);
    }
    if let Some(extra) = answer.keys().find(|k| !slots.iter().any(|s| &s.key == *k)) {
        return Err((extra.clone(), "not a slot of today's session".into()));
    }
    Ok(picks)
}

/// The exercises the answer `v` picks: checked against the per-request schema's `validator`
/// ([`analyzer_schema`]), then read with [`picks_of`]; what is wrong as issues for a repair.
pub fn answer_picks<'a>(
    validator: &crate::llm::schema::Validator,
    v: &Value,
    slots: &[Slot<'a>],
) -> Result<Vec<&'a WorkoutExercise>, Vec<Issue>> {
    let issues = document::schema_issues(validator, v);
    if !issues.is_empty() {
        return Err(issues);
    }
    let answer: BTreeMap<String, String> = serde_json::from_value(v.clone()).map_err(|e| {
        vec![Issue {
            path: String::new(),
            message: crate::kernel::error::json::describe(&e),
        }]
    })?;
    picks_of(&answer, slots).map_err(|(path, message)| vec![Issue { path, message }])
}

/// A path of the analyzer plan as the slot of the answer it comes from
/// (`exercise_plan[2].targets.rep_range` -> `B1`), so the repair message points at what the
/// model wrote; paths outside the exercises are kept.
pub fn answer_path(plan_path: &str, slots: &[Slot<'_>]) -> String {
    let index = plan_path
        .strip_prefix("exercise_plan[")
        .and_then(|rest| rest.split(']').next())
        .and_then(|i| i.parse::<usize>().ok());
    match index.and_then(|i| slots.get(i)) {
        Some(s) => s.key.clone(),
        None => plan_path.to_string(),
    }
}

/// The generator's per-request schema: per planned exercise (by id) the reps of each working set
/// within its range.
pub fn generator_schema(plan: &AnalyzerPlan) -> Value {
    let mut props = Map::new();
    let mut required = Vec::new();
    for p in &plan.exercise_plan {
        let (lo, hi) = rep_bounds(&p.targets.rep_range);
        props.insert(
            p.exercise.clone(),
            json!({
                "type": "array",
                "minItems": p.working_sets,
                "maxItems": p.working_sets,
                "items": { "type": "integer", "minimum": lo, "maximum": hi }
            }),
        );
        required.push(json!(p.exercise));
    }
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
        let load = render::working_load(p, def, inv, m.units)
            .map(|w| format!(" at {w} {}", units.trim_matches('"')))
            .unwrap_or_default();
        lines.push(format!(
            "- {}: tier {}, {} set{} x {} reps{load}, RIR {}",
            p.exercise,
            serde_json::to_string(&p.tier)
                .unwrap_or_default()
                .trim_matches('"'),
            p.working_sets,
            if p.working_sets == 1 { "" } else { "s" },
            p.targets.rep_range,
            (p.targets.rir + plan.fatigue_policy.rir_shift).min(4)
        ));
    }
    lines.push("For each exercise give the reps of every working set within its range.".into());
    lines.join("\n")
}

/// The document with the generator's choices applied to the rendered `base`: each working set's
/// reps (per side where the plan says so). `answer` must have passed [`generator_schema`].
pub fn apply_generator(base: Workout, plan: &AnalyzerPlan, answer: &Value) -> Workout {
    let mut w = base;
    for p in &plan.exercise_plan {
        let reps: Vec<u32> = answer[&p.exercise]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|r| r.as_u64())
                    .map(|r| r as u32)
                    .collect()
            })
            .unwrap_or_default();
        let per_side = p.targets.rep_range.ends_with("/side");
        let working = w
            .sets
            .iter_mut()
            .filter(|s| s.exercise == p.exercise && s.tier != super::model::SetTier::W);
        for (s, r) in working.zip(&reps) {
            s.target_reps = if per_side {
                TargetReps::Text {
                    value: format!("{r}/side"),
                }
            } else {
                TargetReps::Count { value: *r }
            };
        }
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workout::catalog::builtin;
    use crate::workout::model::{Goal, WeightUnit, WorkoutMeta};
    use crate::workout::{planner, preanalysis};

    fn setup() -> (WorkoutRequest, PreAnalysis) {
        let r = WorkoutRequest {
            meta: WorkoutMeta {
                date: "2025-08-17".into(),
                location: "gym".into(),
                units: WeightUnit::Lbs,
                duration_minutes: 45,
                goal: Goal::General,
            },
            instructions: "Knee is sore.".into(),
            bans: vec![],
            equipment: vec!["eq_dumbbells_set_5-50".into(), "eq_bench_flat".into()],
            recent_cardio: vec![],
            upcoming_cardio: String::new(),
            recovery: None,
            history_text: None,
            days_per_week: None,
        };
        let date = preanalysis::validate_request(&r).unwrap();
        let pre = preanalysis::analyze(&r, date, builtin(), &[]);
        (r, pre)
    }

    #[test]
    fn the_schema_and_prompt_name_each_slot_and_its_candidates() {
        let (r, pre) = setup();
        let slots = planner::skeleton(&r, &pre, builtin());
        let schema = analyzer_schema(&slots);
        let prompt = analyzer_prompt(&r, &pre, &slots);
        for s in &slots {
            let ids: Vec<&str> = s.candidates.iter().map(|e| e.id.as_str()).collect();
            assert_eq!(schema["properties"][&s.key]["enum"], json!(ids));
            let line = prompt
                .lines()
                .find(|l| l.starts_with(&format!("{}:", s.key)))
                .unwrap();
            assert!(ids.iter().all(|id| line.contains(id)), "{line}");
        }
        assert_eq!(schema["required"].as_array().unwrap().len(), slots.len());
        assert!(prompt.contains("Knee is sore."));
    }

    #[test]
    fn answers_become_plans_or_point_at_the_slot() {
        let (r, pre) = setup();
        let slots = planner::skeleton(&r, &pre, builtin());
        let mut answer: BTreeMap<String, String> = slots
            .iter()
            .map(|s| (s.key.clone(), s.candidates.last().unwrap().id.clone()))
            .collect();
        let plan_of = |answer: &BTreeMap<String, String>| {
            picks_of(answer, &slots).map(|p| planner::plan_of_slots(&r, &pre, &slots, &p))
        };
        let plan = plan_of(&answer).unwrap();
        let chosen: Vec<&str> = plan
            .exercise_plan
            .iter()
            .map(|p| p.exercise.as_str())
            .collect();
        let wanted: Vec<&str> = slots
            .iter()
            .map(|s| s.candidates.last().unwrap().id.as_str())
            .collect();
        assert_eq!(chosen, wanted);
        answer.insert("A1".into(), "bb-back-squat".into());
        let (path, message) = plan_of(&answer).unwrap_err();
        assert_eq!(path, "A1");
        assert!(message.starts_with("must be one of"), "{message}");
        answer.remove("A1");
        assert_eq!(plan_of(&answer).unwrap_err().0, "A1");
        assert_eq!(
            answer_path("exercise_plan[1].targets.rir", &slots),
            slots[1].key
        );
        assert_eq!(answer_path("time_budget", &slots), "time_budget");
    }
}
