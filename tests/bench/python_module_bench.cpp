// SPDX-License-Identifier: GPL-3.0-or-later
// What the Python module adds to the core: posatlas.matrix(s, seq_len=N) from an embedded interpreter
// against compute_matrix on the same scenario, N = 4096 (the work) and N = 8 (the call's own cost: the
// options parsed into a scenario, the worker thread, the array handed over without a copy).
#include "compute/attention_logits.h"
#include "methods/registry.h"
#include "scenario/params.h"

#include <benchmark/benchmark.h>
#include <pybind11/embed.h>

namespace py = pybind11;
using namespace posatlas;

namespace {

void BM_CoreMatrix(benchmark::State& state)
{
    Scenario s;
    s.seq_len = state.range(0);
    for (auto _ : state) {
        const MatrixResult r = compute_matrix(s, MatrixKind::Logits, MatrixWindow{});
        benchmark::DoNotOptimize(r.values.data());
    }
}
BENCHMARK(BM_CoreMatrix)->Arg(4096)->Arg(8)->Unit(benchmark::kMillisecond);

void BM_PythonMatrix(benchmark::State& state)
{
    py::module_ pa = py::module_::import("posatlas");
    py::object s = pa.attr("Scenario")();
    py::object matrix = pa.attr("matrix");
    const auto n = state.range(0);
    for (auto _ : state) {
        py::object m = matrix(s, py::arg("seq_len") = n);
        benchmark::DoNotOptimize(m.ptr());
    }
}
BENCHMARK(BM_PythonMatrix)->Arg(4096)->Arg(8)->Unit(benchmark::kMillisecond);

} // namespace

int main(int argc, char** argv)
{
    py::scoped_interpreter python;
    py::module_::import("sys").attr("path").attr("insert")(0, POSATLAS_PYTHON_PATH);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
