//! The deterministic pre-analysis (pure, before any model call): request validation, per-exercise
//! facts from the last 90 days of logged sessions (best set, Epley e1RM, last load, today's load
//! cap), the 14-day anti-repeat, the exercises allowed today, fatigue gating and the time budget.
//! It goes into the analyzer prompt as facts and bounds what the analyzer may answer.
//!
//! Rules:
//! - History: completed performances of the 90 days before the session's date (UTC days), weights
//!   in the request's unit. Warm-up sets do not count for best sets, last loads or e1RMs.
//! - Anti-repeat: when some exercise was done in the last 6 days (the last strength day is under 7
//!   days ago), the exercises done in the last 14 days are not allowed today. If that would leave
//!   fewer than 3 exercises, anti-repeat is relaxed (`antiRepeatActive` false).
//! - Bans: the request's `bans` (exercise ids, inventory keys or capabilities), plus instruction
//!   lines that start with `no `, `avoid ` or `ban ` (after an optional `- ` or `* `), whose rest,
//!   split on commas, names exercise ids, keys or capabilities; plus what the reader of the
//!   instructions ([`super::notes`]) leaves out: exercises refused by name or pattern, those a
//!   spared body part leaves out, equipment kinds refused, and, when the instructions name the
//!   equipment at hand ("just dumbbells", "bodyweight only"), every capability it does not
//!   provide. The rest of the instructions (the focus, exercises asked for) shapes the
//!   skeleton ([`super::planner`]) or goes to the model.
//! - Split: the session type when the instructions name no focus, from the request's
//!   `days_per_week` and the logged sessions (`week.rs`).
//! - Progression state: per exercise, the suggestion engine's [`ProgressionState`] of its sessions
//!   (the load progression continues from, the sessions at it, lighter days, the best e1RM); the
//!   planner's next prescription reads it (`planner::prescribe`).
//! - Load cap: the working load x `load_cap_pct`, where the working load is the load the
//!   progression state continues from (the last session's heaviest working set, unless the last
//!   sessions were lighter days: a run of tired days is each capped from the same load, not one
//!   from the other); with thin history (fewer than 2 sessions of the exercise in 90 days) the
//!   factor is at most 1.0. When rested (no RIR shift) and not thin, the cap is at least that
//!   load plus 1.5 of the exercise's weight increments (the largest step progression takes).
//!   Without history there is no cap and no target load (chosen by feel).

use std::collections::{BTreeMap, HashSet};

use serde::Serialize;

use super::catalog::{Inventory, WorkoutExercise};
use super::fatigue::{self, FatigueAssessment};
use super::model::{FatiguePolicy, TimeBudget, WeightUnit, WorkoutRequest};
use super::timebox;
use super::week::{self, SessionChoice};
use crate::kernel::date::Date;
use crate::kernel::error::{Error, Result};
use crate::suggest::{
    e1rm, weight_increment, CatalogExercise, ProgressionState, OVERSHOOT_MULTIPLIER,
};
use crate::suggest::{ExercisePerformance, SetType};

/// Days of history read.
pub const HISTORY_DAYS: i64 = 90;
/// Days of the anti-repeat window.
pub const ANTI_REPEAT_DAYS: i64 = 14;
/// The anti-repeat applies when the last strength day is fewer than this many days ago.
pub const ANTI_REPEAT_RESET_DAYS: i64 = 7;

/// What the history says about one exercise.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ExerciseFacts {
    /// Exercise (catalog) id.
    pub exercise: String,
    /// Sessions with it in the last 90 days.
    pub sessions: u32,
    /// Days since it was last done.
    pub days_ago: i64,
    /// Heaviest working load of the last session.
    pub last_load: f64,
    /// Reps of that set.
    pub last_reps: u32,
    /// The best set of 90 days by e1RM: weight.
    pub best_weight: f64,
    /// The best set's reps.
    pub best_reps: u32,
    /// Its Epley e1RM (`None` for body-weight sets).
    pub e1rm: Option<f64>,
    /// Most load allowed today (`None` without a loaded working set).
    pub load_cap: Option<f64>,
    /// Fewer than 2 sessions in 90 days.
    pub thin: bool,
    /// What progression continues from (`None` when no session has a working set).
    pub progression: Option<ProgressionState>,
}

/// An exercise left out today, and why.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Exclusion {
    /// Exercise id.
    pub exercise: String,
    /// `banned`, `anti_repeat` (equipment gaps are not listed).
    pub reason: String,
}

/// The deterministic facts of a session.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PreAnalysis {
    /// Fatigue policy and its inputs.
    pub fatigue: FatigueAssessment,
    /// Working sets that fit.
    pub budget: TimeBudget,
    /// Days since the last logged session (`None`: none in 90 days).
    pub last_strength_days_ago: Option<i64>,
    /// Whether the 14-day anti-repeat applies today.
    pub anti_repeat_active: bool,
    /// Exercises done in the last 14 days.
    pub recent: Vec<String>,
    /// Exercises allowed today, in catalog order.
    pub allowed: Vec<String>,
    /// Exercises left out by bans or the anti-repeat.
    pub excluded: Vec<Exclusion>,
    /// Facts per exercise with history, by id.
    pub history: Vec<ExerciseFacts>,
    /// Fewer than 3 sessions in 90 days.
    pub thin_history: bool,
    /// Equipment keys that provide nothing known.
    pub unknown_equipment: Vec<String>,
    /// The request's equipment resolved (with the app's own definitions).
    #[serde(skip)]
    pub inventory: Inventory,
    /// The request's unit: every weight above is in it.
    pub units: WeightUnit,
    /// The split when the instructions name no focus ([`week::next_session`]).
    pub session: SessionChoice,
    /// The instructions name no focus, so the split ([`Self::session`]) chooses the slots.
    pub split: bool,
}

impl PreAnalysis {
    /// The facts of `exercise`, if it has history.
    pub fn facts(&self, exercise: &str) -> Option<&ExerciseFacts> {
        self.history
            .binary_search_by(|f| f.exercise.as_str().cmp(exercise))
            .ok()
            .map(|i| &self.history[i])
    }

    /// Whether `exercise` is allowed today.
    pub fn is_allowed(&self, exercise: &str) -> bool {
        self.allowed.iter().any(|a| a == exercise)
    }

    /// The policy.
    pub fn policy(&self) -> FatiguePolicy {
        self.fatigue.policy
    }
}

fn invalid(path: &str, what: &str) -> Error {
    Error::InvalidArgument(format!("request.{path}: {what}"))
}

fn check_len(path: &str, s: &str, max: usize) -> Result<()> {
    if s.chars().count() > max {
        return Err(invalid(path, &format!("at most {max} characters")));
    }
    Ok(())
}

/// Checks a request's bounds, sizes and counts first, then values. Returns the session date.
pub fn validate_request(r: &WorkoutRequest) -> Result<Date> {
    check_len("instructions", &r.instructions, 20_000)?;
    check_len(
        "historyText",
        r.history_text.as_deref().unwrap_or(""),
        20_000,
    )?;
    check_len("upcomingCardio", &r.upcoming_cardio, 2_000)?;
    for (path, list, max) in [("bans", &r.bans, 100), ("equipment", &r.equipment, 100)] {
        if list.len() > max {
            return Err(invalid(path, &format!("at most {max} entries")));
        }
        for (i, s) in list.iter().enumerate() {
            check_len(&format!("{path}[{i}]"), s, 80)?;
        }
    }
    if r.days_per_week.is_some_and(|d| !(1..=7).contains(&d)) {
        return Err(invalid("daysPerWeek", "1 to 7"));
    }
    if r.recent_cardio.len() > 60 {
        return Err(invalid("recentCardio", "at most 60 entries"));
    }
    let m = &r.meta;
    check_len("meta.location", &m.location, 80)?;
    if m.location.trim().is_empty() {
        return Err(invalid("meta.location", "must not be empty"));
    }
    let date =
        Date::parse(&m.date).ok_or_else(|| invalid("meta.date", "must be a date YYYY-MM-DD"))?;
    if !(10..=180).contains(&m.duration_minutes) {
        return Err(invalid("meta.durationMinutes", "must be 10 to 180"));
    }
    for (i, a) in r.recent_cardio.iter().enumerate() {
        let at = |f: &str| format!("recentCardio[{i}].{f}");
        Date::parse(&a.date).ok_or_else(|| invalid(&at("date"), "must be a date YYYY-MM-DD"))?;
        check_len(&at("type"), &a.activity_type, 40)?;
        if a.duration_minutes > 1440 {
            return Err(invalid(&at("durationMinutes"), "at most 1440"));
        }
        if a.relative_effort.is_some_and(|e| e > 1000) {
            return Err(invalid(&at("relativeEffort"), "at most 1000"));
        }
    }
    if let Some(rec) = &r.recovery {
        for (f, v) in [
            ("sleepScore", rec.sleep_score),
            ("bodyBattery", rec.body_battery),
        ] {
            if v.is_some_and(|v| v > 100) {
                return Err(invalid(&format!("recovery.{f}"), "must be 0 to 100"));
            }
        }
    }
    Ok(date)
}

/// The ban tokens of a request: its `bans` plus the instruction lines described in the module
/// docs, lower-cased.
pub fn bans(r: &WorkoutRequest) -> HashSet<String> {
    let mut out: HashSet<String> = r
        .bans
        .iter()
        .map(|b| b.trim().to_ascii_lowercase())
        .collect();
    for line in r.instructions.lines() {
        let line = line
            .trim()
            .trim_start_matches(['-', '*'])
            .trim()
            .to_ascii_lowercase();
        let rest = ["no ", "avoid ", "ban "]
            .iter()
            .find_map(|p| line.strip_prefix(p));
        if let Some(rest) = rest {
            out.extend(
                rest.split(',')
                    .map(|t| t.trim().trim_end_matches('.').trim().to_string())
                    .filter(|t| !t.is_empty()),
            );
        }
    }
    out
}

/// Whether `e` is banned by a token: its id, a requirement, or the key providing one.
fn is_banned(e: &WorkoutExercise, inv: &Inventory, bans: &HashSet<String>) -> bool {
    bans.contains(&e.id)
        || e.requires.iter().any(|r| {
            bans.contains(r)
                || inv
                    .key_for(r)
                    .is_some_and(|k| bans.contains(&k.to_ascii_lowercase()))
        })
}

/// Today's load cap of `exercise` when progression continues from `reference` (request unit; see
/// the module docs): `reference` x the policy's `load_cap_pct` (at most 1.0 with `thin` history),
/// and rested (no RIR shift) with history that is not thin, at least `reference` plus 1.5 weight
/// increments. `None` without a reference load (body weight, no history). Rounded to hundredths.
pub fn load_cap(
    reference: f64,
    policy: FatiguePolicy,
    thin: bool,
    exercise: &CatalogExercise,
    unit: WeightUnit,
) -> Option<f64> {
    if !(reference > 0.0 && reference.is_finite()) {
        return None;
    }
    let pct = if thin {
        policy.load_cap_pct.min(1.0)
    } else {
        policy.load_cap_pct
    };
    let mut cap = reference * pct;
    if !thin && policy.rir_shift == 0 {
        let step = OVERSHOOT_MULTIPLIER * weight_increment(exercise, reference, unit);
        cap = cap.max(reference + step);
    }
    Some((cap * 100.0).round() / 100.0)
}

/// Facts per exercise from `history` (completed performances, weights in `unit`), the
/// increments of each exercise from `catalog`.
fn exercise_facts(
    today: i64,
    history: &[ExercisePerformance],
    policy: FatiguePolicy,
    catalog: &[WorkoutExercise],
    unit: WeightUnit,
) -> Vec<ExerciseFacts> {
    // Newest first per exercise.
    let mut by_exercise: BTreeMap<&str, Vec<(i64, &ExercisePerformance)>> = BTreeMap::new();
    for p in history {
        let day = Date::from_unix_ms(p.performed_at_ms, 0).days_since_epoch();
        let ago = today - day;
        if (0..=HISTORY_DAYS).contains(&ago) {
            by_exercise.entry(&p.catalog_id).or_default().push((ago, p));
        }
    }
    let mut out = Vec::with_capacity(by_exercise.len());
    for (id, mut perfs) in by_exercise {
        perfs.sort_by_key(|(ago, p)| (*ago, std::cmp::Reverse(p.performed_at_ms)));
        let working = |p: &ExercisePerformance| {
            p.sets
                .iter()
                .filter(|s| s.completed && s.set_type != SetType::Warmup && s.reps > 0)
                .map(|s| (s.weight, s.reps))
                .collect::<Vec<_>>()
        };
        let (days_ago, last) = perfs[0];
        let (last_load, last_reps) =
            working(last)
                .into_iter()
                .fold((0.0, 0), |b, s| if s.0 > b.0 { s } else { b });
        let mut best = (0.0, 0, None::<f64>);
        for (_, p) in &perfs {
            for (w, r) in working(p) {
                let est = e1rm(w, r);
                if est > best.2 || (best.2.is_none() && r > best.1) {
                    best = (w, r, est);
                }
            }
        }
        let sessions = perfs.len() as u32;
        let thin = sessions < 2;
        let progression = ProgressionState::read(&perfs, unit);
        let reference = progression
            .as_ref()
            .map(|p| p.walk(None).load)
            .filter(|l| *l > 0.0)
            .unwrap_or(last_load);
        let exercise = catalog.iter().find(|e| e.id == id).map_or_else(
            || CatalogExercise {
                catalog_id: id.to_string(),
                name: id.to_string(),
                equipment: crate::suggest::Equipment::Other,
                target_muscles: vec![],
            },
            WorkoutExercise::to_catalog,
        );
        let load_cap = load_cap(reference, policy, thin, &exercise, unit);
        out.push(ExerciseFacts {
            exercise: id.to_string(),
            sessions,
            days_ago,
            last_load,
            last_reps,
            best_weight: best.0,
            best_reps: best.1,
            e1rm: best.2.map(|e| (e * 10.0).round() / 10.0),
            load_cap,
            thin,
            progression,
        });
    }
    out
}

/// The pre-analysis of a request over `catalog` (built-in plus the app's exercises) and the
/// logged `history`, its equipment resolved with the built-in mapping. The request must have
/// passed [`validate_request`] (its date is `date`).
pub fn analyze(
    request: &WorkoutRequest,
    date: Date,
    catalog: &[WorkoutExercise],
    history: &[ExercisePerformance],
) -> PreAnalysis {
    let inventory = Inventory::new(&request.equipment, request.meta.units);
    analyze_with(request, date, catalog, inventory, history)
}

/// [`analyze`] with the request's equipment resolved as `inventory` (e.g. with the app's own
/// equipment definitions).
pub fn analyze_with(
    request: &WorkoutRequest,
    date: Date,
    catalog: &[WorkoutExercise],
    inventory: Inventory,
    history: &[ExercisePerformance],
) -> PreAnalysis {
    let today = date.days_since_epoch();
    let fatigue = fatigue::assess(date, &request.recent_cardio, request.recovery.as_ref());
    let facts = exercise_facts(today, history, fatigue.policy, catalog, request.meta.units);
    let last_strength_days_ago = facts.iter().map(|f| f.days_ago).min();
    let recent: Vec<String> = facts
        .iter()
        .filter(|f| f.days_ago <= ANTI_REPEAT_DAYS)
        .map(|f| f.exercise.clone())
        .collect();
    let mut bans = bans(request);
    let reading = super::notes::read(&request.instructions, catalog);
    bans.extend(reading.bans(catalog));
    let mut excluded = Vec::new();
    let available: Vec<&WorkoutExercise> = catalog
        .iter()
        .filter(|e| inventory.has_all(e))
        .filter(|e| {
            let banned = is_banned(e, &inventory, &bans);
            if banned {
                excluded.push(Exclusion {
                    exercise: e.id.clone(),
                    reason: "banned".into(),
                });
            }
            !banned
        })
        .collect();
    let mut anti_repeat_active = last_strength_days_ago.is_some_and(|d| d < ANTI_REPEAT_RESET_DAYS);
    let fresh = available.iter().filter(|e| !recent.contains(&e.id)).count();
    if fresh < 3 {
        anti_repeat_active = false;
    }
    let mut allowed = Vec::with_capacity(available.len());
    for e in available {
        if anti_repeat_active && recent.contains(&e.id) {
            excluded.push(Exclusion {
                exercise: e.id.clone(),
                reason: "anti_repeat".into(),
            });
        } else {
            allowed.push(e.id.clone());
        }
    }
    let sessions: HashSet<&str> = history.iter().map(|p| p.session_id.as_str()).collect();
    PreAnalysis {
        budget: timebox::budget(request.meta.duration_minutes, request.meta.goal),
        fatigue,
        last_strength_days_ago,
        anti_repeat_active,
        recent,
        allowed,
        excluded,
        history: facts,
        thin_history: sessions.len() < 3,
        unknown_equipment: inventory.unknown.clone(),
        inventory,
        units: request.meta.units,
        session: week::next_session(
            request.days_per_week,
            date,
            &week::sessions_of(history, catalog),
        ),
        split: reading.focus == super::focus::Focus::default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workout::catalog::builtin;
    use crate::workout::model::{Goal, WeightUnit, WorkoutMeta};

    fn request(instructions: &str, bans: &[&str], equipment: &[&str]) -> WorkoutRequest {
        WorkoutRequest {
            meta: WorkoutMeta {
                date: "2025-08-17".into(),
                location: "home".into(),
                units: WeightUnit::Lbs,
                duration_minutes: 45,
                goal: Goal::General,
            },
            instructions: instructions.into(),
            bans: bans.iter().map(|s| s.to_string()).collect(),
            equipment: equipment.iter().map(|s| s.to_string()).collect(),
            recent_cardio: vec![],
            upcoming_cardio: String::new(),
            recovery: None,
            history_text: None,
            days_per_week: None,
        }
    }

    #[test]
    fn bans_come_from_the_list_and_simple_instruction_lines() {
        let r = request("Knees fine.\n- No push-up, DIP.\n* avoid bench\nban eq_pullup_bar\nI say no to nothing", &["Pike-Push-Up"], &[]);
        let b = bans(&r);
        for t in ["push-up", "dip", "bench", "eq_pullup_bar", "pike-push-up"] {
            assert!(b.contains(t), "{t}: {b:?}");
        }
        assert!(
            !b.iter()
                .any(|t| t.contains("knees") || t.contains("nothing")),
            "{b:?}"
        );
    }

    #[test]
    fn allowed_exercises_follow_equipment_and_bans() {
        let r = request(
            "",
            &["eq_pullup_bar", "bench", "dead-bug"],
            &["eq_pullup_bar", "eq_dumbbells_set_5-50", "eq_bench_flat"],
        );
        let date = validate_request(&r).unwrap();
        let pre = analyze(&r, date, builtin(), &[]);
        assert!(pre.is_allowed("push-up") && pre.is_allowed("db-curl"));
        for banned in ["pull-up", "db-bench-press", "dead-bug"] {
            assert!(!pre.is_allowed(banned), "{banned}");
            assert!(pre
                .excluded
                .iter()
                .any(|e| e.exercise == banned && e.reason == "banned"));
        }
        assert!(!pre.is_allowed("bb-back-squat"), "no barbell");
        assert!(
            pre.thin_history && pre.last_strength_days_ago.is_none() && !pre.anti_repeat_active
        );
    }

    /// Bench press (chest: 5 lb increments) `days` before 2025-08-17 at `weight` x 8/8/8.
    fn bench(days: i64, weight: f64) -> ExercisePerformance {
        ExercisePerformance {
            id: format!("p{days}"),
            session_id: format!("s{days}"),
            catalog_id: "bb-bench-press".into(),
            performed_at_ms: 1_755_432_000_000 - days * 86_400_000,
            sets: (0..3)
                .map(|i| crate::suggest::PerformedSet {
                    index: i,
                    set_type: SetType::Regular,
                    weight,
                    reps: 8,
                    rest_seconds: None,
                    completed: true,
                })
                .collect(),
        }
    }

    #[test]
    fn load_caps_come_from_the_load_progression_continues_from() {
        let cap = |history: &[ExercisePerformance], sleep: Option<u32>| {
            let mut r = request("", &[], &["eq_barbell_olympic", "eq_bench_flat"]);
            r.recovery = sleep.map(|s| crate::workout::model::Recovery {
                sleep_score: Some(s),
                body_battery: None,
            });
            let date = validate_request(&r).unwrap();
            analyze(&r, date, builtin(), history)
                .facts("bb-bench-press")
                .and_then(|f| f.load_cap)
        };
        let trained = [bench(9, 100.0), bench(7, 100.0), bench(5, 100.0)];
        // Rested: at least 1.5 increments above the load (the step progression may take).
        assert_eq!(cap(&trained, None), Some(107.5));
        // Tired (sleep 55: shift 1, 95%): from the load trained at.
        assert_eq!(cap(&trained, Some(55)), Some(95.0));
        // After a tired day at 95, again from 100, not 95 x 95%.
        let mut after = trained.to_vec();
        after.push(bench(2, 95.0));
        assert_eq!(cap(&after, Some(55)), Some(95.0));
        assert_eq!(cap(&after, None), Some(107.5));
        // Thin history (one session): never above it.
        assert_eq!(cap(&trained[..1], None), Some(100.0));
        assert_eq!(cap(&[], None), None);
    }
}
