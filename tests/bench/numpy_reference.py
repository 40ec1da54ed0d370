#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""NumPy reference for the kernels of core_bench (Debian's python3-numpy with OpenBLAS).

The same tasks as the C++ benchmarks, written the way one would in NumPy, timed the same way
(median of --repetitions runs after one warm-up). Prints JSON: {task: median seconds, ...}.

  rope_logits_random_4096   q, k ~ N(0, 1) (float64), angles p * theta in float64, rotate (interleaved
                            pairs) in float64, then float32 q_rot @ k_rot.T / sqrt(d) (the usual
                            mixed-precision recipe: float64 angles, float32 product)
  sgemm_4096 / dgemm_4096   the bare product of that shape, (N x 128) @ (128 x N), float32 / float64
  block_mean_rope_random_1e6  exact 512 x 512 block means of RoPE logits over 10^6 positions: rotate
                            every q and k (float64, chunks of 2^16 positions), sum per block
                            (np.add.reduceat), then one small product
"""
import argparse
import json
import statistics
import sys
import time

import numpy as np

D = 128
BASE = 10000.0


def inv_freq(d=D, base=BASE):
    return base ** (-np.arange(0, d, 2, dtype=np.float64) / d)


def rotate(x, positions, theta):
    ang = positions[:, None].astype(np.float64) * theta[None, :]
    c, s = np.cos(ang), np.sin(ang)
    x1, x2 = x[:, 0::2], x[:, 1::2]
    out = np.empty_like(x)
    out[:, 0::2] = x1 * c - x2 * s
    out[:, 1::2] = x1 * s + x2 * c
    return out


def rope_logits_random(n, rng):
    theta = inv_freq()
    pos = np.arange(n)
    q = rotate(rng.standard_normal((n, D)), pos, theta).astype(np.float32)
    k = rotate(rng.standard_normal((n, D)), pos, theta).astype(np.float32)
    return (q * np.float32(1.0 / np.sqrt(D))) @ k.T


def block_mean_rope_random(n, out, rng):
    theta = inv_freq()
    bounds = (np.arange(out + 1, dtype=np.int64) * n) // out

    def block_means():
        sums = np.zeros((out, D))
        chunk = 1 << 16
        for p0 in range(0, n, chunk):
            p1 = min(n, p0 + chunk)
            pos = np.arange(p0, p1)
            x = rotate(rng.standard_normal((p1 - p0, D)), pos, theta)
            blk = np.searchsorted(bounds, pos, side="right") - 1
            starts = np.flatnonzero(np.r_[True, blk[1:] != blk[:-1]])
            sums[blk[starts]] += np.add.reduceat(x, starts, axis=0)
        return sums / np.diff(bounds)[:, None]

    q, k = block_means(), block_means()
    return (q @ k.T) / np.sqrt(D)


def timed(fn, repetitions):
    fn()  # warm-up: page faults, BLAS thread start
    times = []
    for _ in range(repetitions):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repetitions", type=int, default=5)
    ap.add_argument("--skip-slow", action="store_true", help="leave out the 10^6 block means")
    args = ap.parse_args()
    rng = np.random.default_rng(1)
    n = 4096
    a32 = rng.standard_normal((n, D)).astype(np.float32)
    b32 = rng.standard_normal((n, D)).astype(np.float32)
    a64, b64 = a32.astype(np.float64), b32.astype(np.float64)
    res = {
        "numpy_version": np.__version__,
        "rope_logits_random_4096": timed(lambda: rope_logits_random(n, rng), args.repetitions),
        "sgemm_4096": timed(lambda: a32 @ b32.T, args.repetitions),
        "dgemm_4096": timed(lambda: a64 @ b64.T, args.repetitions),
    }
    if not args.skip_slow:
        res["block_mean_rope_random_1e6"] = timed(lambda: block_mean_rope_random(1_000_000, 512, rng),
                                                  max(1, args.repetitions // 2))
    json.dump(res, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
