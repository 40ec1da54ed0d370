// SPDX-License-Identifier: GPL-3.0-or-later
#include "scenario/content.h"

#include "scenario/rng.h"

#include <algorithm>

namespace posatlas {
namespace {

Eigen::VectorXd seeded_vector(std::uint64_t seed, std::uint64_t stream, int dim, std::int64_t position)
{
    Eigen::VectorXd v(dim);
    const auto base = static_cast<std::uint64_t>(position) * static_cast<std::uint64_t>(dim);
    for (int c = 0; c < dim; ++c)
        v[c] = rng::normal(seed, stream, base + static_cast<std::uint64_t>(c));
    return v;
}

Eigen::VectorXd content_vector(const ContentParams& c, int dim, std::int64_t position, std::uint64_t stream)
{
    switch (c.kind) {
    case ContentKind::Ones: return Eigen::VectorXd::Ones(dim);
    case ContentKind::Zero: return Eigen::VectorXd::Zero(dim);
    case ContentKind::Fixed: return seeded_vector(c.seed, rng::kFixedContent, dim, 0);
    case ContentKind::Random: return seeded_vector(c.seed, stream, dim, position);
    }
    return Eigen::VectorXd::Ones(dim);
}

Eigen::MatrixXd content_matrix(const ContentParams& c, int dim, const std::vector<std::int64_t>& positions,
                               std::uint64_t stream)
{
    Eigen::MatrixXd m(static_cast<Eigen::Index>(positions.size()), dim);
    const auto n = static_cast<std::int64_t>(positions.size());
#pragma omp parallel for schedule(static) if (n * dim > 16384)
    for (std::int64_t r = 0; r < n; ++r)
        m.row(r) = content_vector(c, dim, positions[static_cast<std::size_t>(r)], stream).transpose();
    return m;
}

} // namespace

Eigen::VectorXd content_query(const ContentParams& c, int dim, std::int64_t position)
{
    return content_vector(c, dim, position, rng::kQueryContent);
}

Eigen::VectorXd content_key(const ContentParams& c, int dim, std::int64_t position)
{
    return content_vector(c, dim, position, rng::kKeyContent);
}

Eigen::MatrixXd content_queries(const ContentParams& c, int dim, const std::vector<std::int64_t>& positions)
{
    return content_matrix(c, dim, positions, rng::kQueryContent);
}

Eigen::MatrixXd content_keys(const ContentParams& c, int dim, const std::vector<std::int64_t>& positions)
{
    return content_matrix(c, dim, positions, rng::kKeyContent);
}

void content_vector_into(const ContentParams& c, bool key, int dim, std::int64_t position, double* out)
{
    switch (c.kind) {
    case ContentKind::Ones: std::fill(out, out + dim, 1.0); return;
    case ContentKind::Zero: std::fill(out, out + dim, 0.0); return;
    case ContentKind::Fixed:
    case ContentKind::Random: {
        const std::uint64_t stream = c.kind == ContentKind::Fixed ? rng::kFixedContent
                                     : key                        ? rng::kKeyContent
                                                                  : rng::kQueryContent;
        const std::int64_t at = c.kind == ContentKind::Fixed ? 0 : position;
        const auto base = static_cast<std::uint64_t>(at) * static_cast<std::uint64_t>(dim);
        for (int i = 0; i < dim; ++i)
            out[i] = rng::normal(c.seed, stream, base + static_cast<std::uint64_t>(i));
        return;
    }
    }
}

bool content_is_position_independent(const ContentParams& c) { return c.kind != ContentKind::Random; }

} // namespace posatlas
