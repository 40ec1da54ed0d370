// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/curve_view.h"

#include "views/figure_style.h"
#include "views/note_text.h"

#include <QCheckBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QPainter>
#include <QVBoxLayout>

namespace posatlas::ui {

CurveView::CurveView(QWidget* parent)
    : QWidget(parent), m_chart(new CurveChart), m_chartView(new CurveChartView(m_chart, this)),
      m_note(new NoteText(this)), m_logX(new QCheckBox(tr("log x"), this))
{
    // Wrapped at the width beside the check box; in a view too short for all its lines, cut with "…"
    // (the whole note in its tooltip) rather than drawn over the chart.
    // The chart's height follows the room (its size hint ignored): the note gets its lines first, the
    // chart keeps at least its own minimum (axes and title).
    QSizePolicy chartPolicy = m_chartView->sizePolicy();
    chartPolicy.setVerticalPolicy(QSizePolicy::Ignored);
    m_chartView->setSizePolicy(chartPolicy);
    m_logX->setToolTip(tr("Logarithmic x axis"));

    auto* bottom = new QHBoxLayout;
    bottom->setContentsMargins(6, 0, 6, 2);
    bottom->addWidget(m_note, 1);
    // Aligned, so that its fixed height does not cap the row's: the note's lines set it.
    bottom->addWidget(m_logX, 0, Qt::AlignTop);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(m_chartView, 1);
    layout->addLayout(bottom);

    connect(m_chartView, &CurveChartView::hovered, this, &CurveView::hovered);
    connect(m_logX, &QCheckBox::toggled, this, [this](bool on) { setLogX(on); });
    connect(m_chart, &QChart::plotAreaChanged, this, &CurveView::plotAreaChanged);
    restyle();
}

void CurveView::setData(const CurveData& data)
{
    m_data = data;
    m_chart->setCurveData(data);
    m_note->setText(data.note);
    m_note->setVisible(!data.note.isEmpty());
    const QSignalBlocker block(m_logX);
    m_logX->setChecked(m_chart->logX());
}

void CurveView::setLogX(bool log)
{
    const bool changed = log != m_chart->logX();
    m_chart->setLogX(log);
    {
        const QSignalBlocker block(m_logX);
        m_logX->setChecked(log);
    }
    if (changed)
        emit logXChanged(log);
}

bool CurveView::logX() const
{
    return m_chart->logX();
}

void CurveView::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange ||
        event->type() == QEvent::StyleChange)
        restyle();
    QWidget::changeEvent(event);
}

void CurveView::restyle()
{
    const bool dark = palette_is_dark(palette());
    m_chart->setChartStyle({dark, 1.0, font()});
    m_chartView->setDark(dark);
}

void CurveView::renderFigure(QPainter& painter, const QRectF& target, const RenderOptions& options) const
{
    const FigureColors colors = figure_colors(options.dark);
    painter.save();
    painter.fillRect(target, colors.background);
    const double margin = 6.0 * options.font_scale;
    QRectF rect = target.adjusted(margin, margin, -margin, -margin);
    rect = paint_title(painter, rect, m_data.title, scaled_font(font(), options.font_scale, 1.25, true),
                       colors.text);
    const QFont small = scaled_font(font(), options.font_scale, 0.9);
    rect = paint_caption(painter, rect, options.caption, small, colors.muted);
    rect = paint_caption(painter, rect, m_data.note, small, colors.text);
    render_curve_chart(m_data, m_chart->logX(), painter, rect, {options.dark, options.font_scale, font()},
                       false);
    painter.restore();
}

} // namespace posatlas::ui
