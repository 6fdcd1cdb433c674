#!/usr/bin/env bash
# android/check.sh: compile the Kotlin of the AAR (android/coachcore) with kotlinc and run the
# Kotlin binding tests on a desktop JVM against it. No Android SDK or Gradle here, so:
#   - the Android flavour of the bindings (uniffi-android.toml, what build-aar.sh puts in the
#     module) is generated from target/debug/libcoachcore.so into target/android-package-check/;
#   - it is compiled with the Kotlin shipped beside it and the Kotlin binding tests (all of
#     bindings/kotlin/*.kt), JNA, kotlinx-coroutines and stubs of the three Android APIs it uses
#     (check/*.kt, never shipped);
#   - the tests run against it twice: as on API 34+ (android.system.SystemCleaner frees native
#     objects) and below (JNA's cleaner).
# Needs bindings/generate.sh first (target/debug/libcoachcore.so).
# Prints the tests' "N passed, M failed" lines; exits non-zero on failure.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../bindings/common.sh"
source "$REPO/bindings/tools.sh" kotlin uniffi
need_generated "$LIB_DIR/libcoachcore.so"

OUT=$REPO/target/android-package-check
GEN=$OUT/kotlin-generated
rm -rf "$GEN"
quiet "$OUT/generate.log" \
  "$UNIFFI_BINDGEN" generate "$LIB_DIR/libcoachcore.so" --language kotlin --no-format \
    --config "$REPO/android-demo/uniffi-android.toml" --out-dir "$GEN"
grep -q 'android.system.SystemCleaner' "$GEN/uniffi/coachcore/coachcore.kt" ||
  die "the generated Kotlin is not the Android flavour (no SystemCleaner)"

CP=$JNA_JAR:$KOTLIN_HOME/lib/kotlin-stdlib.jar
[[ -f $KOTLIN_HOME/lib/kotlinx-coroutines-core-jvm.jar ]] && CP=$CP:$KOTLIN_HOME/lib/kotlinx-coroutines-core-jvm.jar
JAR=$OUT/aar-kotlin-check.jar
rm -f "$JAR"
quiet "$OUT/kotlinc.log" "$KOTLINC" -nowarn "$GEN/uniffi/coachcore/coachcore.kt" \
  "$REPO"/android/check/*.kt "$REPO"/bindings/kotlin/*.kt -cp "$CP" -d "$JAR"

for sdk in 34 24; do
  log=$OUT/test-api$sdk.log rc=0
  java -Dandroid.sdk=$sdk -Djna.library.path="$LIB_DIR" -Dcoachcore.repo="$REPO" -cp "$JAR:$CP" \
    CoachTestKt >"$log" 2>&1 || rc=$?
  grep -E '^FAIL' "$log" >&2 || true
  echo "AAR Kotlin, API $sdk: $(grep -E '[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)"
  [[ $rc -eq 0 ]] || { tail -n 30 "$log" >&2; die "the Kotlin binding tests failed against the AAR's Kotlin (API $sdk); $log"; }
done
