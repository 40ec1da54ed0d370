// SPDX-License-Identifier: GPL-3.0-or-later
#include "jobs/patch_grid_job.h"

#include "model/scenario_model.h"

#include <QCoreApplication>

#include <cmath>

namespace posatlas::ui {
namespace {

// Texts of the free functions below; lupdate reads PatchGridJob::tr("...") under this context.
struct PatchGridJob {
    Q_DECLARE_TR_FUNCTIONS(posatlas::ui::PatchGridJob)
};

} // namespace

QString patch_grid_title(const Scenario& s, std::int64_t query)
{
    const std::optional<PatchGrid> grid = patch_grid(s);
    if (!grid)
        return PatchGridJob::tr("The patch grid is shown for methods of image patches (2D RoPE, RoPE-Mixed, "
                                "Swin, ViT).");
    return (grid->cls_left_out
                ? PatchGridJob::tr(
                      "%1 · %2 × %3 patch grid · query patch %4 (row %5, column %6) · %7 · the CLS "
                      "token's row left out")
                : PatchGridJob::tr("%1 · %2 × %3 patch grid · query patch %4 (row %5, column %6) · %7"))
        .arg(methodShortName(s.method))
        .arg(grid->height)
        .arg(grid->width)
        .arg(query)
        .arg(query / grid->width)
        .arg(query % grid->width)
        .arg(kindLabel(patch_grid_kind(s)));
}

PatchGridData patch_grid_job(const Scenario& s, std::int64_t query, const CancelFn& cancel,
                             const ProgressFn& progress)
{
    PatchGridData d;
    d.row = patch_grid_row(s, query, cancel, progress);
    d.title = patch_grid_title(s, query);
    d.value_label = QCoreApplication::translate("MatrixLabel", d.row->value_label.c_str());
    std::int64_t missing = 0;
    for (std::int64_t p = 0; p < s.seq_len && p < static_cast<std::int64_t>(d.row->values.size()); ++p)
        missing += std::isnan(d.row->values[static_cast<std::size_t>(p)]) ? 1 : 0;
    if (missing > 0)
        d.note = PatchGridJob::tr("grey: %1 patches with no value (outside the query's window)").arg(missing);
    return d;
}

} // namespace posatlas::ui
