// SPDX-License-Identifier: GPL-3.0-or-later
// The main window's session and figure commands, kept out of main_window.cpp: File > Open Session…,
// Save Session…, Export Figure…, Export Data…, Export Animation…, and Edit > Copy Figure. It reads and
// restores the view state through the view controller (view_controller.h: view settings, widgets, docks) and
// the settings (colour map, curve axis, recent files); a session's unknown keys become a notice ("session").
//
// Exports go through the same code as `posatlas export` (session.h: set_figure_metadata,
// export_view_settings; view_render.h: OffscreenFigure), so a session saved here and exported on
// the command line gives the same picture as File > Export figure with the same options.
#pragma once

#include "export/animation_export.h"
#include "export/export_dialog.h"
#include "model/session.h"

#include <QObject>

#include <array>
#include <memory>
#include <optional>

class QDockWidget;
class QMenu;

namespace posatlas::ui {

class AnimationDialog;
class LayersController;
class NoticeArea;
class OffscreenFigure;
class PatchGridPanel;
class Settings;
class ViewController;
class WindowStatus;

class SessionActions : public QObject
{
    Q_OBJECT
public:
    // A window-modal warning that does not block the caller, and the same text in the status bar.
    void reportError(const QString& title, const QString& message);
    // `window`: the parent of dialogs and message boxes, and where the View menu's check marks are found
    // (by object name) when a session is applied.
    SessionActions(ViewController* views, Settings* settings, WindowStatus* status, NoticeArea* notices,
                   QWidget* window);
    ~SessionActions() override;

    // Menu entries: "Open Session…" into `file`; Save Session (Ctrl+S), Export Figure (Ctrl+E) and
    // Export Data into `file`; Copy Figure (Ctrl+Shift+C) into `edit`.
    void addOpenAction(QMenu* file);
    void addSaveAndExportActions(QMenu* file);
    void addEditActions(QMenu* edit);

    // The window's state as a session: scenario, view settings, colour map (nullopt = automatic) and
    // the views whose docks are open (tabbed-away docks count as open).
    Session currentSession() const;
    // The model's layers and the one shown go into sessions and come back from them.
    void setLayers(LayersController* layers) { m_layers = layers; }
    // The patch-grid dock's query patch goes into sessions (views.settings.query_patch) and comes back.
    void setPatchGrid(PatchGridPanel* panel) { m_patchGrid = panel; }
    // The Token layout dock, whose visibility sessions keep (Session::token_layout).
    void setTokenLayoutDock(QDockWidget* dock) { m_tokenLayoutDock = dock; }
    // Applies the scenario as one undo step, then the view settings (keeping this window's heatmap
    // pixel size), the colour map, the menus' check marks and the open docks. False, with the
    // window unchanged, when the scenario is refused.
    // `undoText`: the undo step's name (default "Open Session NAME").
    bool applySession(const Session& session, const QString& name, const QString& undoText = {});
    // File helpers: errors (unreadable file, not a session, newer version, ...) are shown in the
    // status bar and a message box, and change nothing. Both add the file to the recent files.
    bool openSession(const QString& path);
    bool saveSession(const QString& path);

    // The view the export and copy commands act on: the one last clicked or focused, else the first
    // one on screen.
    ViewKind currentView() const;

    // Writes every view of the request (figure_export_paths) with the figure's title and the
    // scenario as metadata. Views whose widget shows the newest result are exported from the widget;
    // the heatmap (its on-screen data is downsampled to the widget), hidden views and views still
    // computing are computed off screen exactly as `posatlas export` does. Throws ExportError.
    // A .csv or .json path writes each view's numbers (exportNumbers, NumbersExtent::View) instead.
    // Returns the paths written.
    QStringList exportFigures(const FigureExportRequest& request);
    // The numbers behind a view as CSV or JSON (by extension). For the heatmap, what the view shows:
    // its grid (the cells it computed for its pixels, each row and column with its position), or with
    // FullWindow every cell of the visible window, refused beyond kMaxExportCells. Throws ExportError.
    enum class NumbersExtent { View, FullWindow };
    static constexpr std::int64_t kMaxExportCells = std::int64_t{2048} * 2048;
    void exportNumbers(ViewKind kind, const QString& path, NumbersExtent extent = NumbersExtent::View);
    // The current view at its on-screen size, 2x, as an image (and SVG) on the clipboard.
    void copyFigure();

    void exportFigureDialog();
    void exportDataDialog();
    // File > Export Animation…: the dialog (window-modal, not blocking the caller) for the current view
    // and scenario, or filled in from `prefill` (a lesson step's animation). The dialog deletes itself
    // when closed.
    AnimationDialog* exportAnimationDialog(const std::optional<AnimationRequest>& prefill = std::nullopt);
    void openSessionDialog();
    void saveSessionDialog();
    // Keys of a session file that were ignored: a notice naming them (none: the notice goes).
    void showUnknownKeys(const QString& file, const std::vector<UnknownKey>& keys);

signals:
    // A session was opened or saved: it heads the recent files now.
    void recentFilesChanged();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    struct Source;
    Source source(ViewKind kind, const FigureExportOptions& options) const;
    bool upToDate(ViewKind kind) const;
    void syncMenus(const ViewSettings& settings, std::optional<Colormap> colormap);

    ViewController* m_views;
    LayersController* m_layers = nullptr;
    PatchGridPanel* m_patchGrid = nullptr;
    QDockWidget* m_tokenLayoutDock = nullptr;
    Settings* m_settings;
    WindowStatus* m_status;
    NoticeArea* m_notices;
    QWidget* m_window;
    std::optional<ViewKind> m_current;
    std::array<quint64, kViewKindCount> m_delivered{}; // generation each widget shows
    std::optional<FigureExportRequest> m_lastRequest;  // the dialog's last choices (this run)
    std::optional<AnimationRequest> m_lastAnimation;   // the animation dialog's last export (this run)
    QString m_lastDir;
};

// True for a session file: a name ending in .posatlas.json, or a JSON file whose "format" is
// "posatlas-session" (so a session renamed to x.json still opens as one).
bool is_session_file(const QString& path);

} // namespace posatlas::ui
