# SPDX-License-Identifier: GPL-3.0-or-later
# cmake -DEXE=program "-DARGS=a;b" -DOUT=file -P run_to_file.cmake
# Runs EXE ARGS with its standard output written to OUT (replaced only when the program succeeds).
execute_process(COMMAND ${EXE} ${ARGS} OUTPUT_FILE ${OUT}.tmp RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  file(REMOVE ${OUT}.tmp)
  message(FATAL_ERROR "${EXE} ${ARGS} failed (${rc}): ${err}")
endif()
file(RENAME ${OUT}.tmp ${OUT})
