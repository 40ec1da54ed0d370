// SPDX-License-Identifier: GPL-3.0-or-later
// RoPE part of the model config import: head_dim, base, partial rotary fraction, max positions,
// rope_scaling / rope_parameters (rope types and their parameters) and pair layout, with the defaults of each
// family's HF configuration class.
#include "io/input_file.h"
#include "io/model_config_detail.h"
#include "io/model_config_rope_families.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <set>
#include <string_view>

namespace posatlas::detail {

namespace {

// Gemma 3 4B / 12B / 27B: pre-trained on 32K sequences, then RoPE of the global layers rescaled by
// position interpolation with factor 8 to reach the 128K context (Gemma Team 2025, "Gemma 3 Technical
// Report", arXiv:2503.19786, long context). Their configs say only {rope_type: linear, factor: 8} and
// max_position_embeddings 131072, the extended length.
constexpr double kGemma3LinearFactor = 8.0;
constexpr std::int64_t kGemma3TrainedLength = 32768;

// Sets `rope.partial_rotary_factor` so that int(head_dim * factor) == rotary_dim exactly, as HF computes
// the rotary dimension from the factor (a plain rotary_dim / head_dim can round down by one in double).
double factor_for_rotary_dim(int head_dim, int rotary_dim)
{
    double f = static_cast<double>(rotary_dim) / head_dim;
    for (int i = 0; i < 4 && static_cast<int>(head_dim * f) < rotary_dim; ++i)
        f = std::nextafter(f, 2.0);
    return f;
}

// ---------------------------------------------------------------- RoPE
class RopeReader
{
public:
    RopeReader(Reader& r, const json& cfg, const RopeFamily& fam, RopeParams& rope)
        : m_r(r), m_cfg(cfg), m_fam(fam), m_rope(rope)
    {
    }

    void read()
    {
        select_scaling_dict();
        read_dims();
        read_theta_and_fraction();
        read_max_positions();
        read_scaling();
        read_pairing();
    }

private:
    std::string cls() const { return std::string(m_fam.config_class); }

    void select_scaling_dict()
    {
        const json* rs = m_r.find(m_cfg, "rope_scaling", "rope_scaling");
        const json* rp = m_r.find(m_cfg, "rope_parameters", "rope_parameters");
        if (rs && !rs->is_object())
            throw ConfigError("rope_scaling must be an object or null (got " + show(*rs) + ")");
        if (rp && !rp->is_object())
            throw ConfigError("rope_parameters must be an object or null (got " + show(*rp) + ")");
        if (rs) {
            m_dict = rs;
            m_prefix = "rope_scaling";
            if (rp) {
                m_r.ignore("rope_parameters");
                m_r.note("both rope_scaling and rope_parameters are present: rope_scaling is used, as "
                         "transformers' convert_rope_params_to_dict does (rope_scaling or rope_parameters)");
            }
            return;
        }
        if (!rp)
            return;
        // Per-layer-type form {"full_attention": {...}, "sliding_attention": {...}}: every value is a dict.
        const bool per_layer = !rp->empty() && std::all_of(rp->begin(), rp->end(), [](const json& v) {
            return v.is_object() || v.is_null();
        });
        if (!per_layer) {
            m_dict = rp;
            m_prefix = "rope_parameters";
            return;
        }
        std::string chosen = rp->contains("full_attention") ? "full_attention" : rp->begin().key();
        for (auto it = rp->begin(); it != rp->end(); ++it)
            if (it.key() != chosen)
                m_r.ignore("rope_parameters." + it.key());
        const json& d = rp->at(chosen);
        if (d.is_null())
            return;
        m_dict = &d;
        m_prefix = "rope_parameters." + chosen;
        std::string others;
        for (auto it = rp->begin(); it != rp->end(); ++it)
            if (it.key() != chosen)
                others += (others.empty() ? "" : ", ") + it.key();
        m_r.note("rope_parameters has one entry per layer type: '" + quote_input(chosen) + "' is shown" +
                 (others.empty() ? std::string() : "; not shown: " + others));
    }

    std::string key(std::string_view k) const { return m_prefix + "." + std::string(k); }
    void consume(std::string_view k) { m_consumed.insert(std::string(k)); }

    void read_dims()
    {
        std::string hidden_key = "hidden_size";
        std::string heads_key = "num_attention_heads";
        std::optional<int> hidden;
        std::optional<int> heads;
        if (m_fam.style == RopeStyle::GptJ) {
            hidden = m_r.small_int_alias(m_cfg, {"n_embd", "hidden_size"}, &hidden_key);
            heads = m_r.small_int_alias(m_cfg, {"n_head", "num_attention_heads"}, &heads_key);
            if (!hidden)
                hidden_key = "n_embd";
            if (!heads)
                heads_key = "n_head";
        } else {
            hidden = m_r.small_int_alias(m_cfg, {"hidden_size", "n_embd", "n_embed", "d_model"}, &hidden_key);
            heads = m_r.small_int_alias(m_cfg, {"num_attention_heads", "n_head", "n_heads", "num_heads"},
                                        &heads_key);
        }
        if (!hidden) {
            hidden = m_fam.hidden_size;
            m_r.note(hidden_key + " absent: " + cls() + " default " + std::to_string(*hidden));
        }
        if (!heads) {
            heads = m_fam.num_heads;
            m_r.note(heads_key + " absent: " + cls() + " default " + std::to_string(*heads));
        }
        if (*heads < 1)
            throw ConfigError(heads_key + " must be a positive integer (got " + std::to_string(*heads) + ")");
        if (*hidden < 1)
            throw ConfigError(hidden_key + " must be a positive integer (got " + std::to_string(*hidden) +
                              ")");
        const int derived = *hidden / *heads;
        const std::string formula = "head_dim = " + hidden_key + " / " + heads_key + " = " +
                                    std::to_string(*hidden) + " / " + std::to_string(*heads) + " = " +
                                    std::to_string(derived);

        if (m_fam.style == RopeStyle::DeepSeek) {
            auto qk = m_r.small_int(m_cfg, "qk_rope_head_dim", "qk_rope_head_dim");
            if (!qk) {
                qk = 64;
                m_r.note("qk_rope_head_dim absent: " + cls() + " default 64");
            }
            m_rope.head_dim = *qk;
            m_r.note("head_dim = qk_rope_head_dim = " + std::to_string(*qk) +
                     ": multi-head latent attention rotates only this part of each query/key head "
                     "(the qk_nope_head_dim part carries no position)");
            if (present(m_cfg, "head_dim"))
                m_r.ignore("head_dim");
            return;
        }
        if (m_fam.style == RopeStyle::Gemma4) {
            // Gemma4TextConfig: the full-attention layers' heads have global_head_dim components
            // (per_layer_config head_dim; the rotary embedding reads head_dim_key "global_head_dim").
            if (const auto sliding = m_r.small_int(m_cfg, "head_dim", "head_dim"))
                m_r.note("head_dim " + std::to_string(*sliding) +
                         ": the sliding layers' heads (their RoPE is not the one shown)");
            auto global = m_r.small_int(m_cfg, "global_head_dim", "global_head_dim");
            if (!global) {
                global = m_fam.head_dim;
                m_r.note("global_head_dim absent: " + cls() + " default " + std::to_string(*global));
            }
            if (*global < 2)
                throw ConfigError("global_head_dim must be at least 2 (got " + std::to_string(*global) + ")");
            m_rope.head_dim = *global;
            m_r.note("head_dim = global_head_dim = " + std::to_string(*global) +
                     ": the full-attention layers, whose RoPE is shown");
            return;
        }
        if (m_fam.style != RopeStyle::GptJ) {
            if (const auto hd = m_r.small_int(m_cfg, "head_dim", "head_dim")) {
                m_rope.head_dim = *hd;
                m_r.note("head_dim = " + std::to_string(*hd) + " (head_dim key; " + hidden_key + " / " +
                         heads_key + " would give " + std::to_string(derived) + ")");
                return;
            }
            if (m_fam.head_dim > 0) {
                m_rope.head_dim = m_fam.head_dim;
                m_r.note("head_dim absent: " + cls() + " default " + std::to_string(m_fam.head_dim));
                return;
            }
        }
        m_rope.head_dim = derived;
        m_r.note(formula + (*hidden % *heads != 0 ? " (integer division, as in HF; not exact)" : ""));
    }

    void read_theta_and_fraction()
    {
        // Base.
        if (m_fam.style == RopeStyle::GptJ) {
            m_rope.rope_theta = 10000.0;
            m_r.note("rope_theta = 10000: GPT-J's rotary base is fixed in "
                     "modeling_gptj.create_sinusoidal_positions");
        } else {
            std::optional<double> top;
            std::string top_key = "rope_theta";
            if (m_fam.style == RopeStyle::NeoX && present(m_cfg, "rotary_emb_base")) {
                top = m_r.number(m_cfg, "rotary_emb_base", "rotary_emb_base");
                top_key = "rotary_emb_base";
                m_r.note("rope_theta = rotary_emb_base = " + format_number(*top) + " (GPT-NeoX name)");
            } else {
                top = m_r.number(m_cfg, "rope_theta", "rope_theta");
            }
            const auto in_dict = m_dict ? m_r.number(*m_dict, "rope_theta", key("rope_theta")) : std::nullopt;
            if (m_dict)
                consume("rope_theta");
            if (in_dict) {
                m_rope.rope_theta = *in_dict;
                if (top && *top != *in_dict)
                    m_r.note(key("rope_theta") + " = " + format_number(*in_dict) + " is used; " + top_key +
                             " = " + format_number(*top) +
                             " is overridden (transformers' standardize_rope_params keeps the dict value)");
            } else if (top) {
                m_rope.rope_theta = *top;
            } else {
                m_rope.rope_theta = m_fam.rope_theta;
                m_r.note("rope_theta absent: " + cls() + " default " + format_number(m_fam.rope_theta));
            }
        }

        // Rotary fraction.
        if (m_fam.style == RopeStyle::GptJ) {
            auto rd = m_r.small_int(m_cfg, "rotary_dim", "rotary_dim");
            if (!rd && m_cfg.contains("rotary_dim")) {
                m_rope.partial_rotary_factor = 1.0;
                m_r.note("rotary_dim is null: GPT-J rotates the whole head");
                return;
            }
            if (!rd) {
                rd = 64;
                m_r.note("rotary_dim absent: GPTJConfig default 64");
            }
            if (*rd < 1 || *rd > m_rope.head_dim)
                throw ConfigError("rotary_dim must be in [1, head_dim = " + std::to_string(m_rope.head_dim) +
                                  "] (got " + std::to_string(*rd) + ")");
            m_rope.partial_rotary_factor = factor_for_rotary_dim(m_rope.head_dim, *rd);
            m_r.note("partial_rotary_factor = rotary_dim / head_dim = " + std::to_string(*rd) + " / " +
                     std::to_string(m_rope.head_dim) + " = " +
                     format_number(static_cast<double>(*rd) / m_rope.head_dim));
            return;
        }
        std::optional<double> f;
        if (m_fam.style == RopeStyle::NeoX && present(m_cfg, "rotary_pct")) {
            f = m_r.number(m_cfg, "rotary_pct", "rotary_pct");
            m_r.note("partial_rotary_factor = rotary_pct = " + format_number(*f) +
                     " (GPT-NeoX name): rotary_dim = int(" + std::to_string(m_rope.head_dim) + " * " +
                     format_number(*f) + ") = " + std::to_string(static_cast<int>(m_rope.head_dim * *f)));
        }
        if (!f)
            f = m_r.number(m_cfg, "partial_rotary_factor", "partial_rotary_factor");
        const auto in_dict = m_dict
                                 ? m_r.number(*m_dict, "partial_rotary_factor", key("partial_rotary_factor"))
                                 : std::nullopt;
        if (m_dict)
            consume("partial_rotary_factor");
        if (!f && in_dict)
            f = in_dict;
        if (!f) {
            f = m_fam.partial;
            if (m_fam.partial != 1.0)
                m_r.note(
                    std::string(m_fam.style == RopeStyle::NeoX ? "rotary_pct" : "partial_rotary_factor") +
                    " absent: " + cls() + " default " + format_number(m_fam.partial));
        }
        m_rope.partial_rotary_factor = *f;
    }

    void read_max_positions()
    {
        const std::string k = m_fam.style == RopeStyle::GptJ ? "n_positions" : "max_position_embeddings";
        if (const auto v = m_r.integer(m_cfg, k, k)) {
            m_rope.max_position_embeddings = *v;
        } else {
            m_rope.max_position_embeddings = m_fam.max_pos;
            m_r.note(k + " absent: " + cls() + " default " + std::to_string(m_fam.max_pos));
        }
        // Top-level original_max_position_embeddings (Phi-3 keeps the pretraining length here).
        m_top_original =
            m_r.integer(m_cfg, "original_max_position_embeddings", "original_max_position_embeddings");
        if (!m_top_original && m_fam.style == RopeStyle::Phi3) {
            m_top_original = 4096;
            m_r.note("original_max_position_embeddings absent: Phi3Config default 4096");
        }
    }

    // rope_scaling / rope_parameters: the rope type and its parameters (modeling_rope_utils.py).
    void read_scaling()
    {
        const json* dict = m_dict;
        json builtin;
        if (!dict && m_fam.model_type == "gpt_oss") {
            // GptOssConfig.__post_init__ fills this dict when the config gives none.
            builtin =
                json{{"rope_type", "yarn"}, {"factor", 32.0},    {"beta_fast", 32.0},
                     {"beta_slow", 1.0},    {"truncate", false}, {"original_max_position_embeddings", 4096}};
            dict = &builtin;
            m_prefix = "rope_scaling";
            m_r.note("rope_scaling absent: GptOssConfig default {rope_type: yarn, factor: 32, beta_fast: 32, "
                     "beta_slow: 1, truncate: false, original_max_position_embeddings: 4096}");
            m_r.set_recording(false);
        }
        if (!dict && m_fam.style == RopeStyle::Gemma4) {
            // Gemma4TextConfig.__post_init__'s default rope_parameters["full_attention"].
            builtin =
                json{{"rope_type", "proportional"}, {"partial_rotary_factor", 0.25}, {"rope_theta", 1e6}};
            dict = &builtin;
            m_prefix = "rope_parameters.full_attention";
            m_r.note(
                "rope_parameters absent: Gemma4TextConfig default full_attention {rope_type: proportional, "
                "partial_rotary_factor: 0.25, rope_theta: 1000000}");
            m_r.set_recording(false);
        }
        if (!dict) {
            m_rope.rope_type = RopeType::Default;
            use_top_original_if_phi3();
        } else {
            read_type(*dict);
            read_type_parameters(*dict);
            m_r.set_recording(true);
        }
        if (!m_top_original_used && present(m_cfg, "original_max_position_embeddings"))
            m_r.ignore("original_max_position_embeddings");
        if (!dict)
            return;
        if (dict == &builtin)
            return;
        for (auto it = dict->begin(); it != dict->end(); ++it) {
            // Multimodal RoPE's keys belong to read_mrope (model_config_mrope.cpp).
            if (m_consumed.count(it.key()) || it.key() == "mrope_section" || it.key() == "mrope_interleaved")
                continue;
            m_r.ignore(key(it.key()));
        }
    }

    void read_type(const json& dict)
    {
        const auto rope_type = m_r.string(dict, "rope_type", key("rope_type"));
        const auto legacy = m_r.string(dict, "type", key("type"));
        consume("rope_type");
        consume("type");
        std::string name = rope_type ? *rope_type : legacy ? *legacy : "default";
        if (rope_type && legacy && *rope_type != *legacy)
            m_r.note(key("rope_type") + " '" + quote_input(*rope_type) + "' is used; " + key("type") + " '" +
                     quote_input(*legacy) + "' is overridden");
        const std::string used_key = rope_type ? key("rope_type") : key("type");
        if (!rope_type && !legacy)
            m_r.note(m_prefix + " has no rope_type: 'default' assumed");
        if (name == "su") {
            m_r.note(used_key + " 'su' read as longrope (its name before transformers 4.42)");
            name = "longrope";
        } else if (name == "mrope") {
            m_r.note(used_key + " 'mrope' read as default: multimodal RoPE uses the default frequencies");
            name = "default";
        } else if (name == "yarn" && m_fam.style == RopeStyle::Phi3) {
            m_r.note(used_key + " 'yarn' read as longrope: Phi3Config maps 'su' and 'yarn' to longrope");
            name = "longrope";
        }
        if (name == "proportional")
            name = read_proportional(dict, used_key);
        const auto parsed = parse_rope_type(name);
        if (!parsed)
            throw ConfigError(used_key + " '" + quote_input(name) +
                              "' is not a modelled rope type (supported: default, "
                              "linear, dynamic, yarn, llama3, longrope, proportional, and the legacy su, "
                              "mrope)");
        m_rope.rope_type = *parsed;
    }

    // Gemma 4's "proportional" rope type (transformers modeling_rope_utils.py
    // _compute_proportional_rope_parameters): rope_angles = int(partial_rotary_factor * head_dim // 2) pairs
    // turn at rope_theta^(-2i / head_dim), the other head_dim / 2 - rope_angles have frequency zero, and
    // every frequency is divided by factor (default 1). That is p-RoPE with p = partial_rotary_factor over
    // the whole head (RopeParams::frequency_fraction) and linear scaling when factor is not 1. Returns the
    // rope type to read on with.
    std::string read_proportional(const json& dict, const std::string& used_key)
    {
        double p = m_rope.partial_rotary_factor;
        if (dict.contains("partial_rotary_factor"))
            if (const auto v = m_r.number(dict, "partial_rotary_factor", key("partial_rotary_factor")))
                p = *v;
        if (!(p > 0.0 && p <= 1.0))
            throw ConfigError(key("partial_rotary_factor") +
                              " must be in (0, 1] for rope type proportional (got " + format_number(p) + ")");
        m_rope.partial_rotary_factor = 1.0;
        m_rope.frequency_fraction = p;
        const int kept = m_rope.rotary_dim() / 2;
        m_r.note(used_key + " 'proportional' (Gemma 4) read as p-RoPE with p = partial_rotary_factor = " +
                 format_number(p) + ": the highest " + std::to_string(kept) + " of " +
                 std::to_string(m_rope.head_dim / 2) + " frequencies, theta_i = rope_theta^(-2i / " +
                 std::to_string(m_rope.head_dim) + "), the other pairs unrotated");
        const auto factor =
            dict.contains("factor") ? m_r.number(dict, "factor", key("factor")) : std::nullopt;
        if (!factor || *factor == 1.0) {
            consume("factor");
            return "default";
        }
        return "linear"; // inv_freq /= factor; read_type_parameters reads the factor
    }

    // Phi3Config keeps the pretraining length even without scaling; show it as the trained length.
    void use_top_original_if_phi3()
    {
        if (m_top_original && m_fam.style == RopeStyle::Phi3) {
            m_rope.original_max_position_embeddings = *m_top_original;
            m_top_original_used = true;
        }
    }

    std::optional<double> dict_number(const json& dict, std::string_view k)
    {
        consume(k);
        return m_r.number(dict, k, key(k));
    }

    double required_factor(const json& dict)
    {
        const auto f = dict_number(dict, "factor");
        if (!f)
            throw ConfigError(key("factor") + " is required for rope type '" +
                              std::string(rope_type_id(m_rope.rope_type)) + "'");
        return *f;
    }

    // original_max_position_embeddings for yarn / llama3: the dict, else the top-level key, else
    // max_position_embeddings (transformers' standardize_rope_params fills it so).
    std::int64_t original_from_dict(const json& dict)
    {
        consume("original_max_position_embeddings");
        const auto in_dict =
            m_r.integer(dict, "original_max_position_embeddings", key("original_max_position_embeddings"));
        if (in_dict) {
            m_top_original_used = m_top_original && *m_top_original == *in_dict;
            return *in_dict;
        }
        if (m_top_original) {
            m_top_original_used = true;
            m_r.note("original_max_position_embeddings = " + std::to_string(*m_top_original) +
                     " taken from the top-level key");
            return *m_top_original;
        }
        m_r.note(key("original_max_position_embeddings") + " absent: max_position_embeddings = " +
                 std::to_string(m_rope.max_position_embeddings) + " is used, as transformers does");
        return m_rope.max_position_embeddings;
    }

    void read_type_parameters(const json& dict)
    {
        switch (m_rope.rope_type) {
        case RopeType::Default: use_top_original_if_phi3(); return;
        case RopeType::Linear:
        case RopeType::Ntk:
            m_rope.factor = required_factor(dict);
            read_trained_length_of_linear(dict);
            return;
        case RopeType::Dynamic:
            m_rope.factor = required_factor(dict);
            m_r.note("dynamic NTK: HF's _compute_dynamic_ntk_parameters treats max_position_embeddings = " +
                     std::to_string(m_rope.max_position_embeddings) + " as the trained length");
            return;
        case RopeType::Yarn: read_yarn(dict); return;
        case RopeType::Llama3: read_llama3(dict); return;
        case RopeType::LongRope: read_longrope(dict); return;
        }
    }

    // Linear (and static NTK) scaling reads only the factor, so a config without an original length does
    // not say whether max_position_embeddings M is the trained context (extended to M * factor) or already
    // the extended one (trained M / factor, as Gemma 3's). An original_max_position_embeddings given
    // (rope_scaling, else top level) is taken as the trained length; a family with documented values gets
    // them; otherwise the note says the trained length is assumed to be M and how to change it.
    void read_trained_length_of_linear(const json& dict)
    {
        consume("original_max_position_embeddings");
        const auto in_dict =
            m_r.integer(dict, "original_max_position_embeddings", key("original_max_position_embeddings"));
        const std::optional<std::int64_t> given = in_dict ? in_dict : m_top_original;
        if (given && *given > 0) {
            m_rope.original_max_position_embeddings = *given;
            m_top_original_used = !in_dict || (m_top_original && *m_top_original == *in_dict);
            m_r.note("trained length = original_max_position_embeddings = " + std::to_string(*given) +
                     " (linear scaling itself reads only the factor)");
            return;
        }
        if (m_rope.factor == 1.0)
            return;
        if (m_fam.style == RopeStyle::Gemma3 && m_rope.factor == kGemma3LinearFactor) {
            m_rope.original_max_position_embeddings = kGemma3TrainedLength;
            m_r.note(
                "Gemma 3: trained length 32768, the documented pre-training length of the 4B / 12B / 27B "
                "models, whose RoPE was then rescaled by linear factor 8 to the 131072-token context "
                "(Gemma 3 Technical Report, arXiv:2503.19786); the config gives no "
                "original_max_position_embeddings");
            return;
        }
        m_r.note("ambiguous trained length: " + std::string(rope_type_id(m_rope.rope_type)) +
                 " scaling without original_max_position_embeddings does not say whether "
                 "max_position_embeddings " +
                 std::to_string(m_rope.max_position_embeddings) + " is the trained context (extended to " +
                 format_number(static_cast<double>(m_rope.max_position_embeddings) * m_rope.factor) +
                 ") or already the extended one (trained " +
                 format_number(static_cast<double>(m_rope.max_position_embeddings) / m_rope.factor) +
                 "); the trained length is taken to be " + std::to_string(m_rope.max_position_embeddings) +
                 ": set the original context (original_max_position_embeddings) if the model was trained "
                 "shorter");
    }

    void read_yarn(const json& dict)
    {
        m_rope.factor = required_factor(dict);
        m_rope.original_max_position_embeddings = original_from_dict(dict);
        // HF: rope_scaling.get("beta_fast") or 32 -- a 0 or null falls back to the default too.
        const auto bf = dict_number(dict, "beta_fast");
        const auto bs = dict_number(dict, "beta_slow");
        m_rope.beta_fast = bf && *bf != 0.0 ? *bf : 32.0;
        m_rope.beta_slow = bs && *bs != 0.0 ? *bs : 1.0;
        if (!bf || !bs)
            m_r.note("yarn: missing beta_fast / beta_slow take the paper's 32 / 1");
        m_rope.mscale = dict_number(dict, "mscale");
        m_rope.mscale_all_dim = dict_number(dict, "mscale_all_dim");
        m_rope.attention_factor = dict_number(dict, "attention_factor");
        if (m_fam.style == RopeStyle::DeepSeek)
            read_deepseek_softmax_mscale();
        consume("truncate");
        m_rope.truncate = m_r.boolean(dict, "truncate", key("truncate")).value_or(true);
        const double implicit =
            static_cast<double>(m_rope.max_position_embeddings) /
            static_cast<double>(std::max<std::int64_t>(1, m_rope.original_max_position_embeddings));
        if (implicit != m_rope.factor && implicit != 1.0)
            m_r.note("yarn factor " + format_number(m_rope.factor) +
                     " differs from max_position_embeddings / "
                     "original_max_position_embeddings = " +
                     format_number(implicit) + "; the explicit factor is used, as transformers does");
    }

    // DeepSeek's attention multiplies its softmax scale by get_mscale(factor, mscale_all_dim)^2 when
    // rope_scaling has a non-zero mscale_all_dim: transformers DeepseekV3Attention.__init__ and DeepSeek's
    // own modeling_deepseek.py (V2 and V3; HF's in-library DeepseekV2Attention leaves it out).
    void read_deepseek_softmax_mscale()
    {
        if (!m_rope.mscale_all_dim || *m_rope.mscale_all_dim == 0.0)
            return;
        m_rope.softmax_mscale = true;
        const double s = m_rope.factor;
        const double m = s <= 1.0 ? 1.0 : 0.1 * *m_rope.mscale_all_dim * std::log(s) + 1.0;
        m_r.note("softmax scale x get_mscale(factor " + format_number(s) + ", mscale_all_dim " +
                 format_number(*m_rope.mscale_all_dim) + ")^2 = " + format_number(m * m) +
                 ": DeepSeek's attention (transformers DeepseekV3Attention, DeepSeek's modeling_deepseek.py) "
                 "multiplies every logit by it, beside the rotary attention factor on cos and sin "
                 "(softmax_mscale)");
    }

    void read_llama3(const json& dict)
    {
        m_rope.factor = required_factor(dict);
        m_rope.original_max_position_embeddings = original_from_dict(dict);
        const auto lo = dict_number(dict, "low_freq_factor");
        const auto hi = dict_number(dict, "high_freq_factor");
        m_rope.low_freq_factor = lo.value_or(1.0);
        m_rope.high_freq_factor = hi.value_or(4.0);
        if (!lo || !hi)
            m_r.note("llama3: missing low_freq_factor / high_freq_factor take Meta's reference values 1 / 4");
    }

    void read_longrope(const json& dict)
    {
        consume("short_factor");
        consume("long_factor");
        m_rope.short_factor = m_r.number_list(dict, "short_factor", key("short_factor"));
        m_rope.long_factor = m_r.number_list(dict, "long_factor", key("long_factor"));
        if (m_rope.short_factor.empty() || m_rope.long_factor.empty())
            throw ConfigError(key(m_rope.short_factor.empty() ? "short_factor" : "long_factor") +
                              " is required (a list of rotary_dim / 2 numbers) for rope type 'longrope'");
        m_rope.attention_factor = dict_number(dict, "attention_factor");
        const auto explicit_factor = dict_number(dict, "factor");
        consume("original_max_position_embeddings");
        const auto in_dict =
            m_r.integer(dict, "original_max_position_embeddings", key("original_max_position_embeddings"));
        // _compute_longrope_parameters: a config attribute original_max_position_embeddings wins, and then
        // factor = max_position_embeddings / original_max_position_embeddings.
        std::optional<std::int64_t> original = m_top_original ? m_top_original : in_dict;
        m_top_original_used = m_top_original.has_value();
        if (m_top_original && in_dict && *in_dict != *m_top_original)
            m_r.note("top-level original_max_position_embeddings " + std::to_string(*m_top_original) +
                     " wins over " + key("original_max_position_embeddings") + " " +
                     std::to_string(*in_dict));
        if (original && *original > 0) {
            m_rope.original_max_position_embeddings = *original;
            const double ratio =
                static_cast<double>(m_rope.max_position_embeddings) / static_cast<double>(*original);
            m_rope.factor = std::max(1.0, ratio);
            m_r.note("longrope factor = max_position_embeddings / original_max_position_embeddings = " +
                     std::to_string(m_rope.max_position_embeddings) + " / " + std::to_string(*original) +
                     " = " + format_number(ratio) +
                     (ratio < 1.0 ? " (below 1: no scaling, attention factor 1)" : ""));
            if (explicit_factor && *explicit_factor != ratio)
                m_r.note(key("factor") + " = " + format_number(*explicit_factor) +
                         " is overridden by that ratio");
        } else {
            m_rope.factor = explicit_factor.value_or(1.0);
            m_r.note("longrope without original_max_position_embeddings: the short/long switch uses "
                     "max_position_embeddings");
        }
    }

    void read_pairing()
    {
        if (m_fam.style == RopeStyle::GptJ) {
            m_rope.pairing = RopePairing::Interleaved;
            m_r.note("pairing: interleaved (2i, 2i+1), GPT-J's rotate_every_two");
        } else if (m_fam.style == RopeStyle::Cohere) {
            m_rope.pairing = RopePairing::Interleaved;
            m_r.note("pairing: interleaved (2i, 2i+1): Cohere's rotate_half takes x[..., ::2], x[..., 1::2] "
                     "(modeling_cohere2.py)");
        } else if (m_fam.style == RopeStyle::Llama4) {
            m_rope.pairing = RopePairing::Interleaved;
            m_r.note(
                "pairing: interleaved (2i, 2i+1): Llama 4's apply_rotary_emb multiplies adjacent pairs as "
                "complex numbers (modeling_llama4.py, view_as_complex)");
        } else if (m_fam.style == RopeStyle::DeepSeek) {
            m_rope.pairing = RopePairing::Interleaved;
            m_r.note("pairing: interleaved (2i, 2i+1): DeepSeek's MLA rotates adjacent pairs (HF "
                     "apply_rotary_emb on complex pairs / apply_rotary_pos_emb_interleave)");
        } else {
            m_rope.pairing = RopePairing::Half;
            m_r.note("pairing: half (i, i + d/2), the rotate_half of the Hugging Face implementation");
        }
    }

    Reader& m_r;
    const json& m_cfg;
    const RopeFamily& m_fam;
    RopeParams& m_rope;
    const json* m_dict = nullptr;
    std::string m_prefix = "rope_scaling";
    std::set<std::string> m_consumed;
    std::optional<std::int64_t> m_top_original;
    bool m_top_original_used = false;
};

} // namespace

void read_rope(Reader& r, const json& cfg, const RopeFamily& fam, RopeParams& rope)
{
    RopeReader(r, cfg, fam, rope).read();
}

} // namespace posatlas::detail
