# cmake "-DCOMMAND=prog;arg;..." -DTHREADS=N -P log_threads_compare.cmake
# Runs COMMAND with `--threads 1` and with `--threads N` appended and fails unless the two give
# the same exit status, standard output and standard error (kcspec check-log's report does not
# depend on the number of threads parsing).
execute_process(COMMAND ${COMMAND} --threads 1 OUTPUT_VARIABLE out_1 ERROR_VARIABLE err_1 RESULT_VARIABLE status_1)
execute_process(COMMAND ${COMMAND} --threads ${THREADS} OUTPUT_VARIABLE out_n ERROR_VARIABLE err_n RESULT_VARIABLE status_n)
if(NOT status_1 STREQUAL status_n)
  message(FATAL_ERROR "exit status ${status_1} with --threads 1, ${status_n} with --threads ${THREADS}")
endif()
if(NOT out_1 STREQUAL out_n)
  message(FATAL_ERROR "stdout differs\n--threads 1:\n${out_1}\n--threads ${THREADS}:\n${out_n}")
endif()
if(NOT err_1 STREQUAL err_n)
  message(FATAL_ERROR "stderr differs\n--threads 1:\n${err_1}\n--threads ${THREADS}:\n${err_n}")
endif()
string(LENGTH "${out_1}${err_1}" length)
if(length EQUAL 0)
  message(FATAL_ERROR "no output to compare (exit status ${status_1})")
endif()
