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
#   check-artifact.sh release LIB.so           both checks, then a stripped copy next to LIB
#                                              (LIB.stripped), the size before and after stripping
#                                              and the number of exported symbols.
#
# Env: NM (default `nm`; the NDK's llvm-nm for Android libraries, Xcode's nm for Apple ones),
# STRIP (default `strip`). Symbols may carry Mach-O's leading underscore.
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
# The symbols an app may see: UniFFI's scaffolding, the C API. Anything else is a leak.
ALLOWED='^(uniffi_coachcore_|ffi_coachcore_|coach_|UNIFFI_META_COACHCORE_|UNIFFI_META_NAMESPACE_COACHCORE$)'
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

[[ $# -ge 2 ]] || { sed -n '2,18p' "$0"; exit 2; }
cmd=$1; shift
case $cmd in
  engine) engine "$@" ;;
  exports) [[ $# -eq 1 ]] || die "exports takes one library"; exports "$1" ;;
  release) [[ $# -eq 1 ]] || die "release takes one library"; release "$1" ;;
  *) die "unknown command '$cmd' (engine | exports | release)" ;;
esac
