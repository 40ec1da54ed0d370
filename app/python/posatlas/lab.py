# SPDX-License-Identifier: GPL-3.0-or-later
"""The extrapolation lab from Python: ``posatlas lab train|eval|sweep``, its results as NumPy arrays.

Each function runs the command line's own code: its options are checked here (a bad value raises
ValueError with the command line's message, before anything runs), then the lab trains or evaluates in its
own process, posatlas-lab (the program never loads LibTorch; neither does this module). Keyword arguments
are the command's options with underscores (``train_len=32``, ``rope_type="yarn"``); lists are given as
lists. Ctrl+C (or Jupyter's interrupt) stops a training at its next step: the run folder keeps its last
checkpoint and KeyboardInterrupt is raised. ``posatlas lab --help`` and docs/lab.md describe the lab.

    run = posatlas.lab.train(out="runs/rope-copy", task="copy", method="rope", train_len=32, steps=2000)
    run.metrics["loss"]                          # the training loss at each logged step
    e = posatlas.lab.eval(run, lengths=[32, 64, 128], rope_type="yarn", factor=4)
    e["length"], e["answer_accuracy"]            # NaN where the method is not defined at that length
    s = posatlas.lab.sweep(out="runs/sweep", methods=["rope", "alibi"], seeds=2, steps=500)
    lm = posatlas.lab.train(out="runs/rope-lm", task="lm", steps=2000)   # the built-in course's characters
    posatlas.lab.eval(lm, lengths=[32, 64])["perplexity"]               # held-out perplexity per length
"""

import json as _json
import os as _os

import numpy as _np

from . import _posatlas
from . import _keyword_options as _options
from . import _message

__all__ = ["available", "program", "Run", "train", "eval", "evaluate", "sweep"]

# In the build tree the lab's process is beside the program: <build>/app/posatlas-lab, two folders above
# this package (<build>/app/python/posatlas). Installed, posatlas-lab is found in its libexec folder.
_posatlas.set_lab_search_dir(_os.path.normpath(_os.path.join(_os.path.dirname(__file__), "..", "..")))


def program():
    """The path of posatlas-lab, or '' when this installation has no lab (a build without LibTorch)."""
    return _posatlas.lab_program()


def available():
    """Whether the lab can run here (posatlas-lab is installed: the posatlas-lab package)."""
    return bool(program())


def _run(args, capture):
    if not available():
        raise RuntimeError(_message("the lab is not installed: this build of posatlas has no posatlas-lab"))
    return _posatlas.run_lab(args, capture)


def _read_jsonl(path):
    rows = []
    if _os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            for line in f:
                if line.strip():
                    rows.append(_json.loads(line))
    return rows


class Run:
    """A lab run folder (``posatlas lab train --out DIR``): its configuration and its training metrics."""

    def __init__(self, path):
        self.path = _os.fspath(path)
        config = _os.path.join(self.path, "config.json")
        if not _os.path.isfile(config):
            raise OSError(_message("%1 is not a lab run folder (it has no config.json)", self.path))
        with open(config, encoding="utf-8") as f:
            self.config = _json.load(f)

    @property
    def status(self):
        """'complete', 'running' (stopped by a crash or a full disk) or 'cancelled'."""
        return self.config["status"]

    @property
    def task(self):
        """copy, recall, induction, or lm (character-level language modelling on a text corpus)."""
        return self.config["task"]["name"]

    @property
    def steps_done(self):
        return self.config["steps_done"]

    @property
    def metrics(self):
        """The training log (metrics.jsonl) as arrays: step, lr, loss, answer_accuracy (and perplexity for lm)."""
        rows = _read_jsonl(_os.path.join(self.path, "metrics.jsonl"))
        keys = ("step", "lr", "loss", "answer_accuracy") + (("perplexity",) if self.task == "lm" else ())
        return {k: _np.array([r[k] for r in rows], dtype=_np.int64 if k == "step" else _np.float64) for k in keys}

    def eval(self, lengths, **options):
        """:func:`eval` of this run."""
        return eval(self, lengths, **options)

    def __repr__(self):
        return "posatlas.lab.Run(%r, status=%r, steps_done=%d)" % (self.path, self.status, self.steps_done)


def train(out, **options):
    """``posatlas lab train --out OUT OPTIONS``: trains a small transformer and returns its :class:`Run`.

    Options (``posatlas lab --help``): task, method, train_len, steps, seed, layers, d_model, heads,
    mlp_ratio, alphabet, corpus and vocab (task="lm": the text, by default the built-in course, and the
    vocabulary size, by default the corpus's characters + 1), batch, lr, warmup, weight_decay, threads,
    log_every, checkpoint_every, and the method's own (rope_theta, pairing, partial_rotary_factor,
    max_positions, ...). quiet=True hides the progress line. An existing run folder is refused, as by the
    command line.
    """
    status, _ = _run(["train", "--out=%s" % _os.fspath(out)] + _options(options), False)
    config = _os.path.join(_os.fspath(out), "config.json")
    if status != 0 and _os.path.isfile(config):
        run = Run(out)
        if run.status == "cancelled":
            raise KeyboardInterrupt(_message("training stopped: %1 is %2 at step %3 of %4", run.path, run.status,
                                             run.steps_done, run.config["training"]["steps"]))
    if status != 0:
        raise RuntimeError(_message("posatlas-lab stopped with exit status %1 (its message is above)", status))
    return Run(out)


def eval(run, lengths, **options):
    """``posatlas lab eval RUN --lengths ... --format json``: the run's answer accuracy and loss per length.

    `run` is a :class:`Run` or its folder. Options: sequences, seed, rope_type, factor, long_factor,
    short_factor (a RoPE run evaluated with a scaling at test time; LongRoPE's lists one number per rotary
    pair), alibi_scaling, finetune_steps, finetune_len, finetune_lr, finetune_out (a fine-tune at a longer
    length with that scaling, in memory, before the evaluation), corpus (an lm run's corpus if it moved),
    threads. Returns a dict of arrays, one entry a length: length, answer_accuracy and loss (NaN where the
    method is not defined at that length: a learned table shorter than it), defined; for an lm run also
    perplexity and bits_per_character (held-out text); and `info`, what the evaluation was (the run's method, task,
    trained length, status, the scaling, the fine-tune or None).
    """
    path = run.path if isinstance(run, Run) else _os.fspath(run)
    status, text = _run(["eval", path] + _options(dict(options, lengths=list(lengths)))
                        + ["--format=json", "--quiet"], True)
    if status != 0:
        raise RuntimeError(_message("posatlas-lab stopped with exit status %1 (its message is above)", status))
    j = _json.loads(text)
    rows = j.pop("lengths")
    defined = _np.array([r.get("defined", True) for r in rows], dtype=bool)
    result = {
        "length": _np.array([r["length"] for r in rows], dtype=_np.int64),
        "answer_accuracy": _np.array([r.get("answer_accuracy", _np.nan) for r in rows], dtype=_np.float64),
        "loss": _np.array([r.get("loss", _np.nan) for r in rows], dtype=_np.float64),
        "defined": defined,
        "info": j,
    }
    if j.get("task") == "lm":
        for key in ("perplexity", "bits_per_character"):
            result[key] = _np.array([r.get(key, _np.nan) for r in rows], dtype=_np.float64)
    return result


evaluate = eval


def sweep(out, methods=None, **options):
    """``posatlas lab sweep --out OUT --methods ...``: trains each method with each seed, evaluates every run.

    Options: seeds (runs per method), lengths, sequences and every training option of :func:`train` but
    method and seed. A folder of an earlier sweep is resumed (complete runs are reused). Writes sweep.csv,
    sweep.json, sweep.png and sweep.svg into `out`, and returns the table as arrays: method (str), seed,
    length, accuracy and loss (NaN where not defined), and perplexity for task="lm", one row per run and
    length.
    """
    args = ["sweep", "--out=%s" % _os.fspath(out)]
    if methods is not None:
        args.append("--methods=%s" % (methods if isinstance(methods, str) else ",".join(methods)))
    status, _ = _run(args + _options(options), False)
    if status != 0:
        raise RuntimeError(_message("posatlas-lab stopped with exit status %1 (its message is above)", status))
    with open(_os.path.join(_os.fspath(out), "sweep.json"), encoding="utf-8") as f:
        table = _json.load(f)
    rows = table["rows"]

    def number(row, key):
        return row[key] if isinstance(row[key], (int, float)) else _np.nan

    result = {
        "method": _np.array([r["method"] for r in rows], dtype=str),
        "seed": _np.array([r["seed"] for r in rows], dtype=_np.int64),
        "length": _np.array([r["length"] for r in rows], dtype=_np.int64),
        "accuracy": _np.array([number(r, "accuracy") for r in rows], dtype=_np.float64),
        "loss": _np.array([number(r, "loss") for r in rows], dtype=_np.float64),
    }
    if table.get("task") == "lm":
        result["perplexity"] = _np.array([number(r, "perplexity") for r in rows], dtype=_np.float64)
    return result
