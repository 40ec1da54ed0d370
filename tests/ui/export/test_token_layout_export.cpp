// SPDX-License-Identifier: GPL-3.0-or-later
// M-RoPE's token layout as a figure of the product (export/token_layout_export.h): the dock writes its
// figure (PNG of the asked size, SVG, PDF) and its numbers (CSV: one row per token with the ids of core's
// MropePositions::at, the reference being Hugging Face transformers' Qwen2VLModel.get_rope_index as core's
// own tests check it; JSON: also each pair's axis, core's mrope_pair_axes), `posatlas export --view
// token-layout` writes the same bytes and refuses what it cannot draw with exit 2 naming the option,
// and sessions keep whether the dock is shown (older sessions, without the key, still load).
#include "export/export_dialog.h"
#include "export/token_layout_export.h"
#include "jobs/job_tracker.h"
#include "methods/mrope/mrope.h"
#include "model/scenario_model.h"
#include "model/session.h"
#include "views/token_layout_view.h"
#include "window/main_window.h"
#include "window/session_actions.h"
#include "window/token_layout_controller.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDockWidget>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMainWindow>
#include <QProcess>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

using namespace posatlas;
using namespace posatlas::ui;

namespace {

Scenario mrope_scenario(MropeVariant variant = MropeVariant::Qwen2VL)
{
    Scenario s;
    s.method = MropeParams::kMethod;
    s.params<MropeParams>().layout = "text:5,image:1x4x6,text:3";
    s.params<MropeParams>().variant = variant;
    return s;
}

QByteArray slurp(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

int colours(const QImage& image)
{
    QSet<QRgb> seen;
    for (int y = 0; y < image.height(); y += 3)
        for (int x = 0; x < image.width(); x += 3)
            seen.insert(image.pixel(x, y));
    return static_cast<int>(seen.size());
}

// Runs the command-line binary headless; its exit code (-1: did not run) and its standard error.
int run_cli(const QStringList& args, QByteArray* err = nullptr)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.insert(QStringLiteral("LANG"), QStringLiteral("C.UTF-8"));
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(POSATLAS_EXE), args);
    if (!p.waitForFinished(180000))
        return -1;
    if (err)
        *err = p.readAllStandardError();
    return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
}

} // namespace

class TokenLayoutExportTest : public QObject
{
    Q_OBJECT

private slots:
    void dockWritesFigureAndNumbers();
    void exportDialogOffersTheOneFigure();
    void commandLineWritesTheSameNumbersAndSize();
    void commandLineRefusesWithTheOption();
    void sessionKeepsTheDockShown();
};

void TokenLayoutExportTest::dockWritesFigureAndNumbers()
{
    QMainWindow window;
    auto* model = new ScenarioModel(&window);
    auto* jobs = new JobTracker(&window);
    auto* view = new TokenLayoutView;
    auto* dock = new QDockWidget(QStringLiteral("Token layout"), &window);
    dock->setWidget(view);
    window.addDockWidget(Qt::BottomDockWidgetArea, dock);
    TokenLayoutController controller(model, jobs, view, dock);
    // The view offers both exports on its context menu.
    QCOMPARE(view->contextMenuPolicy(), Qt::ActionsContextMenu);
    QCOMPARE(view->actions().size(), 2);
    const Scenario s = mrope_scenario();
    QVERIFY(model->setScenario(s, QStringLiteral("M-RoPE")));

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    FigureExportOptions options;
    options.size = QSizeF(960, 540);
    options.dpi = 192; // 2x: 1920 x 1080 pixels
    const QString png = dir.filePath(QStringLiteral("layout.png"));
    controller.exportTo(png, options);
    const QImage image(png);
    QCOMPARE(image.size(), QSize(1920, 1080));
    QVERIFY(colours(image) > 8); // cells, ids in three colours, the pairs' strip: not a blank frame
    for (const char* ext : {"svg", "pdf"}) {
        const QString path = dir.filePath(QStringLiteral("layout.") + QLatin1String(ext));
        controller.exportTo(path, options);
        QVERIFY2(slurp(path).size() > 1000, ext);
    }
    QVERIFY(slurp(dir.filePath(QStringLiteral("layout.svg"))).contains("M-RoPE"));

    // CSV: a header, then one row per token with core's ids and kind.
    const QString csv = dir.filePath(QStringLiteral("layout.csv"));
    controller.exportTo(csv, options);
    QList<QByteArray> lines = slurp(csv).trimmed().split('\n');
    QCOMPARE(lines.front().trimmed(), QByteArray("position,token_kind,t_id,h_id,w_id"));
    lines.removeFirst();
    const MropePositions core(s.params<MropeParams>());
    QCOMPARE(static_cast<std::int64_t>(lines.size()), core.layout_tokens()); // 5 + 2 x 3 + 3 = 14
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const MropePosition p = core.at(i);
        const QByteArray expected =
            QByteArray::number(i) + ',' + QByteArray(mrope_token_kind_id(p.kind).data()) + ',' +
            QByteArray::number(p.t) + ',' + QByteArray::number(p.h) + ',' + QByteArray::number(p.w);
        QCOMPARE(lines[i].trimmed(), expected);
    }

    // JSON: the same ids, and each pair's axis as core gives it.
    const QString json = dir.filePath(QStringLiteral("layout.json"));
    controller.exportTo(json, options);
    const QJsonObject o = QJsonDocument::fromJson(slurp(json)).object();
    QCOMPARE(o.value(QStringLiteral("w_id")).toArray().size(), lines.size());
    const std::vector<int> axes = mrope_pair_axes(s.params<MropeParams>());
    const QJsonArray pair_axis = o.value(QStringLiteral("pair_axis")).toArray();
    QCOMPARE(static_cast<std::size_t>(pair_axis.size()), axes.size());
    const char* letters[] = {"t", "h", "w"};
    for (std::size_t i = 0; i < axes.size(); ++i)
        QCOMPARE(pair_axis[static_cast<qsizetype>(i)].toString(), QString::fromLatin1(letters[axes[i]]));
    QCOMPARE(o.value(QStringLiteral("interleaved")).toBool(), false);

    // A folder that does not exist: ExportError with the reason, no file left behind.
    const QString bad = dir.filePath(QStringLiteral("missing/layout.png"));
    QVERIFY_THROWS_EXCEPTION(ExportError, controller.exportTo(bad, options));
    QVERIFY(!QFile::exists(bad));
}

// The dock's export dialog: no view boxes, the figure named instead, a file named after it; its request
// has no views and passes the dialog's check.
void TokenLayoutExportTest::exportDialogOffersTheOneFigure()
{
    ExportDialog dialog(ViewKind::Heatmap, QStringLiteral("M-RoPE"));
    dialog.setSingleFigure(QStringLiteral("Token layout"), QStringLiteral("posatlas-token-layout"));
    QVERIFY(dialog.isSingleFigure());
    for (ViewKind k : kAllViewKinds)
        QVERIFY(dialog.viewCheck(k)->isHidden());
    QVERIFY(dialog.request().views.isEmpty());
    QVERIFY(dialog.request().path.endsWith(QStringLiteral("posatlas-token-layout.png")));
    dialog.formatCombo()->setCurrentIndex(dialog.formatCombo()->findData(QStringLiteral("csv")));
    QVERIFY(dialog.request().path.endsWith(QStringLiteral("posatlas-token-layout.csv")));
}

void TokenLayoutExportTest::commandLineWritesTheSameNumbersAndSize()
{
    QTemporaryDir dir;
    const Scenario s = mrope_scenario(MropeVariant::Qwen3VL);
    const QStringList scenario{QStringLiteral("--method"),       QStringLiteral("mrope"),
                               QStringLiteral("--variant"),      QStringLiteral("qwen3-vl"),
                               QStringLiteral("--token-layout"), QStringLiteral("text:5,image:1x4x6,text:3")};
    const QString png = dir.filePath(QStringLiteral("cli.png"));
    QByteArray err;
    QCOMPARE(
        run_cli(
            QStringList{QStringLiteral("export"), QStringLiteral("--view"), QStringLiteral("token-layout")} +
                scenario +
                QStringList{QStringLiteral("--width"), QStringLiteral("960"), QStringLiteral("--height"),
                            QStringLiteral("540"), QStringLiteral("--out"), png},
            &err),
        0);
    QCOMPARE(QImage(png).size(), QSize(1920, 1080));
    const QString csv = dir.filePath(QStringLiteral("cli.csv"));
    QCOMPARE(run_cli(QStringList{QStringLiteral("export"), QStringLiteral("--view"),
                                 QStringLiteral("token-layout")} +
                         scenario + QStringList{QStringLiteral("--out"), csv},
                     &err),
             0);
    QCOMPARE(slurp(csv), token_layout_csv(s, TokenLayoutFigure(s).data()));
}

void TokenLayoutExportTest::commandLineRefusesWithTheOption()
{
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("x.png"));
    const QStringList base{QStringLiteral("export"), QStringLiteral("--view"), QStringLiteral("token-layout"),
                           QStringLiteral("--out"), out};
    struct Case {
        QStringList args;
        QByteArray says;
    };
    const std::vector<Case> cases{
        {{QStringLiteral("--method"), QStringLiteral("rope")}, "--method mrope"},
        {{QStringLiteral("--method"), QStringLiteral("mrope"), QStringLiteral("--token-layout"),
          QStringLiteral("text:5,image:1x5x6")},
         "--token-layout"},
        {{QStringLiteral("--method"), QStringLiteral("mrope"), QStringLiteral("--animate"),
          QStringLiteral("rope_theta=1000:10000")},
         "--animate"},
    };
    for (const Case& c : cases) {
        QByteArray err;
        QCOMPARE(run_cli(base + c.args, &err), 2);
        QVERIFY2(err.contains(c.says), err.constData());
        QVERIFY(!QFile::exists(out));
    }
}

void TokenLayoutExportTest::sessionKeepsTheDockShown()
{
    // The file: written when recorded, read back; absent in older sessions, which still load.
    Session s;
    s.scenario = mrope_scenario();
    s.token_layout = false;
    QCOMPARE(session_from_json(session_to_json(s)).token_layout, std::optional<bool>(false));
    s.token_layout.reset();
    const QByteArray older = session_to_json(s);
    QVERIFY(!QJsonDocument::fromJson(older)
                 .object()
                 .value(QStringLiteral("views"))
                 .toObject()
                 .contains(QStringLiteral("token_layout")));
    QCOMPARE(session_from_json(older).token_layout, std::optional<bool>());
    QByteArray wrong = older;
    wrong.replace("\"views\": {", "\"views\": {\"token_layout\": 3,");
    QVERIFY_THROWS_EXCEPTION(SessionError, session_from_json(wrong));

    // The window: hidden by hand for M-RoPE, it stays hidden when the session opens again.
    MainWindow w;
    w.resize(1280, 720);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    SessionActions* sessions = w.sessionActions();
    QVERIFY(sessions->applySession(Session{.scenario = mrope_scenario()}, QStringLiteral("mrope")));
    QVERIFY(w.tokenLayoutDock()->isVisible()); // follows the method when the session does not say
    w.tokenLayoutDock()->hide();
    const Session saved = session_from_json(session_to_json(sessions->currentSession()));
    QCOMPARE(saved.token_layout, std::optional<bool>(false));
    QVERIFY(sessions->applySession(Session{}, QStringLiteral("default")));
    QVERIFY(sessions->applySession(saved, QStringLiteral("saved")));
    QVERIFY(w.tokenLayoutDock()->isHidden());
    Session shown = saved;
    shown.token_layout = true;
    QVERIFY(sessions->applySession(shown, QStringLiteral("shown")));
    QVERIFY(w.tokenLayoutDock()->isVisible());
}

QTEST_MAIN(TokenLayoutExportTest)
#include "test_token_layout_export.moc"
