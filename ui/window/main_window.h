// SPDX-License-Identifier: GPL-3.0-or-later
// The main window: the parameter panel and the four views as docks (several visible at once; the
// layout is saved and restored), menus (File, Edit with undo/redo, Presets grouped by family, View,
// Help), config.json import by menu or drag-and-drop with a report of what was read and ignored, and
// a status bar with parameter errors, the hover readout and a progress bar for long computations.
#pragma once

#include "jobs/job_tracker.h"
#include "jobs/view_jobs.h"
#include "lessons/lesson.h"
#include "model/scenario_model.h"

#include <QMainWindow>

#include <array>
#include <functional>
#include <map>
#include <memory>
#include <optional>

class QAction;
class QActionGroup;
class QDockWidget;
class QLabel;
class QMenu;
class QProgressBar;
class QTextBrowser;
class QToolBar;

namespace posatlas {
struct ConfigImport;
}

namespace posatlas::ui {

class Autosave;
class CurveView;
class HeatmapView;
class LessonPanel;
class ParameterPanel;
class Presentation;
class RotationControls;
class RotationView;
class SessionActions;
class Settings;
class SpectrumView;
class ViewTimings;
class Figure;
class ExplorerWindow;
class ExplanationPanel;
class NoticeArea;
struct MissingFile;

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
    const ViewSettings& viewSettings() const { return m_viewSettings; }
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
    QDockWidget* panelDock() const { return m_panelDock; }
    // View > Present (F5): full screen, one figure, larger fonts, steps through the presets.
    Presentation* presentation() const { return m_presentation; }
    // ---- Lessons (main_window_lessons.cpp, lesson.h)
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
    int currentLessonStep() const { return m_lessonStep; }
    LessonPanel* lessonPanel() const { return m_lessonPanel; }
    QDockWidget* lessonDock() const { return m_lessonDock; }
    QString importReportText() const;
    QString statusMessage() const;
    // View > Show Timings (persisted): compute and paint milliseconds of each visible view in the status
    // bar (view_timings.h).
    void setShowTimings(bool on);
    bool showTimings() const;
    ViewTimings* viewTimings() const { return m_timings; }
    QLabel* timingsLabel() const { return m_timingsLabel; }

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

    // Autosave and crash recovery (autosave.h). With the user's settings the autosave lives in
    // Autosave::defaultDirectory(); with a settings path (tests, screenshots, portable use) only when
    // POSATLAS_STATE_DIR names a folder.
    Autosave* autosave() const { return m_autosave; }
    // The window's whole state as an autosave: the session, the view in front and the explorer.
    QByteArray autosaveSnapshot() const;
    // Asks `text` and answers through `answer(true)` to restore, `answer(false)` to discard; not
    // answering keeps the autosave on disk for later. The default is a window-modal Restore / Locate… /
    // Discard / Later box that does not block the caller; tests answer directly.
    using RecoveryPrompt = std::function<void(const QString& text, std::function<void(bool)> answer)>;
    void setRecoveryPrompt(RecoveryPrompt prompt) { m_recoveryPrompt = std::move(prompt); }
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

protected:
    void closeEvent(QCloseEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    friend class SessionActions; // restores and reads the view state below
    void createViews();
    void createMenus();
    void createLessonDock();
    void loadCourse();
    void showLessonDock(); // shown at 30 % of the window's width the first time
    void createStatusBar();
    void createCompareActions(QMenu* view);
    // The window title and the Stop Comparing action follow the scenario and the comparison.
    void updateWindowTitle();
    void connectJobs();
    // Hidden views are not computed; enabling one computes it.
    void setViewEnabled(ViewKind kind, bool enabled);
    // Submits `kind` with the current scenario and settings (when enabled), or every view.
    void requestView(ViewKind kind);
    void requestAllViews();
    void showViewResult(const ViewResult& result);
    void restoreFromSettings();
    void saveToSettings();
    void restoreRotationPositions(); // after onScenarioChanged: the restored m and n, within the slider
    void rebuildRecentMenu();
    void showImportReport(const QString& title, const ConfigImport& result);
    void showKeyboardHelp();
    void onScenarioChanged();
    void updateExplanations();
    void updateViewEnabled();
    void updateHeatmapPixelSize();
    void setHoverText(const QString& text);
    void updateTimingsLabel();
    void showError(const QString& message);
    void startAutosave(const QString& settingsPath);
    void createNotices();
    void updateAutosaveNotice();
    void keepRecoveryForLater();
    void locateMissingFiles(const std::vector<MissingFile>& missing);
    // Restores the autosave; `missing` receives the files it names that were missing (left out).
    bool restoreAutosave(const QByteArray& bytes, std::vector<MissingFile>* missing = nullptr);
    // Keys of a session file that were ignored (session_actions.cpp): a notice naming them.
    void showUnknownKeys(const QString& file, const std::vector<UnknownKey>& keys);

    std::unique_ptr<Settings> m_settings;
    ScenarioModel* m_model;
    JobTracker* m_jobs;
    ViewSettings m_viewSettings;
    std::array<bool, kViewKindCount> m_viewEnabled{true, true, true, true};
    SessionActions* m_sessions = nullptr;
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
    LessonPanel* m_lessonPanel = nullptr;
    QDockWidget* m_lessonDock = nullptr;
    std::vector<Lesson> m_course;   // the built-in lessons in the interface's language
    std::optional<Lesson> m_lesson; // the open lesson
    int m_lessonStep = -1;
    std::optional<Session> m_beforeLesson; // what the window showed before the lesson
    QString m_lessonDir;
    QTextBrowser* m_importReport = nullptr;
    QMenu* m_recentMenu = nullptr;
    QMenu* m_matrixKindMenu = nullptr;
    QActionGroup* m_matrixKindGroup = nullptr;
    QAction* m_stopComparing = nullptr;
    QLabel* m_hoverLabel = nullptr;
    QProgressBar* m_progress = nullptr;
    ViewTimings* m_timings = nullptr;
    QLabel* m_timingsLabel = nullptr;
    QAction* m_showTimingsAction = nullptr;
    QString m_lastMessage;
    bool m_computeHidden = false;
    Presentation* m_presentation = nullptr;
    ExplorerWindow* m_explorer = nullptr; // child top-level window, created on first use
    Autosave* m_autosave = nullptr;
    RecoveryPrompt m_recoveryPrompt;
    bool m_recoveryOffered = false;
    std::map<QString, QString> m_recoveryReplacements; // Locate…: missing path -> the file chosen
    QString m_autosaveDir;
    NoticeArea* m_notices = nullptr;
    QToolBar* m_noticeBar = nullptr;
    bool m_defaultLayoutPending = false;
    // Scenario fields that invalidate the heatmap's zoom window when they change.
    Method m_lastMethod = Scenario{}.method;
    std::int64_t m_lastSeqLen = 0;
};

} // namespace posatlas::ui
