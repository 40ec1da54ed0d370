# SPDX-License-Identifier: GPL-3.0-or-later
# Whether the dynamic loader brings LibTorch into a program: ldd lists every library loaded at start,
# those of the libraries too (libtorch_cpu -> libopencv_highgui -> libQt5Core).
#   cmake -DEXE=<program> -DEXPECT=absent|present -P check_libtorch_linked.cmake
execute_process(COMMAND ldd ${EXE} OUTPUT_VARIABLE libs RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "ldd ${EXE} failed (${status})")
endif()
string(REGEX MATCHALL "[^\n]*(torch|Qt5)[^\n]*" found "${libs}")
if(EXPECT STREQUAL "absent" AND found)
  message(FATAL_ERROR "${EXE} loads LibTorch or Qt 5:\n${found}")
elseif(EXPECT STREQUAL "present" AND NOT found MATCHES "torch")
  message(FATAL_ERROR "${EXE} does not load LibTorch:\n${libs}")
endif()
message(STATUS "${EXE}: LibTorch ${EXPECT}")
