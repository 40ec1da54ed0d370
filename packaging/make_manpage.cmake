# SPDX-License-Identifier: GPL-3.0-or-later
# cmake -DEXE=posatlas -DOUT=posatlas.1 -DSUMMARY=... -DHOMEPAGE=... -P make_manpage.cmake
#
# Writes the man page from the program's own help (`posatlas help --all`: the overview, then every command's
# and quantity's --help, generated from the option tables) and `--version`, so that they never drift.
# The help is a hand-laid-out block (aligned columns, wrapped option lists) that help2man's heuristics
# split into wrong .TP/.IP items, so it goes into the page verbatim (no-fill), roff-escaped.
# The English help whatever the build's locale (a Chinese locale would print the Chinese one).
execute_process(COMMAND ${CMAKE_COMMAND} -E env LC_ALL=C.UTF-8 LANGUAGE= ${EXE} help --all OUTPUT_VARIABLE help
                RESULT_VARIABLE rc1)
execute_process(COMMAND ${EXE} --version OUTPUT_VARIABLE version RESULT_VARIABLE rc2)
if(NOT rc1 EQUAL 0 OR NOT rc2 EQUAL 0)
  message(FATAL_ERROR "${EXE} help --all / --version failed")
endif()
string(STRIP "${version}" version)

# Roff: a backslash is \e, a minus sign \- (a plain - may become a hyphen), a line starting with a
# control character (. or ') is protected with \&.
function(roff_escape text out)
  string(REPLACE "\\" "\\e" text "${text}")
  string(REPLACE "-" "\\-" text "${text}")
  string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" text "${text}")
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

roff_escape("${help}" help_roff)
roff_escape("${SUMMARY}" summary_roff)
roff_escape("${HOMEPAGE}" homepage_roff)

file(WRITE ${OUT}.tmp
".\\\" Generated at build time from `posatlas help --all` by packaging/make_manpage.cmake; do not edit.
.TH POSATLAS 1 \"\" \"${version}\" \"User Commands\"
.SH NAME
posatlas \\- ${summary_roff}
.SH SYNOPSIS
.B posatlas
.RI [ FILE ]
.br
.B posatlas
.I COMMAND
.RI [ OPTIONS ]
.SH DESCRIPTION
Without arguments,
.B posatlas
opens the desktop application; with a file (a
.I .posatlas.json
session or a model's
.IR config.json )
it opens the application with that file loaded.
With a command it is the command line: it computes positional encodings, attention\\-logit matrices,
frequency spectra and decay curves and prints them as JSON or CSV, or renders the figures as PNG, SVG or
PDF without a display.
.SH OPTIONS
The output of
.BR \"posatlas \\-\\-help\" :
.PP
.nf
.ft CR
${help_roff}.ft
.fi
.SH EXIT STATUS
0 on success; 2 for bad input (one line on standard error naming the option and what is allowed), or
when the window is asked for and there is no display; 1 for an internal failure.
.SH ENVIRONMENT
.TP
.B QT_QPA_PLATFORM
The Qt platform.
The command line renders with
.I offscreen
unless this is set; without a display (neither
.B DISPLAY
nor
.B WAYLAND_DISPLAY
set) the window needs
.BR QT_QPA_PLATFORM=offscreen .
.SH SEE ALSO
${homepage_roff}
")
file(RENAME ${OUT}.tmp ${OUT})
