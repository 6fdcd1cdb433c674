#!/usr/bin/env bash
# install-tools.sh: installs (apt, as root) the system tools a build of coachcore needs, when they
# are missing. test.sh, demo.sh and .ci/run call it; nothing else installs system packages.
#
#   scripts/install-tools.sh engine        cmake, a C++ compiler and libclang-dev: the llama.cpp
#                                          engine (feature `llama`) builds llama.cpp from source
#   scripts/install-tools.sh encryption    libssl-dev: SQLCipher (feature `encryption`) on Linux
#   scripts/install-tools.sh cache         ccache: llama.cpp's build (and SQLite's, through
#                                          CC="ccache cc") reuses objects across profiles and runs
#   scripts/install-tools.sh java|jna|npm  a JDK, JNA and npm for the Kotlin binding tests
#                                          (bindings/tools.sh)
#   scripts/install-tools.sh release       what scripts/release.sh uses on Linux: llvm-objcopy
#                                          (the static library's symbols), zip, a JDK and Maven's
#                                          model library (the POM read as Maven reads it)
#   scripts/install-tools.sh engine encryption cache    several at once
#
# Prints one line per package group it installs, nothing when everything is present. Exits 0 when
# every named group is present afterwards, 1 when one is missing and cannot be installed here (not
# root, no apt-get, or apt-get failed): callers decide what to do then (demo.sh runs the scripted
# demo with a notice; test.sh, bindings/tools.sh and CI fail).
set -euo pipefail

say() { echo "install-tools.sh: $*" >&2; }

installed() { # debian-package
  dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'
}

has_libclang() {
  [[ -n ${LIBCLANG_PATH:-} ]] && compgen -G "$LIBCLANG_PATH/libclang*.so*" >/dev/null && return 0
  ldconfig -p 2>/dev/null | grep -q 'libclang[-.0-9]*\.so' && return 0
  compgen -G "/usr/lib/llvm-*/lib/libclang*.so*" >/dev/null && return 0
  compgen -G "/usr/lib*/libclang*.so*" >/dev/null && return 0
  compgen -G "/usr/lib/*-linux-gnu/libclang*.so*" >/dev/null && return 0
  # macOS: Xcode's command line tools ship libclang.
  compgen -G "/Library/Developer/CommandLineTools/usr/lib/libclang.dylib" >/dev/null && return 0
  return 1
}

# missing GROUP: the Debian packages GROUP still needs (none: prints nothing).
missing() {
  case $1 in
    engine)
      command -v cmake >/dev/null 2>&1 || echo cmake
      command -v c++ >/dev/null 2>&1 || command -v g++ >/dev/null 2>&1 ||
        command -v clang++ >/dev/null 2>&1 || echo g++
      has_libclang || echo libclang-dev
      ;;
    encryption)
      # macOS takes SQLCipher's crypto from CommonCrypto: nothing to install there.
      [[ $(uname -s) == Darwin ]] || installed libssl-dev || echo libssl-dev
      ;;
    cache)
      command -v ccache >/dev/null 2>&1 || echo ccache
      ;;
    java)
      command -v java >/dev/null 2>&1 || echo default-jdk-headless
      ;;
    jna)
      [[ -f /usr/share/java/jna.jar ]] || echo libjna-java
      ;;
    npm)
      command -v npm >/dev/null 2>&1 || echo npm
      ;;
    release)
      command -v llvm-objcopy >/dev/null 2>&1 || echo llvm
      command -v zip >/dev/null 2>&1 || echo zip
      command -v unzip >/dev/null 2>&1 || echo unzip
      command -v java >/dev/null 2>&1 || echo default-jdk-headless
      [[ -f /usr/share/java/maven3-model.jar ]] || echo libmaven3-core-java
      ;;
    *)
      say "unknown group '$1' (engine|encryption|cache|java|jna|npm|release)"
      exit 2
      ;;
  esac
}

apt_install() { # packages...
  if [[ $(id -u) -ne 0 ]]; then
    say "not root: cannot apt-get install $*"
    return 1
  fi
  if ! command -v apt-get >/dev/null 2>&1; then
    say "no apt-get: install $* with this system's package manager"
    return 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  # The package lists may be missing or stale on a new machine: update once and retry.
  apt-get install -y -q --no-install-recommends "$@" >/dev/null 2>&1 ||
    { apt-get update -q >/dev/null 2>&1 &&
      apt-get install -y -q --no-install-recommends "$@" >/dev/null; }
}

[[ $# -gt 0 ]] || { say "name at least one group: engine, encryption, cache, java, jna, npm, release"; exit 2; }
need=()
for group in "$@"; do
  pkgs=$(missing "$group")
  [[ -z $pkgs ]] && continue
  say "installing $(echo $pkgs) (apt) for '$group'"
  # shellcheck disable=SC2206 # one package name per line
  need+=($pkgs)
done
((${#need[@]})) || exit 0
apt_install "${need[@]}" || { say "could not install ${need[*]}"; exit 1; }
for group in "$@"; do
  pkgs=$(missing "$group")
  [[ -z $pkgs ]] || { say "still missing for '$group': $(echo $pkgs)"; exit 1; }
done
