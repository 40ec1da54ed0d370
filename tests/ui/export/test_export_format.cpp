// SPDX-License-Identifier: GPL-3.0-or-later
// File > Export: the Format combo follows the extension typed in the file name, key by key (no need to
// leave the field), for the figure formats and the data formats; an unknown extension keeps the format
// and gets the format's extension appended on save.
#include "export/export_dialog.h"
#include "gui_support.h"
#include "window/main_window.h"
#include "window/session_actions.h"

#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QLineEdit>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace posatlas;
using namespace posatlas::ui;
using namespace posatlas::test;

class ExportFormatTest : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    // Replaces the file name by typing it, as a user does: key clicks, no Return, focus stays.
    static void typeName(ExportDialog& dialog, const QString& name)
    {
        QLineEdit* edit = dialog.fileEdit();
        edit->selectAll();
        QTest::keyClick(edit, Qt::Key_Backspace);
        QTest::keyClicks(edit, name);
    }
    static QString format(const ExportDialog& dialog)
    {
        return dialog.formatCombo()->currentData().toString();
    }

private slots:
    void initTestCase() { QVERIFY(initGuiSuite(m_dir)); }

    void typedExtensionSwitchesTheFormat()
    {
        ExportDialog dialog(ViewKind::Curves, QString());
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        QCOMPARE(format(dialog), QStringLiteral("png"));
        const QList<std::pair<QString, QString>> cases{
            {QStringLiteral("fig.svg"), QStringLiteral("svg")},
            {QStringLiteral("fig.pdf"), QStringLiteral("pdf")},
            {QStringLiteral("data.csv"), QStringLiteral("csv")},
            {QStringLiteral("data.json"), QStringLiteral("json")},
            {QStringLiteral("FIG.PNG"), QStringLiteral("png")},
            {QStringLiteral("fig.v2.Svg"), QStringLiteral("svg")},
        };
        for (const auto& [name, want] : cases) {
            const QString path = m_dir.filePath(name);
            typeName(dialog, path);
            QCOMPARE(format(dialog), want);
            QCOMPARE(dialog.fileEdit()->text(), path); // the typed name is left as typed
            QCOMPARE(dialog.request().path, path);     // nothing appended: the extension is known
        }
        // Data formats have no pixel size or resolution; the figure formats get them back.
        typeName(dialog, m_dir.filePath(QStringLiteral("data.csv")));
        QVERIFY(!dialog.widthSpin()->isEnabled());
        QVERIFY(!dialog.dpiSpin()->isEnabled());
        typeName(dialog, m_dir.filePath(QStringLiteral("fig.png")));
        QVERIFY(dialog.widthSpin()->isEnabled());
        QVERIFY(dialog.dpiSpin()->isEnabled());
    }

    void unknownExtensionKeepsTheFormatAndGetsItsExtension()
    {
        ExportDialog dialog(ViewKind::Curves, QString());
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        typeName(dialog, m_dir.filePath(QStringLiteral("fig.pdf")));
        QCOMPARE(format(dialog), QStringLiteral("pdf"));
        typeName(dialog, m_dir.filePath(QStringLiteral("notes.txt")));
        QCOMPARE(format(dialog), QStringLiteral("pdf")); // kept
        QCOMPARE(dialog.request().path, m_dir.filePath(QStringLiteral("notes.txt.pdf")));
        // Export (accept) saves under the appended name.
        dialog.accept();
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        QCOMPARE(dialog.request().path, m_dir.filePath(QStringLiteral("notes.txt.pdf")));
        // Choosing a format in the combo replaces a known extension.
        ExportDialog other(ViewKind::Curves, QString());
        typeName(other, m_dir.filePath(QStringLiteral("data.json")));
        other.formatCombo()->setCurrentIndex(other.formatCombo()->findData(QStringLiteral("svg")));
        QCOMPARE(other.fileEdit()->text(), m_dir.filePath(QStringLiteral("data.svg")));
    }

    void dataFormatsWriteTheViewsNumbers()
    {
        const QString settings = m_dir.filePath(QStringLiteral("window.ini"));
        MainWindow w(settings);
        w.setComputeHiddenViews(true);
        w.resize(1280, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(waitIdle(w.jobs()));
        ExportDialog dialog(ViewKind::Curves, QString());
        typeName(dialog, m_dir.filePath(QStringLiteral("curves.csv")));
        const QStringList written = w.sessionActions()->exportFigures(dialog.request());
        QCOMPARE(written, QStringList{m_dir.filePath(QStringLiteral("curves.csv"))});
        QFile csv(written.front());
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QByteArray text = csv.readAll();
        QVERIFY2(!text.startsWith("\x89PNG") && text.contains(','), text.left(80).constData());
        typeName(dialog, m_dir.filePath(QStringLiteral("curves.json")));
        const QStringList json = w.sessionActions()->exportFigures(dialog.request());
        QFile j(json.front());
        QVERIFY(j.open(QIODevice::ReadOnly));
        QVERIFY(j.readAll().trimmed().startsWith('{'));
    }
};

QTEST_MAIN(ExportFormatTest)
#include "test_export_format.moc"
