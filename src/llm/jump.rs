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
//! and tuples. It must never force text the grammar would not force: it tracks every reading of
//! the text so far that the grammar might allow (a superset of it) and forces a character only
//! when all of them allow that one character and nothing else. What it does not model (`$ref`,
//! `allOf`, `pattern`, string formats, untyped values, additional properties, objects and floats
//! in `const`/`enum`) it treats as unknown: no forced text from there on. Being conservative is
//! always correct: the engine checks every forced token against the grammar anyway.
//!
//! Pure: no llama types, compiled without the `llama` feature too.

use std::collections::HashSet;

use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};

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

/// Most readings of the text tracked at once; past that the predictor gives up (never happens with
/// the library's schemas, which are unambiguous after a character or two).
const MAX_STATES: usize = 256;

/// Deepest schema nesting compiled; deeper parts are treated as unknown.
const MAX_DEPTH: usize = 48;

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

// --- The schema, compiled to what the grammar matches -------------------------------------------

type NodeId = u32;
type LitId = u32;

const LIT_OPEN_ARRAY: LitId = 0;
const LIT_CLOSE_ARRAY: LitId = 1;
const LIT_OPEN_OBJECT: LitId = 2;
const LIT_CLOSE_OBJECT: LitId = 3;
const LIT_COMMA: LitId = 4;
const LIT_QUOTE: LitId = 5;

#[derive(Debug, Clone)]
enum Node {
    /// Not modelled: any text may follow.
    Opaque,
    /// Exactly this text.
    Lit(LitId),
    /// One of these.
    Alt(Vec<NodeId>),
    /// A string of `min..=max` characters (escapes count as one).
    Str { min: u32, max: u32 },
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
struct Compiled {
    nodes: Vec<Node>,
    lits: Vec<Box<str>>,
}

/// A JSON value that keeps object keys in document order (llama.cpp's JSON does; serde_json's
/// `Value` sorts them in this build, and property order decides the grammar).
#[derive(Debug, Clone, PartialEq)]
enum Json {
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
    fn compile(&mut self, schema: &Json, depth: usize) -> NodeId {
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
        if schema.has("pattern") || known_format(schema) {
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

// --- Matching -------------------------------------------------------------------------------------

/// One thing still to match; a state is a stack of them, the next one last.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Task {
    /// A value of this node.
    Value(NodeId),
    /// The rest of a literal, from byte `pos`.
    Lit { lit: LitId, pos: u32 },
    /// Inside a string (after its opening quote): characters so far, escape progress (0: none,
    /// 1: after `\`, 2..=5: after `\u` and that many minus 2 hex digits).
    Str { node: NodeId, count: u32, esc: u8 },
    /// An integer: sign, digits so far, whether the first is 0, magnitude (saturating).
    Int {
        node: NodeId,
        neg: bool,
        digits: u32,
        zero: bool,
        mag: u64,
    },
    /// A number, in this phase.
    Num(NumPhase),
    /// An array after `count` items (and after `[`).
    Arr { node: NodeId, count: u32 },
    /// A tuple before item `index` (and after `[`).
    Tuple { node: NodeId, index: u32 },
    /// An object after `{` and its first `done` required properties.
    ObjReq { node: NodeId, done: u32 },
    /// An object after an optional property; optional properties from `next` on may follow.
    ObjOpt { node: NodeId, next: u32 },
    /// Not modelled.
    Opaque,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum NumPhase {
    Start,
    Minus,
    Zero,
    Int,
    Dot,
    Frac,
    E,
    ESign,
    ExpZero,
    Exp,
}

impl NumPhase {
    fn can_end(self) -> bool {
        matches!(
            self,
            NumPhase::Zero | NumPhase::Int | NumPhase::Frac | NumPhase::ExpZero | NumPhase::Exp
        )
    }

    fn step(self, c: char) -> Option<NumPhase> {
        use NumPhase::*;
        let digit = c.is_ascii_digit();
        let nonzero = digit && c != '0';
        Some(match (self, c) {
            (Start, '-') => Minus,
            (Start | Minus, '0') => Zero,
            (Start | Minus, _) if nonzero => Int,
            (Int, _) if digit => Int,
            (Zero | Int, '.') => Dot,
            (Zero | Int | Frac, 'e' | 'E') => E,
            (Dot | Frac, _) if digit => Frac,
            (E, '+' | '-') => ESign,
            (E | ESign, '0') => ExpZero,
            (E | ESign, _) if nonzero => Exp,
            (Exp, _) if digit => Exp,
            _ => return None,
        })
    }
}

type State = Vec<Task>;

/// What may come next in a set of states.
enum Next {
    /// Exactly this character, in every state.
    One(char),
    /// Nothing: every state is complete.
    End,
    /// Several possibilities.
    Many,
}

impl Compiled {
    fn int_status(
        &self,
        node: NodeId,
        neg: bool,
        digits: u32,
        zero: bool,
        mag: u64,
    ) -> (bool, bool) {
        let Node::Int { min, max } = self.nodes[node as usize] else {
            return (false, false);
        };
        let value = if neg {
            -i128::from(mag)
        } else {
            i128::from(mag)
        };
        let saturated = mag == u64::MAX;
        let can_end = digits > 0
            && (saturated
                || mag == 0
                || (min.is_none_or(|m| value >= i128::from(m))
                    && max.is_none_or(|m| value <= i128::from(m))));
        let can_continue = if digits == 0 {
            true
        } else if zero {
            false
        } else if saturated {
            true
        } else {
            // Any longer integer has at least ten times the magnitude.
            let next = i128::from(mag) * 10;
            if neg {
                min.is_none_or(|m| -next >= i128::from(m))
            } else {
                max.is_none_or(|m| next <= i128::from(m))
            }
        };
        (can_continue, can_end)
    }

    /// Expands `st` until a task that consumes characters is on top (or nothing: complete), into
    /// `out`, once per alternative.
    fn close(&self, mut st: State, out: &mut Vec<State>, depth: usize) {
        if depth > 4 * MAX_DEPTH || out.len() > MAX_STATES {
            out.push(vec![Task::Opaque]);
            return;
        }
        loop {
            let Some(&top) = st.last() else {
                out.push(st);
                return;
            };
            match top {
                Task::Lit { .. } | Task::Str { .. } | Task::Opaque => {
                    out.push(st);
                    return;
                }
                Task::Int {
                    node,
                    neg,
                    digits,
                    zero,
                    mag,
                } => {
                    let (cont, end) = self.int_status(node, neg, digits, zero, mag);
                    if cont {
                        out.push(st.clone());
                    }
                    if !end {
                        return;
                    }
                    st.pop();
                }
                Task::Num(phase) => {
                    if phase != NumPhase::ExpZero {
                        out.push(st.clone());
                    }
                    if !phase.can_end() {
                        return;
                    }
                    st.pop();
                }
                Task::Value(node) => {
                    st.pop();
                    match &self.nodes[node as usize] {
                        Node::Opaque => st.push(Task::Opaque),
                        Node::Lit(lit) => st.push(Task::Lit { lit: *lit, pos: 0 }),
                        Node::Alt(children) => {
                            for &child in children {
                                let mut alt = st.clone();
                                alt.push(Task::Value(child));
                                self.close(alt, out, depth + 1);
                            }
                            return;
                        }
                        Node::Str { .. } => {
                            st.push(Task::Str {
                                node,
                                count: 0,
                                esc: 0,
                            });
                            st.push(lit(LIT_QUOTE));
                        }
                        Node::Int { .. } => st.push(Task::Int {
                            node,
                            neg: false,
                            digits: 0,
                            zero: false,
                            mag: 0,
                        }),
                        Node::Num => st.push(Task::Num(NumPhase::Start)),
                        Node::Arr { .. } => {
                            st.push(Task::Arr { node, count: 0 });
                            st.push(lit(LIT_OPEN_ARRAY));
                        }
                        Node::Tuple(_) => {
                            st.push(Task::Tuple { node, index: 0 });
                            st.push(lit(LIT_OPEN_ARRAY));
                        }
                        Node::Obj { .. } => {
                            st.push(Task::ObjReq { node, done: 0 });
                            st.push(lit(LIT_OPEN_OBJECT));
                        }
                    }
                }
                Task::Arr { node, count } => {
                    st.pop();
                    let Node::Arr { item, min, max } = self.nodes[node as usize] else {
                        unreachable!()
                    };
                    if count >= min {
                        let mut end = st.clone();
                        end.push(lit(LIT_CLOSE_ARRAY));
                        self.close(end, out, depth + 1);
                    }
                    if count < max {
                        st.push(Task::Arr {
                            node,
                            count: count + 1,
                        });
                        st.push(Task::Value(item));
                        if count > 0 {
                            st.push(lit(LIT_COMMA));
                        }
                        self.close(st, out, depth + 1);
                    }
                    return;
                }
                Task::Tuple { node, index } => {
                    st.pop();
                    let Node::Tuple(items) = &self.nodes[node as usize] else {
                        unreachable!()
                    };
                    match items.get(index as usize) {
                        None => st.push(lit(LIT_CLOSE_ARRAY)),
                        Some(&item) => {
                            st.push(Task::Tuple {
                                node,
                                index: index + 1,
                            });
                            st.push(Task::Value(item));
                            if index > 0 {
                                st.push(lit(LIT_COMMA));
                            }
                        }
                    }
                }
                Task::ObjReq { node, done } => {
                    st.pop();
                    let Node::Obj {
                        required,
                        optional,
                        additional,
                    } = &self.nodes[node as usize]
                    else {
                        unreachable!()
                    };
                    if let Some(&(key, value)) = required.get(done as usize) {
                        st.push(Task::ObjReq {
                            node,
                            done: done + 1,
                        });
                        st.push(Task::Value(value));
                        st.push(lit(key));
                        if done > 0 {
                            st.push(lit(LIT_COMMA));
                        }
                        continue;
                    }
                    let comma = !required.is_empty();
                    self.optional_props(&st, node, 0, optional, *additional, comma, out, depth);
                    return;
                }
                Task::ObjOpt { node, next } => {
                    st.pop();
                    let Node::Obj {
                        optional,
                        additional,
                        ..
                    } = &self.nodes[node as usize]
                    else {
                        unreachable!()
                    };
                    self.optional_props(&st, node, next, optional, *additional, true, out, depth);
                    return;
                }
            }
        }
    }

    /// The end of an object, or one of its optional properties from index `from` on (each preceded
    /// by a comma when `comma`), or an additional one (not modelled).
    #[allow(clippy::too_many_arguments)]
    fn optional_props(
        &self,
        st: &State,
        node: NodeId,
        from: u32,
        optional: &[(LitId, NodeId)],
        additional: bool,
        comma: bool,
        out: &mut Vec<State>,
        depth: usize,
    ) {
        let mut end = st.clone();
        end.push(lit(LIT_CLOSE_OBJECT));
        self.close(end, out, depth + 1);
        for (i, &(key, value)) in optional.iter().enumerate().skip(from as usize) {
            let mut alt = st.clone();
            alt.push(Task::ObjOpt {
                node,
                next: i as u32 + 1,
            });
            alt.push(Task::Value(value));
            alt.push(lit(key));
            if comma {
                alt.push(lit(LIT_COMMA));
            }
            self.close(alt, out, depth + 1);
        }
        if additional {
            let mut alt = st.clone();
            alt.push(Task::Opaque);
            if comma {
                alt.push(lit(LIT_COMMA));
            }
            self.close(alt, out, depth + 1);
        }
    }

    /// The states after `c`, closed and deduplicated.
    fn advance(&self, states: &[State], c: char) -> Vec<State> {
        let mut out = Vec::new();
        for st in states {
            let Some(&top) = st.last() else { continue };
            let mut st = st.clone();
            let replaced = match top {
                Task::Lit { lit: l, pos } => {
                    let text = &self.lits[l as usize];
                    match text[pos as usize..].chars().next() {
                        Some(x) if x == c => {
                            let pos = pos as usize + c.len_utf8();
                            if pos == text.len() {
                                None
                            } else {
                                Some(Task::Lit {
                                    lit: l,
                                    pos: pos as u32,
                                })
                            }
                        }
                        _ => continue,
                    }
                }
                Task::Str { node, count, esc } => {
                    let Node::Str { min, max } = self.nodes[node as usize] else {
                        unreachable!()
                    };
                    match (esc, c) {
                        (0, '"') if count >= min => None,
                        (0, '"') => continue,
                        (0, '\\') if count < max => Some(Task::Str {
                            node,
                            count,
                            esc: 1,
                        }),
                        (0, c) if (c as u32) < 0x20 || c as u32 == 0x7f || count >= max => continue,
                        (0, _) => Some(Task::Str {
                            node,
                            count: count + 1,
                            esc: 0,
                        }),
                        (1, '"' | '\\' | '/' | 'b' | 'f' | 'n' | 'r' | 't') => Some(Task::Str {
                            node,
                            count: count + 1,
                            esc: 0,
                        }),
                        (1, 'u') => Some(Task::Str {
                            node,
                            count,
                            esc: 2,
                        }),
                        (2..=5, c) if c.is_ascii_hexdigit() => Some(if esc == 5 {
                            Task::Str {
                                node,
                                count: count + 1,
                                esc: 0,
                            }
                        } else {
                            Task::Str {
                                node,
                                count,
                                esc: esc + 1,
                            }
                        }),
                        _ => continue,
                    }
                }
                Task::Int {
                    node,
                    neg,
                    digits,
                    zero,
                    mag,
                } => match c {
                    '-' if digits == 0 && !neg => Some(Task::Int {
                        node,
                        neg: true,
                        digits,
                        zero,
                        mag,
                    }),
                    '0'..='9' => {
                        let d = u64::from(c as u8 - b'0');
                        Some(Task::Int {
                            node,
                            neg,
                            digits: digits + 1,
                            zero: digits == 0 && d == 0,
                            mag: mag
                                .checked_mul(10)
                                .and_then(|m| m.checked_add(d))
                                .unwrap_or(u64::MAX),
                        })
                    }
                    _ => continue,
                },
                Task::Num(phase) => match phase.step(c) {
                    Some(p) => Some(Task::Num(p)),
                    None => continue,
                },
                // Text inside an unknown part cannot be followed.
                Task::Opaque => return Vec::new(),
                // `close` leaves only consuming tasks on top.
                _ => unreachable!("advance over an unexpanded state"),
            };
            st.pop();
            if let Some(t) = replaced {
                st.push(t);
            }
            self.close(st, &mut out, 0);
        }
        let mut seen = HashSet::with_capacity(out.len());
        out.retain(|s| seen.insert(s.clone()));
        out
    }

    /// The one character every state allows next, if so.
    fn next_char(&self, states: &[State]) -> Next {
        let mut one: Option<char> = None;
        let mut ended = false;
        for st in states {
            let c = match st.last() {
                None => {
                    ended = true;
                    continue;
                }
                Some(Task::Lit { lit: l, pos }) => {
                    self.lits[*l as usize][*pos as usize..].chars().next()
                }
                Some(Task::Str {
                    node,
                    count,
                    esc: 0,
                }) => {
                    let Node::Str { min, max } = self.nodes[*node as usize] else {
                        unreachable!()
                    };
                    (*count >= max && *count >= min).then_some('"')
                }
                _ => None,
            };
            match (c, one) {
                (Some(c), None) => one = Some(c),
                (Some(c), Some(o)) if c == o => {}
                _ => return Next::Many,
            }
        }
        match (one, ended) {
            (Some(c), false) => Next::One(c),
            (None, true) => Next::End,
            _ => Next::Many,
        }
    }
}

fn lit(l: LitId) -> Task {
    Task::Lit { lit: l, pos: 0 }
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
