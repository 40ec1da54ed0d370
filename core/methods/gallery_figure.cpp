// SPDX-License-Identifier: GPL-3.0-or-later
#include "methods/gallery_figure.h"

#include "io/presets.h"
#include "scenario/params.h"

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

} // namespace posatlas
