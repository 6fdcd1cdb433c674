//! Suggestion outcomes, decisions and the store behind them (spec 004, issue 3 audit): outcome
//! evaluation at and around its cut-offs, accepting every kind of change, stale and orphaned
//! changes, the user's own edits, weight units across plans, the context's earlier performances,
//! the history cache, and the outcome query's index. Real SQLite files throughout.

use std::sync::{Arc, Mutex};

use coachcore::db::Store;
use coachcore::kernel::clock::{Clock, FixedClock};
use coachcore::suggest::model::*;
use coachcore::suggest::outcome::evaluate;
use coachcore::suggest::service::{AiRunControl, AiSuggestionSource, SuggestionTools};
use coachcore::{Coach, CoachError};

const DAY: i64 = 86_400_000;
const T0: i64 = 1_763_000_000_000;

fn range(lower: u32, upper: u32) -> RepRange {
    RepRange {
        mode: RepRangeMode::Range,
        lower,
        upper,
        target: 0,
    }
}

fn target(t: u32) -> RepRange {
    RepRange {
        mode: RepRangeMode::Target,
        lower: 0,
        upper: 0,
        target: t,
    }
}

fn rx_sets(n: u32, weight: f64) -> Vec<SetPrescription> {
    (0..n)
        .map(|i| SetPrescription {
            index: i,
            set_type: SetType::Regular,
            target_weight: weight,
            target_reps: 8,
            rest_seconds: 120,
        })
        .collect()
}

fn rx(rep_range: RepRange, weight: f64) -> ExercisePrescription {
    ExercisePrescription {
        id: "rx-bench".into(),
        catalog_id: "bench".into(),
        position: 0,
        rep_range,
        rest_mode: RestMode::AllSame,
        rest_seconds: 120,
        sets: rx_sets(3, weight),
    }
}

fn set(index: u32, weight: f64, reps: u32) -> PerformedSet {
    PerformedSet {
        index,
        set_type: SetType::Regular,
        weight,
        reps,
        rest_seconds: Some(120),
        completed: true,
    }
}

fn perf(sets: Vec<PerformedSet>) -> ExercisePerformance {
    ExercisePerformance {
        id: "p".into(),
        session_id: "s".into(),
        catalog_id: "bench".into(),
        performed_at_ms: T0,
        sets,
    }
}

fn draft(
    change_type: ChangeType,
    property: ChangeProperty,
    target_set_index: Option<u32>,
    new_value: ChangeValue,
) -> SuggestionDraft {
    SuggestionDraft {
        source: SuggestionSource::Ai,
        rule_id: None,
        change_type,
        target_set_index,
        property,
        old_value: None,
        new_value,
        reasoning: "test".into(),
        evidence: Evidence::default(),
    }
}

fn num(value: f64) -> ChangeValue {
    ChangeValue::Number { value }
}

fn accepted(d: SuggestionDraft) -> PrescriptionChange {
    PrescriptionChange {
        id: "c".into(),
        session_id: "s0".into(),
        plan_id: "plan".into(),
        prescription_id: "rx-bench".into(),
        catalog_id: "bench".into(),
        draft: d,
        decision: Decision::Accepted,
        created_at_ms: T0 - DAY,
        decided_at_ms: Some(T0 - DAY),
        user_override: false,
        outcome: Outcome::NotEvaluated,
        outcome_reason: None,
        evaluated_at_ms: None,
    }
}

// ---------------------------------------------------------------------------------------------
// Outcome evaluation, table-driven at and around the cut-offs.

#[test]
fn weight_outcomes_at_and_around_the_cut_offs() {
    let inc = |w: f64| {
        accepted(draft(
            ChangeType::IncreaseWeight,
            ChangeProperty::Weight,
            Some(0),
            num(w),
        ))
    };
    // (name, rep range, unit, new weight, performed set 0 (weight, reps, completed), outcome)
    let cases: Vec<(&str, RepRange, WeightUnit, f64, (f64, u32, bool), Outcome)> = vec![
        (
            "at the floor",
            range(8, 12),
            WeightUnit::Lbs,
            140.0,
            (140.0, 8, true),
            Outcome::Good,
        ),
        (
            "one below the floor",
            range(8, 12),
            WeightUnit::Lbs,
            140.0,
            (140.0, 7, true),
            Outcome::TooAggressive,
        ),
        (
            "upper + 3",
            range(8, 12),
            WeightUnit::Lbs,
            140.0,
            (140.0, 15, true),
            Outcome::Good,
        ),
        (
            "upper + 4",
            range(8, 12),
            WeightUnit::Lbs,
            140.0,
            (140.0, 16, true),
            Outcome::TooEasy,
        ),
        (
            "target + 4",
            target(10),
            WeightUnit::Lbs,
            140.0,
            (140.0, 14, true),
            Outcome::Good,
        ),
        (
            "target + 5",
            target(10),
            WeightUnit::Lbs,
            140.0,
            (140.0, 15, true),
            Outcome::TooEasy,
        ),
        (
            "target - 1",
            target(10),
            WeightUnit::Lbs,
            140.0,
            (140.0, 9, true),
            Outcome::TooAggressive,
        ),
        (
            "2.5 lb heavier is the new weight",
            range(8, 12),
            WeightUnit::Lbs,
            140.0,
            (142.5, 9, true),
            Outcome::Good,
        ),
        (
            "2.5 lb lighter is the new weight",
            range(8, 12),
            WeightUnit::Lbs,
            140.0,
            (137.5, 9, true),
            Outcome::Good,
        ),
        (
            "just past 2.5 lb",
            range(8, 12),
            WeightUnit::Lbs,
            140.0,
            (142.6, 9, true),
            Outcome::Ignored,
        ),
        (
            "the old weight",
            range(8, 12),
            WeightUnit::Lbs,
            140.0,
            (135.0, 12, true),
            Outcome::Ignored,
        ),
        (
            "kg: 1.25 kg away",
            range(8, 12),
            WeightUnit::Kg,
            60.0,
            (61.25, 9, true),
            Outcome::Good,
        ),
        (
            "kg: just past 1.25 kg",
            range(8, 12),
            WeightUnit::Kg,
            60.0,
            (61.3, 9, true),
            Outcome::Ignored,
        ),
        (
            "set not completed",
            range(8, 12),
            WeightUnit::Lbs,
            140.0,
            (140.0, 9, false),
            Outcome::Ignored,
        ),
    ];
    for (name, rep_range, unit, new, (w, reps, done), want) in cases {
        let mut s = set(0, w, reps);
        s.completed = done;
        let (got, why) = evaluate(&inc(new), &rx(rep_range, new), &perf(vec![s]), unit);
        assert_eq!(got, want, "{name}: {why}");
        assert!(!why.is_empty(), "{name}: a reason");
    }
}

#[test]
fn reps_outcomes_at_and_around_the_cut_offs() {
    let change = accepted(draft(
        ChangeType::IncreaseReps,
        ChangeProperty::Reps,
        Some(1),
        num(10.0),
    ));
    let plan = rx(range(8, 12), 135.0);
    let cases = [
        ("one short", 135.0, 9, Outcome::TooAggressive),
        ("exactly", 135.0, 10, Outcome::Good),
        ("new + 3", 135.0, 13, Outcome::Good),
        ("new + 4", 135.0, 14, Outcome::TooEasy),
        ("within 2.5 lb", 137.5, 10, Outcome::Good),
        ("another weight", 140.0, 10, Outcome::Ignored),
    ];
    for (name, w, reps, want) in cases {
        let (got, why) = evaluate(
            &change,
            &plan,
            &perf(vec![set(1, w, reps)]),
            WeightUnit::Lbs,
        );
        assert_eq!(got, want, "{name}: {why}");
    }
    let (got, _) = evaluate(
        &change,
        &plan,
        &perf(vec![set(0, 135.0, 10)]),
        WeightUnit::Lbs,
    );
    assert_eq!(got, Outcome::Ignored, "set 1 not done");

    // Values beyond what savePlan stores (an older database): no overflow.
    let huge = accepted(draft(
        ChangeType::IncreaseReps,
        ChangeProperty::Reps,
        Some(1),
        num(u32::MAX as f64),
    ));
    let (got, _) = evaluate(
        &huge,
        &plan,
        &perf(vec![set(1, 135.0, 10)]),
        WeightUnit::Lbs,
    );
    assert_eq!(got, Outcome::TooAggressive);
    let (got, _) = evaluate(
        &huge,
        &plan,
        &perf(vec![set(1, 135.0, u32::MAX)]),
        WeightUnit::Lbs,
    );
    assert_eq!(got, Outcome::Good);
    let heavier = accepted(draft(
        ChangeType::IncreaseWeight,
        ChangeProperty::Weight,
        Some(1),
        num(135.0),
    ));
    for wide in [range(8, u32::MAX), target(u32::MAX)] {
        let (got, why) = evaluate(
            &heavier,
            &rx(wide, 135.0),
            &perf(vec![set(1, 135.0, u32::MAX)]),
            WeightUnit::Lbs,
        );
        assert_eq!(got, Outcome::Good, "{wide:?}: {why}");
    }
}

#[test]
fn rest_outcomes_allow_fifteen_seconds_short() {
    let change = accepted(draft(
        ChangeType::IncreaseRest,
        ChangeProperty::Rest,
        None,
        num(150.0),
    ));
    let plan = rx(range(8, 12), 135.0);
    let rested = |secs: Option<u32>, reps: [u32; 3]| {
        perf(
            (0..3)
                .map(|i| PerformedSet {
                    rest_seconds: secs,
                    ..set(i, 135.0, reps[i as usize])
                })
                .collect(),
        )
    };
    let cases = [
        ("new - 15 s", Some(135), [10, 10, 10], Outcome::Good),
        ("new - 16 s", Some(134), [10, 10, 10], Outcome::Ignored),
        ("not timed", None, [10, 10, 10], Outcome::Ignored),
        (
            "reps still drop by 2",
            Some(150),
            [10, 10, 8],
            Outcome::TooAggressive,
        ),
        (
            "below the floor",
            Some(150),
            [10, 9, 7],
            Outcome::TooAggressive,
        ),
    ];
    for (name, secs, reps, want) in cases {
        let (got, why) = evaluate(&change, &plan, &rested(secs, reps), WeightUnit::Lbs);
        assert_eq!(got, want, "{name}: {why}");
    }
}

/// A performed set of type `t` with `rest` seconds logged after it.
fn typed(index: u32, t: SetType, weight: f64, reps: u32, rest: Option<u32>) -> PerformedSet {
    PerformedSet {
        set_type: t,
        rest_seconds: rest,
        ..set(index, weight, reps)
    }
}

#[test]
fn rest_outcomes_judge_only_working_sets_and_the_rest_before_them() {
    use SetType::{Drop, Regular as Reg, Warmup};
    // Rest 60 -> 75 in all-same mode, range 8-12 (floor 8): the audit's case has a 95 x 5 warmup.
    let all_same = accepted(draft(
        ChangeType::IncreaseRest,
        ChangeProperty::Rest,
        None,
        num(75.0),
    ));
    // The rest after set 1 (per-set mode) 60 -> 75.
    let after_set_1 = accepted(draft(
        ChangeType::IncreaseRest,
        ChangeProperty::Rest,
        Some(1),
        num(75.0),
    ));
    let plan = rx(range(8, 12), 135.0);
    type Row = (u32, SetType, f64, u32, Option<u32>);
    let cases: Vec<(&str, &PrescriptionChange, Vec<Row>, Outcome)> = vec![
        (
            "warmup below the floor is not a drop",
            &all_same,
            vec![
                (0, Warmup, 95.0, 5, Some(75)),
                (1, Reg, 135.0, 10, Some(75)),
                (2, Reg, 135.0, 10, Some(75)),
            ],
            Outcome::Good,
        ),
        (
            "the rest after the last set does not count",
            &all_same,
            vec![
                (0, Warmup, 95.0, 5, Some(75)),
                (1, Reg, 135.0, 10, Some(75)),
                (2, Reg, 135.0, 10, Some(5)),
            ],
            Outcome::Good,
        ),
        (
            "nor the rest before a drop set, nor the drop set's reps",
            &all_same,
            vec![
                (0, Reg, 135.0, 10, Some(75)),
                (1, Reg, 135.0, 10, Some(10)),
                (2, Drop, 95.0, 6, None),
            ],
            Outcome::Good,
        ),
        (
            "the rest after the warmup precedes a working set: it counts",
            &all_same,
            vec![
                (0, Warmup, 95.0, 5, Some(30)),
                (1, Reg, 135.0, 10, Some(75)),
                (2, Reg, 135.0, 10, None),
            ],
            Outcome::Ignored,
        ),
        (
            "working set 2 fewer than the one before",
            &all_same,
            vec![
                (0, Warmup, 95.0, 5, Some(75)),
                (1, Reg, 135.0, 10, Some(75)),
                (2, Reg, 135.0, 8, None),
            ],
            Outcome::TooAggressive,
        ),
        (
            "working set 1 fewer: kept",
            &all_same,
            vec![
                (0, Warmup, 95.0, 5, Some(75)),
                (1, Reg, 135.0, 10, Some(75)),
                (2, Reg, 135.0, 9, None),
            ],
            Outcome::Good,
        ),
        (
            "a working set below the floor",
            &all_same,
            vec![
                (0, Warmup, 95.0, 5, Some(75)),
                (1, Reg, 135.0, 7, Some(75)),
                (2, Reg, 135.0, 7, None),
            ],
            Outcome::TooAggressive,
        ),
        (
            "only warmup and last-set rest timed",
            &all_same,
            vec![
                (0, Warmup, 95.0, 5, None),
                (1, Reg, 135.0, 10, None),
                (2, Reg, 135.0, 10, Some(75)),
            ],
            Outcome::Ignored,
        ),
        (
            "per set: the set after the target kept its reps",
            &after_set_1,
            vec![
                (0, Warmup, 95.0, 5, Some(10)),
                (1, Reg, 135.0, 10, Some(75)),
                (2, Reg, 135.0, 10, None),
            ],
            Outcome::Good,
        ),
        (
            "per set: exactly 15 s short still counts",
            &after_set_1,
            vec![
                (0, Reg, 135.0, 10, Some(10)),
                (1, Reg, 135.0, 10, Some(60)),
                (2, Reg, 135.0, 10, None),
            ],
            Outcome::Good,
        ),
        (
            "per set: 16 s short",
            &after_set_1,
            vec![
                (0, Reg, 135.0, 10, Some(75)),
                (1, Reg, 135.0, 10, Some(59)),
                (2, Reg, 135.0, 10, None),
            ],
            Outcome::Ignored,
        ),
        (
            "per set: the set after the target dropped",
            &after_set_1,
            vec![
                (0, Reg, 135.0, 10, Some(75)),
                (1, Reg, 135.0, 10, Some(75)),
                (2, Reg, 135.0, 8, None),
            ],
            Outcome::TooAggressive,
        ),
        (
            "per set: a drop in another set is not this rest's",
            &after_set_1,
            vec![
                (0, Reg, 135.0, 12, Some(10)),
                (1, Reg, 135.0, 10, Some(75)),
                (2, Reg, 135.0, 10, None),
            ],
            Outcome::Good,
        ),
        (
            "per set: a drop set after the target is not judged",
            &after_set_1,
            vec![
                (0, Reg, 135.0, 10, Some(75)),
                (1, Reg, 135.0, 10, Some(75)),
                (2, Drop, 95.0, 6, None),
            ],
            Outcome::Ignored,
        ),
        (
            "per set: the target set not completed",
            &after_set_1,
            vec![(0, Reg, 135.0, 10, Some(75)), (2, Reg, 135.0, 10, None)],
            Outcome::Ignored,
        ),
    ];
    for (name, change, rows, want) in cases {
        let p = perf(
            rows.into_iter()
                .map(|(i, t, w, r, rest)| typed(i, t, w, r, rest))
                .collect(),
        );
        let (got, why) = evaluate(change, &plan, &p, WeightUnit::Lbs);
        assert_eq!(got, want, "{name}: {why}");
    }
}

#[test]
fn set_type_rep_range_and_set_count_outcomes() {
    let plan = rx(range(8, 12), 135.0);
    let to_warmup = accepted(draft(
        ChangeType::ChangeSetType,
        ChangeProperty::SetType,
        Some(0),
        ChangeValue::SetType {
            value: SetType::Warmup,
        },
    ));
    let warm = PerformedSet {
        set_type: SetType::Warmup,
        ..set(0, 95.0, 10)
    };
    assert_eq!(
        evaluate(&to_warmup, &plan, &perf(vec![warm]), WeightUnit::Lbs).0,
        Outcome::Good
    );
    assert_eq!(
        evaluate(
            &to_warmup,
            &plan,
            &perf(vec![set(0, 95.0, 10)]),
            WeightUnit::Lbs
        )
        .0,
        Outcome::Ignored
    );

    let new_range = accepted(draft(
        ChangeType::ChangeRepRange,
        ChangeProperty::RepRange,
        None,
        ChangeValue::RepRange {
            value: range(6, 10),
        },
    ));
    let reps = |r: &[u32]| {
        perf(
            r.iter()
                .enumerate()
                .map(|(i, &n)| set(i as u32, 135.0, n))
                .collect(),
        )
    };
    let cases = [
        ("inside", vec![6, 10], Outcome::Good),
        ("one below the floor", vec![5, 8], Outcome::TooAggressive),
        ("all at upper + 4", vec![14, 15], Outcome::TooEasy),
        ("one at upper + 3", vec![13, 14], Outcome::Good),
        ("no working set", vec![], Outcome::Ignored),
    ];
    for (name, r, want) in cases {
        let (got, why) = evaluate(&new_range, &plan, &reps(&r), WeightUnit::Lbs);
        assert_eq!(got, want, "{name}: {why}");
    }

    let add = accepted(draft(
        ChangeType::AddSet,
        ChangeProperty::SetCount,
        None,
        num(4.0),
    ));
    assert_eq!(
        evaluate(&add, &plan, &reps(&[8, 8, 8, 8]), WeightUnit::Lbs).0,
        Outcome::Good
    );
    assert_eq!(
        evaluate(&add, &plan, &reps(&[8, 8, 8]), WeightUnit::Lbs).0,
        Outcome::Ignored
    );
}

// ---------------------------------------------------------------------------------------------
// Through the Coach and a real database file.

/// An AI source that proposes, for bench, the drafts it is given (its `old_value` left out).
#[derive(Default)]
struct ScriptedAi {
    drafts: Mutex<Vec<SuggestionDraft>>,
    contexts: Mutex<Vec<ExerciseContext>>,
}

impl AiSuggestionSource for ScriptedAi {
    fn suggest(
        &self,
        ctx: &ExerciseContext,
        _rule_drafts: &[SuggestionDraft],
        _tools: &dyn SuggestionTools,
        _control: &AiRunControl,
    ) -> coachcore::kernel::error::Result<Vec<SuggestionDraft>> {
        self.contexts.lock().unwrap().push(ctx.clone());
        if ctx.exercise.catalog_id != "bench" {
            return Ok(Vec::new());
        }
        Ok(self.drafts.lock().unwrap().clone())
    }
}

struct World {
    coach: Coach,
    clock: Arc<FixedClock>,
    ai: Arc<ScriptedAi>,
    path: std::path::PathBuf,
    _dir: tempfile::TempDir,
}

impl World {
    fn new(unit: WeightUnit, weight: f64) -> World {
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
                target_muscles: vec![Muscle::Chest],
            })
            .unwrap();
        coach
            .workouts()
            .save_plan(plan("plan", "rx-bench", unit, weight))
            .unwrap();
        let ai = Arc::new(ScriptedAi::default());
        coach.model().set_ai_source(Some(ai.clone()));
        World {
            coach,
            clock,
            ai,
            path,
            _dir: dir,
        }
    }

    fn store(&self) -> Store {
        Store::open(&self.path).unwrap()
    }

    fn set_time(&self, at: i64) {
        self.clock.advance_ms(at - self.clock.now_ms());
    }

    /// Logs a session on `day` (bench sets as given) and returns its suggestions.
    fn workout(&self, id: &str, day: i64, sets: Vec<PerformedSet>) -> Vec<PrescriptionChange> {
        self.set_time(T0 + day * DAY);
        self.coach
            .workouts()
            .log_session(session(id, "plan", "rx-bench", T0 + day * DAY, sets))
            .unwrap();
        self.coach.suggestions().for_session(id.into()).unwrap()
    }

    fn bench(&self) -> ExercisePrescription {
        self.coach
            .workouts()
            .plan("plan".into())
            .unwrap()
            .unwrap()
            .exercises[0]
            .clone()
    }
}

fn plan(id: &str, rx_id: &str, unit: WeightUnit, weight: f64) -> WorkoutPlan {
    WorkoutPlan {
        settings: PlanSettings {
            plan_id: id.into(),
            unit,
            training_style: TrainingStyle::StraightSets,
            load: LoadConfig::default(),
        },
        name: "Plan".into(),
        exercises: vec![ExercisePrescription {
            id: rx_id.into(),
            ..rx(range(8, 12), weight)
        }],
    }
}

fn session(id: &str, plan: &str, rx: &str, at: i64, sets: Vec<PerformedSet>) -> SessionLog {
    SessionLog {
        id: id.into(),
        plan_id: Some(plan.into()),
        performed_at_ms: at,
        exercises: vec![ExerciseLog {
            id: format!("{id}-bench"),
            catalog_id: "bench".into(),
            prescription_id: Some(rx.into()),
            sets,
        }],
    }
}

/// Mid-range work at `w`: no rule fires on it.
fn mid(w: f64) -> Vec<PerformedSet> {
    (0..3).map(|i| set(i, w, 10)).collect()
}

fn find(changes: &[PrescriptionChange], t: ChangeType, set: Option<u32>) -> PrescriptionChange {
    changes
        .iter()
        .find(|c| c.draft.change_type == t && c.draft.target_set_index == set)
        .unwrap_or_else(|| panic!("no {t:?} on {set:?} in {changes:#?}"))
        .clone()
}

/// AI drafts of every kind but set count: reps of set 1 to 10, rest to 150 s, set 0 to a warmup,
/// the rep range to 6-10.
fn kinds() -> Vec<SuggestionDraft> {
    vec![
        draft(
            ChangeType::IncreaseReps,
            ChangeProperty::Reps,
            Some(1),
            num(10.0),
        ),
        draft(
            ChangeType::IncreaseRest,
            ChangeProperty::Rest,
            None,
            num(150.0),
        ),
        draft(
            ChangeType::ChangeSetType,
            ChangeProperty::SetType,
            Some(0),
            ChangeValue::SetType {
                value: SetType::Warmup,
            },
        ),
        draft(
            ChangeType::ChangeRepRange,
            ChangeProperty::RepRange,
            None,
            ChangeValue::RepRange {
                value: range(6, 10),
            },
        ),
    ]
}

#[test]
fn accepting_each_kind_of_change_writes_the_plan() {
    let w = World::new(WeightUnit::Lbs, 135.0);
    *w.ai.drafts.lock().unwrap() = kinds();
    let changes = w.workout("s1", 0, mid(135.0));
    let reps = find(&changes, ChangeType::IncreaseReps, Some(1));
    assert_eq!(reps.draft.old_value, Some(num(8.0)), "old value filled in");
    w.coach.suggestions().accept(reps.id).unwrap();
    w.coach
        .suggestions()
        .accept(find(&changes, ChangeType::IncreaseRest, None).id)
        .unwrap();
    w.coach
        .suggestions()
        .accept(find(&changes, ChangeType::ChangeSetType, Some(0)).id)
        .unwrap();
    w.coach
        .suggestions()
        .accept(find(&changes, ChangeType::ChangeRepRange, None).id)
        .unwrap();
    let b = w.bench();
    assert_eq!(b.sets[1].target_reps, 10);
    assert_eq!(b.rest_seconds, 150);
    assert_eq!(b.sets[0].set_type, SetType::Warmup);
    assert_eq!(b.rep_range, range(6, 10));
    assert_eq!(b.sets[2], rx_sets(3, 135.0)[2], "nothing else changed");
}

#[test]
fn ai_drafts_that_break_the_domain_are_not_admitted() {
    let w = World::new(WeightUnit::Lbs, 135.0);
    let inc = |set, value| {
        draft(
            ChangeType::IncreaseWeight,
            ChangeProperty::Weight,
            set,
            num(value),
        )
    };
    let mut wrong_property = inc(Some(0), 140.0);
    wrong_property.property = ChangeProperty::Reps;
    let mut stale_old = inc(Some(1), 140.0);
    stale_old.old_value = Some(num(130.0));
    let mut rule_marked = inc(Some(2), 140.0);
    rule_marked.source = SuggestionSource::Rule;
    *w.ai.drafts.lock().unwrap() = vec![
        wrong_property,
        stale_old,
        rule_marked,
        inc(Some(0), 130.0), // an "increase" that lowers
        inc(Some(0), 405.0), // 3 x 135 = 405: the cap itself is fine...
        inc(Some(1), 405.5), // ...past it is not
        inc(Some(2), 135.0), // changes nothing
        draft(
            ChangeType::DecreaseRest,
            ChangeProperty::Rest,
            None,
            num(130.0),
        ), // goes up
        draft(
            ChangeType::ChangeRepRange,
            ChangeProperty::RepRange,
            None,
            ChangeValue::RepRange {
                value: range(12, 8),
            },
        ), // upside down
        draft(ChangeType::AddSet, ChangeProperty::SetCount, None, num(2.0)), // fewer sets
    ];
    let changes = w.workout("s1", 0, mid(135.0));
    let ai: Vec<_> = changes
        .iter()
        .filter(|c| c.draft.source == SuggestionSource::Ai)
        .map(|c| {
            (
                c.draft.change_type,
                c.draft.target_set_index,
                c.draft.new_value.clone(),
            )
        })
        .collect();
    assert_eq!(
        ai,
        vec![(ChangeType::IncreaseWeight, Some(0), num(405.0))],
        "{changes:#?}"
    );
}

#[test]
fn accept_fails_when_the_set_is_gone_and_the_change_stays_pending() {
    let w = World::new(WeightUnit::Lbs, 135.0);
    *w.ai.drafts.lock().unwrap() = vec![draft(
        ChangeType::IncreaseWeight,
        ChangeProperty::Weight,
        Some(2),
        num(140.0),
    )];
    let changes = w.workout("s1", 0, mid(135.0));
    let c = find(&changes, ChangeType::IncreaseWeight, Some(2));
    let mut p = w.coach.workouts().plan("plan".into()).unwrap().unwrap();
    p.exercises[0].sets.truncate(2);
    w.coach.workouts().save_plan(p.clone()).unwrap();
    match w.coach.suggestions().accept(c.id.clone()) {
        Err(CoachError::InvalidArgument { detail }) => {
            assert!(
                detail.contains("set 2 is no longer in the prescription"),
                "{detail}"
            )
        }
        other => panic!("expected InvalidArgument, got {other:?}"),
    }
    assert_eq!(
        w.coach.workouts().plan("plan".into()).unwrap().unwrap(),
        p,
        "plan unchanged"
    );
    let again = w.coach.suggestions().for_session("s1".into()).unwrap();
    assert_eq!(
        find(&again, ChangeType::IncreaseWeight, Some(2)).decision,
        Decision::Pending
    );
}

#[test]
fn an_out_of_date_change_is_refused_and_superseded_ones_leave_the_review() {
    let w = World::new(WeightUnit::Lbs, 135.0);
    let inc = |v| {
        draft(
            ChangeType::IncreaseWeight,
            ChangeProperty::Weight,
            Some(0),
            num(v),
        )
    };
    *w.ai.drafts.lock().unwrap() = vec![inc(140.0)];
    let old = find(
        &w.workout("s1", 0, mid(135.0)),
        ChangeType::IncreaseWeight,
        Some(0),
    );
    w.coach.suggestions().defer_change(old.id.clone()).unwrap();
    // Deferring again changes nothing.
    let t = w.clock.now_ms();
    w.set_time(t + 1000);
    let again = w.coach.suggestions().defer_change(old.id.clone()).unwrap();
    assert_eq!(
        (again.decision, again.decided_at_ms),
        (Decision::Deferred, Some(t))
    );
    assert_eq!(
        w.coach.suggestions().deferred("plan".into()).unwrap().len(),
        1
    );

    // Eight days later (past the cooldown) a newer "135 -> 145" is made and accepted.
    *w.ai.drafts.lock().unwrap() = vec![inc(145.0)];
    let newer = find(
        &w.workout("s2", 8, mid(135.0)),
        ChangeType::IncreaseWeight,
        Some(0),
    );
    assert!(
        w.coach
            .suggestions()
            .deferred("plan".into())
            .unwrap()
            .is_empty(),
        "the old deferred change is superseded by the newer similar one"
    );
    w.coach.suggestions().accept(newer.id).unwrap();
    assert_eq!(w.bench().sets[0].target_weight, 145.0);
    // The old "135 -> 140" would set the weight back: refused, nothing changes.
    let err = w.coach.suggestions().accept(old.id.clone()).unwrap_err();
    assert_eq!(err.code(), "invalid_argument", "{err}");
    assert_eq!(w.bench().sets[0].target_weight, 145.0);
    let stored = w.coach.suggestions().for_session("s1".into()).unwrap();
    assert_eq!(stored[0].decision, Decision::Deferred);
    // Deciding an accepted change is refused.
    assert_eq!(
        w.coach
            .suggestions()
            .reject(stored[0].id.clone())
            .map(|c| c.decision)
            .ok(),
        Some(Decision::Rejected),
        "an out-of-date change can still be rejected"
    );
}

#[test]
fn changes_the_plan_moved_past_leave_the_review() {
    let w = World::new(WeightUnit::Lbs, 135.0);
    *w.ai.drafts.lock().unwrap() = vec![
        draft(
            ChangeType::IncreaseWeight,
            ChangeProperty::Weight,
            Some(0),
            num(140.0),
        ),
        draft(
            ChangeType::IncreaseReps,
            ChangeProperty::Reps,
            Some(2),
            num(10.0),
        ),
    ];
    w.workout("s1", 0, mid(135.0));
    assert_eq!(w.coach.suggestions().defer_pending("s1".into()).unwrap(), 2);
    let review = |w: &World| -> Vec<ChangeType> {
        w.coach
            .suggestions()
            .deferred("plan".into())
            .unwrap()
            .into_iter()
            .map(|c| c.draft.change_type)
            .collect()
    };
    assert_eq!(
        review(&w),
        [ChangeType::IncreaseWeight, ChangeType::IncreaseReps]
    );
    let weight = find(
        &w.coach.suggestions().for_session("s1".into()).unwrap(),
        ChangeType::IncreaseWeight,
        Some(0),
    );
    let edit = |f: &dyn Fn(&mut ExercisePrescription)| {
        let mut p = w.coach.workouts().plan("plan".into()).unwrap().unwrap();
        f(&mut p.exercises[0]);
        w.coach.workouts().save_plan(p).unwrap();
    };
    // The user sets 150 through savePlan: "135 -> 140" is out of date, not offered.
    edit(&|e| e.sets[0].target_weight = 150.0);
    assert_eq!(review(&w), [ChangeType::IncreaseReps]);
    let err = w.coach.suggestions().accept(weight.id.clone()).unwrap_err();
    assert_eq!(err.code(), "invalid_argument", "{err}");
    assert_eq!(w.bench().sets[0].target_weight, 150.0);
    // Back at 135 it can be accepted again, so it is offered again.
    edit(&|e| e.sets[0].target_weight = 135.0);
    assert_eq!(
        review(&w),
        [ChangeType::IncreaseWeight, ChangeType::IncreaseReps]
    );
    // Set 2 removed: its reps change cannot be applied.
    edit(&|e| e.sets.truncate(2));
    assert_eq!(review(&w), [ChangeType::IncreaseWeight]);
    w.coach.suggestions().accept(weight.id).unwrap();
    assert_eq!(w.bench().sets[0].target_weight, 140.0);
    assert!(review(&w).is_empty());
    // The left-out change stays stored, deferred (it can still be rejected).
    let reps = find(
        &w.coach.suggestions().for_session("s1".into()).unwrap(),
        ChangeType::IncreaseReps,
        Some(2),
    );
    assert_eq!(reps.decision, Decision::Deferred);
}

#[test]
fn changes_of_a_removed_exercise_leave_the_review() {
    let w = World::new(WeightUnit::Lbs, 135.0);
    *w.ai.drafts.lock().unwrap() = vec![draft(
        ChangeType::IncreaseRest,
        ChangeProperty::Rest,
        None,
        num(150.0),
    )];
    w.workout("s1", 0, mid(135.0));
    assert_eq!(w.coach.suggestions().defer_pending("s1".into()).unwrap(), 1);
    assert_eq!(
        w.coach.suggestions().deferred("plan".into()).unwrap().len(),
        1
    );
    let mut p = w.coach.workouts().plan("plan".into()).unwrap().unwrap();
    p.exercises[0].id = "rx-bench-2".into();
    w.coach.workouts().save_plan(p).unwrap();
    assert!(w
        .coach
        .suggestions()
        .deferred("plan".into())
        .unwrap()
        .is_empty());
    let c = w
        .coach
        .suggestions()
        .for_session("s1".into())
        .unwrap()
        .remove(0);
    assert_eq!(
        w.coach.suggestions().accept(c.id).unwrap_err().code(),
        "not_found"
    );
}

#[test]
fn an_accepted_rest_increase_is_judged_on_working_sets_not_the_warmup() {
    // The audit's case: range 8-12, a 95 x 5 warmup and two working sets at 135, rest 60 s.
    let w = World::new(WeightUnit::Lbs, 135.0);
    let mut p = plan("plan", "rx-bench", WeightUnit::Lbs, 135.0);
    let e = &mut p.exercises[0];
    e.rest_seconds = 60;
    e.sets[0].set_type = SetType::Warmup;
    e.sets[0].target_weight = 95.0;
    e.sets[0].target_reps = 5;
    for s in &mut e.sets[1..] {
        s.target_reps = 10;
    }
    w.coach.workouts().save_plan(p).unwrap();
    let logged = |rests: [Option<u32>; 3], reps: [u32; 2]| {
        vec![
            typed(0, SetType::Warmup, 95.0, 5, rests[0]),
            typed(1, SetType::Regular, 135.0, reps[0], rests[1]),
            typed(2, SetType::Regular, 135.0, reps[1], rests[2]),
        ]
    };
    // Two sessions resting 30 s before the second working set, which drops below the floor.
    let short = logged([Some(60), Some(30), None], [10, 7]);
    w.workout("s1", 0, short.clone());
    let inc = find(&w.workout("s2", 2, short), ChangeType::IncreaseRest, None);
    assert_eq!(
        inc.draft.rule_id.as_deref(),
        Some("short_rest_performance_drop")
    );
    assert_eq!(inc.draft.new_value, num(75.0));
    w.coach.suggestions().accept(inc.id.clone()).unwrap();
    assert_eq!(w.bench().rest_seconds, 75);
    // Next workout: 75 s rests, the warmup at 95 x 5 again, both working sets at 10.
    w.workout("s3", 4, logged([Some(75), Some(75), None], [10, 10]));
    let judged = w
        .coach
        .suggestions()
        .for_session("s2".into())
        .unwrap()
        .into_iter()
        .find(|c| c.id == inc.id)
        .unwrap();
    assert_eq!(judged.outcome, Outcome::Good, "{:?}", judged.outcome_reason);
}

#[test]
fn outcomes_wait_for_a_session_performed_after_the_decision() {
    let w = World::new(WeightUnit::Lbs, 135.0);
    *w.ai.drafts.lock().unwrap() = vec![draft(
        ChangeType::IncreaseWeight,
        ChangeProperty::Weight,
        Some(0),
        num(140.0),
    )];
    let c = find(
        &w.workout("s1", 0, mid(135.0)),
        ChangeType::IncreaseWeight,
        Some(0),
    );
    w.ai.drafts.lock().unwrap().clear();
    let decided = T0 + 2 * DAY;
    w.set_time(decided);
    w.coach.suggestions().accept(c.id.clone()).unwrap();
    let outcome = |w: &World| {
        w.coach
            .suggestions()
            .for_session("s1".into())
            .unwrap()
            .into_iter()
            .find(|x| x.id == c.id)
            .unwrap()
    };
    // A workout performed 1 ms before the decision (logged late) is not its test.
    w.coach
        .workouts()
        .log_session(session("s2", "plan", "rx-bench", decided - 1, mid(140.0)))
        .unwrap();
    assert_eq!(outcome(&w).outcome, Outcome::NotEvaluated);
    // One performed at the decision's time is.
    w.coach
        .workouts()
        .log_session(session("s3", "plan", "rx-bench", decided, mid(140.0)))
        .unwrap();
    let got = outcome(&w);
    assert_eq!(got.outcome, Outcome::Good, "{:?}", got.outcome_reason);
    // Evaluated once: a later too-easy workout does not change it.
    w.coach
        .workouts()
        .log_session(session(
            "s4",
            "plan",
            "rx-bench",
            decided + DAY,
            (0..3).map(|i| set(i, 140.0, 20)).collect(),
        ))
        .unwrap();
    assert_eq!(outcome(&w).outcome, Outcome::Good);
}

#[test]
fn a_users_own_value_does_not_block_similar_suggestions_but_an_accepted_one_does() {
    let w = World::new(WeightUnit::Lbs, 135.0);
    let inc = |set, v| {
        draft(
            ChangeType::IncreaseWeight,
            ChangeProperty::Weight,
            Some(set),
            num(v),
        )
    };
    *w.ai.drafts.lock().unwrap() = vec![inc(0, 140.0), inc(1, 140.0)];
    let first = w.workout("s1", 0, mid(135.0));
    let edited = w
        .coach
        .suggestions()
        .accept_edited(
            find(&first, ChangeType::IncreaseWeight, Some(0)).id,
            num(145.0),
        )
        .unwrap();
    assert!(edited.user_override);
    assert_eq!(
        (edited.decision, edited.draft.new_value.clone()),
        (Decision::Accepted, num(145.0))
    );
    w.coach
        .suggestions()
        .accept(find(&first, ChangeType::IncreaseWeight, Some(1)).id)
        .unwrap();
    let b = w.bench();
    assert_eq!(
        (b.sets[0].target_weight, b.sets[1].target_weight),
        (145.0, 140.0)
    );

    // Two days later the same proposals: set 0 (the user's own value) is not in cooldown, set 1
    // (a plain acceptance) is.
    *w.ai.drafts.lock().unwrap() = vec![inc(0, 150.0), inc(1, 145.0)];
    let second = w.workout(
        "s2",
        2,
        vec![set(0, 145.0, 10), set(1, 140.0, 10), set(2, 135.0, 10)],
    );
    let incs: Vec<_> = second
        .iter()
        .filter(|c| c.draft.change_type == ChangeType::IncreaseWeight)
        .map(|c| c.draft.target_set_index)
        .collect();
    assert_eq!(incs, vec![Some(0)], "{second:#?}");

    // An edit that goes the other way turns the change around; one that changes nothing, or
    // has the wrong kind, is refused and nothing changes.
    let c = find(&second, ChangeType::IncreaseWeight, Some(0));
    for (value, why) in [
        (num(145.0), "the current value"),
        (
            ChangeValue::SetType {
                value: SetType::Drop,
            },
            "wrong kind",
        ),
        (num(f64::NAN), "not a number"),
        (num(-5.0), "negative"),
    ] {
        let err = w
            .coach
            .suggestions()
            .accept_edited(c.id.clone(), value)
            .unwrap_err();
        assert_eq!(err.code(), "invalid_argument", "{why}: {err}");
    }
    assert_eq!(w.bench().sets[0].target_weight, 145.0);
    let down = w
        .coach
        .suggestions()
        .accept_edited(c.id.clone(), num(142.5))
        .unwrap();
    assert_eq!(down.draft.change_type, ChangeType::DecreaseWeight);
    assert_eq!(w.bench().sets[0].target_weight, 142.5);
}

// ---------------------------------------------------------------------------------------------
// Units, context and history.

#[test]
fn weights_keep_the_unit_they_were_logged_in() {
    let w = World::new(WeightUnit::Lbs, 135.0);
    w.coach
        .workouts()
        .save_plan(plan("metric", "rx-bench-kg", WeightUnit::Kg, 60.0))
        .unwrap();
    w.workout("s1", 0, mid(135.0)); // lb plan
    w.set_time(T0 + 2 * DAY);
    w.coach
        .workouts()
        .log_session(session(
            "s2",
            "metric",
            "rx-bench-kg",
            T0 + 2 * DAY,
            mid(60.0),
        ))
        .unwrap();
    w.coach.suggestions().for_session("s2".into()).unwrap();
    let ctx = w.ai.contexts.lock().unwrap().last().unwrap().clone();
    assert_eq!(ctx.plan.unit, WeightUnit::Kg);
    assert_eq!(ctx.current.sets[0].weight, 60.0);
    let prev = ctx.previous[0].sets[0].weight;
    assert!(
        (prev - 135.0 / 2.20462).abs() < 1e-9,
        "135 lb in kg: {prev}"
    );
    let best_lb = 135.0 * (1.0 + 10.0 / 30.0);
    let h = ctx.history.unwrap();
    assert!((h.best_e1rm - best_lb / 2.20462).abs() < 1e-9, "{h:?}");
    assert!(
        (h.last_e1rm - 60.0 * (1.0 + 10.0 / 30.0)).abs() < 1e-9,
        "{h:?}"
    );

    // Switching the lb plan to kg reinterprets nothing.
    let mut p = w.coach.workouts().plan("plan".into()).unwrap().unwrap();
    p.settings.unit = WeightUnit::Kg;
    w.coach.workouts().save_plan(p).unwrap();
    let store = w.store();
    let read = |unit| {
        store
            .read(|db| db.performances_before("bench", i64::MAX, 10, unit))
            .unwrap()
            .iter()
            .map(|p| p.sets[0].weight)
            .collect::<Vec<_>>()
    };
    let lbs = read(WeightUnit::Lbs);
    assert!(
        (lbs[0] - 60.0 * 2.20462).abs() < 1e-9 && lbs[1] == 135.0,
        "{lbs:?}"
    );
    let kg = read(WeightUnit::Kg);
    assert!(
        kg[0] == 60.0 && (kg[1] - 135.0 / 2.20462).abs() < 1e-9,
        "{kg:?}"
    );
    let h = w
        .coach
        .workouts()
        .history("bench".into(), None)
        .unwrap()
        .unwrap();
    assert!(
        (h.best_e1rm - best_lb).abs() < 1e-9,
        "history in pounds: {h:?}"
    );
    let hk = w
        .coach
        .workouts()
        .history("bench".into(), Some(WeightUnit::Kg))
        .unwrap()
        .unwrap();
    assert!((hk.best_e1rm - best_lb / 2.20462).abs() < 1e-9, "{hk:?}");
}

#[test]
fn the_context_holds_up_to_three_earlier_completed_performances() {
    let w = World::new(WeightUnit::Lbs, 135.0);
    w.ai.drafts.lock().unwrap().clear();
    let not_done: Vec<PerformedSet> = (0..3)
        .map(|i| PerformedSet {
            completed: false,
            ..set(i, 135.0, 10)
        })
        .collect();
    for (id, day, sets) in [
        ("a", 0, mid(100.0)),
        ("b", 1, mid(105.0)),
        ("c", 2, mid(110.0)),
        ("d", 3, mid(115.0)),
        ("skipped", 4, not_done),
    ] {
        w.set_time(T0 + day * DAY);
        w.coach
            .workouts()
            .log_session(session(id, "plan", "rx-bench", T0 + day * DAY, sets))
            .unwrap();
    }
    // Another session at the very same time as the current one.
    let now = T0 + 5 * DAY;
    w.set_time(now);
    w.coach
        .workouts()
        .log_session(session("twin", "plan", "rx-bench", now, mid(120.0)))
        .unwrap();
    w.coach
        .workouts()
        .log_session(session("current", "plan", "rx-bench", now, mid(125.0)))
        .unwrap();
    w.coach.suggestions().for_session("current".into()).unwrap();
    let ctx = w.ai.contexts.lock().unwrap().last().unwrap().clone();
    let ids: Vec<_> = ctx.previous.iter().map(|p| p.session_id.as_str()).collect();
    assert_eq!(
        ids,
        ["d", "c", "b"],
        "newest first, completed only, strictly earlier"
    );
    assert_eq!(ctx.current.session_id, "current");

    let store = w.store();
    let before = |at, limit| {
        store
            .read(|db| db.performances_before("bench", at, limit, WeightUnit::Lbs))
            .unwrap()
            .into_iter()
            .map(|p| p.session_id)
            .collect::<Vec<_>>()
    };
    assert_eq!(before(now, 10), ["d", "c", "b", "a"]);
    assert_eq!(
        before(now + 1, 2).len(),
        2,
        "twin and current, in some order"
    );
    assert_eq!(before(T0, 3), Vec::<String>::new());
    assert_eq!(before(T0 + 1, 3), ["a"]);
}

#[test]
fn the_history_cache_counts_sessions_and_survives_a_backfill() {
    let w = World::new(WeightUnit::Lbs, 135.0);
    w.ai.drafts.lock().unwrap().clear();
    let log = |id: &str, day: i64, sets: Vec<PerformedSet>| {
        w.coach
            .workouts()
            .log_session(session(id, "plan", "rx-bench", T0 + day * DAY, sets))
            .unwrap()
    };
    let e1rm = |wt: f64, reps: f64| wt * (1.0 + reps / 30.0);
    log("s1", 10, mid(135.0));
    log("s2", 12, mid(140.0));
    let h = w
        .coach
        .workouts()
        .history("bench".into(), None)
        .unwrap()
        .unwrap();
    assert_eq!((h.session_count, h.last_e1rm), (2, e1rm(140.0, 10.0)));
    // A session without a completed set does not count.
    log(
        "s3",
        13,
        (0..3)
            .map(|i| PerformedSet {
                completed: false,
                ..set(i, 300.0, 1)
            })
            .collect(),
    );
    assert_eq!(
        w.coach
            .workouts()
            .history("bench".into(), None)
            .unwrap()
            .unwrap()
            .session_count,
        2
    );
    // Bench twice in one session counts once.
    let mut twice = session("s4", "plan", "rx-bench", T0 + 14 * DAY, mid(145.0));
    let mut again = twice.exercises[0].clone();
    again.id = "s4-bench-2".into();
    twice.exercises.push(again);
    w.coach.workouts().log_session(twice).unwrap();
    let h = w
        .coach
        .workouts()
        .history("bench".into(), None)
        .unwrap()
        .unwrap();
    assert_eq!((h.session_count, h.last_e1rm), (3, e1rm(145.0, 10.0)));
    // Backfilling an older, heavier session: counted, its e1RM is the best, but the latest
    // e1RM is still the newest session's.
    log("old", 1, (0..3).map(|i| set(i, 200.0, 5)).collect());
    let h = w
        .coach
        .workouts()
        .history("bench".into(), None)
        .unwrap()
        .unwrap();
    assert_eq!(h.session_count, 4);
    assert_eq!(
        h.last_e1rm,
        e1rm(145.0, 10.0),
        "not overwritten by the backfill"
    );
    assert_eq!(h.best_e1rm, e1rm(200.0, 5.0));
}

#[test]
fn the_outcome_query_uses_its_partial_index() {
    let w = World::new(WeightUnit::Lbs, 135.0);
    drop(w.coach);
    let conn = rusqlite::Connection::open(&w.path).unwrap();
    let plan: Vec<String> = conn
        .prepare(
            "EXPLAIN QUERY PLAN SELECT id FROM prescription_changes
             WHERE prescription_id = ?1 AND decision = 'accepted' AND outcome = 'notEvaluated'
             AND decided_at_ms <= ?2 ORDER BY created_at_ms, seq",
        )
        .unwrap()
        .query_map(rusqlite::params!["rx-bench", T0], |r| r.get::<_, String>(3))
        .unwrap()
        .map(|r| r.unwrap())
        .collect();
    assert!(
        plan.iter()
            .any(|l| l.contains("USING INDEX prescription_changes_unevaluated")),
        "{plan:?}"
    );
}

// ---------------------------------------------------------------------------------------------
// Third audit round: errors without caller data, reused ids, impossible loads, reps and rest
// bounds, whole-number edits, the edited reasoning, and supersession in the deferred review.

#[test]
fn not_found_errors_never_repeat_the_callers_ids() {
    let w = World::new(WeightUnit::Lbs, 135.0);
    let secret = "Sarah Connor's cut plan";
    let edited = || {
        w.coach
            .suggestions()
            .accept_edited(secret.into(), num(140.0))
    };
    let calls: Vec<(&str, Result<(), CoachError>, &str)> = vec![
        (
            "logSession with an unknown plan",
            w.coach
                .workouts()
                .log_session(session("s-x", secret, "rx-bench", T0, mid(135.0))),
            "the session's plan does not exist",
        ),
        (
            "suggestionsForSession",
            w.coach.suggestions().for_session(secret.into()).map(|_| ()),
            "no such session",
        ),
        (
            "acceptChange",
            w.coach.suggestions().accept(secret.into()).map(|_| ()),
            "no such change",
        ),
        ("acceptChangeEdited", edited().map(|_| ()), "no such change"),
        (
            "rejectChange",
            w.coach.suggestions().reject(secret.into()).map(|_| ()),
            "no such change",
        ),
        (
            "deferChange",
            w.coach
                .suggestions()
                .defer_change(secret.into())
                .map(|_| ()),
            "no such change",
        ),
        (
            "deferPending",
            w.coach
                .suggestions()
                .defer_pending(secret.into())
                .map(|_| ()),
            "no such session",
        ),
        (
            "deferredForPlan",
            w.coach.suggestions().deferred(secret.into()).map(|_| ()),
            "no such plan",
        ),
    ];
    for (name, result, want) in calls {
        let err = result.expect_err(name);
        assert_eq!(
            (err.code(), err.detail().as_str()),
            ("not_found", want),
            "{name}"
        );
        assert!(!err.to_string().contains("Sarah"), "{name}: {err}");
    }
}

#[test]
fn a_reused_exercise_log_id_is_refused_before_anything_is_stored() {
    let w = World::new(WeightUnit::Lbs, 135.0);
    w.ai.drafts.lock().unwrap().clear();
    w.workout("s1", 0, mid(135.0));
    // "s2" reuses the exercise log id "s1-bench" of s1.
    let mut reused = session("s2", "plan", "rx-bench", T0 + DAY, mid(135.0));
    reused.exercises[0].id = "s1-bench".into();
    let err = w.coach.workouts().log_session(reused).unwrap_err();
    assert_eq!(
        (err.code(), err.detail().as_str()),
        (
            "invalid_argument",
            "exercises[0].id is already used by a logged exercise"
        )
    );
    assert_eq!(
        w.coach
            .suggestions()
            .for_session("s2".into())
            .unwrap_err()
            .code(),
        "not_found",
        "nothing of s2 was stored"
    );
    // Repeated within one log, and a reused session id: refused too.
    let mut twice = session("s3", "plan", "rx-bench", T0 + DAY, mid(135.0));
    twice.exercises.push(twice.exercises[0].clone());
    assert_eq!(
        w.coach.workouts().log_session(twice).unwrap_err().detail(),
        "exercises[1].id is empty or repeated"
    );
    let mut same_session = session("s1", "plan", "rx-bench", T0 + DAY, mid(135.0));
    same_session.exercises[0].id = "fresh".into();
    assert_eq!(
        w.coach
            .workouts()
            .log_session(same_session)
            .unwrap_err()
            .code(),
        "invalid_argument"
    );
    // A fresh id logs.
    w.coach
        .workouts()
        .log_session(session("s4", "plan", "rx-bench", T0 + DAY, mid(135.0)))
        .unwrap();
}

/// An exercise context for `evaluateExercise` with `load` in its plan settings.
fn context_with(load: LoadConfig) -> ExerciseContext {
    ExerciseContext {
        plan: PlanSettings {
            plan_id: "plan".into(),
            unit: WeightUnit::Lbs,
            training_style: TrainingStyle::StraightSets,
            load,
        },
        exercise: CatalogExercise {
            catalog_id: "bench".into(),
            name: "Bench Press".into(),
            equipment: Equipment::Barbell,
            target_muscles: vec![Muscle::Chest],
        },
        prescription: rx(range(8, 12), 135.0),
        current: perf(mid(135.0)),
        previous: vec![],
        history: None,
    }
}

#[test]
fn impossible_load_configs_are_refused_at_and_around_the_limits() {
    let w = World::new(WeightUnit::Lbs, 135.0);
    let bar = |b: f64| LoadConfig {
        plates: vec![45.0],
        bar_weight: b,
        dumbbells: vec![],
    };
    let plates = |p: Vec<f64>| LoadConfig {
        plates: p,
        bar_weight: 45.0,
        dumbbells: vec![],
    };
    let bells = |d: Vec<f64>| LoadConfig {
        plates: vec![],
        bar_weight: 0.0,
        dumbbells: d,
    };
    let sizes = |n: usize, first: f64| (0..n).map(|i| first + i as f64).collect::<Vec<f64>>();
    // (name, load, refused field or None when accepted)
    let cases: Vec<(&str, LoadConfig, Option<&str>)> = vec![
        ("default bar", bar(0.0), None),
        ("bar 100", bar(100.0), None),
        ("bar 100.5", bar(100.5), Some("barWeight")),
        ("bar 1e300", bar(1e300), Some("barWeight")),
        ("bar NaN", bar(f64::NAN), Some("barWeight")),
        ("bar infinite", bar(f64::INFINITY), Some("barWeight")),
        ("bar negative", bar(-1.0), Some("barWeight")),
        ("plates 45, 25, 2.5", plates(vec![45.0, 25.0, 2.5]), None),
        ("plate 100", plates(vec![100.0]), None),
        ("plate 100.5", plates(vec![45.0, 100.5]), Some("plates[1]")),
        ("plate 0", plates(vec![0.0]), Some("plates[0]")),
        ("plate negative", plates(vec![-5.0]), Some("plates[0]")),
        ("plate NaN", plates(vec![f64::NAN]), Some("plates[0]")),
        ("plate 1e16", plates(vec![0.003, 1e16]), Some("plates[1]")),
        ("32 plate sizes", plates(sizes(32, 1.0)), None),
        ("33 plate sizes", plates(sizes(33, 1.0)), Some("plates")),
        ("dumbbell 500", bells(vec![5.0, 500.0]), None),
        ("dumbbell 500.5", bells(vec![500.5]), Some("dumbbells[0]")),
        ("dumbbell 0", bells(vec![0.0]), Some("dumbbells[0]")),
        (
            "dumbbell negative",
            bells(vec![10.0, -5.0]),
            Some("dumbbells[1]"),
        ),
        ("dumbbell NaN", bells(vec![f64::NAN]), Some("dumbbells[0]")),
        ("200 dumbbells", bells(sizes(200, 1.0)), None),
        ("201 dumbbells", bells(sizes(201, 1.0)), Some("dumbbells")),
    ];
    for (name, load, refused) in cases {
        let mut p = plan("plan", "rx-bench", WeightUnit::Lbs, 135.0);
        p.settings.load = load.clone();
        let saved = w.coach.workouts().save_plan(p.clone());
        let evaluated = coachcore::evaluate_exercise(context_with(load), vec![], T0);
        match refused {
            None => {
                saved.unwrap_or_else(|e| panic!("{name}: savePlan {e}"));
                evaluated.unwrap_or_else(|e| panic!("{name}: evaluateExercise {e}"));
                assert_eq!(
                    w.coach.workouts().plan("plan".into()).unwrap().unwrap(),
                    p,
                    "{name}"
                );
            }
            Some(field) => {
                let e = saved.expect_err(name);
                assert_eq!(e.code(), "invalid_argument", "{name}: {e}");
                assert!(
                    e.detail().starts_with(&format!("settings.load.{field} ")),
                    "{name}: {e}"
                );
                let e = evaluated.expect_err(name);
                assert!(
                    e.detail()
                        .starts_with(&format!("context.plan.load.{field} ")),
                    "{name}: {e}"
                );
                assert_ne!(
                    w.coach
                        .workouts()
                        .plan("plan".into())
                        .unwrap()
                        .unwrap()
                        .settings
                        .load,
                    p.settings.load,
                    "{name}: nothing saved"
                );
            }
        }
    }
}

#[test]
fn target_reps_and_rest_are_bounded() {
    let w = World::new(WeightUnit::Lbs, 135.0);
    type Edit = fn(&mut ExercisePrescription);
    // (name, edit, refused field or None)
    let cases: Vec<(&str, Edit, Option<&str>)> = vec![
        ("reps 1000", |e| e.sets[1].target_reps = 1000, None),
        (
            "reps 1001",
            |e| e.sets[1].target_reps = 1001,
            Some("exercises[0].sets[1].targetReps"),
        ),
        (
            "reps u32::MAX",
            |e| e.sets[0].target_reps = u32::MAX,
            Some("exercises[0].sets[0].targetReps"),
        ),
        ("rest 3600", |e| e.rest_seconds = 3600, None),
        (
            "rest 3601",
            |e| e.rest_seconds = 3601,
            Some("exercises[0].restSeconds"),
        ),
        ("set rest 3600", |e| e.sets[2].rest_seconds = 3600, None),
        (
            "set rest u32::MAX",
            |e| e.sets[2].rest_seconds = u32::MAX,
            Some("exercises[0].sets[2].restSeconds"),
        ),
        ("set index 99", |e| e.sets[2].index = 99, None),
        (
            "set index u32::MAX",
            |e| e.sets[2].index = u32::MAX,
            Some("exercises[0].sets[2].index"),
        ),
    ];
    for (name, edit, refused) in cases {
        let mut p = plan("plan", "rx-bench", WeightUnit::Lbs, 135.0);
        edit(&mut p.exercises[0]);
        match (w.coach.workouts().save_plan(p), refused) {
            (Ok(()), None) => {}
            (Err(e), Some(field)) => {
                assert_eq!(e.code(), "invalid_argument", "{name}");
                assert!(e.detail().starts_with(field), "{name}: {e}");
            }
            (other, _) => panic!("{name}: {other:?}"),
        }
    }

    // An edited acceptance past the bounds is refused, at the bound accepted.
    w.coach
        .workouts()
        .save_plan(plan("plan", "rx-bench", WeightUnit::Lbs, 135.0))
        .unwrap();
    *w.ai.drafts.lock().unwrap() = vec![
        draft(
            ChangeType::IncreaseRest,
            ChangeProperty::Rest,
            None,
            num(150.0),
        ),
        draft(
            ChangeType::IncreaseReps,
            ChangeProperty::Reps,
            Some(0),
            num(10.0),
        ),
    ];
    let changes = w.workout("s1", 0, mid(135.0));
    let rest = find(&changes, ChangeType::IncreaseRest, None);
    let reps = find(&changes, ChangeType::IncreaseReps, Some(0));
    for (id, value) in [
        (&rest.id, 4_294_967_295.0),
        (&rest.id, 3601.0),
        (&reps.id, 1001.0),
    ] {
        let err = w
            .coach
            .suggestions()
            .accept_edited(id.clone(), num(value))
            .unwrap_err();
        assert_eq!(err.code(), "invalid_argument", "{value}: {err}");
    }
    assert_eq!(
        (w.bench().rest_seconds, w.bench().sets[0].target_reps),
        (120, 8)
    );
    w.coach
        .suggestions()
        .accept_edited(rest.id.clone(), num(3600.0))
        .unwrap();
    w.coach
        .suggestions()
        .accept_edited(reps.id.clone(), num(1000.0))
        .unwrap();
    assert_eq!(
        (w.bench().rest_seconds, w.bench().sets[0].target_reps),
        (3600, 1000)
    );
}

#[test]
fn edited_reps_rest_and_set_counts_must_be_whole_numbers() {
    let w = World::new(WeightUnit::Lbs, 135.0);
    *w.ai.drafts.lock().unwrap() = vec![
        draft(
            ChangeType::IncreaseReps,
            ChangeProperty::Reps,
            Some(0),
            num(9.0),
        ),
        draft(
            ChangeType::IncreaseRest,
            ChangeProperty::Rest,
            None,
            num(150.0),
        ),
        draft(ChangeType::AddSet, ChangeProperty::SetCount, None, num(4.0)),
    ];
    let changes = w.workout("s1", 0, mid(135.0));
    let reps = find(&changes, ChangeType::IncreaseReps, Some(0));
    let rest = find(&changes, ChangeType::IncreaseRest, None);
    let count = find(&changes, ChangeType::AddSet, None);
    for (c, value) in [
        (&reps, 8.3),
        (&reps, 9.5),
        (&reps, 8.000001),
        (&rest, 150.5),
        (&count, 4.5),
    ] {
        let err = w
            .coach
            .suggestions()
            .accept_edited(c.id.clone(), num(value))
            .unwrap_err();
        assert_eq!(
            (err.code(), err.detail().as_str()),
            (
                "invalid_argument",
                "the edited value must be a whole number for reps, rest and set count"
            ),
            "{value}"
        );
    }
    let before = w.bench();
    assert_eq!(
        (
            before.sets[0].target_reps,
            before.rest_seconds,
            before.sets.len()
        ),
        (8, 120, 3)
    );
    // Whole numbers are accepted and stored as written.
    for (c, value) in [(&reps, 10.0), (&rest, 180.0), (&count, 5.0)] {
        let done = w
            .coach
            .suggestions()
            .accept_edited(c.id.clone(), num(value))
            .unwrap();
        assert_eq!(done.draft.new_value, num(value));
    }
    let after = w.bench();
    assert_eq!(
        (
            after.sets[0].target_reps,
            after.rest_seconds,
            after.sets.len()
        ),
        (10, 180, 5)
    );
}

#[test]
fn an_edited_acceptance_says_what_the_user_chose() {
    for (unit, w0, suggested, chosen, sentence) in [
        (
            WeightUnit::Lbs,
            135.0,
            140.0,
            143.0,
            "You chose 143 lb instead of the suggested 140 lb.",
        ),
        (
            WeightUnit::Kg,
            60.0,
            62.5,
            61.25,
            "You chose 61.25 kg instead of the suggested 62.5 kg.",
        ),
    ] {
        let w = World::new(unit, w0);
        *w.ai.drafts.lock().unwrap() = vec![draft(
            ChangeType::IncreaseWeight,
            ChangeProperty::Weight,
            Some(0),
            num(suggested),
        )];
        let c = find(
            &w.workout("s1", 0, mid(w0)),
            ChangeType::IncreaseWeight,
            Some(0),
        );
        let done = w
            .coach
            .suggestions()
            .accept_edited(c.id.clone(), num(chosen))
            .unwrap();
        assert_eq!(done.draft.reasoning, format!("test {sentence}"));
        // Stored so: read back through the session.
        let stored = find(
            &w.coach.suggestions().for_session("s1".into()).unwrap(),
            ChangeType::IncreaseWeight,
            Some(0),
        );
        assert_eq!(stored.draft.reasoning, done.draft.reasoning);
        assert_eq!(stored.draft.new_value, num(chosen));
    }

    // Every other kind of change.
    let w = World::new(WeightUnit::Lbs, 135.0);
    *w.ai.drafts.lock().unwrap() = kinds();
    w.ai.drafts.lock().unwrap().push(draft(
        ChangeType::AddSet,
        ChangeProperty::SetCount,
        None,
        num(4.0),
    ));
    let changes = w.workout("s1", 0, mid(135.0));
    let cases = [
        (
            ChangeType::IncreaseReps,
            Some(1),
            num(11.0),
            "You chose 11 reps instead of the suggested 10.",
        ),
        (
            ChangeType::IncreaseRest,
            None,
            num(180.0),
            "You chose 180 s of rest instead of the suggested 150 s.",
        ),
        (
            ChangeType::AddSet,
            None,
            num(5.0),
            "You chose 5 sets instead of the suggested 4.",
        ),
        (
            ChangeType::ChangeSetType,
            Some(0),
            ChangeValue::SetType {
                value: SetType::Drop,
            },
            "You chose a drop set instead of the suggested warmup set.",
        ),
        (
            ChangeType::ChangeRepRange,
            None,
            ChangeValue::RepRange { value: target(10) },
            "You chose 10 reps instead of the suggested 6-10 reps.",
        ),
    ];
    for (t, set, value, sentence) in cases {
        let c = find(&changes, t, set);
        let done = w.coach.suggestions().accept_edited(c.id, value).unwrap();
        assert_eq!(done.draft.reasoning, format!("test {sentence}"), "{t:?}");
    }
}

#[test]
fn an_out_of_date_newer_change_does_not_hide_an_acceptable_deferred_one() {
    let w = World::new(WeightUnit::Lbs, 135.0);
    let inc = |v| {
        draft(
            ChangeType::IncreaseWeight,
            ChangeProperty::Weight,
            Some(0),
            num(v),
        )
    };
    let edit_weight = |weight: f64| {
        let mut p = w.coach.workouts().plan("plan".into()).unwrap().unwrap();
        p.exercises[0].sets[0].target_weight = weight;
        w.coach.workouts().save_plan(p).unwrap();
    };
    let review = || -> Vec<(Option<ChangeValue>, ChangeValue)> {
        w.coach
            .suggestions()
            .deferred("plan".into())
            .unwrap()
            .into_iter()
            .map(|c| (c.draft.old_value, c.draft.new_value))
            .collect()
    };
    // A: 135 -> 140, deferred.
    *w.ai.drafts.lock().unwrap() = vec![inc(140.0)];
    w.workout("s1", 0, mid(135.0));
    assert_eq!(w.coach.suggestions().defer_pending("s1".into()).unwrap(), 1);
    // The user sets 140 by hand; eight days later B: 140 -> 145, deferred.
    edit_weight(140.0);
    *w.ai.drafts.lock().unwrap() = vec![inc(145.0)];
    w.workout("s2", 8, mid(140.0));
    assert_eq!(w.coach.suggestions().defer_pending("s2".into()).unwrap(), 1);
    assert_eq!(review(), [(Some(num(140.0)), num(145.0))], "at 140: B");
    // Back at 135: B is out of date, so it supersedes nothing and A is listed again.
    edit_weight(135.0);
    assert_eq!(review(), [(Some(num(135.0)), num(140.0))], "at 135: A");
    // At 150 neither fits.
    edit_weight(150.0);
    assert_eq!(review(), []);
    // Two acceptable similar changes: only the newer is listed.
    edit_weight(135.0);
    *w.ai.drafts.lock().unwrap() = vec![inc(140.0)];
    w.workout("s3", 16, mid(135.0));
    assert_eq!(
        w.coach
            .suggestions()
            .deferred("plan".into())
            .unwrap()
            .iter()
            .map(|c| c.session_id.as_str())
            .collect::<Vec<_>>(),
        Vec::<&str>::new(),
        "the newer pending 135 -> 140 supersedes A; it is not deferred yet"
    );
    assert_eq!(w.coach.suggestions().defer_pending("s3".into()).unwrap(), 1);
    assert_eq!(
        w.coach
            .suggestions()
            .deferred("plan".into())
            .unwrap()
            .iter()
            .map(|c| c.session_id.as_str())
            .collect::<Vec<_>>(),
        ["s3"]
    );
    // Accepted or rejected newer changes supersede nothing.
    let s3 = w.coach.suggestions().for_session("s3".into()).unwrap();
    w.coach.suggestions().reject(s3[0].id.clone()).unwrap();
    assert_eq!(review(), [(Some(num(135.0)), num(140.0))], "A again");
}

#[test]
fn logged_sets_are_bounded() {
    let w = World::new(WeightUnit::Lbs, 135.0);
    type Edit = fn(&mut PerformedSet);
    let cases: [(&str, Edit, &str); 3] = [
        (
            "set index",
            |s| s.index = u32::MAX,
            "exercises[0].sets[1].index",
        ),
        ("reps", |s| s.reps = u32::MAX, "exercises[0].sets[1].reps"),
        (
            "rest",
            |s| s.rest_seconds = Some(u32::MAX),
            "exercises[0].sets[1].restSeconds",
        ),
    ];
    for (n, (name, edit, field)) in cases.into_iter().enumerate() {
        let mut sets = mid(135.0);
        edit(&mut sets[1]);
        let id = format!("odd-{n}");
        let err = w
            .coach
            .workouts()
            .log_session(session(&id, "plan", "rx-bench", T0 + DAY, sets))
            .unwrap_err();
        assert_eq!(err.code(), "invalid_argument", "{name}");
        assert!(err.detail().starts_with(field), "{name}: {err}");
    }
}
