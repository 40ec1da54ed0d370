// SPDX-License-Identifier: GPL-3.0-or-later
// A keyboard reaches everything: views take the focus (View > Go to View), the heatmap pans and zooms
// from the keys, the curves have a keyboard crosshair, Help > Keyboard and Mouse lists every shortcut of
// the menus, menus have mnemonics, and every control meets WCAG 2.1 AA contrast in both themes
// (text 4.5:1, a control's graphics 3:1; relative luminance and ratio as defined by WCAG 2.1, 1.4.3/1.4.11).
#include "gui_support.h"
#include "jobs/job_tracker.h"
#include "model/scenario_model.h"
#include "views/curve_chart.h"
#include "views/curve_view.h"
#include "views/heatmap_view.h"
#include "views/rotation_view.h"
#include "window/main_window.h"

#include <QAbstractButton>
#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QLabel>
#include <QMenuBar>
#include <QSignalSpy>
#include <QStyleFactory>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

#include <cmath>

using namespace posatlas;
using namespace posatlas::ui;
using namespace posatlas::test;

namespace {

// WCAG 2.1 relative luminance of an sRGB colour.
double luminance(const QColor& c)
{
    auto lin = [](double v) { return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * lin(c.redF()) + 0.7152 * lin(c.greenF()) + 0.0722 * lin(c.blueF());
}
double contrast(const QColor& a, const QColor& b)
{
    const double la = luminance(a), lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

} // namespace

class KeyboardTest : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;
    std::unique_ptr<MainWindow> m_window;

private slots:
    void initTestCase()
    {
        QVERIFY(initGuiSuite(m_dir));
        m_window = showMainWindow(m_dir, QStringLiteral("keys"), {.size = {1600, 1000}, .active = true});
    }

    void heatmapPansZoomsAndResetsFromTheKeys()
    {
        MainWindow* w = m_window.get();
        w->focusView(ViewKind::Heatmap);
        HeatmapView* h = w->heatmapView();
        QTRY_VERIFY(h->hasFocus());
        const auto home = h->viewport();
        QVERIFY(home.rows > 0);
        QTest::keyClick(h, Qt::Key_Plus);
        QCOMPARE(h->viewport().rows, home.rows * 0.8);
        QCOMPARE(h->viewport().cols, home.cols * 0.8);
        const auto zoomed = h->viewport();
        QTest::keyClick(h, Qt::Key_Right);
        QCOMPARE(h->viewport().col0, zoomed.col0 + 0.1 * zoomed.cols);
        QTest::keyClick(h, Qt::Key_Down);
        QCOMPARE(h->viewport().row0, zoomed.row0 + 0.1 * zoomed.rows);
        QTest::keyClick(h, Qt::Key_Minus);
        QVERIFY(h->viewport().rows > zoomed.rows);
        QTest::keyClick(h, Qt::Key_0);
        QCOMPARE(h->viewport().rows, home.rows);
        QCOMPARE(h->viewport().row0, home.row0);
        QVERIFY(h->toolTip().contains(QStringLiteral("zoom")));
    }

    void curvesHaveAKeyboardCrosshair()
    {
        MainWindow* w = m_window.get();
        w->focusView(ViewKind::Curves);
        CurveChartView* c = w->curveView()->chartView();
        QTRY_VERIFY(c->hasFocus());
        QSignalSpy readouts(c, &CurveChartView::hovered);
        QTest::keyClick(c, Qt::Key_Home);
        QCOMPARE(c->keyboardCrosshair(), 0.0);
        QTest::keyClick(c, Qt::Key_Right, Qt::ShiftModifier);
        QCOMPARE(c->keyboardCrosshair(), 0.1);
        QCOMPARE(readouts.size(), 2);
        const QString text = readouts.back().front().toString();
        QVERIFY2(text.contains(QStringLiteral("=")), qPrintable(text));
        QTest::keyClick(c, Qt::Key_Escape);
        QVERIFY(c->keyboardCrosshair() < 0);
    }

    void everyViewIsReachedFromTheKeyboard()
    {
        MainWindow* w = m_window.get();
        const std::pair<int, ViewKind> keys[] = {{Qt::Key_1, ViewKind::Heatmap},
                                                 {Qt::Key_2, ViewKind::Curves},
                                                 {Qt::Key_3, ViewKind::Rotation},
                                                 {Qt::Key_4, ViewKind::Spectrum}};
        for (const auto& [key, kind] : keys) {
            QTest::keyClick(w, static_cast<Qt::Key>(key), Qt::ControlModifier);
            QWidget* focus = QApplication::focusWidget();
            QVERIFY2(focus && w->dock(kind)->isAncestorOf(focus),
                     qPrintable(QStringLiteral("Ctrl+%1").arg(key - Qt::Key_0)));
        }
    }

    void helpListsEveryShortcutAndGesture()
    {
        const QString html = m_window->keyboardHelpHtml();
        int shortcuts = 0;
        const std::function<void(const QMenu*)> walk = [&](const QMenu* menu) {
            for (const QAction* a : menu->actions()) {
                if (a->menu())
                    walk(a->menu());
                else if (!a->shortcut().isEmpty()) {
                    ++shortcuts;
                    QVERIFY2(html.contains(a->shortcut().toString(QKeySequence::NativeText).toHtmlEscaped()),
                             qPrintable(a->text()));
                }
            }
        };
        for (const QAction* a : m_window->menuBar()->actions())
            walk(a->menu());
        QVERIFY(shortcuts >= 10);
        for (const char* gesture : {"wheel", "drag", "double-click", "Left / Right", "hover"})
            QVERIFY2(html.contains(QLatin1String(gesture)), gesture);
    }

    // Every menu of the menu bar and every entry in it can be reached with Alt and a letter (lists of
    // data, the presets and the recent files, are reached with the arrow keys).
    void menusHaveMnemonics()
    {
        for (const QAction* top : m_window->menuBar()->actions()) {
            QVERIFY2(top->text().contains(QLatin1Char('&')), qPrintable(top->text()));
            if (top->menu()->objectName() == QStringLiteral("presetsMenu"))
                continue;
            for (const QAction* a : top->menu()->actions()) {
                if (a->isSeparator() ||
                    (a->menu() && a->menu()->objectName() == QStringLiteral("recentMenu")))
                    continue;
                QVERIFY2(a->text().contains(QLatin1Char('&')),
                         qPrintable(top->text() + QStringLiteral(" › ") + a->text()));
            }
        }
    }

    void controlsMeetWcagContrastInBothThemes_data()
    {
        QTest::addColumn<bool>("dark");
        QTest::newRow("light") << false;
        QTest::newRow("dark") << true;
    }
    void controlsMeetWcagContrastInBothThemes()
    {
        QFETCH(bool, dark);
        MainWindow* w = m_window.get();
        w->setDarkTheme(dark);
        QApplication::processEvents();
        int checked = 0;
        for (QWidget* widget : w->findChildren<QWidget*>()) {
            if (!widget->isVisible() || !widget->isEnabled())
                continue;
            const bool text = qobject_cast<QLabel*>(widget) || qobject_cast<QAbstractButton*>(widget) ||
                              qobject_cast<QAbstractSpinBox*>(widget) || qobject_cast<QComboBox*>(widget);
            if (!text)
                continue;
            const QPalette p = widget->palette();
            const QColor fg = p.color(widget->foregroundRole());
            const QColor bg = p.color(widget->backgroundRole());
            const double ratio = contrast(fg, bg);
            QVERIFY2(ratio >= 4.5, qPrintable(QStringLiteral("%1 (%2): %3:1")
                                                  .arg(QString::fromLatin1(widget->metaObject()->className()),
                                                       widget->objectName())
                                                  .arg(ratio, 0, 'f', 2)));
            ++checked;
        }
        QVERIFY(checked > 20);
        // The rotation view's play button: its icon against the window behind it (an auto-raised button).
        auto* controls = w->findChild<RotationControls*>();
        QVERIFY(controls);
        QToolButton* play = controls->playButton();
        const QImage icon = play->icon().pixmap(QSize(32, 32)).toImage();
        QColor ink;
        for (int y = 0; y < icon.height() && !ink.isValid(); ++y)
            for (int x = 0; x < icon.width(); ++x)
                if (qAlpha(icon.pixel(x, y)) == 255) {
                    ink = QColor(icon.pixel(x, y));
                    break;
                }
        QVERIFY(ink.isValid());
        const double ratio = contrast(ink, play->palette().color(QPalette::Window));
        QVERIFY2(ratio >= 3.0, qPrintable(QStringLiteral("play icon %1:1").arg(ratio, 0, 'f', 2)));
        w->setDarkTheme(false);
    }

    void cleanupTestCase() { m_window.reset(); }
};

QTEST_MAIN(KeyboardTest)
#include "test_keyboard.moc"
