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
#include "cli_lab.h"
#include "cli_lab_process.h"
#include "compute/attention_logits.h"
#include "io/input_file.h"
#include "io/safe_write.h"
#include "methods/registry.h"
#include "scenario/types.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <QtGlobal>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <iostream>
#include <mutex>
#include <new>
#include <sstream>
#include <thread>
#include <unistd.h>

namespace py = pybind11;
using namespace posatlas;

namespace {

// The thread that runs the module's computations, one at a time in the order asked, for the life of the
// process: OpenMP keeps one team of threads for it. A thread per call made libgomp start a new team for
// each call while the previous team's threads still spun: a 4096 x 4096 matrix took 27 ms through the
// module against 20 ms in C++ (docs/benchmarks.md, "The Python module"). Never destroyed (it outlives the
// interpreter's finalisation); a forked child, which has no copy of the thread, starts its own.
class ComputeThread
{
public:
    static ComputeThread& instance()
    {
        static std::mutex creating;
        static ComputeThread* current = nullptr;
        const std::lock_guard lock(creating);
        if (!current || current->m_pid != ::getpid())
            current = new ComputeThread; // a child's copy of its parent's is left as it is
        return *current;
    }
    void post(std::function<void()> job)
    {
        const std::lock_guard lock(m_mutex);
        m_jobs.push_back(std::move(job));
        m_ready.notify_one();
    }

private:
    ComputeThread()
    {
        std::thread([this] { loop(); }).detach();
    }
    [[noreturn]] void loop()
    {
        for (;;) {
            std::function<void()> job;
            {
                std::unique_lock lock(m_mutex);
                m_ready.wait(lock, [&] { return !m_jobs.empty(); });
                job = std::move(m_jobs.front());
                m_jobs.pop_front();
            }
            job();
        }
    }
    const pid_t m_pid = ::getpid();
    std::mutex m_mutex;
    std::condition_variable m_ready;
    std::deque<std::function<void()>> m_jobs;
};

// Runs `work` on the compute thread with the GIL released, while this (the calling) thread checks
// Python's signals every 50 ms with the GIL held: Ctrl+C turns core's cancel predicate true, the work
// stops at its next check (core throws Cancelled), and KeyboardInterrupt (PyErr_CheckSignals's) is raised.
template <typename Work> void run_interruptible(Work&& work)
{
    std::atomic<bool> cancel{false};
    std::mutex mutex;
    std::condition_variable done_cv;
    bool done = false;
    std::exception_ptr error;
    // The job never throws: what `work` throws is handed back through `error`.
    ComputeThread::instance().post([&] {
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

// `posatlas lab ARGS`: the command line's checks here (the options, the configuration, the run folder:
// UsageError or ParameterError, raised as ValueError), then posatlas-lab as a child process, with the GIL
// released while it runs. Ctrl+C reaches the child, which stops at its next step and keeps its last
// checkpoint. Returns (exit status, the child's standard output when `capture`, else ""). The sweep's
// progress and the child's own messages go to standard error, which Jupyter shows under the cell.
py::tuple run_lab(const std::vector<std::string>& args, bool capture)
{
    std::string captured;
    std::ostringstream out;
    int status = 0;
    {
        py::gil_scoped_release release;
        status = cli::run_lab(args, out, std::cerr, capture ? &captured : nullptr);
        std::cerr.flush();
    }
    return py::make_tuple(status, capture ? captured : out.str());
}

// The messages posatlas/__init__.py and posatlas/lab.py raise themselves, here so that lupdate finds them
// and the .ts carries their Chinese; the Python side asks for them by their English text (tr below).
[[maybe_unused]] constexpr const char* kPythonMessages[] = {
    QT_TRANSLATE_NOOP("Python", "%1 must be %2 (got %3 %4)"),
    QT_TRANSLATE_NOOP("Python", "True or False"),
    QT_TRANSLATE_NOOP("Python", "an integer"),
    QT_TRANSLATE_NOOP("Python", "a number"),
    QT_TRANSLATE_NOOP("Python", "a list of numbers"),
    QT_TRANSLATE_NOOP("Python", "a string"),
    QT_TRANSLATE_NOOP("Python", "a value"),
    QT_TRANSLATE_NOOP("Python", "Scenario has no field %1 (posatlas.fields() lists them)"),
    QT_TRANSLATE_NOOP("Python", "the first argument must be a posatlas.Scenario (got %1)"),
    QT_TRANSLATE_NOOP("Python", "%1() got an unexpected keyword argument %2"),
    QT_TRANSLATE_NOOP("Python", "%1 needs --method %2 (the scenario's method is %3)"),
    QT_TRANSLATE_NOOP("Python", "--out: the format of %1 must be one of png|svg|pdf|csv|json"),
    QT_TRANSLATE_NOOP("Python", "the lab is not installed: this build of posatlas has no posatlas-lab"),
    QT_TRANSLATE_NOOP("Python", "%1 is not a lab run folder (it has no config.json)"),
    QT_TRANSLATE_NOOP("Python", "training stopped: %1 is %2 at step %3 of %4"),
    QT_TRANSLATE_NOOP("Python", "posatlas-lab stopped with exit status %1 (its message is above)"),
};

} // namespace

PYBIND11_MODULE(_posatlas, m)
{
    m.doc() = "The native part of posatlas: the command line's code, called from Python.";
    // Messages and figure texts in the environment's language, as the command line chooses it
    // (LANG=zh_CN.UTF-8: Chinese), from the first call on; the figures' QApplication later takes over
    // from this QCoreApplication (cli_export.h).
    cli::choose_language();
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
    m.def("run_lab", &run_lab, py::arg("args"), py::arg("capture"),
          "posatlas lab ARGS: (exit status, captured standard output).");
    m.def("set_lab_search_dir", &cli::set_lab_search_dir, py::arg("dir"),
          "A folder to look for posatlas-lab in first (the build tree's app/).");
    m.def("lab_program", &cli::find_lab_executable,
          "The path of posatlas-lab, or '' when it is not installed.");
    m.def(
        "tr", [](const std::string& source) { return cli::translate("Python", source.c_str()); },
        py::arg("source"), "A message of the Python side in the environment's language.");
    m.def("method_ids", [] {
        std::vector<std::string> ids;
        for (const MethodDescriptor& d : methods())
            ids.emplace_back(method_id(d.method));
        return ids;
    });
}
