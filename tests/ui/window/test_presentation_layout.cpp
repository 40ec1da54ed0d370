// SPDX-License-Identifier: GPL-3.0-or-later
// What presentation mode's large text does to layouts (window/presentation.h), on a projector's 1920x1080
// screen and a laptop's 1600x900: BLOOM's 16 ALiBi heads keep whole captions at 150, 200 and 250 % in
// English and Chinese (a smaller screen at 250 % has no room for 16 legible captions); the
// scale stays in the main window (a dialog or the explorer opened while presenting, or after, has the
// sizes it has in a window that never presented); the heatmap's hover readout leaves the hovered row and
// column in view, and the curves' crosshair readout stays inside its view at both ends of the plot.
#include "explorer/explorer_window.h"
#include "export/export_dialog.h"
#include "gui_support.h"
#include "lessons/lesson.h"
#include "views/curve_chart.h"
#include "views/heatmap_view.h"
#include "views/token_layout_view.h"
#include "widgets/parameter_panel.h"
#include "window/language.h"
#include "window/main_window.h"
#include "window/presentation.h"
#include "window/token_layout_controller.h"

#include <QAbstractButton>
#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QFile>
#include <QFontInfo>
#include <QFontMetricsF>
#include <QGuiApplication>
#include <QMouseEvent>
#include <QScreen>
#include <QStyle>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <limits>

using namespace posatlas;
using namespace posatlas::ui;
using namespace posatlas::test;

namespace {

// What makes a window's widgets look the size they are: each widget's font, the style's sizes for it
// (indicators, icons, slider handles, scroll bars), and the size hint of every control whose hint comes
// from those sizes.
QStringList sizesOf(const QWidget* top)
{
    QStringList out;
    const QList<const QWidget*> widgets = [&] {
        QList<const QWidget*> all{top};
        for (const QWidget* w : top->findChildren<QWidget*>())
            if (w->window() == top) // not a combo box's popup, made when it is first needed
                all << w;
        return all;
    }();
    for (const QWidget* w : widgets) {
        const QStyle* s = w->style();
        QString line = QStringLiteral("%1 %2 font %3 px, indicator %4, icon %5, slider %6, scroll bar %7")
                           .arg(QString::fromLatin1(w->metaObject()->className()), w->objectName())
                           .arg(QFontInfo(w->font()).pixelSize())
                           .arg(s->pixelMetric(QStyle::PM_IndicatorWidth, nullptr, w))
                           .arg(s->pixelMetric(QStyle::PM_SmallIconSize, nullptr, w))
                           .arg(s->pixelMetric(QStyle::PM_SliderLength, nullptr, w))
                           .arg(s->pixelMetric(QStyle::PM_ScrollBarExtent, nullptr, w));
        if (qobject_cast<const QAbstractButton*>(w) || qobject_cast<const QAbstractSpinBox*>(w) ||
            qobject_cast<const QAbstractSlider*>(w) || qobject_cast<const QComboBox*>(w))
            line += QStringLiteral(", hint %1x%2").arg(w->sizeHint().width()).arg(w->sizeHint().height());
        out << line;
    }
    return out;
}

// The first line where `a` and `b` differ, sorted ("" when they hold the same lines).
QString firstDifference(QStringList a, QStringList b)
{
    // In any order: children are listed in the order they were made, which differs with what was shown first.
    a.sort();
    b.sort();
    for (qsizetype i = 0; i < std::min(a.size(), b.size()); ++i)
        if (a[i] != b[i])
            return a[i] + QStringLiteral("  ≠  ") + b[i];
    return a.size() == b.size() ? QString() : QStringLiteral("%1 widgets ≠ %2").arg(a.size()).arg(b.size());
}

// The export dialog's sizes, shown (as the menu opens it) and closed again.
QStringList exportDialogSizes(MainWindow* w)
{
    ExportDialog dialog(ViewKind::Heatmap, QStringLiteral("caption"), w);
    dialog.show();
    (void)QTest::qWaitForWindowExposed(&dialog);
    const QStringList sizes = sizesOf(&dialog);
    dialog.close();
    return sizes;
}

// An 8 x 8 matrix: cells of about 50 px in a 700 x 500 view, larger than the old fixed offset of the
// readout from the cursor.
MatrixResult smallMatrix()
{
    MatrixResult m;
    const int n = 8;
    m.values.resize(n, n);
    for (int r = 0; r < n; ++r)
        for (int c = 0; c < n; ++c)
            m.values(r, c) = std::sin(0.7 * r) + 0.1 * c;
    m.min = m.values.minCoeff();
    m.max = m.values.maxCoeff();
    m.is_signed = true;
    for (int k = 0; k < n; ++k) {
        m.row_index.push_back(k);
        m.col_index.push_back(k);
    }
    m.row_label = "query position i";
    m.col_label = "key position j";
    m.value_label = "logit";
    return m;
}

} // namespace

class PresentationLayoutTest : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;

private slots:
    void initTestCase() { QVERIFY(initGuiSuite(m_dir)); }

    void cleanup() { installLanguage(QStringLiteral("en")); }

    void alibiHeadCaptionsStayWhole_data()
    {
        QTest::addColumn<int>("screen");
        QTest::addColumn<QString>("language");
        QTest::addColumn<double>("scale");
        const QList<QScreen*> screens = QGuiApplication::screens();
        for (int screen = 0; screen < static_cast<int>(screens.size()); ++screen)
            for (const char* language : {"en", "zh_CN"})
                for (const double scale : {1.5, 2.0, 2.5})
                    QTest::addRow("%dx%d %s %d %%", screens[screen]->geometry().width(),
                                  screens[screen]->geometry().height(), language, qRound(scale * 100))
                        << screen << QString::fromLatin1(language) << scale;
    }

    void alibiHeadCaptionsStayWhole()
    {
        // BLOOM's 16 heads as small multiples, presented full screen: every caption keeps its slope and
        // its colour range, whole (the panels under 250 % text were too narrow for them: "m₆=0.0078 (−0.…").
        QFETCH(int, screen);
        QFETCH(QString, language);
        QFETCH(double, scale);
        QVERIFY(installLanguage(language));
        auto w = showMainWindow(m_dir, QStringLiteral("captions-") + language, {.active = true});
        w->setScreen(QGuiApplication::screens().at(screen));
        QVERIFY(w->loadPreset(QStringLiteral("bloom-560m")));
        ViewSettings v = w->viewSettings();
        v.matrix_kind = MatrixKind::Bias;
        w->setViewSettings(v);
        Presentation* p = w->presentation();
        p->setFontScale(scale);
        p->enter();
        w->focusView(ViewKind::Heatmap);
        QVERIFY(waitIdle(w->jobs()));
        QTest::qWait(100);
        QCOMPARE(w->size(), w->screen()->geometry().size());
        const HeatmapView* view = w->heatmapView();
        const HeatmapData& data = view->data();
        QCOMPARE(data.panels.size(), 16);
        const QList<QStringList> captions = view->screenCaptions();
        QCOMPARE(captions.size(), data.panels.size());
        for (qsizetype i = 0; i < captions.size(); ++i) {
            const QString joined = captions[i].join(QLatin1Char(' '));
            // The slope, and the range ("−0.5…0": its ellipsis inside, never at a line's end).
            QVERIFY2(joined.contains(data.panels[i].label), qPrintable(joined));
            QVERIFY2(joined.contains(QChar(0x2026)), qPrintable(joined));
            for (const QString& line : captions[i])
                QVERIFY2(!line.endsWith(QChar(0x2026)), qPrintable(QStringLiteral("elided: ") + joined));
        }
        // The figure still has priority over the panel beside it.
        QVERIFY(w->dock(ViewKind::Heatmap)->width() >= w->width() / 2);
        p->leave();
        QVERIFY(installLanguage(QStringLiteral("en")));
    }

    void tokenLayoutShowsTheWholeSequence_data() { alibiHeadCaptionsStayWhole_data(); }

    void tokenLayoutShowsTheWholeSequence()
    {
        // Lesson 14's first step presented: M-RoPE's 24 tokens (text, an 8 x 8 image merged to 4 x 4,
        // text) each with its three ids in the token layout's dock. The dock kept the height it had before
        // the large text, and at 250 % in Chinese no cell fitted ("0 of 24 tokens fit").
        QFETCH(int, screen);
        QFETCH(QString, language);
        QFETCH(double, scale);
        QVERIFY(installLanguage(language));
        auto w = showMainWindow(m_dir, QStringLiteral("tokens-") + language, {.active = true});
        w->setScreen(QGuiApplication::screens().at(screen));
        const QString lesson =
            course_lessons(course_language(currentLanguage())).filter(QStringLiteral("14-")).value(0);
        QVERIFY(!lesson.isEmpty());
        QVERIFY(w->openLesson(lesson));
        Presentation* p = w->presentation();
        p->setFontScale(scale);
        p->enter();
        p->goToStep(0);
        QVERIFY(waitIdle(w->jobs()));
        const TokenLayoutView* view = w->tokenLayoutView();
        QVERIFY(w->tokenLayoutDock()->isVisible());
        QTRY_COMPARE_WITH_TIMEOUT(view->data().ids_t.size(), std::size_t{24}, 10000);
        // The dock takes what the cells need at the body text's size, at most 55 % of the window: the heatmap
        // above keeps the rest. Then every cell is drawn, its ids at least the body text's size. A
        // projector's 1080 lines have that room at every scale; 900 lines at 250 % do not, and there the
        // dock stops at its share of the window (the figure says how many tokens fit).
        const int share = static_cast<int>(w->height() * TokenLayoutController::kMaxWindowShare);
        const bool room = view->heightForCells(view->width()) <= share;
        QVERIFY2(
            room || w->height() < 1080,
            qPrintable(QStringLiteral("needs %1 of %2").arg(view->heightForCells(view->width())).arg(share)));
        if (room) {
            QTRY_COMPARE_WITH_TIMEOUT(view->cellRects(QRectF(view->rect()), RenderOptions{}).size(),
                                      std::size_t{24}, 5000);
            const double ids = view->cellFontPixels(QRectF(view->rect()), RenderOptions{});
            QVERIFY2(ids >= QFontMetricsF(view->font()).height(), qPrintable(QString::number(ids)));
            QVERIFY2(
                w->tokenLayoutDock()->height() <= share + 1,
                qPrintable(QStringLiteral("%1 of %2").arg(w->tokenLayoutDock()->height()).arg(w->height())));
        } else {
            QTRY_VERIFY_WITH_TIMEOUT(std::abs(view->height() - share) <= 2, 5000);
        }
        // Step 2's 96 tokens take the dock's whole share; back on step 1 the dock is again what its 24
        // cells need (the fixed height of step 2 held the next fit's minimum: it never shrank).
        const int first = view->height();
        p->goToStep(1);
        QVERIFY(waitIdle(w->jobs()));
        QTRY_COMPARE_WITH_TIMEOUT(view->data().ids_t.size(), std::size_t{96}, 10000);
        if (room) // else step 1 already had the whole share
            QTRY_VERIFY_WITH_TIMEOUT(view->height() > first, 5000);
        p->goToStep(0);
        QVERIFY(waitIdle(w->jobs()));
        QTRY_COMPARE_WITH_TIMEOUT(view->data().ids_t.size(), std::size_t{24}, 10000);
        QTRY_COMPARE_WITH_TIMEOUT(view->height(), first, 5000);
        QCOMPARE(w->size(), w->screen()->geometry().size());
        p->leave();
        w->closeLesson();
        QVERIFY(installLanguage(QStringLiteral("en")));
    }

    void dialogsKeepTheirSizes()
    {
        // A window that never presented: its export dialog and explorer are what "normal" means.
        auto fresh = showMainWindow(m_dir, QStringLiteral("fresh"), {.active = true});
        const QStringList dialog = exportDialogSizes(fresh.get());
        ExplorerWindow* freshExplorer = fresh->openExplorer();
        QVERIFY(QTest::qWaitForWindowExposed(freshExplorer));
        QVERIFY(waitIdle(fresh->jobs()));
        const QStringList explorer = sizesOf(freshExplorer);
        freshExplorer->close();

        auto w = showMainWindow(m_dir, QStringLiteral("presented"), {.active = true});
        Presentation* p = w->presentation();
        const QWidget* panel = w->parameterPanel();
        const int indicator = panel->style()->pixelMetric(QStyle::PM_IndicatorWidth, nullptr, panel);
        // While presenting (normal theme: the same base style), at the largest text: the main window's
        // widgets are scaled, what opens beside it is not.
        p->setHighContrast(false);
        p->setFontScale(2.5);
        p->enter();
        QCOMPARE(panel->style()->pixelMetric(QStyle::PM_IndicatorWidth, nullptr, panel),
                 qRound(indicator * 2.5));
        QString difference = firstDifference(exportDialogSizes(w.get()), dialog);
        QVERIFY2(difference.isEmpty(),
                 qPrintable(QStringLiteral("export dialog while presenting: ") + difference));
        ExplorerWindow* opened = w->openExplorer();
        QVERIFY(QTest::qWaitForWindowExposed(opened));
        QVERIFY(waitIdle(w->jobs()));
        difference = firstDifference(sizesOf(opened), explorer);
        QVERIFY2(difference.isEmpty(),
                 qPrintable(QStringLiteral("explorer while presenting: ") + difference));

        // Leaving (after a second presentation in the high-contrast theme): the explorer opened while
        // presenting, and a dialog opened now, are as in the window that never presented.
        p->leave();
        p->setHighContrast(true);
        p->enter();
        p->leave();
        QTest::qWait(20);
        difference = firstDifference(sizesOf(opened), explorer);
        QVERIFY2(difference.isEmpty(),
                 qPrintable(QStringLiteral("explorer after presenting: ") + difference));
        difference = firstDifference(exportDialogSizes(w.get()), dialog);
        QVERIFY2(difference.isEmpty(),
                 qPrintable(QStringLiteral("export dialog after presenting: ") + difference));
        QCOMPARE(panel->style()->pixelMetric(QStyle::PM_IndicatorWidth, nullptr, panel), indicator);
        opened->close();
    }

    void heatmapReadoutLeavesTheHoveredRowAndColumnInView()
    {
        HeatmapView view;
        view.resize(700, 500);
        view.setData({QStringLiteral("8 x 8"), {{smallMatrix(), {}}}});
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const QRectF heat = view.heatmapRects(QRectF(view.rect()), {}).front();
        QVERIFY(heat.width() / 8 > 30 && heat.height() / 8 > 30);
        const QRectF inside = QRectF(view.rect());
        // Every cell's centre and corners (2 px in), and the heatmap's corners.
        QList<QPointF> points;
        for (int r = 0; r < 8; ++r)
            for (int c = 0; c < 8; ++c) {
                const QRectF cell(heat.left() + c * heat.width() / 8, heat.top() + r * heat.height() / 8,
                                  heat.width() / 8, heat.height() / 8);
                points << cell.center() << cell.topLeft() + QPointF(2, 2)
                       << cell.bottomRight() - QPointF(2, 2) << QPointF(cell.left() + 2, cell.bottom() - 2)
                       << QPointF(cell.right() - 2, cell.top() + 2);
            }
        for (const QPointF& at : points) {
            QMouseEvent move(QEvent::MouseMove, at, view.mapToGlobal(at), Qt::NoButton, Qt::NoButton,
                             Qt::NoModifier);
            QApplication::sendEvent(&view, &move);
            const QRectF cell = view.hoverCell(), box = view.hoverBox();
            const QString where = QStringLiteral("at %1,%2: box %3,%4 %5x%6, cell %7,%8 %9x%10")
                                      .arg(at.x())
                                      .arg(at.y())
                                      .arg(box.x())
                                      .arg(box.y())
                                      .arg(box.width())
                                      .arg(box.height())
                                      .arg(cell.x())
                                      .arg(cell.y())
                                      .arg(cell.width())
                                      .arg(cell.height());
            QVERIFY2(!box.isEmpty() && cell.contains(at), qPrintable(where));
            QVERIFY2(inside.contains(box), qPrintable(where));
            // The hovered row across the heatmap, and the hovered column down it.
            QVERIFY2(!box.intersects(QRectF(heat.left(), cell.top(), heat.width(), cell.height())),
                     qPrintable(QStringLiteral("covers the row ") + where));
            QVERIFY2(!box.intersects(QRectF(cell.left(), heat.top(), cell.width(), heat.height())),
                     qPrintable(QStringLiteral("covers the column ") + where));
        }
    }

    void curveCrosshairReadoutStaysInItsView()
    {
        // A docked chart under 250 % text with a wide readout: at the plot's left end the box did not fit
        // on the right of the line within the plot, flipped left and was cut at the view's edge.
        CurveData d;
        d.x_label = QStringLiteral("distance");
        for (const char* name : {"RoPE · mean cos", "YaRN · mean cos", "NTK-aware · mean cos"}) {
            CurveSeries s;
            s.name = QString::fromUtf8(name);
            for (int k = 0; k <= 100; k += 5) {
                s.x.push_back(k);
                s.y.push_back(std::cos(0.1 * k) * 1234.5678);
            }
            d.series.push_back(s);
        }
        auto* chart = new CurveChart;
        CurveChartView view(chart);
        ChartStyle style;
        style.font = view.font();
        style.font_scale = 2.5;
        chart->setChartStyle(style);
        chart->setCurveData(d);
        view.resize(560, 360);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QCoreApplication::processEvents();
        const auto boxInView = [&] {
            return view.mapFromScene(chart->mapToScene(chart->crosshairBox())).boundingRect();
        };
        for (const Qt::Key key : {Qt::Key_Home, Qt::Key_End, Qt::Key_Left}) {
            QTest::keyClick(&view, key);
            const QRect box = boxInView();
            QVERIFY2(!box.isEmpty() && view.rect().contains(box),
                     qPrintable(QStringLiteral("key %1: box %2,%3 %4x%5 in %6x%7")
                                    .arg(key)
                                    .arg(box.x())
                                    .arg(box.y())
                                    .arg(box.width())
                                    .arg(box.height())
                                    .arg(view.width())
                                    .arg(view.height())));
        }
    }
};

int main(int argc, char** argv)
{
    // A projector's 1920x1080 screen for presentation mode's full screen (as `posatlas screenshots`
    // uses) and a laptop's 1600x900 beside it, when the tests run offscreen.
    QTemporaryDir platform;
    if (qgetenv("QT_QPA_PLATFORM") == "offscreen" && platform.isValid()) {
        QFile config(platform.filePath(QStringLiteral("offscreen.json")));
        if (config.open(QIODevice::WriteOnly)) {
            config.write(
                R"({"screens": [{"name": "projector", "x": 0, "y": 0, "width": 1920, "height": 1080,)"
                R"( "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1},)"
                R"( {"name": "laptop", "x": 1920, "y": 0, "width": 1600, "height": 900,)"
                R"( "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}]})");
            config.close();
            qputenv("QT_QPA_PLATFORM",
                    QByteArray("offscreen:configfile=") + QFile::encodeName(config.fileName()));
        }
    }
    QApplication app(argc, argv);
    QApplication::setAttribute(Qt::AA_Use96Dpi, true);
    PresentationLayoutTest test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}

#include "test_presentation_layout.moc"
