#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Checks the README and docs/: what a newcomer reads stays short, every link leads somewhere, the
command-line reference in docs/cli.md is what the program prints (`posatlas help --all`), and every
gallery picture the docs show (resources/readme/gallery-NAME.png) is the gallery's figure NAME as the
program draws it now.

usage: check_docs.py ROOT POSATLAS [--update]
  --update  rewrite docs/cli.md's reference and the gallery pictures from the program instead of
            failing (`make docs`)
Exit status 0 when everything holds, 1 with one line per problem otherwise.
"""
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

README_MAX_LINES = 200
REFERENCE_HEADING = "## Reference"
REFERENCE_INTRO = (
    "Printed by `posatlas help --all` (the man page is made from the same text). `make docs` rewrites this\n"
    "section; the test `docs_current` fails when it differs from the program.\n"
)
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
GALLERY_PICTURE = re.compile(r"resources/readme/gallery-([a-z0-9-]+)\.png")
# How the docs' gallery pictures are drawn (the user guide says so above them).
GALLERY_OPTIONS = ["--dpi", "96", "--width", "1000", "--height", "640"]
# Two renderings of the same figure match when their mean channel difference is at most this (of 255)
# and at most this share of pixels differ by more than a quarter of the range: antialiasing may move
# by a pixel across font builds, a changed number or curve moves far more.
PICTURE_MEAN_TOLERANCE = 1.0
PICTURE_CHANGED_SHARE = 0.002


def slug(heading):
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    s = heading.strip().lower()
    s = re.sub(r"[^\w\- ]", "", s)
    return s.replace(" ", "-")


def anchors(path):
    out = set()
    in_code = False
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("```"):
                in_code = not in_code
            elif not in_code and line.startswith("#"):
                out.add(slug(line.lstrip("#")))
    return out


def markdown_files(root):
    files = [os.path.join(root, "README.md")]
    docs = os.path.join(root, "docs")
    files += sorted(os.path.join(docs, f) for f in os.listdir(docs) if f.endswith(".md"))
    return files


def check_links(root, problems):
    for md in markdown_files(root):
        in_code = False
        with open(md, encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                if line.startswith("```"):
                    in_code = not in_code
                    continue
                if in_code:
                    continue
                for target in LINK.findall(line):
                    if re.match(r"^[a-z]+:", target):
                        continue  # http(s), mailto: not followed (no network in tests)
                    path, _, anchor = target.partition("#")
                    dest = md if not path else os.path.normpath(os.path.join(os.path.dirname(md), path))
                    where = f"{os.path.relpath(md, root)}:{number}"
                    if not os.path.exists(dest):
                        problems.append(f"{where}: link to {target}: no such file")
                    elif anchor and dest.endswith(".md") and anchor not in anchors(dest):
                        problems.append(f"{where}: link to {target}: no heading with that anchor")


def reference_text(posatlas):
    env = dict(os.environ, LANG="C.UTF-8", LC_ALL="C.UTF-8", LANGUAGE="", QT_QPA_PLATFORM="offscreen")
    out = subprocess.run([posatlas, "help", "--all"], env=env, check=True, capture_output=True, text=True)
    return f"{REFERENCE_HEADING}\n\n{REFERENCE_INTRO}\n```text\n{out.stdout.rstrip()}\n```\n"


def check_cli(root, posatlas, update, problems):
    path = os.path.join(root, "docs", "cli.md")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    head, sep, _ = text.partition("\n" + REFERENCE_HEADING + "\n")
    if not sep and not update:
        problems.append(f"docs/cli.md: no '{REFERENCE_HEADING}' section")
        return
    wanted = head.rstrip("\n") + "\n\n" + reference_text(posatlas)
    if wanted == text:
        return
    if update:
        with open(path, "w", encoding="utf-8") as f:
            f.write(wanted)
        print("docs/cli.md: reference rewritten from `posatlas help --all`")
    else:
        problems.append("docs/cli.md: the reference differs from `posatlas help --all` (run `make docs`)")


def png_pixels(path):
    """(width, height, channels, bytes) of an 8-bit, non-interlaced PNG (what Qt writes)."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path}: not a PNG")
    pos, idat, header = 8, [], None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = header
    channels = {0: 1, 2: 3, 4: 2, 6: 4}.get(colour)
    if depth != 8 or channels is None or interlace:
        raise ValueError(f"{path}: only 8-bit grey/RGB/RGBA non-interlaced PNGs are compared")
    raw = zlib.decompress(b"".join(idat))
    stride = width * channels
    out = bytearray(height * stride)
    prev = bytearray(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - channels] if x >= channels else 0
            b = prev[x]
            c = prev[x - channels] if x >= channels else 0
            if kind == 1:
                line[x] = (line[x] + a) & 255
            elif kind == 2:
                line[x] = (line[x] + b) & 255
            elif kind == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        out[y * stride:(y + 1) * stride] = line
        prev = line
    return width, height, channels, bytes(out)


def pictures_differ(a, b):
    """Why two PNGs are not the same picture, or None."""
    wa, ha, ca, pa = png_pixels(a)
    wb, hb, cb, pb = png_pixels(b)
    if (wa, ha, ca) != (wb, hb, cb):
        return f"{wa}x{ha}x{ca} against {wb}x{hb}x{cb}"
    total = sum(abs(x - y) for x, y in zip(pa, pb))
    mean = total / len(pa)
    far = sum(1 for i in range(0, len(pa), ca)
              if max(abs(pa[i + k] - pb[i + k]) for k in range(ca)) > 64) / (wa * ha)
    if mean > PICTURE_MEAN_TOLERANCE or far > PICTURE_CHANGED_SHARE:
        return f"mean channel difference {mean:.2f}, {100 * far:.2f} % of pixels far apart"
    return None


def check_gallery(root, posatlas, update, problems):
    names = set()
    for md in markdown_files(root):
        with open(md, encoding="utf-8") as f:
            names.update(GALLERY_PICTURE.findall(f.read()))
    env = dict(os.environ, LANG="C.UTF-8", LC_ALL="C.UTF-8", LANGUAGE="", QT_QPA_PLATFORM="offscreen")
    for name in sorted(names):
        with tempfile.TemporaryDirectory() as tmp:
            subprocess.run([posatlas, "gallery", "--out", tmp, "--only", name, "--quiet"] + GALLERY_OPTIONS,
                           env=env, check=True, capture_output=True)
            # --only matches a part of the name ("rope-logits" is in "mrope-logits"): the figure is the
            # one whose name, after its number, is exactly NAME.
            made = [f for f in os.listdir(tmp) if re.fullmatch(r"\d+-" + re.escape(name) + r"\.png", f)]
            shown = os.path.join(root, "resources", "readme", f"gallery-{name}.png")
            if len(made) != 1:
                problems.append(f"resources/readme/gallery-{name}.png: the gallery has no figure {name}")
                continue
            fresh = os.path.join(tmp, made[0])
            why = pictures_differ(shown, fresh) if os.path.exists(shown) else "missing"
            if why is None:
                continue
            if update:
                shutil.copyfile(fresh, shown)
                print(f"resources/readme/gallery-{name}.png: drawn again ({why})")
            else:
                problems.append(f"resources/readme/gallery-{name}.png is not what `posatlas gallery` draws "
                                f"now ({why}; run `make docs`)")


ENGLISH_COUNTS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
                  "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen",
                  "twenty"]
CHINESE_COUNTS = ["零", "一", "二", "三", "四", "五", "六", "七", "八", "九", "十", "十一", "十二", "十三", "十四", "十五",
                  "十六", "十七", "十八", "十九", "二十"]
# How the docs say the course's size: "a thirteen-lesson course", "Thirteen lessons", "课程共 13 课", "十三课".
LESSON_COUNT = [
    (re.compile(r"\b([A-Za-z]+)-lesson course"), lambda w: w.lower()),
    (re.compile(r"\b([A-Za-z]+) lessons for a"), lambda w: w.lower()),
    (re.compile(r"课程共 (\d+) 课"), int),
    (re.compile(r"^([一二三四五六七八九十]+)课"), None),
]


def check_lesson_count(root, problems):
    """The number of lessons the README and the guides name is the course's (resources/lessons/en)."""
    lessons = len([f for f in os.listdir(os.path.join(root, "resources", "lessons", "en")) if f.endswith(".md")])
    for md in markdown_files(root):
        with open(md, encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                for pattern, convert in LESSON_COUNT:
                    for m in pattern.finditer(line):
                        said = m.group(1)
                        if convert is int:
                            ok = int(said) == lessons
                        elif convert is None:
                            ok = lessons < len(CHINESE_COUNTS) and said == CHINESE_COUNTS[lessons]
                        else:
                            ok = lessons < len(ENGLISH_COUNTS) and convert(said) == ENGLISH_COUNTS[lessons]
                        if not ok:
                            problems.append(f"{os.path.relpath(md, root)}:{number}: says {said} lessons, the course "
                                            f"has {lessons}")


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    update = "--update" in sys.argv[1:]
    if len(args) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    root, posatlas = args
    problems = []
    with open(os.path.join(root, "README.md"), encoding="utf-8") as f:
        lines = f.read().count("\n")
    if lines > README_MAX_LINES:
        problems.append(f"README.md: {lines} lines, at most {README_MAX_LINES} (the rest belongs in docs/)")
    check_links(root, problems)
    check_cli(root, posatlas, update, problems)
    check_gallery(root, posatlas, update, problems)
    check_lesson_count(root, problems)
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
