// SPDX-License-Identifier: GPL-3.0-or-later
// Benchmarks of the heavy kernels. Run on purpose: `make bench` (5 repetitions, medians, beside the
// NumPy reference and the GEMM peak: tests/bench/run_bench.py). Never part of ctest: timings on a
// shared 2-core machine are not pass/fail material.
#include "analysis/curve_envelope.h"
#include "analysis/decay.h"
#include "compute/attention_logits.h"
#include "compute/gemm.h"
#include "io/number_text.h"
#include "methods/registry.h"
#include "methods/rope/rope_scaling.h"
#include "methods/xpos/xpos.h"
#include "scenario/rng.h"

#include <benchmark/benchmark.h>
#include <nlohmann/json.hpp>

#include <ostream>
#include <streambuf>

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

MatrixWindow float32_window()
{
    MatrixWindow w = precision_window(Precision::Single);
    w.single_result = true;
    return w;
}

// The same with the product in float32 and widened into the double result (the views' precision).
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

// The same with a float32 result (`posatlas compute matrix --precision single`): SGEMM writes the
// 64 MB result directly. The kernel that the 60 %-of-SGEMM-peak target is about.
void BM_RopeLogitsRandomFloat32(benchmark::State& state)
{
    const auto n = state.range(0);
    const Scenario s = rope_scenario(n, ContentKind::Random);
    for (auto _ : state)
        benchmark::DoNotOptimize(compute_matrix(s, MatrixKind::Logits, float32_window()).values_f.data());
    state.SetItemsProcessed(state.iterations() * n * n);
}
BENCHMARK(BM_RopeLogitsRandomFloat32)->Arg(4096)->Unit(benchmark::kMillisecond)->UseRealTime();

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
    state.counters["GFLOPS"] =
        benchmark::Counter(2.0 * 128.0 * static_cast<double>(n * n),
                           benchmark::Counter::kIsIterationInvariantRate, benchmark::Counter::kIs1000);
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
    state.counters["GFLOPS"] =
        benchmark::Counter(2.0 * 128.0 * static_cast<double>(n * n),
                           benchmark::Counter::kIsIterationInvariantRate, benchmark::Counter::kIs1000);
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

// The curves view's RoPE job at N = 10^6: the exact envelopes of the bound and the mean cosine over
// every integer distance 0 .. 4 * 10^6 (the view's automatic range), in 1200 log-spaced bins, d = 128.
// Arg 0: each curve in its own pass (before); 1: both in one pass (rope_curve_envelopes); 2: both in
// one pass in single precision (what the view asks for: analysis/decay_single.h).
void BM_RopeCurveEnvelopes(benchmark::State& state)
{
    RopeParams p;
    p.head_dim = 128;
    const auto f = compute_rope_frequencies(p);
    const std::vector<double> dist = decay_distances(4'000'000, 1200, true);
    std::vector<std::int64_t> edges(dist.begin(), dist.end());
    edges.push_back(4'000'001);
    for (auto _ : state) {
        if (state.range(0) == 0) {
            benchmark::DoNotOptimize(rope_curve_envelope(RopeCurve::Bound, f.inv_freq, edges).max.data());
            benchmark::DoNotOptimize(rope_curve_envelope(RopeCurve::MeanCos, f.inv_freq, edges).max.data());
        } else {
            const Precision precision = state.range(0) == 2 ? Precision::Single : Precision::Double;
            benchmark::DoNotOptimize(
                rope_curve_envelopes(f.inv_freq, edges, {}, {}, precision).bound.max.data());
        }
    }
}
BENCHMARK(BM_RopeCurveEnvelopes)->DenseRange(0, 2)->Unit(benchmark::kMillisecond)->UseRealTime();

// xPos heatmap of N positions with all-ones content at 900 x 900 px: exact causal block means (the
// geometric double series in tiles, the trapezoid near the diagonal). Before: the logit of every one of
// the N offsets, summed by the trapezoid identity.
void BM_XposBlockMeans(benchmark::State& state)
{
    Scenario s;
    s.method = kXPos;
    s.seq_len = state.range(0);
    s.content.kind = ContentKind::Ones;
    MatrixWindow w;
    w.out_rows = w.out_cols = 900;
    for (auto _ : state)
        benchmark::DoNotOptimize(compute_matrix(s, MatrixKind::Logits, w).values.data());
}
BENCHMARK(BM_XposBlockMeans)->Arg(1'000'000)->Arg(10'000'000)->Unit(benchmark::kMillisecond)->UseRealTime();

// The same without the causal mask (the cells above the diagonal grow; gamma 10^5 keeps them within double
// at 10^7): the geometric series on both sides of the diagonal, the band's suffix sums between.
void BM_XposBlockMeansNoMask(benchmark::State& state)
{
    Scenario s;
    s.method = kXPos;
    s.seq_len = state.range(0);
    s.content.kind = ContentKind::Ones;
    s.params<XposParams>().causal = false;
    s.params<XposParams>().scale_base = 1e5;
    MatrixWindow w;
    w.out_rows = w.out_cols = 900;
    for (auto _ : state)
        benchmark::DoNotOptimize(compute_matrix(s, MatrixKind::Logits, w).values.data());
}
BENCHMARK(BM_XposBlockMeansNoMask)
    ->Arg(4096)
    ->Arg(1'000'000)
    ->Arg(10'000'000)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// The Curves view's logit envelope of the last query at N = 10^6 with fixed content, 1200 log-spaced
// bins over every integer distance, for the methods whose curve comes from distance_logits
// (registry.h): Arg = index into kCurveMethods. Double, as `posatlas compute` has it;
// BM_ConstantContentCurveSingle: the view's precision (SinusoidSum's float32 kernel where the method
// has one: sinusoidal, Transformer-XL).
const char* const kCurveMethods[] = {"sinusoidal", "shaw", "transformer-xl", "xpos", "cope"};
void constant_content_curve(benchmark::State& state, Precision precision)
{
    Scenario s;
    s.method = parse_method(kCurveMethods[state.range(0)]).value();
    s.seq_len = 1'000'000;
    s.content.kind = ContentKind::Fixed;
    const std::int64_t query = s.seq_len - 1;
    const std::vector<double> dist = decay_distances(query, 1200, true);
    std::vector<std::int64_t> edges(dist.begin(), dist.end());
    edges.push_back(query + 1);
    state.SetLabel(kCurveMethods[state.range(0)]);
    for (auto _ : state)
        benchmark::DoNotOptimize(logit_curve_envelope(s, query, edges, {}, {}, precision).max.data());
}
void BM_ConstantContentCurve(benchmark::State& state)
{
    constant_content_curve(state, Precision::Double);
}
void BM_ConstantContentCurveSingle(benchmark::State& state)
{
    constant_content_curve(state, Precision::Single);
}
BENCHMARK(BM_ConstantContentCurveSingle)->Arg(0)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_ConstantContentCurve)->DenseRange(0, 4)->Unit(benchmark::kMillisecond)->UseRealTime();

// Writing `posatlas compute rope-decay --max-distance 1000000` (10^6 + 1 rows: distance, bound, mean_cos)
// as CSV and as JSON, the way the command line does, into a stream that discards the bytes: what the
// number policy (number_text.h) costs in each format. The curve itself is computed once, outside.
struct DecayColumns {
    std::vector<double> distance, bound, mean_cos;
};

const DecayColumns& decay_columns()
{
    static const DecayColumns c = [] {
        RopeParams p;
        p.head_dim = 128;
        const auto f = compute_rope_frequencies(p);
        DecayColumns d;
        d.distance.resize(1'000'001);
        for (std::size_t r = 0; r < d.distance.size(); ++r)
            d.distance[r] = static_cast<double>(r);
        d.bound = rope_decay_bound(f.inv_freq, d.distance);
        d.mean_cos = rope_mean_cos(f.inv_freq, d.distance);
        return d;
    }();
    return c;
}

class DiscardBuffer : public std::streambuf
{
protected:
    std::streamsize xsputn(const char*, std::streamsize n) override { return n; }
    int_type overflow(int_type c) override { return traits_type::not_eof(c); }
};

void BM_RopeDecayMillionCsv(benchmark::State& state)
{
    const DecayColumns& d = decay_columns();
    DiscardBuffer buffer;
    std::ostream out(&buffer);
    for (auto _ : state)
        write_csv_columns(out,
                          {{"distance_tokens", d.distance}, {"bound", d.bound}, {"mean_cos", d.mean_cos}});
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(d.distance.size()));
}
BENCHMARK(BM_RopeDecayMillionCsv)->Unit(benchmark::kMillisecond)->UseRealTime();

nlohmann::json decay_json(const DecayColumns& d)
{
    nlohmann::json j;
    nlohmann::json distance = nlohmann::json::array();
    for (double r : d.distance)
        distance.push_back(static_cast<std::int64_t>(r));
    j["distance"] = std::move(distance);
    j["bound"] = d.bound;
    j["mean_cos"] = d.mean_cos;
    return j;
}

// The command line's JSON: the columns streamed by write_json_columns.
void BM_RopeDecayMillionJson(benchmark::State& state)
{
    const DecayColumns& d = decay_columns();
    DiscardBuffer buffer;
    std::ostream out(&buffer);
    for (auto _ : state)
        write_json_columns(out, {{"bound", d.bound}, {"distance", d.distance}, {"mean_cos", d.mean_cos}});
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(d.distance.size()));
}
BENCHMARK(BM_RopeDecayMillionJson)->Unit(benchmark::kMillisecond)->UseRealTime();

// The same through a nlohmann::json document and append_json_text (how the smaller quantities write).
void BM_RopeDecayMillionJsonDocument(benchmark::State& state)
{
    const DecayColumns& d = decay_columns();
    DiscardBuffer buffer;
    std::ostream out(&buffer);
    for (auto _ : state) {
        std::string text;
        append_json_text(text, decay_json(d));
        out.write(text.data(), static_cast<std::streamsize>(text.size()));
    }
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(d.distance.size()));
}
BENCHMARK(BM_RopeDecayMillionJsonDocument)->Unit(benchmark::kMillisecond)->UseRealTime();

// For reference: the same document through nlohmann's own dump() (what compute wrote before it streamed).
void BM_RopeDecayMillionJsonNlohmannDump(benchmark::State& state)
{
    const DecayColumns& d = decay_columns();
    DiscardBuffer buffer;
    std::ostream out(&buffer);
    for (auto _ : state) {
        const std::string text = decay_json(d).dump();
        out.write(text.data(), static_cast<std::streamsize>(text.size()));
    }
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(d.distance.size()));
}
BENCHMARK(BM_RopeDecayMillionJsonNlohmannDump)->Unit(benchmark::kMillisecond)->UseRealTime();

// Seeded normals (rng::normals, one thread): the content of random-content pictures and curves; a CoPE
// curve of 10^6 positions draws 6.4 x 10^7 of them. Items: values.
void BM_SeededNormals(benchmark::State& state)
{
    std::vector<double> out(static_cast<std::size_t>(state.range(0)));
    for (auto _ : state) {
        rng::normals(7, rng::kKeyContent, 12345, state.range(0), out.data());
        benchmark::DoNotOptimize(out.data());
    }
    state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_SeededNormals)->Arg(1 << 20)->Unit(benchmark::kMillisecond)->UseRealTime();

} // namespace
