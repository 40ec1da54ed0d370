// SPDX-License-Identifier: GPL-3.0-or-later
// Presentation mode on the controllers' parts without a MainWindow (presentation.h): entering hides the
// bars and every view but the one in front, leaving restores them, the preset steps are undo steps of
// the model it was given, and the panel's width outside presentation mode is the one it was given.
#include "controller_parts.h"
#include "io/presets.h"
#include "widgets/parameter_panel.h"
#include "window/presentation.h"

#include <QMenuBar>
#include <QTest>
#include <QUndoStack>

#include <memory>

using namespace posatlas;
using namespace posatlas::ui;

namespace {

// Presentation mode on `parts`, with a parameter panel and an import dock on the left.
struct Presenting {
    explicit Presenting(test::ControllerParts& parts)
    {
        parts.window.menuBar()->addMenu(QStringLiteral("&File"));
        panel = new ParameterPanel(parts.model);
        panelDock = new QDockWidget(QStringLiteral("Parameters"), &parts.window);
        panelDock->setObjectName(QStringLiteral("ParametersDock"));
        panelDock->setWidget(panel);
        parts.window.addDockWidget(Qt::LeftDockWidgetArea, panelDock);
        importDock = new QDockWidget(QStringLiteral("Import"), &parts.window);
        importDock->setObjectName(QStringLiteral("ImportDock"));
        parts.window.addDockWidget(Qt::LeftDockWidgetArea, importDock);
        Presentation::Parts p;
        p.window = &parts.window;
        p.model = parts.model;
        p.panel = panel;
        p.panelDock = panelDock;
        p.importDock = importDock;
        p.docks = parts.views.docks;
        p.maxPanelWidth = 333;
        presentation = new Presentation(p, parts.settings.get());
    }
    ParameterPanel* panel;
    QDockWidget* panelDock;
    QDockWidget* importDock;
    Presentation* presentation; // the window's child
};

} // namespace

class PresentationControllerTest : public QObject
{
    Q_OBJECT

private slots:
    void enterAndLeave()
    {
        test::ControllerParts parts;
        Presenting p(parts);
        parts.window.resize(1000, 700);
        parts.window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&parts.window));
        QVERIFY(!parts.window.menuBar()->isHidden());
        QVERIFY(!p.importDock->isHidden());

        p.presentation->enter();
        QVERIFY(p.presentation->isActive());
        QVERIFY(parts.window.menuBar()->isHidden());
        QVERIFY(parts.window.statusBar()->isHidden());
        QVERIFY(p.importDock->isHidden());
        int shown = 0;
        for (ViewKind k : kAllViewKinds)
            shown += parts.dock(k)->isHidden() ? 0 : 1;
        QCOMPARE(shown, 1);
        p.presentation->showView(ViewKind::Spectrum);
        QVERIFY(!parts.dock(ViewKind::Spectrum)->isHidden());
        QVERIFY(parts.dock(ViewKind::Heatmap)->isHidden());

        p.presentation->leave();
        QVERIFY(!p.presentation->isActive());
        QVERIFY(!parts.window.menuBar()->isHidden());
        QVERIFY(!parts.window.statusBar()->isHidden());
        QVERIFY(!p.importDock->isHidden());
        for (ViewKind k : kAllViewKinds)
            QVERIFY(!parts.dock(k)->isHidden());
        QCOMPARE(p.panel->maximumWidth(), 333);
    }

    // Without another source the steps are the presets, each one undo step of the model given.
    void presetStepsApplyToTheModel()
    {
        test::ControllerParts parts;
        Presenting p(parts);
        parts.window.resize(1000, 700);
        parts.window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&parts.window));
        p.presentation->enter();
        auto* steps = dynamic_cast<PresetSteps*>(p.presentation->stepSource());
        QVERIFY(steps);
        QCOMPARE(steps->count(), static_cast<int>(list_presets().size()));
        const int undo = parts.model->undoStack()->count();
        QVERIFY(p.presentation->goToStep(0));
        QCOMPARE(parts.model->undoStack()->count(), undo + 1);
        QVERIFY(p.presentation->stepLabel().startsWith(QStringLiteral("1 / ")));
        const Scenario first = parts.model->scenario();
        QVERIFY(p.presentation->nextStep());
        QCOMPARE(p.presentation->currentStep(), 1);
        QVERIFY(!(parts.model->scenario() == first));
        p.presentation->leave();
    }
};

QTEST_MAIN(PresentationControllerTest)
#include "test_presentation_controller.moc"
