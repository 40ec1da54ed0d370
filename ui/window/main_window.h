// SPDX-License-Identifier: GPL-3.0-or-later
// The main window: the parameter panel and the four views as docks (several visible at once; the
// layout is saved and restored), menus (File, Edit with undo/redo, Presets grouped by family, View,
// Help), config.json import by menu or drag-and-drop with a report of what was read and ignored, and
// a status bar with parameter errors, the hover readout and a progress bar for long computations.
//
// The window lays out the docks, builds the menus and wires them to controllers that own their state:
// ViewController (view settings, which views compute, their jobs, timings), SessionActions (sessions,
// figure and data export), AutosaveController (autosave and crash recovery), ImportController (configs,
// models, weights, presets, the import report) and LessonController (the course and the open lesson);
// Presentation owns presentation mode. The public methods below that belong to a controller delegate to it.
#pragma once

#include "jobs/job_tracker.h"
#include "jobs/view_jobs.h"
#include "lessons/lesson.h"
#include "model/scenario_model.h"
#include "window/autosave_controller.h"

#include <QMainWindow>

#include <array>
#include <functional>
#include <memory>
#include <optional>

class QAction;
class QActionGroup;
class QDockWidget;
class QLabel;
class QMenu;
class QProgressBar;
class QToolBar;

namespace posatlas::ui {

class Autosave;
class CurveView;
class HeatmapView;
class ImportController;
class LayersController;
class LayersPanel;
class PatchGridPanel;
class LessonController;
class LessonPanel;
class ParameterPanel;
class Presentation;
class RotationControls;
class RotationView;
class SessionActions;
class Settings;
class SpectrumView;
class TokenLayoutController;
class TokenLayoutView;
class ViewController;
class ViewTimings;
class WindowStatus;
class Figure;
class ExplorerWindow;
class LabWindow;
class TrainedRunDialog;
struct TrainedRunRequest;
class ExplanationPanel;
class NoticeArea;

// The window's size at the first launch (no saved geometry) on a screen whose available area is
// `available`: nine tenths of it, so that a 1080p projector shows the figures at a readable size with
// their titles whole (at 1280 x 720 the heatmap's title was cut); at least 1280 x 720, never more than
// the screen. 1280 x 720 when the size is unknown (empty).
QSize first_launch_size(QSize available);

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    // settingsPath: INI file for the settings (tests); empty = the user's settings.
    explicit MainWindow(const QString& settingsPath = {}, QWidget* parent = nullptr);
    // The parameter panel never grows beyond this (px): a wider window widens the figures.
    static constexpr int kMaxPanelWidth = 460;
    ~MainWindow() override;

    ScenarioModel* model() const { return m_model; }
    // Computes the views off the GUI thread, one slot per ViewKind (static_cast<int>(kind)).
    JobTracker* jobs() const { return m_jobs; }
    // The settings the views are computed with (zoom window, pixel size, curve axis, rotation positions…).
    const ViewSettings& viewSettings() const;
    // Replaces them and recomputes `kind`, or every view (nullopt).
    void setViewSettings(const ViewSettings& settings, std::optional<ViewKind> kind = std::nullopt);
    // Methods side by side (View > Compare Methods…): 2 to 4 distinct methods, or empty to
    // stop comparing. An invalid list is refused: false, the settings as they were, and `error` (when
    // given; else the status bar) says why, naming the allowed values. perPanelScales: also set the
    // heatmap's shared / per-panel colour scale.
    bool setComparedMethods(const std::vector<Method>& list,
                            std::optional<bool> perPanelScales = std::nullopt, QString* error = nullptr);
    ParameterPanel* parameterPanel() const { return m_panel; }
    HeatmapView* heatmapView() const { return m_heatmap; }
    CurveView* curveView() const { return m_curves; }
    RotationView* rotationView() const { return m_rotation; }
    // Shows, raises and focuses a view (View > Go to View, Ctrl+1 … Ctrl+4).
    void focusView(ViewKind kind);
    // Help > Keyboard and Mouse: the gestures, and every shortcut of the menus.
    QString keyboardHelpHtml() const;
    SpectrumView* spectrumView() const { return m_spectrum; }
    // The "What am I looking at?" panel under each view (its text follows the scenario and matrix kind).
    ExplanationPanel* explanationPanel(ViewKind kind) const
    {
        return m_explanations[static_cast<std::size_t>(kind)];
    }
    QDockWidget* dock(ViewKind kind) const { return m_viewDocks[static_cast<std::size_t>(kind)]; }
    QDockWidget* importDock() const { return m_importDock; }
    // The imported model's layers (layers_panel.h); shown when its layers differ.
    QDockWidget* layersDock() const { return m_layersDock; }
    // M-RoPE's token layout (token_layout_controller.h); shown while the method is M-RoPE.
    QDockWidget* tokenLayoutDock() const { return m_tokenLayoutDock; }
    TokenLayoutView* tokenLayoutView() const { return m_tokenLayout; }
    LayersPanel* layersPanel() const { return m_layersPanel; }
    // One query patch against the image grid (patch_grid_panel.h); shown for methods of image patches.
    QDockWidget* patchGridDock() const { return m_patchGridDock; }
    PatchGridPanel* patchGridPanel() const { return m_patchGridPanel; }
    QDockWidget* panelDock() const { return m_panelDock; }
    // View > Present (F5): full screen, one figure, larger fonts, steps through the presets.
    Presentation* presentation() const { return m_presentation; }
    // ---- Lessons (lesson_controller.h, lesson.h)
    // Opens a lesson (a file, or a course resource) at its first step: false, with a message naming the
    // file, the line and what is wrong, when it cannot be read (the state stays as it was).
    bool openLesson(const QString& path);
    void openLessonDialog();
    // Help > Course: the Lesson dock with the course page.
    void showCourse();
    // The course page on the first launch (with the user's settings): once, then never again.
    bool showStartPageOnce();
    // Applies step `index` of the open lesson (one undo step) and brings its view to the front.
    bool goToLessonStep(int index);
    // Leaves the lesson: the scenario and views shown before it come back.
    void closeLesson();
    const Lesson* currentLesson() const;
    int currentLessonStep() const;
    LessonPanel* lessonPanel() const { return m_lessonPanel; }
    QDockWidget* lessonDock() const { return m_lessonDock; }
    QString importReportText() const;
    QString statusMessage() const;
    // View > Show Timings (persisted): compute and paint milliseconds of each visible view in the status
    // bar (view_timings.h).
    void setShowTimings(bool on);
    bool showTimings() const;
    ViewTimings* viewTimings() const;
    QLabel* timingsLabel() const;

    // Applies a config.json as one undo step and shows the import report. False (and a message) on error.
    bool openConfig(const QString& path);
    // A session (.posatlas.json, see session_actions.h) or a config.json, by its name or content; a
    // .safetensors checkpoint or its index opens the weights picker.
    bool openFile(const QString& path);
    // A model of the local Hugging Face cache (ORG/NAME[@REV]): its config.json, and for a learned table its
    // cached position tensor, as one undo step. False (and a message) when it is not cached.
    bool openCachedModel(const QString& ref);
    // File > Open Model…: the cache and the Hub download (hub/model_dialog.h).
    void openModelDialog();
    // File > Open Weights…: the tensors of `path` (hub/weights_dialog.h); the one chosen becomes the
    // learned table. An empty path asks for a file first.
    void openWeightsDialog(const QString& path = {});
    // Sets the learned method's table to `tensor` of the checkpoint `path` (one undo step).
    // `target` as WeightsDialog::target(): "METHOD/FIELD" (a table field); empty: the known tensor's
    // default (WeightsDialog::defaultTarget).
    bool useWeights(const QString& path, const QString& tensor, const QString& target = {});
    // Sessions, figure and data export, copy figure.
    SessionActions* sessionActions() const { return m_sessions; }
    // Applies an embedded preset as one undo step.
    bool loadPreset(const QString& id);
    // Compute every view even when its dock is hidden or tabbed away (tests, batch screenshots).
    void setComputeHiddenViews(bool on);
    void setDarkTheme(bool dark);
    // The context-extension explorer (one instance), seeded with the current RoPE scenario, or with the
    // llama-3.1-8b preset when the current method is not RoPE. Shown and raised.
    ExplorerWindow* openExplorer();
    // The Lab window (Tools > Lab…), created on first use.
    LabWindow* openLab();
    // File > Open Trained Run… (lab/trained_run_dialog.h), created on first use, shown and raised; `run`
    // (when given) is selected with its defaults.
    TrainedRunDialog* openTrainedRunDialog(const QString& run = {});
    // Applies head r.head of the probe in `folder` (head-H.posatlas.json) as one undo step; the title
    // and the status bar name the run, layer, head and length while that scenario is on screen. False,
    // with a message box and the window unchanged, when the session cannot be read or applied.
    bool applyTrainedRun(const TrainedRunRequest& r, const QString& folder);
    // "copy/rope seed 0 · layer 1 · head 2 · 128 tokens (trained at 32)" while the scenario on screen is a
    // trained run's, else empty.
    QString trainedRunCaption() const;

    // Autosave and crash recovery (autosave.h). With the user's settings the autosave lives in
    // Autosave::defaultDirectory(); with a settings path (tests, screenshots, portable use) only when
    // POSATLAS_STATE_DIR names a folder.
    Autosave* autosave() const;
    // The window's whole state as an autosave: the session, the view in front and the explorer.
    QByteArray autosaveSnapshot() const;
    // Asks `text` and answers through `answer(true)` to restore, `answer(false)` to discard; not
    // answering keeps the autosave on disk for later. The default is a window-modal Restore / Locate… /
    // Discard / Later box that does not block the caller; tests answer directly.
    using RecoveryPrompt = AutosaveController::RecoveryPrompt;
    void setRecoveryPrompt(RecoveryPrompt prompt);
    // Offers an autosave left by a run that ended without a clean close (once per window; called
    // from the event loop right after construction). True when there was one to offer. Files it
    // names that are missing (an unmounted drive) are named in the offer; an autosave that cannot be
    // read is moved aside (.bak) and a notice says where. It is deleted only when discarded.
    bool offerRecovery();
    // Reads `replacement` where the autosave names the missing file `missing` (Locate… in the offer).
    void replaceRecoveryFile(const QString& missing, const QString& replacement);
    // Persistent notices at the top of the window (autosave off and why, recovery reports, keys a
    // session did not know): ids "autosave", "recovery", "session".
    NoticeArea* notices() const { return m_notices; }
    // The autosave notice's Retry: takes the folder again, or writes again after a failed write.
    void retryAutosave();

    // The controllers (see above).
    ViewController* viewController() const { return m_views; }
    ImportController* importController() const { return m_import; }
    LayersController* layersController() const { return m_layers; }
    LessonController* lessonController() const { return m_lessons; }
    AutosaveController* autosaveController() const { return m_autosave; }

protected:
    void closeEvent(QCloseEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void createViews();
    // SessionActions and ImportController (after the views and notices, before the menus).
    void createControllers();
    void createMenus();
    void createFileMenu();
    void createEditMenu();
    void createPresetsMenu();
    void createViewMenu();
    void createHeatmapActions(QMenu* view);
    void createOverlayMenu(QMenu* view);
    void createPresentationActions(QMenu* view);
    void createToolsMenu();
    void createHelpMenu();
    void createLessonDock();
    void createStatusBar();
    void createCompareActions(QMenu* view);
    // The window title and the Stop Comparing action follow the scenario and the comparison.
    void updateWindowTitle();
    void connectJobs();
    void restoreFromSettings();
    void saveToSettings();
    void rebuildRecentMenu();
    void rebuildMatrixKindMenu();
    void showKeyboardHelp();
    void onScenarioChanged();
    void updateExplanations();
    void setHoverText(const QString& text);
    void showError(const QString& message);
    void startAutosave(const QString& settingsPath);
    void createNotices();

    std::unique_ptr<Settings> m_settings;
    ScenarioModel* m_model;
    JobTracker* m_jobs;
    WindowStatus* m_status = nullptr;
    ViewController* m_views = nullptr;
    SessionActions* m_sessions = nullptr;
    ImportController* m_import = nullptr;
    LessonController* m_lessons = nullptr;
    AutosaveController* m_autosave = nullptr;
    ParameterPanel* m_panel = nullptr;
    HeatmapView* m_heatmap = nullptr;
    CurveView* m_curves = nullptr;
    RotationView* m_rotation = nullptr;
    RotationControls* m_rotationControls = nullptr;
    SpectrumView* m_spectrum = nullptr;
    std::array<QDockWidget*, kViewKindCount> m_viewDocks{};
    std::array<ExplanationPanel*, kViewKindCount> m_explanations{};
    QDockWidget* m_panelDock = nullptr;
    QDockWidget* m_importDock = nullptr;
    QDockWidget* m_layersDock = nullptr;
    TokenLayoutView* m_tokenLayout = nullptr;
    QDockWidget* m_tokenLayoutDock = nullptr;
    TokenLayoutController* m_tokenLayoutController = nullptr;
    LayersPanel* m_layersPanel = nullptr;
    QDockWidget* m_patchGridDock = nullptr;
    PatchGridPanel* m_patchGridPanel = nullptr;
    bool m_patchGridApplies = false; // the dock opens when the method becomes a patch method
    LayersController* m_layers = nullptr;
    LessonPanel* m_lessonPanel = nullptr;
    QDockWidget* m_lessonDock = nullptr;
    QMenu* m_recentMenu = nullptr;
    QMenu* m_matrixKindMenu = nullptr;
    QActionGroup* m_matrixKindGroup = nullptr;
    QAction* m_stopComparing = nullptr;
    QLabel* m_hoverLabel = nullptr;
    QProgressBar* m_progress = nullptr;
    QAction* m_showTimingsAction = nullptr;
    Presentation* m_presentation = nullptr;
    ExplorerWindow* m_explorer = nullptr;           // child top-level window, created on first use
    LabWindow* m_lab = nullptr;                     // likewise
    TrainedRunDialog* m_trainedRunDialog = nullptr; // likewise
    // The trained runs' scenarios this window applied, each with its caption (the newest last, at most
    // kTrainedRunsKept): the title names the run while its scenario is on screen, after an undo too.
    static constexpr std::size_t kTrainedRunsKept = 64;
    std::vector<std::pair<Scenario, QString>> m_trainedRuns;
    NoticeArea* m_notices = nullptr;
    QToolBar* m_noticeBar = nullptr;
    bool m_defaultLayoutPending = false;
};

} // namespace posatlas::ui
