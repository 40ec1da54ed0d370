// SPDX-License-Identifier: GPL-3.0-or-later
// Tests of the exact curve envelopes (core/analysis/curve_envelope.h) that the Curves view draws when a curve
// has more integer distances than pixel columns. Reference: the logit curve's value at distance r is the cell
// (query, query - r) of compute_matrix for the Logits kind (what `posatlas compute matrix` prints); here the
// whole row, computed exactly (one cell per column, no downsampling). Tolerance: 1e-9 * max(1, |value|),
// double against double computed by the same kernels in windows of different widths (only the summation order
// of a product can differ).
#include "analysis/curve_envelope.h"
#include "analysis/decay.h"
#include "compute/attention_logits.h"
#include "methods/mrope/mrope.h"
#include "methods/registry.h"
#include "methods/rope/rope_scaling.h"
#include "methods/sinusoidal/sinusoidal.h"
#include "scenario/content.h"
#include "scenario/params.h"
#include "scenario/types.h"
#include "scenario/validation.h"

#include "test_names.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

using namespace posatlas;

namespace {

constexpr double kTol = 1e-9;

double tol(double v)
{
    return kTol * std::max(1.0, std::abs(v));
}

// Every logit of the last query against keys j = 0 .. query, indexed by distance r = query - j.
std::vector<double> exact_row(const Scenario& s, std::int64_t query)
{
    MatrixWindow w;
    w.row0 = query;
    w.rows = 1;
    w.col0 = 0;
    w.cols = query + 1;
    const MatrixResult m = compute_matrix(s, MatrixKind::Logits, w);
    EXPECT_EQ(m.sampling, MatrixSampling::Exact);
    std::vector<double> byDistance(static_cast<std::size_t>(query + 1));
    for (std::int64_t j = 0; j <= query; ++j)
        byDistance[static_cast<std::size_t>(query - j)] = m.values(0, j);
    return byDistance;
}

// Bin edges as the Curves view makes them: log-spaced distances, then one past the last distance.
std::vector<std::int64_t> view_edges(std::int64_t query, std::size_t points)
{
    const std::vector<double> d = decay_distances(query, points, true);
    std::vector<std::int64_t> edges(d.begin(), d.end());
    edges.push_back(query + 1);
    return edges;
}

void expect_envelope_exact(const CurveEnvelope& env, const std::vector<std::int64_t>& edges,
                           const std::vector<double>& exact, const std::string& what)
{
    ASSERT_EQ(env.min.size(), edges.size() - 1) << what;
    ASSERT_EQ(env.max.size(), edges.size() - 1) << what;
    for (std::size_t b = 0; b + 1 < edges.size(); ++b) {
        double lo = std::numeric_limits<double>::infinity(), hi = -lo;
        for (std::int64_t r = edges[b]; r < edges[b + 1]; ++r) {
            const double v = exact[static_cast<std::size_t>(r)];
            if (std::isfinite(v)) {
                lo = std::min(lo, v);
                hi = std::max(hi, v);
            }
        }
        if (lo > hi) { // no finite value in the bin
            EXPECT_TRUE(std::isnan(env.min[b]) && std::isnan(env.max[b])) << what << " bin " << b;
            continue;
        }
        EXPECT_NEAR(env.min[b], lo, tol(lo)) << what << " bin [" << edges[b] << ", " << edges[b + 1] << ")";
        EXPECT_NEAR(env.max[b], hi, tol(hi)) << what << " bin [" << edges[b] << ", " << edges[b + 1] << ")";
    }
}

struct MethodCase {
    std::string id;
};

std::vector<MethodCase> every_method()
{
    std::vector<MethodCase> out;
    for (const MethodDescriptor& d : methods())
        out.push_back({std::string(d.method.id())});
    return out;
}

class LogitEnvelope : public ::testing::TestWithParam<MethodCase>
{
};

} // namespace

TEST(CurveEnvelope, FoldsEveryIntegerOfEachBinAndRejectsBadEdges)
{
    // f(r) = (-1)^r r: point samples at the bins' first distances (all even) would see only the rising
    // positive side; the envelope has each bin's most negative odd value.
    const auto f = [](std::int64_t r) { return (r % 2 ? -1.0 : 1.0) * static_cast<double>(r); };
    const std::vector<std::int64_t> edges{0, 10, 100, 1000};
    const CurveEnvelope env = integer_envelope(
        edges, 1000,
        [&](std::int64_t first, std::int64_t last, double* out) {
            for (std::int64_t r = first; r < last; ++r)
                out[r - first] = f(r);
        },
        7, true);
    EXPECT_EQ(env.min, (std::vector<double>{-9.0, -99.0, -999.0}));
    EXPECT_EQ(env.max, (std::vector<double>{8.0, 98.0, 998.0}));
    const RangeValuesFn none = [](std::int64_t first, std::int64_t last, double* out) {
        std::fill(out, out + (last - first), std::numeric_limits<double>::quiet_NaN());
    };
    EXPECT_THROW(integer_envelope({0}, 10, none, 4, false), ParameterError);
    EXPECT_THROW(integer_envelope({0, 5, 5}, 10, none, 4, false), ParameterError);
    EXPECT_THROW(integer_envelope({0, 11}, 10, none, 4, false), ParameterError);
    const CurveEnvelope empty = integer_envelope({0, 3}, 10, none, 4, false);
    EXPECT_TRUE(std::isnan(empty.min[0]) && std::isnan(empty.max[0]));
}

// The sampled envelope (generated content at long range, curve_job.cpp): bins below sampled_from are the
// exact envelope; beyond, each bin's extremes are values the curve takes at some distance of the bin
// (inside the exact extremes; a sampled min equal to the exact min of the bin is not required), every
// bin has a value, and the spacing is what was sampled. Shaw (d = 8) and CoPE (whose sampled keys are
// evaluated alone once its positions are clamped: cope_row), random content, N = 200 000, 1200
// log-spaced bins, 1024 samples; and with too few distances to sample, the exact envelope itself.
TEST(CurveEnvelope, SampledEnvelopeIsExactBelowItsSplitAndInsideTheExactOneBeyond)
{
    for (const Method method : {Method::Shaw, Method::CoPE}) {
        SCOPED_TRACE(std::string(method_id(method)));
        Scenario s;
        s.method = method;
        s.seq_len = 200'000;
        s.content.kind = ContentKind::Random;
        if (method == Method::Shaw)
            s.params<ShawParams>().head_dim = 8;
        const std::int64_t query = s.seq_len - 1;
        const std::vector<std::int64_t> edges = view_edges(query, 1200);
        const std::vector<double> exact = exact_row(s, query);
        const SampledCurveEnvelope sampled = sampled_logit_curve_envelope(s, query, edges, 1024);
        ASSERT_GE(sampled.sampled_from, 1024);
        ASSERT_LT(sampled.sampled_from, query);
        EXPECT_NEAR(sampled.spacing, static_cast<double>(query + 1 - sampled.sampled_from) / 1024.0, 1e-9);
        const CurveEnvelope full = logit_curve_envelope(s, query, edges);
        ASSERT_EQ(sampled.envelope.min.size(), edges.size() - 1);
        int narrower = 0;
        for (std::size_t b = 0; b + 1 < edges.size(); ++b) {
            ASSERT_TRUE(std::isfinite(sampled.envelope.min[b]) && std::isfinite(sampled.envelope.max[b]))
                << b;
            if (edges[b] < sampled.sampled_from) {
                // Exact, to the rounding of CoPE's key dots, whose blocks of 64 keys start elsewhere when the
                // stream is cut elsewhere (Shaw's are equal).
                EXPECT_NEAR(sampled.envelope.min[b], full.min[b], 1e-12 * (1.0 + std::abs(full.min[b]))) << b;
                EXPECT_NEAR(sampled.envelope.max[b], full.max[b], 1e-12 * (1.0 + std::abs(full.max[b]))) << b;
                continue;
            }
            EXPECT_GE(sampled.envelope.min[b], full.min[b] - tol(full.min[b])) << b;
            EXPECT_LE(sampled.envelope.max[b], full.max[b] + tol(full.max[b])) << b;
            // The sampled extremes are values of the curve at distances of the bin.
            for (double v : {sampled.envelope.min[b], sampled.envelope.max[b]}) {
                bool found = false;
                for (std::int64_t r = edges[b]; r < edges[b + 1] && !found; ++r)
                    found = std::abs(exact[static_cast<std::size_t>(r)] - v) <= tol(v);
                EXPECT_TRUE(found) << "bin " << b << " value " << v;
            }
            narrower += sampled.envelope.max[b] - sampled.envelope.min[b] < full.max[b] - full.min[b] - 1e-9;
        }
        EXPECT_GT(narrower, 10); // it did sample: some bins miss their extremes
        const SampledCurveEnvelope none = sampled_logit_curve_envelope(s, 3000, view_edges(3000, 200), 4096);
        EXPECT_EQ(none.sampled_from, 3001);
        EXPECT_EQ(none.envelope.max, logit_curve_envelope(s, 3000, view_edges(3000, 200)).max);
        EXPECT_THROW(sampled_logit_curve_envelope(s, query, edges, 10), ParameterError);
    }
}

TEST(CurveEnvelope, RopeEnvelopeStillMatchesEveryDistance)
{
    // Through the shared helper: each bin of the RoPE mean-cosine envelope against rope_mean_cos at every
    // integer (tolerance 1e-12 absolute: the recurrence's error at r < 3000 is ~1e-14).
    RopeParams p;
    const std::vector<double> inv = compute_rope_frequencies(p).inv_freq;
    const std::vector<std::int64_t> edges = view_edges(2999, 80);
    const RopeCurveEnvelope env = rope_curve_envelope(RopeCurve::MeanCos, inv, edges);
    std::vector<double> r(3000);
    for (std::size_t i = 0; i < r.size(); ++i)
        r[i] = static_cast<double>(i);
    const std::vector<double> exact = rope_mean_cos(inv, r);
    for (std::size_t b = 0; b + 1 < edges.size(); ++b) {
        const auto first = exact.begin() + edges[b], last = exact.begin() + edges[b + 1];
        EXPECT_NEAR(env.min[b], *std::min_element(first, last), 1e-12) << b;
        EXPECT_NEAR(env.max[b], *std::max_element(first, last), 1e-12) << b;
    }
}

TEST_P(LogitEnvelope, EachBinIsTheExactMinAndMaxAndTheCrosshairTheExactValue)
{
    for (const ContentKind content : {ContentKind::Ones, ContentKind::Random}) {
        Scenario s;
        s.method = parse_method(GetParam().id).value();
        s.seq_len = 3000;
        s.content.kind = content;
        const std::string what = GetParam().id + (content == ContentKind::Random ? " random" : " ones");
        const std::int64_t query = s.seq_len - 1;
        const std::vector<double> exact = exact_row(s, query);
        const std::vector<std::int64_t> edges = view_edges(query, 90);
        ASSERT_LT(edges.size(), exact.size()) << "the bins must be wider than one distance";
        expect_envelope_exact(logit_curve_envelope(s, query, edges), edges, exact, what);
        // A window in the middle of the curve, one bin per distance: the envelope is the curve itself.
        std::vector<std::int64_t> unit;
        for (std::int64_t r = 1000; r <= 1040; ++r)
            unit.push_back(r);
        expect_envelope_exact(logit_curve_envelope(s, query, unit), unit, exact, what + " unit bins");
        // The crosshair: the exact value at the integer distance.
        for (std::int64_t r :
             {std::int64_t{0}, std::int64_t{1}, std::int64_t{7}, std::int64_t{1234}, query}) {
            const double v = logit_at_distance(s, query, r);
            const double e = exact[static_cast<std::size_t>(r)];
            if (std::isnan(e))
                EXPECT_TRUE(std::isnan(v)) << what << " r=" << r;
            else
                EXPECT_NEAR(v, e, tol(e)) << what << " r=" << r;
        }
    }
}

INSTANTIATE_TEST_SUITE_P(EveryMethod, LogitEnvelope, ::testing::ValuesIn(every_method()),
                         [](const auto& info) { return test::param_name(info.param.id); });

TEST(LogitEnvelope, KeepsThePeaksThatPointSamplesMiss)
{
    // Sinusoidal with all-ones content at N = 10^5: the logit oscillates with r (the dot product of two
    // sinusoidal encodings). Over the log-spaced bins of a 1 200-point plot the envelope's range must
    // exceed what the samples at the bins' first distances span: the aliasing the envelope removes.
    Scenario s;
    s.method = Method::Sinusoidal;
    s.seq_len = 100000;
    const std::int64_t query = s.seq_len - 1;
    const std::vector<std::int64_t> edges = view_edges(query, 1200);
    const CurveEnvelope env = logit_curve_envelope(s, query, edges);
    // Point samples at the bins' first distances, joined by lines, show at most max(v_b, v_b+1) over
    // bin b; the envelope's max is the true peak. Far out, where a bin holds many periods, some bin's
    // peak must stand well above both samples (by a tenth of the curve's range, at least).
    double env_lo = std::numeric_limits<double>::infinity(), env_hi = -env_lo, missed = 0.0;
    for (std::size_t b = 0; b + 2 < edges.size(); ++b) {
        const double v = logit_at_distance(s, query, edges[b]);
        const double next = logit_at_distance(s, query, edges[b + 1]);
        EXPECT_LE(env.min[b], v + tol(v));
        EXPECT_GE(env.max[b], v - tol(v));
        env_lo = std::min(env_lo, env.min[b]);
        env_hi = std::max(env_hi, env.max[b]);
        if (edges[b] >= 10000)
            missed = std::max(missed, env.max[b] - std::max(v, next));
    }
    std::printf("range %.4g, largest peak the samples miss %.4g\n", env_hi - env_lo, missed);
    EXPECT_GT(missed, 0.1 * (env_hi - env_lo));
    EXPECT_THROW(logit_at_distance(s, query, query + 1), ParameterError);
    EXPECT_THROW(logit_at_distance(s, s.seq_len, 0), ParameterError);
}

// With position-independent content a method's curve comes from its distance_logits (registry.h), a
// function of the distance alone for the relative methods, instead of rows of compute_matrix. Each value
// must still be the matrix cell (query, query - r): against logit_at_distance (a 1 x 1 window of
// compute_matrix) at the first and the last 40 distances of a 10^6-position curve, ones and fixed content,
// the envelope of a wide bin included. Tolerance 1e-12 max(1, |v|): the paths restart their recurrences
// (xPos's factors, the sinusoids of Transformer-XL and of the sinusoidal encoding) from exact angles at
// other offsets, ~1e-14 apart. M-RoPE's matrix rotates each key by the rounded product id·θ_i (rope.cpp)
// and its curve by the exact one (mrope_curve.cpp): there the tolerance adds that rounding's effect,
// 2^-53 query Σ_i θ_i |(A_i, B_i)| / sqrt(d) (mrope.h's A_i, B_i of the content). The methods that have the
// hook are listed, so that dropping one (and falling back to 16 matrix rows per curve) fails here.
TEST(LogitEnvelope, DistanceLogitsAreTheMatrixCells)
{
    std::vector<std::string> with_hook;
    for (const MethodDescriptor& d : methods()) {
        if (!d.distance_logits)
            continue;
        with_hook.emplace_back(d.method.id());
        for (const ContentKind content : {ContentKind::Ones, ContentKind::Fixed}) {
            Scenario s;
            s.method = d.method;
            s.seq_len = 1'000'000;
            s.content.kind = content;
            s.content.seed = 17;
            const std::string what =
                std::string(d.method.id()) + (content == ContentKind::Ones ? " ones" : " fixed");
            const std::int64_t query = s.seq_len - 1;
            double rounding = 0.0; // M-RoPE's rounded key angles, above
            if (d.method == kMRoPE) {
                const MropeParams& p = s.params<MropeParams>();
                const RopeFrequencies f = mrope_frequencies(p);
                const Eigen::VectorXd q = content_query(s.content, p.head_dim, query),
                                      k = content_key(s.content, p.head_dim, 0);
                const int h = p.head_dim / 2;
                for (int i = 0; i < h; ++i)
                    rounding +=
                        f.inv_freq[static_cast<std::size_t>(i)] *
                        std::hypot(q[i] * k[i] + q[i + h] * k[i + h], q[i] * k[i + h] - q[i + h] * k[i]);
                rounding *= 0x1p-53 * static_cast<double>(query) / std::sqrt(static_cast<double>(p.head_dim));
            }
            const auto tolerance = [&](double v) { return 1e-12 * std::max(1.0, std::abs(v)) + rounding; };
            const MethodDescriptor::DistanceLogitsFn f = d.distance_logits(s, query, Precision::Double);
            std::vector<double> near(40), far(40);
            f(0, 40, near.data());
            f(query - 39, query + 1, far.data());
            for (std::int64_t r = 0; r < 40; ++r) {
                const double a = logit_at_distance(s, query, r),
                             b = logit_at_distance(s, query, query - 39 + r);
                EXPECT_NEAR(near[static_cast<std::size_t>(r)], a, tolerance(a)) << what << " r=" << r;
                EXPECT_NEAR(far[static_cast<std::size_t>(r)], b, tolerance(b))
                    << what << " r=" << query - 39 + r;
            }
            // The envelope over [0, 10) and [query - 39, query + 1): extremes of those very values.
            const CurveEnvelope env = logit_curve_envelope(s, query, {0, 10, query - 39, query + 1});
            EXPECT_NEAR(env.min[0], *std::min_element(near.begin(), near.begin() + 10), tolerance(env.min[0]))
                << what;
            EXPECT_NEAR(env.max[0], *std::max_element(near.begin(), near.begin() + 10), tolerance(env.max[0]))
                << what;
            EXPECT_NEAR(env.min[2], *std::min_element(far.begin(), far.end()), tolerance(env.min[2])) << what;
            EXPECT_NEAR(env.max[2], *std::max_element(far.begin(), far.end()), tolerance(env.max[2])) << what;
        }
    }
    EXPECT_EQ(with_hook, (std::vector<std::string>{"sinusoidal", "shaw", "transformer-xl", "cope", "nope",
                                                   "xpos", "mrope"}));
}

// The scenario's sliding window, its chunks and Llama 4's temperature narrow and scale the rows of
// compute_matrix (attention_logits.cpp); the curves' fast paths (the methods' distance_logits, CoPE's
// stream) must give the same cells: NaN outside the window, the row times the query's temperature
// (modeling_llama4.py Llama4TextAttention.forward: log(floor((p + 1) / floor_scale) + 1) * attn_scale + 1).
TEST(LogitEnvelope, WindowAndTemperatureReachTheCurves)
{
    for (const char* id : {"nope", "sinusoidal", "cope", "rope", "mrope"})
        for (const LayerAttention window :
             {LayerAttention::Global, LayerAttention::Sliding, LayerAttention::Chunked}) {
            Scenario s;
            s.method = parse_method(id).value();
            s.seq_len = 300;
            s.causal = true;
            s.window = window;
            s.window_span = 64;
            s.attn_temperature_tuning = true;
            s.floor_scale = 100;
            s.attn_scale = 0.1;
            const std::string what = std::string(id) + " window " + std::string(window_id(window));
            const std::int64_t query = s.seq_len - 1;
            const std::vector<double> exact = exact_row(s, query);
            const std::vector<std::int64_t> edges = view_edges(query, 40);
            expect_envelope_exact(logit_curve_envelope(s, query, edges), edges, exact, what);
            // Inside every window the distance 0 is seen; beyond 63 the sliding window hides every key,
            // the chunk of 64 holding 299 starts at 256 (43 keys back).
            EXPECT_TRUE(std::isfinite(exact[0])) << what;
            const std::size_t hidden = window == LayerAttention::Sliding ? 64 : 44;
            if (window != LayerAttention::Global) {
                EXPECT_TRUE(std::isnan(exact[hidden])) << what;
            }
        }
    // NoPE's row is flat, so the temperature is the ratio of the last query's logit to the first's.
    Scenario s;
    s.method = parse_method("nope").value();
    s.seq_len = 300;
    s.causal = true;
    s.attn_temperature_tuning = true;
    s.floor_scale = 100;
    s.attn_scale = 0.1;
    const CurveEnvelope env = logit_curve_envelope(s, 299, {0, 1});
    EXPECT_NEAR(env.max[0] / logit_at_distance(s, 0, 0), 1.0 + 0.1 * std::log(4.0), 1e-12);
}

// The curves view's precision (Precision::Single): the sinusoidal logit curve of N = 10^5 (fixed
// content, 1200 log-spaced bins over every distance) within the bound SinusoidSum states for its
// weights, 36 * 2^-24 * sum_k |(ws_k, wc_k)| / sqrt(d) (the method divides by sqrt(d)), bin by bin
// against the double curve (the reference, itself the matrix cells: DistanceLogitsAreTheMatrixCells);
// and not bit-equal to it (the single kernel ran). Transformer-XL's curve goes through the same
// SinusoidSum: there, within 1e-5 of the curve's range. Methods without a float32 curve kernel give
// the double envelope bit for bit.
TEST(LogitEnvelope, SinglePrecisionCurvesWithinTheSinusoidBound)
{
    Scenario s;
    s.method = Method::Sinusoidal;
    s.seq_len = 100'000;
    s.content.kind = ContentKind::Fixed;
    s.content.seed = 5;
    const std::int64_t query = s.seq_len - 1;
    const SinusoidalParams& p = s.params<SinusoidalParams>();
    const Eigen::VectorXd a = content_query(s.content, p.dim, query) + sinusoidal_row(p, query);
    const SinusoidWeights sw = sinusoidal_weights(p, a);
    double modulus = 0.0;
    for (std::size_t k = 0; k < sw.w.size(); ++k)
        modulus += std::hypot(sw.ws[k], sw.wc[k]);
    const double bound = 36.0 * 0x1p-24 * modulus / std::sqrt(static_cast<double>(p.dim));
    const std::vector<std::int64_t> edges = view_edges(query, 1200);
    const CurveEnvelope exact = logit_curve_envelope(s, query, edges);
    const CurveEnvelope single = logit_curve_envelope(s, query, edges, {}, {}, Precision::Single);
    for (std::size_t b = 0; b < exact.min.size(); ++b) {
        ASSERT_NEAR(single.min[b], exact.min[b], bound) << "bin " << b;
        ASSERT_NEAR(single.max[b], exact.max[b], bound) << "bin " << b;
    }
    EXPECT_NE(single.max, exact.max);

    s.method = Method::TransformerXL;
    const CurveEnvelope txl = logit_curve_envelope(s, query, edges);
    const CurveEnvelope txl_single = logit_curve_envelope(s, query, edges, {}, {}, Precision::Single);
    const double range =
        *std::max_element(txl.max.begin(), txl.max.end()) - *std::min_element(txl.min.begin(), txl.min.end());
    for (std::size_t b = 0; b < txl.min.size(); ++b)
        ASSERT_NEAR(txl_single.max[b], txl.max[b], 1e-5 * range) << "bin " << b;
    EXPECT_NE(txl_single.max, txl.max);

    s.method = Method::Shaw;
    EXPECT_EQ(logit_curve_envelope(s, query, edges, {}, {}, Precision::Single).max,
              logit_curve_envelope(s, query, edges).max);
}
