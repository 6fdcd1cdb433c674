//! The documents against their schema files (pure): `schemas/analyzer-v1.json` (with today's
//! allowed exercises as an enum, per request) and `schemas/workout-v1.2.json`, validated at run
//! time with the library's validator (`llm::schema`); the workout written as YAML and read back
//! (`serde_norway`, read under the YAML caps of `kernel::yaml`); the id and tier rules a schema
//! cannot say; and the upgrade of documents the library wrote in its earlier form ([`upgrade`]).
//! Errors carry a path such as `sets[3].id` and the validator's message, which never quotes the
//! offending value (no user text).
//!
//! The document is the original app's (spec 001): `version` the number 1.2 and `cut_order` the
//! tiers to drop (`["C", "B"]`). The library wrote `version: '1.2'` (a string) and `cut_order`
//! as set ids before; such documents keep validating, read in today's shape, and every document
//! the library writes is in the original's shape.

use std::collections::HashSet;
use std::sync::OnceLock;

use serde::Serialize;
use serde_json::Value;

use super::ids;
use super::model::{SetTier, Workout, WORKOUT_VERSION};
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

/// The `version` the library wrote before it followed the original app: a string.
const EARLIER_VERSION: &str = "1.2";

/// Most sets of a workout (the schema's `maxItems` of `sets`, and of the earlier `cut_order`):
/// past it nothing is upgraded and the schema refuses the document.
const MAX_SETS: usize = 80;

/// Upgrades a workout JSON value the library wrote in its earlier form to the original app's
/// shape, in place, and says whether anything changed: `version` the string `"1.2"` becomes the
/// number 1.2, and a `cut_order` of set ids (every item a set id) becomes the distinct tiers of
/// those sets, C before B (`["C-DB-CURL-2", "B-DB-ROW-1"]` becomes `["C", "B"]`). An earlier
/// `cut_order` whose id names no B or C set of the document is an issue at its path, as the
/// earlier rules refused it. Anything else is left as it is, for the schema to judge.
pub fn upgrade(value: &mut Value) -> Result<bool, Issue> {
    let Some(doc) = value.as_object_mut() else {
        return Ok(false);
    };
    let mut changed = false;
    if doc.get("version").and_then(Value::as_str) == Some(EARLIER_VERSION) {
        doc.insert("version".into(), Value::from(WORKOUT_VERSION));
        changed = true;
    }
    let set_ids: Option<Vec<String>> = match doc.get("cut_order") {
        Some(Value::Array(items)) if !items.is_empty() && items.len() <= MAX_SETS => items
            .iter()
            .map(|v| {
                v.as_str()
                    .filter(|id| ids::parse_set_id(id).is_some())
                    .map(str::to_owned)
            })
            .collect(),
        _ => None,
    };
    // Without sets to read the tiers from (missing, not a list, too many), the schema refuses the
    // document for its sets.
    let sets = doc
        .get("sets")
        .and_then(Value::as_array)
        .filter(|sets| sets.len() <= MAX_SETS);
    let (Some(set_ids), Some(sets)) = (set_ids, sets) else {
        return Ok(changed);
    };
    let mut tiers = Vec::new();
    for (i, id) in set_ids.iter().enumerate() {
        let tier = sets
            .iter()
            .find(|s| s.get("id").and_then(Value::as_str) == Some(id.as_str()))
            .and_then(|s| s.get("tier").and_then(Value::as_str));
        match tier {
            Some(t @ ("B" | "C")) => tiers.push(t),
            _ => {
                return Err(Issue {
                    path: format!("cut_order[{i}]"),
                    message: "a set id (the library's earlier form of cut_order) must name a B or C set of the workout; write the tiers to cut, e.g. [\"C\", \"B\"]".into(),
                })
            }
        }
    }
    let upgraded: Vec<Value> = ["C", "B"]
        .into_iter()
        .filter(|t| tiers.contains(t))
        .map(Value::from)
        .collect();
    doc.insert("cut_order".into(), Value::Array(upgraded));
    Ok(true)
}

/// The rules of a workout the schema cannot say: unique set ids whose tier prefix is the set's
/// tier, `must` true exactly for W and A, `order` 1, 2, 3..., warm-ups first within their
/// exercise, and a `cut_order` of tiers B and C that the workout has sets of, C before B.
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
    for (i, tier) in w.cut_order.iter().enumerate() {
        let path = format!("cut_order[{i}]");
        if !matches!(tier.as_str(), "B" | "C") {
            out.push(Issue {
                path,
                message: "must be B or C: W and A sets are never cut".into(),
            });
        } else if !w.sets.iter().any(|s| s.tier.letter() == tier) {
            out.push(Issue {
                path,
                message: "must be a tier the workout has sets of".into(),
            });
        }
    }
    let at = |t: &str| w.cut_order.iter().position(|c| c == t);
    if let (Some(b), Some(c)) = (at("B"), at("C")) {
        if b < c {
            out.push(Issue {
                path: format!("cut_order[{c}]"),
                message: "C is cut before B: list C first".into(),
            });
        }
    }
    out.truncate(MAX_ISSUES);
    out
}

/// A JSON value checked as a workout: upgraded from the library's earlier form ([`upgrade`]),
/// then the schema, the typed form and the consistency rules.
pub fn check_workout_value(value: &Value) -> Result<Workout, DocumentError> {
    let mut value = value.clone();
    upgrade(&mut value).map_err(DocumentError::schema)?;
    if let Some(first) = schema_issues(workout_validator(), &value)
        .into_iter()
        .next()
    {
        return Err(DocumentError::schema(first));
    }
    let w: Workout = serde_json::from_value(value).map_err(|e| DocumentError {
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

/// Validates a workout YAML document: parsed, converted to JSON, upgraded from the library's
/// earlier form, checked against the schema and the consistency rules. The workout returned is in
/// the original app's shape.
pub fn validate_workout_yaml(text: &str) -> Result<Workout, DocumentError> {
    check_workout_value(&yaml_to_json(text)?)
}

/// The workout as YAML (keys in the schema's order).
pub fn to_yaml(w: &Workout) -> String {
    // A document of strings, numbers, booleans and nulls always serializes.
    serde_norway::to_string(w).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A document as the original app writes it: `version: 1.2`, `cut_order: ["C", "B"]`.
    const ORIGINAL: &str = include_str!("../../tests/data/workout/original-app.yaml");
    /// A document as the library wrote it before: `version: '1.2'`, `cut_order` set ids.
    const EARLIER: &str = include_str!("../../tests/data/workout/earlier-library.yaml");

    fn original() -> Value {
        yaml_to_json(ORIGINAL).unwrap()
    }

    fn refused(v: &Value) -> DocumentError {
        check_workout_value(v).expect_err("refused")
    }

    #[test]
    fn the_original_apps_document_validates_as_it_is() {
        let w = validate_workout_yaml(ORIGINAL).unwrap();
        assert_eq!(w.version, 1.2);
        assert_eq!(w.cut_order, ["C", "B"]);
        let mut v = original();
        assert!(!upgrade(&mut v).unwrap(), "nothing to upgrade");
        assert_eq!(v, original());
        // One tier alone, or none, is as valid.
        for order in [json!(["C"]), json!(["B"]), json!([])] {
            let mut v = original();
            v["cut_order"] = order.clone();
            assert_eq!(json!(check_workout_value(&v).unwrap().cut_order), order);
        }
    }

    #[test]
    fn the_cut_order_names_tiers_the_workout_has_c_before_b_never_w_or_a() {
        let cases = [
            (json!(["B", "C"]), "cut_order[1]", "C is cut before B"),
            (json!(["A"]), "cut_order[0]", "must be one of"),
            (json!(["C", "W"]), "cut_order[1]", "must be one of"),
            (json!(["C", "C"]), "cut_order", "must not repeat"),
            (json!(["C", "B", "C"]), "cut_order", "at most 2"),
            (json!("C"), "cut_order", "must be an array"),
        ];
        for (order, path, message) in cases {
            let mut v = original();
            v["cut_order"] = order.clone();
            let e = refused(&v);
            assert_eq!(
                (e.code.as_str(), e.path.as_deref()),
                ("schema_violation", Some(path)),
                "{order}: {e:?}"
            );
            assert!(e.detail.contains(message), "{order}: {e:?}");
        }
        // A tier listed that has no sets.
        let mut v = original();
        let sets = v["sets"].as_array_mut().unwrap();
        sets.retain(|s| s["tier"] != "C");
        let e = refused(&v);
        assert_eq!(e.path.as_deref(), Some("cut_order[0]"), "{e:?}");
        assert_eq!(e.detail, "must be a tier the workout has sets of");
        v["cut_order"] = json!(["B"]);
        check_workout_value(&v).unwrap();
    }

    #[test]
    fn consistency_refuses_w_and_a_in_a_document_built_in_code() {
        let mut w = validate_workout_yaml(ORIGINAL).unwrap();
        w.cut_order = vec!["C".into(), "A".into()];
        let issues = consistency_issues(&w);
        assert_eq!(issues.len(), 1, "{issues:?}");
        assert_eq!(issues[0].path, "cut_order[1]");
        assert_eq!(
            issues[0].message,
            "must be B or C: W and A sets are never cut"
        );
    }

    #[test]
    fn the_version_is_the_number_and_the_earlier_string_is_upgraded() {
        let mut v = original();
        v["version"] = json!("1.2");
        let mut up = v.clone();
        assert!(upgrade(&mut up).unwrap());
        assert_eq!(up["version"], json!(1.2));
        assert_eq!(up, original(), "only the version changed");
        assert_eq!(check_workout_value(&v).unwrap().version, 1.2);
        for other in [json!("1.1"), json!(1.1), json!("1.20"), json!(12)] {
            let mut v = original();
            v["version"] = other.clone();
            assert_eq!(refused(&v).path.as_deref(), Some("version"), "{other}");
        }
    }

    #[test]
    fn an_earlier_cut_order_of_set_ids_is_read_as_their_tiers_c_before_b() {
        // As the library wrote it: every C set from the last, then every B set.
        let w = validate_workout_yaml(EARLIER).unwrap();
        assert_eq!(w.version, 1.2);
        assert_eq!(w.cut_order, ["C", "B"]);
        let earlier = yaml_to_json(EARLIER).unwrap();
        assert!(earlier["cut_order"].as_array().unwrap().len() > 2);
        assert_eq!(w.sets.len(), earlier["sets"].as_array().unwrap().len());
        // Written by hand: B ids first, repeated tiers, one tier only.
        for (ids, tiers) in [
            (
                json!(["B-DB-ONE-ARM-ROW-2", "C-DB-CURL-1"]),
                json!(["C", "B"]),
            ),
            (
                json!(["B-DB-SHOULDER-PRESS-1", "B-DB-ONE-ARM-ROW-1"]),
                json!(["B"]),
            ),
            (json!(["C-DEAD-BUG-1", "C-DB-CURL-2"]), json!(["C"])),
        ] {
            let mut v = original();
            v["version"] = json!("1.2");
            v["cut_order"] = ids.clone();
            let mut up = v.clone();
            assert!(upgrade(&mut up).unwrap());
            assert_eq!(up["cut_order"], tiers, "{ids}");
            assert_eq!(json!(check_workout_value(&v).unwrap().cut_order), tiers);
        }
        // An id that names no B or C set was refused before and still is, at its path.
        for ids in [
            json!(["C-DB-CURL-1", "A-BB-BENCH-PRESS-1"]),
            json!(["C-DB-CURL-9"]),
            json!(["W-BB-BENCH-PRESS-WU1"]),
        ] {
            let mut v = original();
            v["cut_order"] = ids.clone();
            let e = refused(&v);
            let at = if ids.as_array().unwrap().len() == 2 {
                "cut_order[1]"
            } else {
                "cut_order[0]"
            };
            assert_eq!(
                (e.code.as_str(), e.path.as_deref()),
                ("schema_violation", Some(at)),
                "{ids}: {e:?}"
            );
            assert!(e.detail.contains("must name a B or C set"), "{e:?}");
        }
        // Ids and tiers mixed are neither form: the schema refuses the id.
        let mut v = original();
        v["cut_order"] = json!(["C", "B-DB-ONE-ARM-ROW-1"]);
        assert_eq!(refused(&v).path.as_deref(), Some("cut_order[1]"));
        // Without sets to read the tiers from (too many, missing), nothing is upgraded: the
        // schema refuses the document, not the upgrade.
        let mut v = original();
        v["cut_order"] = json!(["C-DB-CURL-1"]);
        let first = v["sets"][0].clone();
        v["sets"] = json!(vec![first; 81]);
        let mut up = v.clone();
        assert!(!upgrade(&mut up).unwrap());
        assert_eq!(up, v);
        assert_eq!(refused(&v).code, "schema_violation");
        v.as_object_mut().unwrap().remove("sets");
        assert!(!upgrade(&mut v.clone()).unwrap());
        assert_eq!(refused(&v).code, "schema_violation");
    }

    #[test]
    fn documents_are_written_in_the_original_shape_and_read_back_equal() {
        let w = validate_workout_yaml(EARLIER).unwrap();
        let yaml = to_yaml(&w);
        assert!(yaml.starts_with("version: 1.2\n"), "{yaml}");
        assert!(yaml.contains("\ncut_order:\n- C\n- B\n"), "{yaml}");
        assert_eq!(validate_workout_yaml(&yaml).unwrap(), w);
        let json = serde_json::to_value(&w).unwrap();
        assert_eq!(json["version"], json!(1.2));
        assert_eq!(json["cut_order"], json!(["C", "B"]));
    }
}
