# build-env.sh: build settings and step timing shared by test.sh, demo.sh and .ci/run (sourced).
#
# ccache (scripts/install-tools.sh cache), when present: ggml's CMake puts it in front of every
# llama.cpp compile by itself, so the dev, release and dist builds of the engine share their
# objects, and a machine compiles llama.cpp once for as long as its cache holds it. The base
# folder makes the build folders' paths relative, so checkouts in other folders hit the same
# entries. (Set whether or not ccache is there yet: test.sh installs it after sourcing this.)
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$(pwd -P)}

# step NAME CMD...: prints "== NAME", runs CMD (a failure ends the script under set -e) and notes
# its time; step_times prints the notes, one line a step.
STEP_TIMES=()
step() {
  local name=$1 t=$SECONDS
  shift
  echo "== $name"
  "$@"
  STEP_TIMES+=("$(printf '%5d s  %s' $((SECONDS - t)) "$name")")
}
step_times() {
  printf '%s\n' "${STEP_TIMES[@]}"
}
