#!/usr/bin/env bash
# check-artifact.sh: check a built coachcore library before it ships.
#
#   check-artifact.sh engine LIB [SYMBOL...]   fail unless the llama.cpp engine is inside LIB (a .so
#                                              or a static .a): llama_decode, ggml_backend_cpu_reg and
#                                              each SYMBOL must be defined in it. Run it on the
#                                              unstripped library (a stripped .so keeps no local
#                                              symbols).
#   check-artifact.sh exports LIB.so           fail if the shared library exports anything but the
#                                              library's own API: uniffi_coachcore_*, ffi_coachcore_*
#                                              (UniFFI's functions), coach_* (the C API) and
#                                              UNIFFI_META_*COACHCORE* (UniFFI's read-only API
#                                              description). Nothing of llama.cpp, ggml, SQLite or the
#                                              Rust standard library.
#   check-artifact.sh static LIB.a             fail if the static library defines a global symbol
#                                              outside the same API (after
#                                              bindings/localize-symbols.sh on ELF, or the
#                                              prelink of ios-demo/build-xcframework.sh on Mach-O):
#                                              an app linking it beside SQLCipher, another Rust
#                                              library or its own llama.cpp meets no duplicate.
#   check-artifact.sh aligned LIB.so...        fail unless every LOAD segment of each shared
#                                              library is aligned to 16 KB or more (Android 15+
#                                              devices with 16 KB pages; Google Play).
#   check-artifact.sh api-symbols LIB          print the API symbols LIB defines globally, one a
#                                              line without Mach-O's underscore (the roots of the
#                                              static libraries' prelink).
#   check-artifact.sh release LIB.so           the engine and exports checks, then a stripped copy
#                                              next to LIB (LIB.stripped), the size before and
#                                              after stripping and the number of exported symbols.
#
# The API's symbols: bindings/api-symbols.txt (globs).
# Env: NM (default `nm`; the NDK's llvm-nm for Android libraries, Xcode's nm for Apple ones),
# STRIP (default `strip`), READELF (default `readelf`; the NDK's llvm-readelf). Symbols may carry
# Mach-O's leading underscore.
#
# What keeps the exports this small is rustc itself: it links every cdylib with a version script of
# its own, `{ global: <the #[no_mangle] items of the crate graph>; local: *; }`, which hides the
# static llama.cpp, ggml and SQLite archives and the Rust standard library. (A second version
# script could not hide UniFFI's #[no_mangle] metadata statics: the linker lets rustc's exact names
# win over any pattern.) This check keeps it that way: a dependency with #[no_mangle] items,
# `-rdynamic`-style link flags or llama-cpp-sys-2's `dynamic-link` feature would show here.
set -euo pipefail

NM=${NM:-nm}
STRIP=${STRIP:-strip}
READELF=${READELF:-readelf}
# The symbols an app may see (UniFFI's scaffolding and API description, the C API), as one
# anchored regular expression made from the globs of api-symbols.txt. Anything else is a leak.
API_SYMBOLS=$(dirname "${BASH_SOURCE[0]}")/api-symbols.txt
ALLOWED=$(grep -Ev '^[[:space:]]*(#|$)' "$API_SYMBOLS" | sed -E 's/[.[\^$+?(){}|]/\\&/g; s/\*/.*/g' | paste -sd '|' -)
ALLOWED="^($ALLOWED)\$"
# The engine must be linked in: the decoder and ggml's CPU backend.
ENGINE_SYMBOLS=(llama_decode llama_model_load_from_file ggml_backend_cpu_reg)

die() { echo "check-artifact: $*" >&2; exit 1; }

# defined_symbols LIB [nm flags...]: the names of the symbols LIB defines, one a line, without
# Mach-O's leading underscore and ELF version suffixes.
defined_symbols() {
  local lib=$1; shift
  # nm prints "ADDRESS TYPE NAME" (plus "FILE:" headers for archives); keep NAME.
  $NM "$@" --defined-only "$lib" 2>/dev/null | awk 'NF >= 3 { print $3 }' | sed -E 's/^_//; s/@.*$//' | sort -u
}

engine() {
  local lib=$1; shift
  [[ -f $lib ]] || die "$lib not found"
  local have missing=()
  have=$(defined_symbols "$lib")
  [[ -n $have ]] || die "$NM lists no symbols in $lib (stripped, or an nm that cannot read it? set NM)"
  local s
  for s in "${ENGINE_SYMBOLS[@]}" "$@"; do
    grep -qx -- "$s" <<<"$have" || missing+=("$s")
  done
  if [[ ${#missing[@]} -gt 0 ]]; then
    die "the llama.cpp engine is missing from $lib (not defined: ${missing[*]}): build with --features llama"
  fi
  echo "engine: $lib defines ${ENGINE_SYMBOLS[*]} $*"
}

exports() {
  local lib=$1
  [[ -f $lib ]] || die "$lib not found"
  local all bad n
  all=$(defined_symbols "$lib" -D)
  [[ -n $all ]] || die "$lib exports nothing (not a shared library?)"
  n=$(grep -c . <<<"$all")
  bad=$(grep -Ev "$ALLOWED" <<<"$all" || true)
  if [[ -n $bad ]]; then
    echo "check-artifact: $lib exports $(grep -c . <<<"$bad") symbols outside the API (first 30):" >&2
    head -n 30 <<<"$bad" >&2
    exit 1
  fi
  echo "exports: $n symbols, all the library's own: $(grep -c '^uniffi_coachcore_' <<<"$all") uniffi_coachcore_*," \
    "$(grep -c '^ffi_coachcore_' <<<"$all") ffi_coachcore_*, $(grep -c '^coach_' <<<"$all") coach_* (C API)," \
    "$(grep -c '^UNIFFI_META_' <<<"$all") UNIFFI_META_* (API description data)"
}

static_lib() {
  local lib=$1
  [[ -f $lib ]] || die "$lib not found"
  local all bad n
  # Global definitions (T, D, R, B, W, V, u...), not the undefined references to libc and libc++.
  all=$(defined_symbols "$lib" -g)
  n=$(grep -c . <<<"$all" || true)
  # A vacuous pass is a failure: an nm that cannot read the library's objects lists nothing of
  # the API either.
  if ! grep -q '^coach_' <<<"$all" || ! grep -q '^uniffi_coachcore_' <<<"$all"; then
    die "$NM lists no coach_* or uniffi_coachcore_* definition in $lib (an nm that cannot read it? set NM)"
  fi
  bad=$(grep -Ev "$ALLOWED" <<<"$all" || true)
  if [[ -n $bad ]]; then
    echo "check-artifact: $lib defines $(grep -c . <<<"$bad") global symbols outside the API (first 30):" >&2
    head -n 30 <<<"$bad" >&2
    die "hide them: bindings/localize-symbols.sh (ELF) or the prelink of ios-demo/build-xcframework.sh (Mach-O)"
  fi
  echo "static: $n global symbols, all the library's own: $(grep -c '^uniffi_coachcore_' <<<"$all") uniffi_coachcore_*," \
    "$(grep -c '^ffi_coachcore_' <<<"$all") ffi_coachcore_*, $(grep -c '^coach_' <<<"$all") coach_* (C API)," \
    "$(grep -c '^UNIFFI_META_' <<<"$all") UNIFFI_META_*"
}

api_symbols() {
  [[ -f $1 ]] || die "$1 not found"
  defined_symbols "$1" -g | grep -E "$ALLOWED" || die "$NM finds no API symbol in $1"
}

aligned() {
  local lib aligns a
  for lib in "$@"; do
    [[ -f $lib ]] || die "$lib not found"
    # "LOAD offset vaddr paddr filesz memsz flags align": the alignment is the last field.
    aligns=$("$READELF" -lW "$lib" | awk '$1 == "LOAD" { print $NF }')
    [[ -n $aligns ]] || die "$READELF shows no LOAD segment in $lib (not a shared library?)"
    for a in $aligns; do
      (( a >= 16384 )) || die "$lib has a LOAD segment aligned to $((a)) bytes (< 16 KB): it crashes on 16 KB-page devices (link with -z max-page-size=16384, NDK r28+)"
    done
    echo "aligned: $lib: $(wc -l <<<"$aligns" | tr -d ' ') LOAD segments, each 16 KB aligned or more"
  done
}

# Sizes in MB (10^6 bytes, the goal's unit) and MiB.
mb() { awk -v b="$1" 'BEGIN { printf "%.2f MB (%.2f MiB)", b / 1000000, b / 1048576 }'; }

release() {
  local lib=$1
  engine "$lib"
  local out=$lib.stripped before after
  $STRIP --strip-all -o "$out" "$lib"
  before=$(wc -c <"$lib" | tr -d " ")
  after=$(wc -c <"$out" | tr -d " ")
  exports "$out"
  echo "size: $(basename "$lib") $(mb "$before") unstripped, $(mb "$after") stripped ($after bytes; goal: at most 10 MB, 10,000,000 bytes$( ((after <= 10000000)) && echo ", met" || echo ", NOT met"))"
}

[[ $# -ge 2 ]] || { sed -n '2,34p' "$0"; exit 2; }
cmd=$1; shift
case $cmd in
  engine) engine "$@" ;;
  exports) [[ $# -eq 1 ]] || die "exports takes one library"; exports "$1" ;;
  static) [[ $# -eq 1 ]] || die "static takes one library"; static_lib "$1" ;;
  aligned) aligned "$@" ;;
  api-symbols) [[ $# -eq 1 ]] || die "api-symbols takes one library"; api_symbols "$1" ;;
  release) [[ $# -eq 1 ]] || die "release takes one library"; release "$1" ;;
  *) die "unknown command '$cmd' (engine | exports | static | aligned | api-symbols | release)" ;;
esac
