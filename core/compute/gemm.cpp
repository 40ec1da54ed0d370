// SPDX-License-Identifier: GPL-3.0-or-later
#include "compute/gemm.h"

#include <algorithm>
#include <limits>
#include <type_traits>

namespace posatlas {
namespace {

// c = scale a b^T (a: m x k, b: n x k, column-major with leading dimensions lda, ldb; c: m x n, ldc) by
// the BLAS's own gemm with beta = 0. Eigen's `c.noalias() = a * b^T` first zeroes c in one serial
// memset (faulting in every page of a fresh result on the calling thread) and then calls gemm with
// beta = 1; OpenBLAS zeroes its own part of c in each of its threads (BM_GemmPeakDouble measures it).
// False (nothing done) for sizes the Fortran interface's int cannot hold.
template <typename T>
bool blas_gemm_nt(Eigen::Index m, Eigen::Index n, Eigen::Index k, T scale, const T* a, Eigen::Index lda,
                  const T* b, Eigen::Index ldb, T* c, Eigen::Index ldc)
{
    const Eigen::Index limit = std::numeric_limits<int>::max();
    if (std::max({m, n, k, lda, ldb, ldc}) > limit || m == 0 || n == 0 || k == 0)
        return false;
    const int im = static_cast<int>(m), in = static_cast<int>(n), ik = static_cast<int>(k);
    const int ia = static_cast<int>(lda), ib = static_cast<int>(ldb), ic = static_cast<int>(ldc);
    const T zero = 0;
    if constexpr (std::is_same_v<T, double>)
        dgemm_("N", "T", &im, &in, &ik, &scale, a, &ia, b, &ib, &zero, c, &ic);
    else
        sgemm_("N", "T", &im, &in, &ik, &scale, a, &ia, b, &ib, &zero, c, &ic);
    return true;
}

} // namespace

void gemm_nt(const Eigen::Ref<const Eigen::MatrixXd>& a, const Eigen::Ref<const Eigen::MatrixXd>& b,
             double scale, Precision precision, Eigen::MatrixXd& out)
{
    out.resize(a.rows(), b.rows());
    if (precision == Precision::Double) {
        if (!blas_gemm_nt(a.rows(), b.rows(), a.cols(), scale, a.data(), a.outerStride(), b.data(),
                          b.outerStride(), out.data(), out.rows()))
            out.noalias() = (scale * a) * b.transpose(); // empty, or beyond the BLAS's int sizes
        return;
    }
    // Scale folded into A before rounding: one rounding per factor, none on the product.
    const Eigen::MatrixXf af = (scale * a).cast<float>();
    const Eigen::MatrixXf bf = b.cast<float>();
    const Eigen::Index m = a.rows(), n = b.rows();
    // Row panels: each panel's float product is one large GEMM (threaded by the BLAS), widened into out
    // while it still sits in the last-level cache. The widening runs on this thread alone: as an OpenMP
    // loop it alternated with the BLAS's threads eight times per product, and each pool's idle threads
    // spun on the cores while the other worked (BM_RopeLogitsRandomSingle/4096 measures it).
    Eigen::MatrixXf panel(std::min(m, kGemmTile), n);
    for (Eigen::Index r0 = 0; r0 < m; r0 += kGemmTile) {
        const Eigen::Index nr = std::min(kGemmTile, m - r0);
        auto p = panel.topRows(nr);
        if (!blas_gemm_nt(nr, n, af.cols(), 1.0F, af.data() + r0, af.outerStride(), bf.data(),
                          bf.outerStride(), p.data(), p.outerStride()))
            p.noalias() = af.middleRows(r0, nr) * bf.transpose();
        for (Eigen::Index c = 0; c < n; ++c)
            out.col(c).segment(r0, nr) = p.col(c).cast<double>();
    }
}

void gemm_nt_single(const Eigen::Ref<const Eigen::MatrixXd>& a, const Eigen::Ref<const Eigen::MatrixXd>& b,
                    double scale, Eigen::MatrixXf& out)
{
    sgemm_nt((scale * a).cast<float>(), b.cast<float>(), out);
}

void sgemm_nt(const Eigen::MatrixXf& a, const Eigen::MatrixXf& b, Eigen::MatrixXf& out)
{
    out.resize(a.rows(), b.rows());
    if (!blas_gemm_nt(a.rows(), b.rows(), a.cols(), 1.0F, a.data(), a.outerStride(), b.data(),
                      b.outerStride(), out.data(), out.outerStride()))
        out.noalias() = a * b.transpose();
}

} // namespace posatlas
