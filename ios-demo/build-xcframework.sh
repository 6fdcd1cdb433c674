#!/usr/bin/env bash
# ios-demo/build-xcframework.sh: build coachcore for iOS, with the llama.cpp engine on Metal, and
# package it for Xcode. macOS only (needs Xcode's command line tools: xcodebuild, and the iOS SDKs
# for the Rust targets) and cmake (`brew install cmake`: llama.cpp is built with it).
#
# Writes, under target/ios-demo/:
#   coachcoreFFI.xcframework static libcoachcore.a for ios-arm64 (device) and
#                            ios-arm64-simulator (Apple-silicon simulator), each with the C header
#                            coachcoreFFI.h and a module.modulemap declaring module `coachcoreFFI`
#                            (the XCFramework is named after that module, as SwiftPM's binaryTarget
#                            wants: swift/build-package.sh puts it in the Swift package)
#   coachcore.swift          the UniFFI Swift bindings: add this file to the app target
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
# IPHONEOS_DEPLOYMENT_TARGET (default 16.0, the demo's minimum; rustc and the C compilers building
# SQLite and llama.cpp read it: keep it at or below the app's); FEATURES (default `metal`; `capi` is on by default as well).
# Intel-Mac simulators need x86_64-apple-ios as well: build it, `lipo -create` it with the
# aarch64-apple-ios-sim library, and pass the fat library instead.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/.." && pwd)
cd "$REPO"

[[ $(uname -s) == Darwin ]] || { echo "error: build-xcframework.sh runs on macOS only (needs xcodebuild)" >&2; exit 1; }
command -v xcodebuild >/dev/null || { echo "error: xcodebuild not found: install Xcode" >&2; exit 1; }

command -v cmake >/dev/null || { echo "error: cmake not found (llama.cpp is built with it): brew install cmake" >&2; exit 1; }

PROFILE=${PROFILE:-dist}
FEATURES=${FEATURES:-metal}
export IPHONEOS_DEPLOYMENT_TARGET=${IPHONEOS_DEPLOYMENT_TARGET:-16.0}
PROFILE_FLAG=()
# Cargo names the debug profile `dev`; its output folder is `debug`.
[[ $PROFILE == debug ]] || PROFILE_FLAG=(--profile "$PROFILE")
OUT=$REPO/target/ios-demo
DEVICE=aarch64-apple-ios
SIM=aarch64-apple-ios-sim

# 1. The static library, with the engine, for device and simulator (crate-type staticlib is set in
# Cargo.toml). Then the check: llama.cpp and its Metal backend are defined in each library.
rustup target add "$DEVICE" "$SIM"
for t in "$DEVICE" "$SIM"; do
  cargo build --locked --lib --features "$FEATURES" ${PROFILE_FLAG[@]+"${PROFILE_FLAG[@]}"} --target "$t"
done
DEVICE_LIB=$REPO/target/$DEVICE/$PROFILE/libcoachcore.a
SIM_LIB=$REPO/target/$SIM/$PROFILE/libcoachcore.a
CHECKED=(ggml_backend_metal_reg)
[[ " $FEATURES " == *" encryption "* ]] && CHECKED+=(sqlite3_key)
for lib in "$DEVICE_LIB" "$SIM_LIB"; do
  NM=${NM:-nm} bash "$REPO/bindings/check-artifact.sh" engine "$lib" "${CHECKED[@]}"
done

# 2. Swift bindings, C header and module map, generated from the built library (library mode reads
# the UniFFI metadata from it). The generator is built for the Mac itself, in its own target dir
# (tools/uniffi-bindgen, built once by bindings/tools.sh).
rm -rf "$OUT"
mkdir -p "$OUT/gen" "$OUT/headers"
source "$REPO/bindings/tools.sh" uniffi
"$UNIFFI_BINDGEN" generate "$DEVICE_LIB" --language swift --no-format --out-dir "$OUT/gen"
cp "$OUT/gen/coachcore.swift" "$OUT/"
cp "$OUT/gen/coachcoreFFI.h" "$OUT/headers/"
# Xcode looks for the module map of a library XCFramework under this exact name. (It stays a plain
# `module coachcoreFFI`: `uniffi-bindgen-swift --xcframework` would write a `framework module`,
# which is for .framework bundles, not for -library/-headers XCFrameworks like this one.)
cp "$OUT/gen/coachcoreFFI.modulemap" "$OUT/headers/module.modulemap"

# 3. The XCFramework.
xcodebuild -create-xcframework \
  -library "$DEVICE_LIB" -headers "$OUT/headers" \
  -library "$SIM_LIB" -headers "$OUT/headers" \
  -output "$OUT/coachcoreFFI.xcframework"

echo "built $OUT/coachcoreFFI.xcframework and $OUT/coachcore.swift (see ios-demo/README.md)"
