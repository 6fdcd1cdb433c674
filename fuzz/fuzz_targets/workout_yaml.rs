//! Fuzz target: see `fuzz/bodies/workout_yaml.rs` for what it feeds and checks.
#![no_main]

#[path = "../bodies/workout_yaml.rs"]
mod body;

libfuzzer_sys::fuzz_target!(|data: &[u8]| body::run(data));
