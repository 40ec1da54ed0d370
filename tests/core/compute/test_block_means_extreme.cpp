// SPDX-License-Identifier: GPL-3.0-or-later
// Exact block means at the edges of every method's parameter ranges, with and without each method's mask.
// Reference: brute force (tests/support/block_mean_reference.h): every cell of the window on the exact
// path, each block's finite cells summed in long double. Tolerance: 1e-9 of the block's own mean |cell|
// (plus 1e-270), so that a block of small cells beside large ones (xPos without its mask: 3 beside
// 1e13; ALiBi's steepest head: 1 beside 1e9) is held to its own digits. Long sequences are checked
// through windows (its last rows against its first columns, its first rows against its last columns, the
// diagonal at its end), each small enough for brute force but reaching offsets of the whole length.
#include "compute/attention_logits.h"
#include "methods/cope/cope_method.h"
#include "methods/nope/nope.h"
#include "methods/registry.h"
#include "methods/xpos/xpos.h"

#include "block_mean_reference.h"

#include <gtest/gtest.h>

#include <functional>
#include <ostream>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace {

using namespace posatlas;
using posatlas::test::expect_block_means_exact;

struct Extreme {
    std::string name;
    Scenario s;
    MatrixKind kind = MatrixKind::Logits;
    MatrixWindow w;
};

void PrintTo(const Extreme& e, std::ostream* os)
{
    *os << e.name;
}

MatrixWindow window(std::int64_t row0, std::int64_t rows, std::int64_t col0, std::int64_t cols, int out_rows,
                    int out_cols)
{
    MatrixWindow w;
    w.row0 = row0;
    w.rows = rows;
    w.col0 = col0;
    w.cols = cols;
    w.out_rows = out_rows;
    w.out_cols = out_cols;
    return w;
}

// The windows of a sequence of n positions: the whole of it into 8 x 8 and into uneven 61 x 47 blocks
// when brute force can take it (n <= 4096), else its last rows against its first columns, its first
// rows against its last columns and the diagonal at its end, in blocks that straddle the diagonal at
// every phase.
std::vector<std::pair<std::string, MatrixWindow>> windows_of(std::int64_t n)
{
    if (n <= 4096)
        return {{"whole8", window(0, 0, 0, 0, 8, 8)}, {"whole61x47", window(0, 0, 0, 0, 61, 47)}};
    return {{"below", window(n - 1200, 1200, 0, 1400, 9, 7)},
            {"above", window(0, 1200, n - 1400, 1400, 9, 7)},
            {"diagonal", window(n - 1500, 1500, n - 1700, 1700, 13, 11)}};
}

const std::pair<ContentKind, const char*> kConstant[] = {{ContentKind::Ones, "ones"},
                                                         {ContentKind::Fixed, "fixed"}};
const std::pair<ContentKind, const char*> kOnes[] = {{ContentKind::Ones, "ones"}};
const std::pair<ContentKind, const char*> kFixed[] = {{ContentKind::Fixed, "fixed"}};
const std::pair<ContentKind, const char*> kAny[] = {
    {ContentKind::Ones, "ones"}, {ContentKind::Fixed, "fixed"}, {ContentKind::Random, "random"}};

// One case per content kind and window: `set` chooses the method's parameters.
template <std::size_t N>
void add(std::vector<Extreme>& out, const std::string& name, Method m, std::int64_t n,
         const std::pair<ContentKind, const char*> (&contents)[N], const std::function<void(Scenario&)>& set,
         MatrixKind kind = MatrixKind::Logits,
         const std::vector<std::pair<std::string, MatrixWindow>>& wins = {})
{
    for (const auto& [content, cname] : contents)
        for (const auto& [wname, w] : wins.empty() ? windows_of(n) : wins) {
            Extreme e{name + "_" + cname + "_" + wname, Scenario{}, kind, w};
            e.s.method = m;
            e.s.seq_len = n;
            e.s.content.kind = content;
            e.s.content.seed = 17;
            set(e.s);
            out.push_back(std::move(e));
        }
}

std::vector<Extreme> extreme_cases()
{
    std::vector<Extreme> c;
    for (bool causal : {false, true}) {
        const std::string mask = causal ? "causal" : "nomask";
        // xPos: gamma small and head_dim large make the unmasked factors zeta^((i - j) / gamma) grow by
        // hundreds of orders of magnitude over the window (kept below double's overflow).
        const auto xpos = [&](double gamma, int d) {
            return [=](Scenario& s) {
                s.params<XposParams>().scale_base = gamma;
                s.params<XposParams>().head_dim = d;
                s.params<XposParams>().causal = causal;
            };
        };
        add(c, "xpos_" + mask + "_g64_d64", kXPos, 4096, kConstant, xpos(64, 64));
        add(c, "xpos_" + mask + "_g128_d128", kXPos, 4096, kConstant, xpos(128, 128));
        add(c, "xpos_" + mask + "_g1_d2", kXPos, 4096, kConstant, xpos(1, 2), MatrixKind::Logits,
            {{"near", window(500, 400, 450, 500, 7, 9)}});
        add(c, "xpos_" + mask + "_g4_d1024", kXPos, 4096, kConstant, xpos(4, 1024), MatrixKind::Logits,
            {{"near", window(1000, 1200, 900, 1400, 13, 11)}});
        add(c, "xpos_" + mask + "_g2_d8192", kXPos, 4096, kConstant, xpos(2, 8192), MatrixKind::Logits,
            {{"near", window(300, 500, 250, 600, 9, 8)}});
        add(c, "xpos_" + mask + "_g512_d128_n2e5", kXPos, 200'000, kConstant, xpos(512, 128));
        add(c, "xpos_" + mask + "_g1e5_d64_n1e6", kXPos, 1'000'000, kConstant, xpos(1e5, 64));

        // NoPE: the content term alone, its mask the only structure.
        const auto nope = [&](int d) {
            return [=](Scenario& s) {
                s.params<NopeParams>().head_dim = d;
                s.causal = causal;
            };
        };
        add(c, "nope_" + mask + "_d4096", kNoPE, 4096, kConstant, nope(4096));
        add(c, "nope_" + mask + "_n1e6", kNoPE, 1'000'000, kAny, nope(64));

        // ALiBi: the steepest slopes (1024 heads, slope scale 1000: -1e9 at 10^6) and the flattest, and the
        // slopes interpolated to a target length.
        const auto alibi = [&](int heads, double scale, AlibiScaling scaling, int head) {
            return [=](Scenario& s) {
                AlibiParams& p = s.params<AlibiParams>();
                p.num_heads = heads;
                p.slope_scale = scale;
                p.bias = causal ? AlibiBias::Causal : AlibiBias::Symmetric;
                p.scaling = scaling;
                p.target_length = 1'000'000;
                s.head = head;
            };
        };
        add(c, "alibi_" + mask + "_steep_n1e6", Method::ALiBi, 1'000'000, kAny,
            alibi(1024, 1e3, AlibiScaling::None, 0));
        add(c, "alibi_" + mask + "_flat_n1e6", Method::ALiBi, 1'000'000, kAny,
            alibi(1024, 1e-3, AlibiScaling::None, 1023));
        add(c, "alibi_" + mask + "_ntk_n1e6", Method::ALiBi, 1'000'000, kConstant,
            alibi(8, 1, AlibiScaling::Ntk, 7));
        add(c, "alibi_bias_" + mask + "_steep", Method::ALiBi, 1'000'000, kConstant,
            alibi(1024, 1e3, AlibiScaling::None, 0), MatrixKind::Bias);

        // T5: the fewest and the most buckets, max_distance at both ends of its range.
        const auto t5 = [&](int buckets, int max_distance) {
            return [=](Scenario& s) {
                T5Params& p = s.params<T5Params>();
                p.num_buckets = buckets;
                p.max_distance = max_distance;
                p.bidirectional = !causal;
            };
        };
        add(c, "t5_" + mask + "_b4_m3_n1e6", Method::T5, 1'000'000, kAny, t5(4, 3));
        add(c, "t5_" + mask + "_b4096_m1e9_n1e6", Method::T5, 1'000'000, kAny, t5(4096, 1'000'000'000));
        add(c, "t5_bias_" + mask + "_b32_m128_n1e6", Method::T5, 1'000'000, kConstant, t5(32, 128),
            MatrixKind::Bias);
    }

    // CoPE (causal by construction): one position embedding and sharp gates, the most embeddings and
    // gates that flip sign, in each of its block-mean kinds.
    const auto cope = [](int npos, double gate) {
        return [=](Scenario& s) {
            s.params<CopeParams>().npos_max = npos;
            s.params<CopeParams>().gate_scale = gate;
        };
    };
    for (MatrixKind kind : {MatrixKind::Logits, kCopePositions, kCopeGates}) {
        const std::string k = std::string("cope_") + std::string(matrix_kind_id(kind));
        add(c, k + "_npos1_gate100_n1e6", Method::CoPE, 1'000'000, kConstant, cope(1, 100), kind);
        add(c, k + "_npos1e4_gate-100_n1e6", Method::CoPE, 1'000'000, kConstant, cope(10'000, -100), kind);
        add(c, k + "_npos64_gate1", Method::CoPE, 4096, kConstant, cope(64, 1), kind);
    }

    // RoPE: the slowest and fastest bases, a single pair and the widest head, a long sequence.
    const auto rope = [](double theta, int d) {
        return [=](Scenario& s) {
            s.params<RopeParams>().rope_theta = theta;
            s.params<RopeParams>().head_dim = d;
        };
    };
    add(c, "rope_theta1e12_d2_n1e6", Method::RoPE, 1'000'000, kAny, rope(1e12, 2));
    add(c, "rope_theta2_d8192", Method::RoPE, 4096, kConstant, rope(2, 8192));
    add(c, "rope_theta5e5_d128_n1e6", Method::RoPE, 1'000'000, kAny, rope(5e5, 128));

    // Absolute and the other relative methods at long range.
    add(c, "sinusoidal_d2_base1e12_n1e6", Method::Sinusoidal, 1'000'000, kAny, [](Scenario& s) {
        s.params<SinusoidalParams>().dim = 2;
        s.params<SinusoidalParams>().base = 1e12;
    });
    add(c, "sinusoidal_d1024_n1e6", Method::Sinusoidal, 1'000'000, kAny,
        [](Scenario& s) { s.params<SinusoidalParams>().dim = 1024; });
    // The encodings themselves (columns are dimensions).
    add(c, "sinusoidal_encoding_d1024_n1e6", Method::Sinusoidal, 1'000'000, kOnes,
        [](Scenario& s) { s.params<SinusoidalParams>().dim = 1024; }, MatrixKind::Encoding,
        {{"end", window(1'000'000 - 1200, 1200, 0, 1024, 9, 7)}, {"start", window(0, 1200, 0, 1024, 9, 7)}});
    add(c, "learned_encoding_table1", Method::Learned, 4096, kOnes,
        [](Scenario& s) {
            s.params<LearnedParams>().dim = 16;
            s.params<LearnedParams>().trained_length = 1;
        },
        MatrixKind::Encoding, {{"whole", window(0, 0, 0, 0, 64, 5)}});
    add(c, "learned_table1_n4096", Method::Learned, 4096, kAny, [](Scenario& s) {
        s.params<LearnedParams>().dim = 16;
        s.params<LearnedParams>().trained_length = 1;
    });
    add(c, "shaw_k1_n1e6", Method::Shaw, 1'000'000, kConstant, [](Scenario& s) {
        s.params<ShawParams>().head_dim = 16;
        s.params<ShawParams>().max_relative_position = 1;
    });
    add(c, "shaw_k5000_n1e6", Method::Shaw, 1'000'000, kFixed, [](Scenario& s) {
        s.params<ShawParams>().head_dim = 16;
        s.params<ShawParams>().max_relative_position = 5000;
    });
    add(c, "txl_n1e6", Method::TransformerXL, 1'000'000, kAny,
        [](Scenario& s) { s.params<TransformerXLParams>().head_dim = 16; });
    add(c, "deberta_nobuckets_k2_n1e6", Method::DeBERTa, 1'000'000, kConstant, [](Scenario& s) {
        s.params<DebertaParams>().head_dim = 16;
        s.params<DebertaParams>().position_buckets = -1;
        s.params<DebertaParams>().max_relative_positions = 2;
    });
    add(c, "deberta_b65536_k1e9_n1e6", Method::DeBERTa, 1'000'000, kConstant, [](Scenario& s) {
        s.params<DebertaParams>().head_dim = 16;
        s.params<DebertaParams>().position_buckets = 65536;
        s.params<DebertaParams>().max_relative_positions = 1'000'000'000;
    });
    return c;
}

class ExtremeBlockMeans : public ::testing::TestWithParam<Extreme>
{
};

TEST_P(ExtremeBlockMeans, EqualBruteForceRelativeToEachBlock)
{
    const Extreme& e = GetParam();
    ASSERT_TRUE(block_mean_supported(e.s, e.kind)) << e.name;
    expect_block_means_exact(e.s, e.kind, e.w, e.name);
}

INSTANTIATE_TEST_SUITE_P(EveryMethod, ExtremeBlockMeans, ::testing::ValuesIn(extreme_cases()),
                         [](const ::testing::TestParamInfo<Extreme>& info) {
                             std::string n = info.param.name;
                             for (char& ch : n)
                                 if (!std::isalnum(static_cast<unsigned char>(ch)))
                                     ch = '_';
                             return n;
                         });

// Every method of the registry, and every kind of it that claims exact block means, is among the cases
// above; so is each mask a method has, on and off.
TEST(ExtremeBlockMeans, EveryMethodAndKindIsCovered)
{
    std::set<std::pair<std::string, std::string>> covered;
    for (const Extreme& e : extreme_cases())
        covered.insert({std::string(method_id(e.s.method)), std::string(matrix_kind_id(e.kind))});
    for (const MethodDescriptor& d : methods())
        for (const MatrixKindSpec& k : d.kinds) {
            Scenario s;
            s.method = d.method;
            s.content.kind = ContentKind::Ones;
            if (k.block_means && k.block_means(s)) {
                EXPECT_TRUE(
                    covered.count({std::string(method_id(d.method)), std::string(matrix_kind_id(k.kind))}))
                    << method_id(d.method) << " " << matrix_kind_id(k.kind);
            }
        }
    for (const char* prefix : {"xpos_causal", "xpos_nomask", "nope_causal", "nope_nomask", "alibi_causal",
                               "alibi_nomask", "t5_causal", "t5_nomask"}) {
        bool found = false;
        for (const Extreme& e : extreme_cases())
            found = found || e.name.rfind(prefix, 0) == 0;
        EXPECT_TRUE(found) << prefix;
    }
}

} // namespace
