// SPDX-License-Identifier: GPL-3.0-or-later
// Walks the method registry: every method x every view that applies x every matrix kind it offers is
// computed and rendered off screen. A new method is covered here without an edit: the list is the
// registry's. Checks: the numbers are finite where they exist, and the picture is not empty (many
// distinct colours in the plot, not only the background and the text).
#include "methods/registry.h"
#include "model/scenario_model.h"
#include "views/view_render.h"

#include <QApplication>
#include <QPainter>
#include <QSet>
#include <QTest>

#include <cmath>

using namespace posatlas;
using namespace posatlas::ui;

namespace {

int distinct_colours(const QImage& image)
{
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 2)
        for (int x = 0; x < image.width(); x += 2)
            colours.insert(image.pixel(x, y));
    return static_cast<int>(colours.size());
}

QImage render(const OffscreenFigure& f)
{
    QImage image(QSize(900, 560), QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    QPainter painter(&image);
    f.figure().renderFigure(painter, QRectF(0, 0, 900, 560), {});
    return image;
}

Scenario scenario_for(const MethodDescriptor& d)
{
    Scenario s;
    s.method = d.method;
    s.seq_len = 96;
    // Random content: the logits of every method vary (NoPE's with constant content are one number).
    s.content.kind = ContentKind::Random;
    s.content.seed = 7;
    return s;
}

} // namespace

class RegistryViewsTest : public QObject
{
    Q_OBJECT
private slots:
    void everyMethodEveryKind_data()
    {
        QTest::addColumn<QString>("method");
        QTest::addColumn<QString>("kind");
        for (const MethodDescriptor& d : methods())
            for (const MatrixKindSpec& k : d.kinds) {
                const QByteArray name =
                    QByteArray(d.method.id().data(), static_cast<int>(d.method.id().size())) + "/" +
                    QByteArray(k.kind.id().data(), static_cast<int>(k.kind.id().size()));
                QTest::newRow(name.constData())
                    << QString::fromLatin1(d.method.id().data(), d.method.id().size())
                    << QString::fromLatin1(k.kind.id().data(), k.kind.id().size());
            }
    }
    void everyMethodEveryKind()
    {
        QFETCH(QString, method);
        QFETCH(QString, kind);
        const MethodDescriptor& d = descriptor(*parse_method(method.toStdString()));
        const Scenario s = scenario_for(d);
        ViewSettings v;
        v.matrix_kind = *parse_matrix_kind(kind.toStdString());
        const OffscreenFigure f(ViewKind::Heatmap, s, v);
        const auto& data = std::get<HeatmapData>(f.data());
        QVERIFY(!data.panels.isEmpty());
        for (const HeatmapPanel& p : data.panels) {
            int finite = 0;
            for (Eigen::Index i = 0; i < p.matrix.values.size(); ++i) {
                const double x = p.matrix.values.data()[i];
                QVERIFY2(std::isfinite(x) || std::isnan(x), "an infinite cell");
                finite += std::isfinite(x) ? 1 : 0;
            }
            QVERIFY2(finite > p.matrix.values.size() / 3, "fewer than a third of the cells have a value");
            QVERIFY2(p.matrix.max > p.matrix.min, "a constant matrix");
        }
        QVERIFY(data.title.contains(kindLabel(v.matrix_kind.value())));
        QVERIFY2(distinct_colours(render(f)) > 40, "an empty-looking heatmap");
    }

    void everyMethodHasCurvesAndRotaryViews_data()
    {
        QTest::addColumn<QString>("method");
        for (const MethodDescriptor& d : methods())
            QTest::newRow(std::string(d.method.id()).c_str())
                << QString::fromLatin1(d.method.id().data(), d.method.id().size());
    }
    void everyMethodHasCurvesAndRotaryViews()
    {
        QFETCH(QString, method);
        const MethodDescriptor& d = descriptor(*parse_method(method.toStdString()));
        const Scenario s = scenario_for(d);
        const OffscreenFigure curves(ViewKind::Curves, s, ViewSettings{});
        const auto& c = std::get<CurveData>(curves.data());
        QVERIFY(!c.series.empty());
        int finite = 0;
        for (const auto& series : c.series)
            for (double y : series.y)
                finite += std::isfinite(y) ? 1 : 0;
        QVERIFY2(finite > 8, "a curve without values");
        QVERIFY2(distinct_colours(render(curves)) > 8, "an empty-looking curve chart");
        // The rotation and spectrum views are about RoPE's frequencies; for other methods they say
        // so instead of drawing (they must not throw).
        for (ViewKind k : {ViewKind::Rotation, ViewKind::Spectrum}) {
            const OffscreenFigure f(k, s, ViewSettings{});
            QVERIFY(distinct_colours(render(f)) > 2);
        }
    }
};

QTEST_MAIN(RegistryViewsTest)
#include "test_registry_views.moc"
