# SPDX-License-Identifier: GPL-3.0-or-later
# The argument conversion under hostile values, as the file parsers are fuzzed: every registry field set
# to values of every wrong kind (and some right ones) from a seeded generator. A value is taken or refused
# with ValueError, TypeError or OverflowError naming the field; a refused value leaves the scenario as it
# was; nothing crashes the interpreter (the test would not finish).
import math
import random

import numpy as np
import pytest

import posatlas as pa

FIELDS = sorted({f["key"] for f in pa.fields()})
# Keys whose value names a file: a random string there is a missing file (OSError), not a bad value.
FILE_KEYS = {f["key"] for f in pa.fields() if f["type"] == "text"}


def hostile_values(rng):
    return [
        None, True, False, 0, -1, 1, 2**31, -2**63, 2**64, 10**400, 0.5, -0.0, 1e308, -1e308, math.inf, -math.inf,
        math.nan, 5e-324, "", " ", "1", "nan", "inf", "-1", "1e400", "yarn", "x" * 5000, "\u4e2d\u6587", "a\x00b",
        "--help", "--method=alibi", b"bytes", [], [1, 2], [math.nan], ["a"], [[1]], (1.5,), {"a": 1}, object(),
        np.int64(7), np.float32(0.25), np.bool_(True), np.array([1.0, 2.0]), np.array([[1, 2]]),
        np.array([], dtype=np.float64), np.array(["x"]), complex(1, 2), rng.random() * 10**rng.randint(-5, 12),
        rng.randint(-10**6, 10**6), "".join(chr(rng.randint(1, 0x2FFF)) for _ in range(rng.randint(1, 20))),
    ]


@pytest.mark.parametrize("seed", range(3))
def test_every_field_takes_or_refuses_hostile_values_cleanly(seed):
    rng = random.Random(seed)
    s = pa.Scenario(method="rope", seq_len=64)
    taken = refused = 0
    for key in FIELDS:
        values = hostile_values(rng)
        rng.shuffle(values)
        for value in values[:20]:
            before = s.options()
            try:
                setattr(s, key, value)
            except (ValueError, TypeError, OverflowError, OSError) as e:
                refused += 1
                assert str(e), (key, value)
                assert s.options() == before, (key, value)  # the previous state stands
                continue
            taken += 1
            # What was taken is a scenario the command line accepts (or refuses with a message).
            try:
                pa.scenario(s)
            except (ValueError, OSError) as e:
                assert str(e)
                s = pa.Scenario(method="rope", seq_len=64)
    assert refused > taken > 0


def test_quantity_keywords_under_hostile_values():
    rng = random.Random(7)
    s = pa.Scenario(method="rope", seq_len=16)
    options = [o["name"].replace("-", "_") for q in pa.quantities() if q["name"] == "rope-decay" for o in q["options"]]
    assert "max_distance" in options
    for name in options:
        for value in hostile_values(rng)[:30]:
            if name in ("out", "format"):
                continue
            try:
                pa.rope_decay(s, **{name: value})
            except (ValueError, TypeError, OverflowError, OSError) as e:
                assert str(e)
