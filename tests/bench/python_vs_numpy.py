#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The notebook tasks of numpy_reference.py, each done once with NumPy and once with `import posatlas`.

  PYTHONPATH=build/app/python tests/bench/python_vs_numpy.py [--repetitions 5] [--skip-slow]

Both sides timed the same way (numpy_reference.timed: one warm-up, then the median of the repetitions),
in one process, one after the other, so that the machine's load is shared alike. Prints each task's two
medians and their ratio (> 1: the module is faster), and --json writes them.

  rope_logits_random_4096     NumPy: rotate q, k ~ N(0, 1) in float64, float32 product (numpy_reference)
                              posatlas.matrix(kind="logits", content="random", precision="single")
  block_mean_rope_random_1e6  NumPy: exact 512 x 512 block means over 10^6 positions (numpy_reference)
                              posatlas.matrix(seq_len=10**6, out_rows=512, out_cols=512, content="random")
Both use d = 128, base 10000, positions 0..N-1 (RoPE's defaults in posatlas).
"""
import argparse
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy_reference as ref  # noqa: E402

import posatlas as pa  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repetitions", type=int, default=5)
    ap.add_argument("--skip-slow", action="store_true", help="leave out the 10^6 block means")
    ap.add_argument("--json", help="write the medians here")
    args = ap.parse_args()
    s = pa.Scenario(method="rope", head_dim=ref.D, rope_theta=ref.BASE, content="random")
    rng = np.random.default_rng(1)
    n = 4096
    tasks = {
        "rope_logits_random_4096": (
            lambda: ref.rope_logits_random(n, rng),
            lambda: pa.matrix(s, kind="logits", seq_len=n, precision="single"),
            args.repetitions),
    }
    if not args.skip_slow:
        tasks["block_mean_rope_random_1e6"] = (
            lambda: ref.block_mean_rope_random(1_000_000, 512, rng),
            lambda: pa.matrix(s, kind="logits", seq_len=1_000_000, out_rows=512, out_cols=512),
            max(1, args.repetitions // 2))
    # The shapes agree: the same task on both sides.
    assert pa.matrix(s, kind="logits", seq_len=64, precision="single").shape == ref.rope_logits_random(64, rng).shape
    results = {"numpy_version": np.__version__}
    print(f"{'task':<30} {'NumPy':>10} {'posatlas':>10} {'NumPy / posatlas':>17}")
    for name, (numpy_fn, posatlas_fn, reps) in tasks.items():
        t_np = ref.timed(numpy_fn, reps)
        t_pa = ref.timed(posatlas_fn, reps)
        results[name] = {"numpy_s": t_np, "posatlas_s": t_pa}
        print(f"{name:<30} {t_np * 1e3:>7.1f} ms {t_pa * 1e3:>7.1f} ms {t_np / t_pa:>16.2f}x")
    print(f"medians of {args.repetitions} repetitions (the 10^6 task: {max(1, args.repetitions // 2)}); "
          f"NumPy {np.__version__}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
