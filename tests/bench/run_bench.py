#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""`make bench`: Google Benchmark kernels, the GEMM peak probe and the NumPy reference in one run.

Runs core_bench (median of N repetitions, JSON), then tests/bench/numpy_reference.py, and prints per
kernel its median, its ratio to the NumPy reference of the same task (> 1: faster than NumPy) and the
fraction of the single-precision GEMM peak measured in the same run (peak time / kernel time for a
kernel of the same shape, N = 4096, d = 128). The machine is shared: read medians and ratios.

usage: run_bench.py CORE_BENCH [--repetitions N] [--filter REGEX] [--json OUT]
"""
import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

# kernel -> (NumPy task of the same work, compare with the GEMM peak?)
NUMPY_TASK = {
    "BM_RopeLogitsRandomSingle/4096": ("rope_logits_random_4096", True),
    "BM_RopeLogitsRandom/4096": ("rope_logits_random_4096", True),
    "BM_RopeLogitsRandomFloat32/4096": ("rope_logits_random_4096", True),
    "BM_GemmPeakSingle/4096": ("sgemm_4096", True),
    "BM_GemmPeakDouble/4096": ("dgemm_4096", True),
    "BM_GemmSingleIntoDouble/4096": ("sgemm_4096", True),
    "BM_BlockMeanMillion/0": ("block_mean_rope_random_1e6", False),
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("core_bench")
    ap.add_argument("--repetitions", type=int, default=5)
    ap.add_argument("--filter", default="")
    ap.add_argument("--json", default="")
    args = ap.parse_args()

    cmd = [args.core_bench, f"--benchmark_repetitions={args.repetitions}",
           "--benchmark_report_aggregates_only=true", "--benchmark_format=json"]
    if args.filter:
        cmd.append(f"--benchmark_filter={args.filter}")
    print("$", " ".join(cmd), file=sys.stderr, flush=True)
    gb = json.loads(subprocess.run(cmd, check=True, stdout=subprocess.PIPE, text=True).stdout)
    medians, cvs, labels = {}, {}, {}
    for b in gb["benchmarks"]:
        name = b["run_name"].removesuffix("/real_time")
        if b.get("aggregate_name") == "median":
            medians[name] = b["real_time"] / {"ms": 1e3, "us": 1e6, "ns": 1e9, "s": 1.0}[b["time_unit"]]
            labels[name] = b.get("label", "")
        elif b.get("aggregate_name") == "cv":
            cvs[name] = b["real_time"]

    np_cmd = ["/usr/bin/python3", os.path.join(HERE, "numpy_reference.py"), f"--repetitions={args.repetitions}"]
    print("$", " ".join(np_cmd), file=sys.stderr, flush=True)
    ref = json.loads(subprocess.run(np_cmd, check=True, stdout=subprocess.PIPE, text=True).stdout)

    peak = medians.get("BM_GemmPeakSingle/4096")
    print(f"\nmedians of {args.repetitions} repetitions; NumPy {ref.get('numpy_version')}; "
          + (f"SGEMM peak (N x 128 x N, N = 4096): {peak * 1e3:.1f} ms" if peak else "no SGEMM peak in this run"))
    print(f"{'kernel':<52} {'median':>10} {'cv':>6} {'NumPy':>10} {'vs NumPy':>9} {'of SGEMM peak':>14}")
    for name, t in medians.items():
        task, vs_peak = NUMPY_TASK.get(name, (None, False))
        np_t = ref.get(task) if task else None
        ratio = f"{np_t / t:.2f}x" if np_t else ""
        frac = f"{peak / t * 100:.0f} %" if vs_peak and peak else ""
        shown = name + (f" ({labels[name]})" if labels.get(name) else "")
        np_s = f"{np_t * 1e3:.1f} ms" if np_t else ""
        cv = f"{cvs[name] * 100:.0f} %" if name in cvs else ""
        print(f"{shown:<52} {t * 1e3:>7.1f} ms {cv:>6} {np_s:>10} {ratio:>9} {frac:>14}")
    for task, t in ref.items():
        if task != "numpy_version":
            print(f"{'numpy: ' + task:<52} {t * 1e3:>7.1f} ms")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"medians_s": medians, "cv": cvs, "numpy_s": ref}, f, indent=1)


if __name__ == "__main__":
    main()
