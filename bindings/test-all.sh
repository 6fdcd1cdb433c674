#!/usr/bin/env bash
# test-all.sh: build the library and the generator, install the tools, generate the bindings and run
# the Kotlin, Swift, Python and C binding tests, then the demo apps' checks. Stops at the first failure.
#   bindings/test-all.sh [kotlin|swift|python|c]...     (default: all four)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

langs=("$@")
[[ ${#langs[@]} -gt 0 ]] || langs=(kotlin swift python c)
for l in "${langs[@]}"; do
  case $l in kotlin | swift | python | c) ;; *) die "unknown language '$l' (kotlin|swift|python|c)" ;; esac
done

LOGS=$TEST_DIR/logs
results=()
T0=$SECONDS

# step NAME CMD...: run a step, time it, stop everything with a clear message if it fails.
step() {
  local name=$1; shift
  local t=$SECONDS rc=0 out
  echo "== $name"
  out=$("$@" 2>&1) || rc=$?
  [[ -z $out ]] || printf '%s\n' "$out"
  if [[ $rc -ne 0 ]]; then
    echo "FAILED: $name (exit $rc, $((SECONDS - t)) s); later steps not run" >&2
    [[ ${#results[@]} -eq 0 ]] || printf '  %s\n' "${results[@]}" >&2
    exit 1
  fi
  local summary
  summary=$(grep -E '[0-9]+ passed, [0-9]+ failed' <<<"$out" | tr '\n' ';' | sed 's/;$//; s/;/; /g' || true)
  results+=("$(printf '%-8s ok  %4d s  %s' "$name" $((SECONDS - t)) "$summary")")
}

step build quiet "$LOGS/cargo-build.log" cargo build --lib
tools=(jna uniffi)
for l in "${langs[@]}"; do
  case $l in kotlin) tools+=(kotlin) ;; swift) tools+=(swift) ;; esac
done
tools+=(cbindgen)
step tools bash bindings/tools.sh "${tools[@]}"
step generate bash bindings/generate.sh
for l in "${langs[@]}"; do
  step "$l" bash "bindings/$l/test.sh"
done
# The demo apps' non-UI logic, compiled and run against the same library and bindings.
for l in "${langs[@]}"; do
  case $l in
    kotlin)
      step android-demo bash android-demo/check.sh
      # The AAR's own Kotlin (the Android flavour of the bindings), compiled and tested on the JVM.
      step android-aar bash android/check.sh
      ;;
    swift) step ios-demo bash ios-demo/check.sh ;;
  esac
done

echo "== results"
printf '  %s\n' "${results[@]}"
echo "all binding tests passed (${langs[*]}) in $((SECONDS - T0)) s"
