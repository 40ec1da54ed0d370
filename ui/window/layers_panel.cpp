// SPDX-License-Identifier: GPL-3.0-or-later
#include "window/layers_panel.h"

#include "io/number_text.h"
#include "jobs/figure_numbers.h"
#include "window/layers_controller.h"

#include <QCoreApplication>
#include <QEvent>
#include <QHBoxLayout>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollArea>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace posatlas::ui {
namespace {

// The letter in a cell.
QString kindLetter(LayerKind kind)
{
    switch (kind) {
    case LayerKind::Global: return QCoreApplication::translate("posatlas::ui::LayersPanel", "G");
    case LayerKind::Sliding: return QCoreApplication::translate("posatlas::ui::LayersPanel", "S");
    case LayerKind::Chunked: return QCoreApplication::translate("posatlas::ui::LayersPanel", "C");
    case LayerKind::NoPE: return QCoreApplication::translate("posatlas::ui::LayersPanel", "N");
    }
    return {};
}

QString num(double v)
{
    return format_number(v, 7);
}

// "0–4, 6–10, 12" for the ranges of a group (layer indices as the model's code counts them, from 0).
QString rangesText(const std::vector<std::pair<int, int>>& ranges)
{
    QStringList parts;
    for (const auto& [first, last] : ranges)
        parts << (last > first ? QStringLiteral("%1–%2").arg(first).arg(last) : QString::number(first));
    return parts.join(QStringLiteral(", "));
}

// "⁶" for 6: the exponent of a decade's label.
QString superscript(int n)
{
    return QString::fromStdString(superscript_digits(n));
}

QColor textOn(const QColor& c)
{
    return c.lightnessF() > 0.55 ? QColor(Qt::black) : QColor(Qt::white);
}

} // namespace

LayerKind layer_kind(const LayerAnatomy& layer)
{
    if (!layer.rope)
        return LayerKind::NoPE;
    switch (layer.attention) {
    case LayerAttention::Global: return LayerKind::Global;
    case LayerAttention::Sliding: return LayerKind::Sliding;
    case LayerAttention::Chunked: return LayerKind::Chunked;
    }
    return LayerKind::Global;
}

QColor layer_kind_color(LayerKind kind)
{
    // Okabe and Ito's colour-blind-safe palette.
    switch (kind) {
    case LayerKind::Global: return QColor(0x00, 0x72, 0xB2);  // blue
    case LayerKind::Sliding: return QColor(0xE6, 0x9F, 0x00); // orange
    case LayerKind::Chunked: return QColor(0x00, 0x9E, 0x73); // bluish green
    case LayerKind::NoPE: return QColor(0xA0, 0xA0, 0xA0);    // grey: no positions
    }
    return {};
}

QString layer_description(const LayerAnatomy& layer)
{
    QString span;
    switch (layer.attention) {
    case LayerAttention::Global:
        span = QCoreApplication::translate("posatlas::ui::LayersPanel", "global attention");
        break;
    case LayerAttention::Sliding:
        span = QCoreApplication::translate("posatlas::ui::LayersPanel", "sliding window of %1 keys")
                   .arg(layer.span);
        break;
    case LayerAttention::Chunked:
        span = QCoreApplication::translate("posatlas::ui::LayersPanel",
                                           "chunked attention, chunks of %1 positions")
                   .arg(layer.span);
        break;
    }
    QString encoding;
    if (!layer.rope)
        encoding = QCoreApplication::translate("posatlas::ui::LayersPanel", "NoPE (no positional encoding)");
    else if (layer.rope_type == "default")
        encoding = QCoreApplication::translate("posatlas::ui::LayersPanel", "RoPE θ = %1")
                       .arg(num(layer.rope_theta));
    else
        encoding =
            QCoreApplication::translate("posatlas::ui::LayersPanel", "RoPE θ = %1, %2 scaling ×%3")
                .arg(num(layer.rope_theta), QString::fromStdString(layer.rope_type), num(layer.rope_factor));
    QString text = QCoreApplication::translate("posatlas::ui::LayersPanel", "%1; %2").arg(span, encoding);
    if (layer.temperature)
        text += QCoreApplication::translate("posatlas::ui::LayersPanel",
                                            "; attention temperature log(⌊(p+1)/%1⌋+1)·%2+1 on the queries")
                    .arg(num(layer.floor_scale), num(layer.attn_scale));
    return text;
}

// ---------------------------------------------------------------- the strip

LayerStrip::LayerStrip(LayersController* layers, QWidget* parent) : QWidget(parent), m_layers(layers)
{
    setObjectName(QStringLiteral("layerStrip"));
    setFocusPolicy(Qt::StrongFocus);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    setAccessibleName(QCoreApplication::translate("posatlas::ui::LayersPanel", "Layers of the model"));
    connect(m_layers, &LayersController::layersChanged, this, [this] {
        updateGeometry();
        update();
    });
    connect(m_layers, &LayersController::selectionChanged, this, qOverload<>(&QWidget::update));
}

int LayerStrip::cellHeight() const
{
    return fontMetrics().height() * 2;
}

QSize LayerStrip::sizeHint() const
{
    const int n = std::max<int>(1, static_cast<int>(m_layers->layers().size()));
    return {n * fontMetrics().height(), cellHeight() + fontMetrics().height() + 6};
}

QSize LayerStrip::minimumSizeHint() const
{
    return {fontMetrics().height() * 4, cellHeight() + fontMetrics().height() + 6};
}

QRect LayerStrip::cellRect(int index) const
{
    const int n = static_cast<int>(m_layers->layers().size());
    if (index < 0 || index >= n)
        return {};
    const double w = (width() - 4.0) / n;
    const int x0 = 2 + static_cast<int>(std::lround(index * w));
    const int x1 = 2 + static_cast<int>(std::lround((index + 1) * w));
    return {x0, 3, std::max(1, x1 - x0), cellHeight()};
}

int LayerStrip::layerAt(const QPoint& p) const
{
    const int n = static_cast<int>(m_layers->layers().size());
    for (int i = 0; i < n; ++i)
        if (const QRect r = cellRect(i); p.x() >= r.left() && p.x() <= r.right() && p.y() <= r.bottom() + 2)
            return i;
    return -1;
}

void LayerStrip::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const auto& layers = m_layers->layers();
    const int n = static_cast<int>(layers.size());
    const QFontMetrics fm = fontMetrics();
    const int letterWidth = fm.horizontalAdvance(QStringLiteral("W")) + 2;
    // Layer numbers under the cells, every `step` layers so that they never overlap.
    const double w = n > 0 ? (width() - 4.0) / n : 1.0;
    const int labelWidth = fm.horizontalAdvance(QString::number(std::max(0, n - 1))) + fm.averageCharWidth();
    int step = 1;
    for (int s : {1, 2, 4, 5, 8, 10, 16, 20, 25, 50, 100})
        if (s * w >= labelWidth) {
            step = s;
            break;
        }
    for (int i = 0; i < n; ++i) {
        const LayerAnatomy& l = layers[static_cast<std::size_t>(i)];
        const QRect r = cellRect(i).adjusted(0, 0, -1, 0);
        const QColor c = layer_kind_color(layer_kind(l));
        p.fillRect(r, c);
        if (r.width() >= letterWidth) {
            p.setPen(textOn(c));
            p.drawText(r, Qt::AlignCenter, kindLetter(layer_kind(l)));
        }
        if (i % step == 0) {
            p.setPen(palette().color(QPalette::WindowText));
            const QRect label(r.center().x() - labelWidth, r.bottom() + 2, 2 * labelWidth, fm.height());
            p.drawText(label, Qt::AlignHCenter | Qt::AlignTop, QString::number(i));
        }
    }
    const int selected = m_layers->selected();
    if (selected >= 0) {
        const QRect r = cellRect(selected).adjusted(-1, -2, 0, 2);
        p.setPen(QPen(palette().color(QPalette::WindowText), std::max(2.0, fm.height() / 8.0)));
        p.setBrush(Qt::NoBrush);
        p.drawRect(r);
    }
    if (hasFocus()) {
        const QRect r = selected >= 0 ? cellRect(selected) : cellRect(0);
        p.setPen(QPen(palette().color(QPalette::Highlight), 1, Qt::DashLine));
        p.drawRect(r.adjusted(-3, -3, 2, 3));
    }
}

void LayerStrip::mousePressEvent(QMouseEvent* e)
{
    const int i = layerAt(e->position().toPoint());
    if (i >= 0)
        m_layers->selectLayer(i);
    setFocus(Qt::MouseFocusReason);
}

void LayerStrip::keyPressEvent(QKeyEvent* e)
{
    const int n = static_cast<int>(m_layers->layers().size());
    if (n == 0) {
        QWidget::keyPressEvent(e);
        return;
    }
    const int at = m_layers->selected();
    int to = -1;
    switch (e->key()) {
    case Qt::Key_Left: to = at < 0 ? 0 : std::max(0, at - 1); break;
    case Qt::Key_Right: to = at < 0 ? 0 : std::min(n - 1, at + 1); break;
    case Qt::Key_Home: to = 0; break;
    case Qt::Key_End: to = n - 1; break;
    default: QWidget::keyPressEvent(e); return;
    }
    if (to != at)
        m_layers->selectLayer(to);
    e->accept();
}

bool LayerStrip::event(QEvent* e)
{
    if (e->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(e);
        const int i = layerAt(help->pos());
        if (i >= 0)
            QToolTip::showText(help->globalPos(),
                               QCoreApplication::translate("posatlas::ui::LayersPanel", "Layer %1: %2")
                                   .arg(i)
                                   .arg(layer_description(m_layers->layers()[static_cast<std::size_t>(i)])),
                               this, cellRect(i));
        else
            QToolTip::hideText();
        return true;
    }
    return QWidget::event(e);
}

// ---------------------------------------------------------------- the receptive field

ReceptiveFieldChart::ReceptiveFieldChart(LayersController* layers, QWidget* parent)
    : QWidget(parent), m_layers(layers)
{
    setObjectName(QStringLiteral("receptiveFieldChart"));
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    connect(m_layers, &LayersController::layersChanged, this, qOverload<>(&QWidget::update));
    connect(m_layers, &LayersController::selectionChanged, this, qOverload<>(&QWidget::update));
}

std::int64_t ReceptiveFieldChart::query() const
{
    // The last position of the model's context, as `posatlas inspect` reports (io/import_report.h).
    return std::max<std::int64_t>(1, m_layers->base().max_position_embeddings - 1);
}

std::vector<std::int64_t> ReceptiveFieldChart::reach() const
{
    return receptive_reach(m_layers->layers(), query());
}

QSize ReceptiveFieldChart::sizeHint() const
{
    return {fontMetrics().height() * 24, fontMetrics().height() * 8};
}

QSize ReceptiveFieldChart::minimumSizeHint() const
{
    return {fontMetrics().height() * 10, fontMetrics().height() * 6};
}

QRectF ReceptiveFieldChart::plotRect() const
{
    const QFontMetrics fm = fontMetrics();
    const double left = fm.horizontalAdvance(QStringLiteral("10⁰⁰⁰")) + fm.averageCharWidth();
    return QRectF(left, fm.height() * 0.5, std::max(1.0, width() - left - fm.averageCharWidth()),
                  std::max(1.0, height() - 2.6 * fm.height()));
}

void ReceptiveFieldChart::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    const auto values = reach();
    if (values.empty())
        return;
    const QFontMetrics fm = fontMetrics();
    const QRectF plot = plotRect();
    const QColor ink = palette().color(QPalette::WindowText);
    // Log scale from 1 to the query position (every bar reaches at least 1 when q >= 1, else 0: drawn empty).
    const double top = std::log10(static_cast<double>(query()) + 1.0);
    auto y = [&](double v) {
        return plot.bottom() - plot.height() * std::log10(v + 1.0) / std::max(top, 1e-9);
    };
    // Decades.
    p.setPen(QPen(ink, 1));
    // Every decade a dotted line; a label on every `every`-th, so that labels never overlap.
    const double decade = plot.height() / std::max(top, 1e-9);
    const int every = std::max(1, static_cast<int>(std::ceil(fm.height() / std::max(decade, 1e-9))));
    for (int d = 0; d <= static_cast<int>(std::floor(top)); ++d) {
        const double yy = y(std::pow(10.0, d) - 1.0);
        p.setPen(QPen(palette().color(QPalette::Mid), 1, Qt::DotLine));
        p.drawLine(QPointF(plot.left(), yy), QPointF(plot.right(), yy));
        p.setPen(ink);
        if (d % every != 0)
            continue;
        p.drawText(QRectF(0, yy - fm.height() / 2.0, plot.left() - 4, fm.height()),
                   Qt::AlignRight | Qt::AlignVCenter, QStringLiteral("10") + superscript(d));
    }
    const int n = static_cast<int>(values.size());
    const double w = plot.width() / n;
    const int selected = m_layers->selected();
    const auto& layers = m_layers->layers();
    for (int k = 0; k < n; ++k) {
        const QRectF bar(plot.left() + k * w + w * 0.1,
                         y(static_cast<double>(values[static_cast<std::size_t>(k)])), w * 0.8, 0.0);
        QRectF r = bar;
        r.setBottom(plot.bottom());
        QColor c = layer_kind_color(layer_kind(layers[static_cast<std::size_t>(k)]));
        if (selected >= 0 && k != selected)
            c.setAlphaF(0.55);
        p.fillRect(r, c);
    }
    p.setPen(ink);
    p.drawLine(plot.bottomLeft(), plot.bottomRight());
    p.drawLine(plot.bottomLeft(), plot.topLeft());
    // The x axis: the first and the last k, and its title.
    const double labelWidth = fm.horizontalAdvance(QString::number(n)) + 2.0;
    p.drawText(QRectF(plot.left(), plot.bottom() + 2, labelWidth, fm.height()), Qt::AlignLeft | Qt::AlignTop,
               QStringLiteral("1"));
    p.drawText(QRectF(plot.right() - labelWidth, plot.bottom() + 2, labelWidth, fm.height()),
               Qt::AlignRight | Qt::AlignTop, QString::number(n));
    const QString title =
        QCoreApplication::translate("posatlas::ui::LayersPanel", "reach after k layers (positions back)");
    p.drawText(QRectF(plot.left(), plot.bottom() + 2 + fm.height() * 0.9, plot.width(), fm.height()),
               Qt::AlignHCenter | Qt::AlignTop,
               fm.elidedText(title, Qt::ElideRight, static_cast<int>(plot.width())));
}

bool ReceptiveFieldChart::event(QEvent* e)
{
    if (e->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(e);
        const auto values = reach();
        const QRectF plot = plotRect();
        const int n = static_cast<int>(values.size());
        const int k =
            n > 0 ? static_cast<int>(std::floor((help->pos().x() - plot.left()) / (plot.width() / n))) : -1;
        if (k >= 0 && k < n)
            QToolTip::showText(
                help->globalPos(),
                (k == 0
                     ? tr("After the first layer, position %2 sees back to position %3 (%4 positions).")
                     : tr("After %1 layers, position %2 sees back to position %3 (%4 positions).").arg(k + 1))
                    .arg(query())
                    .arg(query() - values[static_cast<std::size_t>(k)])
                    .arg(values[static_cast<std::size_t>(k)]),
                this);
        else
            QToolTip::hideText();
        return true;
    }
    return QWidget::event(e);
}

// ---------------------------------------------------------------- the panel

LayersPanel::LayersPanel(LayersController* layers, QWidget* parent) : QWidget(parent), m_layers(layers)
{
    setObjectName(QStringLiteral("layersPanel"));
    // Long legends at presentation sizes scroll instead of overlapping what follows them.
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    auto* scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    outer->addWidget(scroll);
    m_inside = new QWidget;
    scroll->setWidget(m_inside);
    auto* body = new QVBoxLayout(m_inside);
    m_empty = new QLabel;
    m_empty->setObjectName(QStringLiteral("layersEmpty"));
    m_empty->setWordWrap(true);
    m_empty->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    body->addWidget(m_empty);

    m_content = new QWidget;
    auto* column = new QVBoxLayout(m_content);
    column->setContentsMargins(0, 0, 0, 0);
    m_title = new QLabel;
    m_title->setWordWrap(true);
    m_strip = new LayerStrip(m_layers);
    column->addWidget(m_title);
    column->addWidget(m_strip);
    auto* row = new QHBoxLayout;
    auto* words = new QVBoxLayout;
    m_legend = new QLabel;
    m_legend->setObjectName(QStringLiteral("layersLegend"));
    m_legend->setWordWrap(true);
    m_legend->setTextFormat(Qt::RichText);
    m_selection = new QLabel;
    m_selection->setObjectName(QStringLiteral("layersSelection"));
    m_selection->setWordWrap(true);
    words->addWidget(m_legend);
    words->addWidget(m_selection);
    words->addStretch();
    auto* figure = new QVBoxLayout;
    m_chartTitle = new QLabel;
    m_chartTitle->setWordWrap(true);
    m_chart = new ReceptiveFieldChart(m_layers);
    figure->addWidget(m_chartTitle);
    figure->addWidget(m_chart, 1);
    row->addLayout(words, 3);
    row->addLayout(figure, 2);
    column->addLayout(row, 1);
    body->addWidget(m_content, 1);

    connect(m_layers, &LayersController::layersChanged, this, &LayersPanel::rebuild);
    connect(m_layers, &LayersController::selectionChanged, this, &LayersPanel::updateSelection);
    rebuild();
}

QSize LayersPanel::sizeHint() const
{
    return m_inside->sizeHint();
}

QString LayersPanel::emptyText() const
{
    return m_empty->isHidden() ? QString() : m_empty->text();
}

void LayersPanel::rebuild()
{
    const auto& layers = m_layers->layers();
    const bool differ = layers_differ(layers);
    m_content->setVisible(differ);
    m_empty->setVisible(!differ);
    if (layers.empty())
        m_empty->setText(tr("Open a model's config.json (File > Open config.json…) to see its layers: each "
                            "layer's attention span and positional encoding."));
    else if (!differ)
        m_empty->setText((layers.size() == 1
                              ? tr("%2 has one layer: %3. The parameter panel shows it.")
                              : tr("All %1 layers of %2 are alike: %3. The parameter panel shows them.")
                                    .arg(layers.size()))
                             .arg(m_layers->modelName(), layer_description(layers.front())));
    if (!differ)
        return;
    m_title->setText(tr("%1: %2 layers. Select a layer (click, or ← → Home End) to show its positional "
                        "encoding.")
                         .arg(m_layers->modelName())
                         .arg(layers.size()));
    QStringList lines;
    for (const LayerGroup& g : group_layers(layers)) {
        int count = 0;
        for (const auto& [first, last] : g.ranges)
            count += last - first + 1;
        lines << QStringLiteral("<span style=\"color:%1\">■</span> %2")
                     .arg(layer_kind_color(layer_kind(g.anatomy)).name(),
                          (count == 1
                               ? tr("Layer %1: %2").arg(rangesText(g.ranges), layer_description(g.anatomy))
                               : tr("%1 layers (%2): %3")
                                     .arg(count)
                                     .arg(rangesText(g.ranges), layer_description(g.anatomy)))
                              .toHtmlEscaped());
    }
    m_legend->setText(lines.join(QStringLiteral("<br>")));
    m_chartTitle->setText(tr("Receptive field of position %1").arg(m_chart->query()));
    updateSelection();
    m_strip->updateGeometry();
}

void LayersPanel::updateSelection()
{
    const int i = m_layers->selected();
    if (i < 0) {
        m_selection->setText(tr("No layer selected: the scenario is the model's import."));
        return;
    }
    const LayerAnatomy& l = m_layers->layers()[static_cast<std::size_t>(i)];
    QString text = tr("Shown: layer %1, %2.").arg(i).arg(layer_description(l));
    if (l.attention != LayerAttention::Global)
        text += QLatin1Char(' ') + tr("The views mask the keys outside its window or chunk.");
    if (l.temperature)
        text +=
            QLatin1Char(' ') + tr("The logits and weights scale its queries by the attention temperature.");
    m_selection->setText(text);
}

void LayersPanel::changeEvent(QEvent* e)
{
    if (e->type() == QEvent::LanguageChange)
        rebuild();
    QWidget::changeEvent(e);
}

} // namespace posatlas::ui
