// SPDX-License-Identifier: GPL-3.0-or-later
#include "export/animation_preview.h"

#include "export/animation_run.h"
#include "model/session.h"

#include <QPixmap>

#include <algorithm>

namespace posatlas::ui {

AnimationRequest preview_request(AnimationRequest r, int width)
{
    // The heatmap is computed at the preview's pixels; the figure is painted at 1x at most and scaled down
    // by the preview (a figure painted below 96 dpi is cropped, not scaled, by render_figure_image).
    const double css = std::max(1.0, r.figure.size.width());
    FigureExportOptions small = r.figure;
    small.dpi = std::min(r.figure.dpi, 96.0 * width / css);
    r.settings = export_view_settings(r.settings, small);
    r.figure.dpi = std::min(r.figure.dpi, 96.0);
    r.format = AnimationFormat::Apng; // any size: nothing is written
    return r;
}

AnimationPreview::AnimationPreview(QWidget* parent) : QLabel(parent)
{
    setAlignment(Qt::AlignCenter);
    setWordWrap(true);
    setMinimumSize(kDefaultWidth / 2, kDefaultWidth / 3);
    connect(&m_timer, &QTimer::timeout, this, &AnimationPreview::advance);
}

AnimationPreview::~AnimationPreview() = default;

bool AnimationPreview::computing() const
{
    return m_run && m_run->running();
}

void AnimationPreview::stop()
{
    m_run.reset(); // cancels; its frames are dropped
    m_timer.stop();
}

void AnimationPreview::showMessage(const QString& text)
{
    stop();
    m_frames.clear();
    m_shown = -1;
    setPixmap({});
    setText(text);
}

void AnimationPreview::play(const AnimationRequest& request)
{
    stop();
    m_frames.clear();
    m_shown = -1;
    setText(tr("Computing the preview…"));
    m_run = std::make_unique<AnimationRun>(preview_request(request, m_width), QString(), m_maxFrames);
    AnimationRun* run = m_run.get();
    connect(run, &AnimationRun::frameRendered, this, [this](int, const QImage& image) {
        QImage frame =
            image.width() > m_width ? image.scaledToWidth(m_width, Qt::SmoothTransformation) : image;
        frame.setDevicePixelRatio(1.0);
        m_frames.append(frame);
        if (m_frames.size() == 1) {
            advance();
            m_timer.start();
        }
    });
    connect(run, &AnimationRun::finished, this, &AnimationPreview::ready);
    connect(run, &AnimationRun::failed, this, [this](const QString& message) {
        m_timer.stop(); // the run ends by itself: not deleted inside its own signal
        m_frames.clear();
        m_shown = -1;
        setPixmap({});
        setText(message);
    });
    m_timer.setInterval(1000 / std::clamp(request.fps, 1, 120));
    run->start();
}

void AnimationPreview::advance()
{
    if (m_frames.isEmpty())
        return;
    m_shown = (m_shown + 1) % static_cast<int>(m_frames.size());
    QPixmap pixmap = QPixmap::fromImage(m_frames[m_shown]);
    pixmap.setDevicePixelRatio(devicePixelRatioF());
    setPixmap(pixmap);
}

} // namespace posatlas::ui
