// SPDX-License-Identifier: GPL-3.0-or-later
// Plays the first frames of an animation (export/animation_run.h, a preview run) in a label, looping at
// the request's frames per second, scaled down to a small width (the same layout at fewer pixels). Used
// by File > Export Animation… (recomputed when its settings change) and by a lesson step's animation.
// A newer setRequest() wins: the running preview is cancelled and its frames are never shown.
#pragma once

#include "export/animation_export.h"

#include <QImage>
#include <QLabel>
#include <QList>
#include <QTimer>

#include <memory>

namespace posatlas::ui {

class AnimationRun;

class AnimationPreview : public QLabel
{
    Q_OBJECT
public:
    static constexpr int kDefaultFrames = 12;
    static constexpr int kDefaultWidth = 320; // device pixels of a preview frame

    explicit AnimationPreview(QWidget* parent = nullptr);
    ~AnimationPreview() override;

    void setMaxFrames(int frames) { m_maxFrames = frames; }
    void setFrameWidth(int pixels) { m_width = pixels; }
    // Computes and plays the first frames of `request` (replacing what played before).
    void play(const AnimationRequest& request);
    void stop();
    // A message in place of the frames (an invalid request).
    void showMessage(const QString& text);

    bool computing() const;
    qsizetype frameCount() const { return m_frames.size(); }
    int shownFrame() const { return m_shown; }

signals:
    void ready(); // every preview frame is painted

private:
    void advance();

    std::unique_ptr<AnimationRun> m_run;
    QList<QImage> m_frames;
    QTimer m_timer;
    int m_shown = -1;
    int m_maxFrames = kDefaultFrames;
    int m_width = kDefaultWidth;
};

// The request a preview renders: the same layout, its heatmap computed for at most `width` pixels of
// width, painted at 1x at most (the preview scales the frames down to `width`); a format that takes any
// frame size.
AnimationRequest preview_request(AnimationRequest request, int width);

} // namespace posatlas::ui
