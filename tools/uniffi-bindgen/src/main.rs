//! `uniffi-bindgen` for coachcore: `bindings/generate.sh`, `android/check.sh` and the iOS and
//! Android build scripts run it on the built library to write the bindings.

fn main() {
    uniffi::uniffi_bindgen_main()
}
