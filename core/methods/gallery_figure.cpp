// SPDX-License-Identifier: GPL-3.0-or-later
#include "methods/gallery_figure.h"

#include "analysis/patch_grid.h"
#include "io/number_text.h"
#include "io/presets.h"
#include "scenario/params.h"
#include "scenario/validation.h"

namespace posatlas {

Scenario gallery_preset(std::string_view id)
{
    return load_preset(id).scenario;
}

Scenario gallery_defaults(Method m)
{
    Scenario s;
    s.method = m;
    return s;
}

std::vector<std::string> query_patch_row_column(const GalleryFigureSpec& spec, const Scenario& s)
{
    const std::optional<PatchGrid> grid = patch_grid(s);
    if (!grid)
        throw ParameterError("method", "a method of image patches", std::string(s.method.id()));
    return {prose_number(static_cast<double>(spec.query_patch / grid->width)),
            prose_number(static_cast<double>(spec.query_patch % grid->width))};
}

} // namespace posatlas
