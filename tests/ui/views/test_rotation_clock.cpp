// SPDX-License-Identifier: GPL-3.0-or-later
// The rotation view's clock face at d = 128 (64 pairs): every pair on a ring of its own, far enough from
// its neighbours that the slow pairs (which at small m all point almost the same way) do not merge into
// one fan, with a few rings numbered.
#include "gui_support.h"
#include "jobs/view_jobs.h"
#include "views/rotation_view.h"

#include <QApplication>
#include <QImage>
#include <QTest>

#include <algorithm>

using namespace posatlas;
using namespace posatlas::ui;

class RotationClockTest : public QObject
{
    Q_OBJECT

private:
    // The smallest gap (px) between the rings of consecutive pairs.
    static double minSpacing(const ClockLayout& L)
    {
        double gap = 1e9;
        for (std::size_t i = 1; i < L.radius.size(); ++i)
            gap = std::min(gap, L.radius[i - 1] - L.radius[i]);
        return gap;
    }

private slots:
    void slowPairsGetDistinctRingsAt800x600()
    {
        Scenario s; // RoPE, head_dim 128: 64 pairs
        QCOMPARE(s.params<RopeParams>().head_dim, 128);
        ViewSettings v; // m = 12: pairs 32 .. 63 turn by less than 0.12 rad, all nearly at 3 o'clock
        RotationView view;
        view.setData(rotation_job(s, v));
        view.resize(800, 600);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const QImage shot = view.grab().toImage(); // paints the widget as on screen
        QVERIFY(!shot.isNull());
        const ClockLayout& L = view.lastClockLayout();
        QCOMPARE(L.radius.size(), std::size_t{64});
        // The old face (rings from R down to 0.22 R in a 42 % column) left 1.8 px between rings and 3 px
        // dots: pairs 32-63 merged. Now: at least 3 px between consecutive rings, dots narrower than that.
        const double gap = minSpacing(L);
        QVERIFY2(gap >= 3.0, qPrintable(QStringLiteral("ring spacing %1 px").arg(gap)));
        QVERIFY2(2.0 * L.dot < gap,
                 qPrintable(QStringLiteral("dot %1 px, spacing %2 px").arg(L.dot).arg(gap)));
        // Every radius inside the face, decreasing, pair 0 outermost.
        QCOMPARE(L.radius.front(), L.outer);
        QVERIFY(L.radius.back() > 0.0);
        for (std::size_t i = 1; i < L.radius.size(); ++i)
            QVERIFY(L.radius[i] < L.radius[i - 1]);
        // A few rings are numbered: first, quarters, last.
        QCOMPARE(L.labelled, (std::vector<int>{0, 16, 32, 47, 63}));
    }

    void exportedFigureUsesTheSameLayout()
    {
        Scenario s;
        RotationView view;
        view.setData(rotation_job(s, ViewSettings{}));
        const QImage image = posatlas::test::renderToImage(view, QSize(800, 600));
        QVERIFY(!image.isNull());
        QCOMPARE(view.lastClockLayout().radius.size(), std::size_t{64});
        QVERIFY(minSpacing(view.lastClockLayout()) >= 3.0);
    }

    void layoutFunctionKeepsEveryPairApart()
    {
        // The layout alone, for pair counts from 1 to 256: rings strictly decreasing, dots narrower
        // than the spacing, and at 64 pairs in a 440 x 540 cell at least 3 px apart.
        for (std::size_t n :
             {std::size_t{1}, std::size_t{2}, std::size_t{8}, std::size_t{64}, std::size_t{256}}) {
            const ClockLayout L = clock_layout(QRectF(0, 0, 440, 540), n, 40);
            QCOMPARE(L.radius.size(), n);
            if (n > 1) {
                QVERIFY(2.0 * L.dot < minSpacing(L) || L.dot == 1.0);
                QVERIFY(minSpacing(L) > 0.0);
            }
            QVERIFY(!L.labelled.empty());
            QCOMPARE(L.labelled.front(), 0);
            QCOMPARE(L.labelled.back(), static_cast<int>(n) - 1);
        }
        QVERIFY(minSpacing(clock_layout(QRectF(0, 0, 440, 540), 64, 40)) >= 3.0);
        QVERIFY(clock_layout(QRectF(0, 0, 4, 4), 64, 40).radius.empty()); // too small: nothing drawn
    }
};

QTEST_MAIN(RotationClockTest)
#include "test_rotation_clock.moc"
