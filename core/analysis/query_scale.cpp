// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/query_scale.h"

#include "scenario/attention_span.h"
#include "scenario/validation.h"

#include <cmath>
#include <limits>

namespace posatlas {

double logn_query_scale(std::int64_t pos, std::int64_t trained_length)
{
    const std::int64_t i = pos + 1; // logn_list is indexed from i = 1
    if (i <= trained_length)
        return 1.0;
    return std::log(static_cast<double>(i)) / std::log(static_cast<double>(trained_length));
}

double query_scale_at(const QueryScale& s, std::int64_t pos)
{
    switch (s.kind) {
    case QueryScaleKind::None: return 1.0;
    case QueryScaleKind::LogN: return logn_query_scale(pos, s.trained_length);
    case QueryScaleKind::Llama4: return query_temperature(s.floor_scale, s.attn_scale, pos);
    }
    return 1.0;
}

void validate(const QueryScale& s)
{
    switch (s.kind) {
    case QueryScaleKind::None: return;
    case QueryScaleKind::LogN: require_int("trained_length", s.trained_length, 2, kMaxSeqLen); return;
    case QueryScaleKind::Llama4:
        require_real("floor_scale", s.floor_scale, 0.0, 1e9, false);
        require_real("attn_scale", s.attn_scale, 0.0, 10.0, true);
        return;
    }
}

std::string_view query_scale_id(QueryScaleKind kind)
{
    switch (kind) {
    case QueryScaleKind::None: return "none";
    case QueryScaleKind::LogN: return "logn";
    case QueryScaleKind::Llama4: return "llama4";
    }
    return "none";
}

bool parse_query_scale_kind(std::string_view id, QueryScaleKind* out)
{
    for (QueryScaleKind k : {QueryScaleKind::None, QueryScaleKind::LogN, QueryScaleKind::Llama4})
        if (query_scale_id(k) == id) {
            *out = k;
            return true;
        }
    return false;
}

} // namespace posatlas
