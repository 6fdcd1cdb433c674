//! The grammar of a request's JSON Schema: llama.cpp's json-schema-to-grammar output made compact
//! (no optional whitespace between JSON tokens, [`compact_json_grammar`]) and turned into the
//! grammar sampler of a call.

use llama_cpp_2::model::LlamaModel;
use llama_cpp_2::sampling::LlamaSampler;

use crate::llm::model::LlmError;

/// The whitespace rule llama.cpp's json-schema-to-grammar emits (this pinned version): nothing, a
/// space, or one or two newlines and indentation.
const GBNF_SPACE_RULE: &str = r#"space ::= | " " | "\n"{1,2} [ \t]{0,20}"#;

/// The same rule matching only the empty string: compact JSON.
const GBNF_COMPACT_SPACE_RULE: &str = r#"space ::= """#;

/// The grammar of `schema` for `model`, and whether it is compact (no optional whitespace).
pub(super) fn grammar_sampler(
    model: &LlamaModel,
    schema: &str,
) -> Result<(LlamaSampler, bool), LlmError> {
    let (gbnf, compact) = compact_json_grammar(schema)?;
    let sampler =
        LlamaSampler::grammar(model, &gbnf, "root").map_err(|e| LlmError::InvalidSchema {
            detail: format!("grammar rejected by llama.cpp: {e}"),
        })?;
    Ok((sampler, compact))
}

/// The GBNF grammar llama.cpp's json-schema-to-grammar makes of the JSON Schema text `schema`,
/// with its optional whitespace between JSON tokens removed (`space` matches only the empty
/// string: compact JSON), and whether that rewrite was made (false if this llama.cpp emits a
/// whitespace rule other than the one expected: the grammar is then returned as converted).
pub fn compact_json_grammar(schema: &str) -> Result<(String, bool), LlmError> {
    let invalid = |detail: String| LlmError::InvalidSchema { detail };
    let value: serde_json::Value =
        serde_json::from_str(schema).map_err(|e| invalid(format!("not JSON: {e}")))?;
    if !(value.is_object() || value.is_boolean()) {
        return Err(invalid("a JSON Schema is an object".into()));
    }
    let gbnf = llama_cpp_2::json_schema_to_grammar(schema)
        .map_err(|e| invalid(format!("llama.cpp could not convert it to a grammar ({e})")))?;
    let mut compact = false;
    let lines: Vec<&str> = gbnf
        .lines()
        .map(|line| {
            if line == GBNF_SPACE_RULE {
                compact = true;
                GBNF_COMPACT_SPACE_RULE
            } else {
                line
            }
        })
        .collect();
    if !compact {
        return Ok((gbnf, false));
    }
    let mut out = lines.join("\n");
    out.push('\n');
    Ok((out, true))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grammars_are_compact_json() {
        let schema = r#"{"type":"object","properties":{"a":{"type":"integer"}},"required":["a"]}"#;
        let original = llama_cpp_2::json_schema_to_grammar(schema).unwrap();
        eprintln!("{original}");
        assert!(original.lines().any(|l| l == GBNF_SPACE_RULE), "{original}");
        let (gbnf, compact) = compact_json_grammar(schema).unwrap();
        assert!(compact);
        assert!(gbnf.lines().any(|l| l == GBNF_COMPACT_SPACE_RULE), "{gbnf}");
        assert!(!gbnf.contains(GBNF_SPACE_RULE));
        // Only that rule changed.
        assert_eq!(gbnf.lines().count(), original.lines().count());
        assert!(matches!(
            compact_json_grammar("[1]"),
            Err(LlmError::InvalidSchema { .. })
        ));
    }
}
