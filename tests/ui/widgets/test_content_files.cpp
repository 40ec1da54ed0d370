// SPDX-License-Identifier: GPL-3.0-or-later
// The user's own queries and keys in the window (scenario/content_file.h), offscreen: the content
// combo box's From file… entry shows the files in effect, a seeded kind lets them go in one undo step,
// captions and notes say where the content comes from, and sessions resolve relative paths against their
// folder and name the key of a missing file. The .npy files are written byte by byte (numpy.lib.format 1.0).
#include "jobs/view_jobs.h"
#include "methods/registry.h"
#include "model/scenario_model.h"
#include "model/session.h"
#include "views/explanations.h"
#include "widgets/parameter_panel.h"

#include <QComboBox>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include <cstring>
#include <string>

using namespace posatlas;
using namespace posatlas::ui;

namespace {

// A 4 x 4 float64 .npy of value (p + c) / 4 at row p, column c.
void write_npy(const QString& path)
{
    std::string dict = "{'descr': '<f8', 'fortran_order': False, 'shape': (4, 4), }";
    while ((10 + dict.size() + 1) % 64 != 0)
        dict += ' ';
    dict += '\n';
    std::string bytes = std::string("\x93NUMPY\x01\x00", 8);
    bytes += static_cast<char>(dict.size() & 0xFF);
    bytes += static_cast<char>(dict.size() >> 8);
    bytes += dict;
    for (int p = 0; p < 4; ++p)
        for (int c = 0; c < 4; ++c) {
            const double v = (p + c) / 4.0;
            char raw[8];
            std::memcpy(raw, &v, 8); // little-endian hosts only, as the project's build targets
            bytes.append(raw, 8);
        }
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(bytes.data(), static_cast<qint64>(bytes.size()));
}

Scenario with_files(const QString& q, const QString& k)
{
    Scenario s;
    s.method = Method::RoPE;
    s.seq_len = 4;
    s.params<RopeParams>().head_dim = 4;
    s.content.queries.path = q.toStdString();
    s.content.keys.path = k.toStdString();
    return s;
}

} // namespace

class ContentFilesTest : public QObject
{
    Q_OBJECT

private slots:
    void comboShowsTheFilesAndASeededKindDropsThem()
    {
        QTemporaryDir dir;
        write_npy(dir.filePath("q.npy"));
        write_npy(dir.filePath("k.npy"));
        ScenarioModel model;
        QVERIFY(model.setScenario(with_files(dir.filePath("q.npy"), dir.filePath("k.npy")),
                                  QStringLiteral("files")));
        ParameterPanel panel(&model);
        panel.resize(320, 700);
        panel.show();
        auto* combo = qobject_cast<QComboBox*>(panel.editor(common_field("content")));
        QVERIFY(combo);
        const int seeded = static_cast<int>(common_field("content")->choices.size());
        QCOMPARE(combo->count(), seeded + 1);
        QCOMPARE(combo->currentIndex(), seeded); // From file…
        QVERIFY(combo->toolTip().contains(QStringLiteral("q.npy, k.npy")));
        QVERIFY(!panel.isRowVisible(common_field("content_seed"))); // no seed for the user's vectors

        const int undoBefore = model.undoStack()->count();
        emit combo->activated(0); // Ones
        QVERIFY(!model.scenario().content.from_files());
        QCOMPARE(model.scenario().content.kind, ContentKind::Ones);
        QCOMPARE(combo->currentIndex(), 0);
        QCOMPARE(model.undoStack()->count(), undoBefore + 1);
        model.undoStack()->undo();
        QVERIFY(model.scenario().content.from_files());
        QCOMPARE(combo->currentIndex(), seeded);
    }

    void captionAndNotesNameTheFiles()
    {
        QTemporaryDir dir;
        write_npy(dir.filePath("q.npy"));
        write_npy(dir.filePath("k.npy"));
        const Scenario s = with_files(dir.filePath("q.npy"), dir.filePath("k.npy"));
        QVERIFY(scenario_caption(s).contains(QStringLiteral("q.npy, k.npy")));
        const QString text = explanation(ViewKind::Heatmap, s, MatrixKind::Logits);
        QVERIFY2(text.contains(QStringLiteral("q.npy, k.npy")), qPrintable(text));
    }

    void sessionsResolveRelativePathsAndNameAMissingFile()
    {
        QTemporaryDir dir;
        write_npy(dir.filePath("q.npy"));
        write_npy(dir.filePath("k.npy"));
        Session saved;
        saved.scenario =
            with_files(QStringLiteral("q.npy"), QStringLiteral("k.npy")); // relative, as a user may write
        const QByteArray bytes = session_to_json(saved);
        const Session back = session_from_json(bytes, dir.path());
        QCOMPARE(QString::fromStdString(back.scenario.content.queries.path),
                 dir.filePath(QStringLiteral("q.npy")));
        QCOMPARE(QString::fromStdString(back.scenario.content.keys.path),
                 dir.filePath(QStringLiteral("k.npy")));

        QFile::remove(dir.filePath("k.npy"));
        try {
            session_from_json(bytes, dir.path());
            QFAIL("a session whose keys file is missing was accepted");
        } catch (const SessionError& e) {
            const QString what = QString::fromUtf8(e.what());
            QVERIFY2(what.contains(QStringLiteral("scenario.content.keys")), qPrintable(what));
            QVERIFY2(what.contains(QStringLiteral("k.npy")), qPrintable(what));
        }
    }
};

QTEST_MAIN(ContentFilesTest)
#include "test_content_files.moc"
