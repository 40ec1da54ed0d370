# SPDX-License-Identifier: GPL-3.0-or-later
# docs/python.md's worked example: its output block is what the example prints. Rewrite it with
#   PYTHONPATH=build/app/python python3 tests/python/test_docs_example.py --update
import os
import re
import subprocess
import sys

import pytest

SOURCE = os.environ.get("POSATLAS_SOURCE", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
DOC = os.path.join(SOURCE, "docs", "python.md")
EXAMPLE = re.compile(r"(## A worked example.*?```python\n)(.*?)(```\n\n```text\n)(.*?)(```\n)", re.S)


def run_example(code):
    p = subprocess.run([sys.executable, "-c", code], cwd=SOURCE, capture_output=True, text=True,
                       env=dict(os.environ, LANG="C"))
    assert p.returncode == 0, p.stderr
    return p.stdout


def test_worked_example_prints_what_the_doc_shows():
    with open(DOC, encoding="utf-8") as f:
        m = EXAMPLE.search(f.read())
    assert m, "docs/python.md: no worked example"
    assert run_example(m.group(2)) == m.group(4)


TRANSFORMERS = re.compile(r"### Against transformers' own code.*?```python\n(.*?)```\n", re.S)


def test_transformers_block_agrees_where_transformers_is_installed():
    with open(DOC, encoding="utf-8") as f:
        m = TRANSFORMERS.search(f.read())
    assert m, "docs/python.md: no comparison with transformers"
    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    assert run_example(m.group(1)) == "True\nTrue\n"


if __name__ == "__main__" and "--update" in sys.argv:
    with open(DOC, encoding="utf-8") as f:
        text = f.read()
    m = EXAMPLE.search(text)
    text = text[:m.start(4)] + run_example(m.group(2)) + text[m.end(4):]
    with open(DOC, "w", encoding="utf-8") as f:
        f.write(text)
    print("docs/python.md: worked example's output rewritten")
