#!/usr/bin/env bash
# release.sh [STEP...]: the release's artifacts, each made by the step that can make it on the
# machine it runs on; a step that cannot (the Apple step off a Mac, the Android step without the
# SDK) is skipped with the word of where it runs, and the summary lists it. Named explicitly, a step
# that cannot run fails. docs/releasing.md describes each artifact and where it goes.
#
#   linux          coachcore-VERSION-TRIPLE.tar.gz (+ .sha256): include/coachcore.h (the C API),
#                  lib/libcoachcore.so (stripped), lib/libcoachcore.a (only the API global), the
#                  changelog; the library built with the engine in the `dist` profile (cargo
#                  rebuilds nothing when it is fresh)
#   apple          (a Mac) coachcoreFFI.xcframework.zip (+ .sha256, the checksum SwiftPM checks)
#                  and swift-sources/coachcore.swift, from ios-demo/build-xcframework.sh
#   swift-package  swift-package/: a package repository's content (Package.swift whose binary
#                  target is BASE_URL/VERSION/coachcoreFFI.xcframework.zip with its checksum, the
#                  Swift in Sources/coachcore), to commit to the package repository and tag VERSION
#   android        (the Android SDK and NDK) coachcore-VERSION.aar, from android-demo/build-aar.sh,
#                  with include/coachcore.h added
#   maven          maven/: a Maven repository's folder for the AAR (GROUP/ARTIFACT/VERSION/ with the
#                  POM, the AAR when the android step made it, their checksums, maven-metadata.xml)
#   check          CI's checks on Linux (.ci/run), into OUT/VERSION-check: the linux step, then the
#                  header compiled as C and C++, the static library's symbols and a program linked
#                  statically beside another definition of a SQLite symbol, the alignment check,
#                  the swift-package step on a zip made here, the manifests (SwiftPM reads them in
#                  the binding tests' Swift root when it is there), the maven step's POM read by
#                  Maven's own model library; and that each check refuses a bad input
#
# With no STEP: linux apple swift-package android maven.
#
# Settings (environment):
#   COACHCORE_RELEASE_BASE_URL  where the release's files are downloaded from: the XCFramework zip
#                               at BASE_URL/VERSION/coachcoreFFI.xcframework.zip (needed by
#                               swift-package; e.g. https://github.com/ORG/coachcore/releases/download)
#   COACHCORE_RELEASE_OUT       output folder (default target/packages, under CARGO_TARGET_DIR when
#                               set); files go in OUT/VERSION/
#   COACHCORE_XCFRAMEWORK_ZIP   swift-package: the zip (default OUT/VERSION/coachcoreFFI.xcframework.zip)
#   COACHCORE_SWIFT_SOURCES     swift-package: the folder with the generated coachcore.swift
#                               (default OUT/VERSION/swift-sources)
#   COACHCORE_PROJECT_URL       maven: the POM's <url> (optional)
#   COACHCORE_RELEASE_BUILD=0   linux, check: take the library in target/dist as it is (CI built it
#                               in its dist step) instead of asking cargo
# The version is Cargo.toml's (scripts/release-meta.py version); CHANGELOG.md must have its entry.
set -euo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$REPO"

die() { echo "release: $*" >&2; exit 1; }
META=(python3 "$REPO/scripts/release-meta.py")
VERSION=$("${META[@]}" version)
OUT_ROOT=${COACHCORE_RELEASE_OUT:-${CARGO_TARGET_DIR:-$REPO/target}/packages}
OUT=$OUT_ROOT/$VERSION
DIST=${CARGO_TARGET_DIR:-$REPO/target}/dist
# The native libraries a program linking libcoachcore.a statically needs on Linux (glibc): what
# `cargo rustc --crate-type staticlib -- --print native-static-libs` prints, plus libstdc++ for
# llama.cpp.
LINUX_STATIC_LIBS=(-lstdc++ -lgcc_s -lutil -lrt -lpthread -lm -ldl -lc)
ZIP_NAME=coachcoreFFI.xcframework.zip

sha256_of() { "${META[@]}" sha256 "$1"; }
# checksum_file FILE: FILE.sha256 in sha256sum's format.
checksum_file() { (cd "$(dirname "$1")" && sha256sum "$(basename "$1")" >"$(basename "$1").sha256"); }

# Why STEP cannot run here (nothing printed: it can).
cannot_run() {
  case $1 in
    linux|check)
      [[ $(uname -s) == Linux ]] || echo "runs on Linux"
      ;;
    apple)
      [[ $(uname -s) == Darwin ]] || echo "run on a Mac with Xcode: scripts/release.sh apple swift-package"
      ;;
    swift-package)
      [[ -f ${COACHCORE_XCFRAMEWORK_ZIP:-$OUT/$ZIP_NAME} ]] ||
        echo "needs the apple step's $ZIP_NAME (run on a Mac, or set COACHCORE_XCFRAMEWORK_ZIP and COACHCORE_SWIFT_SOURCES)"
      ;;
    android)
      local sdk=${ANDROID_HOME:-${ANDROID_SDK_ROOT:-$HOME/Android/Sdk}}
      [[ -n ${ANDROID_NDK_HOME:-} || -d $sdk/ndk ]] && command -v cargo-ndk >/dev/null &&
        command -v "${GRADLE:-gradle}" >/dev/null ||
        echo "needs the Android SDK and NDK, cargo-ndk and Gradle: scripts/release.sh android maven"
      ;;
    maven) ;;
    *) die "unknown step '$1' (linux apple swift-package android maven check)" ;;
  esac
}

step_linux() {
  bash scripts/install-tools.sh engine release
  [[ ${COACHCORE_RELEASE_BUILD:-1} == 0 ]] || cargo build --locked --profile dist --features llama --lib
  local triple name stage
  triple=$(rustc -vV | sed -n 's/^host: //p')
  name=coachcore-$VERSION-$triple
  stage=$OUT/stage/$name
  rm -rf "$stage"
  mkdir -p "$stage/include" "$stage/lib"
  bash bindings/c/header.sh "$stage/include/coachcore.h"
  bash bindings/check-artifact.sh engine "$DIST/libcoachcore.so"
  strip --strip-all -o "$stage/lib/libcoachcore.so" "$DIST/libcoachcore.so"
  bash bindings/check-artifact.sh exports "$stage/lib/libcoachcore.so"
  bash bindings/localize-symbols.sh "$DIST/libcoachcore.a" "$stage/lib/libcoachcore.a"
  bash bindings/check-artifact.sh static "$stage/lib/libcoachcore.a"
  cp CHANGELOG.md "$stage/"
  cat >"$stage/README.txt" <<EOF
coachcore $VERSION for $triple: the on-device coaching library with its llama.cpp engine.

include/coachcore.h    the C API (JSON in, JSON out; every returned string is freed with
                       coach_string_free)
lib/libcoachcore.so    the shared library (exports only the API)
lib/libcoachcore.a     the static library (only the API global: links beside SQLite, another
                       Rust library or llama.cpp)

Link: cc app.c -I include -L lib -lcoachcore -Wl,-rpath,\$ORIGIN/lib
  or: cc app.c -I include lib/libcoachcore.a ${LINUX_STATIC_LIBS[*]}
EOF
  mkdir -p "$OUT"
  tar -C "$OUT/stage" -czf "$OUT/$name.tar.gz" "$name"
  checksum_file "$OUT/$name.tar.gz"
  LINUX_STAGE=$stage
  echo "linux: $OUT/$name.tar.gz ($(wc -c <"$OUT/$name.tar.gz" | tr -d ' ') bytes)"
}

step_apple() {
  bash ios-demo/build-xcframework.sh
  mkdir -p "$OUT/swift-sources"
  rm -f "$OUT/$ZIP_NAME"
  # ditto keeps the framework's symbolic links and metadata as Xcode's own archives do.
  (cd target/ios-demo && ditto -c -k --keepParent coachcoreFFI.xcframework "$OUT/$ZIP_NAME")
  checksum_file "$OUT/$ZIP_NAME"
  cp target/ios-demo/coachcore.swift "$OUT/swift-sources/"
  echo "apple: $OUT/$ZIP_NAME, checksum $(sha256_of "$OUT/$ZIP_NAME")"
}

step_swift_package() {
  local zip=${COACHCORE_XCFRAMEWORK_ZIP:-$OUT/$ZIP_NAME}
  local sources=${COACHCORE_SWIFT_SOURCES:-$OUT/swift-sources}
  local base=${COACHCORE_RELEASE_BASE_URL:-}
  [[ -n $base ]] || die "swift-package: set COACHCORE_RELEASE_BASE_URL (the zip is BASE_URL/$VERSION/$ZIP_NAME)"
  [[ -f $zip && -f $sources/coachcore.swift ]] || die "swift-package: $zip or $sources/coachcore.swift is missing"
  local url=${base%/}/$VERSION/$ZIP_NAME pkg=$OUT/swift-package
  rm -rf "$pkg"
  mkdir -p "$pkg/Sources/coachcore"
  "${META[@]}" swift-manifest Package.swift "$pkg/Package.swift" "$url" "$(sha256_of "$zip")"
  cp "$sources/coachcore.swift" bindings/swift/Sources/coachcore/*.swift swift/PrivacyInfo.xcprivacy \
    "$pkg/Sources/coachcore/"
  cp CHANGELOG.md "$pkg/"
  cat >"$pkg/README.md" <<EOF
# CoachCore $VERSION (Swift package)

The coachcore library for iOS 16+ and macOS 13+: the XCFramework ($url) and its Swift API.
Add this repository in Xcode (File > Add Package Dependencies) or in Package.swift:

    .package(url: "<this repository's URL>", exact: "$VERSION")

then the product \`CoachCore\` and \`import coachcore\`. Generated by scripts/release.sh: do not edit.
EOF
  "${META[@]}" check-manifest "$pkg/Package.swift" --release "$url" "$zip" --package-dir "$pkg"
  echo "swift-package: $pkg (commit its content to the package repository, tag $VERSION; upload $(basename "$zip") to $url)"
}

step_android() {
  bash android-demo/build-aar.sh
  local aar=$OUT/coachcore-$VERSION.aar work=$OUT/stage/aar
  mkdir -p "$OUT"
  cp android/coachcore/build/outputs/aar/coachcore-release.aar "$aar"
  rm -rf "$work"
  bash bindings/c/header.sh "$work/include/coachcore.h"
  (cd "$work" && zip -q -X "$aar" include/coachcore.h)
  echo "android: $aar"
}

step_maven() {
  local group artifact dir
  read -r group artifact _ <<<"$("${META[@]}" coordinates)"
  dir=$OUT/maven/${group//.//}/$artifact/$VERSION
  rm -rf "$OUT/maven"
  mkdir -p "$dir"
  local base=$dir/$artifact-$VERSION
  "${META[@]}" pom "$base.pom"
  "${META[@]}" check-pom "$base.pom"
  check_pom_with_maven "$base.pom"
  [[ -f $OUT/coachcore-$VERSION.aar ]] && cp "$OUT/coachcore-$VERSION.aar" "$base.aar"
  cat >"$dir/../maven-metadata.xml" <<EOF
<?xml version="1.0" encoding="UTF-8"?>
<metadata>
  <groupId>$group</groupId>
  <artifactId>$artifact</artifactId>
  <versioning>
    <latest>$VERSION</latest>
    <release>$VERSION</release>
    <versions>
      <version>$VERSION</version>
    </versions>
    <lastUpdated>$(date -u +%Y%m%d%H%M%S)</lastUpdated>
  </versioning>
</metadata>
EOF
  # The checksums a Maven repository serves beside each file.
  local f
  for f in "$dir"/* "$dir/../maven-metadata.xml"; do
    md5sum "$f" | cut -d' ' -f1 | tr -d '\n' >"$f.md5"
    sha1sum "$f" | cut -d' ' -f1 | tr -d '\n' >"$f.sha1"
    sha256sum "$f" | cut -d' ' -f1 | tr -d '\n' >"$f.sha256"
    sha512sum "$f" | cut -d' ' -f1 | tr -d '\n' >"$f.sha512"
  done
  echo "maven: $OUT/maven ($group:$artifact:$VERSION$([[ -f $base.aar ]] && echo ", with the AAR" || echo ", POM only: the AAR comes from the android step"))"
}

# check_pom_with_maven POM: the POM read by Maven's own model library (scripts/PomCheck.java).
check_pom_with_maven() {
  local j=/usr/share/java cp=() jar
  for jar in maven3-model maven3-model-builder maven3-builder-support maven3-artifact plexus-utils2 \
    plexus-interpolation commons-lang3; do
    [[ -f $j/$jar.jar ]] || die "$j/$jar.jar is missing (scripts/install-tools.sh release)"
    cp+=("$j/$jar.jar")
  done
  java -cp "$(IFS=:; echo "${cp[*]}")" scripts/PomCheck.java "$1"
}

# refused WHAT CMD...: CMD must fail (a check that cannot fail checks nothing).
refused() {
  local what=$1; shift
  if "$@" >/dev/null 2>&1; then die "check: $what was accepted"; fi
  echo "refused, as it should be: $what"
}

step_check() {
  # Apart from a release's files: the Swift package made here points at a stand-in zip.
  OUT=$OUT_ROOT/$VERSION-check
  bash scripts/install-tools.sh release
  "${META[@]}" check-changelog
  step_linux
  local stage=$LINUX_STAGE work=$OUT/stage/check
  rm -rf "$work"
  mkdir -p "$work"

  # The header, as C and as C++ (cbindgen's cpp_compat), with every warning an error.
  cc -std=c11 -Wall -Wextra -Werror -fsyntax-only -x c "$stage/include/coachcore.h"
  c++ -std=c++17 -Wall -Wextra -Werror -fsyntax-only -x c++ "$stage/include/coachcore.h"
  echo "header: include/coachcore.h compiles as C11 and C++17 (-Wall -Wextra -Werror)"

  # The static library beside another definition of a symbol it uses inside (SQLite's): the C API
  # tests, linked statically with the tarball's flags, then run.
  printf 'int sqlite3_libversion_number(void) { return 1; }\nint ggml_init(void) { return 2; }\n' >"$work/other.c"
  cc -std=c11 -O1 -DCOACH_TEST_ENGINE -I "$stage/include" bindings/c/test_capi.c "$work/other.c" \
    "$stage/lib/libcoachcore.a" "${LINUX_STATIC_LIBS[@]}" -o "$work/test_static"
  "$work/test_static" | tail -n 1 | sed 's/^/static, beside its own sqlite3_libversion_number and ggml_init: /'
  # The library as cargo builds it would not link there: both are defined twice.
  if cc -std=c11 -O1 -I "$stage/include" bindings/c/test_capi.c "$work/other.c" "$DIST/libcoachcore.a" \
    "${LINUX_STATIC_LIBS[@]}" -o "$work/test_unlocalized" 2>"$work/unlocalized.log" ||
    ! grep -q 'multiple definition of .sqlite3_libversion_number' "$work/unlocalized.log"; then
    die "check: the static library as cargo builds it linked beside another sqlite3_libversion_number (the check above proves nothing)"
  fi
  echo "refused, as it should be: cargo's own libcoachcore.a beside another sqlite3_libversion_number (multiple definition)"
  bash scripts/privacy-apis.sh "$stage/lib/libcoachcore.a"

  # The alignment check, on two small libraries linked for 16 KB and 4 KB pages.
  printf 'int f(void) { return 1; }\n' >"$work/f.c"
  cc -shared -fPIC -Wl,-z,max-page-size=16384 "$work/f.c" -o "$work/aligned.so"
  cc -shared -fPIC -Wl,-z,max-page-size=4096 -Wl,-z,common-page-size=4096 "$work/f.c" -o "$work/small-pages.so"
  bash bindings/check-artifact.sh aligned "$work/aligned.so"
  refused "a library with 4 KB-aligned segments" bash bindings/check-artifact.sh aligned "$work/small-pages.so"
  printf 'int coach_open(void) { return 0; }\nint uniffi_coachcore_fn(void) { return 0; }\nint sqlite3_open(void) { return 0; }\n' >"$work/leak.c"
  cc -c "$work/leak.c" -o "$work/leak.o" && ar rcs "$work/libleak.a" "$work/leak.o"
  refused "a static library defining sqlite3_open globally" bash bindings/check-artifact.sh static "$work/libleak.a"

  # The swift-package step on a zip made here (the tarball's headers and notes zipped: the step
  # computes the checksum of whatever zip it is given, as `swift package compute-checksum` does),
  # with the Swift generated from the Linux library (the Mac's comes from its own library).
  source bindings/tools.sh uniffi
  "$UNIFFI_BINDGEN" generate "$DIST/libcoachcore.so" --language swift --no-format --out-dir "$work/swift-sources"
  (cd "$stage" && zip -q -r -X "$work/$ZIP_NAME" include README.txt)
  COACHCORE_XCFRAMEWORK_ZIP=$work/$ZIP_NAME COACHCORE_SWIFT_SOURCES=$work/swift-sources \
    COACHCORE_RELEASE_BASE_URL=${COACHCORE_RELEASE_BASE_URL:-https://downloads.invalid/coachcore} \
    step_swift_package
  "${META[@]}" check-manifest Package.swift
  printf 'not the zip' >"$work/other.zip"
  refused "a manifest whose checksum is not its zip's" "${META[@]}" check-manifest "$OUT/swift-package/Package.swift" \
    --release "https://downloads.invalid/coachcore/$VERSION/$ZIP_NAME" "$work/other.zip"
  swift_dump "$OUT/swift-package"

  step_maven
  local pom
  pom=$(find "$OUT/maven" -name '*.pom')
  sed 's#<version>5\.[0-9.]*</version>#<version>5.13.0</version>#' "$pom" >"$work/old-jna.pom"
  refused "a POM with JNA 5.13.0" "${META[@]}" check-pom "$work/old-jna.pom"
  sed 's#<packaging>#<unknownElement/><packaging>#' "$pom" >"$work/unknown.pom"
  refused "a POM with an element Maven does not know" check_pom_with_maven "$work/unknown.pom"
}

# swift_dump PACKAGE_DIR: SwiftPM itself reads the package's manifest (`swift package
# dump-package` in the Swift root of the binding tests, when it is there): the Linux branch as it
# is, and the Apple branch (the binary target by URL and checksum) in a copy with `#if os(Linux)`
# turned off. Without the root (a machine that has not run the Swift binding tests) this is skipped.
swift_dump() {
  local root=${SWIFT_ROOT:-/var/cache/swift-trixie-root}
  # (The root's swift is a link into the root itself: test it as a link.)
  if [[ ! -L $root/usr/bin/swift && ! -x $root/usr/bin/swift ]]; then
    echo "swift: no Swift root at $root (bindings/swift/swift-root.sh ensure): manifest parsed by release-meta.py only"
    return 0
  fi
  local copy=$OUT/stage/check/apple-branch
  rm -rf "$copy"
  cp -R "$1" "$copy"
  sed -i 's/^#if os(Linux)$/#if false/' "$copy/Package.swift"
  local json
  json=$(bash bindings/swift/swift-root.sh run "$copy" swift package dump-package)
  python3 - "$json" <<'EOF'
import json, sys
pkg = json.loads(sys.argv[1])
targets = {t["name"]: t for t in pkg["targets"]}
ffi, swift = targets["coachcoreFFI"], targets["coachcore"]
assert ffi["type"] == "binary" and ffi["url"].endswith("/coachcoreFFI.xcframework.zip") and len(ffi["checksum"]) == 64, ffi
assert swift["path"] == "Sources/coachcore" and swift["resources"][0]["path"] == "PrivacyInfo.xcprivacy", swift
assert [p["name"] for p in pkg["products"]] == ["CoachCore"], pkg["products"]
print(f"swift: SwiftPM reads the release manifest: binary target {ffi['url']} (checksum {ffi['checksum'][:12]}...), target coachcore with its privacy manifest, product CoachCore")
EOF
}

steps=("$@")
explicit=1
if [[ ${#steps[@]} -eq 0 ]]; then
  steps=(linux apple swift-package android maven)
  explicit=0
fi
made=() skipped=()
for s in "${steps[@]}"; do
  why=$(cannot_run "$s")
  if [[ -n $why ]]; then
    [[ $explicit == 0 ]] || die "$s: $why"
    echo "== $s: skipped: $why"
    skipped+=("$s ($why)")
    continue
  fi
  echo "== $s"
  "step_${s//-/_}"
  made+=("$s")
done
echo "release $VERSION: made ${made[*]:-nothing} in $OUT"
for s in ${skipped[@]+"${skipped[@]}"}; do echo "  left to another machine: $s"; done
