// SPDX-License-Identifier: GPL-3.0-or-later
#include "io/patch_grid_columns.h"

#include "io/columns.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <string>

namespace posatlas {

std::vector<CsvColumn> patch_grid_columns(const Scenario& s, const PatchGridRow& row)
{
    const auto patches = static_cast<std::size_t>(
        std::clamp<std::int64_t>(s.seq_len, 0, static_cast<std::int64_t>(row.values.size())));
    CsvColumn patch{columns::kPatch}, r{columns::kGridRow}, c{columns::kGridColumn}, value{columns::kValue};
    for (std::size_t p = 0; p < patches; ++p) {
        const auto i = static_cast<std::int64_t>(p);
        patch.numbers.push_back(static_cast<double>(i));
        r.numbers.push_back(static_cast<double>(i / row.grid.width));
        c.numbers.push_back(static_cast<double>(i % row.grid.width));
        value.numbers.push_back(row.values[p]);
    }
    return {std::move(patch), std::move(r), std::move(c), std::move(value)};
}

nlohmann::json patch_grid_json(const Scenario& s, const PatchGridRow& row)
{
    nlohmann::json j;
    j["view"] = "patch-grid";
    j["method"] = std::string(s.method.id());
    j["kind"] = std::string(matrix_kind_id(row.kind));
    j["value_label"] = row.value_label;
    j["grid"] = {{"rows", row.grid.height}, {"columns", row.grid.width}};
    j["seq_len"] = s.seq_len;
    j["query_patch"] = row.query;
    j["query_row"] = row.query / row.grid.width;
    j["query_column"] = row.query % row.grid.width;
    const bool any = row.min <= row.max;
    j["min"] = any ? nlohmann::json(row.min) : nlohmann::json(nullptr);
    j["max"] = any ? nlohmann::json(row.max) : nlohmann::json(nullptr);
    for (const CsvColumn& column : patch_grid_columns(s, row)) {
        nlohmann::json a = nlohmann::json::array();
        for (double v : column.numbers)
            a.push_back(std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr));
        j[column.name] = std::move(a);
    }
    return j;
}

} // namespace posatlas
