// SPDX-License-Identifier: GPL-3.0-or-later
// The RoPE-only views with synthetic data: the rotation view (rendered, its controls) and the spectrum
// view, rendered through renderFigure() into a QImage whose pixels are checked.
#include "view_fixtures.h"
#include "views/figure_style.h"
#include "views/rotation_view.h"
#include "views/spectrum_view.h"

#include <QDoubleSpinBox>
#include <QSignalSpy>
#include <QTest>

#include <cmath>
#include <numbers>

using namespace posatlas;
using namespace posatlas::ui;
using namespace posatlas::test;

namespace {

RotationData rotation_data(double m, double n)
{
    RotationData d;
    d.title = QStringLiteral("RoPE rotation · base 10000 · d 64");
    d.query_position = m;
    d.key_position = n;
    const int pairs = 32;
    for (int i = 0; i < pairs; ++i) {
        const double theta = std::pow(10000.0, -2.0 * i / 64.0); // Su et al. 2021 eq. 15
        auto wrap = [](double a) {
            const double two_pi = 2 * std::numbers::pi;
            return std::fmod(std::fmod(a, two_pi) + two_pi, two_pi);
        };
        d.theta.push_back(theta);
        d.wavelength.push_back(2 * std::numbers::pi / theta);
        d.angle_q.push_back(wrap(m * theta));
        d.angle_k.push_back(wrap(n * theta));
        d.angle_rel.push_back(wrap((m - n) * theta));
    }
    d.shown_pairs = {0, 4, 12, 24};
    return d;
}

} // namespace

class RopeViewsTest : public QObject
{
    Q_OBJECT

private slots:
    void rotationRender();
    void rotationControls();
    void spectrumRender();
    void rotationCaptionsKeepTheirNumbersAtPresentationSizes();
};

void RopeViewsTest::rotationRender()
{
    RotationView view;
    view.setData(rotation_data(7.0, 3.0));
    const QImage image = render(view, QSize(1100, 560), {false, 1.0, QStringLiteral("m = 7, n = 3")});
    QVERIFY(distinct_colors(image) > 50);
    QCOMPARE(count_near(image, Qt::magenta, 0), 0);
    // The query, key and relative-angle colours all appear (arrows, arcs, legend).
    for (int role = 0; role < 3; ++role)
        QVERIFY2(count_near(image, series_color(role, false), 10) > 40, qPrintable(QString::number(role)));
    const QImage dark = render(view, QSize(800, 700), {true, 1.3, {}});
    QCOMPARE(dark.pixelColor(1, 1), figure_colors(true).background);
    QVERIFY(distinct_colors(dark) > 50);
}

void RopeViewsTest::rotationControls()
{
    RotationControls controls;
    controls.setRange(0.0, 50.0);
    QSignalSpy spy(&controls, &RotationControls::positionChanged);
    controls.setPosition(10.0);
    QCOMPARE(controls.position(), 10.0);
    QCOMPARE(spy.count(), 0); // programmatic updates do not echo
    controls.setSpeed(100.0);
    controls.play();
    QVERIFY(controls.isPlaying());
    QVERIFY(spy.wait(1000));
    controls.pause();
    QVERIFY(!controls.isPlaying());
    QVERIFY(controls.position() != 10.0);
    QVERIFY(controls.position() >= 0.0 && controls.position() <= 50.0);
}

void RopeViewsTest::spectrumRender()
{
    SpectrumData s;
    s.title = QStringLiteral("RoPE spectrum · base 10000 · d 128");
    s.scaling_label = QStringLiteral("yarn · factor 16");
    s.trained_length = 4096;
    s.target_length = 65536;
    s.attention_factor = 1.2773; // 0.1 ln(16) + 1 (Peng et al. 2023, YaRN eq. 22)
    const int pairs = 64;
    for (int i = 0; i < pairs; ++i) {
        const double theta = std::pow(10000.0, -2.0 * i / 128.0);
        const double wl = 2 * std::numbers::pi / theta;
        // Illustrative ramp between 32 and 1 rotations (not the exact YaRN boundaries).
        const double rotations = 4096.0 / wl;
        const double ramp = std::clamp((rotations - 1.0) / (32.0 - 1.0), 0.0, 1.0);
        const double ratio = ramp + (1 - ramp) / 16.0;
        s.pair.push_back(i);
        s.theta_original.push_back(theta);
        s.theta_scaled.push_back(theta * ratio);
        s.wavelength_original.push_back(wl);
        s.wavelength_scaled.push_back(wl / ratio);
        s.ratio.push_back(ratio);
        s.ramp.push_back(ramp);
    }
    SpectrumView view;
    view.setData(s);
    QCOMPARE(view.figureTitle(), QStringLiteral("RoPE spectrum · base 10000 · d 128 · yarn · factor 16"));
    const QImage image = render(view, QSize(900, 760), {false, 1.0, QStringLiteral("caption")});
    QVERIFY(distinct_colors(image) > 30);
    QCOMPARE(count_near(image, Qt::magenta, 0), 0);
    QVERIFY(count_near(image, series_color(1, false), 30) > 150); // the scaled wavelengths
    const QImage dark = render(view, QSize(900, 760), {true, 1.4, {}});
    QCOMPARE(dark.pixelColor(1, 1), figure_colors(true).background);
}

void RopeViewsTest::rotationCaptionsKeepTheirNumbersAtPresentationSizes()
{
    // 250 % in the presented figure's area of a 1920x1080 screen: the pairs' cells are narrower than
    // "pair 24 · θ = 5.62e-05", which was elided to "pair 24 · θ = 5.6…" (in Chinese to "维度对 24 · θ …").
    RotationView view;
    const RotationData data = rotation_data(7.0, 3.0);
    view.setData(data);
    render(view, QSize(1000, 700), {false, 2.5, {}});
    const QStringList lines = view.lastCaptions();
    QVERIFY(!lines.isEmpty());
    for (const QString& line : lines)
        QVERIFY2(!line.contains(QChar(0x2026)), qPrintable(line));
    const QString all = lines.join(QLatin1Char('\n'));
    for (int p : data.shown_pairs) {
        const auto i = static_cast<std::size_t>(p);
        QVERIFY2(all.contains(format_number(data.theta[i], 3)), qPrintable(all));
        QVERIFY2(all.contains(format_number(data.wavelength[i], 3)), qPrintable(all));
    }
    QVERIFY2(lines.size() > 2 * (1 + static_cast<int>(data.shown_pairs.size())), qPrintable(all)); // broken
}

QTEST_MAIN(RopeViewsTest)
#include "test_rope_views.moc"
