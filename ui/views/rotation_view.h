// SPDX-License-Identifier: GPL-3.0-or-later
// RoPE as rotations: for a few pairs i, a unit circle with the query vector at angle m theta_i, the
// key at n theta_i and the relative angle (m - n) theta_i that the attention logit depends on; and a
// clock face with one hand per pair (long, outer hands are the fast, high-frequency pairs).
// The view computes no angles: it draws the ones RotationData carries (core rope angles).
#pragma once

#include "jobs/view_data.h"
#include "views/figure.h"

#include <QElapsedTimer>
#include <QStringList>
#include <QTimer>
#include <QWidget>

#include <utility>
#include <vector>

class QDoubleSpinBox;
class QFontMetricsF;
class QSlider;
class QToolButton;

namespace posatlas::ui {

// Where the clock face puts its rings: centre, outer radius and one radius per pair (pair 0, the
// fastest, outermost), in the coordinates of the figure it was laid out for.
struct ClockLayout {
    QPointF centre;
    double outer = 0.0;
    std::vector<double> radius; // one per pair, decreasing
    double dot = 0.0;           // radius of the dot at each hand's tip
    std::vector<int> labelled;  // pairs whose ring is numbered on the face
};

// The clock face of `pairs` pairs in `cell`, leaving `text_height` below it for its two lines of text.
// Rings are evenly spaced from the outer radius down to a small hub; every pair gets its own ring, and
// each tip's dot is smaller than half the spacing, so that neighbouring slow pairs (which point in nearly
// the same direction) stay apart. A handful of rings are numbered (first, quarters, last).
ClockLayout clock_layout(const QRectF& cell, std::size_t pairs, double text_height);

class RotationView : public QWidget, public Figure
{
    Q_OBJECT
public:
    explicit RotationView(QWidget* parent = nullptr);

    void setData(const RotationData& data);
    const RotationData& data() const { return m_data; }

    void renderFigure(QPainter& painter, const QRectF& target, const RenderOptions& options) const override;
    QString figureTitle() const override { return m_data.title; }

    QSize sizeHint() const override { return {520, 360}; }
    // The clock face as last painted (on screen or exported): for tests of its legibility.
    const ClockLayout& lastClockLayout() const { return m_lastClock; }
    // The caption lines under the clock and the pairs as last painted, in order: whole numbers, for
    // tests of their legibility at presentation sizes.
    const QStringList& lastCaptions() const { return m_lastCaptions; }

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    void paintFigure(QPainter& painter, const QRectF& target, const RenderOptions& options) const;
    // `lines`: the caption lines every pair's cell keeps room for.
    void paintPair(QPainter& painter, const QRectF& cell, int pair, int lines,
                   const RenderOptions& options) const;
    std::pair<QStringList, QStringList> pairCaption(int pair, const QFontMetricsF& fm, double width) const;
    void paintClock(QPainter& painter, const QRectF& cell, const RenderOptions& options) const;
    void paintLegend(QPainter& painter, const QRectF& rect, const RenderOptions& options) const;

    RotationData m_data;
    mutable ClockLayout m_lastClock;
    mutable QStringList m_lastCaptions;
};

// Position slider with play/pause: the animation advances m at a chosen speed and wraps at the end of
// the range. The main window connects positionChanged to the model's query position and calls
// setPosition (which does not echo the signal) when the model changes.
class RotationControls : public QWidget
{
    Q_OBJECT
public:
    explicit RotationControls(QWidget* parent = nullptr);

    void setRange(double min, double max);
    double minimum() const { return m_min; }
    double maximum() const { return m_max; }
    void setPosition(double m); // updates the widgets, emits nothing
    double position() const { return m_position; }
    void setKeyPosition(double n); // updates the widget, emits nothing
    double keyPosition() const;
    // Animation speed in positions per second.
    void setSpeed(double positions_per_second);
    double speed() const;
    bool isPlaying() const { return m_timer.isActive(); }
    QToolButton* playButton() const { return m_play; }

public slots:
    void play();
    void pause();
    void togglePlay();

signals:
    void positionChanged(double m);
    void keyPositionChanged(double n);
    void playingChanged(bool playing);

protected:
    void changeEvent(QEvent* event) override; // a new palette (theme) repaints the play icon

private:
    void setPositionInternal(double m, bool notify);
    void advance();
    void updatePlayButton();
    int sliderValue(double m) const;

    double m_min = 0.0, m_max = 1.0, m_position = 0.0;
    QToolButton* m_play;
    QSlider* m_slider;
    QDoubleSpinBox* m_spin;
    QDoubleSpinBox* m_speed;
    QDoubleSpinBox* m_key; // key position n (not animated: the relative angle (m - n) theta moves with m)
    QTimer m_timer;
    QElapsedTimer m_clock;
    bool m_updating = false; // guard: widget -> position -> widget loops
};

} // namespace posatlas::ui
