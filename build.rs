//! Link settings of the shared library (`libcoachcore.so`) apps and bindings load.
//!
//! On Linux with glibc, the library's ~29,000 relative relocations (pointers in vtables, string
//! tables and UniFFI's metadata) are packed (`-z pack-relative-relocs`, DT_RELR: GNU ld 2.38 or
//! later, glibc 2.36 or later to load): 0.69 MB less, stripped, than the 24-byte entries of
//! `.rela.dyn`. Apple platforms pack their fixups already (chained fixups); Android keeps the
//! NDK's defaults, since DT_RELR needs Android 9 and the AAR's minimum is Android 7.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let env = std::env::var("CARGO_CFG_TARGET_ENV").unwrap_or_default();
    if os == "linux" && env == "gnu" {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-z,pack-relative-relocs");
    }
}
