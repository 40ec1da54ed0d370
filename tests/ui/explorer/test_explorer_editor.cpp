// SPDX-License-Identifier: GPL-3.0-or-later
// The explorer's variant editors are built from the method registry's RoPE fields (core/methods/
// rope/rope_method.cpp) by the parameter panel's builder (widgets/field_slider.h): each editor's range,
// scale and decimals are its field's, and a typed value outside the range is clamped to the limit with
// a status note naming the parameter and the limit, as the parameter panel does.
#include "explorer/explorer_panel.h"
#include "explorer/explorer_window.h"
#include "methods/registry.h"
#include "widgets/log_slider.h"

#include <QDoubleSpinBox>
#include <QSignalSpy>
#include <QTest>

#include <map>
#include <vector>

using namespace posatlas;
using namespace posatlas::ui;

class ExplorerEditorTest : public QObject
{
    Q_OBJECT
private slots:
    void editorsTakeTheirFieldsRanges()
    {
        ExplorerWindow w;
        QVERIFY(w.loadPreset(QStringLiteral("llama-3.1-8b")));
        // The default set: Llama 3 (model), PI, YaRN, dynamic NTK; every parameter its kind reads.
        const std::map<VariantKind, std::vector<const char*>> keys{
            {VariantKind::Llama3,
             {"factor", "original_max_position_embeddings", "low_freq_factor", "high_freq_factor"}},
            {VariantKind::Linear, {"factor", "original_max_position_embeddings"}},
            {VariantKind::Yarn,
             {"factor", "original_max_position_embeddings", "beta_fast", "beta_slow", "mscale",
              "mscale_all_dim"}},
            {VariantKind::Dynamic, {"factor", "max_position_embeddings"}}};
        int checked = 0;
        for (int i = 0; i < w.panel()->editors().size(); ++i) {
            VariantEditor* editor = w.panel()->editors().at(i);
            const VariantKind kind = w.model()->variants()[static_cast<std::size_t>(i)].kind;
            QVERIFY(keys.count(kind));
            for (const char* key : keys.at(kind)) {
                const Field* field = descriptor(Method::RoPE).field(key);
                QVERIFY(field);
                LogSlider* slider = editor->fieldSlider(key);
                QVERIFY2(slider, key);
                QCOMPARE(slider->range().min, field->lo);
                QCOMPARE(slider->range().max, field->hi);
                QCOMPARE(slider->range().log_scale, field->log_scale);
                QCOMPARE(slider->spinBox()->minimum(), field->lo);
                QCOMPARE(slider->spinBox()->maximum(), field->hi);
                if (field->type == FieldType::Real || field->type == FieldType::OptionalReal)
                    QCOMPARE(slider->spinBox()->decimals(), field->decimals);
                ++checked;
            }
        }
        QCOMPARE(checked, 4 + 2 + 6 + 2);
    }

    void outOfRangeValueIsClampedWithANote()
    {
        ExplorerWindow w;
        QVERIFY(w.loadPreset(QStringLiteral("llama-3.1-8b")));
        VariantEditor* editor = w.panel()->editors().at(1); // PI (linear)
        QCOMPARE(w.model()->variants()[1].kind, VariantKind::Linear);
        QSignalSpy notes(w.panel(), &ExplorerPanel::errorMessage);
        // A factor above the field's maximum 1e6, typed and committed with Enter.
        QDoubleSpinBox* box = editor->factorBox();
        box->setFocus();
        box->selectAll();
        QTest::keyClicks(box, QStringLiteral("5000000"));
        QTest::keyClick(box, Qt::Key_Return);
        QTRY_COMPARE(notes.size(), 1);
        const QString note = notes.front().front().toString();
        // The parameter's label and the limit it was set to.
        QVERIFY2(note.contains(QStringLiteral("Scaling factor s")), qPrintable(note));
        QVERIFY2(note.contains(QStringLiteral("1000000")), qPrintable(note));
        QCOMPARE(w.model()->variants()[1].params.factor, 1e6);
    }
};

QTEST_MAIN(ExplorerEditorTest)
#include "test_explorer_editor.moc"
