// SPDX-License-Identifier: GPL-3.0-or-later
#include "export/animation_run.h"

#include <QCoreApplication>
#include <QMetaObject>
#include <QPointer>
#include <QThreadPool>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <mutex>
#include <utility>

namespace posatlas::ui {

namespace {

enum Outcome { Finished, Failed, WasCancelled };

// The share of the progress bar the scale pass takes (it computes every frame once).
constexpr double kScaleShare = 0.4;

} // namespace

// What the worker and the GUI thread share; the worker holds it even after the run is gone.
struct AnimationRun::Shared {
    std::atomic<bool> cancelled{false};
    std::mutex mutex;
    std::condition_variable painted;
    std::map<int, QImage> images; // painted, not yet taken by the worker
    QString renderError;          // a frame the GUI thread could not paint
};

AnimationRun::AnimationRun(AnimationRequest request, QString path, int previewFrames, QObject* parent)
    : QObject(parent), m_request(std::move(request)), m_path(std::move(path)),
      m_shared(std::make_shared<Shared>())
{
    m_frames = m_path.isEmpty() ? std::clamp(previewFrames, 1, std::max(1, m_request.sweep.frames))
                                : m_request.sweep.frames;
}

AnimationRun::~AnimationRun()
{
    m_shared->cancelled = true;
    m_shared->painted.notify_all();
}

void AnimationRun::cancel()
{
    if (!m_running)
        return;
    m_shared->cancelled = true;
    m_shared->painted.notify_all();
}

void AnimationRun::start()
{
    if (m_running)
        return;
    m_running = true;
    const std::shared_ptr<Shared> shared = m_shared;
    const QPointer<AnimationRun> self(this);
    // Runs `f(run)` on the GUI thread in a pass of its own, unless the run is gone by then.
    auto post = [self](std::function<void(AnimationRun&)> f) {
        QMetaObject::invokeMethod(
            QCoreApplication::instance(),
            [self, f = std::move(f)] {
                if (self)
                    f(*self);
            },
            Qt::QueuedConnection);
    };
    QThreadPool::globalInstance()->start([shared, post, request = m_request, path = m_path.toStdString(),
                                          frames = m_frames, preview = m_path.isEmpty()] {
        const CancelFn cancel = [shared] { return shared->cancelled.load(); };
        int lastPercent = -1;
        auto report = [&](double fraction) {
            const int percent = static_cast<int>(std::clamp(fraction, 0.0, 1.0) * 100.0);
            if (percent != lastPercent) {
                lastPercent = percent;
                post([percent](AnimationRun& run) { emit run.progressChanged(percent); });
            }
        };
        try {
            auto scale = std::make_shared<const SweepScale>(
                sweep_scale(request, cancel, [&](double f) { report(f * kScaleShare); }));
            std::unique_ptr<AnimationWriter> writer;
            if (!preview) {
                AnimationCallbacks callbacks;
                callbacks.cancel = cancel;
                callbacks.progress = [&](double f) { report(kScaleShare + (1.0 - kScaleShare) * f); };
                writer = make_animation_writer(request.format, path, callbacks);
            }
            auto data = std::make_shared<const ViewResult>(compute_frame_data(request, 0, cancel));
            for (int k = 0; k < frames; ++k) {
                post([k, data, scale](AnimationRun& run) { run.render(k, data, scale); });
                // The next frame's numbers while this one is painted.
                std::shared_ptr<const ViewResult> next;
                if (k + 1 < frames)
                    next = std::make_shared<const ViewResult>(compute_frame_data(request, k + 1, cancel));
                QImage image;
                {
                    std::unique_lock lock(shared->mutex);
                    while (!shared->images.count(k) && shared->renderError.isEmpty()) {
                        check_cancel(cancel);
                        // Polled: a run destroyed before painting this frame never notifies.
                        shared->painted.wait_for(lock, std::chrono::milliseconds(50));
                    }
                    if (!shared->renderError.isEmpty())
                        throw std::runtime_error(shared->renderError.toStdString());
                    image = std::move(shared->images[k]);
                    shared->images.erase(k);
                }
                check_cancel(cancel);
                if (writer) {
                    image = image.convertToFormat(QImage::Format_RGBA8888);
                    if (k == 0)
                        writer->begin(image.width(), image.height(), request.fps, frames);
                    writer->add_frame(image.constBits(), image.bytesPerLine());
                } else {
                    report(kScaleShare + (1.0 - kScaleShare) * (k + 1) / frames);
                }
                data = std::move(next);
            }
            if (writer)
                writer->finish();
            post([](AnimationRun& run) { run.done(Finished, {}); });
        } catch (const Cancelled&) {
            post([](AnimationRun& run) { run.done(WasCancelled, {}); });
        } catch (const ParameterError& e) {
            const QString message =
                AnimationRun::tr("%1 must be %2 (got %3)")
                    .arg(QString::fromStdString(e.parameter()), QString::fromStdString(e.allowed()),
                         QString::fromStdString(e.got()));
            post([message](AnimationRun& run) { run.done(Failed, message); });
        } catch (const std::exception& e) {
            const QString message = QString::fromUtf8(e.what());
            post([message](AnimationRun& run) { run.done(Failed, message); });
        }
    });
}

void AnimationRun::render(int frame, const std::shared_ptr<const ViewResult>& data,
                          const std::shared_ptr<const SweepScale>& scale)
{
    if (m_shared->cancelled)
        return;
    QImage image;
    QString error;
    try {
        image = render_frame(m_request, *data, *scale, frame);
    } catch (const std::exception& e) {
        error = QString::fromUtf8(e.what());
    }
    if (error.isEmpty())
        emit frameRendered(frame, image);
    {
        const std::lock_guard lock(m_shared->mutex);
        if (error.isEmpty())
            m_shared->images[frame] = std::move(image);
        else
            m_shared->renderError = error;
    }
    m_shared->painted.notify_all();
}

void AnimationRun::done(int outcome, const QString& message)
{
    m_running = false;
    switch (outcome) {
    case Finished: emit finished(); break;
    case Failed: emit failed(message); break;
    default: emit cancelled(); break;
    }
}

} // namespace posatlas::ui
