# SPDX-License-Identifier: GPL-3.0-or-later
# The Python module against the command line: every quantity gives the command line's numbers to the
# last bit (the CLI's CSV and JSON write the shortest text that reads back to the same double), every
# registry field is an attribute, bad input raises the command line's message.
import csv
import io
import json
import os
import struct

import numpy as np
import pytest

import posatlas as pa
from conftest import cli_csv, cli_error, cli_json, config

QWEN_YARN = config("qwen2.5_7b_yarn4.json")


def bits(a):
    a = np.ascontiguousarray(a, dtype=np.float64)
    return a.view(np.uint64)


def csv_columns(text):
    rows = list(csv.reader(io.StringIO(text)))
    return rows[0], rows[1:]


def same_as_cli_csv(result, text):
    """Each column of `result` is the CLI's column of that name, bit for bit (text columns as text)."""
    header, body = csv_columns(text)
    assert list(result) == header
    for i, name in enumerate(header):
        cells = [r[i] for r in body]
        col = result[name]
        assert len(col) == len(cells), name
        if col.dtype == object:
            assert list(col) == cells, name
        else:
            expected = np.array([float(c) if c != "" else np.nan for c in cells])
            assert np.array_equal(bits(col), bits(expected)), name


# Each quantity of `posatlas compute` (but matrix, below): the Python call and the same options on the
# command line.
QUANTITY_CASES = [
    ("rope_frequencies", {}, ["--config", QWEN_YARN]),
    ("rope_decay", {"max_distance": 2000}, ["--config", QWEN_YARN, "--max-distance", "2000"]),
    ("rope_decay", {"max_distance": 10**8, "points": 50, "rope_theta": 5e5},
     ["--max-distance", "100000000", "--points", "50", "--rope-theta", "500000"]),
    ("rope_score", {"query": [1.0, 0.5, -0.25, 2.0], "key": [0.5, 1.0, 1.5, -1.0], "query_position": 7,
                    "key_position": 3}, ["--query", "1,0.5,-0.25,2", "--key", "0.5,1,1.5,-1",
                                         "--query-position", "7", "--key-position", "3"]),
    ("rope_angles", {"position": 123456}, ["--config", QWEN_YARN, "--position", "123456"]),
    ("rope_pairs", {"trained_length": 4096, "target_length": 32768},
     ["--config", QWEN_YARN, "--trained-length", "4096", "--target-length", "32768"]),
    ("attention_entropy", {"lengths": [16, 256], "trials": 2, "seed": 3},
     ["--lengths", "16,256", "--trials", "2", "--seed", "3"]),
    ("mrope_positions", {}, ["--config", config("qwen2_vl_7b.json")]),
    ("alibi_slopes", {"num_heads": 12}, ["--num-heads", "12"]),
    ("patch_grid", {"method": "rope2d", "grid_height": 3, "grid_width": 4, "query_patch": 5},
     ["--method", "rope2d", "--grid-height", "3", "--grid-width", "4", "--query-patch", "5"]),
    ("t5_buckets", {"from_": -40, "to": 40}, ["--from", "-40", "--to", "40"]),
    ("deberta_buckets", {"from_": -300, "to": 300}, ["--from", "-300", "--to", "300"]),
    ("sinusoidal", {"length": 20, "hidden_size": 16}, ["--length", "20", "--hidden-size", "16"]),
    ("learned", {"from_": 0, "to": 9}, ["--from", "0", "--to", "9"]),
]


@pytest.mark.parametrize("name,kwargs,cli", QUANTITY_CASES, ids=[c[0] + "_" + str(i) for i, c in enumerate(QUANTITY_CASES)])
def test_quantity_is_the_cli_csv_bit_for_bit(name, kwargs, cli):
    s = pa.Scenario.from_config(QWEN_YARN) if "--config" in cli and QWEN_YARN in cli else (
        pa.Scenario.from_config(cli[1]) if "--config" in cli else pa.Scenario())
    cli_args = [a for a in cli]
    result = getattr(pa, name)(s, **kwargs)
    same_as_cli_csv(result, cli_csv("compute", name.replace("_", "-"), *cli_args))


def test_every_quantity_of_compute_is_a_function():
    names = [q["name"] for q in pa.quantities()]
    assert "rope-frequencies" in names and "matrix" in names
    for n in names:
        assert callable(getattr(pa, n.replace("-", "_"))), n
        assert getattr(pa, n.replace("-", "_")).__doc__
    covered = {c[0] for c in QUANTITY_CASES} | {"matrix", "scenario"}
    assert {n.replace("-", "_") for n in names} == covered


def test_rope_frequencies_columns_are_the_cli_names():
    f = pa.rope_frequencies(pa.Scenario(rope_type="yarn", factor=4, original_max_position_embeddings=4096))
    header, _ = csv_columns(cli_csv("compute", "rope-frequencies", "--rope-type", "yarn", "--factor", "4",
                                    "--original-max-position-embeddings", "4096"))
    assert list(f) == header and "pair" in header and len(header) == 5
    assert all(isinstance(v, np.ndarray) and v.dtype == np.float64 for v in f.values())


def test_scenario_quantity_is_the_cli_json():
    s = pa.Scenario.from_config(QWEN_YARN)
    s.seq_len = 512
    assert pa.scenario(s) == cli_json("compute", "scenario", "--config", QWEN_YARN, "--seq-len", "512")


def matrix_cells(j):
    return np.array([[np.nan if v is None else v for v in row] for row in j["matrix"]], dtype=np.float64)


@pytest.mark.parametrize("method,kind,extra", [
    ("rope", "logits", {"seq_len": 64}),
    ("alibi", "bias", {"seq_len": 48}),
    ("t5", "buckets", {"seq_len": 40}),
    ("rope", "weights", {"text": "the dog bit the man", "causal": True}),
    ("sinusoidal", "logits", {"seq_len": 4096, "out_rows": 16, "out_cols": 16}),
])
def test_matrix_is_the_cli_matrix_bit_for_bit(method, kind, extra):
    s = pa.Scenario(method=method)
    m = pa.matrix(s, kind=kind, **extra)
    cli = ["compute", "matrix", "--method", method, "--kind", kind]
    for k, v in extra.items():
        if isinstance(v, bool):
            cli.append("--" + k.replace("_", "-") + ("" if v else "=false"))
        else:
            cli += ["--" + k.replace("_", "-"), str(v)]
    expected = matrix_cells(cli_json(*cli))
    assert m.shape == expected.shape
    assert np.array_equal(bits(m), bits(expected))


def test_matrix_single_precision_is_float32_and_the_cli_float():
    s = pa.Scenario(rope_theta=5e5)
    m = pa.matrix(s, kind="logits", seq_len=64, precision="single")
    assert m.dtype == np.float32
    expected = matrix_cells(cli_json("compute", "matrix", "--rope-theta", "500000", "--seq-len", "64",
                                     "--precision", "single")).astype(np.float32)
    assert np.array_equal(m.view(np.uint32), expected.view(np.uint32))


def test_matrix_owns_core_memory_without_copy():
    m = pa.matrix(pa.Scenario(), kind="logits", seq_len=300, row0=10, rows=100)
    assert m.dtype == np.float64 and m.shape == (100, 300)
    # Eigen's column-major matrix as it is: Fortran order, the base a capsule owning it.
    assert m.strides == (8, 8 * 100)
    assert m.flags.f_contiguous and not m.flags.owndata
    assert m.base is not None and not isinstance(m.base, np.ndarray)
    f = pa.matrix(pa.Scenario(), kind="logits", seq_len=30, precision="single")
    assert f.dtype == np.float32 and f.strides == (4, 4 * 30)


def test_every_registry_field_is_an_attribute_round_trip():
    keys = {f["key"] for f in pa.fields()}
    assert {"rope_theta", "rope_type", "factor", "seq_len", "causal"} <= keys
    for f in pa.fields():
        method = f["owner"] or "rope"
        s = pa.Scenario(method=method)
        value = getattr(s, f["key"])
        assert value == f["default"], f["key"]
        if value is None or value == "" or value == []:
            continue  # unset: nothing to give back (a file, an unset number)
        setattr(s, f["key"], value)
        assert getattr(s, f["key"]) == value, f["key"]
        # A value inside the field's range other than the default, where the range says one.
        if f["type"] in ("int", "real") and f["lo"] < f["hi"] and f["key"] not in ("seq_len",):
            other = f["hi"] if f["type"] == "real" else int(f["hi"])
            if other != value:
                try:
                    setattr(s, f["key"], other)
                except ValueError as e:  # another field's rule (a length below another); then unchanged
                    assert getattr(s, f["key"]) == value, (f["key"], str(e))
                else:
                    assert getattr(s, f["key"]) == other, f["key"]
        if f["type"] == "choice":
            for c in f["choices"]:
                try:
                    setattr(s, f["key"], c)
                except ValueError as e:  # a choice that needs other fields (LongRoPE's factor lists)
                    assert "--" in str(e), (f["key"], c, str(e))
                else:
                    assert getattr(s, f["key"]) == c, (f["key"], c)


def test_attribute_rule_of_the_command_line_yarn_gets_factor_four():
    s = pa.Scenario()
    s.rope_type = "yarn"
    assert s.factor == 4
    s.rope_type, s.factor = "yarn", 8
    assert (s.rope_type, s.factor) == ("yarn", 8)


def test_config_fields_read_from_file():
    s = pa.Scenario.from_config(QWEN_YARN)
    j = cli_json("compute", "scenario", "--config", QWEN_YARN)
    assert s.method == "rope"
    assert s.rope_theta == j["rope"]["rope_theta"]


def test_bad_values_raise_the_cli_message():
    s = pa.Scenario()
    with pytest.raises(ValueError) as e:
        s.rope_theta = 0.5
    assert str(e.value) == cli_error("compute", "matrix", "--rope-theta", "0.5")
    assert s.rope_theta == 10000  # unchanged
    with pytest.raises(ValueError) as e:
        s.rope_type = "bogus"
    assert str(e.value) == cli_error("compute", "matrix", "--rope-type", "bogus")
    with pytest.raises(ValueError) as e:
        pa.matrix(s, kind="nonsense")
    assert str(e.value) == cli_error("compute", "matrix", "--kind", "nonsense")
    with pytest.raises(ValueError) as e:
        pa.rope_decay(s)
    assert str(e.value) == cli_error("compute", "rope-decay")
    with pytest.raises(ValueError) as e:
        pa.matrix(s, seq_len=0)
    assert str(e.value) == cli_error("compute", "matrix", "--seq-len", "0")


def test_wrong_types_raise_type_error():
    s = pa.Scenario()
    with pytest.raises(TypeError):
        s.rope_theta = "big"
    with pytest.raises(TypeError):
        s.seq_len = 10.5
    with pytest.raises(TypeError):
        s.causal = 1
    with pytest.raises(TypeError):
        pa.matrix(s, no_such_option=1)
    with pytest.raises(TypeError):
        pa.matrix("not a scenario")
    with pytest.raises(AttributeError):
        s.no_such_field = 3


def test_missing_and_bad_files_raise_os_error():
    with pytest.raises(OSError) as e:
        pa.Scenario.from_config("/nonexistent/config.json")
    assert str(e.value) == cli_error("compute", "scenario", "--config", "/nonexistent/config.json")
    with pytest.raises(ValueError) as e:
        pa.Scenario.from_config(config("malformed.json"))
    assert str(e.value) == cli_error("compute", "scenario", "--config", config("malformed.json"))


def test_queries_and_keys_accept_arrays(tmp_path):
    rng = np.random.default_rng(1)
    q = rng.standard_normal((16, 128)).astype(np.float32)
    k = rng.standard_normal((16, 128)).astype(np.float32)
    s = pa.Scenario(seq_len=16)
    s.set(queries=q, keys=k)
    m = pa.matrix(s, kind="logits")
    np.save(tmp_path / "q.npy", q)
    np.save(tmp_path / "k.npy", k)
    expected = matrix_cells(cli_json("compute", "matrix", "--seq-len", "16", "--queries", str(tmp_path / "q.npy"),
                                     "--keys", str(tmp_path / "k.npy")))
    assert np.array_equal(bits(m), bits(expected))


def gguf_bytes(kv):
    """A GGUF v3 file of metadata only (ggml docs/gguf.md: "GGUF", u32 version, u64 tensor count, u64 kv
    count, then each key as a u64-length string, its u32 type and its value): u32 (4), f32 (6), string (8)."""
    def text(s):
        b = s.encode()
        return struct.pack("<Q", len(b)) + b
    out = b"GGUF" + struct.pack("<IQQ", 3, 0, len(kv))
    for key, (kind, value) in kv.items():
        out += text(key) + struct.pack("<I", {"u32": 4, "f32": 6, "str": 8}[kind])
        out += struct.pack("<I", value) if kind == "u32" else struct.pack("<f", value) if kind == "f32" else text(value)
    return out


def test_from_config_reads_gguf_as_the_command_line_does(tmp_path):
    path = tmp_path / "llama.gguf"
    path.write_bytes(gguf_bytes({
        "general.architecture": ("str", "llama"), "llama.context_length": ("u32", 8192),
        "llama.embedding_length": ("u32", 4096), "llama.attention.head_count": ("u32", 32),
        "llama.rope.freq_base": ("f32", 500000.0), "llama.rope.dimension_count": ("u32", 128)}))
    s = pa.Scenario.from_config(path)
    assert s.method == "rope" and s.rope_theta == 500000.0 and s.head_dim == 128
    f = pa.rope_frequencies(s)
    cli = cli_json("compute", "rope-frequencies", "--config", str(path))
    assert list(f["inv_freq_rad_per_token"]) == cli["inv_freq_rad_per_token"]


def test_queries_and_keys_read_safetensors_as_the_command_line_does(tmp_path):
    # huggingface/safetensors README: u64 LE header length, the JSON header, then the tensors' bytes.
    rng = np.random.default_rng(2)
    q = rng.standard_normal((8, 64)).astype(np.float32)
    header = json.dumps({"q": {"dtype": "F32", "shape": [8, 64], "data_offsets": [0, q.nbytes]}}).encode()
    path = tmp_path / "q.safetensors"
    path.write_bytes(struct.pack("<Q", len(header)) + header + q.tobytes())
    s = pa.Scenario(seq_len=8, head_dim=64, queries=str(path), queries_tensor="q", keys=q)
    m = pa.matrix(s, kind="logits")
    np.save(tmp_path / "k.npy", q)
    expected = matrix_cells(cli_json("compute", "matrix", "--seq-len", "8", "--head-dim", "64", "--queries",
                                     str(path), "--queries-tensor", "q", "--keys", str(tmp_path / "k.npy")))
    assert np.array_equal(bits(m), bits(expected))


def test_import_leaves_the_environment_as_it_was():
    # OMP_WAIT_POLICY is set only while the native module loads (libgomp reads it then): child processes
    # such as posatlas-lab inherit the user's environment.
    import subprocess
    import sys
    env = {k: v for k, v in os.environ.items() if k != "OMP_WAIT_POLICY"}
    code = "import os, posatlas; print(os.environ.get('OMP_WAIT_POLICY'))"
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == "None"
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       env=dict(env, OMP_WAIT_POLICY="ACTIVE"))
    assert p.stdout.strip() == "ACTIVE"


def test_figure_options_of_every_kind_and_a_bad_one():
    s = pa.Scenario(seq_len=32)
    f = pa.figure(s, view="heatmap", width=np.int64(300), height=200, causal=True)
    assert f.render("png")[:8] == b"\x89PNG\r\n\x1a\n"
    with pytest.raises(ValueError) as e:  # an integer option given a fraction: the command line's message
        pa.figure(s, view="heatmap", height=200.5)
    assert str(e.value) == cli_error("export", "--view", "heatmap", "--height", "200.5", "--out", "x.png")
    with pytest.raises(TypeError) as e:
        pa.figure(s, view="heatmap", width=object())
    assert "width" in str(e.value)
