//! YAML read under the caps of [`super::limits`] (ARCHITECTURE rule 10), into a JSON value. Pure.
//!
//! The caps are checked before anything is built from the text, each in time linear in its size:
//! 1. its size in bytes ([`MAX_YAML_BYTES`]) and its directives (lines that begin with `%`,
//!    [`MAX_YAML_DIRECTIVES`]: libyaml compares each `%TAG` with every earlier one);
//! 2. one pass over the events of libyaml (the parser `serde_norway` runs, so both read the same
//!    structure), stopped at the first cap passed: one document, collections nested at most
//!    [`MAX_YAML_DEPTH`] deep (block or flow, aliases expanded), aliases expanding to at most
//!    [`MAX_YAML_ALIAS_BYTES`] in all. libyaml's scanner spends time in proportion to the flow
//!    collections open at each token (`[[[a: ` repeated took minutes), so stopping at the cap
//!    bounds it; an expansion is summed from the anchors' sizes, never built.
//!
//! Only then does `serde_norway` build the value, refusing a key given twice in a mapping (the last
//! would silently win) and numbers that are not finite (`.nan`, `.inf`, which JSON cannot hold), each
//! with its path (`sets[3].target_weight`). Errors quote nothing of the text but a short excerpt of a
//! key in a path.

use std::cell::RefCell;
use std::collections::HashMap;
use std::ffi::CStr;
use std::fmt;
use std::marker::PhantomData;
use std::mem::MaybeUninit;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};
use unsafe_libyaml_norway as unsafe_yaml;

use super::limits::{
    excerpt, MAX_YAML_ALIAS_BYTES, MAX_YAML_BYTES, MAX_YAML_DEPTH, MAX_YAML_DIRECTIVES,
};

/// Why a YAML text was not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum YamlError {
    /// Not YAML.
    Syntax {
        /// Where the parser stopped (line and column, from 1), when it says.
        at: Option<(usize, usize)>,
    },
    /// Past a cap, or a key given twice.
    Refused {
        /// Where (`sets[3].id`); `None`: the text as a whole.
        path: Option<String>,
        /// Why, in the library's words.
        detail: String,
    },
    /// A number that is not finite (`.nan`, `.inf`): YAML, but no JSON value.
    NotFinite {
        /// Where the first one is.
        path: String,
    },
}

fn refused(detail: String) -> YamlError {
    YamlError::Refused { path: None, detail }
}

/// Reads `text` as one YAML document into a JSON value, under the caps (module documentation).
pub fn read(text: &str) -> Result<Value, YamlError> {
    check(text)?;
    let walk = RefCell::new(Walk::default());
    let read = Node { walk: &walk }.deserialize(serde_norway::Deserializer::from_str(text));
    let walk = walk.into_inner();
    if let Some(e) = walk.refused {
        return Err(e);
    }
    match (read, walk.not_finite) {
        (Err(e), _) => Err(YamlError::Syntax {
            at: e.location().map(|l| (l.line(), l.column())),
        }),
        (Ok(_), Some(path)) => Err(YamlError::NotFinite { path }),
        (Ok(v), None) => Ok(v),
    }
}

/// The caps of the module documentation, checked without building anything from `text`. A text
/// that is not YAML passes as far as the caps go; the parse that follows says why.
pub fn check(text: &str) -> Result<(), YamlError> {
    if text.len() > MAX_YAML_BYTES {
        return Err(refused(format!(
            "the document is over {MAX_YAML_BYTES} bytes"
        )));
    }
    if directives(text) > MAX_YAML_DIRECTIVES {
        return Err(refused(format!(
            "holds more than {MAX_YAML_DIRECTIVES} directives"
        )));
    }
    let Some(mut parser) = Parser::new(text) else {
        // libyaml could not allocate its parser: the parse that follows fails the same way.
        return Ok(());
    };
    let deep = || refused(format!("nested deeper than {MAX_YAML_DEPTH} levels"));
    let expands = || {
        refused(format!(
            "aliases expand to more than {MAX_YAML_ALIAS_BYTES} bytes"
        ))
    };
    let mut anchors = Anchors::default();
    let mut open: Vec<(Option<usize>, Size)> = Vec::new();
    let (mut documents, mut expansion) = (0, 0usize);
    while let Some(event) = parser.next() {
        let node = match event {
            Event::DocumentStart => {
                documents += 1;
                if documents > 1 {
                    return Err(refused("holds more than one document".into()));
                }
                continue;
            }
            Event::Open(anchor) => {
                if open.len() >= MAX_YAML_DEPTH {
                    return Err(deep());
                }
                let id = anchors.define(anchor, None);
                open.push((id, Size { bytes: 1, depth: 1 }));
                continue;
            }
            Event::Close => {
                let Some((id, size)) = open.pop() else {
                    continue;
                };
                anchors.complete(id, size);
                size
            }
            Event::Scalar { anchor, len } => {
                let size = Size {
                    bytes: len.saturating_add(1),
                    depth: 0,
                };
                anchors.define(anchor, Some(size));
                size
            }
            Event::Alias(name) => {
                let size = match anchors.size_of(&name) {
                    Some(size) => size.ok_or_else(expands)?,
                    // An unknown anchor: the parse that follows refuses it.
                    None => Size { bytes: 1, depth: 0 },
                };
                expansion = expansion.saturating_add(size.bytes);
                if expansion > MAX_YAML_ALIAS_BYTES {
                    return Err(expands());
                }
                if open.len() + size.depth > MAX_YAML_DEPTH {
                    return Err(deep());
                }
                size
            }
            Event::Other => continue,
        };
        if let Some((_, parent)) = open.last_mut() {
            parent.bytes = parent.bytes.saturating_add(node.bytes);
            parent.depth = parent.depth.max(node.depth + 1);
        }
    }
    Ok(())
}

/// How many lines of `text` begin with `%` (directives, when not inside a scalar): at the start,
/// after a byte order mark, or after any line break libyaml knows (`\n`, `\r`, NEL, LS, PS).
fn directives(text: &str) -> usize {
    let body = text.strip_prefix('\u{feff}').unwrap_or(text);
    let first = usize::from(body.starts_with('%'));
    let after_breaks = body
        .match_indices('%')
        .filter(|(at, _)| body[..*at].ends_with(['\n', '\r', '\u{85}', '\u{2028}', '\u{2029}']))
        .count();
    first + after_breaks
}

/// What a node stands for once its aliases are expanded: the bytes of its scalars plus one per
/// node, and how many levels of collections it holds (0 for a scalar).
#[derive(Debug, Clone, Copy)]
struct Size {
    bytes: usize,
    depth: usize,
}

/// The anchors of a document: per name its latest definition (as `serde_norway` resolves an
/// alias), per definition its size once complete (`None` while its collection is open: an alias
/// inside it would expand without end).
#[derive(Default)]
struct Anchors {
    by_name: HashMap<Vec<u8>, usize>,
    sizes: Vec<Option<Size>>,
}

impl Anchors {
    /// Records the definition of `anchor` (if any) with its size, if known; its id.
    fn define(&mut self, anchor: Option<Vec<u8>>, size: Option<Size>) -> Option<usize> {
        let name = anchor?;
        self.by_name.insert(name, self.sizes.len());
        self.sizes.push(size);
        Some(self.sizes.len() - 1)
    }

    /// The size of the definition `id` (if any), now complete.
    fn complete(&mut self, id: Option<usize>, size: Size) {
        if let Some(id) = id {
            self.sizes[id] = Some(size);
        }
    }

    /// What an alias to `name` stands for: `None` for an unknown anchor, `Some(None)` for one
    /// still open.
    fn size_of(&self, name: &[u8]) -> Option<Option<Size>> {
        self.by_name.get(name).map(|&id| self.sizes[id])
    }
}

/// One of libyaml's events, as far as the caps look at it.
enum Event {
    DocumentStart,
    /// A sequence or a mapping begins, with its anchor.
    Open(Option<Vec<u8>>),
    /// The innermost open sequence or mapping ends.
    Close,
    Scalar {
        anchor: Option<Vec<u8>>,
        len: usize,
    },
    Alias(Vec<u8>),
    /// The start or end of the stream, the end of a document.
    Other,
}

/// libyaml's parser over a text, one event at a time.
struct Parser<'a> {
    /// Initialised by [`Parser::new`]; boxed because libyaml keeps a pointer to it.
    sys: Box<MaybeUninit<unsafe_yaml::yaml_parser_t>>,
    done: bool,
    /// libyaml reads the text in place.
    text: PhantomData<&'a str>,
}

impl<'a> Parser<'a> {
    fn new(text: &'a str) -> Option<Self> {
        let mut sys = Box::new(MaybeUninit::<unsafe_yaml::yaml_parser_t>::uninit());
        let parser = sys.as_mut_ptr();
        // SAFETY: `parser` points to memory for one parser, which `yaml_parser_initialize` fills;
        // on failure nothing was allocated and nothing is read. The text outlives the parser
        // (`'a`), and the boxed parser never moves.
        unsafe {
            if unsafe_yaml::yaml_parser_initialize(parser).fail {
                return None;
            }
            unsafe_yaml::yaml_parser_set_encoding(parser, unsafe_yaml::YAML_UTF8_ENCODING);
            unsafe_yaml::yaml_parser_set_input_string(parser, text.as_ptr(), text.len() as _);
        }
        Some(Parser {
            sys,
            done: false,
            text: PhantomData,
        })
    }

    /// The next event; `None` after the end of the stream or at the first error.
    fn next(&mut self) -> Option<Event> {
        if self.done {
            return None;
        }
        let mut event = MaybeUninit::<unsafe_yaml::yaml_event_t>::uninit();
        let event = event.as_mut_ptr();
        // SAFETY: the parser was initialised in `new`; `yaml_parser_parse` fills `event` when it
        // succeeds (and only then is it read and deleted). Anchors are NUL-terminated strings
        // owned by the event, copied before it is deleted.
        unsafe {
            if unsafe_yaml::yaml_parser_parse(self.sys.as_mut_ptr(), event).fail {
                self.done = true;
                return None;
            }
            let anchor =
                |p: *const u8| (!p.is_null()).then(|| CStr::from_ptr(p.cast()).to_bytes().to_vec());
            let data = &(*event).data;
            let out = match (*event).type_ {
                unsafe_yaml::YAML_DOCUMENT_START_EVENT => Event::DocumentStart,
                unsafe_yaml::YAML_SEQUENCE_START_EVENT => {
                    Event::Open(anchor(data.sequence_start.anchor))
                }
                unsafe_yaml::YAML_MAPPING_START_EVENT => {
                    Event::Open(anchor(data.mapping_start.anchor))
                }
                unsafe_yaml::YAML_SEQUENCE_END_EVENT | unsafe_yaml::YAML_MAPPING_END_EVENT => {
                    Event::Close
                }
                unsafe_yaml::YAML_SCALAR_EVENT => Event::Scalar {
                    anchor: anchor(data.scalar.anchor),
                    len: data.scalar.length as usize,
                },
                unsafe_yaml::YAML_ALIAS_EVENT => {
                    Event::Alias(anchor(data.alias.anchor).unwrap_or_default())
                }
                unsafe_yaml::YAML_STREAM_END_EVENT => {
                    self.done = true;
                    Event::Other
                }
                _ => Event::Other,
            };
            unsafe_yaml::yaml_event_delete(event);
            Some(out)
        }
    }
}

impl Drop for Parser<'_> {
    fn drop(&mut self) {
        // SAFETY: initialised in `new` (a `Parser` exists only then), deleted once.
        unsafe { unsafe_yaml::yaml_parser_delete(self.sys.as_mut_ptr()) }
    }
}

/// One step of a path: a mapping's key or a sequence's index.
enum Step {
    Key(String),
    Index(usize),
}

/// What the value's walk keeps: where it is, and what it found to refuse.
#[derive(Default)]
struct Walk {
    path: Vec<Step>,
    /// A key given twice (the walk stops there).
    refused: Option<YamlError>,
    /// The path of the first number that is not finite (the walk goes on: a text that is not YAML
    /// further on is `Syntax`).
    not_finite: Option<String>,
}

impl Walk {
    /// The path, `sets[3].id`, each key cut to a short excerpt.
    fn path(&self) -> String {
        let mut out = String::new();
        for step in &self.path {
            match step {
                Step::Key(k) => {
                    if !out.is_empty() {
                        out.push('.');
                    }
                    out.push_str(&excerpt(k));
                }
                Step::Index(i) => out.push_str(&format!("[{i}]")),
            }
        }
        out
    }
}

/// A value read into JSON as `serde_json::Value` reads it, with the walk's checks.
#[derive(Clone, Copy)]
struct Node<'w> {
    walk: &'w RefCell<Walk>,
}

impl<'de> DeserializeSeed<'de> for Node<'_> {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Node<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_i128<E: de::Error>(self, v: i128) -> Result<Value, E> {
        serde::Deserialize::deserialize(de::value::I128Deserializer::new(v))
    }
    fn visit_u128<E: de::Error>(self, v: u128) -> Result<Value, E> {
        serde::Deserialize::deserialize(de::value::U128Deserializer::new(v))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        match serde_json::Number::from_f64(v) {
            Some(n) => Ok(Value::Number(n)),
            None => {
                let mut walk = self.walk.borrow_mut();
                if walk.not_finite.is_none() {
                    walk.not_finite = Some(walk.path());
                }
                Ok(Value::Null)
            }
        }
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_string()))
    }
    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        self.deserialize(d)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        loop {
            self.walk.borrow_mut().path.push(Step::Index(items.len()));
            let item = seq.next_element_seed(self);
            self.walk.borrow_mut().path.pop();
            match item? {
                Some(v) => items.push(v),
                None => return Ok(Value::Array(items)),
            }
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut out = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            let mut walk = self.walk.borrow_mut();
            walk.path.push(Step::Key(key.clone()));
            if out.contains_key(&key) {
                walk.refused = Some(YamlError::Refused {
                    path: Some(walk.path()),
                    detail: "the key appears twice in its mapping".into(),
                });
                return Err(de::Error::custom("duplicate key"));
            }
            drop(walk);
            let value = map.next_value_seed(self);
            self.walk.borrow_mut().path.pop();
            out.insert(key, value?);
        }
        Ok(Value::Object(out))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn detail(text: &str) -> String {
        match read(text) {
            Err(YamlError::Refused { detail, .. }) => detail,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn reads_yaml_as_json() {
        let v = read("a: 1\nb: [x, 'y', 2.5, null, true]\nc: {d: -3}\n").unwrap();
        assert_eq!(
            v,
            serde_json::json!({"a": 1, "b": ["x", "y", 2.5, null, true], "c": {"d": -3}})
        );
        assert_eq!(
            read("{\"a\": [1, {\"b\": \"c\"}]}").unwrap()["a"][1]["b"],
            "c"
        );
        // Aliases within the budget are expanded.
        let v = read("a: &n [1, 2]\nb: *n\n").unwrap();
        assert_eq!(v["b"], serde_json::json!([1, 2]));
        assert!(matches!(
            read("a: [1,\n"),
            Err(YamlError::Syntax { at: Some(_) })
        ));
    }

    #[test]
    fn nesting_is_capped_in_every_form() {
        let ok = format!("{}1{}", "[".repeat(64), "]".repeat(64));
        assert!(read(&ok).is_ok());
        for deep in [
            format!("{}1{}", "[".repeat(65), "]".repeat(65)),
            "[[[a: ".repeat(100),
            "{? ".repeat(100),
            "- ".repeat(65) + "a",
            (0..65).map(|i| format!("{}a:\n", " ".repeat(i))).collect(),
        ] {
            assert_eq!(detail(&deep), "nested deeper than 64 levels", "{deep:.30}");
        }
        // Through aliases: 40 levels repeated 40 levels down.
        let forty = format!("{}1{}", "[".repeat(40), "]".repeat(40));
        let text = format!("a: &x {forty}\nb: {}*x{}\n", "[".repeat(39), "]".repeat(39));
        assert_eq!(detail(&text), "nested deeper than 64 levels");
    }

    #[test]
    fn aliases_are_capped_by_what_they_expand_to() {
        let big = "b".repeat(40_000);
        assert!(read(&format!("a: &x {big}\nc: *x\n")).is_ok());
        let twice = format!("a: &x {big}\nc: [*x, *x]\n");
        assert_eq!(detail(&twice), "aliases expand to more than 65536 bytes");
        let mut laughs =
            String::from("a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
        for i in 1..10 {
            laughs += &format!(
                "a{i}: &a{i} [{}]\n",
                vec![format!("*a{}", i - 1); 10].join(", ")
            );
        }
        assert_eq!(detail(&laughs), "aliases expand to more than 65536 bytes");
        // An alias inside its own anchor expands without end.
        assert_eq!(
            detail("a: &x [1, *x]\n"),
            "aliases expand to more than 65536 bytes"
        );
        // The latest definition of a name is the one an alias means.
        let v = read("a: &x [1, &x 2, *x]\nb: *x\n").unwrap();
        assert_eq!(v["a"], serde_json::json!([1, 2, 2]));
        assert_eq!(v["b"], serde_json::json!(2));
    }

    #[test]
    fn size_directives_and_documents_are_capped() {
        let big = format!("a: {}", "b".repeat(MAX_YAML_BYTES));
        assert_eq!(detail(&big), "the document is over 262144 bytes");
        let tags: String = (0..17)
            .map(|i| format!("%TAG !t{i}! tag:x,{i}:\n"))
            .collect();
        assert_eq!(
            detail(&(tags + "---\na: 1\n")),
            "holds more than 16 directives"
        );
        let tags: String = (0..16)
            .map(|i| format!("%TAG !t{i}! tag:x,{i}:\n"))
            .collect();
        assert!(read(&(tags + "---\na: 1\n")).is_ok());
        assert_eq!(directives("\u{feff}%a\r%b\u{2028}%c x%d\n %e"), 3);
        assert_eq!(detail("a: 1\n---\nb: 2\n"), "holds more than one document");
    }

    #[test]
    fn duplicate_keys_and_non_finite_numbers_have_a_path() {
        let dup = |text: &str| match read(text) {
            Err(YamlError::Refused { path, detail }) => {
                assert_eq!(detail, "the key appears twice in its mapping");
                path
            }
            other => panic!("{other:?}"),
        };
        assert_eq!(dup("units: lbs\nunits: kg\n").as_deref(), Some("units"));
        assert_eq!(
            dup("s:\n- a: 1\n- a: 1\n  'a': 2\n").as_deref(),
            Some("s[1].a")
        );
        let long = "k".repeat(100);
        assert_eq!(
            dup(&format!("x: {{{long}: 1, {long}: 2}}")),
            Some(format!("x.{}…", "k".repeat(40)))
        );
        for n in [".nan", ".NaN", ".inf", "-.Inf", "+.INF"] {
            assert_eq!(
                read(&format!("a: 1\ns: [0, {{w: {n}}}]\n")),
                Err(YamlError::NotFinite {
                    path: "s[1].w".into()
                }),
                "{n}"
            );
        }
        // Too large for a double: a string, as before.
        assert_eq!(read("w: 1e400").unwrap()["w"], "1e400");
        // Not YAML after a non-finite number: the syntax error wins.
        assert!(matches!(
            read("a: .nan\nb: [\n"),
            Err(YamlError::Syntax { .. })
        ));
    }
}
