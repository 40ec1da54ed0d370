// SPDX-License-Identifier: GPL-3.0-or-later
// The Token layout dock on plain parts without a MainWindow (token_layout_controller.h): it shows while
// the method is M-RoPE and hides when it is not, its figure's numbers arrive from the window's JobTracker
// (the ids core's MropePositions::at gives, compared exactly), a failing job of its slot is no view's, and
// the dock is no taller than its cells need.
#include "jobs/job_tracker.h"
#include "methods/mrope/mrope.h"
#include "model/scenario_model.h"
#include "views/token_layout_view.h"
#include "window/token_layout_controller.h"

#include <QDockWidget>
#include <QMainWindow>
#include <QTest>

#include <memory>

using namespace posatlas;
using namespace posatlas::ui;

namespace {

// The main window's arrangement on plain parts: no central widget, a figure's dock on the right, the token
// layout's dock at the bottom (hidden until the method is M-RoPE), shown at `size`.
struct DockedTokenLayout {
    QMainWindow window;
    ScenarioModel* model = new ScenarioModel(&window);
    JobTracker* jobs = new JobTracker(&window);
    TokenLayoutView* view = new TokenLayoutView;
    QDockWidget* figure = new QDockWidget(QStringLiteral("Heatmap"), &window);
    QDockWidget* dock = new QDockWidget(QStringLiteral("Token layout"), &window);
    std::unique_ptr<TokenLayoutController> controller;

    explicit DockedTokenLayout(QSize size)
    {
        figure->setWidget(new QWidget);
        window.addDockWidget(Qt::RightDockWidgetArea, figure);
        dock->setWidget(view);
        window.addDockWidget(Qt::BottomDockWidgetArea, dock);
        dock->hide();
        controller = std::make_unique<TokenLayoutController>(model, jobs, view, dock);
        window.resize(size);
        window.show();
    }
};

Scenario mrope_scenario()
{
    Scenario s;
    s.method = MropeParams::kMethod;
    s.params<MropeParams>().layout = "text:5,image:1x4x6,text:3";
    return s;
}

} // namespace

class TokenLayoutControllerTest : public QObject
{
    Q_OBJECT

private slots:
    void showsWhileTheMethodIsMropeWithCoreIds();
    void dockIsNoTallerThanItsCellsNeed();
};

void TokenLayoutControllerTest::showsWhileTheMethodIsMropeWithCoreIds()
{
    DockedTokenLayout parts({1280, 720});
    QVERIFY(QTest::qWaitForWindowExposed(&parts.window));
    TokenLayoutView* view = parts.view;
    QDockWidget* dock = parts.dock;
    QVERIFY(dock->isHidden()); // the default scenario is not M-RoPE

    const Scenario s = mrope_scenario();
    QVERIFY(parts.model->setScenario(s, QStringLiteral("M-RoPE")));
    QVERIFY(dock->isVisible());
    QTRY_COMPARE_WITH_TIMEOUT(view->data().ids_t.size(), std::size_t{14}, 10000);
    const MropePositions core(s.params<MropeParams>());
    for (std::size_t i = 0; i < 14; ++i) {
        const MropePosition p = core.at(static_cast<std::int64_t>(i));
        QCOMPARE(view->cellLines(i),
                 (QStringList{QString::number(p.t), QString::number(p.h), QString::number(p.w)}));
    }

    QVERIFY(parts.model->setScenario(Scenario{}, QStringLiteral("default")));
    QVERIFY(dock->isHidden());
    // Shown by hand for another method: a sentence saying what the figure is for, no cells.
    dock->show();
    QTRY_VERIFY_WITH_TIMEOUT(
        view->data().title.contains(QStringLiteral("M-RoPE")) && view->data().blocks.empty(), 10000);
}

void TokenLayoutControllerTest::dockIsNoTallerThanItsCellsNeed()
{
    // The bottom dock took all the height the figure did not strictly need. Now it is no taller than its
    // cells (14 tokens) need at the body text's size, and they all fit.
    DockedTokenLayout parts({1280, 900});
    QVERIFY(QTest::qWaitForWindowExposed(&parts.window));
    TokenLayoutView* view = parts.view;
    QVERIFY(parts.model->setScenario(mrope_scenario(), QStringLiteral("M-RoPE")));
    QTRY_COMPARE_WITH_TIMEOUT(view->data().ids_t.size(), std::size_t{14}, 10000);
    const int needed = view->heightForCells(view->width());
    QVERIFY2(needed < parts.window.height() / 2, qPrintable(QString::number(needed)));
    QTRY_VERIFY_WITH_TIMEOUT(view->height() <= needed, 5000);
    QCOMPARE(view->cellRects(QRectF(view->rect()), RenderOptions{}).size(), std::size_t{14});
}

QTEST_MAIN(TokenLayoutControllerTest)
#include "test_token_layout_controller.moc"
