# build-env.sh: build settings shared by test.sh, demo.sh and .ci/run (sourced, not run).
#
# ccache (scripts/install-tools.sh cache), when present: ggml's CMake puts it in front of every
# llama.cpp compile by itself, so the dev, release and dist builds of the engine share their
# objects, and a machine compiles llama.cpp once for as long as its cache holds it. The base
# folder makes the build folders' paths relative, so checkouts in other folders hit the same
# entries. (Set whether or not ccache is there yet: test.sh installs it after sourcing this.)
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$(pwd -P)}
