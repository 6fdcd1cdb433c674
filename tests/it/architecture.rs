//! The house rules that code review alone would let drift (ARCHITECTURE.md):
//! - pure feature files do not reach the store or a model: only a feature's `service.rs` (or
//!   `service/` folder) does. A pure file names nothing of `crate::store`, and of `crate::llm`
//!   only the pure parts on [`PURE_LLM`]; it names no metered wrapper, shared model, SQLite,
//!   llama.cpp or validated generation;
//! - every file under `src/` is on ARCHITECTURE.md's map.

use std::path::{Path, PathBuf};

/// The feature folders whose files are pure except their service (those that exist are checked).
const FEATURE_FOLDERS: [&str; 5] = [
    "src/plan",
    "src/suggest",
    "src/assistant",
    "src/workout",
    "src/meals",
];

/// Names only a service may use: SQLite, a model (as a trait object, through the metered wrapper
/// or the shared model), validated generation, llama.cpp. Matched as whole words in code
/// (comments and string literals are not code).
const SERVICE_ONLY: [&str; 6] = [
    "rusqlite",
    "LanguageModel",
    "Metered",
    "SharedModel",
    "generate_validated",
    "llama_cpp_2",
];

/// The parts of `crate::llm` a pure file may name (paths from `crate::llm`): a module (all its
/// items) or one item. They are pure: JSON extraction, JSON Schema validation, the record of a
/// validation issue, the default attempt count, and plain model records. Anything else of
/// `crate::llm` (the trait, the metered wrapper, the engine, validated generation) is a service's.
const PURE_LLM: [&str; 6] = [
    "extract",
    "schema",
    "structured::Issue",
    "structured::DEFAULT_ATTEMPTS",
    "ModelInfo",
    "Sampling",
];

/// Files known to be missing from the map today (the map is brought up to date after the
/// restructuring): name each there, then remove it from this list (the test fails on an entry that
/// is on the map, or gone, to keep the list honest).
const NOT_YET_ON_THE_MAP: [&str; 0] = [];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every file under `dir` (recursively), as paths from the repository root with `/` separators,
/// sorted.
fn files_under(dir: &str) -> Vec<String> {
    fn walk(path: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(path).unwrap() {
            let p = entry.unwrap().path();
            if p.is_dir() {
                walk(&p, out);
            } else {
                out.push(p);
            }
        }
    }
    let root = root();
    let mut found = Vec::new();
    if root.join(dir).is_dir() {
        walk(&root.join(dir), &mut found);
    }
    let mut out: Vec<String> = found
        .iter()
        .map(|p| {
            let rel = p.strip_prefix(&root).unwrap();
            rel.components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect::<Vec<_>>()
                .join("/")
        })
        .collect();
    out.sort();
    out
}

/// A pure file: under a feature folder, not named `service.rs` and not inside a `service/` folder.
fn is_pure(path: &str) -> bool {
    let parts: Vec<&str> = path.split('/').collect();
    let (name, folders) = parts.split_last().unwrap();
    path.ends_with(".rs") && *name != "service.rs" && !folders.contains(&"service")
}

/// `text` with its comments and string and character literals blanked out (newlines kept, so
/// offsets still give line numbers).
fn code_only(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = b.to_vec();
    let blank = |out: &mut Vec<u8>, from: usize, to: usize| {
        for c in &mut out[from..to] {
            if *c != b'\n' {
                *c = b' ';
            }
        }
    };
    let mut i = 0;
    while i < b.len() {
        let start = i;
        if b[i..].starts_with(b"//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i..].starts_with(b"/*") {
            let mut depth = 0;
            while i < b.len() {
                if b[i..].starts_with(b"/*") {
                    depth += 1;
                    i += 2;
                } else if b[i..].starts_with(b"*/") {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if b[i] == b'r'
            && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_'))
            && b.get(i + 1 + hashes_at(b, i + 1)) == Some(&b'"')
        {
            let hashes = hashes_at(b, i + 1);
            let close: Vec<u8> = std::iter::once(b'"')
                .chain(std::iter::repeat_n(b'#', hashes))
                .collect();
            i += 2 + hashes;
            while i < b.len() && !b[i..].starts_with(&close) {
                i += 1;
            }
            i = (i + close.len()).min(b.len());
        } else if b[i] == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i = (i + 1).min(b.len());
        } else if b[i] == b'\'' {
            // A character literal ('x', '\n', '\u{..}'), not a lifetime ('a).
            let len = if b.get(i + 1) == Some(&b'\\') {
                b.get(i + 3..)
                    .and_then(|t| t.iter().position(|c| *c == b'\''))
                    .map(|p| p + 4)
            } else {
                let ch = text[i + 1..].chars().next().map_or(1, char::len_utf8);
                (b.get(i + 1 + ch) == Some(&b'\'')).then_some(ch + 2)
            };
            i += len.unwrap_or(1);
            if len.is_none() {
                continue;
            }
        } else {
            i += 1;
            continue;
        }
        blank(&mut out, start, i.min(b.len()));
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// How many `#` stand at `at` (a raw string's opening).
fn hashes_at(b: &[u8], at: usize) -> usize {
    b[at.min(b.len())..]
        .iter()
        .take_while(|c| **c == b'#')
        .count()
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The full paths a `use` tree names (`crate::llm::{extract, structured::Issue as I}` gives
/// `crate::llm::extract` and `crate::llm::structured::Issue`), white space removed.
fn flatten_use(tree: &str) -> Vec<String> {
    fn walk(prefix: &str, tree: &str, out: &mut Vec<String>) {
        let tree = tree.trim();
        let Some(open) = tree.find('{') else {
            let path = tree.split(" as ").next().unwrap_or(tree).trim();
            let path = path.strip_suffix("::self").unwrap_or(path);
            out.push(format!("{prefix}{path}"));
            return;
        };
        let head = &tree[..open];
        let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
        let (mut depth, mut from) = (0, 0);
        for (i, c) in inner.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    walk(&format!("{prefix}{head}"), &inner[from..i], out);
                    from = i + 1;
                }
                _ => {}
            }
        }
        if !inner[from..].trim().is_empty() {
            walk(&format!("{prefix}{head}"), &inner[from..], out);
        }
    }
    let compact: String = tree.split_whitespace().collect::<Vec<_>>().join(" ");
    let compact = compact.replace(" ::", "::").replace(":: ", "::");
    let mut out = Vec::new();
    walk("", &compact, &mut out);
    out.into_iter()
        .map(|p| p.strip_suffix("::").unwrap_or(&p).to_string())
        .collect()
}

/// What a path names of the crate's own modules: `Some(path from the crate root)` when it starts
/// with `crate`, `super` or `self` (`super::super::llm::X` gives `llm::X`; the feature folders
/// have no module of their own named `llm` or `store`), else `None`.
fn crate_path(path: &str) -> Option<String> {
    let segments: Vec<&str> = path.split("::").collect();
    let lead = segments
        .iter()
        .take_while(|s| matches!(**s, "crate" | "super" | "self"))
        .count();
    (lead > 0).then(|| segments[lead..].join("::"))
}

/// Why a crate path may not be named by a pure file, if it may not.
fn refused_path(path: &str) -> Option<String> {
    let rel = crate_path(path)?;
    let mut parts = rel.splitn(2, "::");
    match (parts.next(), parts.next()) {
        (Some("store"), _) => Some(format!("{path} (the store)")),
        (Some("llm"), rest) => {
            let rest = rest.unwrap_or("");
            let pure = PURE_LLM
                .iter()
                .any(|p| rest == *p || rest.starts_with(&format!("{p}::")));
            (!pure).then(|| format!("{path} (not a pure part of crate::llm: {PURE_LLM:?})"))
        }
        _ => None,
    }
}

/// What a pure file's source names that only a service may: `(line, what)` pairs.
fn impure_names(text: &str) -> Vec<(usize, String)> {
    let code = code_only(text);
    let line_of = |at: usize| code[..at].matches('\n').count() + 1;
    let mut found = Vec::new();
    // `use` trees, flattened; then blanked, so that the scan of other paths skips them.
    let mut rest = code.clone();
    let mut at = 0;
    while let Some(pos) = code[at..].find("use ") {
        let start = at + pos;
        at = start + 4;
        if start > 0 && code[..start].chars().next_back().is_some_and(is_ident) {
            continue;
        }
        let Some(len) = code[at..].find(';') else {
            break;
        };
        for path in flatten_use(&code[at..at + len]) {
            if let Some(why) = refused_path(&path) {
                found.push((line_of(start), why));
            }
        }
        rest.replace_range(start..at + len, &" ".repeat(at + len - start));
        at += len;
    }
    // Other paths (`crate::llm::metered::Metered::new(..)`): runs of name characters and `::`.
    let mut from = None;
    for (i, c) in rest
        .char_indices()
        .chain(std::iter::once((rest.len(), ' ')))
    {
        match (from, is_ident(c) || c == ':') {
            (None, true) => from = Some(i),
            (Some(start), false) => {
                let path = rest[start..i].trim_matches(':');
                if path.contains("::") {
                    if let Some(why) = refused_path(path) {
                        found.push((line_of(start), why));
                    }
                }
                from = None;
            }
            _ => {}
        }
    }
    // Names, as whole words.
    for needle in SERVICE_ONLY {
        for (pos, _) in code.match_indices(needle) {
            let before = code[..pos].chars().next_back();
            let after = code[pos + needle.len()..].chars().next();
            if !before.is_some_and(is_ident) && !after.is_some_and(is_ident) {
                found.push((line_of(pos), needle.to_string()));
            }
        }
    }
    found.sort();
    found.dedup();
    found
}

#[test]
fn pure_feature_files_reach_neither_the_store_nor_a_model() {
    let mut offenders = Vec::new();
    for folder in FEATURE_FOLDERS {
        for path in files_under(folder).into_iter().filter(|p| is_pure(p)) {
            let text = std::fs::read_to_string(root().join(&path)).unwrap();
            for (line, what) in impure_names(&text) {
                offenders.push(format!("  {path}:{line}: {what}"));
            }
        }
    }
    assert!(
        offenders.is_empty(),
        "a pure file (under {FEATURE_FOLDERS:?}, not `service.rs`, not in a `service/` folder) \
         must not name crate::store, any of crate::llm but {PURE_LLM:?}, nor any of \
         {SERVICE_ONLY:?}; move that code to the feature's service:\n{}",
        offenders.join("\n")
    );
}

#[test]
fn the_purity_check_finds_what_a_pure_file_may_not_name() {
    let pure = r###"
//! Uses crate::store::Store and Metered in its docs only.
use std::collections::HashMap;
use crate::llm::extract::{extract_json, parse_model_json};
use crate::llm::{structured::Issue, ModelInfo, Sampling};
use super::super::llm::structured::DEFAULT_ATTEMPTS;
use crate::{clock::Clock, llm::extract::*};
fn f(c: char) -> &'static str {
    let _ = ('"', '\'', "use crate::store::Store; // rusqlite");
    let _ = r#"crate::llm::metered::Metered"#;
    let _: Option<crate::llm::ModelInfo> = None; // SharedModel
    /* dyn LanguageModel */
    "x"
}
"###;
    assert_eq!(impure_names(pure), Vec::<(usize, String)>::new());

    let cases = [
        ("use crate::store::Store;", "crate::store::Store"),
        ("use crate::store;", "crate::store"),
        (
            "use super::super::store::{Db, Store};",
            "super::super::store::Db",
        ),
        (
            "use crate::llm::metered::Metered;",
            "crate::llm::metered::Metered",
        ),
        (
            "use crate::llm::{extract, LanguageModel};",
            "crate::llm::LanguageModel",
        ),
        ("use crate::llm;", "crate::llm"),
        ("use crate::llm::*;", "crate::llm::*"),
        ("use crate::llm as model;", "crate::llm"),
        (
            "use crate::{clock::Clock, llm::structured::{generate_validated, Issue}};",
            "generate_validated",
        ),
        (
            "use crate::llm::structured::Issue as I;\nuse crate::llm::breaker::Breaker;",
            "crate::llm::breaker::Breaker",
        ),
        (
            "pub(crate) use crate::llm::model::GenerationRequest;",
            "crate::llm::model::GenerationRequest",
        ),
        (
            "fn f() { let s = crate::store::Store::open(p); }",
            "crate::store::Store::open",
        ),
        (
            "fn f(m: &crate::llm::metered::SharedModel) {}",
            "crate::llm::metered::SharedModel",
        ),
        ("fn f(m: &Metered<'_>) {}", "Metered"),
        ("fn f(m: &SharedModel) {}", "SharedModel"),
        ("fn f(m: &dyn LanguageModel) {}", "LanguageModel"),
        ("fn f(c: &rusqlite::Connection) {}", "rusqlite"),
        ("fn f() { llama_cpp_2::init(); }", "llama_cpp_2"),
    ];
    for (code, expected) in cases {
        let found = impure_names(code);
        assert!(
            found.iter().any(|(_, what)| what.contains(expected)),
            "{code:?} should be refused for {expected:?}; found {found:?}"
        );
    }
    assert_eq!(impure_names("\n\nuse crate::store::Store;")[0].0, 3);
}

/// One row of ARCHITECTURE.md's table: the backticked names of its first cell and of the row.
struct Row {
    heads: Vec<String>,
    names: Vec<String>,
}

/// The text between backticks.
fn backticked(text: &str) -> Vec<String> {
    text.split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

fn map_rows() -> Vec<Row> {
    let text = std::fs::read_to_string(root().join("ARCHITECTURE.md")).unwrap();
    text.lines()
        .filter(|l| l.starts_with('|'))
        .filter_map(|l| {
            let first = l.split('|').nth(1)?;
            Some(Row {
                heads: backticked(first),
                names: backticked(l),
            })
        })
        .collect()
}

/// Whether ARCHITECTURE.md's map names `path` (a file under `src/`). The rule:
/// 1. a row names its full path in backticks (`src/llm/jump.rs`); or
/// 2. a row of a folder holding it names it in backticks by its path from that folder: a row of
///    folder `F` is one whose first cell holds `F` itself (`src/suggest/`) or a file in `F`
///    (`src/bin/coach.rs`); the path from `F` is the file name (`dedup.rs`) or, for a file in a
///    subfolder, that path (`rules/safety.rs`) or a subfolder holding it (`rules/`, which covers
///    every file in it); or
/// 3. it is the `mod.rs` of a folder that has a row of its own (`src/suggest/` covers
///    `src/suggest/mod.rs`: the row describes the module).
fn on_the_map(path: &str, rows: &[Row]) -> bool {
    rows.iter().any(|row| {
        if row.names.iter().any(|n| n == path) {
            return true;
        }
        row.heads.iter().any(|head| {
            let folder = match head.rfind('/') {
                Some(i) => &head[..=i],
                None => return false,
            };
            let Some(rel) = path.strip_prefix(folder) else {
                return false;
            };
            if rel == "mod.rs" && head == folder {
                return true;
            }
            let mut prefixes = rel.match_indices('/').map(|(i, _)| &rel[..=i]);
            row.names.iter().any(|n| n == rel) || prefixes.any(|p| row.names.iter().any(|n| n == p))
        })
    })
}

#[test]
fn every_source_file_is_on_the_map() {
    let rows = map_rows();
    let files = files_under("src");
    let missing: Vec<&String> = files
        .iter()
        .filter(|f| !on_the_map(f, &rows) && !NOT_YET_ON_THE_MAP.contains(&f.as_str()))
        .collect();
    assert!(
        missing.is_empty(),
        "files under src/ that ARCHITECTURE.md's table does not name: {missing:?}. A file is on \
         the map when a row names its path (`src/llm/jump.rs`), or when a row of its folder (first \
         cell `src/suggest/`, or a file in that folder such as `src/bin/coach.rs`) names it in \
         backticks by its path from that folder (`dedup.rs`, `rules/safety.rs`) or by a subfolder \
         holding it (`rules/`); a folder's `mod.rs` is covered by the folder's own row"
    );
    // The known gaps: still there and still missing, or the list is out of date.
    let stale: Vec<&str> = NOT_YET_ON_THE_MAP
        .into_iter()
        .filter(|path| !files.iter().any(|f| f == path) || on_the_map(path, &rows))
        .collect();
    assert!(
        stale.is_empty(),
        "on the map now, or gone: remove from NOT_YET_ON_THE_MAP: {stale:?}"
    );
}

#[test]
fn the_map_rule_reads_the_table_as_documented() {
    let rows = [Row {
        heads: vec!["src/suggest/".into()],
        names: vec!["src/suggest/".into(), "dedup.rs".into(), "rules/".into()],
    }];
    assert!(on_the_map("src/suggest/dedup.rs", &rows));
    assert!(on_the_map("src/suggest/rules/safety.rs", &rows));
    assert!(on_the_map("src/suggest/mod.rs", &rows));
    assert!(!on_the_map("src/suggest/ai.rs", &rows));
    assert!(!on_the_map("src/plan/dedup.rs", &rows));
    let rows = [Row {
        heads: vec!["src/bin/coach.rs".into()],
        names: vec!["src/bin/coach.rs".into(), "uniffi-bindgen.rs".into()],
    }];
    assert!(on_the_map("src/bin/coach.rs", &rows));
    assert!(on_the_map("src/bin/uniffi-bindgen.rs", &rows));
    assert!(!on_the_map("src/bin/mod.rs", &rows));
    assert!(is_pure("src/suggest/ai/checks.rs"));
    assert!(!is_pure("src/suggest/ai/service.rs"));
    assert!(!is_pure("src/suggest/service/tools.rs"));
    assert!(!is_pure("src/suggest/NOTES.md"));
}
