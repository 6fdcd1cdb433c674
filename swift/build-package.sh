#!/usr/bin/env bash
# swift/build-package.sh: fill this folder for the Swift package at the repository's root
# (Package.swift, development layout; macOS only; needs what ios-demo/build-xcframework.sh needs).
# It builds the XCFramework with the llama.cpp engine on Metal, then copies into swift/:
#   coachcoreFFI.xcframework           from target/ios-demo/
#   Sources/coachcore/coachcore.swift  the generated bindings
#   Sources/coachcore/*.swift          the Swift shipped with the bindings (SHIPPED_SWIFT below)
#   Sources/coachcore/PrivacyInfo.xcprivacy   the privacy manifest (a resource of the target)
# Then the repository's root is the package: add it to an app as a local package. A release that
# apps add by URL is made by scripts/release.sh (docs/releasing.md).
# Env: as ios-demo/build-xcframework.sh (PROFILE, FEATURES, SLICES, IPHONEOS_DEPLOYMENT_TARGET,
# MACOSX_DEPLOYMENT_TARGET).
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/.." && pwd)

# Hand-written Swift that ships with the generated bindings (compiled into the same module).
SHIPPED_SWIFT=("$REPO"/bindings/swift/Sources/coachcore/*.swift)

bash "$REPO/ios-demo/build-xcframework.sh"
BUILT=$REPO/target/ios-demo

rm -rf "$HERE/coachcoreFFI.xcframework" "$HERE/Sources"
mkdir -p "$HERE/Sources/coachcore"
cp -R "$BUILT/coachcoreFFI.xcframework" "$HERE/"
cp "$BUILT/coachcore.swift" "$HERE/PrivacyInfo.xcprivacy" "$HERE/Sources/coachcore/"
for f in "${SHIPPED_SWIFT[@]}"; do
  [[ -f $f ]] && cp "$f" "$HERE/Sources/coachcore/"
done

echo "filled $HERE: coachcoreFFI.xcframework, Sources/coachcore/: $(cd "$HERE/Sources/coachcore" && printf '%s ' *)"
echo "next: in Xcode, File > Add Package Dependencies > Add Local... > $REPO; then 'import coachcore'"
