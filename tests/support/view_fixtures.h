// SPDX-License-Identifier: GPL-3.0-or-later
// What the figure views' suites share: synthetic matrices, a figure rendered on magenta (a pixel left
// unpainted shows), and pixel counts.
#pragma once

#include "jobs/view_jobs.h"
#include "views/figure.h"

#include <QColor>
#include <QImage>
#include <QPainter>
#include <QSet>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>

namespace posatlas::test {

using ui::Figure;
using ui::RenderOptions;

inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

inline int distinct_colors(const QImage& image)
{
    QSet<QRgb> colors;
    for (int y = 0; y < image.height(); ++y) {
        const auto* line = reinterpret_cast<const QRgb*>(image.constScanLine(y));
        for (int x = 0; x < image.width(); ++x)
            colors.insert(line[x]);
    }
    return static_cast<int>(colors.size());
}

inline QImage render(const Figure& figure, QSize size, const RenderOptions& options = {})
{
    QImage image(size, QImage::Format_ARGB32);
    image.fill(Qt::magenta); // any pixel left unpainted would show up as magenta
    QPainter painter(&image);
    figure.renderFigure(painter, QRectF(QPointF(0, 0), QSizeF(size)), options);
    painter.end();
    return image;
}

inline int count_near(const QImage& image, QColor c, int tolerance)
{
    int n = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) {
            const QColor p = image.pixelColor(x, y);
            if (std::abs(p.red() - c.red()) <= tolerance && std::abs(p.green() - c.green()) <= tolerance &&
                std::abs(p.blue() - c.blue()) <= tolerance)
                ++n;
        }
    return n;
}

// rows x cols matrix at positions row0.., col0..; value f(r, c).
template <class F>
inline MatrixResult make_matrix(int rows, int cols, F f, std::int64_t row0 = 0, std::int64_t col0 = 0)
{
    MatrixResult m;
    m.values.resize(rows, cols);
    m.min = std::numeric_limits<double>::infinity();
    m.max = -m.min;
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) {
            const double v = f(r, c);
            m.values(r, c) = v;
            if (std::isfinite(v)) {
                m.min = std::min(m.min, v);
                m.max = std::max(m.max, v);
            }
        }
    for (int r = 0; r < rows; ++r)
        m.row_index.push_back(row0 + r);
    for (int c = 0; c < cols; ++c)
        m.col_index.push_back(col0 + c);
    m.row_label = "query position i";
    m.col_label = "key position j";
    m.value_label = "logit";
    return m;
}

// A causal logit-like matrix: smooth signed values, NaN above the diagonal.
inline MatrixResult causal_logits(int n)
{
    MatrixResult m = make_matrix(n, n, [](int r, int c) {
        if (c > r)
            return kNaN;
        return std::cos(0.35 * (r - c)) * std::exp(-0.04 * (r - c)) + 0.3 * std::sin(0.2 * r);
    });
    m.is_signed = true;
    return m;
}

} // namespace posatlas::test
