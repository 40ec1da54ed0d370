// SPDX-License-Identifier: GPL-3.0-or-later
// M-RoPE's layout, position ids and logits (mrope.h), and its descriptor (mrope_method.cpp).
#include "methods/mrope/mrope.h"

#include "methods/rope/rope_params.h"
#include "scenario/validation.h"

#include <algorithm>
#include <charconv>
#include <iterator>
#include <optional>
#include <string>

namespace posatlas {
namespace {

constexpr std::int64_t kMaxGridSide = 1'000'000; // each of T, H, W and N; products are bounded below

std::string allowed_layout(int merge)
{
    return "comma-separated items text:N, image:TxHxW or video:TxHxW[@S] (N, T, H, W positive integers, H "
           "and "
           "W multiples of spatial_merge_size " +
           std::to_string(merge) + ", S >= 0 seconds; at most " + std::to_string(mrope_max_tokens()) +
           " tokens)";
}

std::string_view trim(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
        s.remove_suffix(1);
    return s;
}

// A positive integer up to kMaxGridSide, all of `s`; nullopt otherwise.
std::optional<std::int64_t> positive(std::string_view s)
{
    std::int64_t v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || ec != std::errc() || end != s.data() + s.size() || v < 1 || v > kMaxGridSide)
        return std::nullopt;
    return v;
}

} // namespace

std::string_view mrope_variant_id(MropeVariant v)
{
    switch (v) {
    case MropeVariant::Qwen2VL: return "qwen2-vl";
    case MropeVariant::Qwen25VL: return "qwen2.5-vl";
    case MropeVariant::Qwen3VL: return "qwen3-vl";
    }
    return "";
}

std::string_view mrope_token_kind_id(MropeTokenKind k)
{
    switch (k) {
    case MropeTokenKind::Text: return "text";
    case MropeTokenKind::Image: return "image";
    case MropeTokenKind::Video: return "video";
    }
    return "";
}

std::int64_t mrope_max_tokens()
{
    return kMaxSeqLen;
}

std::vector<MropeItem> parse_mrope_layout(const MropeParams& p)
{
    const int merge = std::max(1, p.spatial_merge_size);
    const auto fail = [&](std::string_view got) {
        std::string shown(got.substr(0, 64));
        if (got.size() > 64)
            shown += "...";
        throw ParameterError("token_layout", allowed_layout(merge), shown.empty() ? "an empty item" : shown);
    };
    std::vector<MropeItem> items;
    std::int64_t total = 0;
    std::string_view rest = p.layout;
    if (trim(rest).empty())
        fail("");
    while (true) {
        const std::size_t comma = rest.find(',');
        const std::string_view item = trim(rest.substr(0, comma));
        const std::size_t colon = item.find(':');
        if (colon == std::string_view::npos)
            fail(item);
        const std::string_view kind = trim(item.substr(0, colon));
        std::string_view value = trim(item.substr(colon + 1));
        MropeItem it;
        if (kind == "text") {
            const auto n = positive(value);
            if (!n)
                fail(item);
            it.count = *n;
        } else if (kind == "image" || kind == "video") {
            it.kind = kind == "image" ? MropeTokenKind::Image : MropeTokenKind::Video;
            if (const std::size_t at = value.find('@'); at != std::string_view::npos) {
                if (it.kind != MropeTokenKind::Video)
                    fail(item);
                const std::string seconds(trim(value.substr(at + 1)));
                std::size_t used = 0;
                try {
                    it.second_per_grid_t = std::stod(seconds, &used);
                } catch (const std::exception&) {
                    fail(item);
                }
                if (used != seconds.size() || !(it.second_per_grid_t >= 0.0 && it.second_per_grid_t <= 1e4))
                    fail(item);
                value = trim(value.substr(0, at));
            }
            const std::size_t x1 = value.find('x');
            const std::size_t x2 = x1 == std::string_view::npos ? x1 : value.find('x', x1 + 1);
            if (x2 == std::string_view::npos)
                fail(item);
            const auto t = positive(value.substr(0, x1)), h = positive(value.substr(x1 + 1, x2 - x1 - 1)),
                       w = positive(value.substr(x2 + 1));
            if (!t || !h || !w || *h % merge != 0 || *w % merge != 0)
                fail(item);
            it.t = *t;
            it.h = *h;
            it.w = *w;
            const std::int64_t rows = *h / merge, cols = *w / merge;
            if (rows * cols > mrope_max_tokens() || *t > mrope_max_tokens() / (rows * cols))
                fail(item);
            it.count = *t * rows * cols;
        } else {
            fail(item);
        }
        total += it.count;
        if (total > mrope_max_tokens())
            fail(item);
        items.push_back(it);
        if (comma == std::string_view::npos)
            break;
        rest.remove_prefix(comma + 1);
    }
    return items;
}

std::int64_t mrope_time_step(double second_per_grid_t, int tokens_per_second)
{
    // Qwen2_5_VLModel.get_rope_index: torch.as_tensor(second_per_grid_t, dtype=range_tensor.dtype) makes it
    // an integer (truncated) before frame * second_per_grid_t * tokens_per_second.
    return static_cast<std::int64_t>(second_per_grid_t) * tokens_per_second;
}

MropePositions::MropePositions(const MropeParams& p)
{
    const std::int64_t merge = std::max(1, p.spatial_merge_size);
    std::int64_t token = 0, next = 0;
    for (const MropeItem& it : parse_mrope_layout(p)) {
        if (it.kind == MropeTokenKind::Text) {
            m_runs.push_back({MropeTokenKind::Text, token, it.count, next});
            token += it.count;
            next += it.count;
            continue;
        }
        const std::int64_t gh = it.h / merge, gw = it.w / merge;
        const auto add_grid = [&](std::int64_t frames, std::int64_t step) {
            m_runs.push_back({it.kind, token, frames * gh * gw, next, gh, gw, step});
            token += frames * gh * gw;
            next += std::max({(frames - 1) * step, gh - 1, gw - 1}) + 1;
        };
        if (p.variant == MropeVariant::Qwen3VL && it.kind == MropeTokenKind::Video) {
            for (std::int64_t f = 0; f < it.t; ++f) // one grid per frame (t = 1)
                add_grid(1, 0);
        } else if (p.variant == MropeVariant::Qwen25VL) {
            const double seconds = it.kind == MropeTokenKind::Image ? 0.0
                                   : it.second_per_grid_t >= 0.0    ? it.second_per_grid_t
                                                                    : p.second_per_grid_t;
            add_grid(it.t, mrope_time_step(seconds, p.tokens_per_second));
        } else {
            add_grid(it.t, 1);
        }
    }
    m_layout_tokens = token;
    m_next_id = next;
}

MropePosition MropePositions::at(std::int64_t token) const
{
    if (token >= m_layout_tokens) {
        const std::int64_t id = m_next_id + (token - m_layout_tokens);
        return {MropeTokenKind::Text, id, id, id};
    }
    const auto run = std::prev(std::upper_bound(m_runs.begin(), m_runs.end(), token,
                                                [](std::int64_t v, const Run& r) { return v < r.first; }));
    const std::int64_t local = token - run->first;
    if (run->kind == MropeTokenKind::Text)
        return {MropeTokenKind::Text, run->start + local, run->start + local, run->start + local};
    const std::int64_t per_frame = run->gh * run->gw, frame = local / per_frame, cell = local % per_frame;
    return {run->kind, run->start + frame * run->time_step, run->start + cell / run->gw,
            run->start + cell % run->gw};
}

std::vector<int> mrope_sections(const MropeParams& p)
{
    const int pairs = p.head_dim / 2;
    if (p.mrope_section.empty()) {
        const int hw = p.variant == MropeVariant::Qwen3VL ? pairs * 20 / 64 : pairs * 3 / 8;
        return {pairs - 2 * hw, hw, hw};
    }
    std::vector<int> out;
    for (double v : p.mrope_section)
        out.push_back(static_cast<int>(v));
    return out;
}

std::vector<int> mrope_pair_axes(const MropeParams& p)
{
    const int pairs = p.head_dim / 2;
    std::vector<int> axes(static_cast<std::size_t>(pairs), 0);
    const std::vector<int> sections = mrope_sections(p);
    const auto section = [&](std::size_t a) { return a < sections.size() ? sections[a] : 0; };
    for (int i = 0; i < pairs; ++i) {
        int& axis = axes[static_cast<std::size_t>(i)];
        if (p.variant == MropeVariant::Qwen3VL) // apply_interleaved_mrope
            axis = (i % 3 == 1 && i < 3 * section(1)) ? 1 : (i % 3 == 2 && i < 3 * section(2)) ? 2 : 0;
        else // apply_multimodal_rotary_pos_emb: consecutive sections t, h, w
            axis = i < section(0) ? 0 : i < section(0) + section(1) ? 1 : 2;
    }
    return axes;
}

RopeFrequencies mrope_frequencies(const MropeParams& p)
{
    RopeParams r;
    r.head_dim = p.head_dim;
    r.rope_theta = p.rope_theta;
    return compute_rope_frequencies(r);
}

} // namespace posatlas
