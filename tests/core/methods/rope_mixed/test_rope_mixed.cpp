// SPDX-License-Identifier: GPL-3.0-or-later
// RoPE-Mixed against naver-ai/rope-vit (models/vit_rope.py) written out here: init_random_2d_freqs's
// layout of the frequencies, init_t_xy's patch coordinates, compute_mixed_cis's angle t_x · θx + t_y · θy
// and apply_rotary_emb's complex product on adjacent components; and against logits derived by hand from a
// frequency table read from a file.
#include "compute/attention_logits.h"
#include "methods/registry.h"
#include "methods/rope_mixed/rope_mixed.h"
#include "scenario/content.h"
#include "scenario/validation.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <string>
#include <unistd.h>

using namespace posatlas;

namespace {

Scenario mixed_scenario(int height, int width, int heads, int head_dim, ContentKind content)
{
    Scenario s;
    s.method = kRopeMixed;
    s.seq_len = static_cast<std::int64_t>(height) * width;
    s.content.kind = content;
    s.content.seed = 3;
    RopeMixedParams& p = s.params<RopeMixedParams>();
    p.grid_height = height;
    p.grid_width = width;
    p.num_heads = heads;
    p.head_dim = head_dim;
    p.seed = 17;
    return s;
}

std::string write(const std::string& name, const std::string& text)
{
    const std::filesystem::path dir =
        std::filesystem::temp_directory_path() / ("posatlas_rope_mixed_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const std::filesystem::path p = dir / name;
    std::ofstream(p) << text;
    return p.string();
}

} // namespace

// init_random_2d_freqs(dim 8, theta 10): mag = 10^(-4j/8) = 1, 10^(-1/2) (j < 2); head h's columns [4h, 4h
// + 4) hold θx = [mag cos a, mag cos(π/2 + a)], θy = [mag sin a, mag sin(π/2 + a)], a the head's angle.
// Tolerance 1e-15 (one product and one cosine of numbers below 1).
TEST(RopeMixed, SeededFrequenciesFollowTheReferenceLayout)
{
    RopeMixedParams p;
    p.head_dim = 8;
    p.num_heads = 3;
    p.rope_theta = 10.0;
    p.seed = 4;
    const Eigen::MatrixXd f = rope_mixed_seeded_frequencies(p);
    ASSERT_EQ(f.rows(), 2);
    ASSERT_EQ(f.cols(), 12);
    const double mag[2] = {1.0, 1.0 / std::sqrt(10.0)};
    for (int h = 0; h < 3; ++h) {
        const double a = rope_mixed_seeded_angle(p, h);
        EXPECT_GE(a, 0.0);
        EXPECT_LT(a, 2 * std::numbers::pi);
        for (int j = 0; j < 2; ++j) {
            EXPECT_NEAR(f(0, 4 * h + j), mag[j] * std::cos(a), 1e-15);
            EXPECT_NEAR(f(1, 4 * h + j), mag[j] * std::sin(a), 1e-15);
            EXPECT_NEAR(f(0, 4 * h + 2 + j), -mag[j] * std::sin(a), 1e-15); // cos(π/2 + a)
            EXPECT_NEAR(f(1, 4 * h + 2 + j), mag[j] * std::cos(a), 1e-15);  // sin(π/2 + a)
        }
    }
    // The heads' directions differ (one draw per head).
    EXPECT_NE(rope_mixed_seeded_angle(p, 0), rope_mixed_seeded_angle(p, 1));
}

// A table from a file, d 4, one head: θx = (1, 0), θy = (0, 0.5). All-ones content: pair (0, 1) turns by
// the column, pair (2, 3) by half the row, and (1, 1) · R(δ)(1, 1) = 2 cos δ, so the logit is
// (2 cos Δx + 2 cos(Δy / 2)) / √4. Patch 0 is (0, 0), patch 13 on a 5-wide grid is (row 2, column 3).
// Tolerance 1e-14.
TEST(RopeMixed, HandDerivedLogitsFromATable)
{
    Scenario s = mixed_scenario(4, 5, 1, 4, ContentKind::Ones);
    s.params<RopeMixedParams>().freqs_table = write("freqs_1x4.csv", "1,0\n0,0.5\n");
    ASSERT_NO_THROW(validate(s));
    const MatrixResult r = compute_matrix(s, MatrixKind::Logits, {});
    EXPECT_NEAR(r.values(13, 0), std::cos(3.0) + std::cos(1.0), 1e-14);
    EXPECT_NEAR(r.values(0, 13), std::cos(3.0) + std::cos(1.0), 1e-14);
    EXPECT_NEAR(r.values(6, 1), std::cos(0.0) + std::cos(0.5), 1e-14); // (1, 1) against (0, 1)
}

// A table of another shape is refused by the field's name, with the shape it needs.
TEST(RopeMixed, RefusesATableOfAnotherShape)
{
    Scenario s = mixed_scenario(4, 4, 2, 8, ContentKind::Fixed);
    s.params<RopeMixedParams>().freqs_table = write("freqs_2x4.csv", "1,0,0,1\n0,1,1,0\n");
    try {
        validate(s);
        ADD_FAILURE() << "a 2 x 4 table accepted for 2 heads of d 8";
    } catch (const ParameterError& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("freqs_table"), std::string::npos) << what;
        EXPECT_NE(what.find("2 x 8"), std::string::npos) << what;
    }
    s.params<RopeMixedParams>().freqs_table.clear();
    s.params<RopeMixedParams>().head_dim = 10;
    EXPECT_THROW(validate(s), ParameterError); // head_dim not a multiple of 4
}

// Random content, seeded frequencies, every head of a 3 × 4 grid with d 16: each cell is the reference's
// complex rotation of q_i and k_j (apply_rotary_emb) by their patches' angles (compute_mixed_cis with
// init_t_xy's x = t mod W, y = t / W), divided by √d. Tolerance 1e-12 absolute (logits of order 4).
TEST(RopeMixed, LogitsEqualReferenceRotationForEveryHead)
{
    Scenario s = mixed_scenario(3, 4, 3, 16, ContentKind::Random);
    const Eigen::MatrixXd f = rope_mixed_seeded_frequencies(s.params<RopeMixedParams>());
    for (int h = 0; h < 3; ++h) {
        s.head = h;
        const MatrixResult r = compute_matrix(s, MatrixKind::Logits, {});
        const auto rotate = [&](const Eigen::VectorXd& v, std::int64_t t) {
            const double x = static_cast<double>(t % 4), y = static_cast<double>(t / 4);
            Eigen::VectorXd out(16);
            for (int i = 0; i < 8; ++i) {
                const double angle = x * f(0, 8 * h + i) + y * f(1, 8 * h + i);
                const double re = v[2 * i], im = v[2 * i + 1];
                out[2 * i] = re * std::cos(angle) - im * std::sin(angle);
                out[2 * i + 1] = re * std::sin(angle) + im * std::cos(angle);
            }
            return out;
        };
        for (std::int64_t i = 0; i < 12; ++i)
            for (std::int64_t j = 0; j < 12; ++j) {
                const double expected =
                    rotate(content_query(s.content, 16, i), i).dot(rotate(content_key(s.content, 16, j), j)) /
                    4.0;
                ASSERT_NEAR(r.values(i, j), expected, 1e-12) << h << ": " << i << ", " << j;
            }
    }
}
