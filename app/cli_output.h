// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// How `posatlas compute` writes its numbers: JSON or CSV (by --format or the extension of --out), every
// number through core's one number policy (io/number_text.h), float32 results by their float form.

#include "cli_options.h"
#include "io/number_text.h"

#include <Eigen/Core>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace posatlas::cli::quantity_kernels {

enum class Format { Json, Csv };

// --format, else the extension of --out FILE (.csv), else JSON.
Format format_of(const Options& o);

// One JSON document and a newline, numbers through core's number policy: 1e6 is 1000000, 0.1 is 0.1.
void write_json(std::ostream& out, const nlohmann::json& j);

template <typename T> std::vector<double> to_doubles(const std::vector<T>& v)
{
    return std::vector<double>(v.begin(), v.end());
}

// A cell's text: doubles by number_text's policy, float32 results (--precision single) by its float form.
inline bool append_cell(std::string& out, double v)
{
    return append_number_text(out, v);
}
inline bool append_cell(std::string& out, float v)
{
    return append_float_text(out, v);
}
inline nlohmann::json cell_json(double v)
{
    return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr);
}
inline nlohmann::json cell_json(float v)
{
    return std::isfinite(v) ? nlohmann::json(float_as_short_double(v)) : nlohmann::json(nullptr);
}

template <typename Matrix> nlohmann::json matrix_json(const Matrix& m)
{
    nlohmann::json rows = nlohmann::json::array();
    for (Eigen::Index r = 0; r < m.rows(); ++r) {
        nlohmann::json row = nlohmann::json::array();
        for (Eigen::Index c = 0; c < m.cols(); ++c)
            row.push_back(cell_json(m(r, c)));
        rows.push_back(std::move(row));
    }
    return rows;
}

template <typename Matrix>
void write_matrix_csv(std::ostream& out, const Matrix& m, const std::string& row_name,
                      const std::vector<std::int64_t>& row_index, const std::string& col_prefix,
                      const std::vector<std::int64_t>& col_index)
{
    out << row_name;
    for (Eigen::Index c = 0; c < m.cols(); ++c)
        out << ',' << col_prefix << col_index[static_cast<std::size_t>(c)];
    out << '\n';
    std::string line;
    for (Eigen::Index r = 0; r < m.rows(); ++r) {
        line = std::to_string(row_index[static_cast<std::size_t>(r)]);
        for (Eigen::Index c = 0; c < m.cols(); ++c) {
            line += ',';
            append_cell(line, m(r, c));
        }
        line += '\n';
        out.write(line.data(), static_cast<std::streamsize>(line.size()));
    }
}

} // namespace posatlas::cli::quantity_kernels
