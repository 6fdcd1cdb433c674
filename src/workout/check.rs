//! Domain checks of model output (pure), as paths and messages for the repair prompt:
//! the analyzer plan against the pre-analysis (the exercise allowed today, the anti-repeat, load
//! caps, the fatigue policy, the request's frame), and a generated workout against its analyzer
//! plan (same exercises and tiers, set counts, loads within caps, the plan's frame).

use std::collections::HashSet;

use super::catalog::{Inventory, WorkoutExercise};
use super::model::{AnalyzerPlan, Goal, PlanTier, SetTier, WeightUnit, Workout, WorkoutRequest};
use super::preanalysis::PreAnalysis;
use super::render;
use crate::llm::structured::Issue;

/// Tolerance on loads (request unit): rounding of a cap to loadable plates.
const LOAD_TOLERANCE: f64 = 0.01;

/// A session's frame, for comparing a document's with the request's.
fn frame<'a>(
    date: &'a str,
    location: &'a str,
    units: WeightUnit,
    minutes: u32,
    goal: Goal,
) -> (&'a str, &'a str, WeightUnit, u32, Goal) {
    (date, location, units, minutes, goal)
}

fn issue(path: String, message: impl Into<String>) -> Issue {
    Issue {
        path,
        message: message.into(),
    }
}

/// The analyzer plan against the request and the pre-analysis.
pub fn analyzer_issues(
    plan: &AnalyzerPlan,
    request: &WorkoutRequest,
    pre: &PreAnalysis,
    inv: &Inventory,
) -> Vec<Issue> {
    let mut out = Vec::new();
    let m = &request.meta;
    let pm = &plan.meta;
    if frame(
        &pm.date,
        &pm.location,
        pm.units,
        pm.duration_minutes,
        pm.goal,
    ) != frame(&m.date, &m.location, m.units, m.duration_minutes, m.goal)
    {
        out.push(issue(
            "meta".into(),
            "must repeat the request's date, location, units, duration_minutes and goal",
        ));
    }
    let policy = pre.policy();
    if plan.fatigue_policy.rir_shift < policy.rir_shift {
        out.push(issue(
            "fatigue_policy.rir_shift".into(),
            format!("must be at least {} (pre-analysis)", policy.rir_shift),
        ));
    }
    if plan.fatigue_policy.load_cap_pct > policy.load_cap_pct + 1e-9 {
        out.push(issue(
            "fatigue_policy.load_cap_pct".into(),
            format!("must be at most {} (pre-analysis)", policy.load_cap_pct),
        ));
    }
    if plan.time_budget.duration_minutes != m.duration_minutes
        || plan.time_budget.max_working_sets > pre.budget.max_working_sets
    {
        out.push(issue(
            "time_budget".into(),
            format!(
                "must be duration_minutes {} and max_working_sets at most {}",
                m.duration_minutes, pre.budget.max_working_sets
            ),
        ));
    }
    if !plan.exercise_plan.iter().any(|p| p.tier == PlanTier::A) {
        out.push(issue(
            "exercise_plan".into(),
            "needs at least one Tier A exercise",
        ));
    }
    let sets: u32 = plan.exercise_plan.iter().map(|p| p.working_sets).sum();
    if sets > 2 * pre.budget.max_working_sets {
        out.push(issue(
            "exercise_plan".into(),
            format!(
                "{sets} working sets: at most {} fit",
                pre.budget.max_working_sets
            ),
        ));
    }
    let mut seen = HashSet::new();
    for (i, p) in plan.exercise_plan.iter().enumerate() {
        let at = |f: &str| format!("exercise_plan[{i}].{f}");
        if !seen.insert(p.exercise.as_str()) {
            out.push(issue(at("exercise"), "each exercise at most once"));
        }
        if pre.recent.contains(&p.exercise) && pre.anti_repeat_active {
            out.push(issue(
                at("exercise"),
                "anti-repeat: trained in the last 14 days; pick another from the allowed list",
            ));
        } else if !pre.is_allowed(&p.exercise) {
            out.push(issue(
                at("exercise"),
                "not allowed today (equipment or bans); pick one from the allowed list",
            ));
        }
        if p.equipment != "bodyweight" && inv.key_for(&p.equipment).is_none() {
            out.push(issue(
                at("equipment"),
                "must be one of the request's equipment keys or bodyweight",
            ));
        }
        let t = &p.targets;
        let cap = pre.facts(&p.exercise).and_then(|f| f.load_cap);
        if let (Some(c), Some(pc)) = (t.load_cap, cap) {
            if c > pc + LOAD_TOLERANCE {
                out.push(issue(
                    at("targets.load_cap"),
                    format!("must be at most {pc} (last load x load_cap_pct)"),
                ));
            }
        }
        if cap.is_some() && t.load_cap.is_none() && t.target_load.is_some() {
            out.push(issue(
                at("targets.load_cap"),
                format!("must be given (at most {})", cap.unwrap_or_default()),
            ));
        }
        if let (Some(l), Some(c)) = (t.target_load, t.load_cap.or(cap)) {
            if l > c + LOAD_TOLERANCE {
                out.push(issue(
                    at("targets.target_load"),
                    format!("must be at most the load cap {c}"),
                ));
            }
        }
        if let Some((lo, hi)) = t.rep_range.trim_end_matches("/side").split_once('-') {
            if lo.parse::<u32>().unwrap_or(0) > hi.parse::<u32>().unwrap_or(0) {
                out.push(issue(at("targets.rep_range"), "low-high with low <= high"));
            }
        }
    }
    out.truncate(10);
    out
}

/// A generated workout against its analyzer plan: the frame (id from `expected_id`), the same
/// exercises, working set counts, tiers equal or moved down by time-boxing, warm-ups only for the
/// ramp exercise, RIR at least the plan's after the shift, loads within the caps.
pub fn workout_issues(
    w: &Workout,
    plan: &AnalyzerPlan,
    catalog: &[WorkoutExercise],
    expected_id: &str,
) -> Vec<Issue> {
    let mut out = Vec::new();
    let m = &plan.meta;
    if w.workout_id != expected_id {
        out.push(issue("workout_id".into(), format!("must be {expected_id}")));
    }
    if frame(&w.date, &w.location, w.units, w.duration_minutes, w.goal)
        != frame(&m.date, &m.location, m.units, m.duration_minutes, m.goal)
    {
        out.push(issue(
            "date".into(),
            "date, location, units, duration_minutes and goal must be the plan's meta",
        ));
    }
    let ramp_at =
        render::ramp_exercise(plan, catalog).map(|i| plan.exercise_plan[i].exercise.as_str());
    for (i, s) in w.sets.iter().enumerate() {
        let at = |f: &str| format!("sets[{i}].{f}");
        let Some(p) = plan.exercise_plan.iter().find(|p| p.exercise == s.exercise) else {
            out.push(issue(at("exercise"), "not in the analyzer plan"));
            continue;
        };
        if s.tier == SetTier::W {
            if ramp_at != Some(s.exercise.as_str()) {
                out.push(issue(
                    at("tier"),
                    "warm-up sets only for the first Tier A compound",
                ));
            }
            continue;
        }
        if s.tier < SetTier::from(p.tier) {
            out.push(issue(
                at("tier"),
                "must be the plan's tier (or lower when time-boxed)",
            ));
        }
        if s.rir < (p.targets.rir + plan.fatigue_policy.rir_shift).min(4) {
            out.push(issue(
                at("rir"),
                "must be the plan's rir plus the fatigue rir_shift",
            ));
        }
        if let (Some(wt), Some(cap)) = (s.target_weight, p.targets.load_cap) {
            if wt > cap + LOAD_TOLERANCE {
                out.push(issue(
                    at("target_weight"),
                    format!("must be at most the load cap {cap}"),
                ));
            }
        }
    }
    for (i, p) in plan.exercise_plan.iter().enumerate() {
        let n = w
            .sets
            .iter()
            .filter(|s| s.exercise == p.exercise && s.tier != SetTier::W)
            .count() as u32;
        if n != p.working_sets {
            out.push(issue(
                format!("exercise_plan[{i}]"),
                format!(
                    "{} needs {} working sets, found {n}",
                    p.exercise, p.working_sets
                ),
            ));
        }
    }
    out.truncate(10);
    out
}
