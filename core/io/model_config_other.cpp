// SPDX-License-Identifier: GPL-3.0-or-later
// Non-RoPE parts of the model config import: ALiBi (BLOOM, MPT, Falcon), T5 buckets, DeBERTa, learned
// absolute tables and sinusoidal encodings.
#include "io/input_file.h"
#include "io/model_config_detail.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <limits>
#include <string_view>

namespace posatlas::detail {
namespace {

std::string lowercase(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

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

} // namespace

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
    s.params<AlibiParams>().num_heads = require_positive(used, *heads);
    s.params<AlibiParams>().bias = AlibiBias::Causal;
    r.note("ALiBi slopes m_h = 2^(-8h/n) for n = " + std::to_string(s.params<AlibiParams>().num_heads) +
           " heads (Press et al.; non-powers of two interleave the next power's slopes)");
    clamp_head(r, s, s.params<AlibiParams>().num_heads);
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
        s.params<LearnedParams>().dim = require_positive(used.empty() ? "d_model" : used, d.value_or(2048));
        s.params<LearnedParams>().trained_length = max_seq.value_or(2048);
        if (const auto ir = r.number(cfg, "initializer_range", "initializer_range"))
            s.params<LearnedParams>().stddev = *ir;
        r.note(
            "attn_config.alibi false: MosaicML's MPT adds a learned position table wpe of max_seq_len rows "
            "(transformers' MptModel always applies ALiBi)");
        return;
    }
    s.method = Method::ALiBi;
    read_alibi_heads(r, cfg, s, {"n_heads", "num_attention_heads"}, 16, "MptConfig");
    s.params<AlibiParams>().trained_length = max_seq.value_or(2048);
    s.params<AlibiParams>().target_length = s.params<AlibiParams>().trained_length;
    if (const auto bias_max = r.number(ac, "alibi_bias_max", "attn_config.alibi_bias_max");
        bias_max && *bias_max != 8.0) {
        r.ignore("attn_config.alibi_bias_max");
        r.note("attn_config.alibi_bias_max = " + format_number(*bias_max) +
               " is not modelled: slopes use the reference 8");
    }
    if (r.boolean(ac, "prefix_lm", "attn_config.prefix_lm").value_or(false)) {
        s.params<AlibiParams>().bias = AlibiBias::Symmetric;
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
    s.params<T5Params>().num_buckets = buckets.value_or(32);
    s.params<T5Params>().max_distance = dist.value_or(128);
    if (!buckets)
        r.note("relative_attention_num_buckets absent: " + cls + " default 32");
    if (!dist)
        r.note("relative_attention_max_distance absent: " + cls + " default 128");
    if (!heads) {
        heads = default_heads;
        used = "num_heads";
        r.note("num_heads absent: " + cls + " default " + std::to_string(default_heads));
    }
    s.params<T5Params>().num_heads = require_positive(used, *heads);
    s.params<T5Params>().bidirectional = true;
    r.note(
        "encoder self-attention (bidirectional buckets) is shown; the decoder uses unidirectional buckets");
    clamp_head(r, s, s.params<T5Params>().num_heads);
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
    s.params<LearnedParams>().dim =
        require_positive(dim_key.empty() ? (gpt2 ? "n_embd" : "hidden_size") : dim_key, dim.value_or(768));
    s.params<LearnedParams>().trained_length = len.value_or(gpt2 ? 1024 : 512);
    if (!dim)
        r.note(std::string(gpt2 ? "n_embd" : "hidden_size") + " absent: " + cls + " default 768");
    if (!len)
        r.note(std::string(gpt2 ? "n_positions" : "max_position_embeddings") + " absent: " + cls +
               " default " + std::to_string(s.params<LearnedParams>().trained_length));
    if (const auto ir = r.number(cfg, "initializer_range", "initializer_range"))
        s.params<LearnedParams>().stddev = *ir;
    else
        r.note("initializer_range absent: default 0.02");
    if (!gpt2) {
        if (const auto pet = r.string(cfg, "position_embedding_type", "position_embedding_type");
            pet && *pet != "absolute") {
            r.ignore("position_embedding_type");
            r.note("position_embedding_type '" + quote_input(*pet) +
                   "' is not modelled: the absolute table is shown");
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
        s.params<LearnedParams>().dim = *hidden;
        s.params<LearnedParams>().trained_length = *max_pos;
        if (const auto ir = r.number(cfg, "initializer_range", "initializer_range"))
            s.params<LearnedParams>().stddev = *ir;
        r.note("relative_attention false: DeBERTa adds only its absolute position table "
               "(position_biased_input)");
        return;
    }
    s.method = Method::DeBERTa;
    if (const auto ahs = r.small_int(cfg, "attention_head_size", "attention_head_size")) {
        s.params<DebertaParams>().head_dim = require_positive("attention_head_size", *ahs);
    } else {
        s.params<DebertaParams>().head_dim = *hidden / *heads;
        r.note("head_dim = hidden_size / num_attention_heads = " + std::to_string(*hidden) + " / " +
               std::to_string(*heads) + " = " + std::to_string(s.params<DebertaParams>().head_dim));
    }
    const auto buckets = r.small_int(cfg, "position_buckets", "position_buckets");
    s.params<DebertaParams>().position_buckets = buckets.value_or(-1);
    if (!buckets)
        r.note("position_buckets absent: -1 (no log buckets), the default of modeling_deberta_v2");
    auto mrp = r.integer(cfg, "max_relative_positions", "max_relative_positions");
    const std::int64_t raw = mrp.value_or(-1);
    if (raw < 1) {
        s.params<DebertaParams>().max_relative_positions =
            static_cast<int>(std::min<std::int64_t>(*max_pos, 1'000'000'000));
        r.note("max_relative_positions = " + std::to_string(raw) +
               " < 1: max_position_embeddings = " + std::to_string(*max_pos) + " is used");
    } else {
        if (raw > std::numeric_limits<int>::max())
            throw ConfigError("max_relative_positions is out of range (got " + std::to_string(raw) + ")");
        s.params<DebertaParams>().max_relative_positions = static_cast<int>(raw);
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
    s.params<DebertaParams>().c2p = std::find(types.begin(), types.end(), "c2p") != types.end();
    s.params<DebertaParams>().p2c = std::find(types.begin(), types.end(), "p2c") != types.end();
    for (const auto& t : types)
        if (t != "c2p" && t != "p2c")
            r.note("pos_att_type '" + quote_input(t) + "' is not modelled (only c2p and p2c)");
    if (!s.params<DebertaParams>().c2p && !s.params<DebertaParams>().p2c)
        r.note("pos_att_type has neither c2p nor p2c: only content-to-content attention remains");
    if (const auto ir = r.number(cfg, "initializer_range", "initializer_range"))
        s.params<DebertaParams>().stddev = *ir;
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
    s.params<SinusoidalParams>().dim = require_positive(used.empty() ? "d_model" : used, d.value_or(512));
    if (!d)
        r.note("d_model absent: the paper's 512");
    if (const auto b = r.number(cfg, "base", "base"))
        s.params<SinusoidalParams>().base = *b;
    s.params<SinusoidalParams>().layout = SinusoidalLayout::Interleaved;
    r.note("model_type 'transformer' is PosAtlas' name for Vaswani et al. 2017 (no HF config exists): "
           "PE[p, 2i] = sin(p / base^(2i/d)), PE[p, 2i+1] = cos(...)");
}

} // namespace posatlas::detail
