// SPDX-License-Identifier: GPL-3.0-or-later
// The contract between the token-layout job (jobs/token_layout_job.h) and its view
// (views/token_layout_view.h): M-RoPE's sequence as text tokens and image patches, each token's three
// position ids (t, h, w), and the axis each rotary pair follows. Every number here was computed by core
// (methods/mrope/mrope.h: MropePositions, mrope_pair_axes); the view only places it.
#pragma once

#include <QString>

#include <cstdint>
#include <vector>

namespace posatlas::ui {

enum class LayoutTokenKind { Text, Image, Video };

// One item of the layout as drawn: a run of text tokens, or an image (a video) as its merged grid, one
// grid per frame.
struct LayoutBlock {
    LayoutTokenKind kind = LayoutTokenKind::Text;
    std::int64_t first = 0;                         // its first token in the sequence
    std::int64_t tokens = 0;                        // text: tokens; image / video: frames x rows x columns
    std::int64_t frames = 1, rows = 1, columns = 1; // image / video: the merged grid (text: 1 x 1 x tokens)
    QString label;                                  // "text · 5 tokens", "image 1×4×6 → 2×3 tokens"
};

struct TokenLayoutData {
    QString title; // "M-RoPE token layout · Qwen2-VL"; for another method, why there is nothing to show
    QString layout_text; // the layout as given: "text:5,image:1x4x6,text:3"
    std::vector<LayoutBlock> blocks;
    // The ids of tokens [0, ids_t.size()), MropePositions::at(token): every token of the blocks.
    std::vector<std::int64_t> ids_t, ids_h, ids_w;
    std::int64_t layout_tokens = 0; // tokens the layout describes (the blocks hold at most kMaxShownTokens)
    // The axis each rotary pair follows (0 t, 1 h, 2 w), mrope_pair_axes; pair i of head_dim / 2.
    std::vector<int> pair_axes;
    bool interleaved = false;  // Qwen3-VL's interleaved sections; else chunked (Qwen2-VL, 2.5-VL)
    std::vector<int> sections; // pairs per axis t, h, w (mrope_sections)
    QString note;              // under the figure: what was left out, how t advances
};

// At most this many tokens are drawn (a layout of up to mrope_max_tokens() tokens is accepted): the
// blocks stop at the item that crosses it, and the note says so.
inline constexpr std::int64_t kMaxShownTokens = 512;

} // namespace posatlas::ui
