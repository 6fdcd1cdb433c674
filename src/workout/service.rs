//! The workout flow over the store and the model (spec 001): pre-analysis from the logged history,
//! the analyzer (model, or the deterministic planner), the generator (model, or the deterministic
//! renderer), saving, listing and logging workouts. The only file of `workout/` that touches the
//! store or a model.
//!
//! - Analyzer: a per-request JSON Schema (today's allowed exercises as an enum) constrains the
//!   model; each answer is validated against it (`llm::schema`), then by the pre-analysis rules
//!   ([`check::analyzer_issues`]); up to 3 generations with the validator's lines. After that the
//!   call fails with `ModelOutputRejected` at stage `analyzer:<stage>` ([`Error::ModelStep`]), or, with
//!   `analyzer_fallback`, the deterministic plan is used.
//! - Generator: the model writes the document as JSON under the workout schema's grammar; the
//!   library writes YAML, reads it back, validates it (schema, ids, tiers) and checks it against
//!   the plan ([`check::workout_issues`]); up to 3 generations, then the deterministic renderer
//!   (`source` says which made the document).
//! - Events: `pre_analysis`, `analyzer` / `analyzer_repair` and `generator` / `generator_repair`
//!   per model call, `done` last (also after an error). Each stage has a wall-clock budget (90 s and
//!   60 s by default) shared by its repairs; the cancel token stops a call within a token or two.
//! - Logging a workout ([`log_workout`]) records it through the suggestion engine's
//!   `log_session` (a session without a plan, weights in pounds, one performance per exercise with
//!   the exercise id as catalog id): the same history the suggestion engine and the next
//!   pre-analysis read. Exercises done outside a saved workout (today's plan marked done) are
//!   logged the same way ([`log_performed`]).
//! - The week view ([`week`]) reads that history for the last 14 days and the logged workouts'
//!   documents for the RIR of their sets.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;
use std::time::Instant;

use serde_json::Value;

use super::catalog::{self, Inventory, WorkoutEquipment, WorkoutExercise};
use super::check;
use super::choices;
use super::document;
use super::ids;
use super::model::{
    AnalyzerPlan, PostWorkout, SetTier, Workout, WorkoutEvent, WorkoutLog, WorkoutRequest,
    WorkoutResult, WorkoutSource, WorkoutStage, WorkoutSummary,
};
use super::planner;
use super::preanalysis::{self, PreAnalysis};
use super::render;
use super::week::{self, TrainingWeek};
use crate::db::{Db, Store};
use crate::kernel::clock::Clock;
use crate::kernel::date::Date;
use crate::kernel::error::{json, Error, ModelStep, Result};
use crate::llm::metered::Metered;
use crate::llm::structured::{generate_validated, Issue};
use crate::llm::{
    CancelToken, ChatMessage, ChatRole, GenerationRequest, GenerationResult, LanguageModel,
    LlmError, ModelInfo, Sampling, TokenListener,
};
use crate::suggest::{ExerciseLog, PerformedSet, SessionLog, SetType, WeightUnit};

/// Receives the flow's events.
pub trait WorkoutSink: Send + Sync {
    /// One event.
    fn on_event(&self, event: WorkoutEvent);
}

/// A sink that drops events.
pub struct NoEvents;

impl WorkoutSink for NoEvents {
    fn on_event(&self, _: WorkoutEvent) {}
}

pub use super::model::WorkoutSettings;

/// The built-in catalog with the app's own exercises (which replace built-ins of the same id).
pub fn exercises(store: &Store) -> Result<Vec<WorkoutExercise>> {
    let own = store.read(|db| db.workout_exercises())?;
    let mut out: Vec<WorkoutExercise> = catalog::builtin()
        .iter()
        .filter(|b| !own.iter().any(|o| o.id == b.id))
        .cloned()
        .collect();
    out.extend(own);
    Ok(out)
}

/// Saves an exercise of the app's own catalog (id kebab-case, name 1 to 80 characters, at most 10
/// requirements and 10 muscles of at most 40 characters).
pub fn save_exercise(store: &Store, e: &WorkoutExercise) -> Result<()> {
    let short = |v: &[String]| v.len() <= 10 && v.iter().all(|s| !s.is_empty() && s.len() <= 40);
    if !catalog::is_exercise_id(&e.id) {
        return Err(Error::InvalidArgument(
            "exercise.id: kebab-case a-z, 0-9, at most 60 characters".into(),
        ));
    }
    if e.name.trim().is_empty()
        || e.name.chars().count() > 80
        || !short(&e.requires)
        || !short(&e.muscles)
        || e.pattern.len() > 40
    {
        return Err(Error::InvalidArgument(
            "exercise: name 1 to 80 characters, at most 10 requirements and muscles of at most 40"
                .into(),
        ));
    }
    store.write(|db| db.save_workout_exercise(e))
}

/// Saves an equipment definition of the app's own catalog (see [`WorkoutEquipment`] for the
/// bounds); it replaces the built-in mapping of its key from the next request on.
pub fn save_equipment(store: &Store, e: &WorkoutEquipment) -> Result<()> {
    let short = |v: &[String]| v.len() <= 10 && v.iter().all(|s| !s.is_empty() && s.len() <= 40);
    if !catalog::is_equipment_key(&e.key) {
        return Err(Error::InvalidArgument(
            "equipment.key: a-z, 0-9, '_', '-' and '.', 1 to 80 characters".into(),
        ));
    }
    if e.name.trim().is_empty() || e.name.chars().count() > 80 || !short(&e.provides) {
        return Err(Error::InvalidArgument(
            "equipment: name 1 to 80 characters, at most 10 provided capabilities of at most 40"
                .into(),
        ));
    }
    if e.weights.len() > 100
        || !e
            .weights
            .iter()
            .all(|w| w.is_finite() && *w > 0.0 && *w <= 500.0)
    {
        return Err(Error::InvalidArgument(
            "equipment.weights: at most 100, each above 0 and at most 500".into(),
        ));
    }
    store.write(|db| db.save_workout_equipment(e))
}

/// The app's own equipment definitions, by key.
pub fn equipment(store: &Store) -> Result<Vec<WorkoutEquipment>> {
    store.read(|db| db.workout_equipment())
}

/// The pre-analysis of a request: bounds checked, history of 90 days read, the equipment
/// resolved with the app's own definitions.
pub fn pre_analysis(
    store: &Store,
    request: &WorkoutRequest,
) -> Result<(PreAnalysis, Vec<WorkoutExercise>)> {
    preanalysis::validate_request(request)?;
    let catalog = exercises(store)?;
    Ok((pre_analysis_over(store, request, &catalog)?, catalog))
}

/// [`pre_analysis`] over a catalog the caller has already read ([`exercises`]).
pub fn pre_analysis_over(
    store: &Store,
    request: &WorkoutRequest,
    catalog: &[WorkoutExercise],
) -> Result<PreAnalysis> {
    let date = preanalysis::validate_request(request)?;
    let own = equipment(store)?;
    let inventory = Inventory::with_own(&request.equipment, request.meta.units, &own);
    let since = date.add_days(-preanalysis::HISTORY_DAYS).days_since_epoch() * 86_400_000;
    let history = store.read(|db| db.performances_since(since, request.meta.units))?;
    Ok(preanalysis::analyze_with(
        request, date, catalog, inventory, &history,
    ))
}

/// A model that reports each call as an event and keeps the stage's wall-clock budget.
struct Staged<'a> {
    inner: &'a Metered<'a>,
    sink: &'a dyn WorkoutSink,
    first: WorkoutStage,
    repair: WorkoutStage,
    calls: AtomicU32,
    started: Instant,
    budget_ms: u64,
}

impl<'a> Staged<'a> {
    /// `inner` for one stage: `first` on the first call, `repair` on the others, `budget_ms` for
    /// all of them from now.
    fn new(
        inner: &'a Metered<'a>,
        sink: &'a dyn WorkoutSink,
        first: WorkoutStage,
        repair: WorkoutStage,
        budget_ms: u64,
    ) -> Self {
        inner.set_stage(match first {
            WorkoutStage::Analyzer => "analyzer",
            _ => "generator",
        });
        Staged {
            inner,
            sink,
            first,
            repair,
            calls: AtomicU32::new(0),
            started: Instant::now(),
            budget_ms,
        }
    }
}

impl LanguageModel for Staged<'_> {
    fn info(&self) -> ModelInfo {
        self.inner.info()
    }

    fn generate(
        &self,
        mut request: GenerationRequest,
        listener: Option<Arc<dyn TokenListener>>,
        cancel: Arc<CancelToken>,
    ) -> std::result::Result<GenerationResult, LlmError> {
        let n = self.calls.fetch_add(1, Ordering::SeqCst) + 1;
        let stage = if n == 1 { self.first } else { self.repair };
        self.sink.on_event(WorkoutEvent { stage, attempt: n });
        let spent = self.started.elapsed().as_millis() as u64;
        if spent >= self.budget_ms {
            return Err(LlmError::TimedOut {
                after_ms: self.budget_ms,
            });
        }
        let left = self.budget_ms - spent;
        request.timeout_ms = Some(request.timeout_ms.map_or(left, |t| t.min(left)));
        let out = self.inner.generate(request, listener, cancel)?;
        // A model that does not keep `timeout_ms` (an app's own) still ends the stage on time.
        if self.started.elapsed().as_millis() as u64 > self.budget_ms {
            return Err(LlmError::TimedOut {
                after_ms: self.budget_ms,
            });
        }
        Ok(out)
    }
}

/// Sampling of the analyzer: low temperature, as the spec's JSON mode.
const ANALYZER_TEMPERATURE: f32 = 0.1;
/// Sampling of the generator: the spec's 0.3 to 0.5 (the grammar keeps the answer's shape).
const GENERATOR_TEMPERATURE: f32 = 0.4;

fn request_of(
    system: &str,
    user: String,
    schema: &Value,
    max_tokens: u32,
    temperature: f32,
) -> GenerationRequest {
    GenerationRequest {
        messages: vec![
            ChatMessage::new(ChatRole::System, system),
            ChatMessage::new(ChatRole::User, user),
        ],
        json_schema: Some(schema.to_string()),
        sampling: Sampling {
            temperature,
            ..Sampling::default()
        },
        max_tokens,
        timeout_ms: None,
    }
}

/// The analyzer with the model: the model picks one exercise per slot of today's skeleton
/// ([`choices::analyzer_schema`]); code makes the plan, which is validated against the analyzer
/// schema and the pre-analysis rules.
#[allow(clippy::too_many_arguments)]
fn model_analyzer(
    model: &Metered<'_>,
    request: &WorkoutRequest,
    pre: &PreAnalysis,
    catalog: &[WorkoutExercise],
    inv: &Inventory,
    sink: &dyn WorkoutSink,
    cancel: &Arc<CancelToken>,
    settings: &WorkoutSettings,
) -> std::result::Result<AnalyzerPlan, LlmError> {
    let slots = planner::skeleton(request, pre, catalog);
    let schema = choices::analyzer_schema(&slots);
    let validator = document::validator(&schema);
    let full = document::analyzer_schema_for(&pre.allowed);
    let full_validator = document::validator(&full);
    let staged = Staged::new(
        model,
        sink,
        WorkoutStage::Analyzer,
        WorkoutStage::AnalyzerRepair,
        settings.analyzer_timeout_ms,
    );
    let req = request_of(
        crate::kernel::prompts::WORKOUT_ANALYZER,
        choices::analyzer_prompt(request, pre, &slots),
        &schema,
        settings.analyzer_max_tokens,
        ANALYZER_TEMPERATURE,
    );
    let plan_of = |v: &Value| -> std::result::Result<AnalyzerPlan, Vec<Issue>> {
        let picks = choices::answer_picks(&validator, v, &slots)?;
        let plan = planner::plan_of_slots(request, pre, &slots, &picks);
        let value = serde_json::to_value(&plan).unwrap_or(Value::Null);
        let mut issues = document::schema_issues(&full_validator, &value);
        if issues.is_empty() {
            issues = check::analyzer_issues(&plan, request, pre, inv);
        }
        if issues.is_empty() {
            Ok(plan)
        } else {
            Err(issues
                .into_iter()
                .map(|i| Issue {
                    path: choices::answer_path(&i.path, &slots),
                    message: i.message,
                })
                .collect())
        }
    };
    let (value, report) =
        generate_validated::<Value>(&staged, req, settings.max_attempts, None, cancel, |v| {
            plan_of(v).err().unwrap_or_default()
        })?;
    log::info!(target: "coachcore::workout", "stage=analyzer outcome=valid attempts={} prompt_tokens={} completion_tokens={}", report.attempts, report.prompt_tokens, report.completion_tokens);
    plan_of(&value).map_err(|_| LlmError::Backend {
        detail: "analyzer plan changed after validation".into(),
    })
}

/// The generator with the model: the model's choices ([`choices::generator_schema`]) applied to
/// the rendered document, which is written as YAML, read back, validated and checked against
/// the plan.
#[allow(clippy::too_many_arguments)]
fn model_generator(
    model: &Metered<'_>,
    plan: &AnalyzerPlan,
    catalog: &[WorkoutExercise],
    inv: &Inventory,
    seq: u32,
    expected_id: &str,
    sink: &dyn WorkoutSink,
    cancel: &Arc<CancelToken>,
    settings: &WorkoutSettings,
) -> std::result::Result<Workout, LlmError> {
    let schema = choices::generator_schema(plan);
    let validator = document::validator(&schema);
    let base = render::render(plan, catalog, inv, seq);
    let staged = Staged::new(
        model,
        sink,
        WorkoutStage::Generator,
        WorkoutStage::GeneratorRepair,
        settings.generator_timeout_ms,
    );
    let req = request_of(
        crate::kernel::prompts::WORKOUT_GENERATOR,
        choices::generator_prompt(plan, catalog, inv),
        &schema,
        settings.generator_max_tokens,
        GENERATOR_TEMPERATURE,
    );
    let document_of = |v: &Value| -> std::result::Result<Workout, Vec<Issue>> {
        let issues = document::schema_issues(&validator, v);
        if !issues.is_empty() {
            return Err(issues);
        }
        let w = choices::apply_generator(base.clone(), plan, v);
        // The document as the library will keep it: YAML out and back, then checked.
        let w = document::validate_workout_yaml(&document::to_yaml(&w)).map_err(|e| {
            vec![Issue {
                path: e.path.unwrap_or_default(),
                message: e.detail,
            }]
        })?;
        let issues = check::workout_issues(&w, plan, catalog, inv, expected_id);
        if issues.is_empty() {
            Ok(w)
        } else {
            Err(issues)
        }
    };
    let (value, report) =
        generate_validated::<Value>(&staged, req, settings.max_attempts, None, cancel, |v| {
            document_of(v).err().unwrap_or_default()
        })?;
    log::info!(target: "coachcore::workout", "stage=generator outcome=valid attempts={} prompt_tokens={} completion_tokens={}", report.attempts, report.prompt_tokens, report.completion_tokens);
    document_of(&value).map_err(|_| LlmError::Backend {
        detail: "workout changed after validation".into(),
    })
}

fn cancelled(cancel: &CancelToken) -> Result<()> {
    if cancel.is_cancelled() {
        return Err(Error::Llm(LlmError::Cancelled));
    }
    Ok(())
}

/// Sends `done` when dropped: after the flow's last step, an error or a panic.
struct DoneOnDrop<'a>(&'a dyn WorkoutSink);

impl Drop for DoneOnDrop<'_> {
    fn drop(&mut self) {
        self.0.on_event(WorkoutEvent {
            stage: WorkoutStage::Done,
            attempt: 0,
        });
    }
}

/// Generates, validates and saves a workout. `model` (the metered wrapper of one run: the
/// breaker, one log line per call) `None`: the deterministic planner and renderer. `done` is
/// always the last event. Settings out of bounds are `InvalidArgument`. The workout's number
/// (`NN` of its id) is the next free one of its date and place when it is saved.
pub fn generate(
    store: &Store,
    clock: &dyn Clock,
    model: Option<&Metered<'_>>,
    request: &WorkoutRequest,
    sink: &dyn WorkoutSink,
    cancel: &Arc<CancelToken>,
    settings: &WorkoutSettings,
) -> Result<WorkoutResult> {
    let _done = DoneOnDrop(sink);
    sink.on_event(WorkoutEvent {
        stage: WorkoutStage::PreAnalysis,
        attempt: 0,
    });
    settings.check()?;
    let (pre, catalog) = pre_analysis(store, request)?;
    if pre.allowed.is_empty() {
        return Err(Error::InvalidArgument(
            "no exercise is allowed today: check the equipment and bans".into(),
        ));
    }
    let inv = pre.inventory.clone();
    cancelled(cancel)?;
    let plan = match model {
        None => planner::plan(request, &pre, &catalog),
        Some(m) => match model_analyzer(m, request, &pre, &catalog, &inv, sink, cancel, settings) {
            Ok(p) => p,
            Err(LlmError::InvalidOutput { stage, .. }) if settings.analyzer_fallback => {
                log::warn!(target: "coachcore::workout", "stage=analyzer outcome={stage} fallback=deterministic");
                planner::plan(request, &pre, &catalog)
            }
            Err(source) => {
                return Err(Error::ModelStep {
                    step: ModelStep::Analyzer,
                    source,
                })
            }
        },
    };
    cancelled(cancel)?;
    // The number the document is written with; the saving transaction checks it is still free.
    let seq = store.read(|db| next_seq(db, &plan))?;
    let expected_id = ids::workout_id(&plan.meta.date, &plan.meta.location, seq);
    let (workout, source) = match model {
        None => (
            render::render(&plan, &catalog, &inv, seq),
            WorkoutSource::Deterministic,
        ),
        Some(m) => {
            match model_generator(
                m,
                &plan,
                &catalog,
                &inv,
                seq,
                &expected_id,
                sink,
                cancel,
                settings,
            ) {
                Ok(w) => (w, WorkoutSource::Model),
                Err(LlmError::InvalidOutput { stage, .. }) => {
                    log::warn!(target: "coachcore::workout", "stage=generator outcome={stage} fallback=deterministic");
                    (
                        render::render(&plan, &catalog, &inv, seq),
                        WorkoutSource::Deterministic,
                    )
                }
                Err(source) => {
                    return Err(Error::ModelStep {
                        step: ModelStep::Generator,
                        source,
                    })
                }
            }
        }
    };
    let yaml = document::to_yaml(&workout);
    let workout = document::validate_workout_yaml(&yaml).map_err(|e| {
        Error::Internal(format!(
            "generated workout invalid at {:?}: {}",
            e.path, e.detail
        ))
    })?;
    let result = WorkoutResult {
        source,
        analyzer: plan,
        workout,
        yaml,
    };
    cancelled(cancel)?;
    let result = store.write(|db| save_numbered(db, result, clock.now_ms()))?;
    log::info!(target: "coachcore::workout", "workout saved source={source:?} sets={}", result.workout.sets.len());
    Ok(result)
}

/// The next free number of `plan`'s date and place: `InvalidArgument` after 99.
fn next_seq(db: &Db<'_>, plan: &AnalyzerPlan) -> Result<u32> {
    let prefix = format!("{}-{}-", plan.meta.date, ids::kebab(&plan.meta.location));
    let seq = db.last_workout_seq(&prefix)? + 1;
    if seq > 99 {
        return Err(Error::InvalidArgument(
            "at most 99 workouts per date and location".into(),
        ));
    }
    Ok(seq)
}

/// Saves `result` under the next free number of its date and place, chosen in the saving
/// transaction, so two generations at once (another process on the file) never take one number:
/// the one the document was written with when it is still free, else the next (the document's
/// id and YAML follow). Returns what was saved.
fn save_numbered(db: &Db<'_>, mut result: WorkoutResult, now_ms: i64) -> Result<WorkoutResult> {
    let meta = &result.analyzer.meta;
    let id = ids::workout_id(&meta.date, &meta.location, next_seq(db, &result.analyzer)?);
    if result.workout.workout_id != id {
        result.workout.workout_id = id;
        result.yaml = document::to_yaml(&result.workout);
    }
    db.insert_workout(&result, now_ms)?;
    Ok(result)
}

/// Up to `limit` saved workouts, newest first.
pub fn list(store: &Store, limit: u32) -> Result<Vec<WorkoutSummary>> {
    store.read(|db| db.workouts(limit))
}

/// A saved workout (with its actual values once logged).
pub fn fetch(store: &Store, workout_id: &str) -> Result<Option<WorkoutResult>> {
    Ok(store.read(|db| db.workout(workout_id))?.map(|s| s.result))
}

/// Renders an analyzer plan given as JSON (checked against `schemas/analyzer-v1.json`) with the
/// built-in catalog and the plan's equipment keys, as YAML: `coach workout render`.
pub fn render_plan_json(text: &str) -> Result<String> {
    let bad = |path: String, detail: String| {
        Error::InvalidArgument(format!(
            "analyzer plan{}: {detail}",
            if path.is_empty() {
                String::new()
            } else {
                format!(" at {path}")
            }
        ))
    };
    crate::kernel::limits::check_json(text, &crate::kernel::limits::Caps::ANALYZER_PLAN)
        .map_err(|e| bad(String::new(), e.detail))?;
    // `-0` is zero (an integer field refuses serde_json's -0.0).
    let value: Value = serde_json::from_str(&json::negative_zero_as_zero(text))
        .map_err(|e| bad(String::new(), json::describe(&e)))?;
    if let Some(i) = document::schema_issues(document::analyzer_validator(), &value)
        .into_iter()
        .next()
    {
        return Err(bad(i.path, i.message));
    }
    let plan: AnalyzerPlan =
        serde_json::from_value(value).map_err(|e| bad(String::new(), json::describe(&e)))?;
    if let Some(i) = check::plan_issues(&plan).into_iter().next() {
        return Err(bad(i.path, i.message));
    }
    let keys: Vec<String> = plan
        .exercise_plan
        .iter()
        .map(|p| p.equipment.clone())
        .collect();
    let inv = Inventory::new(&keys, plan.meta.units);
    let yaml = document::to_yaml(&render::render(&plan, catalog::builtin(), &inv, 1));
    // What is printed is a valid document, or the reason it cannot be.
    document::validate_workout_yaml(&yaml).map_err(|e| {
        bad(
            e.path.unwrap_or_default(),
            format!("renders an invalid workout: {}", e.detail),
        )
    })?;
    Ok(yaml)
}

/// Records what the user did in a saved workout: its sets' actual values and feedback, and a
/// session in the training history (see the module docs). Throws `NotFound` for an unknown
/// workout and `InvalidArgument` for one already logged, an unknown or repeated set id, or values
/// out of bounds (weights 0 to 2000, reps at most 1000, at most 200 sets).
pub fn log_workout(store: &Store, clock: &dyn Clock, log: &WorkoutLog) -> Result<()> {
    let invalid = |m: String| Error::InvalidArgument(m);
    if log.sets.len() > 200 {
        return Err(invalid("log.sets: at most 200".into()));
    }
    let stored = store
        .read(|db| db.workout(&log.workout_id))?
        .ok_or_else(|| Error::NotFound("workout".into()))?;
    if stored.session_id.is_some() {
        return Err(invalid(
            "log.workoutId: this workout is already logged".into(),
        ));
    }
    let mut w = stored.result.workout;
    let mut seen = std::collections::HashSet::new();
    for (i, a) in log.sets.iter().enumerate() {
        if !(a.actual_weight.is_finite() && (0.0..=2000.0).contains(&a.actual_weight))
            || a.actual_reps > 1000
        {
            return Err(invalid(format!(
                "log.sets[{i}]: weight 0 to 2000, reps at most 1000"
            )));
        }
        let Some(s) = w.sets.iter_mut().find(|s| s.id == a.set_id) else {
            return Err(invalid(format!(
                "log.sets[{i}].setId: not a set of the workout"
            )));
        };
        if !seen.insert(a.set_id.as_str()) {
            return Err(invalid(format!("log.sets[{i}].setId: repeated")));
        }
        s.actual_weight = Some(a.actual_weight);
        s.actual_reps = Some(a.actual_reps);
    }
    if let Some(p) = &log.post_workout {
        if p.perceived_difficulty
            .is_some_and(|d| !(1..=10).contains(&d))
            || p.completion_time_minutes
                .is_some_and(|m| !(1..=600).contains(&m))
            || p.notes.as_ref().is_some_and(|n| n.chars().count() > 1000)
        {
            return Err(invalid("log.postWorkout: difficulty 1 to 10, minutes 1 to 600, notes at most 1000 characters".into()));
        }
        w.post_workout = p.clone();
    } else {
        w.post_workout = PostWorkout::default();
    }
    let session = session_of(&w, log.performed_at_ms);
    let catalog = exercises(store)?;
    let yaml = document::to_yaml(&w);
    store.write(|db| {
        // One transaction: a crash never leaves the session without the workout marked logged
        // (a retry would then log it twice), and two loggers at once cannot both log it.
        if db
            .workout(&log.workout_id)?
            .is_some_and(|s| s.session_id.is_some())
        {
            return Err(invalid(
                "log.workoutId: this workout is already logged".into(),
            ));
        }
        record_session(db, clock, &catalog, &session)?;
        db.set_workout_logged(&w, &yaml, &session.id)
    })
}

/// Records `session` in the training history in `db`'s transaction: the exercises the suggestion
/// engine's catalog lacks are added from `catalog` (or by id alone) first, then the session goes
/// through the suggestion engine's `log_session`, the one call every logged training takes.
fn record_session(
    db: &Db<'_>,
    clock: &dyn Clock,
    catalog: &[WorkoutExercise],
    session: &SessionLog,
) -> Result<()> {
    for e in &session.exercises {
        if db.exercise(&e.catalog_id)?.is_none() {
            let def = render::find(catalog, &e.catalog_id).map(|d| d.to_catalog());
            let def = def.unwrap_or_else(|| {
                WorkoutExercise {
                    id: e.catalog_id.clone(),
                    name: e.catalog_id.clone(),
                    requires: vec![],
                    muscles: vec![],
                    compound: false,
                    load: catalog::LoadKind::Other,
                    pattern: String::new(),
                    per_side: false,
                }
                .to_catalog()
            });
            db.save_exercise(&def)?;
        }
    }
    crate::suggest::log_session_in(db, clock, session)
}

/// One exercise done outside a saved workout (today's plan marked done): its catalog id and its
/// working sets in order, as (weight in the session's unit, reps).
#[derive(Debug, Clone, PartialEq)]
pub struct PerformedExercise {
    /// The exercise's catalog id.
    pub exercise: String,
    /// (weight, reps) per set, in order.
    pub sets: Vec<(f64, u32)>,
}

/// Logs exercises done outside a saved workout as the session `session_id` in `db`'s
/// transaction, the way [`log_workout`] logs a workout (working sets, weights from `units` to
/// pounds, a set completed when it has reps, one performance `<session_id>:<exercise>` per
/// exercise), so the next pre-analysis and the suggestion engine read it as training.
/// `InvalidArgument` when a session of that id is logged already.
pub fn log_performed(
    db: &Db<'_>,
    clock: &dyn Clock,
    catalog: &[WorkoutExercise],
    session_id: &str,
    performed_at_ms: i64,
    units: WeightUnit,
    done: &[PerformedExercise],
) -> Result<()> {
    let session = SessionLog {
        id: session_id.to_string(),
        plan_id: None,
        performed_at_ms,
        exercises: done
            .iter()
            .map(|e| ExerciseLog {
                id: format!("{session_id}:{}", e.exercise),
                catalog_id: e.exercise.clone(),
                prescription_id: None,
                sets: e
                    .sets
                    .iter()
                    .enumerate()
                    .map(|(i, &(weight, reps))| PerformedSet {
                        index: i as u32,
                        set_type: SetType::Regular,
                        weight: units.convert(weight, WeightUnit::Lbs),
                        reps,
                        rest_seconds: None,
                        completed: reps > 0,
                    })
                    .collect(),
            })
            .collect(),
    };
    record_session(db, clock, catalog, &session)
}

/// The id of the session a logged workout becomes.
fn session_id(w: &Workout) -> String {
    format!("workout:{}", w.workout_id)
}

/// The id of the performance of `exercise` in the session a logged workout becomes.
fn performance_id(w: &Workout, exercise: &str) -> String {
    format!("workout:{}:{exercise}", w.workout_id)
}

/// The prescribed RIR of each logged set of `w` (warm-ups too), by the id of the performance its
/// exercise becomes ([`session_of`]), in the performance's set order.
pub fn logged_rirs(w: &Workout) -> HashMap<String, Vec<u32>> {
    let mut out: HashMap<String, Vec<u32>> = HashMap::new();
    for s in &w.sets {
        if s.actual_weight.is_some() && s.actual_reps.is_some() {
            out.entry(performance_id(w, &s.exercise))
                .or_default()
                .push(s.rir);
        }
    }
    out
}

/// The last 7 days of training on `today` (`YYYY-MM-DD`, the user's local date) and the split
/// of the next session for a user who trains `days_per_week` days (see `week.rs`): the logged
/// sessions of the last 14 days, the RIR of the sets logged through [`log_workout`], the workout
/// catalog's muscles. `InvalidArgument` for a malformed date or days outside 1 to 7.
pub fn week(store: &Store, today: &str, days_per_week: Option<u32>) -> Result<TrainingWeek> {
    let date = Date::parse(today)
        .ok_or_else(|| Error::InvalidArgument("today: must be a date YYYY-MM-DD".into()))?;
    if days_per_week.is_some_and(|d| !(1..=7).contains(&d)) {
        return Err(Error::InvalidArgument("daysPerWeek: 1 to 7".into()));
    }
    let catalog = exercises(store)?;
    let since = date.add_days(-week::ROTATION_DAYS).days_since_epoch() * 86_400_000;
    let (history, rir) = store.read(|db| {
        let history = db.performances_since(since, WeightUnit::Lbs)?;
        let mut rir = HashMap::new();
        let mut read = std::collections::HashSet::new();
        for p in &history {
            let Some(id) = p.session_id.strip_prefix("workout:") else {
                continue;
            };
            if read.insert(id) {
                if let Some(stored) = db.workout(id)? {
                    rir.extend(logged_rirs(&stored.result.workout));
                }
            }
        }
        Ok((history, rir))
    })?;
    Ok(week::training_week(
        date,
        days_per_week,
        &history,
        &catalog,
        &rir,
    ))
}

/// The session a logged workout becomes: one performance per exercise (in the order first done),
/// its logged sets in order (warm-ups as warm-up sets), weights in pounds (a session without a
/// plan is logged in pounds), a set completed when it has reps.
pub fn session_of(w: &Workout, performed_at_ms: i64) -> SessionLog {
    let mut order: Vec<&str> = Vec::new();
    let mut sets: HashMap<&str, Vec<PerformedSet>> = HashMap::new();
    for s in &w.sets {
        let (Some(weight), Some(reps)) = (s.actual_weight, s.actual_reps) else {
            continue;
        };
        let list = sets.entry(s.exercise.as_str()).or_insert_with(|| {
            order.push(s.exercise.as_str());
            Vec::new()
        });
        list.push(PerformedSet {
            index: list.len() as u32,
            set_type: if s.tier == SetTier::W {
                SetType::Warmup
            } else {
                SetType::Regular
            },
            weight: w.units.convert(weight, WeightUnit::Lbs),
            reps,
            rest_seconds: Some(s.rest_s),
            completed: reps > 0,
        });
    }
    SessionLog {
        id: session_id(w),
        plan_id: None,
        performed_at_ms,
        exercises: order
            .into_iter()
            .map(|e| ExerciseLog {
                id: performance_id(w, e),
                catalog_id: e.to_string(),
                prescription_id: None,
                sets: sets.remove(e).unwrap_or_default(),
            })
            .collect(),
    }
}
