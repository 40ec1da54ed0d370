// SPDX-License-Identifier: GPL-3.0-or-later
// A sentence beside its permutation (ContentParams::permuted): two heatmaps whose rows of the same word
// are linked. Hovering a row outlines it and the row of the same word in the other panel; the caption
// says which word moved where; under NoPE the linked rows hold the same numbers (tolerance 1e-6: the view
// computes in single precision), under a positional encoding they do not.
#include "jobs/view_jobs.h"
#include "methods/nope/nope.h"
#include "methods/registry.h"
#include "views/heatmap_view.h"

#include <QApplication>
#include <QMouseEvent>
#include <QPainter>
#include <QTest>

#include <cmath>

using namespace posatlas;
using namespace posatlas::ui;

namespace {

Scenario pair(Method m, const std::string& text, const std::string& permuted)
{
    Scenario s;
    s.method = m;
    common_field("text")->set(s, text);
    common_field("permuted")->set(s, permuted);
    return s;
}

ViewSettings weights()
{
    ViewSettings v;
    v.matrix_kind = MatrixKind::Weights;
    v.pixel_width = 800;
    v.pixel_height = 400;
    return v;
}

// A widget point over row `row` of panel `panel` (searched along the panel's middle column).
QPointF overRow(const HeatmapView& view, int panel, std::int64_t row)
{
    for (int y = 0; y < view.height(); ++y)
        for (int x = 0; x < view.width(); x += 4) {
            int p = -1;
            if (view.rowAt(QPointF(x, y + 0.5), &p) == row && p == panel)
                return QPointF(x + 2, y + 0.5);
        }
    return {-1, -1};
}

void hover(HeatmapView& view, QPointF at)
{
    QMouseEvent e(QEvent::MouseMove, at, view.mapToGlobal(at), Qt::NoButton, Qt::NoButton, Qt::NoModifier);
    QApplication::sendEvent(&view, &e);
}

void click(HeatmapView& view, QPointF at)
{
    for (const QEvent::Type type : {QEvent::MouseButtonPress, QEvent::MouseButtonRelease}) {
        QMouseEvent e(type, at, view.mapToGlobal(at), Qt::LeftButton,
                      type == QEvent::MouseButtonPress ? Qt::LeftButton : Qt::NoButton, Qt::NoModifier);
        QApplication::sendEvent(&view, &e);
    }
}

} // namespace

class PermutedHeatmapTest : public QObject
{
    Q_OBJECT

private slots:
    void jobLinksTheRowsOfEachWord()
    {
        const Scenario s = pair(kNoPE, "the dog bit the man", "the man bit the dog");
        QVERIFY(shows_permuted(s, weights()));
        const HeatmapData d = heatmap_job(s, weights());
        QCOMPARE(d.panels.size(), 2);
        QCOMPARE(d.linked_rows, (std::vector<std::int64_t>{0, 4, 2, 3, 1}));
        QCOMPARE(d.panels[0].row_tokens.join(u' '), QStringLiteral("the dog bit the man"));
        QCOMPARE(d.panels[1].row_tokens.join(u' '), QStringLiteral("the man bit the dog"));
        QVERIFY2(d.permutation_caption.contains(QStringLiteral("dog 1 → 4")),
                 qPrintable(d.permutation_caption));
        QVERIFY2(d.permutation_caption.contains(QStringLiteral("man 4 → 1")),
                 qPrintable(d.permutation_caption));
        QVERIFY(!d.per_panel_scales); // one colour scale: the same number, the same colour
        // NoPE: row k of the permutation is row p[k] of the sentence, its columns permuted alike.
        const Eigen::MatrixXd& a = d.panels[0].matrix.values;
        const Eigen::MatrixXd& b = d.panels[1].matrix.values;
        for (Eigen::Index k = 0; k < 5; ++k)
            for (Eigen::Index l = 0; l < 5; ++l)
                QVERIFY(std::abs(b(k, l) - a(d.linked_rows[static_cast<std::size_t>(k)],
                                             d.linked_rows[static_cast<std::size_t>(l)])) < 1e-6);
        // A positional encoding: the linked rows differ.
        const HeatmapData sin =
            heatmap_job(pair(Method::Sinusoidal, "the dog bit the man", "the man bit the dog"), weights());
        QVERIFY(std::abs(sin.panels[1].matrix.values(2, 4) - sin.panels[0].matrix.values(2, 1)) > 1e-3);
        // Not a permutation: both sentences shown, no links, and the caption says so.
        const HeatmapData other = heatmap_job(pair(kNoPE, "the dog bit the man", "a cat"), weights());
        QCOMPARE(other.panels.size(), 2);
        QVERIFY(other.linked_rows.empty());
        QVERIFY(!other.permutation_caption.isEmpty());
        // No second sentence: one panel as before.
        QCOMPARE(heatmap_job(pair(kNoPE, "the dog bit the man", ""), weights()).panels.size(), 1);
    }

    void hoveringARowHighlightsItsLinkedRow()
    {
        HeatmapView view;
        view.resize(900, 450);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setData(heatmap_job(pair(kNoPE, "the dog bit the man", "the man bit the dog"), weights()));
        QVERIFY2(view.note().contains(QStringLiteral("dog 1 → 4")), qPrintable(view.note()));
        // "dog": row 1 of the sentence, row 4 of its permutation; both ways round.
        const QPointF dog = overRow(view, 0, 1);
        QVERIFY(dog.x() >= 0);
        hover(view, dog);
        using Rows = QList<QPair<int, std::int64_t>>;
        QCOMPARE(view.highlightedRows(), (Rows{{0, 1}, {1, 4}}));
        QVERIFY2(view.readoutAt(dog).contains(QStringLiteral("row 4 “dog”")),
                 qPrintable(view.readoutAt(dog)));
        const QPointF man = overRow(view, 1, 1);
        hover(view, man);
        QCOMPARE(view.highlightedRows(), (Rows{{1, 1}, {0, 4}}));
        // The outline is drawn (on the figure itself, so that an export of the view shows it too).
        const auto render = [&] {
            QImage image(900, 450, QImage::Format_ARGB32);
            image.fill(Qt::white);
            QPainter painter(&image);
            view.renderFigure(painter, QRectF(image.rect()), {});
            return image;
        };
        const QImage outlined = render();
        // A click keeps the pair while the mouse moves on; a second click lets it follow again.
        click(view, man);
        hover(view, dog);
        QCOMPARE(view.highlightedRows(), (Rows{{1, 1}, {0, 4}}));
        click(view, dog);
        hover(view, dog);
        QCOMPARE(view.highlightedRows(), (Rows{{0, 1}, {1, 4}}));
        view.highlightRow(-1, -1);
        QVERIFY(view.highlightedRows().isEmpty());
        QVERIFY(render() != outlined);
        // Data without links: nothing to highlight.
        view.setData(heatmap_job(pair(kNoPE, "the dog bit the man", ""), weights()));
        view.highlightRow(0, 1);
        QVERIFY(view.highlightedRows().isEmpty());
    }
};

QTEST_MAIN(PermutedHeatmapTest)
#include "test_permuted_heatmap.moc"
