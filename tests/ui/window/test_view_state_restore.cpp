// SPDX-License-Identifier: GPL-3.0-or-later
// A restart restores the views' own state with the window: the rotation view's m and n, the methods
// overlaid on the curves and the heatmap's matrix kind (settings.h), validated on the way back in.
// Each case uses its own INI file in a scratch directory (never the user's settings).
#include "gui_support.h"
#include "methods/registry.h"
#include "model/scenario_model.h"
#include "model/settings.h"
#include "views/curve_view.h"
#include "views/rotation_view.h"
#include "window/main_window.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QDoubleSpinBox>
#include <QMenu>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include <memory>

using namespace posatlas;
using namespace posatlas::ui;
using namespace posatlas::test;

class ViewStateRestoreTest : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString settingsPath(const QString& name) const { return m_dir.filePath(name + QStringLiteral(".ini")); }

    // As a user opens it: only the visible views computed.
    static constexpr WindowOptions kAsOpened{.computeHiddenViews = false};

    static QAction* overlayAction(MainWindow& w, Method m)
    {
        for (QAction* a : w.findChild<QMenu*>(QStringLiteral("overlayMenu"))->actions())
            if (a->data().toString().toStdString() == m.id())
                return a;
        return nullptr;
    }

    static QStringList checkedOverlays(MainWindow& w)
    {
        QStringList ids;
        for (QAction* a : w.findChild<QMenu*>(QStringLiteral("overlayMenu"))->actions())
            if (a->isChecked())
                ids.append(a->data().toString());
        return ids;
    }

    static int checkedKindIndex(MainWindow& w)
    {
        const QList<QAction*> actions = w.findChild<QMenu*>(QStringLiteral("matrixKindMenu"))->actions();
        for (qsizetype i = 0; i < actions.size(); ++i)
            if (actions[i]->isChecked())
                return static_cast<int>(i);
        return -1;
    }

private slots:
    void initTestCase() { QVERIFY(initGuiSuite(m_dir)); }

    void rotationOverlaysAndMatrixKindSurviveARestart()
    {
        const QString name = QStringLiteral("restart");
        // T5: several matrix kinds; its rotation slider covers 0 .. N.
        const std::vector<MatrixKind> kinds = matrix_kinds_for(Method::T5);
        QVERIFY(kinds.size() >= 2);
        const MatrixKind chosen = kinds.back(); // not the default (the first)
        {
            auto w = showMainWindow(m_dir, name, kAsOpened);
            QVERIFY(w->model()->setMethod(Method::T5));
            QVERIFY(waitIdle(w->jobs()));
            // As a user sets them: the spin boxes under the clock face, the View menus.
            w->findChild<QDoubleSpinBox*>(QStringLiteral("queryPosition"))->setValue(100.5);
            w->findChild<QDoubleSpinBox*>(QStringLiteral("keyPosition"))->setValue(17.25);
            overlayAction(*w, Method::Sinusoidal)->trigger();
            overlayAction(*w, Method::ALiBi)->trigger();
            const QList<QAction*> kindActions =
                w->findChild<QMenu*>(QStringLiteral("matrixKindMenu"))->actions();
            QCOMPARE(kindActions.size(), static_cast<qsizetype>(kinds.size()));
            kindActions.back()->trigger();
            QCOMPARE(w->viewSettings().query_position, 100.5);
            QCOMPARE(w->viewSettings().key_position, 17.25);
            QCOMPARE(w->viewSettings().overlay, (std::vector<Method>{Method::Sinusoidal, Method::ALiBi}));
            QCOMPARE(w->viewSettings().matrix_kind, std::optional<MatrixKind>(chosen));
            w->close(); // saves
        }
        {
            auto w = showMainWindow(m_dir, name, kAsOpened);
            QCOMPARE(w->model()->scenario().method, Method::T5);
            QCOMPARE(w->viewSettings().query_position, 100.5);
            QCOMPARE(w->viewSettings().key_position, 17.25);
            QCOMPARE(w->findChild<RotationControls*>()->position(), 100.5);
            QCOMPARE(w->findChild<RotationControls*>()->keyPosition(), 17.25);
            QCOMPARE(w->viewSettings().overlay, (std::vector<Method>{Method::Sinusoidal, Method::ALiBi}));
            QCOMPARE(checkedOverlays(*w),
                     (QStringList{QStringLiteral("sinusoidal"), QStringLiteral("alibi")}));
            QCOMPARE(w->viewSettings().matrix_kind, std::optional<MatrixKind>(chosen));
            QCOMPARE(checkedKindIndex(*w), static_cast<int>(kinds.size()) - 1);
            // The views were computed with the restored state: the curves carry the two overlays.
            QCOMPARE(w->curveView()->data().series.size() >= 3, true);
            QCOMPARE(w->model()->undoStack()->count(), 0); // a restore is not an edit
            w->close();
        }
    }

    void invalidSavedStateFallsBackToDefaults()
    {
        const QString name = QStringLiteral("invalid");
        const ViewSettings defaults;
        {
            QSettings raw(settingsPath(name), QSettings::IniFormat);
            raw.setValue(QStringLiteral("view/rotationQueryPosition"), QStringLiteral("-5"));
            raw.setValue(QStringLiteral("view/rotationKeyPosition"), QStringLiteral("nan"));
            raw.setValue(QStringLiteral("view/curveOverlays"),
                         QStringList{QStringLiteral("no-such-method"), QStringLiteral("alibi"),
                                     QStringLiteral("alibi")});
            raw.setValue(QStringLiteral("view/matrixKind"), QStringLiteral("no-such-kind"));
        }
        {
            auto w = showMainWindow(m_dir, name, kAsOpened);
            QCOMPARE(w->viewSettings().query_position, defaults.query_position);
            QCOMPARE(w->viewSettings().key_position, defaults.key_position);
            QCOMPARE(w->viewSettings().overlay,
                     std::vector<Method>{Method::ALiBi}); // unknown and repeat dropped
            QVERIFY(!w->viewSettings().matrix_kind);
            QCOMPARE(checkedKindIndex(*w), 0); // the method's first kind
            w->close();
        }
        // A position beyond the slider (a saved m of 5000 for a 256-position T5): clamped to it.
        {
            Settings s(settingsPath(QStringLiteral("beyond")));
            Scenario t5;
            t5.method = Method::T5;
            s.setLastScenario(t5);
            s.setRotationPositions(5000.0, 3.0);
            s.setMatrixKind(MatrixKind::Encoding); // a kind T5 does not offer: its default is shown
            s.sync();
        }
        {
            auto w = showMainWindow(m_dir, QStringLiteral("beyond"), kAsOpened);
            const auto* controls = w->findChild<RotationControls*>();
            QCOMPARE(w->viewSettings().query_position, controls->maximum());
            QVERIFY(controls->maximum() < 5000.0);
            QCOMPARE(w->viewSettings().key_position, 3.0);
            QCOMPARE(checkedKindIndex(*w), 0);
            w->close();
        }
    }
};

QTEST_MAIN(ViewStateRestoreTest)
#include "test_view_state_restore.moc"
