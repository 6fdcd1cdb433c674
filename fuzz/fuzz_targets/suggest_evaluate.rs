//! Fuzz target: see `fuzz/bodies/suggest_evaluate.rs` for what it feeds and checks.
#![no_main]

#[path = "../bodies/suggest_evaluate.rs"]
mod body;

libfuzzer_sys::fuzz_target!(|data: &[u8]| body::run(data));
