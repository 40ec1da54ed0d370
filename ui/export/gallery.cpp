// SPDX-License-Identifier: GPL-3.0-or-later
#include "export/gallery.h"

#include "analysis/spectrum.h"
#include "io/number_text.h"
#include "io/presets.h"
#include "methods/registry.h"

#include <QCoreApplication>

namespace posatlas::ui {
namespace {

// Texts of the free functions below; lupdate reads Gallery::tr("...") under this context.
struct Gallery {
    Q_DECLARE_TR_FUNCTIONS(posatlas::ui::Gallery)
};

ViewKind view_kind(GalleryView v)
{
    switch (v) {
    case GalleryView::Heatmap: return ViewKind::Heatmap;
    case GalleryView::Curves: return ViewKind::Curves;
    case GalleryView::Rotation: return ViewKind::Rotation;
    case GalleryView::Spectrum: return ViewKind::Spectrum;
    case GalleryView::PatchGrid: return ViewKind::Heatmap;   // drawn by export_patch_grid, not a view kind
    case GalleryView::TokenLayout: return ViewKind::Heatmap; // not a view: GalleryFigure::token_layout
    }
    return ViewKind::Heatmap;
}

} // namespace

QString gallery_caption(const GalleryFigureSpec& spec, const Scenario& scenario)
{
    QString caption = QCoreApplication::translate(kGalleryContext, spec.caption);
    if (spec.caption_numbers)
        for (const std::string& number : spec.caption_numbers(spec, scenario))
            caption = caption.arg(QString::fromStdString(number));
    return caption;
}

namespace {

// A figure a method declares (MethodDescriptor::gallery), with its caption translated and its numbers in.
GalleryFigure method_figure(const GalleryFigureSpec& spec)
{
    GalleryFigure f;
    f.stem = QString::fromStdString(spec.stem);
    f.view = view_kind(spec.view);
    f.token_layout = spec.view == GalleryView::TokenLayout;
    f.scenario = spec.scenario();
    f.description = gallery_caption(spec, f.scenario);
    ViewSettings& v = f.settings;
    v.matrix_kind = spec.matrix_kind;
    if (spec.pixels > 0)
        v.pixel_width = v.pixel_height = spec.pixels;
    v.max_distance = spec.max_distance;
    v.log_x = spec.log_x.value_or(v.log_x);
    v.query_position = spec.query_position.value_or(v.query_position);
    v.key_position = spec.key_position.value_or(v.key_position);
    if (spec.view == GalleryView::PatchGrid)
        f.query_patch = spec.query_patch;
    return f;
}

// The figures that compare several methods on shared axes, listed here in one place, after every method's
// own: a descriptor's figure is one scenario in one view, these are several parameter sets on one chart.
// Position interpolation against NTK-aware scaling and YaRN, factor 4 on Llama-2-7B (Chen et al. 2023;
// bloc97 2023; Peng et al. 2023), drawn by comparison_curves().
std::vector<GalleryFigure> comparisons()
{
    const Scenario llama = load_preset("llama-2-7b").scenario;
    RopeParams pi = llama.params<RopeParams>(), ntk = pi, yarn = pi;
    pi.rope_type = RopeType::Linear;
    ntk.rope_type = RopeType::Ntk;
    yarn.rope_type = RopeType::Yarn;
    pi.factor = ntk.factor = yarn.factor = 4.0;
    const QString factor = QString::fromStdString(prose_number(pi.factor));
    GalleryFigure cmp;
    cmp.stem = QStringLiteral("pi-vs-ntk");
    cmp.description =
        Gallery::tr("PI, NTK-aware and YaRN on Llama-2-7B, factor %1 (Chen et al. 2023; bloc97 2023; Peng "
                    "et al. 2023): θ′/θ per pair")
            .arg(factor);
    cmp.view = ViewKind::Curves;
    cmp.scenario = llama;
    cmp.rope_variants = {{Gallery::tr("PI (linear, ×%1)").arg(factor), pi},
                         {Gallery::tr("NTK-aware (×%1)").arg(factor), ntk},
                         {Gallery::tr("YaRN (×%1)").arg(factor), yarn}};
    return {std::move(cmp)};
}

} // namespace

CurveData comparison_curves(const QString& title, const std::vector<std::pair<QString, RopeParams>>& variants)
{
    CurveData d;
    d.title = title;
    d.x_label = Gallery::tr("pair index i");
    d.y_label = Gallery::tr("θ′ᵢ / θᵢ (scaled / original frequency)");
    d.log_y = false; // ratios of one factor span less than a decade: a linear axis keeps its labels
    for (const auto& [label, params] : variants) {
        // core's spectrum carries the ratio; the figure only plots it.
        const FrequencySpectrum f =
            rope_spectrum(params, params.trained_length(), params.max_position_embeddings);
        CurveSeries s;
        s.name = label;
        s.x.assign(f.pair.begin(), f.pair.end());
        s.y = f.ratio;
        d.series.push_back(std::move(s));
    }
    return d;
}

std::vector<GalleryFigure> standard_gallery()
{
    std::vector<GalleryFigure> g;
    for (const GallerySection section : {GallerySection::Methods, GallerySection::ContextExtension})
        for (const MethodDescriptor& d : methods())
            for (const GalleryFigureSpec& spec : d.gallery)
                if (spec.section == section)
                    g.push_back(method_figure(spec));
    for (GalleryFigure& f : comparisons())
        g.push_back(std::move(f));
    for (std::size_t i = 0; i < g.size(); ++i)
        g[i].stem = QStringLiteral("%1-%2").arg(i + 1, 2, 10, QLatin1Char('0')).arg(g[i].stem);
    return g;
}

} // namespace posatlas::ui
