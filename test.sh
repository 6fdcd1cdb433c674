#!/usr/bin/env bash
# Every test of coachcore: the Rust tests (unit, integration, CLI contract), then the Kotlin, Swift,
# Python and C binding tests against the real built library. bindings/test-all.sh installs what
# those need on first run (JNA, kotlinc, cbindgen, a Swift toolchain root) and reuses it afterwards.
#   ./test.sh            everything
#   ./test.sh rust       only the Rust tests
set -euo pipefail
cd "$(dirname "$0")"

# The llama.cpp engine (feature `llama`) builds llama.cpp from source: it needs cmake and
# libclang-dev (bindgen), installed here when missing. Its tests run on a real model, fetched once.
llama_tools() {
  local missing=()
  command -v cmake >/dev/null 2>&1 || missing+=(cmake)
  dpkg-query -W -f='${Status}' libclang-dev 2>/dev/null | grep -q 'install ok installed' || missing+=(libclang-dev)
  [[ ${#missing[@]} -eq 0 ]] && return 0
  echo "test.sh: installing ${missing[*]} (apt) for the llama.cpp build"
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null ||
    { apt-get update -q >/dev/null && apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null; }
}
# Encryption at rest (feature `encryption`): SQLCipher links OpenSSL's libcrypto on Linux and
# compiles against its headers (libssl-dev), installed here when missing.
encryption_tools() {
  dpkg-query -W -f='${Status}' libssl-dev 2>/dev/null | grep -q 'install ok installed' && return 0
  echo "test.sh: installing libssl-dev (apt) for SQLCipher"
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -q --no-install-recommends libssl-dev >/dev/null ||
    { apt-get update -q >/dev/null && apt-get install -y -q --no-install-recommends libssl-dev >/dev/null; }
}
echo "== llama.cpp build tools and test model"
llama_tools
COACH_MODEL=$(models/fetch.sh)
export COACH_MODEL
echo "model: $COACH_MODEL"

echo "== rust tests"
cargo test --locked

echo "== encryption tests (feature encryption: SQLCipher)"
# The store's and the C API's unit tests and the encryption module of the integration tests, on
# SQLCipher.
encryption_tools
cargo test --locked --features encryption --lib -- store:: capi::
cargo test --locked --features encryption --test it -- encryption::

echo "== llama engine tests (feature llama, real model)"
# The library's unit tests with the engine, then only the real-model modules of the integration
# test crate (tests/it): a filter selects a test when its path contains it, and only these four
# modules' paths contain these (the other modules already ran above, without the feature).
cargo test --locked --features llama --lib
cargo test --locked --features llama --test it -- llama:: llama_suggestions:: llama_assistant:: llama_meals:: llama_workout::

if [[ ${1:-all} == all ]]; then
  echo "== binding tests"
  bash bindings/test-all.sh
  echo "== python binding test on the library built with the feature encryption"
  bash bindings/python/test-encryption.sh
fi
