//! Builders for rule tests: a plan, an exercise and its sessions in a few lines.
//!
//! ```ignore
//! let ctx = Ctx::range(8, 12)            // a 3-set regular prescription at 100 lb, 8-12 reps
//!     .sessions(&[&[12, 12, 12], &[12, 12, 11]])  // reps per set, newest (current) first
//!     .build();
//! ```

use crate::suggest::model::*;

/// A performed set.
pub fn done(index: u32, set_type: SetType, weight: f64, reps: u32) -> PerformedSet {
    PerformedSet {
        index,
        set_type,
        weight,
        reps,
        rest_seconds: None,
        completed: true,
    }
}

/// Completed sets from (type, weight, reps), indexed in order from 0.
pub fn sets(spec: &[(SetType, f64, u32)]) -> Vec<PerformedSet> {
    spec.iter()
        .enumerate()
        .map(|(i, &(t, w, r))| done(i as u32, t, w, r))
        .collect()
}

/// A context builder. Sessions are given newest first; the first is the current one.
#[derive(Clone)]
pub struct Ctx {
    pub ctx: ExerciseContext,
}

impl Ctx {
    /// Chest press, 3 regular sets of 10 at 100 lb, 90 s rest (all-same), rep range `lower..=upper`.
    pub fn range(lower: u32, upper: u32) -> Ctx {
        Ctx::with_range(RepRange {
            mode: RepRangeMode::Range,
            lower,
            upper,
            target: 0,
        })
    }

    /// As [`Ctx::range`] but in target mode.
    pub fn target(target: u32) -> Ctx {
        Ctx::with_range(RepRange {
            mode: RepRangeMode::Target,
            lower: 0,
            upper: 0,
            target,
        })
    }

    /// As [`Ctx::range`] with no rep range.
    pub fn not_set() -> Ctx {
        Ctx::with_range(RepRange {
            mode: RepRangeMode::NotSet,
            lower: 0,
            upper: 0,
            target: 0,
        })
    }

    fn with_range(rep_range: RepRange) -> Ctx {
        let sets = (0..3)
            .map(|i| SetPrescription {
                index: i,
                set_type: SetType::Regular,
                target_weight: 100.0,
                target_reps: 10,
                rest_seconds: 90,
            })
            .collect();
        Ctx {
            ctx: ExerciseContext {
                plan: PlanSettings {
                    plan_id: "plan-1".into(),
                    unit: WeightUnit::Lbs,
                    training_style: TrainingStyle::Unknown,
                    load: LoadConfig::default(),
                },
                exercise: CatalogExercise {
                    catalog_id: "bench-press".into(),
                    name: "Bench Press".into(),
                    equipment: Equipment::Barbell,
                    target_muscles: vec![Muscle::Chest],
                },
                prescription: ExercisePrescription {
                    id: "rx-1".into(),
                    catalog_id: "bench-press".into(),
                    position: 0,
                    rep_range,
                    rest_mode: RestMode::AllSame,
                    rest_seconds: 90,
                    sets,
                },
                current: perf(0, vec![]),
                previous: vec![],
                history: None,
            },
        }
    }

    /// Sessions as reps per regular set at each set's target weight, newest (current) first.
    pub fn sessions(self, reps: &[&[u32]]) -> Ctx {
        let weights: Vec<f64> = self
            .ctx
            .prescription
            .sets
            .iter()
            .map(|s| s.target_weight)
            .collect();
        let sessions: Vec<Vec<PerformedSet>> = reps
            .iter()
            .map(|r| {
                r.iter()
                    .enumerate()
                    .map(|(i, &n)| {
                        done(
                            i as u32,
                            SetType::Regular,
                            weights.get(i).copied().unwrap_or(100.0),
                            n,
                        )
                    })
                    .collect()
            })
            .collect();
        self.performed(sessions)
    }

    /// Sessions given set by set, newest (current) first.
    pub fn performed(mut self, sessions: Vec<Vec<PerformedSet>>) -> Ctx {
        let mut all: Vec<ExercisePerformance> = sessions
            .into_iter()
            .enumerate()
            .map(|(i, sets)| perf(i, sets))
            .collect();
        self.ctx.current = all.remove(0);
        self.ctx.previous = all;
        self
    }

    /// Changes the prescription (e.g. weights, set types, rest).
    pub fn rx(mut self, f: impl FnOnce(&mut ExercisePrescription)) -> Ctx {
        f(&mut self.ctx.prescription);
        self
    }

    /// Changes anything else.
    pub fn with(mut self, f: impl FnOnce(&mut ExerciseContext)) -> Ctx {
        f(&mut self.ctx);
        self
    }

    /// The context.
    pub fn build(self) -> ExerciseContext {
        self.ctx
    }
}

/// Performance `n` sessions ago (0 = current): id `perf-n`, session `session-n`, one day apart.
pub fn perf(n: usize, sets: Vec<PerformedSet>) -> ExercisePerformance {
    ExercisePerformance {
        id: format!("perf-{n}"),
        session_id: format!("session-{n}"),
        catalog_id: "bench-press".into(),
        performed_at_ms: 1_760_000_000_000 - n as i64 * 86_400_000,
        sets,
    }
}

/// The drafts of one rule, as (change type, set index, new number) for compact assertions.
pub fn fired(
    drafts: &[SuggestionDraft],
    rule: &str,
) -> Vec<(ChangeType, Option<u32>, Option<f64>)> {
    drafts
        .iter()
        .filter(|d| d.rule_id.as_deref() == Some(rule))
        .map(|d| (d.change_type, d.target_set_index, d.new_value.number()))
        .collect()
}
