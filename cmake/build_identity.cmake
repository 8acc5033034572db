# Run at every build (cmake -P, from CMakeLists.txt): the identity of the code being compiled,
# which every job's fingerprint carries (app/common/build_identity.hpp, issue 43). A stored result is
# reused only by a build of the same code, never by the commit read at run time: a working tree
# with uncommitted changes, or an installation, is told apart by what it compiled.
#
# The identity is a hash of every source file the suite's libraries, executable and Python
# module are compiled from (their paths and contents), the build files, and the compiler, flags
# and dependency versions (BUILD_SETTINGS). The commit and whether the tree had uncommitted
# changes are recorded beside it for people; they are not part of the hash (a commit of the
# same code is the same build). The generated source is rewritten only when one of them
# changes, so an unchanged tree recompiles nothing.
#
# Inputs: SOURCE_DIR, OUTPUT (the .cpp to write), BUILD_SETTINGS (a string).
cmake_minimum_required(VERSION 3.22)
set(folders numerics core mechanics app models integrators studies conformance suite cli python)
set(patterns)
foreach(folder ${folders})
  list(APPEND patterns ${SOURCE_DIR}/${folder}/*.cpp ${SOURCE_DIR}/${folder}/*.hpp ${SOURCE_DIR}/${folder}/*.h
       ${SOURCE_DIR}/${folder}/*.inc)
endforeach()
file(GLOB_RECURSE sources RELATIVE ${SOURCE_DIR} ${patterns})
file(GLOB build_files RELATIVE ${SOURCE_DIR} ${SOURCE_DIR}/CMakeLists.txt ${SOURCE_DIR}/cmake/*)
list(APPEND sources ${build_files})
list(SORT sources)
set(listing "${BUILD_SETTINGS}\n")
foreach(file ${sources})
  file(SHA256 ${SOURCE_DIR}/${file} digest)
  string(APPEND listing "${file} ${digest}\n")
endforeach()
string(SHA256 identity "${listing}")
string(SUBSTRING ${identity} 0 16 identity)
list(LENGTH sources source_count)

set(commit "not a git checkout")
set(tree "")
find_program(GIT git)
if(GIT AND EXISTS ${SOURCE_DIR}/.git)
  execute_process(COMMAND ${GIT} -C ${SOURCE_DIR} rev-parse --short=12 HEAD OUTPUT_VARIABLE head
                  RESULT_VARIABLE failed OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(NOT failed AND head)
    set(commit "${head}")
    # Uncommitted changes to tracked files, or untracked files among the compiled sources.
    execute_process(COMMAND ${GIT} -C ${SOURCE_DIR} status --porcelain -- ${folders} CMakeLists.txt cmake
                    OUTPUT_VARIABLE changes OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    if(changes)
      set(tree "uncommitted changes")
    else()
      set(tree "clean")
    endif()
  endif()
endif()

# Unchanged identity, commit and tree state: leave the file (and its object) alone.
set(stamp "// identity ${identity} commit ${commit} tree ${tree}")
if(EXISTS ${OUTPUT})
  file(STRINGS ${OUTPUT} first_line LIMIT_COUNT 1)
  if(first_line STREQUAL stamp)
    return()
  endif()
endif()
string(TIMESTAMP built_at "%Y-%m-%d %H:%M:%S UTC" UTC)
file(WRITE ${OUTPUT}.tmp "${stamp}
// Generated at build time by cmake/build_identity.cmake from ${source_count} files; do not edit.
#include \"app/common/build_identity.hpp\"

namespace tb {

const BuildIdentity& build_identity() {
  static const BuildIdentity identity{\"${identity}\", \"${commit}\", \"${tree}\", \"${built_at}\"};
  return identity;
}

}  // namespace tb
")
file(RENAME ${OUTPUT}.tmp ${OUTPUT})
