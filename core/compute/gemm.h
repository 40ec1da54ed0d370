// SPDX-License-Identifier: GPL-3.0-or-later
// The one matrix product behind every logit matrix: out = scale * A B^T, A (m x d) the rotated or
// position-added queries, B (n x d) the keys, in the requested arithmetic.
//   Double: Eigen's double GEMM straight into out.
//   Single: A and B rounded to float32 once, the product accumulated in float32 (SGEMM) in panels of
//           kGemmTile rows, each widened into out while it is still in cache, so the float result
//           never exists as a whole (out stays the only m x n array). Each value
//           differs from the double product by at most about (d + 2) 2^-24 sum_k |a_k b_k| |scale|
//           (Higham, "Accuracy and Stability of Numerical Algorithms", 2nd ed., eq. 3.5).
// The GEMM is Eigen's product, which the build routes to OpenBLAS (EIGEN_USE_BLAS; core/CMakeLists.txt
// says why): OpenBLAS picks its kernels for the CPU at run time, so a portable x86-64 build still
// multiplies with AVX2 / AVX-512 where the CPU has them.
#pragma once

#include "scenario/types.h"

#include <Eigen/Dense>

namespace posatlas {

inline constexpr Eigen::Index kGemmTile = 512;

void gemm_nt(const Eigen::Ref<const Eigen::MatrixXd>& a, const Eigen::Ref<const Eigen::MatrixXd>& b,
             double scale, Precision precision, Eigen::MatrixXd& out);

// The same product in float32 kept as float32: A and B rounded once (scale folded into A), one SGEMM
// straight into out with beta = 0 (no panels, no widening). The same error bound as Single above.
void gemm_nt_single(const Eigen::Ref<const Eigen::MatrixXd>& a, const Eigen::Ref<const Eigen::MatrixXd>& b,
                    double scale, Eigen::MatrixXf& out);

// The bare float32 product a b^T through the same Eigen SGEMM (no widening): the peak that the
// benchmarks compare the kernels with.
void sgemm_nt(const Eigen::MatrixXf& a, const Eigen::MatrixXf& b, Eigen::MatrixXf& out);

} // namespace posatlas
