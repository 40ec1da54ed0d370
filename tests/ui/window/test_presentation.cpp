// SPDX-License-Identifier: GPL-3.0-or-later
// Presentation mode (window/presentation.h): F5 goes full screen without chrome and Esc restores the
// window exactly; the font scale reaches the figures and the panel; PgDn / PgUp step through the presets;
// sliders still work; the high-contrast theme paints white and black.
#include "gui_support.h"
#include "io/presets.h"
#include "model/scenario_model.h"
#include "model/settings.h"
#include "views/curve_chart.h"
#include "views/curve_view.h"
#include "views/figure_style.h"
#include "views/heatmap_view.h"
#include "widgets/list_sliders.h"
#include "widgets/log_slider.h"
#include "widgets/parameter_panel.h"
#include "window/main_window.h"
#include "window/presentation.h"

#include <QAbstractAxis>
#include <QApplication>
#include <QDockWidget>
#include <QFontInfo>
#include <QLabel>
#include <QMenuBar>
#include <QScreen>
#include <QSlider>
#include <QStatusBar>
#include <QStyle>
#include <QTemporaryDir>
#include <QTest>

#include <map>
#include <utility>
#include <vector>

using namespace posatlas;
using namespace posatlas::ui;
using namespace posatlas::test;

namespace {

int titlePixelSize(const QFont& viewFont)
{
    // The heatmap's title font, as heatmap_paint.cpp builds it from the widget font.
    return QFontInfo(scaled_font(viewFont, 1.0, 1.2, true)).pixelSize();
}

// The darkest pixel (by the sum of its channels) in `rect` of `image`.
QRgb darkest(const QImage& image, const QRect& rect)
{
    QRgb best = qRgb(255, 255, 255);
    const QRect r = rect.intersected(image.rect());
    for (int y = r.top(); y <= r.bottom(); ++y)
        for (int x = r.left(); x <= r.right(); ++x) {
            const QRgb c = image.pixel(x, y);
            if (qRed(c) + qGreen(c) + qBlue(c) < qRed(best) + qGreen(best) + qBlue(best))
                best = c;
        }
    return best;
}

// Where every dock is shown (an empty rectangle when hidden or behind a tab).
std::map<QString, QRect> dockGeometries(const MainWindow* w)
{
    std::map<QString, QRect> out;
    for (const QDockWidget* d : w->findChildren<QDockWidget*>())
        out[d->objectName()] = d->isVisible() && !d->visibleRegion().isEmpty() ? d->geometry() : QRect();
    return out;
}

int nonWhitePixels(const QImage& image, const QRect& rect)
{
    int n = 0;
    const QRect r = rect.intersected(image.rect());
    for (int y = r.top(); y <= r.bottom(); y += 2)
        for (int x = r.left(); x <= r.right(); x += 2)
            n += (image.pixel(x, y) & 0xffffff) != 0xffffff;
    return n;
}

} // namespace

class PresentationTest : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;
    std::unique_ptr<MainWindow> m_window;

private slots:
    void initTestCase()
    {
        QVERIFY(initGuiSuite(m_dir));
        m_window = showMainWindow(m_dir, QStringLiteral("present"), {.active = true});
    }

    void cleanup()
    {
        m_window->presentation()->leave();
        QVERIFY(!high_contrast_figures());
    }

    void f5EntersFullScreenWithoutChromeAndEscRestores()
    {
        MainWindow* w = m_window.get();
        Presentation* p = w->presentation();
        const QRect geometry = w->geometry();
        const std::map<QString, QRect> docks = dockGeometries(w);
        const QFont font = w->font();
        const QPalette palette = QApplication::palette();
        std::map<QString, bool> visible;
        for (QDockWidget* d : w->findChildren<QDockWidget*>())
            visible[d->objectName()] = d->isVisible();

        QTest::keyClick(w, Qt::Key_F5);
        QVERIFY(p->isActive());
        QTRY_VERIFY(w->isFullScreen());
        QVERIFY(w->menuBar()->isHidden());
        QVERIFY(w->statusBar()->isHidden());
        for (QDockWidget* d : w->findChildren<QDockWidget*>())
            QVERIFY2(d->titleBarWidget() != nullptr, qPrintable(d->objectName()));
        // One figure (the heatmap, in front before), and the panel.
        QVERIFY(w->dock(ViewKind::Heatmap)->isVisible());
        for (ViewKind k : {ViewKind::Curves, ViewKind::Rotation, ViewKind::Spectrum})
            QVERIFY(!w->dock(k)->isVisible());
        QVERIFY(w->panelDock()->isVisible());
        QVERIFY(p->overlay()->isVisible());
        QVERIFY2(p->overlay()->text().contains(QString::number(static_cast<int>(list_presets().size()))),
                 qPrintable(p->overlay()->text()));
        // On the figure, not over the docks beside it (the lesson panel's buttons at the window's corner).
        QTRY_VERIFY2(w->dock(ViewKind::Heatmap)->geometry().contains(p->overlay()->geometry()),
                     qPrintable(QStringLiteral("overlay %1,%2 %3x%4")
                                    .arg(p->overlay()->x())
                                    .arg(p->overlay()->y())
                                    .arg(p->overlay()->width())
                                    .arg(p->overlay()->height())));
        // The panel hides on request (F6) and comes back.
        QTest::keyClick(w, Qt::Key_F6);
        QVERIFY(!w->panelDock()->isVisible());
        QTest::keyClick(w, Qt::Key_F6);
        QVERIFY(w->panelDock()->isVisible());

        QTest::keyClick(w->heatmapView(), Qt::Key_Escape);
        QTRY_VERIFY(!p->isActive());
        QTRY_VERIFY(!w->isFullScreen());
        QTRY_COMPARE(w->geometry(), geometry);
        // The docks where they were, as large as they were (saveState's bytes can differ in the remembered
        // size of a dock hidden behind a tab, which nothing shows).
        QTRY_COMPARE(dockGeometries(w), docks);
        QVERIFY(!w->menuBar()->isHidden());
        QVERIFY(!w->statusBar()->isHidden());
        QCOMPARE(w->font(), font);
        QCOMPARE(QApplication::palette().color(QPalette::Window), palette.color(QPalette::Window));
        std::map<QString, bool> after;
        for (QDockWidget* d : w->findChildren<QDockWidget*>()) {
            after[d->objectName()] = d->isVisible();
            QVERIFY(d->titleBarWidget() == nullptr);
        }
        QCOMPARE(after, visible);

        // F5 leaves too.
        QTest::keyClick(w, Qt::Key_F5);
        QVERIFY(p->isActive());
        QTest::keyClick(w, Qt::Key_F5);
        QVERIFY(!p->isActive());
        QTRY_COMPARE(w->geometry(), geometry);
    }

    void fontScaleReachesFiguresAndPanel()
    {
        MainWindow* w = m_window.get();
        Presentation* p = w->presentation();
        p->enter();
        p->setFontScale(1.0);
        QVERIFY(waitIdle(w->jobs()));
        const int heatmap100 = titlePixelSize(w->heatmapView()->font());
        const int chart100 = QFontInfo(w->curveView()->chartView()->chart()->titleFont()).pixelSize();
        const double panel100 = w->parameterPanel()->font().pointSizeF();
        QVERIFY(heatmap100 > 0 && chart100 > 0 && panel100 > 0);

        // Ctrl+= four times: 100 % -> 200 %.
        for (int i = 0; i < 4; ++i)
            QTest::keyClick(w, Qt::Key_Equal, Qt::ControlModifier);
        QCOMPARE(p->fontScale(), 2.0);
        const int heatmap200 = titlePixelSize(w->heatmapView()->font());
        const int chart200 = QFontInfo(w->curveView()->chartView()->chart()->titleFont()).pixelSize();
        QVERIFY2(heatmap200 >= 2 * heatmap100,
                 qPrintable(QStringLiteral("%1 %2").arg(heatmap100).arg(heatmap200)));
        QVERIFY2(chart200 >= 2 * chart100, qPrintable(QStringLiteral("%1 %2").arg(chart100).arg(chart200)));
        // The panel grows with the text as far as its share of the screen allows (the figure first).
        const double panel200 = w->parameterPanel()->font().pointSizeF();
        QVERIFY2(panel200 >= panel100 && panel200 <= 2.0 * panel100, qPrintable(QString::number(panel200)));

        // Clamped to 250 %, remembered, and Ctrl+0 goes back to 100 % while presenting.
        for (int i = 0; i < 10; ++i)
            QTest::keyClick(w, Qt::Key_Equal, Qt::ControlModifier);
        QCOMPARE(p->fontScale(), 2.5);
        QTest::keyClick(w, Qt::Key_Minus, Qt::ControlModifier);
        QCOMPARE(p->fontScale(), 2.25);
        QTest::keyClick(w, Qt::Key_0, Qt::ControlModifier);
        QCOMPARE(p->fontScale(), 1.0);
        p->setFontScale(2.0);
        p->leave();
        // Presentation-only: the window's font is back to normal; the scale waits for the next time.
        QCOMPARE(titlePixelSize(w->heatmapView()->font()), heatmap100);
        QCOMPARE(p->fontScale(), 2.0);
        QCOMPARE(Settings(m_dir.filePath(QStringLiteral("present.ini"))).presentationFontScale(), 2.0);
    }

    void pageKeysStepThroughThePresets()
    {
        MainWindow* w = m_window.get();
        Presentation* p = w->presentation();
        w->model()->resetScenario(Scenario{});
        p->enter();
        const Scenario base = w->model()->scenario();
        const auto presets = list_presets();
        QVERIFY(presets.size() >= 3);
        const auto expected = [&](int i) {
            return load_preset(presets[static_cast<std::size_t>(i)].id, base).scenario;
        };
        QCOMPARE(p->currentStep(), -1);

        QWidget* target = w->heatmapView();
        target->setFocus();
        QTest::keyClick(target, Qt::Key_PageDown);
        QCOMPARE(p->currentStep(), 0);
        QVERIFY(w->model()->scenario() == expected(0));
        QTest::keyClick(target, Qt::Key_PageDown);
        QCOMPARE(p->currentStep(), 1);
        QVERIFY(w->model()->scenario() == expected(1));
        QVERIFY(!(expected(1) == expected(0)));
        QVERIFY2(p->overlay()->text().startsWith(QStringLiteral("2 / %1").arg(presets.size())),
                 qPrintable(p->overlay()->text()));
        QVERIFY(p->overlay()->text().contains(QString::fromStdString(presets[1].name)));
        QTest::keyClick(target, Qt::Key_PageUp);
        QCOMPARE(p->currentStep(), 0);
        QVERIFY(w->model()->scenario() == expected(0));

        // Arrows and Space on a figure; Home / End.
        QTest::keyClick(target, Qt::Key_Space);
        QCOMPARE(p->currentStep(), 1);
        QTest::keyClick(target, Qt::Key_Left);
        QCOMPARE(p->currentStep(), 0);
        QTest::keyClick(target, Qt::Key_End);
        QCOMPARE(p->currentStep(), static_cast<int>(presets.size()) - 1);
        QVERIFY(w->model()->scenario() == expected(static_cast<int>(presets.size()) - 1));
        QTest::keyClick(target, Qt::Key_PageDown); // past the end: stays
        QCOMPARE(p->currentStep(), static_cast<int>(presets.size()) - 1);
        QTest::keyClick(target, Qt::Key_Home);
        QCOMPARE(p->currentStep(), 0);
        QVERIFY(w->model()->scenario() == expected(0));

        // A clicker's PgDn works even with a slider focused (which would page through its range).
        w->model()->resetScenario(base);
        p->goToStep(0);
        QSlider* s = w->parameterPanel()->slider(param(Method::RoPE, "rope_theta"))->slider();
        s->setFocus();
        QTest::keyClick(s, Qt::Key_PageDown);
        QCOMPARE(p->currentStep(), 1);
        QVERIFY(w->model()->scenario() == expected(1));
        // Outside presentation mode the keys are the widgets' again.
        p->leave();
        QTest::keyClick(target, Qt::Key_PageDown);
        QCOMPARE(p->currentStep(), 1);
    }

    void slidersStillChangeTheFigure()
    {
        MainWindow* w = m_window.get();
        Presentation* p = w->presentation();
        w->model()->resetScenario(Scenario{});
        QVERIFY(waitIdle(w->jobs()));
        p->enter();
        QVERIFY(waitIdle(w->jobs()));
        const QImage before = renderToImage(*w->heatmapView());
        const int step = p->currentStep();
        QSlider* s = w->parameterPanel()->slider(param(Method::RoPE, "rope_theta"))->slider();
        s->setFocus();
        // An arrow on a focused slider is the slider's, not a step.
        QTest::keyClick(s, Qt::Key_Left);
        QCOMPARE(p->currentStep(), step);
        QVERIFY(w->model()->scenario().params<RopeParams>().rope_theta < 10000.0);
        QVERIFY(waitIdle(w->jobs()));
        QVERIFY(renderToImage(*w->heatmapView()) != before);
    }

    void highContrastPaintsWhiteAndBlack()
    {
        MainWindow* w = m_window.get();
        Presentation* p = w->presentation();
        w->model()->resetScenario(Scenario{});
        p->setHighContrast(false);
        p->setFontScale(1.5);
        p->enter();
        QVERIFY(waitIdle(w->jobs()));
        QTest::qWait(50);
        HeatmapView* h = w->heatmapView();
        const int band = QFontMetrics(scaled_font(h->font(), 1.0, 1.2, true)).height();
        const QRect title(0, 0, h->width(), band);
        // The normal light theme's title text is #202124, never pure black.
        QVERIFY(darkest(h->grab().toImage(), title) != qRgb(0, 0, 0));

        p->setHighContrast(true);
        QVERIFY(high_contrast_figures());
        QCOMPARE(QApplication::palette().color(QPalette::Window), QColor(Qt::white));
        QCOMPARE(QApplication::palette().color(QPalette::WindowText), QColor(Qt::black));
        QVERIFY(waitIdle(w->jobs()));
        QTest::qWait(50);
        const QImage image = h->grab().toImage();
        QCOMPARE(image.pixel(2, 2) & 0xffffff, 0xffffffu); // white background
        QCOMPARE(darkest(image, title) & 0xffffff, 0u);    // black text
        QVERIFY(nonWhitePixels(image, title) > 20);
        p->leave();
        QVERIFY(!high_contrast_figures());
        QVERIFY(QApplication::palette().color(QPalette::WindowText) != QColor(Qt::black) ||
                QApplication::palette().color(QPalette::Window) != QColor(Qt::white));
    }

    void stepLabelStaysOnTheFigure()
    {
        // With the course beside the figure, the step label sits on the figure, not over the course
        // panel's "Open a lesson file…" button at the window's corner.
        auto w = showMainWindow(m_dir, QStringLiteral("overlay"), {.active = true});
        w->showCourse();
        QVERIFY(w->lessonDock()->isVisible());
        Presentation* p = w->presentation();
        p->enter();
        QVERIFY(p->overlay()->isVisible());
        QDockWidget* figure = nullptr;
        for (ViewKind k : kAllViewKinds)
            if (w->dock(k)->isVisible())
                figure = w->dock(k);
        QVERIFY(figure);
        QTRY_VERIFY(figure->geometry().contains(p->overlay()->geometry()));
        QVERIFY(!w->lessonDock()->geometry().intersects(p->overlay()->geometry()));
        p->leave();
    }

    void leavingRestoresTheNormalWindowPixels()
    {
        // Present at 150, 200 and 250 % with the text size changed while presenting, twice at the same
        // scale, then leave: the curves and the panel are pixel for pixel what the window showed before
        // it ever presented, as a fresh window shows them. (Axis pens grew with every restyle into bars over
        // the tick labels, the ALiBi head labels kept the presentation's font, neither came back; a second
        // presentation painted the figures in the normal theme under the high-contrast palette.)
        auto w = showMainWindow(m_dir, QStringLiteral("pixels"), {.active = true});
        w->model()->resetScenario(load_preset("mpt-7b", Scenario{}).scenario);
        // A chosen slope: its label is bold, a font of its own.
        QVERIFY(w->model()->setListElement(param(Method::ALiBi, "slopes"), 1, 0.25));
        w->focusView(ViewKind::Curves);
        QVERIFY(waitIdle(w->jobs()));
        QTest::qWait(50);
        // (The heatmap's matrix is computed at the resolution its panels ask for, which follows their
        // size with some hysteresis: its cells may be sampled differently, so its font and size are
        // compared instead, below.)
        const std::vector<std::pair<QString, QWidget*>> parts = {
            {QStringLiteral("curves"), w->curveView()}, {QStringLiteral("panel"), w->parameterPanel()}};
        const QFont heatmapFont = w->heatmapView()->font();
        const QSize heatmapSize = w->heatmapView()->size();
        std::vector<QImage> fresh;
        for (const auto& part : parts)
            fresh.push_back(part.second->grab().toImage().convertToFormat(QImage::Format_RGB32));

        Presentation* p = w->presentation();
        p->setHighContrast(true);
        for (double scale : {1.5, 2.0, 2.5}) {
            p->setFontScale(scale);
            p->enter();
            w->focusView(ViewKind::Curves);
            QVERIFY(waitIdle(w->jobs()));
            QTest::qWait(50);
            (void)w->grab();
            QTest::keyClick(w.get(), Qt::Key_Minus, Qt::ControlModifier);
            QTest::keyClick(w.get(), Qt::Key_Equal, Qt::ControlModifier);
            QCOMPARE(p->fontScale(), scale);
            // A slope moved and put back while presenting: the panel's rows sync at the large font.
            QVERIFY(w->model()->setListElement(param(Method::ALiBi, "slopes"), 1, 0.3));
            QVERIFY(w->model()->setListElement(param(Method::ALiBi, "slopes"), 1, 0.25));
            QVERIFY(waitIdle(w->jobs()));
            (void)w->grab();
            p->leave();
        }
        // A second presentation at the same scale paints what the first did.
        const auto presentCurves = [&] {
            p->enter();
            w->focusView(ViewKind::Curves);
            if (!QTest::qVerify(waitIdle(w->jobs()), "waitIdle(w->jobs())", "", __FILE__, __LINE__))
                return QImage(); // the test has failed (the lambda cannot return at a QVERIFY)
            QTest::qWait(50);
            const QImage image = w->curveView()->grab().toImage();
            p->leave();
            return image;
        };
        const QImage first = presentCurves();
        const QImage second = presentCurves();
        QVERIFY2(first == second, "the second presentation paints the curves differently");

        QVERIFY(waitIdle(w->jobs()));
        QTest::qWait(50);
        for (std::size_t i = 0; i < parts.size(); ++i) {
            const QImage& a = fresh[i];
            const QImage b = parts[i].second->grab().toImage().convertToFormat(QImage::Format_RGB32);
            QCOMPARE(b.size(), a.size());
            int differing = 0;
            for (int y = 0; y < a.height(); ++y)
                for (int x = 0; x < a.width(); ++x)
                    differing += a.pixel(x, y) != b.pixel(x, y);
            // Exact: the same scenario in the same size paints the same pixels.
            QVERIFY2(differing == 0, qPrintable(QStringLiteral("%1: %2 pixels differ from before presenting")
                                                    .arg(parts[i].first)
                                                    .arg(differing)));
        }
        QCOMPARE(w->heatmapView()->font(), heatmapFont);
        QCOMPARE(w->heatmapView()->size(), heatmapSize);
        // The ALiBi head labels follow the window's font again.
        const ListSliders* heads = w->parameterPanel()->listSliders(param(Method::ALiBi, "slopes"));
        QVERIFY(heads && heads->rowCount() > 1);
        for (const QLabel* label : heads->findChildren<QLabel*>())
            QCOMPARE(label->font().pointSizeF(), w->parameterPanel()->font().pointSizeF());
    }

    void defaultScaleIsLegibleOnAProjector()
    {
        // The default presentation scale, on a 1080p projector: the figures' tick digits at least 16 px
        // tall; the figure keeps at least half the width beside the panel, whose rows are never cut;
        // check boxes and icons grow with the text, and are back to normal after.
        auto w = showMainWindow(m_dir, QStringLiteral("default-scale"), {.active = true});
        w->model()->resetScenario(Scenario{});
        Presentation* p = w->presentation();
        QCOMPARE(p->fontScale(), Settings::kDefaultFontScale);
        // (The style scales the main window's widgets only: asked for one of them.)
        const QWidget* panel = w->parameterPanel();
        const auto metric = [&](QStyle::PixelMetric m) {
            return panel->style()->pixelMetric(m, nullptr, panel);
        };
        const int indicator = metric(QStyle::PM_IndicatorWidth);
        const int icon = metric(QStyle::PM_SmallIconSize);
        p->enter();
        w->focusView(ViewKind::Curves);
        QVERIFY(waitIdle(w->jobs()));
        const auto digitHeight = [](const QFont& font) {
            return QFontMetrics(font).tightBoundingRect(QStringLiteral("0123456789")).height();
        };
        // The heatmap's tick labels (heatmap_paint.cpp) and the curves' axis labels.
        const int heatmapTicks = digitHeight(scaled_font(w->heatmapView()->font(), 1.0, 0.9));
        QVERIFY2(heatmapTicks >= 16, qPrintable(QString::number(heatmapTicks)));
        const QList<QAbstractAxis*> axes = w->curveView()->chartView()->chart()->axes();
        QVERIFY(!axes.isEmpty());
        for (const QAbstractAxis* axis : axes) {
            QVERIFY2(digitHeight(axis->labelsFont()) >= 16,
                     qPrintable(QString::number(digitHeight(axis->labelsFont()))));
            QCOMPARE(axis->linePen().widthF(), 1.75); // not scaled with the text (high contrast: 1.75 px)
        }
        QCOMPARE(metric(QStyle::PM_IndicatorWidth), qRound(indicator * p->fontScale()));
        QCOMPARE(metric(QStyle::PM_SmallIconSize), qRound(icon * p->fontScale()));
        for (double scale : {1.5, 2.0, 2.5}) {
            p->setFontScale(scale);
            QTest::qWait(20);
            const QDockWidget* figure = w->dock(ViewKind::Curves);
            QVERIFY2(
                figure->width() >= w->width() / 2,
                qPrintable(QStringLiteral("%1 of %2 at %3").arg(figure->width()).arg(w->width()).arg(scale)));
        }
        p->leave();
        QCOMPARE(metric(QStyle::PM_IndicatorWidth), indicator);
        QCOMPARE(metric(QStyle::PM_SmallIconSize), icon);
    }

    // Full screen at 150, 200 and 250 %, every part of the window painted: the figure has content.
    void fullScreenFiguresHaveContentAtEveryScale()
    {
        auto w = showMainWindow(m_dir, QStringLiteral("full-screen"), {.active = true});
        w->model()->resetScenario(Scenario{});
        Presentation* p = w->presentation();
        p->setHighContrast(true);
        for (ViewKind kind : {ViewKind::Heatmap, ViewKind::Curves}) {
            for (double scale : {1.5, 2.0, 2.5}) {
                p->setFontScale(scale);
                p->enter();
                w->focusView(kind);
                p->goToStep(1);
                QVERIFY(waitIdle(w->jobs()));
                QTest::qWait(100);
                QCOMPARE(w->size(), w->screen()->geometry().size());
                const QImage shot = w->grab().toImage();
                QWidget* figure = kind == ViewKind::Heatmap ? static_cast<QWidget*>(w->heatmapView())
                                                            : static_cast<QWidget*>(w->curveView());
                const QRect area(figure->mapTo(w.get(), QPoint(0, 0)), figure->size());
                QVERIFY(area.width() > w->width() / 2);
                QVERIFY2(nonWhitePixels(shot, area) > area.width() * area.height() / 400,
                         qPrintable(QStringLiteral("empty figure at %1").arg(scale)));
                p->leave();
            }
        }
    }

    void cleanupTestCase() { m_window.reset(); }
};

QTEST_MAIN(PresentationTest)
#include "test_presentation.moc"
