// SPDX-License-Identifier: GPL-3.0-or-later
// Sinusoidal encodings. References: Vaswani et al. 2017 sec. 3.5 (Interleaved) and tensor2tensor
// layers/common_attention.py::get_timing_signal_1d (Split); expected rows computed by a python3
// re-implementation of both formulas (math.sin/cos in double), run here.
#include "methods/sinusoidal/sinusoidal.h"
#include "scenario/types.h"
#include "scenario/validation.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

using namespace posatlas;

namespace {

struct RowCase {
    SinusoidalLayout layout;
    int dim;
    std::int64_t position;
    std::vector<double> expected;
};

class SinusoidalRows : public ::testing::TestWithParam<RowCase>
{
};

TEST_P(SinusoidalRows, MatchReferenceFormula)
{
    const auto& c = GetParam();
    SinusoidalParams p;
    p.dim = c.dim;
    p.layout = c.layout;
    const Eigen::VectorXd row = sinusoidal_row(p, c.position);
    const Eigen::MatrixXd block = sinusoidal_encoding(p, c.position - 1, 3);
    ASSERT_EQ(row.size(), static_cast<Eigen::Index>(c.expected.size()));
    for (std::size_t k = 0; k < c.expected.size(); ++k) {
        // 1e-13 absolute: angles up to 100 rad, where one ulp of the angle is ~1.4e-14.
        EXPECT_NEAR(row[static_cast<Eigen::Index>(k)], c.expected[k], 1e-13) << "column " << k;
        EXPECT_NEAR(block(1, static_cast<Eigen::Index>(k)), c.expected[k], 1e-13) << "column " << k;
    }
}

INSTANTIATE_TEST_SUITE_P(
    Reference, SinusoidalRows,
    ::testing::Values(
        // Vaswani: PE[p, 2i] = sin(p / 10000^(2i/8)), PE[p, 2i+1] = cos(...)
        RowCase{SinusoidalLayout::Interleaved,
                8,
                3,
                {0.1411200080598672, -0.9899924966004454, 0.29552020666133955, 0.955336489125606,
                 0.02999550020249566, 0.9995500337489875, 0.002999995500002025, 0.999995500003375}},
        RowCase{SinusoidalLayout::Interleaved,
                8,
                100,
                {-0.5063656411097588, 0.8623188722876839, -0.5440211108893698, -0.8390715290764524,
                 0.8414709848078965, 0.5403023058681398, 0.09983341664682815, 0.9950041652780258}},
        // t2t: inv_timescale_k = exp(-k log(10000) / (4 - 1)); [sin | cos]
        RowCase{SinusoidalLayout::Split,
                8,
                3,
                {0.1411200080598672, 0.13879810108005047, 0.0064632590701896395, 0.0002999999954999997,
                 -0.9899924966004454, 0.990320699135675, 0.9999791129229608, 0.9999999550000004}},
        RowCase{SinusoidalLayout::Split,
                8,
                100,
                {-0.5063656411097588, -0.997494716382292, 0.21378066605529883, 0.009999833334166656,
                 0.8623188722876839, -0.07074101207510891, 0.9768816851701914, 0.9999500004166653}},
        // d = 2: t2t's max(n - 1, 1) guard gives the single frequency 1.
        RowCase{SinusoidalLayout::Split, 2, 5, {-0.9589242746631385, 0.28366218546322625}}),
    [](const ::testing::TestParamInfo<RowCase>& info) { // Interleaved_Dim8_Position3
        const RowCase& c = info.param;
        return std::string(c.layout == SinusoidalLayout::Interleaved ? "Interleaved" : "Split") + "_Dim" +
               std::to_string(c.dim) + "_Position" + std::to_string(c.position);
    });

TEST(Sinusoidal, DotProductDependsOnlyOnOffset)
{
    // PE[p] . PE[q] = sum_k cos((p - q) w_k) for both layouts (sin a sin b + cos a cos b = cos(a - b)).
    for (auto layout : {SinusoidalLayout::Interleaved, SinusoidalLayout::Split}) {
        SinusoidalParams p;
        p.dim = 64;
        p.layout = layout;
        const Eigen::MatrixXd pe = sinusoidal_encoding(p, 0, 600);
        const Eigen::VectorXd omega = sinusoidal_frequencies(p);
        for (int offset : {0, 1, 7, 50, 300}) {
            double expected = 0.0;
            for (Eigen::Index k = 0; k < omega.size(); ++k)
                expected += std::cos(offset * omega[k]);
            for (int start : {0, 13, 250}) {
                // 1e-11 absolute: 32 terms with angles up to ~550 rad.
                EXPECT_NEAR(pe.row(start).dot(pe.row(start + offset)), expected, 1e-11)
                    << "offset " << offset << " start " << start;
            }
        }
    }
}

TEST(Sinusoidal, LayoutsDifferInTheirSlowestFrequency)
{
    SinusoidalParams p;
    p.dim = 512;
    const Eigen::VectorXd vas = sinusoidal_frequencies(p);
    p.layout = SinusoidalLayout::Split;
    const Eigen::VectorXd t2t = sinusoidal_frequencies(p);
    EXPECT_DOUBLE_EQ(vas[0], 1.0);
    EXPECT_DOUBLE_EQ(t2t[0], 1.0);
    // Vaswani: 10000^(-510/512); t2t: 10000^(-255/255) = 1e-4. Relative tolerance 1e-12.
    EXPECT_NEAR(vas[255], std::pow(10000.0, -510.0 / 512.0), 1e-12 * vas[255]);
    EXPECT_NEAR(t2t[255], 1e-4, 1e-16);
}

TEST(Sinusoidal, LargePositionsKeepDoublePrecision)
{
    SinusoidalParams p;
    p.dim = 4;
    // Column 0 is sin(p) for both layouts; at p = 1e6 the double angle is exact.
    const Eigen::MatrixXd pe = sinusoidal_encoding(p, 1'000'000, 2);
    EXPECT_NEAR(pe(0, 0), std::sin(1e6), 1e-12);
    EXPECT_NEAR(pe(1, 1), std::cos(1e6 + 1.0), 1e-12);
}

// Consecutive positions are filled by rotation from exact angles every 64 rows, other positions one by
// one (sinusoidal.cpp); sinusoidal_dots does the same for a . p_j without the rows. Against
// sinusoidal_row (a sine and a cosine per entry, exact angle) for both layouts, d = 512, runs near 0 and
// near 10^6 with jumps and repeats between them: entries to 1e-13, dots to 1e-12 (|a| ~ 20).
TEST(Sinusoidal, RotatedRunsAndDotsMatchRowByRow)
{
    for (SinusoidalLayout layout : {SinusoidalLayout::Interleaved, SinusoidalLayout::Split}) {
        SCOPED_TRACE(static_cast<int>(layout));
        SinusoidalParams p;
        p.dim = 512;
        p.layout = layout;
        std::vector<std::int64_t> pos;
        for (std::int64_t i = 0; i < 300; ++i)
            pos.push_back(i); // a run longer than the restart interval
        for (std::int64_t i : {5, 5, 999, 3})
            pos.push_back(i); // jumps and a repeat
        for (std::int64_t i = 0; i < 700; ++i)
            pos.push_back(999'700 + i);
        const Eigen::MatrixXd rows = sinusoidal_rows_at(p, pos);
        const Eigen::MatrixXd enc = sinusoidal_encoding(p, 999'700, 700);
        Eigen::VectorXd a(512);
        for (int c = 0; c < 512; ++c)
            a[c] = std::sin(0.37 * c + 1.0);
        const std::vector<double> dots = sinusoidal_dots(p, a, pos);
        ASSERT_EQ(dots.size(), pos.size());
        for (std::size_t r = 0; r < pos.size(); ++r) {
            const Eigen::VectorXd want = sinusoidal_row(p, pos[r]);
            ASSERT_LE((rows.row(static_cast<Eigen::Index>(r)).transpose() - want).cwiseAbs().maxCoeff(),
                      1e-13)
                << pos[r];
            ASSERT_NEAR(dots[r], a.dot(want), 1e-12) << pos[r];
            if (pos[r] >= 999'700 && r >= 304) {
                ASSERT_LE((enc.row(pos[r] - 999'700).transpose() - want).cwiseAbs().maxCoeff(), 1e-13)
                    << pos[r];
            }
        }
        EXPECT_THROW(sinusoidal_dots(p, Eigen::VectorXd::Ones(8), pos), ParameterError);
    }
}

TEST(Sinusoidal, EmptyAndInvalid)
{
    SinusoidalParams p;
    EXPECT_EQ(sinusoidal_encoding(p, 0, 0).rows(), 0);
    p.dim = 7;
    try {
        sinusoidal_row(p, 0);
        FAIL() << "expected ParameterError";
    } catch (const ParameterError& e) {
        EXPECT_EQ(e.parameter(), "dim");
    }
    p.dim = 8;
    p.base = 1.0;
    try {
        sinusoidal_encoding(p, 0, 4);
        FAIL() << "expected ParameterError";
    } catch (const ParameterError& e) {
        EXPECT_EQ(e.parameter(), "base");
    }
    p.base = 10000.0;
    EXPECT_THROW(sinusoidal_encoding(p, 0, -1), ParameterError);
}

} // namespace
