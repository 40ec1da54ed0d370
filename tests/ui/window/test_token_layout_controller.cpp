// SPDX-License-Identifier: GPL-3.0-or-later
// The Token layout dock on plain parts without a MainWindow (token_layout_controller.h): it shows while
// the method is M-RoPE and hides when it is not, its figure's numbers arrive from the window's JobTracker
// (the ids core's MropePositions::at gives, compared exactly), and a failing job of its slot is no view's.
#include "jobs/job_tracker.h"
#include "methods/mrope/mrope.h"
#include "model/scenario_model.h"
#include "views/token_layout_view.h"
#include "window/token_layout_controller.h"

#include <QDockWidget>
#include <QMainWindow>
#include <QTest>

using namespace posatlas;
using namespace posatlas::ui;

class TokenLayoutControllerTest : public QObject
{
    Q_OBJECT

private slots:
    void showsWhileTheMethodIsMropeWithCoreIds();
    void dockIsNoTallerThanItsCellsNeed();
};

void TokenLayoutControllerTest::showsWhileTheMethodIsMropeWithCoreIds()
{
    QMainWindow window;
    auto* model = new ScenarioModel(&window);
    auto* jobs = new JobTracker(&window);
    auto* view = new TokenLayoutView;
    auto* dock = new QDockWidget(QStringLiteral("Token layout"), &window);
    dock->setWidget(view);
    window.addDockWidget(Qt::BottomDockWidgetArea, dock);
    dock->hide();
    TokenLayoutController controller(model, jobs, view, dock);
    window.resize(1280, 720);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(dock->isHidden()); // the default scenario is not M-RoPE

    Scenario s;
    s.method = MropeParams::kMethod;
    s.params<MropeParams>().layout = "text:5,image:1x4x6,text:3";
    QVERIFY(model->setScenario(s, QStringLiteral("M-RoPE")));
    QVERIFY(dock->isVisible());
    QTRY_COMPARE_WITH_TIMEOUT(view->data().ids_t.size(), std::size_t{14}, 10000);
    const MropePositions core(s.params<MropeParams>());
    for (std::size_t i = 0; i < 14; ++i) {
        const MropePosition p = core.at(static_cast<std::int64_t>(i));
        QCOMPARE(view->cellLines(i),
                 (QStringList{QString::number(p.t), QString::number(p.h), QString::number(p.w)}));
    }

    QVERIFY(model->setScenario(Scenario{}, QStringLiteral("default")));
    QVERIFY(dock->isHidden());
    // Shown by hand for another method: a sentence saying what the figure is for, no cells.
    dock->show();
    QTRY_VERIFY_WITH_TIMEOUT(
        view->data().title.contains(QStringLiteral("M-RoPE")) && view->data().blocks.empty(), 10000);
}

void TokenLayoutControllerTest::dockIsNoTallerThanItsCellsNeed()
{
    // As in the main window: no central widget, a figure's dock on the right, the token layout at the
    // bottom, which took all the height the figure did not strictly need. Now it is no taller than its
    // cells (14 tokens) need at the body text's size, and they all fit.
    QMainWindow window;
    auto* model = new ScenarioModel(&window);
    auto* jobs = new JobTracker(&window);
    auto* view = new TokenLayoutView;
    auto* figure = new QDockWidget(QStringLiteral("Heatmap"), &window);
    figure->setWidget(new QWidget);
    window.addDockWidget(Qt::RightDockWidgetArea, figure);
    auto* dock = new QDockWidget(QStringLiteral("Token layout"), &window);
    dock->setWidget(view);
    window.addDockWidget(Qt::BottomDockWidgetArea, dock);
    dock->hide();
    TokenLayoutController controller(model, jobs, view, dock);
    window.resize(1280, 900);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    Scenario s;
    s.method = MropeParams::kMethod;
    s.params<MropeParams>().layout = "text:5,image:1x4x6,text:3";
    QVERIFY(model->setScenario(s, QStringLiteral("M-RoPE")));
    QTRY_COMPARE_WITH_TIMEOUT(view->data().ids_t.size(), std::size_t{14}, 10000);
    const int needed = view->heightForCells(view->width());
    QVERIFY2(needed < window.height() / 2, qPrintable(QString::number(needed)));
    QTRY_VERIFY_WITH_TIMEOUT(view->height() <= needed, 5000);
    QCOMPARE(view->cellRects(QRectF(view->rect()), RenderOptions{}).size(), std::size_t{14});
}

QTEST_MAIN(TokenLayoutControllerTest)
#include "test_token_layout_controller.moc"
