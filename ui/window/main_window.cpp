// SPDX-License-Identifier: GPL-3.0-or-later
#include "window/main_window.h"

#include "analysis/rope_compare.h"
#include "explorer/explorer_window.h"
#include "io/model_config.h"
#include "lab/lab_window.h"
#include "lab/trained_run_dialog.h"
#include "lessons/lesson_panel.h"
#include "model/autosave.h"
#include "model/settings.h"
#include "scenario/validation.h"
#include "views/curve_view.h"
#include "views/explanations.h"
#include "views/figure_style.h"
#include "views/heatmap_view.h"
#include "views/rotation_view.h"
#include "views/spectrum_view.h"
#include "views/token_layout_view.h"
#include "widgets/explanation_panel.h"
#include "widgets/notice_area.h"
#include "widgets/parameter_panel.h"
#include "window/import_controller.h"
#include "window/layers_controller.h"
#include "window/layers_panel.h"
#include "window/lesson_controller.h"
#include "window/patch_grid_panel.h"
#include "window/presentation.h"
#include "window/session_actions.h"
#include "window/token_layout_controller.h"
#include "window/view_controller.h"
#include "window/window_status.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileInfo>
#include <QGuiApplication>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMimeData>
#include <QProgressBar>
#include <QScreen>
#include <QShowEvent>
#include <QSignalBlocker>
#include <QStatusBar>
#include <QStyle>
#include <QStyleFactory>
#include <QTextBrowser>
#include <QTimer>
#include <QToolBar>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <functional>

namespace posatlas::ui {

namespace {

// The View > Matrix menu's entries, with mnemonics for the common kinds; a method's own kinds take
// their label from its descriptor.
QString kindMenuLabel(MatrixKind k)
{
    if (k == MatrixKind::Logits)
        return MainWindow::tr("&Logits");
    if (k == MatrixKind::Weights)
        return MainWindow::tr("Attention &weights (softmax)");
    if (k == MatrixKind::Encoding)
        return MainWindow::tr("&Encoding (positions × dimensions)");
    if (k == MatrixKind::Bias)
        return MainWindow::tr("&Bias");
    if (k == MatrixKind::Buckets)
        return MainWindow::tr("B&ucket indices");
    return kindLabel(k);
}

QPalette darkPalette()
{
    QPalette p;
    const QColor window(0x2b, 0x2d, 0x31), base(0x1e, 0x1f, 0x22), text(0xe6, 0xe6, 0xe6);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, window);
    p.setColor(QPalette::ToolTipBase, base);
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, window);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, Qt::red);
    p.setColor(QPalette::Highlight, QColor(0x3d, 0x7a, 0xd6));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Link, QColor(0x6c, 0xa6, 0xf0));
    p.setColor(QPalette::PlaceholderText, QColor(0x90, 0x90, 0x90));
    for (auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, QColor(0x80, 0x80, 0x80));
    return p;
}

} // namespace

MainWindow::MainWindow(const QString& settingsPath, QWidget* parent)
    : QMainWindow(parent), m_settings(std::make_unique<Settings>(settingsPath)),
      m_model(new ScenarioModel(this)), m_jobs(new JobTracker(this))
{
    setObjectName(QStringLiteral("MainWindow"));
    setWindowIcon(QIcon(QStringLiteral(":/posatlas/icons/posatlas.svg")));
    setAcceptDrops(true);
    setDockNestingEnabled(true);
    m_status = new WindowStatus(statusBar(), this);
    m_notices = new NoticeArea; // placed by createNotices
    createViews();
    createControllers();
    createMenus();
    createLessonDock(); // after the menus: it follows the presentation they create
    createStatusBar();
    connectJobs();
    connect(m_model, &ScenarioModel::scenarioChanged, this, &MainWindow::onScenarioChanged);
    connect(m_model, &ScenarioModel::parameterRejected, this, &MainWindow::showError);
    restoreFromSettings();
    onScenarioChanged();
    m_views->clampRotationPositions(); // the restored m and n, within the slider's new range
    createNotices();
    startAutosave(settingsPath);
    // The first launch opens on the course (only with the user's own settings: tests and screenshots
    // that pass a settings file get the window they set up).
    if (settingsPath.isEmpty())
        showStartPageOnce();
}

MainWindow::~MainWindow()
{
    // ~QWidget hides the docks after this object's MainWindow part is gone: their visibility
    // signals must not reach it any more.
    for (ViewKind k : kAllViewKinds) {
        disconnect(dock(k), nullptr, this, nullptr);
        disconnect(dock(k), nullptr, m_views, nullptr);
    }
    m_heatmap->removeEventFilter(m_views);
}

// ---------------------------------------------------------------- construction

void MainWindow::createViews()
{
    // No central widget: every view is a dock, so any of them can be shown side by side, tabbed,
    // floated or closed, and the arrangement is what saveState() stores.
    auto makeDock = [this](const QString& title, const QString& name, QWidget* content) {
        auto* dock = new QDockWidget(title, this);
        dock->setObjectName(name);
        dock->setWidget(content);
        dock->setFeatures(QDockWidget::DockWidgetClosable | QDockWidget::DockWidgetMovable |
                          QDockWidget::DockWidgetFloatable);
        return dock;
    };

    m_panel = new ParameterPanel(m_model);
    connect(m_panel, &ParameterPanel::message, this, &MainWindow::showError);
    m_panelDock = makeDock(tr("Parameters"), QStringLiteral("ParametersDock"), m_panel);
    addDockWidget(Qt::LeftDockWidgetArea, m_panelDock);
    // The figures get the space a wide window adds; the sliders need no more than this.
    m_panel->setMaximumWidth(kMaxPanelWidth);

    m_heatmap = new HeatmapView;
    m_heatmap->installEventFilter(this);
    m_curves = new CurveView;
    m_curves->setLogX(m_settings->curveLogX());
    m_rotation = new RotationView;
    m_rotationControls = new RotationControls;
    auto* rotationBox = new QWidget;
    auto* rotationLayout = new QVBoxLayout(rotationBox);
    rotationLayout->setContentsMargins(0, 0, 0, 0);
    rotationLayout->addWidget(m_rotation, 1);
    rotationLayout->addWidget(m_rotationControls);
    m_spectrum = new SpectrumView;

    // Each view with its "What am I looking at?" panel below it; the panel's expanded state is remembered.
    auto withExplanation = [this](ViewKind kind, const QString& id, QWidget* view) {
        auto* panel = new ExplanationPanel;
        panel->setExpanded(m_settings->explanationExpanded(id));
        connect(panel, &ExplanationPanel::expandedChanged, this,
                [this, id](bool on) { m_settings->setExplanationExpanded(id, on); });
        m_explanations[static_cast<std::size_t>(kind)] = panel;
        auto* box = new QWidget;
        auto* layout = new QVBoxLayout(box);
        layout->setContentsMargins(0, 0, 0, 0);
        layout->setSpacing(0);
        layout->addWidget(view, 1);
        layout->addWidget(panel);
        return box;
    };
    auto& docks = m_viewDocks;
    docks[static_cast<std::size_t>(ViewKind::Heatmap)] =
        makeDock(tr("Heatmap"), QStringLiteral("HeatmapDock"),
                 withExplanation(ViewKind::Heatmap, QStringLiteral("heatmap"), m_heatmap));
    docks[static_cast<std::size_t>(ViewKind::Curves)] =
        makeDock(tr("Curves"), QStringLiteral("CurvesDock"),
                 withExplanation(ViewKind::Curves, QStringLiteral("curves"), m_curves));
    docks[static_cast<std::size_t>(ViewKind::Rotation)] =
        makeDock(tr("Rotation"), QStringLiteral("RotationDock"),
                 withExplanation(ViewKind::Rotation, QStringLiteral("rotation"), rotationBox));
    docks[static_cast<std::size_t>(ViewKind::Spectrum)] =
        makeDock(tr("Spectrum"), QStringLiteral("SpectrumDock"),
                 withExplanation(ViewKind::Spectrum, QStringLiteral("spectrum"), m_spectrum));

    // Default layout: heatmap and curves side by side; rotation and spectrum as tabs behind them.
    addDockWidget(Qt::RightDockWidgetArea, dock(ViewKind::Heatmap));
    splitDockWidget(dock(ViewKind::Heatmap), dock(ViewKind::Curves), Qt::Horizontal);
    tabifyDockWidget(dock(ViewKind::Heatmap), dock(ViewKind::Rotation));
    tabifyDockWidget(dock(ViewKind::Curves), dock(ViewKind::Spectrum));
    dock(ViewKind::Heatmap)->raise();
    dock(ViewKind::Curves)->raise();

    m_importDock = makeDock(tr("Config import"), QStringLiteral("ImportDock"), nullptr); // createControllers
    addDockWidget(Qt::LeftDockWidgetArea, m_importDock);
    tabifyDockWidget(m_panelDock, m_importDock);
    m_importDock->hide();
    m_panelDock->raise();

    // A strip across the bottom: one cell per layer needs the width more than the height.
    m_layersDock = makeDock(tr("Layers"), QStringLiteral("LayersDock"), nullptr); // createControllers
    addDockWidget(Qt::BottomDockWidgetArea, m_layersDock);
    m_layersDock->hide();

    // M-RoPE's tokens and their (t, h, w) ids, a strip across the bottom like the layers; shown while the
    // method is M-RoPE (token_layout_controller.h).
    m_tokenLayout = new TokenLayoutView;
    m_tokenLayoutDock = makeDock(tr("Token layout"), QStringLiteral("TokenLayoutDock"), m_tokenLayout);
    addDockWidget(Qt::BottomDockWidgetArea, m_tokenLayoutDock);
    m_tokenLayoutDock->hide();
    m_tokenLayoutController =
        new TokenLayoutController(m_model, m_jobs, m_tokenLayout, m_tokenLayoutDock, this);
    connect(m_tokenLayoutController, &TokenLayoutController::exported, this, [this](const QString& path) {
        m_status->showMessage(tr("Exported %1").arg(QDir::toNativeSeparators(path)), 8000);
    });

    // The views' settings and jobs (view_controller.h): it follows the docks and the view widgets.
    m_views = new ViewController(
        m_model, m_jobs, m_settings.get(), m_status,
        ViewWidgets{m_heatmap, m_curves, m_rotation, m_rotationControls, m_spectrum, m_viewDocks}, this);
    connect(m_views, &ViewController::settingsChanged, this, [this] {
        updateWindowTitle();
        updateExplanations(); // the heatmap's text follows its matrix kind
    });

    connect(m_heatmap, &HeatmapView::hovered, this, &MainWindow::setHoverText);

    // The image-patch methods' grid: one query patch against every patch. Its own slot on the views'
    // tracker (after theirs), tabbed with the Curves view, whose distance axis a 2D grid does not have.
    m_patchGridPanel = new PatchGridPanel(m_model, m_jobs, TokenLayoutController::kSlot + 1, this);
    m_patchGridDock = makeDock(tr("Patch grid"), QStringLiteral("PatchGridDock"), m_patchGridPanel);
    addDockWidget(Qt::RightDockWidgetArea, m_patchGridDock);
    tabifyDockWidget(dock(ViewKind::Curves), m_patchGridDock);
    dock(ViewKind::Curves)->raise();
    m_patchGridDock->hide();
    auto followMethod = [this] {
        const bool applies = m_patchGridPanel->applies();
        if (applies && !m_patchGridApplies) {
            m_patchGridDock->show();
            m_patchGridDock->raise();
        } else if (!applies && m_patchGridApplies) {
            m_patchGridDock->hide();
        }
        m_patchGridApplies = applies;
    };
    connect(m_model, &ScenarioModel::scenarioChanged, this, followMethod);
    followMethod();
    connect(m_curves, &CurveView::hovered, this, &MainWindow::setHoverText);
    connect(m_spectrum, &SpectrumView::hovered, this, &MainWindow::setHoverText);
}

void MainWindow::createControllers()
{
    m_sessions = new SessionActions(m_views, m_settings.get(), m_status, m_notices, this);
    connect(m_sessions, &SessionActions::recentFilesChanged, this, &MainWindow::rebuildRecentMenu);
    m_import = new ImportController(m_model, m_settings.get(), m_sessions, m_status, this);
    m_importDock->setWidget(m_import->reportWidget());
    // The model's layers: the import hands them over, sessions keep them.
    m_layers = new LayersController(m_model, this);
    m_import->setLayers(m_layers);
    m_sessions->setLayers(m_layers);
    m_sessions->setPatchGrid(m_patchGridPanel);
    m_sessions->setTokenLayoutDock(m_tokenLayoutDock);
    m_layersPanel = new LayersPanel(m_layers);
    m_layersDock->setWidget(m_layersPanel);
    connect(m_layers, &LayersController::layersChanged, this, [this] {
        if (!layers_differ(m_layers->layers()))
            return;
        const bool opening = m_layersDock->isHidden();
        m_layersDock->show();
        m_layersDock->raise();
        // Opened at its content's height (at most 40 % of the window), not at the strip's minimum.
        if (opening)
            resizeDocks({m_layersDock},
                        {std::min(m_layersPanel->sizeHint().height(), static_cast<int>(height() * 0.4))},
                        Qt::Vertical);
    });
    connect(m_import, &ImportController::recentFilesChanged, this, &MainWindow::rebuildRecentMenu);
    connect(m_import, &ImportController::reportShown, this, [this] {
        m_importDock->show();
        m_importDock->raise();
    });
}

void MainWindow::createLessonDock()
{
    m_lessonPanel = new LessonPanel(this);
    m_lessonDock = new QDockWidget(tr("Lesson"), this);
    m_lessonDock->setObjectName(QStringLiteral("LessonDock"));
    m_lessonDock->setWidget(m_lessonPanel);
    m_lessonDock->setFeatures(QDockWidget::DockWidgetClosable | QDockWidget::DockWidgetMovable |
                              QDockWidget::DockWidgetFloatable);
    // A column of its own right of the figures, full height: the text beside the figures it talks
    // about. (splitDockWidget would make it a tab: the curves share their area with the spectrum.)
    addDockWidget(Qt::RightDockWidgetArea, m_lessonDock, Qt::Horizontal);
    m_lessonDock->hide();
    LessonController::Parts parts;
    parts.window = this;
    parts.dock = m_lessonDock;
    parts.panel = m_lessonPanel;
    parts.settings = m_settings.get();
    parts.sessions = m_sessions;
    parts.presentation = m_presentation;
    parts.views = m_views;
    parts.status = m_status;
    parts.focusView = [this](ViewKind kind) { focusView(kind); };
    m_lessons = new LessonController(parts, this);
}

void MainWindow::createStatusBar()
{
    m_hoverLabel = new QLabel;
    m_hoverLabel->setMinimumWidth(200);
    m_hoverLabel->setTextFormat(Qt::PlainText);
    m_progress = new QProgressBar;
    m_progress->setRange(0, 100);
    m_progress->setMaximumWidth(160);
    m_progress->setTextVisible(false);
    m_progress->hide();
    statusBar()->addPermanentWidget(m_hoverLabel);
    statusBar()->addPermanentWidget(m_progress);
}

void MainWindow::connectJobs()
{
    connect(m_jobs, &JobTracker::totalProgressChanged, m_progress, &QProgressBar::setValue);
    connect(m_jobs, &JobTracker::progressVisible, m_progress, &QWidget::setVisible);
    // View > Show Timings: measured per view (view_timings.h), shown for the visible ones.
    statusBar()->insertPermanentWidget(0, m_views->timingsLabel());
    connect(m_views, &ViewController::showTimingsChanged, m_showTimingsAction, &QAction::setChecked);
    if (m_settings->showTimings())
        m_showTimingsAction->setChecked(true); // calls setShowTimings
    ViewSettings v = m_views->settings();
    v.log_x = m_settings->curveLogX();
    setViewSettings(v, ViewKind::Curves);
}

void MainWindow::createNotices()
{
    m_noticeBar = new QToolBar(tr("Notices"), this);
    m_noticeBar->setObjectName(QStringLiteral("NoticeBar"));
    m_noticeBar->setMovable(false);
    m_noticeBar->setFloatable(false);
    m_noticeBar->toggleViewAction()->setVisible(false); // not in the docks' context menu: it is no choice
    m_noticeBar->addWidget(m_notices); // created first: the controllers show their notices in it
    addToolBar(Qt::TopToolBarArea, m_noticeBar);
    const auto sync = [this] { m_noticeBar->setVisible(!m_notices->isEmpty()); };
    connect(m_notices, &NoticeArea::changed, this, sync);
    // restoreState() (the saved layout, leaving a presentation) would show or hide it by what it was.
    connect(m_noticeBar, &QToolBar::visibilityChanged, this, [this, sync](bool visible) {
        if (visible == m_notices->isEmpty())
            QTimer::singleShot(0, this, sync);
    });
    sync();
}

void MainWindow::startAutosave(const QString& settingsPath)
{
    // The explorer is the window's (created on first use); the autosave saves and restores its state.
    AutosaveController::ExplorerAccess explorer{[this] { return m_explorer; },
                                                [this] { return openExplorer(); }};
    m_autosave = new AutosaveController(m_sessions, m_views, m_notices, m_status, explorer, this);
    m_autosave->start(settingsPath.isEmpty() ? Autosave::defaultDirectory()
                                             : qEnvironmentVariable("POSATLAS_STATE_DIR"));
}

// ---------------------------------------------------------------- settings

void MainWindow::restoreFromSettings()
{
    // The views' own state first (the settings read it validated: unknown ids and out-of-range positions
    // fall back to the defaults): onScenarioChanged, reached from resetScenario below or next in the
    // constructor, builds the matrix kind menu from the view settings and sets the rotation slider's
    // range; ViewController::clampRotationPositions then clamps m to it.
    ViewSettings v = m_views->settings();
    v.matrix_kind = m_settings->matrixKind();
    v.overlay = m_settings->curveOverlays();
    if (const auto mn = m_settings->rotationPositions()) {
        v.query_position = mn->first;
        v.key_position = mn->second;
    }
    m_views->restoreSettings(v);
    if (auto* overlay = findChild<QMenu*>(QStringLiteral("overlayMenu")))
        for (QAction* a : overlay->actions()) {
            const QSignalBlocker block(a);
            a->setChecked(std::any_of(v.overlay.begin(), v.overlay.end(), [&](Method m) {
                return a->data().toString().toStdString() == m.id();
            }));
        }
    if (auto s = m_settings->lastScenario()) {
        if (!m_model->resetScenario(*s))
            m_status->forget(); // an outdated saved scenario just falls back to the defaults
    }
    if (!restoreGeometry(m_settings->windowGeometry()))
        resize(first_launch_size(QGuiApplication::primaryScreen()
                                     ? QGuiApplication::primaryScreen()->availableGeometry().size()
                                     : QSize()));
    m_defaultLayoutPending = !restoreState(m_settings->windowState());
    if (m_settings->darkTheme())
        setDarkTheme(true);
}

void MainWindow::saveToSettings()
{
    m_settings->setWindowGeometry(saveGeometry());
    m_settings->setWindowState(saveState());
    if (m_explorer)
        m_settings->setExplorerGeometry(m_explorer->saveGeometry());
    m_settings->setLastScenario(m_model->scenario());
    const ViewSettings& v = m_views->settings();
    m_settings->setRotationPositions(v.query_position, v.key_position);
    m_settings->setCurveOverlays(v.overlay);
    m_settings->setMatrixKind(v.matrix_kind);
    m_settings->sync();
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    m_presentation->leave(); // the layout saved is the normal one, not the presentation's
    saveToSettings();
    m_autosave->autosave()->finish(); // a clean close: nothing to recover next time
    event->accept();
}

void MainWindow::rebuildRecentMenu()
{
    m_recentMenu->clear();
    const QStringList files = m_settings->recentFiles();
    for (int i = 0; i < files.size(); ++i) {
        const QString& path = files[i];
        QAction* a = m_recentMenu->addAction(tr("&%1 %2").arg(i + 1).arg(QFileInfo(path).fileName()));
        a->setStatusTip(path);
        a->setToolTip(path);
        connect(a, &QAction::triggered, this, [this, path] { openFile(path); });
    }
    if (files.isEmpty()) {
        m_recentMenu->addAction(tr("(none)"))->setEnabled(false);
    } else {
        m_recentMenu->addSeparator();
        m_recentMenu->addAction(tr("&Clear List"), this, [this] {
            m_settings->clearRecentFiles();
            rebuildRecentMenu();
        });
    }
}

// ---------------------------------------------------------------- actions

void MainWindow::showError(const QString& message)
{
    m_status->showError(message);
}

void MainWindow::setHoverText(const QString& text)
{
    m_hoverLabel->setText(text);
}

void MainWindow::setComputeHiddenViews(bool on)
{
    m_views->setComputeHidden(on);
}

ExplorerWindow* MainWindow::openExplorer()
{
    if (!m_explorer) {
        m_explorer =
            new ExplorerWindow(this); // a QMainWindow: its own top-level window, deleted with this one
        m_explorer->restoreGeometry(m_settings->explorerGeometry()); // else as fitted to the screen
        const Scenario& s = m_model->scenario();
        const std::optional<RopeParams> rotary = rotary_params(s); // a rotary method's (registry.h)
        if (rotary)
            m_explorer->setRopeModel(*rotary, tr("Current scenario"));
        if (!rotary || m_explorer->model()->variants().empty())
            m_explorer->loadPreset(QStringLiteral("llama-3.1-8b"));
        for (auto signal : {&ExplorerModel::modelChanged, &ExplorerModel::variantsChanged,
                            &ExplorerModel::parametersChanged, &ExplorerModel::currentLengthChanged})
            connect(m_explorer->model(), signal, m_autosave->autosave(), &Autosave::markDirty);
        m_autosave->autosave()->markDirty();
    }
    m_explorer->show();
    m_explorer->raise();
    m_explorer->activateWindow();
    return m_explorer;
}

LabWindow* MainWindow::openLab()
{
    if (!m_lab) {
        m_lab = new LabWindow(this); // a QMainWindow: its own top-level window, deleted with this one
        connect(m_lab, &LabWindow::openRunRequested, this,
                [this](const QString& run) { openTrainedRunDialog(run); });
    }
    m_lab->show();
    m_lab->raise();
    m_lab->activateWindow();
    return m_lab;
}

TrainedRunDialog* MainWindow::openTrainedRunDialog(const QString& run)
{
    if (!m_trainedRunDialog) {
        m_trainedRunDialog = new TrainedRunDialog(this);
        m_trainedRunDialog->setObjectName(QStringLiteral("trainedRunDialog"));
        connect(m_trainedRunDialog, &TrainedRunDialog::opened, this,
                [this](const TrainedRunRequest& r, const QString& folder) { applyTrainedRun(r, folder); });
    }
    if (!run.isEmpty())
        m_trainedRunDialog->setRun(run);
    m_trainedRunDialog->show();
    m_trainedRunDialog->raise();
    m_trainedRunDialog->activateWindow();
    return m_trainedRunDialog;
}

bool MainWindow::applyTrainedRun(const TrainedRunRequest& r, const QString& folder)
{
    const QString path = QDir(folder).filePath(QStringLiteral("head-%1.posatlas.json").arg(r.head));
    Session session;
    QString label;
    std::int64_t trained = 0;
    try {
        session = load_session(path);
        const lab::RunInfo info = lab::read_run_config(r.run.toStdString());
        label = trained_run_label(info.config);
        trained = info.config.train_len;
    } catch (const std::exception& e) {
        m_sessions->reportError(tr("Cannot open the trained run"), QString::fromUtf8(e.what()));
        return false;
    }
    const QString caption = tr("%1 · layer %2 · head %3 · %4 tokens (trained at %5)")
                                .arg(label)
                                .arg(r.layer)
                                .arg(r.head)
                                .arg(r.length)
                                .arg(trained);
    // The caption first, so that the title the scenario change sets already names the run.
    m_trainedRuns.emplace_back(session.scenario, caption);
    if (m_trainedRuns.size() > kTrainedRunsKept)
        m_trainedRuns.erase(m_trainedRuns.begin());
    if (!m_sessions->applySession(session, label, tr("Open Trained Run %1").arg(caption))) {
        m_trainedRuns.pop_back();
        updateWindowTitle();
        return false;
    }
    updateWindowTitle();
    m_status->showMessage(tr("Trained run on screen: %1").arg(caption), 10000);
    return true;
}

QString MainWindow::trainedRunCaption() const
{
    for (auto it = m_trainedRuns.rbegin(); it != m_trainedRuns.rend(); ++it)
        if (it->first == m_model->scenario())
            return it->second;
    return {};
}

void MainWindow::setDarkTheme(bool dark)
{
    // Fusion draws every widget from the palette, so a dark palette is honoured on every platform.
    if (dark) {
        QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
        QApplication::setPalette(darkPalette());
    } else {
        QApplication::setPalette(QApplication::style()->standardPalette());
    }
    m_settings->setDarkTheme(dark);
}

// ---------------------------------------------------------------- scenario and views

void MainWindow::onScenarioChanged()
{
    // The application's name last: platforms that append the display name see it already there and do
    // not add it a second time ("PosAtlas — … — PosAtlas").
    updateWindowTitle();

    // The readout described the figure before this change: its numbers are no longer on screen (a lecturer
    // must not read a value the figure does not show). The next hover or crosshair move reads the new one.
    m_hoverLabel->clear();

    // The view settings follow the scenario (view_controller.h); a new method has other matrix kinds.
    if (m_views->followScenario() || m_matrixKindGroup->actions().isEmpty())
        rebuildMatrixKindMenu();
    updateExplanations();
    m_views->requestAllViews();
}

void MainWindow::rebuildMatrixKindMenu()
{
    const Scenario& s = m_model->scenario();
    for (QAction* a : m_matrixKindGroup->actions())
        delete a;
    const MatrixKind current = effective_matrix_kind(s, m_views->settings());
    for (MatrixKind k : matrix_kinds_for(s.method)) {
        QAction* a = m_matrixKindMenu->addAction(kindMenuLabel(k));
        a->setCheckable(true);
        a->setChecked(k == current);
        m_matrixKindGroup->addAction(a);
        connect(a, &QAction::triggered, this, [this, k] {
            ViewSettings vs = m_views->settings();
            vs.matrix_kind = k;
            vs.row0 = vs.col0 = vs.rows = vs.cols = 0;
            setViewSettings(vs, ViewKind::Heatmap);
        });
    }
}

void MainWindow::updateExplanations()
{
    const Scenario& s = m_model->scenario();
    for (ViewKind k : kAllViewKinds)
        if (ExplanationPanel* panel = explanationPanel(k)) // nullptr only while the views are built
            panel->setText(explanation(k, s, m_views->settings().matrix_kind));
}

void MainWindow::showEvent(QShowEvent* event)
{
    QMainWindow::showEvent(event);
    if (!m_defaultLayoutPending)
        return;
    m_defaultLayoutPending = false;
    // First start: the panel gets what its sliders need, the two visible views share the rest.
    // (resizeDocks only takes effect once the window has its final size, hence here.)
    const int panel = std::max(300, m_panelDock->sizeHint().width());
    const int rest = std::max(400, width() - panel);
    resizeDocks({m_panelDock, dock(ViewKind::Heatmap), dock(ViewKind::Curves)}, {panel, rest / 2, rest / 2},
                Qt::Horizontal);
}

// ---------------------------------------------------------------- drag and drop

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    // What openFile() opens: sessions and config.json (.json), llama.cpp files (.gguf), checkpoints.
    const QList<QUrl> urls = event->mimeData()->urls();
    if (urls.size() != 1 || !urls.front().isLocalFile())
        return;
    const QString path = urls.front().toLocalFile();
    for (const char* suffix : {".json", ".gguf", ".safetensors"})
        if (path.endsWith(QLatin1String(suffix), Qt::CaseInsensitive)) {
            event->acceptProposedAction();
            return;
        }
}

void MainWindow::dropEvent(QDropEvent* event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    if (urls.size() == 1 && urls.front().isLocalFile()) {
        event->acceptProposedAction();
        // Queued: a modal error box inside the drop handler would block the drag source.
        const QString path = urls.front().toLocalFile();
        QMetaObject::invokeMethod(
            this, [this, path] { openFile(path); }, Qt::QueuedConnection);
    }
}

QSize first_launch_size(QSize available)
{
    if (available.isEmpty())
        return {1280, 720};
    return QSize(available.width() * 9 / 10, available.height() * 9 / 10)
        .expandedTo(QSize(1280, 720))
        .boundedTo(available);
}

} // namespace posatlas::ui
