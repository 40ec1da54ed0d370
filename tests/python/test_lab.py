# SPDX-License-Identifier: GPL-3.0-or-later
# posatlas.lab: train, eval and sweep run the command line's lab code; their arrays are what posatlas lab
# writes and prints for the same options (the lab is deterministic for a seed and a thread count).
import json
import os
import signal
import threading
import time

import numpy as np
import pytest

import posatlas as pa

from conftest import cli_error, run_cli

LAB_BUILT = os.environ.get("POSATLAS_LAB_BUILT") == "1"
pytestmark = pytest.mark.skipif(not LAB_BUILT, reason="the build has no lab (POSATLAS_LAB=OFF)")

# A model small enough for a test: a second or two of training.
TINY = dict(task="copy", method="rope", train_len=8, steps=12, log_every=4, layers=1, d_model=16, heads=2,
            batch=8, threads=1, quiet=True)
TINY_CLI = ["--task", "copy", "--method", "rope", "--train-len", "8", "--steps", "12", "--log-every", "4",
            "--layers", "1", "--d-model", "16", "--heads", "2", "--batch", "8", "--threads", "1", "--quiet"]


def test_lab_is_found_in_the_build_tree():
    assert pa.lab.available()
    assert os.path.basename(pa.lab.program()) == "posatlas-lab"


def test_train_is_the_command_lines_run_and_metrics_are_arrays(tmp_path):
    run = pa.lab.train(tmp_path / "py", **TINY)
    assert run.status == "complete" and run.steps_done == 12
    m = run.metrics
    assert m["step"].dtype == np.int64 and list(m["step"]) == [4, 8, 12]
    assert m["loss"].dtype == np.float64 and np.all(np.isfinite(m["loss"])) and np.all(m["loss"] > 0)
    assert np.all((m["answer_accuracy"] >= 0) & (m["answer_accuracy"] <= 1))
    code, _, err = run_cli("lab", "train", "--out", str(tmp_path / "cli"), *TINY_CLI)
    assert code == 0, err
    # The same training: the same log, bit for bit (the configuration too, but the command it records).
    with open(tmp_path / "cli" / "metrics.jsonl") as f:
        assert [json.loads(line) for line in f] == [
            {"step": int(s), "lr": lr, "loss": loss, "answer_accuracy": acc}
            for s, lr, loss, acc in zip(m["step"], m["lr"], m["loss"], m["answer_accuracy"])]
    cli_config = json.load(open(tmp_path / "cli" / "config.json"))
    assert {k: v for k, v in cli_config.items() if k != "command"} == \
        {k: v for k, v in run.config.items() if k != "command"}


def test_eval_is_the_command_lines_json(tmp_path):
    run = pa.lab.train(tmp_path / "run", **TINY)
    e = pa.lab.eval(run, lengths=[8, 16, 32], sequences=16, rope_type="yarn", factor=2)
    assert list(e["length"]) == [8, 16, 32] and e["defined"].all()
    assert e["answer_accuracy"].dtype == np.float64 and e["loss"].shape == (3,)
    assert e["info"]["rope_type"] == "yarn" and e["info"]["factor"] == 2
    code, out, err = run_cli("lab", "eval", str(tmp_path / "run"), "--lengths", "8,16,32", "--sequences", "16",
                             "--rope-type", "yarn", "--factor", "2", "--format", "json", "--quiet")
    assert code == 0, err
    rows = json.loads(out)["lengths"]
    assert [r["answer_accuracy"] for r in rows] == list(e["answer_accuracy"])
    assert [r["loss"] for r in rows] == list(e["loss"])
    # The same from the folder's path and from Run.eval.
    assert list(pa.lab.eval(str(tmp_path / "run"), [8], sequences=16)["loss"]) == \
        list(run.eval([8], sequences=16)["loss"])


def test_learned_table_beyond_its_length_is_nan_and_not_defined(tmp_path):
    run = pa.lab.train(tmp_path / "run", **dict(TINY, method="learned", max_positions=16))
    e = pa.lab.eval(run, lengths=[8, 32], sequences=8)
    assert list(e["defined"]) == [True, False]
    assert np.isfinite(e["loss"][0]) and np.isnan(e["loss"][1]) and np.isnan(e["answer_accuracy"][1])


def test_language_model_on_the_course_reports_perplexity(tmp_path):
    run = pa.lab.train(tmp_path / "lm", **dict(TINY, task="lm", train_len=16))
    assert run.task == "lm" and run.config["task"]["corpus"]["files"][0].startswith("en/")
    m = run.metrics
    # metrics.jsonl's perplexity is exp of its loss (float64 both: within 1e-12 relative).
    assert np.allclose(m["perplexity"], np.exp(m["loss"]), rtol=1e-12, atol=0)
    e = pa.lab.eval(run, lengths=[16, 32], sequences=8)
    assert np.allclose(e["perplexity"], np.exp(e["loss"]), rtol=1e-12, atol=0)
    assert np.allclose(e["bits_per_character"], e["loss"] / np.log(2), rtol=1e-12, atol=0)
    with pytest.raises(ValueError) as err:
        pa.lab.train(tmp_path / "missing", **dict(TINY, task="lm", corpus=str(tmp_path / "no-such-text")))
    assert "--corpus" in str(err.value)
    assert not (tmp_path / "missing").exists()


def test_bad_options_raise_the_command_lines_message_and_write_nothing(tmp_path):
    with pytest.raises(ValueError) as e:
        pa.lab.train(tmp_path / "run", **dict(TINY, steps=0))
    steps_zero = [("0" if before == "--steps" else word) for before, word in zip([None] + TINY_CLI, TINY_CLI)]
    assert str(e.value) == cli_error("lab", "train", "--out", str(tmp_path / "cli"), *steps_zero)
    assert not (tmp_path / "run").exists()
    with pytest.raises(ValueError) as e:
        pa.lab.train(tmp_path / "run", **dict(TINY, method="bogus"))
    assert "--method" in str(e.value)
    with pytest.raises(TypeError):
        pa.lab.train(tmp_path / "run", **dict(TINY, steps=object()))
    with pytest.raises(OSError):
        pa.lab.Run(tmp_path)
    # An existing run folder is refused, and kept as it was.
    run = pa.lab.train(tmp_path / "done", **TINY)
    before = (tmp_path / "done" / "metrics.jsonl").read_bytes()
    with pytest.raises(OSError) as e:
        pa.lab.train(tmp_path / "done", **TINY)
    assert "already holds a run" in str(e.value)
    assert (tmp_path / "done" / "metrics.jsonl").read_bytes() == before and run.status == "complete"


def test_sweep_returns_the_table_it_writes(tmp_path):
    s = pa.lab.sweep(tmp_path / "sweep", methods=["rope", "alibi"], seeds=1, lengths=[8, 16], sequences=8,
                     **{k: v for k, v in TINY.items() if k not in ("method",)})
    assert list(s["method"]) == ["rope", "rope", "alibi", "alibi"]
    assert list(s["length"]) == [8, 16, 8, 16] and list(s["seed"]) == [0, 0, 0, 0]
    with open(tmp_path / "sweep" / "sweep.json") as f:
        rows = json.load(f)["rows"]
    assert [r["accuracy"] for r in rows] == list(s["accuracy"])
    for name in ("sweep.csv", "sweep.png", "sweep.svg"):
        assert (tmp_path / "sweep" / name).stat().st_size > 0
    # Resumed: the complete runs are reused, the table is the same.
    again = pa.lab.sweep(tmp_path / "sweep", methods="rope,alibi", seeds=1, lengths=[8, 16], sequences=8,
                         **{k: v for k, v in TINY.items() if k not in ("method",)})
    assert list(again["loss"]) == list(s["loss"])


def test_ctrl_c_stops_training_and_keeps_the_checkpoint(tmp_path):
    folder = tmp_path / "long"

    def interrupt():
        # Once the lab has written its first checkpoint's configuration, Ctrl+C.
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not (folder / "metrics.jsonl").exists():
            time.sleep(0.05)
        os.kill(os.getpid(), signal.SIGINT)

    timer = threading.Thread(target=interrupt)
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt) as e:
            pa.lab.train(folder, **dict(TINY, steps=1000000, checkpoint_every=4))
    finally:
        timer.join()
    run = pa.lab.Run(folder)
    assert run.status == "cancelled" and 4 <= run.steps_done < 1000000
    assert str(folder) in str(e.value)
    # The last checkpoint evaluates.
    assert pa.lab.eval(run, [8], sequences=4)["defined"].all()
