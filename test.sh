#!/usr/bin/env bash
# Every test of coachcore: the Rust tests (unit, integration, CLI contract), then the Kotlin, Swift,
# Python and C binding tests against the real built library. bindings/test-all.sh installs what
# those need on first run (JNA, kotlinc, cbindgen, a Swift toolchain root) and reuses it afterwards.
#   ./test.sh            everything
#   ./test.sh rust       only the Rust tests
set -euo pipefail
cd "$(dirname "$0")"
source scripts/build-env.sh

# The system tools the builds need (cmake and libclang-dev for the llama.cpp engine, libssl-dev
# for SQLCipher, ccache), installed when missing by the helper demo.sh and CI share.
step "build tools" scripts/install-tools.sh engine encryption cache
COACH_MODEL=$(models/fetch.sh)
export COACH_MODEL
echo "model: $COACH_MODEL"

step "rust tests" cargo test --locked

# Two processes on one file (docs/integration.md): 8 processes mixing every write path on one
# database for 60 s, then every write each was told succeeded must be in the file as reported,
# nothing else changed and no call failed (tests/soak; longer by hand: `-- 600`).
step "soak: 8 processes on one file (60 s)" cargo test --locked --test soak -- 60

# The unit tests of the database (db, and each feature's store) and of the C API, and the
# encryption module of the integration tests, on SQLCipher.
step "encryption: unit tests" cargo test --locked --features encryption --lib -- db:: store:: capi::
step "encryption: integration tests" cargo test --locked --features encryption --test it -- encryption::

# The library's unit tests with the engine, then only the real-model modules of the integration
# test crate (tests/it): a filter selects a test when its path contains it, and only these five
# modules' paths contain these (the other modules already ran above, without the feature).
# The real-model tests are built with the release profile: the library's own Rust code (the
# grammar's jump-forward predictor, the validators) runs many times faster optimised (one test
# took 332 s unoptimised), and the demo, the benchmarks and CI's evaluation reuse the build. One
# test at a time: each generation already uses every core, and two at once on a 2-core machine
# put 4 spinning llama.cpp threads on 2 cores.
step "engine: unit tests" cargo test --locked --features llama --lib
step "engine: real-model tests (release)" cargo test --locked --profile release --features llama \
  --test it -- llama:: llama_suggestions:: llama_assistant:: llama_meals:: llama_workout:: --test-threads=1

if [[ ${1:-all} == all ]]; then
  step "binding tests" bash bindings/test-all.sh
  step "python on the encrypted build" bash bindings/python/test-encryption.sh
fi
echo "== test.sh: step times"
step_times
