// SPDX-License-Identifier: GPL-3.0-or-later
// Multimodal RoPE in a model config (Qwen2-VL, Qwen2.5-VL, Qwen3-VL): the sections that share the rotary
// pairs out among time, rows and columns, where the configs keep them
//   rope_scaling.mrope_section            Qwen2VLConfig, Qwen2_5_VLConfig (with type "mrope"),
//   Qwen3VLTextConfig rope_parameters.mrope_section         transformers v5 (standardize_rope_params)
//   mrope_section                         top level (some exports)
//   rope_scaling.mrope_interleaved        Qwen3-VL (apply_interleaved_mrope)
// and the vision tower's spatial_merge_size and (Qwen2.5-VL) tokens_per_second from vision_config. The text
// model's head_dim and rope_theta come from the RoPE reader (model_config_rope.cpp); the layout of text and
// image tokens is the viewer's, not the model's.
#include "io/model_config_detail.h"
#include "methods/mrope/mrope.h"

namespace posatlas::detail {

namespace {

// Qwen2_5_VLVisionConfig's default tokens_per_second (the published Qwen2.5-VL checkpoints write 2).
constexpr int kQwen25DefaultTokensPerSecond = 4;
// spatial_merge_size of Qwen2VLVisionConfig, Qwen2_5_VLVisionConfig and Qwen3VLVisionConfig.
constexpr int kDefaultSpatialMerge = 2;

bool is_qwen3_vl(std::string_view mt)
{
    return mt == "qwen3_vl" || mt == "qwen3_vl_moe" || mt == "qwen3_vl_text";
}

std::vector<double> checked_section(std::vector<double> v, const std::string& dotted)
{
    const bool whole = std::all_of(v.begin(), v.end(), [](double x) { return x >= 0 && x == std::floor(x); });
    if (v.size() != 3 || !whole)
        throw ConfigError(dotted + " must be three whole numbers [t, h, w] (got " + show(json(v)) + ")");
    return v;
}

} // namespace

bool read_mrope(Reader& r, const json& cfg, Scenario& s, std::string_view model_type)
{
    std::vector<double> section;
    std::string where;
    std::optional<bool> interleaved;
    for (const char* dict : {"rope_scaling", "rope_parameters"}) {
        if (!present(cfg, dict) || !cfg.at(dict).is_object())
            continue;
        const json& d = cfg.at(dict);
        const std::string pre = std::string(dict) + ".";
        if (section.empty() && present(d, "mrope_section")) {
            where = pre + "mrope_section";
            section = checked_section(r.number_list(d, "mrope_section", where), where);
        }
        if (!interleaved)
            interleaved = r.boolean(d, "mrope_interleaved", pre + "mrope_interleaved");
    }
    if (section.empty() && present(cfg, "mrope_section")) {
        where = "mrope_section";
        section = checked_section(r.number_list(cfg, "mrope_section", where), where);
    }
    if (!interleaved)
        interleaved = r.boolean(cfg, "mrope_interleaved", "mrope_interleaved");
    if (section.empty())
        return false;

    const RopeParams& rope = s.params<RopeParams>();
    MropeParams& m = s.params<MropeParams>();
    m.head_dim = rope.head_dim;
    m.rope_theta = rope.rope_theta;
    m.mrope_section = section;
    const json* vision = present(cfg, "vision_config") && cfg.at("vision_config").is_object()
                             ? &cfg.at("vision_config")
                             : nullptr;
    const bool qwen25 = model_type == "qwen2_5_vl" || (vision && present(*vision, "tokens_per_second"));
    if (is_qwen3_vl(model_type) || interleaved.value_or(false)) {
        m.variant = MropeVariant::Qwen3VL;
        if (is_qwen3_vl(model_type) && !interleaved.value_or(true))
            r.note(
                "mrope_interleaved false is not what Qwen3-VL does: its rotary embedding always interleaves "
                "(apply_interleaved_mrope)");
    } else {
        m.variant = qwen25 ? MropeVariant::Qwen25VL : MropeVariant::Qwen2VL;
    }
    const auto merge = vision ? r.small_int(*vision, "spatial_merge_size", "vision_config.spatial_merge_size")
                              : std::nullopt;
    m.spatial_merge_size = merge.value_or(kDefaultSpatialMerge);
    if (!merge)
        r.note("vision_config.spatial_merge_size absent: the vision configs' default 2");
    if (m.variant == MropeVariant::Qwen25VL) {
        const auto tps = vision ? r.small_int(*vision, "tokens_per_second", "vision_config.tokens_per_second")
                                : std::nullopt;
        m.tokens_per_second = tps.value_or(kQwen25DefaultTokensPerSecond);
        if (!tps)
            r.note("vision_config.tokens_per_second absent: Qwen2_5_VLVisionConfig default 4");
    }
    if (rope.rope_type != RopeType::Default || rope.partial_rotary_factor != 1.0)
        r.note(
            "multimodal RoPE uses the default frequencies over the whole head: the scaling or partial rotary "
            "factor read beside " +
            where + " is not applied");
    s.method = kMRoPE;
    r.note(where + " read: multimodal RoPE (" + std::string(mrope_variant_id(m.variant)) +
           "); the token layout (text, images, videos) is the viewer's (--token-layout)");
    return true;
}

} // namespace posatlas::detail
