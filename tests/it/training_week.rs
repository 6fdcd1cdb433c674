//! A training week through the public API: the split of the next workout after logged sessions
//! (`WorkoutRequest.daysPerWeek`), the week view `workouts().week` with exact figures (also from
//! `coach workout week`), and supersets in a short session within its time box.

use std::collections::HashSet;

use coachcore::llm::CancelToken;
use coachcore::workout::service::{NoEvents, WorkoutSettings};
use coachcore::workout::*;
use coachcore::{Coach, CoachError, TodayPlanRequest};
use serde_json::Value;

/// 2025-08-17T12:00:00Z.
const NOW_MS: i64 = 1_755_432_000_000;
const DAY_MS: i64 = 86_400_000;

/// The example request (a full gym) on `date` for `minutes` of hypertrophy, rested, with no
/// instructions or bans, for a user who trains `days_per_week` days.
fn request(date: &str, minutes: u32, days_per_week: Option<u32>) -> WorkoutRequest {
    let mut r = crate::workout::request();
    r.meta.date = date.into();
    r.meta.location = "gym".into();
    r.meta.duration_minutes = minutes;
    r.instructions.clear();
    r.bans.clear();
    r.recent_cardio.clear();
    r.upcoming_cardio.clear();
    r.recovery = None;
    r.days_per_week = days_per_week;
    r
}

fn generate(c: &Coach, r: &WorkoutRequest) -> Result<WorkoutResult, CoachError> {
    c.workouts().generate_with(
        r,
        None,
        &NoEvents,
        &CancelToken::new(),
        &WorkoutSettings::default(),
    )
}

/// The exercises of `w`'s working sets, in order, once each.
fn exercises(w: &WorkoutResult) -> Vec<&str> {
    let mut seen = HashSet::new();
    w.workout
        .sets
        .iter()
        .filter(|s| s.tier != SetTier::W && seen.insert(s.exercise.as_str()))
        .map(|s| s.exercise.as_str())
        .collect()
}

#[test]
fn the_next_split_follows_the_logged_week_and_the_week_view_counts_it() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("coach.db").to_string_lossy().into_owned();
    let c = Coach::open(db.clone()).unwrap();
    // Four sessions a week apart by a day each, 5 training days a week, every set done as
    // written for 10 reps.
    let days = [
        (
            "2025-08-13",
            SessionType::Push,
            "Push: starts the push, pull and legs rotation (5 training days a week; no push, pull \
             or legs session in the last 14 days).",
            &[
                "bb-bench-press",
                "bb-overhead-press",
                "bb-incline-bench-press",
                "db-lateral-raise",
                "db-overhead-triceps-extension",
            ][..],
        ),
        // Pull is next in turn; the push day gave the pulling muscles nothing, so the turn
        // stands. A poor night: +2 RIR.
        (
            "2025-08-14",
            SessionType::Pull,
            "Pull: follows the push session of 2025-08-13 (push, pull and legs for 5 training days \
             a week).",
            &[
                "cable-kneeling-pulldown",
                "bb-bent-over-row",
                "db-pullover",
                "bb-curl",
                "bb-shrug",
            ][..],
        ),
        (
            "2025-08-15",
            SessionType::Legs,
            "Legs: follows the pull session of 2025-08-14 (push, pull and legs for 5 training days \
             a week).",
            &[
                "bb-back-squat",
                "bb-deadlift",
                "bb-reverse-lunge",
                "cable-glute-kickback",
                "bb-calf-raise",
                "db-farmer-carry",
            ][..],
        ),
    ];
    for (i, (date, split, reason, done)) in days.iter().enumerate() {
        let mut r = request(date, 60, Some(5));
        if i == 1 {
            r.recovery = Some(Recovery {
                sleep_score: Some(30),
                body_battery: None,
            });
        }
        let w = generate(&c, &r).unwrap();
        assert_eq!(w.analyzer.session_type, *split, "{date}");
        assert_eq!(w.analyzer.notes, *reason, "{date}");
        assert_eq!(
            w.workout
                .notes_to_user
                .as_deref()
                .map(|n| n.contains(reason)),
            Some(true),
            "{date}"
        );
        assert_eq!(exercises(&w), *done, "{date}");
        let performed = NOW_MS - (4 - i as i64) * DAY_MS;
        c.workouts()
            .log(crate::common::log_at_targets(&w.workout, performed, 10))
            .unwrap();
    }

    let week = c.workouts().week("2025-08-17".into(), Some(5)).unwrap();
    assert_eq!(
        (week.from.as_str(), week.to.as_str(), week.sessions),
        ("2025-08-11", "2025-08-17", 3)
    );
    // Three sets of each exercise above. The pull day's sets were at 3 or 4 reps in reserve (its
    // prescription + the shift of 2): only those at 3 are hard; every other set was at 1 or 2.
    let expected = [
        ("chest", 9, 6),       // bench, incline; the pullover (pull day)
        ("shoulders", 12, 12), // bench, press, incline, raise
        ("triceps", 12, 12),   // bench, press, incline, extension
        ("back", 6, 3),        // row (pull day); deadlift
        ("lats", 9, 0),        // pulldown, row, pullover (pull day)
        ("biceps", 9, 3),      // pulldown, row (pull day, not hard), curl
        ("traps", 6, 6),       // shrug, carry
        ("forearms", 6, 6),    // barbell curl, carry
        ("quads", 6, 6),       // squat, lunge
        ("hamstrings", 3, 3),  // deadlift
        ("glutes", 12, 12),    // squat, deadlift, lunge, kickback
        ("calves", 3, 3),
        ("abs", 3, 3), // carry
    ]
    .map(|(muscle, sets, hard_sets)| MuscleWeek {
        muscle: muscle.into(),
        sets,
        hard_sets,
    });
    assert_eq!(week.muscles, expected);
    let next = SessionChoice {
        session_type: SessionType::Push,
        reason: "Push: follows the legs session of 2025-08-15 (push, pull and legs for 5 \
                 training days a week)."
            .into(),
    };
    assert_eq!(week.next_session, next);
    // The next workout is that split.
    let w = generate(&c, &request("2025-08-17", 60, Some(5))).unwrap();
    assert_eq!(
        (w.analyzer.session_type, w.analyzer.notes.as_str()),
        (next.session_type, next.reason.as_str())
    );
    // Other days a week: upper and lower (after a legs day, the upper body), full body.
    let upper_lower = c.workouts().week("2025-08-17".into(), Some(4)).unwrap();
    assert_eq!(
        upper_lower.next_session.reason,
        "Upper body: follows the legs session of 2025-08-15 (upper and lower for 4 training days \
         a week)."
    );
    assert_eq!(upper_lower.muscles, week.muscles);
    let none = c.workouts().week("2025-08-17".into(), None).unwrap();
    assert_eq!(none.next_session.session_type, SessionType::FullBody);
    let w = generate(&c, &request("2025-08-18", 60, None)).unwrap();
    assert_eq!(
        (w.analyzer.session_type, w.analyzer.notes.as_str()),
        (SessionType::FullBody, "")
    );
    // Four days later only the 15th is in the window.
    let later = c.workouts().week("2025-08-21".into(), Some(5)).unwrap();
    assert_eq!(later.sessions, 1, "the 15th only");
    let of = |m: &str| later.muscles.iter().find(|w| w.muscle == m).cloned();
    assert_eq!(
        (of("quads"), of("chest")),
        (
            Some(MuscleWeek {
                muscle: "quads".into(),
                sets: 6,
                hard_sets: 6
            }),
            Some(MuscleWeek {
                muscle: "chest".into(),
                sets: 0,
                hard_sets: 0
            })
        )
    );

    // The CLI prints the same week.
    let o = crate::common::run_coach(
        &[
            "workout",
            "week",
            "--db",
            &db,
            "--date",
            "2025-08-17",
            "--days-per-week",
            "5",
        ],
        "",
        false,
    );
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let printed: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(printed, serde_json::to_value(&week).unwrap());
    assert_eq!(printed["nextSession"]["sessionType"], "push");
    assert_eq!(printed["muscles"][0]["hardSets"], 6);
    let o = crate::common::run_coach(
        &["workout", "week", "--db", &db, "--date", "17.08.2025"],
        "",
        false,
    );
    assert_eq!(o.status.code(), Some(1));
    let e: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(e["error"]["code"], "invalid_argument");
}

#[test]
fn days_per_week_and_dates_out_of_bounds_are_refused() {
    let c = Coach::open_in_memory().unwrap();
    for (today, days) in [
        ("2025-08-17", Some(0)),
        ("2025-08-17", Some(8)),
        ("2025-13-01", None),
        ("", Some(4)),
    ] {
        assert!(
            matches!(
                c.workouts().week(today.into(), days),
                Err(CoachError::InvalidArgument { .. })
            ),
            "{today:?} {days:?}"
        );
    }
    match generate(&c, &request("2025-08-17", 60, Some(8))) {
        Err(CoachError::InvalidArgument { detail }) => {
            assert_eq!(detail, "request.daysPerWeek: 1 to 7")
        }
        other => panic!("{other:?}"),
    }
    let r: WorkoutRequest = serde_json::from_value(serde_json::json!({
        "meta": {"date": "2025-08-17", "location": "gym", "units": "kg", "durationMinutes": 45,
                 "goal": "general"},
        "daysPerWeek": 4
    }))
    .unwrap();
    assert_eq!(r.days_per_week, Some(4));
    let today = TodayPlanRequest {
        date: "2025-08-17".into(),
        notes: "45 minutes".into(),
        schema_version: None,
        timezone: None,
        seed: None,
        units: None,
        days_per_week: Some(0),
    };
    let model: std::sync::Arc<dyn coachcore::llm::LanguageModel> =
        coachcore::llm::scripted::ScriptedModel::texts(vec!["{}"]);
    match c.workouts().today_plan_with(
        &today,
        Some(coachcore::llm::metered::SharedModel::plain(model)),
        &CancelToken::new(),
        &coachcore::plan::PlanGenerateSettings::default(),
    ) {
        Err(CoachError::InvalidArgument { detail }) => {
            assert_eq!(detail, "request.daysPerWeek: 1 to 7")
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_20_minute_session_supersets_antagonists_within_its_time_box() {
    let c = Coach::open_in_memory().unwrap();
    let w = generate(&c, &request("2025-08-17", 20, None)).unwrap();
    let plan = &w.analyzer;
    // The budget alone keeps 4 working sets (one per exercise); the bench press and the row
    // share their rest as superset S1, and the squat gets a second set back.
    let planned: Vec<(&str, u32, Option<&str>, u32)> = plan
        .exercise_plan
        .iter()
        .map(|p| {
            (
                p.exercise.as_str(),
                p.working_sets,
                p.superset.as_deref(),
                p.rest_s,
            )
        })
        .collect();
    assert_eq!(
        planned,
        [
            ("bb-back-squat", 2, None, 90),
            ("bb-bench-press", 1, Some("S1"), 90),
            ("bb-bent-over-row", 1, Some("S1"), 90),
            ("bb-overhead-press", 1, None, 75),
        ]
    );
    let sets: Vec<(&str, Option<&str>, u32)> = w
        .workout
        .sets
        .iter()
        .map(|s| (s.id.as_str(), s.superset.as_deref(), s.rest_s))
        .collect();
    assert_eq!(
        sets,
        [
            ("W-BB-BACK-SQUAT-WU1", None, 60),
            ("A-BB-BACK-SQUAT-1", None, 90),
            ("A-BB-BACK-SQUAT-2", None, 90),
            ("A-BB-BENCH-PRESS-1", Some("S1"), 0),
            ("B-BB-BENT-OVER-ROW-1", Some("S1"), 90),
            ("B-BB-OVERHEAD-PRESS-1", None, 75),
        ]
    );
    // The time box: 15 minutes after the 5 of general warm-up; each set's work (40 s) and rest,
    // a minute of set-up per exercise. Every set fits, so none moved down a tier.
    let seconds: u32 = w.workout.sets.iter().map(|s| 40 + s.rest_s).sum::<u32>() + 4 * 60;
    assert_eq!(seconds, 885);
    assert!(seconds <= timebox::available_seconds(20));
    assert!(w
        .workout
        .sets
        .iter()
        .all(|s| s.must == matches!(s.tier, SetTier::W | SetTier::A)));
    // Only tier B has sets to cut (the original app's shape: tiers, C before B).
    assert_eq!(w.workout.cut_order, ["B"]);
    assert_eq!(validate_workout_yaml(&w.yaml).unwrap(), w.workout);
    // The same sets without the superset take 90 s more than the 15 minutes hold: the last set
    // ends past the time box and moves down to C.
    let mut plain = plan.clone();
    for p in &mut plain.exercise_plan {
        p.superset = None;
    }
    let inv = coachcore::workout::catalog::Inventory::new(
        &request("2025-08-17", 20, None).equipment,
        WeightUnit::Lbs,
    );
    let unpaired = render::render(&plain, coachcore::workout::builtin(), &inv, 1);
    let last = unpaired.sets.last().unwrap();
    assert_eq!(
        (last.id.as_str(), last.tier),
        ("C-BB-OVERHEAD-PRESS-1", SetTier::C)
    );
}
