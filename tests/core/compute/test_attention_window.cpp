// SPDX-License-Identifier: GPL-3.0-or-later
// The scenario's sliding window and chunks (Scenario::window, scenario/attention_span.h): the logits cells
// they hide are masked (NaN), exactly the cells that transformers masking_utils hides with
// sliding_window_overlay (kv_idx > q_idx - sliding_window) or chunked_overlay (kv_idx // chunk_size ==
// q_idx // chunk_size), each combined with causal_mask_function (kv_idx <= q_idx); the cells they keep are
// the unmasked logits bit for bit; the weights' softmax runs over the kept keys only. Tolerance 1e-12 for
// sums and ratios of a softmax of O(1) logits in double precision (a few roundings of 2^-53 each).
#include "compute/attention_logits.h"
#include "compute/attention_weights.h"
#include "io/model_layers.h"
#include "io/scenario_json.h"
#include "methods/registry.h"
#include "scenario/types.h"
#include "scenario/validation.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>

using namespace posatlas;

namespace {

// transformers masking_utils.py, written from its definitions: causal_mask_function and the overlays.
bool sliding_window_overlay_reference(std::int64_t q, std::int64_t k, std::int64_t w)
{
    return k <= q && k > q - w;
}

bool chunked_overlay_reference(std::int64_t q, std::int64_t k, std::int64_t c)
{
    return k <= q && k / c == q / c; // non-negative positions: // is integer division
}

Scenario windowed(Method m, LayerAttention a, std::int64_t size)
{
    Scenario s;
    s.method = m;
    s.seq_len = 37;
    s.content.kind = ContentKind::Random;
    s.content.seed = 11;
    common_field("window")->set(s, std::string(window_id(a)));
    common_field("window_span")->set(s, size);
    return s;
}

void expect_mask_is_reference(const Scenario& s, bool (*reference)(std::int64_t, std::int64_t, std::int64_t))
{
    const MatrixResult windowed_logits = compute_matrix(s, MatrixKind::Logits, {});
    Scenario causal_only = s;
    causal_only.window = LayerAttention::Global;
    const MatrixResult plain = compute_matrix(causal_only, MatrixKind::Logits, {});
    for (std::int64_t q = 0; q < s.seq_len; ++q)
        for (std::int64_t k = 0; k < s.seq_len; ++k) {
            const double v = windowed_logits.values(q, k);
            if (!reference(q, k, s.window_span)) {
                EXPECT_TRUE(std::isnan(v)) << s.method.id() << " q " << q << " k " << k;
                continue;
            }
            const double p = plain.values(q, k);
            if (std::isnan(p)) {
                EXPECT_TRUE(std::isnan(v)) << s.method.id() << " q " << q << " k " << k;
            } else {
                EXPECT_EQ(v, p) << s.method.id() << " q " << q << " k " << k; // the same cell, untouched
            }
        }
}

} // namespace

TEST(AttentionWindow, SlidingWindowMasksTheCellsOfTheSlidingWindowOverlay)
{
    const Scenario s = windowed(Method::RoPE, LayerAttention::Sliding, 5);
    EXPECT_TRUE(s.causal); // choosing a window turns the causal mask on
    expect_mask_is_reference(s, sliding_window_overlay_reference);
}

TEST(AttentionWindow, ChunksMaskTheCellsOfTheChunkedOverlay)
{
    expect_mask_is_reference(windowed(Method::RoPE, LayerAttention::Chunked, 8), chunked_overlay_reference);
}

TEST(AttentionWindow, EveryMethodsLogitsAreMaskedOutsideTheWindow)
{
    for (const MethodDescriptor& d : methods()) {
        if (!d.kind(MatrixKind::Logits))
            continue;
        expect_mask_is_reference(windowed(d.method, LayerAttention::Sliding, 4),
                                 sliding_window_overlay_reference);
        expect_mask_is_reference(windowed(d.method, LayerAttention::Chunked, 6), chunked_overlay_reference);
    }
}

TEST(AttentionWindow, WeightsSumToOneOverTheKeysTheWindowKeeps)
{
    for (const LayerAttention a : {LayerAttention::Sliding, LayerAttention::Chunked}) {
        const Scenario s = windowed(Method::RoPE, a, 6);
        const Eigen::MatrixXd w = compute_matrix(s, MatrixKind::Weights, {}).values;
        Scenario unmasked = s;
        common_field("causal")->set(unmasked, false);
        const Eigen::MatrixXd x = compute_matrix(unmasked, MatrixKind::Logits, {}).values;
        for (std::int64_t q = 0; q < s.seq_len; ++q) {
            // Reference: the softmax of the row's logits over the keys the mask keeps.
            double top = -INFINITY;
            for (std::int64_t k = 0; k < s.seq_len; ++k)
                if (span_allows(a, 6, q, k))
                    top = std::max(top, x(q, k));
            double denominator = 0.0;
            for (std::int64_t k = 0; k < s.seq_len; ++k)
                if (span_allows(a, 6, q, k))
                    denominator += std::exp(x(q, k) - top);
            double sum = 0.0;
            for (std::int64_t k = 0; k < s.seq_len; ++k) {
                if (!span_allows(a, 6, q, k)) {
                    EXPECT_EQ(w(q, k), 0.0) << "q " << q << " k " << k;
                    continue;
                }
                EXPECT_NEAR(w(q, k), std::exp(x(q, k) - top) / denominator, 1e-12) << "q " << q << " k " << k;
                sum += w(q, k);
            }
            EXPECT_NEAR(sum, 1.0, 1e-12) << "q " << q;
        }
    }
}

TEST(AttentionWindow, ScenarioMaskIsTheLayerMaskOfTheSameSpan)
{
    LayerAnatomy layer;
    for (const LayerAttention a :
         {LayerAttention::Global, LayerAttention::Sliding, LayerAttention::Chunked}) {
        layer.attention = a;
        layer.span = 7;
        Scenario s;
        s.causal = true;
        s.window = a;
        s.window_span = 7;
        for (std::int64_t q = 0; q < 30; ++q)
            for (std::int64_t k = 0; k < 30; ++k)
                EXPECT_EQ(mask_allows(s, q, k), layer_mask_allows(layer, q, k)) << "q " << q << " k " << k;
    }
}

TEST(AttentionWindow, DownsampledWindowedLogitsArePointSamples)
{
    Scenario s = windowed(Method::RoPE, LayerAttention::Sliding, 16);
    s.seq_len = 400;
    MatrixWindow view;
    view.out_rows = 100;
    view.out_cols = 100;
    const MatrixResult r = compute_matrix(s, MatrixKind::Logits, view);
    EXPECT_EQ(r.sampling, MatrixSampling::Point);
    for (Eigen::Index i = 0; i < r.rows(); ++i)
        for (Eigen::Index j = 0; j < r.cols(); ++j)
            EXPECT_EQ(std::isnan(r.at(i, j)),
                      !sliding_window_overlay_reference(r.row_index[static_cast<std::size_t>(i)],
                                                        r.col_index[static_cast<std::size_t>(j)], 16));
}

TEST(AttentionWindow, WindowSizeOutsideItsRangeIsRefusedNamingTheOption)
{
    Scenario s = windowed(Method::RoPE, LayerAttention::Sliding, 4);
    s.window_span = 0;
    try {
        validate(s);
        ADD_FAILURE() << "window_span 0 accepted";
    } catch (const ParameterError& e) {
        EXPECT_EQ(e.parameter(), "window_span");
        EXPECT_NE(std::string(e.what()).find("[1, 1e+07]"), std::string::npos) << e.what();
    }
}

TEST(AttentionWindow, WindowWithoutTheCausalMaskIsRefused)
{
    Scenario s = windowed(Method::RoPE, LayerAttention::Chunked, 4);
    s.causal = false; // set directly: the causal field's setter would clear the window
    try {
        validate(s);
        ADD_FAILURE() << "chunks without the causal mask accepted";
    } catch (const ParameterError& e) {
        EXPECT_EQ(e.parameter(), "causal");
        EXPECT_NE(std::string(e.what()).find("chunked"), std::string::npos) << e.what();
    }
    Scenario cleared = windowed(Method::RoPE, LayerAttention::Chunked, 4);
    common_field("causal")->set(cleared, false);
    EXPECT_EQ(cleared.window, LayerAttention::Global);
}

TEST(AttentionWindow, SessionKeepsTheWindowAndReadsOlderSessionsWithoutOne)
{
    const Scenario s = windowed(Method::RoPE, LayerAttention::Chunked, 9);
    const nlohmann::json j = scenario_to_json(s);
    EXPECT_EQ(j.at("window"), "chunked");
    EXPECT_EQ(j.at("window_span"), 9);
    const Scenario back = scenario_from_json(j);
    EXPECT_EQ(back.window, LayerAttention::Chunked);
    EXPECT_EQ(back.window_span, 9);
    EXPECT_TRUE(back.causal);
    // A session without the keys (written before they existed) reads as no window.
    nlohmann::json older = scenario_to_json(Scenario{});
    older.erase("window");
    older.erase("window_span");
    EXPECT_EQ(scenario_from_json(older).window, LayerAttention::Global);
}
