# common.sh: small helpers shared by the bindings scripts (sourced, not run).
# Sets REPO (repo root) and cds there.
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$REPO"
export CARGO_TERM_COLOR=never

die() { echo "error: $*" >&2; exit 1; }

# quiet LOG CMD...: run CMD with stdout+stderr into LOG; on failure print the end of LOG and fail.
quiet() {
  local log=$1; shift
  mkdir -p "$(dirname "$log")"
  local rc=0
  "$@" >"$log" 2>&1 || rc=$?
  if [[ $rc -ne 0 ]]; then
    echo "error: '$*' failed (exit $rc); last lines of $log:" >&2
    tail -n 60 "$log" >&2
    return 1
  fi
}

LIB_DIR=$REPO/target/debug
GEN_DIR=$REPO/target/bindings
TEST_DIR=$REPO/target/bindings-test

need_generated() { # file...
  local f
  for f in "$@"; do
    [[ -f $f ]] || die "$f is missing: run bindings/generate.sh first (or bindings/test-all.sh)"
  done
}
