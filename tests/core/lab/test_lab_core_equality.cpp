// SPDX-License-Identifier: GPL-3.0-or-later
// The lab's model uses core's definitions, not a copy: for every encoding, one layer's per-head queries and
// keys (before the positional step), handed to compute_matrix as the scenario's queries and keys files, give
// core logits equal to the model's pre-softmax scores. Tolerance: the model computes in float32, core in
// double from the same float32 queries and keys; the difference is float32 rounding of the products and
// sums, bounded here by 2e-5 (1 + |logit|) (scores are O(1..10), d_head = 8; observed below 2e-6).
// References: compute/attention_logits.h's logit definitions; HF modeling_llama apply_rotary_pos_emb (RoPE,
// Half), HF _compute_longrope_parameters (LongRoPE at test time), Press et al. get_slopes (ALiBi), HF
// T5Attention._relative_position_bucket, torchscale XPOS, the CoPE listing of Golovneva et al. 2024, Shaw et
// al. 2018 eq. 4 (core's shaw_logit, the model's a^K), Transformer-XL's RelPartialLearnableMultiHeadAttn
// (core's txl_logit_terms / sqrt(d), the model's r_net, r_w_bias, r_r_bias per head) and HF DebertaV2
// DisentangledSelfAttention (core's deberta_logit_terms, the model's rel_embeddings and projections).
#include "lab_fixtures.h"

#include "compute/attention_logits.h"
#include "io/safetensors_write.h"
#include "lab/lab.h"
#include "methods/rope/rope_scaling.h"
#include "scenario/content_file.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

namespace posatlas::lab {
namespace {

struct Case {
    std::string name;
    std::string method;
    RopePairing pairing = RopePairing::Half;
    double partial = 1.0;
    TestScaling scaling;
    std::int64_t probe_len = 20; // past the trained 12
};

void PrintTo(const Case& c, std::ostream* os)
{
    *os << c.name;
}

class CoreEquality : public ::testing::TestWithParam<Case>
{
};

void write_head(const std::string& path, const HeadProbe& h)
{
    const auto tensor = [](const char* name, const Eigen::MatrixXf& m) {
        Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> r = m;
        return SafetensorsF32{name, {r.rows(), r.cols()}, std::vector<float>(r.data(), r.data() + r.size())};
    };
    write_safetensors(path, {tensor("q", h.queries), tensor("k", h.keys)});
}

TEST_P(CoreEquality, CoreLogitsAreTheModelsScores)
{
    const Case& k = GetParam();
    LabConfig c = testing::tiny(k.method);
    c.layers = 2;
    c.rope_pairing = k.pairing;
    c.partial_rotary_factor = k.partial;
    if (k.method == "learned")
        c.max_positions = k.probe_len;
    const std::string dir = testing::fresh_dir("eq-" + k.name);
    ASSERT_TRUE(train_run(c, dir, "test").complete);
    std::vector<std::int64_t> tokens;
    for (std::int64_t t = 0; t < k.probe_len; ++t)
        tokens.push_back(kFirstLetter + (t * 5 + 1) % c.alphabet);
    const std::string weights = dir + "/model.safetensors";
    for (int layer = 0; layer < c.layers; ++layer) {
        const std::vector<HeadProbe> heads = probe_attention(dir, tokens, layer, k.scaling);
        ASSERT_EQ(heads.size(), 2u);
        for (int h = 0; h < c.heads; ++h) {
            const std::string qk = dir + "/qk" + std::to_string(layer) + std::to_string(h) + ".safetensors";
            write_head(qk, heads[h]);
            Scenario s = core_scenario(c, k.probe_len, h, k.scaling, weights, layer);
            s.content.queries = {qk, "q", nullptr};
            s.content.keys = {qk, "k", nullptr};
            const MatrixResult r = compute_matrix(s, MatrixKind::Logits, {});
            ASSERT_EQ(r.rows(), k.probe_len);
            int compared = 0;
            for (std::int64_t i = 0; i < k.probe_len; ++i)
                for (std::int64_t j = 0; j <= i; ++j) {
                    const double model = heads[h].scores(i, j), core = r.at(i, j);
                    ASSERT_TRUE(std::isfinite(core)) << i << "," << j;
                    EXPECT_NEAR(model, core, 2e-5 * (1 + std::fabs(core)))
                        << k.name << " layer " << layer << " head " << h << " (" << i << ", " << j << ")";
                    ++compared;
                }
            EXPECT_EQ(compared, k.probe_len * (k.probe_len + 1) / 2);
        }
    }
    // The absolute encodings live in the embedding: their table is core's Encoding of the same method.
    if (k.method == "sinusoidal" || k.method == "learned") {
        const MatrixResult e =
            compute_matrix(absolute_scenario(c, k.probe_len, weights), MatrixKind::Encoding, {});
        EXPECT_EQ(e.rows(), k.probe_len);
        EXPECT_EQ(e.cols(), c.d_model);
    }
    clear_content_file_cache();
    std::filesystem::remove_all(dir);
}

TestScaling yarn()
{
    TestScaling s;
    s.rope_type = RopeType::Yarn;
    s.factor = 4;
    return s;
}
// LongRoPE at test time (core's longrope: HF _compute_longrope_parameters, Phi-3's
// Phi3LongRoPEScaledRotaryEmbedding): four rotary pairs (head_dim 8); the long factors past the trained
// 12 positions, the short ones within them.
TestScaling longrope()
{
    TestScaling s;
    s.rope_type = RopeType::LongRope;
    s.factor = 4;
    s.long_factor = {1.0, 1.5, 3.0, 6.0};
    s.short_factor = {1.0, 1.1, 1.2, 1.4};
    return s;
}
TestScaling ntk_alibi()
{
    TestScaling s;
    s.alibi = AlibiScaling::Ntk;
    return s;
}

// The lab hands core the switch of Phi3LongRoPEScaledRotaryEmbedding: a sequence longer than the trained
// length gets the long factors, one within it the short ones (empty: all 1). Reference: HF
// _compute_longrope_parameters, inv_freq = 1 / (ext_factors * base^(2i/d)), attention factor
// sqrt(1 + ln(factor) / ln(original_max_position_embeddings)); tolerance 1e-12 relative (double).
TEST(LabLongRope, LongFactorsPastTheTrainedLengthShortOnesWithin)
{
    const LabConfig c = testing::tiny("rope"); // head_dim 8: four pairs, trained length 12
    TestScaling s = longrope();
    for (const std::int64_t length : {std::int64_t{10}, std::int64_t{12}, std::int64_t{20}}) {
        const RopeFrequencies f = compute_rope_frequencies(rope_params(c, length, s));
        const std::vector<double>& ext = length > c.train_len ? s.long_factor : s.short_factor;
        ASSERT_EQ(f.pairs(), 4);
        for (int i = 0; i < 4; ++i) {
            const double expected = 1.0 / (ext[i] * std::pow(c.rope_theta, 2.0 * i / 8));
            EXPECT_NEAR(f.inv_freq[i], expected, 1e-12 * expected) << "length " << length << " pair " << i;
        }
        EXPECT_NEAR(f.attention_factor, std::sqrt(1.0 + std::log(4.0) / std::log(12.0)), 1e-12);
    }
    s.short_factor.clear();
    const RopeFrequencies within = compute_rope_frequencies(rope_params(c, 12, s));
    const RopeFrequencies plain = compute_rope_frequencies(rope_params(c, 12, {}));
    for (int i = 0; i < 4; ++i)
        EXPECT_DOUBLE_EQ(within.inv_freq[i], plain.inv_freq[i]) << i;
}

// Dynamic NTK grows the base as soon as the sequence passes the length the model was trained at. Reference:
// HF _compute_dynamic_ntk_parameters, base * ((factor * seq_len / max_position_embeddings) - (factor - 1))
// ^ (d / (d - 2)) with max_position_embeddings the trained length (the lab's train_len), seq_len the
// sequence's length; the trained base at or below it. Tolerance 1e-12 relative (double).
TEST(LabDynamicNtk, BaseGrowsFromTheTrainedLengthOn)
{
    const LabConfig c = testing::tiny("rope"); // head_dim 8, trained length 12
    TestScaling s;
    s.rope_type = RopeType::Dynamic;
    s.factor = 4.0;
    for (const std::int64_t length :
         {std::int64_t{8}, std::int64_t{12}, std::int64_t{13}, std::int64_t{48}}) {
        const RopeFrequencies f = compute_rope_frequencies(rope_params(c, length, s));
        const double len = static_cast<double>(std::max(length, c.train_len));
        const double expected =
            c.rope_theta * std::pow(4.0 * len / static_cast<double>(c.train_len) - 3.0, 8.0 / 6.0);
        EXPECT_NEAR(f.base_used, expected, 1e-12 * expected) << "length " << length;
    }
}

INSTANTIATE_TEST_SUITE_P(
    Lab, CoreEquality,
    ::testing::Values(Case{"nope", "nope"}, Case{"sinusoidal", "sinusoidal"}, Case{"learned", "learned"},
                      Case{"t5", "t5"}, Case{"alibi", "alibi"},
                      Case{"alibi_ntk_at_test", "alibi", {}, 1.0, ntk_alibi()}, Case{"rope_half", "rope"},
                      Case{"rope_interleaved", "rope", RopePairing::Interleaved},
                      Case{"rope_partial_half", "rope", RopePairing::Half, 0.5},
                      Case{"rope_yarn_at_test", "rope", RopePairing::Half, 1.0, yarn()},
                      Case{"rope_longrope_long_at_test", "rope", RopePairing::Half, 1.0, longrope()},
                      Case{"rope_longrope_short_at_test", "rope", RopePairing::Half, 1.0, longrope(), 10},
                      Case{"xpos", "xpos"}, Case{"cope", "cope"}, Case{"shaw", "shaw"},
                      Case{"transformer_xl", "transformer-xl"}, Case{"deberta", "deberta"}),
    [](const ::testing::TestParamInfo<Case>& i) { return i.param.name; });

} // namespace
} // namespace posatlas::lab
