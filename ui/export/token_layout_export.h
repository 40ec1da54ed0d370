// SPDX-License-Identifier: GPL-3.0-or-later
// M-RoPE's token-layout figure (views/token_layout_view.h) and its numbers, exported as the views are
// (export/figure_export.h): the figure through export_figure (PNG, SVG, PDF), the numbers through the
// same atomic writer as CSV (one row per token drawn: position, token_kind, t_id, h_id, w_id, the columns
// of `posatlas compute mrope-positions`) or JSON (those columns, then pair and pair_axis, the axis each
// rotary pair follows). Shared by the Token layout dock, `posatlas export --view token-layout` and the
// gallery, so every path writes the same file.
#pragma once

#include "export/figure_export.h"
#include "jobs/token_layout_data.h"
#include "scenario/types.h"

#include <QByteArray>
#include <QString>

#include <memory>

namespace posatlas::ui {

class TokenLayoutView;

// The figure of scenario `s` off screen: token_layout_job on the calling thread (it is a few hundred
// tokens at most), loaded into a fresh view. Throws ParameterError for a layout core refuses.
class TokenLayoutFigure
{
public:
    explicit TokenLayoutFigure(const Scenario& s);
    ~TokenLayoutFigure();

    const Figure& figure() const;
    const TokenLayoutData& data() const;

private:
    std::unique_ptr<TokenLayoutView> m_view;
};

// The numbers of the tokens `data` draws (io/mrope_columns.h for scenario s's layout).
QByteArray token_layout_csv(const Scenario& s, const TokenLayoutData& data);
QByteArray token_layout_json(const Scenario& s, const TokenLayoutData& data);

// Writes the figure (png, svg, pdf) or its numbers (csv, json) by the extension of `path`, the figure
// with the metadata every export carries (set_figure_metadata of `s`). Throws ExportError.
void export_token_layout(const Figure& figure, const TokenLayoutData& data, const QString& path,
                         FigureExportOptions options, const Scenario& s);

} // namespace posatlas::ui
