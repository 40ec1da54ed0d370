// SPDX-License-Identifier: GPL-3.0-or-later
// Presentation mode (window/presentation.h): F5 goes full screen without chrome and Esc restores the
// window exactly; the font scale reaches the figures and the panel; PgDn / PgUp step through the presets;
// sliders still work; the high-contrast theme paints white and black.
//
// Screenshots: with POSATLAS_SCREENSHOT_DIR set, presentationScreenshots() also saves the full-screen
// window at 100 % and 200 % there (POSATLAS_SCREENSHOT_LANG=zh_CN for the Chinese interface; run under
// QT_QPA_PLATFORM=offscreen:configfile=FILE with a 1920x1080 screen for the projector size).
#include "gui_support.h"
#include "io/presets.h"
#include "model/scenario_model.h"
#include "model/settings.h"
#include "views/curve_chart.h"
#include "views/curve_view.h"
#include "views/figure_style.h"
#include "views/heatmap_view.h"
#include "widgets/log_slider.h"
#include "widgets/parameter_panel.h"
#include "window/language.h"
#include "window/main_window.h"
#include "window/presentation.h"

#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QFontInfo>
#include <QLabel>
#include <QMenuBar>
#include <QScreen>
#include <QSlider>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>

#include <map>

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

    std::unique_ptr<MainWindow> makeWindow(const QString& name)
    {
        auto w = std::make_unique<MainWindow>(m_dir.filePath(name + QStringLiteral(".ini")));
        w->setComputeHiddenViews(true);
        w->resize(1280, 720);
        w->show();
        if (!QTest::qWaitForWindowExposed(w.get()))
            qWarning("window not exposed");
        QApplication::setActiveWindow(w.get());
        waitIdle(w->jobs());
        return w;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QApplication::setOrganizationName(QStringLiteral("PosAtlasTest"));
        QApplication::setApplicationName(QStringLiteral("ui_presentation_tests"));
        m_window = makeWindow(QStringLiteral("present"));
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
        QVERIFY2(heatmap200 >= 2 * heatmap100, qPrintable(QStringLiteral("%1 %2").arg(heatmap100).arg(heatmap200)));
        QVERIFY2(chart200 >= 2 * chart100, qPrintable(QStringLiteral("%1 %2").arg(chart100).arg(chart200)));
        QCOMPARE(w->parameterPanel()->font().pointSizeF(), 2.0 * panel100);

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
        const auto expected = [&](int i) { return load_preset(presets[static_cast<std::size_t>(i)].id, base).scenario; };
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

    void presentationScreenshots()
    {
        // Full screen at 100 % and 200 %, every part of the window painted: the figure has content.
        const QString dir = qEnvironmentVariable("POSATLAS_SCREENSHOT_DIR");
        const QString lang = qEnvironmentVariable("POSATLAS_SCREENSHOT_LANG", QStringLiteral("en"));
        if (lang != QStringLiteral("en"))
            QVERIFY(installLanguage(lang));
        auto w = makeWindow(QStringLiteral("shots-") + lang);
        w->model()->resetScenario(Scenario{});
        Presentation* p = w->presentation();
        p->setHighContrast(true);
        for (ViewKind kind : {ViewKind::Heatmap, ViewKind::Curves}) {
            for (double scale : {1.0, 2.0}) {
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
                if (!dir.isEmpty())
                    QVERIFY(shot.save(QDir(dir).filePath(QStringLiteral("present-%1-%2-%3.png")
                                                             .arg(lang, kind == ViewKind::Heatmap ? "heatmap" : "curves")
                                                             .arg(qRound(scale * 100)))));
                p->leave();
            }
        }
        if (lang != QStringLiteral("en"))
            installLanguage(QStringLiteral("en"));
    }

    void cleanupTestCase()
    {
        m_window.reset();
    }
};

QTEST_MAIN(PresentationTest)
#include "test_presentation.moc"
