//! The assistant's prompt builders (the templates are in [`crate::kernel::prompts`]): the proposal and
//! chat system prompts, the repair request listing the invalid operations as the model wrote them,
//! the summary request; and the lenient reading of a proposal answer (shared JSON extraction, a
//! bare array, a single operation without the `operations` wrapper). Pure: text in, text out.

use serde_json::Value;

use super::grounding::{cut_chars, Aliases};
use super::model::{ItemKind, OpCheck, PlannerOperation};
use super::summary;
use crate::kernel::prompts::{
    ASSISTANT_CHAT as CHAT_PROMPT, ASSISTANT_PROPOSE as PROPOSE_PROMPT,
    ASSISTANT_REPAIR as REPAIR_PROMPT,
};
use crate::llm::extract::{extract_json, parse_model_json};

/// The longest part of the first answer quoted back to the model in the repair pass.
pub const MAX_REPAIR_ANSWER_CHARS: usize = 1_500;

/// The JSON value of a proposal answer: the first JSON object (shared extraction), or a bare
/// array; a single operation object is wrapped into a list. `Err` with the parse error.
pub(crate) fn parse_proposal(text: &str) -> std::result::Result<Value, String> {
    let value = match parse_model_json::<Value>(text) {
        Ok(v) => v,
        Err(e) => match serde_json::from_str::<Value>(text.trim()) {
            Ok(v @ Value::Array(_)) => v,
            _ => return Err(format!("the answer holds no readable JSON: {}", e.detail)),
        },
    };
    Ok(match value {
        Value::Object(m)
            if !m.contains_key("operations")
                && (m.contains_key("op") || m.contains_key("kind")) =>
        {
            serde_json::json!({ "operations": [Value::Object(m)] })
        }
        v => v,
    })
}

/// The elements of the operation list in `value` (empty when there is none).
pub(crate) fn list_of(value: &Value) -> Vec<Value> {
    match value {
        Value::Array(a) => a.clone(),
        Value::Object(m) => match m.get("operations") {
            Some(Value::Array(a)) => a.clone(),
            _ => Vec::new(),
        },
        _ => Vec::new(),
    }
}

/// The first answer as it goes back into the chat for the repair: its JSON object when it has
/// one, else the text; at most [`MAX_REPAIR_ANSWER_CHARS`] characters.
pub(crate) fn answer_for_chat(text: &str) -> String {
    cut_chars(
        extract_json(text).unwrap_or(text.trim()),
        MAX_REPAIR_ANSWER_CHARS,
    )
}

/// The repair request: each invalid operation as the model wrote it, with its issue messages.
pub fn repair_message(invalid: &[OpCheck], raw: &[Value], aliases: &Aliases) -> String {
    let mut listing = String::new();
    for (n, c) in invalid.iter().enumerate() {
        let written = raw.get(c.index as usize).cloned().unwrap_or_else(|| {
            c.operation
                .as_ref()
                .map(|op| aliases.alias_op(op))
                .unwrap_or(Value::Null)
        });
        listing.push_str(&format!("{}. {}\n", n + 1, written));
        for e in &c.errors {
            match &e.field {
                Some(f) => listing.push_str(&format!("   - {f}: {}\n", e.message)),
                None => listing.push_str(&format!("   - {}\n", e.message)),
            }
        }
    }
    REPAIR_PROMPT
        .trim_end()
        .replace("{{invalid}}", listing.trim_end())
        .replace("{{count}}", &invalid.len().to_string())
}

/// The summary request: the user's message and the rule-based clause of every operation.
pub fn summary_request(
    message: &str,
    ops: &[PlannerOperation],
    invalid: usize,
    title_of: &dyn Fn(ItemKind, &str) -> Option<String>,
) -> String {
    let mut s = format!("Request: {message}\nProposed changes:\n");
    if ops.is_empty() {
        s.push_str("(none)\n");
    }
    for op in ops {
        s.push_str("- ");
        s.push_str(&summary::describe(op, title_of));
        s.push('\n');
    }
    match invalid {
        0 => {}
        1 => s.push_str("1 more proposed change was invalid and left out.\n"),
        n => s.push_str(&format!(
            "{n} more proposed changes were invalid and left out.\n"
        )),
    }
    s.push_str("Summary:");
    s
}

/// The proposal's system prompt.
pub fn propose_prompt(today: &str, context: &str, where_: &str) -> String {
    PROPOSE_PROMPT
        .trim_end()
        .replace("{{today}}", today)
        .replace("{{context}}", context)
        .replace("{{where}}", where_)
        .trim_end()
        .to_string()
}

/// The chat answer's system prompt.
pub fn chat_prompt(today: &str, context: &str) -> String {
    CHAT_PROMPT
        .trim_end()
        .replace("{{today}}", today)
        .replace("{{context}}", context)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assistant::grounding::{seeded_where, today_label, Aliases};
    use crate::assistant::model::{ClarifySelection, ItemKind, OpIssue, PlannerItem, Priority};
    use crate::kernel::date::Date;
    use serde_json::json;

    fn item(kind: ItemKind, id: &str, title: &str, date: Option<&str>) -> PlannerItem {
        PlannerItem::sample(kind, id, title, date)
    }

    #[test]
    fn seeded_where_and_prompts() {
        let mut aliases = Aliases::default();
        let mut milk = item(ItemKind::Todo, "uuid-milk", "Buy milk", Some("2026-11-19"));
        milk.priority = Priority::High;
        let sel = ClarifySelection {
            ids: vec!["uuid-milk".into()],
            date: Some("2026-11-21".into()),
            priority: Some(Priority::Low),
        };
        assert_eq!(
            seeded_where(&sel, &[milk], &mut aliases),
            "The user answered a question and chose: the items [t1] todo \"Buy milk\" 2026-11-19 high, \
             the date 2026-11-21, priority low. Apply the request to exactly these."
        );
        assert_eq!(
            seeded_where(&ClarifySelection::default(), &[], &mut aliases),
            ""
        );
        let p = propose_prompt("2026-11-18 (Wednesday)", "CTX", "");
        assert!(p.contains("Today is 2026-11-18 (Wednesday)."));
        assert!(p.ends_with("(ids in brackets):\nCTX"), "{p}");
        let c = chat_prompt("D", "CTX");
        assert!(c.ends_with("CTX") && !c.contains("{{"));
        assert_eq!(
            today_label(Date::parse("2026-11-22").unwrap()),
            "2026-11-22 (Sunday)"
        );
        let title_of = |_: ItemKind, _: &str| None;
        let r = summary_request("hi", &[], 2, &title_of);
        assert_eq!(
            r,
            "Request: hi\nProposed changes:\n(none)\n2 more proposed changes were invalid and left out.\nSummary:"
        );
    }

    #[test]
    fn proposals_are_parsed_leniently() {
        let ops = |t: &str| parse_proposal(t).map(|v| list_of(&v).len());
        assert_eq!(ops("{\"operations\":[{},{}]}"), Ok(2));
        assert_eq!(ops("Sure:\n```json\n{\"operations\":[]}\n```"), Ok(0));
        assert_eq!(ops("{\"op\":\"create\",\"kind\":\"todo\"}"), Ok(1));
        assert_eq!(ops("  [{\"op\":\"delete\"}] "), Ok(1));
        assert_eq!(ops("{\"something\": 1}"), Ok(0));
        let err = parse_proposal("no json").unwrap_err();
        assert!(err.contains("no JSON object found"), "{err}");
        assert!(parse_proposal("{\"operations\": [").is_err());
    }

    #[test]
    fn repair_message_lists_invalid_ops_as_written_with_reasons() {
        let raw = vec![
            json!({"op": "create"}),
            json!({"op": "delete", "kind": "todo", "id": "t7"}),
        ];
        let check = OpCheck {
            index: 1,
            operation: None,
            valid: false,
            errors: vec![
                OpIssue {
                    code: "unknown_id".into(),
                    field: Some("id".into()),
                    message: "no todo with this id".into(),
                },
                OpIssue {
                    code: "x".into(),
                    field: None,
                    message: "whole op".into(),
                },
            ],
            repairs: vec![],
        };
        let m = repair_message(&[check], &raw, &Aliases::default());
        assert!(
            m.starts_with("These proposed operations were invalid:\n1. {"),
            "{m}"
        );
        assert!(m.contains("\"id\":\"t7\""), "{m}");
        assert!(
            m.contains("   - id: no todo with this id\n   - whole op\n"),
            "{m}"
        );
        assert!(m.contains("these 1 operations"));
        assert!(!m.contains("{{"));
    }
}
