# SPDX-License-Identifier: GPL-3.0-or-later
# Every ctest name is readable: no printed bytes of a parameter ("40-byte object <01-00 ...>"), no
# addresses, and no parameterised case known only by its index (".../3"): each INSTANTIATE_TEST_SUITE_P
# passes a name generator (tests/support/test_names.h). Run as: cmake -DBUILD=<build dir> -P check_test_names.cmake
execute_process(COMMAND ${CMAKE_CTEST_COMMAND} -N WORKING_DIRECTORY "${BUILD}"
                OUTPUT_VARIABLE listing RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "ctest -N failed in ${BUILD}")
endif()
string(REPLACE "\n" ";" lines "${listing}")
set(bad "")
set(count 0)
foreach(line IN LISTS lines)
  if(NOT line MATCHES "Test +#[0-9]+: (.*)$")
    continue()
  endif()
  set(name "${CMAKE_MATCH_1}")
  math(EXPR count "${count} + 1")
  if(name MATCHES "[<>]" OR name MATCHES "[0-9A-Fa-f][0-9A-Fa-f]-[0-9A-Fa-f][0-9A-Fa-f]-"
     OR name MATCHES "byte object" OR name MATCHES "0x[0-9a-fA-F]+" OR name MATCHES "/[0-9]+$")
    list(APPEND bad "${name}")
  endif()
endforeach()
if(count EQUAL 0)
  message(FATAL_ERROR "ctest -N listed no tests in ${BUILD}")
endif()
if(bad)
  list(JOIN bad "\n  " text)
  message(FATAL_ERROR "test names that print raw values or only an index (give the suite a name generator):\n  ${text}")
endif()
message(STATUS "${count} test names are readable")
