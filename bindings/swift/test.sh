#!/usr/bin/env bash
# swift/test.sh: `swift test` of the generated Swift bindings inside the Debian trixie Swift root
# (bindings/swift/swift-root.sh; needs root). The Swift package apps add (Package.swift at the
# repository's root, whose Linux branch takes the library through Sources/coachcoreFFI, with the
# privacy manifest swift/PrivacyInfo.xcprivacy as its resource), the tests (bindings/swift/Tests/)
# and the generated sources are copied to target/bindings-test/swift/pkg; it is tested twice:
# linked against libcoachcore.so, then against libcoachcore.a alone. Needs bindings/generate.sh first.
# SWIFT_STATIC=0 skips the static run.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../common.sh"
source "$REPO/bindings/tools.sh" swift

SRC=$REPO/bindings/swift
G=$GEN_DIR/swift
need_generated "$G/coachcore.swift" "$G/coachcoreFFI.h" "$G/coachcoreFFI.modulemap" \
  "$LIB_DIR/libcoachcore.so" "$LIB_DIR/libcoachcore.a"

OUT=$TEST_DIR/swift
PKG=$OUT/pkg
mkdir -p "$PKG"
# Keep .build (incremental builds); refresh everything else.
find "$PKG" -mindepth 1 -maxdepth 1 ! -name '.build*' -exec rm -rf {} +
mkdir -p "$PKG/Sources/coachcoreFFI" "$PKG/Sources/coachcore" "$PKG/lib-dynamic" "$PKG/lib-static"
cp "$REPO/Package.swift" "$PKG/"
cp "$REPO/swift/PrivacyInfo.xcprivacy" "$PKG/Sources/coachcore/"
cp -r "$SRC/Tests" "$PKG/"
# The starter recipes the meal tests import (the repository is not visible inside the root).
cp "$REPO/tests/data/recipes/starter.json" "$PKG/starter-recipes.json"
# The GGUF fixtures of the memory pre-flight and availability tests (tests/data/models/README.md).
cp "$REPO"/tests/data/models/*.bin "$PKG/"
cp "$G/coachcore.swift" "$PKG/Sources/coachcore/"
# The shipped async wrappers (Task cancellation, AsyncThrowingStream of events) go beside it.
cp "$SRC/Sources/coachcore/CoachAsync.swift" "$PKG/Sources/coachcore/"
cp "$G/coachcoreFFI.h" "$PKG/Sources/coachcoreFFI/"
# SwiftPM wants the map named module.modulemap; `link` makes users of the module link the library.
awk '{ print } /^[[:space:]]*header[[:space:]]/ && !done { print "    link \"coachcore\""; done = 1 }' \
  "$G/coachcoreFFI.modulemap" >"$PKG/Sources/coachcoreFFI/module.modulemap"
grep -q 'link "coachcore"' "$PKG/Sources/coachcoreFFI/module.modulemap" ||
  die "could not add the link line to the generated modulemap: $(cat "$G/coachcoreFFI.modulemap")"
cp "$LIB_DIR/libcoachcore.so" "$PKG/lib-dynamic/"
cp "$LIB_DIR/libcoachcore.a" "$PKG/lib-static/"

# summarize LOG LABEL: turn XCTest's "Executed N tests, with M failures" into "LABEL: P passed, M failed".
summarize() {
  local line n f
  line=$(grep -E 'Executed [0-9]+ tests?, with [0-9]+ failures?' "$1" | tail -n 1)
  [[ -n $line ]] || { echo "$2: no XCTest summary in $1" >&2; return 1; }
  n=$(sed -E 's/.*Executed ([0-9]+) tests?.*/\1/' <<<"$line")
  f=$(sed -E 's/.*with ([0-9]+) failures?.*/\1/' <<<"$line")
  echo "$2: $((n - f)) passed, $f failed"
  [[ $f -eq 0 && $n -gt 0 ]]
}

# run_swift_test LABEL SCRATCH LINKER_ARGS...: swift test inside the root (package at /src there).
run_swift_test() {
  local label=$1 scratch=$2; shift 2
  local log=$OUT/swift-test-$label.log rc=0
  bash "$SWIFT_ROOT_SH" run "$PKG" swift test --scratch-path "/src/$scratch" "$@" >"$log" 2>&1 || rc=$?
  if [[ $rc -ne 0 ]]; then
    grep -E 'error:|FAIL|failed|XCTAssert' "$log" | head -n 60 >&2 || true
    echo "--- last lines of $log:" >&2
    tail -n 40 "$log" >&2
    summarize "$log" "$label" || true
    die "swift test ($label) failed (exit $rc)"
  fi
  summarize "$log" "$label"
}

run_swift_test dynamic .build \
  -Xlinker -L/src/lib-dynamic -Xlinker -rpath -Xlinker /src/lib-dynamic
bin=$(find "$PKG/.build" -name 'CoachCorePackageTests.xctest' -type f | head -n 1)
[[ -n $bin ]] && grep -q 'NEEDED.*libcoachcore' <<<"$(readelf -d "$bin")" ||
  die "the dynamic test binary does not load libcoachcore.so"

if [[ ${SWIFT_STATIC:-1} != 0 ]]; then
  # lib-static holds only the .a, so the module map's `link "coachcore"` resolves to it; the .a is
  # also passed to the linker directly (not as a plain swiftc input: swift-autolink-extract cannot
  # read Rust's LLVM bitcode). Then the native libraries the Rust std needs.
  run_swift_test static .build-static \
    -Xlinker -L/src/lib-static -Xlinker /src/lib-static/libcoachcore.a \
    -Xlinker -lgcc_s -Xlinker -lutil -Xlinker -ldl -Xlinker -lpthread -Xlinker -lm
  bin=$(find "$PKG/.build-static" -name 'CoachCorePackageTests.xctest' -type f | head -n 1)
  [[ -n $bin ]] && ! grep -q 'NEEDED.*libcoachcore' <<<"$(readelf -d "$bin")" ||
    die "the static test binary is not statically linked to libcoachcore"
fi
