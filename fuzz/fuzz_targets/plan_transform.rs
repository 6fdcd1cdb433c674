//! Fuzz target: see `fuzz/bodies/plan_transform.rs` for what it feeds and checks.
#![no_main]

#[path = "../bodies/plan_transform.rs"]
mod body;

libfuzzer_sys::fuzz_target!(|data: &[u8]| body::run(data));
