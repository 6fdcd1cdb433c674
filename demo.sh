#!/usr/bin/env bash
# demo.sh: README's demo command. Runs `coach demo` with its AI parts (the assistant's message,
# AI workout suggestions, a plan written by the model) on SmolLM2-135M-Instruct: fetches the
# model with models/fetch.sh when it is missing, builds with the feature `llama` (llama.cpp,
# needs cmake, a C++ compiler and libclang: scripts/install-tools.sh installs them when it runs
# as root with apt-get), and runs
#   cargo run --release --features llama --bin coach -- demo --model MODEL
# A machine where those tools cannot be had (or the model) gets a message saying what is missing
# and the scripted demo instead, whose AI parts replay canned model answers (it says so).
#
#   ./demo.sh                  the real model when possible, else the scripted demo
#   ./demo.sh --db PATH        keep the demo's database at PATH
#   COACH_MODEL=FILE ./demo.sh another GGUF model
#   DEMO_REQUIRE_MODEL=1 ./demo.sh   fail instead of falling back (CI)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
source scripts/build-env.sh

say() { echo "demo.sh: $*" >&2; }

scripted() { # reason, then demo's arguments
  say "$1"
  shift
  if [[ ${DEMO_REQUIRE_MODEL:-} == 1 ]]; then
    say "DEMO_REQUIRE_MODEL=1: not falling back to the scripted demo"
    exit 1
  fi
  say "running the SCRIPTED demo instead: its AI parts replay canned model answers"
  exec cargo run --locked --release --bin coach -- demo "$@"
}

# The engine's build tools (cmake, a C++ compiler, libclang), installed when missing and possible
# (root with apt-get): the same helper test.sh and CI use.
if ! scripts/install-tools.sh engine; then
  scripted "building the llama.cpp engine needs cmake, a C++ compiler and libclang, and they are \
missing and could not be installed here (Debian/Ubuntu, as root: apt-get install cmake g++ libclang-dev)" "$@"
fi

if [[ -n ${COACH_MODEL:-} ]]; then
  [[ -f $COACH_MODEL ]] || scripted "COACH_MODEL names no file: $COACH_MODEL" "$@"
  model=$COACH_MODEL
elif ! model=$(models/fetch.sh); then
  scripted "could not fetch the model (models/fetch.sh failed, see above)" "$@"
fi

say "AI parts on $model (the first build compiles llama.cpp: several minutes)"
exec cargo run --locked --release --features llama --bin coach -- demo --model "$model" "$@"
