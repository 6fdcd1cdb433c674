//! What the model reads (pure): the user prompt with the exercise as compact JSON, the tools'
//! results, the tool-result message, and the JSON Schema of each step narrowed to what it offers.
//! Numbers print without noise (`135`, `137.5`) in the prompt and in the checks' messages.

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::{HISTORY_TOOL, RECENT_TOOL, STEP_SCHEMA};
use crate::kernel::prompts::SUGGESTIONS_USER as USER_TEMPLATE;
use crate::suggest::model::{
    ChangeValue, ExerciseContext, ExerciseHistory, ExercisePerformance, PerformedSet, RepRange,
    RepRangeMode, RestMode, SetPrescription, SetType, SuggestionDraft,
};

const DAY_MS: i64 = 86_400_000;

/// The tool result message, with what may come next.
pub(super) fn tool_message(result: &str, used: Offer, tool_calls: u32, max_steps: u32) -> String {
    let next = if (used.history && used.recent) || tool_calls >= max_steps {
        "Now give the final answer."
    } else {
        "Call the other tool or give the final answer."
    };
    format!("{result}\n{next}")
}

/// Which tools a step offers (the final answer is always offered).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Offer {
    /// `getExerciseHistoryContext` may be called.
    pub(super) history: bool,
    /// `getRecentExercisePerformances` may be called.
    pub(super) recent: bool,
}

/// The schema's three alternatives as text (history call, recent call, final answer), cut from
/// the file without re-serialising: llama.cpp orders an object's keys as the schema lists them.
pub(super) fn alternatives() -> &'static [String; 3] {
    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct File<'a> {
        #[serde(borrow)]
        any_of: Vec<&'a serde_json::value::RawValue>,
    }
    static ALTS: OnceLock<[String; 3]> = OnceLock::new();
    ALTS.get_or_init(|| {
        let file: File<'static> = serde_json::from_str(STEP_SCHEMA).expect("step schema anyOf");
        let find = |pred: &dyn Fn(&Value) -> bool| {
            file.any_of
                .iter()
                .find(|raw| {
                    let v: Value = serde_json::from_str(raw.get()).unwrap_or(Value::Null);
                    pred(&v["properties"])
                })
                .map(|raw| raw.get().to_string())
                .expect("step schema alternative")
        };
        [
            find(&|p| p["tool"]["const"] == HISTORY_TOOL),
            find(&|p| p["tool"]["const"] == RECENT_TOOL),
            find(&|p| p.get("suggestions").is_some()),
        ]
    })
}

/// The schema of a step offering `offer`'s tools and the final answer (the final answer's object
/// alone when no tool is offered).
pub(super) fn step_schema(offer: Offer) -> String {
    let [history, recent, final_answer] = alternatives();
    let mut any_of: Vec<&str> = Vec::new();
    if offer.history {
        any_of.push(history);
    }
    if offer.recent {
        any_of.push(recent);
    }
    if any_of.is_empty() {
        return final_answer.clone();
    }
    any_of.push(final_answer);
    format!("{{\"anyOf\":[{}]}}", any_of.join(","))
}

/// A number for messages: `135`, `137.5`.
pub(super) fn fmt(x: f64) -> String {
    let r = (x * 1000.0).round() / 1000.0;
    if r.fract() == 0.0 && r.abs() < 1e15 {
        format!("{}", r as i64)
    } else {
        format!("{r}")
    }
}

/// A number for the prompt's JSON: whole numbers without `.0`.
pub(super) fn num(x: f64) -> Value {
    let r = (x * 1000.0).round() / 1000.0;
    if r.fract() == 0.0 && r.abs() < 1e15 {
        json!(r as i64)
    } else {
        json!(r)
    }
}

/// Serde's camelCase spelling of a unit-like enum value.
pub(super) fn spelled<T: Serialize>(v: &T) -> Value {
    serde_json::to_value(v).unwrap_or(Value::Null)
}

// The prompt's JSON is built from structs so that keys keep a readable order (a set's index first)
// whatever features `serde_json` is built with; `Option`s left out are omitted.

#[derive(Serialize)]
struct ExerciseJson<'a> {
    name: &'a str,
    equipment: Value,
    muscles: Vec<Value>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PrescriptionJson {
    rep_range: Value,
    rest_seconds: Value,
    sets: Vec<String>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PerformanceJson {
    days_ago: i64,
    sets: Vec<String>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct HistoryJson {
    sessions: u32,
    typical_reps: Value,
    best_e1rm: Value,
    last_e1rm: Value,
    trend: Value,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct RuleJson {
    change_type: Value,
    target_set_index: i64,
    new_value: Value,
}

fn to_json<T: Serialize>(v: &T) -> String {
    serde_json::to_string(v).unwrap_or_default()
}

/// The user prompt: [`USER_TEMPLATE`] with the exercise as compact JSON.
pub fn user_prompt(ctx: &ExerciseContext, rule_drafts: &[SuggestionDraft]) -> String {
    let exercise = ExerciseJson {
        name: &ctx.exercise.name,
        equipment: spelled(&ctx.exercise.equipment),
        muscles: ctx.exercise.target_muscles.iter().map(spelled).collect(),
    };
    let now = ctx.current.performed_at_ms;
    let previous: Vec<PerformanceJson> = ctx
        .previous
        .iter()
        .take(3)
        .map(|p| performance_json(p, now))
        .collect();
    let rules: Vec<RuleJson> = rule_drafts.iter().map(rule_json).collect();
    USER_TEMPLATE
        .trim_end()
        .replace("{{exercise}}", &to_json(&exercise))
        .replace("{{unit}}", ctx.plan.unit.symbol())
        .replace("{{prescription}}", &to_json(&prescription_json(ctx)))
        .replace(
            "{{current}}",
            &to_json(&performance_json(&ctx.current, now)),
        )
        .replace(
            "{{previous}}",
            &if previous.is_empty() {
                "none".to_string()
            } else {
                to_json(&previous)
            },
        )
        .replace(
            "{{rules}}",
            &if rules.is_empty() {
                "nothing".to_string()
            } else {
                to_json(&rules)
            },
        )
}

fn rep_range_json(r: &RepRange) -> Value {
    match r.mode {
        RepRangeMode::Range => json!(format!("{}-{}", r.lower, r.upper)),
        RepRangeMode::Target => json!(r.target),
        RepRangeMode::NotSet => json!("not set"),
    }
}

/// One set as `"1: 135x10"` (index: weight x reps), then its type when not regular, the rest
/// (`rest 90s`) and `not done`, when given. A third of the tokens of a JSON object.
fn set_text(
    index: u32,
    set_type: SetType,
    weight: f64,
    reps: u32,
    rest: Option<u32>,
    done: bool,
) -> String {
    let mut t = format!("{index}: {}x{reps}", fmt(weight));
    if set_type != SetType::Regular {
        t.push(' ');
        t.push_str(spelled(&set_type).as_str().unwrap_or_default());
    }
    if let Some(r) = rest {
        t.push_str(&format!(" rest {r}s"));
    }
    if !done {
        t.push_str(" not done");
    }
    t
}

/// The prescription: rep range (`"8-12"`, a target number, or `"not set"`), the exercise's rest
/// seconds (or `"per set"`, then each set shows its own), and the sets as [`set_text`].
fn prescription_json(ctx: &ExerciseContext) -> PrescriptionJson {
    let rx = &ctx.prescription;
    let per_set = rx.rest_mode == RestMode::PerSet;
    let mut sets: Vec<&SetPrescription> = rx.sets.iter().collect();
    sets.sort_by_key(|s| s.index);
    PrescriptionJson {
        rep_range: rep_range_json(&rx.rep_range),
        rest_seconds: if per_set {
            json!("per set")
        } else {
            json!(rx.rest_seconds)
        },
        sets: sets
            .into_iter()
            .map(|s| {
                let rest = per_set.then_some(s.rest_seconds);
                set_text(
                    s.index,
                    s.set_type,
                    s.target_weight,
                    s.target_reps,
                    rest,
                    true,
                )
            })
            .collect(),
    }
}

/// A performance for the model: days before the current session and the sets as [`set_text`].
fn performance_json(p: &ExercisePerformance, current_ms: i64) -> PerformanceJson {
    let days = ((current_ms - p.performed_at_ms) as f64 / DAY_MS as f64).round() as i64;
    let mut sets: Vec<&PerformedSet> = p.sets.iter().collect();
    sets.sort_by_key(|s| s.index);
    PerformanceJson {
        days_ago: days.max(0),
        sets: sets
            .into_iter()
            .map(|s| {
                set_text(
                    s.index,
                    s.set_type,
                    s.weight,
                    s.reps,
                    s.rest_seconds,
                    s.completed,
                )
            })
            .collect(),
    }
}

fn history_json(h: &ExerciseHistory) -> String {
    let round1 = |x: f64| num((x * 10.0).round() / 10.0);
    to_json(&HistoryJson {
        sessions: h.session_count,
        typical_reps: json!({ "lower": h.typical_lower_reps, "upper": h.typical_upper_reps }),
        best_e1rm: round1(h.best_e1rm),
        last_e1rm: round1(h.last_e1rm),
        trend: spelled(&h.trend),
    })
}

/// A rule draft for the prompt.
fn rule_json(d: &SuggestionDraft) -> RuleJson {
    RuleJson {
        change_type: spelled(&d.change_type),
        target_set_index: d.target_set_index.map_or(-1, i64::from),
        new_value: match &d.new_value {
            ChangeValue::Number { value } => num(*value),
            ChangeValue::SetType { value } => spelled(value),
            ChangeValue::RepRange { value } => rep_range_json(value),
        },
    }
}

/// The history tool's result for the model: the cached summary as compact JSON, or
/// `"no history yet"`.
pub(super) fn history_result(history: Option<&ExerciseHistory>) -> String {
    let result = history.map_or_else(|| "\"no history yet\"".to_string(), history_json);
    format!("{HISTORY_TOOL} result: {result}")
}

/// The recent-performances tool's result for the model: how many sessions, then each as
/// [`performance_json`] (days before the session of `current_ms`), newest first.
pub(super) fn recent_result(perfs: &[ExercisePerformance], current_ms: i64) -> String {
    let list: Vec<PerformanceJson> = perfs
        .iter()
        .map(|p| performance_json(p, current_ms))
        .collect();
    format!(
        "{RECENT_TOOL} result ({} before this one, newest first): {}",
        match list.len() {
            1 => "1 session".to_string(),
            n => format!("{n} sessions"),
        },
        to_json(&list)
    )
}
