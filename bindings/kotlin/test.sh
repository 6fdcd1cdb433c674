#!/usr/bin/env bash
# kotlin/test.sh: compile the generated Kotlin bindings + CoachTest.kt with kotlinc and run them on
# the JVM against target/debug/libcoachcore.so (through JNA). Needs bindings/generate.sh first.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../common.sh"
source "$REPO/bindings/tools.sh" kotlin

GEN=$GEN_DIR/kotlin/uniffi/coachcore/coachcore.kt
TEST=$REPO/bindings/kotlin/CoachTest.kt
# The shipped Flow wrappers and their tests (CoachAsync.kt needs kotlinx-coroutines, which the
# Kotlin compiler distribution carries as lib/kotlinx-coroutines-core-jvm.jar).
ASYNC=$REPO/bindings/kotlin/CoachAsync.kt
ASYNC_TEST=$REPO/bindings/kotlin/AsyncTest.kt
need_generated "$GEN" "$LIB_DIR/libcoachcore.so"

OUT=$TEST_DIR/kotlin
JAR=$OUT/coach-test.jar
CP=$JNA_JAR:$KOTLIN_HOME/lib/kotlin-stdlib.jar
COROUTINES_JAR=$KOTLIN_HOME/lib/kotlinx-coroutines-core-jvm.jar
[[ -f $COROUTINES_JAR ]] || die "$COROUTINES_JAR missing: the generated suspend functions need kotlinx-coroutines"
CP=$CP:$COROUTINES_JAR
mkdir -p "$OUT"

# Recompile only when the sources or the compiler changed (kotlinc takes 10-20 s).
stamp=$(cat "$GEN" "$TEST" "$ASYNC" "$ASYNC_TEST" <(echo "$KOTLINC $CP") | sha256sum | cut -d' ' -f1)
if [[ ! -f $JAR || $(cat "$OUT/stamp" 2>/dev/null) != "$stamp" ]]; then
  rm -f "$JAR" "$OUT/stamp"
  quiet "$OUT/kotlinc.log" "$KOTLINC" -nowarn "$GEN" "$TEST" "$ASYNC" "$ASYNC_TEST" -cp "$CP" -d "$JAR"
  echo "$stamp" >"$OUT/stamp"
fi

java -Djna.library.path="$LIB_DIR" -Dcoachcore.repo="$REPO" -cp "$JAR:$CP" CoachTestKt
