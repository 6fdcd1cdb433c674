//! The suggestion pipeline (spec 004) through the app-facing `Coach`, on a real SQLite file:
//! logging workouts, generating once, deciding, applying, deferring, and outcome evaluation.

use std::sync::Arc;

use coachcore::db::Store;
use coachcore::kernel::clock::FixedClock;
use coachcore::suggest::model::*;
use coachcore::{Coach, CoachError};

const DAY: i64 = 86_400_000;
const T0: i64 = 1_763_000_000_000;

struct World {
    coach: Coach,
    clock: Arc<FixedClock>,
    _dir: tempfile::TempDir,
    path: std::path::PathBuf,
}

fn world() -> World {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("coach.db");
    let clock = Arc::new(FixedClock::new(T0));
    let coach = Coach::with_store(Store::open(&path).unwrap(), clock.clone());
    coach
        .workouts()
        .save_catalog_exercise(CatalogExercise {
            catalog_id: "bench".into(),
            name: "Bench Press".into(),
            equipment: Equipment::Barbell,
            target_muscles: vec![Muscle::Chest, Muscle::Triceps],
        })
        .unwrap();
    coach
        .workouts()
        .save_catalog_exercise(CatalogExercise {
            catalog_id: "squat".into(),
            name: "Back Squat".into(),
            equipment: Equipment::Barbell,
            target_muscles: vec![Muscle::Quads],
        })
        .unwrap();
    coach.workouts().save_plan(plan()).unwrap();
    World {
        coach,
        clock,
        _dir: dir,
        path,
    }
}

fn sets(weight: f64, reps: u32) -> Vec<SetPrescription> {
    (0..3)
        .map(|i| SetPrescription {
            index: i,
            set_type: SetType::Regular,
            target_weight: weight,
            target_reps: reps,
            rest_seconds: 120,
        })
        .collect()
}

fn plan() -> WorkoutPlan {
    let range = RepRange {
        mode: RepRangeMode::Range,
        lower: 8,
        upper: 12,
        target: 0,
    };
    WorkoutPlan {
        settings: PlanSettings {
            plan_id: "upper-lower".into(),
            unit: WeightUnit::Lbs,
            training_style: TrainingStyle::StraightSets,
            load: LoadConfig::default(),
        },
        name: "Upper / Lower".into(),
        exercises: vec![
            ExercisePrescription {
                id: "rx-bench".into(),
                catalog_id: "bench".into(),
                position: 0,
                rep_range: range,
                rest_mode: RestMode::AllSame,
                rest_seconds: 120,
                sets: sets(135.0, 8),
            },
            ExercisePrescription {
                id: "rx-squat".into(),
                catalog_id: "squat".into(),
                position: 1,
                rep_range: range,
                rest_mode: RestMode::AllSame,
                rest_seconds: 180,
                sets: sets(225.0, 8),
            },
        ],
    }
}

/// A session `day` days after T0 where bench and squat sets hit `bench_reps` / `squat_reps` at the
/// given weights.
fn session(day: i64, bench: (f64, u32), squat: (f64, u32)) -> SessionLog {
    let ex = |id: &str, cat: &str, rx: &str, (w, r): (f64, u32)| ExerciseLog {
        id: format!("{id}-{day}"),
        catalog_id: cat.into(),
        prescription_id: Some(rx.into()),
        sets: (0..3)
            .map(|i| PerformedSet {
                index: i,
                set_type: SetType::Regular,
                weight: w,
                reps: r,
                rest_seconds: Some(120),
                completed: true,
            })
            .collect(),
    };
    SessionLog {
        id: format!("s{day}"),
        plan_id: Some("upper-lower".into()),
        performed_at_ms: T0 + day * DAY,
        exercises: vec![
            ex("bench", "bench", "rx-bench", bench),
            ex("squat", "squat", "rx-squat", squat),
        ],
    }
}

fn log(w: &World, s: &SessionLog) {
    w.clock.advance_ms(0);
    w.coach.workouts().log_session(s.clone()).unwrap();
}

fn weight_changes(
    changes: &[PrescriptionChange],
) -> Vec<(&str, ChangeType, Option<u32>, Option<f64>)> {
    changes
        .iter()
        .filter(|c| c.draft.property == ChangeProperty::Weight)
        .map(|c| {
            (
                c.prescription_id.as_str(),
                c.draft.change_type,
                c.draft.target_set_index,
                c.draft.new_value.number(),
            )
        })
        .collect()
}

#[test]
fn double_progression_is_suggested_once_accepted_applied_and_evaluated() {
    let w = world();
    // Two sessions at the top of the range (12) for bench; squat stays mid-range.
    log(&w, &session(0, (135.0, 12), (225.0, 9)));
    log(&w, &session(2, (135.0, 12), (225.0, 10)));
    w.clock.advance_ms(2 * DAY);
    let first = w.coach.suggestions().for_session("s2".into()).unwrap();
    let bench: Vec<_> = weight_changes(&first)
        .into_iter()
        .filter(|c| c.0 == "rx-bench")
        .collect();
    assert_eq!(bench.len(), 2, "both progression sets: {first:#?}");
    assert!(
        bench
            .iter()
            .all(|c| c.1 == ChangeType::IncreaseWeight && c.3 == Some(140.0)),
        "{bench:?}"
    );
    assert!(first
        .iter()
        .all(|c| c.decision == Decision::Pending && c.session_id == "s2"));
    assert!(first
        .iter()
        .all(|c| c.draft.rule_id.is_some() && !c.draft.evidence.performance_ids.is_empty()));
    assert!(
        weight_changes(&first).iter().all(|c| c.0 == "rx-bench"),
        "squat is mid-range: no weight change"
    );

    // Generating again returns the same stored suggestions, even through a reopened database.
    let again = Coach::open(w.path.display().to_string())
        .unwrap()
        .suggestions()
        .for_session("s2".into())
        .unwrap();
    assert_eq!(again, first);

    // Accept the set-0 increase: the plan changes in the same call.
    let inc = first
        .iter()
        .find(|c| {
            c.draft.change_type == ChangeType::IncreaseWeight && c.draft.target_set_index == Some(0)
        })
        .unwrap();
    let accepted = w.coach.suggestions().accept(inc.id.clone()).unwrap();
    assert_eq!(accepted.decision, Decision::Accepted);
    let plan = w
        .coach
        .workouts()
        .plan("upper-lower".into())
        .unwrap()
        .unwrap();
    assert_eq!(plan.exercises[0].sets[0].target_weight, 140.0);
    assert_eq!(
        plan.exercises[0].sets[1].target_weight, 135.0,
        "only the accepted set changed"
    );
    assert!(
        matches!(
            w.coach.suggestions().accept(inc.id.clone()),
            Err(CoachError::InvalidArgument { .. })
        ),
        "decided once"
    );

    // Leaving the summary defers the rest; they come back before the plan's next workout.
    let n = w.coach.suggestions().defer_pending("s2".into()).unwrap();
    assert_eq!(n as usize, first.len() - 1);
    let deferred = w
        .coach
        .suggestions()
        .deferred("upper-lower".into())
        .unwrap();
    assert_eq!(deferred.len(), first.len() - 1);
    assert!(deferred.iter().all(|c| c.id != inc.id));

    // The next workout at 140 x 9 on set 0 is a good outcome for the accepted change.
    w.clock.advance_ms(2 * DAY);
    log(&w, &session(4, (140.0, 9), (225.0, 10)));
    let evaluated = w
        .coach
        .suggestions()
        .for_session("s2".into())
        .unwrap()
        .into_iter()
        .find(|c| c.id == inc.id)
        .unwrap();
    assert_eq!(
        evaluated.outcome,
        Outcome::Good,
        "{:?}",
        evaluated.outcome_reason
    );
    assert!(evaluated.evaluated_at_ms.is_some());
}

#[test]
fn cooldown_blocks_similar_suggestions_for_seven_days() {
    let w = world();
    log(&w, &session(0, (135.0, 12), (225.0, 9)));
    log(&w, &session(1, (135.0, 12), (225.0, 9)));
    w.clock.advance_ms(DAY);
    let first = w.coach.suggestions().for_session("s1".into()).unwrap();
    let incs: Vec<_> = first
        .iter()
        .filter(|c| c.draft.change_type == ChangeType::IncreaseWeight)
        .collect();
    assert!(!incs.is_empty());
    for c in &incs {
        w.coach.suggestions().reject(c.id.clone()).unwrap();
    }
    // Same performance two days later: the rejected increases are in cooldown.
    log(&w, &session(3, (135.0, 12), (225.0, 9)));
    w.clock.advance_ms(2 * DAY);
    let second = w.coach.suggestions().for_session("s3".into()).unwrap();
    assert!(
        second
            .iter()
            .all(|c| c.draft.change_type != ChangeType::IncreaseWeight),
        "{second:#?}"
    );
    // Eight days after the rejection they may come back.
    log(&w, &session(10, (135.0, 12), (225.0, 9)));
    w.clock.advance_ms(7 * DAY);
    let third = w.coach.suggestions().for_session("s10".into()).unwrap();
    assert!(third
        .iter()
        .any(|c| c.draft.change_type == ChangeType::IncreaseWeight));
}

#[test]
fn logging_validates_and_stores_nothing_on_error() {
    let w = world();
    let mut bad = session(0, (135.0, 10), (225.0, 10));
    bad.exercises[1].prescription_id = Some("rx-bench".into());
    assert!(matches!(
        w.coach.workouts().log_session(bad),
        Err(CoachError::InvalidArgument { .. })
    ));
    let mut nan = session(0, (135.0, 10), (225.0, 10));
    nan.exercises[0].sets[1].weight = f64::NAN;
    assert!(matches!(
        w.coach.workouts().log_session(nan),
        Err(CoachError::InvalidArgument { .. })
    ));
    let mut unknown = session(0, (135.0, 10), (225.0, 10));
    unknown.plan_id = Some("nope".into());
    assert!(matches!(
        w.coach.workouts().log_session(unknown),
        Err(CoachError::NotFound { .. })
    ));
    assert!(
        matches!(
            w.coach.suggestions().for_session("s0".into()),
            Err(CoachError::NotFound { .. })
        ),
        "nothing was stored"
    );
    log(&w, &session(0, (135.0, 10), (225.0, 10)));
    assert!(
        matches!(
            w.coach
                .workouts()
                .log_session(session(0, (1.0, 1), (1.0, 1))),
            Err(CoachError::InvalidArgument { .. })
        ),
        "same id twice"
    );
    let h = w
        .coach
        .workouts()
        .history("bench".into(), None)
        .unwrap()
        .unwrap();
    assert_eq!(
        (h.session_count, h.typical_lower_reps, h.typical_upper_reps),
        (1, 10, 10)
    );
    assert!(matches!(
        w.coach.suggestions().accept("missing".into()),
        Err(CoachError::NotFound { .. })
    ));
    assert!(matches!(
        w.coach.suggestions().deferred("missing".into()),
        Err(CoachError::NotFound { .. })
    ));
}

#[test]
fn a_session_without_a_plan_has_no_suggestions_and_is_not_regenerated() {
    let w = world();
    let mut free = session(0, (135.0, 12), (225.0, 12));
    free.plan_id = None;
    for e in &mut free.exercises {
        e.prescription_id = None;
    }
    log(&w, &free);
    assert!(w
        .coach
        .suggestions()
        .for_session("s0".into())
        .unwrap()
        .is_empty());
    assert!(w
        .coach
        .suggestions()
        .for_session("s0".into())
        .unwrap()
        .is_empty());
}

#[test]
fn concurrent_generation_never_duplicates() {
    let w = world();
    log(&w, &session(0, (135.0, 12), (225.0, 12)));
    log(&w, &session(1, (135.0, 12), (225.0, 12)));
    let coach = Arc::new(w.coach);
    let runs: Vec<Vec<PrescriptionChange>> = (0..4)
        .map(|_| {
            let c = Arc::clone(&coach);
            std::thread::spawn(move || c.suggestions().for_session("s1".into()).unwrap())
        })
        .collect::<Vec<_>>()
        .into_iter()
        .map(|t| t.join().unwrap())
        .collect();
    assert!(!runs[0].is_empty());
    assert!(runs.iter().all(|r| r == &runs[0]));
}

#[test]
fn a_prescription_logged_twice_in_a_session_gets_one_of_each_suggestion() {
    let w = world();
    log(&w, &session(0, (135.0, 12), (225.0, 9)));
    let mut s = session(2, (135.0, 12), (225.0, 9));
    let mut again = s.exercises[0].clone();
    again.id = "bench-again".into();
    s.exercises.push(again);
    log(&w, &s);
    w.clock.advance_ms(2 * DAY);
    let changes = w.coach.suggestions().for_session("s2".into()).unwrap();
    let bench = weight_changes(&changes)
        .into_iter()
        .filter(|c| c.0 == "rx-bench")
        .collect::<Vec<_>>();
    assert_eq!(
        bench,
        vec![
            ("rx-bench", ChangeType::IncreaseWeight, Some(0), Some(140.0)),
            ("rx-bench", ChangeType::IncreaseWeight, Some(1), Some(140.0)),
        ],
        "{changes:#?}"
    );
}

/// A small deterministic generator.
struct Lcg(u64);
impl Lcg {
    fn next(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

/// An AI source whose proposals depend on the session (deterministic): weight, reps and rest
/// changes on random sets, some of which the rules also make.
struct ChurnAi;

impl coachcore::suggest::service::AiSuggestionSource for ChurnAi {
    fn suggest(
        &self,
        ctx: &ExerciseContext,
        _rule_drafts: &[SuggestionDraft],
        _tools: &dyn coachcore::suggest::service::SuggestionTools,
        _control: &coachcore::suggest::service::AiRunControl,
    ) -> coachcore::kernel::error::Result<Vec<SuggestionDraft>> {
        // Same proposals for every log of one session, so a repeated prescription repeats them.
        let mut rng = Lcg(ctx.current.performed_at_ms as u64);
        let rx = &ctx.prescription;
        let mut out = Vec::new();
        for _ in 0..rng.next(4) {
            let set = rng.next(3) as u32;
            let cur = &rx.sets[set as usize];
            let (change_type, property, target, value) = match rng.next(4) {
                0 => (
                    ChangeType::IncreaseWeight,
                    ChangeProperty::Weight,
                    Some(set),
                    cur.target_weight + 5.0,
                ),
                1 => (
                    ChangeType::DecreaseWeight,
                    ChangeProperty::Weight,
                    Some(set),
                    cur.target_weight - 5.0,
                ),
                2 => (
                    ChangeType::IncreaseReps,
                    ChangeProperty::Reps,
                    Some(set),
                    cur.target_reps as f64 + 1.0,
                ),
                _ => (
                    ChangeType::IncreaseRest,
                    ChangeProperty::Rest,
                    None,
                    rx.rest_seconds as f64 + 30.0,
                ),
            };
            out.push(SuggestionDraft {
                source: SuggestionSource::Ai,
                rule_id: None,
                change_type,
                target_set_index: target,
                property,
                old_value: None,
                new_value: ChangeValue::Number { value },
                reasoning: "churn".into(),
                evidence: Evidence::default(),
            });
        }
        Ok(out)
    }
}

#[test]
fn the_pipeline_never_leaves_two_similar_pending_suggestions_within_the_cooldown() {
    for seed in 1..=12u64 {
        let w = world();
        if seed % 2 == 0 {
            w.coach.model().set_ai_source(Some(Arc::new(ChurnAi)));
        }
        let mut rng = Lcg(seed);
        let mut day = 0i64;
        let mut all: Vec<PrescriptionChange> = Vec::new();
        for _ in 0..30 {
            day += 1 + rng.next(3) as i64;
            let bench = (135.0 + 5.0 * rng.next(3) as f64, 6 + rng.next(9) as u32);
            let squat = (225.0 + 10.0 * rng.next(2) as f64, 5 + rng.next(10) as u32);
            let mut s = session(day, bench, squat);
            if rng.next(3) == 0 {
                // Bench logged twice on the same prescription (the user split the exercise).
                let mut again = s.exercises[0].clone();
                again.id = format!("bench-again-{day}");
                for st in &mut again.sets {
                    st.reps = 6 + rng.next(9) as u32;
                }
                s.exercises.push(again);
            }
            w.clock.advance_ms(
                (T0 + day * DAY + 3_600_000) - coachcore::kernel::clock::Clock::now_ms(&*w.clock),
            );
            w.coach.workouts().log_session(s.clone()).unwrap();
            let new = w.coach.suggestions().for_session(s.id.clone()).unwrap();
            assert_eq!(
                w.coach.suggestions().for_session(s.id.clone()).unwrap(),
                new,
                "stable on repeat"
            );
            // The property, checked on what generation left behind (before the user decides):
            // no two similar pending changes within the cooldown, this session's included.
            all.retain(|c| !new.iter().any(|n| n.id == c.id));
            all.extend(new.iter().cloned());
            // Re-read every change's current decision through its session.
            let mut current: Vec<PrescriptionChange> = Vec::new();
            let mut sessions: Vec<String> = all.iter().map(|c| c.session_id.clone()).collect();
            sessions.dedup();
            for sid in sessions {
                current.extend(w.coach.suggestions().for_session(sid).unwrap());
            }
            let pending: Vec<&PrescriptionChange> = current
                .iter()
                .filter(|c| c.decision == Decision::Pending)
                .collect();
            for (i, a) in pending.iter().enumerate() {
                for b in &pending[i + 1..] {
                    let similar = a.prescription_id == b.prescription_id
                        && a.draft.change_type == b.draft.change_type
                        && a.draft.target_set_index == b.draft.target_set_index;
                    assert!(
                        !similar || (a.created_at_ms - b.created_at_ms).abs() >= 7 * DAY,
                        "seed {seed}: similar pending changes {} and {} within 7 days",
                        a.id,
                        b.id
                    );
                }
            }
            // Stronger: nothing generated now is similar to any change (whatever its decision)
            // created in the 7 days before it, nor to another change of this session.
            for n in &new {
                for c in current.iter().filter(|c| c.id != n.id && !c.user_override) {
                    let similar = c.prescription_id == n.prescription_id
                        && c.draft.change_type == n.draft.change_type
                        && c.draft.target_set_index == n.draft.target_set_index;
                    assert!(
                        !similar || n.created_at_ms - c.created_at_ms >= 7 * DAY,
                        "seed {seed}: {} repeats {} ({:?}) within the cooldown",
                        n.id,
                        c.id,
                        c.decision
                    );
                }
            }
            for c in &new {
                // Random decisions; some stay pending.
                let _ = match rng.next(4) {
                    0 => w.coach.suggestions().accept(c.id.clone()),
                    1 => w.coach.suggestions().reject(c.id.clone()),
                    2 => w.coach.suggestions().defer_change(c.id.clone()),
                    _ => continue,
                };
            }
        }
        assert!(
            !all.is_empty(),
            "seed {seed}: the random workouts produced suggestions"
        );
    }
}

#[test]
fn plans_are_validated_before_saving() {
    let w = world();
    let base = plan();
    type Edit = Box<dyn Fn(&mut WorkoutPlan)>;
    let cases: Vec<(&str, Edit, &str)> = vec![
        (
            "unknown catalog exercise",
            Box::new(|p| p.exercises[0].catalog_id = "deadlift".into()),
            "not_found",
        ),
        (
            "repeated position",
            Box::new(|p| p.exercises[1].position = 0),
            "invalid_argument",
        ),
        (
            "repeated exercise id",
            Box::new(|p| p.exercises[1].id = "rx-bench".into()),
            "invalid_argument",
        ),
        (
            "NaN weight",
            Box::new(|p| p.exercises[0].sets[1].target_weight = f64::NAN),
            "invalid_argument",
        ),
        (
            "negative weight",
            Box::new(|p| p.exercises[0].sets[1].target_weight = -5.0),
            "invalid_argument",
        ),
        (
            "repeated set index",
            Box::new(|p| p.exercises[0].sets[2].index = 0),
            "invalid_argument",
        ),
        (
            "range upside down",
            Box::new(|p| p.exercises[0].rep_range.lower = 13),
            "invalid_argument",
        ),
        (
            "zero target",
            Box::new(|p| {
                p.exercises[0].rep_range = RepRange {
                    mode: RepRangeMode::Target,
                    lower: 0,
                    upper: 0,
                    target: 0,
                }
            }),
            "invalid_argument",
        ),
        (
            "empty plan id",
            Box::new(|p| p.settings.plan_id = " ".into()),
            "invalid_argument",
        ),
    ];
    for (name, edit, code) in cases {
        let mut p = base.clone();
        edit(&mut p);
        let err = w.coach.workouts().save_plan(p).expect_err(name);
        assert_eq!(err.code(), code, "{name}: {err}");
        assert_eq!(
            w.coach
                .workouts()
                .plan("upper-lower".into())
                .unwrap()
                .unwrap(),
            base,
            "{name}: nothing changed"
        );
    }
    // An exercise id of one plan cannot be taken over by another plan.
    let mut other = base.clone();
    other.settings.plan_id = "other".into();
    other.exercises.truncate(1);
    let err = w.coach.workouts().save_plan(other).unwrap_err();
    assert_eq!(err.code(), "invalid_argument");
    assert_eq!(
        w.coach
            .workouts()
            .plan("upper-lower".into())
            .unwrap()
            .unwrap()
            .exercises
            .len(),
        2
    );
    assert_eq!(w.coach.workouts().plan("other".into()).unwrap(), None);
    // Reordering a plan's own exercises is fine.
    let mut reordered = base.clone();
    reordered.exercises[0].position = 1;
    reordered.exercises[1].position = 0;
    w.coach.workouts().save_plan(reordered).unwrap();
    let saved = w
        .coach
        .workouts()
        .plan("upper-lower".into())
        .unwrap()
        .unwrap();
    assert_eq!(saved.exercises[0].id, "rx-squat");
}

/// An AI source that proposes fixed drafts and records what its tools returned.
struct FakeAi {
    fail: bool,
    seen_history: std::sync::Mutex<Vec<usize>>,
}

impl coachcore::suggest::service::AiSuggestionSource for FakeAi {
    fn suggest(
        &self,
        ctx: &ExerciseContext,
        _rule_drafts: &[SuggestionDraft],
        tools: &dyn coachcore::suggest::service::SuggestionTools,
        _control: &coachcore::suggest::service::AiRunControl,
    ) -> coachcore::kernel::error::Result<Vec<SuggestionDraft>> {
        if self.fail {
            return Err(coachcore::kernel::error::Error::Internal(
                "model down".into(),
            ));
        }
        let recent = tools.recent_performances(
            &ctx.exercise.catalog_id,
            ctx.current.performed_at_ms + 1,
            5,
        )?;
        self.seen_history.lock().unwrap().push(recent.len());
        let ai = |set: Option<u32>, property, change_type, value: f64| SuggestionDraft {
            source: SuggestionSource::Ai,
            rule_id: None,
            change_type,
            target_set_index: set,
            property,
            old_value: None,
            new_value: ChangeValue::Number { value },
            reasoning: "AI thinks so".into(),
            evidence: Evidence::default(),
        };
        Ok(vec![
            ai(None, ChangeProperty::Rest, ChangeType::IncreaseRest, 150.0),
            ai(
                Some(7),
                ChangeProperty::Reps,
                ChangeType::IncreaseReps,
                10.0,
            ), // no set 7: dropped
            ai(
                Some(2),
                ChangeProperty::Weight,
                ChangeType::IncreaseWeight,
                f64::NAN,
            ), // impossible: dropped
        ])
    }
}

#[test]
fn ai_suggestions_are_admitted_only_when_they_fit_and_never_break_the_pipeline() {
    let w = world();
    log(&w, &session(0, (135.0, 10), (225.0, 10)));
    log(&w, &session(1, (135.0, 10), (225.0, 10)));
    let ai = Arc::new(FakeAi {
        fail: false,
        seen_history: Default::default(),
    });
    w.coach.model().set_ai_source(Some(ai.clone()));
    let changes = w.coach.suggestions().for_session("s1".into()).unwrap();
    let from_ai: Vec<_> = changes
        .iter()
        .filter(|c| c.draft.source == SuggestionSource::Ai)
        .collect();
    // Bench rests 120 s: 150 is an increase. Squat rests 180 s: "increase to 150" goes the
    // other way and is dropped.
    assert_eq!(
        from_ai.len(),
        1,
        "one rest increase, for bench: {changes:#?}"
    );
    assert!(from_ai
        .iter()
        .all(|c| c.draft.change_type == ChangeType::IncreaseRest
            && c.draft.target_set_index.is_none()
            && c.prescription_id == "rx-bench"
            && c.draft.old_value == Some(ChangeValue::Number { value: 120.0 })));
    assert_eq!(
        *ai.seen_history.lock().unwrap(),
        vec![2, 2],
        "the tools read the store"
    );

    let w2 = world();
    log(&w2, &session(0, (135.0, 12), (225.0, 10)));
    log(&w2, &session(1, (135.0, 12), (225.0, 10)));
    w2.coach.model().set_ai_source(Some(Arc::new(FakeAi {
        fail: true,
        seen_history: Default::default(),
    })));
    let changes = w2.coach.suggestions().for_session("s1".into()).unwrap();
    assert!(
        !changes.is_empty()
            && changes
                .iter()
                .all(|c| c.draft.source == SuggestionSource::Rule),
        "a failing AI adds nothing"
    );
}

#[test]
fn evaluate_exercise_refuses_what_save_plan_and_log_session_refuse() {
    let input: serde_json::Value =
        serde_json::from_str(include_str!("../data/suggest/evaluate-input.json")).unwrap();
    let base: ExerciseContext = serde_json::from_value(input["context"].clone()).unwrap();
    let now = input["nowMs"].as_i64().unwrap();
    assert!(
        !coachcore::evaluate_exercise(base.clone(), vec![], now)
            .unwrap()
            .is_empty(),
        "the README example itself is fine"
    );
    let range = |lower, upper| RepRange {
        mode: RepRangeMode::Range,
        lower,
        upper,
        target: 0,
    };
    type Edit = Box<dyn Fn(&mut ExerciseContext)>;
    // (case, edit, the detail: a path, never the value)
    let cases: Vec<(&str, Edit, Option<&str>)> = vec![
        (
            "range upside down (12-8)",
            Box::new(move |c| c.prescription.rep_range = range(12, 8)),
            Some("context.prescription.repRange is inconsistent"),
        ),
        (
            "range lower one above upper",
            Box::new(move |c| c.prescription.rep_range = range(9, 8)),
            Some("context.prescription.repRange is inconsistent"),
        ),
        (
            "range of one rep count (8-8)",
            Box::new(move |c| c.prescription.rep_range = range(8, 8)),
            None,
        ),
        (
            "range lower 0",
            Box::new(move |c| c.prescription.rep_range = range(0, 8)),
            Some("context.prescription.repRange is inconsistent"),
        ),
        (
            "negative prescribed weight",
            Box::new(|c| c.prescription.sets[2].target_weight = -135.0),
            Some("context.prescription.sets[2].targetWeight must be 0 to 5000"),
        ),
        (
            "prescribed weight 5000",
            Box::new(|c| c.prescription.sets[2].target_weight = 5000.0),
            None,
        ),
        (
            "prescribed weight just over 5000",
            Box::new(|c| c.prescription.sets[2].target_weight = 5000.5),
            Some("context.prescription.sets[2].targetWeight must be 0 to 5000"),
        ),
        (
            "repeated prescribed set index",
            Box::new(|c| c.prescription.sets[2].index = 1),
            Some("context.prescription.sets[2].index is repeated"),
        ),
        (
            "negative logged weight, current",
            Box::new(|c| c.current.sets[1].weight = -135.0),
            Some("context.current.sets[1].weight must be 0 to 5000"),
        ),
        (
            "logged weight 0 (body weight)",
            Box::new(|c| c.current.sets[1].weight = 0.0),
            None,
        ),
        (
            "NaN logged weight",
            Box::new(|c| c.current.sets[0].weight = f64::NAN),
            Some("context.current.sets[0].weight must be 0 to 5000"),
        ),
        (
            "negative logged weight, an earlier performance",
            Box::new(|c| c.previous[1].sets[2].weight = -0.5),
            Some("context.previous[1].sets[2].weight must be 0 to 5000"),
        ),
        (
            "repeated logged set index",
            Box::new(|c| c.previous[0].sets[1].index = 0),
            Some("context.previous[0].sets[1].index is repeated"),
        ),
    ];
    for (name, edit, want) in cases {
        let mut ctx = base.clone();
        edit(&mut ctx);
        match (coachcore::evaluate_exercise(ctx, vec![], now), want) {
            (Ok(_), None) => {}
            (Err(CoachError::InvalidArgument { detail }), Some(want)) => {
                assert_eq!(detail, want, "{name}")
            }
            (got, want) => panic!("{name}: got {got:?}, want {want:?}"),
        }
    }
}
