// SPDX-License-Identifier: GPL-3.0-or-later
// The patch grid's figure and numbers written to a file, one path for the patch-grid dock's Export, for
// `posatlas export --view patch-grid` and for the gallery: the row is computed by core on the calling
// thread (one row of compute_matrix: patch_grid_row), drawn by PatchGridView::renderFigure into PNG, SVG
// or PDF by export_figure (figure_export.h), or written as CSV / JSON in core's layout
// (io/patch_grid_columns.h) by write_file_atomically: a failure leaves no partial file under the name.
#pragma once

#include "export/figure_export.h"
#include "views/patch_grid_view.h"

#include <QByteArray>
#include <QString>

#include <cstdint>
#include <memory>

namespace posatlas::ui {

// A view holding the grid of `s` for `query` (off screen). Throws what patch_grid_job throws
// (ParameterError naming "method" or "query_patch").
std::unique_ptr<PatchGridView> patch_grid_figure(const Scenario& s, std::int64_t query);

// The numbers of the row as written: CSV (patch, row, column, value) or JSON with its metadata.
QByteArray patch_grid_csv(const Scenario& s, const PatchGridRow& row);
QByteArray patch_grid_json_bytes(const Scenario& s, const PatchGridRow& row);

// Writes the figure (.png, .svg, .pdf; title and description as every export's, set_figure_metadata) or
// the numbers (.csv, .json) of `s` for `query` to `path`. Throws ExportError (unknown extension, a
// file that cannot be written) and ParameterError (as patch_grid_figure).
void export_patch_grid(const Scenario& s, std::int64_t query, const QString& path,
                       FigureExportOptions options);

} // namespace posatlas::ui
