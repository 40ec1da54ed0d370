// SPDX-License-Identifier: GPL-3.0-or-later
// The standard figure set of `posatlas gallery`: every method, and the classic figures of the
// literature with their original parameters (sinusoidal encoding heatmap, RoFormer long-term decay,
// ALiBi slopes and bias matrices, T5 bucket mapping, YaRN ramp and wavelengths, Llama 3's three
// frequency bands, position interpolation against NTK-aware scaling).
#pragma once

#include "jobs/view_jobs.h"
#include "methods/gallery_figure.h"
#include "views/colormap.h"

#include <QString>

#include <optional>
#include <vector>

namespace posatlas::ui {

struct GalleryFigure {
    QString stem;        // file name without extension, e.g. "01-sinusoidal-encoding"
    QString description; // what it shows and where the parameters come from
    ViewKind view = ViewKind::Heatmap;
    Scenario scenario;
    ViewSettings settings;
    std::optional<Colormap> colormap;
    // For figures that compare several RoPE scalings of one model on shared axes (not a single
    // scenario): the variants, drawn as curves by comparison_curves(). Empty for ordinary figures.
    std::vector<std::pair<QString, RopeParams>> rope_variants;
    // Set for the patch-grid figure (export/patch_grid_export.h): the query patch; `view` is then unused.
    std::optional<std::int64_t> query_patch;
    // M-RoPE's token layout of the scenario (export/token_layout_export.h) instead of a view.
    bool token_layout = false;
};

// The figures each method declares (MethodDescriptor::gallery), section by section in registry order, then
// the comparisons of several methods; stems numbered from "01-". Throws ConfigError if a shipped preset
// cannot be loaded (a build defect, covered by tests).
std::vector<GalleryFigure> standard_gallery();

// A method's figure caption (GalleryFigureSpec::caption) in the current language, with its numbers
// (caption_numbers, from `scenario` and the spec's settings) in place of %1, %2, ….
QString gallery_caption(const GalleryFigureSpec& spec, const Scenario& scenario);

// theta'/theta per pair for each variant on shared axes (PI against NTK-aware, ...), computed by core.
CurveData comparison_curves(const QString& title,
                            const std::vector<std::pair<QString, RopeParams>>& variants);

} // namespace posatlas::ui
