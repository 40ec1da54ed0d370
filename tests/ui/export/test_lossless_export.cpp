// SPDX-License-Identifier: GPL-3.0-or-later
// Vector exports keep a heatmap's colours exactly: the image embedded in a PDF (decoded with poppler's
// pdfimages) and in an SVG (a base64 PNG) holds only colours of the colour map's 256-entry table. PDF
// used to embed JPEG (thousands of blended colours for a 256-colour map). Runs the real `posatlas
// export`, as a user would. QtTest, QT_QPA_PLATFORM=offscreen.
#include "views/colormap.h"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

using namespace posatlas::ui;

namespace {

// Runs a program; fails the test with its stderr when it does not exit 0.
bool runOk(const QString& program, const QStringList& args)
{
    QProcess p;
    p.start(program, args);
    if (!p.waitForFinished(120000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
        qWarning("%s %s: %s", qPrintable(program), qPrintable(args.join(QLatin1Char(' '))),
                 p.readAllStandardError().constData());
        return false;
    }
    return true;
}

QSet<QRgb> colours(const QImage& image)
{
    QSet<QRgb> set;
    const QImage rgb = image.convertToFormat(QImage::Format_RGB32);
    for (int y = 0; y < rgb.height(); ++y) {
        const auto* line = reinterpret_cast<const QRgb*>(rgb.constScanLine(y));
        for (int x = 0; x < rgb.width(); ++x)
            set.insert(line[x] | 0xff000000u);
    }
    return set;
}

// The embedded raster images of an exported file.
QList<QImage> embeddedImages(const QString& path, const QString& scratch)
{
    QList<QImage> images;
    if (path.endsWith(QLatin1String(".pdf"))) {
        if (!runOk(QStringLiteral("pdfimages"),
                   {QStringLiteral("-png"), path, scratch + QStringLiteral("/img")}))
            return images;
        for (const QString& name :
             QDir(scratch).entryList({QStringLiteral("img*.png")}, QDir::Files, QDir::Name))
            images << QImage(scratch + QLatin1Char('/') + name);
    } else {
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly))
            return images;
        static const QRegularExpression png(QStringLiteral("data:image/png;base64,([A-Za-z0-9+/=\\s]+)"));
        auto it = png.globalMatch(QString::fromUtf8(f.readAll()));
        while (it.hasNext())
            images << QImage::fromData(QByteArray::fromBase64(it.next().captured(1).toLatin1()), "PNG");
    }
    return images;
}

} // namespace

class LosslessExportTest : public QObject
{
    Q_OBJECT

private slots:
    void heatmapKeepsColourMapColours_data()
    {
        QTest::addColumn<QString>("extension");
        QTest::addColumn<QString>("colormap");
        QTest::addColumn<int>("table");
        for (const char* ext : {"pdf", "svg"}) {
            const QString e = QString::fromLatin1(ext);
            QTest::addRow("%s-viridis", ext) << e << QStringLiteral("viridis") << int(Colormap::Viridis);
            QTest::addRow("%s-magma", ext) << e << QStringLiteral("magma") << int(Colormap::Magma);
            QTest::addRow("%s-diverging", ext)
                << e << QStringLiteral("diverging") << int(Colormap::Diverging);
        }
    }

    void heatmapKeepsColourMapColours()
    {
        QFETCH(QString, extension);
        QFETCH(QString, colormap);
        QFETCH(int, table);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString out = dir.filePath(QStringLiteral("heatmap.") + extension);
        QVERIFY(runOk(QStringLiteral(POSATLAS_EXE),
                      {QStringLiteral("export"), QStringLiteral("--view"), QStringLiteral("heatmap"),
                       QStringLiteral("--method"), QStringLiteral("rope"), QStringLiteral("--seq-len"),
                       QStringLiteral("64"), QStringLiteral("--colormap"), colormap, QStringLiteral("--out"),
                       out}));

        const QVector<QRgb> entries = colormap_table(static_cast<Colormap>(table));
        QCOMPARE(entries.size(), kColormapSize);
        QSet<QRgb> allowed;
        for (QRgb c : entries)
            allowed.insert(c | 0xff000000u);

        const QList<QImage> images = embeddedImages(out, dir.path());
        // The 64 x 64 heatmap and the colour bar's 1 x 256 strip.
        QCOMPARE(images.size(), 2);
        for (const QImage& image : images) {
            QVERIFY(!image.isNull());
            const QSet<QRgb> used = colours(image);
            QVERIFY2(used.size() >= 16, qPrintable(QStringLiteral("only %1 colours").arg(used.size())));
            QSet<QRgb> foreign = used;
            foreign.subtract(allowed);
            QVERIFY2(foreign.isEmpty(),
                     qPrintable(QStringLiteral("%1 x %2 image: %3 of %4 colours are not in the "
                                               "%5 table, e.g. #%6")
                                    .arg(image.width())
                                    .arg(image.height())
                                    .arg(foreign.size())
                                    .arg(used.size())
                                    .arg(colormap)
                                    .arg(foreign.isEmpty() ? 0u : *foreign.begin() & 0xffffffu, 6, 16,
                                         QLatin1Char('0'))));
        }
    }
};

QTEST_MAIN(LosslessExportTest)
#include "test_lossless_export.moc"
