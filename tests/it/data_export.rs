//! Export, import and erase (`exportData`, `importData`, `eraseAllData`) over real SQLite files
//! filled through the public API of every feature: the round trip gives the same rows back, the
//! refusals (a non-empty database, another version, unknown tables, broken rows) leave nothing
//! behind, and erasing empties every table in one go. [`fill`] is shared with the crash and
//! concurrency tests.

use std::path::Path;
use std::sync::Arc;

use coachcore::assistant::AssistantEvent;
use coachcore::db::{Store, LIBRARY_TABLES, TABLES};
use coachcore::kernel::clock::FixedClock;
use coachcore::llm::CancelToken;
use coachcore::meals::service::jobs::PlanSink;
use coachcore::meals::{MealLog, MealPlanEvent, MealType};
use coachcore::suggest::{CatalogExercise, SessionLog, WorkoutPlan};
use coachcore::workout::service::{WorkoutSettings, WorkoutSink};
use coachcore::workout::WorkoutEvent;
use coachcore::{Coach, CoachError, SchemaSelection, SchemaVersion, SelectionReason};
use serde_json::{json, Value};

pub const T0: i64 = 1_795_000_000_000;
const DAY: i64 = 86_400_000;

/// A file of `tests/data`.
pub fn data(path: &str) -> String {
    std::fs::read_to_string(format!("{}/tests/data/{path}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

pub struct Quiet;
impl PlanSink for Quiet {
    fn on_event(&self, _: MealPlanEvent) {}
}
impl WorkoutSink for Quiet {
    fn on_event(&self, _: WorkoutEvent) {}
}
impl coachcore::assistant::service::EventSink for Quiet {
    fn on_event(&self, _: AssistantEvent) {}
}

/// A coach on a new file in `dir` with a fixed clock.
pub fn coach_at(path: &Path) -> Coach {
    Coach::with_store(Store::open(path).unwrap(), Arc::new(FixedClock::new(T0)))
}

/// The plan the suggestion tests use: bench and squat, three sets each.
pub fn plan_json() -> Value {
    let sets = |w: f64| {
        (0..3)
            .map(|i| json!({"index": i, "setType": "regular", "targetWeight": w, "targetReps": 8, "restSeconds": 120}))
            .collect::<Vec<_>>()
    };
    let rx = |id: &str, cat: &str, pos: u32, w: f64| {
        json!({"id": id, "catalogId": cat, "position": pos,
               "repRange": {"mode": "range", "lower": 8, "upper": 12, "target": 0},
               "restMode": "allSame", "restSeconds": 120, "sets": sets(w)})
    };
    json!({
        "settings": {"planId": "upper-lower", "unit": "lbs", "trainingStyle": "straightSets",
                     "load": serde_json::to_value(coachcore::suggest::LoadConfig::default()).unwrap()},
        "name": "Upper / Lower",
        "exercises": [rx("rx-bench", "bench", 0, 135.0), rx("rx-squat", "squat", 1, 225.0)]
    })
}

/// A session `n` days after T0 at the given weights and reps, every set completed.
pub fn session(id: &str, day: i64, weight: f64, reps: u32) -> SessionLog {
    let ex = |cat: &str, rx: &str, pos: u32| {
        json!({"id": format!("{id}-{cat}"), "catalogId": cat, "prescriptionId": rx,
               "sets": (0..3).map(|i| json!({"index": i, "setType": "regular", "weight": weight + pos as f64 * 90.0,
                                               "reps": reps, "restSeconds": 120, "completed": true})).collect::<Vec<_>>()})
    };
    serde_json::from_value(json!({
        "id": id, "planId": "upper-lower", "performedAtMs": T0 + day * DAY,
        "exercises": [ex("bench", "rx-bench", 0), ex("squat", "rx-squat", 1)]
    }))
    .unwrap()
}

/// The exercises and plan the sessions need.
pub fn training_setup(c: &Coach) {
    for (id, name, muscles) in [
        ("bench", "Bench Press", json!(["chest", "triceps"])),
        ("squat", "Back Squat", json!(["quads"])),
    ] {
        let ex: CatalogExercise = serde_json::from_value(
            json!({"catalogId": id, "name": name, "equipment": "barbell", "targetMuscles": muscles}),
        )
        .unwrap();
        c.workouts().save_catalog_exercise(ex).unwrap();
    }
    let plan: WorkoutPlan = serde_json::from_value(plan_json()).unwrap();
    c.workouts().save_plan(plan).unwrap();
}

/// Fills `c` through the public API of every feature: a plan transform, exercises, a plan,
/// logged sessions with suggestions accepted, rejected and deferred, planner items with goals,
/// completions and the audit log, recipes, a meal-plan job with confirmed and logged meals, pantry
/// staples, a generated and logged workout.
pub fn fill(c: &Coach) {
    let flat = SchemaSelection {
        schema_version: SchemaVersion::V2Flat,
        reason: SelectionReason::Override,
    };
    c.workouts()
        .transform_plan(data("plans/worked-example.v2.json"), flat, Some(1))
        .unwrap();

    training_setup(c);
    let mut decided = 0;
    for (day, reps) in [(0, 12), (3, 12), (6, 12), (9, 12)] {
        let id = format!("s{day}");
        c.workouts()
            .log_session(session(&id, day, 135.0, reps))
            .unwrap();
        for change in c.suggestions().for_session(id).unwrap() {
            let _ = match decided % 3 {
                0 => c.suggestions().accept(change.id),
                1 => c.suggestions().reject(change.id),
                _ => c.suggestions().defer_change(change.id),
            };
            decided += 1;
        }
    }
    assert!(decided > 0, "the sessions gave suggestions to decide");

    let applied = c
        .planner().apply_json(
            r#"{"operations":[
                {"op":"create","kind":"todo","title":"Buy chalk","priority":"high"},
                {"op":"create","kind":"event","title":"Physio","scheduledFor":"2026-11-20","timeOfDay":"09:30","endTime":"10:00"},
                {"op":"create","kind":"habit","title":"Stretch","scheduledFor":"2026-11-16","recurrence":{"type":"daily"}}
            ]}"#,
            Some("fill-1"),
            Some("2026-11-16"),
        )
        .unwrap();
    let habit = applied.applied[2].id.clone();
    let todo = applied.applied[0].id.clone();
    c.planner().apply_json(
        &json!({"operations": [
            {"op": "complete_occurrence", "kind": "habit", "id": habit, "occurrenceDate": "2026-11-17"},
            {"op": "goal_create", "kind": "goal", "title": "Get strong",
             "items": [{"kind": "todo", "id": todo}, {"kind": "habit", "id": habit}]},
            {"op": "goal_create", "kind": "goal", "title": "Bench 225"},
        ]})
        .to_string(),
        None,
        Some("2026-11-17"),
    )
    .unwrap();
    let goals: Vec<String> = c
        .planner()
        .audit_log(2, None)
        .unwrap()
        .into_iter()
        .map(|e| e.item_id)
        .collect();
    c.planner().apply_json(
        &json!({"operations": [{"op": "goal_add_child", "kind": "goal", "id": goals[1], "childId": goals[0]}]})
            .to_string(),
        None,
        Some("2026-11-17"),
    )
    .unwrap();

    c.meals()
        .import_recipes(data("recipes/starter.json"))
        .unwrap();
    c.meals().hide_recipe("core-menemen".into()).unwrap();
    let request =
        coachcore::Meals::request_from_json(&data("meals/vegan-quick.request.json")).unwrap();
    let job = c
        .meals()
        .plan_with(request, None, &Quiet, &CancelToken::new())
        .unwrap();
    let result = job.result.expect("the fallback plans the request");
    assert!(c.meals().confirm(result).unwrap() > 0);
    let any_recipe = c
        .meals()
        .recipe("starter-overnight-oats".into())
        .ok()
        .flatten()
        .map(|r| r.id);
    let first: Value = serde_json::from_str(&data("recipes/starter.json")).unwrap();
    let recipe_id = any_recipe.unwrap_or_else(|| first[0]["id"].as_str().unwrap().to_string());
    c.meals()
        .log(MealLog {
            date: "2026-12-03".into(),
            meal_type: MealType::Lunch,
            recipe_id: recipe_id.clone(),
        })
        .unwrap();
    c.meals().stage_recipe(recipe_id).unwrap();
    c.meals()
        .set_pantry_staples(vec!["salt".into(), "olive oil".into()])
        .unwrap();

    c.workouts()
        .save_exercise(
            serde_json::from_value(json!({"id": "sandbag-carry", "name": "Sandbag Carry",
            "requires": [], "muscles": ["core"], "compound": true, "load": "bodyweight",
            "pattern": "core"}))
            .unwrap(),
        )
        .unwrap();
    c.workouts()
        .save_equipment(
            serde_json::from_value(json!({"key": "eq_hex_bar", "name": "Hex bar",
            "provides": ["trap_bar"], "weights": [], "units": "lbs"}))
            .unwrap(),
        )
        .unwrap();
    workout_generated_and_logged(c, "downtown", T0 + 20 * DAY);
    today_plan_done(c, "2026-11-21", T0 + 21 * DAY);
}

/// Makes the deterministic today's plan of `date` (body weight, kilograms, saved) and marks it
/// done as planned at `performed_at_ms`.
pub fn today_plan_done(c: &Coach, date: &str, performed_at_ms: i64) {
    let t = c
        .workouts()
        .today_plan(coachcore::TodayPlanRequest {
            date: date.into(),
            notes: "30 minutes, bodyweight only".into(),
            schema_version: None,
            timezone: None,
            seed: None,
            units: Some(coachcore::kernel::units::WeightUnit::Kg),
            days_per_week: None,
        })
        .unwrap();
    c.workouts()
        .mark_today_plan_done(t.plan.id, None, Some(performed_at_ms))
        .unwrap();
}

/// Generates the deterministic workout of `tests/data/workout/request.json` (saved) for the
/// location `gym:<place>`, then logs every set of it at its target. Ids number the workouts of a
/// date and place from 01 to 99.
pub fn workout_generated_and_logged(c: &Coach, place: &str, performed_at_ms: i64) {
    let mut request: Value = serde_json::from_str(&data("workout/request.json")).unwrap();
    request["meta"]["location"] = json!(format!("gym:{place}"));
    let request = coachcore::Workouts::request_from_json(&request.to_string()).unwrap();
    let w = c
        .workouts()
        .generate_with(
            &request,
            None,
            &Quiet,
            &CancelToken::new(),
            &WorkoutSettings::default(),
        )
        .unwrap();
    c.workouts()
        .log(crate::common::log_at_targets(
            &w.workout,
            performed_at_ms,
            8,
        ))
        .unwrap();
}

/// Every row of every table, as text, by table: what "the same data" means.
pub fn dump(path: &Path) -> Vec<(String, Vec<String>)> {
    let conn = rusqlite::Connection::open(path).unwrap();
    TABLES
        .iter()
        .map(|(t, _)| {
            let mut stmt = conn.prepare(&format!("SELECT * FROM {t}")).unwrap();
            let n = stmt.column_count();
            let mut rows: Vec<String> = stmt
                .query_map([], |r| {
                    Ok((0..n)
                        .map(|i| format!("{:?}", r.get_ref(i).unwrap()))
                        .collect::<Vec<_>>()
                        .join("|"))
                })
                .unwrap()
                .map(Result::unwrap)
                .collect();
            rows.sort();
            (t.to_string(), rows)
        })
        .collect()
}

fn rows_in(path: &Path) -> i64 {
    let conn = rusqlite::Connection::open(path).unwrap();
    TABLES
        .iter()
        .map(|(t, _)| {
            conn.query_row(&format!("SELECT count(*) FROM {t}"), [], |r| {
                r.get::<_, i64>(0)
            })
            .unwrap()
        })
        .sum()
}

#[test]
fn the_export_names_every_table_of_the_schema() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("schema.db");
    drop(coach_at(&path));
    let conn = rusqlite::Connection::open(&path).unwrap();
    let mut tables: Vec<String> = conn
        .prepare(
            "SELECT name FROM sqlite_schema WHERE type = 'table'
               AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'recipes_fts%'",
        )
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    tables.sort();
    let mut listed: Vec<String> = TABLES
        .iter()
        .map(|(t, _)| *t)
        .chain(LIBRARY_TABLES)
        .map(str::to_string)
        .collect();
    listed.sort();
    assert_eq!(listed, tables, "a new table must be added to db::TABLES");
}

#[test]
fn export_then_import_into_an_empty_database_gives_the_same_data() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a.db"), dir.path().join("b.db"));
    let source = coach_at(&a);
    fill(&source);
    let before = dump(&a);
    let empty: Vec<&str> = before
        .iter()
        .filter(|(_, rows)| rows.is_empty())
        .map(|(t, _)| t.as_str())
        .collect();
    // Every feature wrote to every table.
    assert_eq!(empty, Vec::<&str>::new(), "tables left empty by fill()");

    let doc = source.data().export_all().unwrap();
    let v: Value = serde_json::from_str(&doc).unwrap();
    assert_eq!(v["format"], "coachcore-export");
    assert_eq!(v["version"], 1);
    assert_eq!(v["schemaVersion"], coachcore::db::SCHEMA_VERSION);
    assert_eq!(v["tables"].as_object().unwrap().len(), TABLES.len());

    let target = coach_at(&b);
    let summary = target.data().import_all(&doc).unwrap();
    let total: usize = before.iter().map(|(_, r)| r.len()).sum();
    assert_eq!(summary.total_rows as usize, total);
    assert_eq!(dump(&b), before, "the same rows in every table");
    // The import rebuilt the recipes' full-text index: search finds the same recipes.
    let fts = |p: &Path| -> i64 {
        rusqlite::Connection::open(p)
            .unwrap()
            .query_row(
                "SELECT count(*) FROM recipes_fts WHERE recipes_fts MATCH 'tofu'",
                [],
                |r| r.get(0),
            )
            .unwrap()
    };
    assert!(fts(&a) > 0);
    assert_eq!(fts(&b), fts(&a));
    // Reads through the API agree, and the copy exports to the same document.
    assert_eq!(
        target.workouts().plan("upper-lower".into()).unwrap(),
        source.workouts().plan("upper-lower".into()).unwrap()
    );
    assert_eq!(
        target.planner().audit_log(50, None).unwrap(),
        source.planner().audit_log(50, None).unwrap()
    );
    assert_eq!(
        target.workouts().list(10).unwrap(),
        source.workouts().list(10).unwrap()
    );
    assert_eq!(
        target.workouts().recent_today_plans(10).unwrap(),
        source.workouts().recent_today_plans(10).unwrap()
    );
    assert_eq!(
        target.meals().pantry_staples().unwrap(),
        ["salt", "olive oil"]
    );
    assert_eq!(target.data().export_all().unwrap(), doc);
    assert!(target.data().check_integrity().unwrap().ok);
    // And the copy keeps working: a new session logs on top of the imported history.
    target
        .workouts()
        .log_session(session("s12", 12, 140.0, 10))
        .unwrap();
}

#[test]
fn import_refuses_a_non_empty_database_and_unknown_versions() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a.db"), dir.path().join("b.db"));
    let source = coach_at(&a);
    fill(&source);
    let doc = source.data().export_all().unwrap();

    // Into itself (not empty): refused, nothing changed.
    let before = dump(&a);
    match source.data().import_all(&doc) {
        Err(CoachError::DatabaseNotEmpty { detail }) => {
            assert!(detail.contains("generation_metadata"), "{detail}")
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(dump(&a), before);

    let target = coach_at(&b);
    let mut v: Value = serde_json::from_str(&doc).unwrap();
    let refused = |v: &Value, expect: &str| {
        match target.data().import_all(&v.to_string()) {
            Err(CoachError::InvalidArgument { detail }) => {
                assert!(detail.contains(expect), "{detail} should say {expect}");
                assert!(
                    !detail.contains("Buy chalk") && !detail.contains("Upper"),
                    "{detail}"
                );
            }
            other => panic!("{expect}: {other:?}"),
        }
        assert_eq!(rows_in(&b), 0, "{expect}: nothing imported");
    };
    v["version"] = json!(2);
    refused(&v, "unsupported version");
    v["version"] = json!("1");
    refused(&v, "version");
    v["version"] = json!(1);
    v["format"] = json!("something-else");
    refused(&v, "format");
    v["format"] = json!("coachcore-export");

    // An unknown table, a missing one, an unknown column, a short row, a bad value, a row whose
    // parent is missing: each refused after rows were inserted, so the rollback is tested too.
    let mut w = v.clone();
    w["tables"]["secrets"] = json!({"columns": ["x"], "rows": [["Buy chalk"]]});
    refused(&w, "unknown table");
    let mut w = v.clone();
    w["tables"].as_object_mut().unwrap().remove("workouts");
    refused(&w, "table workouts is missing");
    let mut w = v.clone();
    w["tables"]["workouts"]["columns"][0] = json!("Upper");
    refused(&w, "table workouts: column 0 is not one of its columns");
    let mut w = v.clone();
    w["tables"]["plans"]["rows"][0]
        .as_array_mut()
        .unwrap()
        .pop();
    refused(&w, "table plans row 0:");
    let mut w = v.clone();
    w["tables"]["plans"]["rows"][0][2] = json!("stones"); // unit
    refused(&w, "table plans row 0 breaks a constraint");
    let mut w = v.clone();
    w["tables"]["plans"]["rows"] = json!([]);
    refused(&w, "refer to rows that are not in it");
    match target.data().import_all(r#"{"format": "coachcore-export", "version": 1, "tables": {"plans": {"rows": [], "columns": ["id"]}}}"#) {
        Err(CoachError::InvalidArgument { detail }) => assert!(detail.contains("`columns` must come before `rows`"), "{detail}"),
        other => panic!("{other:?}"),
    }
    match target
        .data()
        .import_all("{\"format\": \"coachcore-export\", \"version\": 1, \"tables\": {")
    {
        Err(CoachError::InvalidArgument { detail }) => {
            assert!(detail.contains("ends early"), "{detail}")
        }
        other => panic!("{other:?}"),
    }
    match target.data().import_all(&"[".repeat(100)) {
        Err(CoachError::InvalidArgument { detail }) => {
            assert!(detail.contains("nested deeper"), "{detail}")
        }
        other => panic!("{other:?}"),
    }

    // The original document still imports after all that.
    target.data().import_all(&doc).unwrap();
    assert_eq!(dump(&b), before);
}

#[test]
fn erase_deletes_every_row_in_one_go_and_the_file_stays_usable() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("erase.db");
    let c = coach_at(&path);
    fill(&c);
    let rows = rows_in(&path);
    let summary = c.data().erase_all().unwrap();
    assert_eq!(summary.total_rows as i64, rows);
    assert!(summary
        .tables
        .iter()
        .any(|t| t.table == "planner_items" && t.rows == 5));
    assert_eq!(rows_in(&path), 0);
    // The freed pages were overwritten: no planner title or recipe text is left in the file or
    // its write-ahead log.
    let mut bytes = std::fs::read(&path).unwrap();
    bytes.extend(std::fs::read(dir.path().join("erase.db-wal")).unwrap_or_default());
    let find = |needle: &[u8]| bytes.windows(needle.len()).any(|w| w == needle);
    assert!(
        !find(b"Buy chalk") && !find(b"Stretch"),
        "erased text left in the file"
    );
    assert!(c.data().check_integrity().unwrap().ok);
    assert_eq!(c.planner().audit_log(10, None).unwrap(), vec![]);
    assert_eq!(c.workouts().recent_today_plans(10).unwrap(), vec![]);
    assert_eq!(c.meals().pantry_staples().unwrap(), Vec::<String>::new());
    // An empty database takes an import again, and an export of it has every table, no rows.
    let doc = c.data().export_all().unwrap();
    let v: Value = serde_json::from_str(&doc).unwrap();
    assert!(v["tables"]
        .as_object()
        .unwrap()
        .values()
        .all(|t| t["rows"].as_array().unwrap().is_empty()));
    fill(&c);
}

#[test]
fn a_read_only_database_exports_but_refuses_import_and_erase() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ro.db");
    let c = coach_at(&path);
    training_setup(&c);
    let doc = c.data().export_all().unwrap();
    drop(c);
    let ro = Coach::with_store(
        Store::open_read_only(&path).unwrap(),
        Arc::new(FixedClock::new(T0)),
    );
    assert_eq!(ro.data().export_all().unwrap().len(), doc.len());
    assert!(matches!(
        ro.data().erase_all(),
        Err(CoachError::ReadOnly { .. })
    ));
    assert!(matches!(
        ro.data().import_all(&doc),
        Err(CoachError::ReadOnly { .. })
    ));
    assert!(ro.workouts().plan("upper-lower".into()).unwrap().is_some());
}
