# cmake -DCOMPILER=c++ -DSOURCE=file.cpp -DINCLUDES="dir;dir" -DEXPECT=regex
#       [-DALLOWED_INCLUDES="dir;dir"] [-DIMPLICIT_INCLUDES="dir;dir"]
#       [-DMUTATE_FILE=path -DMUTATE_INTO=dir/rel/path -DMUTATE_FROM=text -DMUTATE_TO=text]
#       -P expect_compile_failure.cmake
# Compiles SOURCE (syntax and static_asserts only) and passes only if the compiler rejects it
# with a diagnostic matching EXPECT. With ALLOWED_INCLUDES, SOURCE must first compile with those
# include folders instead (a control: the rejection is then the include path's doing, not a
# header that no longer exists). Folders in IMPLICIT_INCLUDES (the compiler's own, which a
# target's include path may repeat) are left out of both: -I/usr/include can break
# #include_next. With MUTATE_*, first copies MUTATE_FILE into a scratch include root at
# MUTATE_INTO with MUTATE_FROM replaced by MUTATE_TO (which must occur), and puts that root first
# on the include path — "change one line of this header, and see".
set(flags -std=c++20 -fsyntax-only)
if(DEFINED IMPLICIT_INCLUDES)
  foreach(list_name IN ITEMS INCLUDES ALLOWED_INCLUDES)
    if(DEFINED ${list_name})
      list(REMOVE_ITEM ${list_name} ${IMPLICIT_INCLUDES})
    endif()
  endforeach()
endif()
if(DEFINED ALLOWED_INCLUDES)
  set(allowed_flags)
  foreach(dir IN LISTS ALLOWED_INCLUDES)
    list(APPEND allowed_flags "-I${dir}")
  endforeach()
  execute_process(COMMAND ${COMPILER} ${flags} ${allowed_flags} "${SOURCE}"
                  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${SOURCE} must compile with the include path of a layer allowed to include it "
                        "(${ALLOWED_INCLUDES}), but does not: the test would prove nothing\n${out}${err}")
  endif()
endif()
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
