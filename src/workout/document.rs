//! The documents against their schema files (pure): `schemas/analyzer-v1.json` (with today's
//! allowed exercises as an enum, per request) and `schemas/workout-v1.2.json`, validated at run
//! time with the library's validator (`llm::schema`); the workout written as YAML and read back
//! (`serde_norway`, read under the YAML caps of `kernel::yaml`); the id and tier rules a schema cannot say. Errors carry a path such as `sets[3].id` and the validator's
//! message, which never quotes the offending value (no user text).

use std::collections::HashSet;
use std::sync::OnceLock;

use serde::Serialize;
use serde_json::Value;

use super::ids;
use super::model::{SetTier, Workout};
use crate::kernel::yaml::{self, YamlError};
use crate::llm::schema::Validator;
use crate::llm::structured::Issue;

/// `schemas/analyzer-v1.json`.
pub const ANALYZER_SCHEMA: &str = include_str!("../../schemas/analyzer-v1.json");
/// `schemas/workout-v1.2.json`.
pub const WORKOUT_SCHEMA: &str = include_str!("../../schemas/workout-v1.2.json");

/// Largest YAML document read (bytes); the other YAML caps are in `kernel::limits` too.
pub use crate::kernel::limits::MAX_YAML_BYTES;

/// Most validator lines kept per document.
const MAX_ISSUES: usize = 10;

/// Why a workout document was refused.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, uniffi::Record)]
pub struct DocumentError {
    /// `invalid_yaml` or `schema_violation`.
    pub code: String,
    /// Where, e.g. `sets[3].id` (`None`: the document as a whole).
    pub path: Option<String>,
    /// What is wrong, in the library's words.
    pub detail: String,
}

impl DocumentError {
    fn schema(issue: Issue) -> Self {
        DocumentError {
            code: "schema_violation".into(),
            path: (!issue.path.is_empty()).then_some(issue.path),
            detail: issue.message,
        }
    }
}

fn compile(schema: &Value) -> Validator {
    // The schema files and the per-request schemas built from them are tested to compile; a
    // failure here is a bug, never input-dependent.
    Validator::new(schema).unwrap_or_else(|e| panic!("schema does not compile: {e}"))
}

fn parsed(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or(Value::Null)
}

/// The workout schema's validator, compiled once.
pub fn workout_validator() -> &'static Validator {
    static V: OnceLock<Validator> = OnceLock::new();
    V.get_or_init(|| compile(&parsed(WORKOUT_SCHEMA)))
}

/// The analyzer schema (any exercise id), compiled once.
pub fn analyzer_validator() -> &'static Validator {
    static V: OnceLock<Validator> = OnceLock::new();
    V.get_or_init(|| compile(&parsed(ANALYZER_SCHEMA)))
}

/// The analyzer schema with `exercise_plan[].exercise` an enum of `allowed` (what the grammar
/// constrains and the validator checks for one request).
pub fn analyzer_schema_for(allowed: &[String]) -> Value {
    let mut schema = parsed(ANALYZER_SCHEMA);
    if let Some(ex) = schema.pointer_mut("/properties/exercise_plan/items/properties/exercise") {
        *ex = serde_json::json!({ "enum": allowed });
    }
    schema
}

/// A validator for a per-request schema.
pub fn validator(schema: &Value) -> Validator {
    compile(schema)
}

/// The validator's errors on `value`, at most 10, as path and message.
pub fn schema_issues(v: &Validator, value: &Value) -> Vec<Issue> {
    v.issues(value, MAX_ISSUES)
}

/// The rules of a workout the schema cannot say: unique set ids whose tier prefix is the set's
/// tier, `must` true exactly for W and A, `order` 1, 2, 3..., warm-ups first within their
/// exercise, and a `cut_order` naming B and C sets of the document.
pub fn consistency_issues(w: &Workout) -> Vec<Issue> {
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    if !ids::is_workout_id(&w.workout_id) || !w.workout_id.starts_with(&w.date) {
        out.push(Issue {
            path: "workout_id".into(),
            message: "must be YYYY-MM-DD-<kebab-location>-NN with the workout's date".into(),
        });
    }
    for (i, s) in w.sets.iter().enumerate() {
        let at = |f: &str| format!("sets[{i}].{f}");
        match ids::parse_set_id(&s.id) {
            Some((tier, slug, _)) if tier == s.tier && slug == s.exercise.to_ascii_uppercase() => {}
            _ => out.push(Issue { path: at("id"), message: "must be <TIER>-<SLUG>-(WU#|#) with the set's tier and the exercise in upper case".into() }),
        }
        if !seen.insert(s.id.as_str()) {
            out.push(Issue {
                path: at("id"),
                message: "set ids must be unique".into(),
            });
        }
        if s.must != matches!(s.tier, SetTier::W | SetTier::A) {
            out.push(Issue {
                path: at("must"),
                message: "must be true for tiers W and A, false for B and C".into(),
            });
        }
        if s.order != i as u32 + 1 {
            out.push(Issue {
                path: at("order"),
                message: format!("must be {} (sets in order from 1)", i + 1),
            });
        }
        if s.tier == SetTier::W
            && w.sets[..i]
                .iter()
                .any(|p| p.exercise == s.exercise && p.tier != SetTier::W)
        {
            out.push(Issue {
                path: at("tier"),
                message: "warm-up sets come before the exercise's working sets".into(),
            });
        }
    }
    for (i, id) in w.cut_order.iter().enumerate() {
        if !w
            .sets
            .iter()
            .any(|s| &s.id == id && matches!(s.tier, SetTier::B | SetTier::C))
        {
            out.push(Issue {
                path: format!("cut_order[{i}]"),
                message: "must name a B or C set of the workout".into(),
            });
        }
    }
    out.truncate(MAX_ISSUES);
    out
}

/// A JSON value checked as a workout: schema, then the consistency rules, then the typed form.
pub fn check_workout_value(value: &Value) -> Result<Workout, DocumentError> {
    if let Some(first) = schema_issues(workout_validator(), value).into_iter().next() {
        return Err(DocumentError::schema(first));
    }
    let w: Workout = serde_json::from_value(value.clone()).map_err(|e| DocumentError {
        code: "schema_violation".into(),
        path: None,
        detail: format!("does not match the workout shape: {e}"),
    })?;
    match consistency_issues(&w).into_iter().next() {
        Some(first) => Err(DocumentError::schema(first)),
        None => Ok(w),
    }
}

/// Reads YAML into JSON under the YAML caps (`kernel::yaml`): `invalid_yaml` when it is not YAML,
/// has non-string keys, a key given twice or is past a cap (size, nesting, alias expansion);
/// `schema_violation` at its path for a number that is not finite (`.nan`, `.inf`).
pub fn yaml_to_json(text: &str) -> Result<Value, DocumentError> {
    let invalid = |path, detail| DocumentError {
        code: "invalid_yaml".into(),
        path,
        detail,
    };
    yaml::read(text).map_err(|e| match e {
        // The parser's position, not the text.
        YamlError::Syntax { at } => {
            let at = at
                .map(|(line, column)| format!(" at line {line} column {column}"))
                .unwrap_or_default();
            invalid(None, format!("not a YAML mapping{at}"))
        }
        YamlError::Refused { path, detail } => invalid(path, detail),
        YamlError::NotFinite { path } => DocumentError {
            code: "schema_violation".into(),
            path: Some(path),
            detail: "must be a finite number".into(),
        },
    })
}

/// Validates a workout YAML document: parsed, converted to JSON, checked against the schema and
/// the consistency rules.
pub fn validate_workout_yaml(text: &str) -> Result<Workout, DocumentError> {
    check_workout_value(&yaml_to_json(text)?)
}

/// The workout as YAML (keys in the schema's order).
pub fn to_yaml(w: &Workout) -> String {
    // A document of strings, numbers, booleans and nulls always serializes.
    serde_norway::to_string(w).unwrap_or_default()
}
