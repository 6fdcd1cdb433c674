//! The library's JSON Schema validator (`llm::schema`, what checks model answers in the app)
//! against the reference validator (the `jsonschema` crate): on every schema file of `schemas/`
//! and the per-request analyzer schema, thousands of instances drawn from each schema (mostly
//! following it, sometimes breaking one rule: a wrong type, a number past a bound, a string off
//! its pattern, a missing or extra property, too many items) must get the same verdict, and every
//! refusal names at least one issue.

use coachcore::llm::schema::Validator;
use coachcore::workout::document;
use serde_json::{json, Map, Value};

use crate::common::Rng;

/// Strings the schemas' patterns and lengths accept or refuse.
const STRINGS: [&str; 22] = [
    "",
    "a",
    "S1",
    "S0",
    "6-10",
    "10/side",
    "0-5",
    "2025-08-17",
    "2025-8-17",
    "bb-back-squat",
    "bb--squat",
    "Bb-back-squat",
    "A-BB-BACK-SQUAT-1",
    "B-BB-BACK-SQUAT-12",
    "W-BB-BACK-SQUAT-WU1",
    "A-BB-BACK-SQUAT-0",
    "2025-08-17-gym-downtown-01",
    "2025-08-17-gym-downtown-1",
    "gym:downtown",
    "éàü",
    "line\nbreak",
    "x x x x x x x x x x x x x x x x x x x x x x x x x x x x x x x x x x x x x x x x x x x x x",
];

fn junk(rng: &mut Rng) -> Value {
    rng.pick(&[
        json!(null),
        json!(true),
        json!(0),
        json!(-1),
        json!(1.5),
        json!(2.0),
        json!(1e9),
        json!("x"),
        json!([]),
        json!({}),
        json!([1, "a"]),
    ])
    .clone()
}

fn number_near(rng: &mut Rng, s: &Map<String, Value>, integer: bool, faithful: f64) -> Value {
    let lo = s.get("minimum").and_then(Value::as_f64).unwrap_or(0.0);
    let hi = s
        .get("maximum")
        .and_then(Value::as_f64)
        .unwrap_or(lo + 100.0);
    let x = if rng.chance(faithful) {
        match rng.below(4) {
            0 => lo,
            1 => hi,
            _ => lo + ((hi - lo) * (rng.below(1000) as f64 / 1000.0)).floor(),
        }
    } else {
        *rng.pick(&[lo - 1.0, hi + 1.0, lo + 0.5])
    };
    if x.fract() == 0.0 && x.abs() < 1e15 && (integer || rng.chance(0.8)) {
        json!(x as i64)
    } else {
        json!(x)
    }
}

thread_local! {
    /// The strings each string schema accepts, by the schema's text.
    static FITTING: std::cell::RefCell<std::collections::HashMap<String, Vec<Value>>> =
        Default::default();
}

/// A string for the string schema `s`: one it accepts (from [`STRINGS`] and its `enum`, as the
/// reference judges) with probability `faithful`, any of them otherwise.
fn string_for(rng: &mut Rng, s: &Map<String, Value>, faithful: f64) -> Value {
    let mut pool: Vec<Value> = STRINGS.iter().map(|t| json!(t)).collect();
    if let Some(list) = s.get("enum").and_then(Value::as_array) {
        pool.extend(list.iter().cloned());
    }
    if rng.chance(faithful) {
        let keep = ["pattern", "minLength", "maxLength", "enum", "const"];
        let only: Map<String, Value> = s
            .iter()
            .filter(|(k, _)| keep.contains(&k.as_str()))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        let key = Value::Object(only).to_string();
        let fitting = FITTING.with(|cache| {
            cache
                .borrow_mut()
                .entry(key.clone())
                .or_insert_with(|| {
                    let check =
                        jsonschema::validator_for(&serde_json::from_str(&key).unwrap()).unwrap();
                    pool.iter().filter(|v| check.is_valid(v)).cloned().collect()
                })
                .clone()
        });
        if !fitting.is_empty() {
            return rng.pick(&fitting).clone();
        }
    }
    rng.pick(&pool).clone()
}

/// An instance drawn from `schema`: each node follows it with probability `faithful`.
fn draw(rng: &mut Rng, schema: &Value, faithful: f64, depth: usize) -> Value {
    if depth > 12 || !rng.chance(faithful) {
        return junk(rng);
    }
    let Some(s) = schema.as_object() else {
        return junk(rng);
    };
    if let Some(c) = s.get("const") {
        return c.clone();
    }
    if let Some(list) = s.get("enum").and_then(Value::as_array) {
        if !list.is_empty() && rng.chance(faithful) {
            return rng.pick(list).clone();
        }
    }
    if let Some(branches) = s.get("anyOf").and_then(Value::as_array) {
        let b = rng.pick(branches).clone();
        return draw(rng, &b, faithful, depth + 1);
    }
    let ty = match s.get("type") {
        Some(Value::String(t)) => t.clone(),
        Some(Value::Array(ts)) => rng.pick(ts).as_str().unwrap_or("null").to_owned(),
        _ if s.contains_key("properties") => "object".into(),
        _ => "string".into(),
    };
    match ty.as_str() {
        "null" => Value::Null,
        "boolean" => json!(rng.chance(0.5)),
        "integer" => number_near(rng, s, true, faithful),
        "number" => number_near(rng, s, false, faithful),
        "string" => string_for(rng, s, faithful),
        "array" => {
            let lo = s.get("minItems").and_then(Value::as_u64).unwrap_or(0) as usize;
            let hi = s
                .get("maxItems")
                .and_then(Value::as_u64)
                .unwrap_or(lo as u64 + 3) as usize;
            let n = if rng.chance(faithful) {
                lo + rng.below(hi.min(lo + 4).saturating_sub(lo) + 1)
            } else {
                *rng.pick(&[lo.saturating_sub(1), hi + 1])
            };
            let item = s.get("items").cloned().unwrap_or(json!({}));
            let mut out: Vec<Value> = (0..n)
                .map(|_| draw(rng, &item, faithful, depth + 1))
                .collect();
            if !out.is_empty() && rng.chance(1.0 - faithful) {
                out.push(out[0].clone());
            }
            Value::Array(out)
        }
        _ => {
            let mut out = Map::new();
            let required: Vec<&str> = s
                .get("required")
                .and_then(Value::as_array)
                .map(|l| l.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            if let Some(props) = s.get("properties").and_then(Value::as_object) {
                for (k, sub) in props {
                    let keep = if required.contains(&k.as_str()) {
                        rng.chance(faithful.powf(0.25))
                    } else {
                        rng.chance(0.7)
                    };
                    if keep {
                        out.insert(k.clone(), draw(rng, sub, faithful, depth + 1));
                    }
                }
            }
            if rng.chance((1.0 - faithful) / 2.0) {
                out.insert("extra".into(), junk(rng));
            }
            Value::Object(out)
        }
    }
}

fn schemas() -> Vec<(String, Value)> {
    let mut out: Vec<(String, Value)> =
        std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/schemas"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .map(|p| {
                let v: Value = serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap();
                (p.file_name().unwrap().to_string_lossy().into_owned(), v)
            })
            .filter(|(_, v)| v.get("$schema").is_some())
            .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out.push((
        "analyzer, per request".into(),
        document::analyzer_schema_for(&["bb-back-squat".into(), "dead-bug".into()]),
    ));
    out
}

#[test]
fn the_library_validator_agrees_with_the_reference_on_every_schema() {
    let all = schemas();
    assert!(
        all.len() >= 9,
        "the schema files were not found: {}",
        all.len()
    );
    for (name, schema) in all {
        let mine = Validator::new(&schema).unwrap_or_else(|e| panic!("{name}: {e}"));
        let reference = jsonschema::validator_for(&schema).unwrap();
        let mut rng = Rng(0xC0AC_4C0E ^ name.len() as u64);
        let (mut valid, mut invalid) = (0, 0);
        for i in 0..3000 {
            let faithful = [1.0, 0.995, 0.98, 0.9][i % 4];
            let v = draw(&mut rng, &schema, faithful, 0);
            let expected = reference.is_valid(&v);
            assert_eq!(mine.is_valid(&v), expected, "{name}: {v}");
            let issues = mine.issues(&v, 10);
            assert_eq!(issues.is_empty(), expected, "{name}: {v}: {issues:?}");
            if expected {
                valid += 1;
            } else {
                invalid += 1;
            }
        }
        assert!(
            valid >= 300 && invalid >= 300,
            "{name}: {valid} valid, {invalid} invalid"
        );
    }
}

#[test]
fn the_issues_point_where_the_reference_points() {
    // Where the reference names one place, the library names the same place (a missing
    // property: the reference points at its object, the library at the property itself).
    let schema: Value = serde_json::from_str(document::WORKOUT_SCHEMA).unwrap();
    let mine = Validator::new(&schema).unwrap();
    let reference = jsonschema::validator_for(&schema).unwrap();
    let mut rng = Rng(7);
    let mut compared = 0;
    for _ in 0..2000 {
        let v = draw(&mut rng, &schema, 0.995, 0);
        let theirs: Vec<String> = reference
            .iter_errors(&v)
            .map(|e| e.instance_path().as_str().to_owned())
            .collect();
        if theirs.len() != 1 {
            continue;
        }
        let ours = mine.issues(&v, 10);
        assert_eq!(ours.len(), 1, "{v}: {ours:?}");
        let pointer: String = ours[0]
            .path
            .replace('[', ".")
            .replace(']', "")
            .split('.')
            .filter(|s| !s.is_empty())
            .map(|s| format!("/{s}"))
            .collect();
        assert!(
            pointer == theirs[0]
                || pointer
                    .rsplit_once('/')
                    .is_some_and(|(p, _)| p == theirs[0]),
            "{v}: ours {pointer}, theirs {}",
            theirs[0]
        );
        compared += 1;
    }
    assert!(compared >= 100, "{compared}");
}
