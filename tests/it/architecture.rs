//! The house rules that code review alone would let drift (ARCHITECTURE.md):
//! - pure feature files do not reach the database or a model: only a feature's `store.rs` (its
//!   SQL) and its `service.rs` (or `service/` folder) do. A pure file names nothing of `crate::db`
//!   nor of its feature's `store`, and of `crate::llm`
//!   only the pure parts on [`PURE_LLM`]; it names no metered wrapper, shared model, SQLite,
//!   llama.cpp or validated generation;
//! - every file under `src/` is on ARCHITECTURE.md's map.
//! - the module graph (file to file, from `use` paths and paths written in code) has no import
//!   from a lower floor to a higher one (floors from ARCHITECTURE.md's table "Floors"), no cycle,
//!   and no import between two features but along the edges ARCHITECTURE.md names ("Feature
//!   edges"), through the other feature's `mod.rs`. Each check also runs on a planted violation.

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

/// A pure file: under a feature folder, not named `service.rs` or `store.rs` (the feature's SQL)
/// and not inside a `service/` or `store/` folder.
fn is_pure(path: &str) -> bool {
    let parts: Vec<&str> = path.split('/').collect();
    let (name, folders) = parts.split_last().unwrap();
    path.ends_with(".rs")
        && *name != "service.rs"
        && *name != "store.rs"
        && !folders.contains(&"service")
        && !folders.contains(&"store")
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
/// have no module of their own named `llm` or `db`), else `None`.
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
        (Some("db"), _) => Some(format!("{path} (the database)")),
        (Some("store"), _) => Some(format!("{path} (the feature's SQL)")),
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
        "a pure file (under {FEATURE_FOLDERS:?}, not `service.rs` or `store.rs`, not in a \
         `service/` folder) must not name crate::db, its feature's store, any of crate::llm but \
         {PURE_LLM:?}, nor any of {SERVICE_ONLY:?}; move that code to the feature's service or \
         store:\n{}",
        offenders.join("\n")
    );
}

#[test]
fn the_purity_check_finds_what_a_pure_file_may_not_name() {
    let pure = r###"
//! Uses crate::db::Store and Metered in its docs only.
use std::collections::HashMap;
use crate::llm::extract::{extract_json, parse_model_json};
use crate::llm::{structured::Issue, ModelInfo, Sampling};
use super::super::llm::structured::DEFAULT_ATTEMPTS;
use crate::{clock::Clock, llm::extract::*};
fn f(c: char) -> &'static str {
    let _ = ('"', '\'', "use crate::db::Store; // rusqlite");
    let _ = r#"crate::llm::metered::Metered"#;
    let _: Option<crate::llm::ModelInfo> = None; // SharedModel
    /* dyn LanguageModel */
    "x"
}
"###;
    assert_eq!(impure_names(pure), Vec::<(usize, String)>::new());

    let cases = [
        ("use crate::db::Store;", "crate::db::Store"),
        ("use crate::db;", "crate::db"),
        ("use super::super::db::{Db, Store};", "super::super::db::Db"),
        ("use super::store::recipes;", "super::store::recipes"),
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
            "fn f() { let s = crate::db::Store::open(p); }",
            "crate::db::Store::open",
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
    assert_eq!(impure_names("\n\nuse crate::db::Store;")[0].0, 3);
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
    assert!(!is_pure("src/meals/store.rs"));
    assert!(!is_pure("src/suggest/store/changes.rs"));
}

// ---------------------------------------------------------------------------------------------
// The module graph: floors, cycles, feature edges.
//
// A file depends on another when it names an item of it: a `use` or `pub use` path, or a path
// written inline in code (`crate::llm::metered::Metered::new(..)`), that starts with `crate`,
// `super`, `self`, a child module of the file (`model::Item` in a `mod.rs`) or, in the binaries,
// `coachcore`. A path is followed through the `use`s of the module it lands in (re-exports, and
// the names a parent module imports for its children) to the file that defines the item, so
// `crate::plan::TodayPlan` is an edge to `src/plan/model.rs`, not to `src/plan/mod.rs`. Paths in
// comments and string literals are not code.

use std::collections::{BTreeMap, BTreeSet};

/// The floors, bottom to top, as ARCHITECTURE.md's table of floors names them.
const FLOORS: [&str; 6] = ["kernel", "db", "llm", "feature", "ffi", "capi/bin"];

/// Which crate a file belongs to (the library or one binary) and its module path in it.
fn module_of(file: &str) -> (String, Vec<String>) {
    let rel = file.strip_prefix("src/").unwrap_or(file);
    let (krate, rel) = if let Some(bin) = rel.strip_prefix("bin/") {
        match bin.split_once('/') {
            Some((name, rest)) => (format!("bin/{name}"), rest.to_string()),
            None => (
                format!("bin/{}", bin.trim_end_matches(".rs")),
                "main.rs".into(),
            ),
        }
    } else {
        ("lib".to_string(), rel.to_string())
    };
    let rel = rel.trim_end_matches(".rs");
    let mut segs: Vec<String> = rel.split('/').map(str::to_string).collect();
    if matches!(
        segs.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        segs.pop();
    }
    (krate, segs)
}

/// The top-level module a file belongs to (`db` for `src/db/cipher.rs`, `lib` for
/// `src/lib.rs`, `bin` for every binary).
fn top_module(file: &str) -> String {
    let rel = file.strip_prefix("src/").unwrap_or(file);
    match rel.split_once('/') {
        Some((top, _)) => top.to_string(),
        None => rel.trim_end_matches(".rs").to_string(),
    }
}

/// The names a file defines (functions, types, traits, constants, modules, macros) anywhere in it.
fn defined_names(code: &str) -> BTreeSet<String> {
    const KEYWORDS: [&str; 10] = [
        "fn",
        "struct",
        "enum",
        "trait",
        "type",
        "const",
        "static",
        "mod",
        "union",
        "macro_rules!",
    ];
    let tokens: Vec<&str> = code
        .split(|c: char| !(is_ident(c) || c == '!'))
        .filter(|t| !t.is_empty())
        .collect();
    tokens
        .windows(2)
        .filter(|w| KEYWORDS.contains(&w[0]))
        .map(|w| w[1].trim_end_matches('!').to_string())
        .collect()
}

/// One path a file writes: where (the module it is written in, the line) and the path.
struct Written {
    module: Vec<String>,
    line: usize,
    path: String,
    /// A `use` at the file's top level (it binds a name other files may reach through).
    binding: bool,
    /// Its name in the module (`as` rename, or the last segment; `*` for a glob).
    name: String,
}

/// The paths a file writes in code: its `use` trees flattened and the inline paths.
fn written_paths(file: &str, text: &str) -> Vec<Written> {
    let code = code_only(text);
    let (_, base) = module_of(file);
    let line_of = |at: usize| code[..at].matches('\n').count() + 1;
    // The inline modules (`mod tests { .. }`) open at each offset: a stack of (name, depth).
    let bytes = code.as_bytes();
    let mut module_at = vec![(0usize, base.clone(), 0usize)]; // (from offset, module, depth)
    {
        let mut stack: Vec<(String, usize)> = Vec::new();
        let mut depth = 0usize;
        let mut pending: Option<String> = None;
        let mut i = 0;
        while i < bytes.len() {
            let c = bytes[i] as char;
            if c == '{' {
                depth += 1;
                if let Some(name) = pending.take() {
                    stack.push((name, depth));
                    let mut m = base.clone();
                    m.extend(stack.iter().map(|(n, _)| n.clone()));
                    module_at.push((i, m, depth));
                }
            } else if c == '}' {
                if stack.last().is_some_and(|(_, d)| *d == depth) {
                    stack.pop();
                    let mut m = base.clone();
                    m.extend(stack.iter().map(|(n, _)| n.clone()));
                    module_at.push((i, m, depth - 1));
                }
                depth = depth.saturating_sub(1);
            } else if c == ';' {
                pending = None;
            } else if code[i..].starts_with("mod ") && (i == 0 || !is_ident(bytes[i - 1] as char)) {
                let name: String = code[i + 4..]
                    .trim_start()
                    .chars()
                    .take_while(|c| is_ident(*c))
                    .collect();
                pending = Some(name);
            }
            i += 1;
        }
    }
    let scope = |at: usize| -> (Vec<String>, bool) {
        let (_, m, _) = module_at
            .iter()
            .rev()
            .find(|(from, _, _)| *from <= at)
            .unwrap();
        (m.clone(), m.len() == base.len())
    };
    let depth_at =
        |at: usize| -> usize { code[..at].matches('{').count() - code[..at].matches('}').count() };
    let mut out = Vec::new();
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
        let (module, top) = scope(start);
        let binding = top && depth_at(start) == 0;
        for (path, name) in flatten_use_named(&code[at..at + len]) {
            out.push(Written {
                module: module.clone(),
                line: line_of(start),
                path,
                binding,
                name,
            });
        }
        rest.replace_range(start..at + len, &" ".repeat(at + len - start));
        at += len;
    }
    let mut from = None;
    for (i, c) in rest
        .char_indices()
        .chain(std::iter::once((rest.len(), ' ')))
    {
        match (from, is_ident(c) || c == ':') {
            (None, true) => from = Some(i),
            (Some(start), false) => {
                let path = rest[start..i].trim_matches(':');
                let before = rest[..start].trim_end();
                // `x.y::<T>` and `$crate::` are not module paths.
                if path.contains("::") && !before.ends_with('.') && !before.ends_with('$') {
                    out.push(Written {
                        module: scope(start).0,
                        line: line_of(start),
                        path: path.to_string(),
                        binding: false,
                        name: String::new(),
                    });
                }
                from = None;
            }
            _ => {}
        }
    }
    out
}

/// [`flatten_use`] with the name each path binds (its `as` rename, or its last segment).
fn flatten_use_named(tree: &str) -> Vec<(String, String)> {
    // Renames: `a::b as c` inside a tree; flatten_use drops the rename, so find it again.
    let compact: String = tree.split_whitespace().collect::<Vec<_>>().join(" ");
    let renames: Vec<(String, String)> = compact
        .split(|c| c == ',' || c == '{' || c == '}')
        .filter_map(|part| {
            let (path, alias) = part.split_once(" as ")?;
            let last = path.trim().rsplit("::").next()?.to_string();
            Some((last, alias.trim().to_string()))
        })
        .collect();
    flatten_use(tree)
        .into_iter()
        .map(|path| {
            let last = path.rsplit("::").next().unwrap_or(&path).to_string();
            let name = renames
                .iter()
                .find(|(l, _)| *l == last)
                .map(|(_, a)| a.clone())
                .unwrap_or(last);
            (path, name)
        })
        .collect()
}

/// The module graph of a set of source files.
struct Graph {
    /// Every file, as its path from the repository root.
    files: Vec<String>,
    /// `from -> to`: `from` names an item `to` defines (or the module `to` is).
    edges: BTreeSet<(String, String)>,
    /// For each edge, one place that makes it (`file:line: path`) and the file the path lands in
    /// before it is followed through re-exports.
    why: BTreeMap<(String, String), (String, String)>,
}

impl Graph {
    fn new(sources: &[(String, String)]) -> Graph {
        let files: BTreeSet<String> = sources.iter().map(|(f, _)| f.clone()).collect();
        let by_module: BTreeMap<(String, Vec<String>), String> = files
            .iter()
            .filter(|f| f.ends_with(".rs"))
            .map(|f| (module_of(f), f.clone()))
            .collect();
        let written: BTreeMap<String, Vec<Written>> = sources
            .iter()
            .filter(|(f, _)| f.ends_with(".rs"))
            .map(|(f, t)| (f.clone(), written_paths(f, t)))
            .collect();
        let defined: BTreeMap<String, BTreeSet<String>> = sources
            .iter()
            .map(|(f, t)| (f.clone(), defined_names(&code_only(t))))
            .collect();
        let krate_of = |f: &str| module_of(f).0;

        // A written path as (crate, absolute segments), or None for another crate's path.
        let absolute =
            |krate: &str, module: &[String], path: &str| -> Option<(String, Vec<String>)> {
                let segs: Vec<&str> = path.split("::").filter(|s| !s.is_empty()).collect();
                let first = *segs.first()?;
                let (krate, mut abs, rest) = match first {
                    "crate" => (krate.to_string(), Vec::new(), &segs[1..]),
                    "coachcore" if krate != "lib" => ("lib".to_string(), Vec::new(), &segs[1..]),
                    "self" | "super" => {
                        let mut m = module.to_vec();
                        let lead = segs
                            .iter()
                            .take_while(|s| matches!(**s, "self" | "super"))
                            .count();
                        for s in &segs[..lead] {
                            if *s == "super" {
                                m.pop()?;
                            }
                        }
                        (krate.to_string(), m, &segs[lead..])
                    }
                    _ => {
                        let mut child = module.to_vec();
                        child.push(first.to_string());
                        if !by_module.contains_key(&(krate.to_string(), child)) {
                            return None;
                        }
                        (krate.to_string(), module.to_vec(), &segs[..])
                    }
                };
                abs.extend(rest.iter().map(|s| s.to_string()));
                Some((krate, abs))
            };
        // The file a module path lands in (the longest prefix that is a file) and the rest.
        let landing = |krate: &str, abs: &[String]| -> Option<(String, Vec<String>)> {
            (0..=abs.len()).rev().find_map(|n| {
                by_module
                    .get(&(krate.to_string(), abs[..n].to_vec()))
                    .map(|f| (f.clone(), abs[n..].to_vec()))
            })
        };
        // The file that defines what a path names, following `use` bindings.
        fn definer(
            krate: &str,
            abs: Vec<String>,
            hops: usize,
            landing: &dyn Fn(&str, &[String]) -> Option<(String, Vec<String>)>,
            absolute: &dyn Fn(&str, &[String], &str) -> Option<(String, Vec<String>)>,
            written: &BTreeMap<String, Vec<Written>>,
            defined: &BTreeMap<String, BTreeSet<String>>,
            module_of: &dyn Fn(&str) -> (String, Vec<String>),
        ) -> Option<String> {
            let (file, rest) = landing(krate, &abs)?;
            let Some(name) = rest.first() else {
                return Some(file);
            };
            if hops > 12 || defined.get(&file).is_some_and(|d| d.contains(name)) {
                return Some(file);
            }
            let (_, module) = module_of(&file);
            let bindings = written.get(&file).map(Vec::as_slice).unwrap_or(&[]);
            let follow = |w: &Written, tail: &[String]| {
                let (k, mut target) = absolute(krate, &module, &w.path)?;
                target.extend(tail.iter().cloned());
                definer(
                    &k,
                    target,
                    hops + 1,
                    landing,
                    absolute,
                    written,
                    defined,
                    module_of,
                )
            };
            for w in bindings.iter().filter(|w| w.binding && w.name == *name) {
                if let Some(found) = follow(w, &rest[1..]) {
                    return Some(found);
                }
            }
            for w in bindings.iter().filter(|w| w.binding && w.name == "*") {
                let glob = w.path.trim_end_matches("::*");
                let Some((k, target)) = absolute(krate, &module, glob) else {
                    continue;
                };
                let Some((gfile, grest)) = landing(&k, &target) else {
                    continue;
                };
                if !grest.is_empty() {
                    continue;
                }
                let reach = defined.get(&gfile).is_some_and(|d| d.contains(name))
                    || written
                        .get(&gfile)
                        .is_some_and(|ws| ws.iter().any(|x| x.binding && x.name == *name));
                if reach {
                    let mut t = target.clone();
                    t.extend(rest.iter().cloned());
                    return definer(
                        &k,
                        t,
                        hops + 1,
                        landing,
                        absolute,
                        written,
                        defined,
                        module_of,
                    );
                }
            }
            Some(file)
        }

        let mut edges = BTreeSet::new();
        let mut why = BTreeMap::new();
        for (file, paths) in &written {
            let krate = krate_of(file);
            for w in paths {
                let path = w.path.trim_end_matches("::*");
                let Some((k, abs)) = absolute(&krate, &w.module, path) else {
                    continue;
                };
                let Some((land, _)) = landing(&k, &abs) else {
                    continue;
                };
                let Some(to) = definer(
                    &k, abs, 0, &landing, &absolute, &written, &defined, &module_of,
                ) else {
                    continue;
                };
                if to != *file {
                    let key = (file.clone(), to.clone());
                    why.entry(key.clone())
                        .or_insert_with(|| (format!("{file}:{}: {}", w.line, w.path), land));
                    edges.insert(key);
                }
            }
        }
        Graph {
            files: files.into_iter().collect(),
            edges,
            why,
        }
    }

    /// The cycles: each group of two or more files that reach one another (a strongly connected
    /// component), sorted.
    fn cycles(&self) -> Vec<Vec<String>> {
        let index: BTreeMap<&str, usize> = self
            .files
            .iter()
            .enumerate()
            .map(|(i, f)| (f.as_str(), i))
            .collect();
        let n = self.files.len();
        let mut next = vec![Vec::new(); n];
        for (a, b) in &self.edges {
            if let (Some(&i), Some(&j)) = (index.get(a.as_str()), index.get(b.as_str())) {
                next[i].push(j);
            }
        }
        // Tarjan's algorithm, iterative.
        let (mut order, mut low, mut on) = (vec![usize::MAX; n], vec![0; n], vec![false; n]);
        let (mut stack, mut groups, mut counter) = (Vec::new(), Vec::new(), 0);
        for root in 0..n {
            if order[root] != usize::MAX {
                continue;
            }
            order[root] = counter;
            low[root] = counter;
            counter += 1;
            stack.push(root);
            on[root] = true;
            let mut work = vec![(root, 0usize)];
            while let Some(&(v, i)) = work.last() {
                if let Some(&w) = next[v].get(i) {
                    work.last_mut().unwrap().1 += 1;
                    if order[w] == usize::MAX {
                        order[w] = counter;
                        low[w] = counter;
                        counter += 1;
                        stack.push(w);
                        on[w] = true;
                        work.push((w, 0));
                    } else if on[w] {
                        low[v] = low[v].min(order[w]);
                    }
                    continue;
                }
                work.pop();
                if let Some(&(parent, _)) = work.last() {
                    low[parent] = low[parent].min(low[v]);
                }
                if low[v] == order[v] {
                    let mut group = Vec::new();
                    while let Some(w) = stack.pop() {
                        on[w] = false;
                        group.push(self.files[w].clone());
                        if w == v {
                            break;
                        }
                    }
                    if group.len() > 1 {
                        group.sort();
                        groups.push(group);
                    }
                }
            }
        }
        groups.sort();
        groups
    }
}

/// The rows of the ARCHITECTURE.md table under `heading`: each row's cells.
fn table_under(markdown: &str, heading: &str) -> Vec<Vec<String>> {
    markdown
        .lines()
        .skip_while(|l| l.trim() != heading)
        .skip(1)
        .take_while(|l| !l.starts_with("## "))
        .filter(|l| l.starts_with('|') && !l.starts_with("|---"))
        .skip(1) // the header
        .map(|l| {
            l.trim()
                .trim_matches('|')
                .split('|')
                .map(|c| c.trim().to_string())
                .collect()
        })
        .collect()
}

/// The layering ARCHITECTURE.md states: each top-level module's floor (its rank in [`FLOORS`]),
/// and the feature edges it names (`from -> to`).
struct Layering {
    floors: BTreeMap<String, usize>,
    edges: BTreeSet<(String, String)>,
}

impl Layering {
    fn read(markdown: &str) -> Layering {
        let mut floors = BTreeMap::new();
        for row in table_under(markdown, "## Floors") {
            let rank = FLOORS
                .iter()
                .position(|f| row.get(1).is_some_and(|c| c.trim_matches('`') == *f))
                .unwrap_or_else(|| panic!("ARCHITECTURE.md, Floors: unknown floor in {row:?}"));
            for module in backticked(&row[0]) {
                floors.insert(module, rank);
            }
        }
        let mut edges = BTreeSet::new();
        for row in table_under(markdown, "## Feature edges") {
            let (from, to) = (backticked(&row[0]), backticked(&row[1]));
            for f in &from {
                for t in &to {
                    edges.insert((f.clone(), t.clone()));
                }
            }
        }
        Layering { floors, edges }
    }

    fn floor(&self, file: &str) -> Option<usize> {
        self.floors.get(&top_module(file)).copied()
    }

    fn is_feature(&self, file: &str) -> bool {
        self.floor(file) == FLOORS.iter().position(|f| *f == "feature")
    }

    /// Files whose top-level module has no floor in the table.
    fn unplaced(&self, graph: &Graph) -> Vec<String> {
        graph
            .files
            .iter()
            .filter(|f| f.ends_with(".rs") && self.floor(f).is_none())
            .cloned()
            .collect()
    }

    /// Imports from a lower floor to a higher one.
    fn upward(&self, graph: &Graph) -> Vec<String> {
        graph
            .edges
            .iter()
            .filter(|(a, b)| matches!((self.floor(a), self.floor(b)), (Some(x), Some(y)) if y > x))
            .map(|e| {
                let name = |f: &str| FLOORS[self.floor(f).unwrap()];
                format!(
                    "{} -> {} ({} -> {}; {})",
                    e.0,
                    e.1,
                    name(&e.0),
                    name(&e.1),
                    graph.why[e].0
                )
            })
            .collect()
    }

    /// Imports between two features that the table of feature edges does not name, or that do
    /// not go through the other feature's public surface (a path into its `mod.rs`).
    fn feature_edges(&self, graph: &Graph) -> Vec<String> {
        let mut out = Vec::new();
        for e in &graph.edges {
            let (a, b) = (top_module(&e.0), top_module(&e.1));
            if a == b || !self.is_feature(&e.0) || !self.is_feature(&e.1) {
                continue;
            }
            let (place, landed) = &graph.why[e];
            if !self.edges.contains(&(a.clone(), b.clone())) {
                out.push(format!(
                    "{} -> {} (no edge {a} -> {b} named; {place})",
                    e.0, e.1
                ));
            } else if *landed != format!("src/{b}/mod.rs") {
                out.push(format!(
                    "{} -> {} (not through {b}'s mod.rs; {place})",
                    e.0, e.1
                ));
            }
        }
        out
    }
}

fn source_files() -> Vec<(String, String)> {
    files_under("src")
        .into_iter()
        .filter(|f| f.ends_with(".rs"))
        .map(|f| {
            let text = std::fs::read_to_string(root().join(&f)).unwrap();
            (f, text)
        })
        .collect()
}

fn layering() -> Layering {
    Layering::read(&std::fs::read_to_string(root().join("ARCHITECTURE.md")).unwrap())
}

#[test]
fn the_module_graph_keeps_the_floors_has_no_cycle_and_only_named_feature_edges() {
    let graph = Graph::new(&source_files());
    let layering = layering();
    let unplaced = layering.unplaced(&graph);
    assert!(
        unplaced.is_empty(),
        "files whose top-level module has no floor in ARCHITECTURE.md's table \"Floors\": \
         {unplaced:?}"
    );
    let upward = layering.upward(&graph);
    assert!(
        upward.is_empty(),
        "imports from a lower floor to a higher one (ARCHITECTURE.md, \"Floors\"); move the item \
         down, or define it in the layer that uses it:\n  {}",
        upward.join("\n  ")
    );
    let cycles = graph.cycles();
    assert!(
        cycles.is_empty(),
        "files that import one another, directly or around a circle; move what they share to the \
         file lower in the pair, or to a small file both use:\n  {}",
        cycles
            .iter()
            .map(|c| c.join(" "))
            .collect::<Vec<_>>()
            .join("\n  ")
    );
    let features = layering.feature_edges(&graph);
    assert!(
        features.is_empty(),
        "imports between features that ARCHITECTURE.md's \"Feature edges\" does not name, or \
         that pass the other feature's mod.rs; name the edge with its reason, re-export what is \
         used, or move a shared helper down to the kernel:\n  {}",
        features.join("\n  ")
    );
}

/// The figures of the module graph (`cargo test --test it -- architecture::module_graph_figures
/// --nocapture` prints them): files, file-to-file edges, upward edges, cycles.
#[test]
fn module_graph_figures() {
    let graph = Graph::new(&source_files());
    let layering = layering();
    let (upward, cycles) = (layering.upward(&graph), graph.cycles());
    let features = layering.feature_edges(&graph);
    println!(
        "files {}, edges {}, upward edges {}, cycles {} (files in them: {}), feature edges not named \
         or not through the surface {}, files without a floor {}",
        graph.files.len(),
        graph.edges.len(),
        upward.len(),
        cycles.len(),
        cycles.iter().map(Vec::len).sum::<usize>(),
        features.len(),
        layering.unplaced(&graph).len(),
    );
    for u in &upward {
        println!("upward: {u}");
    }
    for c in &cycles {
        println!("cycle: {}", c.join(" "));
        for (e, (place, _)) in &graph.why {
            if c.contains(&e.0) && c.contains(&e.1) {
                println!("    {place}");
            }
        }
    }
    for f in &features {
        println!("feature: {f}");
    }
    for u in layering.unplaced(&graph) {
        println!("unplaced: {u}");
    }
}

/// A small crate in memory: the files and their text.
fn planted(files: &[(&str, &str)]) -> Graph {
    let sources: Vec<(String, String)> = files
        .iter()
        .map(|(f, t)| (f.to_string(), t.to_string()))
        .collect();
    Graph::new(&sources)
}

const PLANTED_LAYERING: &str = "
## Floors
| module | floor | why |
|---|---|---|
| `kernel` | kernel | x |
| `db` | db | x |
| `plan`, `workout`, `meals` | feature | x |
| `ffi` | ffi | x |
| `lib` | capi/bin | x |

## Feature edges
| from | to | why |
|---|---|---|
| `plan` | `workout` | x |
";

#[test]
fn the_graph_checks_report_each_planted_violation() {
    let layering = Layering::read(PLANTED_LAYERING);
    let clean = [
        ("src/lib.rs", "pub mod kernel; pub mod db; pub mod plan; pub mod workout;"),
        ("src/kernel/mod.rs", "pub mod date;\npub use date::Date;"),
        ("src/kernel/date.rs", "pub struct Date;"),
        ("src/db/mod.rs", "use crate::kernel::Date;\npub struct Db;"),
        (
            "src/workout/mod.rs",
            "mod model;\nmod store;\npub use model::Workout;",
        ),
        ("src/workout/model.rs", "pub struct Workout(crate::kernel::Date);"),
        (
            "src/workout/store.rs",
            "use super::model::Workout;\nuse crate::db::Db;\n/// crate::plan::Plan in a comment\nfn f() { let _ = \"crate::plan::Plan\"; }",
        ),
        (
            "src/plan/mod.rs",
            "use crate::workout::Workout;\npub struct Plan;\nmod tests { use super::*; }",
        ),
    ];
    let graph = planted(&clean);
    assert!(graph
        .edges
        .contains(&("src/plan/mod.rs".into(), "src/workout/model.rs".into())));
    assert!(graph
        .edges
        .contains(&("src/db/mod.rs".into(), "src/kernel/date.rs".into())));
    assert!(graph
        .edges
        .contains(&("src/workout/model.rs".into(), "src/kernel/date.rs".into())));
    assert_eq!(layering.upward(&graph), Vec::<String>::new());
    assert_eq!(graph.cycles(), Vec::<Vec<String>>::new());
    assert_eq!(layering.feature_edges(&graph), Vec::<String>::new());

    // A lower floor importing a higher one, inline in code.
    let mut upward = clean.to_vec();
    upward[3] = (
        "src/db/mod.rs",
        "pub struct Db;\nfn f() -> crate::plan::Plan { todo!() }",
    );
    let found = layering.upward(&planted(&upward));
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].starts_with("src/db/mod.rs -> src/plan/mod.rs (db -> feature"));

    // Two files that import each other.
    let mut cycle = clean.to_vec();
    cycle[5] = (
        "src/workout/model.rs",
        "pub struct Workout;\nuse super::store::save;",
    );
    cycle[6] = (
        "src/workout/store.rs",
        "use super::model::Workout;\npub fn save() {}",
    );
    assert_eq!(
        planted(&cycle).cycles(),
        vec![vec![
            "src/workout/model.rs".to_string(),
            "src/workout/store.rs".to_string()
        ]]
    );

    // A feature importing a feature along an edge the table does not name.
    let mut unnamed = clean.to_vec();
    unnamed.push(("src/meals/mod.rs", "use crate::workout::Workout;"));
    let found = layering.feature_edges(&planted(&unnamed));
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].contains("no edge meals -> workout named"));

    // A named edge that reaches past the other feature's surface.
    let mut deep = clean.to_vec();
    deep[7] = ("src/plan/mod.rs", "use crate::workout::model::Workout;");
    let found = layering.feature_edges(&planted(&deep));
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].contains("not through workout's mod.rs"));

    // A module with no floor.
    let mut unplaced = clean.to_vec();
    unplaced.push(("src/extra.rs", ""));
    assert_eq!(
        layering.unplaced(&planted(&unplaced)),
        vec!["src/extra.rs".to_string()]
    );
}
