// SPDX-License-Identifier: GPL-3.0-or-later
// The scenario model and its parameter table under QT_QPA_PLATFORM=offscreen: stable indices, values that
// round trip, refused values that leave the state alone, one signal and one undo step per change, a preset
// as one step, the scenario kept in the settings file.
#include "gui_support.h"
#include "io/presets.h"
#include "model/scenario_model.h"
#include "model/settings.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

using namespace posatlas;
using namespace posatlas::ui;
using namespace posatlas::test;

class ScenarioModelTest : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString settingsPath(const QString& name) const { return m_dir.filePath(name + QStringLiteral(".ini")); }

private slots:
    void initTestCase() { QVERIFY(initGuiSuite(m_dir)); }

    void paramIndicesAreStableAndDistinct()
    {
        const auto all = all_params();
        QVERIFY(all.size() > 40);
        for (std::size_t i = 0; i < all.size(); ++i)
            QCOMPARE(param_index(all[i]), static_cast<int>(i));
    }

    void everyParameterRoundTrips()
    {
        // Setting a parameter to its own value through the table leaves the scenario equal, and the
        // default scenario passes core validation for its method.
        const Scenario s;
        for (ParamId id : all_params()) {
            if (id->type == FieldType::RealList || id->type == FieldType::Text)
                continue; // not numbers: the session round trip covers them
            Scenario t = s;
            set_param_value(t, id, param_value(s, id));
            QVERIFY2(s == t, id->key.c_str());
        }
        validate_for(s);
    }

    void invalidParameterLeavesStateAndEmitsMessage()
    {
        ScenarioModel model;
        QSignalSpy rejected(&model, &ScenarioModel::parameterRejected);
        QSignalSpy changed(&model, &ScenarioModel::scenarioChanged);
        const Scenario before = model.scenario();
        // core: rope_theta must be > 1 (validation.cpp validate(RopeParams)).
        QVERIFY(!model.setValue(param(Method::RoPE, "rope_theta"), 0.5));
        QCOMPARE(rejected.count(), 1);
        QVERIFY(rejected.front().front().toString().contains(QStringLiteral("rope_theta")));
        QCOMPARE(changed.count(), 0);
        QCOMPARE(model.undoStack()->count(), 0);
        QVERIFY((before == model.scenario()));
        // beta_fast must be >= beta_slow: a cross-field rule also leaves the state alone.
        QVERIFY(!model.setValue(param(Method::RoPE, "beta_fast"), 0.6));
        QCOMPARE(rejected.count(), 2);
        QVERIFY((before == model.scenario()));
    }

    void unchangedValueDoesNothing()
    {
        ScenarioModel model;
        QSignalSpy changed(&model, &ScenarioModel::scenarioChanged);
        QVERIFY(model.setValue(param(Method::RoPE, "rope_theta"),
                               model.scenario().params<RopeParams>().rope_theta));
        QCOMPARE(changed.count(), 0);
        QCOMPARE(model.undoStack()->count(), 0);
    }

    void oneSignalPerChangeAndUndoRedo()
    {
        ScenarioModel model;
        QSignalSpy changed(&model, &ScenarioModel::scenarioChanged);
        QVERIFY(model.setValue(param(Method::RoPE, "rope_theta"), 500000.0));
        QCOMPARE(changed.count(), 1);
        QCOMPARE(model.scenario().params<RopeParams>().rope_theta, 500000.0);
        model.undoStack()->undo();
        QCOMPARE(changed.count(), 2);
        QCOMPARE(model.scenario().params<RopeParams>().rope_theta, 10000.0);
        model.undoStack()->redo();
        QCOMPARE(model.scenario().params<RopeParams>().rope_theta, 500000.0);
    }

    void presetIsOneUndoStepAndMethodSwitchKeepsHeadValid()
    {
        ScenarioModel model;
        QVERIFY(model.setMethod(Method::T5));
        QVERIFY(model.setValue(param("head"), 11));
        // ALiBi has 8 heads by default: the shown head is clamped rather than the switch rejected.
        QVERIFY(model.setMethod(Method::ALiBi));
        QCOMPARE(model.scenario().head, 7);
        const int before = model.undoStack()->count();
        const ConfigImport imp = load_preset("llama-3.1-8b", model.scenario());
        QVERIFY(model.setScenario(imp.scenario, QStringLiteral("Preset")));
        QCOMPARE(model.undoStack()->count(), before + 1);
        QCOMPARE(model.scenario().method, Method::RoPE);
        model.undoStack()->undo();
        QCOMPARE(model.scenario().method, Method::ALiBi);
    }

    void scenarioJsonRoundTrip()
    {
        Scenario s;
        s.method = Method::CoPE;
        s.seq_len = 4096;
        s.params<RopeParams>().rope_type = RopeType::LongRope;
        s.params<RopeParams>().short_factor = {1.0, 1.5, 2.0};
        s.params<RopeParams>().long_factor = {4.0, 8.0, 16.0};
        s.params<RopeParams>().mscale = 0.707;
        s.params<T5Params>().bidirectional = false;
        s.params<CopeParams>().gate_scale = -2.5;
        s.content.kind = ContentKind::Random;
        s.content.seed = 123456789;
        {
            Settings settings(settingsPath(QStringLiteral("scenario-json")));
            settings.setLastScenario(s);
            settings.sync();
        }
        const auto back = Settings(settingsPath(QStringLiteral("scenario-json"))).lastScenario();
        QVERIFY(back);
        QVERIFY((s == *back));
    }
};

QTEST_MAIN(ScenarioModelTest)
#include "test_scenario_model.moc"
