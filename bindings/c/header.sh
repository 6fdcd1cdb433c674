#!/usr/bin/env bash
# c/header.sh OUT.h: the C API's header (cbindgen over src/capi.rs, config bindings/c/cbindgen.toml),
# as the packages ship it: in the Linux tarball, the XCFramework and the AAR (scripts/release.sh,
# ios-demo/build-xcframework.sh). cbindgen comes from bindings/tools.sh (installed once).
set -euo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
OUT=${1:?usage: bindings/c/header.sh OUT.h}
source "$REPO/bindings/tools.sh" cbindgen
mkdir -p "$(dirname "$OUT")"
OUT=$(cd "$(dirname "$OUT")" && pwd)/$(basename "$OUT")
(cd "$REPO" && "$CBINDGEN" --quiet --config bindings/c/cbindgen.toml --output "$OUT" src/capi.rs)
grep -q 'coach_open' "$OUT" || { echo "c/header.sh: cbindgen wrote no coach_open into $OUT" >&2; exit 1; }
