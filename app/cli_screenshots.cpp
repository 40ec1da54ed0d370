// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli_screenshots.h"

#include "cli_export.h"
#include "cli_help.h"
#include "cli_options.h"
#include "explorer/explorer_window.h"
#include "export/export_dialog.h"
#include "export/figure_export.h"
#include "jobs/job_tracker.h"
#include "jobs/view_jobs.h"
#include "lessons/lesson.h"
#include "methods/nope/nope.h"
#include "methods/registry.h"
#include "model/scenario_model.h"
#include "views/heatmap_view.h"
#include "widgets/parameter_panel.h"
#include "window/language.h"
#include "window/main_window.h"
#include "window/presentation.h"

#include <QApplication>
#include <QBuffer>
#include <QDeadlineTimer>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QScrollArea>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QThread>

#include <ostream>

namespace posatlas::cli {
namespace {

using namespace posatlas::ui;

// Runs the event loop until `busy` turns false (after letting debounce timers fire) or 60 s pass.
template <typename Busy> bool wait_idle(Busy&& busy)
{
    QDeadlineTimer settle(120);
    while (!settle.hasExpired())
        QApplication::processEvents(QEventLoop::AllEvents, 20);
    QDeadlineTimer deadline(60'000);
    while (busy() && !deadline.hasExpired()) {
        QApplication::processEvents(QEventLoop::AllEvents, 20);
        QThread::msleep(5);
    }
    // One more round so the delivered results are painted.
    QApplication::processEvents();
    return !busy();
}

void save(QWidget* w, const QDir& dir, const QString& name, std::ostream& out)
{
    const QString path = dir.filePath(name + QStringLiteral(".png"));
    // Encoded in memory, then written through the checked atomic writer (a full disk is an error).
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (!w->grab().save(&buffer, "PNG"))
        throw UsageError("--out: cannot encode " + path.toStdString());
    try {
        ui::write_file_atomically(path, bytes);
    } catch (const ui::ExportError& e) {
        throw UsageError(std::string("--out: ") + e.what());
    }
    out << path.toStdString() << '\n';
}

} // namespace

namespace {

OptionTable screenshots_table()
{
    return {
        {.name = "out",
         .type = ArgType::Path,
         .help = "The folder for the screenshots (created if missing), PNG files named by what they show.",
         .metavar = "DIR",
         .allowed = "a folder name",
         .required = true},
        {.name = "dark", .type = ArgType::Flag, .help = "Take them all in the dark theme."}};
}

} // namespace

OptionSet screenshots_option_set()
{
    return option_set(screenshots_table());
}

std::string screenshots_help()
{
    return render_help("usage: posatlas screenshots --out DIR [--dark]",
                       "Takes the app's screenshots for the README and the user guide (main window, each "
                       "view, the context-extension "
                       "explorer), and a few more for reviewing the GUI, offscreen.",
                       {{"Options", screenshots_table()}, {"Help", {help_option()}}});
}

int run_screenshots(const std::vector<std::string>& args, std::ostream& out)
{
    const Options o(args, screenshots_table());
    if (o.help()) {
        out << screenshots_help();
        return 0;
    }
    if (!o.positional().empty())
        throw UsageError("unexpected argument '" + o.positional().front() + "'");
    const auto dir_name = o.text("out");
    if (!dir_name)
        throw UsageError("--out DIR is required: the folder for the screenshots");
    if (!QDir().mkpath(QString::fromStdString(*dir_name)))
        throw UsageError("--out " + *dir_name + ": cannot create the folder");
    const QDir dir(QString::fromStdString(*dir_name));
    // A 1920x1080 offscreen screen (unless the caller chose a platform): presentation mode goes full
    // screen, and the lesson screenshots show it at a projector's size.
    QTemporaryDir platform;
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") && platform.isValid()) {
        QFile config(platform.filePath(QStringLiteral("offscreen.json")));
        if (config.open(QIODevice::WriteOnly)) {
            config.write(
                R"({"screens": [{"name": "projector", "x": 0, "y": 0, "width": 1920, "height": 1080,)"
                R"( "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}]})");
            config.close();
            qputenv("QT_QPA_PLATFORM",
                    QByteArray("offscreen:configfile=") + QFile::encodeName(config.fileName()));
        }
    }
    ensure_application();
    // A private settings file: screenshots never depend on (or change) the user's saved layout.
    QTemporaryDir settings;
    MainWindow w(settings.filePath(QStringLiteral("screenshots.ini")));
    w.setComputeHiddenViews(true);
    w.setDarkTheme(o.flag("dark"));
    w.resize(1280, 720);
    w.show();
    auto idle = [&] { return wait_idle([&] { return w.jobs()->busy(); }); };
    idle();
    save(&w, dir, QStringLiteral("main-window"), out);

    const std::pair<const char*, ViewKind> views[] = {{"view-heatmap", ViewKind::Heatmap},
                                                      {"view-curves", ViewKind::Curves},
                                                      {"view-rotation", ViewKind::Rotation},
                                                      {"view-spectrum", ViewKind::Spectrum}};
    w.loadPreset(QStringLiteral("llama-3.1-8b"));
    idle();
    for (const auto& [name, kind] : views) {
        QDockWidget* d = w.dock(kind);
        d->show();
        d->raise();
        idle();
        save(d, dir, QString::fromLatin1(name), out);
    }
    w.loadPreset(QStringLiteral("bloom-560m"));
    idle();
    w.dock(ViewKind::Heatmap)->raise();
    // The curves (ALiBi's decay per head), not the spectrum tab the loop above left in front: RoPE's
    // spectrum has nothing to show for ALiBi.
    w.dock(ViewKind::Curves)->raise();
    idle();
    save(&w, dir, QStringLiteral("main-window-alibi"), out);

    ExplorerWindow* e = w.openExplorer();
    e->resize(1400, 900);
    e->loadPreset(QStringLiteral("llama-3.1-8b"));
    e->show();
    auto explorer_idle = [&] { return wait_idle([&] { return e->jobs()->busy(); }); };
    for (int tab = 0; tab < e->tabs()->count(); ++tab) {
        e->tabs()->setCurrentIndex(tab);
        explorer_idle();
        save(e, dir, QStringLiteral("explorer-%1").arg(tab + 1), out);
    }

    // Beyond the docs: pictures for reviewing the GUI by eye. The explorer on a YaRN model,
    e->loadPreset(QStringLiteral("yarn-llama-2-7b-64k"));
    for (int tab = 0; tab < e->tabs()->count(); ++tab) {
        e->tabs()->setCurrentIndex(tab);
        explorer_idle();
        save(e, dir, QStringLiteral("explorer-yarn-%1").arg(tab + 1), out);
    }
    // the entropy with random q, k, where the frequency sets give one curve,
    e->tabs()->setCurrentIndex(static_cast<int>(ExplorerView::Temperature));
    e->setEntropyContent(EntropyContent::RandomQK);
    explorer_idle();
    save(e, dir, QStringLiteral("explorer-yarn-entropy-random"), out);
    e->setEntropyContent(EntropyContent::RepeatedToken);
    e->close();
    // a bucketed method (step curves),
    w.loadPreset(QStringLiteral("t5-base"));
    idle();
    save(&w, dir, QStringLiteral("main-window-t5"), out);
    // the figures' share of a full-HD window,
    w.resize(1920, 1080);
    idle();
    save(&w, dir, QStringLiteral("main-window-wide"), out);
    // and the export dialog with its suggested caption.
    ExportDialog dialog(ViewKind::Heatmap, scenario_caption(w.model()->scenario()), &w);
    dialog.show();
    idle();
    save(&dialog, dir, QStringLiteral("export-dialog"), out);
    dialog.close();
    // Methods side by side (the lesson "Choosing an encoding"): sinusoidal, RoPE and ALiBi as
    // heatmap panels and overlaid curves, in a full-HD window and presented at 200 % text size, where
    // long captions and legends are the first to be clipped.
    w.loadPreset(QStringLiteral("llama-3.1-8b"));
    w.setComparedMethods(ui::classic_comparison());
    w.resize(1920, 1080);
    w.dock(ViewKind::Heatmap)->raise();
    w.dock(ViewKind::Curves)->show();
    w.dock(ViewKind::Curves)->raise();
    idle();
    save(&w, dir, QStringLiteral("main-window-compare"), out);
    {
        Presentation* p = w.presentation();
        const double scale = p->fontScale();
        p->setFontScale(2.0);
        p->enter();
        for (const auto& [name, kind] : {std::pair{"present-compare-heatmap", ViewKind::Heatmap},
                                         std::pair{"present-compare-curves", ViewKind::Curves}}) {
            p->showView(kind);
            idle();
            save(&w, dir, QString::fromLatin1(name), out);
        }
        p->leave();
        p->setFontScale(scale);
    }
    w.setComparedMethods({});
    // Last, a sentence as the positions: NoPE's attention weights over its words (the
    // permutation invariance of self-attention), the axes labelled with the words.
    Scenario sentence;
    sentence.method = kNoPE;
    common_field("text")->set(sentence, std::string("the dog bit the man"));
    w.model()->setScenario(sentence, QStringLiteral("the dog bit the man"));
    ViewSettings weights = w.viewSettings();
    weights.matrix_kind = MatrixKind::Weights;
    w.setViewSettings(weights);
    w.resize(1280, 720);
    w.dock(ViewKind::Heatmap)->raise();
    idle();
    save(&w, dir, QStringLiteral("main-window-sentence"), out);
    // The sentence beside its permutation, the rows of "dog" linked (as hovering the row shows them): the
    // same numbers in both panels, only moved.
    Scenario permuted = sentence;
    common_field("permuted")->set(permuted, std::string("the man bit the dog"));
    w.model()->setScenario(permuted, QStringLiteral("the man bit the dog"));
    idle();
    w.heatmapView()->highlightRow(0, 1);
    QApplication::processEvents();
    save(&w, dir, QStringLiteral("main-window-permuted"), out);
    // ALiBi's per-head slopes: BLOOM's 16 heads with head 3 looking further (0.0123 for the
    // paper's 2^-1.5), the panel's slope rows scrolled into view, the curves that answer it, and the
    // panel again while presenting at 200 % font scale.
    w.loadPreset(QStringLiteral("bloom-560m"));
    w.model()->setListElement(descriptor(Method::ALiBi).field("slopes"), 2, 0.0123);
    ViewSettings curves = w.viewSettings();
    curves.max_distance = 256;
    curves.log_x = false;
    w.setViewSettings(curves);
    idle();
    const auto show_slopes = [&] {
        if (auto* scroll = w.parameterPanel()->findChild<QScrollArea*>())
            scroll->ensureWidgetVisible(w.parameterPanel()->editor(descriptor(Method::ALiBi).field("slopes")),
                                        0, 0);
        QApplication::processEvents();
    };
    show_slopes();
    save(w.panelDock(), dir, QStringLiteral("panel-alibi-slopes"), out);
    w.dock(ViewKind::Curves)->show();
    w.dock(ViewKind::Curves)->raise();
    idle();
    save(w.dock(ViewKind::Curves), dir, QStringLiteral("view-curves-alibi-slope"), out);
    w.presentation()->enter();
    w.presentation()->setFontScale(2.0);
    w.presentation()->setShowsPanel(true);
    idle();
    show_slopes();
    save(w.panelDock(), dir, QStringLiteral("panel-alibi-slopes-presenting"), out);
    w.presentation()->setFontScale(1.0);
    w.presentation()->leave();

    // A lesson step in presentation mode, full screen (1920x1080), at 150 % text: lesson 8's second
    // step (RoPE's score depends on m - n only), in the language of the environment
    // (LANG=zh_CN.UTF-8 for the Chinese one).
    const QStringList lessons = course_lessons(course_language(currentLanguage()));
    const QString rope = lessons.filter(QStringLiteral("08-")).value(0);
    if (!rope.isEmpty() && w.openLesson(rope)) {
        w.presentation()->enter();
        w.presentation()->setFontScale(1.5);
        w.presentation()->goToStep(1);
        idle();
        QApplication::processEvents();
        save(&w, dir, QStringLiteral("lesson-present-%1").arg(currentLanguage()), out);
        w.presentation()->leave();
        w.closeLesson();
    }
    return 0;
}

} // namespace posatlas::cli
