# cmake "-DCOMMAND=prog;arg;..." -DEXPECTED_EXIT=N [-DSTDOUT_MATCHES=regex] [-DSTDERR_MATCHES=regex]
#       -P expect_exit.cmake
# Runs COMMAND and fails unless its exit status is EXPECTED_EXIT and its standard output / error
# match the given regular expressions.
execute_process(COMMAND ${COMMAND} OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE status)
if(NOT status STREQUAL "${EXPECTED_EXIT}")
  message(FATAL_ERROR "exit status ${status}, expected ${EXPECTED_EXIT}\nstdout:\n${out}\nstderr:\n${err}")
endif()
if(DEFINED STDOUT_MATCHES AND NOT out MATCHES "${STDOUT_MATCHES}")
  message(FATAL_ERROR "stdout does not match ${STDOUT_MATCHES}:\n${out}")
endif()
if(DEFINED STDERR_MATCHES AND NOT err MATCHES "${STDERR_MATCHES}")
  message(FATAL_ERROR "stderr does not match ${STDERR_MATCHES}:\n${err}")
endif()
