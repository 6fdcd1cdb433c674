#!/usr/bin/env bash
# localize-symbols.sh IN.a OUT.a: the static library an app links (ELF: Linux, Android), with every
# symbol but the API's made local, so that it links beside SQLCipher, another Rust library or
# llama.cpp without a duplicate symbol. The shared library needs nothing of the kind (rustc's
# version script exports only the API); a static library is a bag of objects, each symbol of
# which the app's linker sees.
#
#   1. the LLVM bitcode rustc embeds in its objects (`.llvmbc`, a third of the archive) is removed:
#      nothing links against it, and binutils' nm cannot read objects that carry a newer LLVM's;
#   2. `ld -r` links the members the API needs (each API symbol is a root, `-u`) into one
#      relocatable object, so the references between llama.cpp, SQLite and the Rust code are
#      resolved inside it (members nothing reaches are left out, as the app's linker would);
#   3. llvm-objcopy keeps the globs of bindings/api-symbols.txt global and makes the rest local
#      (GNU objcopy leaves C++'s STB_GNU_UNIQUE inline variables global);
#   4. the object becomes OUT.a, checked with `check-artifact.sh static`.
#
# Env: OBJCOPY (default llvm-objcopy; the NDK's for Android), LD (default ld; the NDK's ld.lld),
# NM (default nm), AR (default ar). IN.a is only read (it may be a hard link into another build).
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

die() { echo "localize-symbols: $*" >&2; exit 1; }
[[ $# -eq 2 ]] || { sed -n '2,20p' "$0"; exit 2; }
IN=$1 OUT=$2
[[ -f $IN ]] || die "$IN not found"
OBJCOPY=${OBJCOPY:-llvm-objcopy} LD=${LD:-ld} NM=${NM:-nm} AR=${AR:-ar}
command -v "$OBJCOPY" >/dev/null || die "$OBJCOPY not found (apt-get install llvm, or set OBJCOPY)"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# 1. Without the embedded bitcode.
"$OBJCOPY" --remove-section=.llvmbc --remove-section=.llvmcmd "$IN" "$work/in.a"

# 2. The API's symbols as defined in the archive, then one object holding what they reach.
grep -Ev '^[[:space:]]*(#|$)' "$HERE/api-symbols.txt" >"$work/keep.txt"
NM=$NM bash "$HERE/check-artifact.sh" api-symbols "$work/in.a" >"$work/api.txt"
grep -q '^coach_' "$work/api.txt" || die "$NM finds no coach_* symbol in $IN (built without the feature capi?)"
roots=()
while read -r s; do roots+=(-u "$s"); done <"$work/api.txt"
"$LD" -r "${roots[@]}" "$work/in.a" -o "$work/coachcore.o"

# 3. The API global, the rest local.
"$OBJCOPY" --wildcard --keep-global-symbols="$work/keep.txt" "$work/coachcore.o" "$work/local.o"

# 4. The archive.
mkdir -p "$(dirname "$OUT")"
rm -f "$OUT"
"$AR" rcs "$OUT" "$work/local.o"
echo "localized: $OUT ($(wc -l <"$work/api.txt" | tr -d ' ') API symbols global, $(wc -c <"$OUT" | tr -d ' ') bytes; was $(wc -c <"$IN" | tr -d ' '))"
