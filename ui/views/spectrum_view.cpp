// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/spectrum_view.h"

#include "views/figure_style.h"

#include <QEvent>
#include <QLabel>
#include <QPainter>
#include <QVBoxLayout>

namespace posatlas::ui {

SpectrumView::SpectrumView(QWidget* parent)
    : QWidget(parent), m_title(new QLabel(this)), m_wavelengthChart(new CurveChart),
      m_ratioChart(new CurveChart), m_wavelengthView(new CurveChartView(m_wavelengthChart, this)),
      m_ratioView(new CurveChartView(m_ratioChart, this)), m_factor(new QLabel(this))
{
    m_title->setAlignment(Qt::AlignCenter);
    m_title->setWordWrap(true); // a method without frequencies gets a sentence here, not a clipped line
    m_title->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_factor->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_factor->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* top = m_wavelengthView;
    auto* bottom = m_ratioView;
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 2, 0, 2);
    layout->setSpacing(0);
    layout->addWidget(m_title);
    layout->addWidget(top, 3);
    layout->addWidget(bottom, 2);
    layout->addWidget(m_factor);
    m_factor->setContentsMargins(6, 0, 6, 0);
    connect(top, &CurveChartView::hovered, this, &SpectrumView::hovered);
    connect(bottom, &CurveChartView::hovered, this, &SpectrumView::hovered);
    restyle();
}

QString SpectrumView::figureTitle() const
{
    if (m_data.scaling_label.isEmpty())
        return m_data.title;
    if (m_data.title.isEmpty())
        return m_data.scaling_label;
    return tr("%1 · %2").arg(m_data.title, m_data.scaling_label);
}

QString SpectrumView::factorText() const
{
    // HF multiplies cos and sin by the factor, so queries and keys both carry it: logits scale by its square.
    const double a2 = m_data.attention_factor * m_data.attention_factor;
    // DeepSeek's attention also multiplies its softmax scale: the caption names both and their product.
    const QString factor =
        m_data.softmax_scale == 1.0
            ? tr("attention factor %1 on cos and sin (logits × %2)")
                  .arg(format_number(m_data.attention_factor, 4), format_number(a2, 4))
            : tr("attention factor %1 on cos and sin, softmax scale × %2 (logits × %3)")
                  .arg(format_number(m_data.attention_factor, 4), format_number(m_data.softmax_scale, 4),
                       format_number(a2 * m_data.softmax_scale, 4));
    return m_data.note.isEmpty() ? factor : tr("%1 · %2").arg(factor, m_data.note);
}

CurveData SpectrumView::wavelengthCurves(const SpectrumData& data, bool dark)
{
    CurveData c;
    c.title = tr("Wavelength per pair");
    c.x_label = tr("pair i");
    c.y_label = tr("wavelength (positions)");
    c.log_y = true;
    CurveSeries original;
    original.name = tr("original");
    original.x = data.pair;
    original.y = data.wavelength_original;
    original.dashed = true;
    original.color = series_color(0, dark);
    CurveSeries scaled;
    scaled.name = data.scaling_label.isEmpty() ? tr("scaled") : tr("scaled (%1)").arg(data.scaling_label);
    scaled.x = data.pair;
    scaled.y = data.wavelength_scaled;
    scaled.color = series_color(1, dark);
    c.series = {original, scaled};
    if (data.trained_length > 0)
        c.markers.append(
            {data.trained_length, tr("trained %1").arg(format_number(data.trained_length)), false});
    if (data.target_length > 0 && data.target_length != data.trained_length)
        c.markers.append({data.target_length, tr("target %1").arg(format_number(data.target_length)), false});
    c.fixed_ranges = data.wavelength_ranges;
    return c;
}

CurveData SpectrumView::ratioCurves(const SpectrumData& data, bool dark)
{
    CurveData c;
    c.title = tr("Frequency ratio θ′/θ per pair");
    c.x_label = tr("pair i");
    c.y_label = tr("ratio");
    CurveSeries ratio;
    ratio.name = tr("θ′/θ");
    ratio.x = data.pair;
    ratio.y = data.ratio;
    ratio.color = series_color(1, dark); // the scaled frequencies: same colour as above
    c.series = {ratio};
    // Reference line at 1 (unchanged frequency); it also keeps 1 in view when every ratio is equal.
    c.markers.append({1.0, tr("unscaled θ′ = θ"), false});
    if (!data.ramp.empty()) {
        CurveSeries ramp;
        ramp.name = tr("YaRN ramp");
        ramp.x = data.pair;
        ramp.y = data.ramp;
        ramp.dashed = true;
        ramp.color = series_color(2, dark);
        c.series.append(ramp);
    }
    c.fixed_ranges = data.ratio_ranges;
    return c;
}

void SpectrumView::setData(const SpectrumData& data)
{
    m_data = data;
    m_title->setText(figureTitle());
    m_title->setVisible(!m_title->text().isEmpty());
    m_factor->setText(factorText());
    // No pairs (a method other than RoPE): the title explains why; empty axes would only confuse.
    const bool has_data = !m_data.pair.empty();
    m_wavelengthView->setVisible(has_data);
    m_ratioView->setVisible(has_data);
    m_factor->setVisible(has_data);
    layout()->setAlignment(m_title, has_data ? Qt::Alignment() : Qt::AlignVCenter);
    const bool dark = palette_is_dark(palette());
    m_wavelengthChart->setCurveData(wavelengthCurves(m_data, dark));
    m_ratioChart->setCurveData(ratioCurves(m_data, dark));
}

void SpectrumView::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange ||
        event->type() == QEvent::StyleChange)
        restyle();
    QWidget::changeEvent(event);
}

void SpectrumView::restyle()
{
    const ChartStyle style{palette_is_dark(palette()), 1.0, font()};
    m_wavelengthChart->setChartStyle(style);
    m_ratioChart->setChartStyle(style);
    m_wavelengthView->setDark(style.dark);
    m_ratioView->setDark(style.dark);
    m_wavelengthChart->setCurveData(wavelengthCurves(m_data, style.dark));
    m_ratioChart->setCurveData(ratioCurves(m_data, style.dark));
    QFont bold = scaled_font(font(), 1.0, 1.1, true);
    m_title->setFont(bold);
}

void SpectrumView::renderFigure(QPainter& painter, const QRectF& target, const RenderOptions& options) const
{
    const FigureColors colors = figure_colors(options.dark);
    painter.save();
    painter.fillRect(target, colors.background);
    const double margin = 6.0 * options.font_scale;
    QRectF rect = target.adjusted(margin, margin, -margin, -margin);
    if (m_data.pair.empty()) {
        painter.setPen(colors.text);
        painter.setFont(scaled_font(font(), options.font_scale, 1.25, true));
        painter.drawText(rect, Qt::AlignCenter | Qt::TextWordWrap, figureTitle());
        painter.restore();
        return;
    }
    rect = paint_title(painter, rect, figureTitle(), scaled_font(font(), options.font_scale, 1.25, true),
                       colors.text);
    const QFont small = scaled_font(font(), options.font_scale, 0.9);
    rect = paint_caption(painter, rect, options.caption, small, colors.muted);
    rect = paint_caption(painter, rect, factorText(), small, colors.text);
    const ChartStyle style{options.dark, options.font_scale, font()};
    const double split = rect.top() + rect.height() * 0.58;
    render_curve_chart(wavelengthCurves(m_data, options.dark), false, painter,
                       QRectF(rect.left(), rect.top(), rect.width(), split - rect.top()), style, true);
    render_curve_chart(ratioCurves(m_data, options.dark), false, painter,
                       QRectF(rect.left(), split, rect.width(), rect.bottom() - split), style, true);
    painter.restore();
}

} // namespace posatlas::ui
