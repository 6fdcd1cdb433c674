//! Encryption at rest (feature `encryption`, SQLCipher) on real files: a database written with a
//! key reads back with it and is not plain SQLite on disk; a wrong key, no key, and a key for a
//! plain file are typed errors that leave the file byte-identical; rekey; encrypted and plain
//! copies; two connections and a read-only file with the key; the CLI's `COACH_DB_KEY` (the demo's
//! too; an empty one is refused). Without the feature, a key is `EncryptionUnavailable` and
//! nothing is created.

#[cfg(feature = "encryption")]
use std::path::Path;

use coachcore::{Coach, CoachError};

use crate::damaged_and_read_only::names_in;

use serde_json::Value;

#[cfg(feature = "encryption")]
use {
    crate::data_export::{fill, T0},
    coachcore::db::{DatabaseKey, Store},
    coachcore::kernel::clock::FixedClock,
    serde_json::json,
    std::path::PathBuf,
    std::sync::Arc,
};

const KEY: [u8; 32] = [0x5A; 32];
#[cfg(feature = "encryption")]
const OTHER_KEY: [u8; 32] = *b"another key, also 32 bytes long!";

#[cfg(not(feature = "encryption"))]
#[test]
fn without_the_feature_a_key_is_refused_and_nothing_is_created() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("coach.db");
    let e = Coach::open_encrypted(path.display().to_string(), KEY.to_vec()).unwrap_err();
    assert!(
        matches!(e, CoachError::EncryptionUnavailable { .. }),
        "{e:?}"
    );
    assert_eq!(e.code(), "encryption_unavailable");
    assert!(
        names_in(dir.path()).is_empty(),
        "no plaintext store was made"
    );
    assert!(!coachcore::ffi::encryption_available());
    // A plain database cannot be copied into an encrypted one either.
    let plain = Coach::open(path.display().to_string()).unwrap();
    let copy = dir.path().join("copy.db");
    let e = plain
        .data()
        .copy(copy.display().to_string(), Some(KEY.to_vec()))
        .unwrap_err();
    assert_eq!(e.code(), "encryption_unavailable");
    assert!(!copy.exists());
}

/// The planner items the tests write: a todo whose title is the marker looked for in the file.
#[cfg(feature = "encryption")]
const MARKER: &str = "Marathon-training-secret";

#[cfg(feature = "encryption")]
fn add_todo(c: &Coach, title: &str) {
    let ops = json!({"operations": [{"op": "create", "kind": "todo", "title": title}]}).to_string();
    c.planner()
        .apply_json(&ops, None, Some("2026-11-18"))
        .unwrap();
}

#[cfg(feature = "encryption")]
fn titles(c: &Coach) -> Vec<String> {
    let mut t: Vec<String> = c
        .planner()
        .backlog(100)
        .unwrap()
        .into_iter()
        .map(|i| i.title)
        .collect();
    t.sort();
    t
}

#[cfg(feature = "encryption")]
fn open(path: &Path, key: &[u8]) -> Result<std::sync::Arc<Coach>, CoachError> {
    Coach::open_encrypted(path.display().to_string(), key.to_vec())
}

/// Every byte of the file, and the folder's listing: what "untouched" compares.
#[cfg(feature = "encryption")]
fn snapshot(path: &Path) -> (Vec<u8>, Vec<String>) {
    (
        std::fs::read(path).unwrap(),
        names_in(path.parent().unwrap()),
    )
}

/// An encrypted database with one todo, closed.
#[cfg(feature = "encryption")]
fn encrypted_file() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("coach.db");
    let c = open(&path, &KEY).unwrap();
    add_todo(&c, MARKER);
    drop(c);
    (dir, path)
}

#[cfg(feature = "encryption")]
#[test]
fn a_database_written_with_a_key_reads_back_and_is_not_plain_sqlite() {
    assert!(coachcore::ffi::encryption_available());
    let (dir, path) = encrypted_file();
    let bytes = std::fs::read(&path).unwrap();
    assert!(bytes.len() >= 4096);
    assert_ne!(
        &bytes[..16],
        b"SQLite format 3\0",
        "the header is not plain SQLite"
    );
    assert!(
        !bytes.windows(MARKER.len()).any(|w| w == MARKER.as_bytes()),
        "the title is not in the file"
    );
    assert_eq!(
        names_in(dir.path()),
        ["coach.db"],
        "no -wal left after closing"
    );
    // SQLite without the key cannot read it.
    let conn = rusqlite::Connection::open(&path).unwrap();
    let e = conn
        .query_row("SELECT count(*) FROM sqlite_master", [], |r| {
            r.get::<_, i64>(0)
        })
        .unwrap_err();
    assert_eq!(
        e.sqlite_error_code(),
        Some(rusqlite::ErrorCode::NotADatabase)
    );
    drop(conn);

    let c = open(&path, &KEY).unwrap();
    assert!(c.data().is_encrypted());
    assert_eq!(titles(&c), [MARKER]);
    add_todo(&c, "second");
    assert_eq!(titles(&c), [MARKER, "second"]);
    assert!(c.data().check_integrity().unwrap().ok);
    // The write-ahead log is encrypted too.
    let wal = std::fs::read(dir.path().join("coach.db-wal")).unwrap_or_default();
    assert!(
        !wal.windows(6).any(|w| w == b"second"),
        "plaintext in the log"
    );
}

#[cfg(feature = "encryption")]
#[test]
fn a_wrong_key_is_refused_and_the_file_is_byte_identical() {
    let (_dir, path) = encrypted_file();
    let before = snapshot(&path);
    for key in [OTHER_KEY, [0u8; 32], {
        let mut k = KEY;
        k[31] ^= 1;
        k
    }] {
        let e = open(&path, &key).unwrap_err();
        assert!(matches!(e, CoachError::WrongKey { .. }), "{e:?}");
        assert_eq!(e.code(), "wrong_key");
        assert_eq!(snapshot(&path), before, "the file or its folder changed");
    }
    // A key of another length is refused before the file is opened.
    let e = open(&path, &KEY[..16]).unwrap_err();
    assert_eq!(e.code(), "invalid_argument", "{e}");
    assert!(e.detail().contains("32 bytes"), "{e}");
    assert_eq!(snapshot(&path), before);
    // The right key still opens it.
    assert_eq!(titles(&open(&path, &KEY).unwrap()), [MARKER]);
}

#[cfg(feature = "encryption")]
#[test]
fn no_key_for_an_encrypted_file_and_a_key_for_a_plain_one_are_refused_untouched() {
    let (_dir, path) = encrypted_file();
    let before = snapshot(&path);
    let e = Coach::open(path.display().to_string()).unwrap_err();
    assert!(matches!(e, CoachError::DatabaseEncrypted { .. }), "{e:?}");
    assert_eq!(e.code(), "database_encrypted");
    assert_eq!(snapshot(&path), before);

    let dir = tempfile::tempdir().unwrap();
    let plain = dir.path().join("plain.db");
    add_todo(&Coach::open(plain.display().to_string()).unwrap(), "plain");
    let before = snapshot(&plain);
    let e = open(&plain, &KEY).unwrap_err();
    assert!(
        matches!(e, CoachError::DatabaseNotEncrypted { .. }),
        "{e:?}"
    );
    assert_eq!(e.code(), "database_not_encrypted");
    assert_eq!(snapshot(&plain), before);
    // Not a database at all, with a key: the key does not open it; untouched.
    let text = dir.path().join("notes.txt");
    std::fs::write(&text, "not a database ".repeat(400)).unwrap();
    let before = snapshot(&text);
    assert_eq!(open(&text, &KEY).unwrap_err().code(), "wrong_key");
    assert_eq!(snapshot(&text), before);
    // Without a key that file is still "not a database", not "encrypted".
    assert_eq!(
        Coach::open(text.display().to_string()).unwrap_err().code(),
        "not_a_database"
    );
}

#[cfg(feature = "encryption")]
#[test]
fn rekey_moves_the_file_to_the_new_key() {
    let (dir, path) = encrypted_file();
    let c = open(&path, &KEY).unwrap();
    add_todo(&c, "before rekey");
    c.data().rekey(OTHER_KEY.to_vec()).unwrap();
    // The log holds no page under the old key.
    let wal = dir.path().join("coach.db-wal");
    assert_eq!(std::fs::metadata(&wal).map_or(0, |m| m.len()), 0);
    add_todo(&c, "after rekey");
    let want = titles(&c);
    assert_eq!(want.len(), 3);
    assert_eq!(
        c.data().rekey(vec![1; 5]).unwrap_err().code(),
        "invalid_argument"
    );
    drop(c);

    let before = snapshot(&path);
    assert_eq!(open(&path, &KEY).unwrap_err().code(), "wrong_key");
    assert_eq!(snapshot(&path), before);
    let c = open(&path, &OTHER_KEY).unwrap();
    assert_eq!(titles(&c), want);
    assert!(c.data().check_integrity().unwrap().ok);

    // A plain database cannot be rekeyed (copyDatabase encrypts it).
    let plain = Coach::open(dir.path().join("plain.db").display().to_string()).unwrap();
    assert!(!plain.data().is_encrypted());
    assert_eq!(
        plain.data().rekey(KEY.to_vec()).unwrap_err().code(),
        "database_not_encrypted"
    );
}

#[cfg(feature = "encryption")]
#[test]
fn a_plain_database_copied_under_a_key_holds_the_same_data() {
    let dir = tempfile::tempdir().unwrap();
    let (plain, secret, back) = (
        dir.path().join("plain.db"),
        dir.path().join("secret.db"),
        dir.path().join("back.db"),
    );
    let at = |store: Store| Coach::with_store(store, Arc::new(FixedClock::new(T0)));
    let source = at(Store::open(&plain).unwrap());
    // Every table gets rows (the recipes' full-text index too).
    fill(&source);
    let doc = source.data().export_all().unwrap();
    source
        .data()
        .copy(secret.display().to_string(), Some(KEY.to_vec()))
        .unwrap();
    assert_ne!(&std::fs::read(&secret).unwrap()[..16], b"SQLite format 3\0");
    let key = DatabaseKey::from_bytes(&KEY).unwrap();
    let copy = at(Store::open_encrypted(&secret, &key).unwrap());
    assert_eq!(copy.data().export_all().unwrap(), doc, "the same data");
    assert!(copy.data().check_integrity().unwrap().ok);
    assert_eq!(
        copy.workouts().plan("upper-lower".into()).unwrap(),
        source.workouts().plan("upper-lower".into()).unwrap()
    );
    // And back to plain (a support case): a plain copy of the encrypted one.
    copy.data().copy(back.display().to_string(), None).unwrap();
    assert_eq!(&std::fs::read(&back).unwrap()[..16], b"SQLite format 3\0");
    assert_eq!(
        at(Store::open(&back).unwrap()).data().export_all().unwrap(),
        doc
    );
    // Nothing is overwritten.
    let before = snapshot(&back);
    let e = copy
        .data()
        .copy(back.display().to_string(), Some(KEY.to_vec()))
        .unwrap_err();
    assert_eq!(e.code(), "invalid_argument", "{e}");
    assert_eq!(snapshot(&back), before);
}

#[cfg(feature = "encryption")]
#[test]
fn every_connection_is_keyed_two_coaches_and_a_read_only_file() {
    use std::os::unix::fs::PermissionsExt;
    let (dir, path) = encrypted_file();
    let a = open(&path, &KEY).unwrap();
    let b = open(&path, &KEY).unwrap();
    add_todo(&a, "from a");
    add_todo(&b, "from b");
    assert_eq!(titles(&a), titles(&b));
    assert_eq!(titles(&a).len(), 3);
    drop((a, b));
    // A write-protected encrypted file opens read-only with its key.
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o444)).unwrap();
    let before = snapshot(&path);
    let ro = open(&path, &KEY).unwrap();
    assert_eq!(titles(&ro).len(), 3);
    let ops = json!({"operations": [{"op": "create", "kind": "todo", "title": "x"}]}).to_string();
    let e = ro
        .planner()
        .apply_json(&ops, None, Some("2026-11-18"))
        .unwrap_err();
    assert_eq!(e.code(), "read_only");
    drop(ro);
    assert_eq!(open(&path, &OTHER_KEY).unwrap_err().code(), "wrong_key");
    assert_eq!(std::fs::read(&path).unwrap(), before.0);
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
    drop(dir);
}

/// Runs the CLI with `COACH_DB_KEY` set to `key` (or unset): its exit code and stdout. The key
/// goes to the child only: set in this process it would reach the other tests' children.
fn coach_with_key(args: &[&str], key: Option<&str>, stdin: &str) -> (Option<i32>, String) {
    let env = key.map(|k| [("COACH_DB_KEY", k)]);
    let how = crate::common::Child {
        env: env.as_ref().map_or(&[][..], |e| &e[..]),
        ..Default::default()
    };
    let out = crate::common::run_coach_with(args, stdin.as_bytes(), &how);
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[cfg(feature = "encryption")]
#[test]
fn the_cli_takes_the_key_from_coach_db_key() {
    let (dir, path) = encrypted_file();
    let db = path.to_str().unwrap();
    let hex: String = KEY.iter().map(|b| format!("{b:02x}")).collect();
    let dryrun = ["ops", "dryrun", "--db", db, "--today", "2026-11-18"];
    let ops = r#"{"operations": [{"op": "create", "kind": "todo", "title": "cli-written"}]}"#;
    let before = snapshot(&path);
    for (key, code) in [
        (None, "database_encrypted"),
        (Some("00".repeat(32)), "wrong_key"),
        (Some("xyz".into()), "invalid_argument"),
    ] {
        let (status, out) = coach_with_key(&dryrun, key.as_deref(), ops);
        let v: Value = serde_json::from_str(out.trim()).unwrap_or(Value::Null);
        assert_eq!(v["error"]["code"], code, "{out}");
        assert_ne!(status, Some(0));
        assert!(!out.contains("xyz"), "the key is not echoed: {out}");
        assert_eq!(snapshot(&path), before);
    }
    // With the key: a dry run, then a write; the title goes in encrypted.
    let (status, out) = coach_with_key(&dryrun, Some(&hex), ops);
    assert_eq!(status, Some(0), "{out}");
    let apply = ["ops", "apply", "--db", db, "--today", "2026-11-18"];
    let (status, out) = coach_with_key(&apply, Some(&hex), ops);
    assert_eq!(status, Some(0), "{out}");
    assert!(titles(&open(&path, &KEY).unwrap()).contains(&"cli-written".to_string()));
    let bytes = std::fs::read(&path).unwrap();
    assert!(!bytes.windows(11).any(|w| w == b"cli-written"));
    drop(dir);
}

/// `COACH_DB_KEY` set but empty (or blank) is a key that is too short, in every build: refused
/// before anything is created, never a plain database in its place.
#[test]
fn an_empty_coach_db_key_is_refused_and_nothing_is_created() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("coach.db");
    let db = db.to_str().unwrap();
    let ops = r#"[{"op": "create", "kind": "todo", "title": "t"}]"#;
    for key in ["", " "] {
        // `coach ops` exits 2 on invalid_argument, the other commands 1.
        for (args, exit) in [
            (&["ops", "apply", "--db", db][..], 2),
            (&["ops", "dryrun", "--db", db], 2),
            (&["demo", "--db", db], 1),
        ] {
            let (status, out) = coach_with_key(args, Some(key), ops);
            assert_eq!(status, Some(exit), "{args:?}: {out}");
            let v: Value = serde_json::from_str(out.lines().last().unwrap_or("")).unwrap();
            assert_eq!(v["error"]["code"], "invalid_argument", "{args:?}: {out}");
            assert!(
                names_in(dir.path()).is_empty(),
                "{args:?}: a file was created"
            );
        }
    }
}

/// `coach demo --db` opens its file with `COACH_DB_KEY` as every other command does.
#[test]
fn the_demo_takes_the_key_from_coach_db_key() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("demo.db");
    let hex: String = KEY.iter().map(|b| format!("{b:02x}")).collect();
    let (status, out) = coach_with_key(&["demo", "--db", path.to_str().unwrap()], Some(&hex), "");
    let out = out.lines().last().unwrap_or_default();
    if cfg!(feature = "encryption") {
        assert_eq!(status, Some(0), "{out}");
        assert_ne!(&std::fs::read(&path).unwrap()[..16], b"SQLite format 3\0");
        let c = Coach::open_encrypted(path.display().to_string(), KEY.to_vec()).unwrap();
        assert_eq!(c.planner().audit_log(10, None).unwrap().len(), 3);
    } else {
        assert_eq!(status, Some(1), "{out}");
        let v: Value = serde_json::from_str(out).unwrap();
        assert_eq!(v["error"]["code"], "encryption_unavailable", "{out}");
        assert!(
            names_in(dir.path()).is_empty(),
            "no plaintext store was made"
        );
    }
}
