#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds the Debian packages with CPack into a scratch directory (posatlas, and python3-posatlas and
# posatlas-lab where the module and the lab are built), checks each with lintian (any error fails),
# unpacks them with dpkg -x (no root, no installation) and checks that the unpacked program runs, with
# OpenBLAS's OpenMP build where the build tree has it, that every file the desktop, the package manager
# and the shell look for is at its path, that the program's package does not depend on LibTorch, and
# that the installed module imports and computes.
#   test_deb.sh BUILD_DIR APP_ID VERSION
set -eu
build=$1 id=$2 version=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

arch=$(dpkg --print-architecture)
(cd "$build" && cpack --config CPackConfig.cmake -G DEB -B "$tmp/out") >"$tmp/cpack.log" 2>&1 \
  || { cat "$tmp/cpack.log" >&2; fail "cpack"; }
deb="$tmp/out/posatlas_${version}_${arch}.deb"
[ -f "$deb" ] || { ls -l "$tmp/out" >&2; fail "no $deb"; }

# Control fields: Depends comes from dpkg-shlibdeps (the Qt and OpenMP libraries the binary links).
depends=$(dpkg-deb -f "$deb" Depends)
for lib in libqt6widgets6 libqt6charts6 libqt6svg6 libgomp1 libc6; do
  echo "$depends" | grep -q "$lib" || fail "Depends lacks $lib: $depends"
done
# Linked against OpenBLAS's OpenMP build (the build tree's RPATH names its directory): the package must
# pull it in.
openmp=false
if readelf -d "$build/app/posatlas" | grep -q "openblas-openmp"; then
  openmp=true
  echo "$depends" | grep -q "libopenblas0-openmp" || fail "Depends lacks libopenblas0-openmp: $depends"
fi
[ "$(dpkg-deb -f "$deb" Section)" = science ] || fail "Section: $(dpkg-deb -f "$deb" Section)"
[ -n "$(dpkg-deb -f "$deb" Maintainer)" ] || fail "no Maintainer"
[ -n "$(dpkg-deb -f "$deb" Homepage)" ] || fail "no Homepage"
[ "$(dpkg-deb -f "$deb" Description | wc -l)" -gt 2 ] || fail "no extended Description"

# The lab's LibTorch (with OpenCV and Qt 5) is a dependency of posatlas-lab only.
! echo "$depends" | grep -Eq "libtorch|libopencv|libqt5" || fail "the program's package depends on the lab's libraries: $depends"

# The other packages, present exactly when their parts were built.
py_deb="$tmp/out/python3-posatlas_${version}_${arch}.deb"
lab_deb="$tmp/out/posatlas-lab_${version}_${arch}.deb"
debs="$deb"
if [ -d "$build/app/python/posatlas" ]; then
  [ -f "$py_deb" ] || { ls -l "$tmp/out" >&2; fail "no $py_deb"; }
  debs="$debs $py_deb"
  pydeps=$(dpkg-deb -f "$py_deb" Depends)
  for dep in python3-numpy "python3 (>=" libqt6gui6; do
    echo "$pydeps" | grep -qF "$dep" || fail "python3-posatlas Depends lacks $dep: $pydeps"
  done
  [ "$(dpkg-deb -f "$py_deb" Section)" = python ] || fail "python3-posatlas Section"
else
  [ ! -e "$py_deb" ] || fail "$py_deb without the module built"
fi
if [ -x "$build/app/posatlas-lab" ]; then
  [ -f "$lab_deb" ] || { ls -l "$tmp/out" >&2; fail "no $lab_deb"; }
  debs="$debs $lab_deb"
  dpkg-deb -f "$lab_deb" Depends | grep -qF "posatlas (= $version)" || fail "posatlas-lab does not depend on posatlas"
fi

# lintian: no error (E:) at all; warnings and the rest are printed.
lintian $debs >"$tmp/lintian.log" 2>&1 || true
cat "$tmp/lintian.log"
! grep -q '^E: ' "$tmp/lintian.log" || fail "lintian reports errors"

root="$tmp/root"
for d in $debs; do dpkg -x "$d" "$root"; done
[ ! -e "$root/usr/libexec/posatlas/posatlas-lab" ] || dpkg -c "$lab_deb" | grep -q "posatlas-lab$" \
  || fail "posatlas-lab is not in its own package"
dpkg -c "$deb" | grep -q "posatlas-lab" && fail "the program's package holds posatlas-lab"
if [ -f "$py_deb" ]; then
  for f in "doc/python3-posatlas/copyright" "doc/python3-posatlas/changelog.gz"; do
    [ -s "$root/usr/share/$f" ] || fail "missing /usr/share/$f"
  done
  (cd "$tmp" && PYTHONPATH="$root/usr/lib/python3/dist-packages" QT_QPA_PLATFORM=offscreen "${PYTHON:-python3}" -c \
    "import posatlas as pa; f = pa.rope_frequencies(pa.Scenario(method='rope')); assert len(f) > 0") \
    >"$tmp/python.log" 2>&1 || { cat "$tmp/python.log" >&2; fail "the installed module"; }
fi
exe="$root/usr/bin/posatlas"
# The installed program finds OpenBLAS's OpenMP build through a link in the package's own directory
# ($ORIGIN/../lib/posatlas), relative, pointing at the build's place on this system; RUNPATH names no
# other directory. Run as installed (the OpenMP build placed under the unpacked tree as the dependency
# puts it under /), the dynamic loader takes libopenblas.so.0 from that link.
if $openmp; then
  runpath=$(readelf -d "$exe" | sed -n 's/.*(RUNPATH).*\[\(.*\)\]/\1/p')
  case "$runpath" in '$ORIGIN/'*posatlas) ;; *) fail "RUNPATH: '$runpath'" ;; esac
  link=$(find "$root/usr/lib" -path '*/posatlas/libopenblas.so.0')
  [ -L "$link" ] || fail "no link libopenblas.so.0 in the package's library directory"
  target=$(readlink "$link")
  case "$target" in /*) fail "absolute link $target" ;; esac
  installed=$(realpath -m "$(dirname "${link#"$root"}")/$target")
  [ -e "$installed" ] || fail "the link points to $installed, which is not on this system"
  mkdir -p "$root$(dirname "$(dirname "$installed")")"
  ln -s "$(dirname "$installed")" "$root$(dirname "$installed")"
  loaded=$(LD_TRACE_LOADED_OBJECTS=1 "$exe" | sed -n 's/^[[:space:]]*libopenblas\.so\.0 => \([^ ]*\) .*/\1/p')
  case "$loaded" in */posatlas/libopenblas.so.0) ;; *) fail "libopenblas.so.0 loaded from '$loaded'" ;; esac
  [ "$(readlink -f "$loaded")" = "$(readlink -f "$installed")" ] || fail "$loaded is not $installed"
fi
[ "$("$exe" --version)" = "posatlas $version" ] || fail "--version: $("$exe" --version)"
(cd "$tmp" && QT_QPA_PLATFORM=offscreen "$exe" export --view heatmap --method rope --seq-len 64 --out x.png) \
  >"$tmp/export.log" 2>&1 || { cat "$tmp/export.log" >&2; fail "headless export"; }
file "$tmp/x.png" | grep -q "PNG image data, 2400 x 1600" || fail "export wrote $(file "$tmp/x.png")"

# With the lab built, the package has its process where the program looks for it, and the installed
# program runs it (a tiny training run).
if [ -x "$build/app/posatlas-lab" ]; then
  [ -x "$root/usr/libexec/posatlas/posatlas-lab" ] || fail "no /usr/libexec/posatlas/posatlas-lab"
  "$exe" lab train --out "$tmp/run" --layers 1 --d-model 16 --heads 2 --train-len 12 --steps 2 --batch 4 \
    --quiet >"$tmp/lab.log" 2>&1 || { cat "$tmp/lab.log" >&2; fail "posatlas lab train as installed"; }
  grep -q '"status": "complete"' "$tmp/run/config.json" || fail "the installed lab's run is not complete"
  # The shipped runs, in the lab's package where the app looks for them.
  dpkg -c "$lab_deb" | grep -q "usr/share/posatlas/lab-runs/copy/rope/seed-0/model.safetensors" \
    || fail "the shipped runs are not in posatlas-lab's package"
  diff -r "$(dirname "$0")/../../resources/lab-runs" "$root/usr/share/posatlas/lab-runs" \
    || fail "the packaged runs differ from resources/lab-runs"
fi

share="$root/usr/share"
for f in "applications/$id.desktop" "metainfo/$id.metainfo.xml" "mime/packages/$id.xml" \
         "icons/hicolor/scalable/apps/$id.svg" "man/man1/posatlas.1.gz" \
         "bash-completion/completions/posatlas" "doc/posatlas/copyright" "doc/posatlas/changelog.gz"; do
  [ -s "$share/$f" ] || fail "missing /usr/share/$f"
done
for size in 16 22 24 32 48 64 128 256 512; do
  png="$share/icons/hicolor/${size}x${size}/apps/$id.png"
  file "$png" | grep -q "PNG image data, $size x $size" || fail "icon $png: $(file "$png")"
done
grep -q '^Exec=posatlas %f$' "$share/applications/$id.desktop" || fail "Exec line"
# The man page formats without groff warnings (what lintian checks), and the completion parses.
warnings=$(LC_ALL=C.UTF-8 MANROFFSEQ='' MANWIDTH=80 man --warnings -E UTF-8 -l -Tutf8 -Z \
           "$share/man/man1/posatlas.1.gz" 2>&1 >/dev/null)
[ -z "$warnings" ] || fail "man page: $warnings"
# ... and carries the program's own help (every compute quantity, roff-escaped).
for q in $("$exe" compute --help | sed -n 's/^  \([a-z0-9-]*\) .*/\1/p'); do
  zcat "$share/man/man1/posatlas.1.gz" | grep -q "^  $(echo "$q" | sed 's/-/\\\\-/g') " || fail "man page lacks $q"
done
# ... and every option of every command and quantity (the parser's own list, printed when it refuses an
# unknown option): the page is `posatlas help --all`, generated from the same option tables. The completion
# offers them too.
zcat "$share/man/man1/posatlas.1.gz" >"$tmp/man.roff"
for ctx in export gallery screenshots presets \
           $("$exe" compute --help | sed -n 's/^  \([a-z0-9-]*\) .*/compute:\1/p'); do
  "$exe" $(echo "$ctx" | tr : ' ') --no-such-option 2>&1 | sed -n 's/.*accepts //p' | tr -d ',' | tr ' ' '\n'
done | sort -u | grep . >"$tmp/options"
[ "$(wc -l <"$tmp/options")" -gt 80 ] || fail "the parsers list only $(wc -l <"$tmp/options") options"
while read -r o; do
  grep -qF -- "$(echo "$o" | sed 's/-/\\-/g')" "$tmp/man.roff" || fail "man page lacks $o"
  grep -qE -- "[ ']$o[ ']" "$share/bash-completion/completions/posatlas" || fail "completion lacks $o"
done <"$tmp/options"
bash -n "$share/bash-completion/completions/posatlas" || fail "completion script does not parse"
for d in $debs; do echo "ok: $(basename "$d") ($(du -k "$d" | cut -f1) KiB)"; done
