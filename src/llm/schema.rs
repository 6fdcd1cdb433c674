//! JSON Schema validation of model answers (pure): the keywords the library's schemas use,
//! compiled once and checked with messages a repair prompt can quote.
//!
//! Read: `type` (a name or a list), `enum`, `const`, `properties`, `required`,
//! `additionalProperties` (a boolean or a schema), `items` (one schema), `minItems`, `maxItems`,
//! `uniqueItems`, `minLength` and `maxLength` (in characters), `pattern`, `minimum`, `maximum`,
//! `exclusiveMinimum`, `exclusiveMaximum`, `anyOf`, `oneOf` and `allOf`, and the boolean schemas
//! `true` and `false`. Annotations (`$schema`, `$id`, `title`, `description`, `$comment`,
//! `default`, `examples`) are skipped. Any other keyword, and a `pattern` the library cannot read
//! (one not anchored with `^` and `$`, or using `\d`, `\w` or lookarounds: the same subset
//! llama.cpp turns into grammar), makes the schema refused when it is compiled, so a schema
//! always means what its grammar means and nothing is silently not checked. Integers are numbers
//! without a fraction (`2.0` is an integer, as JSON Schema says); `enum`, `const` and
//! `uniqueItems` compare numbers by value.
//!
//! Messages never quote the checked value (it may hold user text); they say what the schema
//! wants: `must be at most 10`, `must be one of "a", "b"`, `is required` (at the missing
//! property's path).

use serde_json::{Map, Value};

use super::jump::pattern::{self, Nfa};
use super::structured::Issue;

/// Longest `enum` or `const` rendering quoted in a message (characters); a longer one is named by
/// its count of values.
const MAX_SHOWN: usize = 200;
/// Longest property name quoted in a message (characters).
const MAX_KEY_SHOWN: usize = 40;

/// Why a schema was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaError {
    /// Where in the schema, as a JSON pointer (`/properties/sets/items`).
    pub at: String,
    /// What cannot be read.
    pub detail: String,
}

impl std::fmt::Display for SchemaError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} (at `{}`)", self.detail, self.at)
    }
}

/// A compiled schema.
#[derive(Debug, Clone)]
pub struct Validator {
    root: Node,
}

#[derive(Debug, Clone)]
enum Node {
    /// `true` or `{}`.
    Any,
    /// `false`.
    Never,
    Rules(Box<Rules>),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Null,
    Boolean,
    Integer,
    Number,
    String,
    Array,
    Object,
}

impl Kind {
    fn parse(name: &str) -> Option<Kind> {
        Some(match name {
            "null" => Kind::Null,
            "boolean" => Kind::Boolean,
            "integer" => Kind::Integer,
            "number" => Kind::Number,
            "string" => Kind::String,
            "array" => Kind::Array,
            "object" => Kind::Object,
            _ => return None,
        })
    }

    fn described(self) -> &'static str {
        match self {
            Kind::Null => "null",
            Kind::Boolean => "a boolean",
            Kind::Integer => "an integer",
            Kind::Number => "a number",
            Kind::String => "a string",
            Kind::Array => "an array",
            Kind::Object => "an object",
        }
    }

    fn admits(self, v: &Value) -> bool {
        match (self, v) {
            (Kind::Null, Value::Null)
            | (Kind::Boolean, Value::Bool(_))
            | (Kind::Number, Value::Number(_))
            | (Kind::String, Value::String(_))
            | (Kind::Array, Value::Array(_))
            | (Kind::Object, Value::Object(_)) => true,
            (Kind::Integer, Value::Number(n)) => {
                n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|f| f.fract() == 0.0)
            }
            _ => false,
        }
    }
}

#[derive(Debug, Clone, Default)]
struct Rules {
    types: Option<Vec<Kind>>,
    enumeration: Option<Vec<Value>>,
    constant: Option<Value>,
    properties: Vec<(String, Node)>,
    required: Vec<String>,
    additional: Option<Node>,
    items: Option<Node>,
    min_items: Option<u64>,
    max_items: Option<u64>,
    unique_items: bool,
    min_length: Option<u64>,
    max_length: Option<u64>,
    pattern: Option<(String, Nfa)>,
    minimum: Option<f64>,
    maximum: Option<f64>,
    exclusive_minimum: Option<f64>,
    exclusive_maximum: Option<f64>,
    any_of: Vec<Node>,
    one_of: Vec<Node>,
    all_of: Vec<Node>,
}

impl Validator {
    /// `schema` compiled, or why it cannot be (see the module docs for what is read).
    pub fn new(schema: &Value) -> Result<Validator, SchemaError> {
        let mut at = String::new();
        Ok(Validator {
            root: compile(schema, &mut at)?,
        })
    }

    /// Whether `value` meets the schema.
    pub fn is_valid(&self, value: &Value) -> bool {
        let mut out = Vec::new();
        check(&self.root, value, &mut String::new(), &mut out, 1);
        out.is_empty()
    }

    /// What is wrong with `value`, at most `max` issues (an object's properties in name order),
    /// each with the path of the offending value (`sets[3].id`, empty for the whole document).
    pub fn issues(&self, value: &Value, max: usize) -> Vec<Issue> {
        let mut out = Vec::new();
        check(&self.root, value, &mut String::new(), &mut out, max);
        out
    }
}

// ---------------------------------------------------------------------------------------------
// Compiling

fn refuse(at: &str, detail: impl Into<String>) -> SchemaError {
    SchemaError {
        at: if at.is_empty() { "/".into() } else { at.into() },
        detail: detail.into(),
    }
}

/// Runs `f` with `/key` pushed on the schema pointer `at`.
fn nested<T>(at: &mut String, key: &str, f: impl FnOnce(&mut String) -> T) -> T {
    let len = at.len();
    at.push('/');
    at.push_str(&key.replace('~', "~0").replace('/', "~1"));
    let out = f(at);
    at.truncate(len);
    out
}

fn compile(schema: &Value, at: &mut String) -> Result<Node, SchemaError> {
    let map = match schema {
        Value::Bool(true) => return Ok(Node::Any),
        Value::Bool(false) => return Ok(Node::Never),
        Value::Object(map) => map,
        _ => return Err(refuse(at, "a schema is an object or a boolean")),
    };
    if map.is_empty() {
        return Ok(Node::Any);
    }
    let mut r = Rules::default();
    for (key, v) in map {
        nested(at, key, |at| keyword(&mut r, key, v, at))?;
    }
    Ok(Node::Rules(Box::new(r)))
}

fn keyword(r: &mut Rules, key: &str, v: &Value, at: &mut String) -> Result<(), SchemaError> {
    let count = |v: &Value| {
        v.as_u64()
            .ok_or_else(|| refuse(at, "must be a non-negative integer"))
    };
    let number = |v: &Value| v.as_f64().ok_or_else(|| refuse(at, "must be a number"));
    match key {
        "$schema" | "$id" | "title" | "description" | "$comment" | "default" | "examples" => {}
        "type" => {
            let names: Vec<&Value> = match v {
                Value::Array(list) => list.iter().collect(),
                one => vec![one],
            };
            let kinds = names
                .iter()
                .map(|n| n.as_str().and_then(Kind::parse))
                .collect::<Option<Vec<Kind>>>()
                .ok_or_else(|| refuse(at, "not a type name"))?;
            r.types = Some(kinds);
        }
        "enum" => {
            let list = v.as_array().ok_or_else(|| refuse(at, "must be an array"))?;
            r.enumeration = Some(list.clone());
        }
        "const" => r.constant = Some(v.clone()),
        "properties" => {
            let props = v
                .as_object()
                .ok_or_else(|| refuse(at, "must be an object"))?;
            for (name, sub) in props {
                let node = nested(at, name, |at| compile(sub, at))?;
                r.properties.push((name.clone(), node));
            }
        }
        "required" => {
            let list = v.as_array().ok_or_else(|| refuse(at, "must be an array"))?;
            r.required = list
                .iter()
                .map(|n| n.as_str().map(str::to_owned))
                .collect::<Option<Vec<String>>>()
                .ok_or_else(|| refuse(at, "must list property names"))?;
        }
        "additionalProperties" => r.additional = Some(compile(v, at)?),
        "items" => {
            if v.is_array() {
                return Err(refuse(at, "a list of item schemas is not read"));
            }
            r.items = Some(compile(v, at)?);
        }
        "minItems" => r.min_items = Some(count(v)?),
        "maxItems" => r.max_items = Some(count(v)?),
        "uniqueItems" => {
            r.unique_items = v.as_bool().ok_or_else(|| refuse(at, "must be a boolean"))?
        }
        "minLength" => r.min_length = Some(count(v)?),
        "maxLength" => r.max_length = Some(count(v)?),
        "pattern" => {
            let text = v.as_str().ok_or_else(|| refuse(at, "must be a string"))?;
            let nfa = pattern::compile(text).ok_or_else(|| {
                refuse(at, "not a pattern the library reads (anchored with ^ and $, no \\d, \\w or lookarounds)")
            })?;
            r.pattern = Some((text.to_owned(), nfa));
        }
        "minimum" => r.minimum = Some(number(v)?),
        "maximum" => r.maximum = Some(number(v)?),
        "exclusiveMinimum" => r.exclusive_minimum = Some(number(v)?),
        "exclusiveMaximum" => r.exclusive_maximum = Some(number(v)?),
        "anyOf" | "oneOf" | "allOf" => {
            let list = v
                .as_array()
                .filter(|l| !l.is_empty())
                .ok_or_else(|| refuse(at, "must be a non-empty array"))?;
            let nodes = list
                .iter()
                .enumerate()
                .map(|(i, sub)| nested(at, &i.to_string(), |at| compile(sub, at)))
                .collect::<Result<Vec<Node>, SchemaError>>()?;
            match key {
                "anyOf" => r.any_of = nodes,
                "oneOf" => r.one_of = nodes,
                _ => r.all_of = nodes,
            }
        }
        other => return Err(refuse(at, format!("the keyword `{other}` is not read"))),
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Checking

fn issue(out: &mut Vec<Issue>, path: &str, message: String) {
    out.push(Issue {
        path: path.to_owned(),
        message,
    });
}

/// Runs `f` with `.key` appended to the value path.
fn at_key<T>(path: &mut String, key: &str, f: impl FnOnce(&mut String) -> T) -> T {
    let len = path.len();
    if !path.is_empty() {
        path.push('.');
    }
    path.push_str(key);
    let out = f(path);
    path.truncate(len);
    out
}

/// Runs `f` with `[i]` appended to the value path.
fn at_index<T>(path: &mut String, i: usize, f: impl FnOnce(&mut String) -> T) -> T {
    let len = path.len();
    path.push_str(&format!("[{i}]"));
    let out = f(path);
    path.truncate(len);
    out
}

/// Checks `v` against `node`, adding issues to `out` until it holds `max`.
fn check(node: &Node, v: &Value, path: &mut String, out: &mut Vec<Issue>, max: usize) {
    if out.len() >= max {
        return;
    }
    let r = match node {
        Node::Any => return,
        Node::Never => return issue(out, path, "is not allowed here".into()),
        Node::Rules(r) => r,
    };
    if let Some(types) = &r.types {
        if !types.iter().any(|k| k.admits(v)) {
            let wanted: Vec<&str> = types.iter().map(|k| k.described()).collect();
            return issue(out, path, format!("must be {}", wanted.join(" or ")));
        }
    }
    if let Some(list) = &r.enumeration {
        if !list.iter().any(|e| json_eq(e, v)) {
            issue(out, path, format!("must be {}", allowed_values(list)));
        }
    }
    if let Some(c) = &r.constant {
        if !json_eq(c, v) {
            issue(out, path, format!("must be {}", shown(c)));
        }
    }
    match v {
        Value::Object(map) => check_object(r, map, path, out, max),
        Value::Array(items) => check_array(r, items, path, out, max),
        Value::String(s) => check_string(r, s, path, out),
        Value::Number(n) => {
            if let Some(x) = n.as_f64() {
                check_number(r, x, path, out);
            }
        }
        _ => {}
    }
    check_combinations(r, v, path, out, max);
    out.truncate(max);
}

fn check_object(
    r: &Rules,
    map: &Map<String, Value>,
    path: &mut String,
    out: &mut Vec<Issue>,
    max: usize,
) {
    for (name, value) in map {
        match r.properties.iter().find(|(p, _)| p == name) {
            Some((_, node)) => at_key(path, name, |path| check(node, value, path, out, max)),
            None => match &r.additional {
                Some(Node::Never) => at_key(path, &key_shown(name), |path| {
                    issue(out, path, "is not an allowed property".into())
                }),
                Some(node) => at_key(path, name, |path| check(node, value, path, out, max)),
                None => {}
            },
        }
    }
    for name in &r.required {
        if !map.contains_key(name) {
            at_key(path, name, |path| issue(out, path, "is required".into()));
        }
    }
}

fn check_array(r: &Rules, items: &[Value], path: &mut String, out: &mut Vec<Issue>, max: usize) {
    let n = items.len() as u64;
    check_count(
        out,
        path,
        n,
        (r.min_items, r.max_items),
        "item",
        |bound, count| format!("must have {bound} {count}"),
    );
    if r.unique_items {
        let repeated = items
            .iter()
            .enumerate()
            .any(|(i, a)| items[..i].iter().any(|b| json_eq(a, b)));
        if repeated {
            issue(out, path, "must not repeat an item".into());
        }
    }
    if let Some(node) = &r.items {
        for (i, item) in items.iter().enumerate() {
            at_index(path, i, |path| check(node, item, path, out, max));
        }
    }
}

fn check_string(r: &Rules, s: &str, path: &str, out: &mut Vec<Issue>) {
    if r.min_length.is_some() || r.max_length.is_some() {
        let len = s.chars().count() as u64;
        check_count(
            out,
            path,
            len,
            (r.min_length, r.max_length),
            "character",
            |bound, count| format!("must be {bound} {count} long"),
        );
    }
    if let Some((text, nfa)) = &r.pattern {
        if !nfa.is_match(s) {
            issue(out, path, format!("must match the pattern {text}"));
        }
    }
}

/// An issue for a count `n` (items, characters) outside the `(min, max)` bounds; `says` words it
/// from "at least" or "at most" and the bound counted in `noun`s.
fn check_count(
    out: &mut Vec<Issue>,
    path: &str,
    n: u64,
    (min, max): (Option<u64>, Option<u64>),
    noun: &str,
    says: impl Fn(&str, String) -> String,
) {
    if let Some(min) = min.filter(|&m| n < m) {
        issue(out, path, says("at least", counted(min, noun)));
    }
    if let Some(most) = max.filter(|&m| n > m) {
        issue(out, path, says("at most", counted(most, noun)));
    }
}

fn check_number(r: &Rules, x: f64, path: &str, out: &mut Vec<Issue>) {
    if let Some(min) = r.minimum.filter(|&m| x < m) {
        issue(out, path, format!("must be at least {}", number_shown(min)));
    }
    if let Some(most) = r.maximum.filter(|&m| x > m) {
        issue(out, path, format!("must be at most {}", number_shown(most)));
    }
    if let Some(min) = r.exclusive_minimum.filter(|&m| x <= m) {
        issue(
            out,
            path,
            format!("must be more than {}", number_shown(min)),
        );
    }
    if let Some(most) = r.exclusive_maximum.filter(|&m| x >= m) {
        issue(
            out,
            path,
            format!("must be less than {}", number_shown(most)),
        );
    }
}

fn check_combinations(r: &Rules, v: &Value, path: &mut String, out: &mut Vec<Issue>, max: usize) {
    for node in &r.all_of {
        check(node, v, path, out, max);
    }
    if !r.any_of.is_empty() {
        let results = branch_issues(&r.any_of, v, path);
        if !results.iter().any(Vec::is_empty) {
            issue(out, path, none_matched(&results));
        }
    }
    if !r.one_of.is_empty() {
        let results = branch_issues(&r.one_of, v, path);
        match results.iter().filter(|i| i.is_empty()).count() {
            0 => issue(out, path, none_matched(&results)),
            1 => {}
            _ => issue(
                out,
                path,
                "matches more than one of the allowed shapes".into(),
            ),
        }
    }
}

/// Each branch's issues on `v` (a few each: enough to tell the closest).
fn branch_issues(branches: &[Node], v: &Value, path: &mut String) -> Vec<Vec<Issue>> {
    branches
        .iter()
        .map(|b| {
            let mut found = Vec::new();
            check(b, v, path, &mut found, 8);
            found
        })
        .collect()
}

/// The message for a value no branch admits, naming what is wrong against the closest branch
/// (the one with the fewest issues, the first on a tie).
fn none_matched(results: &[Vec<Issue>]) -> String {
    let closest = results.iter().min_by_key(|i| i.len());
    let mut message = format!("matches none of the {} allowed shapes", results.len());
    if let Some(first) = closest.and_then(|i| i.first()) {
        let at = if first.path.is_empty() {
            String::new()
        } else {
            format!("{}: ", first.path)
        };
        message.push_str(&format!("; the closest: {at}{}", first.message));
    }
    message
}

// ---------------------------------------------------------------------------------------------
// Values

/// JSON equality with numbers compared by value (`1` equals `1.0`).
fn json_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (x.as_i64(), y.as_i64()) {
            (Some(i), Some(j)) => i == j,
            _ => match (x.as_u64(), y.as_u64()) {
                (Some(i), Some(j)) => i == j,
                _ => x.as_f64() == y.as_f64(),
            },
        },
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| json_eq(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, a)| y.get(k).is_some_and(|b| json_eq(a, b)))
        }
        _ => a == b,
    }
}

fn shown(v: &Value) -> String {
    let text = v.to_string();
    if text.chars().count() <= MAX_SHOWN {
        text
    } else {
        "the one allowed value".into()
    }
}

fn allowed_values(list: &[Value]) -> String {
    let parts: Vec<String> = list.iter().map(Value::to_string).collect();
    let text = parts.join(", ");
    match list.len() {
        0 => "a value (none is allowed)".into(),
        1 if text.chars().count() <= MAX_SHOWN => text,
        _ if text.chars().count() <= MAX_SHOWN => format!("one of {text}"),
        n => format!("one of the {n} allowed values"),
    }
}

/// A property name the schema does not know, as a path segment: cut to 40 characters.
fn key_shown(name: &str) -> String {
    if name.chars().count() <= MAX_KEY_SHOWN {
        name.to_owned()
    } else {
        let cut: String = name.chars().take(MAX_KEY_SHOWN).collect();
        format!("{cut}...")
    }
}

fn number_shown(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else {
        format!("{x}")
    }
}

/// `n` and the noun, plural unless `n` is 1 (`1 item`, `3 characters`).
fn counted(n: u64, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn issues(schema: Value, value: Value) -> Vec<(String, String)> {
        Validator::new(&schema)
            .unwrap()
            .issues(&value, 10)
            .into_iter()
            .map(|i| (i.path, i.message))
            .collect()
    }

    #[test]
    fn types_numbers_and_strings() {
        let s = json!({"type": "object", "properties": {
            "n": {"type": "integer", "minimum": 1, "maximum": 10},
            "x": {"type": "number", "exclusiveMinimum": 0},
            "s": {"type": "string", "minLength": 2, "maxLength": 3, "pattern": "^[a-z]+$"},
            "t": {"type": ["string", "null"]}
        }});
        assert!(issues(s.clone(), json!({"n": 2.0, "x": 0.5, "s": "ab", "t": null})).is_empty());
        assert_eq!(
            issues(s.clone(), json!({"n": 11, "x": 0, "s": "abcd", "t": 1})),
            vec![
                ("n".into(), "must be at most 10".into()),
                ("s".into(), "must be at most 3 characters long".into()),
                ("t".into(), "must be a string or null".into()),
                ("x".into(), "must be more than 0".into()),
            ]
        );
        assert_eq!(
            issues(s.clone(), json!({"n": 1.5, "s": "A1"})),
            vec![
                ("n".into(), "must be an integer".into()),
                ("s".into(), "must match the pattern ^[a-z]+$".into()),
            ]
        );
        // Lengths count characters, not bytes.
        let short = json!({"type": "string", "maxLength": 2});
        assert!(issues(short.clone(), json!("éé")).is_empty());
        assert_eq!(issues(short, json!("abc")).len(), 1);
    }

    #[test]
    fn objects_arrays_enums_and_consts() {
        let s = json!({
            "type": "object",
            "required": ["kind", "sets"],
            "additionalProperties": false,
            "properties": {
                "kind": {"enum": ["a", "b"]},
                "v": {"const": 1},
                "sets": {"type": "array", "minItems": 1, "maxItems": 2, "uniqueItems": true,
                         "items": {"type": "object", "additionalProperties": {"type": "integer"}}}
            }
        });
        assert!(issues(
            s.clone(),
            json!({"kind": "a", "v": 1.0, "sets": [{"r": 1}]})
        )
        .is_empty());
        assert_eq!(
            issues(s.clone(), json!({"extra": true, "kind": "c", "v": 2})),
            vec![
                ("extra".into(), "is not an allowed property".into()),
                ("kind".into(), "must be one of \"a\", \"b\"".into()),
                ("v".into(), "must be 1".into()),
                ("sets".into(), "is required".into()),
            ]
        );
        assert_eq!(
            issues(
                s,
                json!({"kind": "a", "sets": [{"r": 1}, {"r": 1.0}, {"r": "x"}]})
            ),
            vec![
                ("sets".into(), "must have at most 2 items".into()),
                ("sets".into(), "must not repeat an item".into()),
                ("sets[2].r".into(), "must be an integer".into()),
            ]
        );
    }

    #[test]
    fn combinations_name_the_closest_shape() {
        let s = json!({"anyOf": [
            {"type": "object", "required": ["op"], "properties": {"op": {"const": "add"}, "n": {"type": "integer"}}},
            {"type": "object", "required": ["op"], "properties": {"op": {"const": "del"}}}
        ]});
        let v = Validator::new(&s).unwrap();
        assert!(v.is_valid(&json!({"op": "del"})));
        assert_eq!(
            issues(s, json!({"op": "add", "n": "x"})),
            vec![(
                "".into(),
                "matches none of the 2 allowed shapes; the closest: n: must be an integer".into()
            )]
        );
        let one = json!({"oneOf": [{"type": "integer"}, {"minimum": 0}]});
        assert!(Validator::new(&one).unwrap().is_valid(&json!(-1)));
        assert_eq!(
            issues(one, json!(3)),
            vec![(
                "".into(),
                "matches more than one of the allowed shapes".into()
            )]
        );
        let all = json!({"allOf": [{"minimum": 0}, {"maximum": 5}]});
        assert_eq!(
            issues(all, json!(6)),
            vec![("".into(), "must be at most 5".into())]
        );
        assert!(!Validator::new(&json!(false)).unwrap().is_valid(&json!(1)));
        assert!(Validator::new(&json!({})).unwrap().is_valid(&json!([1])));
    }

    #[test]
    fn issues_stop_at_the_maximum() {
        let s = json!({"type": "array", "items": {"type": "string"}});
        let v = Validator::new(&s).unwrap();
        let found = v.issues(&json!([1, 2, 3, 4, 5]), 3);
        assert_eq!(found.len(), 3);
        assert_eq!(found[2].path, "[2]");
        assert!(!v.is_valid(&json!([1])));
    }

    #[test]
    fn what_is_not_read_is_refused() {
        for (schema, at) in [
            (json!({"format": "email"}), "/format"),
            (
                json!({"properties": {"a": {"$ref": "#/x"}}}),
                "/properties/a/$ref",
            ),
            (json!({"pattern": "a+"}), "/pattern"),
            (json!({"pattern": "^\\d$"}), "/pattern"),
            (json!({"items": [{"type": "string"}]}), "/items"),
            (json!({"type": "float"}), "/type"),
            (json!({"anyOf": []}), "/anyOf"),
            (json!({"minItems": -1}), "/minItems"),
            (json!(3), "/"),
        ] {
            let e = Validator::new(&schema).unwrap_err();
            assert_eq!(e.at, at, "{schema}: {e}");
        }
    }

    #[test]
    fn messages_never_quote_the_value() {
        let s = json!({"type": "object", "properties": {"title": {"type": "string", "maxLength": 3, "enum": ["abc"]}}});
        let secret = "my secret diary";
        for (_, message) in issues(s, json!({"title": secret})) {
            assert!(!message.contains("secret"), "{message}");
        }
    }
}
