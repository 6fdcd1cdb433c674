//! The CPU features the engine's kernels were compiled for, against the device's.
//!
//! On Android arm64 ggml's CPU kernels are compiled for the Arm architecture that
//! `GGML_CPU_ARM_ARCH` names when the library is built (`android-demo/build-aar.sh` chooses it;
//! `docs/packages.md`, "Android"): `armv8.2-a+dotprod` turns on the int8 dot-product kernels,
//! and a CPU without those instructions would end the app with SIGILL at the first model step.
//! The engine checks the device before llama.cpp starts (`llama::backend`) and the availability
//! check reports it (`engineMissing`), so such a phone gets a typed error instead of a crash.
//! Everywhere else llama-cpp-sys-2 builds the kernels for the target's baseline and nothing is
//! required.
//!
//! [`required_arm_features`] and [`missing_features`] are pure; [`engine_cpu_problem`] reads the
//! device.

/// The `GGML_CPU_ARM_ARCH` the library was compiled with (read when the crate is compiled; it
/// applies to Android arm64 builds only).
pub const BUILT_ARM_ARCH: Option<&str> = option_env!("GGML_CPU_ARM_ARCH");

/// The CPU features (named as `std::arch::is_aarch64_feature_detected!` names them) an Arm
/// architecture string such as `armv8.2-a+dotprod` requires beyond ARMv8.0: what its version
/// makes mandatory that a compiler may use (ARMv8.1 LSE atomics and RDM; ARMv8.3 RCPC, FCMA,
/// JSCONV; ARMv8.4 the dot product; ARMv8.6 I8MM and BF16; ARMv9.x as ARMv8.(x+5) with SVE2),
/// then its `+` extensions (`+noX` takes one away). Unknown extensions are kept, by name.
pub fn required_arm_features(arch: &str) -> Vec<String> {
    let mut parts = arch.split('+');
    let base = parts.next().unwrap_or_default().trim();
    let (major, minor) = arm_version(base).unwrap_or((8, 0));
    // ARMv9.x includes ARMv8.(x+5).
    let v8_minor = if major >= 9 { minor + 5 } else { minor };
    let mut out: Vec<String> = Vec::new();
    fn add(out: &mut Vec<String>, f: &str) {
        if !out.iter().any(|o| o == f) {
            out.push(f.to_string());
        }
    }
    for (since, features) in [
        (1, &["lse", "rdm"][..]),
        (3, &["rcpc", "fcma", "jsconv"][..]),
        (4, &["dotprod"][..]),
        (6, &["i8mm", "bf16"][..]),
    ] {
        if v8_minor >= since {
            features.iter().for_each(|f| add(&mut out, f));
        }
    }
    if major >= 9 {
        add(&mut out, "sve2");
    }
    for tag in parts.map(str::trim).filter(|t| !t.is_empty()) {
        match tag.strip_prefix("no") {
            Some(removed) => out.retain(|f| f != removed),
            None => add(&mut out, tag),
        }
    }
    out
}

/// `armv8.2-a` as (8, 2), `armv9-a` as (9, 0); `None` for anything else.
fn arm_version(base: &str) -> Option<(u32, u32)> {
    let v = base.strip_prefix("armv")?.strip_suffix("-a")?;
    let (major, minor) = v.split_once('.').unwrap_or((v, "0"));
    Some((major.parse().ok()?, minor.parse().ok()?))
}

/// The features of `required` that `has` says the CPU lacks (`Some(false)`); one it cannot tell
/// (`None`) is not counted missing.
pub fn missing_features(required: &[String], has: impl Fn(&str) -> Option<bool>) -> Vec<String> {
    required
        .iter()
        .filter(|f| has(f) == Some(false))
        .cloned()
        .collect()
}

/// Why the engine cannot run on this device's CPU, or `None` when it can (or nothing is
/// required: every build but an Android arm64 one compiled with `GGML_CPU_ARM_ARCH`).
pub fn engine_cpu_problem() -> Option<String> {
    #[cfg(all(target_os = "android", target_arch = "aarch64"))]
    {
        let arch = BUILT_ARM_ARCH?;
        let missing = missing_features(&required_arm_features(arch), detected);
        if !missing.is_empty() {
            return Some(format!(
                "this device's CPU lacks {} that the engine's kernels were built for ({arch})",
                missing.join(", ")
            ));
        }
    }
    None
}

/// Whether this CPU has `feature` (Linux's hwcaps, through the standard library).
#[cfg(all(target_os = "android", target_arch = "aarch64"))]
fn detected(feature: &str) -> Option<bool> {
    use std::arch::is_aarch64_feature_detected as has;
    Some(match feature {
        "lse" => has!("lse"),
        "rdm" => has!("rdm"),
        "rcpc" => has!("rcpc"),
        "fcma" => has!("fcma"),
        "jsconv" => has!("jsconv"),
        "dotprod" => has!("dotprod"),
        "fp16" => has!("fp16"),
        "i8mm" => has!("i8mm"),
        "bf16" => has!("bf16"),
        "sve" => has!("sve"),
        "sve2" => has!("sve2"),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn an_architecture_requires_its_version_and_extensions() {
        assert!(required_arm_features("armv8-a").is_empty());
        assert_eq!(
            required_arm_features("armv8.2-a+dotprod"),
            names(&["lse", "rdm", "dotprod"])
        );
        assert_eq!(
            required_arm_features("armv8.2-a+dotprod+i8mm"),
            names(&["lse", "rdm", "dotprod", "i8mm"])
        );
        assert_eq!(
            required_arm_features("armv8.6-a+nobf16"),
            names(&["lse", "rdm", "rcpc", "fcma", "jsconv", "dotprod", "i8mm"])
        );
        assert_eq!(
            required_arm_features("armv9-a"),
            names(&["lse", "rdm", "rcpc", "fcma", "jsconv", "dotprod", "sve2"])
        );
        // An extension the library cannot name is kept, by name.
        assert_eq!(required_arm_features("armv8-a+sme"), names(&["sme"]));
    }

    #[test]
    fn only_features_known_absent_are_missing() {
        let required = required_arm_features("armv8.2-a+dotprod+sme");
        // An ARMv8.0 core (Cortex-A53): LSE, RDM and the dot product absent, SME unknown.
        let a53 = |f: &str| match f {
            "sme" => None,
            _ => Some(false),
        };
        assert_eq!(
            missing_features(&required, a53),
            names(&["lse", "rdm", "dotprod"])
        );
        // A Cortex-A55: all of them.
        assert!(missing_features(&required, |f| (f != "sme").then_some(true)).is_empty());
    }
}
