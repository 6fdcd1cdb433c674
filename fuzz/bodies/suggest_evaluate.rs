//! The `suggest evaluate` input: any text read as the CLI and the C API read it (the caps first,
//! then an `EvaluateRequest`), evaluated. No panic (the rule arithmetic runs with overflow checks
//! here); errors are short; suggestions serialize.
//!
//! Shared by the fuzz target (`fuzz/fuzz_targets/suggest_evaluate.rs`) and the replay of its seed corpus
//! in the ordinary tests (`tests/it/fuzz_replay.rs`).

use coachcore::ffi::requests::EvaluateRequest;
use coachcore::kernel::error::parse_request;
use coachcore::kernel::limits::{check_json, Caps};

/// One input: panics (a failed check) when the library misbehaves on it.
pub fn run(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let parsed =
        check_json(text, &Caps::REQUEST).and_then(|()| parse_request::<EvaluateRequest>(text));
    let request = match parsed {
        Ok(r) => r,
        Err(e) => {
            let shown = e.to_json().to_response();
            assert!(shown.len() <= 4096, "error of {} bytes", shown.len());
            return;
        }
    };
    match request.evaluate_or_error_json() {
        Ok(suggestions) => {
            serde_json::to_string(&suggestions).expect("suggestions serialize");
        }
        Err(e) => {
            let shown = e.to_response();
            assert!(shown.len() <= 4096, "error of {} bytes", shown.len());
        }
    }
}
