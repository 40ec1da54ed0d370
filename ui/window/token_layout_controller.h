// SPDX-License-Identifier: GPL-3.0-or-later
// The Token layout dock (views/token_layout_view.h): shown when the scenario's method gives tokens M-RoPE's
// (t, h, w) ids and hidden when it stops doing so (View > Panels shows it by hand, then it says what it is
// for); while shown, each change of the scenario computes the
// figure's numbers (jobs/token_layout_job.h) on the window's JobTracker, in a slot of its own after the
// views' (kSlot), never on the GUI thread. The view's context menu exports the figure (PNG, SVG, PDF)
// or its numbers (CSV, JSON) through File > Export figure's dialog and writers
// (export/token_layout_export.h). The dock is never taller than its cells need and never shorter than
// that or a little over half the window, whichever is less (a longer layout, a narrower window make it
// grow); under presentation mode's large text it takes exactly that.
#pragma once

#include "export/figure_export.h"
#include "jobs/view_data.h"

#include <QObject>
#include <QString>

#include <optional>

class QDockWidget;
class QMainWindow;

namespace posatlas::ui {

class JobTracker;
class ScenarioModel;
class TokenLayoutView;

class TokenLayoutController : public QObject
{
    Q_OBJECT
public:
    // The views' slots are 0 … kViewKindCount - 1 (view_controller.h).
    static constexpr int kSlot = kViewKindCount;
    // The most of the window's height the dock takes: a little over half, so that lesson 14's sequence
    // fits on a 1080-line projector at 250 % under a Chinese desktop's fonts, the figures above it keeping
    // the rest.
    static constexpr double kMaxWindowShare = 0.55;
    // Outside presentation mode, the lines of text the figures above keep at least (fitDock).
    static constexpr int kFigureLines = 20;

    TokenLayoutController(ScenarioModel* model, JobTracker* jobs, TokenLayoutView* view, QDockWidget* dock,
                          QObject* parent = nullptr);

    // Writes the figure of the model's scenario, or its numbers, to `path` by its extension, computed
    // now as the command line computes it (a few hundred tokens at most). Throws ExportError saying why.
    void exportTo(const QString& path, const FigureExportOptions& options) const;
    // The export dialog, its format set to a figure's (png) or to the numbers' (csv).
    void exportDialog(bool numbers);

signals:
    void exported(const QString& path);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    // Sizes the docked view by what its cells need at the body text's size
    // (TokenLayoutView::heightForCells), within kMaxWindowShare of the window.
    void fitDock();
    // The main window's separator between the figures and the dock.
    static constexpr int kDockSeparator = 6;
    void fitDockSoon();
    // Larger text than the application's: presentation mode.
    bool presenting() const;
    void scenarioChanged();
    void request();

    ScenarioModel* m_model;
    JobTracker* m_jobs;
    TokenLayoutView* m_view;
    QDockWidget* m_dock;
    bool m_fitPending = false;
    QMainWindow* m_window = nullptr; // whose height sets the share (watched for its resizes)
    bool m_shown = false;            // the method gave tokens M-RoPE's ids at the last change
    std::optional<FigureExportOptions> m_lastOptions; // the dialog's last choices (this run)
};

} // namespace posatlas::ui
