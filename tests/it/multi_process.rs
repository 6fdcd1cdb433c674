//! Two processes on one file (issue 22): an app and its widget, share or watch extension, an
//! Android service. Each test forces its interleaving (a job held mid-run by its event sink, two
//! workout generations held at a barrier between choosing an id and saving), so none depends on
//! timing:
//!
//! - a meal-plan job running in one process while another process opens the file, starts a plan
//!   of its own (the crash sweep) and reads the job: the job is left running and ends with its
//!   result stored (the other process is a child: this test binary running [`child`]);
//! - the same with two `Coach` instances on one file in one process;
//! - a job whose runner stopped renewing its lease (its clock held back, as a suspended process)
//!   reads `interrupted` once the lease ran out, and its runner then reports what is stored;
//! - a running job renews its lease while a slot takes long;
//! - two workouts of one date and place generated at once both get saved, with two ids.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Arc, Barrier, Mutex};
use std::time::{Duration, Instant};

use coachcore::db::Store;
use coachcore::kernel::clock::FixedClock;
use coachcore::llm::metered::SharedModel;
use coachcore::llm::CancelToken;
use coachcore::meals::service::jobs::{PlanSink, LEASE_MS};
use coachcore::meals::{JobStatus, MealPlanEvent, MealPlanJob, MealPlanRequest};
use coachcore::workout::service::{WorkoutSettings, WorkoutSink};
use coachcore::workout::{WorkoutEvent, WorkoutStage};
use coachcore::{Coach, CoachError, Meals};

use crate::data_export::{data, Quiet, T0};

fn request() -> MealPlanRequest {
    Meals::request_from_json(&data("meals/vegan-quick.request.json")).unwrap()
}

/// A file with the starter recipes.
fn meals_file(dir: &Path) -> PathBuf {
    let path = dir.join("shared.db");
    coach(&path, T0)
        .meals()
        .import_recipes(data("recipes/starter.json"))
        .unwrap();
    path
}

/// A `Coach` of its own on `path` (a second open of the file), its clock at `now`.
fn coach(path: &Path, now: i64) -> Coach {
    Coach::with_store(Store::open(path).unwrap(), Arc::new(FixedClock::new(now)))
}

/// Holds a job at its first `progress` event (the job is `RUNNING`, one slot stored) until the
/// test lets it go; records every event.
struct Gate {
    reached: Mutex<Option<Sender<()>>>,
    go: Mutex<Receiver<()>>,
    events: Mutex<Vec<MealPlanEvent>>,
}

impl PlanSink for Gate {
    fn on_event(&self, event: MealPlanEvent) {
        let first = matches!(event, MealPlanEvent::Progress { .. })
            && self.events.lock().unwrap().is_empty();
        self.events.lock().unwrap().push(event);
        if first {
            let _ = self.reached.lock().unwrap().take().unwrap().send(());
            let _ = self.go.lock().unwrap().recv();
        }
    }
}

/// A job of `coach` running on its own thread, held at its first slot.
struct Held {
    id: String,
    go: Sender<()>,
    gate: Arc<Gate>,
    done: std::thread::JoinHandle<MealPlanJob>,
}

impl Held {
    /// Starts a job of `coach` (on the file `path`) and waits until it is held.
    fn start(coach: Arc<Coach>, path: &Path) -> Held {
        let (reached_tx, reached) = channel();
        let (go, go_rx) = channel();
        let gate = Arc::new(Gate {
            reached: Mutex::new(Some(reached_tx)),
            go: Mutex::new(go_rx),
            events: Mutex::new(Vec::new()),
        });
        let sink = gate.clone();
        let done = std::thread::spawn(move || {
            coach
                .meals()
                .plan_with(request(), None, &*sink, &CancelToken::new())
                .unwrap()
        });
        reached
            .recv_timeout(Duration::from_secs(60))
            .expect("the job reached its first slot");
        let id = unfinished_job(path);
        Held { id, go, gate, done }
    }

    /// Lets the job go on and returns what its runner reported, and its last event.
    fn finish(self) -> (MealPlanJob, MealPlanEvent) {
        self.go.send(()).unwrap();
        let job = self.done.join().unwrap();
        let last = self.gate.events.lock().unwrap().last().cloned().unwrap();
        (job, last)
    }
}

/// The id of the one unfinished job of the file, read with SQLite alone (a read through the
/// library may change what it reads).
fn unfinished_job(path: &Path) -> String {
    let conn = rusqlite::Connection::open(path).unwrap();
    let mut st = conn
        .prepare("SELECT id FROM meal_plan_jobs WHERE status IN ('PENDING', 'RUNNING')")
        .unwrap();
    let ids: Vec<String> = st
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(ids.len(), 1, "{ids:?}");
    ids[0].clone()
}

fn stored(path: &Path, id: &str) -> MealPlanJob {
    // A reader in the future would take an unfinished job for interrupted: read at T0.
    coach(path, T0).meals().job(id.into()).unwrap().unwrap()
}

fn assert_complete(job: &MealPlanJob, what: &str) {
    assert_eq!(job.status, JobStatus::Complete, "{what}: {job:?}");
    assert!(job.result.is_some(), "{what}: no result");
    assert_eq!(job.processed_slots, job.total_slots, "{what}");
}

/// A job of a `Coach` on `path` with its clock at `now`, held at its first slot.
fn hold(path: &Path, now: i64) -> Held {
    Held::start(Arc::new(coach(path, now)), path)
}

/// The other process of [`a_second_process_leaves_a_running_job_alone`]: opens the file with its
/// clock at `COACH_MP_NOW`, plans a request of its own (which sweeps the file for interrupted
/// jobs), then reads the job `COACH_MP_JOB`; prints `MINE <status>` and `THEIRS <status>`.
#[test]
#[ignore = "run as a child process by a_second_process_leaves_a_running_job_alone"]
fn child() {
    let path = std::env::var("COACH_MP_DB").unwrap();
    let theirs = std::env::var("COACH_MP_JOB").unwrap();
    let now: i64 = std::env::var("COACH_MP_NOW").unwrap().parse().unwrap();
    let c = coach(Path::new(&path), now);
    let mine = c
        .meals()
        .plan_with(request(), None, &Quiet, &CancelToken::new())
        .unwrap();
    println!("MINE {:?}", mine.status);
    let job = c.meals().job(theirs).unwrap().unwrap();
    println!("THEIRS {:?} {:?}", job.status, job.error_code);
}

fn run_child(path: &Path, job: &str, now: i64) -> String {
    let out = Command::new(std::env::current_exe().unwrap())
        .args([
            "multi_process::child",
            "--exact",
            "--ignored",
            "--nocapture",
            "-q",
        ])
        .env("COACH_MP_DB", path)
        .env("COACH_MP_JOB", job)
        .env("COACH_MP_NOW", now.to_string())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "the child failed: {text}");
    text
}

#[test]
fn a_second_process_leaves_a_running_job_alone() {
    let dir = tempfile::tempdir().unwrap();
    let path = meals_file(dir.path());
    let held = hold(&path, T0);
    // The other process, while the job is held at its first slot, within the job's lease.
    let seen = run_child(&path, &held.id, T0 + LEASE_MS - 1);
    assert!(seen.contains("MINE Complete"), "{seen}");
    assert!(seen.contains("THEIRS Running None"), "{seen}");
    let id = held.id.clone();
    let (job, last) = held.finish();
    assert_complete(&job, "the runner's envelope");
    assert!(matches!(last, MealPlanEvent::Completed { .. }), "{last:?}");
    let back = stored(&path, &id);
    assert_complete(&back, "the stored job");
    assert_eq!(
        back.result, job.result,
        "the stored result is the one reported"
    );
}

#[test]
fn a_second_coach_on_the_file_leaves_a_running_job_alone() {
    let dir = tempfile::tempdir().unwrap();
    let path = meals_file(dir.path());
    let held = hold(&path, T0);
    let other = coach(&path, T0 + LEASE_MS - 1);
    let mine = other
        .meals()
        .plan_with(request(), None, &Quiet, &CancelToken::new())
        .unwrap();
    assert_complete(&mine, "the second coach's own job");
    let theirs = other.meals().job(held.id.clone()).unwrap().unwrap();
    assert_eq!(theirs.status, JobStatus::Running, "{theirs:?}");
    let id = held.id.clone();
    let (job, _) = held.finish();
    assert_complete(&job, "the runner's envelope");
    let back = other.meals().job(id).unwrap().unwrap();
    assert_complete(&back, "the stored job, read by the second coach");
    assert_eq!(back.result, job.result);
}

#[test]
fn a_job_whose_lease_ran_out_reads_interrupted_and_its_runner_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let path = meals_file(dir.path());
    // The runner's clock stays at T0: it renews its lease to T0 + LEASE_MS at most, as a process
    // the OS suspended renews nothing.
    let held = hold(&path, T0);
    let later = coach(&path, T0 + LEASE_MS);
    let job = later.meals().job(held.id.clone()).unwrap().unwrap();
    assert_eq!(job.status, JobStatus::Failed, "{job:?}");
    assert_eq!(job.error_code.as_deref(), Some("interrupted"));
    assert_eq!(job.processed_slots, 1, "the progress it had is kept");
    let id = held.id.clone();
    let (reported, last) = held.finish();
    // The runner finished the plan, but its job was taken: it reports what is stored, never a
    // result that is not.
    assert_eq!(reported.status, JobStatus::Failed, "{reported:?}");
    assert_eq!(reported.error_code.as_deref(), Some("interrupted"));
    assert!(reported.result.is_none());
    assert!(
        matches!(&last, MealPlanEvent::Failed { error_code, .. } if error_code == "interrupted"),
        "{last:?}"
    );
    assert_eq!(stored(&path, &id), reported);
}

#[test]
fn a_running_job_renews_its_lease() {
    let dir = tempfile::tempdir().unwrap();
    let path = meals_file(dir.path());
    let clock = Arc::new(FixedClock::new(T0));
    let runner = Arc::new(Coach::with_store(
        Store::open(&path).unwrap(),
        clock.clone(),
    ));
    let held = Held::start(runner, &path);
    let lease = || -> i64 {
        rusqlite::Connection::open(&path)
            .unwrap()
            .query_row(
                "SELECT lease_until_ms FROM meal_plan_jobs WHERE id = ?1",
                [&held.id],
                |r| r.get(0),
            )
            .unwrap()
    };
    assert_eq!(lease(), T0 + LEASE_MS);
    // The slot takes long: the runner's time moves on, and it renews the lease while it waits.
    clock.advance_ms(LEASE_MS * 3);
    let deadline = Instant::now() + Duration::from_secs(30);
    while lease() != T0 + LEASE_MS * 4 {
        assert!(Instant::now() < deadline, "the lease was not renewed");
        std::thread::sleep(Duration::from_millis(50));
    }
    // So a reader after the first lease ran out finds it running.
    let other = coach(&path, T0 + LEASE_MS * 2);
    let job = other.meals().job(held.id.clone()).unwrap().unwrap();
    assert_eq!(job.status, JobStatus::Running, "{job:?}");
    let (job, _) = held.finish();
    assert_complete(&job, "the renewed job");
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
        let stored = coach(&path, T0)
            .workouts()
            .get(r.workout.workout_id.clone());
        assert_eq!(stored.unwrap().as_ref(), Some(&r));
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
