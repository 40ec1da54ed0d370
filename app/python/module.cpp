// SPDX-License-Identifier: GPL-3.0-or-later
// posatlas._posatlas: the native part of the Python module. It runs the command line's own code
// (app/posatlas_cli): a Scenario is built from the same option list `posatlas compute` parses, each
// quantity is the command line's kernel, and the matrix is core's MatrixResult handed to NumPy without a
// copy. posatlas/__init__.py turns this into the notebook API.
#include "cli_compute.h"
#include "cli_export.h"
#include "cli_options.h"
#include "cli_quantities.h"

#include "cli_i18n.h"
#include "compute/attention_logits.h"
#include "io/input_file.h"
#include "io/safe_write.h"
#include "methods/registry.h"
#include "scenario/types.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <new>
#include <sstream>
#include <thread>

namespace py = pybind11;
using namespace posatlas;

namespace {

// Runs `work` on a thread of its own with the GIL released, while this (the calling) thread checks
// Python's signals every 50 ms with the GIL held: Ctrl+C turns core's cancel predicate true, the work
// stops at its next check (core throws Cancelled), and KeyboardInterrupt (PyErr_CheckSignals's) is raised.
template <typename Work> void run_interruptible(Work&& work)
{
    std::atomic<bool> cancel{false};
    std::mutex mutex;
    std::condition_variable done_cv;
    bool done = false;
    std::exception_ptr error;
    std::thread worker([&] {
        try {
            work([&] { return cancel.load(std::memory_order_relaxed); });
        } catch (...) {
            error = std::current_exception();
        }
        const std::lock_guard lock(mutex);
        done = true;
        done_cv.notify_one();
    });
    bool interrupted = false;
    {
        py::gil_scoped_release release;
        std::unique_lock lock(mutex);
        while (!done) {
            if (done_cv.wait_for(lock, std::chrono::milliseconds(50), [&] { return done; }))
                break;
            lock.unlock();
            {
                py::gil_scoped_acquire acquire;
                if (!interrupted && PyErr_CheckSignals() != 0) {
                    interrupted = true; // the exception is set; raised after the worker stops
                    cancel = true;
                }
            }
            lock.lock();
        }
    }
    worker.join();
    if (interrupted)
        throw py::error_already_set();
    if (error)
        std::rethrow_exception(error);
}

py::object json_to_py(const nlohmann::json& j)
{
    return py::module_::import("json").attr("loads")(j.dump());
}

const char* type_name(FieldType t)
{
    switch (t) {
    case FieldType::Int: return "int";
    case FieldType::Real: return "real";
    case FieldType::Bool: return "bool";
    case FieldType::Choice: return "choice";
    case FieldType::Seed: return "seed";
    case FieldType::OptionalReal: return "optional_real";
    case FieldType::RealList: return "real_list";
    case FieldType::Text: return "text";
    }
    return "text";
}

// Every registry field: what posatlas/__init__.py makes an attribute of Scenario and a keyword argument.
py::list fields()
{
    py::list out;
    const auto add = [&](const Field& f, const std::string& owner) {
        py::dict d;
        d["key"] = f.key;
        d["option"] = f.option_name();
        d["owner"] = owner; // "" for the scenario's own fields, else the method's id
        d["type"] = type_name(f.type);
        d["lo"] = f.lo;
        d["hi"] = f.hi;
        d["label"] = std::string(f.label);
        d["unit"] = std::string(f.unit);
        d["tooltip"] = std::string(f.tooltip);
        d["allowed"] = f.allowed();
        py::list choices;
        for (const FieldChoice& c : f.choices)
            choices.append(std::string(c.id));
        d["choices"] = choices;
        Scenario defaults;
        if (!owner.empty())
            defaults.method = *parse_method(owner);
        d["default"] = json_to_py(f.get(defaults));
        out.append(d);
    };
    for (const Field& f : common_fields())
        add(f, "");
    for (const MethodDescriptor& m : methods())
        for (const Field& f : m.fields)
            add(f, std::string(method_id(m.method)));
    return out;
}

py::list quantities()
{
    py::list out;
    for (const std::string& name : cli::quantity_names()) {
        py::dict q;
        q["name"] = name;
        q["summary"] = cli::quantity_summary(name);
        const auto m = quantity_method(name);
        q["method"] = m ? py::object(py::str(std::string(method_id(*m)))) : py::object(py::none());
        py::list options;
        for (const cli::OptionSpec& o : cli::quantity_own_options(name)) {
            py::dict d;
            d["name"] = o.name;
            d["help"] = o.help;
            d["allowed"] = o.allowed_text();
            d["default"] = o.default_value.empty() ? o.default_text : o.default_value;
            d["required"] = o.required;
            d["flag"] = o.type == cli::ArgType::Flag;
            options.append(d);
        }
        q["options"] = options;
        out.append(q);
    }
    return out;
}

// The scenario `posatlas compute matrix ARGS` describes: its method and every field's value.
py::dict scenario_values(const std::vector<std::string>& args)
{
    const cli::QuantityCall call = cli::parse_quantity("matrix", args);
    const Scenario& s = call.scenario;
    py::dict out;
    out["method"] = std::string(method_id(s.method));
    for (const Field& f : common_fields())
        out[py::str(f.key)] = json_to_py(f.get(s));
    for (const MethodDescriptor& m : methods())
        for (const Field& f : m.fields)
            if (m.method == s.method || !out.contains(f.key))
                out[py::str(f.key)] = json_to_py(f.get(s));
    return out;
}

// `posatlas compute QUANTITY ARGS --quiet`: its text (JSON or CSV, by --format in ARGS).
std::string compute_text(const std::string& quantity, const std::vector<std::string>& args)
{
    std::vector<std::string> all{quantity};
    all.insert(all.end(), args.begin(), args.end());
    all.emplace_back("--quiet");
    std::ostringstream out;
    run_interruptible([&](const CancelFn&) { cli::run_compute(all, out); });
    return out.str();
}

// `posatlas compute matrix ARGS` as an array that owns core's result: no copy of the values.
py::tuple matrix(const std::vector<std::string>& args)
{
    const cli::QuantityCall call = cli::parse_quantity("matrix", args);
    const auto request = cli::quantity_kernels::matrix_request(call.options, call.scenario);
    auto result = std::make_unique<MatrixResult>();
    run_interruptible([&](const CancelFn& cancel) {
        *result = compute_matrix(call.scenario, request.kind, request.window, cancel);
    });
    py::dict info;
    info["kind"] = std::string(matrix_kind_id(request.kind));
    info["row_index"] = result->row_index;
    info["col_index"] = result->col_index;
    info["row_name"] = result->row_name;
    info["col_name"] = result->col_name;
    info["value_name"] = result->value_name;
    info["min"] = result->min;
    info["max"] = result->max;
    const bool single = result->single();
    const auto rows = static_cast<py::ssize_t>(result->rows());
    const auto cols = static_cast<py::ssize_t>(result->cols());
    MatrixResult* owned = result.release();
    py::capsule owner(owned, [](void* p) { delete static_cast<MatrixResult*>(p); });
    // Eigen's matrices are column-major: the array is Fortran-ordered.
    if (single) {
        const py::ssize_t e = sizeof(float);
        return py::make_tuple(py::array_t<float>({rows, cols}, {e, e * rows}, owned->values_f.data(), owner),
                              info);
    }
    const py::ssize_t e = sizeof(double);
    return py::make_tuple(py::array_t<double>({rows, cols}, {e, e * rows}, owned->values.data(), owner),
                          info);
}

// `posatlas export ARGS --out - --format FORMAT`: the figure's bytes, rendered by the export's renderer on
// Qt's offscreen platform (a QApplication is made on first use, as the command line makes it). Qt's
// widgets live on the thread that made the application: this runs on the calling thread.
py::bytes render_figure(const std::vector<std::string>& args, const std::string& format)
{
    std::vector<std::string> all = args;
    all.insert(all.end(), {"--out", "-", "--format", format, "--quiet"});
    std::ostringstream out, err;
    {
        py::gil_scoped_release release;
        cli::ensure_application();
        cli::run_export(all, out, err);
    }
    return py::bytes(out.str());
}

} // namespace

PYBIND11_MODULE(_posatlas, m)
{
    m.doc() = "The native part of posatlas: the command line's code, called from Python.";
    // The messages are the command line's (app/cli.cpp), without its "posatlas: " prefix.
    py::register_exception_translator([](std::exception_ptr p) {
        try {
            std::rethrow_exception(p);
        } catch (const cli::UsageError& e) {
            const std::string text = quote_input(e.what(), 2000);
            // A file that cannot be read or written: OSError, as Python's own file functions raise.
            if (text.find("cannot read") != std::string::npos ||
                text.find("cannot write") != std::string::npos ||
                text.find("No such file") != std::string::npos)
                PyErr_SetString(PyExc_OSError, text.c_str());
            else
                PyErr_SetString(PyExc_ValueError, text.c_str());
        } catch (const ParameterError& e) {
            PyErr_SetString(
                PyExc_ValueError,
                cli::parameter_message(cli::option_name(e.parameter()), e.allowed(), e.got()).c_str());
        } catch (const Cancelled&) {
            PyErr_SetNone(PyExc_KeyboardInterrupt);
        } catch (const InputFileError& e) {
            PyErr_SetString(PyExc_OSError, quote_input(e.what(), 2000).c_str());
        } catch (const OutputFileError& e) {
            PyErr_SetString(PyExc_OSError, quote_input(e.what(), 2000).c_str());
        }
    });
    m.def("fields", &fields, "Every registry field: key, option, owner, type, range, label, help, default.");
    m.def("quantities", &quantities, "The quantities of posatlas compute with their own options.");
    m.def("scenario_values", &scenario_values, py::arg("args"),
          "The method and every field's value of the scenario the command-line options describe.");
    m.def("compute_text", &compute_text, py::arg("quantity"), py::arg("args"),
          "posatlas compute QUANTITY ARGS: the text it writes.");
    m.def("matrix", &matrix, py::arg("args"),
          "posatlas compute matrix ARGS: (array, info), the array owning core's result.");
    m.def("render_figure", &render_figure, py::arg("args"), py::arg("format"),
          "posatlas export ARGS --out - --format FORMAT: the figure's bytes.");
    m.def("method_ids", [] {
        std::vector<std::string> ids;
        for (const MethodDescriptor& d : methods())
            ids.emplace_back(method_id(d.method));
        return ids;
    });
}
