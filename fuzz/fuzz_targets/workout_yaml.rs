//! The workout YAML validator (`validateWorkoutYaml`): any text. No panic; a document that
//! validates is written back as YAML (as the library saves it) and validates again.
#![no_main]

use coachcore::workout::document::{to_yaml, validate_workout_yaml};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
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
});
