//! Two processes on one file (issue 22): an app and its widget, share or watch extension, an
//! Android service. Each test forces its interleaving, so none depends on timing:
//!
//! - two workouts of one date and place generated at once (held at a barrier between choosing
//!   their number and saving) both get saved, with two ids.

use std::sync::{Arc, Barrier};

use coachcore::db::Store;
use coachcore::kernel::clock::FixedClock;
use coachcore::llm::metered::SharedModel;
use coachcore::llm::CancelToken;
use coachcore::workout::service::{WorkoutSettings, WorkoutSink};
use coachcore::workout::{WorkoutEvent, WorkoutStage};
use coachcore::{Coach, CoachError};

use crate::data_export::T0;

/// A `Coach` of its own on `path` (a second open of the file), its clock at `now`.
fn coach(path: &std::path::Path, now: i64) -> Coach {
    Coach::with_store(Store::open(path).unwrap(), Arc::new(FixedClock::new(now)))
}

/// Holds a generation at its generator call until the other one reaches its own: both chose
/// their workout's number before either saved.
struct AtBarrier(Arc<Barrier>);

impl WorkoutSink for AtBarrier {
    fn on_event(&self, e: WorkoutEvent) {
        if e.stage == WorkoutStage::Generator {
            self.0.wait();
        }
    }
}

#[test]
fn two_workouts_generated_at_once_on_one_file_get_two_ids() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("workouts.db");
    drop(coach(&path, T0));
    let (plan, workout, reference) = crate::workout::reference_answers();
    let barrier = Arc::new(Barrier::new(2));
    let runs: Vec<_> = (0..2)
        .map(|_| {
            let c = coach(&path, T0);
            let sink = AtBarrier(barrier.clone());
            let model =
                coachcore::llm::scripted::ScriptedModel::texts(vec![plan.clone(), workout.clone()]);
            std::thread::spawn(move || -> Result<_, CoachError> {
                c.workouts().generate_with(
                    &crate::workout::request(),
                    Some(SharedModel::plain(model)),
                    &sink,
                    &CancelToken::new(),
                    &WorkoutSettings::default(),
                )
            })
        })
        .collect();
    let results: Vec<_> = runs.into_iter().map(|r| r.join().unwrap()).collect();
    let mut ids = Vec::new();
    for r in results {
        let r = r.expect("both generations are saved");
        assert_eq!(r.analyzer, reference.analyzer);
        ids.push(r.workout.workout_id.clone());
        // What each call returned is what is stored under its id, YAML included.
        let back = coach(&path, T0)
            .workouts()
            .get(r.workout.workout_id.clone())
            .unwrap()
            .unwrap();
        assert_eq!(back, r);
        assert_eq!(
            coachcore::validate_workout_yaml(r.yaml.clone()).workout,
            Some(r.workout.clone())
        );
    }
    ids.sort();
    assert_eq!(
        ids,
        ["2025-08-17-gym-downtown-01", "2025-08-17-gym-downtown-02"]
    );
}
