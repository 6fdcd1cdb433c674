#!/usr/bin/env bash
# ios-demo/check.sh: compile and run the iOS demo's non-UI logic on Linux.
#
# Compiles the generated bindings (target/bindings/swift/coachcore.swift) as their own module, then
# CoachDemo/PlanDemoModel.swift, CoachDemo/ModelDemoModel.swift and CoachDemoCheck/main.swift against
# it and target/debug/libcoachcore.so, then runs the result. Prints "N passed, M failed"; exits non-zero on failure.
# The SwiftUI files (ContentView.swift, CoachDemoApp.swift) are only parsed (`swiftc -parse`, syntax
# only): there is no SwiftUI on Linux, so they are not type-checked here.
#
# Needs (made by bindings/generate.sh): target/debug/libcoachcore.so and target/bindings/swift/.
# Swift: the Debian trixie Swift 6 root of bindings/swift/swift-root.sh (needs root; override
# with SWIFT_ROOT_SH). Build folder: target/ios-demo-check/.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/.." && pwd)
SWIFT_ROOT_SH=${SWIFT_ROOT_SH:-$REPO/bindings/swift/swift-root.sh}
LIB=$REPO/target/debug/libcoachcore.so
GEN=$REPO/target/bindings/swift
OUT=$REPO/target/ios-demo-check

for f in "$LIB" "$GEN/coachcore.swift" "$GEN/coachcoreFFI.h" "$GEN/coachcoreFFI.modulemap"; do
  [[ -f $f ]] || { echo "error: $f is missing: run bindings/generate.sh first" >&2; exit 1; }
done

# Everything swiftc needs goes into OUT, which is bound at /src inside the Swift root.
rm -rf "${OUT:?}/src" "${OUT:?}/ui" "${OUT:?}/ffi" "${OUT:?}/lib" "${OUT:?}/bin" "${OUT:?}/mod"
mkdir -p "$OUT/src" "$OUT/ui" "$OUT/ffi" "$OUT/lib" "$OUT/bin" "$OUT/mod"
cp "$GEN/coachcore.swift" "$HERE/CoachDemo/PlanDemoModel.swift" "$HERE/CoachDemo/ModelDemoModel.swift" "$OUT/src/"
# The GGUF header whose KV cache cannot fit (the repository is not visible inside the Swift root).
cp "$REPO/tests/data/models/huge-kv-header.bin" "$OUT/src/"
cp "$HERE/CoachDemoCheck/main.swift" "$OUT/src/"
cp "$GEN/coachcoreFFI.h" "$GEN/coachcoreFFI.modulemap" "$OUT/ffi/"
cp "$LIB" "$OUT/lib/"
cp "$HERE/CoachDemo/ContentView.swift" "$HERE/CoachDemo/CoachDemoApp.swift" "$OUT/ui/"

# Concurrent swift-root.sh runs share the root's /src mount point; if swiftc reports "error opening
# input file '/src/...'", another run had its own folder bound there: run this again.
bash "$SWIFT_ROOT_SH" run "$OUT" swiftc -parse /src/ui/ContentView.swift /src/ui/CoachDemoApp.swift ||
  { echo "error: the SwiftUI files do not parse" >&2; exit 1; }

# The bindings are their own module in the Swift 5 language mode, as the Swift package builds them
# (`Package.swift`: tools 5.9), so an app in either mode imports them; the demo's files are
# compiled in the Swift 6 language mode (strict concurrency checking), with the bindings imported
# as an app that adds the package has them. (Swift 6.0.3 crashes compiling the generated async
# callback code in the Swift 6 mode: an assertion in its TransferNonSendable pass.)
log=$OUT/swiftc.log
if ! bash "$SWIFT_ROOT_SH" run "$OUT" swiftc -swift-version 5 -module-name coachcore -parse-as-library \
    -emit-library -emit-module -emit-module-path /src/mod/coachcore.swiftmodule \
    -Xcc -fmodule-map-file=/src/ffi/coachcoreFFI.modulemap -I /src/ffi /src/src/coachcore.swift \
    -L /src/lib -lcoachcore -o /src/lib/libcoachcoreswift.so >"$log" 2>&1 ||
  ! bash "$SWIFT_ROOT_SH" run "$OUT" swiftc -swift-version 6 -module-name CoachDemoCheck \
    -Xcc -fmodule-map-file=/src/ffi/coachcoreFFI.modulemap -I /src/ffi -I /src/mod \
    -Xfrontend -import-module -Xfrontend coachcore \
    /src/src/PlanDemoModel.swift /src/src/ModelDemoModel.swift /src/src/main.swift \
    -L /src/lib -lcoachcoreswift -lcoachcore -Xlinker -rpath -Xlinker /src/lib \
    -o /src/bin/CoachDemoCheck >>"$log" 2>&1; then
  echo "error: swiftc failed; $log:" >&2
  tail -n 40 "$log" >&2
  exit 1
fi
grep -E 'warning:' "$log" | grep -v '/src/src/coachcore.swift' >&2 || true

bash "$SWIFT_ROOT_SH" run "$OUT" /src/bin/CoachDemoCheck /src/src/huge-kv-header.bin
