#!/usr/bin/env bash
# android-demo/build-aar.sh: build coachcore for Android, with the llama.cpp engine, and put what the
# AAR carries where Gradle looks for it, in the library module android/coachcore (which the demo app
# depends on):
#   android/coachcore/src/main/jniLibs/{arm64-v8a,x86_64}/libcoachcore.so   the Rust library
#   android/coachcore/src/main/kotlin-generated/uniffi/coachcore/coachcore.kt the Kotlin bindings
#   android/coachcore/src/main/kotlin-generated/*.kt   the Kotlin shipped with them (bindings/kotlin,
#                                                      all but the *Test.kt files)
# Both build outputs (see android/.gitignore). Rerun after every Rust change: the generated Kotlin
# checks the library's API checksums when it loads. Then it builds the AAR
# (`gradle :coachcore:assembleRelease`: android/coachcore/build/outputs/aar/coachcore-release.aar)
# and checks every native library an app gets with it for 16 KB alignment: the library's own as
# the AAR carries it and JNA's libjnidispatch.so (from the JNA version build.gradle.kts names).
#
# The engine: `--features android` builds llama.cpp for the CPU into libcoachcore.so, with the C++
# runtime linked in statically (one .so per ABI, no libc++_shared.so to ship). arm64-v8a: ggml's
# CPU kernels for ARMv8.2 with the int8 dot product (the GGML_CPU_ARM_ARCH block below says why
# and what it costs). x86_64 (emulators, Chromebooks) gets the Android x86_64 ABI's SSE4.2 and
# POPCNT (Rust's target features, which llama-cpp-sys-2 passes on to ggml). OpenMP: llama-cpp-sys-2
# turns it off for Android, whatever the features; ggml's own thread pool runs the CPU work.
# The build fails if llama.cpp is missing from a library, if a library exports anything but the
# API, or if its segments are not 16 KB aligned (Google Play, Android 15+)
# (bindings/check-artifact.sh, llvm-readelf). The app ships or downloads the GGUF file itself and
# passes its path to `coach.model().load`.
#
# Encryption at rest: FEATURES="android encryption-vendored" builds SQLCipher in place of SQLite
# with OpenSSL's libcrypto compiled from source into libcoachcore.so (Android has no system
# libcrypto an app may link; this needs perl and make), so `Coach.openEncrypted(dbPath, key)`
# works; the build then fails unless SQLCipher's `sqlite3_key` is in each library. The app makes the
# 32-byte key once with `SecureRandom` and keeps it wrapped by an Android Keystore key
# (docs/integration.md, "Encryption at rest").
#
# Needs: the Android NDK r26 or newer (ANDROID_NDK_HOME, or the newest under
# $ANDROID_HOME/ndk), cargo-ndk (`cargo install cargo-ndk`), cmake (the SDK's or the system's:
# llama.cpp is built with it), and the Rust targets (added below). Runs on Linux or macOS.
# Env: PROFILE=dist (default: the size-optimised release profile of Cargo.toml), release or debug;
# ANDROID_API (default 24, the AAR's minSdk);
# FEATURES (default `android`); GGML_CPU_ARM_ARCH (default armv8.2-a+dotprod, see below); GRADLE
# (default `gradle`, 8.9 or newer: AGP 8.7); AAR=0 stops before Gradle (no AAR, no check of JNA's
# libraries).
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/.." && pwd)
cd "$REPO"

die() { echo "error: $*" >&2; exit 1; }
command -v cargo-ndk >/dev/null || die "cargo-ndk not found: cargo install cargo-ndk"
command -v cmake >/dev/null || die "cmake not found (llama.cpp is built with it): install it, or put the SDK's cmake/<version>/bin on PATH"
GRADLE=${GRADLE:-gradle}
[[ ${AAR:-1} == 0 ]] || command -v "$GRADLE" >/dev/null ||
  die "$GRADLE not found (the AAR and the alignment check of every library in it need Gradle 8.9+): install it or set GRADLE; AAR=0 stops before it"
PROFILE=${PROFILE:-dist}
FEATURES=${FEATURES:-android}
ANDROID_API=${ANDROID_API:-24}
PROFILE_FLAG=()
# Cargo names the debug profile `dev`; its output folder is `debug`.
[[ $PROFILE == debug ]] || PROFILE_FLAG=(--profile "$PROFILE")

# The NDK: cargo-ndk and llama-cpp-sys-2's build script must use the same one.
if [[ -z ${ANDROID_NDK_HOME:-} ]]; then
  sdk=${ANDROID_HOME:-${ANDROID_SDK_ROOT:-$HOME/Android/Sdk}}
  [[ -d $sdk/ndk ]] && ANDROID_NDK_HOME=$(find "$sdk/ndk" -mindepth 1 -maxdepth 1 -type d | sort -V | tail -n 1)
fi
[[ -n ${ANDROID_NDK_HOME:-} && -f $ANDROID_NDK_HOME/build/cmake/android.toolchain.cmake ]] ||
  die "no Android NDK found: set ANDROID_NDK_HOME (SDK Manager -> SDK Tools -> NDK)"
export ANDROID_NDK_HOME ANDROID_NDK=$ANDROID_NDK_HOME ANDROID_API_LEVEL=$ANDROID_API
LLVM_BIN=$(find "$ANDROID_NDK_HOME/toolchains/llvm/prebuilt" -mindepth 2 -maxdepth 2 -type d -name bin | head -n 1)
[[ -x $LLVM_BIN/llvm-nm && -x $LLVM_BIN/llvm-readelf ]] || die "llvm-nm/llvm-readelf not found under $ANDROID_NDK_HOME/toolchains/llvm/prebuilt"

# 16 KB pages (Google Play, Android 15+): NDK r28 and newer align so by default; older ones are
# told here (for the final link of libcoachcore.so, the only place it matters).
for triple in AARCH64_LINUX_ANDROID X86_64_LINUX_ANDROID; do
  export "CARGO_TARGET_${triple}_RUSTFLAGS=-C link-arg=-Wl,-z,max-page-size=16384"
done

# --- ggml's CPU kernels on arm64-v8a (the one place this is chosen; docs/packages.md, "The
# engine's CPU kernels on Android"). llama-cpp-sys-2 builds ggml for `armv8-a` unless
# GGML_CPU_ARM_ARCH names another architecture, which it passes to ggml's CMake. ARMv8.2 with the
# int8 dot product (SDOT/UDOT) turns on ggml's dot-product kernels for the Q4/Q8 matrix products
# (four int8 multiply-adds per lane in one instruction), on every phone core from the
# Cortex-A55/A75 generation on. One build rather than ggml's run-time variants (GGML_CPU_ALL_VARIANTS needs GGML_BACKEND_DL:
# llama.cpp as several shared libraries and seven CPU variant libraries loaded from a folder, the
# C++ runtime shipped apart, the API-only exports given up). The cost: a phone with ARMv8.0 cores
# only (Cortex-A53/A57/A72/A73) has no engine; the library reads the value when it is compiled and
# checks the CPU before llama.cpp starts (src/llm/cpu.rs), so such a phone gets `engineMissing`
# from modelAvailability and `ModelUnusable` from model().load rather than a SIGILL. An app for
# such phones builds with GGML_CPU_ARM_ARCH=armv8-a. Not built or measured on the machine the
# tests run on (no NDK there). ggml ignores the value for x86_64.
export GGML_CPU_ARM_ARCH=${GGML_CPU_ARM_ARCH:-armv8.2-a+dotprod}
echo "arm64-v8a: ggml's CPU kernels for GGML_CPU_ARM_ARCH=$GGML_CPU_ARM_ARCH"
# ---

MODULE=$REPO/android/coachcore/src/main
JNI=$MODULE/jniLibs
KOTLIN_OUT=$MODULE/kotlin-generated

# 1. The shared library for a 64-bit ARM device and the x86_64 emulator, with the engine.
rustup target add aarch64-linux-android x86_64-linux-android
rm -rf "$JNI"
# Copies earlier versions of this script left in the app module would clash with the module's.
rm -rf "$HERE/app/src/main/jniLibs" "$HERE/app/src/main/uniffi"
cargo ndk --platform "$ANDROID_API" -t arm64-v8a -t x86_64 -o "$JNI" \
  build --locked --lib --features "$FEATURES" ${PROFILE_FLAG[@]+"${PROFILE_FLAG[@]}"}

# 2. The checks, on each ABI's library: the engine is in it (the unstripped build output: the
# checked symbols are local), only the API is exported, and every LOAD segment is 16 KB aligned.
for pair in aarch64-linux-android:arm64-v8a x86_64-linux-android:x86_64; do
  triple=${pair%%:*} abi=${pair#*:}
  CHECKED=()
  [[ " $FEATURES " == *" encryption-vendored "* ]] && CHECKED+=(sqlite3_key)
  NM=$LLVM_BIN/llvm-nm bash "$REPO/bindings/check-artifact.sh" engine "$REPO/target/$triple/$PROFILE/libcoachcore.so" ${CHECKED[@]+"${CHECKED[@]}"}
  NM=$LLVM_BIN/llvm-nm bash "$REPO/bindings/check-artifact.sh" exports "$JNI/$abi/libcoachcore.so"
  READELF=$LLVM_BIN/llvm-readelf bash "$REPO/bindings/check-artifact.sh" aligned "$JNI/$abi/libcoachcore.so"
  echo "$abi: $(wc -c <"$JNI/$abi/libcoachcore.so" | tr -d ' ') bytes, engine in, API-only exports, 16 KB aligned"
done

# 3. The Kotlin bindings, generated from the built arm64 library (library mode reads the UniFFI
# metadata from it) with the Android settings of uniffi-android.toml. The generator runs on this
# machine (tools/uniffi-bindgen, built once by bindings/tools.sh).
rm -rf "$KOTLIN_OUT"
source "$REPO/bindings/tools.sh" uniffi
"$UNIFFI_BINDGEN" generate "$REPO/target/aarch64-linux-android/$PROFILE/libcoachcore.so" \
  --language kotlin --no-format --config "$HERE/uniffi-android.toml" --out-dir "$KOTLIN_OUT"
for f in "$REPO"/bindings/kotlin/*.kt; do
  [[ $f == *Test.kt ]] || cp "$f" "$KOTLIN_OUT/"
done

echo "built: $(cd "$REPO" && find android/coachcore/src/main/jniLibs android/coachcore/src/main/kotlin-generated -type f | sort | tr '\n' ' ')"
if [[ ${AAR:-1} == 0 ]]; then
  echo "next: gradle -p android :coachcore:assembleRelease (the AAR; docs/packages.md) or :demo:installDebug (the demo app)"
  exit 0
fi

# 4. The AAR, then every native library of the 64-bit ABIs an app gets with it (16 KB pages exist
# only on 64-bit devices): the library's own as packaged, and JNA's libjnidispatch.so.
"$GRADLE" -p "$REPO/android" --quiet :coachcore:assembleRelease :coachcore:dependencyNativeLibs
AAR_FILE=$REPO/android/coachcore/build/outputs/aar/coachcore-release.aar
DEPENDENCY_LIBS=$REPO/android/coachcore/build/dependency-native-libs
UNPACKED=$REPO/android/coachcore/build/aar-native-libs
rm -rf "$UNPACKED"
unzip -q "$AAR_FILE" 'jni/*' -d "$UNPACKED"
LIBS=()
for abi in arm64-v8a x86_64; do
  for lib in "$UNPACKED/jni/$abi/libcoachcore.so" "$DEPENDENCY_LIBS/jni/$abi/libjnidispatch.so"; do
    [[ -f $lib ]] || die "$lib is missing (the AAR or JNA's native libraries)"
  done
  LIBS+=("$UNPACKED"/jni/"$abi"/*.so "$DEPENDENCY_LIBS"/jni/"$abi"/*.so)
done
READELF=$LLVM_BIN/llvm-readelf bash "$REPO/bindings/check-artifact.sh" aligned "${LIBS[@]}"
echo "built $AAR_FILE ($(wc -c <"$AAR_FILE" | tr -d ' ') bytes); every native library of arm64-v8a and x86_64 an app gets with it is 16 KB aligned"
echo "next: scripts/release.sh android (the AAR and its POM for a Maven repository; docs/releasing.md) or gradle -p android :demo:installDebug (the demo app)"
