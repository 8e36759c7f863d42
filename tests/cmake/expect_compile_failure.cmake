# cmake -DCOMPILER=c++ -DSOURCE=file.cpp -DINCLUDES="dir;dir" -DEXPECT=regex
#       [-DMUTATE_FILE=path -DMUTATE_INTO=dir/rel/path -DMUTATE_FROM=text -DMUTATE_TO=text]
#       -P expect_compile_failure.cmake
# Compiles SOURCE (syntax and static_asserts only) and passes only if the compiler rejects it
# with a diagnostic matching EXPECT. With MUTATE_*, first copies MUTATE_FILE into a scratch
# include root at MUTATE_INTO with MUTATE_FROM replaced by MUTATE_TO (which must occur), and
# puts that root first on the include path — "change one line of this header, and see".
set(flags -std=c++20 -fsyntax-only)
set(include_flags)
if(DEFINED MUTATE_FILE)
  file(READ "${MUTATE_FILE}" text)
  string(FIND "${text}" "${MUTATE_FROM}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "'${MUTATE_FROM}' does not occur in ${MUTATE_FILE}: the test is stale")
  endif()
  string(REPLACE "${MUTATE_FROM}" "${MUTATE_TO}" text "${text}")
  string(MD5 tag "${SOURCE}${MUTATE_FILE}${MUTATE_FROM}${MUTATE_TO}")
  set(root "${CMAKE_CURRENT_BINARY_DIR}/mutated-${tag}")
  file(WRITE "${root}/${MUTATE_INTO}" "${text}")
  list(APPEND include_flags "-I${root}")
endif()
foreach(dir IN LISTS INCLUDES)
  list(APPEND include_flags "-I${dir}")
endforeach()
execute_process(COMMAND ${COMPILER} ${flags} ${include_flags} "${SOURCE}"
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE status)
if(status EQUAL 0)
  message(FATAL_ERROR "${SOURCE} compiled, but it must not")
endif()
if(NOT "${out}${err}" MATCHES "${EXPECT}")
  message(FATAL_ERROR "compilation failed, but not with a diagnostic matching '${EXPECT}':\n${out}${err}")
endif()
message(STATUS "rejected as expected: ${EXPECT}")
