//! Operation shaping and validation: any text as `dryRunOperationsJson` on an in-memory database
//! holding the planner items of the assistant's evaluation set (`tests/data/eval/assistant.json`:
//! todos, events, habits and goals with fixed ids, so operations can name them). A dry run
//! writes nothing, so every input meets the same database. No panic; errors are short.
//!
//! Shared by the fuzz target (`fuzz/fuzz_targets/ops_dryrun.rs`) and the replay of its seed corpus
//! in the ordinary tests (`tests/it/fuzz_replay.rs`).

use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

use coachcore::assistant::PlannerItem;
use coachcore::db::Store;
use coachcore::kernel::clock::FixedClock;
use coachcore::Coach;

const EVAL_SET: &str = include_str!("../../tests/data/eval/assistant.json");

fn coach() -> &'static Coach {
    static COACH: OnceLock<Coach> = OnceLock::new();
    COACH.get_or_init(|| {
        let set: serde_json::Value = serde_json::from_str(EVAL_SET).expect("the eval set is JSON");
        let fixtures: BTreeMap<String, Vec<PlannerItem>> =
            serde_json::from_value(set["fixtures"].clone()).expect("fixtures are planner items");
        let store = Store::open_in_memory().expect("in-memory store");
        store
            .write(|db| {
                fixtures
                    .values()
                    .flatten()
                    .try_for_each(|it| db.insert_planner_item(it))
            })
            .expect("fixture items insert");
        // 2026-11-23 09:00 UTC, the eval set's "today".
        Coach::with_store(store, Arc::new(FixedClock::new(1_795_424_400_000)))
    })
}

/// One input: panics (a failed check) when the library misbehaves on it.
pub fn run(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let coach = coach();
    for today in [Some("2026-11-23"), None] {
        match coach.planner().dry_run_json(text, today) {
            Ok(v) => {
                serde_json::to_string(&v).expect("a validation serializes");
            }
            Err(e) => {
                let shown = e.to_string();
                assert!(shown.len() <= 4096, "error of {} bytes", shown.len());
            }
        }
    }
}
