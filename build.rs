//! Link settings of the shared library (`libcoachcore.so`) apps and bindings load.
//!
//! On Linux with glibc, the library's ~29,000 relative relocations (pointers in vtables, string
//! tables and UniFFI's metadata) are packed (`-z pack-relative-relocs`, DT_RELR: GNU ld 2.38 or
//! later, glibc 2.36 or later to load): 0.69 MB less, stripped, than the 24-byte entries of
//! `.rela.dyn`. Apple platforms pack their fixups already (chained fixups); Android keeps the
//! NDK's defaults, since DT_RELR needs Android 9 and the AAR's minimum is Android 7.
//!
//! The built-in recipes (`data/recipes/core.json`) are embedded compact: the JSON written again
//! without whitespace (`serde_json`), deflated (raw DEFLATE, level 10) into
//! `$OUT_DIR/core_recipes.deflate`, with `$OUT_DIR/core_recipes.rs` naming its version (a 64-bit
//! FNV-1a hash of the minified JSON, so any change of the set is a new version) and its size
//! inflated. `meals::service::builtin` includes both.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    embed_core_recipes();
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let env = std::env::var("CARGO_CFG_TARGET_ENV").unwrap_or_default();
    if os == "linux" && env == "gnu" {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-z,pack-relative-relocs");
    }
}

/// Writes `core_recipes.deflate` and `core_recipes.rs` into `OUT_DIR` (see the module doc).
fn embed_core_recipes() {
    const SOURCE: &str = "data/recipes/core.json";
    println!("cargo:rerun-if-changed={SOURCE}");
    let json = std::fs::read(SOURCE).expect("data/recipes/core.json is readable");
    // Parsed and written again without whitespace (a syntax error stops the build here).
    let value: serde_json::Value =
        serde_json::from_slice(&json).expect("data/recipes/core.json is valid JSON");
    let minified = serde_json::to_vec(&value).expect("JSON values serialize");
    let version = minified.iter().fold(0xcbf2_9ce4_8422_2325_u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    let deflated = miniz_oxide::deflate::compress_to_vec(&minified, 10);
    let out = std::path::PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR is set"));
    std::fs::write(out.join("core_recipes.deflate"), &deflated).expect("OUT_DIR is writable");
    let consts = format!(
        "/// The version of the embedded built-in recipe set: a hash of its JSON.\n\
         pub const CORE_RECIPES_VERSION: &str = \"{version:016x}\";\n\
         /// The size of the embedded set's JSON once inflated, in bytes.\n\
         pub const CORE_RECIPES_JSON_BYTES: usize = {};\n",
        minified.len()
    );
    std::fs::write(out.join("core_recipes.rs"), consts).expect("OUT_DIR is writable");
}
