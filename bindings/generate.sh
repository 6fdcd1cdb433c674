#!/usr/bin/env bash
# generate.sh: build the library (debug, default features) and generate the bindings from it:
#   target/bindings/{kotlin,swift,python}/   UniFFI (library mode, from target/debug/libcoachcore.so)
#   target/bindings/c/coachcore.h            cbindgen, config bindings/c/cbindgen.toml
# Regenerate after every Rust change: the generated Kotlin checks API checksums when it loads.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
source "$REPO/bindings/tools.sh" cbindgen uniffi

LOGS=$TEST_DIR/logs
quiet "$LOGS/cargo-build-lib.log" cargo build --lib
LIB=$LIB_DIR/libcoachcore.so
[[ -f $LIB ]] || die "$LIB was not built (is crate-type cdylib set in Cargo.toml?)"

for lang in kotlin swift python; do
  rm -rf "$GEN_DIR/$lang"
  quiet "$LOGS/generate-$lang.log" \
    "$UNIFFI_BINDGEN" generate "$LIB" --language "$lang" --no-format --out-dir "$GEN_DIR/$lang"
done

rm -rf "$GEN_DIR/c"
mkdir -p "$GEN_DIR/c"
quiet "$LOGS/cbindgen.log" \
  "$CBINDGEN" --quiet --config bindings/c/cbindgen.toml --output "$GEN_DIR/c/coachcore.h" src/capi.rs
grep -q 'coach_open' "$GEN_DIR/c/coachcore.h" || die "cbindgen wrote no coach_open into $GEN_DIR/c/coachcore.h"

echo "generated: $(cd "$GEN_DIR" && find . -type f | sort | sed 's|^\./||' | tr '\n' ' ')"
