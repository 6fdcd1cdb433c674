#!/usr/bin/env bash
# Every test of coachcore: the Rust tests (unit, integration, CLI contract), then the Kotlin, Swift,
# Python and C binding tests against the real built library. bindings/test-all.sh installs what
# those need on first run (JNA, kotlinc, cbindgen, a Swift toolchain root) and reuses it afterwards.
#   ./test.sh            everything
#   ./test.sh rust       only the Rust tests
set -euo pipefail
cd "$(dirname "$0")"

echo "== rust tests"
cargo test --locked

if [[ ${1:-all} == all ]]; then
  echo "== binding tests"
  bash bindings/test-all.sh
fi
