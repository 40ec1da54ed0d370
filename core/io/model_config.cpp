// SPDX-License-Identifier: GPL-3.0-or-later
#include "io/model_config.h"

#include "io/gguf.h"
#include "io/input_file.h"
#include "io/model_config_detail.h"
#include "methods/mla/mla.h"
#include "scenario/validation.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <string_view>

namespace posatlas {
namespace detail {

// Short, escaped text of a JSON value for messages: a scalar's text, only the type of an array or object
// (which may be huge or deeply nested).
std::string show(const json& v)
{
    return json_value_for_message(v);
}

void add_unique(std::vector<std::string>& list, const std::string& s)
{
    if (std::find(list.begin(), list.end(), s) == list.end())
        list.push_back(s);
}

bool present(const json& cfg, std::string_view key)
{
    const auto it = cfg.find(std::string(key));
    return it != cfg.end() && !it->is_null();
}

} // namespace detail

namespace {

using namespace detail;

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
    "rope_local_base_freq",
};

template <std::size_t N> bool contains(const std::string_view (&list)[N], std::string_view key)
{
    return std::find(std::begin(list), std::end(list), key) != std::end(list);
}

// DeepSeek's multi-head latent attention: a low-rank key/value projection beside a rotary part of its own.
bool latent_attention(const json& cfg)
{
    return present(cfg, "kv_lora_rank") || present(cfg, "qk_rope_head_dim");
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

// Keys of a sliding window that use_sliding_window switches on (Qwen2, Qwen2-MoE, Qwen2-VL).
constexpr std::string_view kSlidingWindowKeys[] = {"sliding_window", "use_sliding_window",
                                                   "max_window_layers"};

void finish_unknown(Reader& r, const json& cfg, ConfigImport& out)
{
    // use_sliding_window false: no layer has a window (Qwen2Config: self.sliding_window = sliding_window if
    // use_sliding_window else None), so these keys say nothing about positions: read, not "not modelled".
    const auto flag = cfg.find("use_sliding_window");
    if (flag != cfg.end() && flag->is_boolean() && !flag->get<bool>() && !r.seen_top("use_sliding_window")) {
        std::string unused;
        for (std::string_view k : kSlidingWindowKeys) {
            if (!cfg.contains(std::string(k)))
                continue;
            add_unique(out.read_keys, std::string(k));
            r.mark_top(std::string(k));
            if (k != "use_sliding_window")
                unused += (unused.empty() ? "" : ", ") + std::string(k);
        }
        r.note("use_sliding_window is false: every layer attends to the whole sequence" +
               (unused.empty() ? std::string() : " (" + unused + " not in effect)"));
    }
    for (auto it = cfg.begin(); it != cfg.end(); ++it) {
        const std::string& k = it.key();
        if (k.rfind("_posatlas_", 0) == 0 || r.seen_top(k) || contains(kKnownNonPositional, k))
            continue;
        if (contains(kPositionalNotModelled, k)) {
            r.ignore(k);
            if (k == "sliding_window" && !it->is_null())
                r.note("sliding_window is not modelled: attention spans the whole sequence shown");
            if (k == "rope_local_base_freq")
                r.note(
                    "rope_local_base_freq (Gemma 3: the RoPE base of the sliding-window layers) is read, not "
                    "modelled yet: the views show the global layers' rope_theta");
            continue;
        }
        add_unique(out.unknown_keys, k);
    }
}

// The multimodal configs of Gemma 3, Llama 4 and Qwen2-VL / Qwen2.5-VL / Qwen3-VL keep the text model's
// keys in text_config: read as if they stood at the top level (text_config wins), the rest of the outer
// config beside them.
json text_config_flattened(const json& cfg)
{
    json flat = cfg;
    flat.erase("text_config");
    for (auto it = cfg.at("text_config").begin(); it != cfg.at("text_config").end(); ++it)
        if (it.key() != "model_type")
            flat[it.key()] = it.value();
    return flat;
}

ConfigImport import_impl(const json& outer, const Scenario& base)
{
    if (!outer.is_object())
        throw ConfigError("a model config must be a JSON object (got " + show(outer) + ")");
    // Gemma 3 and 4, Llama 4 and the multimodal Qwen models keep the text model's keys in text_config.
    const json outer_type = outer.value("model_type", json());
    const bool multimodal = outer_type == "gemma3" || outer_type == "gemma4" || outer_type == "llama4" ||
                            outer_type == "qwen2_vl" || outer_type == "qwen2_5_vl" ||
                            outer_type == "qwen3_vl";
    const bool text_config =
        multimodal && outer.contains("text_config") && outer.at("text_config").is_object();
    const json flat = text_config ? text_config_flattened(outer) : json();
    const json& cfg = text_config ? flat : outer;
    ConfigImport out;
    // A model starts from the defaults of its own code, exactly as on the command line: nothing of the
    // previous model's parameters carries over (a Qwen2 config loaded after DeepSeek-V2 must not keep
    // DeepSeek's YaRN factor or original context). Only what the viewer chose, not the model, is kept.
    out.scenario = Scenario{};
    out.scenario.seq_len = base.seq_len;
    out.scenario.content = base.content;
    out.scenario.head = base.head;
    Reader r(out);
    const auto model_type_opt = r.string(cfg, "model_type", "model_type");
    out.model_type = model_type_opt.value_or("");
    const std::string& mt = out.model_type;
    Scenario& s = out.scenario;
    if (text_config && mt == "gemma3")
        r.note("Gemma 3 (multimodal config): the text model's keys are read from text_config, keys it omits "
               "take Gemma3TextConfig's defaults");
    else if (text_config && mt == "llama4")
        r.note("Llama 4 (multimodal config): the text model's keys are read from text_config, keys it omits "
               "take Llama4TextConfig's defaults");
    else if (text_config)
        r.note("multimodal config: the text model's keys are read from text_config");

    const auto rope_with = [&](const RopeFamily& fam) {
        s.method = Method::RoPE;
        read_rope(r, cfg, fam, s.params<RopeParams>());
        read_mrope(r, cfg, s, mt);
        if (mt == "deepseek_v2" || mt == "deepseek_v3" || (!find_rope_family(mt) && latent_attention(cfg)))
            read_mla(r, cfg, s);
    };

    if (mt == "falcon" || mt == "RefinedWeb" || mt == "RefinedWebModel") {
        const bool alibi = r.boolean(cfg, "alibi", "alibi").value_or(false);
        if (alibi)
            read_falcon_alibi(r, cfg, s);
        else
            rope_with(*find_rope_family(mt));
    } else if (const RopeFamily* fam = find_rope_family(mt)) {
        rope_with(*fam);
    } else if (latent_attention(cfg)) {
        // A model type PosAtlas does not know with DeepSeek's latent-attention keys (kv_lora_rank,
        // qk_rope_head_dim): read as DeepseekV3Config reads them.
        r.note("model_type '" + quote_input(mt) +
               "' is not known to PosAtlas: multi-head latent attention is assumed because of kv_lora_rank / "
               "qk_rope_head_dim, with DeepseekV3Config's defaults for missing keys");
        rope_with(*find_rope_family("deepseek_v3"));
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
        const std::string who =
            mt.empty() ? "a config without model_type" : "model_type '" + quote_input(mt) + "'";
        if (has_rope_keys(cfg)) {
            r.note(who + " is not known to PosAtlas: RoPE is assumed because of its rope keys, with "
                         "LlamaConfig's defaults for missing keys");
            rope_with(generic_rope_family());
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
    if (s.method == Method::RoPE || s.method == kMLA)
        read_layers(r, cfg, out);
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
        // Its words without the library's "[json.exception.type_error.302] " prefix.
        std::string what = e.what();
        if (const auto end = what.find("] ");
            what.rfind("[json.exception.", 0) == 0 && end != std::string::npos)
            what = what.substr(end + 2);
        throw ConfigError("unexpected JSON in the model config: " + quote_input(what, 200));
    }
}

ConfigImport load_model_config(const std::string& path, const Scenario& base)
{
    // A llama.cpp model file: its metadata keys, mapped to the same import.
    if (path.size() >= 5) {
        std::string ext = path.substr(path.size() - 5);
        std::transform(ext.begin(), ext.end(), ext.begin(),
                       [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
        if (ext == ".gguf")
            return load_gguf_config(path, base);
    }
    json cfg;
    try {
        cfg = parse_json_input(read_input_file(path, kMaxConfigBytes));
    } catch (const InputFileError& e) {
        // read_input_file() names the path itself; the parser does not.
        const std::string what = e.what();
        throw ConfigError(what.rfind(path + ": ", 0) == 0 ? what : path + ": " + what);
    }
    try {
        return import_model_config(cfg, base);
    } catch (const ConfigError& e) {
        throw ConfigError(path + ": " + e.what());
    }
}

} // namespace posatlas
