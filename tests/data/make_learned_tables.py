#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes the small position tables used by tests/core/methods/learned/test_learned.cpp (run from this directory).

Only the standard library: .npy files are assembled with struct following the NumPy format spec
(numpy.lib.format: magic \\x93NUMPY, version, header length, a Python-literal dict padded with spaces
to a multiple of 64 bytes and ending in a newline, then the raw little-endian data).
Entry (p, c) of every good table is p + c / 4 (exact in float32 and float64).
"""
import struct

ROWS, COLS = 4, 3


def value(p, c):
    return p + c / 4


def npy(path, descr, shape, data, version=(1, 0), fortran=False, truncate_to=None, drop_last=0):
    header = "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }" % (
        descr, "True" if fortran else "False", shape)
    preamble = 10 if version[0] == 1 else 12
    total = preamble + len(header) + 1
    header += " " * ((64 - total % 64) % 64) + "\n"
    out = b"\x93NUMPY" + bytes(version)
    out += struct.pack("<H" if version[0] == 1 else "<I", len(header)) + header.encode("latin1")
    out += data
    if truncate_to is not None:
        out = out[:truncate_to]
    if drop_last:
        out = out[:-drop_last]
    with open(path, "wb") as f:
        f.write(out)


c_order = [value(p, c) for p in range(ROWS) for c in range(COLS)]
f_order = [value(p, c) for c in range(COLS) for p in range(ROWS)]
f8 = struct.pack("<%dd" % len(c_order), *c_order)
npy("learned_4x3_f8.npy", "<f8", "(4, 3)", f8)
npy("learned_4x3_f4.npy", "<f4", "(4, 3)", struct.pack("<%df" % len(c_order), *c_order))
npy("learned_4x3_v2.npy", "<f8", "(4, 3)", f8, version=(2, 0))
npy("learned_4x3_fortran.npy", "<f8", "(4, 3)", struct.pack("<%dd" % len(f_order), *f_order), fortran=True)
npy("learned_truncated.npy", "<f8", "(4, 3)", f8, drop_last=20)            # data cut short by 20 bytes
npy("learned_truncated_header.npy", "<f8", "(4, 3)", f8, truncate_to=30)  # header cut short
npy("learned_i4.npy", "<i4", "(4, 3)", struct.pack("<12i", *range(12)))
npy("learned_big_endian.npy", ">f8", "(4, 3)", struct.pack(">%dd" % len(c_order), *c_order))
npy("learned_1d.npy", "<f8", "(12,)", f8)
nan_data = list(c_order)
nan_data[7] = float("nan")  # row 2, column 1
npy("learned_nan.npy", "<f8", "(4, 3)", struct.pack("<%dd" % len(nan_data), *nan_data))
with open("learned_bad_magic.npy", "wb") as f:
    f.write(b"PK\x03\x04 this is a zip, not an npy")


def csv(path, lines):
    with open(path, "w", newline="") as f:
        f.write("\n".join(lines) + "\n")


rows = [",".join(repr(value(p, c)) for c in range(COLS)) for p in range(ROWS)]
csv("learned_4x3.csv", rows)
csv("learned_4x3_header.csv", ["d0, d1, d2", "# a comment line", ""] + [r.replace(",", ", ") for r in rows])
csv("learned_ragged.csv", rows[:2] + ["2.0,2.25"] + rows[3:])                  # line 3 has 2 values
csv("learned_nan.csv", rows[:1] + ["1.0,nan,1.5"] + rows[2:])                  # line 2, column 2
csv("learned_text.csv", rows[:3] + ["3.0,3.25,abc"])                           # line 4, column 3
csv("learned_mixed_header.csv", ["d0,1.0,d2"] + rows)                          # half header, half data
csv("learned_header_only.csv", ["d0,d1,d2"])
