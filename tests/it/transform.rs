//! The plan transformer (spec 000) against fixtures, the spec's worked example, the invalid-input
//! rules, and the JSON Schema files themselves (via the `jsonschema` crate, as an independent
//! validator).

use std::path::PathBuf;

use coachcore::kernel::ids::IdGenerator;
use coachcore::plan::{schema_depth, transform, Ruleset, SchemaVersion, TODAY_PLAN_SCHEMA};
use coachcore::{OutputErrorCode, TodayPlan};
use serde_json::{json, Value};

use SchemaVersion::{V1Current, V2Flat};

fn data(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(rel)
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(data(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

fn run(
    text: &str,
    v: SchemaVersion,
    seed: u64,
) -> Result<TodayPlan, coachcore::kernel::error::OutputError> {
    transform(text, v, Ruleset::embedded(), &mut IdGenerator::seeded(seed))
}

fn validator(schema_json: &str) -> jsonschema::Validator {
    jsonschema::validator_for(&serde_json::from_str(schema_json).unwrap()).unwrap()
}

const PAIRS: [&str; 4] = ["worked-example", "shuffled-legs", "templates", "unicode"];

#[test]
fn spec_worked_example_gives_the_spec_output() {
    let plan = run(&read("plans/worked-example.v2.json"), V2Flat, 1).unwrap();
    let mut got = serde_json::to_value(&plan).unwrap();
    // The spec shows ids as "<generated>".
    fn blank(v: &mut Value) {
        match v {
            Value::Object(m) => {
                if let Some(id) = m.get_mut("id") {
                    assert!(
                        id.as_str().is_some_and(|s| s.len() == 36),
                        "generated id: {id}"
                    );
                    *id = json!("<generated>");
                }
                m.values_mut().for_each(blank);
            }
            Value::Array(a) => a.iter_mut().for_each(blank),
            _ => {}
        }
    }
    blank(&mut got);
    let want: Value =
        serde_json::from_str(&read("golden/worked-example.spec-output.json")).unwrap();
    assert_eq!(got, want);
}

#[test]
fn golden_outputs_with_seeded_ids() {
    for name in PAIRS {
        let plan = run(&read(&format!("plans/{name}.v2.json")), V2Flat, 42).unwrap();
        let text = serde_json::to_string_pretty(&plan).unwrap() + "\n";
        let golden = data(&format!("golden/{name}.today-plan.json"));
        if std::env::var_os("UPDATE_GOLDEN").is_some() {
            std::fs::write(&golden, &text).unwrap();
        }
        let want = std::fs::read_to_string(&golden)
            .unwrap_or_else(|e| panic!("{}: {e}", golden.display()));
        assert_eq!(
            text,
            want,
            "{name}: output differs from {}",
            golden.display()
        );
    }
}

#[test]
fn v1_and_v2_of_the_same_plan_agree() {
    for name in PAIRS {
        let flat = run(&read(&format!("plans/{name}.v2.json")), V2Flat, 1).unwrap();
        let nested = run(&read(&format!("plans/{name}.v1.json")), V1Current, 2).unwrap();
        assert_ne!(flat.id, nested.id, "{name}: different seeds, different ids");
        assert_eq!(flat.without_ids(), nested.without_ids(), "{name}");
    }
}

#[test]
fn ids_follow_the_seed() {
    let text = read("plans/shuffled-legs.v2.json");
    let a = run(&text, V2Flat, 9).unwrap();
    assert_eq!(a, run(&text, V2Flat, 9).unwrap());
    let b = run(&text, V2Flat, 10).unwrap();
    assert_ne!(a.id, b.id);
    assert_eq!(a.without_ids(), b.without_ids());
    let mut ids = vec![a.id.clone()];
    for bl in &a.blocks {
        ids.push(bl.id.clone());
        ids.extend(bl.exercises.iter().map(|e| e.id.clone()));
    }
    let unique: std::collections::HashSet<_> = ids.iter().collect();
    assert_eq!(unique.len(), ids.len(), "ids are unique within a plan");
    // Ids are assigned in plan order, so the same plan in either schema gets the same ids.
    let nested = run(&read("plans/shuffled-legs.v1.json"), V1Current, 9).unwrap();
    assert_eq!(nested, a);
}

#[test]
fn exercises_are_joined_by_block_index_and_ordered_by_order() {
    let plan = run(&read("plans/shuffled-legs.v2.json"), V2Flat, 1).unwrap();
    let names: Vec<Vec<&str>> = plan
        .blocks
        .iter()
        .map(|b| b.exercises.iter().map(|e| e.name.as_str()).collect())
        .collect();
    assert_eq!(
        names,
        vec![
            vec!["Glute Bridge", "Banded Walk"],
            vec!["Back Squat", "Romanian Deadlift"],
            vec!["KB Swing", "Calf Raise", "Walking Lunge"],
            vec![],
        ]
    );
    assert_eq!(
        plan.blocks[1].exercises[0].detail.as_deref(),
        Some("Brace \"hard\" before each rep")
    );
}

#[test]
fn block_templates_expand_from_the_ruleset() {
    let plan = run(&read("plans/templates.v2.json"), V2Flat, 1).unwrap();
    let rules = Ruleset::embedded();
    let warm = rules.block_template("warmup-mobility").unwrap();
    let b0 = &plan.blocks[0];
    assert_eq!(
        (b0.title.as_str(), b0.duration_minutes, b0.focus.as_str()),
        (
            warm.title.as_str(),
            warm.duration_minutes,
            warm.focus.as_str()
        )
    );
    let names: Vec<_> = b0.exercises.iter().map(|e| e.name.as_str()).collect();
    let mut want: Vec<_> = warm.exercises.iter().map(|e| e.name.as_str()).collect();
    want.push("Thoracic Rotation");
    assert_eq!(names, want, "template exercises first, then the plan's own");
    assert_eq!(
        plan.blocks[2].exercises.len(),
        rules
            .block_template("cooldown-stretch")
            .unwrap()
            .exercises
            .len()
    );
}

#[test]
fn wrapped_model_text_is_tolerated() {
    let raw = read("plans/worked-example.v2.json");
    let want = run(&raw, V2Flat, 3).unwrap();
    for wrapped in [
        format!("```json\n{raw}\n```"),
        format!("Sure! Here is your plan:\n\n```\n{raw}```\nLet me know if you want changes."),
        format!("<think>The user wants upper body. Maybe {{\"draft\": 1}}.</think>\n<response>{raw}</response>"),
        format!("<think>ok</think>```json\n{raw}\n```"),
        format!("Plan (in {{braces}}): {raw} -- done"),
        format!("Settings used: {{\"units\": \"metric\"}}\nPlan: {raw}"),
        format!("Format:\n```js\nconst plan = {{ }};\n```\nHere it is: {raw}"),
    ] {
        assert_eq!(run(&wrapped, V2Flat, 3).unwrap(), want, "{wrapped}");
    }
}

/// The spec's worked example in `version`'s shape, changed by `edit`.
fn edited(version: SchemaVersion, edit: fn(&mut Value)) -> Value {
    let base = match version {
        V2Flat => "plans/worked-example.v2.json",
        V1Current => "plans/worked-example.v1.json",
    };
    let mut v: Value = serde_json::from_str(&read(base)).unwrap();
    edit(&mut v);
    v
}

/// One invalid input: how to break the base plan, and what must come out.
struct Case {
    name: &'static str,
    schema: SchemaVersion,
    edit: fn(&mut Value),
    code: OutputErrorCode,
    path: Option<&'static str>,
    /// Whether the JSON Schema alone rejects it (false for the rules only the transformer knows).
    schema_rejects: bool,
}

fn cases() -> Vec<Case> {
    use OutputErrorCode::*;
    macro_rules! case {
        ($name:expr, $schema:expr, $edit:expr, $code:expr, $path:expr, $rejects:expr) => {
            Case {
                name: $name,
                schema: $schema,
                edit: $edit,
                code: $code,
                path: $path,
                schema_rejects: $rejects,
            }
        };
    }
    vec![
        case!(
            "blockIndex past the end",
            V2Flat,
            |v| v["exercises"][1]["blockIndex"] = json!(2),
            BlockIndexOutOfRange,
            Some("exercises[1].blockIndex"),
            false
        ),
        case!(
            "blockIndex far past the end",
            V2Flat,
            |v| v["exercises"][0]["blockIndex"] = json!(1_000_000),
            BlockIndexOutOfRange,
            Some("exercises[0].blockIndex"),
            false
        ),
        case!(
            "negative blockIndex",
            V2Flat,
            |v| v["exercises"][1]["blockIndex"] = json!(-1),
            BlockIndexOutOfRange,
            Some("exercises[1].blockIndex"),
            true
        ),
        case!(
            "duplicate order in a block",
            V2Flat,
            |v| v["exercises"][1]["blockIndex"] = json!(0),
            DuplicateOrder,
            Some("exercises[1].order"),
            false
        ),
        case!(
            "missing blocks",
            V2Flat,
            |v| {
                v.as_object_mut().unwrap().remove("blocks");
            },
            MissingBlocks,
            Some("blocks"),
            true
        ),
        case!(
            "null blocks",
            V2Flat,
            |v| v["blocks"] = Value::Null,
            MissingBlocks,
            Some("blocks"),
            true
        ),
        case!(
            "empty blocks",
            V2Flat,
            |v| v["blocks"] = json!([]),
            MissingBlocks,
            Some("blocks"),
            true
        ),
        case!(
            "missing blocks (v1)",
            V1Current,
            |v| {
                v.as_object_mut().unwrap().remove("blocks");
            },
            MissingBlocks,
            Some("blocks"),
            true
        ),
        case!(
            "empty exercises",
            V2Flat,
            |v| v["exercises"] = json!([]),
            SchemaViolation,
            Some("exercises"),
            true
        ),
        case!(
            "missing exercises",
            V2Flat,
            |v| {
                v.as_object_mut().unwrap().remove("exercises");
            },
            SchemaViolation,
            Some("exercises"),
            true
        ),
        case!(
            "zero duration",
            V2Flat,
            |v| v["durationMinutes"] = json!(0),
            SchemaViolation,
            Some("durationMinutes"),
            true
        ),
        case!(
            "negative duration",
            V2Flat,
            |v| v["durationMinutes"] = json!(-30),
            SchemaViolation,
            Some("durationMinutes"),
            true
        ),
        case!(
            "duration past u32",
            V2Flat,
            |v| v["durationMinutes"] = json!(4_294_967_296u64),
            SchemaViolation,
            Some("durationMinutes"),
            true
        ),
        case!(
            "block duration far past u32",
            V2Flat,
            |v| v["blocks"][0]["durationMinutes"] = json!(1e30),
            SchemaViolation,
            Some("blocks[0].durationMinutes"),
            true
        ),
        case!(
            "null duration",
            V2Flat,
            |v| v["durationMinutes"] = Value::Null,
            SchemaViolation,
            Some("durationMinutes"),
            true
        ),
        case!(
            "fractional duration",
            V2Flat,
            |v| v["durationMinutes"] = json!(30.5),
            SchemaViolation,
            Some("durationMinutes"),
            true
        ),
        case!(
            "duration as a string",
            V2Flat,
            |v| v["durationMinutes"] = json!("30"),
            SchemaViolation,
            Some("durationMinutes"),
            true
        ),
        case!(
            "zero block duration",
            V2Flat,
            |v| v["blocks"][1]["durationMinutes"] = json!(0),
            SchemaViolation,
            Some("blocks[1].durationMinutes"),
            true
        ),
        case!(
            "unknown source",
            V2Flat,
            |v| v["source"] = json!("robot"),
            UnknownEnumValue,
            Some("source"),
            true
        ),
        case!(
            "unknown energy",
            V2Flat,
            |v| v["energy"] = json!("extreme"),
            UnknownEnumValue,
            Some("energy"),
            true
        ),
        case!(
            "energy in capitals",
            V2Flat,
            |v| v["energy"] = json!("Moderate"),
            UnknownEnumValue,
            Some("energy"),
            true
        ),
        case!(
            "source of the wrong type",
            V2Flat,
            |v| v["source"] = json!(1),
            SchemaViolation,
            Some("source"),
            true
        ),
        case!(
            "unknown block template",
            V2Flat,
            |v| v["blocks"][0] = json!({"blockTemplate": "warmup-extreme"}),
            UnknownEnumValue,
            Some("blocks[0].blockTemplate"),
            true
        ),
        case!(
            "template block with its own title",
            V2Flat,
            |v| v["blocks"][0] = json!({"blockTemplate": "warmup-basic", "title": "Mine"}),
            SchemaViolation,
            Some("blocks[0]"),
            true
        ),
        case!(
            "missing focus",
            V2Flat,
            |v| {
                v.as_object_mut().unwrap().remove("focus");
            },
            SchemaViolation,
            Some("focus"),
            true
        ),
        case!(
            "null focus",
            V2Flat,
            |v| v["focus"] = Value::Null,
            SchemaViolation,
            Some("focus"),
            true
        ),
        case!(
            "equipment not a list",
            V2Flat,
            |v| v["equipment"] = json!("Dumbbells"),
            SchemaViolation,
            Some("equipment"),
            true
        ),
        case!(
            "equipment item not a string",
            V2Flat,
            |v| v["equipment"] = json!(["Bench", 3]),
            SchemaViolation,
            Some("equipment[1]"),
            true
        ),
        case!(
            "exercise name of the wrong type",
            V2Flat,
            |v| v["exercises"][0]["name"] = json!(5),
            SchemaViolation,
            Some("exercises[0].name"),
            true
        ),
        case!(
            "missing detail",
            V2Flat,
            |v| {
                v["exercises"][0].as_object_mut().unwrap().remove("detail");
            },
            SchemaViolation,
            Some("exercises[0].detail"),
            true
        ),
        case!(
            "missing order",
            V2Flat,
            |v| {
                v["exercises"][1].as_object_mut().unwrap().remove("order");
            },
            SchemaViolation,
            Some("exercises[1].order"),
            true
        ),
        case!(
            "negative order",
            V2Flat,
            |v| v["exercises"][0]["order"] = json!(-1),
            SchemaViolation,
            Some("exercises[0].order"),
            true
        ),
        case!(
            "unknown top-level field (its name is not echoed)",
            V2Flat,
            |v| v["calories"] = json!(300),
            SchemaViolation,
            None,
            true
        ),
        case!(
            "unknown field in an exercise",
            V2Flat,
            |v| v["exercises"][1]["sets"] = json!(3),
            SchemaViolation,
            Some("exercises[1]"),
            true
        ),
        case!(
            "unknown dotted field in a v1 exercise",
            V1Current,
            |v| v["blocks"][1]["exercises"][0]["x.name"] = json!(3),
            SchemaViolation,
            Some("blocks[1].exercises[0]"),
            true
        ),
        case!(
            "a v2 field in a v1 exercise",
            V1Current,
            |v| v["blocks"][1]["exercises"][0]["order"] = json!(0),
            SchemaViolation,
            Some("blocks[1].exercises[0].order"),
            true
        ),
        case!(
            "exercises nested in a v2 block",
            V2Flat,
            |v| v["blocks"][0]["exercises"] = json!([]),
            SchemaViolation,
            Some("blocks[0].exercises"),
            true
        ),
        case!(
            "template block with a null title",
            V2Flat,
            |v| v["blocks"][0] = json!({"blockTemplate": "warmup-basic", "title": null}),
            SchemaViolation,
            Some("blocks[0].title"),
            true
        ),
        case!(
            "template block with a null duration and focus",
            V2Flat,
            |v| v["blocks"][0] =
                json!({"blockTemplate": "warmup-basic", "durationMinutes": null, "focus": null}),
            SchemaViolation,
            Some("blocks[0].durationMinutes"),
            true
        ),
        case!(
            "null template beside a block's own fields",
            V2Flat,
            |v| v["blocks"][0]["blockTemplate"] = Value::Null,
            SchemaViolation,
            Some("blocks[0].blockTemplate"),
            true
        ),
        case!(
            "null template beside a block's own fields (v1)",
            V1Current,
            |v| v["blocks"][0]["blockTemplate"] = Value::Null,
            SchemaViolation,
            Some("blocks[0].blockTemplate"),
            true
        ),
        case!(
            "v1 template block with null exercises",
            V1Current,
            |v| v["blocks"][0] = json!({"blockTemplate": "warmup-basic", "exercises": null}),
            SchemaViolation,
            Some("blocks[0].exercises"),
            true
        ),
        case!(
            "v1 block with null exercises",
            V1Current,
            |v| v["blocks"][1]["exercises"] = Value::Null,
            SchemaViolation,
            Some("blocks[1].exercises"),
            true
        ),
        case!(
            "null exercises",
            V2Flat,
            |v| v["exercises"] = Value::Null,
            SchemaViolation,
            Some("exercises"),
            true
        ),
        case!(
            "null equipment",
            V2Flat,
            |v| v["equipment"] = Value::Null,
            SchemaViolation,
            Some("equipment"),
            true
        ),
        case!(
            "null summary",
            V1Current,
            |v| v["summary"] = Value::Null,
            SchemaViolation,
            Some("summary"),
            true
        ),
        case!(
            "null block title",
            V2Flat,
            |v| v["blocks"][1]["title"] = Value::Null,
            SchemaViolation,
            Some("blocks[1].title"),
            true
        ),
        case!(
            "null blockIndex",
            V2Flat,
            |v| v["exercises"][0]["blockIndex"] = Value::Null,
            SchemaViolation,
            Some("exercises[0].blockIndex"),
            true
        ),
        case!(
            "null order",
            V2Flat,
            |v| v["exercises"][1]["order"] = Value::Null,
            SchemaViolation,
            Some("exercises[1].order"),
            true
        ),
        case!(
            "null exercise name (v1)",
            V1Current,
            |v| v["blocks"][1]["exercises"][0]["name"] = Value::Null,
            SchemaViolation,
            Some("blocks[1].exercises[0].name"),
            true
        ),
        case!(
            "null source",
            V2Flat,
            |v| v["source"] = Value::Null,
            SchemaViolation,
            Some("source"),
            true
        ),
        case!(
            "blockIndex at 1e19",
            V2Flat,
            |v| v["exercises"][1]["blockIndex"] = json!(1e19),
            BlockIndexOutOfRange,
            Some("exercises[1].blockIndex"),
            false
        ),
        case!(
            "blockIndex at u64::MAX",
            V2Flat,
            |v| v["exercises"][0]["blockIndex"] = json!(u64::MAX),
            BlockIndexOutOfRange,
            Some("exercises[0].blockIndex"),
            false
        ),
        case!(
            "blockIndex past u64",
            V2Flat,
            |v| v["exercises"][0]["blockIndex"] = json!(1e300),
            BlockIndexOutOfRange,
            Some("exercises[0].blockIndex"),
            false
        ),
        case!(
            "blockIndex far below zero",
            V2Flat,
            |v| v["exercises"][0]["blockIndex"] = json!(-1e19),
            BlockIndexOutOfRange,
            Some("exercises[0].blockIndex"),
            true
        ),
        case!(
            "blockIndex as a negative float",
            V2Flat,
            |v| v["exercises"][0]["blockIndex"] = json!(-1.0),
            BlockIndexOutOfRange,
            Some("exercises[0].blockIndex"),
            true
        ),
        case!(
            "blockIndex just past the end, as a float",
            V2Flat,
            |v| v["exercises"][0]["blockIndex"] = json!(2.0),
            BlockIndexOutOfRange,
            Some("exercises[0].blockIndex"),
            false
        ),
        case!(
            "fractional blockIndex",
            V2Flat,
            |v| v["exercises"][0]["blockIndex"] = json!(0.5),
            SchemaViolation,
            Some("exercises[0].blockIndex"),
            true
        ),
        case!(
            "fractional order",
            V2Flat,
            |v| v["exercises"][0]["order"] = json!(1.5),
            SchemaViolation,
            Some("exercises[0].order"),
            true
        ),
        case!(
            "negative float order",
            V2Flat,
            |v| v["exercises"][0]["order"] = json!(-2.0),
            SchemaViolation,
            Some("exercises[0].order"),
            true
        ),
        case!(
            "duplicate huge order",
            V2Flat,
            |v| {
                v["exercises"][0]["order"] = json!(1e300);
                v["exercises"][1]["order"] = json!(1e300);
                v["exercises"][1]["blockIndex"] = json!(0);
            },
            DuplicateOrder,
            Some("exercises[1].order"),
            false
        ),
        case!(
            "duplicate order written as int and float",
            V2Flat,
            |v| {
                v["exercises"][0]["order"] = json!(3);
                v["exercises"][1]["order"] = json!(3.0);
                v["exercises"][1]["blockIndex"] = json!(0.0);
            },
            DuplicateOrder,
            Some("exercises[1].order"),
            false
        ),
        case!(
            "v1 block without exercises",
            V1Current,
            |v| {
                v["blocks"][1].as_object_mut().unwrap().remove("exercises");
            },
            SchemaViolation,
            Some("blocks[1].exercises"),
            true
        ),
        case!(
            "v1 exercise without a name",
            V1Current,
            |v| {
                v["blocks"][0]["exercises"][0]
                    .as_object_mut()
                    .unwrap()
                    .remove("name");
            },
            SchemaViolation,
            Some("blocks[0].exercises[0].name"),
            true
        ),
        case!(
            "v1 plan with no exercises",
            V1Current,
            |v| {
                v["blocks"][0]["exercises"] = json!([]);
                v["blocks"][1]["exercises"] = json!([]);
            },
            SchemaViolation,
            Some("blocks"),
            false
        ),
        case!(
            "v1 with top-level exercises",
            V1Current,
            |v| v["exercises"] = json!([]),
            SchemaViolation,
            Some("exercises"),
            true
        ),
        case!(
            "v1 unknown energy",
            V1Current,
            |v| v["energy"] = json!("chill"),
            UnknownEnumValue,
            Some("energy"),
            true
        ),
    ]
}

#[test]
fn invalid_plans_are_transform_errors_with_code_and_path() {
    for c in cases() {
        let v = edited(c.schema, c.edit);
        let text = serde_json::to_string(&v).unwrap();
        let err = run(&text, c.schema, 1).expect_err(c.name);
        assert_eq!(
            (err.code, err.path.as_deref()),
            (c.code, c.path),
            "{}: {err}",
            c.name
        );
        assert!(!err.detail.is_empty(), "{}", c.name);
    }
}

#[test]
fn error_details_do_not_echo_the_input() {
    const S: &str = "SENTINEL";
    type Edit = fn(&mut Value);
    let edits: [(&str, SchemaVersion, Edit); 14] = [
        ("unknown enum value", V2Flat, |v| v["source"] = json!(S)),
        ("unknown energy", V1Current, |v| v["energy"] = json!(S)),
        ("unknown template", V2Flat, |v| {
            v["blocks"][0] = json!({ "blockTemplate": S })
        }),
        ("string for an integer", V2Flat, |v| {
            v["durationMinutes"] = json!(S)
        }),
        ("string for an index", V2Flat, |v| {
            v["exercises"][0]["blockIndex"] = json!(S)
        }),
        ("object for a list", V2Flat, |v| {
            v["equipment"] = json!({ S: S })
        }),
        ("list for a string", V1Current, |v| {
            v["blocks"][0]["exercises"][0]["name"] = json!([S])
        }),
        ("unknown top-level field name", V2Flat, |v| v[S] = json!(S)),
        ("unknown block field name", V2Flat, |v| {
            v["blocks"][1][S] = json!(1)
        }),
        ("unknown exercise field name", V2Flat, |v| {
            v["exercises"][0][S] = Value::Null
        }),
        ("unknown v1 exercise field name", V1Current, |v| {
            v["blocks"][0]["exercises"][0][S] = json!(S)
        }),
        ("dotted unknown field name", V2Flat, |v| {
            v["exercises"][0][format!("{S}.name")] = json!(1)
        }),
        ("dotted unknown root field name", V2Flat, |v| {
            v[format!("{S}.focus")] = json!(1)
        }),
        ("bracketed unknown field name", V2Flat, |v| {
            v[format!("blocks[0].{S}")] = json!(1)
        }),
    ];
    for (what, version, edit) in edits {
        let v = edited(version, edit);
        let err = run(&v.to_string(), version, 1).expect_err(what);
        let shown = format!(
            "{:?} {} {} {err}",
            err.code,
            err.path.as_deref().unwrap_or(""),
            err.detail
        );
        assert!(!shown.contains(S), "{what}: {shown}");
    }
    let mut v: Value = serde_json::from_str(&read("plans/worked-example.v2.json")).unwrap();
    v["exercises"][0]["name"] = json!(12345678);
    let err = run(&v.to_string(), V2Flat, 1).unwrap_err();
    assert!(!err.detail.contains("12345678"), "{err}");
}

#[test]
fn a_key_given_twice_is_named_by_its_path() {
    let v2 = read("plans/worked-example.v2.json");
    let v1 = read("plans/worked-example.v1.json");
    let cases = [
        (
            v2.replacen(
                "\"focus\": \"Upper",
                "\"focus\": \"A\", \"focus\": \"Upper",
                1,
            ),
            V2Flat,
            "focus",
        ),
        (
            v2.replacen(
                "\"name\": \"Jumping",
                "\"name\": \"A\", \"name\": \"Jumping",
                1,
            ),
            V2Flat,
            "exercises[0].name",
        ),
        (
            v2.replacen(
                "\"title\": \"Main",
                "\"title\": \"A\", \"title\": \"Main",
                1,
            ),
            V2Flat,
            "blocks[1].title",
        ),
        (
            v1.replacen(
                "\"detail\": \"Controlled",
                "\"detail\": null, \"detail\": \"Controlled",
                1,
            ),
            V1Current,
            "blocks[1].exercises[0].detail",
        ),
    ];
    for (text, version, path) in cases {
        assert_ne!(
            &text,
            if version == V2Flat { &v2 } else { &v1 },
            "{path}: edit applied"
        );
        let err = run(&text, version, 1).unwrap_err();
        assert_eq!(
            (err.code, err.path.as_deref()),
            (OutputErrorCode::SchemaViolation, Some(path)),
            "{err}"
        );
        assert_eq!(err.detail, "field given twice");
    }
}

/// Plans the spec allows that an earlier, stricter validation rejected, or that spell numbers the
/// way JSON Schema (and models) may: both the schema files and the transformer accept them.
/// A valid edit: its name, the schema, the edit, and a check of the resulting plan.
type Variant = (
    &'static str,
    SchemaVersion,
    fn(&mut Value),
    fn(&TodayPlan) -> bool,
);

fn valid_variants() -> Vec<Variant> {
    vec![
        (
            "integral float duration",
            V2Flat,
            |v| v["durationMinutes"] = json!(30.0),
            |p| p.duration_minutes == 30,
        ),
        (
            "exponent duration",
            V1Current,
            |v| v["blocks"][0]["durationMinutes"] = json!(5e1),
            |p| p.blocks[0].duration_minutes == 50,
        ),
        (
            "a session of more than a day",
            V2Flat,
            |v| v["durationMinutes"] = json!(1500),
            |p| p.duration_minutes == 1500,
        ),
        (
            "the largest duration",
            V2Flat,
            |v| v["blocks"][1]["durationMinutes"] = json!(u32::MAX),
            |p| p.blocks[1].duration_minutes == u32::MAX,
        ),
        (
            "integral float blockIndex and order",
            V2Flat,
            |v| {
                v["exercises"][1]["blockIndex"] = json!(1.0);
                v["exercises"][1]["order"] = json!(4.0);
            },
            |p| p.blocks[1].exercises[0].name == "DB Press",
        ),
        (
            "orders past u64 still sort",
            V2Flat,
            |v| {
                v["exercises"][0]["order"] = json!(1e300);
                v["exercises"][1]["order"] = json!(u64::MAX);
                v["exercises"][1]["blockIndex"] = json!(0);
            },
            |p| {
                let names: Vec<_> = p.blocks[0]
                    .exercises
                    .iter()
                    .map(|e| e.name.as_str())
                    .collect();
                names == ["DB Press", "Jumping Jacks"]
            },
        ),
        (
            "long strings",
            V1Current,
            |v| {
                v["blocks"][0]["title"] = json!("T".repeat(90));
                v["summary"] = json!("s".repeat(5000));
                v["equipment"] = json!(["e".repeat(200)]);
                v["blocks"][1]["exercises"][0]["detail"] = json!("d".repeat(1000));
            },
            |p| p.blocks[0].title.len() == 90 && p.summary.len() == 5000,
        ),
    ]
}

#[test]
fn spec_valid_plans_are_accepted_by_transformer_and_schemas() {
    for (name, version, edit, check) in valid_variants() {
        let v = edited(version, edit);
        let errors: Vec<String> = validator(version.schema_json())
            .iter_errors(&v)
            .map(|e| e.to_string())
            .collect();
        assert!(errors.is_empty(), "{name}: schema says {errors:?}");
        let plan = run(&v.to_string(), version, 1).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(check(&plan), "{name}: {plan:?}");
    }
}

#[test]
fn the_json_schemas_agree_with_the_transformer() {
    for c in cases() {
        let schema = validator(c.schema.schema_json());
        let v = edited(c.schema, c.edit);
        assert_eq!(
            !schema.is_valid(&v),
            c.schema_rejects,
            "{}: JSON Schema verdict",
            c.name
        );
    }
    let canonical = validator(TODAY_PLAN_SCHEMA);
    for name in PAIRS {
        for (suffix, version) in [("v2", V2Flat), ("v1", V1Current)] {
            let input: Value =
                serde_json::from_str(&read(&format!("plans/{name}.{suffix}.json"))).unwrap();
            let schema = validator(version.schema_json());
            let errors: Vec<String> = schema.iter_errors(&input).map(|e| e.to_string()).collect();
            assert!(errors.is_empty(), "{name}.{suffix}: {errors:?}");
            let plan = run(&input.to_string(), version, 1).unwrap();
            assert!(
                canonical.is_valid(&serde_json::to_value(&plan).unwrap()),
                "{name}: output fits today-plan.json"
            );
        }
    }
    // The canonical schema is as strict as the plan type: at least one block, minutes >= 1.
    let plan = serde_json::to_value(run(&read("plans/worked-example.v2.json"), V2Flat, 1).unwrap())
        .unwrap();
    for (what, edit) in [
        (
            "no blocks",
            (|p: &mut Value| p["blocks"] = serde_json::json!([])) as fn(&mut Value),
        ),
        ("a block of 0 minutes", |p: &mut Value| {
            p["blocks"][0]["durationMinutes"] = 0.into()
        }),
        ("a plan of 0 minutes", |p: &mut Value| {
            p["durationMinutes"] = 0.into()
        }),
    ] {
        let mut broken = plan.clone();
        edit(&mut broken);
        assert!(
            !canonical.is_valid(&broken),
            "today-plan.json accepts {what}"
        );
    }
}

#[test]
fn text_without_usable_json_is_invalid_json() {
    for text in [
        "I'm sorry, I can't make a plan today.",
        "",
        "{\"focus\": \"Upper\", \"durationMinutes\": 30, \"equipment\": [",
        "{focus: 'single quotes'}",
        "<think>let me think about {\"focus\": \"x\"}",
    ] {
        let err = run(text, V2Flat, 1).unwrap_err();
        assert_eq!(
            (err.code, err.path.as_deref()),
            (OutputErrorCode::InvalidJson, None),
            "{text:?}: {err}"
        );
    }
    let cut = &read("plans/worked-example.v2.json")[..300];
    let err = run(cut, V2Flat, 1).unwrap_err();
    assert_eq!(err.code, OutputErrorCode::InvalidJson);
    assert!(err.detail.contains("truncated"), "{}", err.detail);
}

/// Several JSON objects in one text: the first valid plan wins (asides and repeated templates
/// are passed over), and when there is none the error is the plan's, not an aside's.
#[test]
fn the_plan_is_told_apart_from_other_json_in_the_text() {
    let raw = read("plans/worked-example.v2.json");
    let want = run(&raw, V2Flat, 1).unwrap();
    let broken = serde_json::to_string(&edited(V2Flat, |v| {
        v["exercises"][1]["blockIndex"] = 5.into()
    }))
    .unwrap();
    let at = |code, path: &str| (code, Some(path.to_string()));
    // A note before a broken plan: the plan's own error, not the note's.
    let err = run(
        &format!("Settings: {{\"units\":\"metric\"}}. Plan: {broken}"),
        V2Flat,
        1,
    )
    .unwrap_err();
    assert_eq!(
        (err.code, err.path),
        at(
            OutputErrorCode::BlockIndexOutOfRange,
            "exercises[1].blockIndex"
        )
    );
    // A repeated template or schema before the plan is passed over.
    for before in [
        "Format: {\"blocks\": [...], \"exercises\": [...]}",
        "Schema: {\"required\": [\"blocks\", \"exercises\"]}",
    ] {
        assert_eq!(
            run(&format!("{before}\n{raw}"), V2Flat, 1).unwrap(),
            want,
            "{before}"
        );
    }
    // Wrapper tags inside the plan's own text are plan text, not wrappers.
    let tagged = raw.replace(
        "Sample plan",
        "Skip the </think> part; <response> is a word here",
    );
    assert_ne!(tagged, raw, "the fixture changed");
    for text in [
        tagged.clone(),
        format!("```json\n{tagged}\n```"),
        format!("<think>fine</think><response>{tagged}</response>"),
    ] {
        let plan = run(&text, V2Flat, 1).unwrap();
        assert!(plan.summary.contains("</think>"), "{text}");
    }
    // A broken plan the model then corrects: the corrected (valid) plan is the answer. Nothing of
    // the broken one is kept or repaired.
    assert_eq!(
        run(&format!("{broken}\nSorry, corrected:\n{raw}"), V2Flat, 1).unwrap(),
        want
    );
    // A stray `}` after the first block cuts the plan short: invalid JSON, not a later block
    // object read as a plan.
    let stray = raw.replacen("\"focus\": \"Prep\" }", "\"focus\": \"Prep\" }}", 1);
    assert_ne!(
        stray, raw,
        "the fixture changed: place the stray brace elsewhere"
    );
    let err = run(&stray, V2Flat, 1).unwrap_err();
    assert_eq!(
        (err.code, err.path),
        (OutputErrorCode::InvalidJson, None),
        "{}",
        err.detail
    );
    // The same for v1, whose blocks hold `exercises` themselves.
    let v1 = read("plans/worked-example.v1.json");
    let stray = v1.replacen("\"detail\": null }", "\"detail\": null }}", 1);
    assert_ne!(
        stray, v1,
        "the fixture changed: place the stray brace elsewhere"
    );
    let err = run(&format!("Note {{\"tip\": 1}} then {stray}"), V1Current, 1).unwrap_err();
    assert_eq!(err.code, OutputErrorCode::InvalidJson, "{}", err.detail);
}

#[test]
fn schema_depths_by_the_spec_definition() {
    let depth = |s: &str| schema_depth(&serde_json::from_str(s).unwrap());
    assert!(depth(V2Flat.schema_json()) <= 3);
    assert_eq!(depth(V2Flat.schema_json()), 3);
    assert_eq!(depth(V1Current.schema_json()), 5);
}

#[test]
fn schema_template_enums_match_the_ruleset() {
    let names: Vec<String> = Ruleset::embedded()
        .block_templates
        .keys()
        .cloned()
        .collect();
    for v in [V2Flat, V1Current] {
        let s: Value = serde_json::from_str(v.schema_json()).unwrap();
        let mut listed: Vec<String> = serde_json::from_value(
            s["properties"]["blocks"]["items"]["anyOf"][1]["properties"]["blockTemplate"]["enum"]
                .clone(),
        )
        .unwrap();
        listed.sort();
        assert_eq!(listed, names, "{}", v.as_str());
    }
}

/// A small deterministic generator for random plans.
struct Lcg(u64);
impl Lcg {
    fn next(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

/// The same random plan as v2-flat (exercises shuffled, sparse orders) and v1-current.
fn random_pair(rng: &mut Lcg) -> (Value, Value) {
    const WORDS: [&str; 8] = [
        "Squat",
        "Press \"heavy\"",
        "Row",
        "Lunge ünïcode",
        "Curl\\Back",
        "Plank\nhold",
        "Carry",
        "Dip 💪",
    ];
    let word = |rng: &mut Lcg| WORDS[rng.next(WORDS.len() as u64) as usize].to_string();
    let n_blocks = 1 + rng.next(6) as usize;
    let blocks: Vec<Value> = (0..n_blocks)
        .map(|i| json!({"title": format!("Block {i}"), "durationMinutes": 1 + rng.next(60), "focus": word(rng)}))
        .collect();
    let n_ex = 1 + rng.next(40) as usize;
    let mut per_block: Vec<Vec<(u64, Value)>> = vec![Vec::new(); n_blocks];
    let mut next_order = vec![0u64; n_blocks];
    for _ in 0..n_ex {
        let b = rng.next(n_blocks as u64) as usize;
        next_order[b] += 1 + rng.next(5);
        let detail = if rng.next(2) == 0 {
            Value::Null
        } else {
            json!(word(rng))
        };
        per_block[b].push((next_order[b], json!({"name": word(rng), "prescription": format!("{} x {}", 1 + rng.next(5), 1 + rng.next(20)), "detail": detail})));
    }
    let mut flat = Vec::new();
    for (b, list) in per_block.iter().enumerate() {
        for (order, e) in list {
            let mut e = e.clone();
            e["blockIndex"] = json!(b);
            e["order"] = json!(order);
            flat.push(e);
        }
    }
    for i in (1..flat.len()).rev() {
        flat.swap(i, rng.next(i as u64 + 1) as usize);
    }
    let source = ["ai", "manual"][rng.next(2) as usize];
    let energy = ["easy", "moderate", "intense"][rng.next(3) as usize];
    let header = json!({"focus": word(rng), "durationMinutes": 1 + rng.next(120), "equipment": [word(rng)],
                        "source": source, "energy": energy, "summary": word(rng)});
    let mut v2 = header.clone();
    v2["blocks"] = json!(blocks);
    v2["exercises"] = json!(flat);
    let mut v1 = header;
    v1["blocks"] = json!(blocks
        .iter()
        .zip(&per_block)
        .map(|(b, list)| {
            let mut b = b.clone();
            b["exercises"] = json!(list.iter().map(|(_, e)| e.clone()).collect::<Vec<_>>());
            b
        })
        .collect::<Vec<_>>());
    (v2, v1)
}

#[test]
fn random_plans_agree_across_schemas() {
    let mut rng = Lcg(2026);
    for i in 0..300 {
        let (v2, v1) = random_pair(&mut rng);
        let flat =
            run(&v2.to_string(), V2Flat, i).unwrap_or_else(|e| panic!("plan {i}: {e}\n{v2}"));
        let nested =
            run(&v1.to_string(), V1Current, i).unwrap_or_else(|e| panic!("plan {i}: {e}\n{v1}"));
        assert_eq!(flat, nested, "plan {i}");
    }
}
