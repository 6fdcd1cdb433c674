#!/usr/bin/env bash
# python/test.sh: run test_coach.py (unittest, stdlib only) against the generated coachcore.py,
# copied with target/debug/libcoachcore.so into target/bindings-test/python. Needs generate.sh first.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../common.sh"

need_generated "$GEN_DIR/python/coachcore.py" "$LIB_DIR/libcoachcore.so"
OUT=$TEST_DIR/python
rm -rf "$OUT"
mkdir -p "$OUT"
cp "$GEN_DIR/python/coachcore.py" "$LIB_DIR/libcoachcore.so" "$OUT/"

PY=${PYTHON:-python3}
COACHCORE_PY_DIR=$OUT PYTHONDONTWRITEBYTECODE=1 "$PY" "$REPO/bindings/python/test_coach.py"
