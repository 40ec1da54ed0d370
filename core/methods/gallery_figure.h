// SPDX-License-Identifier: GPL-3.0-or-later
// The figures a method shows in `posatlas gallery` (MethodDescriptor::gallery): for each, the scenario
// it draws (a preset or the method's defaults, with a few values changed), the view, the few view
// settings it needs and its caption, a translatable source text (QT_TRANSLATE_NOOP, context
// kGalleryContext) that ui/export/gallery.cpp translates. Core stays Qt-free: the view is named here by
// GalleryView, which the gallery maps onto the GUI's view kinds.
//
// The gallery lists, section by section, every method's figures of that section in registry order; the
// figures that compare several methods on shared axes belong to no one method and follow them
// (ui/export/gallery.cpp).
#pragma once

#include "methods/method.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace posatlas {

struct Scenario;

// The translation context of the captions.
inline constexpr const char* kGalleryContext = "Gallery";

// PatchGrid: one query patch against every patch of an image grid (analysis/patch_grid.h); TokenLayout:
// M-RoPE's tokens with their (t, h, w) ids and the pairs' axes (the Token layout panel).
enum class GalleryView { Heatmap, Curves, Rotation, Spectrum, PatchGrid, TokenLayout };

// The gallery's parts, in order: the methods one by one, then context extension (RoPE scalings on the
// models that use them).
enum class GallerySection { Methods, ContextExtension };

struct GalleryFigureSpec;

// The numbers a caption quotes, in the order of its %1, %2, …, each as prose_number (io/number_text.h)
// writes it: computed from the figure's scenario and settings, never typed, so that a changed preset or
// setting cannot leave its caption stale. A caption's own digits are names only (Llama-2-7B, a paper's
// year); methods/test_gallery_figures.cpp checks both.
using GalleryCaptionNumbers =
    std::function<std::vector<std::string>(const GalleryFigureSpec&, const Scenario&)>;

struct GalleryFigureSpec {
    std::string stem;         // file name without its number and extension: "rope-logits"
    const char* caption = ""; // what it shows and where the parameters come from (context kGalleryContext)
    GalleryCaptionNumbers caption_numbers; // its %1, %2, … (none: the caption quotes no parameter)
    GalleryView view = GalleryView::Heatmap;
    // The scenario drawn. A function, as presets are read through the registry: called when the gallery
    // is built, not when the registry is.
    std::function<Scenario()> scenario;
    GallerySection section = GallerySection::Methods;

    // Heatmap: the matrix kind (nullopt: the method's most telling one) and the square's side in device
    // pixels (0: the view's default).
    std::optional<MatrixKind> matrix_kind;
    int pixels = 0;
    // Curves: the furthest distance (0: automatic) and the distance axis (nullopt: the view's default).
    std::int64_t max_distance = 0;
    std::optional<bool> log_x;
    // Rotation: the query's and the key's position (nullopt: the view's default).
    std::optional<double> query_position, key_position;
    // Patch grid: the query patch (row-major on the method's grid).
    std::int64_t query_patch = 0;
};

// A figure's scenario: the shipped preset `id` (throws ConfigError if it does not load, a build defect the
// gallery's tests catch), or the defaults of method m.
Scenario gallery_preset(std::string_view id);
Scenario gallery_defaults(Method m);

// The row and the column of a patch-grid figure's query patch on its scenario's grid (patch_grid,
// analysis/patch_grid.h), as its caption quotes them: {row, column}, counted from 0.
std::vector<std::string> query_patch_row_column(const GalleryFigureSpec& spec, const Scenario& s);

} // namespace posatlas
