#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Checks the README and docs/: what a newcomer reads stays short, every link leads somewhere, and the
command-line reference in docs/cli.md is what the program prints (`posatlas help --all`).

usage: check_docs.py ROOT POSATLAS [--update]
  --update  rewrite docs/cli.md's reference from the program instead of failing (`make docs`)
Exit status 0 when everything holds, 1 with one line per problem otherwise.
"""
import os
import re
import subprocess
import sys

README_MAX_LINES = 200
REFERENCE_HEADING = "## Reference"
REFERENCE_INTRO = (
    "Printed by `posatlas help --all` (the man page is made from the same text). `make docs` rewrites this\n"
    "section; the test `docs_current` fails when it differs from the program.\n"
)
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


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
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
