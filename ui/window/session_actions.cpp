// SPDX-License-Identifier: GPL-3.0-or-later
#include "window/session_actions.h"

#include "export/animation_dialog.h"
#include "io/input_file.h"
#include "jobs/job_tracker.h"
#include "model/scenario_model.h"
#include "model/settings.h"
#include "views/curve_view.h"
#include "views/figure_style.h"
#include "views/heatmap_view.h"
#include "views/rotation_view.h"
#include "views/spectrum_view.h"
#include "views/view_render.h"
#include "widgets/notice_area.h"
#include "window/layers_controller.h"
#include "window/patch_grid_panel.h"
#include "window/view_controller.h"
#include "window/window_status.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QBuffer>
#include <QClipboard>
#include <QCoreApplication>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QGuiApplication>
#include <QMenu>
#include <QMessageBox>
#include <QMimeData>
#include <QPainter>
#include <QSignalBlocker>
#include <QStatusBar>
#include <QSvgGenerator>
#include <QUndoStack>

#include <nlohmann/json.hpp>

namespace posatlas::ui {

namespace {

constexpr const char* kSessionSuffix = ".posatlas.json";
const QString kSessionNotice = QStringLiteral("session");

QString errorText(const std::exception& e)
{
    return QString::fromUtf8(e.what());
}

} // namespace

bool is_session_file(const QString& path)
{
    if (path.endsWith(QLatin1String(kSessionSuffix), Qt::CaseInsensitive))
        return true;
    if (!path.endsWith(QLatin1String(".json"), Qt::CaseInsensitive))
        return false;
    // Model configs and sessions are a few kB; anything huge is neither worth parsing here. A device or
    // FIFO (QFile would block on it, or read /dev/zero forever) is not a session: the config importer,
    // which gets it next, says why.
    std::string bytes;
    try {
        bytes = read_input_file(QFile::encodeName(path).toStdString(), 4 * 1024 * 1024);
    } catch (const InputFileError&) {
        return false;
    }
    const nlohmann::json doc = nlohmann::json::parse(bytes, nullptr, /*allow_exceptions=*/false);
    if (!doc.is_object())
        return false;
    const auto format = doc.find("format");
    return format != doc.end() && format->is_string() && format->get<std::string>() == "posatlas-session";
}

// A figure to export and the numbers behind it: a view widget of the window, or an off-screen one.
struct SessionActions::Source {
    std::unique_ptr<OffscreenFigure> offscreen;
    const Figure* figure = nullptr;
    ViewResult data;
};

SessionActions::SessionActions(ViewController* views, Settings* settings, WindowStatus* status,
                               NoticeArea* notices, QWidget* window)
    : QObject(window), m_views(views), m_settings(settings), m_status(status), m_notices(notices),
      m_window(window)
{
    connect(views->jobs(), &JobTracker::resultDelivered, this, [this](int kind, quint64 generation) {
        if (kind >= 0 && kind < kViewKindCount)
            m_delivered[static_cast<std::size_t>(kind)] = generation;
    });
    // The current view follows clicks and focus inside the view docks.
    qApp->installEventFilter(this);
}

SessionActions::~SessionActions() = default;

// ---------------------------------------------------------------- menus

void SessionActions::addOpenAction(QMenu* file)
{
    QAction* a = file->addAction(tr("Open Sessio&n…"), this, &SessionActions::openSessionDialog);
    a->setShortcut(QKeySequence(tr("Ctrl+Shift+O")));
    a->setStatusTip(tr("Open a .posatlas.json session: method, parameters, views and their settings"));
}

void SessionActions::addSaveAndExportActions(QMenu* file)
{
    QAction* save = file->addAction(tr("&Save Session…"), this, &SessionActions::saveSessionDialog);
    save->setShortcut(QKeySequence::Save);
    save->setStatusTip(
        tr("Save the method, every parameter and the views' settings as a .posatlas.json file"));
    file->addSeparator();
    QAction* fig = file->addAction(tr("&Export Figure…"), this, &SessionActions::exportFigureDialog);
    fig->setShortcut(QKeySequence(tr("Ctrl+E")));
    fig->setStatusTip(tr("Write the current view (or several views) as PNG, SVG or PDF"));
    QAction* data = file->addAction(tr("Export &Data…"), this, &SessionActions::exportDataDialog);
    data->setStatusTip(tr("Write the numbers behind the current view as CSV or JSON"));
    QAction* animation = file->addAction(tr("Export &Animation…"), this, [this] { exportAnimationDialog(); });
    animation->setObjectName(QStringLiteral("exportAnimationAction"));
    animation->setStatusTip(tr("Write the current view as MP4, GIF or animated PNG while one value moves"));
}

void SessionActions::addEditActions(QMenu* edit)
{
    QAction* copy = edit->addAction(tr("&Copy Figure"), this, &SessionActions::copyFigure);
    copy->setShortcut(QKeySequence(tr("Ctrl+Shift+C")));
    copy->setStatusTip(tr("Copy the current view to the clipboard as an image (2x) and SVG"));
}

// ---------------------------------------------------------------- sessions

Session SessionActions::currentSession() const
{
    Session s;
    s.scenario = m_views->model()->scenario();
    // What the views show: the kind on screen (also when it is the method's default), the window
    // inside the matrix.
    s.settings = normalized_view_settings(s.scenario, m_views->settings());
    s.settings.matrix_kind = effective_matrix_kind(s.scenario, s.settings);
    s.colormap = parse_colormap(m_settings->colormap()); // "" (automatic) parses to nullopt
    s.visible_views.clear();
    for (ViewKind k : kAllViewKinds)
        if (!m_views->dock(k)->isHidden())
            s.visible_views.append(view_kind_id(k));
    if (m_layers)
        s.layers = m_layers->state();
    if (m_patchGrid)
        s.settings.query_patch = m_patchGrid->query();
    if (m_tokenLayoutDock)
        s.token_layout = !m_tokenLayoutDock->isHidden();
    return s;
}

void SessionActions::syncMenus(const ViewSettings& v, std::optional<Colormap> colormap)
{
    QWidget& w = *m_window;
    // Check marks only: the views get the settings in one piece afterwards.
    if (auto* small = w.findChild<QAction*>(QStringLiteral("smallMultiplesAction"))) {
        const QSignalBlocker block(small);
        small->setChecked(v.small_multiples);
    }
    for (auto [name, on] : {std::pair{"perPanelScalesAction", v.per_panel_scales},
                            std::pair{"subtractMeanAction", v.subtract_mean}})
        if (auto* action = w.findChild<QAction*>(QLatin1String(name))) {
            const QSignalBlocker block(action);
            action->setChecked(on);
        }
    if (auto* overlay = w.findChild<QMenu*>(QStringLiteral("overlayMenu")))
        for (QAction* a : overlay->actions()) {
            const QSignalBlocker block(a);
            a->setChecked(std::any_of(v.overlay.begin(), v.overlay.end(), [&](Method m) {
                return a->data().toString().toStdString() == m.id();
            }));
        }
    if (auto* group = w.findChild<QActionGroup*>(QStringLiteral("colormapGroup"))) {
        // "Automatic" has no menu entry: no map is checked. (No signal blocker: the group follows
        // its actions through their signals, and the maps react to triggered, not to setChecked.)
        group->setExclusionPolicy(QActionGroup::ExclusionPolicy::ExclusiveOptional);
        for (QAction* a : group->actions())
            a->setChecked(colormap && a->data().toString() == colormap_id(*colormap));
        group->setExclusionPolicy(QActionGroup::ExclusionPolicy::Exclusive);
    }
    const Scenario& scenario = m_views->model()->scenario();
    const auto kinds = matrix_kinds_for(scenario.method);
    const MatrixKind kind = effective_matrix_kind(scenario, v);
    auto* kindGroup = w.findChild<QActionGroup*>(QStringLiteral("matrixKindGroup"));
    const QList<QAction*> kindActions = kindGroup ? kindGroup->actions() : QList<QAction*>();
    for (qsizetype i = 0; i < kindActions.size() && i < static_cast<qsizetype>(kinds.size()); ++i)
        kindActions[i]->setChecked(kinds[static_cast<std::size_t>(i)] == kind);
}

bool SessionActions::applySession(const Session& s, const QString& name, const QString& undoText)
{
    if (!m_views->model()->setScenario(s.scenario,
                                       undoText.isEmpty() ? tr("Open Session %1").arg(name) : undoText))
        return false; // the model reported why; nothing else changed
    if (m_layers)
        m_layers->restore(s.layers);
    // onScenarioChanged has run (it resets the zoom window when the method or length changed):
    // now the session's settings replace the views' state in one piece.
    ViewSettings v = s.settings;
    const ViewSettings here = m_views->settings();
    v.pixel_width = here.pixel_width; // this window's heatmap size, not the saving window's
    v.pixel_height = here.pixel_height;
    v.panel_chrome = here.panel_chrome;
    v.curve_plot_left = here.curve_plot_left; // and its curves chart's plot area
    v.curve_plot_width = here.curve_plot_width;

    const ViewWidgets& w = m_views->widgets();
    if (s.colormap)
        w.heatmap->setColormap(*s.colormap);
    else
        w.heatmap->setAutomaticColormap();
    m_settings->setColormap(s.colormap ? colormap_id(*s.colormap) : QString());
    w.heatmap->setFitColorsToView(v.fit_colors_to_view); // its action and QSettings follow
    {
        const QSignalBlocker block(w.curves); // logXChanged would schedule the old settings
        w.curves->setLogX(v.log_x);
    }
    m_settings->setCurveLogX(v.log_x);
    w.rotationControls->setPosition(v.query_position);
    w.rotationControls->setKeyPosition(v.key_position);
    syncMenus(v, s.colormap);
    m_views->setSettings(v); // every view
    if (m_patchGrid)
        m_patchGrid->setQuery(v.query_patch); // clamped to the scenario's patches
    for (ViewKind k : kAllViewKinds)
        m_views->dock(k)->setVisible(s.visible_views.contains(view_kind_id(k)));
    // After setScenario, which showed it for M-RoPE and hid it otherwise: the session's choice, if any.
    if (m_tokenLayoutDock && s.token_layout)
        m_tokenLayoutDock->setVisible(*s.token_layout);
    return true;
}

bool SessionActions::openSession(const QString& path)
{
    Session s;
    SessionReadReport report;
    try {
        s = load_session(path, &report);
    } catch (const SessionError& e) {
        reportError(tr("Cannot open the session"), errorText(e));
        return false;
    }
    if (!applySession(s, QFileInfo(path).fileName()))
        return false;
    showUnknownKeys(path, report.unknown_keys); // typos whose values became the defaults
    m_settings->addRecentFile(path);
    emit recentFilesChanged();
    m_lastDir = QFileInfo(path).absolutePath();
    m_status->showMessage(tr("Opened session %1").arg(QDir::toNativeSeparators(path)), 5000);
    return true;
}

bool SessionActions::saveSession(const QString& path)
{
    try {
        save_session(currentSession(), path);
    } catch (const SessionError& e) {
        reportError(tr("Cannot save the session"), errorText(e));
        return false;
    }
    m_settings->addRecentFile(path);
    emit recentFilesChanged();
    m_lastDir = QFileInfo(path).absolutePath();
    m_status->showMessage(tr("Saved session %1").arg(QDir::toNativeSeparators(path)), 5000);
    return true;
}

void SessionActions::openSessionDialog()
{
    const QString path = QFileDialog::getOpenFileName(
        m_window, tr("Open session"), m_lastDir, tr("PosAtlas sessions (*.posatlas.json);;JSON (*.json)"));
    if (!path.isEmpty())
        openSession(path);
}

void SessionActions::saveSessionDialog()
{
    const QString suggested = QDir(m_lastDir.isEmpty() ? QDir::homePath() : m_lastDir)
                                  .filePath(QStringLiteral("session") + QLatin1String(kSessionSuffix));
    QString path = QFileDialog::getSaveFileName(m_window, tr("Save session"), suggested,
                                                tr("PosAtlas sessions (*.posatlas.json)"));
    if (path.isEmpty())
        return;
    if (!path.endsWith(QLatin1String(".json"), Qt::CaseInsensitive))
        path += QLatin1String(kSessionSuffix);
    saveSession(path);
}

void SessionActions::reportError(const QString& title, const QString& message)
{
    m_status->showError(title + QStringLiteral(": ") + message);
    // Window-modal and opened without a nested event loop: clear, and never blocks a caller.
    auto* box = new QMessageBox(QMessageBox::Warning, title, message, QMessageBox::Ok, m_window);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setWindowModality(Qt::WindowModal);
    box->open();
}

// ---------------------------------------------------------------- figures

ViewKind SessionActions::currentView() const
{
    if (m_current && !m_views->dock(*m_current)->isHidden())
        return *m_current;
    for (ViewKind k : kAllViewKinds) {
        const QDockWidget* d = m_views->dock(k);
        if (d->isVisible() && !d->widget()->visibleRegion().isEmpty())
            return k;
    }
    return ViewKind::Heatmap;
}

bool SessionActions::eventFilter(QObject* watched, QEvent* event)
{
    if ((event->type() == QEvent::MouseButtonPress || event->type() == QEvent::FocusIn) &&
        watched->isWidgetType())
        for (ViewKind k : kAllViewKinds)
            if (m_views->dock(k)->isAncestorOf(static_cast<QWidget*>(watched)))
                m_current = k;
    return QObject::eventFilter(watched, event);
}

bool SessionActions::upToDate(ViewKind kind) const
{
    const JobTracker* jobs = m_views->jobs();
    const quint64 gen = jobs->generation(static_cast<int>(kind));
    return m_views->isEnabled(kind) && !jobs->busy() && gen > 0 &&
           m_delivered[static_cast<std::size_t>(kind)] == gen;
}

SessionActions::Source SessionActions::source(ViewKind kind, const FigureExportOptions& options) const
{
    const ViewWidgets& w = m_views->widgets();
    Source src;
    if (kind != ViewKind::Heatmap && upToDate(kind)) {
        switch (kind) {
        case ViewKind::Curves: src.figure = w.curves, src.data = w.curves->data(); break;
        case ViewKind::Rotation: src.figure = w.rotation, src.data = w.rotation->data(); break;
        case ViewKind::Spectrum: src.figure = w.spectrum, src.data = w.spectrum->data(); break;
        case ViewKind::Heatmap: break;
        }
        return src;
    }
    const Session s = currentSession();
    try {
        src.offscreen = std::make_unique<OffscreenFigure>(
            kind, s.scenario, export_view_settings(s.settings, options), s.colormap);
    } catch (const std::exception& e) {
        throw ExportError(
            tr("cannot compute the %1 view: %2").arg(view_kind_id(kind), errorText(e)).toStdString());
    }
    src.figure = &src.offscreen->figure();
    src.data = src.offscreen->data();
    return src;
}

QStringList SessionActions::exportFigures(const FigureExportRequest& request)
{
    if (request.views.isEmpty())
        throw ExportError(tr("no view chosen").toStdString());
    const QStringList paths = figure_export_paths(request.path, request.views);
    const Scenario scenario = m_views->model()->scenario();
    // A .csv or .json name (the export dialog's data formats) writes each view's numbers instead.
    const auto format = export_format_from_path(request.path);
    if (format == ExportFormat::Csv || format == ExportFormat::Json) {
        for (qsizetype i = 0; i < request.views.size(); ++i)
            exportNumbers(request.views[i], paths[i], NumbersExtent::View);
        return paths;
    }
    for (qsizetype i = 0; i < request.views.size(); ++i) {
        FigureExportOptions options = request.options;
        const Source src = source(request.views[i], options);
        set_figure_metadata(options, *src.figure, scenario);
        export_figure(*src.figure, paths[i], options);
    }
    return paths;
}

void SessionActions::exportNumbers(ViewKind kind, const QString& path, NumbersExtent extent)
{
    if (kind != ViewKind::Heatmap) {
        const Source src = source(kind, FigureExportOptions{});
        export_numbers(src.data, path);
        return;
    }
    if (extent == NumbersExtent::View && upToDate(kind)) {
        export_numbers(m_views->widgets().heatmap->data(), path);
        return;
    }
    // Computed now, with the view's own settings: its window and its pixel grid, or every cell.
    const Session s = currentSession();
    ViewSettings settings = s.settings;
    if (extent == NumbersExtent::FullWindow) {
        const std::int64_t n = s.scenario.seq_len;
        const std::int64_t rows = settings.rows > 0 ? settings.rows : n;
        const std::int64_t cols = settings.cols > 0 ? settings.cols : n;
        const int panels = !settings.compare.empty()  ? static_cast<int>(settings.compare.size())
                           : settings.small_multiples ? std::max(1, per_head_count(s.scenario))
                                                      : 1;
        const double cells =
            static_cast<double>(rows) * static_cast<double>(cols) * std::min(panels, settings.max_panels);
        if (cells > static_cast<double>(kMaxExportCells))
            throw ExportError(
                tr("the visible window has %1 × %2 cells%3; Export Data writes at most %4 (2048 × 2048): "
                   "zoom in, or export the view's grid")
                    .arg(rows)
                    .arg(cols)
                    .arg(panels > 1 ? tr(" per panel") : QString())
                    .arg(kMaxExportCells)
                    .toStdString());
        // One output cell per position: the pixel grid is as large as the window.
        settings.pixel_width = static_cast<int>(std::max<std::int64_t>(cols, 8) * settings.max_panels);
        settings.pixel_height = static_cast<int>(std::max<std::int64_t>(rows, 8) * settings.max_panels);
    }
    std::unique_ptr<OffscreenFigure> offscreen;
    try {
        offscreen = std::make_unique<OffscreenFigure>(kind, s.scenario, settings, s.colormap);
    } catch (const std::exception& e) {
        throw ExportError(
            tr("cannot compute the %1 view: %2").arg(view_kind_id(kind), errorText(e)).toStdString());
    }
    export_numbers(offscreen->data(), path);
}

void SessionActions::copyFigure()
{
    const ViewKind kind = currentView();
    FigureExportOptions options;
    // What is on screen, at twice its size in pixels: sharp when pasted into slides.
    const QSize onScreen = m_views->dock(kind)->widget()->size();
    options.size = QSizeF(std::clamp(onScreen.width(), 320, 4000), std::clamp(onScreen.height(), 240, 4000));
    options.dpi = 192.0;
    options.render.dark = palette_is_dark(m_window->palette());
    try {
        const Source src = source(kind, options);
        set_figure_metadata(options, *src.figure, m_views->model()->scenario());
        const QImage image = render_figure_image(*src.figure, options);
        auto* mime = new QMimeData;
        mime->setImageData(image);
        // The same figure as SVG, for applications that paste vectors (Inkscape, LibreOffice).
        QBuffer svgBytes;
        svgBytes.open(QIODevice::WriteOnly);
        QSvgGenerator svg;
        svg.setOutputDevice(&svgBytes);
        svg.setSize(options.size.toSize());
        svg.setViewBox(QRectF(QPointF(0, 0), options.size));
        svg.setTitle(options.title);
        svg.setDescription(options.description);
        QPainter painter(&svg);
        painter.fillRect(QRectF(QPointF(0, 0), options.size),
                         options.render.dark ? QColor(0x1e, 0x1f, 0x22) : Qt::white);
        src.figure->renderFigure(painter, QRectF(QPointF(0, 0), options.size), options.render);
        painter.end();
        mime->setData(QStringLiteral("image/svg+xml"), svgBytes.data());
        QGuiApplication::clipboard()->setMimeData(mime);
        m_status->showMessage(tr("Copied %1 to the clipboard").arg(view_kind_id(kind)), 4000);
    } catch (const ExportError& e) {
        reportError(tr("Cannot copy the figure"), errorText(e));
    }
}

void SessionActions::exportFigureDialog()
{
    ExportDialog dialog(currentView(), scenario_caption(m_views->model()->scenario()), m_window);
    if (m_lastRequest) {
        FigureExportRequest last = *m_lastRequest;
        last.views = {currentView()};
        dialog.restoreChoices(last);
    }
    QStringList written;
    if (const auto request = dialog.execUntilWritten(
            tr("Export failed"), [&](const FigureExportRequest& r) { written = exportFigures(r); })) {
        m_lastRequest = request;
        m_status->showMessage(
            tr("Exported %1").arg(QDir::toNativeSeparators(written.join(QStringLiteral(", ")))), 8000);
    }
}

AnimationDialog* SessionActions::exportAnimationDialog(const std::optional<AnimationRequest>& prefill)
{
    AnimationRequest base;
    if (prefill) {
        base = *prefill;
    } else {
        const Session s = currentSession();
        base.view = currentView();
        base.scenario = s.scenario;
        base.settings = s.settings;
        base.colormap = s.colormap;
        base.figure = default_animation_figure();
        if (m_lastAnimation) { // the size, rate and format of the last export; what moves is chosen anew
            base.figure = m_lastAnimation->figure;
            base.fps = m_lastAnimation->fps;
            base.format = m_lastAnimation->format;
        }
    }
    auto* dialog = new AnimationDialog(base, m_window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &AnimationDialog::exported, this, [this, dialog](const QString& path) {
        m_lastAnimation = dialog->request();
        m_status->showMessage(tr("Exported %1").arg(QDir::toNativeSeparators(path)), 8000);
    });
    dialog->open();
    return dialog;
}

void SessionActions::exportDataDialog()
{
    const ViewKind kind = currentView();
    const QString suggested = QDir(m_lastDir.isEmpty() ? QDir::homePath() : m_lastDir)
                                  .filePath(QStringLiteral("posatlas-%1.csv").arg(view_kind_id(kind)));
    const QString gridCsv = tr("CSV of the view's grid (*.csv)");
    const QString gridJson = tr("JSON of the view's grid (*.json)");
    const QString fullCsv = tr("CSV of every cell in the visible window (*.csv)");
    const QString fullJson = tr("JSON of every cell in the visible window (*.json)");
    const QString filters = kind == ViewKind::Heatmap
                                ? QStringList{gridCsv, gridJson, fullCsv, fullJson}.join(QStringLiteral(";;"))
                                : tr("CSV with a header row (*.csv);;JSON (*.json)");
    QString selected;
    QString path = QFileDialog::getSaveFileName(m_window, tr("Export data"), suggested, filters, &selected);
    if (path.isEmpty())
        return;
    if (!export_format_from_path(path))
        path +=
            selected.contains(QStringLiteral("*.json")) ? QStringLiteral(".json") : QStringLiteral(".csv");
    const NumbersExtent extent =
        selected == fullCsv || selected == fullJson ? NumbersExtent::FullWindow : NumbersExtent::View;
    try {
        exportNumbers(kind, path, extent);
        m_lastDir = QFileInfo(path).absolutePath();
        m_status->showMessage(tr("Exported %1").arg(QDir::toNativeSeparators(path)), 5000);
    } catch (const ExportError& e) {
        reportError(tr("Export failed"), errorText(e));
    }
}

void SessionActions::showUnknownKeys(const QString& file, const std::vector<UnknownKey>& keys)
{
    // Texts of the main window's (its translation context), where this notice was shown before.
    if (keys.empty()) {
        m_notices->clear(kSessionNotice);
        return;
    }
    QStringList lines;
    for (const UnknownKey& k : keys)
        lines << (k.suggestion.empty()
                      ? QCoreApplication::translate("posatlas::ui::MainWindow", "unknown key %1")
                            .arg(QString::fromStdString(k.key))
                      : QCoreApplication::translate("posatlas::ui::MainWindow",
                                                    "unknown key %1 (did you mean %2?)")
                            .arg(QString::fromStdString(k.key), QString::fromStdString(k.suggestion)));
    const QString text =
        QCoreApplication::translate("posatlas::ui::MainWindow",
                                    "%1: these keys were ignored and their values are the defaults: %2")
            .arg(QFileInfo(file).fileName(), lines.join(QStringLiteral("; ")));
    m_notices->showNotice(kSessionNotice, text, {}, true);
    m_status->remember(text);
}

} // namespace posatlas::ui
