// SPDX-License-Identifier: GPL-3.0-or-later
// One animated export (or preview) run by the GUI without blocking it (export/animation_export.h has the
// pieces): a worker thread computes the fixed scale (sweep_scale) and each frame's data
// (compute_frame_data), the GUI thread renders each frame in its own pass of the event loop (render_frame
// builds a view widget: one frame per pass, so the window never waits longer than one frame's paint),
// and the worker hands the frames to the AnimationWriter. The worker computes frame k + 1 while frame k is
// painted; at most two frames are in flight.
//
// cancel() (or destroying the run) stops the worker at its next poll; the writer then leaves no file and
// an existing file as it was. The worker never waits on the run object: a run destroyed early is simply
// abandoned (its thread ends at the next poll, a frame that was to be painted is dropped).
//
// A preview run (no path) renders the first `previewFrames` frames and emits them; nothing is written.
#pragma once

#include "export/animation_export.h"

#include <QImage>
#include <QObject>
#include <QString>

#include <memory>

namespace posatlas::ui {

class AnimationRun : public QObject
{
    Q_OBJECT
public:
    // `path` empty: a preview of the first `previewFrames` frames (at most the sweep's).
    AnimationRun(AnimationRequest request, QString path, int previewFrames = 0, QObject* parent = nullptr);
    ~AnimationRun() override; // cancels

    // Starts the worker; the signals below arrive on the GUI thread.
    void start();
    void cancel();
    bool running() const { return m_running; }
    const QString& path() const { return m_path; }
    const AnimationRequest& request() const { return m_request; }

signals:
    void progressChanged(int percent);           // 0..100: the scale pass, then the frames and the file
    void frameRendered(int frame, QImage image); // each frame as painted (previews show them)
    void finished();                             // the file is written (a preview: every frame emitted)
    void failed(QString message);                // with the parameter or file and the reason
    void cancelled();

private:
    struct Shared;
    void render(int frame, const std::shared_ptr<const ViewResult>& data,
                const std::shared_ptr<const SweepScale>& scale);
    void done(int outcome, const QString& message);

    AnimationRequest m_request;
    QString m_path;
    int m_frames = 0;
    std::shared_ptr<Shared> m_shared;
    bool m_running = false;
};

} // namespace posatlas::ui
