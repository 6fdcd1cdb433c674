//! The training week (pure): what each muscle group got in the last 7 days, and the session type
//! of the next workout when the user's notes name no focus.
//!
//! Rules:
//! - A working set is a completed set that is not a warm-up, with at least one rep. It is hard
//!   when its reps in reserve are 3 or less: the RIR the logged workout prescribed for it; a set
//!   logged without one (a session logged with `workouts().logSession`) counts as hard.
//! - Muscle groups: an exercise's `muscles` in the workout catalog (built-in and the app's own);
//!   every working set counts once for each muscle it lists. Exercises the workout catalog does
//!   not know count for no muscle.
//! - Regions, for the split: an exercise trains the push muscles (patterns `push_h`, `push_v`,
//!   `chest`; a triceps arm exercise; a shoulder exercise that lists neither `back` nor `traps`),
//!   the pull muscles (`pull_h`, `pull_v`, `back`; a biceps or forearm arm exercise; a shoulder
//!   exercise listing `back` or `traps`) or the legs (`squat`, `hinge`, `lunge`, `legs`,
//!   `calves`); core exercises none. An exercise without a known pattern goes by its first
//!   muscle.
//! - A logged session trained a region when at least a quarter of the working sets of its
//!   compound lifts (of all its exercises, when it has no compound lift in a region) were of it:
//!   legs only is a legs day, push or pull only a push or pull day, push and pull an upper day,
//!   anything else full body; a session of core alone is no split session. (The accessories of a
//!   push day, curls or shrugs, do not make it an upper day.)
//! - The split ([`next_session`]) from the days the user trains per week: none given, 1, 2 or 3:
//!   full body; 4: upper and lower alternate; 5 to 7: push, pull, legs in turn. The next in the
//!   rotation follows the most recent split session of the last [`ROTATION_DAYS`] days (after a
//!   full-body session, or with none, the rotation starts at upper or push). Balance comes
//!   first: when another session of the rotation trains a region (for upper: push and pull on
//!   average) that got at least [`BALANCE_GAP`] fewer working sets in the last 7 days than the
//!   rotation's next, that session is chosen (the least trained, the rotation's order breaking
//!   ties), unless it trains a region of the most recent split session (which recovers; after a
//!   full-body session any may be chosen).
//! - Days are UTC days of the logged time, as in the pre-analysis; the last 7 days are the date
//!   asked for and the 6 before it.

use std::collections::{BTreeMap, HashMap};

use serde::{Deserialize, Serialize};

use super::catalog::WorkoutExercise;
use super::model::SessionType;
use crate::kernel::date::Date;
use crate::suggest::{ExercisePerformance, PerformedSet, SetType};

/// Days looked back for the most recent split session.
pub const ROTATION_DAYS: i64 = 14;
/// Days of the week view and of the balance, the date asked for included.
pub const WEEK_DAYS: i64 = 7;
/// Working sets fewer in the last 7 days that make a region clearly behind.
pub const BALANCE_GAP: f64 = 6.0;
/// Highest RIR of a hard set.
pub const HARD_SET_MAX_RIR: u32 = 3;

/// The muscle groups the week view always lists (the built-in catalog's), pushing muscles first,
/// then pulling, legs and core; other muscles an app's own exercises name follow in
/// alphabetical order.
pub const MUSCLE_GROUPS: &[&str] = &[
    "chest",
    "shoulders",
    "triceps",
    "back",
    "lats",
    "biceps",
    "traps",
    "forearms",
    "quads",
    "hamstrings",
    "glutes",
    "calves",
    "abs",
];

/// The session type of the next workout, and why in one line (the app may show it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase")]
pub struct SessionChoice {
    /// The split of the session.
    pub session_type: SessionType,
    /// Why, in one sentence: "Pull: follows the push session of 2025-08-15 (push, pull and legs
    /// for 5 training days a week)."
    pub reason: String,
}

/// What one muscle group got in the last 7 days.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase")]
pub struct MuscleWeek {
    /// The muscle as the workout catalog names it (`chest`, `lats`, `quads`, ...).
    pub muscle: String,
    /// Working sets of exercises that list it.
    pub sets: u32,
    /// Those at 3 reps in reserve or fewer (a set logged without a prescribed RIR counts as
    /// hard).
    pub hard_sets: u32,
}

/// The last 7 days of training, from [`workouts().week`](crate::Workouts::week).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase")]
pub struct TrainingWeek {
    /// The first day counted, `YYYY-MM-DD` (6 days before `to`).
    pub from: String,
    /// The date asked for, `YYYY-MM-DD`, counted in full.
    pub to: String,
    /// Logged sessions in those days.
    pub sessions: u32,
    /// Every muscle group of [`MUSCLE_GROUPS`] (with zeros) and any other muscle trained, in that
    /// order.
    pub muscles: Vec<MuscleWeek>,
    /// The session type the next workout gets when its notes name no focus.
    pub next_session: SessionChoice,
}

/// A region of the body, for the split.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Region {
    /// Chest, shoulders, triceps.
    Push,
    /// Back, lats, biceps.
    Pull,
    /// Quads, hamstrings, glutes, calves.
    Legs,
}

impl Region {
    fn word(self) -> &'static str {
        match self {
            Region::Push => "push",
            Region::Pull => "pull",
            Region::Legs => "legs",
        }
    }
}

/// The region a muscle belongs to (`None`: core and unknown muscles).
fn muscle_region(m: &str) -> Option<Region> {
    match m {
        "chest" | "shoulders" | "triceps" => Some(Region::Push),
        "back" | "lats" | "biceps" | "traps" | "forearms" => Some(Region::Pull),
        "quads" | "hamstrings" | "glutes" | "calves" => Some(Region::Legs),
        _ => None,
    }
}

/// The region `e` trains (see the module docs).
pub fn region(e: &WorkoutExercise) -> Option<Region> {
    let lists = |m: &str| e.muscles.iter().any(|x| x == m);
    let first = || e.muscles.first().and_then(|m| muscle_region(m));
    match e.pattern.as_str() {
        "push_h" | "push_v" | "chest" => Some(Region::Push),
        "pull_h" | "pull_v" | "back" => Some(Region::Pull),
        "squat" | "hinge" | "lunge" | "legs" | "calves" => Some(Region::Legs),
        "core" => None,
        "shoulders" if lists("back") || lists("traps") => Some(Region::Pull),
        "shoulders" => Some(Region::Push),
        _ => first(),
    }
}

/// Whether `s` is a working set.
pub fn is_working(s: &PerformedSet) -> bool {
    s.completed && s.set_type != SetType::Warmup && s.reps > 0
}

/// One logged session as the split reads it: its day and its working sets per region.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrainedSession {
    /// Its UTC day, in days since 1970-01-01.
    pub day: i64,
    /// When it was performed (ms since the epoch).
    pub performed_at_ms: i64,
    /// Working sets of push, pull and legs exercises.
    pub sets: [u32; 3],
    /// Those of compound exercises.
    pub compound_sets: [u32; 3],
}

impl TrainedSession {
    /// The split this session trained (see the module docs); `None` without regional sets.
    pub fn split(&self) -> Option<SessionType> {
        let sets = if self.compound_sets.iter().sum::<u32>() > 0 {
            self.compound_sets
        } else {
            self.sets
        };
        let total: u32 = sets.iter().sum();
        if total == 0 {
            return None;
        }
        let trained = |r: Region| sets[r as usize] > 0 && sets[r as usize] * 4 >= total;
        Some(
            match (
                trained(Region::Push),
                trained(Region::Pull),
                trained(Region::Legs),
            ) {
                (false, false, true) => SessionType::Legs,
                (true, false, false) => SessionType::Push,
                (false, true, false) => SessionType::Pull,
                (true, true, false) => SessionType::Upper,
                _ => SessionType::FullBody,
            },
        )
    }
}

/// The logged sessions of `history` (grouped by session id), newest first, each with its working
/// sets per region of the exercises `catalog` knows.
pub fn sessions_of(
    history: &[ExercisePerformance],
    catalog: &[WorkoutExercise],
) -> Vec<TrainedSession> {
    let regions: HashMap<&str, (Option<Region>, bool)> = catalog
        .iter()
        .map(|e| (e.id.as_str(), (region(e), e.compound)))
        .collect();
    let mut by_session: BTreeMap<&str, TrainedSession> = BTreeMap::new();
    for p in history {
        let s = by_session
            .entry(p.session_id.as_str())
            .or_insert_with(|| TrainedSession {
                day: Date::from_unix_ms(p.performed_at_ms, 0).days_since_epoch(),
                performed_at_ms: p.performed_at_ms,
                sets: [0; 3],
                compound_sets: [0; 3],
            });
        if let Some((Some(r), compound)) = regions.get(p.catalog_id.as_str()).copied() {
            let n = p.sets.iter().filter(|s| is_working(s)).count() as u32;
            s.sets[r as usize] += n;
            if compound {
                s.compound_sets[r as usize] += n;
            }
        }
    }
    let mut out: Vec<TrainedSession> = by_session.into_values().collect();
    out.sort_by_key(|s| std::cmp::Reverse(s.performed_at_ms));
    out
}

/// A session type as the reasons write it.
fn name(t: SessionType) -> &'static str {
    match t {
        SessionType::FullBody => "full body",
        SessionType::Upper => "upper body",
        SessionType::Lower => "lower body",
        SessionType::Push => "push",
        SessionType::Pull => "pull",
        SessionType::Legs => "legs",
    }
}

/// `name` with a capital first letter.
fn title(t: SessionType) -> String {
    let n = name(t);
    n[..1].to_ascii_uppercase() + &n[1..]
}

/// The regions a session type of a rotation trains.
fn regions_of(t: SessionType) -> &'static [Region] {
    match t {
        SessionType::Upper => &[Region::Push, Region::Pull],
        SessionType::Lower | SessionType::Legs => &[Region::Legs],
        SessionType::Push => &[Region::Push],
        SessionType::Pull => &[Region::Pull],
        SessionType::FullBody => &[Region::Push, Region::Pull, Region::Legs],
    }
}

/// The session type of the next workout for a user who trains `days_per_week` days (1 to 7;
/// `None`: not known), on `today`, after the logged `sessions` ([`sessions_of`], any order);
/// see the module docs.
pub fn next_session(
    days_per_week: Option<u32>,
    today: Date,
    sessions: &[TrainedSession],
) -> SessionChoice {
    let today = today.days_since_epoch();
    let cycle: &[SessionType] = match days_per_week {
        None => {
            return SessionChoice {
                session_type: SessionType::FullBody,
                reason: "Full body: no training days per week given.".into(),
            }
        }
        Some(d @ 0..=3) => {
            return SessionChoice {
                session_type: SessionType::FullBody,
                reason: format!("Full body: {d} training days a week."),
            }
        }
        Some(4) => &[SessionType::Upper, SessionType::Lower],
        Some(_) => &[SessionType::Push, SessionType::Pull, SessionType::Legs],
    };
    let days = days_per_week.unwrap_or_default();
    let rotation = if cycle.len() == 2 {
        "upper and lower"
    } else {
        "push, pull and legs"
    };
    let past = |s: &&TrainedSession, within: i64| (0..within).contains(&(today - s.day));
    let mut recent: Vec<&TrainedSession> = sessions
        .iter()
        .filter(|s| past(s, ROTATION_DAYS + 1))
        .collect();
    recent.sort_by_key(|s| std::cmp::Reverse(s.performed_at_ms));
    let last = recent.iter().find_map(|s| Some((*s, s.split()?)));
    // The rotation's next: in the cycle's terms, after the last split session.
    let position = |t: SessionType| cycle.iter().position(|c| *c == t);
    let follows = last.and_then(|(s, t)| {
        let as_cycle = match (cycle.len(), t) {
            (_, SessionType::FullBody) => None,
            (2, SessionType::Push | SessionType::Pull) => Some(SessionType::Upper),
            (2, SessionType::Legs) => Some(SessionType::Lower),
            (3, SessionType::Upper) => Some(SessionType::Pull),
            (3, SessionType::Lower) => Some(SessionType::Legs),
            (_, t) => Some(t),
        }?;
        let next = cycle[(position(as_cycle)? + 1) % cycle.len()];
        Some((s, t, next))
    });
    let candidate = follows.map_or(cycle[0], |f| f.2);
    // The balance over the last 7 days.
    let mut week = [0u32; 3];
    for s in sessions.iter().filter(|s| past(s, WEEK_DAYS)) {
        for (w, n) in week.iter_mut().zip(s.sets) {
            *w += n;
        }
    }
    let load = |t: SessionType| {
        let rs = regions_of(t);
        rs.iter().map(|r| week[*r as usize] as f64).sum::<f64>() / rs.len() as f64
    };
    // Never again what the last split session trained (it recovers); after full body, anything.
    let rested = |t: SessionType| match last {
        Some((_, SessionType::FullBody)) | None => true,
        Some((_, l)) => !regions_of(t).iter().any(|r| regions_of(l).contains(r)),
    };
    let start = position(candidate).unwrap_or(0);
    let least = (0..cycle.len())
        .map(|i| cycle[(start + i) % cycle.len()])
        .filter(|t| rested(*t))
        .fold(
            candidate,
            |best, t| if load(t) < load(best) { t } else { best },
        );
    let figures = |t: SessionType| {
        regions_of(t)
            .iter()
            .map(|r| format!("{} {}", r.word(), week[*r as usize]))
            .collect::<Vec<_>>()
            .join(", ")
    };
    if load(candidate) - load(least) >= BALANCE_GAP {
        return SessionChoice {
            session_type: least,
            reason: format!(
                "{}: {} working sets in the last 7 days against {} ({} was next in the \
                 rotation).",
                title(least),
                figures(least),
                figures(candidate),
                name(candidate)
            ),
        };
    }
    let reason = match (follows, last) {
        (Some((s, t, _)), _) => format!(
            "{}: follows the {} session of {} ({rotation} for {days} training days a week).",
            title(candidate),
            name(t),
            Date::from_unix_ms(s.performed_at_ms, 0),
        ),
        (None, Some((s, _))) => format!(
            "{}: starts the {rotation} rotation after the full-body session of {} ({days} \
             training days a week).",
            title(candidate),
            Date::from_unix_ms(s.performed_at_ms, 0),
        ),
        (None, None) => format!(
            "{}: starts the {rotation} rotation ({days} training days a week; no push, pull or \
             legs session in the last {ROTATION_DAYS} days).",
            title(candidate),
        ),
    };
    SessionChoice {
        session_type: candidate,
        reason,
    }
}

/// What each muscle group got on `today` and the 6 days before (see the module docs): `history`
/// the logged performances (any days; others are left out), `rir` the prescribed RIR of the
/// logged sets by performance id, in set order (a set without one counts as hard).
pub fn muscle_week(
    today: Date,
    history: &[ExercisePerformance],
    catalog: &[WorkoutExercise],
    rir: &HashMap<String, Vec<u32>>,
) -> Vec<MuscleWeek> {
    let today = today.days_since_epoch();
    let muscles: HashMap<&str, &[String]> = catalog
        .iter()
        .map(|e| (e.id.as_str(), e.muscles.as_slice()))
        .collect();
    let mut out: Vec<MuscleWeek> = MUSCLE_GROUPS
        .iter()
        .map(|m| MuscleWeek {
            muscle: m.to_string(),
            sets: 0,
            hard_sets: 0,
        })
        .collect();
    let mut others: BTreeMap<String, MuscleWeek> = BTreeMap::new();
    for p in history {
        let day = Date::from_unix_ms(p.performed_at_ms, 0).days_since_epoch();
        if !(0..WEEK_DAYS).contains(&(today - day)) {
            continue;
        }
        let Some(listed) = muscles.get(p.catalog_id.as_str()) else {
            continue;
        };
        let rirs = rir.get(&p.id);
        for s in p.sets.iter().filter(|s| is_working(s)) {
            let hard = rirs
                .and_then(|r| r.get(s.index as usize))
                .is_none_or(|r| *r <= HARD_SET_MAX_RIR);
            for m in listed.iter() {
                let entry = match out.iter_mut().find(|w| &w.muscle == m) {
                    Some(w) => w,
                    None => others.entry(m.clone()).or_insert_with(|| MuscleWeek {
                        muscle: m.clone(),
                        sets: 0,
                        hard_sets: 0,
                    }),
                };
                entry.sets += 1;
                entry.hard_sets += u32::from(hard);
            }
        }
    }
    out.extend(others.into_values());
    out
}

/// The week view on `today` for a user who trains `days_per_week` days: [`muscle_week`], the
/// sessions of the last 7 days and [`next_session`].
pub fn training_week(
    today: Date,
    days_per_week: Option<u32>,
    history: &[ExercisePerformance],
    catalog: &[WorkoutExercise],
    rir: &HashMap<String, Vec<u32>>,
) -> TrainingWeek {
    let sessions = sessions_of(history, catalog);
    let t = today.days_since_epoch();
    TrainingWeek {
        from: today.add_days(1 - WEEK_DAYS).to_string(),
        to: today.to_string(),
        sessions: sessions
            .iter()
            .filter(|s| (0..WEEK_DAYS).contains(&(t - s.day)))
            .count() as u32,
        muscles: muscle_week(today, history, catalog, rir),
        next_session: next_session(days_per_week, today, &sessions),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workout::catalog::builtin;

    const DAY_MS: i64 = 86_400_000;

    fn today() -> Date {
        Date::parse("2025-08-17").unwrap()
    }

    /// A session `days_ago` days before [`today`] with `push`, `pull` and `legs` working sets.
    fn session(days_ago: i64, push: u32, pull: u32, legs: u32) -> TrainedSession {
        let day = today().days_since_epoch() - days_ago;
        TrainedSession {
            day,
            performed_at_ms: day * DAY_MS + 17 * 3_600_000,
            sets: [push, pull, legs],
            compound_sets: [push, pull, legs],
        }
    }

    fn next(days: Option<u32>, sessions: &[TrainedSession]) -> SessionType {
        next_session(days, today(), sessions).session_type
    }

    #[test]
    fn the_days_per_week_choose_the_split() {
        use SessionType::*;
        assert_eq!(next(None, &[]), FullBody);
        let upper_yesterday = [session(1, 9, 9, 0)];
        for d in 1..=3 {
            assert_eq!(next(Some(d), &[]), FullBody, "{d} days");
            assert_eq!(next(Some(d), &upper_yesterday), FullBody, "{d} days");
        }
        assert_eq!(next(None, &upper_yesterday), FullBody);
        assert_eq!(next(Some(4), &[]), Upper);
        for d in 5..=7 {
            assert_eq!(next(Some(d), &[]), Push, "{d} days");
        }
        let c = next_session(Some(3), today(), &[]);
        assert_eq!(c.reason, "Full body: 3 training days a week.");
        let c = next_session(Some(5), today(), &[]);
        assert_eq!(
            c.reason,
            "Push: starts the push, pull and legs rotation (5 training days a week; no push, \
             pull or legs session in the last 14 days)."
        );
    }

    #[test]
    fn the_rotation_follows_the_most_recent_split_session() {
        use SessionType::*;
        // What the last session trained decides: upper and lower (4 days), push, pull, legs (6).
        for (days, last, expected) in [
            (4, session(1, 9, 9, 0), Lower),
            (4, session(1, 12, 0, 0), Lower),
            (4, session(1, 0, 12, 0), Lower),
            (4, session(1, 0, 0, 12), Upper),
            (4, session(1, 1, 0, 12), Upper),
            (6, session(1, 12, 0, 0), Pull),
            (6, session(1, 0, 12, 0), Legs),
            (6, session(1, 0, 0, 12), Push),
            (6, session(1, 9, 9, 0), Legs),
        ] {
            let got = next(Some(days), std::slice::from_ref(&last));
            assert_eq!(got, expected, "{days} days after {last:?}");
        }
        // The most recent counts, in any order; a core-only session is skipped.
        let history = [
            session(3, 12, 0, 0),
            session(2, 0, 12, 0),
            session(1, 0, 0, 0),
        ];
        assert_eq!(next(Some(5), &history), Legs);
        let c = next_session(Some(5), today(), &history);
        assert_eq!(
            c.reason,
            "Legs: follows the pull session of 2025-08-15 (push, pull and legs for 5 training \
             days a week)."
        );
        // After a full-body session the rotation starts again.
        let c = next_session(Some(4), today(), &[session(2, 6, 6, 6)]);
        assert_eq!(
            (c.session_type, c.reason.as_str()),
            (
                Upper,
                "Upper body: starts the upper and lower rotation after the full-body session of \
                 2025-08-15 (4 training days a week)."
            )
        );
        // Sessions older than 14 days, or after today, do not lead the rotation.
        assert_eq!(next(Some(6), &[session(15, 12, 0, 0)]), Push);
        assert_eq!(next(Some(6), &[session(14, 12, 0, 0)]), Pull);
        assert_eq!(next(Some(6), &[session(-1, 12, 0, 0)]), Push);
    }

    #[test]
    fn a_region_clearly_behind_over_7_days_comes_first() {
        use SessionType::*;
        // Push yesterday, pull 3 days ago: legs got nothing, pull 12 and push 12.
        let history = [session(1, 12, 0, 0), session(3, 0, 12, 0)];
        let c = next_session(Some(6), today(), &history);
        assert_eq!(
            (c.session_type, c.reason.as_str()),
            (
                Legs,
                "Legs: legs 0 working sets in the last 7 days against pull 12 (pull was next in \
                 the rotation)."
            )
        );
        // 6 fewer is clearly behind; 5 is not.
        let history = [session(1, 12, 0, 0), session(3, 0, 6, 0)];
        assert_eq!(next(Some(6), &history), Legs);
        let history = [session(1, 12, 0, 0), session(3, 0, 5, 0)];
        assert_eq!(next(Some(6), &history), Pull);
        // Outside the 7 days the sets do not weigh.
        let history = [session(1, 12, 0, 0), session(7, 0, 12, 0)];
        assert_eq!(next(Some(6), &history), Pull);
        // What the last split session trained recovers, however far behind: push stays out
        // after yesterday's push (push 2 against pull 12, legs 12).
        let history = [
            session(1, 2, 0, 0),
            session(2, 0, 12, 0),
            session(3, 0, 0, 12),
        ];
        assert_eq!(next(Some(6), &history), Pull);
        // Upper and lower alternate (upper 17 on average against legs 4: the legs recover).
        let history = [
            session(1, 0, 0, 4),
            session(2, 10, 10, 0),
            session(4, 8, 6, 0),
        ];
        assert_eq!(next(Some(4), &history), Upper);
        // After a full-body session the rotation starts at upper unless the legs are behind:
        // push 16, pull 16 (16 on average) against legs 6.
        let history = [session(1, 6, 6, 6), session(3, 10, 10, 0)];
        let c = next_session(Some(4), today(), &history);
        assert_eq!(
            (c.session_type, c.reason.as_str()),
            (
                Lower,
                "Lower body: legs 6 working sets in the last 7 days against push 16, pull 16 \
                 (upper body was next in the rotation)."
            )
        );
        let history = [session(1, 6, 6, 6), session(3, 4, 4, 0)];
        assert_eq!(
            next(Some(4), &history),
            Upper,
            "10 against 6: not clearly behind"
        );
        // Ties among the rest keep the rotation's order: after legs, push before pull.
        let history = [session(1, 0, 0, 12), session(2, 0, 0, 12)];
        assert_eq!(next(Some(5), &history), Push);
    }

    #[test]
    fn a_session_is_read_from_its_compound_lifts() {
        use SessionType::*;
        let of = |sets: [u32; 3], compound_sets: [u32; 3]| {
            TrainedSession {
                day: 0,
                performed_at_ms: 0,
                sets,
                compound_sets,
            }
            .split()
        };
        // Presses with curls and shrugs after them: a push day.
        assert_eq!(of([9, 6, 0], [9, 0, 0]), Some(Push));
        assert_eq!(of([9, 6, 0], [9, 6, 0]), Some(Upper));
        // Arms only (no compound lift): all sets count.
        assert_eq!(of([6, 6, 0], [0, 0, 0]), Some(Upper));
        assert_eq!(of([4, 4, 4], [4, 4, 4]), Some(FullBody));
        assert_eq!(of([6, 0, 6], [6, 0, 6]), Some(FullBody));
        // A quarter makes a region trained: 3 of 12 is, 3 of 13 is not.
        assert_eq!(of([3, 0, 9], [3, 0, 9]), Some(FullBody));
        assert_eq!(of([3, 0, 10], [3, 0, 10]), Some(Legs));
        assert_eq!(of([0, 0, 0], [0, 0, 0]), None);
    }

    #[test]
    fn exercises_train_their_region() {
        let region_of = |id: &str| region(builtin().iter().find(|e| e.id == id).unwrap());
        for (id, r) in [
            ("bb-bench-press", Some(Region::Push)),
            ("bb-overhead-press", Some(Region::Push)),
            ("cable-fly", Some(Region::Push)),
            ("db-lateral-raise", Some(Region::Push)),
            ("cable-triceps-pushdown", Some(Region::Push)),
            ("bb-bent-over-row", Some(Region::Pull)),
            ("pull-up", Some(Region::Pull)),
            ("cable-straight-arm-pulldown", Some(Region::Pull)),
            ("db-rear-delt-fly", Some(Region::Pull)),
            ("bb-shrug", Some(Region::Pull)),
            ("ez-curl", Some(Region::Pull)),
            ("bb-back-squat", Some(Region::Legs)),
            ("bb-romanian-deadlift", Some(Region::Legs)),
            ("db-walking-lunge", Some(Region::Legs)),
            ("bw-calf-raise", Some(Region::Legs)),
            ("dead-bug", None),
        ] {
            assert_eq!(region_of(id), r, "{id}");
        }
        let own = WorkoutExercise {
            id: "sled-push".into(),
            name: "Sled push".into(),
            requires: vec![],
            muscles: vec!["quads".into(), "glutes".into()],
            compound: true,
            load: crate::workout::catalog::LoadKind::Other,
            pattern: "carry".into(),
            per_side: false,
        };
        assert_eq!(region(&own), Some(Region::Legs), "by its first muscle");
    }

    fn set(index: u32, set_type: SetType, reps: u32, completed: bool) -> PerformedSet {
        PerformedSet {
            index,
            set_type,
            weight: 100.0,
            reps,
            rest_seconds: None,
            completed,
        }
    }

    fn performance(
        id: &str,
        session: &str,
        exercise: &str,
        days_ago: i64,
        sets: Vec<PerformedSet>,
    ) -> ExercisePerformance {
        ExercisePerformance {
            id: id.into(),
            session_id: session.into(),
            catalog_id: exercise.into(),
            performed_at_ms: (today().days_since_epoch() - days_ago) * DAY_MS + 3_600_000,
            sets,
        }
    }

    #[test]
    fn the_week_counts_working_and_hard_sets_per_muscle() {
        use SetType::{Drop, Regular, Warmup};
        let history = vec![
            // Today: a warm-up, three working sets (RIR 2, 2, 4), one not completed.
            performance(
                "p1",
                "s1",
                "bb-bench-press",
                0,
                vec![
                    set(0, Warmup, 8, true),
                    set(1, Regular, 10, true),
                    set(2, Regular, 10, true),
                    set(3, Regular, 8, true),
                    set(4, Regular, 0, false),
                ],
            ),
            // 6 days ago, no RIR known: both sets hard (a drop set is a working set).
            performance(
                "p2",
                "s2",
                "pull-up",
                6,
                vec![set(0, Regular, 8, true), set(1, Drop, 6, true)],
            ),
            // 7 days ago: outside the week.
            performance(
                "p3",
                "s3",
                "bb-back-squat",
                7,
                vec![set(0, Regular, 5, true)],
            ),
            // Unknown to the catalog: no muscle.
            performance("p4", "s2", "mystery", 6, vec![set(0, Regular, 5, true)]),
            // An app's own exercise with its own muscle.
            performance("p5", "s4", "neck-curl", 2, vec![set(0, Regular, 15, true)]),
        ];
        let mut catalog = builtin().to_vec();
        catalog.push(WorkoutExercise {
            id: "neck-curl".into(),
            name: "Neck curl".into(),
            requires: vec![],
            muscles: vec!["neck".into(), "traps".into()],
            compound: false,
            load: crate::workout::catalog::LoadKind::Other,
            pattern: "neck".into(),
            per_side: false,
        });
        let rir = HashMap::from([("p1".to_string(), vec![4, 2, 2, 4])]);
        let week = training_week(today(), Some(4), &history, &catalog, &rir);
        assert_eq!(
            (week.from.as_str(), week.to.as_str()),
            ("2025-08-11", "2025-08-17")
        );
        assert_eq!(week.sessions, 3, "s1, s4 and s2; s3 is 7 days ago");
        let got: Vec<(&str, u32, u32)> = week
            .muscles
            .iter()
            .map(|m| (m.muscle.as_str(), m.sets, m.hard_sets))
            .collect();
        assert_eq!(
            got,
            vec![
                ("chest", 3, 2),
                ("shoulders", 3, 2),
                ("triceps", 3, 2),
                ("back", 0, 0),
                ("lats", 2, 2),
                ("biceps", 2, 2),
                ("traps", 1, 1),
                ("forearms", 0, 0),
                ("quads", 0, 0),
                ("hamstrings", 0, 0),
                ("glutes", 0, 0),
                ("calves", 0, 0),
                ("abs", 0, 0),
                ("neck", 1, 1),
            ]
        );
        // Newest first; the neck curl goes by its first muscle, which is in no region.
        let sessions = sessions_of(&history, &catalog);
        assert_eq!(
            sessions
                .iter()
                .map(|s| (s.sets, s.compound_sets))
                .collect::<Vec<_>>(),
            vec![
                ([3, 0, 0], [3, 0, 0]),
                ([0, 0, 0], [0, 0, 0]),
                ([0, 2, 0], [0, 2, 0]),
                ([0, 0, 1], [0, 0, 1])
            ],
        );
        // The split: the last session (today, bench press) was a push session: lower next.
        assert_eq!(week.next_session.session_type, SessionType::Lower);
    }
}
