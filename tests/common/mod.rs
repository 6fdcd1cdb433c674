//! Shared by the real-model test files (`tests/llama*.rs`).

/// The test model: env `COACH_MODEL`, else `models/SmolLM2-135M-Instruct.Q4_1.gguf`
/// (`models/fetch.sh`). Without it the test is skipped, except under CI, where that is a failure.
pub fn model_path() -> Option<String> {
    let path = std::env::var("COACH_MODEL").unwrap_or_else(|_| {
        format!(
            "{}/models/SmolLM2-135M-Instruct.Q4_1.gguf",
            env!("CARGO_MANIFEST_DIR")
        )
    });
    if std::path::Path::new(&path).is_file() {
        return Some(path);
    }
    if std::env::var_os("CI").is_some() {
        panic!("model {path} missing under CI: run models/fetch.sh");
    }
    eprintln!("skipped: no model at {path} (run models/fetch.sh or set COACH_MODEL)");
    None
}
