//! The workout YAML validator (`validateWorkoutYaml`): any text. No panic; a document that
//! validates is written back as YAML (as the library saves it) and validates again.
//!
//! Shared by the fuzz target (`fuzz/fuzz_targets/workout_yaml.rs`) and the replay of its seed corpus
//! in the ordinary tests (`tests/it/fuzz_replay.rs`).

use coachcore::workout::document::{to_yaml, validate_workout_yaml};

/// One input: panics (a failed check) when the library misbehaves on it.
pub fn run(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match validate_workout_yaml(text) {
        Ok(w) => {
            let again = to_yaml(&w);
            if let Err(e) = validate_workout_yaml(&again) {
                panic!("a valid workout written back is refused: {e:?}");
            }
        }
        Err(e) => assert!(e.detail.len() <= 4096, "error of {} bytes", e.detail.len()),
    }
}
