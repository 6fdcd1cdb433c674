//! Today-plan generation, the provider side of spec 000 (pure): the request record and its
//! bounds, the schema the model writes under (the selected version's schema with lengths and
//! counts bounded, so a small model cannot run on), and the user turn of the prompt.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::SchemaVersion;
use crate::assistant::date::Date;
use crate::assistant::grounding::today_label;
use crate::error::{Error, Result};

/// Most characters of [`TodayPlanRequest::notes`].
pub const MAX_NOTES_CHARS: usize = 4_000;

/// Most characters of [`TodayPlanRequest::timezone`].
pub const MAX_TIMEZONE_CHARS: usize = 64;

/// Most blocks and exercises the model may write (the generation schema's `maxItems`).
const MAX_BLOCKS: u64 = 6;
const MAX_EXERCISES: u64 = 16;
/// Longest free text field the model may write (characters), and the summary's.
const MAX_TEXT: u64 = 80;
const MAX_SUMMARY: u64 = 240;
/// Longest plan or block the model may write (minutes).
const MAX_MINUTES: u64 = 240;

/// What [`generateTodayPlan`](crate::Coach::generate_today_plan) is asked for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TodayPlanRequest {
    /// The day planned, `YYYY-MM-DD` (the user's local date).
    pub date: String,
    /// The user's goal and notes for the day, in their own words (at most 4000 characters):
    /// "45 minutes, upper body, dumbbells only, easy on the knees".
    pub notes: String,
    /// The LLM schema to ask for; `None` chooses as [`selectPlanSchema`] does with no
    /// preference (the version with the smallest estimated JSON size).
    ///
    /// [`selectPlanSchema`]: crate::Coach::select_plan_schema
    #[serde(default)]
    #[uniffi(default = None)]
    pub schema_version: Option<SchemaVersion>,
    /// The user's time zone (IANA name such as `Europe/Berlin`, at most 64 characters), told to
    /// the model as context.
    #[serde(default)]
    #[uniffi(default = None)]
    pub timezone: Option<String>,
    /// Makes the plan's ids reproducible.
    #[serde(default)]
    #[uniffi(default = None)]
    pub seed: Option<u64>,
}

fn invalid(path: &str, what: &str) -> Error {
    Error::InvalidArgument(format!("request.{path}: {what}"))
}

/// Checks the request's bounds (date, lengths); never quotes its text.
pub fn validate_request(r: &TodayPlanRequest) -> Result<()> {
    if Date::parse(&r.date).is_none() {
        return Err(invalid("date", "must be a date YYYY-MM-DD"));
    }
    if r.notes.chars().count() > MAX_NOTES_CHARS {
        return Err(invalid("notes", "at most 4000 characters"));
    }
    if let Some(tz) = &r.timezone {
        if tz.chars().count() > MAX_TIMEZONE_CHARS || tz.chars().any(char::is_control) {
            return Err(invalid(
                "timezone",
                "at most 64 characters, no control characters",
            ));
        }
    }
    Ok(())
}

/// The schema the model writes under: `version`'s schema with every free string, array and
/// duration bounded. Anything valid under it is valid under `version`'s schema (it only narrows).
pub fn generation_schema(version: SchemaVersion) -> Value {
    // The embedded schemas are checked by tests; an unreadable one is a build defect.
    let mut schema: Value = serde_json::from_str(version.schema_json()).unwrap_or(Value::Null);
    bound(&mut schema, "");
    schema
}

/// Narrows `node` (at property `name`) and everything below it.
fn bound(node: &mut Value, name: &str) {
    let Some(obj) = node.as_object_mut() else {
        if let Some(list) = node.as_array_mut() {
            list.iter_mut().for_each(|v| bound(v, name));
        }
        return;
    };
    let types: Vec<String> = match obj.get("type") {
        Some(Value::String(s)) => vec![s.clone()],
        Some(Value::Array(a)) => a
            .iter()
            .filter_map(|x| x.as_str().map(String::from))
            .collect(),
        _ => Vec::new(),
    };
    let is = |t: &str| types.iter().any(|x| x == t);
    if is("string") && !obj.contains_key("enum") {
        let max = if name == "summary" {
            MAX_SUMMARY
        } else {
            MAX_TEXT
        };
        obj.insert("maxLength".into(), max.into());
    }
    if is("array") {
        let max = match name {
            "blocks" => MAX_BLOCKS,
            "equipment" => 8,
            _ => MAX_EXERCISES,
        };
        obj.insert("maxItems".into(), max.into());
    }
    if is("integer") && name == "durationMinutes" {
        obj.insert("maximum".into(), MAX_MINUTES.into());
    }
    if is("integer") && matches!(name, "blockIndex" | "order") {
        obj.insert("maximum".into(), MAX_EXERCISES.into());
    }
    for key in ["items", "anyOf", "oneOf"] {
        if let Some(v) = obj.get_mut(key) {
            bound(v, name);
        }
    }
    if let Some(Value::Object(props)) = obj.get_mut("properties") {
        for (k, v) in props.iter_mut() {
            bound(v, k);
        }
    }
}

/// The user turn: the day, the time zone, the user's notes and the schema.
pub fn user_prompt(r: &TodayPlanRequest, schema: &Value) -> String {
    let day = Date::parse(&r.date).map_or_else(|| r.date.clone(), today_label);
    format!(
        "Date: {day}\nTime zone: {}\nThe user's goal and notes:\n{}\n\nJSON Schema of the answer:\n{schema}",
        r.timezone.as_deref().unwrap_or("not given"),
        if r.notes.trim().is_empty() {
            "(none: plan a balanced full-body session of about 45 minutes)"
        } else {
            r.notes.trim()
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request() -> TodayPlanRequest {
        TodayPlanRequest {
            date: "2025-08-18".into(),
            notes: "30 minutes, legs".into(),
            schema_version: None,
            timezone: None,
            seed: None,
        }
    }

    #[test]
    fn bounds_are_checked_without_quoting_the_text() {
        assert!(validate_request(&request()).is_ok());
        let bad = |f: &dyn Fn(&mut TodayPlanRequest)| {
            let mut r = request();
            f(&mut r);
            validate_request(&r).unwrap_err().to_string()
        };
        assert!(bad(&|r| r.date = "18.08.2025".into()).contains("request.date"));
        let e = bad(&|r| r.notes = "SECRET ".repeat(700));
        assert!(e.contains("request.notes") && !e.contains("SECRET"), "{e}");
        assert!(bad(&|r| r.timezone = Some("x".repeat(65))).contains("request.timezone"));
    }

    #[test]
    fn the_generation_schema_only_narrows_the_version_schema() {
        for v in SchemaVersion::ALL {
            let s = generation_schema(v);
            assert_eq!(s["properties"]["blocks"]["maxItems"], 6, "{v:?}");
            assert_eq!(s["properties"]["durationMinutes"]["maximum"], 240);
            assert_eq!(s["properties"]["summary"]["maxLength"], 240);
            assert_eq!(s["properties"]["focus"]["maxLength"], 80);
            assert!(
                s["properties"]["energy"].get("maxLength").is_none(),
                "enums stay as they are"
            );
            // The original keys are all still there.
            let original: Value = serde_json::from_str(v.schema_json()).unwrap();
            assert_eq!(s["required"], original["required"]);
        }
        let flat = generation_schema(SchemaVersion::V2Flat);
        let ex = &flat["properties"]["exercises"];
        assert_eq!(ex["maxItems"], 16);
        assert_eq!(ex["items"]["properties"]["detail"]["maxLength"], 80);
        assert_eq!(ex["items"]["properties"]["blockIndex"]["maximum"], 16);
    }

    #[test]
    fn the_user_turn_holds_the_day_the_notes_and_the_schema() {
        let s = generation_schema(SchemaVersion::V2Flat);
        let p = user_prompt(&request(), &s);
        assert!(
            p.starts_with("Date: 2025-08-18 (Monday)\nTime zone: not given\n"),
            "{p}"
        );
        assert!(p.contains("30 minutes, legs"));
        assert!(p.contains("\"maxItems\":6"));
    }
}
