# cmake -DCOMMAND="prog;arg;..." -DEXPECTED_FILE=path [-DEXPECTED_EXIT=0] -P expect_output.cmake
# Runs COMMAND and fails unless its standard output equals EXPECTED_FILE byte for byte and its
# exit status is EXPECTED_EXIT.
if(NOT DEFINED EXPECTED_EXIT)
  set(EXPECTED_EXIT 0)
endif()
execute_process(COMMAND ${COMMAND} OUTPUT_VARIABLE actual ERROR_VARIABLE errors RESULT_VARIABLE status)
file(READ "${EXPECTED_FILE}" expected)
if(NOT status STREQUAL "${EXPECTED_EXIT}")
  message(FATAL_ERROR "exit status ${status}, expected ${EXPECTED_EXIT}\nstderr:\n${errors}")
endif()
if(NOT actual STREQUAL expected)
  message(FATAL_ERROR "output differs from ${EXPECTED_FILE}\n--- actual ---\n${actual}\n--- expected ---\n${expected}")
endif()
