// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli_screenshots.h"
#include "cli_screenshots_shots.h"

#include "cli_export.h"
#include "cli_help.h"
#include "cli_i18n.h"
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

using namespace posatlas::ui;

bool wait_idle(const std::function<bool()>& busy)
{
    QDeadlineTimer settle(120);
    while (!settle.hasExpired())
        QApplication::processEvents(QEventLoop::AllEvents, 20);
    QDeadlineTimer deadline(60'000);
    while (busy() && !deadline.hasExpired()) {
        QApplication::processEvents(QEventLoop::AllEvents, 20);
        QThread::msleep(5);
    }
    // A few more rounds so that the delivered results are laid out and painted: a result can queue a
    // layout change (the token layout's dock fits its cells), which posts the layout's own events.
    for (int round = 0; round < 3; ++round)
        QApplication::processEvents();
    return !busy();
}

void save_shot(QWidget* w, const QDir& dir, const QString& name, std::ostream& out)
{
    const QString path = dir.filePath(name + QStringLiteral(".png"));
    // Encoded in memory, then written through the checked atomic writer (a full disk is an error).
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (!w->grab().save(&buffer, "PNG"))
        throw UsageError(arg(translate("Cli", "--out: cannot encode %1"), {path.toStdString()}));
    try {
        ui::write_file_atomically(path, bytes);
    } catch (const ui::ExportError& e) {
        throw UsageError(std::string("--out: ") + e.what());
    }
    out << path.toStdString() << '\n';
}

bool Shots::idle() const
{
    return wait_idle([this] { return w.jobs()->busy(); });
}

namespace {

OptionTable screenshots_table()
{
    return {{.name = "out",
             .type = ArgType::Path,
             .help = translate(
                 "Cli",
                 "The folder for the screenshots (created if missing), PNG files named by what they show."),
             .metavar = "DIR",
             .allowed = translate("Cli", "a folder name"),
             .required = true},
            {.name = "dark",
             .type = ArgType::Flag,
             .help = translate("Cli", "Take them all in the dark theme.")}};
}

} // namespace

OptionSet screenshots_option_set()
{
    return option_set(screenshots_table());
}

std::string screenshots_help()
{
    return render_help(
        usage_prefix() + "posatlas screenshots --out DIR [--dark]",
        translate("Cli", "Takes the app's screenshots for the README and the user guide (main window, each "
                         "view, the context-extension "
                         "explorer), and a few more for reviewing the GUI, offscreen."),
        {{translate("Cli", "Options"), screenshots_table()}, {translate("Cli", "Help"), {help_option()}}});
}

namespace {

// The folder --out names, created if missing.
QDir output_folder(const Options& o)
{
    const auto dir_name = o.text("out");
    if (!dir_name)
        throw UsageError(translate("Cli", "--out DIR is required: the folder for the screenshots"));
    if (!QDir().mkpath(QString::fromStdString(*dir_name)))
        throw UsageError(arg(translate("Cli", "--out %1: cannot create the folder"), {*dir_name}));
    return QDir(QString::fromStdString(*dir_name));
}

// A 1920x1080 offscreen screen (unless the caller chose another platform or configured the offscreen
// one): presentation mode goes full screen, and the presentation screenshots show it at a projector's
// size. The configuration lives in `platform`, which must outlive the application.
void use_projector_screen(const QTemporaryDir& platform)
{
    const QString chosen = qEnvironmentVariable("QT_QPA_PLATFORM");
    if ((!chosen.isEmpty() && chosen != QLatin1String("offscreen")) || !platform.isValid())
        return;
    QFile config(platform.filePath(QStringLiteral("offscreen.json")));
    if (!config.open(QIODevice::WriteOnly))
        return;
    config.write(R"({"screens": [{"name": "projector", "x": 0, "y": 0, "width": 1920, "height": 1080,)"
                 R"( "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}]})");
    config.close();
    qputenv("QT_QPA_PLATFORM", QByteArray("offscreen:configfile=") + QFile::encodeName(config.fileName()));
}

// The main window, then each view of a RoPE model, then the main window on ALiBi.
void shoot_main_window(const Shots& s)
{
    MainWindow& w = s.w;
    s.idle();
    s.save(&w, QStringLiteral("main-window"));
    const std::pair<const char*, ViewKind> views[] = {{"view-heatmap", ViewKind::Heatmap},
                                                      {"view-curves", ViewKind::Curves},
                                                      {"view-rotation", ViewKind::Rotation},
                                                      {"view-spectrum", ViewKind::Spectrum}};
    w.loadPreset(QStringLiteral("llama-3.1-8b"));
    s.idle();
    for (const auto& [name, kind] : views) {
        QDockWidget* d = w.dock(kind);
        d->show();
        d->raise();
        s.idle();
        s.save(d, QString::fromLatin1(name));
    }
    w.loadPreset(QStringLiteral("bloom-560m"));
    s.idle();
    w.dock(ViewKind::Heatmap)->raise();
    // The curves (ALiBi's decay per head), not the spectrum tab the loop above left in front: RoPE's
    // spectrum has nothing to show for ALiBi.
    w.dock(ViewKind::Curves)->raise();
    s.idle();
    s.save(&w, QStringLiteral("main-window-alibi"));
}

// Every tab of the context-extension explorer on Llama 3.1, and (beyond the docs: pictures for
// reviewing the GUI by eye) on a YaRN model, with the entropy of random q, k, where the frequency sets
// give one curve.
void shoot_explorer(const Shots& s)
{
    ExplorerWindow* e = s.w.openExplorer();
    e->resize(1400, 900);
    e->loadPreset(QStringLiteral("llama-3.1-8b"));
    e->show();
    auto explorer_idle = [&] { return wait_idle([&] { return e->jobs()->busy(); }); };
    for (int tab = 0; tab < e->tabs()->count(); ++tab) {
        e->tabs()->setCurrentIndex(tab);
        explorer_idle();
        s.save(e, QStringLiteral("explorer-%1").arg(tab + 1));
    }
    e->loadPreset(QStringLiteral("yarn-llama-2-7b-64k"));
    for (int tab = 0; tab < e->tabs()->count(); ++tab) {
        e->tabs()->setCurrentIndex(tab);
        explorer_idle();
        s.save(e, QStringLiteral("explorer-yarn-%1").arg(tab + 1));
    }
    e->tabs()->setCurrentIndex(static_cast<int>(ExplorerView::Temperature));
    e->setEntropyContent(EntropyContent::RandomQK);
    explorer_idle();
    s.save(e, QStringLiteral("explorer-yarn-entropy-random"));
    e->setEntropyContent(EntropyContent::RepeatedToken);
    e->close();
}

// For review: a bucketed method (step curves), the figures' share of a full-HD window, and the export
// dialog with its suggested caption.
void shoot_review(const Shots& s)
{
    MainWindow& w = s.w;
    w.loadPreset(QStringLiteral("t5-base"));
    s.idle();
    s.save(&w, QStringLiteral("main-window-t5"));
    w.resize(1920, 1080);
    s.idle();
    s.save(&w, QStringLiteral("main-window-wide"));
    ExportDialog dialog(ViewKind::Heatmap, scenario_caption(w.model()->scenario()), &w);
    dialog.show();
    s.idle();
    s.save(&dialog, QStringLiteral("export-dialog"));
    dialog.close();
}

// Methods side by side (the lesson "Choosing an encoding"): sinusoidal, RoPE and ALiBi as heatmap
// panels and overlaid curves, in a full-HD window and presented at 200 % text size, where long captions
// and legends are the first to be clipped.
void shoot_comparison(const Shots& s)
{
    MainWindow& w = s.w;
    w.loadPreset(QStringLiteral("llama-3.1-8b"));
    w.setComparedMethods(ui::classic_comparison());
    w.resize(1920, 1080);
    w.dock(ViewKind::Heatmap)->raise();
    w.dock(ViewKind::Curves)->show();
    w.dock(ViewKind::Curves)->raise();
    s.idle();
    s.save(&w, QStringLiteral("main-window-compare"));
    Presentation* p = w.presentation();
    const double scale = p->fontScale();
    p->setFontScale(2.0);
    p->enter();
    for (const auto& [name, kind] : {std::pair{"present-compare-heatmap", ViewKind::Heatmap},
                                     std::pair{"present-compare-curves", ViewKind::Curves}}) {
        p->showView(kind);
        s.idle();
        s.save(&w, QString::fromLatin1(name));
    }
    p->leave();
    p->setFontScale(scale);
    w.setComparedMethods({});
}

// A sentence as the positions: NoPE's attention weights over its words (the permutation invariance of
// self-attention), the axes labelled with the words; then the sentence beside its permutation, the rows
// of "dog" linked (as hovering the row shows them): the same numbers in both panels, only moved.
void shoot_sentence(const Shots& s)
{
    MainWindow& w = s.w;
    Scenario sentence;
    sentence.method = kNoPE;
    common_field("text")->set(sentence, std::string("the dog bit the man"));
    w.model()->setScenario(sentence, QStringLiteral("the dog bit the man"));
    ViewSettings weights = w.viewSettings();
    weights.matrix_kind = MatrixKind::Weights;
    w.setViewSettings(weights);
    w.resize(1280, 720);
    w.dock(ViewKind::Heatmap)->raise();
    s.idle();
    s.save(&w, QStringLiteral("main-window-sentence"));
    Scenario permuted = sentence;
    common_field("permuted")->set(permuted, std::string("the man bit the dog"));
    w.model()->setScenario(permuted, QStringLiteral("the man bit the dog"));
    s.idle();
    w.heatmapView()->highlightRow(0, 1);
    QApplication::processEvents();
    s.save(&w, QStringLiteral("main-window-permuted"));
}

// ALiBi's per-head slopes: BLOOM's 16 heads with head 3 looking further (0.0123 for the paper's
// 2^-1.5), the panel's slope rows scrolled into view, the curves that answer it, and the panel again
// while presenting at 200 % font scale.
void shoot_alibi_slopes(const Shots& s)
{
    MainWindow& w = s.w;
    w.loadPreset(QStringLiteral("bloom-560m"));
    const Field* slopes = descriptor(w.model()->scenario().method).field("slopes"); // the preset's ALiBi
    w.model()->setListElement(slopes, 2, 0.0123);
    ViewSettings curves = w.viewSettings();
    curves.max_distance = 256;
    curves.log_x = false;
    w.setViewSettings(curves);
    s.idle();
    const auto show_slopes = [&] {
        if (auto* scroll = w.parameterPanel()->findChild<QScrollArea*>())
            scroll->ensureWidgetVisible(w.parameterPanel()->editor(slopes), 0, 0);
        QApplication::processEvents();
    };
    show_slopes();
    s.save(w.panelDock(), QStringLiteral("panel-alibi-slopes"));
    w.dock(ViewKind::Curves)->show();
    w.dock(ViewKind::Curves)->raise();
    s.idle();
    s.save(w.dock(ViewKind::Curves), QStringLiteral("view-curves-alibi-slope"));
    w.presentation()->enter();
    w.presentation()->setFontScale(2.0);
    w.presentation()->setShowsPanel(true);
    s.idle();
    show_slopes();
    s.save(w.panelDock(), QStringLiteral("panel-alibi-slopes-presenting"));
    w.presentation()->setFontScale(1.0);
    w.presentation()->leave();
}

// A lesson step in presentation mode, full screen (1920x1080), at 150 % text: lesson 8's second step
// (RoPE's score depends on m - n only), in the language of the environment (LANG=zh_CN.UTF-8 for the
// Chinese one).
void shoot_lesson(const Shots& s)
{
    MainWindow& w = s.w;
    const QStringList lessons = course_lessons(course_language(currentLanguage()));
    const QString rope = lessons.filter(QStringLiteral("08-")).value(0);
    if (rope.isEmpty() || !w.openLesson(rope))
        return;
    w.presentation()->enter();
    w.presentation()->setFontScale(1.5);
    w.presentation()->goToStep(1);
    s.idle();
    QApplication::processEvents();
    s.save(&w, QStringLiteral("lesson-present-%1").arg(currentLanguage()));
    w.presentation()->leave();
    w.closeLesson();
}

} // namespace

int run_screenshots(const std::vector<std::string>& args, std::ostream& out)
{
    const Options o(args, screenshots_table());
    if (o.help()) {
        out << screenshots_help();
        return 0;
    }
    if (!o.positional().empty())
        throw UsageError(arg(translate("Cli", "unexpected argument '%1'"), {o.positional().front()}));
    const QDir dir = output_folder(o);
    QTemporaryDir platform;
    use_projector_screen(platform);
    ensure_application();
    // A private settings file: screenshots never depend on (or change) the user's saved layout.
    QTemporaryDir settings;
    MainWindow w(settings.filePath(QStringLiteral("screenshots.ini")));
    w.setComputeHiddenViews(true);
    w.setDarkTheme(o.flag("dark"));
    w.resize(1280, 720);
    w.show();
    const Shots shots{w, dir, out};
    shoot_main_window(shots);
    shoot_explorer(shots);
    shoot_review(shots);
    shoot_comparison(shots);
    shoot_sentence(shots);
    shoot_alibi_slopes(shots);
    shoot_lesson(shots);
    shoot_presentation_scales(shots);
    shoot_course(shots);
    shoot_readouts(shots);
    shoot_open_dialogs(shots);
    shoot_slopes_and_files(shots);
    shoot_token_layout(shots);
    return 0;
}

} // namespace posatlas::cli
