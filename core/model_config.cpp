#include "model_config.h"

#include "validation.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <optional>
#include <set>
#include <string_view>

namespace posatlas {
namespace {

using json = nlohmann::json;

// Short text of a JSON value for messages ("\"abc\"", "[1,2,...]").
std::string show(const json& v)
{
    std::string s = v.dump();
    if (s.size() > 60)
        s = s.substr(0, 57) + "...";
    return std::string(v.type_name()) + " " + s;
}

std::string num(double v)
{
    return format_number(v);
}

void add_unique(std::vector<std::string>& list, const std::string& s)
{
    if (std::find(list.begin(), list.end(), s) == list.end())
        list.push_back(s);
}

// Top-level keys that every kind of config.json carries and that say nothing about positions. They are
// recognised (not "unknown") but not read.
constexpr std::string_view kKnownNonPositional[] = {
    "_name_or_path",
    "architectures",
    "auto_map",
    "model_type",
    "transformers_version",
    "torch_dtype",
    "dtype",
    "vocab_size",
    "num_hidden_layers",
    "n_layer",
    "n_layers",
    "num_layers",
    "num_decoder_layers",
    "intermediate_size",
    "n_inner",
    "d_ff",
    "expansion_ratio",
    "hidden_act",
    "activation_function",
    "feed_forward_proj",
    "hidden_dropout",
    "hidden_dropout_prob",
    "attention_dropout",
    "attention_probs_dropout_prob",
    "resid_pdrop",
    "embd_pdrop",
    "attn_pdrop",
    "emb_pdrop",
    "dropout_rate",
    "classifier_dropout",
    "summary_activation",
    "summary_first_dropout",
    "summary_proj_to_labels",
    "summary_type",
    "summary_use_proj",
    "rms_norm_eps",
    "layer_norm_eps",
    "layer_norm_epsilon",
    "num_key_value_heads",
    "n_head_kv",
    "num_kv_heads",
    "multi_query",
    "bos_token_id",
    "eos_token_id",
    "pad_token_id",
    "unk_token_id",
    "decoder_start_token_id",
    "tie_word_embeddings",
    "use_cache",
    "attention_bias",
    "mlp_bias",
    "bias",
    "no_bias",
    "pretraining_tp",
    "type_vocab_size",
    "is_encoder_decoder",
    "is_decoder",
    "gradient_checkpointing",
    "task_specific_params",
    "quantization_config",
    "num_local_experts",
    "num_experts_per_tok",
    "experts_per_token",
    "num_experts",
    "moe_intermediate_size",
    "n_routed_experts",
    "n_shared_experts",
    "router_aux_loss_coef",
    "output_router_logits",
    "kv_lora_rank",
    "q_lora_rank",
    "v_head_dim",
    "first_k_dense_replace",
    "moe_layer_freq",
    "routed_scaling_factor",
    "topk_method",
    "topk_group",
    "n_group",
    "norm_topk_prob",
    "scoring_func",
    "aux_loss_alpha",
    "seq_aux",
    "ep_size",
    "swiglu_limit",
    "use_parallel_residual",
    "parallel_attn",
    "new_decoder_architecture",
    "d_kv",
    "pooler_dropout",
    "pooler_hidden_act",
    "pooler_hidden_size",
    "scale_attn_weights",
    "init_device",
    "logit_scale",
    "norm_type",
    "verbose",
    "embedding_fraction",
    "initializer_factor",
    "initializer_range",
    "hidden_size",
    "n_embd",
    "n_embed",
    "d_model",
    "num_attention_heads",
    "n_head",
    "n_heads",
    "num_heads",
    "problem_type",
    "id2label",
    "label2id",
    "finetuning_task",
    "output_past",
    "model_max_length",
    "attn_implementation",
    "_attn_implementation",
    "use_bfloat16",
    "attention_softmax_in_fp32",
    "masked_softmax_fusion",
    "bias_dropout_fusion",
    "skip_bias_add",
    "skip_bias_add_qkv",
    "slow_but_exact",
    "apply_residual_connection_post_layernorm",
    "head_dim",
};

// Top-level keys that describe positions or attention span but are not part of any modelled method.
constexpr std::string_view kPositionalNotModelled[] = {
    "sliding_window",
    "use_sliding_window",
    "max_window_layers",
    "layer_types",
    "n_ctx",
    "offset_alibi",
    "seq_length",
    "initial_context_length",
    "qk_nope_head_dim",
    "rope_interleave",
    "attention_chunk_size",
    "no_rope_layers",
    "use_dynamic_ntk",
    "use_logn_attn",
    "share_att_key",
    "norm_rel_ebd",
    "sliding_window_pattern",
    "n_positions",
    "max_position_embeddings",
    "max_seq_len",
    "rope_theta",
    "original_max_position_embeddings",
    "position_embedding_type",
    "position_biased_input",
};

template <std::size_t N> bool contains(const std::string_view (&list)[N], std::string_view key)
{
    return std::find(std::begin(list), std::end(list), key) != std::end(list);
}

// Typed access to the config that records every key it looks at and turns every wrong JSON type into a
// ConfigError naming the dotted key. A JSON null counts as absent, as None does in the HF config classes.
class Reader
{
public:
    explicit Reader(ConfigImport& out) : m_out(out) {}

    // While false (reading a built-in default dict), keys are not recorded as read from the file.
    void set_recording(bool on) { m_recording = on; }

    const json* find(const json& obj, std::string_view key, const std::string& dotted)
    {
        if (!obj.is_object())
            return nullptr;
        const auto it = obj.find(std::string(key));
        if (it == obj.end())
            return nullptr;
        mark(dotted);
        if (it->is_null())
            return nullptr;
        return &*it;
    }

    std::optional<double> number(const json& obj, std::string_view key, const std::string& dotted)
    {
        const json* v = find(obj, key, dotted);
        if (!v)
            return std::nullopt;
        if (!v->is_number())
            throw ConfigError(dotted + " must be a number (got " + show(*v) + ")");
        const double d = v->get<double>();
        if (!std::isfinite(d))
            throw ConfigError(dotted + " must be a finite number (got " + show(*v) + ")");
        return d;
    }

    std::optional<std::int64_t> integer(const json& obj, std::string_view key, const std::string& dotted)
    {
        const json* v = find(obj, key, dotted);
        if (!v)
            return std::nullopt;
        if (v->is_number_integer()) {
            if (v->is_number_unsigned() && v->get<std::uint64_t>() > std::uint64_t{1} << 62)
                throw ConfigError(dotted + " is too large (got " + show(*v) + ")");
            return v->get<std::int64_t>();
        }
        // Python writes 4096.0 for an int that went through a float; accept integral values.
        if (v->is_number_float()) {
            const double d = v->get<double>();
            if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) <= 4.0e18)
                return static_cast<std::int64_t>(d);
        }
        throw ConfigError(dotted + " must be an integer (got " + show(*v) + ")");
    }

    // An integer that must fit an int (dimensions, head counts).
    std::optional<int> small_int(const json& obj, std::string_view key, const std::string& dotted)
    {
        const auto v = integer(obj, key, dotted);
        if (!v)
            return std::nullopt;
        if (*v < std::numeric_limits<int>::min() || *v > std::numeric_limits<int>::max())
            throw ConfigError(dotted + " is out of range (got " + std::to_string(*v) + ")");
        return static_cast<int>(*v);
    }

    std::optional<bool> boolean(const json& obj, std::string_view key, const std::string& dotted)
    {
        const json* v = find(obj, key, dotted);
        if (!v)
            return std::nullopt;
        if (!v->is_boolean())
            throw ConfigError(dotted + " must be true or false (got " + show(*v) + ")");
        return v->get<bool>();
    }

    std::optional<std::string> string(const json& obj, std::string_view key, const std::string& dotted)
    {
        const json* v = find(obj, key, dotted);
        if (!v)
            return std::nullopt;
        if (!v->is_string())
            throw ConfigError(dotted + " must be a string (got " + show(*v) + ")");
        return v->get<std::string>();
    }

    std::vector<double> number_list(const json& obj, std::string_view key, const std::string& dotted)
    {
        const json* v = find(obj, key, dotted);
        if (!v)
            return {};
        if (!v->is_array())
            throw ConfigError(dotted + " must be a list of numbers (got " + show(*v) + ")");
        std::vector<double> out;
        out.reserve(v->size());
        for (std::size_t i = 0; i < v->size(); ++i) {
            const json& e = (*v)[i];
            if (!e.is_number() || !std::isfinite(e.get<double>()))
                throw ConfigError(dotted + "[" + std::to_string(i) + "] must be a number (got " + show(e) +
                                  ")");
            out.push_back(e.get<double>());
        }
        return out;
    }

    // First of `keys` present in `obj` (aliases such as hidden_size / n_embd); records only that one.
    std::optional<int> small_int_alias(const json& obj, std::initializer_list<std::string_view> keys,
                                       std::string* used)
    {
        for (std::string_view k : keys) {
            if (obj.contains(std::string(k)) && !obj.at(std::string(k)).is_null()) {
                if (used)
                    *used = std::string(k);
                return small_int(obj, k, std::string(k));
            }
        }
        return std::nullopt;
    }

    void note(std::string s) { m_out.notes.push_back(std::move(s)); }
    // A key that is present but not used: moves it from read_keys (if a reader looked at it) to ignored_keys.
    void ignore(const std::string& dotted)
    {
        m_out.read_keys.erase(std::remove(m_out.read_keys.begin(), m_out.read_keys.end(), dotted),
                              m_out.read_keys.end());
        add_unique(m_out.ignored_keys, dotted);
        m_seen_top.insert(dotted.substr(0, dotted.find('.')));
    }
    bool seen_top(const std::string& key) const { return m_seen_top.count(key) > 0; }
    void mark_top(const std::string& key) { m_seen_top.insert(key); }

private:
    void mark(const std::string& dotted)
    {
        if (!m_recording)
            return;
        add_unique(m_out.read_keys, dotted);
        m_seen_top.insert(dotted.substr(0, dotted.find('.')));
    }

    ConfigImport& m_out;
    bool m_recording = true;
    std::set<std::string> m_seen_top;
};

// ---------------------------------------------------------------- RoPE families
enum class RopeStyle { Standard, NeoX, GptJ, DeepSeek, Phi3 };

// Defaults of the HF configuration class of each RoPE model type (configuration_<family>.py).
struct RopeFamily {
    std::string_view model_type;
    std::string_view config_class;
    int hidden_size;
    int num_heads;
    int head_dim; // 0: hidden_size / num_heads
    std::int64_t max_pos;
    double rope_theta;
    double partial; // partial_rotary_factor / rotary_pct default
    RopeStyle style;
};

constexpr std::array<RopeFamily, 15> kRopeFamilies{{
    {"llama", "LlamaConfig", 4096, 32, 0, 2048, 10000.0, 1.0, RopeStyle::Standard},
    {"mistral", "MistralConfig", 4096, 32, 0, 4096 * 32, 10000.0, 1.0, RopeStyle::Standard},
    {"mixtral", "MixtralConfig", 4096, 32, 0, 4096 * 32, 1e6, 1.0, RopeStyle::Standard},
    {"qwen2", "Qwen2Config", 4096, 32, 0, 32768, 10000.0, 1.0, RopeStyle::Standard},
    {"qwen3", "Qwen3Config", 4096, 32, 128, 32768, 10000.0, 1.0, RopeStyle::Standard},
    {"phi", "PhiConfig", 2048, 32, 0, 2048, 10000.0, 0.5, RopeStyle::Standard},
    {"phi3", "Phi3Config", 3072, 32, 0, 4096, 10000.0, 1.0, RopeStyle::Phi3},
    {"deepseek_v2", "DeepseekV2Config", 4096, 32, 0, 2048, 10000.0, 1.0, RopeStyle::DeepSeek},
    {"deepseek_v3", "DeepseekV3Config", 7168, 128, 0, 4096, 10000.0, 1.0, RopeStyle::DeepSeek},
    {"gpt_oss", "GptOssConfig", 2880, 64, 64, 131072, 150000.0, 1.0, RopeStyle::Standard},
    {"gpt_neox", "GPTNeoXConfig", 6144, 64, 0, 2048, 10000.0, 0.25, RopeStyle::NeoX},
    {"gptj", "GPTJConfig", 4096, 16, 0, 2048, 10000.0, 1.0, RopeStyle::GptJ},
    {"falcon", "FalconConfig", 4544, 71, 0, 2048, 10000.0, 1.0, RopeStyle::Standard},
    {"RefinedWeb", "FalconConfig", 4544, 71, 0, 2048, 10000.0, 1.0, RopeStyle::Standard},
    {"RefinedWebModel", "FalconConfig", 4544, 71, 0, 2048, 10000.0, 1.0, RopeStyle::Standard},
}};

// Unknown model types that carry RoPE keys are read with LlamaConfig's defaults.
constexpr RopeFamily kGenericRope{"", "LlamaConfig", 4096, 32, 0, 2048, 10000.0, 1.0, RopeStyle::Standard};

const RopeFamily* find_rope_family(std::string_view model_type)
{
    for (const auto& f : kRopeFamilies)
        if (f.model_type == model_type)
            return &f;
    return nullptr;
}

bool present(const json& cfg, std::string_view key)
{
    const auto it = cfg.find(std::string(key));
    return it != cfg.end() && !it->is_null();
}

std::string lowercase(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

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
        m_r.note("rope_parameters has one entry per layer type: '" + chosen + "' is shown" +
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
                m_r.note("rope_theta = rotary_emb_base = " + num(*top) + " (GPT-NeoX name)");
            } else {
                top = m_r.number(m_cfg, "rope_theta", "rope_theta");
            }
            const auto in_dict = m_dict ? m_r.number(*m_dict, "rope_theta", key("rope_theta")) : std::nullopt;
            if (m_dict)
                consume("rope_theta");
            if (in_dict) {
                m_rope.rope_theta = *in_dict;
                if (top && *top != *in_dict)
                    m_r.note(key("rope_theta") + " = " + num(*in_dict) + " is used; " + top_key + " = " +
                             num(*top) +
                             " is overridden (transformers' standardize_rope_params keeps the dict value)");
            } else if (top) {
                m_rope.rope_theta = *top;
            } else {
                m_rope.rope_theta = m_fam.rope_theta;
                m_r.note("rope_theta absent: " + cls() + " default " + num(m_fam.rope_theta));
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
                     num(static_cast<double>(*rd) / m_rope.head_dim));
            return;
        }
        std::optional<double> f;
        if (m_fam.style == RopeStyle::NeoX && present(m_cfg, "rotary_pct")) {
            f = m_r.number(m_cfg, "rotary_pct", "rotary_pct");
            m_r.note("partial_rotary_factor = rotary_pct = " + num(*f) +
                     " (GPT-NeoX name): rotary_dim = int(" + std::to_string(m_rope.head_dim) + " * " +
                     num(*f) + ") = " + std::to_string(static_cast<int>(m_rope.head_dim * *f)));
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
                    " absent: " + cls() + " default " + num(m_fam.partial));
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
            if (m_consumed.count(it.key()))
                continue;
            m_r.ignore(key(it.key()));
            if (it.key() == "mrope_section")
                m_r.note(key("mrope_section") + " is not modelled: the text positions of a multimodal RoPE "
                                                "use the default frequencies shown");
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
            m_r.note(key("rope_type") + " '" + *rope_type + "' is used; " + key("type") + " '" + *legacy +
                     "' is overridden");
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
        const auto parsed = parse_rope_type(name);
        if (!parsed)
            throw ConfigError(used_key + " '" + name +
                              "' is not a modelled rope type (supported: default, "
                              "linear, dynamic, yarn, llama3, longrope, and the legacy su, mrope)");
        m_rope.rope_type = *parsed;
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
        case RopeType::Ntk: m_rope.factor = required_factor(dict); return;
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
        consume("truncate");
        m_rope.truncate = m_r.boolean(dict, "truncate", key("truncate")).value_or(true);
        const double implicit =
            static_cast<double>(m_rope.max_position_embeddings) /
            static_cast<double>(std::max<std::int64_t>(1, m_rope.original_max_position_embeddings));
        if (implicit != m_rope.factor && implicit != 1.0)
            m_r.note("yarn factor " + num(m_rope.factor) +
                     " differs from max_position_embeddings / "
                     "original_max_position_embeddings = " +
                     num(implicit) + "; the explicit factor is used, as transformers does");
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
                     " = " + num(ratio) + (ratio < 1.0 ? " (below 1: no scaling, attention factor 1)" : ""));
            if (explicit_factor && *explicit_factor != ratio)
                m_r.note(key("factor") + " = " + num(*explicit_factor) + " is overridden by that ratio");
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

// ---------------------------------------------------------------- other methods
void clamp_head(Reader& r, Scenario& s, int num_heads)
{
    if (s.head >= num_heads || s.head < 0) {
        r.note("head " + std::to_string(s.head) + " does not exist in this model (" +
               std::to_string(num_heads) + " heads): head 0 is shown");
        s.head = 0;
    }
}

int require_positive(const std::string& key, int v)
{
    if (v < 1)
        throw ConfigError(key + " must be a positive integer (got " + std::to_string(v) + ")");
    return v;
}

void read_alibi_heads(Reader& r, const json& cfg, Scenario& s, std::initializer_list<std::string_view> keys,
                      int fallback, std::string_view cls)
{
    std::string used;
    auto heads = r.small_int_alias(cfg, keys, &used);
    if (!heads) {
        heads = fallback;
        r.note(std::string(*keys.begin()) + " absent: " + std::string(cls) + " default " +
               std::to_string(fallback));
        used = std::string(*keys.begin());
    }
    s.alibi.num_heads = require_positive(used, *heads);
    s.alibi.bias = AlibiBias::Causal;
    r.note("ALiBi slopes m_h = 2^(-8h/n) for n = " + std::to_string(s.alibi.num_heads) +
           " heads (Press et al.; non-powers of two interleave the next power's slopes)");
    clamp_head(r, s, s.alibi.num_heads);
}

void read_bloom(Reader& r, const json& cfg, Scenario& s)
{
    s.method = Method::ALiBi;
    read_alibi_heads(r, cfg, s, {"n_head", "num_attention_heads"}, 8, "BloomConfig");
}

void read_falcon_alibi(Reader& r, const json& cfg, Scenario& s)
{
    s.method = Method::ALiBi;
    read_alibi_heads(r, cfg, s, {"num_attention_heads", "n_head"}, 71, "FalconConfig");
    r.note("Falcon with alibi true uses BLOOM's build_alibi_tensor");
    if (present(cfg, "rope_theta"))
        r.ignore("rope_theta");
}

void read_mpt(Reader& r, const json& cfg, Scenario& s)
{
    const json* attn = r.find(cfg, "attn_config", "attn_config");
    if (attn && !attn->is_object())
        throw ConfigError("attn_config must be an object (got " + show(*attn) + ")");
    static const json empty = json::object();
    const json& ac = attn ? *attn : empty;
    const bool alibi = r.boolean(ac, "alibi", "attn_config.alibi").value_or(true);
    if (!attn || !ac.contains("alibi"))
        r.note("attn_config.alibi absent: MptAttentionConfig default true");
    const auto max_seq = r.integer(cfg, "max_seq_len", "max_seq_len");
    if (!max_seq)
        r.note("max_seq_len absent: MptConfig default 2048");
    if (!alibi) {
        s.method = Method::Learned;
        std::string used;
        const auto d = r.small_int_alias(cfg, {"d_model", "hidden_size"}, &used);
        s.learned.dim = require_positive(used.empty() ? "d_model" : used, d.value_or(2048));
        s.learned.trained_length = max_seq.value_or(2048);
        if (const auto ir = r.number(cfg, "initializer_range", "initializer_range"))
            s.learned.stddev = *ir;
        r.note(
            "attn_config.alibi false: MosaicML's MPT adds a learned position table wpe of max_seq_len rows "
            "(transformers' MptModel always applies ALiBi)");
        return;
    }
    s.method = Method::ALiBi;
    read_alibi_heads(r, cfg, s, {"n_heads", "num_attention_heads"}, 16, "MptConfig");
    s.alibi.trained_length = max_seq.value_or(2048);
    s.alibi.target_length = s.alibi.trained_length;
    if (const auto bias_max = r.number(ac, "alibi_bias_max", "attn_config.alibi_bias_max");
        bias_max && *bias_max != 8.0) {
        r.ignore("attn_config.alibi_bias_max");
        r.note("attn_config.alibi_bias_max = " + num(*bias_max) +
               " is not modelled: slopes use the reference 8");
    }
    if (r.boolean(ac, "prefix_lm", "attn_config.prefix_lm").value_or(false)) {
        s.alibi.bias = AlibiBias::Symmetric;
        r.note("attn_config.prefix_lm true: MPT builds the full (non-causal) bias -m|i - j|");
    }
    if (const auto learned = r.boolean(cfg, "learned_pos_emb", "learned_pos_emb"); learned && *learned)
        r.note("learned_pos_emb is true, but with alibi MosaicML's MPT adds no position table");
}

void read_t5(Reader& r, const json& cfg, Scenario& s, std::string_view model_type)
{
    s.method = Method::T5;
    const auto buckets = r.small_int(cfg, "relative_attention_num_buckets", "relative_attention_num_buckets");
    const auto dist = r.small_int(cfg, "relative_attention_max_distance", "relative_attention_max_distance");
    std::string used;
    auto heads = r.small_int_alias(cfg, {"num_heads", "num_attention_heads"}, &used);
    const int default_heads = model_type == "mt5" ? 6 : 8;
    const std::string cls = model_type == "mt5" ? "MT5Config" : "T5Config";
    s.t5.num_buckets = buckets.value_or(32);
    s.t5.max_distance = dist.value_or(128);
    if (!buckets)
        r.note("relative_attention_num_buckets absent: " + cls + " default 32");
    if (!dist)
        r.note("relative_attention_max_distance absent: " + cls + " default 128");
    if (!heads) {
        heads = default_heads;
        used = "num_heads";
        r.note("num_heads absent: " + cls + " default " + std::to_string(default_heads));
    }
    s.t5.num_heads = require_positive(used, *heads);
    s.t5.bidirectional = true;
    r.note(
        "encoder self-attention (bidirectional buckets) is shown; the decoder uses unidirectional buckets");
    clamp_head(r, s, s.t5.num_heads);
}

void read_learned(Reader& r, const json& cfg, Scenario& s, std::string_view model_type)
{
    s.method = Method::Learned;
    const bool gpt2 = model_type == "gpt2";
    std::string dim_key;
    const auto dim = gpt2 ? r.small_int_alias(cfg, {"n_embd", "hidden_size"}, &dim_key)
                          : r.small_int_alias(cfg, {"hidden_size", "n_embd", "dim", "d_model"}, &dim_key);
    const auto len = gpt2 ? r.integer(cfg, "n_positions", "n_positions")
                          : r.integer(cfg, "max_position_embeddings", "max_position_embeddings");
    const std::string cls = gpt2                   ? "GPT2Config"
                            : model_type == "bert" ? "BertConfig"
                                                   : "the BERT-style default";
    s.learned.dim =
        require_positive(dim_key.empty() ? (gpt2 ? "n_embd" : "hidden_size") : dim_key, dim.value_or(768));
    s.learned.trained_length = len.value_or(gpt2 ? 1024 : 512);
    if (!dim)
        r.note(std::string(gpt2 ? "n_embd" : "hidden_size") + " absent: " + cls + " default 768");
    if (!len)
        r.note(std::string(gpt2 ? "n_positions" : "max_position_embeddings") + " absent: " + cls +
               " default " + std::to_string(s.learned.trained_length));
    if (const auto ir = r.number(cfg, "initializer_range", "initializer_range"))
        s.learned.stddev = *ir;
    else
        r.note("initializer_range absent: default 0.02");
    if (!gpt2) {
        if (const auto pet = r.string(cfg, "position_embedding_type", "position_embedding_type");
            pet && *pet != "absolute") {
            r.ignore("position_embedding_type");
            r.note("position_embedding_type '" + *pet + "' is not modelled: the absolute table is shown");
        }
    }
    if (model_type == "roberta" || model_type == "xlm-roberta" || model_type == "camembert")
        r.note("RoBERTa-style models number positions from padding_idx + 1, so max_position_embeddings - 2 "
               "rows are usable");
    r.note(
        "the learned table is a seeded N(0, initializer_range) stand-in: a config.json carries no weights");
}

void read_deberta(Reader& r, const json& cfg, Scenario& s, std::string_view model_type)
{
    const bool v2 = model_type != "deberta";
    const std::string cls = v2 ? "DebertaV2Config" : "DebertaConfig";
    const auto rel = r.boolean(cfg, "relative_attention", "relative_attention");
    const auto biased = r.boolean(cfg, "position_biased_input", "position_biased_input");
    std::string hk;
    std::string nk;
    auto hidden = r.small_int_alias(cfg, {"hidden_size"}, &hk);
    auto heads = r.small_int_alias(cfg, {"num_attention_heads"}, &nk);
    if (!hidden) {
        hidden = v2 ? 1536 : 768;
        r.note("hidden_size absent: " + cls + " default " + std::to_string(*hidden));
    }
    if (!heads) {
        heads = v2 ? 24 : 12;
        r.note("num_attention_heads absent: " + cls + " default " + std::to_string(*heads));
    }
    require_positive("hidden_size", *hidden);
    require_positive("num_attention_heads", *heads);
    auto max_pos = r.integer(cfg, "max_position_embeddings", "max_position_embeddings");
    if (!max_pos) {
        max_pos = 512;
        r.note("max_position_embeddings absent: " + cls + " default 512");
    }
    if (!rel.value_or(false)) {
        if (!rel)
            r.note("relative_attention absent: " + cls + " default false");
        if (!biased.value_or(true))
            throw ConfigError(
                "relative_attention and position_biased_input are both false: this config has no "
                "positional encoding to show");
        s.method = Method::Learned;
        s.learned.dim = *hidden;
        s.learned.trained_length = *max_pos;
        if (const auto ir = r.number(cfg, "initializer_range", "initializer_range"))
            s.learned.stddev = *ir;
        r.note("relative_attention false: DeBERTa adds only its absolute position table "
               "(position_biased_input)");
        return;
    }
    s.method = Method::DeBERTa;
    if (const auto ahs = r.small_int(cfg, "attention_head_size", "attention_head_size")) {
        s.deberta.head_dim = require_positive("attention_head_size", *ahs);
    } else {
        s.deberta.head_dim = *hidden / *heads;
        r.note("head_dim = hidden_size / num_attention_heads = " + std::to_string(*hidden) + " / " +
               std::to_string(*heads) + " = " + std::to_string(s.deberta.head_dim));
    }
    const auto buckets = r.small_int(cfg, "position_buckets", "position_buckets");
    s.deberta.position_buckets = buckets.value_or(-1);
    if (!buckets)
        r.note("position_buckets absent: -1 (no log buckets), the default of modeling_deberta_v2");
    auto mrp = r.integer(cfg, "max_relative_positions", "max_relative_positions");
    const std::int64_t raw = mrp.value_or(-1);
    if (raw < 1) {
        s.deberta.max_relative_positions = static_cast<int>(std::min<std::int64_t>(*max_pos, 1'000'000'000));
        r.note("max_relative_positions = " + std::to_string(raw) +
               " < 1: max_position_embeddings = " + std::to_string(*max_pos) + " is used");
    } else {
        if (raw > std::numeric_limits<int>::max())
            throw ConfigError("max_relative_positions is out of range (got " + std::to_string(raw) + ")");
        s.deberta.max_relative_positions = static_cast<int>(raw);
    }
    // pos_att_type: ["p2c", "c2p"] or the legacy "p2c|c2p"; absent/null means neither term.
    std::vector<std::string> types;
    if (const json* p = r.find(cfg, "pos_att_type", "pos_att_type")) {
        if (p->is_string()) {
            std::string text = lowercase(p->get<std::string>());
            std::size_t start = 0;
            while (start <= text.size()) {
                const std::size_t bar = std::min(text.find('|', start), text.size());
                std::string part = text.substr(start, bar - start);
                part.erase(0, part.find_first_not_of(" \t"));
                part.erase(part.find_last_not_of(" \t") + 1);
                if (!part.empty())
                    types.push_back(part);
                start = bar + 1;
            }
        } else if (p->is_array()) {
            for (std::size_t i = 0; i < p->size(); ++i) {
                if (!(*p)[i].is_string())
                    throw ConfigError("pos_att_type[" + std::to_string(i) + "] must be a string (got " +
                                      show((*p)[i]) + ")");
                types.push_back(lowercase((*p)[i].get<std::string>()));
            }
        } else {
            throw ConfigError(
                "pos_att_type must be a list such as [\"p2c\", \"c2p\"] or a string \"p2c|c2p\" (got " +
                show(*p) + ")");
        }
    }
    s.deberta.c2p = std::find(types.begin(), types.end(), "c2p") != types.end();
    s.deberta.p2c = std::find(types.begin(), types.end(), "p2c") != types.end();
    for (const auto& t : types)
        if (t != "c2p" && t != "p2c")
            r.note("pos_att_type '" + t + "' is not modelled (only c2p and p2c)");
    if (!s.deberta.c2p && !s.deberta.p2c)
        r.note("pos_att_type has neither c2p nor p2c: only content-to-content attention remains");
    if (const auto ir = r.number(cfg, "initializer_range", "initializer_range"))
        s.deberta.stddev = *ir;
    if (biased.value_or(true)) {
        if (biased)
            r.ignore("position_biased_input");
        r.note(std::string(biased ? "position_biased_input true"
                                  : "position_biased_input absent (default true)") +
               ": the absolute table DeBERTa adds to the input is not shown");
    }
}

void read_sinusoidal(Reader& r, const json& cfg, Scenario& s)
{
    s.method = Method::Sinusoidal;
    std::string used;
    const auto d = r.small_int_alias(cfg, {"d_model", "hidden_size"}, &used);
    s.sinusoidal.dim = require_positive(used.empty() ? "d_model" : used, d.value_or(512));
    if (!d)
        r.note("d_model absent: the paper's 512");
    if (const auto b = r.number(cfg, "base", "base"))
        s.sinusoidal.base = *b;
    s.sinusoidal.layout = SinusoidalLayout::Interleaved;
    r.note("model_type 'transformer' is PosAtlas' name for Vaswani et al. 2017 (no HF config exists): "
           "PE[p, 2i] = sin(p / base^(2i/d)), PE[p, 2i+1] = cos(...)");
}

bool is_learned_type(std::string_view t)
{
    constexpr std::string_view kLearned[] = {"bert",       "roberta", "xlm-roberta", "camembert", "gpt2",
                                             "distilbert", "electra", "opt",         "biogpt"};
    return contains(kLearned, t);
}

bool has_rope_keys(const json& cfg)
{
    for (std::string_view k : {"rope_theta", "rope_scaling", "rope_parameters", "rotary_emb_base",
                               "rotary_pct", "rotary_dim", "partial_rotary_factor", "qk_rope_head_dim"})
        if (present(cfg, k))
            return true;
    return false;
}

void finish_unknown(Reader& r, const json& cfg, ConfigImport& out)
{
    for (auto it = cfg.begin(); it != cfg.end(); ++it) {
        const std::string& k = it.key();
        if (k.rfind("_posatlas_", 0) == 0 || r.seen_top(k) || contains(kKnownNonPositional, k))
            continue;
        if (contains(kPositionalNotModelled, k)) {
            r.ignore(k);
            if (k == "sliding_window" && !it->is_null())
                r.note("sliding_window is not modelled: attention spans the whole sequence shown");
            continue;
        }
        add_unique(out.unknown_keys, k);
    }
}

ConfigImport import_impl(const json& cfg, const Scenario& base)
{
    if (!cfg.is_object())
        throw ConfigError("a model config must be a JSON object (got " + show(cfg) + ")");
    ConfigImport out;
    out.scenario = base;
    Reader r(out);
    const auto model_type_opt = r.string(cfg, "model_type", "model_type");
    out.model_type = model_type_opt.value_or("");
    const std::string& mt = out.model_type;
    Scenario& s = out.scenario;

    const auto rope_with = [&](const RopeFamily& fam) {
        s.method = Method::RoPE;
        RopeReader(r, cfg, fam, s.rope).read();
    };

    if (mt == "falcon" || mt == "RefinedWeb" || mt == "RefinedWebModel") {
        const bool alibi = r.boolean(cfg, "alibi", "alibi").value_or(false);
        if (alibi)
            read_falcon_alibi(r, cfg, s);
        else
            rope_with(*find_rope_family(mt));
    } else if (const RopeFamily* fam = find_rope_family(mt)) {
        rope_with(*fam);
    } else if (mt == "bloom") {
        read_bloom(r, cfg, s);
    } else if (mt == "mpt") {
        read_mpt(r, cfg, s);
    } else if (mt == "t5" || mt == "mt5") {
        read_t5(r, cfg, s, mt);
    } else if (mt == "deberta-v2" || mt == "deberta") {
        read_deberta(r, cfg, s, mt);
    } else if (is_learned_type(mt)) {
        read_learned(r, cfg, s, mt);
    } else if (mt == "transformer") {
        read_sinusoidal(r, cfg, s);
    } else {
        // Unknown model type: decide from the keys present.
        const std::string who = mt.empty() ? "a config without model_type" : "model_type '" + mt + "'";
        if (has_rope_keys(cfg)) {
            r.note(who + " is not known to PosAtlas: RoPE is assumed because of its rope keys, with "
                         "LlamaConfig's defaults for missing keys");
            rope_with(kGenericRope);
        } else if (present(cfg, "alibi") && cfg.at("alibi").is_boolean() && cfg.at("alibi").get<bool>()) {
            r.note(who + " is not known to PosAtlas: ALiBi is assumed because alibi is true");
            r.boolean(cfg, "alibi", "alibi");
            s.method = Method::ALiBi;
            read_alibi_heads(r, cfg, s, {"num_attention_heads", "n_head", "n_heads", "num_heads"}, 8,
                             "the BLOOM-style default");
        } else if (present(cfg, "relative_attention_num_buckets")) {
            r.note(who + " is not known to PosAtlas: T5 buckets are assumed because of "
                         "relative_attention_num_buckets");
            read_t5(r, cfg, s, "t5");
        } else if (present(cfg, "position_buckets") || present(cfg, "pos_att_type")) {
            r.note(who +
                   " is not known to PosAtlas: DeBERTa is assumed because of its relative-position keys");
            read_deberta(r, cfg, s, "deberta-v2");
        } else {
            throw ConfigError("cannot tell which positional encoding " + who +
                              " uses: it has no rope_theta, rope_scaling, rope_parameters, alibi, "
                              "relative_attention_num_buckets or position_buckets key, and PosAtlas does not "
                              "know the model type");
        }
    }
    finish_unknown(r, cfg, out);
    return out;
}

} // namespace

ConfigImport import_model_config(const nlohmann::json& config, const Scenario& base)
{
    try {
        return import_impl(config, base);
    } catch (const ConfigError&) {
        throw;
    } catch (const nlohmann::json::exception& e) {
        // The typed readers check every type first; this only guards against a case they missed.
        throw ConfigError(std::string("unexpected JSON in the model config: ") + e.what());
    }
}

ConfigImport load_model_config(const std::string& path, const Scenario& base)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw ConfigError(path + ": cannot open the file (" + std::strerror(errno) + ")");
    json cfg;
    try {
        cfg = json::parse(in);
    } catch (const json::parse_error& e) {
        throw ConfigError(path + ": not valid JSON: " + e.what());
    }
    try {
        return import_model_config(cfg, base);
    } catch (const ConfigError& e) {
        throw ConfigError(path + ": " + e.what());
    }
}

} // namespace posatlas
