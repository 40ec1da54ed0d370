# SPDX-License-Identifier: GPL-3.0-or-later
"""PosAtlas in Python: the quantities of ``posatlas compute`` as functions returning NumPy arrays.

A :class:`Scenario` is the model the command line's options describe (a config.json or GGUF, a preset,
then each parameter); every field of the method registry is an attribute, checked as the command line
checks it. Each quantity of ``posatlas compute`` is a function taking the scenario and keyword arguments
named like the config keys and the quantity's options (``seq_len=4096``, ``max_distance=1000``). The
numbers are the command line's: the same code computes them.
"""

import csv as _csv
import io as _io
import numbers as _numbers
import os as _os
import tempfile as _tempfile

import numpy as _np

# NumPy has loaded Debian's pthread OpenBLAS by now, and the native module's libopenblas.so.0 resolves to
# it (the same soname), so in Python the core's matrix products run on OpenBLAS's own threads while its
# OpenMP threads (libgomp) spin-wait between parallel regions on the same cores: a 4096 x 4096 random-
# content matrix took 106 ms instead of 48 (docs/benchmarks.md, "The Python module"). Waiting threads
# sleep instead, unless the user chose otherwise; libgomp reads this once, when it loads with _posatlas.
# Only while it loads: child processes (posatlas-lab's LibTorch threads) and the user's later libraries
# keep the environment as it was.
_wait_policy_set = "OMP_WAIT_POLICY" not in _os.environ
if _wait_policy_set:
    _os.environ["OMP_WAIT_POLICY"] = "PASSIVE"
try:
    from . import _posatlas  # noqa: E402
finally:
    if _wait_policy_set:
        del _os.environ["OMP_WAIT_POLICY"]

__all__ = ["Scenario", "matrix", "figure", "Figure", "fields", "quantities", "lab"]

_FIELDS = _posatlas.fields()
_QUANTITIES = _posatlas.quantities()
_METHODS = _posatlas.method_ids()

# key -> the fields with that key (a key may belong to several methods; its option is the same).
_BY_KEY = {}
for _f in _FIELDS:
    _BY_KEY.setdefault(_f["key"], []).append(_f)
# Fields whose command-line option is not their key with dashes (--num-attention-heads) also answer to it.
_BY_OPTION = {}
for _f in _FIELDS:
    _name = _f["option"].replace("-", "_")
    if _name not in _BY_KEY:
        _BY_OPTION.setdefault(_name, []).append(_f)


def fields():
    """Every registry field: key, option, owner method ('' for the scenario's own), type, range, help."""
    return [dict(f) for f in _FIELDS]


def quantities():
    """The quantities of ``posatlas compute``, with their summaries and their own options."""
    return [dict(q) for q in _QUANTITIES]


def _field_help(f):
    text = f["label"] or f["key"]
    if f["unit"]:
        text += " (" + f["unit"] + ")"
    if f["tooltip"]:
        text += ": " + f["tooltip"]
    return text


def _number_text(v):
    # repr() of a float is the shortest text that reads back to it, as the command line writes numbers.
    return repr(float(v))


def _message(source, *args):
    """A message of the Python side in the environment's language (module.cpp lists them for lupdate),
    its %1, %2, ... filled with args."""
    text = _posatlas.tr(source)
    for i in range(len(args), 0, -1):  # %10 before %1
        text = text.replace("%%%d" % i, str(args[i - 1]))
    return text


def _keyword_options(kwargs):
    """Keyword arguments as command-line options (figure()'s export options, posatlas.lab's): --name=value
    with underscores as dashes, flags true|false, lists comma-separated, numbers as the command line
    writes them. TypeError for a value of no such kind."""
    args = []
    for key, value in kwargs.items():
        option = key.replace("_", "-")
        if isinstance(value, (bool, _np.bool_)):
            args.append("--%s=%s" % (option, "true" if value else "false"))
        elif isinstance(value, (list, tuple, _np.ndarray)):
            items = []
            for x in (value.ravel() if isinstance(value, _np.ndarray) else value):
                if isinstance(x, str):
                    items.append(x)
                elif isinstance(x, _numbers.Integral) and not isinstance(x, (bool, _np.bool_)):
                    items.append(str(int(x)))
                elif isinstance(x, _numbers.Real) and not isinstance(x, (bool, _np.bool_)):
                    items.append(_number_text(x))
                else:
                    raise _type_error(key, "a list of numbers", value)
            args.append("--%s=%s" % (option, ",".join(items)))
        elif isinstance(value, _numbers.Integral):
            args.append("--%s=%d" % (option, int(value)))
        elif isinstance(value, _numbers.Real):
            args.append("--%s=%s" % (option, _number_text(value)))
        elif isinstance(value, (str, _os.PathLike)):
            args.append("--%s=%s" % (option, _os.fspath(value)))
        else:
            raise _type_error(key, "a value", value)
    return args


def _type_error(key, what, value):
    return TypeError(_message("%1 must be %2 (got %3 %4)", key, _posatlas.tr(what), type(value).__name__,
                              repr(value)))


def _option_text(f, value, keep):
    """The command-line text of registry field f's value; `keep` holds NumPy content files written."""
    t, key = f["type"], f["key"]
    if t == "bool":
        if not isinstance(value, (bool, _np.bool_)):
            raise _type_error(key, "True or False", value)
        return "true" if value else "false"
    if t in ("int", "seed"):
        if isinstance(value, (bool, _np.bool_)) or not isinstance(value, _numbers.Integral):
            raise _type_error(key, "an integer", value)
        return str(int(value))
    if t in ("real", "optional_real"):
        if isinstance(value, (bool, _np.bool_)) or not isinstance(value, _numbers.Real):
            raise _type_error(key, "a number", value)
        return _number_text(value)
    if t == "real_list":
        if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
            raise _type_error(key, "a list of numbers", value)
        items = list(_np.asarray(value, dtype=float).ravel()) if isinstance(value, _np.ndarray) else list(value)
        for x in items:
            if isinstance(x, (bool, _np.bool_)) or not isinstance(x, _numbers.Real):
                raise _type_error(key, "a list of numbers", value)
        return ",".join(_number_text(x) for x in items)
    # Text and Choice. Content files (queries=, keys=) also take an array: it is written as .npy.
    if isinstance(value, _np.ndarray) and key in ("queries", "keys"):
        path = _os.path.join(keep.directory(), "%s_%d.npy" % (key, keep.next_id()))
        _np.save(path, value)
        return path
    if isinstance(value, _os.PathLike):
        value = _os.fspath(value)
    if not isinstance(value, str):
        raise _type_error(key, "a string", value)
    return value


class _Files:
    """A temporary folder for arrays given as content files, removed with the scenario."""

    def __init__(self):
        self._dir = None
        self._count = 0

    def directory(self):
        if self._dir is None:
            self._dir = _tempfile.TemporaryDirectory(prefix="posatlas-")
        return self._dir.name

    def next_id(self):
        self._count += 1
        return self._count


class Scenario:
    """A model and its positional encoding, as ``posatlas compute``'s options describe it.

    ``Scenario(method="rope", rope_theta=5e5)``, ``Scenario.from_config("config.json")`` (or a .gguf),
    ``Scenario.from_preset("llama-3-8b")``. Every registry field is an attribute (see
    :func:`fields`); setting one checks it as the command line does and raises ValueError with the
    command line's message, TypeError for a value of the wrong type.
    """

    def __init__(self, method=None, **values):
        object.__setattr__(self, "_model", [])
        object.__setattr__(self, "_options", {})
        object.__setattr__(self, "_files", _Files())
        if method is not None:
            values = dict(values, method=method)
        self.set(**values)

    def set(self, **values):
        """Sets several fields at once, checked together (queries= and keys= go in pairs)."""
        options = dict(self._options)
        for key, value in values.items():
            options.pop(key, None)
            self._set(options, key, value)
        before = self._options
        object.__setattr__(self, "_options", options)
        try:
            _posatlas.scenario_values(self._args())
        except BaseException:
            object.__setattr__(self, "_options", before)
            raise

    @classmethod
    def from_config(cls, path, **values):
        """The scenario of a Hugging Face config.json or a llama.cpp .gguf file (``--config``)."""
        return cls._from_model(["--config", _os.fspath(path)], values)

    @classmethod
    def from_preset(cls, name, **values):
        """The scenario of a shipped model preset (``--preset``; ``posatlas presets`` lists them)."""
        return cls._from_model(["--preset", name], values)

    @classmethod
    def _from_model(cls, model, values):
        s = cls()
        object.__setattr__(s, "_model", list(model))
        _posatlas.scenario_values(s._args())  # checks the file or preset
        s.set(**values)
        return s

    def _args(self, extra=None):
        args = list(self._model)
        options = dict(self._options)
        if extra:
            options.update(extra)
        for option, text in options.items():
            args.append("--%s=%s" % (option, text))
        return args

    def _field(self, key):
        found = _BY_KEY.get(key) or _BY_OPTION.get(key)
        if not found:
            raise AttributeError(_message("Scenario has no field %1 (posatlas.fields() lists them)", repr(key)))
        return found[0]

    def _set(self, options, key, value):
        """Puts key's command-line text into `options` (a dict option -> text)."""
        if key == "method":
            if not isinstance(value, str):
                raise _type_error("method", "a string", value)
            options["method"] = value
            return
        f = self._field(key)
        options[f["option"]] = _option_text(f, value, self._files)

    def __setattr__(self, key, value):
        if key.startswith("_"):
            return object.__setattr__(self, key, value)
        self.set(**{key: value})

    def __getattr__(self, key):
        if key.startswith("_"):
            raise AttributeError(key)
        if key == "method":
            return _posatlas.scenario_values(self._args())[key]
        return _posatlas.scenario_values(self._args())[self._field(key)["key"]]

    def values(self):
        """The method and every field's value, as a dict."""
        return _posatlas.scenario_values(self._args())

    def options(self):
        """The command-line options this scenario stands for (``posatlas compute QUANTITY`` + these)."""
        return self._args()

    def __dir__(self):
        return sorted(set(object.__dir__(self)) | set(_BY_KEY) | set(_BY_OPTION) | {"method"})

    def __repr__(self):
        return "posatlas.Scenario(%s)" % " ".join(self._args())


def _call_args(scenario, quantity, kwargs):
    """The command-line arguments of `quantity` for `scenario` and the call's keyword arguments."""
    if not isinstance(scenario, Scenario):
        raise TypeError(_message("the first argument must be a posatlas.Scenario (got %1)", type(scenario).__name__))
    own = {o["name"]: o for o in quantity["options"]}
    extra = {}
    quantity_args = []
    for key, value in kwargs.items():
        key = key.rstrip("_")  # from_=: `from` is a Python keyword
        option = key.replace("_", "-")
        if option in own:
            if own[option]["flag"]:
                if not isinstance(value, bool):
                    raise _type_error(key, "True or False", value)
                quantity_args.append("--%s=%s" % (option, "true" if value else "false"))
            elif isinstance(value, (list, tuple, _np.ndarray)):
                quantity_args.append("--%s=%s" % (option, ",".join(_number_text(x) for x in value)))
            elif isinstance(value, bool):
                raise _type_error(key, "a value", value)
            elif isinstance(value, _numbers.Integral):
                quantity_args.append("--%s=%d" % (option, int(value)))
            elif isinstance(value, _numbers.Real):
                quantity_args.append("--%s=%s" % (option, _number_text(value)))
            else:
                quantity_args.append("--%s=%s" % (option, value))
        elif key in _BY_KEY or key in _BY_OPTION or key == "method":
            scenario._set(extra, key, value)
        else:
            raise TypeError(_message("%1() got an unexpected keyword argument %2", quantity["name"].replace("-", "_"),
                                     repr(key)))
    args = scenario._args(extra)
    if quantity["method"] is not None:
        # The quantity fixes the method: --method is not one of its options, and another is refused.
        method = None
        for a in args:
            if a.startswith("--method="):
                method = a[len("--method="):]
        if method is not None and method != quantity["method"]:
            raise ValueError(_message("%1 needs --method %2 (the scenario's method is %3)", quantity["name"],
                                      quantity["method"], method))
        args = [a for a in args if not a.startswith("--method=")]
    return args + quantity_args


def _column(values):
    try:
        return _np.array([float(v) if v != "" else _np.nan for v in values], dtype=_np.float64)
    except ValueError:
        return _np.array(values, dtype=object)


def _columns(text):
    rows = list(_csv.reader(_io.StringIO(text)))
    header, body = rows[0], rows[1:]
    return {name: _column([r[i] if i < len(r) else "" for r in body]) for i, name in enumerate(header)}


def _quantity_function(q):
    name = q["name"]

    def function(scenario, **kwargs):
        args = _call_args(scenario, q, kwargs)
        if name == "scenario":
            import json

            return json.loads(_posatlas.compute_text(name, args + ["--format=json"]))
        return _columns(_posatlas.compute_text(name, args + ["--format=csv"]))

    function.__name__ = name.replace("-", "_")
    lines = [q["summary"] + ".", "", "``posatlas compute %s``: returns a dict of NumPy arrays named as the" % name,
             "command line's CSV columns.", "", "Keyword arguments (beside every scenario field):"]
    for o in q["options"]:
        lines.append("    %s: %s (%s%s)" % (o["name"].replace("-", "_"), o["help"], o["allowed"],
                                            ", required" if o["required"] else ""))
    function.__doc__ = "\n".join(lines)
    return function


for _q in _QUANTITIES:
    if _q["name"] != "matrix":
        _fn = _quantity_function(_q)
        globals()[_fn.__name__] = _fn
        __all__.append(_fn.__name__)

_MATRIX = next(q for q in _QUANTITIES if q["name"] == "matrix")


def matrix(scenario, **kwargs):
    args = _call_args(scenario, _MATRIX, kwargs)
    values, info = _posatlas.matrix(args)
    return values


matrix.__doc__ = "\n".join(
    [_MATRIX["summary"] + ".", "", "``posatlas compute matrix``: a NumPy array (float64, or float32 with",
     "precision='single') that owns the core's result (Fortran order, no copy).", "",
     "Keyword arguments (beside every scenario field):"] +
    ["    %s: %s (%s)" % (o["name"].replace("-", "_"), o["help"], o["allowed"]) for o in _MATRIX["options"]])

Scenario.__doc__ += "\n\nFields:\n" + "\n".join(
    "    %s: %s (%s)" % (k, _field_help(fs[0]), fs[0]["allowed"]) for k, fs in _BY_KEY.items())


class Figure:
    """A figure of ``posatlas export``: shown inline by Jupyter (PNG, SVG), written by :meth:`save`.

    Rendered on demand by the export's own renderer (Qt offscreen), each format once.
    """

    def __init__(self, args):
        self._args = list(args)
        self._bytes = {}

    def render(self, format="png"):
        """The figure's bytes in `format`: png, svg or pdf (or csv, json: its numbers)."""
        if format not in self._bytes:
            self._bytes[format] = _posatlas.render_figure(self._args, format)
        return self._bytes[format]

    def _repr_png_(self):
        return self.render("png")

    def _repr_svg_(self):
        return self.render("svg").decode("utf-8")

    def save(self, path, format=None):
        """Writes the figure to `path`, its format from the extension (.png, .svg, .pdf, .csv, .json)."""
        path = _os.fspath(path)
        if format is None:
            format = _os.path.splitext(path)[1].lstrip(".").lower()
        if format not in ("png", "svg", "pdf", "csv", "json"):
            raise ValueError(_message("--out: the format of %1 must be one of png|svg|pdf|csv|json", path))
        data = self.render(format)
        with open(path, "wb") as f:
            f.write(data)
        return path

    def __repr__(self):
        return "posatlas.Figure(%s)" % " ".join(self._args)


def figure(scenario, view="heatmap", **kwargs):
    """A view of ``posatlas export`` (heatmap, rotation, decay or curves, spectrum) as a :class:`Figure`.

    Keyword arguments are export's options with underscores (width=900, height=600, kind="weights",
    max_distance=10**6, ...) and any scenario field; ``posatlas export --help`` lists them.
    """
    if not isinstance(scenario, Scenario):
        raise TypeError(_message("the first argument must be a posatlas.Scenario (got %1)", type(scenario).__name__))
    extra, export = {}, {}
    for key, value in kwargs.items():
        if key in _BY_KEY or key in _BY_OPTION or key == "method":
            scenario._set(extra, key, value)
        else:
            export[key] = value
    f = Figure(scenario._args(extra) + ["--view=%s" % view] + _keyword_options(export))
    f.render("png")  # checks the options now, raising the command line's message
    return f


from . import lab  # noqa: E402  (posatlas.lab: train, eval and sweep of the extrapolation lab)
