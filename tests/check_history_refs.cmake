# SPDX-License-Identifier: GPL-3.0-or-later
# Code names what it does, not its history: no source, build or test file refers to the project's issue
# tracker ("issue #12"). Run as: cmake -DROOT=<source dir> -P check_history_refs.cmake
set(found "")
file(GLOB_RECURSE files LIST_DIRECTORIES false
     "${ROOT}/core/*" "${ROOT}/ui/*" "${ROOT}/app/*" "${ROOT}/tests/*" "${ROOT}/packaging/*" "${ROOT}/.ci/*")
list(APPEND files "${ROOT}/CMakeLists.txt" "${ROOT}/Makefile")
foreach(f IN LISTS files)
  if(NOT f MATCHES "\\.(cpp|h|py|cmake|sh|txt)$" OR f MATCHES "/corpus/" OR f MATCHES "check_history_refs")
    continue()
  endif()
  file(STRINGS "${f}" lines REGEX "[Ii]ssue #[0-9]+")
  if(lines)
    file(RELATIVE_PATH rel "${ROOT}" "${f}")
    list(APPEND found "${rel}")
  endif()
endforeach()
if(found)
  list(JOIN found "\n  " text)
  message(FATAL_ERROR "files that name an issue number instead of what the code does:\n  ${text}")
endif()
