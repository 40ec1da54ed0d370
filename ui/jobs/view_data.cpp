// SPDX-License-Identifier: GPL-3.0-or-later
#include "jobs/view_data.h"

#include "methods/registry.h"

#include <QCoreApplication>

#include <algorithm>
#include <map>
#include <string_view>
#include <utility>

namespace posatlas::ui {

MatrixKind effective_matrix_kind(const Scenario& s, const ViewSettings& settings)
{
    const std::vector<MatrixKind> kinds = matrix_kinds_for(s.method);
    if (settings.matrix_kind && std::find(kinds.begin(), kinds.end(), *settings.matrix_kind) != kinds.end())
        return *settings.matrix_kind;
    return kinds.empty() ? MatrixKind::Logits : kinds.front();
}

int per_head_count(const Scenario& s)
{
    const MethodDescriptor& d = descriptor(s.method);
    return d.heads ? d.heads(s) : 0;
}

QString choice_caption(const Field& f, int index)
{
    // The names the papers and model cards use, where the config id or the panel's label is not one.
    static const std::map<std::pair<std::string_view, std::string_view>, const char*> names = {
        {{"rope_type", "linear"}, QT_TRANSLATE_NOOP("Caption", "linear (PI)")},
        {{"rope_type", "ntk"}, QT_TRANSLATE_NOOP("Caption", "NTK-aware")},
        {{"rope_type", "dynamic"}, QT_TRANSLATE_NOOP("Caption", "dynamic NTK")},
        {{"rope_type", "yarn"}, QT_TRANSLATE_NOOP("Caption", "YaRN")},
        {{"rope_type", "llama3"}, QT_TRANSLATE_NOOP("Caption", "Llama 3")},
        {{"rope_type", "longrope"}, QT_TRANSLATE_NOOP("Caption", "LongRoPE")},
        {{"scaling", "interpolate"}, QT_TRANSLATE_NOOP("Caption", "interpolated slopes")},
        {{"scaling", "ntk"}, QT_TRANSLATE_NOOP("Caption", "NTK-ALiBi")},
        {{"layout", "split"}, QT_TRANSLATE_NOOP("Caption", "split halves")},
    };
    const FieldChoice& c = f.choices.at(static_cast<std::size_t>(index));
    const auto it = names.find({std::string_view(f.key), c.id});
    return it != names.end() ? QCoreApplication::translate("Caption", it->second)
                             : QCoreApplication::translate("ParamSpec", c.label);
}

} // namespace posatlas::ui
