#!/usr/bin/env bash
# swift-root.sh: a Swift 6 toolchain for a Debian 12 host that has none.
#
# Debian 13 (trixie) packages Swift as `swiftlang`; it needs a newer glibc than Debian 12 has,
# so it lives in a trixie root made with debootstrap. Libraries built on the host (glibc 2.36)
# run unchanged inside it. Needs root (chroot, mount); about 3 minutes and 2.6 GB the first time.
#
#   swift-root.sh ensure             build the root with swiftlang, once (reused afterwards)
#   swift-root.sh run DIR CMD...     bind DIR at /src inside the root and run CMD there (cwd /src)
#
# (Vendored copy of the project's shared swift-root tool; same behaviour and default root.)
# Env: SWIFT_ROOT (default /var/cache/swift-trixie-root), MIRROR (default: the host's own Debian mirror).
set -euo pipefail
ROOT=${SWIFT_ROOT:-/var/cache/swift-trixie-root}

# Several runs may share one root (binding tests, demo checks): do the mounts in a private mount
# namespace, so one run's bind at /src or its unmounts never reach another run; they also vanish
# when the run ends. Falls back to the shared namespace where unshare is not permitted.
if [[ -z ${SWIFT_ROOT_UNSHARED:-} && ${1:-} =~ ^(ensure|run)$ ]] &&
   unshare --mount --propagation private true 2>/dev/null; then
  SWIFT_ROOT_UNSHARED=1 exec unshare --mount --propagation private bash "$0" "$@"
fi

mirror() {
  local m
  m=$( { grep -hs '^URIs:' /etc/apt/sources.list.d/*.sources | awk '{print $2}'
         grep -hsE '^deb ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list |
           sed -E 's/\[[^]]*\]//' | awk '{print $2}'; } | grep -E '/debian/?$' | head -n1 || true)
  m=${MIRROR:-$m}
  [[ -n $m ]] || { echo "swift-root: no Debian mirror in the apt sources; set MIRROR" >&2; exit 1; }
  echo "$m"
}

MOUNTED=()
unmount_all() {
  local i
  for ((i = ${#MOUNTED[@]} - 1; i >= 0; i--)); do
    umount "${MOUNTED[i]}" 2>/dev/null || umount -l "${MOUNTED[i]}"
  done
  MOUNTED=()
}
trap unmount_all EXIT
bind() { # bind SRC TARGET [type]
  mkdir -p "$2"
  if [[ ${3:-} == proc ]]; then mount -t proc proc "$2"; else mount --bind "$1" "$2"; fi
  MOUNTED+=("$2")
}
inroot() { # inroot CWD CMD...
  local cwd=$1; shift
  chroot "$ROOT" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
    DEBIAN_FRONTEND=noninteractive /bin/sh -ec 'cd "$0"; exec "$@"' "$cwd" "$@"
}

ensure() {
  # one ensure at a time per root (a second waits, then finds the work done)
  mkdir -p "$(dirname "$ROOT")"
  exec 9>"$ROOT.lock"
  flock 9
  if [[ ! -f $ROOT/.debootstrap-done ]]; then
    command -v debootstrap >/dev/null ||
      apt-get install -y -q debootstrap >/dev/null 2>&1 ||
      { apt-get update -q >/dev/null && apt-get install -y -q debootstrap >/dev/null; }
    if grep -q " $ROOT/" /proc/mounts; then echo "swift-root: something is mounted under $ROOT" >&2; exit 1; fi
    rm -rf --one-file-system "$ROOT"
    mkdir -p "$(dirname "$ROOT")"
    debootstrap --variant=minbase trixie "$ROOT" "$(mirror)" >&2
    touch "$ROOT/.debootstrap-done"
  fi
  cp /etc/resolv.conf "$ROOT/etc/resolv.conf"
  if ! chroot "$ROOT" /bin/sh -c 'command -v swiftc' >/dev/null 2>&1; then
    bind /proc "$ROOT/proc" proc; bind /dev "$ROOT/dev"
    inroot / sh -c 'apt-get update -q && apt-get install -y -q --no-install-recommends swiftlang gcc libc6-dev binutils && apt-get clean' >&2
    unmount_all
  fi
  flock -u 9
}

case ${1:-} in
  ensure) # swiftc finds its runtime through /proc/self/exe: /proc must be mounted to run it
    ensure; bind /proc "$ROOT/proc" proc; inroot / swiftc --version 2>&1 | head -n1 ;;
  run)
    [[ $# -ge 3 ]] || { echo "usage: swift-root run DIR CMD..." >&2; exit 2; }
    dir=$(cd "$2" && pwd); shift 2
    ensure
    bind /proc "$ROOT/proc" proc; bind /dev "$ROOT/dev"; bind "$dir" "$ROOT/src"
    inroot /src "$@"
    ;;
  *) sed -n '2,12p' "$0"; exit 2 ;;
esac
