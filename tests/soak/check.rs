//! The file against the logs: every write a process logged as a success is in the file as it was
//! reported (lost writes otherwise), each table holds exactly the rows the logs account for
//! beyond what the setup wrote (changes nobody reported otherwise), the file passes SQLite's
//! integrity and foreign-key checks, and no call returned an error.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use coachcore::db::TABLES;
use rusqlite::{Connection, OptionalExtension};
use serde_json::Value;

/// Rows per table (by name), and the recipes by source.
#[derive(Debug, Clone, Default)]
pub struct Counts(BTreeMap<String, i64>);

impl Counts {
    pub fn of(path: &Path) -> Counts {
        let conn = Connection::open(path).unwrap();
        let mut c = BTreeMap::new();
        for (t, _) in TABLES {
            c.insert(
                t.to_string(),
                one(&conn, &format!("SELECT count(*) FROM {t}")),
            );
        }
        for source in ["core", "user", "stage"] {
            c.insert(
                format!("recipes ({source})"),
                one(
                    &conn,
                    &format!("SELECT count(*) FROM recipes WHERE source = '{source}'"),
                ),
            );
        }
        c.insert(
            "workouts (logged)".into(),
            one(
                &conn,
                "SELECT count(*) FROM workouts WHERE session_id IS NOT NULL",
            ),
        );
        c.insert(
            "prescription_changes (decided)".into(),
            one(
                &conn,
                "SELECT count(*) FROM prescription_changes WHERE decision <> 'pending'",
            ),
        );
        Counts(c)
    }
}

fn one(conn: &Connection, sql: &str) -> i64 {
    conn.query_row(sql, [], |r| r.get(0)).unwrap()
}

/// `SELECT count(*) FROM <from_where>` with `?1` bound to `arg`.
fn count(conn: &Connection, from_where: &str, arg: &str) -> i64 {
    conn.query_row(&format!("SELECT count(*) FROM {from_where}"), [arg], |r| {
        r.get(0)
    })
    .unwrap()
}

/// `Err(found)` when `count` is not `want`.
fn count_is(conn: &Connection, from_where: &str, arg: &str, want: i64) -> Result<(), i64> {
    match count(conn, from_where, arg) {
        n if n == want => Ok(()),
        n => Err(n),
    }
}

fn opt_text(conn: &Connection, sql: &str, arg: &str) -> Option<Option<String>> {
    conn.query_row(sql, [arg], |r| r.get(0)).optional().unwrap()
}

#[derive(Default)]
pub struct Report {
    /// Successful writes per kind.
    writes: BTreeMap<String, u64>,
    /// Errors per (call, code).
    errors: BTreeMap<String, u64>,
    /// Writes reported as a success and not in the file as reported.
    lost: Vec<String>,
    /// Tables whose rows differ from what the logs account for.
    unexpected: Vec<String>,
    /// Processes whose log has no end line.
    unfinished: usize,
    integrity: String,
    foreign_keys: i64,
    iterations: u64,
}

impl Report {
    pub fn ok(&self) -> bool {
        self.errors.is_empty()
            && self.lost.is_empty()
            && self.unexpected.is_empty()
            && self.unfinished == 0
            && self.integrity == "ok"
            && self.foreign_keys == 0
    }

    pub fn print(&self, processes: usize, secs: f64) {
        let total: u64 = self.writes.values().sum();
        eprintln!(
            "soak: {processes} processes, {secs:.1} s, {} iterations, {total} writes reported \
             as done ({:.0}/s)",
            self.iterations,
            total as f64 / secs.max(0.001)
        );
        let by_kind: Vec<String> = self
            .writes
            .iter()
            .map(|(k, n)| format!("{k} {n}"))
            .collect();
        eprintln!("soak: writes: {}", by_kind.join(", "));
        let errors: u64 = self.errors.values().sum();
        eprintln!("soak: errors returned to the caller: {errors}");
        for (what, n) in &self.errors {
            eprintln!("soak:   {n} x {what}");
        }
        let mut by_kind = BTreeMap::<&str, usize>::new();
        for l in &self.lost {
            *by_kind
                .entry(l.split(' ').next().unwrap_or(""))
                .or_default() += 1;
        }
        let by_kind: Vec<String> = by_kind.iter().map(|(k, n)| format!("{k} {n}")).collect();
        eprintln!(
            "soak: lost writes: {} ({})",
            self.lost.len(),
            by_kind.join(", ")
        );
        for l in self.lost.iter().take(10) {
            eprintln!("soak:   {l}");
        }
        eprintln!(
            "soak: tables with rows nobody reported: {}",
            self.unexpected.len()
        );
        for u in &self.unexpected {
            eprintln!("soak:   {u}");
        }
        eprintln!(
            "soak: integrity {}, foreign key problems {}, processes without an end {}",
            self.integrity, self.foreign_keys, self.unfinished
        );
        eprintln!("soak: {}", if self.ok() { "ok" } else { "FAILED" });
    }
}

/// The `recipeId`s of staged copies anywhere in a plan's result.
fn staged_ids(v: &Value, out: &mut BTreeSet<String>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                match x {
                    Value::String(s) if k == "recipeId" && s.starts_with("stage-") => {
                        out.insert(s.clone());
                    }
                    _ => staged_ids(x, out),
                }
            }
        }
        Value::Array(a) => a.iter().for_each(|x| staged_ids(x, out)),
        _ => {}
    }
}

pub fn check(path: &Path, baseline: &Counts, logs: &[PathBuf]) -> Report {
    let conn = Connection::open(path).unwrap();
    let mut r = Report::default();
    let mut lines: Vec<Value> = Vec::new();
    for log in logs {
        let text = std::fs::read_to_string(log).unwrap_or_default();
        let mut ended = false;
        for l in text.lines() {
            let v: Value = serde_json::from_str(l).unwrap();
            match v["op"].as_str().unwrap() {
                "end" => {
                    ended = true;
                    r.iterations += v["iterations"].as_u64().unwrap();
                }
                "error" => {
                    let what = format!(
                        "{} -> {}: {}",
                        v["during"].as_str().unwrap(),
                        v["code"].as_str().unwrap(),
                        v["detail"].as_str().unwrap()
                    );
                    *r.errors.entry(what).or_default() += 1;
                }
                op => {
                    *r.writes.entry(op.to_string()).or_default() += 1;
                    lines.push(v);
                }
            }
        }
        if !ended {
            r.unfinished += 1;
        }
    }
    let undone: BTreeSet<&str> = lines
        .iter()
        .filter(|v| v["op"] == "undo")
        .map(|v| v["request"].as_str().unwrap())
        .collect();
    let logged_workouts: BTreeSet<&str> = lines
        .iter()
        .filter(|v| v["op"] == "workout_log")
        .map(|v| v["id"].as_str().unwrap())
        .collect();
    let mut want: HashMap<&str, i64> = HashMap::new();
    let mut add = |t: &'static str, n: i64| *want.entry(t).or_default() += n;
    let mut staged = BTreeSet::new();
    let mut workouts: HashMap<&str, &Value> = HashMap::new();
    let mut lost = |what: String| r.lost.push(what);

    for v in &lines {
        let s = |k: &str| v[k].as_str().unwrap();
        match s("op") {
            "apply" => {
                add("planner_items", 3);
                add("assistant_audit", 3);
                add("assistant_idempotency", 1);
                let req = s("request");
                let audit = count(&conn, "assistant_audit WHERE request_id = ?1", req);
                let key = opt_text(
                    &conn,
                    "SELECT key FROM assistant_idempotency WHERE key = ?1",
                    s("key"),
                );
                if audit != 3 || key.is_none() {
                    lost(format!("apply {req}: {audit} audit entries, key {key:?}"));
                }
                let gone = undone.contains(req);
                for (k, item) in v["items"].as_array().unwrap().iter().enumerate() {
                    let title = opt_text(
                        &conn,
                        "SELECT title FROM planner_items WHERE id = ?1",
                        item.as_str().unwrap(),
                    );
                    let want_title = format!("{}-{k}", s("key"));
                    match (gone, title) {
                        (true, None) => {}
                        (false, Some(Some(t))) if t == want_title => {}
                        (g, t) => lost(format!("apply {req} item {k}: undone {g}, found {t:?}")),
                    }
                }
            }
            "undo" => {
                add("planner_items", -3);
                add("assistant_audit", 3);
                let req = s("request");
                let undo = format!("undo:{req}");
                let audit = count(&conn, "assistant_audit WHERE request_id = ?1", &undo);
                if audit != 3 {
                    lost(format!("undo {req}: {audit} audit entries"));
                }
            }
            "import" => {
                add("recipes", 2);
                add("recipes (core)", 2);
                for id in v["ids"].as_array().unwrap() {
                    let source = opt_text(
                        &conn,
                        "SELECT source FROM recipes WHERE id = ?1",
                        id.as_str().unwrap(),
                    );
                    if source != Some(Some("core".into())) {
                        lost(format!("import {id}: found {source:?}"));
                    }
                }
            }
            "job" => {
                add("meal_plan_jobs", 1);
                staged_ids(&v["result"], &mut staged);
                let row = conn
                    .query_row(
                        "SELECT status, result_json, error_code FROM meal_plan_jobs WHERE id = ?1",
                        [s("id")],
                        |r| {
                            Ok((
                                r.get::<_, String>(0)?,
                                r.get::<_, Option<String>>(1)?,
                                r.get::<_, Option<String>>(2)?,
                            ))
                        },
                    )
                    .optional()
                    .unwrap();
                let Some((status, result, code)) = row else {
                    lost(format!("job {}: no row", s("id")));
                    continue;
                };
                let result: Value =
                    result.map_or(Value::Null, |j| serde_json::from_str(&j).unwrap());
                if status != s("status")
                    || result != v["result"]
                    || code.as_deref() != v["errorCode"].as_str()
                {
                    lost(format!(
                        "job {}: reported {} {:?}, stored {status} {code:?} (result {})",
                        s("id"),
                        s("status"),
                        v["errorCode"],
                        if result.is_null() { "none" } else { "present" }
                    ));
                }
            }
            "confirm" => {
                let n = v["meals"].as_i64().unwrap();
                add("meal_history", n);
                let plan = "meal_history WHERE date = ?1 AND origin = 'plan'";
                if let Err(found) = count_is(&conn, plan, s("date"), n) {
                    lost(format!("confirm {}: {n} meals, {found} stored", s("date")));
                }
            }
            "meal_log" => {
                add("meal_history", 1);
                let log = "meal_history WHERE date = ?1 AND origin = 'log'";
                if let Err(found) = count_is(&conn, log, s("date"), 1) {
                    lost(format!("meal log {}: {found} stored", s("date")));
                }
            }
            "workout" => {
                add("workouts", 1);
                let id = s("id");
                workouts.insert(id, &v["workout"]);
                let stored = opt_text(
                    &conn,
                    "SELECT workout FROM workouts WHERE workout_id = ?1",
                    id,
                );
                let Some(Some(stored)) = stored else {
                    lost(format!("workout {id}: no row"));
                    continue;
                };
                let stored: Value = serde_json::from_str(&stored).unwrap();
                let set_ids = |w: &Value| -> Vec<Value> {
                    w["sets"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|s| s["id"].clone())
                        .collect()
                };
                // A logged workout holds its actual values: compared by its sets.
                let same = if logged_workouts.contains(id) {
                    set_ids(&stored) == set_ids(&v["workout"])
                        && stored["workout_id"] == v["workout"]["workout_id"]
                } else {
                    stored == v["workout"]
                };
                if !same {
                    lost(format!("workout {id}: stored another workout"));
                }
            }
            "workout_log" => {
                let id = s("id");
                add("workouts (logged)", 1);
                add("workout_sessions", 1);
                let session = opt_text(
                    &conn,
                    "SELECT session_id FROM workouts WHERE workout_id = ?1",
                    id,
                );
                let want_session = format!("workout:{id}");
                let exists = count(&conn, "workout_sessions WHERE id = ?1", &want_session);
                if session != Some(Some(want_session.clone())) || exists != 1 {
                    lost(format!(
                        "workout log {id}: session {session:?}, {exists} stored"
                    ));
                }
            }
            "plan" => {
                add("plans", 1);
                add("plan_exercises", 2);
                add("set_prescriptions", 6);
                if count_is(&conn, "plans WHERE id = ?1", s("id"), 1).is_err() {
                    lost(format!("plan {}: no row", s("id")));
                }
            }
            "session" => {
                add("workout_sessions", 1);
                add("exercise_performances", 2);
                add("performed_sets", 6);
                let performances = "exercise_performances WHERE session_id = ?1";
                if let Err(n) = count_is(&conn, performances, s("id"), 2) {
                    lost(format!("session {}: {n} performances", s("id")));
                }
            }
            "suggest" => {
                let ids: BTreeSet<String> = v["changes"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|c| c.as_str().unwrap().to_string())
                    .collect();
                add("suggestion_runs", 1);
                add("prescription_changes", ids.len() as i64);
                let mut st = conn
                    .prepare("SELECT id FROM prescription_changes WHERE session_id = ?1")
                    .unwrap();
                let stored: BTreeSet<String> = st
                    .query_map([s("session")], |r| r.get(0))
                    .unwrap()
                    .map(Result::unwrap)
                    .collect();
                let run = count(&conn, "suggestion_runs WHERE session_id = ?1", s("session"));
                if stored != ids || run != 1 {
                    lost(format!(
                        "suggestions of {}: stored another set",
                        s("session")
                    ));
                }
            }
            "decide" | "refused" => {
                let want_decision = if s("op") == "decide" {
                    add("prescription_changes (decided)", 1);
                    s("decision")
                } else {
                    "pending"
                };
                let d = opt_text(
                    &conn,
                    "SELECT decision FROM prescription_changes WHERE id = ?1",
                    s("change"),
                );
                if d != Some(Some(want_decision.to_string())) {
                    lost(format!("{} {}: stored {d:?}", s("op"), s("change")));
                }
            }
            other => panic!("unknown log line {other}"),
        }
    }
    // What the logged workouts add: their sessions' performances and sets, and catalog entries
    // for their exercises.
    let mut new_exercises = BTreeSet::new();
    for id in &logged_workouts {
        let w = workouts[id];
        let sets = w["sets"].as_array().unwrap();
        let exercises: BTreeSet<&str> = sets
            .iter()
            .map(|s| s["exercise"].as_str().unwrap())
            .collect();
        add("exercise_performances", exercises.len() as i64);
        add("performed_sets", sets.len() as i64);
        new_exercises.extend(exercises.into_iter().map(str::to_string));
    }
    let before: BTreeSet<String> = crate::EXERCISES.iter().map(|s| s.to_string()).collect();
    add(
        "exercise_catalog",
        new_exercises.difference(&before).count() as i64,
    );
    add("recipes", staged.len() as i64);
    add("recipes (stage)", staged.len() as i64);

    let after = Counts::of(path);
    for (table, n) in &after.0 {
        if table == "exercise_history" {
            continue; // a cache: checked below
        }
        let expected = baseline.0.get(table).copied().unwrap_or(0)
            + want.get(table.as_str()).copied().unwrap_or(0);
        if *n != expected {
            r.unexpected.push(format!(
                "{table}: {n} rows, the logs account for {expected}"
            ));
        }
    }
    let history = one(&conn, "SELECT count(*) FROM exercise_history");
    let completed = one(
        &conn,
        "SELECT count(DISTINCT catalog_id) FROM exercise_performances WHERE completed = 1",
    );
    if history != completed {
        r.unexpected.push(format!(
            "exercise_history: {history} rows for {completed} exercises done"
        ));
    }
    r.integrity = conn
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    r.foreign_keys = one(&conn, "SELECT count(*) FROM pragma_foreign_key_check");
    r
}
