//! Jump-forward decoding support: the text a JSON Schema grammar forces next.
//!
//! The llama engine turns a request's JSON Schema into a GBNF grammar with llama.cpp's
//! json-schema-to-grammar, with its optional whitespace removed (compact JSON). Much of
//! schema-shaped output is then fixed by the grammar: after `{` of an object whose first property
//! is required comes `"firstKey":`; after a value comes `,"nextKey":` or `}`; a partial enum value
//! with one completion must end with the rest of it and its quote. [`JumpPredictor`] computes that
//! text from the schema and the text generated so far, so the engine can append it without
//! sampling and decode it as one batch (jump-forward decoding, as SGLang does).
//!
//! The predictor mirrors how llama.cpp (the version pinned in Cargo.toml) builds the grammar:
//! required properties first, in `properties` order, then the optional ones in `properties` order,
//! each optional one allowed only after the ones before it; `anyOf`/`oneOf` and `type` arrays as
//! alternatives; `const` and `enum` values as their compact JSON text; strings of bounded length;
//! integers within `minimum`/`maximum`; numbers, booleans, null; arrays with `minItems`/`maxItems`
//! and tuples; strings with a `pattern` (`pattern.rs`: anchored regular expressions as llama.cpp
//! turns them into grammar, e.g. `HH:MM` times, `YYYY-MM-DD` dates, a choice of words). It must
//! never force text the grammar would not force: it tracks every reading of the text so far that
//! the grammar might allow (a superset of it) and forces a character only when all of them allow
//! that one character and nothing else. What it does not model (`$ref`, `allOf`, patterns
//! llama.cpp cannot turn into grammar or that are too large, string formats, untyped values,
//! additional properties, objects and floats in `const`/`enum`) it treats as unknown: no forced
//! text from there on. Being conservative is always correct: the engine checks every forced token
//! against the grammar anyway.
//!
//! Pure: no llama types, compiled without the `llama` feature too. This file owns the public API
//! ([`JumpPredictor`], [`Forced`], [`forced_text`]); the schema compiler is in `compile` (its
//! patterns in `pattern`), the matching of text against the compiled schema in `step`.

use compile::{Compiled, Json, MAX_STATES};
use step::{Next, State, Task};

mod compile;
pub(crate) mod pattern;
mod step;

/// What the grammar forces after the text generated so far.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Forced {
    /// The text every grammar-valid continuation starts with (possibly empty).
    pub text: String,
    /// True when, after `text`, the document is complete: the grammar allows nothing but the end.
    pub complete: bool,
}

/// Tracks generated text against a JSON Schema and tells what text is forced next.
///
/// Feed it the generated text with [`push`](Self::push) (whole characters, in order), ask
/// [`forced`](Self::forced). Once the text leaves what it models it is [`lost`](Self::is_lost) and
/// forces nothing more.
#[derive(Debug, Clone)]
pub struct JumpPredictor {
    schema: Compiled,
    states: Vec<State>,
    lost: bool,
}

impl JumpPredictor {
    /// A predictor for the JSON Schema text `schema`, at the start of the output. `None` when the
    /// text is not JSON.
    pub fn new(schema: &str) -> Option<JumpPredictor> {
        let value: Json = serde_json::from_str(schema).ok()?;
        let mut compiled = Compiled::default();
        for lit in ["[", "]", "{", "}", ",", "\""] {
            compiled.lits.push(lit.into());
        }
        let root = compiled.compile(&value, 0);
        let mut predictor = JumpPredictor {
            schema: compiled,
            states: Vec::new(),
            lost: false,
        };
        let mut out = Vec::new();
        predictor.schema.close(vec![Task::Value(root)], &mut out, 0);
        predictor.set_states(out);
        Some(predictor)
    }

    /// True when the text so far left what the predictor models: it forces nothing any more.
    pub fn is_lost(&self) -> bool {
        self.lost
    }

    /// Advances over generated `text`.
    pub fn push(&mut self, text: &str) {
        for c in text.chars() {
            if self.lost {
                return;
            }
            let next = self.schema.advance(&self.states, c);
            self.set_states(next);
        }
    }

    /// The text forced next, at most `max_chars` characters of it (`complete` is only set when
    /// the whole forced text fits).
    pub fn forced(&self, max_chars: usize) -> Forced {
        let mut forced = Forced::default();
        if self.lost {
            return forced;
        }
        let mut states = std::borrow::Cow::Borrowed(&self.states);
        let mut n = 0;
        loop {
            match self.schema.next_char(&states) {
                Next::One(c) if n < max_chars => {
                    forced.text.push(c);
                    n += 1;
                    let next = self.schema.advance(&states, c);
                    if next.is_empty() || next.len() > MAX_STATES {
                        return forced;
                    }
                    states = std::borrow::Cow::Owned(next);
                }
                Next::End => {
                    forced.complete = true;
                    return forced;
                }
                _ => return forced,
            }
        }
    }

    fn set_states(&mut self, states: Vec<State>) {
        // Text that went into an unknown part (or off the schema) cannot be followed: the
        // predictor gives up for the rest of the output.
        if states.is_empty() || states.len() > MAX_STATES {
            self.lost = true;
        }
        self.states = states;
    }
}

/// The text a grammar built from `schema` forces after `generated` (convenience for one-off
/// questions; the engine keeps a [`JumpPredictor`] and feeds it as it goes). Nothing is forced for
/// a schema that is not JSON.
pub fn forced_text(schema: &str, generated: &str) -> Forced {
    match JumpPredictor::new(schema) {
        Some(mut p) => {
            p.push(generated);
            p.forced(usize::MAX)
        }
        None => Forced::default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn forced(schema: &str, generated: &str) -> String {
        forced_text(schema, generated).text
    }

    fn schema_file(name: &str) -> String {
        std::fs::read_to_string(format!("{}/schemas/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
    }

    const CHANGE: &str = r#"{
      "type": "object",
      "properties": {
        "change": {"type": "string", "enum": ["weight", "reps", "rest"]},
        "setIndex": {"type": "integer"},
        "value": {"type": "number"},
        "reasoning": {"type": "string", "maxLength": 5}
      },
      "required": ["change", "setIndex", "value", "reasoning"],
      "additionalProperties": false
    }"#;

    #[test]
    fn object_keys_and_punctuation_are_forced() {
        assert_eq!(forced(CHANGE, ""), "{\"change\":\"");
        assert_eq!(forced(CHANGE, "{"), "\"change\":\"");
        assert_eq!(forced(CHANGE, "{\"change\":\"r"), "e");
        assert_eq!(forced(CHANGE, "{\"change\":\"re"), "");
        assert_eq!(forced(CHANGE, "{\"change\":\"rep"), "s\",\"setIndex\":");
        assert_eq!(forced(CHANGE, "{\"change\":\"w"), "eight\",\"setIndex\":");
        // Integers and numbers end only when the model says so.
        assert_eq!(forced(CHANGE, "{\"change\":\"rest\",\"setIndex\":"), "");
        assert_eq!(forced(CHANGE, "{\"change\":\"rest\",\"setIndex\":1"), "");
        assert_eq!(
            forced(CHANGE, "{\"change\":\"rest\",\"setIndex\":0"),
            ",\"value\":"
        );
        assert_eq!(forced(CHANGE, "{\"change\":\"rest\",\"setIndex\":-"), "");
        assert_eq!(
            forced(CHANGE, "{\"change\":\"rest\",\"setIndex\":1,"),
            "\"value\":"
        );
        assert_eq!(
            forced(CHANGE, "{\"change\":\"rest\",\"setIndex\":1,\"value\":2.5,"),
            "\"reasoning\":\""
        );
        // A string at its maxLength must close, and the object with it.
        let at_max = "{\"change\":\"rest\",\"setIndex\":1,\"value\":2,\"reasoning\":\"abcde";
        assert_eq!(
            forced_text(CHANGE, at_max),
            Forced {
                text: "\"}".into(),
                complete: true
            }
        );
        // An escape counts as one character.
        let escaped =
            "{\"change\":\"rest\",\"setIndex\":1,\"value\":2,\"reasoning\":\"ab\\n\\u00e9d";
        assert_eq!(forced(CHANGE, escaped), "\"}");
        assert_eq!(forced(CHANGE, &escaped[..escaped.len() - 1]), "");
        // Shorter strings may go on.
        assert_eq!(forced(CHANGE, &at_max[..at_max.len() - 1]), "");
        // Complete: nothing but the end.
        let done = format!("{at_max}\"}}");
        assert_eq!(
            forced_text(CHANGE, &done),
            Forced {
                text: String::new(),
                complete: true
            }
        );
    }

    #[test]
    fn text_off_the_schema_forces_nothing() {
        let mut p = JumpPredictor::new(CHANGE).unwrap();
        p.push("{\"chang\"");
        assert!(p.is_lost());
        assert_eq!(p.forced(100), Forced::default());
        assert!(JumpPredictor::new("not json").is_none());
        assert_eq!(forced_text("not json", ""), Forced::default());
    }

    #[test]
    fn incremental_pushes_match_one_push() {
        let text = "{\"change\":\"weight\",\"setIndex\":12,\"value\":-1.5e+3,\"reasoning\":\"a\"}";
        let mut p = JumpPredictor::new(CHANGE).unwrap();
        for (i, c) in text.char_indices() {
            assert_eq!(
                p.forced(usize::MAX),
                forced_text(CHANGE, &text[..i]),
                "at {i}"
            );
            p.push(&c.to_string());
        }
        assert!(p.forced(0).complete);
        assert!(!p.is_lost());
    }

    #[test]
    fn forced_text_is_bounded_by_max_chars() {
        let p = JumpPredictor::new(CHANGE).unwrap();
        assert_eq!(
            p.forced(3),
            Forced {
                text: "{\"c".into(),
                complete: false
            }
        );
        assert_eq!(p.forced(0), Forced::default());
    }

    #[test]
    fn optional_properties_are_never_forced() {
        let schema = r#"{"type":"object","properties":{
            "a":{"type":"integer"},"b":{"type":"boolean"},"c":{"const":"x"}},
            "required":["c"],"additionalProperties":false}"#;
        // Required first, whatever the properties order.
        assert_eq!(forced(schema, ""), "{\"c\":\"x\"");
        // Then `}` or `,` and an optional one.
        assert_eq!(forced(schema, "{\"c\":\"x\""), "");
        assert_eq!(forced(schema, "{\"c\":\"x\","), "\"");
        assert_eq!(forced(schema, "{\"c\":\"x\",\"a"), "\":");
        // After `a`, only `b` may still come.
        assert_eq!(forced(schema, "{\"c\":\"x\",\"a\":3,"), "\"b\":");
        assert_eq!(forced(schema, "{\"c\":\"x\",\"a\":3,\"b\":t"), "rue}");
        // After `b`, nothing optional is left.
        assert_eq!(forced(schema, "{\"c\":\"x\",\"b\":false"), "}");
        // No required properties: `}` or any of them.
        let all_optional =
            r#"{"type":"object","properties":{"k1":{"type":"null"},"k2":{"type":"null"}}}"#;
        assert_eq!(forced(all_optional, ""), "{");
        assert_eq!(forced(all_optional, "{"), "");
        assert_eq!(forced(all_optional, "{\""), "k");
        assert_eq!(forced(all_optional, "{\"k2"), "\":null}");
        assert_eq!(forced(all_optional, "{\"k1\":null,"), "\"k2\":null}");
    }

    #[test]
    fn additional_properties_stop_prediction() {
        let schema = r#"{"type":"object","properties":{"a":{"type":"null"}},"required":["a"],"additionalProperties":true}"#;
        assert_eq!(forced(schema, ""), "{\"a\":null");
        assert_eq!(forced(schema, "{\"a\":null"), "");
        // A comma could start any key: nothing is followed after that.
        let mut p = JumpPredictor::new(schema).unwrap();
        p.push("{\"a\":null,\"");
        assert!(p.is_lost());
        // No additionalProperties and properties given: llama.cpp allows no other keys.
        let closed = r#"{"type":"object","properties":{"a":{"type":"null"}},"required":["a"]}"#;
        assert_eq!(
            forced_text(closed, ""),
            Forced {
                text: "{\"a\":null}".into(),
                complete: true
            }
        );
        // A bare object type is any object.
        assert_eq!(forced(r#"{"type":"object"}"#, ""), "");
    }

    #[test]
    fn arrays_follow_their_bounds() {
        let schema =
            r#"{"type":"array","items":{"type":"string","enum":["x"]},"minItems":1,"maxItems":2}"#;
        assert_eq!(forced(schema, ""), "[\"x\"");
        assert_eq!(forced(schema, "[\"x\""), "");
        assert_eq!(forced(schema, "[\"x\","), "\"x\"]");
        let exact = r#"{"type":"array","items":{"type":"boolean"},"minItems":2,"maxItems":2}"#;
        assert_eq!(forced(exact, "[true"), ",");
        assert_eq!(forced(exact, "[true,f"), "alse]");
        let empty = r#"{"type":"array","items":{"type":"integer"},"maxItems":0}"#;
        assert_eq!(
            forced_text(empty, ""),
            Forced {
                text: "[]".into(),
                complete: true
            }
        );
        let tuple = r#"{"type":"array","items":[{"const":1},{"type":"integer"},{"const":true}]}"#;
        assert_eq!(forced(tuple, ""), "[1,");
        assert_eq!(forced(tuple, "[1,7"), "");
        assert_eq!(forced(tuple, "[1,7,"), "true]");
        // Untyped items: nothing known.
        assert_eq!(forced(r#"{"type":"array"}"#, ""), "");
    }

    #[test]
    fn bounded_integers_end_when_no_digit_fits() {
        let schema = r#"{"type":"object","properties":{"n":{"type":"integer","minimum":-1,"maximum":19},"m":{"type":"null"}},"required":["n","m"],"additionalProperties":false}"#;
        assert_eq!(forced(schema, "{\"n\":1"), "");
        assert_eq!(forced(schema, "{\"n\":2"), ",\"m\":null}");
        assert_eq!(forced(schema, "{\"n\":19"), ",\"m\":null}");
        assert_eq!(forced(schema, "{\"n\":-1"), ",\"m\":null}");
        assert_eq!(forced(schema, "{\"n\":-"), "");
        let limit = r#"{"type":"integer","minimum":1,"maximum":5}"#;
        assert_eq!(
            forced_text(limit, "3"),
            Forced {
                text: String::new(),
                complete: true
            }
        );
        let exclusive = r#"{"type":"integer","exclusiveMinimum":0,"exclusiveMaximum":10}"#;
        assert!(forced_text(exclusive, "9").complete);
        assert!(forced_text(exclusive, "1").complete);
        let wider = r#"{"type":"integer","exclusiveMinimum":0,"exclusiveMaximum":100}"#;
        assert!(!forced_text(wider, "1").complete);
        assert!(forced_text(wider, "10").complete);
    }

    #[test]
    fn numbers_and_literals() {
        let schema = r#"{"type":"array","items":{"type":"number"},"maxItems":3}"#;
        for prefix in ["[", "[1", "[-", "[0", "[0.", "[1.5", "[1e", "[1e+", "[1e5"] {
            assert_eq!(forced(schema, prefix), "", "{prefix}");
        }
        assert_eq!(forced(schema, "[1,2,3"), "");
        let digits =
            r#"{"type":"array","items":{"type":"integer","minimum":0,"maximum":9},"maxItems":3}"#;
        assert_eq!(
            forced_text(digits, "[1,2,3"),
            Forced {
                text: "]".into(),
                complete: true
            }
        );
        assert_eq!(forced(r#"{"type":"boolean"}"#, "f"), "alse");
        assert_eq!(forced(r#"{"type":"null"}"#, ""), "null");
        assert_eq!(forced(r#"{"const":"a\"b\n"}"#, ""), "\"a\\\"b\\n\"");
        assert_eq!(forced(r#"{"const":-12}"#, ""), "-12");
        assert_eq!(forced(r#"{"enum":["é1","é2"]}"#, ""), "\"é");
        // Floats and objects as constants are not modelled.
        assert_eq!(forced(r#"{"const":1.5}"#, ""), "");
        assert_eq!(forced(r#"{"enum":[{"a":1}]}"#, ""), "");
    }

    #[test]
    fn alternatives_are_forced_only_once_decided() {
        let nullable = r#"{"type":"object","properties":{"d":{"type":["string","null"],"maxLength":2}},"required":["d"],"additionalProperties":false}"#;
        assert_eq!(forced(nullable, ""), "{\"d\":");
        assert_eq!(forced(nullable, "{\"d\":n"), "ull}");
        assert_eq!(forced(nullable, "{\"d\":\"ab"), "\"}");
        // anyOf wins over type; branches with a common prefix force it.
        let any = r#"{"type":"string","anyOf":[{"const":"same-a"},{"const":"same-b"}]}"#;
        assert_eq!(forced(any, ""), "\"same-");
        assert_eq!(forced(any, "\"same-b"), "\"");
        // Unknown parts force nothing while possible.
        let pattern = r#"{"anyOf":[{"type":"string","pattern":"^a+$"},{"type":"null"}]}"#;
        assert_eq!(forced(pattern, ""), "");
        assert_eq!(forced(r##"{"$ref":"#/x"}"##, ""), "");
        assert_eq!(forced(r#"{"type":"string","format":"date"}"#, ""), "");
        assert_eq!(forced(r#"{"type":"string","format":"email"}"#, ""), "\"");
        assert_eq!(forced(r#"{"allOf":[{"type":"null"}]}"#, ""), "");
        assert_eq!(forced(r#"{}"#, ""), "");
    }

    #[test]
    fn ai_suggestion_step_schema() {
        let schema = schema_file("ai-suggestion-step.json");
        // Three alternatives: a tool call (two tools) or the answer.
        assert_eq!(forced(&schema, ""), "{\"");
        assert_eq!(forced(&schema, "{\"t"), "ool\":\"get");
        assert_eq!(forced(&schema, "{\"tool\":\"get"), "");
        let first = forced_text(&schema, "{\"tool\":\"getEx");
        assert_eq!(
            first,
            Forced {
                text: "erciseHistoryContext\"}".into(),
                complete: true
            }
        );
        assert_eq!(
            forced(&schema, "{\"tool\":\"getR"),
            "ecentExercisePerformances\",\"limit\":"
        );
        assert_eq!(
            forced_text(
                &schema,
                "{\"tool\":\"getRecentExercisePerformances\",\"limit\":4"
            ),
            Forced {
                text: "}".into(),
                complete: true
            }
        );
        assert_eq!(forced(&schema, "{\"s"), "uggestions\":[");
        assert_eq!(forced(&schema, "{\"suggestions\":["), "");
        assert_eq!(forced(&schema, "{\"suggestions\":[{"), "\"changeType\":\"");
        assert_eq!(
            forced(&schema, "{\"suggestions\":[{\"changeType\":\"inc"),
            "rease"
        );
        assert_eq!(
            forced(&schema, "{\"suggestions\":[{\"changeType\":\"increaseR"),
            "e"
        );
        assert_eq!(
            forced(&schema, "{\"suggestions\":[{\"changeType\":\"increaseRep"),
            "s\",\"targetSetIndex\":"
        );
        let item = "{\"changeType\":\"decreaseRest\",\"targetSetIndex\":-1,\"newValue\":90,\"reasoning\":\"x\"}";
        assert_eq!(
            forced(
                &schema,
                "{\"suggestions\":[{\"changeType\":\"decreaseRest\",\"targetSetIndex\":-1"
            ),
            ",\"newValue\":"
        );
        let four = format!("{{\"suggestions\":[{item},{item},{item},{item},{item}");
        assert_eq!(
            forced_text(&schema, &four),
            Forced {
                text: "]}".into(),
                complete: true
            }
        );
        assert_eq!(
            forced(&schema, &format!("{{\"suggestions\":[{item},")),
            "{\"changeType\":\""
        );
    }

    #[test]
    fn today_plan_schema() {
        let schema = schema_file("today-plan.v2-flat.json");
        assert_eq!(forced(&schema, ""), "{\"focus\":\"");
        assert_eq!(
            forced(&schema, "{\"focus\":\"Legs\""),
            ",\"durationMinutes\":"
        );
        assert_eq!(
            forced(&schema, "{\"focus\":\"Legs\",\"durationMinutes\":45"),
            ""
        );
        assert_eq!(
            forced(&schema, "{\"focus\":\"Legs\",\"durationMinutes\":45,"),
            "\"equipment\":["
        );
        let head = "{\"focus\":\"Legs\",\"durationMinutes\":45,\"equipment\":[]";
        assert_eq!(forced(&schema, head), ",\"source\":\"");
        assert_eq!(
            forced(&schema, &format!("{head},\"source\":\"a")),
            "i\",\"energy\":\""
        );
        assert_eq!(
            forced(&schema, &format!("{head},\"source\":\"ai\",\"energy\":\"i")),
            "ntense\",\"summary\":\""
        );
        let blocks = format!("{head},\"source\":\"ai\",\"energy\":\"easy\",\"summary\":\"s\"");
        assert_eq!(forced(&schema, &blocks), ",\"blocks\":[{\"");
        assert_eq!(
            forced(&schema, &format!("{blocks},\"blocks\":[{{\"b")),
            "lockTemplate\":\""
        );
        assert_eq!(
            forced(
                &schema,
                &format!("{blocks},\"blocks\":[{{\"blockTemplate\":\"w")
            ),
            "armup-"
        );
        assert_eq!(
            forced(&schema, &format!("{blocks},\"blocks\":[{{\"t")),
            "itle\":\""
        );
        let ex = format!("{blocks},\"blocks\":[{{\"blockTemplate\":\"core-finisher\"}}]");
        assert_eq!(forced(&schema, &ex), ",\"exercises\":[{\"blockIndex\":");
        let detail = format!(
            "{ex},\"exercises\":[{{\"blockIndex\":0,\"order\":0,\"name\":\"n\",\"prescription\":\"p\","
        );
        assert_eq!(forced(&schema, &detail), "\"detail\":");
        assert_eq!(forced(&schema, &format!("{detail}\"detail\":n")), "ull}");
        assert_eq!(
            forced_text(&schema, &format!("{detail}\"detail\":null}}")),
            Forced::default()
        );
        assert_eq!(
            forced_text(&schema, &format!("{detail}\"detail\":null}}]")),
            Forced {
                text: "}".into(),
                complete: true
            }
        );
    }

    #[test]
    fn assistant_router_schema() {
        let Ok(schema) = std::fs::read_to_string(format!(
            "{}/schemas/assistant-router.json",
            env!("CARGO_MANIFEST_DIR")
        )) else {
            return;
        };
        assert_eq!(forced(&schema, ""), "{\"decision\":\"");
        assert_eq!(forced(&schema, "{\"decision\":\"c"), "");
        assert_eq!(
            forced(&schema, "{\"decision\":\"p"),
            "lan\",\"category\":\""
        );
        assert_eq!(
            forced(&schema, "{\"decision\":\"plan\",\"category\":\"x\""),
            ",\"entities\":["
        );
        assert_eq!(
            forced(
                &schema,
                "{\"decision\":\"plan\",\"category\":\"x\",\"entities\":[],\"missing\":[]"
            ),
            ",\"confidence\":"
        );
    }

    const TIME: &str = r#"{"type":"string","pattern":"^([01][0-9]|2[0-3]):[0-5][0-9]$"}"#;
    const DATE: &str =
        r#"{"type":"string","pattern":"^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$"}"#;

    #[test]
    fn patterns_force_their_fixed_characters() {
        assert_eq!(forced(TIME, ""), "\"");
        assert_eq!(forced(TIME, "\"1"), "");
        assert_eq!(forced(TIME, "\"17"), ":");
        assert_eq!(forced(TIME, "\"23"), ":");
        assert_eq!(forced(TIME, "\"17:3"), "");
        assert_eq!(
            forced_text(TIME, "\"17:30"),
            Forced {
                text: "\"".into(),
                complete: true
            }
        );
        // Off the pattern: lost, nothing forced.
        let mut p = JumpPredictor::new(TIME).unwrap();
        p.push("\"24");
        assert!(p.is_lost());
        assert_eq!(forced(DATE, "\"2026"), "-");
        assert_eq!(forced(DATE, "\"2026-1"), "");
        assert_eq!(forced(DATE, "\"2026-11"), "-");
        assert_eq!(forced(DATE, "\"2026-11-3"), "");
        assert_eq!(forced(DATE, "\"2026-11-30"), "\"");
        // Nullable, in an object: the quote closes the value, the key of the next comes forced.
        let schema = format!(
            r#"{{"type":"object","properties":{{"at":{{"type":["string","null"],"pattern":"^([01][0-9]|2[0-3]):[0-5][0-9]$"}},"day":{DATE}}},"required":["at","day"],"additionalProperties":false}}"#
        );
        assert_eq!(forced(&schema, ""), "{\"at\":");
        assert_eq!(forced(&schema, "{\"at\":n"), "ull,\"day\":\"");
        assert_eq!(forced(&schema, "{\"at\":\"09"), ":");
        assert_eq!(forced(&schema, "{\"at\":\"09:15"), "\",\"day\":\"");
        assert_eq!(
            forced_text(&schema, "{\"at\":null,\"day\":\"2026-12-01"),
            Forced {
                text: "\"}".into(),
                complete: true
            }
        );
    }

    #[test]
    fn a_choice_of_words_forces_the_rest_of_a_word() {
        // The narrowed path's names: the message's own words, single spaces.
        let name = r#"{"type":"string","pattern":"^(Call|call|mom|Mom|dentist)( (Call|call|mom|Mom|dentist)){0,2}$"}"#;
        assert_eq!(forced(name, ""), "\"");
        assert_eq!(forced(name, "\"C"), "all");
        assert_eq!(forced(name, "\"d"), "entist");
        assert_eq!(forced(name, "\"Call"), "");
        assert_eq!(forced(name, "\"Call m"), "om");
        assert_eq!(forced(name, "\"Call mom "), "");
        // The third word is the last: then the string ends.
        assert_eq!(
            forced_text(name, "\"Call mom de"),
            Forced {
                text: "ntist\"".into(),
                complete: true
            }
        );
        let mut p = JumpPredictor::new(name).unwrap();
        p.push("\"Call  ");
        assert!(p.is_lost(), "two spaces are off the pattern");
    }

    #[test]
    fn patterns_llama_cpp_cannot_follow_stay_unknown() {
        // Unanchored or with an escape llama.cpp does not turn into grammar: any string.
        for pattern in ["[0-9]+", r"^\\d{2}$", "^(?=x)x$"] {
            let schema = format!(r#"{{"type":"string","pattern":"{pattern}"}}"#);
            let mut p = JumpPredictor::new(&schema).unwrap();
            assert_eq!(p.forced(100), Forced::default(), "{pattern}");
            p.push("\"");
            assert!(p.is_lost(), "{pattern}");
        }
        // A pattern that is no string.
        let mut p = JumpPredictor::new(r#"{"type":"string","pattern":5}"#).unwrap();
        p.push("\"");
        assert!(p.is_lost());
    }

    #[test]
    fn multibyte_text_counts_characters() {
        let schema = r#"{"type":"string","maxLength":2}"#;
        assert_eq!(
            forced_text(schema, "\"é😀"),
            Forced {
                text: "\"".into(),
                complete: true
            }
        );
        assert_eq!(forced(schema, "\"é"), "");
        // Control characters are not allowed raw in strings.
        let mut p = JumpPredictor::new(schema).unwrap();
        p.push("\"\n");
        assert!(p.is_lost());
    }
}
