#!/usr/bin/env bash
# android-demo/check.sh: compile and run the Android demo's non-UI logic on a desktop JVM.
#
# Compiles the generated bindings (target/bindings/kotlin/uniffi/coachcore/coachcore.kt),
# app/src/main/java/com/coachcore/demo/{PlanDemoModel,ModelDemoModel}.kt and check/DemoCheck.kt with kotlinc, then
# runs them with JNA loading target/debug/libcoachcore.so. Prints "N passed, M failed"; exits
# non-zero on failure. MainActivity.kt is NOT compiled: it needs the Android SDK.
#
# Needs (made by bindings/generate.sh): target/debug/libcoachcore.so and target/bindings/kotlin/.
# Env: KOTLINC (default: the kotlinc bindings/tools.sh installs, or kotlinc
# on PATH), JNA_JAR (default /usr/share/java/jna.jar, Debian package libjna-java).
# Build folder: target/android-demo-check/.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/.." && pwd)
LIB_DIR=$REPO/target/debug
GEN=$REPO/target/bindings/kotlin/uniffi/coachcore/coachcore.kt
OUT=$REPO/target/android-demo-check

for f in "$LIB_DIR/libcoachcore.so" "$GEN"; do
  [[ -f $f ]] || { echo "error: $f is missing: run bindings/generate.sh first" >&2; exit 1; }
done

if [[ -z ${KOTLINC:-} ]]; then
  for k in "${COACHCORE_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/coachcore-tools}/kotlinc/bin/kotlinc" \
    "$(command -v kotlinc || true)"; do
    [[ -n $k && -x $k ]] && { KOTLINC=$k; break; }
  done
fi
[[ -n ${KOTLINC:-} && -x $KOTLINC ]] || { echo "error: no kotlinc found; set KOTLINC (bindings/tools.sh kotlin installs one)" >&2; exit 1; }
JNA_JAR=${JNA_JAR:-/usr/share/java/jna.jar}
[[ -f $JNA_JAR ]] || { echo "error: $JNA_JAR missing; set JNA_JAR or apt-get install libjna-java" >&2; exit 1; }

# The Kotlin stdlib of that compiler (kotlinc/bin/kotlinc -> kotlinc/lib/kotlin-stdlib.jar).
KOTLIN_LIB=$(cd "$(dirname "$(readlink -f "$KOTLINC")")/../lib" && pwd)
CP=$JNA_JAR:$KOTLIN_LIB/kotlin-stdlib.jar:$KOTLIN_LIB/kotlinx-coroutines-core-jvm.jar  # the generated suspend functions

mkdir -p "$OUT"
JAR=$OUT/demo-check.jar
rm -f "$JAR"
log=$OUT/kotlinc.log
if ! "$KOTLINC" -nowarn "$GEN" "$HERE/app/src/main/java/com/coachcore/demo/PlanDemoModel.kt" \
    "$HERE/app/src/main/java/com/coachcore/demo/ModelDemoModel.kt" \
    "$HERE/check/DemoCheck.kt" -cp "$CP" -d "$JAR" >"$log" 2>&1; then
  echo "error: kotlinc failed; $log:" >&2
  tail -n 40 "$log" >&2
  exit 1
fi

java -Djna.library.path="$LIB_DIR" -cp "$JAR:$CP" com.coachcore.demo.DemoCheckKt \
  "$REPO/tests/data/models/huge-kv-header.bin"
