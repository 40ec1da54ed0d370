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

// Mean over each block's finite cells (NaN when none), in long double.
inline Eigen::MatrixXd brute_block_means(const Eigen::MatrixXd& full, const std::vector<std::int64_t>& rb,
                                  const std::vector<std::int64_t>& cb, std::int64_t row0, std::int64_t col0)
{
    Eigen::MatrixXd m(static_cast<Eigen::Index>(rb.size() - 1), static_cast<Eigen::Index>(cb.size() - 1));
    for (std::size_t r = 0; r + 1 < rb.size(); ++r)
        for (std::size_t s = 0; s + 1 < cb.size(); ++s) {
            long double sum = 0.0L;
            std::int64_t count = 0;
            for (std::int64_t j = cb[s]; j < cb[s + 1]; ++j)
                for (std::int64_t i = rb[r]; i < rb[r + 1]; ++i) {
                    const double v = full(i - row0, j - col0);
                    if (std::isfinite(v)) {
                        sum += v;
                        ++count;
                    }
                }
            m(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(s)) =
                count ? static_cast<double>(sum / static_cast<long double>(count))
                      : std::numeric_limits<double>::quiet_NaN();
        }
    return m;
}

// Compares the block means of window w (out_rows / out_cols set) with brute force over the same blocks of
// the undownsampled window; tolerance 1e-9 of max(1, max |cell|). Returns the number of NaN blocks.
inline int expect_block_means_exact(const Scenario& s, MatrixKind kind, MatrixWindow w, const std::string& what)
{
    MatrixWindow whole = w;
    whole.out_rows = whole.out_cols = 0;
    const MatrixResult full = compute_matrix(s, kind, whole);
    const MatrixResult blocks = compute_matrix(s, kind, w);
    EXPECT_EQ(blocks.sampling, MatrixSampling::BlockMean) << what;
    std::vector<std::int64_t> rb(blocks.row_index), cb(blocks.col_index);
    rb.push_back(blocks.row_block_end.back());
    cb.push_back(blocks.col_block_end.back());
    const Eigen::MatrixXd want = brute_block_means(full.values, rb, cb, full.row_index.front(), full.col_index.front());
    double scale = 1.0;
    for (Eigen::Index i = 0; i < full.values.size(); ++i)
        if (std::isfinite(full.values.data()[i]))
            scale = std::max(scale, std::abs(full.values.data()[i]));
    EXPECT_EQ(blocks.values.rows(), want.rows()) << what;
    EXPECT_EQ(blocks.values.cols(), want.cols()) << what;
    int nan = 0, bad = 0;
    for (Eigen::Index s2 = 0; s2 < want.cols(); ++s2)
        for (Eigen::Index r = 0; r < want.rows(); ++r) {
            const double got = blocks.values(r, s2), ref = want(r, s2);
            if (std::isnan(ref)) {
                ++nan;
                if (!std::isnan(got) && bad++ < 3)
                    ADD_FAILURE() << what << " block " << r << "," << s2 << ": want NaN, got " << got;
            } else if (!(std::abs(got - ref) <= 1e-9 * scale) && bad++ < 3) {
                ADD_FAILURE() << what << " block " << r << "," << s2 << ": got " << got << " want " << ref
                              << " (scale " << scale << ")";
            }
        }
    return nan;
}

} // namespace posatlas::test
