// SPDX-License-Identifier: GPL-3.0-or-later
// The Layers dock: the strip of the imported model's layers (one cell per layer, coloured by its kind:
// global, sliding window, chunked, NoPE), the groups of alike layers in words, the selected layer, and
// the receptive field (how far back position information reaches after k layers, receptive_reach).
// Clicking a cell, or the arrow keys, Home and End on the strip, select a layer (layers_controller.h).
// Every size follows the widget's font, so presentation mode's larger fonts scale the strip and the chart.
#pragma once

#include "io/model_layers.h"

#include <QLabel>
#include <QWidget>

#include <vector>

namespace posatlas::ui {

class LayersController;

// The kind a cell's colour and letter name: a NoPE layer is NoPE whatever its span.
enum class LayerKind { Global, Sliding, Chunked, NoPE };
LayerKind layer_kind(const LayerAnatomy& layer);
QColor layer_kind_color(LayerKind kind);
// "global attention", "sliding window of 1024 keys", …; with the encoding: RoPE θ and scaling, or NoPE.
QString layer_description(const LayerAnatomy& layer);

class LayerStrip : public QWidget
{
    Q_OBJECT
public:
    explicit LayerStrip(LayersController* layers, QWidget* parent = nullptr);

    // The cell of layer `index` in widget coordinates (empty when out of range).
    QRect cellRect(int index) const;
    int layerAt(const QPoint& p) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent*) override;
    void mousePressEvent(QMouseEvent* e) override;
    void keyPressEvent(QKeyEvent* e) override;
    bool event(QEvent* e) override; // tooltips

private:
    int cellHeight() const;
    LayersController* m_layers;
};

class ReceptiveFieldChart : public QWidget
{
    Q_OBJECT
public:
    explicit ReceptiveFieldChart(LayersController* layers, QWidget* parent = nullptr);

    // The query position of the figure: the last position of the model's context.
    std::int64_t query() const;
    // The bars' values: how far back position information reaches after k = 1 … L layers.
    std::vector<std::int64_t> reach() const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent*) override;
    bool event(QEvent* e) override; // tooltips

private:
    QRectF plotRect() const;
    LayersController* m_layers;
};

class LayersPanel : public QWidget
{
    Q_OBJECT
public:
    explicit LayersPanel(LayersController* layers, QWidget* parent = nullptr);

    LayerStrip* strip() const { return m_strip; }
    ReceptiveFieldChart* chart() const { return m_chart; }
    // The text shown instead of the strip (no model with layers, or all layers alike); empty otherwise.
    QString emptyText() const;
    QString legendText() const { return m_legend->text(); }
    QString selectionText() const { return m_selection->text(); }

    // The whole content (the dock opens at this height), though it scrolls when given less.
    QSize sizeHint() const override;

protected:
    void changeEvent(QEvent* e) override; // language changes

private:
    void rebuild();
    void updateSelection();

    LayersController* m_layers;
    QLabel* m_title;
    LayerStrip* m_strip;
    QLabel* m_legend;
    QLabel* m_selection;
    ReceptiveFieldChart* m_chart;
    QLabel* m_chartTitle;
    QLabel* m_empty;
    QWidget* m_content;
    QWidget* m_inside; // the scroll area's widget
};

} // namespace posatlas::ui
