//! Spec 001 on the device: schema contract cases (every bound, pattern and required field of
//! `schemas/analyzer-v1.json` and `schemas/workout-v1.2.json`, valid and invalid, checked with
//! `jsonschema`), the deterministic flow (ids, time-boxing, fatigue gating, anti-repeat, the
//! warm-up ramp, the YAML round trip), the repair loops with the scripted model, and logging.

use std::sync::{Arc, Mutex};

use coachcore::db::Store;
use coachcore::kernel::clock::FixedClock;
use coachcore::llm::metered::SharedModel;
use coachcore::llm::scripted::{ScriptedModel, ScriptedReply};
use coachcore::llm::{CancelToken, LanguageModel, LlmError};
use coachcore::workout::catalog::{builtin, Inventory, WorkoutEquipment};
use coachcore::workout::document::{self, ANALYZER_SCHEMA, WORKOUT_SCHEMA};
use coachcore::workout::service::{WorkoutSettings, WorkoutSink};
use coachcore::workout::*;
use coachcore::{Coach, CoachError};
use serde_json::{json, Value};

const REQUEST: &str = include_str!("../data/workout/request.json");
/// 2025-08-17T12:00:00Z.
const NOW_MS: i64 = 1_755_432_000_000;
const DAY_MS: i64 = 86_400_000;

pub(crate) fn request() -> WorkoutRequest {
    serde_json::from_str(REQUEST).unwrap()
}

fn coach() -> Coach {
    Coach::with_store(
        Store::open_in_memory().unwrap(),
        Arc::new(FixedClock::new(NOW_MS)),
    )
}

#[derive(Default)]
struct Events(Mutex<Vec<WorkoutEvent>>);

impl WorkoutSink for Events {
    fn on_event(&self, e: WorkoutEvent) {
        self.0.lock().unwrap().push(e);
    }
}

impl Events {
    fn stages(&self) -> Vec<(WorkoutStage, u32)> {
        self.0
            .lock()
            .unwrap()
            .iter()
            .map(|e| (e.stage, e.attempt))
            .collect()
    }
}

fn generate(
    c: &Coach,
    r: &WorkoutRequest,
    model: Option<Arc<dyn LanguageModel>>,
    events: &Events,
) -> Result<WorkoutResult, CoachError> {
    c.workouts().generate_with(
        r,
        model.map(SharedModel::plain),
        events,
        &CancelToken::new(),
        &WorkoutSettings::default(),
    )
}

fn validator(schema: &str) -> jsonschema::Validator {
    jsonschema::validator_for(&serde_json::from_str(schema).unwrap()).unwrap()
}

/// Sets `pointer` of a copy of `v` (removes the key with `None`).
fn with(v: &Value, pointer: &str, new: Option<Value>) -> Value {
    let mut v = v.clone();
    let (parent, key) = pointer.rsplit_once('/').unwrap();
    let p = v.pointer_mut(parent).unwrap_or_else(|| panic!("{parent}"));
    match (p, new) {
        (Value::Object(m), Some(n)) => {
            m.insert(key.to_string(), n);
        }
        (Value::Object(m), None) => {
            m.remove(key);
        }
        (Value::Array(a), Some(n)) => a[key.parse::<usize>().unwrap()] = n,
        _ => panic!("{pointer}"),
    }
    v
}

fn valid_analyzer() -> Value {
    json!({
        "meta": {"date": "2025-08-17", "location": "gym:downtown", "units": "lbs", "duration_minutes": 60, "goal": "hypertrophy"},
        "session_type": "full_body",
        "tiers": {"warmup_policy": {"ramp_sets": 3, "applies_to": "first_tier_a_compound"}},
        "fatigue_policy": {"rir_shift": 1, "load_cap_pct": 0.95},
        "time_budget": {"duration_minutes": 60, "max_working_sets": 20},
        "exercise_plan": [{
            "tier": "A", "exercise": "bb-back-squat", "equipment": "eq_barbell_olympic", "superset": null,
            "warmups": 3, "working_sets": 3, "rest_s": 120,
            "targets": {"rep_range": "6-10", "rir": 2, "target_load": 225, "load_cap": 230}, "notes": ""
        }, {
            "tier": "C", "exercise": "dead-bug", "equipment": "bodyweight", "superset": "S1",
            "warmups": 0, "working_sets": 2, "rest_s": 45,
            "targets": {"rep_range": "10/side", "rir": 1, "target_load": null, "load_cap": null}, "notes": "slow"
        }],
        "notes": "keep it crisp"
    })
}

fn valid_workout() -> Value {
    let set = |id: &str, tier: &str, must: bool, order: u32, reps: Value| {
        json!({
            "id": id, "tier": tier, "must": must, "superset": null, "order": order, "exercise": "bb-back-squat",
            "equipment": "eq_barbell_olympic", "target_reps": reps, "target_weight": 225, "rir": 2, "rest_s": 120,
            "actual_weight": null, "actual_reps": null, "notes": ""
        })
    };
    json!({
        "version": 1.2, "workout_id": "2025-08-17-gym-downtown-01", "date": "2025-08-17", "location": "gym:downtown",
        "units": "lbs", "duration_minutes": 60, "goal": "hypertrophy", "cut_order": ["B"],
        "notes_to_user": "hi",
        "sets": [
            set("W-BB-BACK-SQUAT-WU1", "W", true, 1, json!(8)),
            set("A-BB-BACK-SQUAT-1", "A", true, 2, json!("6-10")),
            set("A-BB-BACK-SQUAT-2", "A", true, 3, json!("6-10")),
            set("B-BB-BACK-SQUAT-3", "B", false, 4, json!("10/side")),
        ],
        "post_workout": {"perceived_difficulty": null, "completion_time_minutes": null, "notes": null}
    })
}

fn assert_cases(
    v: &jsonschema::Validator,
    base: &Value,
    valid: &[(&str, Option<Value>)],
    invalid: &[(&str, Option<Value>)],
) {
    assert!(
        v.is_valid(base),
        "{:?}",
        v.iter_errors(base)
            .map(|e| e.to_string())
            .collect::<Vec<_>>()
    );
    for (p, n) in valid {
        assert!(
            v.is_valid(&with(base, p, n.clone())),
            "should be valid: {p} = {n:?}"
        );
    }
    for (p, n) in invalid {
        assert!(
            !v.is_valid(&with(base, p, n.clone())),
            "should be invalid: {p} = {n:?}"
        );
    }
}

#[test]
fn analyzer_schema_contract() {
    let v = validator(ANALYZER_SCHEMA);
    let base = valid_analyzer();
    let e = "/exercise_plan/0";
    let valid: Vec<(&str, Option<Value>)> = vec![
        ("/meta/duration_minutes", Some(json!(10))),
        ("/meta/duration_minutes", Some(json!(180))),
        ("/meta/units", Some(json!("kg"))),
        ("/fatigue_policy/rir_shift", Some(json!(0))),
        ("/fatigue_policy/rir_shift", Some(json!(2))),
        ("/fatigue_policy/load_cap_pct", Some(json!(0.8))),
        ("/fatigue_policy/load_cap_pct", Some(json!(1.05))),
        ("/tiers/warmup_policy/ramp_sets", Some(json!(0))),
        ("/tiers/warmup_policy/ramp_sets", Some(json!(4))),
        ("/exercise_plan/0/rest_s", Some(json!(0))),
        ("/exercise_plan/0/rest_s", Some(json!(600))),
        ("/exercise_plan/0/targets/rir", Some(json!(0))),
        ("/exercise_plan/0/targets/rir", Some(json!(4))),
        ("/exercise_plan/0/targets/rep_range", Some(json!("5"))),
        ("/exercise_plan/0/targets/rep_range", Some(json!("20/side"))),
        ("/exercise_plan/0/superset", Some(json!("S9"))),
    ];
    let mut invalid: Vec<(&str, Option<Value>)> = vec![
        ("/meta/duration_minutes", Some(json!(9))),
        ("/meta/duration_minutes", Some(json!(181))),
        ("/meta/date", Some(json!("17.08.2025"))),
        ("/meta/units", Some(json!("stone"))),
        ("/meta/goal", Some(json!("fun"))),
        ("/meta/extra", Some(json!(1))),
        ("/session_type", Some(json!("cardio"))),
        ("/fatigue_policy/rir_shift", Some(json!(3))),
        ("/fatigue_policy/load_cap_pct", Some(json!(0.79))),
        ("/fatigue_policy/load_cap_pct", Some(json!(1.06))),
        ("/tiers/warmup_policy/ramp_sets", Some(json!(5))),
        ("/tiers/warmup_policy/applies_to", Some(json!("all"))),
        ("/time_budget/max_working_sets", Some(json!(0))),
        ("/time_budget/duration_minutes", Some(json!(181))),
        ("/exercise_plan/0/tier", Some(json!("W"))),
        ("/exercise_plan/0/exercise", Some(json!("BB_Squat"))),
        ("/exercise_plan/0/superset", Some(json!("S0"))),
        ("/exercise_plan/0/working_sets", Some(json!(0))),
        ("/exercise_plan/0/working_sets", Some(json!(9))),
        ("/exercise_plan/0/warmups", Some(json!(5))),
        ("/exercise_plan/0/rest_s", Some(json!(601))),
        ("/exercise_plan/0/rest_s", Some(json!(-1))),
        ("/exercise_plan/0/targets/rir", Some(json!(5))),
        ("/exercise_plan/0/targets/rep_range", Some(json!("8-"))),
        ("/exercise_plan/0/targets/rep_range", Some(json!("0"))),
        ("/exercise_plan/0/targets/target_load", Some(json!(-5))),
        ("/exercise_plan/0/targets/extra", Some(json!(1))),
        ("/exercise_plan/0/extra", Some(json!(1))),
        ("/exercise_plan", Some(json!([]))),
        ("/extra", Some(json!(1))),
    ];
    let required = [
        "meta",
        "session_type",
        "tiers",
        "fatigue_policy",
        "time_budget",
        "exercise_plan",
        "notes",
    ];
    let top: Vec<String> = required.iter().map(|k| format!("/{k}")).collect();
    let inner = [
        "tier",
        "exercise",
        "equipment",
        "superset",
        "warmups",
        "working_sets",
        "rest_s",
        "targets",
        "notes",
    ];
    let inner: Vec<String> = inner.iter().map(|k| format!("{e}/{k}")).collect();
    let targets: Vec<String> = ["rep_range", "rir", "target_load", "load_cap"]
        .iter()
        .map(|k| format!("{e}/targets/{k}"))
        .collect();
    let meta: Vec<String> = ["date", "location", "units", "duration_minutes", "goal"]
        .iter()
        .map(|k| format!("/meta/{k}"))
        .collect();
    for p in top.iter().chain(&inner).chain(&targets).chain(&meta) {
        invalid.push((p.as_str(), None));
    }
    assert_cases(&v, &base, &valid, &invalid);
    // The per-request schema: the exercise is an enum of today's allowed ids.
    let per_request = document::analyzer_schema_for(&["bb-back-squat".into(), "dead-bug".into()]);
    let v = jsonschema::validator_for(&per_request).unwrap();
    assert!(v.is_valid(&base));
    assert!(!v.is_valid(&with(
        &base,
        "/exercise_plan/0/exercise",
        Some(json!("bb-bench-press"))
    )));
}

#[test]
fn workout_schema_contract() {
    let v = validator(WORKOUT_SCHEMA);
    let base = valid_workout();
    let valid: Vec<(&str, Option<Value>)> = vec![
        ("/duration_minutes", Some(json!(10))),
        ("/duration_minutes", Some(json!(180))),
        ("/sets/1/rest_s", Some(json!(0))),
        ("/sets/1/rest_s", Some(json!(600))),
        ("/sets/1/rir", Some(json!(0))),
        ("/sets/1/rir", Some(json!(4))),
        ("/sets/1/target_reps", Some(json!(1))),
        ("/sets/1/target_reps", Some(json!(100))),
        ("/sets/1/target_weight", Some(Value::Null)),
        ("/sets/1/actual_weight", Some(json!(225))),
        ("/sets/1/actual_reps", Some(json!(8))),
        ("/sets/1/superset", Some(json!("S1"))),
        ("/post_workout/perceived_difficulty", Some(json!(1))),
        ("/post_workout/perceived_difficulty", Some(json!(10))),
        ("/notes_to_user", None),
        ("/cut_order", Some(json!([]))),
        ("/cut_order", Some(json!(["C", "B"]))),
        ("/workout_id", Some(json!("2025-08-17-home-99"))),
    ];
    let mut invalid: Vec<(&str, Option<Value>)> = vec![
        ("/version", Some(json!(1.1))),
        ("/version", Some(json!("1.1"))),
        // The library's earlier form is upgraded before the schema is checked, never by it.
        ("/version", Some(json!("1.2"))),
        ("/workout_id", Some(json!("2025-08-17-Gym-01"))),
        ("/workout_id", Some(json!("2025-08-17-gym-1"))),
        ("/workout_id", Some(json!("20250817-gym-01"))),
        ("/workout_id", Some(json!("2025-08-17--01"))),
        ("/date", Some(json!("2025/08/17"))),
        ("/units", Some(json!("lb"))),
        ("/goal", Some(json!("power"))),
        ("/duration_minutes", Some(json!(9))),
        ("/duration_minutes", Some(json!(181))),
        ("/cut_order", Some(json!(["A"]))),
        ("/cut_order", Some(json!(["W"]))),
        ("/cut_order", Some(json!(["B", "B"]))),
        ("/cut_order", Some(json!(["C", "B", "A"]))),
        ("/cut_order", Some(json!(["B-BB-BACK-SQUAT-3"]))),
        ("/sets", Some(json!([]))),
        ("/sets/0/id", Some(json!("W-BB-BACK-SQUAT-1"))),
        ("/sets/1/id", Some(json!("A-BB-BACK-SQUAT-WU1"))),
        ("/sets/1/id", Some(json!("A-bb-back-squat-1"))),
        ("/sets/1/id", Some(json!("A-BB-BACK-SQUAT-0"))),
        ("/sets/1/id", Some(json!("D-BB-BACK-SQUAT-1"))),
        ("/sets/1/id", Some(json!("A-BB--SQUAT-1"))),
        ("/sets/1/tier", Some(json!("D"))),
        ("/sets/1/must", Some(json!("yes"))),
        ("/sets/1/superset", Some(json!("A"))),
        ("/sets/1/order", Some(json!(0))),
        ("/sets/1/exercise", Some(json!("Back Squat"))),
        ("/sets/1/target_reps", Some(json!(0))),
        ("/sets/1/target_reps", Some(json!(101))),
        ("/sets/1/target_reps", Some(json!("8-"))),
        ("/sets/1/target_reps", Some(json!("20/sides"))),
        ("/sets/1/target_weight", Some(json!(-1))),
        ("/sets/1/rir", Some(json!(5))),
        ("/sets/1/rir", Some(json!(-1))),
        ("/sets/1/rest_s", Some(json!(601))),
        ("/sets/1/actual_reps", Some(json!(-1))),
        ("/sets/1/actual_weight", Some(json!("heavy"))),
        ("/sets/1/extra", Some(json!(1))),
        ("/post_workout/perceived_difficulty", Some(json!(0))),
        ("/post_workout/perceived_difficulty", Some(json!(11))),
        ("/post_workout/completion_time_minutes", Some(json!(0))),
        ("/post_workout/extra", Some(json!(1))),
        ("/extra", Some(json!(1))),
    ];
    let top = [
        "version",
        "workout_id",
        "date",
        "location",
        "units",
        "duration_minutes",
        "goal",
        "cut_order",
        "sets",
        "post_workout",
    ];
    let set = [
        "id",
        "tier",
        "must",
        "superset",
        "order",
        "exercise",
        "equipment",
        "target_reps",
        "target_weight",
        "rir",
        "rest_s",
        "actual_weight",
        "actual_reps",
        "notes",
    ];
    let post = ["perceived_difficulty", "completion_time_minutes", "notes"];
    let paths: Vec<String> = top
        .iter()
        .map(|k| format!("/{k}"))
        .chain(set.iter().map(|k| format!("/sets/1/{k}")))
        .chain(post.iter().map(|k| format!("/post_workout/{k}")))
        .collect();
    for p in &paths {
        invalid.push((p.as_str(), None));
    }
    assert_cases(&v, &base, &valid, &invalid);
}

#[test]
fn validate_workout_yaml_reports_code_and_path() {
    let yaml = serde_norway::to_string(&valid_workout()).unwrap();
    let w = validate_workout_yaml(&yaml).unwrap();
    assert_eq!(w.sets.len(), 4);
    let e = validate_workout_yaml("sets: [\n  - a: 1\n  b").unwrap_err();
    assert_eq!(e.code, "invalid_yaml");
    let bad = with(
        &valid_workout(),
        "/sets/3/id",
        Some(json!("B-BB-BACK-SQUAT-WU3")),
    );
    let e = validate_workout_yaml(&serde_norway::to_string(&bad).unwrap()).unwrap_err();
    assert_eq!(
        (e.code.as_str(), e.path.as_deref()),
        ("schema_violation", Some("sets[3].id"))
    );
    // Rules beyond the schema: unique ids, tier matching the id, must per tier, order.
    let dup = with(
        &valid_workout(),
        "/sets/2/id",
        Some(json!("A-BB-BACK-SQUAT-1")),
    );
    let e = validate_workout_yaml(&serde_norway::to_string(&dup).unwrap()).unwrap_err();
    assert_eq!(e.path.as_deref(), Some("sets[2].id"), "{e:?}");
    let must = with(&valid_workout(), "/sets/3/must", Some(json!(true)));
    let e = validate_workout_yaml(&serde_norway::to_string(&must).unwrap()).unwrap_err();
    assert_eq!(e.path.as_deref(), Some("sets[3].must"), "{e:?}");
    let tier = with(&valid_workout(), "/sets/1/tier", Some(json!("B")));
    let e = validate_workout_yaml(&serde_norway::to_string(&tier).unwrap()).unwrap_err();
    assert_eq!(e.path.as_deref(), Some("sets[1].id"), "{e:?}");
}

/// Issue 22: `.nan` and `.inf` were read as `null` (a valid weight) and a repeated key silently
/// replaced the first.
#[test]
fn validate_workout_yaml_refuses_non_finite_numbers_and_duplicate_keys() {
    let yaml = serde_norway::to_string(&valid_workout()).unwrap();
    let weight = "target_weight: 225";
    for number in [".nan", ".NaN", ".inf", "-.Inf", "+.INF"] {
        let text = yaml.replacen(weight, &format!("target_weight: {number}"), 1);
        let e = validate_workout_yaml(&text).unwrap_err();
        assert_eq!(
            (e.code.as_str(), e.path.as_deref(), e.detail.as_str()),
            (
                "schema_violation",
                Some("sets[0].target_weight"),
                "must be a finite number"
            ),
            "{number}"
        );
    }
    // Too large for a number: a string, which the schema refuses.
    let e = validate_workout_yaml(&yaml.replacen(weight, "target_weight: 1e400", 1)).unwrap_err();
    assert_eq!(
        (e.code.as_str(), e.path.as_deref()),
        ("schema_violation", Some("sets[0].target_weight"))
    );

    let e = validate_workout_yaml(&format!("{yaml}units: kg\n")).unwrap_err();
    assert_eq!(
        (e.code.as_str(), e.path.as_deref(), e.detail.as_str()),
        (
            "invalid_yaml",
            Some("units"),
            "the key appears twice in its mapping"
        )
    );
    let rir = yaml.lines().find(|l| l.trim() == "rir: 2").unwrap();
    let twice = yaml.replacen(&format!("{rir}\n"), &format!("{rir}\n{rir}\n"), 1);
    let e = validate_workout_yaml(&twice).unwrap_err();
    assert_eq!(
        (e.code.as_str(), e.path.as_deref()),
        ("invalid_yaml", Some("sets[0].rir"))
    );
    // The same key written two ways is the same key.
    let e = validate_workout_yaml(&format!("{yaml}'units': kg\n")).unwrap_err();
    assert_eq!(e.path.as_deref(), Some("units"), "{e:?}");
}

/// A document as the original app of spec 001 writes it: `version: 1.2`, `cut_order: ["C", "B"]`.
const ORIGINAL_APP: &str = include_str!("../data/workout/original-app.yaml");
/// A document as the library wrote it before: `version: '1.2'`, `cut_order` the B and C set ids.
const EARLIER_LIBRARY: &str = include_str!("../data/workout/earlier-library.yaml");
/// The `workouts` row of [`EARLIER_LIBRARY`] as that library saved it (its YAML column is
/// [`EARLIER_LIBRARY`]).
const EARLIER_ROW: &str = include_str!("../data/workout/earlier-stored-row.json");

fn tiers(list: &[&str]) -> Vec<String> {
    list.iter().map(|t| t.to_string()).collect()
}

/// Issue 23: the public validation takes the original app's document as it is, reads the
/// library's earlier form in the original's shape, and refuses a cut order the original would
/// not write.
#[test]
fn the_public_validation_takes_the_original_shape_and_upgrades_the_earlier_one() {
    let v = coachcore::validate_workout_yaml(ORIGINAL_APP.into());
    assert_eq!(v.error, None);
    let w = v.workout.unwrap();
    assert_eq!((w.version, w.cut_order), (1.2, tiers(&["C", "B"])));

    let v = coachcore::validate_workout_yaml(EARLIER_LIBRARY.into());
    assert_eq!(v.error, None);
    let w = v.workout.unwrap();
    assert_eq!((w.version, w.cut_order.clone()), (1.2, tiers(&["C", "B"])));
    let earlier = document::yaml_to_json(EARLIER_LIBRARY).unwrap();
    assert_eq!(
        serde_json::to_value(&w.sets).unwrap(),
        earlier["sets"],
        "the sets are kept as they were"
    );
    // Written again, it is the original's shape and reads back the same.
    let yaml = document::to_yaml(&w);
    assert!(yaml.starts_with("version: 1.2\n") && yaml.contains("cut_order:\n- C\n- B\n"));
    assert_eq!(validate_workout_yaml(&yaml).unwrap(), w);

    let line = "cut_order: [\"C\", \"B\"]";
    assert!(ORIGINAL_APP.contains(line));
    for (order, path, detail) in [
        ("[\"B\", \"C\"]", "cut_order[1]", "C is cut before B: list C first"),
        ("[\"C\", \"A\"]", "cut_order[1]", "must be one of \"C\", \"B\""),
        ("[W]", "cut_order[0]", "must be one of \"C\", \"B\""),
        (
            "[C-DB-CURL-1, A-BB-BENCH-PRESS-1]",
            "cut_order[1]",
            "a set id (the library's earlier form of cut_order) must name a B or C set of the workout; write the tiers to cut, e.g. [\"C\", \"B\"]",
        ),
    ] {
        let text = ORIGINAL_APP.replacen(line, &format!("cut_order: {order}"), 1);
        let e = coachcore::validate_workout_yaml(text).error.unwrap();
        assert_eq!(
            (e.code.as_str(), e.path.as_deref(), e.detail.as_str()),
            ("schema_violation", Some(path), detail),
            "{order}"
        );
    }
    // A tier listed that has no sets: the document without its C sets (the last ones).
    let (head, _) = ORIGINAL_APP.split_once("\n  - id: C-").unwrap();
    let (_, post) = ORIGINAL_APP.split_once("\npost_workout:").unwrap();
    let text = format!("{head}\npost_workout:{post}");
    let e = coachcore::validate_workout_yaml(text.clone())
        .error
        .unwrap();
    assert_eq!(
        (e.path.as_deref(), e.detail.as_str()),
        (
            Some("cut_order[0]"),
            "must be a tier the workout has sets of"
        )
    );
    let only_b = text.replacen(line, "cut_order: [B]", 1);
    assert_eq!(coachcore::validate_workout_yaml(only_b).error, None);
}

/// Issue 23: a workout the library saved before (its row as that version wrote it) is read in
/// the original's shape: listed, read with version 1.2, the tiers and its YAML written again, and
/// logging it rewrites the row in the new shape.
#[test]
fn a_workout_saved_in_the_earlier_shape_reads_back_upgraded() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("coach.db");
    drop(Store::open(&path).unwrap());
    let row: Value = serde_json::from_str(EARLIER_ROW).unwrap();
    assert_eq!(
        row["workout"]["version"], "1.2",
        "the fixture is the earlier form"
    );
    let conn = rusqlite::Connection::open(&path).unwrap();
    conn.execute(
        "INSERT INTO workouts (workout_id, date, location, source, created_at_ms, analyzer, workout, yaml)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        rusqlite::params![
            row["workout_id"].as_str(),
            row["date"].as_str(),
            row["location"].as_str(),
            row["source"].as_str(),
            row["created_at_ms"].as_i64(),
            row["analyzer"].to_string(),
            row["workout"].to_string(),
            EARLIER_LIBRARY,
        ],
    )
    .unwrap();
    drop(conn);
    let c = Coach::with_store(
        Store::open(&path).unwrap(),
        Arc::new(FixedClock::new(NOW_MS)),
    );
    let id = row["workout_id"].as_str().unwrap().to_string();
    let list = c.workouts().list(10).unwrap();
    assert_eq!(list.len(), 1);
    assert_eq!(
        list[0].set_count as usize,
        row["workout"]["sets"].as_array().unwrap().len()
    );
    let got = c.workouts().get(id.clone()).unwrap().unwrap();
    assert_eq!(
        (got.workout.version, got.workout.cut_order.clone()),
        (1.2, tiers(&["C", "B"]))
    );
    assert_eq!(
        serde_json::to_value(&got.workout.sets).unwrap(),
        row["workout"]["sets"]
    );
    assert_eq!(
        got.yaml,
        document::to_yaml(&got.workout),
        "the YAML is the upgraded document"
    );
    assert_eq!(validate_workout_yaml(&got.yaml).unwrap(), got.workout);
    // The next generation on that date and place still gets the next number.
    let next = generate(&c, &request(), None, &Events::default()).unwrap();
    assert_eq!(next.workout.workout_id, "2025-08-17-gym-downtown-02");
    // Logged: the row is written again, in the new shape.
    let first = got.workout.sets[0].id.clone();
    c.workouts()
        .log(WorkoutLog {
            workout_id: id.clone(),
            performed_at_ms: NOW_MS,
            sets: vec![SetActual {
                set_id: first,
                actual_weight: 45.0,
                actual_reps: 8,
            }],
            post_workout: None,
        })
        .unwrap();
    let conn = rusqlite::Connection::open(&path).unwrap();
    let (stored, yaml): (String, String) = conn
        .query_row(
            "SELECT workout, yaml FROM workouts WHERE workout_id = ?1",
            [&id],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    let stored: Value = serde_json::from_str(&stored).unwrap();
    assert_eq!(
        (&stored["version"], &stored["cut_order"]),
        (&json!(1.2), &json!(["C", "B"]))
    );
    assert!(yaml.starts_with("version: 1.2\n"), "{yaml}");
}

fn plan_with(load: f64, working: u32, minutes: u32) -> AnalyzerPlan {
    let mut v = valid_analyzer();
    v["exercise_plan"][0]["targets"]["target_load"] = json!(load);
    v["exercise_plan"][0]["targets"]["load_cap"] = json!(load + 10.0);
    v["exercise_plan"][0]["working_sets"] = json!(working);
    v["meta"]["duration_minutes"] = json!(minutes);
    serde_json::from_value(v).unwrap()
}

fn inventory() -> Inventory {
    let r = request();
    Inventory::new(&r.equipment, r.meta.units)
}

#[test]
fn warm_up_ramp_is_rounded_to_loadable_plates() {
    let w = render::render(&plan_with(225.0, 3, 60), builtin(), &inventory(), 1);
    let warm: Vec<Option<f64>> = w
        .sets
        .iter()
        .filter(|s| s.tier == SetTier::W)
        .map(|s| s.target_weight)
        .collect();
    assert_eq!(warm, vec![Some(90.0), Some(135.0), Some(180.0)]);
    let ids: Vec<&str> = w.sets.iter().map(|s| s.id.as_str()).collect();
    assert_eq!(
        &ids[..4],
        [
            "W-BB-BACK-SQUAT-WU1",
            "W-BB-BACK-SQUAT-WU2",
            "W-BB-BACK-SQUAT-WU3",
            "A-BB-BACK-SQUAT-1"
        ]
    );
    // 137 lb: the ramp to 55, 82.5, 110 lb with 45..2.5 lb plates; a light load drops duplicates.
    let w = render::render(&plan_with(137.0, 3, 60), builtin(), &inventory(), 1);
    let a = w.sets.iter().find(|s| s.tier == SetTier::A).unwrap();
    assert_eq!(a.target_weight, Some(135.0), "rounded to plates");
    let w = render::render(&plan_with(50.0, 3, 60), builtin(), &inventory(), 1);
    let warm: Vec<Option<f64>> = w
        .sets
        .iter()
        .filter(|s| s.tier == SetTier::W)
        .map(|s| s.target_weight)
        .collect();
    assert_eq!(warm, vec![Some(45.0)], "only the empty bar is below 50 lb");
}

#[test]
fn fatigue_policy_shifts_rir_and_caps_loads() {
    let mut p = plan_with(225.0, 3, 60);
    p.fatigue_policy.rir_shift = 2;
    p.exercise_plan[0].targets.load_cap = Some(212.0);
    let w = render::render(&p, builtin(), &inventory(), 1);
    let a = w.sets.iter().find(|s| s.tier == SetTier::A).unwrap();
    assert_eq!(a.rir, 4);
    assert_eq!(
        a.target_weight,
        Some(210.0),
        "the loadable weight not above the cap"
    );
    assert!(w.notes_to_user.unwrap().contains("+2 RIR"));
}

#[test]
fn time_boxing_moves_overflow_to_b_then_c_with_cut_order() {
    let w = render::render(&plan_with(225.0, 8, 15), builtin(), &inventory(), 1);
    let tiers: Vec<SetTier> = w.sets.iter().map(|s| s.tier).collect();
    assert!(
        tiers.contains(&SetTier::A) && tiers.contains(&SetTier::B) && tiers.contains(&SetTier::C),
        "{tiers:?}"
    );
    assert!(
        tiers.windows(2).all(|t| t[0] <= t[1]),
        "A before B before C: {tiers:?}"
    );
    assert!(w
        .sets
        .iter()
        .all(|s| s.must == matches!(s.tier, SetTier::W | SetTier::A)));
    // cut_order: the tiers to drop, C first, then B (as the original app writes it).
    assert_eq!(w.cut_order, ["C", "B"]);
    assert_eq!(
        document::validate_workout_yaml(&document::to_yaml(&w)).unwrap(),
        w
    );
    // With an hour nothing moves down: only the plan's Tier C can be cut.
    let w = render::render(&plan_with(225.0, 3, 60), builtin(), &inventory(), 1);
    assert!(!w.sets.iter().any(|s| s.tier == SetTier::B));
    assert_eq!(w.cut_order, ["C"]);
    assert!(document::validate_workout_yaml(&document::to_yaml(&w)).is_ok());
}

#[test]
fn deterministic_flow_round_trips_through_yaml_and_saves() {
    let c = coach();
    let events = Events::default();
    let r = generate(&c, &request(), None, &events).unwrap();
    assert_eq!(r.source, WorkoutSource::Deterministic);
    assert_eq!(
        events.stages(),
        vec![(WorkoutStage::PreAnalysis, 0), (WorkoutStage::Done, 0)]
    );
    assert_eq!(r.workout.workout_id, "2025-08-17-gym-downtown-01");
    assert_eq!(
        validate_workout_yaml(&r.yaml).unwrap(),
        r.workout,
        "YAML round trip"
    );
    // ids unique and well-formed
    let mut ids: Vec<&str> = r.workout.sets.iter().map(|s| s.id.as_str()).collect();
    assert!(ids
        .iter()
        .all(|i| coachcore::workout::ids::parse_set_id(i).is_some()));
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), r.workout.sets.len());
    // The request's bans and equipment hold; the fatigue shift (cardio load 95) applies.
    assert!(r
        .workout
        .sets
        .iter()
        .all(|s| s.exercise != "bb-deadlift" && !s.exercise.starts_with("smith")));
    assert_eq!(r.analyzer.fatigue_policy.rir_shift, 1);
    assert_eq!(r.analyzer.fatigue_policy.load_cap_pct, 0.95);
    // Saved; a second one on the same date and place gets NN 02.
    let again = generate(&c, &request(), None, &events).unwrap();
    assert_eq!(again.workout.workout_id, "2025-08-17-gym-downtown-02");
    let list = c.workouts().list(10).unwrap();
    assert_eq!(list.len(), 2);
    assert_eq!(
        c.workouts()
            .get(r.workout.workout_id.clone())
            .unwrap()
            .unwrap(),
        r
    );
    assert!(coachcore::validate_workout_yaml(r.yaml.clone())
        .error
        .is_none());
    // The deterministic plan passes the analyzer's own domain checks.
    let (pre, _) =
        coachcore::workout::service::pre_analysis(&Store::open_in_memory().unwrap(), &request())
            .unwrap();
    assert!(check::analyzer_issues(&r.analyzer, &request(), &pre, &inventory()).is_empty());
}

/// Logs every set of `w` at its target (or 100 lb) for 10 reps.
fn log_all(c: &Coach, w: &Workout, performed_at_ms: i64) {
    c.workouts()
        .log(crate::common::log_at_targets(w, performed_at_ms, 10))
        .unwrap();
}

#[test]
fn logged_workouts_become_history_and_drive_anti_repeat() {
    let c = coach();
    let mut r = request();
    r.meta.date = "2025-08-10".into();
    let first = generate(&c, &r, None, &Events::default()).unwrap();
    log_all(&c, &first.workout, NOW_MS - 7 * DAY_MS);
    let done: Vec<&str> = first
        .analyzer
        .exercise_plan
        .iter()
        .map(|p| p.exercise.as_str())
        .collect();
    // The suggestion engine's history has them; the saved workout has its actual values.
    let saved = c
        .workouts()
        .get(first.workout.workout_id.clone())
        .unwrap()
        .unwrap();
    assert!(saved.workout.sets.iter().all(|s| s.actual_reps == Some(10)));
    assert!(validate_workout_yaml(&saved.yaml).unwrap().sets[0]
        .actual_weight
        .is_some());
    assert!(
        c.workouts().list(1).unwrap()[0].logged
            || c.workouts().list(10).unwrap().iter().any(|w| w.logged)
    );
    assert!(c
        .workouts()
        .history(done[0].to_string(), None)
        .unwrap()
        .is_some());
    assert!(matches!(
        c.workouts().log(WorkoutLog {
            workout_id: first.workout.workout_id.clone(),
            performed_at_ms: NOW_MS,
            sets: vec![],
            post_workout: None
        }),
        Err(CoachError::InvalidArgument { .. })
    ));
    // Two days later: the last strength day is 2 days ago, so the anti-repeat applies.
    r.meta.date = "2025-08-12".into();
    let second = generate(&c, &r, None, &Events::default()).unwrap();
    for p in &second.analyzer.exercise_plan {
        assert!(
            !done.contains(&p.exercise.as_str()),
            "{} repeated within 14 days",
            p.exercise
        );
    }
    // Ten days later (last strength day >= 7 days ago): repeats allowed again, with history loads.
    r.meta.date = "2025-08-20".into();
    let third = generate(&c, &r, None, &Events::default()).unwrap();
    let a = &third.analyzer.exercise_plan[0];
    assert!(
        done.contains(&a.exercise.as_str()),
        "{:?}",
        third.analyzer.exercise_plan
    );
    assert!(a.targets.load_cap.is_some(), "history gives a cap");
}

fn scripted(texts: Vec<String>) -> Arc<ScriptedModel> {
    ScriptedModel::texts(texts)
}

/// The deterministic plan as the analyzer's choices, and the generator's choices (every set at
/// the low end of its range), as JSON answers a model could give; and the deterministic result.
pub(crate) fn reference_answers() -> (String, String, WorkoutResult) {
    let r = generate(&coach(), &request(), None, &Events::default()).unwrap();
    // One pick per slot: the slots are named by tier and place (A1, A2, B1, ...).
    let mut analyzer = serde_json::Map::new();
    let mut counts = std::collections::HashMap::new();
    for p in &r.analyzer.exercise_plan {
        let tier = serde_json::to_value(p.tier).unwrap();
        let n = counts
            .entry(tier.as_str().unwrap().to_string())
            .or_insert(0);
        *n += 1;
        analyzer.insert(format!("{}{n}", tier.as_str().unwrap()), json!(p.exercise));
    }
    let analyzer = Value::Object(analyzer);
    let mut generator = serde_json::Map::new();
    for p in &r.analyzer.exercise_plan {
        let (lo, _) = choices::rep_bounds(&p.targets.rep_range);
        generator.insert(p.exercise.clone(), json!(vec![lo; p.working_sets as usize]));
    }
    (
        analyzer.to_string(),
        Value::Object(generator).to_string(),
        r,
    )
}

#[test]
fn analyzer_and_generator_repair_once_then_pass() {
    let (plan, workout, reference) = reference_answers();
    let mut bad_plan: Value = serde_json::from_str(&plan).unwrap();
    bad_plan["A1"] = json!("bb-deadlift"); // banned in the request
    let mut bad_workout: Value = serde_json::from_str(&workout).unwrap();
    let first = reference.analyzer.exercise_plan[0].exercise.clone();
    bad_workout[&first][0] = json!(99);
    let model = scripted(vec![
        bad_plan.to_string(),
        plan.clone(),
        bad_workout.to_string(),
        workout.clone(),
    ]);
    let events = Events::default();
    let r = generate(&coach(), &request(), Some(model.clone()), &events).unwrap();
    assert_eq!(r.source, WorkoutSource::Model);
    assert_eq!(
        r.analyzer, reference.analyzer,
        "code completes the choices as the planner does"
    );
    // The model's reps in the rendered document; the rest (notes included) is the renderer's.
    let a = r
        .workout
        .sets
        .iter()
        .find(|s| s.tier == SetTier::A)
        .unwrap();
    let (lo, _) = choices::rep_bounds(&reference.analyzer.exercise_plan[0].targets.rep_range);
    assert_eq!(a.target_reps, TargetReps::Count { value: lo });
    assert_eq!(r.workout.notes_to_user, reference.workout.notes_to_user);
    assert_eq!(r.workout.sets.len(), reference.workout.sets.len());
    for (m, d) in r.workout.sets.iter().zip(&reference.workout.sets) {
        assert_eq!(
            (&m.id, m.target_weight, m.rir),
            (&d.id, d.target_weight, d.rir)
        );
    }
    use WorkoutStage::*;
    assert_eq!(
        events.stages(),
        vec![
            (PreAnalysis, 0),
            (Analyzer, 1),
            (AnalyzerRepair, 2),
            (Generator, 1),
            (GeneratorRepair, 2),
            (Done, 0)
        ]
    );
    let reqs = model.requests();
    let repair = &reqs[1].messages.last().unwrap().content;
    assert!(
        repair.contains("- A1: ") && repair.contains("\"bb-back-squat\""),
        "the slot and its candidates: {repair}"
    );
    let schema = reqs[0].json_schema.as_deref().unwrap();
    assert!(
        schema.contains("\"A1\":{\"enum\":[\"bb-back-squat\""),
        "each slot's candidate ids as an enum, the deterministic pick first: {schema}"
    );
    assert!(!schema.contains("bb-deadlift"), "banned: not a candidate");
    let repair = &reqs[3].messages.last().unwrap().content;
    assert!(
        repair.contains(&format!("{first}[0]")) && repair.contains("at most"),
        "{repair}"
    );
}

/// The prompt and the answer of each stage fit a 2048-token context with room: the prompt in
/// characters (about 3.5 per token for this text) with the answer's token limit.
#[test]
fn prompts_and_answers_fit_a_small_context() {
    let (plan, workout, _) = reference_answers();
    let model = scripted(vec![plan, workout]);
    generate(
        &coach(),
        &request(),
        Some(model.clone()),
        &Events::default(),
    )
    .unwrap();
    let settings = WorkoutSettings::default();
    for (req, max) in model
        .requests()
        .iter()
        .zip([settings.analyzer_max_tokens, settings.generator_max_tokens])
    {
        let chars: usize = req.messages.iter().map(|m| m.content.len()).sum();
        let tokens = chars * 2 / 7;
        eprintln!("prompt {chars} chars (~{tokens} tokens) + answer {max}");
        assert!(tokens + max as usize <= 1600, "{tokens} + {max}");
    }
}

#[test]
fn three_invalid_analyzer_answers_give_the_typed_error_with_its_stage() {
    let model = scripted(vec!["{}".into(), "not json".into(), "{\"meta\": 1}".into()]);
    let events = Events::default();
    let e = generate(&coach(), &request(), Some(model), &events).unwrap_err();
    match e {
        CoachError::ModelOutputRejected {
            stage, attempts, ..
        } => {
            assert!(stage.starts_with("analyzer:"), "{stage}");
            assert_eq!(attempts, 3);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(events.stages().last(), Some(&(WorkoutStage::Done, 0)));
    // With the fallback, the deterministic plan is used instead.
    let (_, workout, _) = reference_answers();
    let model = scripted(vec!["{}".into(), "{}".into(), "{}".into(), workout]);
    let settings = WorkoutSettings {
        analyzer_fallback: true,
        ..WorkoutSettings::default()
    };
    let r = coach()
        .workouts()
        .generate_with(
            &request(),
            Some(SharedModel::plain(model)),
            &Events::default(),
            &CancelToken::new(),
            &settings,
        )
        .unwrap();
    assert_eq!(r.source, WorkoutSource::Model);
}

#[test]
fn three_invalid_generator_answers_fall_back_to_the_deterministic_generator() {
    let (plan, workout, reference) = reference_answers();
    // Well-formed but one set short.
    let mut short: Value = serde_json::from_str(&workout).unwrap();
    let first = reference.analyzer.exercise_plan[0].exercise.clone();
    short[&first].as_array_mut().unwrap().pop();
    let model = scripted(vec![
        plan,
        "sets: []".into(),
        short.to_string(),
        "{}".into(),
    ]);
    let r = generate(&coach(), &request(), Some(model), &Events::default()).unwrap();
    assert_eq!(r.source, WorkoutSource::Deterministic);
    assert_eq!(r.workout, reference.workout);
}

#[test]
fn model_errors_cancellation_and_bad_requests_are_typed() {
    let model = ScriptedModel::new([ScriptedReply::Fail(LlmError::TimedOut { after_ms: 5 })]);
    let e = generate(&coach(), &request(), Some(model), &Events::default()).unwrap_err();
    assert_eq!(
        e,
        CoachError::TimedOut {
            after_ms: 5,
            stage: Some("analyzer".into())
        }
    );
    let model = ScriptedModel::new([ScriptedReply::Fail(LlmError::Backend {
        detail: "boom".into(),
    })]);
    let e = generate(&coach(), &request(), Some(model), &Events::default()).unwrap_err();
    assert_eq!(
        e,
        CoachError::ModelFailure {
            detail: "analyzer: boom".into()
        }
    );
    let cancel = CancelToken::new();
    cancel.cancel();
    let events = Events::default();
    let e = coach()
        .workouts()
        .generate_with(
            &request(),
            None,
            &events,
            &cancel,
            &WorkoutSettings::default(),
        )
        .unwrap_err();
    assert_eq!(e, CoachError::Cancelled);
    assert_eq!(events.stages().last(), Some(&(WorkoutStage::Done, 0)));
    assert!(
        coach().workouts().list(10).unwrap().is_empty(),
        "nothing saved"
    );
    for (field, bad) in [
        ("/meta/durationMinutes", json!(181)),
        ("/meta/date", json!("2025-02-30")),
        ("/recovery/sleepScore", json!(101)),
        ("/instructions", json!("x".repeat(20_001))),
    ] {
        let v = with(&serde_json::from_str(REQUEST).unwrap(), field, Some(bad));
        let r: WorkoutRequest = serde_json::from_value(v).unwrap();
        let e = generate(&coach(), &r, None, &Events::default()).unwrap_err();
        assert!(
            matches!(&e, CoachError::InvalidArgument { detail } if detail.contains(&field[1..].replace('/', "."))),
            "{field}: {e:?}"
        );
    }
}

/// A listener that panics on every event (a Kotlin or Python listener that throws).
struct PanickingListener(std::sync::atomic::AtomicU32);

impl coachcore::ffi::WorkoutListener for PanickingListener {
    fn on_event(&self, _: WorkoutEvent) -> Result<(), coachcore::ffi::ListenerError> {
        self.0.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        panic!("listener bug");
    }
}

#[test]
fn a_listener_that_always_panics_cannot_hang_wait() {
    let c = Arc::new(coach());
    let listener = Arc::new(PanickingListener(Default::default()));
    let task = c
        .workouts()
        .generate(request(), Some(listener.clone()), None);
    let result = task
        .wait()
        .expect("the generation goes on without its listener");
    assert!(!result.workout.sets.is_empty(), "{result:?}");
    assert_eq!(
        listener.0.load(std::sync::atomic::Ordering::SeqCst),
        1,
        "called once, then ignored"
    );
}

/// A model that answers like `inner` after `delay_ms`, ignoring the request's time limit (an
/// app's model that does not keep it).
struct Slow {
    inner: Arc<ScriptedModel>,
    delay_ms: u64,
}

impl LanguageModel for Slow {
    fn info(&self) -> coachcore::llm::ModelInfo {
        self.inner.info()
    }

    fn generate(
        &self,
        request: coachcore::llm::GenerationRequest,
        listener: Option<Arc<dyn coachcore::llm::TokenListener>>,
        cancel: Arc<CancelToken>,
    ) -> Result<coachcore::llm::GenerationResult, LlmError> {
        std::thread::sleep(std::time::Duration::from_millis(self.delay_ms));
        self.inner.generate(request, listener, cancel)
    }
}

#[test]
fn each_stage_keeps_its_budget_and_the_timeout_names_the_stage() {
    let (plan, workout, _) = reference_answers();
    let run = |analyzer_ms: u64, generator_ms: u64, delay_ms: u64| {
        let inner = scripted(vec![plan.clone(), workout.clone()]);
        let slow: Arc<dyn LanguageModel> = Arc::new(Slow {
            inner: inner.clone(),
            delay_ms,
        });
        let settings = WorkoutSettings {
            analyzer_timeout_ms: analyzer_ms,
            generator_timeout_ms: generator_ms,
            ..WorkoutSettings::default()
        };
        let out = coach().workouts().generate_with(
            &request(),
            Some(SharedModel::plain(slow)),
            &Events::default(),
            &CancelToken::new(),
            &settings,
        );
        (out, inner.remaining())
    };
    // Each answer takes 300 ms: an analyzer budget of 100 ms ends the run at the analyzer.
    let (out, _) = run(100, 60_000, 300);
    assert_eq!(
        out.unwrap_err(),
        CoachError::TimedOut {
            after_ms: 100,
            stage: Some("analyzer".into())
        }
    );
    // The analyzer within its budget, the generator over its own.
    let (out, left) = run(60_000, 100, 300);
    assert_eq!(
        out.unwrap_err(),
        CoachError::TimedOut {
            after_ms: 100,
            stage: Some("generator".into())
        }
    );
    assert_eq!(left, 0, "both stages called the model");
    // Both within budget: the workout.
    let (out, _) = run(60_000, 60_000, 50);
    assert_eq!(out.unwrap().source, WorkoutSource::Model);
    // Settings out of bounds are refused before anything runs.
    let bad = WorkoutSettings {
        max_attempts: 0,
        ..WorkoutSettings::default()
    };
    let e = coach()
        .workouts()
        .generate_with(
            &request(),
            None,
            &Events::default(),
            &CancelToken::new(),
            &bad,
        )
        .unwrap_err();
    assert!(
        matches!(&e, CoachError::InvalidArgument { detail } if detail.contains("maxAttempts")),
        "{e:?}"
    );
}

/// A model that blocks until its call is cancelled (as the engine stops within a token or two).
struct UntilCancelled(std::sync::atomic::AtomicU32);

impl LanguageModel for UntilCancelled {
    fn info(&self) -> coachcore::llm::ModelInfo {
        ScriptedModel::texts(Vec::<String>::new()).info()
    }

    fn generate(
        &self,
        _: coachcore::llm::GenerationRequest,
        _: Option<Arc<dyn coachcore::llm::TokenListener>>,
        cancel: Arc<CancelToken>,
    ) -> Result<coachcore::llm::GenerationResult, LlmError> {
        self.0.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        while !cancel.is_cancelled() {
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        Err(LlmError::Cancelled)
    }
}

/// Cancels `task` when the analyzer's call starts.
struct CancelOnAnalyzer(
    Mutex<Option<Arc<coachcore::ffi::WorkoutTask>>>,
    Mutex<Vec<WorkoutStage>>,
);

impl coachcore::ffi::WorkoutListener for CancelOnAnalyzer {
    fn on_event(&self, e: WorkoutEvent) -> Result<(), coachcore::ffi::ListenerError> {
        self.1.lock().unwrap().push(e.stage);
        if e.stage == WorkoutStage::Analyzer {
            // The task may not be stored yet: wait for it (the call is blocked meanwhile).
            for _ in 0..1000 {
                if let Some(t) = self.0.lock().unwrap().as_ref() {
                    // Cancel from another thread while the model call is running.
                    let t = Arc::clone(t);
                    std::thread::spawn(move || {
                        std::thread::sleep(std::time::Duration::from_millis(50));
                        t.cancel();
                    });
                    return Ok(());
                }
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
        }
        Ok(())
    }
}

#[test]
fn a_cancel_during_a_model_call_stops_the_generation() {
    let c = Arc::new(coach());
    let model = Arc::new(UntilCancelled(Default::default()));
    c.model().set(Some(model.clone())).unwrap();
    let listener = Arc::new(CancelOnAnalyzer(Mutex::default(), Mutex::default()));
    let task = c
        .workouts()
        .generate(request(), Some(listener.clone()), None);
    *listener.0.lock().unwrap() = Some(Arc::clone(&task));
    assert_eq!(task.wait().unwrap_err(), CoachError::Cancelled);
    assert_eq!(
        model.0.load(std::sync::atomic::Ordering::SeqCst),
        1,
        "one call, cancelled"
    );
    let stages = listener.1.lock().unwrap().clone();
    assert_eq!(
        stages,
        vec![
            WorkoutStage::PreAnalysis,
            WorkoutStage::Analyzer,
            WorkoutStage::Done
        ]
    );
    assert!(c.workouts().list(10).unwrap().is_empty(), "nothing saved");
}

#[test]
fn the_coachs_model_is_called_through_its_circuit_breaker() {
    let c = Arc::new(coach());
    let failures = (0..5).map(|_| {
        ScriptedReply::Fail(LlmError::Backend {
            detail: "engine fault".into(),
        })
    });
    let model = ScriptedModel::new(failures);
    let (plan, workout, _) = reference_answers();
    model.push(ScriptedReply::Text(plan));
    model.push(ScriptedReply::Text(workout));
    c.model().set(Some(model.clone())).unwrap();
    for _ in 0..5 {
        let e = c
            .workouts()
            .generate(request(), None, None)
            .wait()
            .unwrap_err();
        assert!(matches!(e, CoachError::ModelFailure { .. }), "{e:?}");
    }
    // Five failures open the breaker: the model is not called, the error is typed.
    let e = c
        .workouts()
        .generate(request(), None, None)
        .wait()
        .unwrap_err();
    assert!(matches!(e, CoachError::ModelUnavailable { .. }), "{e:?}");
    assert_eq!(
        model.requests().len(),
        5,
        "no call while the breaker is open"
    );
    assert_eq!(model.remaining(), 2);
    // Without the model the deterministic flow still works.
    c.model().set(None).unwrap();
    let r = c.workouts().generate(request(), None, None).wait().unwrap();
    assert_eq!(r.source, WorkoutSource::Deterministic);
}

#[test]
fn every_valid_plan_renders_a_valid_workout_or_a_clear_error() {
    // "8-12/side" is not a target_reps shape: the analyzer schema refuses it.
    let v = validator(ANALYZER_SCHEMA);
    for (range, ok) in [
        ("8-12", true),
        ("10/side", true),
        ("5", true),
        ("8-12/side", false),
    ] {
        let plan = with(
            &valid_analyzer(),
            "/exercise_plan/0/targets/rep_range",
            Some(json!(range)),
        );
        assert_eq!(v.is_valid(&plan), ok, "{range}");
        if ok {
            let yaml = coachcore::Workouts::render_plan(&plan.to_string()).unwrap();
            validate_workout_yaml(&yaml).unwrap();
        }
    }
    // 12 exercises x 8 sets is schema-valid but no workout holds 96 sets: a clear error, not an
    // invalid document.
    let mut plan = valid_analyzer();
    let first = plan["exercise_plan"][0].clone();
    plan["exercise_plan"] = json!((0..12).map(|_| first.clone()).collect::<Vec<_>>());
    for p in plan["exercise_plan"].as_array_mut().unwrap() {
        p["working_sets"] = json!(8);
    }
    assert!(v.is_valid(&plan));
    let e = coachcore::Workouts::render_plan(&plan.to_string()).unwrap_err();
    assert!(
        matches!(&e, CoachError::InvalidArgument { detail } if detail.contains("at most 76")),
        "{e:?}"
    );
}

#[test]
fn a_load_cap_below_the_empty_bar_never_gives_a_heavier_load() {
    // 40 lb capped at 40 lb on a 45 lb bar: no barbell load fits.
    let mut p = plan_with(40.0, 3, 60);
    p.exercise_plan[0].targets.load_cap = Some(40.0);
    let w = render::render(&p, builtin(), &inventory(), 1);
    for s in w.sets.iter().filter(|s| s.exercise == "bb-back-squat") {
        assert!(s.target_weight.is_none_or(|x| x <= 40.0), "{s:?}");
    }
    let a = w.sets.iter().find(|s| s.tier == SetTier::A).unwrap();
    assert_eq!(a.target_weight, None);
    assert_eq!(a.notes, render::BELOW_BAR_NOTE);
    let yaml = document::to_yaml(&w);
    validate_workout_yaml(&yaml).unwrap();
}

#[test]
fn model_written_documents_need_the_ramp_and_loadable_weights() {
    let p = plan_with(225.0, 3, 60);
    let inv = inventory();
    let w = render::render(&p, builtin(), &inv, 1);
    let id = w.workout_id.clone();
    assert!(check::workout_issues(&w, &p, builtin(), &inv, &id).is_empty());
    // No warm-ups.
    let mut bare = w.clone();
    bare.sets.retain(|s| s.tier != SetTier::W);
    let issues = check::workout_issues(&bare, &p, builtin(), &inv, &id);
    assert!(
        issues
            .iter()
            .any(|i| i.path == "sets" && i.message.contains("ramp")),
        "{issues:?}"
    );
    // A weight no plates make (the cap is 235).
    let mut odd = w.clone();
    let i = odd.sets.iter().position(|s| s.tier == SetTier::A).unwrap();
    odd.sets[i].target_weight = Some(226.0);
    let issues = check::workout_issues(&odd, &p, builtin(), &inv, &id);
    assert_eq!(issues.len(), 1, "{issues:?}");
    assert_eq!(issues[0].path, format!("sets[{i}].target_weight"));
    assert!(issues[0].message.contains("loadable"));
}

/// The app's own equipment definitions (issue 11: "resolved through an exercise and equipment
/// catalog in the database (the app can save its own)"): a saved key provides what it says, its
/// weights are the loads its exercises round to, it lives in the database file (reopened), and
/// malformed definitions are typed errors that save nothing.
#[test]
fn the_apps_own_equipment_is_stored_and_resolves_its_key() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("coach.db");
    let open = || {
        Coach::with_store(
            Store::open(&path).unwrap(),
            Arc::new(FixedClock::new(NOW_MS)),
        )
    };
    let mut r = request();
    r.equipment = vec!["eq_hex_bar".into(), "eq_my_bells".into()];
    // The squats out: the hinge is then the first Tier A pick.
    r.bans = vec!["bodyweight-squat".into(), "kb-goblet-squat".into()];
    let c = open();
    let before = generate(&c, &r, None, &Events::default()).unwrap();
    assert!(
        before
            .workout
            .sets
            .iter()
            .all(|s| s.equipment == "bodyweight"),
        "unknown keys provide nothing"
    );
    c.workouts()
        .save_equipment(WorkoutEquipment {
            key: "eq_hex_bar".into(),
            name: "Hex bar".into(),
            provides: vec!["trap_bar".into()],
            weights: vec![],
            units: WeightUnit::Lbs,
        })
        .unwrap();
    c.workouts()
        .save_equipment(WorkoutEquipment {
            key: "eq_my_bells".into(),
            name: "Two kettlebells".into(),
            provides: vec!["kettlebell".into()],
            weights: vec![12.0, 20.0],
            units: WeightUnit::Kg,
        })
        .unwrap();
    for bad in [
        WorkoutEquipment {
            key: "Eq Bad".into(),
            name: "x".into(),
            provides: vec![],
            weights: vec![],
            units: WeightUnit::Kg,
        },
        WorkoutEquipment {
            key: "eq_ok".into(),
            name: "x".into(),
            provides: vec![],
            weights: vec![-5.0],
            units: WeightUnit::Kg,
        },
    ] {
        assert!(matches!(
            c.workouts().save_equipment(bad),
            Err(CoachError::InvalidArgument { .. })
        ));
    }
    drop(c);
    let c = open();
    let own = c.workouts().equipment().unwrap();
    assert_eq!(
        own.iter().map(|e| e.key.as_str()).collect::<Vec<_>>(),
        ["eq_hex_bar", "eq_my_bells"],
        "saved in the file, bad ones not saved"
    );
    let after = generate(&c, &r, None, &Events::default()).unwrap();
    let hex = after
        .workout
        .sets
        .iter()
        .find(|s| s.exercise == "trap-bar-deadlift")
        .expect("the hex bar provides trap_bar: the trap-bar deadlift is the Tier A hinge");
    assert_eq!(hex.equipment, "eq_hex_bar");
    assert!(after
        .workout
        .sets
        .iter()
        .any(|s| s.equipment == "eq_my_bells" && s.exercise.starts_with("kb-")));
    // The weights are the loads: kilograms converted to the request's pounds.
    let inv = Inventory::with_own(&r.equipment, WeightUnit::Lbs, &own);
    let kb = inv.load_config(catalog::LoadKind::Kettlebell, WeightUnit::Lbs);
    assert_eq!(kb.dumbbells.len(), 2);
    assert!(
        (kb.dumbbells[0] - 12.0 * 2.20462).abs() < 0.01,
        "{:?}",
        kb.dumbbells
    );
}
