// SPDX-License-Identifier: GPL-3.0-or-later
// Build-time tool: renders the application's SVG icon to a square PNG of the given size, for the
// hicolor icon theme's fixed-size directories (16x16 ... 512x512). Qt's own SVG renderer, so the
// build needs no extra package (no rsvg-convert or inkscape).
//
//   render_icon IN.svg OUT.png SIZE
#include <QGuiApplication>
#include <QImage>
#include <QPainter>
#include <QSvgRenderer>

#include <cstdio>

int main(int argc, char** argv)
{
    if (argc != 4) {
        std::fprintf(stderr, "usage: render_icon IN.svg OUT.png SIZE\n");
        return 2;
    }
    // No display at build time: the offscreen platform is enough to paint into a QImage.
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QGuiApplication app(argc, argv);
    const QString in = QString::fromLocal8Bit(argv[1]);
    const QString out = QString::fromLocal8Bit(argv[2]);
    bool ok = false;
    const int size = QString::fromLatin1(argv[3]).toInt(&ok);
    if (!ok || size < 1 || size > 4096) {
        std::fprintf(stderr, "render_icon: SIZE must be an integer in [1, 4096] (got %s)\n", argv[3]);
        return 2;
    }
    QSvgRenderer svg(in);
    if (!svg.isValid()) {
        std::fprintf(stderr, "render_icon: cannot read the SVG %s\n", qPrintable(in));
        return 1;
    }
    QImage image(size, size, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    {
        QPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing);
        svg.render(&painter, QRectF(0, 0, size, size));
    }
    if (!image.save(out, "PNG")) {
        std::fprintf(stderr, "render_icon: cannot write %s\n", qPrintable(out));
        return 1;
    }
    return 0;
}
