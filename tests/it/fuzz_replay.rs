//! The fuzz targets' seed corpora, replayed as ordinary tests: `fuzz/seed.sh` writes every seed
//! (inputs from `tests/data` and the hand-written ones of `fuzz/seeds/`) into a folder under the
//! test build's temporary folder, and each seed goes through the same body the fuzzer runs
//! (`fuzz/bodies/<target>.rs`: the same checks, the same panics). The sanitizer fuzzing itself
//! (`fuzz/run.sh SECONDS`, nightly, AddressSanitizer) is a by-hand run (README, "Fuzzing").

use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

#[path = "../../fuzz/bodies/capi_call.rs"]
mod capi_call;
#[path = "../../fuzz/bodies/meal_rerank.rs"]
mod meal_rerank;
#[path = "../../fuzz/bodies/ops_dryrun.rs"]
mod ops_dryrun;
#[path = "../../fuzz/bodies/plan_transform.rs"]
mod plan_transform;
#[path = "../../fuzz/bodies/suggest_evaluate.rs"]
mod suggest_evaluate;
#[path = "../../fuzz/bodies/workout_yaml.rs"]
mod workout_yaml;

/// The seed corpora, written once per test process by `fuzz/seed.sh` (python3).
fn corpus() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("fuzz-corpus");
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("the corpus folder");
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
        let out = Command::new("bash")
            .arg(root.join("fuzz/seed.sh"))
            .env("FUZZ_CORPUS", &dir)
            .output()
            .expect("fuzz/seed.sh runs (bash and python3)");
        assert!(
            out.status.success(),
            "fuzz/seed.sh failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        dir
    })
}

/// Every seed of `target` through `run`; fails naming each seed that panicked. At least `min`
/// seeds must be there, so a seed script that stopped writing them cannot pass unnoticed.
fn replay(target: &str, min: usize, run: fn(&[u8])) {
    let dir = corpus().join(target);
    let mut seeds: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("no corpus for {target} at {}: {e}", dir.display()))
        .map(|e| e.expect("a corpus entry").path())
        .collect();
    seeds.sort();
    assert!(
        seeds.len() >= min,
        "{target}: {} seeds, expected at least {min}",
        seeds.len()
    );
    let mut failed = Vec::new();
    for seed in &seeds {
        let data = std::fs::read(seed).expect("a seed file");
        if panic::catch_unwind(AssertUnwindSafe(|| run(&data))).is_err() {
            failed.push(seed.file_name().unwrap().to_string_lossy().into_owned());
        }
    }
    assert!(
        failed.is_empty(),
        "{target}: seeds that failed a check: {failed:?}"
    );
}

#[test]
fn plan_transform_seeds() {
    replay("plan_transform", 10, plan_transform::run);
}

#[test]
fn ops_dryrun_seeds() {
    replay("ops_dryrun", 20, ops_dryrun::run);
}

#[test]
fn suggest_evaluate_seeds() {
    replay("suggest_evaluate", 2, suggest_evaluate::run);
}

#[test]
fn capi_call_seeds() {
    replay("capi_call", 50, capi_call::run);
    // The body keeps its database in a per-process folder under the system's temporary folder.
    let dir = std::env::temp_dir().join(format!("coachcore-fuzz-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn workout_yaml_seeds() {
    replay("workout_yaml", 19, workout_yaml::run);
}

#[test]
fn meal_rerank_seeds() {
    replay("meal_rerank", 3, meal_rerank::run);
}

/// The replay is not vacuous: a body's failed check on a seed is reported, with the seed's name.
#[test]
fn a_failing_seed_is_reported() {
    let result = panic::catch_unwind(|| {
        replay("meal_rerank", 1, |data| {
            assert!(data.is_empty(), "planted failure")
        })
    });
    let message = result.expect_err("a planted failure must fail the replay");
    let text = message
        .downcast_ref::<String>()
        .cloned()
        .unwrap_or_default();
    assert!(text.contains("seeds that failed a check"), "{text}");
}
