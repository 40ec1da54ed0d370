// SPDX-License-Identifier: GPL-3.0-or-later
// Axial 2D RoPE against values derived by hand and against the two reference functions of Hugging Face
// transformers written out here from their tensors, not from the code under test:
// PixtralRotaryEmbedding.compute_default_rope_parameters with apply_rotary_pos_emb (rotate_half), and
// Llama4VisionRotaryEmbedding with vision_apply_rotary_emb (view_as_complex on adjacent components).
#include "compute/attention_logits.h"
#include "methods/registry.h"
#include "methods/rope2d/rope2d.h"
#include "scenario/content.h"
#include "scenario/validation.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

using namespace posatlas;

namespace {

Scenario grid_scenario(Rope2dVariant v, int height, int width, int head_dim, ContentKind content)
{
    Scenario s;
    s.method = kRope2D;
    s.seq_len = static_cast<std::int64_t>(height) * width;
    s.content.kind = content;
    s.content.seed = 5;
    Rope2dParams& p = s.params<Rope2dParams>();
    p.variant = v;
    p.grid_height = height;
    p.grid_width = width;
    p.head_dim = head_dim;
    p.rope_theta = 10000.0;
    return s;
}

// Pixtral: the per-patch angle vector cat(row · θ[::2], col · θ[1::2]) repeated twice (the inv_freq buffer
// indexed by the position id), applied as x · cos + rotate_half(x) · sin.
Eigen::VectorXd pixtral_rotate(const Eigen::VectorXd& x, std::int64_t row, std::int64_t col, double base)
{
    const auto d = x.size();
    std::vector<double> angle;
    for (Eigen::Index k = 0; k < d / 2; k += 2) // freqs[::2] times the row
        angle.push_back(static_cast<double>(row) * std::pow(base, -2.0 * static_cast<double>(k) / d));
    for (Eigen::Index k = 1; k < d / 2; k += 2) // freqs[1::2] times the column
        angle.push_back(static_cast<double>(col) * std::pow(base, -2.0 * static_cast<double>(k) / d));
    Eigen::VectorXd out(d);
    for (Eigen::Index c = 0; c < d; ++c) {
        const double a = angle[static_cast<std::size_t>(c % (d / 2))];
        const double rotated_half = c < d / 2 ? -x[c + d / 2] : x[c - d / 2];
        out[c] = x[c] * std::cos(a) + rotated_half * std::sin(a);
    }
    return out;
}

// Llama 4: rope_freq_j = base^(-2j / freq_dim) (freq_dim = d/2, j < freq_dim/2); angles [x + 1, y + 1]
// times them, each pair (2i, 2i + 1) a complex number multiplied by e^{i angle}.
Eigen::VectorXd llama4_rotate(const Eigen::VectorXd& x, std::int64_t row, std::int64_t col, double base)
{
    const auto d = x.size();
    const Eigen::Index freq_dim = d / 2;
    std::vector<double> angle;
    for (const std::int64_t coordinate : {col, row})
        for (Eigen::Index j = 0; j < freq_dim / 2; ++j)
            angle.push_back(static_cast<double>(coordinate + 1) *
                            std::pow(base, -static_cast<double>(2 * j) / static_cast<double>(freq_dim)));
    Eigen::VectorXd out(d);
    for (Eigen::Index i = 0; i < d / 2; ++i) {
        const double a = angle[static_cast<std::size_t>(i)];
        out[2 * i] = x[2 * i] * std::cos(a) - x[2 * i + 1] * std::sin(a);
        out[2 * i + 1] = x[2 * i] * std::sin(a) + x[2 * i + 1] * std::cos(a);
    }
    return out;
}

} // namespace

// head_dim 8, base 10^4: θ_k = 10^(-k) for k = 0..3. Pixtral: rows θ₀, θ₂, columns θ₁, θ₃. Llama 4: φ_j =
// 10^(-2j) for j = 0, 1, columns first, every coordinate + 1.
TEST(Rope2d, PairsOfEachLayout)
{
    Rope2dParams p;
    p.head_dim = 8;
    p.rope_theta = 10000.0;
    const std::vector<Rope2dPair> pixtral = rope2d_pairs(p);
    ASSERT_EQ(pixtral.size(), 4u);
    const std::vector<int> pixtral_axes{0, 0, 1, 1};
    const std::vector<double> pixtral_theta{1.0, 0.01, 0.1, 0.001};
    for (std::size_t i = 0; i < 4; ++i) {
        EXPECT_EQ(pixtral[i].axis, pixtral_axes[i]) << i;
        EXPECT_NEAR(pixtral[i].theta, pixtral_theta[i], 1e-17) << i; // pow's rounding only
        EXPECT_EQ(pixtral[i].offset, 0.0);
    }
    p.variant = Rope2dVariant::Llama4;
    const std::vector<Rope2dPair> llama4 = rope2d_pairs(p);
    const std::vector<int> llama4_axes{1, 1, 0, 0};
    const std::vector<double> llama4_theta{1.0, 0.01, 1.0, 0.01};
    for (std::size_t i = 0; i < 4; ++i) {
        EXPECT_EQ(llama4[i].axis, llama4_axes[i]) << i;
        EXPECT_NEAR(llama4[i].theta, llama4_theta[i], 1e-17) << i;
        EXPECT_EQ(llama4[i].offset, 1.0);
    }
}

// All-ones content, d 4: each pair of ones rotated by a and b gives (1, 1) · R(b - a)(1, 1) = 2 cos(b - a),
// so the logit is (2 cos Δ₁ + 2 cos Δ₂) / √4. Pixtral: pair (0, 2) turns by the row (θ₀ = 1), pair (1, 3) by
// the column (θ₁ = 10000^(-1/2) = 0.01). Patch 0 is (0, 0), patch 17 on a 16-wide grid is (1, 1), patch 35
// is (2, 3): cos 1 + cos 0.01 and cos 2 + cos 0.03. Tolerance 1e-14 (a few roundings of numbers near 1).
TEST(Rope2d, HandDerivedLogitsWithOnes)
{
    const Scenario pixtral = grid_scenario(Rope2dVariant::Pixtral, 4, 16, 4, ContentKind::Ones);
    const MatrixResult a = compute_matrix(pixtral, MatrixKind::Logits, {});
    EXPECT_NEAR(a.values(17, 0), std::cos(1.0) + std::cos(0.01), 1e-14);
    EXPECT_NEAR(a.values(0, 35), std::cos(2.0) + std::cos(0.03), 1e-14);
    EXPECT_NEAR(a.values(5, 5), 2.0, 1e-14);
    // Llama 4, d 4: pair (0, 1) by the column + 1, pair (2, 3) by the row + 1, both with φ₀ = 1.
    const Scenario llama4 = grid_scenario(Rope2dVariant::Llama4, 4, 16, 4, ContentKind::Ones);
    const MatrixResult b = compute_matrix(llama4, MatrixKind::Logits, {});
    EXPECT_NEAR(b.values(35, 0), std::cos(3.0) + std::cos(2.0), 1e-14);
    EXPECT_NEAR(b.values(16, 1), std::cos(1.0) + std::cos(1.0), 1e-14);
}

// Random queries and keys, both layouts, a 5 × 7 grid, d 16: every cell equals the reference rotation of
// q_i and k_j at their patches, divided by √d. Tolerance 1e-12 absolute: logits of order 4 (|q|, |k| ~ 4);
// the two differ in the rounding of θ and of the sums only.
TEST(Rope2d, LogitsEqualReferenceRotation)
{
    for (const Rope2dVariant v : {Rope2dVariant::Pixtral, Rope2dVariant::Llama4}) {
        const Scenario s = grid_scenario(v, 5, 7, 16, ContentKind::Random);
        const MatrixResult r = compute_matrix(s, MatrixKind::Logits, {});
        ASSERT_EQ(r.values.rows(), 35);
        const auto rotate = [&](const Eigen::VectorXd& x, std::int64_t p) {
            return v == Rope2dVariant::Pixtral ? pixtral_rotate(x, p / 7, p % 7, 1e4)
                                               : llama4_rotate(x, p / 7, p % 7, 1e4);
        };
        for (std::int64_t i = 0; i < 35; ++i)
            for (std::int64_t j = 0; j < 35; ++j) {
                const double expected =
                    rotate(content_query(s.content, 16, i), i).dot(rotate(content_key(s.content, 16, j), j)) /
                    4.0;
                ASSERT_NEAR(r.values(i, j), expected, 1e-12) << static_cast<int>(v) << " " << i << ", " << j;
            }
    }
}

// With the same vector everywhere a logit is a function of the 2D offset: (row 1, col 2) against (row 3,
// col 5) equals (row 0, col 0) against (row 2, col 3), while the patch numbers' difference differs. Equal to
// 1e-12 (the same angles up to the rounding of larger products).
TEST(Rope2d, LogitDependsOnTheTwoDimensionalOffset)
{
    const Scenario s = grid_scenario(Rope2dVariant::Pixtral, 6, 8, 32, ContentKind::Fixed);
    const MatrixResult r = compute_matrix(s, MatrixKind::Logits, {});
    EXPECT_NEAR(r.values(1 * 8 + 2, 3 * 8 + 5), r.values(0, 2 * 8 + 3), 1e-12);
    EXPECT_NEAR(r.values(3 * 8 + 5, 1 * 8 + 2), r.values(2 * 8 + 3, 0), 1e-12);
    // The same difference of patch numbers (9), different offsets: patches 9 and 0 are (1, 1) apart, patches
    // 16 (row 2, column 0) and 7 (row 0, column 7) are (2, -7) apart.
    EXPECT_GT(std::abs(r.values(16, 7) - r.values(9, 0)), 1e-3);
}

// The grid's fields are range-checked by name, and head_dim must be a multiple of 4.
TEST(Rope2d, RefusesBadParametersByName)
{
    Scenario s = grid_scenario(Rope2dVariant::Pixtral, 4, 4, 6, ContentKind::Fixed);
    try {
        validate(s);
        ADD_FAILURE() << "head_dim 6 accepted";
    } catch (const ParameterError& e) {
        EXPECT_NE(std::string(e.what()).find("head_dim"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("multiple of 4"), std::string::npos) << e.what();
    }
    const Field* width = descriptor(kRope2D).field("grid_width");
    ASSERT_NE(width, nullptr);
    EXPECT_THROW(width->check(0), ParameterError);
    EXPECT_THROW(width->check(1025), ParameterError);
    EXPECT_NO_THROW(width->check(64));
}

// Choosing the grid's size makes the sequence the whole grid (Field::companion).
TEST(Rope2d, ChoosingTheGridSetsTheSequenceLength)
{
    Scenario s = grid_scenario(Rope2dVariant::Pixtral, 4, 4, 8, ContentKind::Fixed);
    s.params<Rope2dParams>().grid_height = 24;
    s.params<Rope2dParams>().grid_width = 32;
    const Field* height = descriptor(kRope2D).field("grid_height");
    ASSERT_NE(height, nullptr);
    ASSERT_TRUE(height->companion);
    EXPECT_EQ(height->companion(s), "seq_len");
    EXPECT_EQ(s.seq_len, 24 * 32);
    EXPECT_EQ(height->companion(s), "");
}
