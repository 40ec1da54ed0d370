// SPDX-License-Identifier: GPL-3.0-or-later
// Lists the parameter panel shows without editing them (Field::read_only_summary) under
// QT_QPA_PLATFORM=offscreen: LongRoPE's per-pair factors (Phi-3's rope_scaling.short_factor and
// long_factor, HF transformers _compute_longrope_parameters), one read-only label under RoPE's rows, shown
// while the RoPE type is LongRoPE and hidden for every other type and method.
#include "methods/mrope/mrope.h"
#include "model/scenario_model.h"
#include "widgets/parameter_panel.h"

#include <QLabel>
#include <QTest>

using namespace posatlas;
using namespace posatlas::ui;

namespace {

// The panel's visible label that names `key` (short_factor by default), or null.
QLabel* factorLabel(ParameterPanel& panel, const QString& key = QStringLiteral("short_factor:"))
{
    for (QLabel* label : panel.findChildren<QLabel*>())
        if (label->isVisibleTo(&panel) && label->text().contains(key))
            return label;
    return nullptr;
}

} // namespace

class ReadOnlyListsTest : public QObject
{
    Q_OBJECT

private slots:
    void longRopeFactorsAreShownReadOnlyForLongRopeOnly()
    {
        ScenarioModel model;
        ParameterPanel panel(&model);
        panel.show();
        QVERIFY(!factorLabel(panel)); // default RoPE: no factor lists

        Scenario s = model.scenario();
        RopeParams& p = s.params<RopeParams>();
        p.rope_type = RopeType::LongRope;
        p.factor = 4.0;
        p.short_factor.assign(static_cast<std::size_t>(p.head_dim / 2), 1.0);
        p.long_factor.assign(static_cast<std::size_t>(p.head_dim / 2), 2.5);
        QVERIFY(model.setScenario(s, QStringLiteral("LongRoPE")));
        QLabel* label = factorLabel(panel);
        QVERIFY(label);
        const int n = p.head_dim / 2;
        QCOMPARE(label->text(),
                 QStringLiteral("short_factor: %1 values: 1, 1, 1, 1, …\nlong_factor: %1 values: "
                                "2.5, 2.5, 2.5, 2.5, …")
                     .arg(n));
        QVERIFY(label->toolTip().contains(QStringLiteral("one divisor per rotary pair")));

        // Another method hides it.
        QVERIFY(model.setMethod(AlibiParams::kMethod));
        QVERIFY(!factorLabel(panel));
    }

    // M-RoPE's sections are read only too, and show the sections in effect: the variant's split for the head
    // dimension while the list is empty (Qwen2-VL's 16, 24, 24 at d 128), the config's list once set.
    void mropeSectionsShowTheSplitInEffect()
    {
        ScenarioModel model;
        ParameterPanel panel(&model);
        panel.show();
        QVERIFY(model.setMethod(kMRoPE));
        QLabel* label = factorLabel(panel, QStringLiteral("mrope_section:"));
        QVERIFY(label);
        QCOMPARE(label->text(), QStringLiteral("mrope_section: 3 values: 16, 24, 24"));
        Scenario s = model.scenario();
        s.params<MropeParams>().variant = MropeVariant::Qwen3VL;
        QVERIFY(model.setScenario(s, QStringLiteral("Qwen3-VL")));
        QCOMPARE(label->text(), QStringLiteral("mrope_section: 3 values: 24, 20, 20"));
    }
};

QTEST_MAIN(ReadOnlyListsTest)
#include "test_read_only_lists.moc"
