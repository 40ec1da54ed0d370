// SPDX-License-Identifier: GPL-3.0-or-later
// The descriptor hooks the GUI asks instead of comparing methods (registry.h): the curve families a method
// offers (methods/curve_family.h), the query its logit curve ends at, the rotary capability of the RoPE-only
// views, and the values a list field displays beside its sliders. References: RoFormer's long-term decay
// (Su et al. 2021 sec. 3.4.3: the mean cosine over pairs is 1 at r = 0), ALiBi's weight factor exp(-m r)
// (Press et al. 2022; slopes from alibi_scaled_slopes), T5Attention._relative_position_bucket (bucket 0 at
// r = 0) and DeBERTa's make_log_bucket_position (0 at r = 0). Exact comparisons unless a tolerance is given.
#include "methods/alibi/alibi.h"
#include "methods/curve_family.h"
#include "methods/learned/learned.h"
#include "methods/mla/mla.h"
#include "methods/registry.h"
#include "methods/rope/rope_scaling.h"
#include "methods/t5/t5_buckets.h"
#include "scenario/validation.h"
#include "weights_fixtures.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

using namespace posatlas;
using namespace posatlas::test;
namespace fs = std::filesystem;

namespace {

std::vector<double> every_integer(std::int64_t last)
{
    std::vector<double> d;
    for (std::int64_t r = 0; r <= last; ++r)
        d.push_back(static_cast<double>(r));
    return d;
}

// A causal T5 scenario reading a trained 32 x 8 bias table (T5-small's shape), entry (b, h) = b - h.
Scenario trained_t5()
{
    const fs::path p =
        fs::temp_directory_path() / ("posatlas_hooks_t5_" + std::to_string(::getpid()) + ".csv");
    std::ofstream out(p);
    for (int b = 0; b < 32; ++b)
        for (int h = 0; h < 8; ++h)
            out << (b - h) << (h + 1 < 8 ? "," : "\n");
    out.close();
    Scenario s;
    s.method = T5Params::kMethod;
    t5_use_trained_bias(s.params<T5Params>(), p.string());
    s.params<T5Params>().bidirectional = false; // causal: every head's curve drawn (8 series)
    return s;
}

void expect_well_formed(const FamilyCurves& c, const std::vector<double>& dist, const std::string& what)
{
    EXPECT_FALSE(c.title.empty()) << what;
    EXPECT_FALSE(c.y_label.empty()) << what;
    EXPECT_FALSE(c.y_column.empty()) << what;
    ASSERT_FALSE(c.series.empty()) << what;
    for (const FamilySeries& s : c.series) {
        EXPECT_FALSE(s.id.empty()) << what;
        EXPECT_FALSE(s.name.empty()) << what;
        ASSERT_EQ(s.x.size(), s.y.size()) << what << " " << s.id;
        if (!s.envelope) {
            EXPECT_EQ(s.x, dist) << what << " " << s.id; // one point per requested distance
        }
        for (std::size_t k = 0; k < s.y.size(); ++k)
            ASSERT_TRUE(std::isfinite(s.y[k])) << what << " " << s.id << " at " << s.x[k];
        // The crosshair's readout is the curve itself at every integer drawn (every integer requested).
        if (s.value_at && !s.envelope) {
            for (std::size_t k = 0; k < s.x.size(); ++k)
                ASSERT_NEAR(s.value_at(s.x[k]), s.y[k], 1e-12 * std::max(1.0, std::abs(s.y[k])))
                    << what << " " << s.id << " at " << s.x[k];
        }
    }
    for (const FamilyMarker& m : c.markers)
        EXPECT_FALSE(m.label.empty()) << what;
}

} // namespace

TEST(DescriptorHooks, EveryCurveFamilyGivesFiniteSeriesOfTheRequestedDistances)
{
    const std::vector<double> dist = every_integer(64);
    int families = 0;
    for (const MethodDescriptor& d : methods()) {
        for (const CurveFamily& f : d.curve_families) {
            Scenario s = d.method == T5Params::kMethod && f.id == "trained_bias" ? trained_t5() : Scenario{};
            s.method = d.method;
            validate(s);
            ASSERT_TRUE(!f.applies || f.applies(s)) << f.id;
            const FamilyCurves c = f.build({s, 64, dist, {}, {}});
            expect_well_formed(c, dist, std::string(d.method.id()) + "/" + f.id);
            ++families;
        }
    }
    // RoPE's decay, ALiBi's decay, T5's trained bias and buckets, DeBERTa's buckets, MLA's rotary share.
    EXPECT_EQ(families, 6);
}

TEST(DescriptorHooks, CurveFamiliesAreTheMethodsOwnAndTheFirstThatAppliesIsDrawn)
{
    Scenario s;
    s.method = T5Params::kMethod;
    ASSERT_NE(curve_family_for(s), nullptr);
    EXPECT_EQ(curve_family_for(s)->id, "buckets"); // seeded: the bucket function
    EXPECT_EQ(curve_family_for(trained_t5())->id, "trained_bias");
    s.method = LearnedParams::kMethod;
    EXPECT_EQ(curve_family_for(s), nullptr); // drawn as its logit against distance

    // Their values: RoPE's mean cosine is 1 at r = 0 (and the bound relative to bound(0) too); ALiBi's
    // first head decays as exp(-m r); T5's and DeBERTa's buckets are 0 at r = 0.
    const std::vector<double> dist = every_integer(16);
    Scenario rope;
    const FamilyCurves r = curve_family_for(rope)->build({rope, 16, dist, {}, {}});
    ASSERT_GE(r.series.size(), 2u);
    EXPECT_NEAR(r.series[0].y[0], 1.0, 1e-14); // bound(0) / bound(0)
    EXPECT_NEAR(r.series[1].y[0], 1.0, 1e-14); // the mean of cos 0 over the pairs
    Scenario alibi;
    alibi.method = AlibiParams::kMethod;
    const FamilyCurves a = curve_family_for(alibi)->build({alibi, 16, dist, {}, {}});
    const double m = alibi_scaled_slopes(alibi.params<AlibiParams>())[0];
    EXPECT_NEAR(a.series[0].y[5], std::exp(-m * 5.0), 1e-15); // both in [0, 1]: 1e-15 absolute
    Scenario t5;
    t5.method = T5Params::kMethod;
    EXPECT_EQ(curve_family_for(t5)->build({t5, 16, dist, {}, {}}).series[0].y[0], 0.0);
    // A trained table's head 3 reads table(bucket(-5), 3) = 5 - 3 (causal bucket 5 before the query).
    const Scenario trained = trained_t5();
    const FamilyCurves tb = curve_family_for(trained)->build({trained, 16, dist, {}, {}});
    const auto head3 = std::find_if(tb.series.begin(), tb.series.end(),
                                    [](const FamilySeries& f) { return f.id == "head_3_before"; });
    ASSERT_NE(head3, tb.series.end());
    EXPECT_EQ(head3->y[5], 2.0);
}

TEST(DescriptorHooks, ALearnedTableShorterThanTheSequenceEndsItsCurveAtItsLastRow)
{
    Scenario s;
    s.method = LearnedParams::kMethod;
    s.seq_len = 10;
    EXPECT_EQ(curve_last_query(s), 9);
    s.params<LearnedParams>().table_path = std::string(POSATLAS_TEST_DATA) + "/learned_4x3.csv"; // 4 rows
    EXPECT_EQ(curve_last_query(s), 3);
    s.method = AlibiParams::kMethod; // no table: the last position
    EXPECT_EQ(curve_last_query(s), 9);
}

TEST(DescriptorHooks, OnlyARotaryMethodOffersTheRotaryViewsAndTheyDrawItsOwnParameters)
{
    for (const MethodDescriptor& d : methods()) {
        Scenario s;
        s.method = d.method;
        const std::optional<RopeParams> rotary = rotary_params(s);
        EXPECT_EQ(rotary.has_value(), d.method == RopeParams::kMethod || d.method == MlaParams::kMethod)
            << d.method.id();
        EXPECT_EQ(is_rotary(d.method), rotary.has_value()) << d.method.id();
        if (rotary && d.method == RopeParams::kMethod) { // the scenario's own parameters, as they are now
            s.params<RopeParams>().rope_theta = 500000.0;
            ASSERT_TRUE(rotary_params(s).has_value());
            EXPECT_EQ(*rotary_params(s), s.params<RopeParams>());
            EXPECT_EQ(rotary_params(s)->rope_theta, 500000.0);
        }
    }
}

TEST(DescriptorHooks, MlaDrawsItsRotaryPartWithTheModelsSoftmaxMultiplier)
{
    // The rotary part of MLA (mla_rope_params) with DeepSeek's softmax multiplier, following edits.
    Scenario s;
    s.method = MlaParams::kMethod;
    const std::optional<RopeParams> rotary = rotary_params(s);
    ASSERT_TRUE(rotary.has_value());
    RopeParams want = mla_rope_params(s.params<MlaParams>());
    want.softmax_mscale = true; // DeepSeek-V3's defaults: YaRN with mscale_all_dim 1
    EXPECT_EQ(*rotary, want);
    // DeepseekV3Attention's rotary logit multiplier: get_mscale(40, 1)^2 = (0.1 ln 40 + 1)^2; 1e-15 relative.
    const double m = 0.1 * std::log(40.0) + 1.0;
    EXPECT_NEAR(compute_rope_frequencies(*rotary).logit_multiplier(), m * m, 1e-15 * m * m);
    s.params<MlaParams>().rope_theta = 50000.0;
    ASSERT_TRUE(rotary_params(s).has_value());
    EXPECT_EQ(rotary_params(s)->rope_theta, 50000.0);
    EXPECT_EQ(rotary->rope_theta, 10000.0); // the first pointer still holds the first parameters
}

TEST(DescriptorHooks, AlibiSlopesDisplayTheScaledValuesAndSayWhy)
{
    const Field* slopes = descriptor(AlibiParams::kMethod).field("slopes");
    ASSERT_TRUE(slopes && slopes->displayed_values);
    Scenario s;
    s.method = AlibiParams::kMethod;
    DisplayedValues v = slopes->displayed_values(s);
    EXPECT_EQ(v.values, alibi_scaled_slopes(s.params<AlibiParams>()));
    EXPECT_TRUE(v.reasons.empty()); // the paper's slopes: nothing to explain
    s.params<AlibiParams>().slope_scale = 2.0;
    s.params<AlibiParams>().scaling = AlibiScaling::Ntk;
    s.params<AlibiParams>().target_length = 4 * s.params<AlibiParams>().trained_length;
    v = slopes->displayed_values(s);
    EXPECT_EQ(v.values, alibi_scaled_slopes(s.params<AlibiParams>()));
    ASSERT_EQ(v.reasons.size(), 2u);
    EXPECT_STREQ(v.reasons[0].text, "NTK-ALiBi");
    ASSERT_EQ(v.reasons[1].args.size(), 1u);
    EXPECT_EQ(v.reasons[1].args[0].value, 2.0);
}

TEST(DescriptorHooks, LongRopeFactorsAreShownReadOnlyForLongRopeOnly)
{
    for (const char* key : {"short_factor", "long_factor"}) {
        const Field* f = descriptor(RopeParams::kMethod).field(key);
        ASSERT_NE(f, nullptr);
        EXPECT_TRUE(f->read_only_summary);
        EXPECT_FALSE(f->panel); // not edited in the panel
        Scenario s;
        ASSERT_TRUE(f->shown);
        EXPECT_FALSE(f->shown(s));
        s.params<RopeParams>().rope_type = RopeType::LongRope;
        EXPECT_TRUE(f->shown(s));
    }
}
