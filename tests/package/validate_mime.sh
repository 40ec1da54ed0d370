#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The shared-mime-info file: update-mime-database accepts it (it rejects invalid XML) and the compiled
# globs map *.posatlas.json to the session type, with a higher weight than *.json.
#   validate_mime.sh FILE MIME_TYPE
set -eu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/mime/packages"
cp "$1" "$tmp/mime/packages/"
# (XDG_DATA_* point at the scratch tree, or it notes that the tree is not searched.)
out=$(XDG_DATA_HOME="$tmp" XDG_DATA_DIRS="$tmp" update-mime-database "$tmp/mime" 2>&1) || { echo "$out"; exit 1; }
[ -z "$out" ] || { echo "$out"; exit 1; }
grep -q "^60:$2:\*\.posatlas\.json" "$tmp/mime/globs2" || { cat "$tmp/mime/globs2"; exit 1; }
