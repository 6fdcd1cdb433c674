#!/usr/bin/env bash
# c/test.sh: compile test_capi.c against the cbindgen header target/bindings/c/coachcore.h, link it
# once dynamically (target/debug/libcoachcore.so) and once statically (target/debug/libcoachcore.a),
# and run both. Needs bindings/generate.sh first.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../common.sh"

HEADER=$GEN_DIR/c/coachcore.h
need_generated "$HEADER" "$LIB_DIR/libcoachcore.so" "$LIB_DIR/libcoachcore.a"
OUT=$TEST_DIR/c
rm -rf "$OUT"
mkdir -p "$OUT"
CC=${CC:-cc}
CFLAGS=(-std=c11 -g -O1 -Wall -Wextra -I "$GEN_DIR/c")
# What `cargo rustc --lib --crate-type staticlib -- --print native-static-libs` asks for on glibc.
NATIVE_LIBS=(-lgcc_s -lutil -lrt -lpthread -lm -ldl -lc)

quiet "$OUT/cc-dynamic.log" "$CC" "${CFLAGS[@]}" bindings/c/test_capi.c \
  -L "$LIB_DIR" -lcoachcore -Wl,-rpath,"$LIB_DIR" -o "$OUT/test_dynamic"
quiet "$OUT/cc-static.log" "$CC" "${CFLAGS[@]}" bindings/c/test_capi.c \
  "$LIB_DIR/libcoachcore.a" "${NATIVE_LIBS[@]}" -o "$OUT/test_static"

# Make sure each binary is linked the way it claims to be.
grep -q 'NEEDED.*libcoachcore' <<<"$(readelf -d "$OUT/test_dynamic")" || die "test_dynamic does not load libcoachcore.so"
! grep -q 'NEEDED.*libcoachcore' <<<"$(readelf -d "$OUT/test_static")" || die "test_static loads libcoachcore.so"

"$OUT/test_dynamic" | sed 's/^/dynamic: /'
"$OUT/test_static" | sed 's/^/static: /'
