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

/// Most working sets of a plan: the workout schema's 80 sets less the longest warm-up ramp (4).
pub const MAX_PLAN_WORKING_SETS: u32 = 76;

/// The rules of a plan's own shape, which every rendered document depends on: at most
/// [`MAX_PLAN_WORKING_SETS`] working sets in all, rep ranges low-high with low <= high. Checked
/// for any plan (also one given to `coach workout render`).
pub fn plan_issues(plan: &AnalyzerPlan) -> Vec<Issue> {
    let mut out = Vec::new();
    let sets: u32 = plan.exercise_plan.iter().map(|p| p.working_sets).sum();
    if sets > MAX_PLAN_WORKING_SETS {
        out.push(issue(
            "exercise_plan".into(),
            format!("{sets} working sets: a workout holds at most {MAX_PLAN_WORKING_SETS}"),
        ));
    }
    for (i, p) in plan.exercise_plan.iter().enumerate() {
        if let Some((lo, hi)) = p.targets.rep_range.split_once('-') {
            if lo.parse::<u32>().unwrap_or(0) > hi.parse::<u32>().unwrap_or(0) {
                out.push(issue(
                    format!("exercise_plan[{i}].targets.rep_range"),
                    "low-high with low <= high",
                ));
            }
        }
    }
    out
}

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
    let mut out = plan_issues(plan);
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
        if cap.is_none() && (t.target_load.is_some() || t.load_cap.is_some()) {
            out.push(issue(
                at("targets.target_load"),
                "no recent loaded history: target_load and load_cap must be null (the user picks a load at the target RIR)",
            ));
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
    }
    out.truncate(10);
    out
}

/// A generated workout against its analyzer plan: the frame (id from `expected_id`), the same
/// exercises, working set counts, tiers equal or moved down by time-boxing, warm-ups only for the
/// ramp exercise and exactly the renderer's ramp for it (loadable weights below the working
/// load), RIR at least the plan's after the shift, loads within the caps and loadable with the
/// request's equipment.
pub fn workout_issues(
    w: &Workout,
    plan: &AnalyzerPlan,
    catalog: &[WorkoutExercise],
    inv: &Inventory,
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
    let ramp: Vec<_> = render::planned_warmups(plan, catalog, inv)
        .into_iter()
        .map(|s| (s.target_weight, s.target_reps))
        .collect();
    let written: Vec<_> = w
        .sets
        .iter()
        .filter(|s| s.tier == SetTier::W)
        .map(|s| (s.target_weight, s.target_reps.clone()))
        .collect();
    if written != ramp {
        out.push(issue(
            "sets".into(),
            format!(
                "the first Tier A compound needs its warm-up ramp: {} sets ({})",
                ramp.len(),
                ramp.iter()
                    .map(|(wt, r)| format!(
                        "{} x {}",
                        wt.map_or("light".into(), |x| x.to_string()),
                        serde_json::to_string(r).unwrap_or_default()
                    ))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ));
    }
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
        if let (Some(wt), Some(def)) = (s.target_weight, render::find(catalog, &s.exercise)) {
            if !render::is_loadable(wt, def.load, inv, w.units) {
                out.push(issue(
                    at("target_weight"),
                    "must be loadable with the equipment (plate math)",
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::date::Date;
    use crate::suggest::{ExercisePerformance, PerformedSet, SetType};
    use crate::workout::catalog::builtin;
    use crate::workout::model::{WorkoutMeta, WorkoutRequest};
    use crate::workout::{planner, preanalysis};

    fn request() -> WorkoutRequest {
        WorkoutRequest {
            meta: WorkoutMeta {
                date: "2025-08-17".into(),
                location: "gym".into(),
                units: WeightUnit::Lbs,
                duration_minutes: 60,
                goal: Goal::Strength,
            },
            instructions: String::new(),
            bans: vec![],
            equipment: vec![
                "eq_barbell_olympic".into(),
                "eq_squat_rack".into(),
                "eq_bench_flat".into(),
                "eq_dumbbells_set_5-50".into(),
                "eq_pullup_bar".into(),
            ],
            recent_cardio: vec![],
            upcoming_cardio: String::new(),
            recovery: None,
            history_text: None,
            days_per_week: None,
        }
    }

    /// One logged working set of `exercise` at `weight` x 5, `days_ago` days before the request.
    fn done(exercise: &str, weight: f64, days_ago: i64) -> ExercisePerformance {
        let at = (Date::parse("2025-08-17").unwrap().days_since_epoch() - days_ago) * 86_400_000;
        ExercisePerformance {
            id: format!("{exercise}-{days_ago}"),
            session_id: format!("s{days_ago}"),
            catalog_id: exercise.into(),
            performed_at_ms: at,
            sets: vec![PerformedSet {
                index: 0,
                set_type: SetType::Regular,
                weight,
                reps: 5,
                rest_seconds: None,
                completed: true,
            }],
        }
    }

    /// The pre-analysis over `history`, the deterministic plan, and the inventory.
    fn setup(
        history: &[ExercisePerformance],
    ) -> (WorkoutRequest, PreAnalysis, AnalyzerPlan, Inventory) {
        let r = request();
        let date = preanalysis::validate_request(&r).unwrap();
        let pre = preanalysis::analyze(&r, date, builtin(), history);
        let plan = planner::plan(&r, &pre, builtin());
        let inv = Inventory::new(&r.equipment, r.meta.units);
        (r, pre, plan, inv)
    }

    fn paths(issues: &[Issue]) -> Vec<&str> {
        issues.iter().map(|i| i.path.as_str()).collect()
    }

    #[test]
    fn loads_above_the_cap_are_domain_errors_with_their_path() {
        // Squatted 200 x 5 twice (not thin): the cap is 200 x load_cap_pct (1.0 when rested).
        let history = [
            done("bb-back-squat", 200.0, 20),
            done("bb-back-squat", 200.0, 25),
        ];
        let (r, pre, mut plan, inv) = setup(&history);
        let i = plan
            .exercise_plan
            .iter()
            .position(|p| p.exercise == "bb-back-squat")
            .expect("history first");
        let cap = pre.facts("bb-back-squat").unwrap().load_cap.unwrap();
        assert!(analyzer_issues(&plan, &r, &pre, &inv).is_empty());
        plan.exercise_plan[i].targets.load_cap = Some(cap + 20.0);
        let issues = analyzer_issues(&plan, &r, &pre, &inv);
        assert!(
            paths(&issues).contains(&format!("exercise_plan[{i}].targets.load_cap").as_str()),
            "{issues:?}"
        );
        plan.exercise_plan[i].targets.load_cap = Some(cap);
        plan.exercise_plan[i].targets.target_load = Some(cap + 10.0);
        let issues = analyzer_issues(&plan, &r, &pre, &inv);
        assert_eq!(
            paths(&issues),
            vec![format!("exercise_plan[{i}].targets.target_load")],
            "{issues:?}"
        );
        assert!(issues[0].message.contains(&cap.to_string()));
    }

    #[test]
    fn loads_without_history_must_be_null() {
        let (r, pre, mut plan, inv) = setup(&[]);
        let i = plan
            .exercise_plan
            .iter()
            .position(|p| pre.facts(&p.exercise).is_none())
            .unwrap();
        plan.exercise_plan[i].targets.target_load = Some(500.0);
        plan.exercise_plan[i].targets.load_cap = Some(600.0);
        let issues = analyzer_issues(&plan, &r, &pre, &inv);
        assert_eq!(
            paths(&issues),
            vec![format!("exercise_plan[{i}].targets.target_load")],
            "{issues:?}"
        );
        assert!(issues[0].message.contains("must be null"));
    }

    #[test]
    fn an_exercise_trained_in_the_last_14_days_is_an_anti_repeat_error() {
        // Squat 3 days ago (the last strength day is under 7 days ago): anti-repeat is active.
        let history = [done("bb-back-squat", 200.0, 3)];
        let (r, pre, mut plan, inv) = setup(&history);
        assert!(pre.anti_repeat_active && !pre.is_allowed("bb-back-squat"));
        plan.exercise_plan[0].exercise = "bb-back-squat".into();
        plan.exercise_plan[0].targets.target_load = None;
        plan.exercise_plan[0].targets.load_cap = None;
        let issues = analyzer_issues(&plan, &r, &pre, &inv);
        let at = issues
            .iter()
            .find(|i| i.path == "exercise_plan[0].exercise")
            .expect("{issues:?}");
        assert!(at.message.starts_with("anti-repeat"), "{at:?}");
        // Eight days later the last strength day is 7+ days ago: the same plan passes that rule.
        let history = [done("bb-back-squat", 200.0, 8)];
        let (_, pre, _, _) = setup(&history);
        assert!(!pre.anti_repeat_active);
        assert!(!analyzer_issues(&plan, &r, &pre, &inv)
            .iter()
            .any(|i| i.path == "exercise_plan[0].exercise"));
    }

    #[test]
    fn plans_that_cannot_fit_a_workout_are_refused() {
        let (_, _, mut plan, _) = setup(&[]);
        let p = plan.exercise_plan[0].clone();
        plan.exercise_plan = (0..10).map(|_| p.clone()).collect();
        for p in &mut plan.exercise_plan {
            p.working_sets = 8;
        }
        let issues = plan_issues(&plan);
        assert_eq!(paths(&issues), vec!["exercise_plan"], "80 sets: {issues:?}");
        plan.exercise_plan.truncate(9);
        plan.exercise_plan[8].working_sets = 4;
        assert!(plan_issues(&plan).is_empty(), "76 working sets fit");
    }
}
