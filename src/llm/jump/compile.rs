//! The schema compiler of the jump-forward predictor: a JSON Schema (read into [`Json`], which
//! keeps object keys in document order) becomes a graph of [`Node`]s describing what llama.cpp's
//! grammar matches, with the literal texts (keys, punctuation, `const`/`enum` values) interned.

use std::collections::HashSet;

use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};

use super::pattern::{self, Nfa};

pub(super) type NodeId = u32;
pub(super) type LitId = u32;

/// Most readings of the text tracked at once; past that the predictor gives up (never happens with
/// the library's schemas, which are unambiguous after a character or two).
pub(super) const MAX_STATES: usize = 256;

/// Deepest schema nesting compiled; deeper parts are treated as unknown.
pub(super) const MAX_DEPTH: usize = 48;

pub(super) const LIT_OPEN_ARRAY: LitId = 0;
pub(super) const LIT_CLOSE_ARRAY: LitId = 1;
pub(super) const LIT_OPEN_OBJECT: LitId = 2;
pub(super) const LIT_CLOSE_OBJECT: LitId = 3;
pub(super) const LIT_COMMA: LitId = 4;
pub(super) const LIT_QUOTE: LitId = 5;

#[derive(Debug, Clone)]
pub(super) enum Node {
    /// Not modelled: any text may follow.
    Opaque,
    /// Exactly this text.
    Lit(LitId),
    /// One of these.
    Alt(Vec<NodeId>),
    /// A string of `min..=max` characters (escapes count as one).
    Str { min: u32, max: u32 },
    /// A string whose characters match a `pattern` (the index of its automaton in
    /// [`Compiled::patterns`]), between quotes, as llama.cpp writes it: raw, without JSON escapes.
    Pat(u32),
    /// An integer, within the bounds when given.
    Int { min: Option<i64>, max: Option<i64> },
    /// Any JSON number.
    Num,
    /// An array of `min..=max` items.
    Arr { item: NodeId, min: u32, max: u32 },
    /// A fixed sequence of items.
    Tuple(Vec<NodeId>),
    /// An object: key literals (`"key":`) and value nodes.
    Obj {
        required: Vec<(LitId, NodeId)>,
        optional: Vec<(LitId, NodeId)>,
        /// Other keys allowed (`additionalProperties`): not modelled.
        additional: bool,
    },
}

#[derive(Debug, Clone, Default)]
pub(super) struct Compiled {
    pub(super) nodes: Vec<Node>,
    pub(super) lits: Vec<Box<str>>,
    pub(super) patterns: Vec<Nfa>,
}

/// A JSON value that keeps object keys in document order (llama.cpp's JSON does; serde_json's
/// `Value` sorts them in this build, and property order decides the grammar).
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Json {
    Null,
    Bool(bool),
    Int(i128),
    Float(f64),
    Str(String),
    Arr(Vec<Json>),
    Obj(Vec<(String, Json)>),
}

impl Json {
    fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Obj(kv) => kv.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    fn has(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    fn as_str(&self) -> Option<&str> {
        match self {
            Json::Str(s) => Some(s),
            _ => None,
        }
    }
}

impl<'de> Deserialize<'de> for Json {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Json, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Json;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("JSON")
            }
            fn visit_unit<E>(self) -> Result<Json, E> {
                Ok(Json::Null)
            }
            fn visit_bool<E>(self, v: bool) -> Result<Json, E> {
                Ok(Json::Bool(v))
            }
            fn visit_i64<E>(self, v: i64) -> Result<Json, E> {
                Ok(Json::Int(v.into()))
            }
            fn visit_u64<E>(self, v: u64) -> Result<Json, E> {
                Ok(Json::Int(v.into()))
            }
            fn visit_f64<E>(self, v: f64) -> Result<Json, E> {
                Ok(Json::Float(v))
            }
            fn visit_str<E>(self, v: &str) -> Result<Json, E> {
                Ok(Json::Str(v.to_string()))
            }
            fn visit_string<E>(self, v: String) -> Result<Json, E> {
                Ok(Json::Str(v))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json, A::Error> {
                let mut items = Vec::new();
                while let Some(item) = seq.next_element()? {
                    items.push(item);
                }
                Ok(Json::Arr(items))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json, A::Error> {
                let mut kv = Vec::new();
                while let Some((k, v)) = map.next_entry::<String, Json>()? {
                    kv.push((k, v));
                }
                Ok(Json::Obj(kv))
            }
        }
        d.deserialize_any(V)
    }
}

/// A non-negative integer keyword (`minItems`, `maxLength`...): `Err` when present but not one.
fn count(schema: &Json, key: &str) -> Result<Option<u32>, ()> {
    match schema.get(key) {
        None => Ok(None),
        Some(Json::Int(n)) if *n >= 0 => Ok(Some(u32::try_from(*n).unwrap_or(u32::MAX))),
        Some(_) => Err(()),
    }
}

/// An integer bound, fractional ones rounded inwards (as llama.cpp does).
fn bound(value: &Json, round_up: bool) -> Option<i64> {
    match value {
        Json::Int(n) => i64::try_from(*n).ok(),
        Json::Float(f) => {
            let r = if round_up { f.ceil() } else { f.floor() };
            (r.abs() < 9.0e18).then_some(r as i64)
        }
        _ => None,
    }
}

/// The compact JSON text of a `const`/`enum` value, when it is one the predictor can write exactly
/// as llama.cpp does (strings, integers, booleans, null).
fn literal_text(value: &Json) -> Option<String> {
    match value {
        Json::Null => Some("null".into()),
        Json::Bool(b) => Some(b.to_string()),
        Json::Int(n) => Some(n.to_string()),
        Json::Str(s) => serde_json::to_string(s).ok(),
        Json::Float(_) | Json::Arr(_) | Json::Obj(_) => None,
    }
}

/// Whether llama.cpp turns this `format` into a special string rule.
fn known_format(schema: &Json) -> bool {
    match schema.get("format").and_then(Json::as_str) {
        Some(f) => {
            matches!(f, "date" | "time" | "date-time" | "uuid")
                || (f.len() == 5
                    && f.starts_with("uuid")
                    && (b'1'..=b'5').contains(&f.as_bytes()[4]))
        }
        None => schema.has("format"),
    }
}

impl Compiled {
    fn add(&mut self, node: Node) -> NodeId {
        self.nodes.push(node);
        (self.nodes.len() - 1) as NodeId
    }

    fn lit(&mut self, text: String) -> LitId {
        if let Some(i) = self.lits.iter().position(|l| **l == *text) {
            return i as LitId;
        }
        self.lits.push(text.into());
        (self.lits.len() - 1) as LitId
    }

    fn opaque(&mut self) -> NodeId {
        self.add(Node::Opaque)
    }

    /// Mirrors llama.cpp's `common_chat_schema_builder::build_node` and the converter's `visit`.
    pub(super) fn compile(&mut self, schema: &Json, depth: usize) -> NodeId {
        if depth > MAX_DEPTH {
            return self.opaque();
        }
        let Json::Obj(_) = schema else {
            return self.opaque();
        };
        if schema.has("$ref") {
            return self.opaque();
        }
        // `oneOf` wins over `anyOf`; both become plain alternatives.
        if let Some(alts) = schema.get("oneOf").or_else(|| schema.get("anyOf")) {
            return match alts {
                Json::Arr(items) if !items.is_empty() => {
                    let children = items.iter().map(|a| self.compile(a, depth + 1)).collect();
                    self.add(Node::Alt(children))
                }
                _ => self.opaque(),
            };
        }
        let ty = schema.get("type");
        if let Some(Json::Arr(types)) = ty {
            if types.is_empty() {
                return self.opaque();
            }
            let Json::Obj(kv) = schema else {
                unreachable!()
            };
            let children = types
                .iter()
                .map(|t| {
                    let mut alt: Vec<(String, Json)> =
                        kv.iter().filter(|(k, _)| k != "type").cloned().collect();
                    alt.push(("type".into(), t.clone()));
                    self.compile(&Json::Obj(alt), depth + 1)
                })
                .collect();
            return self.add(Node::Alt(children));
        }
        if let Some(value) = schema.get("const") {
            return match literal_text(value) {
                Some(text) => {
                    let lit = self.lit(text);
                    self.add(Node::Lit(lit))
                }
                None => self.opaque(),
            };
        }
        if let Some(values) = schema.get("enum") {
            let Json::Arr(values) = values else {
                return self.opaque();
            };
            if values.is_empty() {
                return self.opaque();
            }
            let mut children = Vec::new();
            for v in values {
                match literal_text(v) {
                    Some(text) => {
                        let lit = self.lit(text);
                        children.push(self.add(Node::Lit(lit)));
                    }
                    None => children.push(self.opaque()),
                }
            }
            return self.add(Node::Alt(children));
        }
        let type_name = match ty {
            None | Some(Json::Null) => "",
            Some(Json::Str(s)) => s.as_str(),
            Some(_) => return self.opaque(),
        };
        let has_properties = schema.has("properties")
            || schema
                .get("additionalProperties")
                .is_some_and(|a| *a != Json::Bool(true));
        match type_name {
            "" => {
                if has_properties {
                    self.object(schema, depth)
                } else if schema.has("allOf") {
                    self.opaque()
                } else if schema.has("items") || schema.has("prefixItems") {
                    self.array(schema, depth)
                } else if schema.has("pattern")
                    || schema.has("minLength")
                    || schema.has("maxLength")
                    || known_format(schema)
                {
                    self.string(schema)
                } else {
                    self.opaque()
                }
            }
            "object" => {
                if !has_properties && schema.has("allOf") {
                    self.opaque()
                } else {
                    self.object(schema, depth)
                }
            }
            "string" => {
                if schema.has("allOf") {
                    self.opaque()
                } else {
                    self.string(schema)
                }
            }
            "array" => self.array(schema, depth),
            "integer" => {
                let min = match (schema.get("minimum"), schema.get("exclusiveMinimum")) {
                    (Some(m), _) => bound(m, true),
                    (None, Some(m)) => bound(m, false).map(|b| b.saturating_add(1)),
                    (None, None) => None,
                };
                let max = match (schema.get("maximum"), schema.get("exclusiveMaximum")) {
                    (Some(m), _) => bound(m, false),
                    (None, Some(m)) => bound(m, true).map(|b| b.saturating_sub(1)),
                    (None, None) => None,
                };
                let given = |k: &str| schema.has(k);
                if (given("minimum") || given("exclusiveMinimum")) && min.is_none()
                    || (given("maximum") || given("exclusiveMaximum")) && max.is_none()
                {
                    return self.opaque();
                }
                self.add(Node::Int { min, max })
            }
            "number" => self.add(Node::Num),
            "boolean" => {
                let t = self.lit("true".into());
                let f = self.lit("false".into());
                let t = self.add(Node::Lit(t));
                let f = self.add(Node::Lit(f));
                self.add(Node::Alt(vec![t, f]))
            }
            "null" => {
                let n = self.lit("null".into());
                self.add(Node::Lit(n))
            }
            _ => self.opaque(),
        }
    }

    fn string(&mut self, schema: &Json) -> NodeId {
        // llama.cpp reads `pattern` first (lengths are then ignored), then `format`.
        if let Some(p) = schema.get("pattern") {
            return match p.as_str().and_then(pattern::compile) {
                Some(nfa) => {
                    self.patterns.push(nfa);
                    self.add(Node::Pat((self.patterns.len() - 1) as u32))
                }
                None => self.opaque(),
            };
        }
        if known_format(schema) {
            return self.opaque();
        }
        match (count(schema, "minLength"), count(schema, "maxLength")) {
            (Ok(min), Ok(max)) => self.add(Node::Str {
                min: min.unwrap_or(0),
                max: max.unwrap_or(u32::MAX),
            }),
            _ => self.opaque(),
        }
    }

    fn array(&mut self, schema: &Json, depth: usize) -> NodeId {
        let key = if schema.has("items") {
            "items"
        } else {
            "prefixItems"
        };
        match schema.get(key) {
            Some(Json::Arr(items)) => {
                let items = items.iter().map(|i| self.compile(i, depth + 1)).collect();
                self.add(Node::Tuple(items))
            }
            Some(items) => {
                let (Ok(min), Ok(max)) = (count(schema, "minItems"), count(schema, "maxItems"))
                else {
                    return self.opaque();
                };
                let item = self.compile(items, depth + 1);
                self.add(Node::Arr {
                    item,
                    min: min.unwrap_or(0),
                    max: max.unwrap_or(u32::MAX),
                })
            }
            // Items of any kind: not modelled.
            None => self.opaque(),
        }
    }

    fn object(&mut self, schema: &Json, depth: usize) -> NodeId {
        let required: HashSet<&str> = match schema.get("required") {
            Some(Json::Arr(names)) => names.iter().filter_map(Json::as_str).collect(),
            _ => HashSet::new(),
        };
        let properties: &[(String, Json)] = match schema.get("properties") {
            Some(Json::Obj(kv)) => kv,
            Some(_) => return self.opaque(),
            None => &[],
        };
        let additional = match schema.get("additionalProperties") {
            Some(Json::Bool(b)) => *b,
            Some(Json::Obj(_)) => true,
            Some(_) => return self.opaque(),
            None => !schema.has("properties"),
        };
        if properties.is_empty() && additional {
            // llama.cpp's generic `object` rule.
            return self.opaque();
        }
        let (mut req, mut opt) = (Vec::new(), Vec::new());
        for (name, prop) in properties {
            let value = self.compile(prop, depth + 1);
            let Ok(key) = serde_json::to_string(name) else {
                return self.opaque();
            };
            let key = self.lit(format!("{key}:"));
            if required.contains(name.as_str()) {
                req.push((key, value));
            } else {
                opt.push((key, value));
            }
        }
        self.add(Node::Obj {
            required: req,
            optional: opt,
            additional,
        })
    }
}
