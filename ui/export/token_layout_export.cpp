// SPDX-License-Identifier: GPL-3.0-or-later
#include "export/token_layout_export.h"

#include "io/columns.h"
#include "io/number_text.h"
#include "jobs/token_layout_job.h"
#include "methods/mrope/mrope.h"
#include "model/session.h"
#include "views/token_layout_view.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace posatlas::ui {
namespace {

// Core's id of a token's kind ("text", "image", "video"), as `posatlas compute mrope-positions` writes it.
std::string kind_id(LayoutTokenKind k)
{
    switch (k) {
    case LayoutTokenKind::Text: return std::string(mrope_token_kind_id(MropeTokenKind::Text));
    case LayoutTokenKind::Image: return std::string(mrope_token_kind_id(MropeTokenKind::Image));
    case LayoutTokenKind::Video: return std::string(mrope_token_kind_id(MropeTokenKind::Video));
    }
    return {};
}

std::string axis_id(int axis)
{
    return axis == 0 ? "t" : axis == 1 ? "h" : "w";
}

// The token columns: one row per token the figure draws.
std::vector<CsvColumn> token_columns(const TokenLayoutData& d)
{
    const std::size_t n = d.ids_t.size();
    std::vector<double> position(n), t(n), h(n), w(n);
    std::vector<std::string> kind(n);
    for (const LayoutBlock& b : d.blocks)
        for (std::int64_t k = 0; k < b.tokens; ++k)
            if (const auto i = static_cast<std::size_t>(b.first + k); i < n)
                kind[i] = kind_id(b.kind);
    for (std::size_t i = 0; i < n; ++i) {
        position[i] = static_cast<double>(i);
        t[i] = static_cast<double>(d.ids_t[i]);
        h[i] = static_cast<double>(d.ids_h[i]);
        w[i] = static_cast<double>(d.ids_w[i]);
    }
    return {{columns::kPosition, position},
            {.name = columns::kTokenKind, .texts = kind},
            {columns::kTimeId, t},
            {columns::kHeightId, h},
            {columns::kWidthId, w}};
}

} // namespace

TokenLayoutFigure::TokenLayoutFigure(const Scenario& s) : m_view(std::make_unique<TokenLayoutView>())
{
    m_view->setData(token_layout_job(s));
}

TokenLayoutFigure::~TokenLayoutFigure() = default;

const Figure& TokenLayoutFigure::figure() const
{
    return *m_view;
}

const TokenLayoutData& TokenLayoutFigure::data() const
{
    return m_view->data();
}

QByteArray token_layout_csv(const TokenLayoutData& data)
{
    return QByteArray::fromStdString(csv_text(token_columns(data)));
}

QByteArray token_layout_json(const TokenLayoutData& d)
{
    nlohmann::json j;
    j["title"] = d.title.toStdString();
    j["layout"] = d.layout_text.toStdString();
    j["layout_tokens"] = d.layout_tokens;
    for (const CsvColumn& c : token_columns(d)) {
        if (c.is_text())
            j[c.name] = c.texts;
        else
            j[c.name] = c.numbers;
    }
    std::vector<int> pair;
    std::vector<std::string> axis;
    for (std::size_t i = 0; i < d.pair_axes.size(); ++i) {
        pair.push_back(static_cast<int>(i));
        axis.push_back(axis_id(d.pair_axes[i]));
    }
    j[columns::kPair] = pair;
    j[columns::kPairAxis] = axis;
    j["sections"] = d.sections;
    j["interleaved"] = d.interleaved;
    std::string out;
    append_json_text(out, j);
    out += '\n';
    return QByteArray::fromStdString(out);
}

void export_token_layout(const Figure& figure, const TokenLayoutData& data, const QString& path,
                         FigureExportOptions options, const Scenario& s)
{
    const auto format = export_format_from_path(path);
    if (format == ExportFormat::Csv)
        return write_file_atomically(path, token_layout_csv(data));
    if (format == ExportFormat::Json)
        return write_file_atomically(path, token_layout_json(data));
    set_figure_metadata(options, figure, s);
    export_figure(figure, path, options); // ExportError for an unknown extension
}

} // namespace posatlas::ui
