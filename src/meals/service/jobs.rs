//! Meal-plan jobs: a request planned in the background with its status persisted, so an app
//! restarted mid-job, or another process on the file (an app and its widget or extension), can
//! read it back.
//!
//! Status moves `PENDING` (created) -> `RUNNING` (a runner started; progress is written after
//! every slot) -> `COMPLETE` (the plan is stored) or `FAILED` (`cancelled`, `internal`,
//! `storage`, or `interrupted`).
//!
//! Owners and leases. A runner lives in the process that started it: when that process ends
//! (crash, kill, the OS reclaiming a backgrounded app) the row stays `PENDING`/`RUNNING`. So that
//! such a job never reads `RUNNING` forever while a job another process runs is left alone, each
//! job carries its owner (the open of the file that runs it, [`Store::instance_id`], and the
//! process id) and a lease until [`LEASE_MS`] ahead, which the runner renews while it runs (every
//! [`RENEW_EVERY`], and with each slot's progress). Reading a job ([`read_job`]) or starting one
//! ([`create_job`], which sweeps with [`recover_interrupted`]) turns an unfinished job into
//! `FAILED` `interrupted`, keeping its progress, when its runner is known to be gone:
//! - its owner is this open and its runner is not registered in this process ([`JobLease`]:
//!   registered before the row is written, removed only after the runner wrote the final state,
//!   or when the runner's thread unwinds); or
//! - its owner is another open (another process, or another `Coach` on the file in this one) and
//!   its lease has run out by the reader's clock, or it has no owner (a job from before leases).
//!
//! The decision and the update are one write transaction (a renewal cannot fall between them),
//! and the update applies only while the row is unfinished, so it never overwrites a final state.
//! A runner whose job was taken meanwhile (its process was suspended for longer than the lease)
//! finds its own writes refused: it reports the job as stored (`FAILED` `interrupted`), never a
//! result that is not stored.

use std::collections::BTreeSet;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use super::plan::{plan, PlanEnv};
use crate::db::Store;
use crate::kernel::clock::Clock;
use crate::kernel::error::{CoachError, Error, Result};
use crate::kernel::ids::IdGenerator;
use crate::llm::LlmError;
use crate::meals::model::{
    JobStatus, MealPlanEvent, MealPlanJob, MealPlanRequest, MealPlanResult, PlanOutcome,
};
use crate::meals::validate;

/// How long a job's runner counts as alive for the other opens of the file without renewing its
/// lease: 30 s. A job whose process died reads `interrupted` elsewhere once this has passed.
pub const LEASE_MS: i64 = 30_000;

/// How often a running job renews its lease (besides each slot's progress): 5 s, so that several
/// renewals may be late (a busy file, a slow device) before the lease runs out.
pub const RENEW_EVERY: Duration = Duration::from_secs(5);

pub use crate::meals::store::{JobOwner, UnfinishedJob};

/// Error code of a job whose runner ended before it finished (with its process, or one that
/// stopped renewing its lease).
pub const INTERRUPTED: &str = "interrupted";
/// Error code of a cancelled job.
pub const CANCELLED: &str = "cancelled";

/// Jobs whose runner is alive in this process.
static LIVE: Mutex<BTreeSet<String>> = Mutex::new(BTreeSet::new());

fn live() -> MutexGuard<'static, BTreeSet<String>> {
    LIVE.lock().unwrap_or_else(|p| p.into_inner())
}

/// Receives a job's events: `progress` after each slot, then `completed` or `failed` last.
pub trait PlanSink: Send + Sync {
    /// One event.
    fn on_event(&self, event: MealPlanEvent);
}

/// A job's claim to be running in this process. Dropping it ends the claim: from then on an
/// unfinished row of the job reads as interrupted in the open that created it (in other opens,
/// once its lease has run out).
#[derive(Debug)]
pub struct JobLease {
    id: String,
    total_slots: u32,
    created_ms: i64,
}

impl JobLease {
    /// The job id.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// Slots requested.
    pub fn total_slots(&self) -> u32 {
        self.total_slots
    }

    /// The job as it stands before its runner starts.
    pub fn pending(&self) -> MealPlanJob {
        MealPlanJob {
            id: self.id.clone(),
            status: JobStatus::Pending,
            result: None,
            error_code: None,
            error_message: None,
            processed_slots: 0,
            total_slots: self.total_slots,
            created_ms: self.created_ms,
            updated_ms: self.created_ms,
        }
    }
}

impl Drop for JobLease {
    fn drop(&mut self) {
        live().remove(&self.id);
    }
}

/// Validates `request` and stores a new `PENDING` job for it, owned by this open of the file with
/// a fresh lease (after sweeping interrupted ones). The lease must go to the runner
/// ([`run_job`]).
pub fn create_job(
    store: &Store,
    clock: &dyn Clock,
    ids: &mut IdGenerator,
    request: &MealPlanRequest,
) -> Result<JobLease> {
    let total_slots = validate::request(request)?;
    recover_interrupted(store, clock)?;
    let request_json = serde_json::to_string(request)
        .map_err(|e| Error::Internal(format!("request JSON: {e}")))?;
    let id = ids.next_id();
    let now = clock.now_ms();
    live().insert(id.clone());
    let lease = JobLease {
        id,
        total_slots,
        created_ms: now,
    };
    let owner = JobOwner {
        pid: std::process::id(),
        instance: store.instance_id(),
    };
    store.write(|db| {
        db.insert_meal_plan_job(
            &lease.id,
            &request_json,
            total_slots,
            now,
            &owner,
            now + LEASE_MS,
        )
    })?;
    Ok(lease)
}

/// Runs a job to its end on the calling thread: `RUNNING`, a `progress` event and a stored
/// progress after each slot, then the final state stored and `completed` or `failed` sent; the
/// job's lease renewed meanwhile. A panic in the planner becomes `FAILED` `internal`. Returns
/// the final envelope: the job as stored (see the module docs for a job taken for interrupted
/// meanwhile). A plan whose final state cannot be stored is reported `FAILED` `storage`, a
/// failure as it is; the stored row then reads `interrupted`.
pub fn run_job(
    env: &PlanEnv<'_>,
    ids: &mut IdGenerator,
    lease: JobLease,
    request: &MealPlanRequest,
    sink: &dyn PlanSink,
) -> MealPlanJob {
    let store = env.store;
    let clock = env.clock;
    let me = store.instance_id();
    let id = lease.id.clone();
    let mut job = lease.pending();
    let outcome = std::thread::scope(|scope| {
        let (stop, stopped) = channel::<()>();
        scope.spawn(|| renew_until(stopped, store, clock, &id));
        let now = clock.now_ms();
        let started = store.write(|db| {
            db.set_meal_plan_job_progress(&id, me, JobStatus::Running, 0, now, now + LEASE_MS)
        });
        let outcome = match started {
            Err(e) => Some(Ok(Err(e))),
            // Taken for interrupted before it started: nothing to run.
            Ok(false) => None,
            Ok(true) => Some(catch_unwind(AssertUnwindSafe(|| {
                let mut progress = |processed: u32, total: u32| {
                    let now = clock.now_ms();
                    let saved = store.write(|db| {
                        db.set_meal_plan_job_progress(
                            &id,
                            me,
                            JobStatus::Running,
                            processed,
                            now,
                            now + LEASE_MS,
                        )
                    });
                    if let Err(e) = saved {
                        log::warn!(target: "coachcore::meals", "job progress not saved: {e}");
                    }
                    job.processed_slots = processed;
                    sink.on_event(MealPlanEvent::Progress {
                        processed_slots: processed,
                        total_slots: total,
                    });
                };
                plan(env, ids, request, &mut progress)
            }))),
        };
        drop(stop);
        outcome
    });
    let event = match outcome {
        None => None,
        Some(Ok(Ok(result))) => {
            job.status = JobStatus::Complete;
            let event = completed(&result);
            job.result = Some(result);
            Some(event)
        }
        Some(Ok(Err(Error::Llm(LlmError::Cancelled)))) => {
            Some(fail(&mut job, CANCELLED, "the job was cancelled"))
        }
        Some(Ok(Err(e))) => {
            let public = CoachError::from(e);
            Some(fail(&mut job, public.code(), &public.detail()))
        }
        Some(Err(_)) => Some(fail(&mut job, "internal", "the meal planner panicked")),
    };
    job.updated_ms = clock.now_ms();
    let (job, event) = match event {
        // Taken for interrupted before it started.
        None => as_stored(store, job),
        Some(event) => {
            match store.write(|db| db.finish_meal_plan_job(&job, Some(me), job.updated_ms)) {
                Ok(true) => (job, event),
                // Taken for interrupted meanwhile: what is stored is what the caller is told.
                Ok(false) => as_stored(store, job),
                Err(e) => {
                    log::error!(target: "coachcore::meals", "job result not saved: {e}");
                    if job.status == JobStatus::Complete {
                        job.result = None;
                        let event = fail(&mut job, "storage", "the plan could not be stored");
                        (job, event)
                    } else {
                        // A failure stays one (e.g. `cancelled` by a shutdown that closed the
                        // file).
                        (job, event)
                    }
                }
            }
        }
    };
    sink.on_event(event);
    // The final state is stored: only now may readers see the job as not running here.
    drop(lease);
    job
}

/// Renews the lease of job `id` every [`RENEW_EVERY`] until `stop` is dropped or the job is no
/// longer this open's to run. A renewal that fails (a busy file) is tried again at the next tick.
fn renew_until(stop: Receiver<()>, store: &Store, clock: &dyn Clock, id: &str) {
    while let Err(RecvTimeoutError::Timeout) = stop.recv_timeout(RENEW_EVERY) {
        let until = clock.now_ms() + LEASE_MS;
        match store.write(|db| db.renew_meal_plan_job_lease(id, store.instance_id(), until)) {
            Ok(true) => {}
            Ok(false) => return,
            Err(e) => log::warn!(target: "coachcore::meals", "job lease not renewed: {e}"),
        }
    }
}

/// The `completed` event of `result`.
fn completed(result: &MealPlanResult) -> MealPlanEvent {
    MealPlanEvent::Completed {
        status: if result.slot_failures_count == 0 {
            PlanOutcome::Completed
        } else {
            PlanOutcome::Partial
        },
        slot_failures_count: result.slot_failures_count,
        result: result.clone(),
    }
}

fn fail(job: &mut MealPlanJob, code: &str, message: &str) -> MealPlanEvent {
    job.status = JobStatus::Failed;
    job.error_code = Some(code.to_string());
    job.error_message = Some(message.to_string());
    MealPlanEvent::Failed {
        error_code: code.to_string(),
        message: message.to_string(),
    }
}

/// The job as stored and its last event, for a runner whose final write was refused.
fn as_stored(store: &Store, mut job: MealPlanJob) -> (MealPlanJob, MealPlanEvent) {
    match store.read(|db| db.meal_plan_job(&job.id)) {
        Ok(Some(stored)) => {
            let event = match (&stored.status, &stored.result) {
                (JobStatus::Complete, Some(result)) => completed(result),
                _ => MealPlanEvent::Failed {
                    error_code: stored.error_code.clone().unwrap_or(INTERRUPTED.into()),
                    message: stored.error_message.clone().unwrap_or_default(),
                },
            };
            (stored, event)
        }
        _ => {
            job.result = None;
            let event = fail(
                &mut job,
                "storage",
                "the job's final state could not be read",
            );
            (job, event)
        }
    }
}

/// Whether the runner of `job` is known to be gone, for open `me` at `now_ms` (see the module
/// docs).
fn gone(job: &UnfinishedJob, me: &str, now_ms: i64) -> bool {
    match &job.owner_instance {
        Some(owner) if owner == me => !live().contains(&job.id),
        _ => job.lease_until_ms.is_none_or(|until| until <= now_ms),
    }
}

/// Marks the unfinished jobs whose runner is gone (only job `only` when given) `FAILED`
/// `interrupted`, keeping their progress, in one write transaction that decides again. Returns
/// how many.
fn interrupt(store: &Store, clock: &dyn Clock, only: Option<&str>) -> Result<u32> {
    let me = store.instance_id();
    let now = clock.now_ms();
    let candidates = store.read(|db| db.unfinished_meal_plan_jobs(only))?;
    if !candidates.iter().any(|j| gone(j, me, now)) {
        return Ok(0);
    }
    store.write(|db| {
        let mut n = 0;
        for j in db.unfinished_meal_plan_jobs(only)? {
            if !gone(&j, me, now) {
                continue;
            }
            // Keeps the progress the runner had stored.
            let processed = db.meal_plan_job(&j.id)?.map_or(0, |j| j.processed_slots);
            let job = MealPlanJob {
                id: j.id,
                status: JobStatus::Failed,
                result: None,
                error_code: Some(INTERRUPTED.into()),
                error_message: Some(
                    "the job stopped when the process running it ended (or stopped renewing \
                     its lease) before it finished; start it again"
                        .into(),
                ),
                processed_slots: processed,
                total_slots: 0,
                created_ms: 0,
                updated_ms: 0,
            };
            if db.finish_meal_plan_job(&job, None, now)? {
                n += 1;
            }
        }
        Ok(n)
    })
}

/// Marks every unfinished job whose runner is gone (see the module docs) `FAILED`
/// `interrupted`. Returns how many.
pub fn recover_interrupted(store: &Store, clock: &dyn Clock) -> Result<u32> {
    interrupt(store, clock, None)
}

/// The job with `id`, or `None`. An unfinished job whose runner is gone (see the module docs)
/// reads (and is stored) as `FAILED` `interrupted`; one another process runs reads `RUNNING`.
pub fn read_job(store: &Store, clock: &dyn Clock, id: &str) -> Result<Option<MealPlanJob>> {
    validate::id("id", id)?;
    let Some(job) = store.read(|db| db.meal_plan_job(id))? else {
        return Ok(None);
    };
    if matches!(job.status, JobStatus::Pending | JobStatus::Running)
        && interrupt(store, clock, Some(id))? > 0
    {
        return store.read(|db| db.meal_plan_job(id));
    }
    Ok(Some(job))
}
