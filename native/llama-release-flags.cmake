# Optimisation flags of llama.cpp's Release build, included by its CMake after each project() call
# (CMAKE_PROJECT_INCLUDE, set in .cargo/config.toml and passed on by llama-cpp-sys-2's build
# script, which forwards every CMAKE_* variable). The library ships every model architecture and
# quantisation type llama.cpp has; what runs for each token is a small part of it. So:
# - ggml's CPU backend (the tensor kernels, where decoding spends its time) keeps -O3, the rest
#   of ggml (ggml-base) is built for size;
# - llama.cpp's own C++ is built for size (-Os): loading, the per-architecture graph builders,
#   chat templates, quantisation, and llama-common (the JSON Schema to grammar conversion);
# - except the two sources of llama.cpp itself that show in a profile of constrained generation
#   (perf, SmolLM2-135M, this library's sampling): the grammar (about 2% of the time) and the
#   samplers (about 0.4%), kept at -O3. Everything else of llama.cpp's own code (decoding, batch,
#   graph building, KV cache, vocabulary) is under 0.1% each; ggml's kernels are about 95%.
# docs/packages.md ("Size") has the measured size and speed. GCC and Clang only (Linux, Android,
# Apple); other compilers keep CMake's defaults. Without CMake 3.19 (cmake_language) all of
# llama.cpp's own C++ is built for size.
if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang|GNU")
    return()
endif()
if(PROJECT_NAME STREQUAL "ggml")
    set(CMAKE_C_FLAGS_RELEASE "-O3 -DNDEBUG")
    set(CMAKE_CXX_FLAGS_RELEASE "-O3 -DNDEBUG")
    # ggml-base (graph building, the reference and importance-matrix quantisation only a model
    # converter runs, GGUF reading, allocation, the optimiser) for size; the CPU backend's kernels
    # (ggml-cpu) stay -O3.
    function(coachcore_small_ggml_sources)
        if(NOT TARGET ggml-base)
            return()
        endif()
        get_target_property(dir ggml-base SOURCE_DIR)
        get_target_property(srcs ggml-base SOURCES)
        list(FILTER srcs INCLUDE REGEX "\\.(c|cpp)$")
        list(TRANSFORM srcs PREPEND "${dir}/")
        set_source_files_properties(${srcs} TARGET_DIRECTORY ggml-base PROPERTIES COMPILE_OPTIONS "-Os")
    endfunction()
    if(CMAKE_VERSION VERSION_GREATER_EQUAL 3.19)
        cmake_language(DEFER CALL coachcore_small_ggml_sources)
    endif()
elseif(PROJECT_NAME STREQUAL "llama.cpp")
    set(CMAKE_CXX_FLAGS_RELEASE "-Os -DNDEBUG")
    function(coachcore_hot_llama_sources)
        if(NOT TARGET llama)
            return()
        endif()
        get_target_property(dir llama SOURCE_DIR)
        set(hot llama-grammar.cpp llama-sampler.cpp)
        list(TRANSFORM hot PREPEND "${dir}/")
        set_source_files_properties(${hot} TARGET_DIRECTORY llama PROPERTIES COMPILE_OPTIONS "-O3")
    endfunction()
    # Runs once the top-level CMakeLists.txt is read, when the llama target exists.
    if(CMAKE_VERSION VERSION_GREATER_EQUAL 3.19)
        cmake_language(DEFER CALL coachcore_hot_llama_sources)
    endif()
endif()
