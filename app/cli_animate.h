// SPDX-License-Identifier: GPL-3.0-or-later
// `posatlas export --animate FIELD=FROM:TO[:log]`: the export's figure swept over one parameter and
// written as MP4, GIF or APNG (export/animation_export.h), every figure option applying to every frame.
#pragma once

#include "cli_options.h"
#include "export/figure_export.h"
#include "jobs/view_data.h"
#include "views/colormap.h"

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace posatlas::cli {

// --animate, --frames, --fps, --per-frame-scale.
OptionTable animation_table();
// "mp4", "gif", "apng": what --format takes besides the still formats.
const std::vector<std::string>& animation_format_names();
// Throws UsageError when an animation option is given without --animate.
void check_animation_options(const Options& o);

// Writes the animation `o` asks for (--out FILE or - with --format) of the view `kind` of `s`, with the
// still export's settings and figure options. Throws UsageError, ParameterError (naming the option),
// OutputFileError; leaves no file on failure. Returns the exit status.
int run_animation(const Options& o, ui::ViewKind kind, const Scenario& s, const ui::ViewSettings& settings,
                  const ui::FigureExportOptions& figure, std::optional<ui::Colormap> colormap,
                  std::ostream& out);

} // namespace posatlas::cli
