// SPDX-License-Identifier: GPL-3.0-or-later
// The brute-force reference of exact block means (compute/block_means.h): the whole window computed cell
// by cell on the exact path, each block's finite cells summed in long double, compared with the
// downsampled request. Shared by the block-mean tests of every method.
#pragma once

#include "compute/attention_logits.h"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace posatlas::test {

// Mean over each block's finite cells (NaN when none), in long double; `magnitude`, when given, receives
// each block's mean |cell| over the same cells (0 when none).
inline Eigen::MatrixXd brute_block_means(const Eigen::MatrixXd& full, const std::vector<std::int64_t>& rb,
                                         const std::vector<std::int64_t>& cb, std::int64_t row0,
                                         std::int64_t col0, Eigen::MatrixXd* magnitude = nullptr)
{
    Eigen::MatrixXd m(static_cast<Eigen::Index>(rb.size() - 1), static_cast<Eigen::Index>(cb.size() - 1));
    if (magnitude)
        magnitude->setZero(m.rows(), m.cols());
    for (std::size_t r = 0; r + 1 < rb.size(); ++r)
        for (std::size_t s = 0; s + 1 < cb.size(); ++s) {
            long double sum = 0.0L, abs_sum = 0.0L;
            std::int64_t count = 0;
            for (std::int64_t j = cb[s]; j < cb[s + 1]; ++j)
                for (std::int64_t i = rb[r]; i < rb[r + 1]; ++i) {
                    const double v = full(i - row0, j - col0);
                    if (std::isfinite(v)) {
                        sum += v;
                        abs_sum += std::abs(v);
                        ++count;
                    }
                }
            const auto rs = static_cast<Eigen::Index>(r), ss = static_cast<Eigen::Index>(s);
            m(rs, ss) = count ? static_cast<double>(sum / static_cast<long double>(count))
                              : std::numeric_limits<double>::quiet_NaN();
            if (magnitude && count)
                (*magnitude)(rs, ss) = static_cast<double>(abs_sum / static_cast<long double>(count));
        }
    return m;
}

// The absolute floor of the block tolerance: xPos leaves out terms below 1e-280 of its pair weights
// (kFlush in xpos.cpp), on the exact path and in block means alike, so blocks of such cells match only
// to about that.
inline constexpr double kBlockFloor = 1e-270;

// Compares the block means of window w (out_rows / out_cols set) with brute force over the same blocks of
// the undownsampled window (every cell of it computed on the exact path). Tolerance: `rel` of the block's
// own magnitude, the mean |cell| over its finite cells, plus kBlockFloor: a block whose cells are 1e-5
// beside others of 1e30, or 3 beside 1e13, is held to its own digits, not to the largest cell's. The
// brute-force mean is summed in long double; the exact cells carry their own rounding (~1e-15 of each
// cell), below rel. Returns the number of NaN blocks; every cell of the window must be finite or masked
// (NaN), which `what` also checks: an overflowing window would hide blocks from the comparison.
inline int expect_block_means_exact(const Scenario& s, MatrixKind kind, MatrixWindow w,
                                    const std::string& what, double rel = 1e-9)
{
    MatrixWindow whole = w;
    whole.out_rows = whole.out_cols = 0;
    const MatrixResult full = compute_matrix(s, kind, whole);
    const MatrixResult blocks = compute_matrix(s, kind, w);
    EXPECT_EQ(blocks.sampling, MatrixSampling::BlockMean) << what;
    EXPECT_EQ(full.sampling, MatrixSampling::Exact) << what;
    std::vector<std::int64_t> rb(blocks.row_index), cb(blocks.col_index);
    rb.push_back(blocks.row_block_end.back());
    cb.push_back(blocks.col_block_end.back());
    for (Eigen::Index i = 0; i < full.values.size(); ++i)
        if (std::isinf(full.values.data()[i])) {
            ADD_FAILURE() << what << ": the exact window overflows (choose parameters within double's range)";
            break;
        }
    Eigen::MatrixXd magnitude;
    const Eigen::MatrixXd want =
        brute_block_means(full.values, rb, cb, full.row_index.front(), full.col_index.front(), &magnitude);
    EXPECT_EQ(blocks.values.rows(), want.rows()) << what;
    EXPECT_EQ(blocks.values.cols(), want.cols()) << what;
    if (blocks.values.rows() != want.rows() || blocks.values.cols() != want.cols())
        return 0;
    int nan = 0, bad = 0;
    for (Eigen::Index s2 = 0; s2 < want.cols(); ++s2)
        for (Eigen::Index r = 0; r < want.rows(); ++r) {
            const double got = blocks.values(r, s2), ref = want(r, s2);
            if (std::isnan(ref)) {
                ++nan;
                if (!std::isnan(got) && bad++ < 3)
                    ADD_FAILURE() << what << " block " << r << "," << s2 << ": want NaN, got " << got;
            } else if (!(std::abs(got - ref) <= rel * magnitude(r, s2) + kBlockFloor) && bad++ < 3) {
                ADD_FAILURE() << what << " block " << r << "," << s2 << " ["
                              << rb[static_cast<std::size_t>(r)] << ", "
                              << rb[static_cast<std::size_t>(r) + 1] << ") x ["
                              << cb[static_cast<std::size_t>(s2)] << ", "
                              << cb[static_cast<std::size_t>(s2) + 1] << "): got " << got << " want " << ref
                              << " (mean |cell| " << magnitude(r, s2) << ", relative error "
                              << std::abs(got - ref) / magnitude(r, s2) << ")";
            }
        }
    if (bad > 3)
        ADD_FAILURE() << what << ": " << bad << " blocks out of tolerance in all";
    return nan;
}

} // namespace posatlas::test
