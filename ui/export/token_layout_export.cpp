// SPDX-License-Identifier: GPL-3.0-or-later
#include "export/token_layout_export.h"

#include "io/columns.h"
#include "io/mrope_columns.h"
#include "io/number_text.h"
#include "jobs/token_layout_job.h"
#include "methods/mrope/mrope.h"
#include "model/session.h"
#include "views/token_layout_view.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace posatlas::ui {

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

QByteArray token_layout_csv(const Scenario& s, const TokenLayoutData& data)
{
    return QByteArray::fromStdString(csv_text(
        mrope_position_columns(s.params<MropeParams>(), static_cast<std::int64_t>(data.ids_t.size()))));
}

QByteArray token_layout_json(const Scenario& s, const TokenLayoutData& d)
{
    nlohmann::json j;
    j["title"] = d.title.toStdString();
    j["layout"] = d.layout_text.toStdString();
    j["layout_tokens"] = d.layout_tokens;
    for (const CsvColumn& c :
         mrope_position_columns(s.params<MropeParams>(), static_cast<std::int64_t>(d.ids_t.size()))) {
        if (c.is_text())
            j[c.name] = c.texts;
        else
            j[c.name] = c.numbers;
    }
    std::vector<int> pair;
    std::vector<std::string> axis;
    for (std::size_t i = 0; i < d.pair_axes.size(); ++i) {
        pair.push_back(static_cast<int>(i));
        axis.emplace_back(mrope_axis_id(d.pair_axes[i]));
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
        return write_file_atomically(path, token_layout_csv(s, data));
    if (format == ExportFormat::Json)
        return write_file_atomically(path, token_layout_json(s, data));
    set_figure_metadata(options, figure, s);
    export_figure(figure, path, options); // ExportError for an unknown extension
}

} // namespace posatlas::ui
