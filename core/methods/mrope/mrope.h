// SPDX-License-Identifier: GPL-3.0-or-later
// Multimodal rotary position embedding (M-RoPE): Qwen2-VL, Qwen2.5-VL and Qwen3-VL (Wang et al. 2024,
// "Qwen2-VL", arXiv:2409.12191, sec. 2.1; Bai et al. 2025, "Qwen2.5-VL Technical Report"; Qwen3-VL's
// interleaved layout). The reference implementation is Hugging Face transformers (4.5x):
//
//   Position ids, Qwen2VLModel.get_rope_index / Qwen2_5_VLModel.get_rope_index /
//   Qwen3VLModel.get_rope_index. Each token carries three ids (t, h, w). A text token has three equal ids
//   that continue after the largest id so far (+ 1). An image or video of grid_thw T x H x W (patches
//   before the merge) becomes T x (H / m) x (W / m) tokens, m = spatial_merge_size, whose ids are
//   (t_id, row, column) + start, start the largest id so far + 1, where
//     Qwen2-VL:   t_id = frame index;
//     Qwen2.5-VL: t_id = trunc(frame * second_per_grid_t * tokens_per_second), with second_per_grid_t 0
//                 for an image; the reference first converts second_per_grid_t to the integer dtype of
//                 its frame range (torch.as_tensor(..., dtype=range_tensor.dtype)), so 0.5 s counts as 0:
//                 reproduced here (mrope_time_step);
//     Qwen3-VL:   a video of T frames is T grids of one frame each (video_grid_thw repeated T times with
//                 t = 1: timestamps are text tokens between the frames), so every frame starts after the
//                 previous one's largest id.
//   Tokens after the layout are text, continuing as the reference's trailing text does.
//
//   Rotation, apply_multimodal_rotary_pos_emb (Qwen2-VL, Qwen2.5-VL) and
//   Qwen3VLTextRotaryEmbedding.apply_interleaved_mrope: the default RoPE frequencies θ_i =
//   rope_theta^(-2i/d) (compute_rope_frequencies) in the rotate_half layout, pairs (i, i + d/2), pair i
//   turning by id_axis(i) · θ_i, where axis(i) is
//     chunked (Qwen2-VL, Qwen2.5-VL): t for i < s_t, h for i < s_t + s_h, w after (mrope_section
//                 [s_t, s_h, s_w] with s_t + s_h + s_w = d/2; the reference splits the doubled section
//                 list over cos and sin, chunk k taking axis k mod 3);
//     interleaved (Qwen3-VL): h when i mod 3 = 1 and i < 3 s_h, w when i mod 3 = 2 and i < 3 s_w, else t.
//   llama.cpp names the same sections `<arch>.rope.dimension_sections` (ggml_rope_multi, GGML_ROPE_TYPE_MROPE
//   and GGML_ROPE_TYPE_IMROPE).
//
// The logit is (R(p_i) q_i) · (R(p_j) k_j) / sqrt(d), p the token's (t, h, w): for text alone every pair
// sees the same id and M-RoPE is 1D RoPE (rope.h) with the same θ.
#pragma once

#include "methods/method.h"
#include "methods/rope/rope_scaling.h"
#include "scenario/types.h"

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace posatlas {

inline constexpr Method kMRoPE{"mrope"};

struct Scenario;

enum class MropeVariant {
    Qwen2VL,  // chunked sections, frame index as t
    Qwen25VL, // chunked sections, t aligned to time (tokens_per_second, second_per_grid_t)
    Qwen3VL,  // interleaved sections, videos split into one-frame grids
};

struct MropeParams {
    static constexpr Method kMethod = kMRoPE;

    // Items "text:N", "image:TxHxW", "video:TxHxW" (grid_thw in patches before the merge; a video may end
    // in "@S", its own second_per_grid_t), separated by commas.
    std::string layout = "text:4,image:1x8x8,text:4";
    MropeVariant variant = MropeVariant::Qwen2VL;
    // Pairs per axis t, h, w, as configs give them; empty: the variant's own split scaled to head_dim / 2
    // (mrope_sections()).
    std::vector<double> mrope_section;
    int spatial_merge_size = 2;     // vision_config.spatial_merge_size
    int tokens_per_second = 2;      // Qwen2.5-VL vision_config.tokens_per_second
    double second_per_grid_t = 1.0; // Qwen2.5-VL: seconds per temporal grid of a video
    double rope_theta = 1000000.0;
    int head_dim = 128;

    bool operator==(const MropeParams&) const = default;
};

std::string_view mrope_variant_id(MropeVariant v); // "qwen2-vl", "qwen2.5-vl", "qwen3-vl"

enum class MropeTokenKind { Text, Image, Video };
std::string_view mrope_token_kind_id(MropeTokenKind k); // "text", "image", "video"

// One item of a parsed layout.
struct MropeItem {
    MropeTokenKind kind = MropeTokenKind::Text;
    std::int64_t count = 0;           // text: tokens
    std::int64_t t = 0, h = 0, w = 0; // image / video: grid_thw before the merge
    double second_per_grid_t = -1.0;  // video: its own seconds per grid (< 0: the parameter's)
};

// The largest number of tokens a layout may describe (the scenario's seq_len bound).
std::int64_t mrope_max_tokens();

// Parses p.layout; throws ParameterError("token_layout", <the allowed form>, <the item>) for an empty layout,
// an unknown kind, a malformed or non-positive number, H or W not a multiple of spatial_merge_size, or more
// tokens than mrope_max_tokens().
std::vector<MropeItem> parse_mrope_layout(const MropeParams& p);

// The position ids of a layout as runs of tokens (the layout's items after the merge; Qwen3-VL's videos one
// run per frame), evaluated at any token index in O(log runs), so that a sampled matrix of 10^7 tokens
// never lists them all.
struct MropePosition {
    MropeTokenKind kind = MropeTokenKind::Text;
    std::int64_t t = 0, h = 0, w = 0;
    std::int64_t id(int axis) const { return axis == 0 ? t : axis == 1 ? h : w; }
};
class MropePositions
{
public:
    // Consecutive tokens of one item: text (ids start + k on every axis) or a grid, whose token k has
    // frame k / (gh gw), row (k mod gh gw) / gw and column k mod gw, and ids
    // (start + frame * time_step, start + row, start + column).
    struct Run {
        MropeTokenKind kind;
        std::int64_t first, count, start; // first token, tokens, id added to every id of the run
        std::int64_t gh = 1, gw = 1;      // merged grid rows and columns (grids)
        std::int64_t time_step = 0;       // t id of frame f: f * time_step (grids)
    };

    explicit MropePositions(const MropeParams& p); // parses the layout (ParameterError as above)
    MropePosition at(std::int64_t token) const;    // token >= 0; past the layout: text
    std::int64_t layout_tokens() const { return m_layout_tokens; }
    const std::vector<Run>& runs() const { return m_runs; } // the layout's, in token order
    std::int64_t next_id() const { return m_next_id; }      // the id of the first token past the layout

private:
    std::vector<Run> m_runs;
    std::int64_t m_layout_tokens = 0;
    std::int64_t m_next_id = 0; // the first id of text after the layout
};

// Qwen2.5-VL's step of t ids per frame: trunc(second_per_grid_t) * tokens_per_second (see above).
std::int64_t mrope_time_step(double second_per_grid_t, int tokens_per_second);

// The sections in effect: mrope_section, or when it is empty the published split for head_dim 128 scaled to
// head_dim / 2 pairs: Qwen2-VL and Qwen2.5-VL [16, 24, 24] (h = w = floor(3/8 of the pairs), t the rest),
// Qwen3-VL [24, 20, 20] (h = w = floor(20/64 of the pairs), t the rest).
std::vector<int> mrope_sections(const MropeParams& p);

// The axis (0 t, 1 h, 2 w) each rotary pair i in [0, head_dim/2) follows.
std::vector<int> mrope_pair_axes(const MropeParams& p);

// The default RoPE frequencies M-RoPE uses (rope_theta, head_dim; HF's default rope_init_fn).
RopeFrequencies mrope_frequencies(const MropeParams& p);

// The logit curve of one query with position-independent content (MethodDescriptor::distance_logits):
// the logits of `query` against the keys at distances r in [first, last), written to out[r - first], each
// the cell (query, query - r) of the M-RoPE logits. With q, k the content vectors and pair i = (i, i + d/2)
// turning by Q_i = id_axis(i)(query) and K_i = id_axis(i)(key) times θ_i,
//   logit = Σ_i [A_i cos θ_i (Q_i - K_i) + B_i sin θ_i (Q_i - K_i)] / sqrt(d),
//   A_i = q_i k_i + q_{i+d/2} k_{i+d/2},  B_i = q_i k_{i+d/2} - q_{i+d/2} k_i (0 for content.h's kinds, whose
//   position-independent q equals k; kept for any q, k),
// = Σ_i [wc_i cos θ_i K_i + ws_i sin θ_i K_i] / sqrt(d) with the query's rotation folded into the weights
// (wc_i = A_i cos θ_i Q_i + B_i sin θ_i Q_i, ws_i = A_i sin θ_i Q_i - B_i cos θ_i Q_i). Text keys have
// K_i = their id on every axis: one weighted sinusoid sum over consecutive ids (SinusoidSum::range, float32
// with Precision::Single). A grid's key sums three parts, one per axis, each a function of that axis's id
// alone: tables over the grid's frames, rows and columns, built once. The matrix rotates by the rounded
// product id·θ_i, the sums by the exact one (exact_angle.h): they differ by that rounding, at most
// 2^-53 id θ_i per pair. The evaluator is called from several threads at once and starts no parallel work.
std::function<void(std::int64_t first, std::int64_t last, double* out)>
mrope_distance_logits(const Scenario& s, std::int64_t query, Precision precision);

} // namespace posatlas
