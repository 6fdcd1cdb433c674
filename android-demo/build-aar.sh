#!/usr/bin/env bash
# android-demo/build-aar.sh: build coachcore for Android and put the two things the app module
# needs where Gradle looks for them (what an AAR of the library would carry):
#   app/src/main/jniLibs/{arm64-v8a,x86_64}/libcoachcore.so   the Rust library (cargo-ndk)
#   app/src/main/uniffi/uniffi/coachcore/coachcore.kt          the UniFFI Kotlin bindings
# Both are build outputs (see .gitignore). Rerun after every Rust change: the generated Kotlin
# checks the library's API checksums when it loads.
#
# Needs: the Android NDK (found by cargo-ndk in the SDK, or ANDROID_NDK_HOME), cargo-ndk
# (`cargo install cargo-ndk`), and the Rust targets (added below). Runs on Linux or macOS.
# Env: PROFILE=release (default) or debug.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/.." && pwd)
cd "$REPO"

command -v cargo-ndk >/dev/null || { echo "error: cargo-ndk not found: cargo install cargo-ndk" >&2; exit 1; }
PROFILE=${PROFILE:-release}
PROFILE_FLAG=()
[[ $PROFILE == release ]] && PROFILE_FLAG=(--release)
JNI=$HERE/app/src/main/jniLibs
KOTLIN_OUT=$HERE/app/src/main/uniffi

# 1. The shared library for a 64-bit ARM device and the x86_64 emulator.
rustup target add aarch64-linux-android x86_64-linux-android
rm -rf "$JNI"
cargo ndk -t arm64-v8a -t x86_64 -o "$JNI" build --lib "${PROFILE_FLAG[@]}"

# 2. The Kotlin bindings, generated from the built arm64 library (library mode reads the UniFFI
# metadata from it) with the Android settings of uniffi-android.toml. The generator runs on this
# machine, built in its own target dir.
rm -rf "$KOTLIN_OUT"
cargo run --features cli --bin uniffi-bindgen --target-dir "$REPO/target/uniffi-bindgen" -- \
  generate "$REPO/target/aarch64-linux-android/$PROFILE/libcoachcore.so" \
  --language kotlin --no-format --config "$HERE/uniffi-android.toml" --out-dir "$KOTLIN_OUT"

echo "built: $(cd "$HERE" && find app/src/main/jniLibs app/src/main/uniffi -type f | sort | tr '\n' ' ')"
echo "next: open android-demo in Android Studio (or run gradle :app:installDebug); see README.md"
