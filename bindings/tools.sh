#!/usr/bin/env bash
# tools.sh: installs (once) the tools the binding tests need, and exports their paths.
#
#   bindings/tools.sh [all|jna|kotlin|cbindgen|uniffi|swift]...   install, print one summary line
#   source bindings/tools.sh COMPONENT...                   same, quietly, and export to the caller
#                                                           (always name the components when sourcing)
# Exports: JNA_JAR, KOTLIN_HOME, KOTLINC, CBINDGEN, UNIFFI_BINDGEN, SWIFT_ROOT_SH.
# Idempotent and fast when everything is present. System packages (a JDK, JNA, npm) come from
# scripts/install-tools.sh. Tools are built or unpacked once per machine,
# not once per checkout, into COACHCORE_TOOLS (default ~/.cache/coachcore-tools): kotlinc via
# `npm pack`, cbindgen via `cargo install --root`, uniffi-bindgen from tools/uniffi-bindgen (its
# own crate: the library is never rebuilt for it). JNA comes from apt and the Swift root from
# bindings/swift/swift-root.sh (default /var/cache/swift-trixie-root).
set -euo pipefail

TOOLS_REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TOOLS_DIR=${COACHCORE_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/coachcore-tools}
KOTLIN_VERSION=2.4.20
CBINDGEN_VERSION=0.29.4

# _tools_quiet NAME CMD...: run CMD with its output in $TOOLS_DIR/logs/NAME.log; show it on failure.
_tools_quiet() {
  local name=$1; shift
  mkdir -p "$TOOLS_DIR/logs"
  local log=$TOOLS_DIR/logs/$name.log
  if ! "$@" >"$log" 2>&1; then
    echo "tools.sh: '$*' failed; last lines of $log:" >&2
    tail -n 40 "$log" >&2
    return 1
  fi
}

# System packages come from the repository's one install helper (apt, as root).
_tools_system() { # group
  bash "$TOOLS_REPO/scripts/install-tools.sh" "$1"
}

tools_java() {
  _tools_system java
}

tools_jna() {
  JNA_JAR=/usr/share/java/jna.jar
  _tools_system jna
  [[ -f $JNA_JAR ]] || { echo "tools.sh: $JNA_JAR missing after installing libjna-java" >&2; return 1; }
  export JNA_JAR
}

_tools_kotlinc_ok() { # dir
  [[ -f $1/bin/kotlinc && -f $1/lib/kotlin-compiler.jar && -f $1/lib/kotlin-stdlib.jar ]] &&
    grep -q "\"version\": *\"$KOTLIN_VERSION\"" "$1/package.json" 2>/dev/null
}

tools_kotlin() {
  tools_java
  tools_jna
  KOTLIN_HOME=$TOOLS_DIR/kotlinc
  if ! _tools_kotlinc_ok "$KOTLIN_HOME"; then
    _tools_system npm
    local tmp
    mkdir -p "$TOOLS_DIR"
    tmp=$(mktemp -d "$TOOLS_DIR/kotlinc.tmp.XXXXXX")
    _tools_quiet npm-pack-kotlinc sh -c 'cd "$1" && npm pack --silent "kotlin-compiler@$2"' sh "$tmp" "$KOTLIN_VERSION"
    mkdir "$tmp/unpacked"
    tar -xzf "$tmp/kotlin-compiler-$KOTLIN_VERSION.tgz" -C "$tmp/unpacked" --strip-components=1
    chmod +x "$tmp/unpacked/bin/"*
    _tools_kotlinc_ok "$tmp/unpacked" || { echo "tools.sh: unexpected kotlin-compiler package layout" >&2; rm -rf "$tmp"; return 1; }
    rm -rf "$KOTLIN_HOME"
    mv "$tmp/unpacked" "$KOTLIN_HOME"
    rm -rf "$tmp"
  fi
  KOTLINC=$KOTLIN_HOME/bin/kotlinc
  export KOTLIN_HOME KOTLINC
}

_tools_cbindgen_ok() { # path
  [[ -x $1 ]] && [[ $("$1" --version 2>/dev/null) == "cbindgen $CBINDGEN_VERSION" ]]
}

tools_cbindgen() {
  local onpath
  onpath=$(command -v cbindgen 2>/dev/null || true)
  if [[ -n $onpath ]] && _tools_cbindgen_ok "$onpath"; then
    CBINDGEN=$onpath
  else
    CBINDGEN=$TOOLS_DIR/cargo/bin/cbindgen
    if ! _tools_cbindgen_ok "$CBINDGEN"; then
      _tools_quiet cargo-install-cbindgen \
        cargo install cbindgen --version "$CBINDGEN_VERSION" --locked --root "$TOOLS_DIR/cargo"
      _tools_cbindgen_ok "$CBINDGEN" || { echo "tools.sh: cbindgen $CBINDGEN_VERSION not usable at $CBINDGEN" >&2; return 1; }
    fi
  fi
  export CBINDGEN
}

# The generator's uniffi version (tools/uniffi-bindgen/Cargo.lock) must be the library's (Cargo.lock):
# library mode reads metadata whose layout is the version's own.
_tools_uniffi_version() { # Cargo.lock
  awk '/^name = "uniffi"$/ { getline; gsub(/[^0-9.]/, ""); print; exit }' "$1"
}

tools_uniffi() {
  local lib gen
  lib=$(_tools_uniffi_version "$TOOLS_REPO/Cargo.lock")
  gen=$(_tools_uniffi_version "$TOOLS_REPO/tools/uniffi-bindgen/Cargo.lock")
  [[ -n $lib && $lib == "$gen" ]] || {
    echo "tools.sh: uniffi $lib in Cargo.lock but $gen in tools/uniffi-bindgen/Cargo.lock: make them equal" >&2
    return 1
  }
  # cargo's own fingerprints make this a no-op once built; only the small bin crate follows the
  # checkout's path.
  _tools_quiet uniffi-bindgen cargo build --locked --quiet \
    --manifest-path "$TOOLS_REPO/tools/uniffi-bindgen/Cargo.toml" --target-dir "$TOOLS_DIR/uniffi-bindgen"
  UNIFFI_BINDGEN=$TOOLS_DIR/uniffi-bindgen/debug/uniffi-bindgen
  [[ -x $UNIFFI_BINDGEN ]] || { echo "tools.sh: $UNIFFI_BINDGEN was not built" >&2; return 1; }
  export UNIFFI_BINDGEN
}

tools_swift() {
  SWIFT_ROOT_SH=$TOOLS_REPO/bindings/swift/swift-root.sh
  _tools_quiet swift-root-ensure bash "$SWIFT_ROOT_SH" ensure
  export SWIFT_ROOT_SH
}

tools_ensure() { # components...
  local c
  for c in "$@"; do
    case $c in
      all) tools_kotlin; tools_cbindgen; tools_uniffi; tools_swift ;;
      jna) tools_jna ;;
      kotlin) tools_kotlin ;;
      cbindgen) tools_cbindgen ;;
      uniffi) tools_uniffi ;;
      swift) tools_swift ;;
      *) echo "tools.sh: unknown component '$c' (all|jna|kotlin|cbindgen|uniffi|swift)" >&2; return 2 ;;
    esac
  done
}

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
  [[ $# -gt 0 ]] || set -- all
  tools_ensure "$@"
  summary=()
  [[ -n ${JNA_JAR:-} ]] && summary+=("jna=$JNA_JAR")
  [[ -n ${KOTLINC:-} ]] && summary+=("kotlinc=$KOTLINC ($KOTLIN_VERSION)")
  [[ -n ${CBINDGEN:-} ]] && summary+=("cbindgen=$CBINDGEN ($CBINDGEN_VERSION)")
  [[ -n ${UNIFFI_BINDGEN:-} ]] && summary+=("uniffi-bindgen=$UNIFFI_BINDGEN ($(_tools_uniffi_version "$TOOLS_REPO/Cargo.lock"))")
  [[ -n ${SWIFT_ROOT_SH:-} ]] && summary+=("swift: $(tail -n 1 "$TOOLS_DIR/logs/swift-root-ensure.log")")
  echo "tools ok: ${summary[*]}"
else
  tools_ensure "$@"
fi
