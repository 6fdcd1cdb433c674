//! Files the library may read but not write (issue 14, defects 3 and 6).
//!
//! A damaged file: a page of one table overwritten with garbage. Opening runs `PRAGMA
//! quick_check`, so a write, even one to another table, is refused with `database_corrupt` and the
//! file is left as it was; reads that do not need the damaged page still work; `checkIntegrity`
//! (and the C API's `data.checkIntegrity`) reports the problem.
//!
//! A read-only file (mode 0444) or folder (0555): dry runs and assistant messages, which only
//! read, work; writes are refused with `read_only`; nothing is written, not even a `-wal`/`-shm`
//! beside a file in a read-only folder. The tests run as root here, which ignores permissions, so
//! they check what the library decides from the permission bits: with the bits ignored, SQLite
//! would have written the file (the WAL switch, the migrations' transaction) and its `-shm` index.

use std::ffi::{CStr, CString};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use coachcore::assistant::service::EventSink;
use coachcore::assistant::{AssistantEvent, AssistantMode, AssistantRequest};
use coachcore::db::Store;
use coachcore::llm::scripted::ScriptedModel;
use coachcore::llm::CancelToken;
use coachcore::{Coach, CoachError};
use rusqlite::Connection;

const TODAY: &str = "2026-11-18";

const MILK: &str = r#"[{"op":"create","kind":"todo","title":"Buy milk","scheduledFor":"2026-11-19","recurrence":{"type":"none"}}]"#;
const BREAD: &str = r#"{"operations":[{"op":"create","kind":"todo","title":"Buy bread","scheduledFor":"2026-11-19","recurrence":{"type":"none"}}]}"#;

/// A database at `dir/name` holding a planner item and `generations` recorded transforms; closed
/// (so everything is in the main file).
fn database(dir: &Path, name: &str, generations: usize) -> PathBuf {
    let path = dir.join(name);
    let coach = Coach::open(path.to_str().unwrap().into()).unwrap();
    coach.planner().apply_json(MILK, None, Some(TODAY)).unwrap();
    let store = Store::open(&path).unwrap();
    for i in 0..generations {
        store
            .insert_generation(&coachcore::plan::NewGeneration {
                feature: "plan.transform".into(),
                schema_version: coachcore::plan::SchemaVersion::V2Flat,
                selection_reason: coachcore::plan::SelectionReason::Override,
                ruleset_version: format!("ruleset {i:05} with some padding to fill pages"),
                error_code: None,
                error_path: None,
                created_at_ms: i as i64,
            })
            .unwrap();
    }
    drop(store);
    drop(coach);
    assert!(!sibling(&path, "-wal").exists(), "checkpointed on close");
    path
}

fn sibling(path: &Path, suffix: &str) -> PathBuf {
    let mut p = path.as_os_str().to_owned();
    p.push(suffix);
    p.into()
}

fn open(path: &Path) -> Arc<Coach> {
    Coach::open(path.to_str().unwrap().into()).unwrap()
}

/// Overwrites the root page of `table` with garbage.
fn damage_table(path: &Path, table: &str) {
    let (page, page_size) = {
        let conn = Connection::open(path).unwrap();
        let page_size: i64 = conn
            .pragma_query_value(None, "page_size", |r| r.get(0))
            .unwrap();
        let root: i64 = conn
            .query_row(
                "SELECT rootpage FROM sqlite_master WHERE name = ?1",
                [table],
                |r| r.get(0),
            )
            .unwrap();
        (root, page_size)
    };
    let mut bytes = std::fs::read(path).unwrap();
    let start = ((page - 1) * page_size) as usize;
    for (i, b) in bytes[start..start + page_size as usize]
        .iter_mut()
        .enumerate()
    {
        *b = (i * 7919 % 251) as u8 | 0x80;
    }
    std::fs::write(path, bytes).unwrap();
}

#[test]
fn a_damaged_file_refuses_writes_and_reports_the_damage() {
    let dir = tempfile::tempdir().unwrap();
    let path = database(dir.path(), "coach.db", 300);
    // A sound file passes.
    let report = open(&path).data().check_integrity().unwrap();
    assert!(report.ok && report.problems.is_empty(), "{report:?}");

    damage_table(&path, "generation_metadata");
    let before = std::fs::read(&path).unwrap();
    let coach = open(&path);
    // A write to the planner, which the damaged table does not hold, is refused.
    let e = coach
        .planner()
        .apply_json(BREAD, None, Some(TODAY))
        .unwrap_err();
    assert!(matches!(e, CoachError::DatabaseCorrupt { .. }), "{e:?}");
    assert_eq!(e.code(), "database_corrupt");
    // Reads that do not need the damaged page still work.
    let week = coach.planner().week(TODAY.into()).unwrap();
    assert!(
        format!("{week:?}").contains("Buy milk"),
        "the planner is readable"
    );
    let check = coach.planner().dry_run_json(BREAD, Some(TODAY)).unwrap();
    assert_eq!(check.valid_count, 1);
    // The full check names the problem; the list is short.
    let report = coach.data().check_integrity().unwrap();
    assert!(!report.ok);
    assert!(
        !report.problems.is_empty() && report.problems.len() <= 20,
        "{report:?}"
    );
    assert!(report.problems.iter().all(|p| p.len() <= 200));
    // Still refused after the check.
    let e = coach
        .planner()
        .apply_json(BREAD, None, Some(TODAY))
        .unwrap_err();
    assert_eq!(e.code(), "database_corrupt");
    drop(coach);
    assert!(
        std::fs::read(&path).unwrap() == before,
        "the damaged file was written to"
    );

    // The C API reports it too.
    let c_path = CString::new(path.to_str().unwrap()).unwrap();
    // SAFETY: a NUL-terminated path and a NULL error out-pointer.
    let handle = unsafe { coachcore::capi::coach_open(c_path.as_ptr(), std::ptr::null_mut()) };
    assert!(!handle.is_null());
    let (method, request) = (
        CString::new("data.checkIntegrity").unwrap(),
        CString::new("{}").unwrap(),
    );
    // SAFETY: a live handle and NUL-terminated strings; the result is freed once.
    let out = unsafe {
        let p = coachcore::capi::coach_call(handle, method.as_ptr(), request.as_ptr());
        let s = CStr::from_ptr(p).to_str().unwrap().to_owned();
        coachcore::capi::coach_string_free(p);
        coachcore::capi::coach_close(handle);
        s
    };
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["ok"]["ok"], false, "{out}");
    assert!(
        v["ok"]["problems"]
            .as_array()
            .is_some_and(|p| !p.is_empty()),
        "{out}"
    );
}

/// Makes `path` read-only (0444) and, with `folder`, its folder too (0555); restores both on drop
/// so the temporary folder can be removed.
struct ReadOnly(PathBuf, Option<PathBuf>);

impl ReadOnly {
    fn new(path: &Path, folder: bool) -> ReadOnly {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o444)).unwrap();
        let dir = folder.then(|| path.parent().unwrap().to_path_buf());
        if let Some(d) = &dir {
            std::fs::set_permissions(d, std::fs::Permissions::from_mode(0o555)).unwrap();
        }
        ReadOnly(path.to_path_buf(), dir)
    }
}

impl Drop for ReadOnly {
    fn drop(&mut self) {
        if let Some(d) = &self.1 {
            let _ = std::fs::set_permissions(d, std::fs::Permissions::from_mode(0o755));
        }
        let _ = std::fs::set_permissions(&self.0, std::fs::Permissions::from_mode(0o644));
    }
}

#[derive(Default)]
struct Events(std::sync::Mutex<Vec<AssistantEvent>>);

impl EventSink for Events {
    fn on_event(&self, e: AssistantEvent) {
        self.0.lock().unwrap().push(e);
    }
}

/// The files in `dir`, by name, sorted.
pub fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn a_read_only_file_or_folder_reads_dry_runs_and_answers_but_refuses_writes() {
    for folder in [false, true] {
        let dir = tempfile::tempdir().unwrap();
        let path = database(dir.path(), "coach.db", 0);
        let before = std::fs::read(&path).unwrap();
        let files_before = names_in(dir.path());
        let _guard = ReadOnly::new(&path, folder);
        let case = if folder {
            "read-only folder"
        } else {
            "read-only file"
        };

        let coach = open(&path);
        let check = coach.planner().dry_run_json(BREAD, Some(TODAY)).unwrap();
        assert_eq!((check.valid_count, check.invalid_count), (1, 0), "{case}");
        let model = ScriptedModel::texts([BREAD, "I'll add Buy bread for tomorrow."]);
        let request = AssistantRequest {
            message: "add buy bread tomorrow".into(),
            mode: AssistantMode::Plan,
            selection: None,
            today: Some(TODAY.into()),
            language: None,
        };
        let events = Events::default();
        let result = coach
            .assistant()
            .run_message_with(request, Some(model), &events, &CancelToken::new())
            .unwrap_or_else(|e| panic!("{case}: {e}"));
        assert_eq!(result.operations.len(), 1, "{case}");
        assert!(format!("{:?}", coach.planner().week(TODAY.into()).unwrap()).contains("Buy milk"));
        assert!(coach.data().check_integrity().unwrap().ok, "{case}");

        let e = coach
            .planner()
            .apply_json(BREAD, None, Some(TODAY))
            .unwrap_err();
        assert!(matches!(e, CoachError::ReadOnly { .. }), "{case}: {e:?}");
        assert_eq!(e.code(), "read_only");
        drop(coach);
        assert!(
            std::fs::read(&path).unwrap() == before,
            "{case}: the file changed"
        );
        if folder {
            // Not even SQLite's -wal/-shm: root could have created them.
            assert_eq!(names_in(dir.path()), files_before, "{case}");
        }
    }
}

#[test]
fn a_read_only_file_that_needs_an_upgrade_or_is_empty_is_refused_untouched() {
    let dir = tempfile::tempdir().unwrap();
    // One of ours a version behind (the tables are today's; only the version says older).
    let old = database(dir.path(), "old.db", 0);
    Connection::open(&old)
        .unwrap()
        .pragma_update(None, "user_version", coachcore::db::SCHEMA_VERSION - 1)
        .unwrap();
    let empty = dir.path().join("empty.db");
    std::fs::write(&empty, b"").unwrap();
    for path in [old, empty] {
        let before = std::fs::read(&path).unwrap();
        let _guard = ReadOnly::new(&path, false);
        let e = Coach::open(path.to_str().unwrap().into()).unwrap_err();
        assert_eq!(e.code(), "read_only", "{}: {e}", path.display());
        assert!(std::fs::read(&path).unwrap() == before);
    }
}

#[test]
fn an_explicit_read_only_open_refuses_writes_on_a_writable_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = database(dir.path(), "coach.db", 3);
    let before = std::fs::read(&path).unwrap();
    let store = Store::open_read_only(&path).unwrap();
    assert!(store.is_read_only());
    assert_eq!(store.recent_generations(10).unwrap().len(), 3);
    let e = CoachError::from(
        store
            .insert_generation(&coachcore::plan::NewGeneration {
                feature: "plan.transform".into(),
                schema_version: coachcore::plan::SchemaVersion::V2Flat,
                selection_reason: coachcore::plan::SelectionReason::Override,
                ruleset_version: "r".into(),
                error_code: None,
                error_path: None,
                created_at_ms: 9,
            })
            .unwrap_err(),
    );
    assert_eq!(e.code(), "read_only");
    drop(store);
    assert!(std::fs::read(&path).unwrap() == before);
    // A writable file opened normally is not read-only.
    assert!(!Store::open(&path).unwrap().is_read_only());
}
