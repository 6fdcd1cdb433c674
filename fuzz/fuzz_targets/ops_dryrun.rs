//! Fuzz target: see `fuzz/bodies/ops_dryrun.rs` for what it feeds and checks.
#![no_main]

#[path = "../bodies/ops_dryrun.rs"]
mod body;

libfuzzer_sys::fuzz_target!(|data: &[u8]| body::run(data));
