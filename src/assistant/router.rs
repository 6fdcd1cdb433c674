//! The router of auto mode: its prompt, its JSON contract (`schemas/assistant-router.json`) and
//! the thresholds that turn the model's answer into the final decision. Pure.
//!
//! ## The decision rule
//! The model answers `{decision, category, entities, missing, confidence, question}`. Its
//! `confidence` is read as a number (a numeric string is accepted), then normalised: a value
//! above 1 and at most 100 is taken as a percentage (`85` is `0.85`), anything else is clamped
//! to `0..=1`, and a missing or unreadable number (NaN) is 0. Then, in this order:
//!
//! 1. `confidence < CLARIFY_THRESHOLD` (0.45): **clarify**, whatever the model decided; the
//!    library is not sure enough to act or to answer.
//! 2. The model said `clarify`: **clarify**.
//! 3. The model said `chat`: **chat** when `confidence >= CHAT_THRESHOLD` (0.70), else **plan**.
//!    A half-sure "chat" is planned rather than answered: a plan is only a preview the user
//!    confirms, while answering in text would silently ignore a request to change something.
//! 4. The model said `plan`: **plan**.
//!
//! So 0.44 clarifies everything, 0.45 is the first value that acts, and 0.69 plans a `chat`
//! decision that 0.70 answers as chat.
//!
//! A follow-up carrying a [`ClarifySelection`](super::model::ClarifySelection) skips the router
//! entirely (the service plans with the selection as a seeded `where`). When the router's reply
//! stays unreadable after its repairs (no JSON, an unknown `decision`), the service falls back to
//! plan without a [`Route`] and logs it.

use serde::Deserialize;
use serde_json::Value;

use super::model::{Route, RouteDecision};
use super::{CHAT_THRESHOLD, CLARIFY_THRESHOLD};
use crate::llm::structured::Issue;

/// The JSON Schema of the router's reply (`schemas/assistant-router.json`); sent with the request
/// so a grammar-capable engine constrains decoding to it.
pub const ROUTER_SCHEMA: &str = include_str!("../../schemas/assistant-router.json");
use crate::kernel::prompts::ASSISTANT_ROUTER as ROUTER_PROMPT;

/// The router's reply as parsed, before the thresholds. Lenient: every field may be absent and
/// unknown fields are ignored; [`check_reply`] says what is unusable.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub struct RouterReply {
    /// `plan`, `chat` or `clarify` (any case, surrounding spaces ignored).
    #[serde(default)]
    pub decision: Option<String>,
    /// A short category.
    #[serde(default)]
    pub category: Option<String>,
    /// Things the message mentions.
    #[serde(default)]
    pub entities: Vec<String>,
    /// What is missing to act.
    #[serde(default)]
    pub missing: Vec<String>,
    /// The confidence as the model wrote it (a number, or a string holding one).
    #[serde(default)]
    pub confidence: Value,
    /// A question for the user (clarify).
    #[serde(default)]
    pub question: Option<String>,
}

/// The router's system prompt for `today` (`YYYY-MM-DD`, weekday) and the rendered planner
/// context.
pub fn system_prompt(today: &str, context: &str) -> String {
    ROUTER_PROMPT
        .trim_end()
        .replace("{{today}}", today)
        .replace("{{context}}", context)
}

/// The model's decision word, if it is one of `plan`, `chat`, `clarify`.
pub fn parse_decision(word: &str) -> Option<RouteDecision> {
    match word.trim().to_ascii_lowercase().as_str() {
        "plan" => Some(RouteDecision::Plan),
        "chat" => Some(RouteDecision::Chat),
        "clarify" => Some(RouteDecision::Clarify),
        _ => None,
    }
}

/// The confidence as a number in `0..=1`: numbers and numeric strings are read, values in
/// `(1, 100]` are percentages, the rest is clamped; missing, unreadable or NaN is 0.
pub fn normalise_confidence(raw: &Value) -> f64 {
    let x = match raw {
        Value::Number(n) => n.as_f64().unwrap_or(0.0),
        Value::String(s) => s.trim().trim_end_matches('%').trim().parse().unwrap_or(0.0),
        _ => 0.0,
    };
    if x.is_nan() {
        0.0
    } else if x > 1.0 && x <= 100.0 {
        x / 100.0
    } else {
        x.clamp(0.0, 1.0)
    }
}

/// The final decision for the model's `decision` at `confidence` (already normalised): see the
/// module docs.
pub fn decide(model_decision: RouteDecision, confidence: f64) -> RouteDecision {
    let confidence = if confidence.is_nan() { 0.0 } else { confidence };
    if confidence < CLARIFY_THRESHOLD {
        return RouteDecision::Clarify;
    }
    match model_decision {
        RouteDecision::Clarify => RouteDecision::Clarify,
        RouteDecision::Chat if confidence >= CHAT_THRESHOLD => RouteDecision::Chat,
        RouteDecision::Chat | RouteDecision::Plan => RouteDecision::Plan,
    }
}

/// What makes a reply unusable (for the repair prompt): a missing or unknown `decision`.
/// A missing confidence is not an error (it reads as 0, which clarifies).
pub fn check_reply(reply: &RouterReply) -> Vec<Issue> {
    match reply.decision.as_deref().map(parse_decision) {
        Some(Some(_)) => Vec::new(),
        _ => vec![Issue {
            path: "decision".into(),
            message: "must be \"plan\", \"chat\" or \"clarify\"".into(),
        }],
    }
}

/// The [`Route`] of a reply, thresholds applied; `None` when its decision is unusable.
/// Entities and missing are trimmed, emptied ones dropped, at most 8 of each kept; the question is
/// trimmed (empty is `None`).
pub fn route(reply: &RouterReply) -> Option<Route> {
    let model_decision = parse_decision(reply.decision.as_deref()?)?;
    let confidence = normalise_confidence(&reply.confidence);
    let list = |v: &[String]| -> Vec<String> {
        v.iter()
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .take(8)
            .collect()
    };
    let category = reply
        .category
        .as_deref()
        .map(|c| c.trim().to_ascii_lowercase())
        .filter(|c| !c.is_empty())
        .unwrap_or_else(|| "other".into());
    Some(Route {
        decision: decide(model_decision, confidence),
        model_decision,
        category,
        entities: list(&reply.entities),
        missing: list(&reply.missing),
        confidence,
        question: reply
            .question
            .as_deref()
            .map(str::trim)
            .filter(|q| !q.is_empty())
            .map(str::to_string),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llm::extract::parse_model_json;
    use serde_json::json;
    use RouteDecision::{Chat, Clarify, Plan};

    #[test]
    fn thresholds_at_every_boundary_for_every_model_decision() {
        // (confidence, model says plan, model says chat, model says clarify)
        let table = [
            (0.0, Clarify, Clarify, Clarify),
            (0.44, Clarify, Clarify, Clarify),
            (0.449_999, Clarify, Clarify, Clarify),
            (0.45, Plan, Plan, Clarify),
            (0.5, Plan, Plan, Clarify),
            (0.69, Plan, Plan, Clarify),
            (0.699_999, Plan, Plan, Clarify),
            (0.70, Plan, Chat, Clarify),
            (0.9, Plan, Chat, Clarify),
            (1.0, Plan, Chat, Clarify),
        ];
        for (c, plan, chat, clarify) in table {
            assert_eq!(decide(Plan, c), plan, "plan at {c}");
            assert_eq!(decide(Chat, c), chat, "chat at {c}");
            assert_eq!(decide(Clarify, c), clarify, "clarify at {c}");
        }
        assert_eq!(decide(Chat, f64::NAN), Clarify);
        assert_eq!(CLARIFY_THRESHOLD, 0.45);
        assert_eq!(CHAT_THRESHOLD, 0.70);
    }

    #[test]
    fn confidence_is_normalised() {
        assert_eq!(normalise_confidence(&json!(0.7)), 0.7);
        assert_eq!(normalise_confidence(&json!(-0.2)), 0.0);
        assert_eq!(normalise_confidence(&json!(85)), 0.85);
        assert_eq!(normalise_confidence(&json!(100)), 1.0);
        assert_eq!(normalise_confidence(&json!(250)), 1.0);
        assert_eq!(normalise_confidence(&json!(1)), 1.0);
        assert_eq!(normalise_confidence(&json!("0.6")), 0.6);
        assert_eq!(normalise_confidence(&json!("70%")), 0.7);
        assert_eq!(normalise_confidence(&json!("high")), 0.0);
        assert_eq!(normalise_confidence(&Value::Null), 0.0);
        assert_eq!(normalise_confidence(&json!([0.9])), 0.0);
    }

    fn parsed(text: &str) -> RouterReply {
        parse_model_json(text).unwrap()
    }

    #[test]
    fn routes_from_replies_with_thresholds_applied() {
        let r = route(&parsed(
            r#"{"decision":"chat","category":"Question","entities":[" Friday ",""],
               "missing":[],"confidence":0.69,"question":""}"#,
        ))
        .unwrap();
        assert_eq!((r.model_decision, r.decision), (Chat, Plan));
        assert_eq!(r.category, "question");
        assert_eq!(r.entities, vec!["Friday"]);
        assert_eq!(r.question, None);

        let r = route(&parsed(
            r#"<think>hmm</think>```json
{"decision":" CHAT ","confidence":"0.7","extra":1}
```"#,
        ))
        .unwrap();
        assert_eq!((r.model_decision, r.decision), (Chat, Chat));
        assert_eq!(r.category, "other");

        let r = route(&parsed(
            r#"{"decision":"plan","confidence":0.44,"question":" Which one? "}"#,
        ))
        .unwrap();
        assert_eq!((r.model_decision, r.decision), (Plan, Clarify));
        assert_eq!(r.question.as_deref(), Some("Which one?"));

        let r = route(&parsed(r#"{"decision":"clarify","confidence":0.99}"#)).unwrap();
        assert_eq!(r.decision, Clarify);
        let r = route(&parsed(r#"{"decision":"plan"}"#)).unwrap();
        assert_eq!((r.confidence, r.decision), (0.0, Clarify));
    }

    #[test]
    fn unusable_decisions_are_reported_for_repair() {
        for text in [r#"{"decision":"maybe"}"#, r#"{"confidence":0.9}"#] {
            let reply = parsed(text);
            assert_eq!(route(&reply), None);
            let issues = check_reply(&reply);
            assert_eq!(issues.len(), 1);
            assert_eq!(issues[0].path, "decision");
        }
        assert!(check_reply(&parsed(r#"{"decision":"Plan"}"#)).is_empty());
    }

    #[test]
    fn prompt_and_schema() {
        let p = system_prompt("2026-11-21 (Saturday)", "Backlog: none");
        assert!(p.contains("Today is 2026-11-21 (Saturday)."));
        assert!(p.ends_with("Backlog: none"));
        assert!(!p.contains("{{"));
        let schema: Value = serde_json::from_str(ROUTER_SCHEMA).unwrap();
        assert_eq!(
            schema["properties"]["decision"]["enum"],
            json!(["plan", "chat", "clarify"])
        );
    }
}
