#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The lab's shipped runs (resources/lab-runs/, made by `make lab-runs`) reproduce their recorded metrics.

For every sweep folder there, every run folder METHOD/seed-N is evaluated again with `posatlas lab eval`
at the sweep's lengths (the defaults of lab eval: 256 sequences per length, test seed 1000003, one
thread: what `lab sweep` used) and each answer accuracy and loss must equal sweep.json's exactly (the
same float64 values: the JSON printers keep every digit), "not defined" where sweep.json says so. Each
run must be complete, and sweep.json must list every run folder and nothing else.

Then every evaluation in EVALS (the files the lessons quote, METHOD/seed-N/evals/NAME.json, each the
output of `posatlas lab eval --format json` at EVAL_LENGTHS with NAME's options) is run again and each
number must be the file's exactly: per length the answer accuracy, the loss and the attention entropy of
every layer, and the fine-tune's final loss. evals/ must hold those files and nothing else.
--write-evals (used by `make lab-runs`) writes them instead.

With --docs FILE, FILE's table of each sweep (between "<!-- lab-runs:NAME begin -->" and
"<!-- lab-runs:NAME end -->") must be the one this script prints from sweep.json: answer accuracy per
encoding and length, in percent to one decimal. --update-docs rewrites it there instead.

usage: check_shipped_runs.py POSATLAS_EXE RESOURCES_LAB_RUNS_DIR [--docs FILE [--update-docs]] [--write-evals]
"""
import json
import pathlib
import subprocess
import sys


# The evaluations beside the shipped runs: (sweep, method, seed, name, options of lab eval). RoPE at test
# time with no scaling, PI, dynamic NTK and YaRN x4; the same after 200 fine-tune steps at 128 (none, PI,
# YaRN); NoPE and ALiBi without scaling (their attention entropy).
FINETUNE = ["--finetune-steps", "200", "--finetune-len", "128"]
EVALS = [
    ("copy", "nope", 0, "none", []),
    ("copy", "alibi", 0, "none", []),
    ("copy", "rope", 0, "none", []),
    ("copy", "rope", 0, "pi4", ["--rope-type", "linear", "--factor", "4"]),
    ("copy", "rope", 0, "ntk4", ["--rope-type", "dynamic", "--factor", "4"]),
    ("copy", "rope", 0, "yarn4", ["--rope-type", "yarn", "--factor", "4"]),
    ("copy", "rope", 0, "none-ft128", FINETUNE),
    ("copy", "rope", 0, "pi4-ft128", ["--rope-type", "linear", "--factor", "4"] + FINETUNE),
    ("copy", "rope", 0, "yarn4-ft128", ["--rope-type", "yarn", "--factor", "4"] + FINETUNE),
]
EVAL_LENGTHS = "32,48,64,128,256"


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def check_sweep(exe, sweep_dir):
    table = json.loads((sweep_dir / "sweep.json").read_text(encoding="utf-8"))
    lengths = table["lengths"]
    recorded = {}
    for row in table["rows"]:
        recorded.setdefault((row["method"], row["seed"]), {})[row["length"]] = row
    folders = sorted((p.parent.name, int(p.name.split("-")[1]))
                     for p in sweep_dir.glob("*/seed-*") if p.is_dir())
    if sorted(recorded) != folders:
        fail(f"{sweep_dir}: sweep.json lists {sorted(recorded)}, the folder holds {folders}")
    compared = 0
    for method, seed in folders:
        run = sweep_dir / method / f"seed-{seed}"
        config = json.loads((run / "config.json").read_text(encoding="utf-8"))
        if config.get("status") != "complete":
            fail(f"{run}: status {config.get('status')!r}, not complete")
        out = subprocess.run([exe, "lab", "eval", str(run), "--lengths", ",".join(map(str, lengths)),
                              "--format", "json", "--quiet"], capture_output=True, text=True)
        if out.returncode != 0:
            fail(f"{run}: posatlas lab eval exited {out.returncode}: {out.stderr}")
        evaluated = {row["length"]: row for row in json.loads(out.stdout)["lengths"]}
        for length in lengths:
            want, got = recorded[(method, seed)][length], evaluated[length]
            if want["accuracy"] == "not defined":
                if got.get("defined", True):
                    fail(f"{run} at {length}: recorded not defined, evaluated {got}")
            elif (got.get("answer_accuracy"), got.get("loss")) != (want["accuracy"], want["loss"]):
                fail(f"{run} at {length}: recorded accuracy {want['accuracy']!r} loss {want['loss']!r}, "
                     f"evaluated {got.get('answer_accuracy')!r} {got.get('loss')!r}")
            compared += 1
        print(f"ok {run.relative_to(sweep_dir.parent)}: {len(lengths)} lengths")
    return compared


def run_eval(exe, run, options):
    out = subprocess.run([exe, "lab", "eval", str(run), "--lengths", EVAL_LENGTHS, "--format", "json", "--quiet"]
                         + options, capture_output=True, text=True)
    if out.returncode != 0:
        fail(f"{run} {' '.join(options)}: posatlas lab eval exited {out.returncode}: {out.stderr}")
    return out.stdout


def numbers(evaluation):
    """What must reproduce: every length's row and the fine-tune's final loss."""
    finetune = evaluation.get("finetune")
    return {"lengths": evaluation["lengths"], "finetune_loss": finetune and finetune["final_loss"]}


def check_evals(exe, root, write):
    expected = {root / s / m / f"seed-{n}" / "evals" / f"{name}.json": (root / s / m / f"seed-{n}", opts)
                for s, m, n, name, opts in EVALS}
    present = set(root.glob("*/*/seed-*/evals/*"))
    if not write and present != set(expected):
        fail(f"evals: the files {sorted(map(str, present))} are not EVALS {sorted(map(str, expected))}")
    for path, (run, options) in expected.items():
        text = run_eval(exe, run, options)
        if write:
            path.parent.mkdir(exist_ok=True)
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path.relative_to(root)}")
            continue
        want, got = numbers(json.loads(path.read_text(encoding="utf-8"))), numbers(json.loads(text))
        if want != got:
            fail(f"{path}: recorded {want}, evaluated {got}")
        print(f"ok {path.relative_to(root)}")
    return len(expected)


def docs_table(sweep_dir):
    """The sweep's answer accuracies as a Markdown table, one row per encoding."""
    table = json.loads((sweep_dir / "sweep.json").read_text(encoding="utf-8"))
    lengths = table["lengths"]
    lines = ["| encoding | " + " | ".join(map(str, lengths)) + " |", "|---|" + "---:|" * len(lengths)]
    for method in table["methods"]:
        cells = []
        for length in lengths:
            rows = [r["accuracy"] for r in table["rows"] if r["method"] == method and r["length"] == length]
            defined = [a for a in rows if a != "not defined"]
            if not defined:
                cells.append("not defined")
            else:
                cells.append(f"{100 * sum(defined) / len(defined):.1f} %")
        lines.append(f"| {method} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def check_docs(docs, sweeps, update):
    text = docs.read_text(encoding="utf-8")
    for sweep_dir in sweeps:
        begin, end = f"<!-- lab-runs:{sweep_dir.name} begin -->", f"<!-- lab-runs:{sweep_dir.name} end -->"
        if begin not in text or end not in text:
            fail(f"{docs}: no {begin} ... {end} block for {sweep_dir}")
        head, rest = text.split(begin, 1)
        current, tail = rest.split(end, 1)
        wanted = "\n" + docs_table(sweep_dir) + "\n"
        if current != wanted:
            if not update:
                fail(f"{docs}: the table of {sweep_dir.name} is not sweep.json's (run this script with "
                     f"--update-docs):\n{wanted}")
            text = head + begin + wanted + end + tail
            print(f"{docs}: table of {sweep_dir.name} rewritten")
    if update:
        docs.write_text(text, encoding="utf-8")


def main():
    exe, root = sys.argv[1], pathlib.Path(sys.argv[2])
    if "--write-evals" in sys.argv:
        check_evals(exe, root, True)
        return
    sweeps = sorted(p.parent for p in root.glob("*/sweep.json"))
    if not sweeps:
        fail(f"no sweep.json under {root}")
    if "--docs" in sys.argv:
        check_docs(pathlib.Path(sys.argv[sys.argv.index("--docs") + 1]), sweeps, "--update-docs" in sys.argv)
        if "--update-docs" in sys.argv:
            return
    compared = sum(check_sweep(exe, s) for s in sweeps)
    print(f"{compared} recorded evaluations reproduced exactly in {len(sweeps)} sweep(s)")
    print(f"{check_evals(exe, root, False)} evaluation files reproduced exactly")


if __name__ == "__main__":
    main()
