// SPDX-License-Identifier: GPL-3.0-or-later
// One per-pair table, three ways out, the same bytes: `posatlas compute rope-pairs --format csv`, the
// spectrum view's data export (File > Export, CSV: export_numbers) and the context-extension explorer's
// table export. All three go through core's one CSV writer and number policy (io/number_text.h,
// io/rope_pairs_columns.h), so for the same model, trained and target length:
//   - every line of the explorer's CSV for the model's own variant is "<variant label>," followed by
//     the command's line;
//   - every line of the spectrum export is the command's line cut after the spectrum's columns (pair ..
//     ratio, and the YaRN ramp).
// Presets: yarn-llama-2-7b-64k (YaRN, ramp column, blended ratios of full precision) and llama-3.1-8b
// (Llama 3 scaling, no ramp).
#include "explorer/explorer_jobs.h"
#include "explorer/explorer_model.h"
#include "explorer/explorer_table.h"
#include "export/figure_export.h"
#include "io/presets.h"
#include "jobs/view_jobs.h"

#include <QApplication>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace posatlas;
using namespace posatlas::ui;

Q_DECLARE_METATYPE(posatlas::ui::VariantKind)

class ExportCsvTest : public QObject
{
    Q_OBJECT

    static QByteArray runCli(const QStringList& args)
    {
        QProcess p;
        p.start(QStringLiteral(POSATLAS_EXE), args);
        if (!p.waitForFinished(180000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
            qWarning() << p.readAllStandardError();
            return {};
        }
        return p.readAllStandardOutput();
    }

    static QList<QByteArray> lines(const QByteArray& csv)
    {
        QList<QByteArray> l = csv.split('\n');
        if (!l.isEmpty() && l.back().isEmpty())
            l.removeLast(); // the text ends in a line break
        return l;
    }

private slots:
    void explorerSpectrumAndCommandLineWriteTheSameBytes_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<VariantKind>("own");
        QTest::newRow("yarn") << QStringLiteral("yarn-llama-2-7b-64k") << VariantKind::Yarn;
        QTest::newRow("llama3") << QStringLiteral("llama-3.1-8b") << VariantKind::Llama3;
    }

    void explorerSpectrumAndCommandLineWriteTheSameBytes()
    {
        QFETCH(QString, preset);
        QFETCH(VariantKind, own);
        const Scenario s = load_preset(preset.toStdString()).scenario;
        const RopeParams& p = s.params<RopeParams>();

        // The explorer: the model's own variant and PI beside it (PI has no ramp: empty cells when the
        // model's has one).
        ExplorerModel model;
        model.setModel(p, preset);
        const std::int64_t target = model.targetLength();
        model.setVariants({make_variant(own, p, p.factor, target),
                           make_variant(VariantKind::Linear, p, model.targetFactor(), target)});
        const ExplorerTables tables = compute_explorer_tables(explorer_input(model));
        QCOMPARE(tables.variants.size(), std::size_t{2});
        QVERIFY(tables.variants[0].error.isEmpty());
        ExplorerTableModel table;
        table.setTables(tables);
        const QList<QByteArray> explorer = lines(table.csv());

        // The command line, at the explorer's trained and target lengths.
        const QByteArray cli =
            runCli({QStringLiteral("compute"), QStringLiteral("rope-pairs"), QStringLiteral("--preset"),
                    preset, QStringLiteral("--trained-length"), QString::number(tables.trained),
                    QStringLiteral("--target-length"), QString::number(tables.target),
                    QStringLiteral("--format"), QStringLiteral("csv")});
        const QList<QByteArray> command = lines(cli);
        QCOMPARE(command.size(), qsizetype(p.head_dim / 2 + 1)); // header and one line per pair

        // Explorer: a header with the series column, then the two variants' rows in order.
        QCOMPARE(explorer.size(), 1 + 2 * (command.size() - 1));
        QCOMPARE(explorer[0], QByteArray("series,") + command[0]);
        const QByteArray label = tables.variants[0].variant.label.toUtf8();
        QVERIFY(label.endsWith("(model)"));
        for (qsizetype i = 1; i < command.size(); ++i)
            QCOMPARE(explorer[i], label + ',' + command[i]);

        // The spectrum view's data export, as the export dialog writes it.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("spectrum.csv"));
        export_numbers(spectrum_job(s, ViewSettings{}), path);
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QList<QByteArray> spectrum = lines(f.readAll());
        QCOMPARE(spectrum.size(), command.size());
        const int fields = static_cast<int>(spectrum[0].count(',')) + 1;
        QCOMPARE(fields, own == VariantKind::Yarn ? 7 : 6);
        for (qsizetype i = 0; i < command.size(); ++i)
            QCOMPARE(spectrum[i], command[i].split(',').mid(0, fields).join(','));
    }
};

QTEST_MAIN(ExportCsvTest)
#include "test_export_csv.moc"
