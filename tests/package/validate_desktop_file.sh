#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# desktop-file-validate exits 0 on warnings and hints; any message at all fails this test.
set -eu
out=$(desktop-file-validate "$1" 2>&1) || { echo "$out"; exit 1; }
[ -z "$out" ] || { echo "$out"; exit 1; }
grep -q '^Exec=posatlas %f$' "$1"
