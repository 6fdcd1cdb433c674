//! Meal-plan jobs: a request planned in the background with its status persisted, so an app
//! restarted mid-job can read it back.
//!
//! Status moves `PENDING` (created) -> `RUNNING` (a runner started; progress is written after
//! every slot) -> `COMPLETE` (the plan is stored) or `FAILED` (`cancelled`, `internal`,
//! `storage`, or `interrupted`).
//!
//! Interrupted runners. A runner lives in the process that started it: when that process ends
//! (crash, kill, the OS reclaiming a backgrounded app) the row stays `PENDING`/`RUNNING`. So that
//! such a job never reads `RUNNING` forever, this process keeps a registry of the jobs it is
//! running ([`JobLease`]: registered before the row is written, removed only after the runner
//! wrote the final state, or when the runner's thread unwinds). Reading a job ([`read_job`]) or
//! starting one ([`create_job`], which sweeps with [`recover_interrupted`]) turns every unfinished
//! row without a live lease into `FAILED` with error code `interrupted`, written back with a
//! conditional update (only while the row is still unfinished, so it never overwrites a final
//! state a runner wrote between the read and the update). One process per database file is
//! assumed (the library's rule: one `Coach` per file): a job another process is running would be
//! read as interrupted.

use std::collections::BTreeSet;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Mutex, MutexGuard};

use super::plan::{plan, PlanEnv};
use crate::db::Store;
use crate::kernel::clock::Clock;
use crate::kernel::error::{CoachError, Error, Result};
use crate::kernel::ids::IdGenerator;
use crate::llm::LlmError;
use crate::meals::model::{JobStatus, MealPlanEvent, MealPlanJob, MealPlanRequest, PlanOutcome};
use crate::meals::validate;

/// Error code of a job whose runner ended with its process.
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
/// unfinished row of the job reads as interrupted.
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

/// Validates `request` and stores a new `PENDING` job for it (after sweeping interrupted ones).
/// The lease must go to the runner ([`run_job`]).
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
    store.write(|db| db.insert_meal_plan_job(&lease.id, &request_json, total_slots, now))?;
    Ok(lease)
}

/// Runs a job to its end on the calling thread: `RUNNING`, a `progress` event and a stored
/// progress after each slot, then the final state stored and `completed` or `failed` sent. A panic
/// in the planner becomes `FAILED` `internal`. Returns the final envelope.
pub fn run_job(
    env: &PlanEnv<'_>,
    ids: &mut IdGenerator,
    lease: JobLease,
    request: &MealPlanRequest,
    sink: &dyn PlanSink,
) -> MealPlanJob {
    let store = env.store;
    let clock = env.clock;
    let id = lease.id.clone();
    let mut job = lease.pending();
    let started =
        store.write(|db| db.set_meal_plan_job_progress(&id, JobStatus::Running, 0, clock.now_ms()));
    let outcome = match started {
        Err(e) => Ok(Err(e)),
        Ok(_) => catch_unwind(AssertUnwindSafe(|| {
            let mut progress = |processed: u32, total: u32| {
                let saved = store.write(|db| {
                    db.set_meal_plan_job_progress(
                        &id,
                        JobStatus::Running,
                        processed,
                        clock.now_ms(),
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
        })),
    };
    let event = match outcome {
        Ok(Ok(result)) => {
            job.status = JobStatus::Complete;
            let event = MealPlanEvent::Completed {
                status: if result.slot_failures_count == 0 {
                    PlanOutcome::Completed
                } else {
                    PlanOutcome::Partial
                },
                slot_failures_count: result.slot_failures_count,
                result: result.clone(),
            };
            job.result = Some(result);
            event
        }
        Ok(Err(Error::Llm(LlmError::Cancelled))) => {
            fail(&mut job, CANCELLED, "the job was cancelled")
        }
        Ok(Err(e)) => {
            let public = CoachError::from(e);
            fail(&mut job, public.code(), &public.detail())
        }
        Err(_) => fail(&mut job, "internal", "the meal planner panicked"),
    };
    job.updated_ms = clock.now_ms();
    if let Err(e) = store.write(|db| db.finish_meal_plan_job(&job, job.updated_ms)) {
        log::error!(target: "coachcore::meals", "job result not saved: {e}");
    }
    sink.on_event(event);
    // The final state is stored: only now may readers see the job as not running here.
    drop(lease);
    job
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

fn interrupted(store: &Store, clock: &dyn Clock, id: &str) -> Result<()> {
    if live().contains(id) {
        return Ok(());
    }
    let job = MealPlanJob {
        id: id.to_string(),
        status: JobStatus::Failed,
        result: None,
        error_code: Some(INTERRUPTED.into()),
        error_message: Some(
            "the job stopped when the app's process ended before it finished; start it again"
                .into(),
        ),
        processed_slots: 0,
        total_slots: 0,
        created_ms: 0,
        updated_ms: 0,
    };
    let now = clock.now_ms();
    store.write(|db| {
        // Keeps the progress the runner had stored.
        let processed = db.meal_plan_job(id)?.map_or(0, |j| j.processed_slots);
        db.finish_meal_plan_job(
            &MealPlanJob {
                processed_slots: processed,
                ..job
            },
            now,
        )
    })?;
    Ok(())
}

/// Marks every unfinished job without a live runner in this process `FAILED` `interrupted`.
/// Returns how many.
pub fn recover_interrupted(store: &Store, clock: &dyn Clock) -> Result<u32> {
    let ids = store.read(|db| db.unfinished_meal_plan_jobs())?;
    let mut n = 0;
    for id in ids {
        if !live().contains(&id) {
            interrupted(store, clock, &id)?;
            n += 1;
        }
    }
    Ok(n)
}

/// The job with `id`, or `None`. An unfinished job without a live runner in this process reads
/// (and is stored) as `FAILED` `interrupted`.
pub fn read_job(store: &Store, clock: &dyn Clock, id: &str) -> Result<Option<MealPlanJob>> {
    validate::id("id", id)?;
    let Some(job) = store.read(|db| db.meal_plan_job(id))? else {
        return Ok(None);
    };
    if matches!(job.status, JobStatus::Pending | JobStatus::Running) && !live().contains(id) {
        interrupted(store, clock, id)?;
        return store.read(|db| db.meal_plan_job(id));
    }
    Ok(Some(job))
}
