//! Fuzz target: see `fuzz/bodies/meal_rerank.rs` for what it feeds and checks.
#![no_main]

#[path = "../bodies/meal_rerank.rs"]
mod body;

libfuzzer_sys::fuzz_target!(|data: &[u8]| body::run(data));
