// SPDX-License-Identifier: GPL-3.0-or-later
// The main window's menu bar: File, Edit, View (views, matrix kinds, colour maps, presentation),
// Presets (the shipped models, grouped by family), Tools and Help. Each action calls into the
// window, its model or its session actions; menus hold no state of their own.
#include "window/main_window.h"

#include "io/presets.h"
#include "model/settings.h"
#include "views/colormap.h"
#include "views/figure_style.h"
#include "views/heatmap_view.h"
#include "window/preferences_dialog.h"
#include "window/presentation.h"
#include "window/session_actions.h"
#include "window/view_controller.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QDockWidget>
#include <QFileDialog>
#include <QKeySequence>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QUndoStack>

#include <map>

namespace posatlas::ui {

namespace {

QString qs(std::string_view s)
{
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

} // namespace

void MainWindow::createMenus()
{
    createFileMenu();
    createEditMenu();
    createPresetsMenu();
    createViewMenu();
    createToolsMenu();
    createHelpMenu();
}

// Tools: the Lab window (lab/lab_window.h), a sweep of the extrapolation lab run by posatlas-lab.
void MainWindow::createToolsMenu()
{
    QMenu* tools = menuBar()->addMenu(tr("&Tools"));
    QAction* lab = tools->addAction(tr("&Lab…"), this, [this] { openLab(); });
    lab->setObjectName(QStringLiteral("labAction"));
}

void MainWindow::createFileMenu()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* open = file->addAction(tr("&Open config.json…"), this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open a model's config.json"), QString(),
                                                          tr("Model configs (*.json *.gguf);;All files (*)"));
        if (!path.isEmpty())
            openConfig(path);
    });
    open->setShortcut(QKeySequence::Open);
    open->setStatusTip(tr("Read a Hugging Face config.json or a llama.cpp .gguf file's metadata and apply "
                          "its positional parameters (one undo step)"));
    QAction* openModel = file->addAction(tr("Open &Model…"), this, &MainWindow::openModelDialog);
    openModel->setObjectName(QStringLiteral("openModelAction"));
    openModel->setStatusTip(
        tr("Open a model from the local Hugging Face cache, or download its config and position "
           "tensors from the Hub"));
    QAction* openWeights = file->addAction(tr("Open &Weights…"), this, [this] { openWeightsDialog(); });
    openWeights->setObjectName(QStringLiteral("openWeightsAction"));
    openWeights->setStatusTip(tr("Use a tensor of a .safetensors checkpoint as the learned position table"));
    m_sessions->addOpenAction(file);
    QAction* openRun = file->addAction(tr("Open &Trained Run…"), this, [this] { openTrainedRunDialog(); });
    openRun->setObjectName(QStringLiteral("openTrainedRunAction"));
    openRun->setStatusTip(tr("Show a model trained in the lab on an example of any length: its own "
                             "attention logits and weights, past its trained length too"));
    QAction* openLessonAction = file->addAction(tr("Open &Lesson…"), this, &MainWindow::openLessonDialog);
    openLessonAction->setObjectName(QStringLiteral("openLessonAction"));
    openLessonAction->setStatusTip(
        tr("Open a lesson file (Markdown with a scenario per step, see the course's format)"));
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    m_recentMenu->setObjectName(QStringLiteral("recentMenu"));
    rebuildRecentMenu();
    file->addSeparator();
    m_sessions->addSaveAndExportActions(file); // Save Session, Export Figure, Export Data
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence(tr("Ctrl+Q")));
    quit->setMenuRole(QAction::QuitRole);
}

void MainWindow::createEditMenu()
{
    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* undo = m_model->undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    QAction* redo = m_model->undoStack()->createRedoAction(this, tr("&Redo"));
    redo->setShortcuts({QKeySequence(tr("Ctrl+Shift+Z")), QKeySequence::Redo});
    edit->addAction(undo);
    edit->addAction(redo);
    edit->addSeparator();
    m_sessions->addEditActions(edit); // Copy Figure
    edit->addSeparator();
    QAction* preferences = edit->addAction(tr("Pr&eferences…"), this, [this] {
        PreferencesDialog dialog(*m_settings, this);
        dialog.exec();
    });
    preferences->setObjectName(QStringLiteral("preferencesAction"));
    preferences->setShortcut(QKeySequence::Preferences);
    preferences->setMenuRole(QAction::PreferencesRole);
}

// The shipped models, grouped by family.
void MainWindow::createPresetsMenu()
{
    QMenu* presets = menuBar()->addMenu(tr("&Presets"));
    presets->setObjectName(QStringLiteral("presetsMenu"));
    presets->setToolTipsVisible(true);
    std::map<QString, QMenu*> families;
    for (const PresetInfo& p : list_presets()) {
        const QString family = qs(p.family);
        QMenu*& sub = families[family];
        if (!sub) {
            sub = new QMenu(family, presets);
            sub->setToolTipsVisible(true);
        }
        QAction* a = sub->addAction(qs(p.name));
        const QString tip = qs(p.description) + QStringLiteral("\n") + tr("Source: %1").arg(qs(p.source));
        a->setToolTip(tip);
        a->setStatusTip(tr("%1 · source: %2").arg(qs(p.description), qs(p.source)));
        a->setData(qs(p.id));
        connect(a, &QAction::triggered, this, [this, id = qs(p.id)] { loadPreset(id); });
    }
    for (auto& [name, menu] : families)
        presets->addMenu(menu);
}

void MainWindow::createViewMenu()
{
    QMenu* view = menuBar()->addMenu(tr("&View"));
    // The docks' show/hide entries in a submenu of their own: the View menu has more entries than
    // letters to give them unique mnemonics (Alt+V, L, then the letter). Their own texts, not the dock
    // titles: a Chinese title would get its mnemonic on a Chinese character.
    QMenu* panels = view->addMenu(tr("Pane&ls"));
    panels->setObjectName(QStringLiteral("panelsMenu"));
    const std::pair<QDockWidget*, QString> toggles[] = {{m_panelDock, tr("&Parameters")},
                                                        {dock(ViewKind::Heatmap), tr("&Heatmap")},
                                                        {dock(ViewKind::Curves), tr("&Curves")},
                                                        {dock(ViewKind::Rotation), tr("&Rotation")},
                                                        {dock(ViewKind::Spectrum), tr("&Spectrum")},
                                                        {m_importDock, tr("Config &import")},
                                                        {m_layersDock, tr("La&yers")},
                                                        {m_tokenLayoutDock, tr("&Token layout")},
                                                        {m_patchGridDock, tr("Patch &grid")}};
    for (const auto& [d, text] : toggles) {
        QAction* toggle = d->toggleViewAction();
        toggle->setText(text);
        panels->addAction(toggle);
    }
    // Every view from the keyboard: shows its dock, brings it to the front and gives it the focus, where
    // arrows, + / − and the crosshair keys work (Help > Keyboard and Mouse).
    QMenu* goTo = view->addMenu(tr("&Go to View"));
    goTo->setObjectName(QStringLiteral("goToViewMenu"));
    const std::pair<ViewKind, QString> goTargets[] = {{ViewKind::Heatmap, tr("&Heatmap")},
                                                      {ViewKind::Curves, tr("&Curves")},
                                                      {ViewKind::Rotation, tr("&Rotation")},
                                                      {ViewKind::Spectrum, tr("&Spectrum")}};
    int goKey = 1;
    for (const auto& [kind, text] : goTargets) {
        goTo->addAction(text, QKeySequence(tr("Ctrl+%1").arg(goKey++)), this,
                        [this, kind = kind] { focusView(kind); });
    }
    view->addSeparator();
    m_matrixKindMenu = view->addMenu(tr("Heatmap &Matrix"));
    m_matrixKindMenu->setObjectName(QStringLiteral("matrixKindMenu"));
    m_matrixKindGroup = new QActionGroup(this);
    m_matrixKindGroup->setObjectName(QStringLiteral("matrixKindGroup")); // SessionActions syncs its checks
    QMenu* colormaps = view->addMenu(tr("&Colour Map"));
    auto* cmGroup = new QActionGroup(this);
    cmGroup->setObjectName(QStringLiteral("colormapGroup")); // SessionActions syncs the check marks
    for (Colormap map : all_colormaps()) {
        QAction* a = colormaps->addAction(colormap_name(map), this, [this, map] {
            m_heatmap->setColormap(map);
            m_settings->setColormap(colormap_id(map));
        });
        a->setCheckable(true);
        a->setData(colormap_id(map));
        cmGroup->addAction(a);
        if (m_settings->colormap() == colormap_id(map)) {
            a->setChecked(true);
            m_heatmap->setColormap(map);
        }
    }
    view->addAction(tr("Reset &Zoom"), QKeySequence(tr("Ctrl+0")), m_heatmap, &HeatmapView::resetViewport)
        ->setObjectName(
            QStringLiteral("resetZoomAction")); // presentation mode lends its Ctrl+0 to the text size
    // The heatmap's own action (also in its context menu): zooming keeps the whole matrix's colour
    // scale unless the user asks for the visible window's.
    QAction* fit = m_heatmap->fitColorsAction();
    view->addAction(fit);
    m_views->setFitColorsToView(m_settings->fitColorsToView());
    m_heatmap->setFitColorsToView(m_settings->fitColorsToView());
    connect(m_heatmap, &HeatmapView::fitColorsToViewChanged, this, [this](bool on) {
        m_settings->setFitColorsToView(on);
        // Exports and sessions colour like the screen. No recompute: the data has both scales.
        m_views->setFitColorsToView(on);
    });
    createHeatmapActions(view);
    createOverlayMenu(view);
    createCompareActions(view);
    view->addSeparator();
    view->addAction(tr("Context-&extension explorer…"), QKeySequence(tr("Ctrl+Shift+E")), this,
                    [this] { openExplorer(); });
    QAction* dark = view->addAction(tr("&Dark Theme"));
    dark->setCheckable(true);
    dark->setChecked(palette_is_dark(QApplication::palette()));
    connect(dark, &QAction::toggled, this, &MainWindow::setDarkTheme);
    m_showTimingsAction = view->addAction(tr("Show &Timings"));
    m_showTimingsAction->setCheckable(true);
    m_showTimingsAction->setObjectName(QStringLiteral("showTimingsAction"));
    m_showTimingsAction->setStatusTip(
        tr("Show in the status bar how many milliseconds each visible view takes "
           "to compute and to paint"));
    connect(m_showTimingsAction, &QAction::toggled, this, &MainWindow::setShowTimings);
    createPresentationActions(view);
}

// Heads as small multiples, their colour scales, the mean subtracted, the point sample beside the mean.
void MainWindow::createHeatmapActions(QMenu* view)
{
    QAction* small = view->addAction(tr("Heads as &Small Multiples"));
    small->setCheckable(true);
    small->setChecked(true);
    small->setObjectName(QStringLiteral("smallMultiplesAction"));
    small->setStatusTip(tr("ALiBi and T5: one small heatmap per head, labelled with its slope"));
    connect(small, &QAction::toggled, this, [this](bool on) {
        ViewSettings v = m_views->settings();
        v.small_multiples = on;
        setViewSettings(v, ViewKind::Heatmap);
    });
    QAction* perPanel = view->addAction(tr("One Colour Scale &per Panel"));
    perPanel->setCheckable(true);
    perPanel->setChecked(m_views->settings().per_panel_scales);
    perPanel->setObjectName(QStringLiteral("perPanelScalesAction"));
    perPanel->setStatusTip(tr("Small multiples: each head coloured over its own range (off: one scale shared "
                              "by all heads, which makes slow heads look flat)"));
    connect(perPanel, &QAction::toggled, this, [this](bool on) {
        ViewSettings v = m_views->settings();
        v.per_panel_scales = on;
        setViewSettings(v, ViewKind::Heatmap);
    });
    QAction* centre = view->addAction(tr("S&ubtract Mean"));
    centre->setCheckable(true);
    centre->setObjectName(QStringLiteral("subtractMeanAction"));
    centre->setStatusTip(tr("Colour each heatmap's values minus their mean: shows the structure of a matrix "
                            "whose spread is tiny against its mean"));
    connect(centre, &QAction::toggled, this, [this](bool on) {
        ViewSettings v = m_views->settings();
        v.subtract_mean = on;
        setViewSettings(v, ViewKind::Heatmap);
    });
    QAction* beside = view->addAction(tr("Point Sample &beside Mean"));
    beside->setCheckable(true);
    beside->setObjectName(QStringLiteral("pointSampleBesideMeanAction"));
    beside->setStatusTip(
        tr("Heatmap: the point sample of the same window beside its exact block means, on one "
           "colour scale, to show what aliasing draws"));
    connect(beside, &QAction::toggled, this, [this](bool on) {
        ViewSettings v = m_views->settings();
        v.show_point_sample = on;
        setViewSettings(v, ViewKind::Heatmap);
    });
}

void MainWindow::createOverlayMenu(QMenu* view)
{
    QMenu* overlay = view->addMenu(tr("&Overlay on Curves"));
    overlay->setToolTipsVisible(true);
    overlay->setObjectName(QStringLiteral("overlayMenu"));
    for (const MethodDescriptor& d : methods()) {
        const Method m = d.method;
        QAction* a = overlay->addAction(methodName(m));
        a->setCheckable(true);
        a->setData(QString::fromLatin1(m.id().data(), static_cast<qsizetype>(m.id().size())));
        a->setToolTip(
            tr("Draw this method's logit against distance on the curves, with the same content vectors"));
        connect(a, &QAction::toggled, this, [this, m](bool on) {
            ViewSettings v = m_views->settings();
            std::erase(v.overlay, m);
            if (on)
                v.overlay.push_back(m);
            setViewSettings(v, ViewKind::Curves);
        });
    }
}

// Presentation mode (presentation.h): F5, with its text size, theme and panel settings.
void MainWindow::createPresentationActions(QMenu* view)
{
    view->addSeparator();
    Presentation::Parts parts;
    parts.window = this;
    parts.model = m_model;
    parts.panel = m_panel;
    parts.panelDock = m_panelDock;
    parts.importDock = m_importDock;
    parts.docks = m_viewDocks;
    parts.maxPanelWidth = kMaxPanelWidth;
    m_presentation = new Presentation(parts, m_settings.get());
    view->addAction(m_presentation->presentAction());
    QMenu* textSize = view->addMenu(QString()); // titled below, with the current size
    textSize->setObjectName(QStringLiteral("presentationTextSizeMenu"));
    textSize->addAction(m_presentation->largerAction());
    textSize->addAction(m_presentation->smallerAction());
    textSize->addAction(m_presentation->resetScaleAction());
    const auto updateTextSizeTitle = [textSize](double scale) {
        textSize->setTitle(tr("Presentation Te&xt Size (%1 %)").arg(qRound(scale * 100)));
    };
    updateTextSizeTitle(m_presentation->fontScale());
    connect(m_presentation, &Presentation::fontScaleChanged, textSize, updateTextSizeTitle);
    view->addAction(m_presentation->highContrastAction());
    view->addAction(m_presentation->panelAction());
}

void MainWindow::createHelpMenu()
{
    QMenu* help = menuBar()->addMenu(tr("&Help"));
    QAction* course = help->addAction(tr("&Course"), this, &MainWindow::showCourse);
    course->setObjectName(QStringLiteral("courseAction"));
    course->setShortcut(QKeySequence(Qt::Key_F2));
    course->setStatusTip(
        tr("The built-in course on positional encoding: lessons that set up the figures step by step"));
    help->addAction(tr("&Keyboard and Mouse"), QKeySequence::HelpContents, this,
                    [this] { showKeyboardHelp(); });
    help->addAction(tr("&About PosAtlas"), this, [this] {
        QMessageBox::about(
            this, tr("About PosAtlas"),
            tr("<b>PosAtlas</b> %1<br>See how transformer positional encodings work: "
               "sinusoidal, learned, Shaw, Transformer-XL, T5, DeBERTa, RoPE and its scalings, "
               "ALiBi and CoPE.<br>Drop a model's config.json on the window to see its "
               "positions.")
                .arg(QApplication::applicationVersion()));
    });
}

} // namespace posatlas::ui
