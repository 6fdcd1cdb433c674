//! Fuzz target: see `fuzz/bodies/capi_call.rs` for what it feeds and checks.
#![no_main]

#[path = "../bodies/capi_call.rs"]
mod body;

libfuzzer_sys::fuzz_target!(|data: &[u8]| body::run(data));
