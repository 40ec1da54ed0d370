// SPDX-License-Identifier: GPL-3.0-or-later
// `posatlas screenshots`: the pictures for reviewing the GUI by eye that the README does not use,
// each named with the language it was taken in (run once more with LANG=zh_CN.UTF-8 LANGUAGE=zh_CN for
// the Chinese ones): presentation mode at every text size, the lessons, readouts, dialogs and panels.
#include "cli_screenshots_shots.h"

#include "hub/model_dialog.h"
#include "hub/weights_dialog.h"
#include "io/safetensors.h"
#include "lessons/lesson.h"
#include "methods/mrope/mrope.h"
#include "methods/registry.h"
#include "model/scenario_model.h"
#include "views/curve_chart.h"
#include "views/curve_view.h"
#include "views/heatmap_view.h"
#include "widgets/parameter_panel.h"
#include "window/language.h"
#include "window/main_window.h"
#include "window/presentation.h"

#include <QApplication>
#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
#include <QListWidget>
#include <QMouseEvent>
#include <QScrollArea>
#include <QTemporaryDir>

#include <cmath>
#include <utility>

namespace posatlas::cli {

using namespace posatlas::ui;

namespace {

constexpr double kScales[] = {1.5, 2.0, 2.5};

const std::pair<const char*, ViewKind> kViews[] = {{"heatmap", ViewKind::Heatmap},
                                                   {"curves", ViewKind::Curves},
                                                   {"rotation", ViewKind::Rotation},
                                                   {"spectrum", ViewKind::Spectrum}};

// NAME-en, NAME-zh_CN: the language the picture was taken in.
QString named(const QString& name)
{
    return name + QLatin1Char('-') + currentLanguage();
}

QString percent(double scale)
{
    return QString::number(qRound(scale * 100));
}

// Scrolls the parameter panel to `field`'s editor.
void show_row(MainWindow& w, const Field* field)
{
    if (auto* scroll = w.parameterPanel()->findChild<QScrollArea*>())
        scroll->ensureWidgetVisible(w.parameterPanel()->editor(field), 0, 0);
    QApplication::processEvents();
}

// Presents at `scale`, runs `shoot` and leaves again, the remembered scale put back.
template <typename Shoot> void presenting(const Shots& s, double scale, Shoot&& shoot)
{
    Presentation* p = s.w.presentation();
    const double before = p->fontScale();
    p->setFontScale(scale);
    p->enter();
    shoot(p);
    p->leave();
    p->setFontScale(before);
    s.idle();
}

// Each view of Llama 3.1 presented at every scale, between the window before presenting and after
// leaving (which must be the same picture). From the default scenario and view settings (log x, as a new
// window has it), not what the groups before left.
void shoot_presented_views(const Shots& s)
{
    MainWindow& w = s.w;
    w.resize(1280, 720);
    w.model()->setScenario(Scenario{}, QStringLiteral("default"));
    w.setViewSettings(ViewSettings{});
    w.curveView()->setLogX(true);
    w.loadPreset(QStringLiteral("llama-3.1-8b"));
    w.focusView(ViewKind::Heatmap);
    s.idle();
    s.save(&w, named(QStringLiteral("present-before")));
    for (double scale : kScales)
        presenting(s, scale, [&](Presentation* p) {
            for (const auto& [name, kind] : kViews) {
                p->showView(kind);
                s.idle();
                s.save(&w, named(QStringLiteral("present-%1-%2").arg(percent(scale), QLatin1String(name))));
            }
            p->showView(ViewKind::Heatmap);
        });
    w.focusView(ViewKind::Heatmap);
    s.idle();
    s.save(&w, named(QStringLiteral("present-after")));
}

// ALiBi's heatmap (BLOOM's heads as small multiples, each captioned with its slope), lesson 10's second
// step and lesson 8's animated first step, presented at every scale.
void shoot_presented_alibi_and_lesson(const Shots& s)
{
    MainWindow& w = s.w;
    w.loadPreset(QStringLiteral("bloom-560m"));
    s.idle();
    for (double scale : kScales)
        presenting(s, scale, [&](Presentation* p) {
            p->showView(ViewKind::Heatmap);
            s.idle();
            s.save(&w, named(QStringLiteral("present-%1-alibi-heatmap").arg(percent(scale))));
        });
    const QStringList lessons = course_lessons(course_language(currentLanguage()));
    const QString alibi = lessons.filter(QStringLiteral("10-")).value(0);
    if (alibi.isEmpty() || !w.openLesson(alibi))
        return;
    for (double scale : kScales)
        presenting(s, scale, [&](Presentation* p) {
            p->goToStep(1);
            s.idle();
            s.save(&w, named(QStringLiteral("present-%1-lesson").arg(percent(scale))));
        });
    w.closeLesson();
    s.idle();
    // Lesson 8's first step carries an animation: its Play and Export buttons beside the step's own.
    const QString rope = lessons.filter(QStringLiteral("08-")).value(0);
    if (rope.isEmpty() || !w.openLesson(rope))
        return;
    for (double scale : kScales)
        presenting(s, scale, [&](Presentation* p) {
            p->goToStep(0);
            s.idle();
            s.save(&w, named(QStringLiteral("present-%1-lesson-animation").arg(percent(scale))));
        });
    w.closeLesson();
    s.idle();
}

// Lesson 14 presented at every scale: M-RoPE's step beside its token layout, 2D RoPE's beside its patch
// grid and MLA's curves (present-<scale>-lesson-models-<step>, step from 1).
void shoot_presented_models_lesson(const Shots& s)
{
    MainWindow& w = s.w;
    const QString models =
        course_lessons(course_language(currentLanguage())).filter(QStringLiteral("14-")).value(0);
    if (models.isEmpty() || !w.openLesson(models))
        return;
    for (double scale : kScales)
        presenting(s, scale, [&](Presentation* p) {
            for (const int step : {0, 2, 6}) {
                p->goToStep(step);
                s.idle();
                s.save(
                    &w,
                    named(QStringLiteral("present-%1-lesson-models-%2").arg(percent(scale)).arg(step + 1)));
            }
        });
    w.closeLesson();
    s.idle();
}

} // namespace

void shoot_presentation_scales(const Shots& s)
{
    shoot_presented_views(s);
    shoot_presented_alibi_and_lesson(s);
    shoot_presented_models_lesson(s);
}

// The course page, then every step of each lesson, in a 1280x720 window (lesson-NN-name-K, K from 1).
void shoot_course(const Shots& s)
{
    MainWindow& w = s.w;
    w.resize(1280, 720);
    w.showCourse();
    s.idle();
    s.save(&w, named(QStringLiteral("course")));
    for (const QString& path : course_lessons(course_language(currentLanguage()))) {
        if (!w.openLesson(path))
            continue;
        for (int step = 0; w.goToLessonStep(step); ++step) {
            s.idle();
            s.save(
                &w,
                named(QStringLiteral("lesson-%1-%2").arg(QFileInfo(path).completeBaseName()).arg(step + 1)));
        }
    }
    w.closeLesson();
    s.idle();
}

// In the window without the course beside the figures (the curves would be 220 px wide).
void shoot_readouts(const Shots& s)
{
    MainWindow& w = s.w;
    w.resize(1280, 720);
    w.lessonDock()->hide();
    w.loadPreset(QStringLiteral("llama-3.1-8b"));
    w.focusView(ViewKind::Heatmap);
    s.idle();
    // A cell a little right of and below the middle of the first panel, as a mouse hovering it.
    HeatmapView* heatmap = w.heatmapView();
    const QRectF cells = heatmap->heatmapRects(QRectF(heatmap->rect()), {}).value(0);
    const QPoint cell(qRound(cells.left() + 0.6 * cells.width()), qRound(cells.top() + 0.4 * cells.height()));
    QMouseEvent hover(QEvent::MouseMove, cell, heatmap->mapToGlobal(cell), Qt::NoButton, Qt::NoButton,
                      Qt::NoModifier);
    QApplication::sendEvent(heatmap, &hover);
    QApplication::processEvents();
    s.save(w.dock(ViewKind::Heatmap), named(QStringLiteral("readout-heatmap")));

    w.focusView(ViewKind::Curves);
    s.idle();
    CurveChartView* chartView = w.curveView()->chartView();
    CurveChart* chart = chartView->curveChart();
    const QRectF area = chart->plotArea();
    const QPointF at(area.left() + 0.3 * area.width(), area.center().y());
    const QPoint point = chartView->mapFromScene(chart->mapToScene(at));
    QMouseEvent move(QEvent::MouseMove, point, chartView->viewport()->mapToGlobal(point), Qt::NoButton,
                     Qt::NoButton, Qt::NoModifier);
    QApplication::sendEvent(chartView->viewport(), &move);
    QApplication::processEvents();
    s.save(w.dock(ViewKind::Curves), named(QStringLiteral("readout-curves")));
    // The mouse leaves: no readout in the groups after.
    QEvent leave(QEvent::Leave);
    QApplication::sendEvent(chartView, &leave);
    QApplication::sendEvent(heatmap, &leave);
    QApplication::processEvents();
}

namespace {

// A GPT-2 checkpoint's header as the dialog lists it (the dialog reads no data).
SafetensorsCatalog gpt2_catalog()
{
    SafetensorsCatalog c;
    c.path = "gpt2/model.safetensors";
    const auto tensor = [&](const char* name, const char* dtype, std::vector<std::int64_t> shape) {
        SafetensorsTensor t;
        t.name = name;
        t.dtype = dtype;
        t.shape = std::move(shape);
        t.file = c.path;
        c.tensors.push_back(std::move(t));
    };
    tensor("h.0.attn.c_attn.bias", "F32", {2304});
    tensor("h.0.attn.c_attn.weight", "F32", {768, 2304});
    tensor("h.0.ln_1.weight", "F32", {768});
    tensor("ln_f.weight", "F32", {768});
    tensor("wpe.weight", "F32", {1024, 768});
    tensor("wte.weight", "F32", {50257, 768});
    return c;
}

// A Hugging Face cache with two models (their files are empty: the dialog lists, never reads them).
void write_hub_cache(const QDir& root)
{
    for (const char* repo : {"models--openai-community--gpt2", "models--meta-llama--Llama-3.1-8B"}) {
        const QDir model(root.filePath(QLatin1String(repo)));
        const QString commit = QStringLiteral("607a30d783dfa663caf39e06633721c8d4cfcd7e");
        model.mkpath(QStringLiteral("refs"));
        model.mkpath(QStringLiteral("snapshots/") + commit);
        QFile ref(model.filePath(QStringLiteral("refs/main")));
        if (ref.open(QIODevice::WriteOnly))
            ref.write(commit.toLatin1());
        for (const char* file : {"config.json", "model.safetensors"}) {
            QFile f(model.filePath(QStringLiteral("snapshots/%1/%2").arg(commit, QLatin1String(file))));
            if (f.open(QIODevice::WriteOnly))
                f.write("{}");
        }
    }
}

} // namespace

// File > Open Weights… on a GPT-2 checkpoint, File > Open Model… on a cache of two models.
void shoot_open_dialogs(const Shots& s)
{
    WeightsDialog weights(gpt2_catalog(), &s.w);
    weights.show();
    s.idle();
    s.save(&weights, named(QStringLiteral("dialog-open-weights")));
    weights.close();

    QTemporaryDir cache;
    write_hub_cache(QDir(cache.path()));
    const QByteArray saved = qgetenv("HF_HUB_CACHE");
    const bool had = qEnvironmentVariableIsSet("HF_HUB_CACHE");
    qputenv("HF_HUB_CACHE", QFile::encodeName(cache.path()));
    {
        ModelDialog model(&s.w);
        model.modelList()->setCurrentRow(1); // GPT-2: Open enabled, as after a click
        model.show();
        s.idle();
        s.save(&model, named(QStringLiteral("dialog-open-model")));
        model.close();
    }
    if (had)
        qputenv("HF_HUB_CACHE", saved);
    else
        qunsetenv("HF_HUB_CACHE");
}

namespace {

// `rows` x `cols` numbers, one row per position: content vectors a forward pass might have written.
void write_csv(const QString& path, int rows, int cols, double phase)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return;
    for (int p = 0; p < rows; ++p) {
        QStringList row;
        for (int c = 0; c < cols; ++c)
            row << QString::number(std::sin(0.37 * p + 1.3 * c + phase), 'g', 6);
        f.write((row.join(QLatin1Char(',')) + QLatin1Char('\n')).toLatin1());
    }
}

} // namespace

// BLOOM's slopes under NTK-ALiBi (each row says the slope the figures use) at normal size and presented at
// 250 %; then RoPE with queries and keys from two .csv files: the panel and the window.
void shoot_slopes_and_files(const Shots& s)
{
    MainWindow& w = s.w;
    w.resize(1280, 720);
    w.loadPreset(QStringLiteral("bloom-560m"));
    const MethodDescriptor& alibi = descriptor(w.model()->scenario().method); // the preset's ALiBi
    w.model()->setValue(alibi.field("scaling"), 2);                           // NTK-ALiBi
    w.model()->setValue(alibi.field("target_length"), 8192);
    s.idle();
    show_row(w, alibi.field("slopes"));
    s.save(w.panelDock(), named(QStringLiteral("panel-alibi-ntk-slopes")));
    presenting(s, 2.5, [&](Presentation* p) {
        p->setShowsPanel(true);
        s.idle();
        show_row(w, alibi.field("slopes"));
        s.save(&w, named(QStringLiteral("present-250-alibi-ntk-slopes")));
    });

    QTemporaryDir files;
    const QString q = files.filePath(QStringLiteral("q.csv")), k = files.filePath(QStringLiteral("k.csv"));
    write_csv(q, 64, 64, 0.0);
    write_csv(k, 64, 64, 0.5);
    Scenario own;
    own.method = RopeParams::kMethod;
    own.seq_len = 64;
    own.params<RopeParams>().head_dim = 64;
    own.content.queries.path = q.toStdString();
    own.content.keys.path = k.toStdString();
    w.model()->setScenario(own, QStringLiteral("q.csv, k.csv"));
    w.focusView(ViewKind::Heatmap);
    s.idle();
    show_row(w, common_field("content"));
    s.save(w.panelDock(), named(QStringLiteral("panel-content-files")));
    s.save(&w, named(QStringLiteral("main-window-content-files")));
    w.model()->setScenario(Scenario{}, QStringLiteral("default"));
    s.idle();
}

void shoot_token_layout(const Shots& s)
{
    MainWindow& w = s.w;
    w.resize(1280, 720);
    Scenario mrope;
    mrope.method = MropeParams::kMethod;
    mrope.params<MropeParams>().layout = "text:5,image:1x4x6,text:3";
    w.model()->setScenario(mrope, QStringLiteral("M-RoPE"));
    s.idle();
    s.save(w.tokenLayoutDock(), named(QStringLiteral("view-token-layout")));
    presenting(s, 2.0, [&](Presentation* p) {
        p->showView(ViewKind::Heatmap);
        s.idle();
        s.save(&w, named(QStringLiteral("present-200-token-layout")));
    });
    mrope.params<MropeParams>().variant = MropeVariant::Qwen3VL;
    mrope.params<MropeParams>().layout = "text:3,image:1x4x4,video:2x4x4,text:2";
    w.model()->setScenario(mrope, QStringLiteral("M-RoPE Qwen3-VL"));
    s.idle();
    s.save(w.tokenLayoutDock(), named(QStringLiteral("view-token-layout-qwen3-vl")));
    w.model()->setScenario(Scenario{}, QStringLiteral("default"));
    s.idle();
}

} // namespace posatlas::cli
