// SPDX-License-Identifier: GPL-3.0-or-later
// Methods side by side: the comparison's heatmap panels are the single-method heatmaps,
// its curves one series per method, its colour scales shared or per panel, the list saved in sessions
// and refused when invalid, and the one-click View action.
#include "gui_support.h"
#include "jobs/view_jobs.h"
#include "model/scenario_model.h"
#include "model/session.h"
#include "views/curve_view.h"
#include "views/heatmap_view.h"
#include "window/main_window.h"
#include "window/session_actions.h"

#include <QAction>
#include <QApplication>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <set>

using namespace posatlas;
using namespace posatlas::ui;
using namespace posatlas::test;

namespace {

// A sequence short enough that every panel shows every cell (no downsampling at the view's pixels).
Scenario shortScenario()
{
    Scenario s;
    s.seq_len = 48;
    return s;
}

std::vector<Method> classic()
{
    return {Method::Sinusoidal, Method::RoPE, Method::ALiBi};
}

} // namespace

class CompareTest : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

private slots:
    void initTestCase() { QVERIFY(initGuiSuite(m_dir)); }

    // Each panel holds exactly (==, no tolerance: the same core call on the same inputs) the matrix of
    // that method's own heatmap, with its own parameters, on the common sequence.
    void panelsEqualTheSingleMethodHeatmaps()
    {
        Scenario s = shortScenario();
        s.params<RopeParams>().rope_theta = 500.0; // a parameter of a compared method that is not current
        s.method = Method::T5;
        ViewSettings v;
        v.compare = classic();
        const HeatmapData data = heatmap_job(s, v);
        QCOMPARE(data.panels.size(), 3);
        QVERIFY(data.title.startsWith(QStringLiteral("Sinusoidal, RoPE, ALiBi · logits")));
        for (std::size_t k = 0; k < v.compare.size(); ++k) {
            Scenario one = s;
            one.method = v.compare[k];
            one.head = 0;
            ViewSettings single;
            single.small_multiples = false;
            single.matrix_kind = MatrixKind::Logits; // sinusoidal's first kind is its encoding
            const HeatmapData alone = heatmap_job(one, single);
            const MatrixResult& got = data.panels[static_cast<qsizetype>(k)].matrix;
            const MatrixResult& want = alone.panels.front().matrix;
            QCOMPARE(got.value_name, std::string("logits")); // all three offer logits: the same kind
            QCOMPARE(static_cast<std::int64_t>(got.values.rows()), s.seq_len); // every cell, not downsampled
            QCOMPARE(static_cast<std::int64_t>(got.values.cols()), s.seq_len);
            QCOMPARE(got.values.rows(), want.values.rows());
            QCOMPARE(got.values.cols(), want.values.cols());
            // Exact equality cell by cell; a masked cell (NaN: above the causal diagonal) equals NaN.
            for (Eigen::Index r = 0; r < got.values.rows(); ++r)
                for (Eigen::Index c = 0; c < got.values.cols(); ++c) {
                    const double a = got.values(r, c), b = want.values(r, c);
                    QVERIFY2(a == b || (std::isnan(a) && std::isnan(b)),
                             qPrintable(QStringLiteral("%1 cell (%2, %3): %4 vs %5")
                                            .arg(methodShortName(v.compare[k]))
                                            .arg(r)
                                            .arg(c)
                                            .arg(a)
                                            .arg(b)));
                }
            QVERIFY(data.panels[static_cast<qsizetype>(k)].label.startsWith(methodShortName(v.compare[k])));
        }
        // The RoPE panel used the scenario's RoPE θ: it differs from RoPE's default θ.
        Scenario defaults = shortScenario();
        ViewSettings single;
        single.matrix_kind = MatrixKind::Logits;
        const HeatmapData ropeDefault = heatmap_job(defaults, single);
        QVERIFY(!(data.panels[1].matrix.values == ropeDefault.panels.front().matrix.values));
        // A job given an invalid list (a hand-built setting) refuses it by name.
        ViewSettings bad;
        bad.compare = {Method::RoPE};
        QVERIFY_THROWS_EXCEPTION(ParameterError, heatmap_job(s, bad));
        QVERIFY_THROWS_EXCEPTION(ParameterError, curve_job(s, bad));
    }

    // A kind one method lacks: every method shows its own first kind, and the caption says so.
    void mixedKindsUseEachMethodsDefault()
    {
        const std::vector<Method> list{Method::Sinusoidal, Method::T5};
        ViewSettings v;
        v.matrix_kind = MatrixKind::Encoding; // T5 has no encoding
        const std::vector<MatrixKind> kinds = compared_matrix_kinds(list, v);
        QCOMPARE(kinds.size(), std::size_t{2});
        QCOMPARE(kinds[0], MatrixKind::Logits); // both offer logits: the common fallback
        QCOMPARE(kinds[1], MatrixKind::Logits);
        v.matrix_kind = MatrixKind::Weights;
        QCOMPARE(compared_matrix_kinds(list, v)[0], MatrixKind::Weights);
    }

    void curvesHaveOneSeriesPerMethod()
    {
        const Scenario s = shortScenario();
        ViewSettings v;
        v.compare = {Method::Sinusoidal, Method::RoPE, Method::ALiBi, Method::T5};
        const CurveData data = curve_job(s, v);
        QCOMPARE(data.series.size(), 4);
        QSet<QString> names;
        for (qsizetype k = 0; k < data.series.size(); ++k) {
            QCOMPARE(data.series[k].name, methodShortName(v.compare[static_cast<std::size_t>(k)]));
            QVERIFY(!data.series[k].x.empty());
            QVERIFY(!data.series[k].dashed);
            names.insert(data.series[k].name);
        }
        QCOMPARE(names.size(), 4); // the legend names each method once
        QVERIFY(data.title.startsWith(QStringLiteral("Sinusoidal, RoPE, ALiBi, T5 · ")));
        // The exact logit at distance 5 (value_at) is the method's own: sinusoidal and RoPE differ.
        QVERIFY(data.series[0].value_at(5.0) != data.series[1].value_at(5.0));
    }

    // One colour range shared by all panels, or one per panel.
    void sharedOrPerPanelScales()
    {
        const Scenario s = shortScenario();
        ViewSettings v;
        v.compare = classic();
        for (bool perPanel : {false, true}) {
            v.per_panel_scales = perPanel;
            HeatmapView view;
            view.setData(heatmap_job(s, v));
            std::set<std::pair<double, double>> ranges;
            for (int k = 0; k < 3; ++k)
                ranges.insert({view.panelRange(k).lo, view.panelRange(k).hi});
            QCOMPARE(ranges.size(), perPanel ? std::size_t{3} : std::size_t{1});
        }
    }

    void sessionRoundTripAndOldSessions()
    {
        Session s;
        s.scenario = shortScenario();
        s.settings.compare = classic();
        const Session back = session_from_json(session_to_json(s));
        QVERIFY(back.settings.compare == classic());
        // A session saved before the comparison existed has no "compare" key: no comparison.
        QByteArray old = session_to_json(Session{});
        old.replace("\"compare\":[],", "");
        old.replace("\"compare\": [],", "");
        QVERIFY(!old.contains("compare"));
        QVERIFY(session_from_json(old).settings.compare.empty());
    }

    void invalidSessionListsAreRefused_data()
    {
        QTest::addColumn<QByteArray>("list");
        QTest::addColumn<QString>("needle");
        QTest::newRow("unknown") << QByteArray(R"(["rope","nonsense"])") << QStringLiteral("nonsense");
        QTest::newRow("one") << QByteArray(R"(["rope"])") << QStringLiteral("got 1");
        QTest::newRow("five") << QByteArray(R"(["rope","alibi","t5","sinusoidal","cope"])")
                              << QStringLiteral("got 5");
        QTest::newRow("duplicate") << QByteArray(R"(["rope","alibi","rope"])") << QStringLiteral("twice");
        QTest::newRow("not an array") << QByteArray(R"("rope,alibi")") << QStringLiteral("array");
    }
    void invalidSessionListsAreRefused()
    {
        QFETCH(QByteArray, list);
        QFETCH(QString, needle);
        Session s;
        s.settings.compare = {Method::RoPE, Method::ALiBi};
        QByteArray bytes = session_to_json(s);
        const QByteArray good = bytes.contains("\"compare\": [") ? "\"compare\": [" : "\"compare\":[";
        const qsizetype at = bytes.indexOf(good);
        QVERIFY(at >= 0);
        const qsizetype end = bytes.indexOf(']', at);
        bytes.replace(at, end + 1 - at, QByteArray("\"compare\": ") + list);
        try {
            session_from_json(bytes);
            QFAIL("accepted");
        } catch (const SessionError& e) {
            const QString message = QString::fromUtf8(e.what());
            QVERIFY2(message.contains(QStringLiteral("views.settings.compare")), qPrintable(message));
            QVERIFY2(message.contains(needle), qPrintable(message));
            QVERIFY2(message.contains(QStringLiteral("sinusoidal")), qPrintable(message)); // the allowed ids
        }
    }

    // The window: invalid lists leave the settings as they were; the one-click action compares the
    // three classic encodings; Stop Comparing ends it; the title says what is compared.
    void windowActions()
    {
        auto w = showMainWindow(m_dir, QStringLiteral("window"));
        const ViewSettings before = w->viewSettings();
        QVERIFY(before.compare.empty());
        for (const std::vector<Method>& bad :
             {std::vector<Method>{Method::RoPE}, std::vector<Method>{Method::RoPE, Method::RoPE},
              std::vector<Method>{Method::RoPE, Method::ALiBi, Method::T5, Method::Sinusoidal,
                                  Method::CoPE}}) {
            QString error;
            QVERIFY(!w->setComparedMethods(bad, std::nullopt, &error));
            QVERIFY2(error.contains(QStringLiteral("sinusoidal")), qPrintable(error));
            QVERIFY(w->viewSettings().compare.empty());
            QCOMPARE(w->viewSettings().per_panel_scales, before.per_panel_scales);
        }

        auto* classicAction = w->findChild<QAction*>(QStringLiteral("compareClassicAction"));
        auto* stop = w->findChild<QAction*>(QStringLiteral("stopComparingAction"));
        QVERIFY(classicAction && stop);
        QVERIFY(!stop->isEnabled());
        classicAction->trigger();
        QVERIFY(w->viewSettings().compare == classic());
        QVERIFY(stop->isEnabled());
        QVERIFY(w->windowTitle().startsWith(QStringLiteral("Comparing: Sinusoidal, RoPE, ALiBi")));
        QVERIFY(waitIdle(w->jobs()));
        QCOMPARE(w->heatmapView()->data().panels.size(), 3);
        QCOMPARE(w->curveView()->data().series.size(), 3);

        // A refused list now leaves the running comparison intact.
        QVERIFY(!w->setComparedMethods({Method::ALiBi}, false));
        QVERIFY(w->viewSettings().compare == classic());

        // Saved with the session and restored into a fresh window.
        const QString file = m_dir.filePath(QStringLiteral("compare.posatlas.json"));
        QVERIFY(w->sessionActions()->saveSession(file));
        QVERIFY(load_session(file).settings.compare == classic());

        stop->trigger();
        QVERIFY(w->viewSettings().compare.empty());
        QVERIFY(!w->windowTitle().contains(QStringLiteral("Comparing")));
        QVERIFY(waitIdle(w->jobs()));
        QCOMPARE(w->curveView()->data().series.size() >= 1, true);
        QVERIFY(!w->heatmapView()->data().title.contains(QStringLiteral("ALiBi")));

        QVERIFY(w->openFile(file));
        QVERIFY(w->viewSettings().compare == classic());
    }

    // `posatlas export --compare`: the same list, the same validation.
    void commandLine()
    {
        const auto run = [](const QStringList& args, QByteArray* err) {
            QProcess p;
            QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
            env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
            p.setProcessEnvironment(env);
            p.start(QStringLiteral(POSATLAS_EXE), args);
            if (!p.waitForFinished(180000))
                return -1;
            *err = p.readAllStandardError();
            return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
        };
        QByteArray err;
        const QString json = m_dir.filePath(QStringLiteral("compare.json"));
        QCOMPARE(run({QStringLiteral("export"), QStringLiteral("--view"), QStringLiteral("heatmap"),
                      QStringLiteral("--seq-len"), QStringLiteral("32"), QStringLiteral("--compare"),
                      QStringLiteral("sinusoidal,rope,alibi"), QStringLiteral("--out"), json,
                      QStringLiteral("--quiet")},
                     &err),
                 0);
        QFile f(json);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray bytes = f.readAll();
        QVERIFY2(bytes.contains("Sinusoidal, RoPE, ALiBi"), bytes.left(400).constData()); // the title
        for (const QString& bad :
             {QStringLiteral("rope"), QStringLiteral("rope,rope"), QStringLiteral("rope,foo")}) {
            QCOMPARE(run({QStringLiteral("export"), QStringLiteral("--view"), QStringLiteral("heatmap"),
                          QStringLiteral("--compare"), bad, QStringLiteral("--out"),
                          m_dir.filePath(QStringLiteral("bad.png"))},
                         &err),
                     2);
            QVERIFY2(err.contains("--compare") && err.contains("sinusoidal"), err.constData());
        }
    }
};

QTEST_MAIN(CompareTest)
#include "test_compare.moc"
