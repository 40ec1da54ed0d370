#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Reference values of RoFormer's long-term-decay bound and of mean cos(r theta) for the decay tests.

Su et al. 2021 (arXiv:2104.09864), section 3.4.3: bound(r) = (1 / (d/2)) sum_{j=1}^{d/2} |S_j|,
S_j = sum_{k<j} exp(i r theta_k), theta_k = 1 / 10000^(2k/d), d = 128.

theta_k is the double that core computes (1.0 / pow(10000, 2k/128), bit-identical here); everything after
it is exact to 60 decimal digits (python's decimal module), so the values below are the true sums for
those thetas, free of the rounding of r * theta that a double computation makes (1e-8 rad at r = 1e8).
Run: python3 tests/data/rope_decay_reference.py
"""
from decimal import Decimal, getcontext

getcontext().prec = 60
PI = Decimal("3.14159265358979323846264338327950288419716939937510582097494459230781640628620899")


def cos_sin(a):
    two_pi = 2 * PI
    a -= (a / two_pi).to_integral_value(rounding="ROUND_FLOOR") * two_pi
    c, s, term, k = Decimal(0), Decimal(0), Decimal(1), 0
    while k < 12 or abs(term) > Decimal("1e-55"):
        c, s = [(c + term, s), (c, s + term), (c - term, s), (c, s - term)][k % 4]
        k += 1
        term = term * a / k
    return c, s


theta = [Decimal(1.0 / (10000.0 ** ((2 * k) / 128))) for k in range(64)]
for r in ["0", "1", "10", "100", "1000", "1000000", "100000000"]:
    re = im = bound = mean = Decimal(0)
    for t in theta:
        c, s = cos_sin(Decimal(r) * t)
        re, im, mean = re + c, im + s, mean + c
        bound += (re * re + im * im).sqrt()
    print(f"r = {r}: bound {float(bound / 64)!r}, mean cos {float(mean / 64)!r}")
