// SPDX-License-Identifier: GPL-3.0-or-later
#include "export/patch_grid_export.h"

#include "io/patch_grid_columns.h"
#include "jobs/patch_grid_job.h"
#include "model/session.h"

#include <QCoreApplication>

#include <nlohmann/json.hpp>

namespace posatlas::ui {
namespace {

// Messages of the free functions below; lupdate reads PatchGridExport::tr("...") under this context.
struct PatchGridExport {
    Q_DECLARE_TR_FUNCTIONS(posatlas::ui::PatchGridExport)
};

} // namespace

std::unique_ptr<PatchGridView> patch_grid_figure(const Scenario& s, std::int64_t query)
{
    auto view = std::make_unique<PatchGridView>();
    view->setData(patch_grid_job(s, query));
    return view;
}

QByteArray patch_grid_csv(const Scenario& s, const PatchGridRow& row)
{
    return QByteArray::fromStdString(csv_text(patch_grid_columns(s, row)));
}

QByteArray patch_grid_json_bytes(const Scenario& s, const PatchGridRow& row)
{
    std::string out;
    append_json_text(out, patch_grid_json(s, row));
    out += '\n';
    return QByteArray::fromStdString(out);
}

void export_patch_grid(const Scenario& s, std::int64_t query, const QString& path,
                       FigureExportOptions options)
{
    const std::optional<ExportFormat> format = export_format_from_path(path);
    if (!format)
        throw ExportError(PatchGridExport::tr("%1: unknown extension; use one of %2")
                              .arg(path, export_format_list())
                              .toStdString());
    const std::unique_ptr<PatchGridView> view = patch_grid_figure(s, query);
    const PatchGridRow& row = *view->row();
    switch (*format) {
    case ExportFormat::Csv: return write_file_atomically(path, patch_grid_csv(s, row));
    case ExportFormat::Json: return write_file_atomically(path, patch_grid_json_bytes(s, row));
    case ExportFormat::Png:
    case ExportFormat::Svg:
    case ExportFormat::Pdf: break;
    }
    set_figure_metadata(options, *view, s);
    export_figure(*view, path, options);
}

} // namespace posatlas::ui
