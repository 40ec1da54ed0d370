// SPDX-License-Identifier: GPL-3.0-or-later
// The views' controller on its own (view_controller.h), built on plain parts without a MainWindow: the
// settings follow the scenario, hidden views are not computed, results reach the widgets, the timings
// switch is persisted.
#include "controller_parts.h"
#include "gui_support.h"
#include "window/view_timings.h"

#include <QLabel>

#include <QSignalSpy>
#include <QTest>
#include <algorithm>

using namespace posatlas;
using namespace posatlas::ui;

class ViewControllerTest : public QObject
{
    Q_OBJECT

private slots:
    // A zoom window belongs to the matrix it was chosen on: a new length or method resets it; the
    // answer says whether the method changed (the window then rebuilds its matrix kind menu).
    void settingsFollowTheScenario()
    {
        test::ControllerParts parts;
        ViewController& views = *parts.viewController;
        QCOMPARE(views.followScenario(), false); // RoPE, as it was built with
        ViewSettings v = views.settings();
        v.row0 = 8;
        v.col0 = 8;
        v.rows = 16;
        v.cols = 16;
        QSignalSpy changed(&views, &ViewController::settingsChanged);
        views.setSettings(v, ViewKind::Heatmap);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(views.settings().rows, 16);

        Scenario s = parts.model->scenario();
        s.seq_len = s.seq_len * 2;
        QVERIFY(parts.model->setScenario(s, QStringLiteral("longer")));
        QCOMPARE(views.followScenario(), false);
        QCOMPARE(views.settings().rows, 0);
        QCOMPARE(views.settings().row0, 0);

        v = views.settings();
        v.rows = v.cols = 16;
        views.setSettings(v, ViewKind::Heatmap);
        s.method = Method::ALiBi;
        QVERIFY(parts.model->setScenario(s, QStringLiteral("alibi")));
        QCOMPARE(views.followScenario(), true);
        QCOMPARE(views.settings().rows, 0);
        QCOMPARE(views.followScenario(), false); // once
    }

    // A kind the method lacks is never kept: what the controller holds is what a session saves.
    void settingsAreNormalised()
    {
        test::ControllerParts parts;
        const auto kinds = matrix_kinds_for(Method::RoPE);
        QVERIFY(std::find(kinds.begin(), kinds.end(), MatrixKind::Buckets) == kinds.end());
        ViewSettings v = parts.viewController->settings();
        v.matrix_kind = MatrixKind::Buckets;
        parts.viewController->setSettings(v);
        QVERIFY(parts.viewController->settings().matrix_kind != MatrixKind::Buckets);
    }

    // A view nobody sees is not computed; computing hidden views (tests, screenshots) computes them all,
    // and each result reaches its widget.
    void hiddenViewsAreNotComputed()
    {
        test::ControllerParts parts;
        ViewController& views = *parts.viewController;
        parts.window.resize(1000, 700);
        parts.window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&parts.window));
        parts.dock(ViewKind::Spectrum)->hide();
        views.updateEnabled();
        QVERIFY(!views.isEnabled(ViewKind::Spectrum));
        QVERIFY(views.isEnabled(ViewKind::Curves));
        const int spectrum = static_cast<int>(ViewKind::Spectrum);
        const quint64 before = parts.jobs->generation(spectrum);
        views.requestAllViews();
        QVERIFY(test::waitIdle(parts.jobs));
        QCOMPARE(parts.jobs->generation(spectrum), before);
        QVERIFY(!parts.views.curves->data().series.isEmpty());

        views.setComputeHidden(true);
        QVERIFY(views.isEnabled(ViewKind::Spectrum));
        QVERIFY(test::waitIdle(parts.jobs));
        QVERIFY(parts.jobs->generation(spectrum) > before);
        QVERIFY(!parts.views.heatmap->data().panels.isEmpty());
    }

    // View > Show Timings: stored in the settings, the label shown, the change announced once.
    void timingsSwitchIsPersisted()
    {
        test::ControllerParts parts;
        ViewController& views = *parts.viewController;
        QSignalSpy toggled(&views, &ViewController::showTimingsChanged);
        QVERIFY(!views.showTimings());
        views.setShowTimings(true);
        QVERIFY(views.showTimings());
        QVERIFY(parts.settings->showTimings());
        QVERIFY(!views.timingsLabel()->isHidden());
        QVERIFY(!views.timingsLabel()->text().isEmpty());
        views.setShowTimings(true);
        QCOMPARE(toggled.count(), 1);
        views.setShowTimings(false);
        QVERIFY(!parts.settings->showTimings());
        QVERIFY(views.timingsLabel()->isHidden());
        QCOMPARE(toggled.count(), 2);
    }

    // The rotation slider's range follows the scenario and the restored positions are kept within it.
    void rotationPositionsStayInRange()
    {
        test::ControllerParts parts;
        ViewController& views = *parts.viewController;
        Scenario s = parts.model->scenario();
        s.method = Method::ALiBi;
        s.seq_len = 64;
        QVERIFY(parts.model->setScenario(s, QStringLiteral("alibi")));
        ViewSettings v = views.settings();
        v.query_position = 1e6;
        views.restoreSettings(v);
        views.followScenario();
        views.clampRotationPositions();
        QCOMPARE(views.settings().query_position, 64.0);
        QCOMPARE(parts.views.rotationControls->position(), 64.0);
    }
};

QTEST_MAIN(ViewControllerTest)
#include "test_view_controller.moc"
