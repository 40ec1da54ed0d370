#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs the lab's component (what the posatlas-lab package holds) into a scratch prefix and checks that
# the shipped runs are there, every file byte for byte, beside posatlas-lab.
#   test_lab_runs_installed.sh BUILD_DIR SOURCE_RUNS DATADIR
set -eu
build=$1 runs=$2 datadir=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
cmake --install "$build" --component lab --prefix "$tmp/prefix" >"$tmp/install.log" 2>&1 \
  || { cat "$tmp/install.log" >&2; fail "cmake --install --component lab"; }
installed="$tmp/prefix/$datadir/posatlas/lab-runs"
[ -d "$installed" ] || fail "no $datadir/posatlas/lab-runs in the lab's component"
diff -r "$runs" "$installed" || fail "the installed runs differ from $runs"
count=$(find "$installed" -name config.json | wc -l)
[ "$count" -ge 8 ] || fail "only $count runs installed"
[ -x "$tmp/prefix/libexec/posatlas/posatlas-lab" ] || fail "posatlas-lab is not beside them"
echo "ok: $count runs in $datadir/posatlas/lab-runs"
