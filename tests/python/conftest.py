# SPDX-License-Identifier: GPL-3.0-or-later
# What the module's tests share: the command line built beside the module, run for reference output.
import json
import os
import subprocess

import pytest

EXE = os.environ.get("POSATLAS_EXE", "posatlas")
SOURCE = os.environ.get("POSATLAS_SOURCE", os.path.join(os.path.dirname(__file__), "..", ".."))


def config(name):
    return os.path.join(SOURCE, "tests", "data", "configs", name)


def run_cli(*args):
    """posatlas ARGS: (exit status, stdout, stderr)."""
    p = subprocess.run([EXE, *args], capture_output=True, text=True, env=dict(os.environ, LANG="C", LANGUAGE=""))
    return p.returncode, p.stdout, p.stderr


def cli_json(*args):
    code, out, err = run_cli(*args, "--format", "json", "--quiet")
    assert code == 0, err
    return json.loads(out)


def cli_csv(*args):
    code, out, err = run_cli(*args, "--format", "csv", "--quiet")
    assert code == 0, err
    return out


def cli_error(*args):
    """The one-line message the command line prints for bad input, without its "posatlas: " prefix."""
    code, _, err = run_cli(*args)
    assert code == 2, err
    line = err.strip()
    assert line.startswith("posatlas: ")
    return line[len("posatlas: "):]


@pytest.fixture(autouse=True)
def english(monkeypatch):
    monkeypatch.setenv("LANG", "C")
