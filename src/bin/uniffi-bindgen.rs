//! The `uniffi-bindgen` tool for this crate (feature `cli`): `bindings/generate.sh` runs it to
//! write the Swift, Kotlin and Python bindings from the built library. It is a separate binary so
//! that apps linking the library do not link the generator.

fn main() {
    uniffi::uniffi_bindgen_main()
}
