# SPDX-License-Identifier: GPL-3.0-or-later
# Figures (the export's renderer, offscreen) and Ctrl+C during a long computation.
import os
import signal
import struct
import threading
import time
import zlib

import numpy as np
import pytest

import posatlas as pa
from conftest import cli_error


def decode_png(data):
    """The pixels of an 8-bit RGB or RGBA PNG (no interlace) as a height x width x channels array."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, header = 8, b"", None
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind = data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = header
    assert depth == 8 and colour in (2, 6) and interlace == 0
    channels = 3 if colour == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * channels
    out = np.zeros((height, stride), dtype=np.int32)
    prev = np.zeros(stride, dtype=np.int32)
    for y in range(height):
        line = raw[y * (stride + 1):(y + 1) * (stride + 1)]
        f, row = line[0], np.frombuffer(line[1:], dtype=np.uint8).astype(np.int32)
        cur = np.zeros(stride, dtype=np.int32)
        for x in range(stride):  # the PNG filters (a small figure keeps this quick)
            a = cur[x - channels] if x >= channels else 0
            b = prev[x]
            c = prev[x - channels] if x >= channels else 0
            if f == 0:
                p = 0
            elif f == 1:
                p = a
            elif f == 2:
                p = b
            elif f == 3:
                p = (a + b) // 2
            else:
                pa_, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                p = a if pa_ <= pb and pa_ <= pc else (b if pb <= pc else c)
            cur[x] = (row[x] + p) & 0xFF
        out[y] = cur
        prev = cur
    return out.reshape(height, width, channels)


@pytest.mark.parametrize("view", ["heatmap", "curves", "spectrum", "rotation"])
def test_figure_png_is_a_picture(view):
    fig = pa.figure(pa.Scenario(seq_len=256), view=view, width=160, height=120, dpi=96)
    pixels = decode_png(fig._repr_png_())
    assert pixels.shape[:2] == (120, 160)
    colours = {tuple(p) for p in pixels.reshape(-1, pixels.shape[2])}
    assert len(colours) > 20, view  # not one colour: axes, text, the data


def test_figure_svg_and_save(tmp_path):
    fig = pa.figure(pa.Scenario(), view="curves", width=300, height=200)
    svg = fig._repr_svg_()
    assert svg.lstrip().startswith("<?xml") and "<svg" in svg
    path = fig.save(tmp_path / "decay.pdf")
    with open(path, "rb") as f:
        assert f.read(5) == b"%PDF-"


def test_figure_bad_view_is_the_cli_message():
    with pytest.raises(ValueError) as e:
        pa.figure(pa.Scenario(), view="pie", width=100, height=100)
    assert str(e.value) == cli_error("export", "--view", "pie", "--out", "x.png")


def test_ctrl_c_interrupts_a_long_matrix_within_a_second():
    s = pa.Scenario(seq_len=10**7, content="random")
    sent = []

    def interrupt():
        sent.append(time.monotonic())
        os.kill(os.getpid(), signal.SIGINT)

    timer = threading.Timer(0.5, interrupt)
    timer.start()
    start = time.monotonic()
    try:
        with pytest.raises(KeyboardInterrupt):
            pa.matrix(s, kind="logits", out_rows=64, out_cols=64)  # exact block means: a minute
    finally:
        timer.cancel()
    raised = time.monotonic()
    assert sent, "finished before the interrupt: the computation must take longer than 0.5 s"
    assert raised - sent[0] < 1.0
    assert raised - start < 2.0
    # The module works after an interrupt.
    assert pa.matrix(pa.Scenario(), seq_len=8).shape == (8, 8)
