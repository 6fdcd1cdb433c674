#!/usr/bin/env bash
# ios-demo/build-xcframework.sh: build coachcore for iOS, with the llama.cpp engine on Metal, and
# package it for Xcode. macOS only (needs Xcode's command line tools: xcodebuild, and the iOS SDKs
# for the Rust targets) and cmake (`brew install cmake`: llama.cpp is built with it).
#
# Writes, under target/ios-demo/:
#   coachcoreFFI.xcframework static libcoachcore.a for ios-arm64 (devices), ios-arm64_x86_64-simulator
#                            (Apple-silicon and Intel simulators) and macos-arm64_x86_64, each with
#                            Headers/coachcoreFFI/: coachcoreFFI.h and its module.modulemap (module
#                            `coachcoreFFI`, in a folder named after it so that it never collides
#                            with another library XCFramework's Headers/module.modulemap in the
#                            app's build folder) and coachcore.h (the C API, cbindgen). The
#                            XCFramework is named after the module, as SwiftPM's binaryTarget
#                            wants: swift/build-package.sh and scripts/release.sh package it.
#   coachcore.swift          the UniFFI Swift bindings: add this file to the app target
#
# Each static library exports only the API (bindings/api-symbols.txt): the Rust code, llama.cpp,
# ggml and SQLite are prelinked into one object (`ld -r`, the API's symbols as roots) whose other
# symbols become local (`-exported_symbols_list`), so an app can link it beside SQLCipher, another
# Rust library or its own llama.cpp (bindings/check-artifact.sh static checks each library). The
# required-reason APIs each library references must be declared in swift/PrivacyInfo.xcprivacy
# (scripts/privacy-apis.sh).
#
# The engine: `--features metal` builds llama.cpp (ggml with its Metal backend, shaders embedded,
# and the Accelerate framework) into the static library; the app links Metal, MetalKit, Foundation,
# Accelerate and libc++ (the Swift package of swift/ declares them; an Xcode project that takes the
# XCFramework directly adds them, see ios-demo/README.md). The build
# fails if llama.cpp or its Metal backend is missing from a library (bindings/check-artifact.sh).
# The app ships or downloads the GGUF file itself and passes its path to `coach.model().load`.
#
# Encryption at rest: FEATURES="metal encryption" builds SQLCipher in place of SQLite, on Apple's
# CommonCrypto (the Security framework, which the app links; the Swift package of swift/ declares
# it), so `Coach.openEncrypted(dbPath:key:)` works; the build then fails unless SQLCipher's
# `sqlite3_key` is in each library. The app makes the 32-byte key once with `SecRandomCopyBytes`
# and keeps it in the Keychain (docs/integration.md, "Encryption at rest").
#
# Env: PROFILE=dist (default: the size-optimised release profile of Cargo.toml), release or debug;
# IPHONEOS_DEPLOYMENT_TARGET (default 16.0) and MACOSX_DEPLOYMENT_TARGET (default 13.0), the
# minimums of Package.swift (rustc and the C compilers building SQLite and llama.cpp read them: keep
# them at or below the app's); FEATURES (default `metal`; `capi` is on by default as well);
# SLICES (default "ios ios-simulator macos": which of the three to build); PRELINK_FLAGS (extra
# flags for the prelink, e.g. -Wl,-ld_classic should Xcode's linker refuse `-r` with an exported
# symbols list).
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/.." && pwd)
cd "$REPO"

[[ $(uname -s) == Darwin ]] || { echo "error: build-xcframework.sh runs on macOS only (needs xcodebuild)" >&2; exit 1; }
command -v xcodebuild >/dev/null || { echo "error: xcodebuild not found: install Xcode" >&2; exit 1; }

command -v cmake >/dev/null || { echo "error: cmake not found (llama.cpp is built with it): brew install cmake" >&2; exit 1; }

PROFILE=${PROFILE:-dist}
FEATURES=${FEATURES:-metal}
SLICES=${SLICES:-ios ios-simulator macos}
export IPHONEOS_DEPLOYMENT_TARGET=${IPHONEOS_DEPLOYMENT_TARGET:-16.0}
export MACOSX_DEPLOYMENT_TARGET=${MACOSX_DEPLOYMENT_TARGET:-13.0}
PROFILE_FLAG=()
# Cargo names the debug profile `dev`; its output folder is `debug`.
[[ $PROFILE == debug ]] || PROFILE_FLAG=(--profile "$PROFILE")
OUT=$REPO/target/ios-demo
WORK=$OUT/work

# The Rust targets of each slice, and clang's name for each (the prelink's platform).
declare -A CLANG_TARGET=(
  [aarch64-apple-ios]=arm64-apple-ios$IPHONEOS_DEPLOYMENT_TARGET
  [aarch64-apple-ios-sim]=arm64-apple-ios$IPHONEOS_DEPLOYMENT_TARGET-simulator
  [x86_64-apple-ios]=x86_64-apple-ios$IPHONEOS_DEPLOYMENT_TARGET-simulator
  [aarch64-apple-darwin]=arm64-apple-macos$MACOSX_DEPLOYMENT_TARGET
  [x86_64-apple-darwin]=x86_64-apple-macos$MACOSX_DEPLOYMENT_TARGET
)
slice_targets() {
  case $1 in
    ios) echo aarch64-apple-ios ;;
    ios-simulator) echo aarch64-apple-ios-sim x86_64-apple-ios ;;
    macos) echo aarch64-apple-darwin x86_64-apple-darwin ;;
    *) echo "error: unknown slice '$1' (ios | ios-simulator | macos)" >&2; return 1 ;;
  esac
}
TARGETS=()
for slice in $SLICES; do
  read -r -a ts <<<"$(slice_targets "$slice")"
  TARGETS+=("${ts[@]}")
done

rm -rf "$OUT"
mkdir -p "$WORK" "$OUT/headers/coachcoreFFI"
# The API's symbols, with Mach-O's underscore: the prelink keeps them global.
grep -Ev '^[[:space:]]*(#|$)' "$REPO/bindings/api-symbols.txt" | sed 's/^/_/' >"$WORK/exported-symbols.txt"

# 1. The static library, with the engine, for each target (crate-type staticlib is set in
# Cargo.toml); the check that llama.cpp and its Metal backend are defined in it; then the prelink
# that leaves only the API global, its check, and the check of the privacy manifest.
rustup target add "${TARGETS[@]}"
CHECKED=(ggml_backend_metal_reg)
[[ " $FEATURES " == *" encryption "* ]] && CHECKED+=(sqlite3_key)
for t in "${TARGETS[@]}"; do
  cargo build --locked --lib --features "$FEATURES" ${PROFILE_FLAG[@]+"${PROFILE_FLAG[@]}"} --target "$t"
  built=$REPO/target/$t/$PROFILE/libcoachcore.a
  NM=${NM:-nm} bash "$REPO/bindings/check-artifact.sh" engine "$built" "${CHECKED[@]}"
  roots=()
  while read -r s; do roots+=("-Wl,-u,_$s"); done < <(NM=${NM:-nm} bash "$REPO/bindings/check-artifact.sh" api-symbols "$built")
  mkdir -p "$WORK/$t"
  # shellcheck disable=SC2086
  xcrun clang -r -nostdlib -target "${CLANG_TARGET[$t]}" ${PRELINK_FLAGS:-} "${roots[@]}" \
    -Wl,-exported_symbols_list,"$WORK/exported-symbols.txt" "$built" -o "$WORK/$t/coachcore.o"
  xcrun libtool -static -no_warning_for_no_symbols -o "$WORK/$t/libcoachcore.a" "$WORK/$t/coachcore.o"
  NM=${NM:-nm} bash "$REPO/bindings/check-artifact.sh" engine "$WORK/$t/libcoachcore.a" "${CHECKED[@]}"
  NM=${NM:-nm} bash "$REPO/bindings/check-artifact.sh" static "$WORK/$t/libcoachcore.a"
  NM=${NM:-nm} bash "$REPO/scripts/privacy-apis.sh" "$WORK/$t/libcoachcore.a"
done

# 2. One library per slice: the simulator's and the Mac's two architectures in one fat library.
LIBRARIES=()
for slice in $SLICES; do
  read -r -a ts <<<"$(slice_targets "$slice")"
  ins=()
  for t in "${ts[@]}"; do ins+=("$WORK/$t/libcoachcore.a"); done
  mkdir -p "$WORK/$slice"
  xcrun lipo -create "${ins[@]}" -output "$WORK/$slice/libcoachcore.a"
  LIBRARIES+=(-library "$WORK/$slice/libcoachcore.a" -headers "$OUT/headers")
done

# 3. Swift bindings, the UniFFI header and module map, generated from the first built library
# (library mode reads the UniFFI metadata from it), and the C API's header. The generator is built
# for the Mac itself, in its own target dir (tools/uniffi-bindgen, built once by bindings/tools.sh).
source "$REPO/bindings/tools.sh" uniffi
"$UNIFFI_BINDGEN" generate "$REPO/target/${TARGETS[0]}/$PROFILE/libcoachcore.a" --language swift --no-format --out-dir "$WORK/gen"
cp "$WORK/gen/coachcore.swift" "$OUT/"
cp "$WORK/gen/coachcoreFFI.h" "$OUT/headers/coachcoreFFI/"
# Xcode and SwiftPM find the module map of a library XCFramework in Headers/<module>/ as well as
# in Headers/; the folder keeps it apart from other libraries' maps when Xcode copies headers into
# the build folder. (It stays a plain `module coachcoreFFI`: `uniffi-bindgen-swift --xcframework`
# would write a `framework module`, which is for .framework bundles, not for -library XCFrameworks.)
cp "$WORK/gen/coachcoreFFI.modulemap" "$OUT/headers/coachcoreFFI/module.modulemap"
bash "$REPO/bindings/c/header.sh" "$OUT/headers/coachcoreFFI/coachcore.h"

# 4. The XCFramework.
xcodebuild -create-xcframework "${LIBRARIES[@]}" -output "$OUT/coachcoreFFI.xcframework"

echo "built $OUT/coachcoreFFI.xcframework ($SLICES) and $OUT/coachcore.swift (see ios-demo/README.md)"
