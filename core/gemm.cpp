#include "gemm.h"

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
    const Eigen::Index tr = (m + kGemmTile - 1) / kGemmTile, tc = (n + kGemmTile - 1) / kGemmTile;
#pragma omp parallel
    {
        Eigen::MatrixXf tile(std::min(m, kGemmTile), std::min(n, kGemmTile));
#pragma omp for schedule(dynamic, 1) collapse(2)
        for (Eigen::Index c = 0; c < tc; ++c)
            for (Eigen::Index r = 0; r < tr; ++r) {
                const Eigen::Index r0 = r * kGemmTile, c0 = c * kGemmTile;
                const Eigen::Index nr = std::min(kGemmTile, m - r0), nc = std::min(kGemmTile, n - c0);
                auto t = tile.topLeftCorner(nr, nc);
                t.noalias() = af.middleRows(r0, nr) * bf.middleRows(c0, nc).transpose();
                out.block(r0, c0, nr, nc) = t.cast<double>();
            }
    }
}

void sgemm_nt(const Eigen::MatrixXf& a, const Eigen::MatrixXf& b, Eigen::MatrixXf& out)
{
    out.resize(a.rows(), b.rows());
    out.noalias() = a * b.transpose();
}

} // namespace posatlas
