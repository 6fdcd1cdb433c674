#!/usr/bin/env bash
# python/test-encryption.sh: test_coach.py against the library built with the feature `encryption`
# (SQLCipher), copied with the generated coachcore.py into target/bindings-test/python-encryption.
# The generated module is the same for both builds (the exported API does not depend on the
# feature), so this needs generate.sh first. The encrypted build is written to target/debug (the
# dependencies are shared with the default build there) and copied out; the default library is
# linked back into place at the end (about 20 s), so the other binding tests keep testing it.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../common.sh"

need_generated "$GEN_DIR/python/coachcore.py"
quiet "$TEST_DIR/logs/cargo-build-lib-encryption.log" cargo build --lib --features encryption
OUT=$TEST_DIR/python-encryption
rm -rf "$OUT"
mkdir -p "$OUT"
cp "$GEN_DIR/python/coachcore.py" "$LIB_DIR/libcoachcore.so" "$OUT/"

PY=${PYTHON:-python3}
"$PY" - "$OUT" <<'PY' || { echo "error: the library in $OUT was not built with encryption" >&2; exit 1; }
import sys
sys.path.insert(0, sys.argv[1])
import coachcore
sys.exit(0 if coachcore.encryption_available() else 1)
PY
rc=0
COACHCORE_PY_DIR=$OUT PYTHONDONTWRITEBYTECODE=1 "$PY" "$REPO/bindings/python/test_coach.py" || rc=$?
quiet "$TEST_DIR/logs/cargo-build-lib.log" cargo build --lib
exit $rc
