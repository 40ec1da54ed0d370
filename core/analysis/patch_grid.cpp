// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/patch_grid.h"

#include "methods/rope2d/rope2d.h"
#include "methods/rope_mixed/rope_mixed.h"
#include "methods/swin/swin.h"
#include "methods/vit/vit.h"

#include <limits>
#include <string>

namespace posatlas {

namespace {

std::optional<std::int64_t> grid_width(const Scenario& s)
{
    // Each patch method's own width, read through its parameter struct.
    if (s.method == Rope2dParams::kMethod)
        return s.params<Rope2dParams>().grid_width;
    if (s.method == RopeMixedParams::kMethod)
        return s.params<RopeMixedParams>().grid_width;
    if (s.method == SwinParams::kMethod)
        return s.params<SwinParams>().window_size;
    if (s.method == VitParams::kMethod) {
        // The table's grid (a file sets its own; the CLS row has no patch): a table that cannot be read
        // has no grid until validation's message is dealt with.
        try {
            return vit_grid_side(s);
        } catch (const ParameterError&) {
            return std::nullopt;
        }
    }
    return std::nullopt;
}

} // namespace

std::optional<PatchGrid> patch_grid(const Scenario& s)
{
    const std::optional<std::int64_t> width = grid_width(s);
    if (!width || *width < 1 || s.seq_len < 1)
        return std::nullopt;
    return PatchGrid{*width, (s.seq_len + *width - 1) / *width, s.method == VitParams::kMethod};
}

MatrixKind patch_grid_kind(const Scenario& s)
{
    const std::vector<MatrixKind> kinds = matrix_kinds_for(s.method);
    return kinds.empty() ? MatrixKind::Logits : kinds.front();
}

PatchGridRow patch_grid_row(const Scenario& s, std::int64_t query, const CancelFn& cancel,
                            const ProgressFn& progress)
{
    const std::optional<PatchGrid> grid = patch_grid(s);
    if (!grid)
        throw ParameterError("method", "a method of image patches (rope2d, rope-mixed, swin, vit)",
                             std::string(s.method.id()));
    if (query < 0 || query >= s.seq_len)
        throw ParameterError("query_patch", "an integer in [0, " + std::to_string(s.seq_len - 1) + "]",
                             std::to_string(query));

    PatchGridRow out;
    out.grid = *grid;
    out.kind = patch_grid_kind(s);
    out.query = query;
    MatrixWindow window;
    window.row0 = query;
    window.rows = 1;
    window.col0 = 0;
    window.cols = s.seq_len;
    window.precision = Precision::Double;
    const MatrixResult m = compute_matrix(s, out.kind, window, cancel, progress);

    out.values.assign(static_cast<std::size_t>(grid->width * grid->height),
                      std::numeric_limits<double>::quiet_NaN());
    for (std::int64_t j = 0; j < s.seq_len; ++j)
        out.values[static_cast<std::size_t>(j)] = m.at(0, j);
    out.min = m.min;
    out.max = m.max;
    if (!finite_extremes(out.values.data(), static_cast<std::int64_t>(out.values.size()), out.min, out.max)) {
        out.min = 1.0;
        out.max = 0.0;
    }
    out.is_signed = m.is_signed;
    out.value_label = m.value_label;
    return out;
}

} // namespace posatlas
