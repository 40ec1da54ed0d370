// SPDX-License-Identifier: GPL-3.0-or-later
// Animated figures: one view swept over one parameter, each frame the still export's figure
// (render_figure_image: the same colour maps, fonts and language), written by core's animation writers
// (io/animation/animation_writer.h: MP4, GIF, APNG; whole or not at all).
//
//   SweepSpec sweep = parse_sweep("rope_theta=10000:500000:log", 60);
//   AnimationRequest r{.view = ViewKind::Spectrum, .scenario = s, .settings = v, .sweep = sweep, ...};
//   check_animation_request(r);              // ParameterError naming the option
//   export_animation(r, "sweep.mp4", {.cancel = c, .progress = p});
//
// The split, for the GUI's dialog: compute_frame_data() and sweep_scale() are Qt-widget-free and
// thread-safe (run them on a worker); render_frame() paints on the GUI thread (it builds a view widget).
// export_animation() does all of it on the calling thread (the command line), holding a few frames.
//
// The colour scale (heatmap) and the axes (curves, spectrum) are fixed over the whole sweep
// (sweep_scale): a heatmap whose colours rescale every frame would hide the change it animates. With
// per_frame_scale each frame keeps the still export's own scale instead.
//
// "Equal to the still export": frame k of an animation is pixel for pixel the image render_figure_image
// gives for the still export (OffscreenFigure) of frame_scenario/frame_settings(k) with the same
// FigureExportOptions, the figure's title set to frame_title(k), and, unless per_frame_scale, the
// sweep's fixed ranges applied (apply_sweep_scale). With per_frame_scale nothing but the title differs.
#pragma once

#include "export/figure_export.h"
#include "io/animation/animation_writer.h"
#include "jobs/view_data.h"
#include "scenario/params.h"
#include "scenario/types.h"
#include "views/colormap.h"
#include "views/figure.h"

#include <QImage>
#include <QString>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace posatlas::ui {

// The frames an animation may have (ParameterError "frames" beyond).
inline constexpr int kMaxAnimationFrames = 3600;
// The pseudo-fields of the rotation view that a sweep may move (ViewSettings::query_position, key_position).
inline constexpr std::string_view kQueryPositionField = "query_position";
inline constexpr std::string_view kKeyPositionField = "key_position";

// One parameter moving from `from` to `to` over `frames` frames (both ends included).
struct SweepSpec {
    // A registry field of the scenario's method or a common field (its key, "rope_theta", an alias, or its
    // command-line option name, "rope-theta"), or "query_position" / "key_position" (rotation view).
    std::string field;
    double from = 0.0, to = 0.0;
    bool log = false; // geometric steps (from and to > 0)
    int frames = 60;
};

// Parses "FIELD=FROM:TO[:log|:linear]" (linear by default). Checks the form only (check_animation_request
// checks the field and range against the scenario): throws ParameterError("animate", the allowed form,
// text), or ParameterError("frames", ...) for frames outside [1, kMaxAnimationFrames].
SweepSpec parse_sweep(std::string_view text, int frames);
// "FIELD=FROM:TO[:log|:linear]": the allowed form, for messages and help.
std::string sweep_form();

// An animation's frame unless asked otherwise: 1280 x 720 device pixels (720p video, a slide's 16:9), the
// figure 1280 x 720 CSS pixels at 96 dpi (scale 1), so text keeps the size it has on screen and stays
// legible on a projector. The still export's default (1200 x 800 at 192 dpi: 2400 x 1600 pixels) is for
// print and makes frames four times as large and slow. The command line's --animate without --width,
// --height, --dpi and the GUI's dialog start from this.
inline FigureExportOptions default_animation_figure()
{
    FigureExportOptions f;
    f.size = QSizeF(1280.0, 720.0);
    f.dpi = 96.0;
    return f;
}

struct AnimationRequest {
    ViewKind view = ViewKind::Spectrum;
    Scenario scenario;     // the values of every field the sweep does not move
    ViewSettings settings; // as for the still export (export_view_settings)
    std::optional<Colormap> colormap;
    SweepSpec sweep;
    // Size, dpi, theme, font scale, caption: as the still export, every frame.
    FigureExportOptions figure = default_animation_figure();
    int fps = 20;
    AnimationFormat format = AnimationFormat::Mp4;
    bool per_frame_scale = false; // each frame its own colour scale / axes (the still export's)
};

// Throws ParameterError naming the option: "animate" (a field the method does not have or that cannot
// move: not a number; a log sweep through or below 0; from or to outside the field's range), "frames"
// (outside [1, kMaxAnimationFrames]), "fps" (outside the format's animation_limits), "width" / "height"
// (the frame's pixels, size * dpi / 96, outside the format's limits or odd for MP4).
void check_animation_request(const AnimationRequest& request);

// The swept value of frame `frame` in [0, frames): linear or geometric between from and to, the last
// frame exactly `to`; rounded to an integer for an integer field.
double sweep_value(const AnimationRequest& request, int frame);
// The frame's scenario and view settings: the request's with the swept value set.
Scenario frame_scenario(const AnimationRequest& request, int frame);
ViewSettings frame_settings(const AnimationRequest& request, int frame);
// The swept quantity's translated label ("RoPE base θ", "query position m").
QString sweep_label(const AnimationRequest& request);
// The frame's title: the view's title, then the swept label and value (display_number).
QString frame_title(const AnimationRequest& request, const ViewResult& data, int frame);

// Thread-safe, no widgets: what the view shows at frame `frame` (run_view_job). Throws what core throws.
ViewResult compute_frame_data(const AnimationRequest& request, int frame, const CancelFn& cancel = {});

// A closed range of a colour scale or an axis; empty (lo > hi) when not fixed.
struct ValueRange {
    double lo = 1.0, hi = 0.0;
    bool empty() const { return !(lo <= hi); }
    bool operator==(const ValueRange&) const = default;
};
// What stays fixed over the sweep. Heatmap: one colour range per panel index (or a single one when the
// panels share a scale). Curves: the chart's x and y. Spectrum: the frequency plot's y and the wavelength
// plot's y (x, the pair index, does not move). Rotation: nothing (its circles have fixed axes).
struct SweepScale {
    std::vector<ValueRange> colour;
    ValueRange x, y;
    ValueRange y2; // spectrum: the ratio plot (y: the wavelength plot)
    // Heatmap: the colour map of every frame (the request's, else the automatic choice for the whole
    // sweep: diverging when any frame is signed), so that the map does not switch mid-sweep.
    std::optional<Colormap> colormap;
    bool operator==(const SweepScale&) const = default;
};
// The union over every frame of what each frame would show (computes every frame: the cost of a second
// pass over the sweep). Empty (nothing fixed) with per_frame_scale. Thread-safe; throws Cancelled.
SweepScale sweep_scale(const AnimationRequest& request, const CancelFn& cancel = {},
                       const ProgressFn& progress = {});

// Fixes the data's colour ranges / axes to `scale` (HeatmapData::fixed_extremes, CurveData::fixed_ranges,
// SpectrumData::wavelength_ranges / ratio_ranges); an empty range leaves that one automatic. The still
// export never calls it. Plain data: any thread.
void apply_sweep_scale(ViewResult& data, const SweepScale& scale);
// GUI thread only: frame `frame` as the still export renders it (see "Equal to the still export" above).
QImage render_frame(const AnimationRequest& request, const ViewResult& data, const SweepScale& scale,
                    int frame);

// The whole animation on the calling thread: checks the request, computes the fixed scale, then computes,
// renders and writes one frame at a time to `path` (memory: a few frames). The file appears whole or not
// at all. Throws ParameterError (check_animation_request, core), OutputFileError, Cancelled. Progress:
// the scale pass, then the frames.
void export_animation(const AnimationRequest& request, const std::string& path,
                      AnimationCallbacks callbacks = {});

} // namespace posatlas::ui
