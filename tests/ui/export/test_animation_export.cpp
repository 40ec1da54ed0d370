// SPDX-License-Identifier: GPL-3.0-or-later
// Animated figures (export/animation_export.h): the sweep's parsing, checks and values; what was written,
// read back with the formats' own decoders (FFmpeg for MP4, giflib for GIF, libpng for APNG): frame count,
// size and duration; the first and last frames against the still export of the first and last values
// (built here from a scenario set by hand, not by frame_scenario); the colour scale fixed over the sweep.
//
// "Equal to the still export": the still figure of the frame's value (OffscreenFigure, render_figure_image
// with the same options) whose title is the frame's title and, unless per_frame_scale, whose data carries
// the sweep's fixed ranges (apply_sweep_scale). APNG: exactly; MP4: PSNR >= 40 dB (H.264 in 4:2:0);
// GIF: exactly when the still has at most 256 colours, else PSNR >= 30 dB (one palette for every frame,
// median cut, no dithering: the antialiased edges of text and curves are where it differs).
#include "animation_decode.h"
#include "export/animation_export.h"
#include "jobs/view_jobs.h"
#include "methods/rope/rope_params.h"
#include "model/session.h"
#include "views/heatmap_view.h"
#include "views/view_render.h"

#include <QFile>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace posatlas;
using namespace posatlas::ui;
using namespace posatlas::test;

namespace {

std::vector<std::uint8_t> rgb_of(const QImage& image)
{
    const QImage rgb = image.convertToFormat(QImage::Format_RGB888);
    std::vector<std::uint8_t> out;
    out.reserve(static_cast<std::size_t>(rgb.width()) * rgb.height() * 3);
    for (int y = 0; y < rgb.height(); ++y)
        out.insert(out.end(), rgb.constScanLine(y), rgb.constScanLine(y) + 3 * rgb.width());
    return out;
}

int colour_count(const QImage& image)
{
    QSet<QRgb> colours;
    const QImage argb = image.convertToFormat(QImage::Format_RGB32);
    for (int y = 0; y < argb.height(); ++y)
        for (int x = 0; x < argb.width(); ++x)
            colours.insert(argb.pixel(x, y));
    return static_cast<int>(colours.size());
}

AnimationRequest spectrum_request(AnimationFormat format, int frames)
{
    AnimationRequest r;
    r.view = ViewKind::Spectrum;
    r.sweep = parse_sweep("rope_theta=10000:500000:log", frames);
    r.figure.size = QSizeF(320, 200);
    r.figure.dpi = 96;
    r.settings = export_view_settings(r.settings, r.figure);
    r.fps = 10;
    r.format = format;
    return r;
}

// The still export of `s` / `v`, titled as frame `frame` and, when `fixed`, with the sweep's ranges.
QImage still(const AnimationRequest& r, const Scenario& s, const ViewSettings& v, const SweepScale* fixed,
             int frame)
{
    OffscreenFigure fig(r.view, s, v, r.colormap);
    ViewResult data = fig.data();
    if (fixed)
        apply_sweep_scale(data, *fixed);
    const QString title = frame_title(r, fig.data(), frame);
    std::visit([&](auto& d) { d.title = title; }, data);
    const Figure* figure = set_view_data(fig.widget(), data);
    return render_figure_image(*figure, r.figure);
}

Scenario with_theta(double theta)
{
    Scenario s;
    s.params<RopeParams>().rope_theta = theta;
    return s;
}

template <typename F> QString parameter_of(F&& f)
{
    try {
        f();
    } catch (const ParameterError& e) {
        return QString::fromStdString(e.parameter());
    }
    return {};
}

} // namespace

class AnimationExportTest : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString path(const QString& name) const { return m_dir.filePath(name); }

private slots:
    // The API's default frame (the GUI's dialog starts from it): 1280 x 720 device pixels, not the still
    // export's 2400 x 1600.
    void defaultFrameIs1280x720Pixels()
    {
        const FigureExportOptions f = AnimationRequest{}.figure;
        QCOMPARE(f.size.width() * f.dpi / 96.0, 1280.0);
        QCOMPARE(f.size.height() * f.dpi / 96.0, 720.0);
        QCOMPARE(default_animation_figure().size, f.size);
        QCOMPARE(default_animation_figure().dpi, f.dpi);
    }

    void parsesTheSweepAndNamesTheOptionOfABadOne()
    {
        const SweepSpec log = parse_sweep("rope_theta=10000:500000:log", 60);
        QCOMPARE(log.field, std::string("rope_theta"));
        QCOMPARE(log.from, 10000.0);
        QCOMPARE(log.to, 500000.0);
        QVERIFY(log.log);
        QCOMPARE(log.frames, 60);
        QVERIFY(!parse_sweep("query_position=0:64", 5).log);
        QVERIFY(!parse_sweep("seq-len=8:64:linear", 5).log);
        for (const char* bad : {"rope_theta", "rope_theta=1", "=1:2", "rope_theta=a:2",
                                "rope_theta=1:2:cubic", "rope_theta=1:2:log:x", "rope_theta=1:inf"})
            QCOMPARE(parameter_of([&] { parse_sweep(bad, 10); }), QStringLiteral("animate"));
        QCOMPARE(parameter_of([] { parse_sweep("rope_theta=1:2", 0); }), QStringLiteral("frames"));
        QCOMPARE(parameter_of([] { parse_sweep("rope_theta=1:2", kMaxAnimationFrames + 1); }),
                 QStringLiteral("frames"));
    }

    void refusesBadRequestsNamingTheOption()
    {
        const auto refused = [](AnimationRequest r, const char* sweep) {
            r.sweep = parse_sweep(sweep, r.sweep.frames);
            return parameter_of([&] { check_animation_request(r); });
        };
        const AnimationRequest r = spectrum_request(AnimationFormat::Gif, 4);
        QCOMPARE(refused(r, "rope_theta=10000:500000:log"), QString());               // accepted
        QCOMPARE(refused(r, "rope-theta=10000:500000"), QString());                   // the option's name
        QCOMPARE(refused(r, "rope_theta=-10:500000:log"), QStringLiteral("animate")); // log through 0
        QCOMPARE(refused(r, "rope_theta=0:500000:log"), QStringLiteral("animate"));
        QCOMPARE(refused(r, "rope_theta=0.5:500000"), QStringLiteral("animate")); // below the field's range
        QCOMPARE(refused(r, "alibi_slope=1:2"), QStringLiteral("animate"));       // not a field of RoPE
        QCOMPARE(refused(r, "rope_type=1:2"), QStringLiteral("animate"));         // not a number
        QCOMPARE(refused(r, "query_position=0:64"), QStringLiteral("animate"));   // rotation view only
        AnimationRequest fast = r;
        fast.fps = 60; // GIF: at most 50
        QCOMPARE(parameter_of([&] { check_animation_request(fast); }), QStringLiteral("fps"));
        AnimationRequest odd = spectrum_request(AnimationFormat::Mp4, 4);
        odd.figure.size = QSizeF(321, 200); // H.264 4:2:0 needs even sides
        QCOMPARE(parameter_of([&] { check_animation_request(odd); }), QStringLiteral("width"));
        AnimationRequest none = r;
        none.sweep.frames = 0;
        QCOMPARE(parameter_of([&] { check_animation_request(none); }), QStringLiteral("frames"));
    }

    void sweepsGeometricallyOrLinearlyAndRoundsIntegers()
    {
        AnimationRequest r = spectrum_request(AnimationFormat::Apng, 5);
        // log: from * (to / from)^(k / (n - 1)); the ends exactly
        QCOMPARE(sweep_value(r, 0), 10000.0);
        QCOMPARE(sweep_value(r, 4), 500000.0);
        QVERIFY(frame_title(r, compute_frame_data(r, 0), 0).endsWith(QStringLiteral(" = 10000")));
        // The moving value once: the view's own "θ 500000" goes, its other parts ("d 64") stay.
        const QString last = frame_title(r, compute_frame_data(r, 4), 4);
        QCOMPARE(last.count(QStringLiteral("500000")), 1);
        QVERIFY2(!last.contains(QStringLiteral("θ 500000")), qPrintable(last));
        QVERIFY2(last.contains(QStringLiteral(" · d ")), qPrintable(last));
        QVERIFY(std::abs(sweep_value(r, 2) - std::sqrt(10000.0 * 500000.0)) < 1e-6);
        QCOMPARE(frame_scenario(r, 2).params<RopeParams>().rope_theta, sweep_value(r, 2));
        r.sweep = parse_sweep("seq_len=10:20", 4); // an integer field: 10, 13.33 -> 13, 16.67 -> 17, 20
        QCOMPARE(sweep_value(r, 1), 13.0);
        QCOMPARE(sweep_value(r, 2), 17.0);
        QCOMPARE(frame_scenario(r, 2).seq_len, std::int64_t{17});
        r.view = ViewKind::Rotation;
        r.sweep = parse_sweep("query_position=0:64", 5);
        QCOMPARE(frame_settings(r, 1).query_position, 16.0);
        QVERIFY(frame_title(r, compute_frame_data(r, 1), 1).endsWith(QStringLiteral(" = 16")));
    }

    void apngFramesAreTheStillExportOfTheirValues()
    {
        for (const bool per_frame : {true, false}) {
            AnimationRequest r = spectrum_request(AnimationFormat::Apng, 4);
            r.per_frame_scale = per_frame;
            const QString file = path(per_frame ? "per_frame.png" : "fixed.png");
            export_animation(r, file.toStdString());
            const DecodedAnimation d = decode_apng(file.toStdString());
            QVERIFY(d.ok);
            QCOMPARE(d.frames, 4);
            QCOMPARE(d.width, 320);
            QCOMPARE(d.height, 200);
            QVERIFY(std::abs(d.duration - 0.4) < 1e-9);
            const SweepScale scale = sweep_scale(r);
            QCOMPARE(scale.y.empty(), per_frame);
            const SweepScale* fixed = per_frame ? nullptr : &scale;
            const QImage first = still(r, with_theta(10000), r.settings, fixed, 0);
            const QImage last = still(r, with_theta(500000), r.settings, fixed, 3);
            QVERIFY(d.rgb.front() == rgb_of(first));
            QVERIFY(d.rgb.back() == rgb_of(last));
            if (!per_frame) // the fixed axes are not the first frame's own: the still of 10000 differs
                QVERIFY(d.rgb.front() != rgb_of(still(r, with_theta(10000), r.settings, nullptr, 0)));
        }
    }

    void mp4FramesMatchTheStillExportWithinCodecError()
    {
        AnimationRequest r = spectrum_request(AnimationFormat::Mp4, 6);
        r.figure.dpi = 192; // the export's default: 640 x 400 pixels
        r.settings = export_view_settings(r.settings, r.figure);
        const QString file = path("sweep.mp4");
        export_animation(r, file.toStdString());
        const DecodedAnimation d = decode_mp4(file.toStdString());
        QVERIFY(d.ok);
        QCOMPARE(d.frames, 6);
        QCOMPARE(d.width, 640);
        QCOMPARE(d.height, 400);
        QVERIFY(std::abs(d.duration - 0.6) < 1e-6);
        const SweepScale scale = sweep_scale(r);
        const double first = psnr(d.rgb.front(), rgb_of(still(r, with_theta(10000), r.settings, &scale, 0)));
        const double last = psnr(d.rgb.back(), rgb_of(still(r, with_theta(500000), r.settings, &scale, 5)));
        QVERIFY2(first >= 40.0, qPrintable(QString::number(first)));
        QVERIFY2(last >= 40.0, qPrintable(QString::number(last)));
        // ... and the first frame is not simply any frame: against the last value's still it is far off.
        QVERIFY(psnr(d.rgb.front(), rgb_of(still(r, with_theta(500000), r.settings, &scale, 5))) < 40.0);
    }

    void gifRotationSweepMatchesTheStillExport()
    {
        AnimationRequest r = spectrum_request(AnimationFormat::Gif, 5);
        r.view = ViewKind::Rotation;
        r.sweep = parse_sweep("query_position=0:64", 5);
        const QString file = path("rope.gif");
        export_animation(r, file.toStdString());
        const DecodedAnimation d = decode_gif(file.toStdString());
        QVERIFY(d.ok);
        QCOMPARE(d.frames, 5);
        QCOMPARE(d.width, 320);
        QCOMPARE(d.height, 200);
        QVERIFY(std::abs(d.duration - 0.5) < 1e-9);
        for (const int frame : {0, 4}) {
            ViewSettings v = r.settings;
            v.query_position = frame == 0 ? 0.0 : 64.0;
            const QImage expected = still(r, r.scenario, v, nullptr, frame);
            const auto& got = d.rgb[static_cast<std::size_t>(frame)];
            if (colour_count(expected) <= 256)
                QVERIFY(got == rgb_of(expected));
            else
                QVERIFY2(psnr(got, rgb_of(expected)) >= 30.0,
                         qPrintable(QString::number(psnr(got, rgb_of(expected)))));
        }
        QVERIFY(d.rgb.front() != d.rgb.back()); // the query turned
    }

    void heatmapColourScaleIsFixedOverTheSweep()
    {
        AnimationRequest r = spectrum_request(AnimationFormat::Apng, 3);
        r.view = ViewKind::Heatmap;
        r.scenario.seq_len = 24;
        r.sweep = parse_sweep("rope_theta=2:10000:log", 3);
        // Viridis spans [min, max]: the diverging map's symmetric range, ± the largest |logit| (the
        // diagonal's, which θ does not change), would be the same in every frame even unfixed.
        r.colormap = Colormap::Viridis;
        for (const bool per_frame : {false, true}) {
            r.per_frame_scale = per_frame;
            const SweepScale scale = sweep_scale(r);
            QList<ColorRange> ranges;
            for (int frame = 0; frame < 3; ++frame) {
                ViewResult data = compute_frame_data(r, frame);
                apply_sweep_scale(data, scale);
                HeatmapView view;
                if (scale.colormap)
                    view.setColormap(*scale.colormap);
                view.setData(std::get<HeatmapData>(data));
                ranges.append(view.panelRange(0));
            }
            if (per_frame) { // the still export's own scale moves with θ
                QVERIFY(ranges[0].lo != ranges[2].lo || ranges[0].hi != ranges[2].hi);
            } else {
                QCOMPARE(scale.colour.size(), std::size_t{1});
                for (const ColorRange& c : ranges) {
                    QCOMPARE(c.lo, ranges[0].lo);
                    QCOMPARE(c.hi, ranges[0].hi);
                }
                // The scale is the union of the frames' own: it spans every frame's extremes.
                for (int frame = 0; frame < 3; ++frame) {
                    const ViewResult data = compute_frame_data(r, frame);
                    const auto& m = std::get<HeatmapData>(data).panels[0].matrix;
                    QVERIFY(ranges[0].lo <= m.min && m.max <= ranges[0].hi);
                }
                // One value, one colour: the same logit has the same table entry in every frame.
                const double v = 0.5 * (scale.colour[0].lo + scale.colour[0].hi);
                QCOMPARE(colormap_index(v, ranges[2]), colormap_index(v, ranges[0]));
            }
        }
    }

    void aRefusedOrFailedExportLeavesTheFileAsItWas()
    {
        const QString file = path("kept.gif");
        {
            QFile f(file);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("keep me");
        }
        AnimationRequest r = spectrum_request(AnimationFormat::Gif, 3);
        r.sweep.from = 0.0; // a log sweep through 0
        QCOMPARE(parameter_of([&] { export_animation(r, file.toStdString()); }), QStringLiteral("animate"));
        r = spectrum_request(AnimationFormat::Gif, 3);
        bool thrown = false;
        try {
            export_animation(r, file.toStdString(),
                             {.cancel = [] { return true; }, .progress = {}, .write = {}});
        } catch (const Cancelled&) {
            thrown = true;
        }
        QVERIFY(thrown);
        QFile f(file);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), QByteArray("keep me"));
    }

    void progressGrowsToOne()
    {
        const AnimationRequest r = spectrum_request(AnimationFormat::Apng, 3);
        std::vector<double> seen;
        export_animation(r, path("progress.png").toStdString(),
                         {.cancel = {}, .progress = [&](double f) { seen.push_back(f); }, .write = {}});
        QVERIFY(!seen.empty());
        QVERIFY(std::is_sorted(seen.begin(), seen.end()));
        QCOMPARE(seen.back(), 1.0);
    }
};

QTEST_MAIN(AnimationExportTest)
#include "test_animation_export.moc"
