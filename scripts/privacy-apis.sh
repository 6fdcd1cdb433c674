#!/usr/bin/env bash
# privacy-apis.sh LIB [MANIFEST]: the Apple required-reason APIs a built library references (its
# undefined symbols, as App Store Connect's scan finds them), by category, and a failure when one
# of those categories is missing from the privacy manifest (default swift/PrivacyInfo.xcprivacy,
# shipped in the Swift package). ios-demo/build-xcframework.sh runs it on each Apple library; CI
# runs it on the Linux static library (the same C and Rust code, other libc names).
# Env: NM (default nm; Xcode's for Apple libraries).
set -euo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
LIB=${1:?usage: privacy-apis.sh LIB [MANIFEST]}
MANIFEST=${2:-$REPO/swift/PrivacyInfo.xcprivacy}
NM=${NM:-nm}
die() { echo "privacy-apis: $*" >&2; exit 1; }
[[ -f $LIB && -f $MANIFEST ]] || die "$LIB or $MANIFEST not found"

# The C functions of each category (Apple's list; the Foundation ones a Rust and C++ library
# cannot call are left out).
declare -A CATEGORY=(
  [stat]=FileTimestamp [fstat]=FileTimestamp [fstatat]=FileTimestamp [lstat]=FileTimestamp
  [getattrlist]=FileTimestamp [fgetattrlist]=FileTimestamp [getattrlistat]=FileTimestamp
  [getattrlistbulk]=FileTimestamp
  [statfs]=DiskSpace [statvfs]=DiskSpace [fstatfs]=DiskSpace [fstatvfs]=DiskSpace
  [mach_absolute_time]=SystemBootTime
)
# Undefined references, without Mach-O's underscore, glibc's 64 suffix or a symbol version.
used=$("$NM" -u "$LIB" 2>/dev/null | awk '{ print $NF }' | sed -E 's/^_//; s/@.*$//; s/64$//' | sort -u)
[[ -n $used ]] || die "$NM lists no undefined symbol in $LIB"
declare -A found=()
for fn in "${!CATEGORY[@]}"; do
  grep -qx -- "$fn" <<<"$used" && found[${CATEGORY[$fn]}]+=" $fn"
done
missing=0
for cat in "${!found[@]}"; do
  if grep -q "<string>NSPrivacyAccessedAPICategory$cat</string>" "$MANIFEST"; then
    echo "privacy: $cat (${found[$cat]# }) declared in $(basename "$MANIFEST")"
  else
    echo "privacy: $cat (${found[$cat]# }) is used by $LIB but not declared in $MANIFEST" >&2
    missing=1
  fi
done
[[ ${#found[@]} -gt 0 ]] || echo "privacy: no required-reason API referenced by $LIB"
exit $missing
