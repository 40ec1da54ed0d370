// Benchmarks of the heavy kernels. Run on purpose: `make bench` (5 repetitions, medians).
// Never part of ctest: timings on a shared 2-core machine are not pass/fail material.
#include "attention_logits.h"
#include "decay.h"
#include "rope_scaling.h"

#include <benchmark/benchmark.h>

namespace {

using namespace posatlas;

Scenario rope_scenario(std::int64_t n, ContentKind content)
{
    Scenario s;
    s.method = Method::RoPE;
    s.seq_len = n;
    s.rope.head_dim = 128;
    s.content.kind = content;
    s.content.seed = 1;
    return s;
}

// Full N x N RoPE logits, N = 4096, d = 128, with random content (no Toeplitz shortcut).
void BM_RopeLogitsRandom(benchmark::State& state)
{
    const auto n = state.range(0);
    const Scenario s = rope_scenario(n, ContentKind::Random);
    for (auto _ : state)
        benchmark::DoNotOptimize(compute_matrix(s, MatrixKind::Logits, {}).values.data());
    state.SetItemsProcessed(state.iterations() * n * n);
}
BENCHMARK(BM_RopeLogitsRandom)->Arg(1024)->Arg(4096)->Unit(benchmark::kMillisecond)->UseRealTime();

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

// A 512 x 512 downsampled picture of a 10^6-position sequence (what the heatmap view asks for).
void BM_RopeLogitsDownsampledMillion(benchmark::State& state)
{
    const Scenario s = rope_scenario(1'000'000, ContentKind::Random);
    MatrixWindow w;
    w.out_rows = 512;
    w.out_cols = 512;
    for (auto _ : state)
        benchmark::DoNotOptimize(compute_matrix(s, MatrixKind::Logits, w).values.data());
}
BENCHMARK(BM_RopeLogitsDownsampledMillion)->Unit(benchmark::kMillisecond)->UseRealTime();

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
