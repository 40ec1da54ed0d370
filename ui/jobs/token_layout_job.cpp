// SPDX-License-Identifier: GPL-3.0-or-later
#include "jobs/token_layout_job.h"

#include "methods/mrope/mrope.h"

#include <QCoreApplication>
#include <QStringList>

#include <algorithm>

namespace posatlas::ui {

namespace {

struct TokenLayoutJob {
    Q_DECLARE_TR_FUNCTIONS(posatlas::ui::TokenLayoutJob)
};

LayoutTokenKind kind_of(MropeTokenKind k)
{
    switch (k) {
    case MropeTokenKind::Text: return LayoutTokenKind::Text;
    case MropeTokenKind::Image: return LayoutTokenKind::Image;
    case MropeTokenKind::Video: return LayoutTokenKind::Video;
    }
    return LayoutTokenKind::Text;
}

QString variant_name(MropeVariant v)
{
    switch (v) {
    case MropeVariant::Qwen2VL: return QStringLiteral("Qwen2-VL");
    case MropeVariant::Qwen25VL: return QStringLiteral("Qwen2.5-VL");
    case MropeVariant::Qwen3VL: return QStringLiteral("Qwen3-VL");
    }
    return {};
}

// The block of one parsed item: text as one run, an image or video as its merged grid.
LayoutBlock block_of(const MropeItem& item, int merge, std::int64_t first)
{
    LayoutBlock b;
    b.kind = kind_of(item.kind);
    b.first = first;
    if (item.kind == MropeTokenKind::Text) {
        b.columns = item.count;
        b.tokens = item.count;
        b.label = TokenLayoutJob::tr("text · %n token(s)", nullptr, static_cast<int>(item.count));
        return b;
    }
    b.frames = item.t;
    b.rows = item.h / merge;
    b.columns = item.w / merge;
    b.tokens = b.frames * b.rows * b.columns;
    const QString grid = QStringLiteral("%1×%2×%3").arg(item.t).arg(item.h).arg(item.w);
    const QString merged = b.frames == 1
                               ? QStringLiteral("%1×%2").arg(b.rows).arg(b.columns)
                               : QStringLiteral("%1×%2×%3").arg(b.frames).arg(b.rows).arg(b.columns);
    b.label = item.kind == MropeTokenKind::Image
                  ? TokenLayoutJob::tr("image %1 patches → %2 tokens").arg(grid, merged)
                  : TokenLayoutJob::tr("video %1 patches → %2 tokens").arg(grid, merged);
    return b;
}

} // namespace

bool shows_token_layout(const Scenario& s)
{
    return s.method == MropeParams::kMethod;
}

TokenLayoutData token_layout_job(const Scenario& s, const CancelFn& cancel)
{
    TokenLayoutData d;
    if (!shows_token_layout(s)) {
        d.title = TokenLayoutJob::tr("The token layout shows M-RoPE's (t, h, w) position ids: choose the "
                                     "method M-RoPE (Qwen2-VL, Qwen2.5-VL, Qwen3-VL)");
        return d;
    }
    const MropeParams& p = s.params<MropeParams>();
    const std::vector<MropeItem> items = parse_mrope_layout(p); // ParameterError naming token_layout
    const MropePositions positions(p);
    const int merge = std::max(1, p.spatial_merge_size);
    d.title = TokenLayoutJob::tr("M-RoPE token layout · %1").arg(variant_name(p.variant));
    d.layout_text = QString::fromStdString(p.layout);
    d.layout_tokens = positions.layout_tokens();
    std::int64_t first = 0;
    for (const MropeItem& item : items) {
        const LayoutBlock b = block_of(item, merge, first);
        if (first + b.tokens > kMaxShownTokens)
            break;
        d.blocks.push_back(b);
        first += b.tokens;
    }
    d.ids_t.reserve(static_cast<std::size_t>(first));
    for (std::int64_t i = 0; i < first; ++i) {
        if (i % 64 == 0)
            check_cancel(cancel);
        const MropePosition pos = positions.at(i);
        d.ids_t.push_back(pos.t);
        d.ids_h.push_back(pos.h);
        d.ids_w.push_back(pos.w);
    }
    d.pair_axes = mrope_pair_axes(p);
    d.sections = mrope_sections(p);
    d.interleaved = p.variant == MropeVariant::Qwen3VL;
    QStringList notes;
    if (first < d.layout_tokens)
        notes << TokenLayoutJob::tr("the first %1 of %2 tokens (whole items only)")
                     .arg(first)
                     .arg(d.layout_tokens);
    const bool video = std::any_of(items.begin(), items.end(),
                                   [](const MropeItem& i) { return i.kind == MropeTokenKind::Video; });
    if (video && p.variant == MropeVariant::Qwen25VL)
        notes << TokenLayoutJob::tr(
                     "a video's t advances %1 per frame (second_per_grid_t × tokens_per_second)")
                     .arg(mrope_time_step(p.second_per_grid_t, p.tokens_per_second));
    if (video && p.variant == MropeVariant::Qwen3VL)
        notes << TokenLayoutJob::tr("each video frame is a grid of its own (Qwen3-VL)");
    d.note = notes.join(TokenLayoutJob::tr(" · "));
    return d;
}

} // namespace posatlas::ui
