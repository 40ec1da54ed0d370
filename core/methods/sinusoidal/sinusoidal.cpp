// SPDX-License-Identifier: GPL-3.0-or-later
#include "methods/sinusoidal/sinusoidal.h"

#include "compute/exact_angle.h"
#include "compute/sinusoid_sums.h"
#include "scenario/validation.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

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

void put(SinusoidalLayout layout, Eigen::Index n, Eigen::Index k, double s, double c, double* row,
         Eigen::Index stride)
{
    if (layout == SinusoidalLayout::Interleaved) {
        row[2 * k * stride] = s;
        row[(2 * k + 1) * stride] = c;
    } else {
        row[k * stride] = s;
        row[(n + k) * stride] = c;
    }
}

void fill_row(const Eigen::VectorXd& omega, SinusoidalLayout layout, std::int64_t position,
              Eigen::Ref<Eigen::RowVectorXd, 0, Eigen::InnerStride<>> row)
{
    const auto n = omega.size();
    const double p = static_cast<double>(position);
    for (Eigen::Index k = 0; k < n; ++k) {
        const CosSin z = exact_cos_sin(p, omega[k]);
        put(layout, n, k, z.s, z.c, row.data(), row.innerStride());
    }
}

// Rows of consecutive positions: sin and cos of each row's angles from the previous row's by one
// rotation, exp(i (p + 1) w) = exp(i p w) exp(i w), restarted from exact angles (exact_cos_sin) every
// kRun rows. A sine and a cosine per entry cost ~20 ns, a rotation ~1 ns (the logit curve of a
// 10^6-position sinusoidal model needs 2.6 x 10^8 of them). Each rotation adds ~1 rounding: after
// kRun - 1 of them an entry is within ~1e-14 of the exact value, closer than sin(p * w) with the
// product rounded (off by up to |p w| 2^-53: 1e-10 at p = 10^6).
constexpr std::int64_t kRun = 64;

void fill_run(const Eigen::VectorXd& omega, const std::vector<CosSin>& step, SinusoidalLayout layout,
              std::int64_t first, std::int64_t count, Eigen::MatrixXd& pe, std::int64_t row0)
{
    const auto n = omega.size();
    const Eigen::Index stride = pe.outerStride(); // column-major: a row's entries are a column apart
    for (Eigen::Index k = 0; k < n; ++k) {
        CosSin z = exact_cos_sin(static_cast<double>(first), omega[k]);
        const CosSin w = step[static_cast<std::size_t>(k)];
        for (std::int64_t r = 0; r < count; ++r) {
            put(layout, n, k, z.s, z.c, &pe(row0 + r, 0), stride);
            z = {z.c * w.c - z.s * w.s, z.s * w.c + z.c * w.s};
        }
    }
}

// Every row r of pe at position position_at(r); runs of consecutive positions by rotation.
template <typename PositionAt>
void fill_rows(const Eigen::VectorXd& omega, SinusoidalLayout layout, std::int64_t count,
               PositionAt position_at, Eigen::MatrixXd& pe)
{
    std::vector<CosSin> step(static_cast<std::size_t>(omega.size()));
    for (Eigen::Index k = 0; k < omega.size(); ++k)
        step[static_cast<std::size_t>(k)] = exact_cos_sin(1.0, omega[k]);
    const std::int64_t chunks = (count + kRun - 1) / kRun;
#pragma omp parallel for schedule(static) if (count > 256)
    for (std::int64_t t = 0; t < chunks; ++t) {
        const std::int64_t r1 = std::min(count, (t + 1) * kRun);
        std::int64_t r = t * kRun;
        while (r < r1) {
            std::int64_t e = r + 1; // the run of consecutive positions starting at row r
            while (e < r1 && position_at(e) == position_at(e - 1) + 1)
                ++e;
            if (e - r >= 4) {
                fill_run(omega, step, layout, position_at(r), e - r, pe, r);
            } else {
                for (std::int64_t i = r; i < e; ++i)
                    fill_row(omega, layout, position_at(i), pe.row(i));
            }
            r = e;
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
    fill_rows(
        omega, params.layout, count, [&](std::int64_t r) { return first_position + r; }, pe);
    return pe;
}

Eigen::MatrixXd sinusoidal_rows_at(const SinusoidalParams& params, const std::vector<std::int64_t>& positions)
{
    const Eigen::VectorXd omega = sinusoidal_frequencies(params);
    const auto count = static_cast<std::int64_t>(positions.size());
    require_matrix_fits("seq_len", std::max<std::int64_t>(count, 1), params.dim);
    Eigen::MatrixXd pe(count, params.dim);
    fill_rows(
        omega, params.layout, count, [&](std::int64_t r) { return positions[static_cast<std::size_t>(r)]; },
        pe);
    return pe;
}

SinusoidWeights sinusoidal_weights(const SinusoidalParams& params, const Eigen::VectorXd& a)
{
    const Eigen::VectorXd omega = sinusoidal_frequencies(params);
    if (a.size() != params.dim)
        throw ParameterError("dim", std::to_string(params.dim) + " entries in the query vector",
                             std::to_string(a.size()));
    const auto n = omega.size();
    const bool interleaved = params.layout == SinusoidalLayout::Interleaved;
    SinusoidWeights sw{std::vector<double>(omega.data(), omega.data() + n),
                       std::vector<double>(static_cast<std::size_t>(n)),
                       std::vector<double>(static_cast<std::size_t>(n))};
    for (Eigen::Index k = 0; k < n; ++k) {
        sw.ws[static_cast<std::size_t>(k)] = a[interleaved ? 2 * k : k];
        sw.wc[static_cast<std::size_t>(k)] = a[interleaved ? 2 * k + 1 : n + k];
    }
    return sw;
}

std::vector<double> sinusoidal_dots(const SinusoidalParams& params, const Eigen::VectorXd& a,
                                    const std::vector<std::int64_t>& positions)
{
    const SinusoidWeights sw = sinusoidal_weights(params, a);
    return sinusoid_sums(sw.w, sw.ws, sw.wc, positions);
}

Eigen::VectorXd sinusoidal_row(const SinusoidalParams& params, std::int64_t position)
{
    const Eigen::VectorXd omega = sinusoidal_frequencies(params);
    Eigen::RowVectorXd row(params.dim);
    fill_row(omega, params.layout, position, row);
    return row.transpose();
}

} // namespace posatlas
