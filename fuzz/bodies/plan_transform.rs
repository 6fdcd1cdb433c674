//! Extraction and plan transform: any text, as a model might write it, through JSON extraction
//! and `transformPlan` in both schema versions. No panic; an error is short (it quotes at most an
//! excerpt of the text); a plan that comes back serializes.
//!
//! Shared by the fuzz target (`fuzz/fuzz_targets/plan_transform.rs`) and the replay of its seed corpus
//! in the ordinary tests (`tests/it/fuzz_replay.rs`).

use coachcore::kernel::clock::FixedClock;
use coachcore::kernel::ids::IdGenerator;
use coachcore::llm::extract::{extract_json, json_candidates};
use coachcore::plan::{
    transform_and_record, Ruleset, SchemaSelection, SchemaVersion, SelectionReason,
};

/// An error longer than this echoes the input (errors quote at most a 40-character excerpt).
const MAX_ERROR_BYTES: usize = 4096;

/// One input: panics (a failed check) when the library misbehaves on it.
pub fn run(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Some(json) = extract_json(text) {
        assert!(
            text.contains(json),
            "an extracted candidate is a slice of the text"
        );
    }
    let _ = json_candidates(text).take(64).count();
    let clock = FixedClock::new(1_795_000_000_000);
    for version in [SchemaVersion::V1Current, SchemaVersion::V2Flat] {
        let selection = SchemaSelection {
            schema_version: version,
            reason: SelectionReason::Override,
        };
        let mut ids = IdGenerator::new(Some(7));
        match transform_and_record(None, &clock, Ruleset::embedded(), text, selection, &mut ids) {
            Ok(t) => {
                let json = serde_json::to_string(&t.plan).expect("a plan serializes");
                assert!(!json.is_empty());
            }
            Err(e) => {
                let shown = e.to_string();
                assert!(
                    shown.len() <= MAX_ERROR_BYTES,
                    "error of {} bytes",
                    shown.len()
                );
            }
        }
    }
}
