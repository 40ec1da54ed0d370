// SPDX-License-Identifier: GPL-3.0-or-later
#include "methods/sinusoidal/sinusoidal.h"

#include "scenario/validation.h"

#include <algorithm>
#include <cmath>

namespace posatlas {

Eigen::VectorXd sinusoidal_frequencies(const SinusoidalParams& params)
{
    validate(params);
    const int n = params.dim / 2;
    Eigen::VectorXd omega(n);
    if (params.layout == SinusoidalLayout::Interleaved) {
        // 1 / base^(2i/d), written as exp(-(2i/d) log base) like the PyTorch tutorial's div_term.
        for (int i = 0; i < n; ++i)
            omega[i] = std::exp(-(2.0 * i / params.dim) * std::log(params.base));
    } else {
        const double increment = std::log(params.base) / std::max(n - 1, 1);
        for (int k = 0; k < n; ++k)
            omega[k] = std::exp(-k * increment);
    }
    return omega;
}

namespace {

void fill_row(const Eigen::VectorXd& omega, SinusoidalLayout layout, std::int64_t position,
              Eigen::Ref<Eigen::RowVectorXd, 0, Eigen::InnerStride<>> row)
{
    const auto n = omega.size();
    const double p = static_cast<double>(position);
    for (Eigen::Index k = 0; k < n; ++k) {
        const double angle = p * omega[k];
        const double s = std::sin(angle);
        const double c = std::cos(angle);
        if (layout == SinusoidalLayout::Interleaved) {
            row[2 * k] = s;
            row[2 * k + 1] = c;
        } else {
            row[k] = s;
            row[n + k] = c;
        }
    }
}

} // namespace

Eigen::MatrixXd sinusoidal_encoding(const SinusoidalParams& params, std::int64_t first_position,
                                    std::int64_t count)
{
    validate(params);
    require_int("seq_len", count, 0, kMaxSeqLen);
    if (count == 0)
        return Eigen::MatrixXd(0, params.dim);
    require_matrix_fits("seq_len", count, params.dim);
    const Eigen::VectorXd omega = sinusoidal_frequencies(params);
    Eigen::MatrixXd pe(count, params.dim);
#pragma omp parallel for schedule(static)
    for (std::int64_t r = 0; r < count; ++r)
        fill_row(omega, params.layout, first_position + r, pe.row(r));
    return pe;
}

Eigen::MatrixXd sinusoidal_rows_at(const SinusoidalParams& params, const std::vector<std::int64_t>& positions)
{
    const Eigen::VectorXd omega = sinusoidal_frequencies(params);
    const auto count = static_cast<std::int64_t>(positions.size());
    require_matrix_fits("seq_len", std::max<std::int64_t>(count, 1), params.dim);
    Eigen::MatrixXd pe(count, params.dim);
#pragma omp parallel for schedule(static) if (count > 256)
    for (std::int64_t r = 0; r < count; ++r)
        fill_row(omega, params.layout, positions[static_cast<std::size_t>(r)], pe.row(r));
    return pe;
}

Eigen::VectorXd sinusoidal_row(const SinusoidalParams& params, std::int64_t position)
{
    const Eigen::VectorXd omega = sinusoidal_frequencies(params);
    Eigen::RowVectorXd row(params.dim);
    fill_row(omega, params.layout, position, row);
    return row.transpose();
}

} // namespace posatlas
