// SPDX-License-Identifier: GPL-3.0-or-later
#include "compute/gemm.h"

#include <algorithm>

namespace posatlas {

void gemm_nt(const Eigen::Ref<const Eigen::MatrixXd>& a, const Eigen::Ref<const Eigen::MatrixXd>& b, double scale,
             Precision precision, Eigen::MatrixXd& out)
{
    out.resize(a.rows(), b.rows());
    if (precision == Precision::Double) {
        out.noalias() = (scale * a) * b.transpose();
        return;
    }
    // Scale folded into A before rounding: one rounding per factor, none on the product.
    const Eigen::MatrixXf af = (scale * a).cast<float>();
    const Eigen::MatrixXf bf = b.cast<float>();
    const Eigen::Index m = a.rows(), n = b.rows();
    // Row panels: each panel's float product is one large GEMM (threaded by the BLAS, or by Eigen's
    // OpenMP), and is widened into out while it still sits in the last-level cache.
    Eigen::MatrixXf panel(std::min(m, kGemmTile), n);
    for (Eigen::Index r0 = 0; r0 < m; r0 += kGemmTile) {
        const Eigen::Index nr = std::min(kGemmTile, m - r0);
        auto p = panel.topRows(nr);
        p.noalias() = af.middleRows(r0, nr) * bf.transpose();
#pragma omp parallel for schedule(static) if (nr * n > 65536)
        for (Eigen::Index c = 0; c < n; ++c)
            out.col(c).segment(r0, nr) = p.col(c).cast<double>();
    }
}

void sgemm_nt(const Eigen::MatrixXf& a, const Eigen::MatrixXf& b, Eigen::MatrixXf& out)
{
    out.resize(a.rows(), b.rows());
    out.noalias() = a * b.transpose();
}

} // namespace posatlas
