// SPDX-License-Identifier: GPL-3.0-or-later
// "What am I looking at?": every view × method × matrix kind is explained, in English and in
// Chinese (every paragraph translated); the text changes with the method and kind and names what
// matters (ALiBi's slope formula, RoPE's i − j, YaRN's beta_fast); the panel expands and collapses, its
// state survives a new window with the same settings file; the main window's text follows the method
// and the matrix kind.
#include "gui_support.h"
#include "methods/nope/nope.h"
#include "methods/registry.h"
#include "views/explanations.h"
#include "views/heatmap_view.h"
#include "widgets/explanation_panel.h"
#include "window/language.h"
#include "window/main_window.h"

#include <QApplication>
#include <QLabel>
#include <QRegularExpression>
#include <QScrollArea>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

using namespace posatlas;
using namespace posatlas::ui;
using namespace posatlas::test;

namespace {

bool hasCjk(const QString& s)
{
    for (QChar c : s)
        if (c.unicode() >= 0x3000 && c.unicode() <= 0x9FFF)
            return true;
    return false;
}

QStringList paragraphs(const QString& html)
{
    QStringList out;
    static const QRegularExpression p(QStringLiteral("<p>(.*?)</p>"));
    for (auto it = p.globalMatch(html); it.hasNext();)
        out << it.next().captured(1);
    return out;
}

Scenario scenarioFor(Method m)
{
    Scenario s;
    s.method = m;
    return s;
}

// Scenario variants that add notes: random content, a sentence, causal weights, each RoPE scaling.
std::vector<Scenario> variants(Method m)
{
    std::vector<Scenario> out{scenarioFor(m)};
    Scenario random = scenarioFor(m);
    random.content.kind = ContentKind::Random;
    out.push_back(random);
    Scenario zero = scenarioFor(m);
    zero.content.kind = ContentKind::Zero;
    out.push_back(zero);
    Scenario sentence = scenarioFor(m);
    sentence.content.text = "the cat sat on the mat";
    sentence.content.tokens = {"the", "cat", "sat", "on", "the", "mat"};
    sentence.seq_len = 6;
    sentence.causal = true;
    out.push_back(sentence);
    if (m == Method::RoPE)
        for (RopeType t : {RopeType::Linear, RopeType::Ntk, RopeType::Dynamic, RopeType::Yarn,
                           RopeType::Llama3, RopeType::LongRope}) {
            Scenario r = scenarioFor(m);
            r.params<RopeParams>().rope_type = t;
            r.params<RopeParams>().factor = 4.0;
            out.push_back(r);
        }
    return out;
}

} // namespace

class ExplanationsTest : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;

private slots:
    void initTestCase() { QVERIFY(initGuiSuite(m_dir, UserSettings::InFolder)); }
    void cleanup() { installLanguage(QStringLiteral("en")); }

    void everyViewMethodAndKindIsExplainedInBothLanguages_data()
    {
        QTest::addColumn<QString>("language");
        QTest::newRow("en") << QStringLiteral("en");
        QTest::newRow("zh_CN") << QStringLiteral("zh_CN");
    }
    void everyViewMethodAndKindIsExplainedInBothLanguages()
    {
        QFETCH(QString, language);
        QVERIFY(installLanguage(language));
        const bool zh = language == QStringLiteral("zh_CN");
        int checked = 0;
        for (const MethodDescriptor& d : methods()) {
            for (const Scenario& s : variants(d.method)) {
                for (ViewKind view : kAllViewKinds) {
                    std::vector<std::optional<MatrixKind>> kinds{std::nullopt};
                    if (view == ViewKind::Heatmap)
                        for (MatrixKind k : matrix_kinds_for(d.method))
                            kinds.emplace_back(k);
                    for (const auto& kind : kinds) {
                        const QString html = explanation(view, s, kind);
                        const QString where =
                            QStringLiteral("%1 view %2 kind %3")
                                .arg(QString::fromUtf8(d.method.id().data()))
                                .arg(static_cast<int>(view))
                                .arg(kind ? QString::fromUtf8(kind->id().data()) : QStringLiteral("auto"));
                        const QStringList ps = paragraphs(html);
                        QVERIFY2(!ps.isEmpty(), qPrintable(where));
                        for (const QString& p : ps) {
                            QVERIFY2(p.size() > 20, qPrintable(where + QStringLiteral(": ") + p));
                            // Chinese: no paragraph left untranslated; English: none in Chinese.
                            QVERIFY2(hasCjk(p) == zh, qPrintable(where + QStringLiteral(": ") + p));
                        }
                        ++checked;
                    }
                }
            }
        }
        QVERIFY(checked > 100);
    }

    void theTextSaysWhatMattersForTheMethodAndKind()
    {
        Scenario rope = scenarioFor(Method::RoPE);
        Scenario alibi = scenarioFor(Method::ALiBi);
        alibi.params<AlibiParams>().num_heads = 8;
        const QString ropeLogits = explanation(ViewKind::Heatmap, rope, MatrixKind::Logits);
        const QString alibiBias = explanation(ViewKind::Heatmap, alibi, MatrixKind::Bias);
        QVERIFY(ropeLogits != alibiBias);
        // RoPE with the same vector everywhere: the score depends on i − j only, constant diagonals.
        QVERIFY(ropeLogits.contains(QStringLiteral("i − j only")));
        QVERIFY(ropeLogits.contains(QStringLiteral("diagonal")));
        QVERIFY(!ropeLogits.contains(QStringLiteral("2^(−8h")));
        // ALiBi's reference slopes (Press et al. 2022, get_slopes): 2^(−8h/H) for H heads.
        QVERIFY(alibiBias.contains(QStringLiteral("m = 2^(−8h/8), h = 1 … 8")));
        QVERIFY(alibiBias.contains(QStringLiteral("−m·(i − j)")));
        // Colours as the heatmap picks them (diverging only when the values straddle 0): ALiBi's bias is ≤ 0
        // with 0 on the diagonal, so it is shown with the sequential map; RoPE's logits may straddle 0.
        QVERIFY(!alibiBias.contains(QStringLiteral("diverging")));
        QVERIFY(ropeLogits.contains(QStringLiteral("both sides of 0 the colours are diverging")));
        // The kind changes the text: weights are a softmax per row, logits are not.
        const QString ropeWeights = explanation(ViewKind::Heatmap, rope, MatrixKind::Weights);
        QVERIFY(ropeWeights.contains(QStringLiteral("softmax")));
        QVERIFY(!ropeLogits.contains(QStringLiteral("softmax")));
        // Random content: the diagonals are no longer constant.
        rope.content.kind = ContentKind::Random;
        QVERIFY(explanation(ViewKind::Heatmap, rope, MatrixKind::Logits)
                    .contains(QStringLiteral("no longer constant")));
        // NoPE with a sentence and no mask: swapping words swaps rows and columns.
        Scenario nope = scenarioFor(kNoPE);
        nope.causal = false;
        nope.content.text = "a b";
        nope.content.tokens = {"a", "b"};
        nope.seq_len = 2;
        QVERIFY(explanation(ViewKind::Heatmap, nope, MatrixKind::Weights)
                    .contains(QStringLiteral("swap two words")));
        // The spectrum with YaRN names its thresholds, and the last pair's wavelength 2π·θ^((d−2)/d):
        // θ = 10000, d = 128: 2π·10000^(126/128) = 54410, written to 3 significant digits.
        Scenario yarn = scenarioFor(Method::RoPE);
        yarn.params<RopeParams>().rope_type = RopeType::Yarn;
        yarn.params<RopeParams>().factor = 4.0;
        const QString spectrum = explanation(ViewKind::Spectrum, yarn);
        QVERIFY(spectrum.contains(QStringLiteral("beta_fast = 32")));
        QVERIFY(spectrum.contains(QStringLiteral("ratio 1/4")));
        QVERIFY2(spectrum.contains(QStringLiteral("the last pair once every 54400 ")), qPrintable(spectrum));
        QVERIFY(explanation(ViewKind::Spectrum, scenarioFor(Method::ALiBi))
                    .contains(QStringLiteral("RoPE only")));
    }

    void panelExpandsCollapsesAndRemembers()
    {
        const QString ini = m_dir.filePath(QStringLiteral("panel.ini"));
        {
            MainWindow window(ini);
            window.resize(1600, 1000);
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            ExplanationPanel* panel = window.explanationPanel(ViewKind::Heatmap);
            QVERIFY(panel);
            QVERIFY(!panel->isExpanded()); // collapsed by default
            QVERIFY(!panel->label()->isVisible());
            const int viewHeight = window.heatmapView()->height();
            QTest::mouseClick(panel->toggleButton(), Qt::LeftButton);
            QCoreApplication::processEvents();
            QVERIFY(panel->isExpanded());
            QVERIFY(panel->label()->isVisible());
            // Its text's height, capped: the view keeps most of the dock.
            auto* scroll = panel->findChild<QScrollArea*>();
            QVERIFY(scroll);
            QVERIFY(scroll->height() <= panel->fontMetrics().lineSpacing() * ExplanationPanel::kMaxLines);
            QVERIFY(scroll->height() >= panel->fontMetrics().lineSpacing() * 2);
            QVERIFY(window.heatmapView()->height() < viewHeight);
            QVERIFY(window.heatmapView()->height() > 300);
            QTest::mouseClick(panel->toggleButton(), Qt::LeftButton);
            QVERIFY(!panel->isExpanded());
            QVERIFY(!panel->label()->isVisible());
            QTest::mouseClick(panel->toggleButton(), Qt::LeftButton); // expanded when the window closes
            QVERIFY(!window.explanationPanel(ViewKind::Curves)->isExpanded());
            window.close();
        }
        MainWindow again(ini);
        QVERIFY(again.explanationPanel(ViewKind::Heatmap)->isExpanded());
        QVERIFY(!again.explanationPanel(ViewKind::Curves)->isExpanded());
    }

    void mainWindowTextFollowsMethodAndKind()
    {
        MainWindow window(m_dir.filePath(QStringLiteral("follow.ini")));
        QVERIFY(window.model()->setMethod(Method::RoPE));
        ExplanationPanel* heat = window.explanationPanel(ViewKind::Heatmap);
        QVERIFY(heat->text().contains(QStringLiteral("i − j only")));
        QVERIFY(window.explanationPanel(ViewKind::Spectrum)->text().contains(QStringLiteral("wavelength")));
        QVERIFY(window.model()->setMethod(Method::ALiBi));
        QVERIFY(heat->text().contains(QStringLiteral("2^(−8h/")));
        QVERIFY(window.explanationPanel(ViewKind::Spectrum)->text().contains(QStringLiteral("RoPE only")));
        QVERIFY(window.explanationPanel(ViewKind::Curves)->text().contains(QStringLiteral("exp(−m·r)")));
        ViewSettings v = window.viewSettings();
        v.matrix_kind = MatrixKind::Weights;
        window.setViewSettings(v, ViewKind::Heatmap);
        QVERIFY(heat->text().contains(QStringLiteral("softmax")));
        QVERIFY(!heat->text().contains(QStringLiteral("2^(−8h/")));
    }
};

QTEST_MAIN(ExplanationsTest)
#include "test_explanations.moc"
