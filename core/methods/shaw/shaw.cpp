// SPDX-License-Identifier: GPL-3.0-or-later
#include "methods/shaw/shaw.h"

#include "methods/table_files.h"

#include "scenario/rng.h"
#include "scenario/validation.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace posatlas {

std::int64_t shaw_relative_index(std::int64_t i, std::int64_t j, int k)
{
    return std::clamp<std::int64_t>(j - i, -k, k);
}

TableShape shaw_table_shape(const ShawParams& params)
{
    return {2 * static_cast<std::int64_t>(params.max_relative_position) + 1, params.head_dim, false,
            "(2 max_relative_position + 1) x head_dim"};
}

ShawTables make_shaw_tables(const ShawParams& params)
{
    validate(params);
    const std::int64_t rows = 2 * static_cast<std::int64_t>(params.max_relative_position) + 1;
    require_matrix_fits("max_relative_position", rows, params.head_dim);
    ShawTables t;
    t.k = params.max_relative_position;
    const TableShape shape = shaw_table_shape(params);
    // A table from a file is used as stored; the other stays seeded (seeded entries do not depend on
    // whether the other table came from a file).
    t.a_key = table_from_file(params.key_table, params.key_table_tensor, "key_table", shape);
    t.a_value = table_from_file(params.value_table, params.value_table_tensor, "value_table", shape);
    const bool seed_key = t.a_key.size() == 0, seed_value = t.a_value.size() == 0;
    if (seed_key)
        t.a_key.resize(rows, params.head_dim);
    if (seed_value)
        t.a_value.resize(rows, params.head_dim);
#pragma omp parallel for schedule(static)
    for (std::int64_t r = 0; r < rows; ++r) {
        for (int c = 0; c < params.head_dim; ++c) {
            const auto index = static_cast<std::uint64_t>(r * params.head_dim + c);
            if (seed_key)
                t.a_key(r, c) = rng::normal(params.seed, rng::kShawKey, index) * params.stddev;
            if (seed_value)
                t.a_value(r, c) = rng::normal(params.seed, rng::kShawValue, index) * params.stddev;
        }
    }
    return t;
}

namespace {

void require_dim(const ShawTables& t, Eigen::Index size, const char* what)
{
    if (size != t.a_key.cols())
        throw std::invalid_argument(std::string("shaw: ") + what + " has " + std::to_string(size) +
                                    " entries, expected head_dim " + std::to_string(t.a_key.cols()));
}

} // namespace

double shaw_position_logit(const ShawTables& tables, const Eigen::Ref<const Eigen::VectorXd>& q_i,
                           std::int64_t i, std::int64_t j)
{
    require_dim(tables, q_i.size(), "q_i");
    const auto row = shaw_relative_index(i, j, tables.k) + tables.k;
    return q_i.dot(tables.a_key.row(row).transpose()) / std::sqrt(static_cast<double>(q_i.size()));
}

double shaw_logit(const ShawTables& tables, const Eigen::Ref<const Eigen::VectorXd>& q_i,
                  const Eigen::Ref<const Eigen::VectorXd>& k_j, std::int64_t i, std::int64_t j)
{
    require_dim(tables, q_i.size(), "q_i");
    require_dim(tables, k_j.size(), "k_j");
    const auto row = shaw_relative_index(i, j, tables.k) + tables.k;
    return q_i.dot(k_j + tables.a_key.row(row).transpose()) / std::sqrt(static_cast<double>(q_i.size()));
}

Eigen::VectorXd shaw_output(const ShawTables& tables, const Eigen::Ref<const Eigen::VectorXd>& alpha,
                            const Eigen::Ref<const Eigen::MatrixXd>& values, std::int64_t i,
                            std::int64_t first_key)
{
    require_dim(tables, values.cols(), "values");
    if (values.rows() != alpha.size())
        throw std::invalid_argument("shaw_output: alpha has " + std::to_string(alpha.size()) +
                                    " weights but values has " + std::to_string(values.rows()) + " rows");
    Eigen::VectorXd z = values.transpose() * alpha;
    for (Eigen::Index t = 0; t < alpha.size(); ++t) {
        const auto row = shaw_relative_index(i, first_key + t, tables.k) + tables.k;
        z += alpha[t] * tables.a_value.row(row).transpose();
    }
    return z;
}

} // namespace posatlas
