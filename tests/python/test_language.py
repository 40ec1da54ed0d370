# SPDX-License-Identifier: GPL-3.0-or-later
# The module speaks the environment's language from its first call, as the command line does: its own
# messages (posatlas/__init__.py, lab.py) and the command line's, in Chinese under LANG=zh_CN.UTF-8.
import os
import re
import subprocess
import sys

from conftest import EXE

SCRIPT = r"""
import posatlas as pa
for call in (lambda: setattr(pa.Scenario(), "nothing", 1),
             lambda: pa.matrix(pa.Scenario(), rope_theta=-1.0),
             lambda: pa.matrix(pa.Scenario(), seq_len="long")):
    try:
        call()
    except Exception as e:
        print(type(e).__name__ + ": " + str(e))
"""


def run(lang):
    env = dict(os.environ, LANG=lang, LANGUAGE=lang.split(".")[0], LC_ALL="")
    p = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, env=env)
    assert p.returncode == 0, p.stderr
    return p.stdout.splitlines()


def cli_message(lang, *args):
    env = dict(os.environ, LANG=lang, LANGUAGE=lang.split(".")[0], LC_ALL="")
    p = subprocess.run([EXE, *args], capture_output=True, text=True, env=env)
    assert p.returncode == 2
    return p.stderr.strip()[len("posatlas: "):]


def test_messages_in_english_and_in_chinese():
    en = run("C.UTF-8")
    zh = run("zh_CN.UTF-8")
    assert en[0] == "AttributeError: Scenario has no field 'nothing' (posatlas.fields() lists them)"
    assert en[2] == "TypeError: seq_len must be an integer (got str 'long')"
    cjk = re.compile("[\u4e00-\u9fff]")
    for line in zh:
        assert cjk.search(line), line
    assert "'nothing'" in zh[0] and "posatlas.fields()" in zh[0]
    # The command line's own message, in each language, word for word.
    assert en[1] == "ValueError: " + cli_message("C.UTF-8", "compute", "matrix", "--rope-theta=-1")
    assert zh[1] == "ValueError: " + cli_message("zh_CN.UTF-8", "compute", "matrix", "--rope-theta=-1")
    assert zh[1] != en[1]
