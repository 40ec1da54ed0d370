// SPDX-License-Identifier: GPL-3.0-or-later
// The per-layer keys of a config.json (io/model_layers.h): which attention span and which positional
// encoding each decoder layer has. Every rule names the transformers file it follows; keys a config omits
// take the default of the model's configuration class.
#include "io/model_config_detail.h"
#include "io/model_layers.h"

namespace posatlas::detail {

namespace {

const std::vector<std::string> kLayerTypes{"full_attention", "sliding_attention", "chunked_attention"};

bool family(std::string_view mt, std::initializer_list<std::string_view> names)
{
    return std::find(names.begin(), names.end(), mt) != names.end();
}

// num_hidden_layers of the configuration classes (configuration_<family>.py) when a config omits it.
int default_layer_count(std::string_view mt)
{
    if (family(mt, {"gemma2", "gemma3_text", "gemma3"}))
        return 26; // Gemma2Config, Gemma3TextConfig
    if (family(mt, {"gemma4_text", "gemma4"}))
        return 30; // Gemma4TextConfig
    if (family(mt, {"llama4", "llama4_text"}))
        return 48; // Llama4TextConfig
    if (mt == "smollm3")
        return 36; // SmolLM3Config
    if (mt == "cohere2")
        return 40; // Cohere2Config
    if (mt == "deepseek_v3")
        return 61; // DeepseekV3Config
    if (mt == "qwen2")
        return 32; // Qwen2Config
    return 32;     // LlamaConfig, MistralConfig
}

// A key moved from "not modelled" to "read": the per-layer-type rope_parameters the RoPE reader set aside.
void read_instead(ConfigImport& out, const std::string& dotted)
{
    auto& ig = out.ignored_keys;
    const auto it = std::find(ig.begin(), ig.end(), dotted);
    if (it == ig.end())
        return;
    ig.erase(it);
    add_unique(out.read_keys, dotted);
}

std::int64_t positive(Reader& r, const json& cfg, std::string_view key, std::int64_t fallback)
{
    const auto v = r.integer(cfg, key, std::string(key));
    if (v && *v < 1)
        throw ConfigError(std::string(key) + " must be a positive integer (got " + std::to_string(*v) + ")");
    return v.value_or(fallback);
}

struct LayerReader {
    Reader& r;
    const json& cfg;
    ConfigImport& out;
    std::string mt;
    int n = 0;

    void read()
    {
        const auto count = r.integer(cfg, "num_hidden_layers", "num_hidden_layers");
        if (count && (*count < 1 || *count > 100000))
            throw ConfigError("num_hidden_layers must be between 1 and 100000 (got " +
                              std::to_string(*count) + ")");
        n = count ? static_cast<int>(*count) : default_layer_count(mt);
        if (!count)
            r.note("num_hidden_layers absent: the configuration class's default " + std::to_string(n));
        out.layers.assign(static_cast<std::size_t>(n), LayerAnatomy{});
        for (int i = 0; i < n; ++i)
            out.layers[static_cast<std::size_t>(i)].index = i;

        std::vector<int> uses_rope = rope_layers();
        const std::vector<std::string> types = layer_types(uses_rope);
        const bool any_sliding = std::count(types.begin(), types.end(), "sliding_attention") > 0;
        const bool any_chunked = std::count(types.begin(), types.end(), "chunked_attention") > 0;
        // A family whose code has no sliding window (LlamaAttention) leaves sliding_window "not modelled".
        const bool window_known =
            any_sliding || present(cfg, "layer_types") ||
            family(mt, {"gemma2", "gemma3_text", "gemma3", "gemma4_text", "gemma4", "cohere2", "mistral",
                        "mixtral", "phi3", "qwen2", "qwen2_moe", "qwen3", "qwen3_moe", "smollm3"});
        const std::int64_t window = window_known ? sliding_window(any_sliding) : 0;
        const std::int64_t chunk = chunk_size(any_chunked);
        const RopeParams& global = out.scenario.params<RopeParams>();
        temperature();
        for (int i = 0; i < n; ++i) {
            LayerAnatomy& a = out.layers[static_cast<std::size_t>(i)];
            const std::string& t = types[static_cast<std::size_t>(i)];
            if (t == "sliding_attention") {
                a.attention = LayerAttention::Sliding;
                a.span = window;
            } else if (t == "chunked_attention") {
                a.attention = LayerAttention::Chunked;
                a.span = chunk;
            }
            a.rope = uses_rope[static_cast<std::size_t>(i)] != 0;
            if (!a.rope) {
                a.rope_type = "none";
                a.rope_theta = 0.0;
                a.rope_factor = 1.0;
                a.temperature = m_temperature;
                a.floor_scale = m_temperature ? m_floor_scale : 0.0;
                a.attn_scale = m_temperature ? m_attn_scale : 0.0;
                continue;
            }
            a.rope_theta = global.rope_theta;
            // Gemma 4's proportional RoPE is p-RoPE over the whole head (model_config_rope.cpp).
            a.rope_type = global.frequency_fraction < 1.0 ? "proportional"
                                                          : std::string(rope_type_id(global.rope_type));
            a.rope_factor = global.factor;
            if (t != "full_attention")
                local_rope(t, a);
        }
    }

    // 1 where a layer uses RoPE. SmolLM3 and Llama 4: no_rope_layers (1 = RoPE), by default
    // int((i + 1) % no_rope_layer_interval != 0) (SmolLM3Config, Llama4TextConfig). Cohere2 has no such
    // list: its global layers are NoPE (Cohere2Attention), decided with the layer types below.
    std::vector<int> rope_layers()
    {
        std::vector<int> on(static_cast<std::size_t>(n), 1);
        if (!family(mt, {"smollm3", "llama4", "llama4_text"}) && !present(cfg, "no_rope_layers"))
            return on;
        const auto interval = positive(r, cfg, "no_rope_layer_interval", 4);
        const json* list = r.find(cfg, "no_rope_layers", "no_rope_layers");
        // Llama4TextConfig: `self.no_rope_layers if self.no_rope_layers else default`: an empty list too.
        if (!list || (list->is_array() && list->empty())) {
            for (int i = 0; i < n; ++i)
                on[static_cast<std::size_t>(i)] = (i + 1) % interval != 0 ? 1 : 0;
            r.note("no_rope_layers absent: every " + std::to_string(interval) +
                   "th layer is NoPE (int((i + 1) % no_rope_layer_interval != 0), 1 = RoPE)");
            return on;
        }
        if (!list->is_array())
            throw ConfigError("no_rope_layers must be a list of 0 and 1 (got " + show(*list) + ")");
        if (list->size() < static_cast<std::size_t>(n))
            throw ConfigError("no_rope_layers has " + std::to_string(list->size()) +
                              " entries but num_hidden_layers is " + std::to_string(n));
        for (int i = 0; i < n; ++i) {
            const json& e = (*list)[static_cast<std::size_t>(i)];
            if (!(e.is_number_integer() || e.is_boolean()) ||
                (e.is_number_integer() && e.get<std::int64_t>() != 0 && e.get<std::int64_t>() != 1))
                throw ConfigError("no_rope_layers[" + std::to_string(i) + "] must be 0 or 1 (got " + show(e) +
                                  ")");
            on[static_cast<std::size_t>(i)] = e.is_boolean() ? (e.get<bool>() ? 1 : 0) : e.get<int>();
        }
        return on;
    }

    std::vector<std::string> layer_types(std::vector<int>& uses_rope)
    {
        std::vector<std::string> types(static_cast<std::size_t>(n), "full_attention");
        const json* given = r.find(cfg, "layer_types", "layer_types");
        if (given) {
            if (!given->is_array())
                throw ConfigError("layer_types must be a list of layer types (got " + show(*given) + ")");
            if (given->size() != static_cast<std::size_t>(n))
                throw ConfigError("layer_types has " + std::to_string(given->size()) +
                                  " entries but num_hidden_layers is " + std::to_string(n));
            for (int i = 0; i < n; ++i) {
                const json& e = (*given)[static_cast<std::size_t>(i)];
                if (!e.is_string() || std::find(kLayerTypes.begin(), kLayerTypes.end(),
                                                e.get<std::string>()) == kLayerTypes.end())
                    throw ConfigError("layer_types[" + std::to_string(i) +
                                      "] must be one of full_attention, sliding_attention, chunked_attention "
                                      "(got " +
                                      show(e) + ")");
                types[static_cast<std::size_t>(i)] = e.get<std::string>();
            }
        } else {
            default_types(types, uses_rope);
        }
        // Cohere2Attention: RoPE on the sliding layers only.
        if (mt == "cohere2")
            for (int i = 0; i < n; ++i)
                uses_rope[static_cast<std::size_t>(i)] =
                    types[static_cast<std::size_t>(i)] == "sliding_attention";
        return types;
    }

    std::int64_t pattern(std::int64_t fallback)
    {
        const char* key = present(cfg, "sliding_window_pattern") || !present(cfg, "_sliding_window_pattern")
                              ? "sliding_window_pattern"
                              : "_sliding_window_pattern";
        return positive(r, cfg, key, fallback);
    }

    // The layer types each configuration class derives when layer_types is absent.
    void default_types(std::vector<std::string>& types, const std::vector<int>& uses_rope)
    {
        const auto every = [&](std::int64_t p, const std::string& why) {
            for (int i = 0; i < n; ++i)
                if ((i + 1) % p != 0)
                    types[static_cast<std::size_t>(i)] = "sliding_attention";
            r.note("layer_types absent: layer i slides when (i + 1) % " + std::to_string(p) + " != 0 (" +
                   why + ")");
        };
        if (mt == "gemma2") {
            every(2, "Gemma2Config");
        } else if (family(mt, {"gemma3_text", "gemma3"})) {
            every(pattern(6), "Gemma3TextConfig, sliding_window_pattern");
        } else if (family(mt, {"gemma4_text", "gemma4"})) {
            // Gemma4TextConfig.__post_init__: a fixed pattern of 6 (not a config key), and the last layer is
            // always full_attention.
            every(6, "Gemma4TextConfig");
            types.back() = "full_attention";
        } else if (mt == "cohere2") {
            every(pattern(4), "Cohere2Config, sliding_window_pattern");
        } else if (family(mt, {"llama4", "llama4_text"})) {
            // Llama4TextConfig: chunked_attention on the RoPE layers, full_attention on the NoPE ones.
            for (int i = 0; i < n; ++i)
                if (uses_rope[static_cast<std::size_t>(i)])
                    types[static_cast<std::size_t>(i)] = "chunked_attention";
        } else if (family(mt, {"qwen2", "qwen2_moe", "qwen3", "qwen3_moe", "smollm3"}) ||
                   present(cfg, "use_sliding_window")) {
            // Qwen2Config: sliding when use_sliding_window and i >= max_window_layers; SmolLM3Config: when
            // use_sliding_window and the layer is NoPE.
            const bool on = r.boolean(cfg, "use_sliding_window", "use_sliding_window").value_or(false);
            const bool has_window = present(cfg, "sliding_window") || mt != "smollm3";
            if (mt == "smollm3") {
                for (int i = 0; i < n; ++i)
                    if (on && has_window && !uses_rope[static_cast<std::size_t>(i)])
                        types[static_cast<std::size_t>(i)] = "sliding_attention";
                return;
            }
            const auto first = r.integer(cfg, "max_window_layers", "max_window_layers").value_or(28);
            for (int i = 0; i < n; ++i)
                if (on && i >= first)
                    types[static_cast<std::size_t>(i)] = "sliding_attention";
            if (!on)
                r.note("use_sliding_window is false: every layer attends to the whole sequence");
        } else if (family(mt, {"mistral", "mixtral", "phi3"}) &&
                   (present(cfg, "sliding_window") || (mt == "mistral" && !cfg.contains("sliding_window")))) {
            // MistralAttention, MixtralAttention, Phi3Attention: the sliding window on every layer.
            // MistralConfig's default sliding_window is 4096.
            std::fill(types.begin(), types.end(), "sliding_attention");
        }
    }

    std::int64_t sliding_window(bool needed)
    {
        const auto w = r.integer(cfg, "sliding_window", "sliding_window");
        if (w && *w < 1)
            throw ConfigError("sliding_window must be a positive integer (got " + std::to_string(*w) + ")");
        if (!needed)
            return 0;
        if (w)
            return *w;
        if (cfg.contains("sliding_window"))
            throw ConfigError("layer_types has sliding_attention layers but sliding_window is null");
        if (family(mt, {"gemma4_text", "gemma4"})) {
            r.note("sliding_window absent: Gemma4TextConfig's default 512");
            return 512;
        }
        r.note("sliding_window absent: the configuration class's default 4096");
        return 4096; // Gemma2Config, Gemma3TextConfig, Cohere2Config, MistralConfig, Qwen2Config
    }

    std::int64_t chunk_size(bool needed)
    {
        const auto c = r.integer(cfg, "attention_chunk_size", "attention_chunk_size");
        if (c && *c < 1)
            throw ConfigError("attention_chunk_size must be a positive integer (got " + std::to_string(*c) +
                              ")");
        if (!needed)
            return 0;
        if (c)
            return *c;
        if (cfg.contains("attention_chunk_size"))
            throw ConfigError("layer_types has chunked_attention layers but attention_chunk_size is null");
        r.note("attention_chunk_size absent: Llama4TextConfig's default 8192");
        return 8192;
    }

    // Llama 4: attn_temperature_tuning (Python truthiness: Scout's config says 4), floor_scale, attn_scale.
    void temperature()
    {
        if (!family(mt, {"llama4", "llama4_text"}) && !present(cfg, "attn_temperature_tuning"))
            return;
        const json* t = r.find(cfg, "attn_temperature_tuning", "attn_temperature_tuning");
        if (t && !t->is_boolean() && !t->is_number())
            throw ConfigError("attn_temperature_tuning must be true, false or a number (got " + show(*t) +
                              ")");
        m_temperature = !t || (t->is_boolean() ? t->get<bool>() : t->get<double>() != 0.0);
        const auto floor_scale = r.number(cfg, "floor_scale", "floor_scale");
        const auto attn_scale = r.number(cfg, "attn_scale", "attn_scale");
        if (floor_scale && *floor_scale <= 0.0)
            throw ConfigError("floor_scale must be positive (got " + format_number(*floor_scale) + ")");
        m_floor_scale = floor_scale.value_or(8192.0);
        m_attn_scale = attn_scale.value_or(0.1);
    }

    // RoPE of a sliding or chunked layer: rope_parameters[its type] (Transformers v5), else Gemma 3's
    // rope_local_base_freq with default RoPE (Gemma3RotaryEmbedding of the local layers), else the global's.
    void local_rope(const std::string& type, LayerAnatomy& a)
    {
        const auto rp = cfg.find("rope_parameters");
        if (rp != cfg.end() && rp->is_object() && rp->contains(type) && rp->at(type).is_object()) {
            const json& d = rp->at(type);
            const std::string k = "rope_parameters." + type;
            read_instead(out, k);
            if (const auto th = r.number(d, "rope_theta", k + ".rope_theta"))
                a.rope_theta = *th;
            a.rope_type = r.string(d, "rope_type", k + ".rope_type").value_or("default");
            a.rope_factor =
                a.rope_type == "default" ? 1.0 : r.number(d, "factor", k + ".factor").value_or(1.0);
            if (a.rope_theta <= 0.0)
                throw ConfigError(k + ".rope_theta must be positive (got " + format_number(a.rope_theta) +
                                  ")");
            return;
        }
        if (family(mt, {"gemma3_text", "gemma3"}) && type == "sliding_attention") {
            const auto base = r.number(cfg, "rope_local_base_freq", "rope_local_base_freq");
            if (base && *base <= 0.0)
                throw ConfigError("rope_local_base_freq must be positive (got " + format_number(*base) + ")");
            a.rope_theta = base.value_or(10000.0);
            a.rope_type = "default";
            a.rope_factor = 1.0;
            if (!m_local_noted)
                r.note(
                    "rope_local_base_freq " + format_number(a.rope_theta) +
                    ": the RoPE base of the sliding-window layers (default RoPE, no scaling); the views show "
                    "the global layers' rope_theta");
            m_local_noted = true;
        }
    }

    bool m_local_noted = false;
    bool m_temperature = false;
    double m_floor_scale = 0.0;
    double m_attn_scale = 0.0;
};

} // namespace

void read_layers(Reader& r, const json& cfg, ConfigImport& out)
{
    LayerReader lr{r, cfg, out, out.model_type};
    lr.read();
    // Cohere's configs name the rotation they use: "rope_gptj", the interleaved pairs Cohere2's rotate_half
    // takes (x[..., ::2], x[..., 1::2]), which the RoPE reader already chose for cohere2.
    if (out.model_type == "cohere2") {
        const auto pe = r.string(cfg, "position_embedding_type", "position_embedding_type");
        if (pe && *pe != "rope_gptj")
            throw ConfigError("position_embedding_type must be rope_gptj for cohere2 (got '" +
                              quote_input(*pe) + "')");
    }
    // DeepSeek's multi-head latent attention: qk_nope_head_dim is the part of each head without position
    // (its size does not change the rotary part the views show); rope_interleave (DeepseekV3Config, default
    // true) chooses adjacent pairs (apply_rotary_pos_emb_interleave) over rotate_half.
    if (out.model_type == "deepseek_v3" || out.model_type == "deepseek_v2") {
        if (const auto nope = r.integer(cfg, "qk_nope_head_dim", "qk_nope_head_dim"); nope && *nope < 0)
            throw ConfigError("qk_nope_head_dim must not be negative (got " + std::to_string(*nope) + ")");
        if (const auto inter = r.boolean(cfg, "rope_interleave", "rope_interleave"); inter && !*inter) {
            out.scenario.params<RopeParams>().pairing = RopePairing::Half;
            r.note("rope_interleave is false: pairing half (i, i + d/2), rotate_half");
        }
    }
}

} // namespace posatlas::detail
