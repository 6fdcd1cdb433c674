//! One process of the soak: opens the file as an app does (`Coach.open`, the device clock) and
//! runs the write mix until the end time, appending one JSON line per write that reported success
//! (and one per error) to its log. Every name it writes starts with `w<N>-` (its number), so no
//! two processes touch the same row, except where the library allocates for them: workout
//! numbers (every process generates workouts of one date and place at a time), meal-plan jobs (a
//! new job sweeps the file for interrupted ones) and staged recipe copies.

use std::collections::VecDeque;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

use coachcore::kernel::date::Date;
use coachcore::llm::CancelToken;
use coachcore::meals::service::jobs::PlanSink;
use coachcore::meals::{JobStatus, MealLog, MealPlanEvent, MealType};
use coachcore::suggest::{SessionLog, WorkoutPlan};
use coachcore::workout::service::{WorkoutSettings, WorkoutSink};
use coachcore::workout::WorkoutEvent;
use coachcore::{Coach, CoachError, Meals, Workouts};
use serde_json::{json, Value};

use crate::common::log_at_targets;
use crate::{data, now_ms};

struct Quiet;
impl PlanSink for Quiet {
    fn on_event(&self, _: MealPlanEvent) {}
}
impl WorkoutSink for Quiet {
    fn on_event(&self, _: WorkoutEvent) {}
}

/// The log: one JSON object a line, flushed after each.
struct Log(BufWriter<File>);

impl Log {
    fn write(&mut self, line: Value) {
        writeln!(self.0, "{line}").unwrap();
        self.0.flush().unwrap();
    }

    fn error(&mut self, during: &str, e: &CoachError) {
        self.write(
            json!({"op": "error", "during": during, "code": e.code(), "detail": e.to_string()}),
        );
    }
}

/// The date `days` after 2030-01-01.
fn date(days: i64) -> String {
    Date::parse("2030-01-01")
        .unwrap()
        .add_days(days)
        .to_string()
}

/// What a process keeps between writes: its applies not undone yet, its workouts not logged yet.
struct Worker {
    w: usize,
    c: std::sync::Arc<Coach>,
    log: Log,
    applies: VecDeque<String>,
    workouts: VecDeque<coachcore::workout::Workout>,
    recipes: Vec<Value>,
}

pub fn run(w: usize, db: &Path, log: &Path, until_ms: i64) {
    let mut me = Worker {
        w,
        c: Coach::open(db.to_string_lossy().into_owned()).unwrap(),
        log: Log(BufWriter::new(File::create(log).unwrap())),
        applies: VecDeque::new(),
        workouts: VecDeque::new(),
        recipes: serde_json::from_str(&data("recipes/starter.json")).unwrap(),
    };
    let mut i = 0usize;
    while now_ms() < until_ms {
        match (i + w) % 8 {
            0 => me.apply(i),
            1 => me.undo(),
            2 => me.import(i),
            3 => me.meal_job(i),
            4 => me.meal_log(i),
            5 => me.workout(),
            6 => me.workout_log(),
            _ => me.training(i),
        }
        i += 1;
    }
    me.log.write(json!({"op": "end", "iterations": i}));
}

impl Worker {
    /// Three todos in one apply, with an idempotency key.
    fn apply(&mut self, i: usize) {
        let key = format!("w{}-i{i}", self.w);
        let ops: Vec<Value> = (0..3)
            .map(|k| json!({"op": "create", "kind": "todo", "title": format!("{key}-{k}")}))
            .collect();
        match self.c.planner().apply_json(
            &Value::Array(ops).to_string(),
            Some(&key),
            Some("2026-11-18"),
        ) {
            Ok(r) => {
                let items: Vec<&str> = r.applied.iter().map(|a| a.id.as_str()).collect();
                self.log.write(
                    json!({"op": "apply", "request": r.request_id, "key": key, "items": items}),
                );
                self.applies.push_back(r.request_id);
            }
            Err(e) => self.log.error("apply", &e),
        }
    }

    /// Undoes every second apply of this process (the oldest not undone).
    fn undo(&mut self) {
        if self.applies.len() < 2 {
            return;
        }
        let request = self.applies.pop_front().unwrap();
        self.applies.pop_front();
        match self.c.planner().undo(&request) {
            Ok(_) => self.log.write(json!({"op": "undo", "request": request})),
            Err(e) => self.log.error("undo", &e),
        }
    }

    /// Two core recipes of its own, copies of starter recipes under new ids.
    fn import(&mut self, i: usize) {
        let n = self.recipes.len();
        let batch: Vec<Value> = (0..2)
            .map(|k| {
                let mut r = self.recipes[(self.w * 7 + i + k) % n].clone();
                r["id"] = json!(format!("soak-w{}-i{i}-{k}", self.w));
                r
            })
            .collect();
        let ids: Vec<Value> = batch.iter().map(|r| r["id"].clone()).collect();
        match self
            .c
            .meals()
            .import_recipes(Value::Array(batch).to_string())
        {
            Ok(2) => self.log.write(json!({"op": "import", "ids": ids})),
            Ok(n) => panic!("imported {n} of 2"),
            Err(e) => self.log.error("import", &e),
        }
    }

    /// A one-day plan (the deterministic planner: no model), then its confirmation.
    fn meal_job(&mut self, i: usize) {
        let day = date((self.w * 20_000 + i) as i64);
        let request = Meals::request_from_json(
            &json!({"days": [{"date": day, "meals": {"breakfast": {"servings": 1},
                "lunch": {"servings": 1}, "dinner": {"servings": 2}}}]})
            .to_string(),
        )
        .unwrap();
        let job = match self
            .c
            .meals()
            .plan_with(request, None, &Quiet, &CancelToken::new())
        {
            Ok(job) => job,
            Err(e) => return self.log.error("meal job", &e),
        };
        self.log
            .write(json!({"op": "job", "id": job.id, "status": job.status,
            "errorCode": job.error_code, "result": job.result}));
        let (JobStatus::Complete, Some(result)) = (job.status, job.result) else {
            return;
        };
        match self.c.meals().confirm(result) {
            Ok(n) => self
                .log
                .write(json!({"op": "confirm", "date": day, "meals": n})),
            Err(e) => self.log.error("confirm", &e),
        }
    }

    fn meal_log(&mut self, i: usize) {
        let day = date((self.w * 20_000 + 10_000 + i) as i64);
        match self.c.meals().log(MealLog {
            date: day.clone(),
            meal_type: MealType::Lunch,
            recipe_id: "core-shakshuka".into(),
        }) {
            Ok(_) => self.log.write(json!({"op": "meal_log", "date": day})),
            Err(e) => self.log.error("meal log", &e),
        }
    }

    /// A workout of the date of this half second at the one place every process uses: the
    /// processes generate workouts of one date and place at once, and each gets its own number.
    fn workout(&mut self) {
        let mut request: Value = serde_json::from_str(&data("workout/request.json")).unwrap();
        request["meta"]["date"] = json!(date(now_ms() / 500 % 20_000));
        request["meta"]["location"] = json!("gym:soak");
        let request = Workouts::request_from_json(&request.to_string()).unwrap();
        match self.c.workouts().generate_with(
            &request,
            None,
            &Quiet,
            &CancelToken::new(),
            &WorkoutSettings::default(),
        ) {
            Ok(r) => {
                self.log.write(
                    json!({"op": "workout", "id": r.workout.workout_id, "workout": r.workout}),
                );
                self.workouts.push_back(r.workout);
            }
            Err(e) => self.log.error("workout", &e),
        }
    }

    /// Logs the oldest workout of this process not logged yet, every set at its target.
    fn workout_log(&mut self) {
        let Some(w) = self.workouts.pop_front() else {
            return;
        };
        match self.c.workouts().log(log_at_targets(&w, now_ms(), 8)) {
            Ok(()) => self
                .log
                .write(json!({"op": "workout_log", "id": w.workout_id})),
            Err(e) => self.log.error("workout log", &e),
        }
    }

    /// A training plan of its own, a session of it, its suggestions, each decided.
    fn training(&mut self, i: usize) {
        let plan_id = format!("w{}-p{i}", self.w);
        let rx = |k: usize| format!("{plan_id}-rx{k}");
        let sets = |w: f64| {
            (0..3)
                .map(|i| {
                    json!({"index": i, "setType": "regular", "targetWeight": w,
                    "targetReps": 8, "restSeconds": 120})
                })
                .collect::<Vec<_>>()
        };
        let exercise = |k: usize, cat: &str, w: f64| {
            json!({"id": rx(k), "catalogId": cat, "position": k,
               "repRange": {"mode": "range", "lower": 8, "upper": 12, "target": 0},
               "restMode": "allSame", "restSeconds": 120, "sets": sets(w)})
        };
        let plan: WorkoutPlan = serde_json::from_value(json!({
            "settings": {"planId": plan_id, "unit": "lbs", "trainingStyle": "straightSets",
                "load": serde_json::to_value(coachcore::suggest::LoadConfig::default()).unwrap()},
            "name": plan_id,
            "exercises": [exercise(0, "bench", 135.0), exercise(1, "squat", 225.0)]
        }))
        .unwrap();
        if let Err(e) = self.c.workouts().save_plan(plan) {
            return self.log.error("plan", &e);
        }
        self.log.write(json!({"op": "plan", "id": plan_id}));
        let session_id = format!("w{}-s{i}", self.w);
        let performance = |k: usize, cat: &str, w: f64| {
            json!({"id": format!("{session_id}-{cat}"), "catalogId": cat, "prescriptionId": rx(k),
               "sets": (0..3).map(|i| json!({"index": i, "setType": "regular", "weight": w,
                   "reps": 12, "restSeconds": 120, "completed": true})).collect::<Vec<_>>()})
        };
        let session: SessionLog = serde_json::from_value(json!({
            "id": session_id, "planId": plan_id, "performedAtMs": now_ms(),
            "exercises": [performance(0, "bench", 135.0), performance(1, "squat", 225.0)]
        }))
        .unwrap();
        if let Err(e) = self.c.workouts().log_session(session) {
            return self.log.error("session", &e);
        }
        self.log.write(json!({"op": "session", "id": session_id}));
        let changes = match self.c.suggestions().for_session(session_id.clone()) {
            Ok(changes) => changes,
            Err(e) => return self.log.error("suggest", &e),
        };
        let ids: Vec<&str> = changes.iter().map(|c| c.id.as_str()).collect();
        self.log
            .write(json!({"op": "suggest", "session": session_id, "changes": ids}));
        for (k, change) in changes.iter().enumerate() {
            let s = self.c.suggestions();
            let (decision, decided) = match k % 3 {
                0 => ("accepted", s.accept(change.id.clone())),
                1 => ("rejected", s.reject(change.id.clone())),
                _ => ("deferred", s.defer_change(change.id.clone())),
            };
            match decided {
                Ok(_) => self
                    .log
                    .write(json!({"op": "decide", "change": change.id, "decision": decision})),
                // An earlier acceptance of this session made this change out of date: a typed
                // refusal, nothing written.
                Err(CoachError::InvalidArgument { .. }) => self
                    .log
                    .write(json!({"op": "refused", "change": change.id})),
                Err(e) => self.log.error("decide", &e),
            }
        }
    }
}
