// SPDX-License-Identifier: GPL-3.0-or-later
// Benchmarks of the heavy kernels. Run on purpose: `make bench` (5 repetitions, medians, beside the
// NumPy reference and the GEMM peak: tests/bench/run_bench.py). Never part of ctest: timings on a
// shared 2-core machine are not pass/fail material.
#include "analysis/decay.h"
#include "compute/attention_logits.h"
#include "compute/gemm.h"
#include "methods/rope/rope_scaling.h"

#include <benchmark/benchmark.h>

namespace {

using namespace posatlas;

Scenario rope_scenario(std::int64_t n, ContentKind content)
{
    Scenario s;
    s.method = Method::RoPE;
    s.seq_len = n;
    s.params<RopeParams>().head_dim = 128;
    s.content.kind = content;
    s.content.seed = 1;
    return s;
}

MatrixWindow precision_window(Precision p)
{
    MatrixWindow w;
    w.precision = p;
    return w;
}

// Full N x N RoPE logits, d = 128, with random content (no Toeplitz shortcut): content, rotation
// (double) and the product in double (`posatlas compute`'s default).
void BM_RopeLogitsRandom(benchmark::State& state)
{
    const auto n = state.range(0);
    const Scenario s = rope_scenario(n, ContentKind::Random);
    for (auto _ : state)
        benchmark::DoNotOptimize(compute_matrix(s, MatrixKind::Logits, {}).values.data());
    state.SetItemsProcessed(state.iterations() * n * n);
}
BENCHMARK(BM_RopeLogitsRandom)->Arg(1024)->Arg(4096)->Unit(benchmark::kMillisecond)->UseRealTime();

// The same with the product in float32 (views, image exports, `--precision single`).
void BM_RopeLogitsRandomSingle(benchmark::State& state)
{
    const auto n = state.range(0);
    const Scenario s = rope_scenario(n, ContentKind::Random);
    for (auto _ : state)
        benchmark::DoNotOptimize(
            compute_matrix(s, MatrixKind::Logits, precision_window(Precision::Single)).values.data());
    state.SetItemsProcessed(state.iterations() * n * n);
}
BENCHMARK(BM_RopeLogitsRandomSingle)->Arg(4096)->Unit(benchmark::kMillisecond)->UseRealTime();

// GEMM peak probe: the bare product of the kernel's shape, N x d times d x N, d = 128, through the
// same Eigen GEMM the kernel uses. Single: float32 result, nothing else; double: into a MatrixXd.
void BM_GemmPeakSingle(benchmark::State& state)
{
    const auto n = state.range(0);
    const Eigen::MatrixXf a = Eigen::MatrixXf::Random(n, 128), b = Eigen::MatrixXf::Random(n, 128);
    Eigen::MatrixXf out(n, n);
    // Warm-up outside the timing: the first call pays for faulting in the 64 MB result (on the build
    // machine ~0.7 s, more than the product) and for starting the BLAS threads; the peak is the product.
    sgemm_nt(a, b, out);
    for (auto _ : state) {
        sgemm_nt(a, b, out);
        benchmark::DoNotOptimize(out.data());
    }
    state.counters["GFLOPS"] = benchmark::Counter(2.0 * 128.0 * static_cast<double>(n * n),
                                                  benchmark::Counter::kIsIterationInvariantRate,
                                                  benchmark::Counter::kIs1000);
}
BENCHMARK(BM_GemmPeakSingle)->Arg(4096)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_GemmPeakDouble(benchmark::State& state)
{
    const auto n = state.range(0);
    const Eigen::MatrixXd a = Eigen::MatrixXd::Random(n, 128), b = Eigen::MatrixXd::Random(n, 128);
    Eigen::MatrixXd out(n, n);
    gemm_nt(a, b, 1.0, Precision::Double, out); // warm-up, as above
    for (auto _ : state) {
        gemm_nt(a, b, 1.0, Precision::Double, out);
        benchmark::DoNotOptimize(out.data());
    }
    state.counters["GFLOPS"] = benchmark::Counter(2.0 * 128.0 * static_cast<double>(n * n),
                                                  benchmark::Counter::kIsIterationInvariantRate,
                                                  benchmark::Counter::kIs1000);
}
BENCHMARK(BM_GemmPeakDouble)->Arg(4096)->Unit(benchmark::kMillisecond)->UseRealTime();

// The single-precision product as the kernel uses it: float32 tiles widened into the double result.
void BM_GemmSingleIntoDouble(benchmark::State& state)
{
    const auto n = state.range(0);
    const Eigen::MatrixXd a = Eigen::MatrixXd::Random(n, 128), b = Eigen::MatrixXd::Random(n, 128);
    Eigen::MatrixXd out(n, n);
    gemm_nt(a, b, 1.0, Precision::Single, out); // warm-up, as above
    for (auto _ : state) {
        gemm_nt(a, b, 1.0, Precision::Single, out);
        benchmark::DoNotOptimize(out.data());
    }
}
BENCHMARK(BM_GemmSingleIntoDouble)->Arg(4096)->Unit(benchmark::kMillisecond)->UseRealTime();

// The same matrix with position-independent content: Toeplitz path, 2N - 1 distinct values.
void BM_RopeLogitsToeplitz(benchmark::State& state)
{
    const auto n = state.range(0);
    const Scenario s = rope_scenario(n, ContentKind::Fixed);
    for (auto _ : state)
        benchmark::DoNotOptimize(compute_matrix(s, MatrixKind::Logits, {}).values.data());
    state.SetItemsProcessed(state.iterations() * n * n);
}
BENCHMARK(BM_RopeLogitsToeplitz)->Arg(1024)->Arg(4096)->Unit(benchmark::kMillisecond)->UseRealTime();

// A 512 x 512 point-sampled picture of a 10^6-position sequence (--sample point), random and fixed
// content: with nearly as many distinct offsets as cells, fixed content takes the rotate-and-multiply
// path too, so it must not be slower than random.
void BM_RopeLogitsDownsampledMillion(benchmark::State& state)
{
    const Scenario s = rope_scenario(1'000'000, state.range(0) ? ContentKind::Fixed : ContentKind::Random);
    MatrixWindow w;
    w.out_rows = 512;
    w.out_cols = 512;
    w.sample = SampleMode::Point;
    for (auto _ : state)
        benchmark::DoNotOptimize(compute_matrix(s, MatrixKind::Logits, w).values.data());
    state.SetLabel(state.range(0) ? "fixed" : "random");
}
BENCHMARK(BM_RopeLogitsDownsampledMillion)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime();

// Exact block means of a 10^6-position sequence into 512 x 512 (the default picture). Arg 0: RoPE
// random content (every position's q and k generated and rotated once); 1: RoPE fixed content
// (Dirichlet closed form); 2: causal ALiBi, random content (trapezoid sums + masked content sums);
// 3: sinusoidal, random content.
void BM_BlockMeanMillion(benchmark::State& state)
{
    Scenario s = rope_scenario(1'000'000, ContentKind::Random);
    const char* label = "rope-random";
    switch (state.range(0)) {
    case 1:
        s.content.kind = ContentKind::Fixed;
        label = "rope-fixed";
        break;
    case 2:
        s.method = Method::ALiBi;
        label = "alibi-causal-random";
        break;
    case 3:
        s.method = Method::Sinusoidal;
        s.params<SinusoidalParams>().dim = 128;
        label = "sinusoidal-random";
        break;
    default: break;
    }
    MatrixWindow w;
    w.out_rows = 512;
    w.out_cols = 512;
    for (auto _ : state)
        benchmark::DoNotOptimize(compute_matrix(s, MatrixKind::Logits, w).values.data());
    state.SetLabel(label);
}
BENCHMARK(BM_BlockMeanMillion)->DenseRange(0, 3)->Unit(benchmark::kMillisecond)->UseRealTime();

// RoFormer decay bound for every r in 0..10^6, d = 128.
void BM_RopeDecayBoundMillion(benchmark::State& state)
{
    RopeParams p;
    p.head_dim = 128;
    const auto f = compute_rope_frequencies(p);
    std::vector<double> distances(static_cast<std::size_t>(state.range(0)) + 1);
    for (std::size_t r = 0; r < distances.size(); ++r)
        distances[r] = static_cast<double>(r);
    for (auto _ : state)
        benchmark::DoNotOptimize(rope_decay_bound(f.inv_freq, distances).data());
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(distances.size()));
}
BENCHMARK(BM_RopeDecayBoundMillion)->Arg(1'000'000)->Unit(benchmark::kMillisecond)->UseRealTime();

} // namespace
