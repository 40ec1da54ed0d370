// SPDX-License-Identifier: GPL-3.0-or-later
// ALiBi's per-head slope sliders under QT_QPA_PLATFORM=offscreen: the parameter panel's
// rows, one undoable edit per slider move, the reset buttons, the row cap for many heads, and every
// view answering a changed slope. References: the paper's slopes 2^(-8h/n) (Press et al. 2022,
// ofirpress/attention_with_linear_biases get_slopes; exact in binary for n = 8), the bias -m |i - j|
// (HF transformers build_alibi_tensor), the curves' weight factor exp(-m r) (core
// methods/alibi/alibi_curves.cpp). Heads: counted from 0 everywhere, as the figures name their slopes (m₀ is
// the first head's): the panel's "Head 2: m₂" is the heatmap's panel m₂, the curves' head_2 and --head 2 (the
// paper's h = 3). Under a length scaling the slider keeps the slope the user chose and its label says the
// slope the figures use.
#include "jobs/view_jobs.h"
#include "methods/alibi/alibi.h"
#include "model/scenario_model.h"
#include "model/session.h"
#include "widgets/list_sliders.h"
#include "widgets/log_slider.h"
#include "widgets/parameter_panel.h"
#include "window/language.h"

#include <QDoubleSpinBox>
#include <QLabel>
#include <QPushButton>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QSlider>
#include <QTest>
#include <QToolButton>
#include <QUndoStack>

#include <cmath>

using namespace posatlas;
using namespace posatlas::ui;

namespace {

ParamId slopesId()
{
    return param(Method::ALiBi, "slopes");
}

double paper(int h, int n)
{
    return std::exp2(-8.0 * h / n);
} // h = 1..n

// The name label of head k's row (the one whose buddy is the slider's spin box).
QLabel* label(ListSliders* list, int k)
{
    for (QLabel* l : list->findChildren<QLabel*>())
        if (l->buddy() == list->slider(k)->spinBox())
            return l;
    qFatal("no label for head %d", k);
}

} // namespace

class ListSlidersTest : public QObject
{
    Q_OBJECT

private slots:
    void oneRowPerHeadWithThePapersSlopes()
    {
        ScenarioModel model;
        QVERIFY(model.setMethod(Method::ALiBi));
        ParameterPanel panel(&model);
        panel.show();
        ListSliders* list = panel.listSliders(slopesId());
        QVERIFY(list);
        QVERIFY(list->isVisible());
        QCOMPARE(list->rowCount(), 8);
        for (int k = 0; k < 8; ++k) {
            QCOMPARE(list->slider(k)->value(), paper(k + 1, 8));
            // Named like the figures' slopes, from 0, and the tooltip says so.
            const QString name = QStringLiteral("m") + QString(QChar(0x2080 + k));
            QVERIFY2(label(list, k)->text().contains(name), qPrintable(label(list, k)->text()));
            QVERIFY(label(list, k)->text().contains(QStringLiteral("Head %1").arg(k)));
            QVERIFY(list->slider(k)->slider()->toolTip().contains(QStringLiteral("counted from 0")));
            QVERIFY(!list->resetButton(k)->isEnabled()); // nothing to reset yet
            QVERIFY(list->resetButton(k)->toolTip().contains(QString::number(paper(k + 1, 8), 'g', 6)));
        }
        QVERIFY(!list->resetAllButton()->isEnabled());
        QVERIFY(!list->moreNote()->isVisible());
        // The header folds the rows away and back.
        QTest::mouseClick(list->header(), Qt::LeftButton);
        QVERIFY(!list->slider(0)->isVisible());
        QTest::mouseClick(list->header(), Qt::LeftButton);
        QVERIFY(list->slider(0)->isVisible());
    }

    void headLabelsFollowThePanelsFont()
    {
        // A chosen slope's label is bold, the others plain; all follow the panel's size as it changes
        // (presentation mode's text size) and back. Synced while the font was large, a label used to
        // keep that size.
        ScenarioModel model;
        QVERIFY(model.setMethod(Method::ALiBi));
        ParameterPanel panel(&model);
        panel.show();
        const ListSliders* list = panel.listSliders(slopesId());
        QVERIFY(list);
        const auto headLabel = [&](int k) {
            for (QLabel* label : list->findChildren<QLabel*>())
                if (label->buddy() == list->slider(k)->spinBox())
                    return label;
            return static_cast<QLabel*>(nullptr);
        };
        QVERIFY(headLabel(0) && headLabel(1));
        const double normal = panel.font().pointSizeF();
        QFont large = panel.font();
        large.setPointSizeF(2 * normal);
        panel.setFont(large);
        QVERIFY(model.setListElement(slopesId(), 1, 0.3)); // synced at the large size
        QVERIFY(headLabel(1)->font().bold());
        QVERIFY(!headLabel(0)->font().bold());
        QCOMPARE(headLabel(1)->font().pointSizeF(), 2 * normal);
        panel.setFont(QFont());
        for (int k : {0, 1})
            QCOMPARE(headLabel(k)->font().pointSizeF(), normal);
        QVERIFY(headLabel(1)->font().bold());
    }

    void movingHeadThreeChangesItsSlopeOnlyAndResetAndUndoRestore()
    {
        ScenarioModel model;
        QVERIFY(model.setMethod(Method::ALiBi));
        model.undoStack()->clear();
        ParameterPanel panel(&model);
        panel.show();
        ListSliders* list = panel.listSliders(slopesId());
        LogSlider* head3 = list->slider(2);
        QSlider* s = head3->slider();
        // A drag towards smaller slopes (head 3 looks further): one undo entry.
        s->setSliderDown(true);
        for (int k = 1; k <= 30; ++k)
            s->setValue(s->value() - 5);
        s->setSliderDown(false);
        QCOMPARE(model.undoStack()->count(), 1);
        const std::vector<double>& slopes = model.scenario().params<AlibiParams>().slopes;
        QCOMPARE(slopes.size(), std::size_t{3}); // heads 1, 2 keep the paper's as the prefix
        QCOMPARE(slopes[0], paper(1, 8));
        QCOMPARE(slopes[1], paper(2, 8));
        QVERIFY(slopes[2] < paper(3, 8));
        QCOMPARE(head3->value(), slopes[2]);
        QVERIFY(list->resetButton(2)->isEnabled());
        QVERIFY(!list->resetButton(1)->isEnabled());
        QVERIFY(list->resetAllButton()->isEnabled());
        const double dragged = slopes[2];
        // Every head's slope in effect: only head 3 differs from the paper.
        const std::vector<double> m = alibi_scaled_slopes(model.scenario().params<AlibiParams>());
        for (int k = 0; k < 8; ++k)
            if (k != 2)
                QCOMPARE(m[static_cast<std::size_t>(k)], paper(k + 1, 8));

        // Reset: the paper's value, the list back to empty (the shortest form), one more undo step.
        QTest::mouseClick(list->resetButton(2), Qt::LeftButton);
        QVERIFY(model.scenario().params<AlibiParams>().slopes.empty());
        QCOMPARE(head3->value(), paper(3, 8));
        QVERIFY(!list->resetButton(2)->isEnabled());
        QCOMPARE(model.undoStack()->count(), 2);

        model.undoStack()->undo();
        QCOMPARE(model.scenario().params<AlibiParams>().slopes[2], dragged);
        QCOMPARE(head3->value(), dragged); // the panel follows the model
        model.undoStack()->undo();
        QVERIFY(model.scenario().params<AlibiParams>().slopes.empty());
        QCOMPARE(head3->value(), paper(3, 8));
    }

    void keyboardStepsAHeadsSlope()
    {
        ScenarioModel model;
        QVERIFY(model.setMethod(Method::ALiBi));
        ParameterPanel panel(&model);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QSlider* s = panel.listSliders(slopesId())->slider(0)->slider();
        s->setFocus();
        QTest::keyClick(s, Qt::Key_PageUp);
        QCOMPARE(model.scenario().params<AlibiParams>().slopes.size(), std::size_t{1});
        QVERIFY(model.scenario().params<AlibiParams>().slopes[0] > paper(1, 8));
        // The spin box takes a typed value: head 2 set to 0.03 exactly.
        QDoubleSpinBox* spin = panel.listSliders(slopesId())->slider(1)->spinBox();
        spin->setFocus();
        spin->selectAll();
        QTest::keyClicks(spin, QStringLiteral("0.03"));
        QTest::keyClick(spin, Qt::Key_Return);
        QCOMPARE(model.scenario().params<AlibiParams>().slopes.size(), std::size_t{2});
        QCOMPARE(model.scenario().params<AlibiParams>().slopes[1], 0.03);
        // Reset all: the paper's slopes, one undo step.
        const int before = model.undoStack()->count();
        QTest::mouseClick(panel.listSliders(slopesId())->resetAllButton(), Qt::LeftButton);
        QVERIFY(model.scenario().params<AlibiParams>().slopes.empty());
        QCOMPARE(model.undoStack()->count(), before + 1);
    }

    void rowsFollowTheHeadCountAndStopAtTheCap()
    {
        ScenarioModel model;
        QVERIFY(model.setMethod(Method::ALiBi));
        ParameterPanel panel(&model);
        panel.show();
        ListSliders* list = panel.listSliders(slopesId());
        QVERIFY(model.setListElement(slopesId(), 3, 0.2));
        QVERIFY(model.setValue(param(Method::ALiBi, "num_heads"), 2));
        QCOMPARE(list->rowCount(), 2);
        // Head 4's slope went with the head; heads 1..3 only held the paper's 8-head slopes as a prefix,
        // so the paper's 2-head slopes replace them and nothing is left to store.
        QVERIFY(model.scenario().params<AlibiParams>().slopes.empty());
        QCOMPARE(list->slider(1)->value(), paper(2, 2));
        QVERIFY(model.setValue(param(Method::ALiBi, "num_heads"), 64));
        QCOMPARE(list->rowCount(), ListSliders::kMaxRows);
        QVERIFY(list->moreNote()->isVisible());
        QVERIFY2(list->moreNote()->text().contains(QStringLiteral("16 to 63")),
                 qPrintable(list->moreNote()->text()));
        QCOMPARE(list->slider(15)->value(), paper(16, 64));
        // The largest count: still 16 rows.
        QVERIFY(model.setValue(param(Method::ALiBi, "num_heads"), 1024));
        QCOMPARE(list->rowCount(), ListSliders::kMaxRows);
    }

    // NTK-ALiBi (and interpolation, and the slope scale) change the slopes after the sliders: each row
    // says the slope the figures use, which is the slope the heatmap's panel caption shows, in both
    // languages.
    void scaledSlopesAreShownBesideTheSliders_data()
    {
        QTest::addColumn<QString>("language");
        QTest::newRow("en") << QStringLiteral("en");
        QTest::newRow("zh_CN") << QStringLiteral("zh_CN");
    }
    void scaledSlopesAreShownBesideTheSliders()
    {
        QFETCH(QString, language);
        QVERIFY(installLanguage(language));
        const auto english = qScopeGuard([] { installLanguage(QStringLiteral("en")); });
        ScenarioModel model;
        QVERIFY(model.setMethod(Method::ALiBi));
        ParameterPanel panel(&model);
        panel.resize(340, 1200);
        panel.show();
        ListSliders* list = panel.listSliders(slopesId());
        QVERIFY(!label(list, 1)->text().contains(QStringLiteral("→"))); // unscaled: nothing to say
        QVERIFY(model.setValue(param(Method::ALiBi, "scaling"), 2));    // NTK-ALiBi
        QVERIFY(model.setValue(param(Method::ALiBi, "target_length"), 8192));
        const AlibiParams& p = model.scenario().params<AlibiParams>();
        QVERIFY(p.scaling == AlibiScaling::Ntk);
        QVERIFY(p.target_length > p.trained_length);
        const std::vector<double> used = alibi_scaled_slopes(p);
        for (int k = 1; k < 4; ++k) {
            const QString text = label(list, k)->text();
            QVERIFY2(text.contains(QStringLiteral("→")) &&
                         text.contains(QString::number(used[static_cast<std::size_t>(k)], 'g', 3)),
                     qPrintable(text));
            QVERIFY2(text.contains(QStringLiteral("NTK-ALiBi")), qPrintable(text));
            QCOMPARE(list->slider(k)->value(), paper(k + 1, 8)); // the slider keeps the chosen slope
        }
        // The heatmap's small multiples caption the same scaled slope.
        ViewSettings v;
        v.matrix_kind = MatrixKind::Bias;
        Scenario small = model.scenario();
        small.seq_len = 16;
        const HeatmapData heat = heatmap_job(small, v);
        QVERIFY2(heat.panels[1].label.contains(QString::number(used[1], 'g', 3)),
                 qPrintable(heat.panels[1].label));
        QVERIFY2(heat.panels[1].label.startsWith(QStringLiteral("m₁=")), qPrintable(heat.panels[1].label));
        // Back to no scaling: the plain name again.
        QVERIFY(model.setValue(param(Method::ALiBi, "scaling"), 0));
        QVERIFY(!label(list, 1)->text().contains(QStringLiteral("→")));
    }

    // Small-multiple captions of many heads give the slope as a decimal (a power of two such as 2⁻¹·⁵
    // needs a superscript period that Unicode lacks: its middle dot read as a bullet).
    void manyHeadsCaptionDecimalSlopes()
    {
        Scenario s;
        s.method = Method::ALiBi;
        s.seq_len = 16;
        s.params<AlibiParams>().num_heads = 12;
        ViewSettings v;
        v.matrix_kind = MatrixKind::Bias;
        const HeatmapData heat = heatmap_job(s, v);
        QVERIFY(heat.panels.size() > 9);
        for (const HeatmapPanel& p : heat.panels) {
            QVERIFY2(!p.label.contains(QChar(0x00B7)) && !p.label.contains(QChar(0x207B)),
                     qPrintable(p.label));
            QVERIFY2(p.label.contains(QStringLiteral("=0.")), qPrintable(p.label));
        }
    }

    void outOfRangeIsRejectedAndLeavesTheScenario()
    {
        ScenarioModel model;
        QVERIFY(model.setMethod(Method::ALiBi));
        QSignalSpy rejected(&model, &ScenarioModel::parameterRejected);
        const Scenario before = model.scenario();
        QVERIFY(!model.setListElement(slopesId(), 2, 20.0));
        QVERIFY(!model.setListElement(slopesId(), 2, std::nan("")));
        QCOMPARE(rejected.count(), 2);
        QVERIFY(rejected.front().front().toString().contains(QStringLiteral("slopes")));
        QVERIFY(rejected.front().front().toString().contains(QStringLiteral("16")));
        QVERIFY(model.scenario() == before);
    }

    void everyViewAnswersAChangedSlope()
    {
        Scenario s;
        s.method = Method::ALiBi;
        s.seq_len = 16;
        s.params<AlibiParams>().bias = AlibiBias::Symmetric;
        s.params<AlibiParams>().slopes = {paper(1, 8), paper(2, 8), 0.0123};
        // Heatmap, one small panel per head: head index 2 is -0.0123 |i - j|, the others the paper's.
        ViewSettings v;
        v.matrix_kind = MatrixKind::Bias;
        const HeatmapData heat = heatmap_job(s, v);
        QCOMPARE(heat.panels.size(), qsizetype{8});
        for (int h = 0; h < 8; ++h) {
            const double m = h == 2 ? 0.0123 : paper(h + 1, 8);
            const Eigen::MatrixXd& values = heat.panels[h].matrix.values;
            for (Eigen::Index i = 0; i < values.rows(); ++i)
                for (Eigen::Index j = 0; j < values.cols(); ++j) {
                    const double want = -m * std::abs(static_cast<double>(i - j));
                    QVERIFY(std::abs(values(i, j) - want) <= 1e-15 * std::abs(want));
                }
        }
        QVERIFY2(heat.title.contains(QStringLiteral("m₂=0.0123")), qPrintable(heat.title));
        // Curves: head_2's weight factor exp(-m r) with the chosen slope.
        ViewSettings c;
        c.max_distance = 64;
        c.log_x = false;
        const CurveData curves = curve_job(s, c);
        bool found = false;
        for (const CurveSeries& series : curves.series)
            if (series.id == QStringLiteral("head_2")) {
                found = true;
                for (std::size_t k = 0; k < series.x.size(); ++k)
                    QVERIFY(std::abs(series.y[k] - std::exp(-0.0123 * series.x[k])) <= 1e-15);
            } else if (series.id == QStringLiteral("head_3")) {
                for (std::size_t k = 0; k < series.x.size(); ++k)
                    QVERIFY(std::abs(series.y[k] - std::exp(-paper(4, 8) * series.x[k])) <= 1e-15);
            }
        QVERIFY(found);
        // A session keeps them.
        Session session;
        session.scenario = s;
        const Session back = session_from_json(session_to_json(session));
        QVERIFY(back.scenario == s);
    }
};

QTEST_MAIN(ListSlidersTest)
#include "test_list_sliders.moc"
