//! The app-facing entry object: transforms recorded in a real SQLite file, typed errors, bad
//! database files left untouched, and use from several threads.

use std::sync::Arc;

use coachcore::clock::FixedClock;
use coachcore::store::Store;
use coachcore::{
    Coach, CoachError, OutputErrorCode, SchemaSelection, SchemaVersion, SelectionReason,
};

const PLAN: &str = include_str!("data/plans/worked-example.v2.json");

fn flat(reason: SelectionReason) -> SchemaSelection {
    SchemaSelection {
        schema_version: SchemaVersion::V2Flat,
        reason,
    }
}

#[test]
fn transforms_are_recorded_in_generation_metadata() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("coach.db");
    let clock = Arc::new(FixedClock::new(1_763_700_000_000));
    let coach = Coach::with_store(Store::open(&path).unwrap(), clock.clone());

    let sel = coach.select_plan_schema(vec![SchemaVersion::V2Flat], None);
    assert_eq!(sel, flat(SelectionReason::SingleSupported));
    let ok = coach.transform_plan(PLAN.into(), sel, Some(5)).unwrap();
    assert_eq!(ok.schema_version, SchemaVersion::V2Flat);
    assert_eq!(ok.ruleset_version, "plan-expansion/1");
    assert_eq!(ok.plan.blocks.len(), 2);

    clock.advance_ms(1000);
    let broken = PLAN.replacen("\"blockIndex\": 1", "\"blockIndex\": 9", 1);
    let err = coach
        .transform_plan(broken, flat(SelectionReason::Override), None)
        .unwrap_err();
    assert_eq!(
        err,
        CoachError::InvalidModelOutput {
            code: OutputErrorCode::BlockIndexOutOfRange,
            path: Some("exercises[1].blockIndex".into()),
            detail: "must be from 0 to 1 (the plan has 2 blocks)".into(),
        }
    );
    drop(coach);

    // Reopen the file: both generations are there, newest first.
    let coach = Coach::open(path.display().to_string()).unwrap();
    let rows = coach.recent_generations(10).unwrap();
    assert_eq!(rows.len(), 2);
    let (failed, succeeded) = (&rows[0], &rows[1]);
    assert_eq!(Some(succeeded.id), ok.generation_id);
    assert!(succeeded.succeeded && succeeded.error_code.is_none());
    assert_eq!(succeeded.selection_reason, SelectionReason::SingleSupported);
    assert_eq!(succeeded.created_at_ms, 1_763_700_000_000);
    assert!(!failed.succeeded);
    assert_eq!(
        failed.error_code,
        Some(OutputErrorCode::BlockIndexOutOfRange)
    );
    assert_eq!(
        failed.error_path.as_deref(),
        Some("exercises[1].blockIndex")
    );
    assert_eq!(failed.selection_reason, SelectionReason::Override);
    assert_eq!(failed.created_at_ms, 1_763_700_001_000);
    assert_eq!(failed.feature, "plan.transform");
    assert_eq!(coach.recent_generations(1).unwrap().len(), 1);
}

#[test]
fn selection_through_the_entry_object() {
    let coach = Coach::open_in_memory().unwrap();
    use SchemaVersion::*;
    assert_eq!(
        coach
            .select_plan_schema(vec![V1Current], Some(V2Flat))
            .reason,
        SelectionReason::Override
    );
    assert_eq!(
        coach.select_plan_schema(vec![V1Current], None),
        SchemaSelection {
            schema_version: V1Current,
            reason: SelectionReason::SingleSupported
        }
    );
    let both = coach.select_plan_schema(vec![V1Current, V2Flat], None);
    assert_eq!(both.reason, SelectionReason::SmallestEstimate);
    let smaller = if V2Flat.estimated_size() <= V1Current.estimated_size() {
        V2Flat
    } else {
        V1Current
    };
    assert_eq!(both.schema_version, smaller);
}

#[test]
fn a_file_that_is_not_a_database_is_refused_and_kept() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("photo.jpg");
    let bytes: Vec<u8> = (0..4096u32).map(|i| (i % 256) as u8).collect();
    std::fs::write(&path, &bytes).unwrap();
    let err = Coach::open(path.display().to_string()).unwrap_err();
    assert!(matches!(err, CoachError::NotADatabase { .. }), "{err:?}");
    assert!(
        !err.to_string().contains("photo"),
        "no file path in the public error: {err}"
    );
    assert_eq!(std::fs::read(&path).unwrap(), bytes);
}

#[test]
fn a_database_from_a_newer_library_is_refused_and_kept() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("coach.db");
    drop(Store::open(&path).unwrap());
    // Pretend a future version migrated it.
    set_user_version_in_header(&path, 1000);
    let before = std::fs::read(&path).unwrap();
    let err = Coach::open(path.display().to_string()).unwrap_err();
    assert_eq!(
        err,
        CoachError::DatabaseTooNew {
            found_version: 1000,
            supported_version: coachcore::store::SCHEMA_VERSION
        }
    );
    assert_eq!(std::fs::read(&path).unwrap(), before);
}

/// Sets `user_version` (bytes 60..64 of the header, big-endian) without going through SQLite.
/// The store was closed, so its WAL is already folded into the main file.
fn set_user_version_in_header(path: &std::path::Path, version: u32) {
    use std::io::{Seek, SeekFrom, Write};
    let mut f = std::fs::OpenOptions::new().write(true).open(path).unwrap();
    f.seek(SeekFrom::Start(60)).unwrap();
    f.write_all(&version.to_be_bytes()).unwrap();
}

#[test]
fn one_coach_serves_many_threads() {
    let coach = Coach::open_in_memory().unwrap();
    let threads: Vec<_> = (0..4)
        .map(|t| {
            let coach = Arc::clone(&coach);
            std::thread::spawn(move || {
                for i in 0..25 {
                    let text = if i % 5 == 0 {
                        "no json".to_string()
                    } else {
                        PLAN.to_string()
                    };
                    let r = coach.transform_plan(
                        text,
                        flat(SelectionReason::Override),
                        Some(t * 100 + i),
                    );
                    assert_eq!(r.is_ok(), i % 5 != 0);
                }
            })
        })
        .collect();
    threads.into_iter().for_each(|t| t.join().unwrap());
    let rows = coach.recent_generations(1000).unwrap();
    assert_eq!(rows.len(), 100);
    assert_eq!(rows.iter().filter(|r| r.succeeded).count(), 80);
    assert!(rows
        .iter()
        .filter(|r| !r.succeeded)
        .all(|r| r.error_code == Some(OutputErrorCode::InvalidJson)));
}
