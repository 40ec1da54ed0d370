// SPDX-License-Identifier: GPL-3.0-or-later
#include "lab/lab_sweep_figure.h"

#include "views/curve_chart.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>
#include <map>

namespace posatlas::ui {

namespace {

struct LabSweepText {
    Q_DECLARE_TR_FUNCTIONS(posatlas::ui::LabSweepFigure)
};

} // namespace

CurveData lab_sweep_curves(const lab::SweepTable& table)
{
    CurveData d;
    // lm: held-out perplexity (exp of the mean cross-entropy), lower is better; the others: accuracy.
    const bool lm = table.task == "lm";
    d.title = (lm ? LabSweepText::tr("Held-out perplexity against length (%1, trained at %2)")
                  : LabSweepText::tr("Answer accuracy against length (%1, trained at %2)"))
                  .arg(QString::fromStdString(table.task))
                  .arg(table.train_len);
    d.x_label = LabSweepText::tr("sequence length (tokens)");
    d.y_label = lm ? LabSweepText::tr("perplexity") : LabSweepText::tr("answer accuracy");
    d.x_column = QStringLiteral("length");
    d.y_column = lm ? QStringLiteral("perplexity") : QStringLiteral("accuracy");
    d.log_x = true;
    int index = 0;
    for (const std::string& m : table.methods) {
        std::map<std::int64_t, std::vector<double>> at; // length -> accuracy (perplexity) of each seed
        for (const lab::SweepRow& r : table.rows)
            if (r.method == m && r.defined)
                at[r.length].push_back(lm ? std::exp(r.loss) : r.accuracy);
        QString name = QString::fromStdString(m);
        if (m == "rope" && table.rope_type != "default")
            name = LabSweepText::tr("%1 with %2 ×%3", "rope with yarn ×4: a method, its test-time scaling")
                       .arg(name, QString::fromStdString(table.rope_type))
                       .arg(table.factor);
        CurveSeries mean, lo, hi;
        mean.name = name;
        lo.name = hi.name = LabSweepText::tr("%1 (lowest and highest seed)").arg(name);
        for (const auto& [length, values] : at) {
            double sum = 0;
            for (double v : values)
                sum += v;
            const auto x = static_cast<double>(length);
            mean.x.push_back(x);
            mean.y.push_back(sum / static_cast<double>(values.size()));
            lo.x.push_back(x);
            lo.y.push_back(*std::min_element(values.begin(), values.end()));
            hi.x.push_back(x);
            hi.y.push_back(*std::max_element(values.begin(), values.end()));
        }
        mean.color_index = lo.color_index = hi.color_index = index++;
        lo.dashed = hi.dashed = true;
        mean.id = QString::fromStdString(m);
        d.series.push_back(mean);
        if (table.seeds > 1) {
            d.series.push_back(lo);
            d.series.push_back(hi);
        }
    }
    d.markers.push_back(
        {static_cast<double>(table.train_len), LabSweepText::tr("trained %1").arg(table.train_len), true});
    if (!lm) {
        // Accuracy on its whole scale, 0 to 1: a range fitted to the data put the axis's foot at a few
        // per cent, where a reader takes it for zero.
        double xlo = static_cast<double>(table.train_len), xhi = xlo;
        for (const CurveSeries& s : d.series)
            for (double x : s.x) {
                xlo = std::min(xlo, x);
                xhi = std::max(xhi, x);
            }
        if (xhi > xlo)
            d.fixed_ranges = CurveRanges{xlo, xhi, 0.0, 1.0};
    }
    return d;
}

void LabSweepFigure::renderFigure(QPainter& painter, const QRectF& target, const RenderOptions& options) const
{
    render_curve_chart(m_data, m_data.log_x, painter, target, {options.dark, options.font_scale, {}}, true);
}

} // namespace posatlas::ui
