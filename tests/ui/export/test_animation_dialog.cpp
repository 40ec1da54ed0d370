// SPDX-License-Identifier: GPL-3.0-or-later
// File > Export Animation… (export/animation_dialog.h, animation_run.h, animation_preview.h): the fields
// come from the registry with their ranges and scales; a log sweep through 0 is refused inline, naming the
// parameter, with Export disabled; an export writes a file a decoder reads with the requested frames;
// cancel leaves no file and an existing file as it was; a newer export wins over a running one; the GUI
// thread keeps turning its event loop while an animation is exported; the preview plays the first frames.
#include "export/animation_dialog.h"
#include "export/animation_preview.h"
#include "methods/registry.h"
#include "scenario/params.h"

#include <QCheckBox>
#include <QComboBox>
#include <QElapsedTimer>
#include <QFile>
#include <QImageReader>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

using namespace posatlas;
using namespace posatlas::ui;

namespace {

// A RoPE spectrum, small: frames of 240 × 150 pixels.
AnimationRequest smallRequest(ViewKind view = ViewKind::Spectrum)
{
    AnimationRequest r;
    r.view = view;
    r.scenario.method = Method::RoPE;
    r.figure = default_animation_figure();
    r.figure.size = QSizeF(240, 150);
    r.figure.dpi = 96;
    r.fps = 10;
    r.format = AnimationFormat::Gif;
    return r;
}

int comboIndex(const QComboBox* combo, const char* key)
{
    return combo->findData(QString::fromLatin1(key));
}

// Sets the dialog to sweep `key` over `frames` frames (from / to as the registry's defaults give them).
void chooseSweep(AnimationDialog& d, const char* key, const QString& from, const QString& to, bool log,
                 int frames)
{
    d.fieldCombo()->setCurrentIndex(comboIndex(d.fieldCombo(), key));
    d.fromEdit()->setText(from);
    d.toEdit()->setText(to);
    d.logCheck()->setChecked(log);
    d.framesSpin()->setValue(frames);
}

} // namespace

class AnimationDialogTest : public QObject
{
    Q_OBJECT

private slots:
    void fieldsComeFromTheRegistry();
    void logSweepThroughZeroIsRefusedInline();
    void exportWritesTheRequestedFrames();
    void cancelLeavesNoFileAndTheOldOneIntact();
    void newerExportWins();
    void guiThreadIsNotBlocked();
    void previewPlaysTheFirstFrames();
};

void AnimationDialogTest::fieldsComeFromTheRegistry()
{
    AnimationDialog d(smallRequest());
    const Scenario& s = smallRequest().scenario;
    // Every numeric field of the method's registry entry that the panel shows is offered, with its range.
    int expected = 0;
    for (const Field& f : descriptor(Method::RoPE).fields) {
        const bool numeric =
            f.type == FieldType::Int || f.type == FieldType::Real || f.type == FieldType::OptionalReal;
        if (!numeric || !f.panel || (f.shown && !f.shown(s)))
            continue;
        ++expected;
        const auto it = std::find_if(d.fields().begin(), d.fields().end(),
                                     [&](const AnimationField& a) { return a.key == f.key; });
        QVERIFY2(it != d.fields().end(), f.key.c_str());
        QCOMPARE(it->lo, f.lo);
        QCOMPARE(it->hi, f.hi);
        QCOMPARE(it->log, f.log_scale);
        QVERIFY(comboIndex(d.fieldCombo(), f.key.c_str()) >= 0);
    }
    QVERIFY(expected >= 2);
    // The rotation's position m only in the rotation view.
    QCOMPARE(comboIndex(d.fieldCombo(), "query_position"), -1);
    AnimationDialog rotation(smallRequest(ViewKind::Rotation));
    QVERIFY(comboIndex(rotation.fieldCombo(), "query_position") >= 0);

    // The base θ moves by default, in log steps; a method without θ starts at its first numeric field.
    QCOMPARE(d.fieldCombo()->currentData().toString(), QStringLiteral("rope_theta"));
    QVERIFY(d.logCheck()->isChecked());
    AnimationRequest alibi = smallRequest(ViewKind::Heatmap);
    alibi.scenario.method = Method::ALiBi;
    AnimationDialog noTheta(alibi);
    QCOMPARE(comboIndex(noTheta.fieldCombo(), "rope_theta"), -1);
    QCOMPARE(noTheta.fieldCombo()->currentIndex(), 0);
    QCOMPARE(noTheta.fieldCombo()->currentData().toString(), QString::fromStdString(noTheta.fields()[0].key));

    // Choosing a field takes its registry range and scale as the sweep's defaults: θ is log, up to 1e12.
    const Field* theta = nullptr;
    for (const Field& f : descriptor(Method::RoPE).fields)
        if (f.key == "rope_theta")
            theta = &f;
    QVERIFY(theta);
    d.fieldCombo()->setCurrentIndex(comboIndex(d.fieldCombo(), "rope_theta"));
    QCOMPARE(d.logCheck()->isChecked(), theta->log_scale);
    QCOMPARE(d.toEdit()->text().toDouble(), theta->hi);
    QVERIFY(d.fromEdit()->text().toDouble() > 0.0); // log: the default start is above 0
}

void AnimationDialogTest::logSweepThroughZeroIsRefusedInline()
{
    QTemporaryDir dir;
    AnimationDialog d(smallRequest());
    const QString path = dir.filePath(QStringLiteral("refused.gif"));
    d.setPath(path);
    chooseSweep(d, "rope_theta", QStringLiteral("10000"), QStringLiteral("500000"), true, 3);
    QVERIFY2(d.message().isEmpty(), qPrintable(d.message()));
    QVERIFY(d.exportButton()->isEnabled());
    // Log steps through 0 have no geometric mean: refused, naming the parameter.
    d.fromEdit()->setText(QStringLiteral("0"));
    const QString message = d.message();
    QVERIFY2(message.contains(QStringLiteral("rope_theta")), qPrintable(message)); // the parameter
    QVERIFY2(message.contains(QStringLiteral("log")), qPrintable(message));        // why
    QVERIFY(d.messageLabel()->isVisible() || !d.isVisible());
    QVERIFY(!d.exportButton()->isEnabled());
    QVERIFY(!d.startExport());
    QVERIFY(!d.exporting());
    QVERIFY(!QFile::exists(path));
    // Fixed: the message goes, Export comes back.
    d.fromEdit()->setText(QStringLiteral("100"));
    QVERIFY2(d.message().isEmpty(), qPrintable(d.message()));
    QVERIFY(d.exportButton()->isEnabled());
    // Not a number: named too.
    d.toEdit()->setText(QStringLiteral("eight"));
    QVERIFY2(d.message().contains(QStringLiteral("eight")), qPrintable(d.message()));
    QVERIFY(!d.exportButton()->isEnabled());
}

void AnimationDialogTest::exportWritesTheRequestedFrames()
{
    QVERIFY(QImageReader::supportedImageFormats().contains("gif"));
    QTemporaryDir dir;
    AnimationDialog d(smallRequest());
    const QString path = dir.filePath(QStringLiteral("theta.gif"));
    d.setPath(path);
    chooseSweep(d, "rope_theta", QStringLiteral("100"), QStringLiteral("100000"), true, 4);
    QSignalSpy exported(&d, &AnimationDialog::exported);
    QSignalSpy failed(&d, &AnimationDialog::exportFailed);
    QVERIFY(d.startExport());
    QVERIFY(d.exporting());
    QVERIFY(!d.exportButton()->isEnabled());
    QTRY_VERIFY_WITH_TIMEOUT(!exported.isEmpty() || !failed.isEmpty(), 60000);
    QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.front().front().toString()));
    QCOMPARE(exported.front().front().toString(), path);
    QImageReader reader(path);
    QCOMPARE(reader.imageCount(), 4);
    int frames = 0;
    QImage first, last;
    for (QImage image; reader.read(&image); ++frames) {
        QCOMPARE(image.size(), QSize(240, 150));
        (frames == 0 ? first : last) = image;
    }
    QCOMPARE(frames, 4);
    QVERIFY(first != last); // the spectrum moves with θ
}

void AnimationDialogTest::cancelLeavesNoFileAndTheOldOneIntact()
{
    QTemporaryDir dir;
    for (const bool existing : {false, true}) {
        const QString path = dir.filePath(existing ? QStringLiteral("old.gif") : QStringLiteral("new.gif"));
        const QByteArray before("an older file");
        if (existing) {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(before);
        }
        AnimationDialog d(smallRequest());
        d.setPath(path);
        chooseSweep(d, "rope_theta", QStringLiteral("100"), QStringLiteral("100000"), true, 400);
        QSignalSpy cancelled(&d, &AnimationDialog::exportCancelled);
        QSignalSpy exported(&d, &AnimationDialog::exported);
        QVERIFY(d.startExport());
        QTRY_VERIFY_WITH_TIMEOUT(d.progressBar()->value() > 0, 60000); // under way
        d.reject(); // the dialog's Cancel while exporting: stops the export, the dialog stays
        QTRY_VERIFY_WITH_TIMEOUT(!cancelled.isEmpty(), 30000);
        QVERIFY(exported.isEmpty());
        QVERIFY(!d.exporting());
        QVERIFY(d.message().contains(QStringLiteral("no file")));
        if (existing) {
            QFile f(path);
            QVERIFY(f.open(QIODevice::ReadOnly));
            QCOMPARE(f.readAll(), before);
        } else {
            QVERIFY(!QFile::exists(path));
        }
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), existing ? 1 : 0);
        QFile::remove(path);
    }
}

void AnimationDialogTest::newerExportWins()
{
    QTemporaryDir dir;
    AnimationDialog d(smallRequest());
    chooseSweep(d, "rope_theta", QStringLiteral("100"), QStringLiteral("100000"), true, 300);
    const QString first = dir.filePath(QStringLiteral("first.gif"));
    const QString second = dir.filePath(QStringLiteral("second.gif"));
    QSignalSpy exported(&d, &AnimationDialog::exported);
    d.setPath(first);
    QVERIFY(d.startExport());
    d.framesSpin()->setValue(3);
    d.setPath(second);
    QVERIFY(d.startExport()); // replaces the running one
    QTRY_VERIFY_WITH_TIMEOUT(!exported.isEmpty(), 60000);
    QCOMPARE(exported.size(), 1);
    QCOMPARE(exported.front().front().toString(), second);
    QTest::qWait(200); // the first run's worker has noticed its cancel
    QVERIFY(!QFile::exists(first));
    QCOMPARE(QImageReader(second).imageCount(), 3);
}

void AnimationDialogTest::guiThreadIsNotBlocked()
{
    QTemporaryDir dir;
    AnimationDialog d(smallRequest(ViewKind::Heatmap));
    d.setPath(dir.filePath(QStringLiteral("heatmap.gif")));
    chooseSweep(d, "rope_theta", QStringLiteral("100"), QStringLiteral("100000"), true, 12);
    // A timer on the GUI thread: its ticks show how long the event loop was away.
    QElapsedTimer clock;
    qint64 last = 0, longestGap = 0;
    int ticks = 0;
    QTimer timer;
    timer.setInterval(5);
    connect(&timer, &QTimer::timeout, [&] {
        const qint64 now = clock.elapsed();
        longestGap = std::max(longestGap, now - last);
        last = now;
        ++ticks;
    });
    QSignalSpy exported(&d, &AnimationDialog::exported);
    clock.start();
    timer.start();
    QVERIFY(d.startExport()); // returns at once: the work is on a worker and in later passes
    QVERIFY(clock.elapsed() < 1000);
    QTRY_VERIFY_WITH_TIMEOUT(!exported.isEmpty(), 60000);
    timer.stop();
    // Twelve frames were painted one per pass, the timer ran between them. The bound is far above a
    // small frame's paint (a few ms) and far below what exporting on the GUI thread takes (the whole
    // sweep twice: the fixed scale, then every frame).
    QVERIFY2(ticks >= 12, qPrintable(QString::number(ticks)));
    QVERIFY2(longestGap < 1500, qPrintable(QString::number(longestGap)));
}

void AnimationDialogTest::previewPlaysTheFirstFrames()
{
    AnimationDialog d(smallRequest());
    chooseSweep(d, "rope_theta", QStringLiteral("100"), QStringLiteral("100000"), true, 60);
    AnimationPreview* preview = d.preview();
    QSignalSpy ready(preview, &AnimationPreview::ready);
    QTRY_VERIFY_WITH_TIMEOUT(!ready.isEmpty(), 60000); // debounced, then computed
    QCOMPARE(preview->frameCount(), AnimationPreview::kDefaultFrames);
    QVERIFY(!preview->pixmap().isNull());
    const int shown = preview->shownFrame();
    QTRY_VERIFY_WITH_TIMEOUT(preview->shownFrame() != shown, 5000); // it plays
    // A refused setting replaces the preview with the message.
    d.logCheck()->setChecked(true);
    d.fromEdit()->setText(QStringLiteral("0"));
    QVERIFY(preview->text().contains(QStringLiteral("rope_theta")));
    QCOMPARE(preview->frameCount(), 0);
}

QTEST_MAIN(AnimationDialogTest)
#include "test_animation_dialog.moc"
