//! Input caps (ARCHITECTURE rule 10): what every entry point that takes JSON text from a caller
//! (the C API, the CLI, the `*_json` calls of [`crate::Coach`]) checks before it builds anything
//! from it, and the short excerpt an error may quote of a caller's value. Pure.
//!
//! The caps are checked in this order, each before any allocation that grows with the input:
//! 1. the size of the whole text in bytes ([`Caps::bytes`]);
//! 2. for operations, their count ([`count_operations`], streamed: nothing is kept per element),
//!    so more than [`crate::assistant::MAX_OPERATIONS`] is refused before any is shaped;
//! 3. one pass over the bytes ([`check_json`]) for the nesting depth ([`Caps::depth`]) and the
//!    length of every array ([`Caps::top_items`] for an array at the top, [`Caps::items`] below).
//!
//! Only then is the text parsed. A refusal is `invalid_argument` with a detail in the library's
//! words (`nested deeper than 64 levels`, `larger than 1048576 bytes`); nothing of the text is
//! quoted.
//!
//! YAML (the workout documents) has caps of its own, the `MAX_YAML_*` below, which
//! [`super::yaml`] checks before anything is built from the text.

use serde::de::{Deserialize, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

use crate::kernel::error::json::outside_strings;
use crate::kernel::error::RequestError;

/// Recipes per import call, at most.
pub const MAX_IMPORT_RECIPES: usize = 20_000;
/// Bytes of import JSON, at most (checked before parsing).
pub const MAX_IMPORT_BYTES: usize = 32 * 1024 * 1024;

/// Bytes of one request to the C API (`coach_call`), of the stdin of `coach suggest evaluate` and
/// `coach plan transform`, or of the CLI's `--script` file, at most: 1 MiB.
pub const MAX_REQUEST_BYTES: usize = 1 << 20;
/// Bytes of a meal-plan or workout request read as JSON (`Meals::request_from_json`, `meals.plan`,
/// `Workouts::request_from_json`, the `--request` file of `coach meals plan` and
/// `coach workout generate`), at most: 256 KiB.
pub const MAX_JOB_REQUEST_BYTES: usize = 256 << 10;
/// Bytes of an operations text (`Planner::dry_run_json`, `Planner::apply_json`, `planner.dryRun`, `planner.apply`,
/// `coach ops`), at most: 512 KiB (20 operations with notes at their longest fit in a fifth).
pub const MAX_OPERATIONS_BYTES: usize = 512 << 10;
/// Nesting of arrays and objects, at most (serde_json alone stops at 128 and calls it malformed).
pub const MAX_DEPTH: usize = 64;
/// Elements of one array, at most, unless a call names its own cap (recipes import: 20,000 at the
/// top).
pub const MAX_ARRAY_ITEMS: usize = 1000;
/// Bytes of a YAML document (a workout), at most.
pub const MAX_YAML_BYTES: usize = 256 << 10;
/// Nesting of a YAML document's collections, block or flow, with its aliases expanded, at most.
pub const MAX_YAML_DEPTH: usize = MAX_DEPTH;
/// What the aliases of a YAML document add, in all, at most: each alias counts what its anchor
/// stands for (expanded), one per node plus the bytes of each scalar. 64 KiB: a workout repeats
/// little, and the alias bomb of issue 22 (one 200 KB scalar named 12,000 times) would add 2.4 GB.
pub const MAX_YAML_ALIAS_BYTES: usize = 64 << 10;
/// Lines of a YAML text that begin with `%` (directives such as `%TAG`), at most.
pub const MAX_YAML_DIRECTIVES: usize = 16;
/// Characters of a free-text field (`notes` of a todo, event, habit or goal), at most.
pub const MAX_NOTES_CHARS: usize = 2000;
/// Characters of a caller's value an error or a repair note may quote, at most (then `…`).
pub const MAX_EXCERPT_CHARS: usize = 40;

/// The caps of one kind of input (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Caps {
    /// Bytes of the whole text.
    pub bytes: usize,
    /// Nesting of arrays and objects.
    pub depth: usize,
    /// Elements of an array at the top of the text.
    pub top_items: usize,
    /// Elements of any other array.
    pub items: usize,
}

impl Caps {
    /// A request to the C API or the CLI.
    pub const REQUEST: Caps = Caps {
        bytes: MAX_REQUEST_BYTES,
        depth: MAX_DEPTH,
        top_items: MAX_ARRAY_ITEMS,
        items: MAX_ARRAY_ITEMS,
    };
    /// An operations text (the C API's request adds `today` and a key: a little more room).
    pub const OPERATIONS: Caps = Caps {
        bytes: MAX_OPERATIONS_BYTES,
        ..Caps::REQUEST
    };
    /// A recipes import: the size and count caps of meal imports (above; `meals::validate` re-exports
    /// them); inner lists are
    /// short (at most 60 ingredients).
    pub const RECIPES: Caps = Caps {
        bytes: MAX_IMPORT_BYTES,
        depth: MAX_DEPTH,
        top_items: MAX_IMPORT_RECIPES,
        items: 100,
    };
    /// An analyzer plan to render (`workout.render`): its lists are short (at most 12 exercises in
    /// the schema), so an array of more than 64 elements is refused before a JSON value is built
    /// (a megabyte of small numbers would need about 35 MB as a value).
    pub const ANALYZER_PLAN: Caps = Caps {
        top_items: 64,
        items: 64,
        ..Caps::REQUEST
    };
    /// An export document given to `data().importAll`: up to [`MAX_EXPORT_BYTES`], nested at most 6
    /// levels (document, tables, table, rows, row); the rows are streamed into the database as they
    /// are read, so arrays may be long.
    pub const EXPORT: Caps = Caps {
        bytes: MAX_EXPORT_BYTES,
        depth: 6,
        top_items: usize::MAX,
        items: usize::MAX,
    };
}

/// The largest export document `data().importAll` reads: 256 MiB.
pub const MAX_EXPORT_BYTES: usize = 256 << 20;

fn refused(detail: String) -> RequestError {
    RequestError { path: None, detail }
}

/// Checks the size of `text` against [`Caps::bytes`].
pub fn check_size(text: &str, caps: &Caps) -> Result<(), RequestError> {
    if text.len() > caps.bytes {
        return Err(refused(format!("larger than {} bytes", caps.bytes)));
    }
    Ok(())
}

/// Checks `text` against `caps` without parsing it: its size, then, in one pass over the bytes
/// that keeps only one counter per open array or object, the nesting depth and the length of
/// every array. Malformed JSON is left to the parser that follows.
pub fn check_json(text: &str, caps: &Caps) -> Result<(), RequestError> {
    check_size(text, caps)?;
    // Per open container: is it an array, and how many elements have started in it.
    let mut stack: Vec<(bool, usize)> = Vec::new();
    for (_, b) in outside_strings(text) {
        if b.is_ascii_whitespace() {
            continue;
        }
        // The first element of an array starts at its first byte that is not `]`.
        if let Some((true, n @ 0)) = stack.last_mut() {
            if b != b']' {
                *n = 1;
            }
        }
        match b {
            b'[' | b'{' => {
                if stack.len() >= caps.depth {
                    return Err(refused(format!("nested deeper than {} levels", caps.depth)));
                }
                stack.push((b == b'[', 0));
            }
            b']' | b'}' => {
                stack.pop();
            }
            b',' => {
                let top = stack.len() == 1;
                if let Some((true, n)) = stack.last_mut() {
                    *n += 1;
                    let cap = if top { caps.top_items } else { caps.items };
                    if *n > cap {
                        return Err(refused(format!("an array holds more than {cap} elements")));
                    }
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// How many operations an operations text holds (`{"operations":[...]}` or a bare array),
/// counted without building them; `None` when the text holds no such list or is not JSON (the
/// parse that follows reports why).
pub fn count_operations(text: &str) -> Option<usize> {
    let mut de = serde_json::Deserializer::from_str(text);
    let count = OpsCount::deserialize(&mut de).ok()?.0;
    de.end().ok()?;
    count
}

/// The length of an operation list, read with [`IgnoredAny`] elements.
struct OpsCount(Option<usize>);

/// The length of an array (`None` for any other value).
struct SeqLen(Option<usize>);

struct OpsVisitor {
    top: bool,
}

impl<'de> Visitor<'de> for OpsVisitor {
    type Value = Option<usize>;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("an operation list")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut n = 0usize;
        while seq.next_element::<IgnoredAny>()?.is_some() {
            n += 1;
        }
        Ok(Some(n))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut count = None;
        while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            if self.top && key == "operations" {
                count = map.next_value::<SeqLen>()?.0;
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(if self.top { count } else { None })
    }

    fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(None)
    }
}

impl<'de> Deserialize<'de> for OpsCount {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(OpsVisitor { top: true }).map(OpsCount)
    }
}

impl<'de> Deserialize<'de> for SeqLen {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(OpsVisitor { top: false }).map(SeqLen)
    }
}

/// At most [`MAX_EXCERPT_CHARS`] characters of a caller's value, with `…` when cut: what an error
/// message or a repair note may quote.
pub fn excerpt(s: &str) -> String {
    match s.char_indices().nth(MAX_EXCERPT_CHARS) {
        None => s.to_string(),
        Some((at, _)) => format!("{}…", &s[..at]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: Caps = Caps {
        bytes: 100,
        depth: 3,
        top_items: 4,
        items: 2,
    };

    #[test]
    fn sizes_depths_and_lengths() {
        for ok in [
            "[]",
            "[1,2,3,4]",
            "{\"a\":[1,2],\"b\":[[1],[2]]}",
            r#"["[[[[,,,,", "\"]]]]"]"#,
            "[[[]]]",
            " [ ] ",
        ] {
            assert_eq!(check_json(ok, &SMALL), Ok(()), "{ok}");
        }
        for (bad, detail) in [
            ("[1,2,3,4,5]", "an array holds more than 4 elements"),
            ("[[1,2,3]]", "an array holds more than 2 elements"),
            ("[[[[]]]]", "nested deeper than 3 levels"),
            ("{\"a\":{\"b\":{\"c\":{}}}}", "nested deeper than 3 levels"),
        ] {
            assert_eq!(check_json(bad, &SMALL).unwrap_err().detail, detail, "{bad}");
        }
        let big = format!("\"{}\"", "x".repeat(100));
        assert_eq!(
            check_json(&big, &SMALL).unwrap_err().detail,
            "larger than 100 bytes"
        );
    }

    #[test]
    fn operations_are_counted_without_shaping() {
        assert_eq!(count_operations("[{},{},1]"), Some(3));
        assert_eq!(
            count_operations(r#"{"x":[1,2],"operations":[{"a":[1,2,3]},{}]}"#),
            Some(2)
        );
        assert_eq!(count_operations(r#"{"operations":{}}"#), None);
        assert_eq!(count_operations("42"), None);
        assert_eq!(count_operations("[1,"), None);
    }

    #[test]
    fn excerpts_are_short() {
        assert_eq!(excerpt("high"), "high");
        let long = "é".repeat(41);
        assert_eq!(excerpt(&long), format!("{}…", "é".repeat(40)));
        assert_eq!(excerpt(&"x".repeat(40)), "x".repeat(40));
    }
}
