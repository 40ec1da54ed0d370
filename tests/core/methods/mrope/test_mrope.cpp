// SPDX-License-Identifier: GPL-3.0-or-later
// M-RoPE against values derived by hand from Hugging Face transformers (4.5x): Qwen2VLModel.get_rope_index,
// Qwen2_5_VLModel.get_rope_index (time ids frame * int(second_per_grid_t) * tokens_per_second),
// Qwen3VLModel.get_rope_index (video_grid_thw repeated per frame with t = 1),
// apply_multimodal_rotary_pos_emb (chunked sections) and Qwen3VLTextRotaryEmbedding.apply_interleaved_mrope.
#include "compute/attention_logits.h"
#include "io/mrope_columns.h"
#include "methods/mrope/mrope.h"
#include "methods/registry.h"
#include "scenario/content.h"
#include "scenario/validation.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <string>
#include <vector>

using namespace posatlas;

namespace {

using Ids = std::array<std::int64_t, 3>;

MropeParams params(const std::string& layout, MropeVariant v = MropeVariant::Qwen2VL)
{
    MropeParams p;
    p.layout = layout;
    p.variant = v;
    return p;
}

std::vector<Ids> ids(const MropeParams& p, std::int64_t n)
{
    const MropePositions positions(p);
    std::vector<Ids> out;
    for (std::int64_t i = 0; i < n; ++i) {
        const MropePosition at = positions.at(i);
        out.push_back({at.t, at.h, at.w});
    }
    return out;
}

Ids text(std::int64_t v)
{
    return {v, v, v};
}

std::string expect_parameter_error(const MropeParams& p)
{
    try {
        parse_mrope_layout(p);
    } catch (const ParameterError& e) {
        return e.what();
    }
    ADD_FAILURE() << "no ParameterError for " << p.layout;
    return "";
}

} // namespace

// get_rope_index (Qwen2-VL), spatial_merge_size 2: text 0..2; the image's grid_thw 1x4x6 is 1x2x3 tokens
// at (t, row, col) + 3; the text after it starts at the image's largest id (3 + 2) + 1.
TEST(Mrope, TextImageText)
{
    const MropeParams p = params("text:3,image:1x4x6,text:2");
    EXPECT_EQ(MropePositions(p).layout_tokens(), 11);
    const std::vector<Ids> expected{text(0),   text(1),   text(2),   {3, 3, 3}, {3, 3, 4}, {3, 3, 5},
                                    {3, 4, 3}, {3, 4, 4}, {3, 4, 5}, text(6),   text(7),   text(8)};
    EXPECT_EQ(ids(p, 12), expected); // token 11 is past the layout: text continues
    EXPECT_EQ(MropePositions(p).at(11).kind, MropeTokenKind::Text);
    EXPECT_EQ(MropePositions(p).at(4).kind, MropeTokenKind::Image);
}

// Two images with no text between: the second starts after the first's largest id; its two frames have
// t = 0, 1 (Qwen2-VL's frame index).
TEST(Mrope, TwoImages)
{
    const MropeParams p = params("text:2,image:1x4x4,image:2x2x4,text:1");
    const std::vector<Ids> expected{text(0),   text(1),   {2, 2, 2}, {2, 2, 3}, {2, 3, 2}, {2, 3, 3},
                                    {4, 4, 4}, {4, 4, 5}, {5, 4, 4}, {5, 4, 5}, text(6)};
    EXPECT_EQ(ids(p, 11), expected);
}

// Qwen2.5-VL: t id = frame * int(second_per_grid_t) * tokens_per_second; 0 for an image whatever its t.
TEST(Mrope, Qwen25TimeAlignment)
{
    MropeParams p = params("text:1,video:4x2x2,text:1", MropeVariant::Qwen25VL);
    p.tokens_per_second = 2;
    p.second_per_grid_t = 1.0;
    EXPECT_EQ(ids(p, 6), (std::vector<Ids>{text(0), {1, 1, 1}, {3, 1, 1}, {5, 1, 1}, {7, 1, 1}, text(8)}));
    // 2.5 s per grid counts as 2 (the reference casts to the frame range's integer dtype): step 4.
    p.layout = "text:1,video:3x2x2@2.5,text:1";
    EXPECT_EQ(ids(p, 5), (std::vector<Ids>{text(0), {1, 1, 1}, {5, 1, 1}, {9, 1, 1}, text(10)}));
    // 0.5 s counts as 0: every frame at t = 1, the text right after the grid.
    p.layout = "text:1,video:3x2x2@0.5,text:1";
    EXPECT_EQ(ids(p, 5), (std::vector<Ids>{text(0), {1, 1, 1}, {1, 1, 1}, {1, 1, 1}, text(2)}));
    // An image: second_per_grid_t = 0.
    p.layout = "image:2x2x4";
    EXPECT_EQ(ids(p, 5), (std::vector<Ids>{{0, 0, 0}, {0, 0, 1}, {0, 0, 0}, {0, 0, 1}, text(2)}));
    EXPECT_EQ(mrope_time_step(1.9, 2), 2);
}

// A video grid 3x4x2 (3 frames of 2 x 1 tokens): Qwen2-VL numbers the frames 0, 1, 2 inside one grid;
// Qwen3-VL splits it into three one-frame grids, each after the previous one's largest id.
TEST(Mrope, VideoGrid)
{
    const std::string layout = "text:1,video:3x4x2,text:1";
    EXPECT_EQ(ids(params(layout), 8),
              (std::vector<Ids>{
                  text(0), {1, 1, 1}, {1, 2, 1}, {2, 1, 1}, {2, 2, 1}, {3, 1, 1}, {3, 2, 1}, text(4)}));
    EXPECT_EQ(ids(params(layout, MropeVariant::Qwen3VL), 8),
              (std::vector<Ids>{
                  text(0), {1, 1, 1}, {1, 2, 1}, {3, 3, 3}, {3, 4, 3}, {5, 5, 5}, {5, 6, 5}, text(7)}));
    EXPECT_EQ(MropePositions(params(layout)).at(3).kind, MropeTokenKind::Video);
}

// apply_multimodal_rotary_pos_emb with mrope_section [16, 24, 24] (head_dim 128): pairs 0-15 t, 16-39 h,
// 40-63 w. apply_interleaved_mrope with [24, 20, 20]: h at i % 3 = 1, w at i % 3 = 2 below 60, t elsewhere.
TEST(Mrope, PairAxes)
{
    MropeParams p;
    // No sections given: the published splits at head_dim 128, scaled to other heads (12 pairs: h = w =
    // floor(12 * 3 / 8) = 4 chunked, floor(12 * 20 / 64) = 3 interleaved).
    EXPECT_EQ(mrope_sections(p), (std::vector<int>{16, 24, 24}));
    MropeParams q3;
    q3.variant = MropeVariant::Qwen3VL;
    EXPECT_EQ(mrope_sections(q3), (std::vector<int>{24, 20, 20}));
    p.head_dim = q3.head_dim = 24;
    EXPECT_EQ(mrope_sections(p), (std::vector<int>{4, 4, 4}));
    EXPECT_EQ(mrope_sections(q3), (std::vector<int>{6, 3, 3}));
    p.head_dim = 128;
    const std::vector<int> chunked = mrope_pair_axes(p);
    ASSERT_EQ(chunked.size(), 64u);
    for (int i = 0; i < 64; ++i)
        EXPECT_EQ(chunked[static_cast<std::size_t>(i)], i < 16 ? 0 : i < 40 ? 1 : 2) << i;
    p.variant = MropeVariant::Qwen3VL;
    p.mrope_section = {24, 20, 20};
    const std::vector<int> inter = mrope_pair_axes(p);
    const std::vector<int> head{0, 1, 2, 0, 1, 2};
    for (int i = 0; i < 6; ++i)
        EXPECT_EQ(inter[static_cast<std::size_t>(i)], head[static_cast<std::size_t>(i)]);
    for (int i : {57, 60, 61, 62, 63})
        EXPECT_EQ(inter[static_cast<std::size_t>(i)], 0) << i;
    EXPECT_EQ(inter[58], 1);
    EXPECT_EQ(inter[59], 2);
    int count[3] = {0, 0, 0};
    for (int a : inter)
        ++count[a];
    EXPECT_EQ(count[0], 24);
    EXPECT_EQ(count[1], 20);
    EXPECT_EQ(count[2], 20);
}

namespace {

Scenario mrope_scenario(const std::string& layout, MropeVariant v, std::int64_t n)
{
    Scenario s;
    s.method = kMRoPE;
    s.seq_len = n;
    s.content.kind = ContentKind::Random;
    s.content.seed = 11;
    MropeParams& p = s.params<MropeParams>();
    p = params(layout, v);
    p.head_dim = 24;
    p.rope_theta = 10000.0;
    p.mrope_section =
        v == MropeVariant::Qwen3VL ? std::vector<double>{4, 4, 4} : std::vector<double>{2, 5, 5};
    return s;
}

// The direct evaluation: q and k rotated by their own (t, h, w), each pair (i, i + d/2) by the id of its axis
// times rope_theta^(-2i/d), written from the formulas and hand-derived ids.
Eigen::VectorXd rotate(const Eigen::VectorXd& x, const Ids& id, const std::vector<int>& axis, double theta)
{
    const auto d = x.size(), half = d / 2;
    Eigen::VectorXd out = x;
    for (Eigen::Index i = 0; i < half; ++i) {
        const double angle =
            static_cast<double>(id[static_cast<std::size_t>(axis[static_cast<std::size_t>(i)])]) *
            std::pow(theta, -2.0 * static_cast<double>(i) / static_cast<double>(d));
        out[i] = x[i] * std::cos(angle) - x[i + half] * std::sin(angle);
        out[i + half] = x[i + half] * std::cos(angle) + x[i] * std::sin(angle);
    }
    return out;
}

} // namespace

TEST(Mrope, LogitsEqualDirectRotation)
{
    for (const MropeVariant v : {MropeVariant::Qwen2VL, MropeVariant::Qwen25VL, MropeVariant::Qwen3VL}) {
        const Scenario s = mrope_scenario("text:3,image:1x4x6,video:2x2x4,text:2", v, 20);
        const MropeParams& p = s.params<MropeParams>();
        const std::vector<Ids> id = ids(p, s.seq_len);
        // The axes written out from the two reference functions for 12 pairs, not taken from the code under
        // test: chunked [2, 5, 5] (apply_multimodal_rotary_pos_emb), interleaved [4, 4, 4]
        // (apply_interleaved_mrope).
        const std::vector<int> axis = v == MropeVariant::Qwen3VL
                                          ? std::vector<int>{0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2}
                                          : std::vector<int>{0, 0, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2};
        const MatrixResult r = compute_matrix(s, MatrixKind::Logits, {});
        // Tolerance 1e-12 absolute: |q|, |k| ~ 5 (d 24, N(0, 1)), so logits of order 5; the two evaluations
        // differ in the rounding of θ_i and of the sums only.
        for (std::int64_t i = 0; i < s.seq_len; ++i)
            for (std::int64_t j = 0; j < s.seq_len; ++j) {
                const double expected =
                    rotate(content_query(s.content, 24, i), id[static_cast<std::size_t>(i)], axis, 1e4)
                        .dot(rotate(content_key(s.content, 24, j), id[static_cast<std::size_t>(j)], axis,
                                    1e4)) /
                    std::sqrt(24.0);
                ASSERT_NEAR(r.values(i, j), expected, 1e-12) << mrope_variant_id(v) << " " << i << ", " << j;
            }
    }
}

// Text alone: three equal ids, every pair at the token's index, so the logits are 1D RoPE's (half pairing,
// same θ and d) bit for bit: the same rotation code and the same product.
TEST(Mrope, TextOnlyIsRope)
{
    for (const MropeVariant v : {MropeVariant::Qwen2VL, MropeVariant::Qwen3VL}) {
        const Scenario m = mrope_scenario("text:40", v, 40);
        Scenario r = m;
        r.method = Method::RoPE;
        r.params<RopeParams>().head_dim = 24;
        r.params<RopeParams>().rope_theta = 10000.0;
        r.params<RopeParams>().pairing = RopePairing::Half;
        const MatrixResult a = compute_matrix(m, MatrixKind::Logits, {});
        const MatrixResult b = compute_matrix(r, MatrixKind::Logits, {});
        ASSERT_EQ(a.values.rows(), b.values.rows());
        for (Eigen::Index i = 0; i < a.values.size(); ++i)
            ASSERT_EQ(a.values.data()[i], b.values.data()[i]) << i;
    }
}

TEST(Mrope, RefusesBadLayouts)
{
    for (const std::string bad : {"", "text", "text:0", "text:-2", "text:1.5", "image:1x4", "image:1x3x4",
                                  "image:1x4x4@2", "video:1x4x4@x", "audio:3", "text:3,,text:2",
                                  "video:1000000x1000000x1000000", "text:9000000,text:2000000"}) {
        const std::string what = expect_parameter_error(params(bad));
        EXPECT_NE(what.find("token_layout"), std::string::npos) << bad << ": " << what;
        EXPECT_NE(what.find("text:N"), std::string::npos) << bad << ": " << what;
    }
    // The message names the merge size the grid must divide by.
    EXPECT_NE(expect_parameter_error(params("image:1x3x4")).find("spatial_merge_size 2"), std::string::npos);
    // Through validation: the scenario names the field.
    Scenario s = mrope_scenario("text:2,image:1x5x4", MropeVariant::Qwen2VL, 8);
    EXPECT_THROW(validate(s), ParameterError);
}

TEST(Mrope, RefusesSectionsThatDoNotFillTheHead)
{
    Scenario s = mrope_scenario("text:4", MropeVariant::Qwen2VL, 4);
    s.params<MropeParams>().mrope_section = {2, 5, 4}; // 11 pairs, head_dim 24 has 12
    try {
        validate(s);
        FAIL() << "no error";
    } catch (const ParameterError& e) {
        EXPECT_NE(std::string(e.what()).find("mrope_section"), std::string::npos) << e.what();
    }
    s.params<MropeParams>().mrope_section = {2, 5};
    EXPECT_THROW(validate(s), ParameterError);
    // Interleaved sections need not sum to d/2 (apply_interleaved_mrope only reads s_h and s_w).
    s.params<MropeParams>().variant = MropeVariant::Qwen3VL;
    s.params<MropeParams>().mrope_section = {2, 3, 3};
    EXPECT_NO_THROW(validate(s));
}

// The panel's read-only summary shows the sections in effect: the variant's split while the list is empty.
TEST(Mrope, SectionsInEffectAreDisplayed)
{
    const Field* f = descriptor(kMRoPE).field("mrope_section");
    ASSERT_TRUE(f && f->displayed_values && f->read_only_summary);
    Scenario s;
    s.method = kMRoPE;
    EXPECT_EQ(f->displayed_values(s).values, (std::vector<double>{16, 24, 24}));
    s.params<MropeParams>().mrope_section = {32, 16, 16};
    EXPECT_EQ(f->displayed_values(s).values, (std::vector<double>{32, 16, 16}));
}

TEST(Mrope, LayoutSetsTheLength)
{
    Scenario s;
    s.method = kMRoPE;
    s.params<MropeParams>().layout = "text:5,image:1x4x6,text:3";
    const Field* f = descriptor(kMRoPE).field("token_layout");
    ASSERT_TRUE(f && f->companion);
    EXPECT_EQ(f->companion(s), "seq_len");
    EXPECT_EQ(s.seq_len, 14);
}

// The curve's fast path (mrope_distance_logits, the descriptor's distance_logits): with position-independent
// content each value must be the matrix cell (query, query - r) of compute_matrix, for text keys (one
// sinusoid sum over their ids) and for image and video keys (per-axis tables), with the query on text, on an
// image patch and on a video frame, in every variant (Qwen2.5-VL's video with a time step of 2 · 2 = 4 ids
// per frame). Tolerance 1e-12 max(1, |v|): 300 positions, so the rounding of id·θ_i in the matrix's
// rotation is below 300 · 2^-53 per pair; the sums restart from exact angles.
TEST(Mrope, CurveEqualsTheMatrixCells)
{
    for (const MropeVariant v : {MropeVariant::Qwen2VL, MropeVariant::Qwen25VL, MropeVariant::Qwen3VL})
        for (const ContentKind content : {ContentKind::Ones, ContentKind::Fixed}) {
            Scenario s = mrope_scenario("text:3,image:1x4x6,video:3x2x4@2.5,text:2", v, 300);
            s.content.kind = content;
            const MropeParams& p = s.params<MropeParams>();
            const MropePositions positions(p);
            // The last query (text past the layout), one on the image's last patch, one on the video.
            for (const std::int64_t query : {std::int64_t{299}, std::int64_t{8}, std::int64_t{14}}) {
                ASSERT_NE(positions.at(query).kind == MropeTokenKind::Text, query < positions.layout_tokens())
                    << query;
                MatrixWindow w;
                w.row0 = query;
                w.rows = 1;
                w.cols = query + 1;
                const MatrixResult m = compute_matrix(s, MatrixKind::Logits, w);
                const auto curve = descriptor(kMRoPE).distance_logits(s, query, Precision::Double);
                std::vector<double> by_distance(static_cast<std::size_t>(query + 1));
                // In two pieces, the second crossing the grids, as the envelope's chunks call it.
                curve(0, 7, by_distance.data());
                curve(7, query + 1, by_distance.data() + 7);
                for (std::int64_t r = 0; r <= query; ++r) {
                    const double cell = m.values(0, query - r);
                    ASSERT_NEAR(by_distance[static_cast<std::size_t>(r)], cell,
                                1e-12 * std::max(1.0, std::abs(cell)))
                        << mrope_variant_id(v) << " query " << query << " r " << r;
                }
            }
        }
}

// The curves view sums text keys in float32 (Precision::Single, SinusoidSum): within the bound SinusoidSum
// states, 36 · 2^-24 · Σ_i |(ws_i, wc_i)| / sqrt(d), where |(ws_i, wc_i)| = |(A_i, B_i)| (a rotation), at
// N = 10^5 against the double curve; and not bit-equal to it (the float32 kernel ran).
TEST(Mrope, SinglePrecisionCurveWithinTheSinusoidBound)
{
    Scenario s = mrope_scenario("text:3,image:1x4x6,text:2", MropeVariant::Qwen3VL, 100'000);
    s.content.kind = ContentKind::Fixed;
    const MropeParams& p = s.params<MropeParams>();
    const std::int64_t query = s.seq_len - 1;
    const Eigen::VectorXd q = content_query(s.content, p.head_dim, query),
                          k = content_key(s.content, p.head_dim, 0);
    double modulus = 0.0;
    const int h = p.head_dim / 2;
    for (int i = 0; i < h; ++i)
        modulus += std::hypot(q[i] * k[i] + q[i + h] * k[i + h], q[i] * k[i + h] - q[i + h] * k[i]);
    const double bound = 36.0 * 0x1p-24 * modulus / std::sqrt(static_cast<double>(p.head_dim));
    const auto exact = descriptor(kMRoPE).distance_logits(s, query, Precision::Double);
    const auto single = descriptor(kMRoPE).distance_logits(s, query, Precision::Single);
    std::vector<double> a(static_cast<std::size_t>(query + 1)), b(a.size());
    exact(0, query + 1, a.data());
    single(0, query + 1, b.data());
    for (std::size_t r = 0; r < a.size(); ++r)
        ASSERT_NEAR(b[r], a[r], bound) << "r " << r;
    EXPECT_NE(a, b);
}

// The columns every writer of the ids shares (io/mrope_columns.h): text:2, then an image of 1 × 2 × 4
// patches merged to 1 × 2 tokens at (0, 0, 0) + 2 and (0, 0, 1) + 2, then text from 4 (the image's largest
// id 3, + 1), as get_rope_index gives them; the pairs' axes named t, h, w.
TEST(Mrope, PositionColumns)
{
    const std::vector<CsvColumn> c = mrope_position_columns(params("text:2,image:1x2x4"), 5);
    ASSERT_EQ(c.size(), 5u);
    EXPECT_EQ(c[0].name, "position");
    EXPECT_EQ(c[0].numbers, (std::vector<double>{0, 1, 2, 3, 4}));
    EXPECT_EQ(c[1].name, "token_kind");
    EXPECT_EQ(c[1].texts, (std::vector<std::string>{"text", "text", "image", "image", "text"}));
    EXPECT_EQ(c[2].numbers, (std::vector<double>{0, 1, 2, 2, 4})); // t
    EXPECT_EQ(c[3].numbers, (std::vector<double>{0, 1, 2, 2, 4})); // h
    EXPECT_EQ(c[4].numbers, (std::vector<double>{0, 1, 2, 3, 4})); // w
    EXPECT_EQ((std::vector<std::string_view>{mrope_axis_id(0), mrope_axis_id(1), mrope_axis_id(2)}),
              (std::vector<std::string_view>{"t", "h", "w"}));
}
