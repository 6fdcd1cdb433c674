//! [`Suggestions`]: changes to a training plan after a logged session (the rules, then the AI
//! source), and the user's decisions; the free `evaluateExercise`. Training plans, sessions and
//! history are on `Workouts` (`training.rs`).

use std::sync::Arc;

use crate::ffi::inner::{service_object, CoachInner};
use crate::ffi::task::{Guarded, ListenerError};
use crate::kernel::error::CoachError;
use crate::kernel::ids::IdGenerator;
use crate::llm::CancelToken;
use crate::suggest::model::{
    ChangeValue, Decision, ExerciseContext, PrescriptionChange, SuggestionDraft,
};
use crate::suggest::service::{self, AiRunControl, SuggestionProgressListener};

/// The app's progress listener behind the panic guard.
struct GuardedProgress(Guarded<dyn SuggestionProgressListener>);

impl SuggestionProgressListener for GuardedProgress {
    fn on_exercise(
        &self,
        index: u32,
        count: u32,
        exercise_name: String,
    ) -> Result<(), ListenerError> {
        self.0.call(|l| l.on_exercise(index, count, exercise_name));
        Ok(())
    }

    fn on_token(&self, piece: String) -> Result<(), ListenerError> {
        self.0.call(|l| l.on_token(piece));
        Ok(())
    }
}

/// Suggestions, from `Coach.suggestions()`: after a session is logged
/// (`workouts().logSession`), the changes the library suggests to the plan (heavier, more reps,
/// longer rest, ...; from the rules, then the model if one is set, deduplicated), and the
/// user's decisions: accept (also with the user's own value), reject, defer to the next
/// workout.
#[derive(uniffi::Object)]
pub struct Suggestions {
    inner: Arc<CoachInner>,
}

service_object!(Suggestions);

#[uniffi::export]
impl Suggestions {
    /// The suggestions for a logged session: generated on the first call (rules, then the AI
    /// source if one is configured, deduplicated against the last 7 days) and stored as pending;
    /// later calls return the stored ones with their current decisions.
    ///
    /// Threading: with a language model configured this takes seconds (one model run per
    /// exercise): call it off the main thread, or use [`Suggestions::generate`] to show
    /// progress and let the user cancel.
    pub fn for_session(&self, session_id: String) -> Result<Vec<PrescriptionChange>, CoachError> {
        self.generate(session_id, None, None)
    }

    /// [`Suggestions::for_session`] with progress and cancellation: `listener` hears which
    /// exercise the model is on and its text as it streams; `cancel.cancel()` from another thread
    /// stops the model within a token or two and this call throws `Cancelled` with nothing
    /// stored (the next call generates afresh). Stored suggestions return at once, as before.
    #[uniffi::method(default(listener = None, cancel = None))]
    pub fn generate(
        &self,
        session_id: String,
        listener: Option<Arc<dyn SuggestionProgressListener>>,
        cancel: Option<Arc<CancelToken>>,
    ) -> Result<Vec<PrescriptionChange>, CoachError> {
        let ai = self.ai_source();
        let mut ids = IdGenerator::from_entropy();
        let control = AiRunControl {
            cancel: cancel.unwrap_or_default(),
            listener: listener.map(|l| {
                Arc::new(GuardedProgress(Guarded::new(
                    Some(l),
                    "suggestion progress listener",
                ))) as Arc<dyn SuggestionProgressListener>
            }),
        };
        Ok(service::suggestions_for_session(
            &self.store,
            &*self.clock,
            ai.as_deref(),
            &mut ids,
            &session_id,
            &control,
        )?)
    }

    /// [`Suggestions::generate`] as an async call (Swift `async throws`, Kotlin `suspend`,
    /// Python `async def`): the run goes on a library thread (no async runtime needed; the
    /// caller's thread never blocks) with the same progress to `listener`. Cancelling the Kotlin
    /// coroutine or the Python task stops the model within a token or two and nothing is stored;
    /// in Swift pass `cancel` and call `cancel.cancel()` (or use the shipped `CoachAsync.swift`):
    /// the call then throws `Cancelled`.
    #[uniffi::method(default(listener = None, cancel = None))]
    pub async fn generate_async(
        self: Arc<Self>,
        session_id: String,
        listener: Option<Arc<dyn SuggestionProgressListener>>,
        cancel: Option<Arc<CancelToken>>,
    ) -> Result<Vec<PrescriptionChange>, CoachError> {
        let this = Arc::clone(&self);
        self.run_async("suggestions", cancel, move |cancel| {
            this.generate(session_id, listener, Some(Arc::clone(cancel)))
        })
        .await
    }

    /// Accepts a pending or deferred change and applies it to the plan, in one transaction.
    /// Throws `InvalidArgument` (nothing changes) when the change is out of date (the plan's value
    /// is no longer the one it was suggested from, e.g. a newer change was accepted since), its set
    /// is gone, or the result would be an invalid plan; `NotFound` when its plan exercise was
    /// removed.
    pub fn accept(&self, change_id: String) -> Result<PrescriptionChange, CoachError> {
        Ok(service::decide(
            &self.store,
            &*self.clock,
            &change_id,
            Decision::Accepted,
        )?)
    }

    /// Accepts a pending or deferred change with the user's own value instead of the suggested
    /// one (the suggestion said 140, the user picked 145) and applies that value to the plan, in
    /// one transaction. The returned change carries the user's value and `userOverride = true`: as
    /// the user's own choice it does not hold back similar suggestions for 7 days, and its
    /// outcome is judged on the user's value. A number that goes the other way than suggested
    /// turns the change type around (increase -> decrease). The returned reasoning keeps the
    /// suggestion's explanation and adds the user's choice ("You chose 143 lb instead of the
    /// suggested 140 lb."). Throws `InvalidArgument` (nothing changes) for a value of the wrong
    /// kind (`number` for weight, reps, rest and set count, `setType`, `repRange`), a fractional
    /// number of reps, seconds or sets, a value that leaves the plan as it is or makes it invalid
    /// (e.g. rest above 3600 s), and as [`Suggestions::accept`] does.
    pub fn accept_edited(
        &self,
        change_id: String,
        new_value: ChangeValue,
    ) -> Result<PrescriptionChange, CoachError> {
        Ok(service::accept_edited(
            &self.store,
            &*self.clock,
            &change_id,
            new_value,
        )?)
    }

    /// Rejects a pending or deferred change. Similar suggestions are not made again for 7 days.
    pub fn reject(&self, change_id: String) -> Result<PrescriptionChange, CoachError> {
        Ok(service::decide(
            &self.store,
            &*self.clock,
            &change_id,
            Decision::Rejected,
        )?)
    }

    /// Defers a pending change to the review before the plan's next workout. Deferring a change
    /// that is already deferred changes nothing and returns it as it is; a decided (accepted or
    /// rejected) change throws `InvalidArgument`.
    pub fn defer_change(&self, change_id: String) -> Result<PrescriptionChange, CoachError> {
        Ok(service::decide(
            &self.store,
            &*self.clock,
            &change_id,
            Decision::Deferred,
        )?)
    }

    /// Defers every still-pending change of a session: call it when the user leaves the workout
    /// summary. Returns how many were deferred.
    pub fn defer_pending(&self, session_id: String) -> Result<u32, CoachError> {
        Ok(service::defer_pending(
            &self.store,
            &*self.clock,
            &session_id,
        )?)
    }

    /// The deferred changes of a plan, oldest first: show them before its next workout. Only
    /// changes that can still be accepted are listed: not one whose exercise was removed from the
    /// plan, that the plan has moved past (the value it would replace is no longer the plan's,
    /// e.g. the user set 150 in `workouts().savePlan` after "135 -> 140" was deferred; or its set was
    /// removed), or that a newer similar suggestion supersedes (one that is itself undecided and
    /// could be accepted: an out-of-date, accepted or rejected newer one hides nothing). Those
    /// stay stored as deferred; if the plan goes back to the old value, the change is listed
    /// again.
    pub fn deferred(&self, plan_id: String) -> Result<Vec<PrescriptionChange>, CoachError> {
        Ok(service::deferred_for_plan(&self.store, &plan_id)?)
    }
}

/// Runs the rule engine and the deduplicator on one exercise without a database (for previews
/// and tools): the deduplicated suggestions for `context`, given the exercise's `existing` changes
/// and the time `now_ms`. Throws `InvalidArgument` for a context that `savePlan` or `logSession`
/// would refuse: impossible loads in `context.plan.load`, an inconsistent rep range (e.g. lower
/// above upper), target reps above 1000 or rest above 3600 s, a repeated set index, or a weight
/// outside 0 to 5000, in the prescription or in any performance; the error names the field
/// (`context.prescription.repRange`), not its value.
#[uniffi::export]
pub fn evaluate_exercise(
    context: ExerciseContext,
    existing: Vec<PrescriptionChange>,
    now_ms: i64,
) -> Result<Vec<SuggestionDraft>, CoachError> {
    Ok(service::evaluate_exercise(&context, &existing, now_ms)?)
}
