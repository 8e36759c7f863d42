# cmake -DCOMMAND="prog;arg;..." [-DEXPECTED_EXIT=0] [-DSTDOUT_REGEX=re] [-DSTDERR_REGEX=re]
#       [-DSTDOUT_REGEX2=re] -P expect_run.cmake
# Runs COMMAND and fails unless its exit status is EXPECTED_EXIT and its standard output and
# error match the given regular expressions (CMake's syntax).
if(NOT DEFINED EXPECTED_EXIT)
  set(EXPECTED_EXIT 0)
endif()
execute_process(COMMAND ${COMMAND} OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE status)
set(report "\n--- stdout ---\n${out}\n--- stderr ---\n${err}")
if(NOT status STREQUAL "${EXPECTED_EXIT}")
  message(FATAL_ERROR "exit status ${status}, expected ${EXPECTED_EXIT}${report}")
endif()
foreach(stream IN ITEMS STDOUT STDERR)
  if(stream STREQUAL "STDOUT")
    set(text "${out}")
  else()
    set(text "${err}")
  endif()
  foreach(suffix IN ITEMS "" 2)
    if(DEFINED ${stream}_REGEX${suffix} AND NOT text MATCHES "${${stream}_REGEX${suffix}}")
      message(FATAL_ERROR "${stream} does not match `${${stream}_REGEX${suffix}}`${report}")
    endif()
  endforeach()
endforeach()
