#!/usr/bin/env bash
# run.sh [SECONDS]: builds every fuzz target (cargo-fuzz, nightly, AddressSanitizer) and runs each
# for SECONDS (default 60) on its corpus (seeded from tests/data by seed.sh). Fails when a
# target crashes (a panic, a failed check, a sanitizer report, a timeout or running out of
# memory); the input that did it is in fuzz/artifacts/<target>/. Prints executions per target.
# A by-hand run (docs/benchmarks.md, "Fuzzing", has its figures): CI replays every seed through
# the same target bodies (fuzz/bodies/) as ordinary tests (tests/it/fuzz_replay.rs).
#
#   fuzz/run.sh 20                  a short run of every target
#   FUZZ_TARGETS="ops_dryrun" fuzz/run.sh 600     some targets only
#   FUZZ_RUNS=10000000 FUZZ_SANITIZER=none fuzz/run.sh   the long run (docs/benchmarks.md, "Fuzzing"):
#                                   each target until 10 million executions, no sanitizer
#
# FUZZ_RUNS=N: each target stops after N executions instead of after SECONDS. FUZZ_SANITIZER:
# `address` (the default) or `none` (4 to 5 times the executions per second; a build of its
# own in target/fuzz-none, so switching does not rebuild the other).
#
# cargo-fuzz is installed (once per machine) under ~/.cache/coachcore-tools/cargo (COACHCORE_TOOLS)
# if it is not on PATH. The build goes to
# target/fuzz (the repository's own target folder).
set -euo pipefail
cd "$(dirname "$0")"
seconds=${1:-60}
repo=$(cd .. && pwd)
all="plan_transform ops_dryrun suggest_evaluate capi_call workout_yaml meal_rerank"
targets=${FUZZ_TARGETS:-$all}
t0=$SECONDS

root=${COACHCORE_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/coachcore-tools}/cargo
export PATH=$root/bin:$PATH
if ! command -v cargo-fuzz >/dev/null 2>&1; then
  echo "== installing cargo-fuzz into $root"
  cargo install cargo-fuzz --locked --root "$root" --quiet
fi
fuzz=(cargo +nightly fuzz)
./seed.sh
sanitizer=${FUZZ_SANITIZER:-address}
case "$sanitizer" in
  address) build=(--target-dir "$repo/target/fuzz") ;;
  none) build=(-s none --target-dir "$repo/target/fuzz-none") ;;
  *) echo "FUZZ_SANITIZER must be address or none" >&2; exit 64 ;;
esac
limit=(-max_total_time="$seconds")
each="$seconds s"
if [[ -n "${FUZZ_RUNS:-}" ]]; then
  limit=(-runs="$FUZZ_RUNS")
  each="$FUZZ_RUNS executions"
fi
echo "== build"
# One build for every target: one sanitizer and one set of flags, so the dependencies are
# compiled once. CI uses AddressSanitizer (the C API target's unsafe code in src/capi.rs); the
# long run may use none, in its own target folder, for 4 to 5 times the rate. A cargo invocation
# per target would link one at a time.
if [[ "$targets" == "$all" ]]; then
  "${fuzz[@]}" build "${build[@]}"
else
  for t in $targets; do
    "${fuzz[@]}" build "${build[@]}" "$t"
  done
fi
echo "build: $((SECONDS - t0)) s"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=()
summary=()
for t in $targets; do
  echo "== $t ($each, sanitizer $sanitizer)"
  log=$tmp/$t.log
  # -timeout: one input taking longer is a failure (the shared CI machine is slow; 30 s is far
  # above any input's real cost). -rss_limit_mb: 512, so an input that takes more (an alias bomb,
  # issue 22) is a failure; the long run's peaks are 38 to 96 MB (docs/benchmarks.md, "Memory").
  # The YAML target's dictionary is the JSON one (it reads JSON too) and yaml.dict: anchors,
  # aliases, flow collections.
  dict=json.dict
  if [[ $t == workout_yaml ]]; then
    dict=$tmp/workout_yaml.dict
    cat json.dict yaml.dict >"$dict"
  fi
  if COACH_FUZZ_DIR=$tmp/db "${fuzz[@]}" run "${build[@]}" "$t" "corpus/$t" -- \
      "${limit[@]}" -timeout=30 -rss_limit_mb=512 -dict="$dict" \
      -print_final_stats=1 >"$log" 2>&1; then
    result=ok
  else
    result=CRASH
    failed+=("$t")
    grep -E "panicked at|ERROR: |SUMMARY|Test unit written" "$log" | head -20 || true
  fi
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
  rate=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
  peak=$(grep -o 'stat::peak_rss_mb: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
  summary+=("$(printf '%-18s %-6s %12s execs %8s/s %6s MB peak' "$t" "$result" "${execs:-?}" "${rate:-?}" "${peak:-?}")")
done
echo "== fuzz summary ($each per target, sanitizer $sanitizer, total $((SECONDS - t0)) s)"
printf '%s\n' "${summary[@]}"
if ((${#failed[@]})); then
  echo "fuzz: crashes in ${failed[*]} (inputs in fuzz/artifacts/)" >&2
  exit 1
fi
