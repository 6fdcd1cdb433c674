//! The one progression engine (pure): spec 004's progression conditions and load steps, which the
//! rules (`rules/progression.rs`) turn into suggested changes of a plan, and the next
//! prescription of an exercise from its logged history (spec 001's double progression), which the
//! workout planner and today's plan turn into loads and reps. Both read the same sessions (what
//! `logSession` and `logWorkout` record) through the same conditions, increments and rounding.
//!
//! **Shared with the rules** (spec 004 "Progression Rules"): [`window`] (the last 2 sessions and
//! the fewest reps of their progression sets, [`progression_sets`]), [`load_step`] (a
//! large overshoot, every progression set at upper + 4 in range mode or target + 5 in target
//! mode: 1.5 increments; double progression, at the upper bound or target + 1: one increment),
//! [`raised_load`] (the load plus that many [`weight_increment`]s, rounded with
//! [`round_to_achievable`]) and [`next_reps`] (one rep more, at most the upper bound).
//!
//! **The state** ([`ProgressionState::read`]): an exercise's logged sessions (weights in one
//! unit). A session's working sets are its completed sets that are not warm-ups and have reps; its
//! load is the heaviest of them. Walking the sessions from the oldest
//! ([`ProgressionState::walk`]), the *load* progression continues from is the first session's,
//! then:
//! - a session at that load (within 0.5 lb, 0.25 kg) joins the sessions at the load;
//! - a heavier session, or one after a gap of 30 days or more, starts a new load;
//! - a lighter session starts a new load when the sessions at the load had called for a deload
//!   (step 4 below, judged with the rep range; without one, never); at the sixth lighter
//!   session in a row (two weeks at three sessions a week: the user has settled lower) the load
//!   becomes the heaviest of them; otherwise it is a lighter day (a fatigue cap, a cautious
//!   choice) and the load stands: the next prescription returns to it. The reps of a lighter day
//!   say little: they were asked for at another load, often the bottom of the range after a load
//!   step the cap held back. A few tired days in a row (each capped below the load) therefore do
//!   not lower the load progression continues from.
//!
//! **The next prescription** ([`next_prescription`]) for a rep range, a target RIR and a number of
//! working sets; every set gets the same target reps. In this order:
//! 1. No state (not done in the 90 days read): no load (chosen by feel), the range's bottom.
//! 2. Not done for 30 days or more: the load from the best Epley e1RM of the sessions read, the
//!    load at which the range's top is the most reps (`e1RM / (1 + top / 30)`, the achievable load
//!    not above it), for the top minus the target RIR reps (within the range): the set ends at
//!    the target RIR.
//! 3. The last 2 sessions at the load earn a load step (the rules' condition, range mode): the
//!    load rises by 1 (double progression) or 1.5 (large overshoot) increments, reps back to the
//!    bottom of the range. When no heavier achievable load exists, the load stays and the reps
//!    aim at the top.
//! 4. 3 sessions in a row at the load without progress (none of their working sets at the load
//!    gained a rep on what the sessions at the load before it did, the sets compared best to
//!    worst: a rep that moved from one set to another, or came back after a bad day, is no
//!    progress; a session at the top of the range is not stalled, its reps cannot rise; so at
//!    least 4 sessions at the load): a deload, 10% off rounded to an achievable load (below the
//!    load), reps back to the bottom; the climb starts again.
//! 5. Else the same load, and reps one more than the fewest reps of the last session at the load,
//!    within the range: `10/10/9` gives `10/10/10`.
//!
//! Body weight (no load): the same steps on reps only; a load step keeps the reps at the top.
//! Today's caps (fatigue, thin history) are the caller's, on top of this: see
//! `workout::planner::prescribe`.

use serde::Serialize;

use super::metrics::{
    e1rm, progression_sets, round_at_most, round_to_achievable, step, weight_increment, weight_text,
};
use super::model::{
    CatalogExercise, Equipment, ExercisePerformance, LoadConfig, PerformedSet, RepRange,
    RepRangeMode, SetType, TrainingStyle, WeightUnit,
};

/// Reps above the upper bound that count as a large overshoot in range mode.
pub const RANGE_OVERSHOOT_REPS: u32 = 4;
/// Reps above the target that count as a large overshoot in target mode.
pub const TARGET_OVERSHOOT_REPS: u32 = 5;
/// Reps above the target that warrant double progression in target mode.
pub const TARGET_EXCEED_REPS: u32 = 1;
/// The large overshoot's load step, in normal increments.
pub const OVERSHOOT_MULTIPLIER: f64 = 1.5;
/// Days without the exercise after which its load comes from the e1RM again.
pub const UNPRACTISED_DAYS: i64 = 30;
/// Sessions in a row without progress at one load that call for a deload.
pub const STALLED_SESSIONS: usize = 3;
/// The deloaded load, as a fraction of the load.
pub const DELOAD_FRACTION: f64 = 0.9;
/// A hard set is a working set at this many reps in reserve or fewer.
pub const HARD_SET_MAX_RIR: u32 = 3;
/// Loads this close (in pounds) are the same load.
const SAME_LOAD_LBS: f64 = 0.5;
/// Lighter sessions in a row after which the lighter load is followed.
pub const LIGHTER_SESSIONS_FOLLOWED: usize = 6;

/// Whether a working set at `rir` reps in reserve is a hard set.
pub fn is_hard_set(rir: u32) -> bool {
    rir <= HARD_SET_MAX_RIR
}

/// How much heavier progression makes a load.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LoadStep {
    /// A large overshoot: 1.5 increments.
    Overshoot,
    /// Double progression: one increment.
    Double,
}

impl LoadStep {
    /// The step in normal increments.
    pub fn increments(self) -> f64 {
        match self {
            LoadStep::Overshoot => OVERSHOOT_MULTIPLIER,
            LoadStep::Double => 1.0,
        }
    }
}

/// The last 2 sessions as the load step conditions see them.
#[derive(Debug, Clone, PartialEq)]
pub struct Window<'a> {
    /// The two performances, newest first.
    pub perfs: [&'a ExercisePerformance; 2],
    /// The fewest reps among the progression sets of both.
    pub min_reps: u32,
    /// Union of their progression set indexes, ascending.
    pub set_indexes: Vec<u32>,
}

/// The window of `perfs` (newest first), if each has progression sets under `style`.
pub fn window(perfs: [&ExercisePerformance; 2], style: TrainingStyle) -> Option<Window<'_>> {
    let mut min_reps = u32::MAX;
    let mut set_indexes = Vec::new();
    for perf in perfs {
        let sets = progression_sets(perf, style);
        if sets.is_empty() {
            return None;
        }
        for s in sets {
            min_reps = min_reps.min(s.reps);
            set_indexes.push(s.index);
        }
    }
    set_indexes.sort_unstable();
    set_indexes.dedup();
    Some(Window {
        perfs,
        min_reps,
        set_indexes,
    })
}

/// The large-overshoot rep threshold of a rep goal (upper + 4, target + 5), if it has one.
pub fn overshoot_threshold(range: &RepRange) -> Option<u32> {
    match range.mode {
        RepRangeMode::Range => Some(range.upper.saturating_add(RANGE_OVERSHOOT_REPS)),
        RepRangeMode::Target => Some(range.target.saturating_add(TARGET_OVERSHOOT_REPS)),
        RepRangeMode::NotSet => None,
    }
}

/// The double progression rep threshold of a rep goal (upper, target + 1), if it has one.
pub fn double_threshold(range: &RepRange) -> Option<u32> {
    match range.mode {
        RepRangeMode::Range => Some(range.upper),
        RepRangeMode::Target => Some(range.target.saturating_add(TARGET_EXCEED_REPS)),
        RepRangeMode::NotSet => None,
    }
}

/// The load step `min_reps` (the fewest reps of the window's progression sets) earns under
/// `range`: the large overshoot first, then double progression.
pub fn load_step(range: &RepRange, min_reps: u32) -> Option<LoadStep> {
    if overshoot_threshold(range).is_some_and(|t| min_reps >= t) {
        Some(LoadStep::Overshoot)
    } else if double_threshold(range).is_some_and(|t| min_reps >= t) {
        Some(LoadStep::Double)
    } else {
        None
    }
}

/// `weight` plus `increments` normal increments of `exercise` (at `weight`), rounded to the
/// nearest achievable load for its equipment; and the increment.
pub fn raised_load(
    weight: f64,
    increments: f64,
    exercise: &CatalogExercise,
    load: &LoadConfig,
    unit: WeightUnit,
) -> (f64, f64) {
    let increment = weight_increment(exercise, weight, unit);
    let raised = round_to_achievable(
        weight + increments * increment,
        exercise.equipment,
        load,
        unit,
    );
    (raised, increment)
}

/// The next rep target within a range: one more than `reps`, at most `upper`.
pub fn next_reps(reps: u32, upper: u32) -> u32 {
    reps.saturating_add(1).min(upper)
}

/// A session's completed working sets (not warm-ups, at least one rep), by index.
fn working(perf: &ExercisePerformance) -> Vec<&PerformedSet> {
    let mut sets: Vec<&PerformedSet> = perf
        .sets
        .iter()
        .filter(|s| s.completed && s.set_type != SetType::Warmup && s.reps > 0)
        .collect();
    sets.sort_by_key(|s| s.index);
    sets
}

/// A session's load: its heaviest working set (`None` without one).
pub fn session_load(perf: &ExercisePerformance) -> Option<f64> {
    working(perf)
        .iter()
        .map(|s| s.weight)
        .reduce(f64::max)
        .filter(|w| w.is_finite())
}

/// Whether two loads in `unit` are the same load.
fn same_load(a: f64, b: f64, unit: WeightUnit) -> bool {
    (a - b).abs() <= step(SAME_LOAD_LBS, unit)
}

/// The reps of a session's working sets at `load`, in set order.
fn reps_at(perf: &ExercisePerformance, load: f64, unit: WeightUnit) -> Vec<u32> {
    working(perf)
        .into_iter()
        .filter(|s| same_load(s.weight, load, unit))
        .map(|s| s.reps)
        .collect()
}

/// The reps of a session's working sets at `load`, best first.
fn best_first(perf: &ExercisePerformance, load: f64, unit: WeightUnit) -> Vec<u32> {
    let mut reps = reps_at(perf, load, unit);
    reps.sort_unstable_by(|a, b| b.cmp(a));
    reps
}

/// Whether `session` made progress on the `earlier` sessions at `load`: one of its sets, best to
/// worst, has more reps than the same-ranked set of every earlier session (a set none of them
/// did counts). A rep that only moved from one set to another, or that came back after a bad
/// day, is no progress.
fn progressed(
    session: &ExercisePerformance,
    earlier: &[&ExercisePerformance],
    load: f64,
    unit: WeightUnit,
) -> bool {
    let mut best: Vec<u32> = Vec::new();
    for p in earlier {
        for (i, r) in best_first(p, load, unit).into_iter().enumerate() {
            match best.get_mut(i) {
                Some(b) => *b = (*b).max(r),
                None => best.push(r),
            }
        }
    }
    best_first(session, load, unit)
        .iter()
        .enumerate()
        .any(|(i, r)| best.get(i).is_none_or(|b| r > b))
}

/// Whether a session reached the top of `range`: every progression set at the double
/// progression threshold (the upper bound). Its reps cannot rise further at the load.
fn at_top(perf: &ExercisePerformance, range: &RepRange) -> bool {
    let sets = progression_sets(perf, TrainingStyle::Unknown);
    !sets.is_empty() && double_threshold(range).is_some_and(|t| sets.iter().all(|s| s.reps >= t))
}

/// Whether sessions at `load` (newest first) call for a deload under `range`: each of the newest
/// [`STALLED_SESSIONS`] without progress on the sessions at the load before it, and not at the
/// top of the range.
fn deload_due(
    at_load: &[&ExercisePerformance],
    load: f64,
    range: &RepRange,
    unit: WeightUnit,
) -> bool {
    at_load.len() > STALLED_SESSIONS
        && (0..STALLED_SESSIONS).all(|i| {
            !progressed(at_load[i], &at_load[i + 1..], load, unit) && !at_top(at_load[i], range)
        })
}

/// The load step the newest 2 sessions at a load (newest first) earn under `range`.
fn earned(at_load: &[&ExercisePerformance], range: &RepRange) -> Option<LoadStep> {
    match at_load {
        [a, b, ..] => {
            window([a, b], TrainingStyle::Unknown).and_then(|w| load_step(range, w.min_reps))
        }
        _ => None,
    }
}

/// One logged session of an exercise, as progression reads it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LoggedSession {
    /// Days before today.
    pub days_ago: i64,
    /// Its load: the heaviest working set.
    pub load: f64,
    /// What was done.
    pub performance: ExercisePerformance,
}

/// The per-exercise progression state: the logged sessions that have a working set, oldest
/// first, and what they say (see the module docs).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ProgressionState {
    /// The unit of every weight.
    pub unit: WeightUnit,
    /// Days since the exercise was last done.
    pub days_since: i64,
    /// The sessions, oldest first.
    pub sessions: Vec<LoggedSession>,
    /// The best Epley e1RM of the working sets of every session.
    pub best_e1rm: Option<f64>,
}

/// Where the sessions leave progression ([`ProgressionState::walk`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Walk<'a> {
    /// The load progression continues from (0: body weight).
    pub load: f64,
    /// The sessions at that load since it was taken up, newest first.
    pub at_load: Vec<&'a ExercisePerformance>,
    /// Lighter sessions since the last one at the load (lighter days), newest first.
    pub lighter: Vec<&'a ExercisePerformance>,
}

impl ProgressionState {
    /// The state of one exercise from its sessions as (days ago, performance), in any order,
    /// weights in `unit`; `None` when no session has a working set.
    pub fn read(
        sessions: &[(i64, &ExercisePerformance)],
        unit: WeightUnit,
    ) -> Option<ProgressionState> {
        let mut ordered: Vec<LoggedSession> = sessions
            .iter()
            .filter_map(|(ago, p)| {
                Some(LoggedSession {
                    days_ago: *ago,
                    load: session_load(p)?,
                    performance: (*p).clone(),
                })
            })
            .collect();
        ordered.sort_by_key(|s| (std::cmp::Reverse(s.days_ago), s.performance.performed_at_ms));
        let best_e1rm = ordered
            .iter()
            .flat_map(|s| working(&s.performance))
            .filter_map(|set| e1rm(set.weight, set.reps))
            .reduce(f64::max);
        Some(ProgressionState {
            unit,
            days_since: ordered.last()?.days_ago,
            sessions: ordered,
            best_e1rm,
        })
    }

    /// Walks the sessions from the oldest (the module docs' rules). With the rep `range` the
    /// engine prescribes for, a lighter session right after sessions at the load that called for
    /// a deload (and did not earn a load step) is that deload, and is followed. Without a range
    /// it is a lighter day like the others, so the load is never below the one a range would
    /// give: what today's cap is computed from before the range is known.
    pub fn walk(&self, range: Option<&RepRange>) -> Walk<'_> {
        let unit = self.unit;
        let mut load = 0.0;
        let mut at_load: Vec<&ExercisePerformance> = Vec::new();
        let mut lighter: Vec<&LoggedSession> = Vec::new();
        let mut previous_day: Option<i64> = None;
        for s in &self.sessions {
            let gap = previous_day.is_some_and(|d| d - s.days_ago >= UNPRACTISED_DAYS);
            previous_day = Some(s.days_ago);
            if !at_load.is_empty() && !gap && same_load(s.load, load, unit) {
                at_load.insert(0, &s.performance);
                lighter.clear();
                continue;
            }
            let deload = range.is_some_and(|r| {
                earned(&at_load, r).is_none() && deload_due(&at_load, load, r, unit)
            });
            let follow = at_load.is_empty() || gap || s.load > load || deload;
            if follow {
                let mut run: Vec<&ExercisePerformance> = lighter
                    .iter()
                    .filter(|l| !gap && same_load(l.load, s.load, unit))
                    .map(|l| &l.performance)
                    .collect();
                run.insert(0, &s.performance);
                load = s.load;
                at_load = run;
                lighter.clear();
            } else if lighter.len() + 1 >= LIGHTER_SESSIONS_FOLLOWED {
                // Settled lighter: the heaviest of those sessions, with those at it.
                lighter.insert(0, s);
                load = lighter.iter().map(|l| l.load).fold(0.0, f64::max);
                at_load = lighter
                    .iter()
                    .filter(|l| same_load(l.load, load, unit))
                    .map(|l| &l.performance)
                    .collect();
                lighter.clear();
            } else {
                lighter.insert(0, s);
            }
        }
        Walk {
            load,
            at_load,
            lighter: lighter.into_iter().map(|l| &l.performance).collect(),
        }
    }
}

/// What a prescription is for: a rep range, the target RIR and the number of working sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RepGoal {
    /// The range's bottom.
    pub lower: u32,
    /// The range's top.
    pub upper: u32,
    /// Reps in reserve aimed at.
    pub rir: u32,
    /// Working sets.
    pub sets: u32,
}

/// Which step of the engine decided a prescription (the module docs' list).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Basis {
    /// No history: chosen by feel.
    New,
    /// Not done for 30 days: from the e1RM.
    Unpractised,
    /// A load step (double progression or a large overshoot).
    LoadStep(LoadStep),
    /// A load step was earned but no heavier achievable load exists.
    NoHeavierLoad,
    /// 3 sessions without progress: 10% off.
    Deload,
    /// The same load, reps up within the range.
    Reps,
}

/// The next prescription of an exercise, with its reason.
#[derive(Debug, Clone, PartialEq)]
pub struct NextPrescription {
    /// The working load (the state's unit): `None` for body weight or by feel.
    pub load: Option<f64>,
    /// The load progression continued from (0: none, or body weight): the base of today's caps.
    pub reference: f64,
    /// Target reps of every working set.
    pub reps: u32,
    /// What decided it.
    pub basis: Basis,
    /// Why, in one line for the user (`reps 10/10/9 at 60 kg last time: same load, aim for
    /// 10/10/10`).
    pub reason: String,
}

/// `reps` for each of `sets` sets: `10/10/10`.
fn per_set(reps: u32, sets: u32) -> String {
    vec![reps.to_string(); sets.max(1) as usize].join("/")
}

/// Reps of sets as written: `10/10/9`.
fn reps_text(reps: &[u32]) -> String {
    reps.iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join("/")
}

/// The next prescription of `exercise` for `goal` from its `state` (see the module docs).
/// `exercise.equipment` decides the rounding (`load`: the loads the user can make); body weight
/// and other equipment take no load.
pub fn next_prescription(
    state: Option<&ProgressionState>,
    goal: RepGoal,
    exercise: &CatalogExercise,
    load: &LoadConfig,
) -> NextPrescription {
    let lower = goal.lower.max(1);
    let upper = goal.upper.max(lower);
    let loaded = !matches!(exercise.equipment, Equipment::Bodyweight | Equipment::Other);
    let Some(st) = state else {
        return NextPrescription {
            load: None,
            reference: 0.0,
            reps: lower,
            basis: Basis::New,
            reason: format!(
                "new exercise: pick a load for {lower}-{upper} reps at RIR {}",
                goal.rir
            ),
        };
    };
    let unit = st.unit;
    let u = unit.symbol();
    let w = weight_text;
    if st.days_since >= UNPRACTISED_DAYS {
        let reps = upper.saturating_sub(goal.rir).clamp(lower, upper);
        let from_best = st
            .best_e1rm
            .filter(|_| loaded)
            .map(|e| e / (1.0 + upper as f64 / 30.0))
            .and_then(|x| round_at_most(x, Some(x), exercise.equipment, load, unit))
            .filter(|x| *x > 0.0);
        let days = st.days_since;
        let reason = match from_best {
            Some(x) => format!(
                "not done for {days} days: from your 90-day best, {} {u}, aim for {}",
                w(x),
                per_set(reps, goal.sets)
            ),
            None if loaded => format!(
                "not done for {days} days: pick a load for {} reps at RIR {}",
                per_set(reps, goal.sets),
                goal.rir
            ),
            None => format!(
                "not done for {days} days: aim for {}",
                per_set(reps, goal.sets)
            ),
        };
        return NextPrescription {
            load: from_best,
            reference: st.walk(None).load,
            reps,
            basis: Basis::Unpractised,
            reason,
        };
    }
    let range = RepRange {
        mode: RepRangeMode::Range,
        lower,
        upper,
        target: 0,
    };
    let walk = st.walk(Some(&range));
    let current = (loaded && walk.load > 0.0).then_some(walk.load);
    // 3. A load step, on the rules' condition.
    if let Some(step_up) = earned(&walk.at_load, &range) {
        let raised = current
            .map(|l| raised_load(l, step_up.increments(), exercise, load, unit).0)
            .filter(|r| current.is_some_and(|l| *r > l + 1e-9));
        let why = match step_up {
            LoadStep::Overshoot => {
                format!("{RANGE_OVERSHOOT_REPS} or more reps past the top twice")
            }
            LoadStep::Double => "top of the range twice".to_string(),
        };
        return match (raised, current) {
            (Some(r), _) => NextPrescription {
                load: Some(r),
                reference: walk.load,
                reps: lower,
                basis: Basis::LoadStep(step_up),
                reason: format!("{why}: {} {u}, reps back to {lower}", w(r)),
            },
            (None, Some(l)) => NextPrescription {
                load: Some(l),
                reference: walk.load,
                reps: upper,
                basis: Basis::NoHeavierLoad,
                reason: format!(
                    "{why}, no heavier load to make: stay at {} {u}, aim for {}",
                    w(l),
                    per_set(upper, goal.sets)
                ),
            },
            (None, None) => NextPrescription {
                load: None,
                reference: walk.load,
                reps: upper,
                basis: Basis::NoHeavierLoad,
                reason: format!("{why}: aim for {} again", per_set(upper, goal.sets)),
            },
        };
    }
    // 4. A deload after 3 sessions without progress.
    if deload_due(&walk.at_load, walk.load, &range, unit) {
        let lighter = current.and_then(|l| {
            round_at_most(
                DELOAD_FRACTION * l,
                Some(l - step(SAME_LOAD_LBS, unit)),
                exercise.equipment,
                load,
                unit,
            )
        });
        let reason = match lighter {
            Some(x) => format!(
                "{STALLED_SESSIONS} sessions without progress: deload to {} {u}, reps back to \
                 {lower}",
                w(x)
            ),
            None => format!(
                "{STALLED_SESSIONS} sessions without progress: back to {}",
                per_set(lower, goal.sets)
            ),
        };
        return NextPrescription {
            load: lighter.or(current),
            reference: walk.load,
            reps: lower,
            basis: Basis::Deload,
            reason,
        };
    }
    // 5. The same load, one rep more.
    let last = walk
        .at_load
        .first()
        .map(|p| reps_at(p, walk.load, unit))
        .unwrap_or_default();
    let fewest = last.iter().copied().min().unwrap_or(0);
    let reps = next_reps(fewest, upper).max(lower);
    let when = if walk.lighter.is_empty() {
        "last time"
    } else {
        "before a lighter day"
    };
    let reason = match current {
        Some(l) => format!(
            "reps {} at {} {u} {when}: same load, aim for {}",
            reps_text(&last),
            w(l),
            per_set(reps, goal.sets)
        ),
        None => format!(
            "reps {} {when}: aim for {}",
            reps_text(&last),
            per_set(reps, goal.sets)
        ),
    };
    NextPrescription {
        load: current,
        reference: walk.load,
        reps,
        basis: Basis::Reps,
        reason,
    }
}

#[cfg(test)]
mod tests;
