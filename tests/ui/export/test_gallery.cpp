// SPDX-License-Identifier: GPL-3.0-or-later
// `posatlas gallery`'s figures: each method declares its own in its descriptor (MethodDescriptor::gallery),
// the gallery lists them section by section in registry order and adds the comparisons of several methods.
// The list keeps its names and order (the user guide links figures by file name), every figure a descriptor
// declares is in it once, and every figure renders with data in it.
#include "export/figure_export.h"
#include "export/gallery.h"
#include "export/patch_grid_export.h"
#include "export/token_layout_export.h"
#include "methods/mrope/mrope.h"
#include "methods/registry.h"
#include "views/curve_view.h"
#include "views/view_render.h"
#include "window/language.h"

#include <QApplication>
#include <QRegularExpression>
#include <QSet>
#include <QTest>

#include <variant>

using namespace posatlas;
using namespace posatlas::ui;

namespace {

// Cells, points or pairs of the figure's data: 0 for a figure that would draw nothing.
qsizetype data_size(const ViewResult& data)
{
    if (const auto* h = std::get_if<HeatmapData>(&data)) {
        qsizetype n = 0;
        for (const HeatmapPanel& p : h->panels)
            n += static_cast<qsizetype>(p.matrix.values.size());
        return n;
    }
    if (const auto* c = std::get_if<CurveData>(&data)) {
        qsizetype n = 0;
        for (const CurveSeries& s : c->series)
            n += static_cast<qsizetype>(s.y.size());
        return n;
    }
    if (const auto* r = std::get_if<RotationData>(&data))
        return static_cast<qsizetype>(r->theta.size());
    return static_cast<qsizetype>(std::get<SpectrumData>(data).ratio.size());
}

// Colours in the image: a blank figure (background only, or a frame) has a handful.
int colours(const QImage& image)
{
    QSet<QRgb> seen;
    for (int y = 0; y < image.height(); y += 2)
        for (int x = 0; x < image.width(); x += 2)
            seen.insert(image.pixel(x, y));
    return static_cast<int>(seen.size());
}

} // namespace

class GalleryTest : public QObject
{
    Q_OBJECT

private slots:
    // The file names of `posatlas gallery` (docs/user-guide.md shows several of them by name).
    void namesAndOrderAreTheStandardSet()
    {
        QStringList stems;
        for (const GalleryFigure& g : standard_gallery())
            stems << g.stem;
        const QStringList expected{QStringLiteral("01-sinusoidal-encoding"),
                                   QStringLiteral("02-sinusoidal-dot-product"),
                                   QStringLiteral("03-learned-table"),
                                   QStringLiteral("04-shaw-clipped-index"),
                                   QStringLiteral("05-transformer-xl-logits"),
                                   QStringLiteral("06-t5-bias-per-head"),
                                   QStringLiteral("07-t5-buckets"),
                                   QStringLiteral("08-deberta-buckets"),
                                   QStringLiteral("09-deberta-logits"),
                                   QStringLiteral("10-rope-logits"),
                                   QStringLiteral("11-rope-long-term-decay"),
                                   QStringLiteral("12-rope-decay-to-a-million"),
                                   QStringLiteral("13-rope-rotation"),
                                   QStringLiteral("14-prope-spectrum"),
                                   QStringLiteral("15-alibi-bias-per-head"),
                                   QStringLiteral("16-alibi-decay"),
                                   QStringLiteral("17-cope-positions"),
                                   QStringLiteral("18-mrope-logits"),
                                   QStringLiteral("19-mrope-interleaved-logits"),
                                   QStringLiteral("20-mrope-token-layout"),
                                   QStringLiteral("21-mrope-interleaved-token-layout"),
                                   QStringLiteral("22-mla-logits"),
                                   QStringLiteral("23-mla-rotary-share"),
                                   QStringLiteral("24-rope2d-patch-grid"),
                                   QStringLiteral("25-rope-mixed-patch-grid"),
                                   QStringLiteral("26-swin-patch-grid"),
                                   QStringLiteral("27-yarn-spectrum"),
                                   QStringLiteral("28-llama3-bands"),
                                   QStringLiteral("29-longrope-spectrum"),
                                   QStringLiteral("30-pi-vs-ntk")};
        QCOMPARE(stems, expected);
    }

    // M-RoPE's token layout is in the gallery for Qwen2-VL (chunked pairs) and Qwen3-VL (interleaved),
    // its ids those of core's MropePositions.
    void tokenLayoutFiguresForBothVariants()
    {
        std::vector<bool> interleaved;
        for (const GalleryFigure& g : standard_gallery())
            if (g.token_layout) {
                const TokenLayoutFigure fig(g.scenario);
                interleaved.push_back(fig.data().interleaved);
                const MropePositions core(g.scenario.params<MropeParams>());
                QCOMPARE(static_cast<std::int64_t>(fig.data().ids_t.size()), core.layout_tokens());
                for (std::size_t i = 0; i < fig.data().ids_t.size(); ++i)
                    QCOMPARE(fig.data().ids_h[i], core.at(static_cast<std::int64_t>(i)).h);
            }
        QCOMPARE(interleaved, (std::vector<bool>{false, true}));
    }

    // What a descriptor declares is what the gallery shows: each of its figures once, with its caption, of
    // a scenario of that method, with a matrix kind the method offers.
    void everyDeclaredFigureIsInTheGalleryOnce()
    {
        const std::vector<GalleryFigure> gallery = standard_gallery();
        int declared = 0;
        for (const MethodDescriptor& d : methods())
            for (const GalleryFigureSpec& spec : d.gallery) {
                ++declared;
                const QString stem = QString::fromStdString(spec.stem);
                int found = 0;
                for (const GalleryFigure& g : gallery)
                    if (g.stem.section(QLatin1Char('-'), 1) == stem) {
                        ++found;
                        QCOMPARE(g.description, gallery_caption(spec, g.scenario));
                        QVERIFY2(g.scenario.method == d.method, qPrintable(stem));
                    }
                QVERIFY2(found == 1, qPrintable(stem));
                QVERIFY2(!stem.isEmpty() && *spec.caption, qPrintable(stem));
                if (spec.matrix_kind)
                    QVERIFY2(d.kind(*spec.matrix_kind), qPrintable(stem));
            }
        QVERIFY(declared > 0);
        // The rest are the comparisons of several methods, listed in gallery.cpp.
        QCOMPARE(static_cast<int>(gallery.size()) - declared, 1);
    }

    // A caption's numbers are its figure's (GalleryFigureSpec::caption_numbers): in both languages the
    // translated caption has the source's placeholders, and apart from them its digits are only those of
    // names (models, papers' years and sections, a formula's constants); the caption shown has every
    // number in and no placeholder left. The comparisons' texts quote their factor the same way.
    void captionsQuoteOnlyTheirFiguresNumbers_data()
    {
        QTest::addColumn<QString>("language");
        QTest::newRow("en") << QStringLiteral("en");
        QTest::newRow("zh_CN") << QStringLiteral("zh_CN");
    }
    void captionsQuoteOnlyTheirFiguresNumbers()
    {
        QFETCH(QString, language);
        QVERIFY(installLanguage(language));
        const QRegularExpression placeholder(QStringLiteral("%(\\d+)"));
        const auto placeholders = [&](const QString& text) {
            QSet<QString> found;
            for (const QRegularExpressionMatch& m : placeholder.globalMatch(text))
                found.insert(m.captured(1));
            return found;
        };
        // Digits that are part of a name, not a parameter: model names, papers' years and sections, the
        // formulas' constants (1/(d/2), N(0, σ), 1/m) and "all-ones" content.
        const QRegularExpression names(QStringLiteral(
            "Llama-2-7B|Llama 3\\.1 "
            "8B|Yarn-Llama-2-7b-64k|Phi-3-mini-128k|DeepSeek-V3|DeBERTa-v3|Qwen[23]-VL|"
            "Gemma 4|T5|2D|sec\\. 3\\.4\\.3|第 3\\.4\\.3 节|\\(1/\\(d/2\\)\\)|N\\(0, |c2c|c2p|p2c|"
            "\\b(19|20)\\d\\d\\b|全为? 1|1/(?=%\\d)"));
        int captions = 0;
        for (const MethodDescriptor& d : methods())
            for (const GalleryFigureSpec& spec : d.gallery) {
                const QString source = QString::fromUtf8(spec.caption);
                const QString translated = QCoreApplication::translate(kGalleryContext, spec.caption);
                QVERIFY2(placeholders(translated) == placeholders(source), qPrintable(translated));
                QString rest = translated;
                rest.remove(names).remove(placeholder);
                for (const QChar c : rest)
                    QVERIFY2(!c.isDigit(),
                             qPrintable(QStringLiteral("%1: a typed number in \"%2\"")
                                            .arg(QString::fromStdString(spec.stem), translated)));
                const Scenario scenario = spec.scenario();
                const QString shown = gallery_caption(spec, scenario);
                QVERIFY2(!shown.contains(placeholder), qPrintable(shown));
                if (spec.caption_numbers)
                    for (const std::string& n : spec.caption_numbers(spec, scenario))
                        QVERIFY2(shown.contains(QString::fromStdString(n)), qPrintable(shown));
                ++captions;
            }
        QVERIFY(captions >= 20);
        for (const GalleryFigure& g : standard_gallery()) {
            QVERIFY2(!g.description.contains(placeholder), qPrintable(g.description));
            for (const auto& [label, params] : g.rope_variants)
                QVERIFY2(!label.contains(placeholder) && label.contains(QString::number(params.factor)),
                         qPrintable(label));
        }
        if (language == QStringLiteral("zh_CN"))
            QVERIFY(standard_gallery().front().description.contains(QChar(0x7F16))); // 编: Chinese text
        QVERIFY(installLanguage(QStringLiteral("en")));
    }

    // Every figure computes data and draws it: a small PNG of each has the colours of data, not a blank
    // frame.
    void everyFigureRendersNonEmpty()
    {
        FigureExportOptions options;
        options.size = QSizeF(400, 300);
        options.dpi = 48;
        for (const GalleryFigure& g : standard_gallery()) {
            QImage image;
            if (g.query_patch) {
                // The patch grid (export/patch_grid_export.h): its figure, of core's row.
                const std::unique_ptr<PatchGridView> view = patch_grid_figure(g.scenario, *g.query_patch);
                QVERIFY2(view->row() && view->row()->min < view->row()->max, qPrintable(g.stem));
                image = render_figure_image(*view, options);
            } else if (g.token_layout) {
                const TokenLayoutFigure fig(g.scenario);
                QVERIFY2(!fig.data().ids_t.empty(), qPrintable(g.stem));
                image = render_figure_image(fig.figure(), options);
            } else if (!g.rope_variants.empty()) {
                CurveView view;
                const CurveData data = comparison_curves(g.description, g.rope_variants);
                QVERIFY2(data_size(data) > 0, qPrintable(g.stem));
                view.setData(data);
                image = render_figure_image(view, options);
            } else {
                const OffscreenFigure fig(g.view, g.scenario, g.settings, g.colormap);
                QVERIFY2(data_size(fig.data()) > 0, qPrintable(g.stem));
                image = render_figure_image(fig.figure(), options);
            }
            QCOMPARE(image.size(), QSize(200, 150));
            QVERIFY2(colours(image) > 8, qPrintable(g.stem));
        }
    }
};

QTEST_MAIN(GalleryTest)
#include "test_gallery.moc"
