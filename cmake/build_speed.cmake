# What keeps the build from nothing short on 2 cores (issue 43), measured from .ninja_log:
# every header that most translation units parse (Eigen, toml11, Boost.Odeint, Catch2, the
# standard library) is compiled once per target into a precompiled header; Catch2's main() is
# compiled once; the Python module is linked without LTO (its hot loops are in the static
# libraries, compiled without LTO anyway); and ccache is used as a launcher when it is there
# (optional: a fresh machine has none).
#
# Unity builds: most of a translation unit's time here is code generation for the Eigen and
# standard-library instantiations it shares with its neighbours (measured with -ftime-report:
# "callgraph functions expansion" ~80%, nearly the same at -O1), so compiling a folder's sources
# in batches generates each shared instantiation once per batch instead of once per file
# (measured: the 9 sources of models/multirotor_payload in one unit 21.6 s, one by one 48.5 s).
option(TETHERBENCH_UNITY_BUILD "compile each target's sources in batches (unity build)" ON)
# 16 sources a batch rather than 8: the build without the tests (which set their own batch of 6) took
# 413 s and 1200 compile-seconds at 8 and 337 s and 986 compile-seconds at 16, built back to back from
# nothing on 2 cores (6 Dec 2026; the kernel and the models alone 226/201 s against 168/181 s). A source
# whose anonymous-namespace helper shares a name with another's in its folder breaks its batch with
# "redefinition of '{anonymous}::...'": rename the helper.
set(TETHERBENCH_UNITY_BATCH 16 CACHE STRING "sources per unity batch")
if(TETHERBENCH_UNITY_BUILD)
  set(CMAKE_UNITY_BUILD ON)
  set(CMAKE_UNITY_BUILD_BATCH_SIZE ${TETHERBENCH_UNITY_BATCH})
endif()

# The standard and third-party headers that most sources of a layer include. A precompiled
# header is parsed once per target and is then read by every source of it. Only system
# headers go in: a project header in a precompiled header would hide a missing include.
set(TETHERBENCH_PCH_COMMON <algorithm> <cmath> <filesystem> <fstream> <functional> <limits> <map> <memory>
    <optional> <set> <sstream> <stdexcept> <string> <vector> <Eigen/Dense> <Eigen/SparseCore>)
# toml11 is read only by the sources that parse, vary or fingerprint case files (core/table_reader.cpp,
# core/model_variant.cpp, app/common/fingerprint.hpp and app/input/case.cpp, two studies and a few tests): core,
# app and the tests precompile it. The kernel's headers name no toml11 type (core/table_reader.hpp),
# so the models, integrators, the command line, the Python module and every plugin built against an
# installation no longer parse it (about 1 s of every such source; issue 43).
set(TETHERBENCH_PCH_TOML <toml.hpp>)

# tetherbench_precompile(TARGET [HEADER...]): the common headers and the given ones, precompiled.
function(tetherbench_precompile target)
  target_precompile_headers(${target} PRIVATE ${TETHERBENCH_PCH_COMMON} ${ARGN})
endfunction()

# ccache as a launcher when present (never required). Its defaults would refuse every
# precompiled-header compile; these settings let it cache them (ccache manual, "Precompiled headers").
option(TETHERBENCH_USE_CCACHE "use ccache as the compiler launcher when it is installed" ON)
if(TETHERBENCH_USE_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  find_program(TETHERBENCH_CCACHE ccache)
  if(TETHERBENCH_CCACHE)
    set(CMAKE_CXX_COMPILER_LAUNCHER ${CMAKE_COMMAND} -E env CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime
        ${TETHERBENCH_CCACHE})
    message(STATUS "tetherbench: compiling through ${TETHERBENCH_CCACHE}")
  endif()
endif()

# tetherbench_orchestration_flags(TARGET): -O2 in a Release build, for the targets that orchestrate
# runs and write what they measured (the application, the studies, the conformance checks, the
# suite's registry, the command line, the Python module). Their compile time is mostly GCC's
# optimisation (-ftime-report: "opt and generate" 70 % of an application batch), and -O3's extra
# passes (unrolling, cloning, more vectorisation) buy nothing where the time is spent in the models'
# and integrators' loops, which stay at -O3: one application batch took 25.9 s at -O3 and 19.0 s at
# -O2 (issue 43; the CI run's build, measured from .ninja_log). Appended after the build type's -O3,
# so it wins, also in the target's precompiled header.
function(tetherbench_orchestration_flags target)
  target_compile_options(${target} PRIVATE $<$<CONFIG:Release>:-O2>)
endfunction()
