// SPDX-License-Identifier: GPL-3.0-or-later
#include "io/gguf.h"

#include "io/gguf_detail.h"

#include "io/input_file.h"
#include "io/number_text.h"
#include "methods/method.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <type_traits>

namespace posatlas {
namespace {

using json = nlohmann::json;

// Sequential reads of a RangeFile through a small buffer; every error names the path and the byte.
class Cursor
{
public:
    explicit Cursor(const RangeFile& f) : m_file(f) {}

    std::uint64_t pos() const { return m_pos; }
    std::uint64_t remaining() const { return m_file.size() - m_pos; }

    [[noreturn]] void fail(const std::string& what) const
    {
        throw ConfigError(quote_input(m_file.path(), 200) + ": " + what + " (at byte " +
                          std::to_string(m_pos) + ")");
    }

    void bytes(void* dst, std::size_t n, const char* what)
    {
        if (n > remaining())
            fail(std::string("truncated GGUF file: ") + what + " needs " + std::to_string(n) + " bytes, " +
                 std::to_string(remaining()) + " remain");
        auto* out = static_cast<unsigned char*>(dst);
        while (n > 0) {
            if (m_pos < m_buf_at || m_pos >= m_buf_at + m_buf.size())
                refill();
            const std::size_t off = static_cast<std::size_t>(m_pos - m_buf_at);
            const std::size_t take = std::min(n, m_buf.size() - off);
            std::memcpy(out, m_buf.data() + off, take);
            out += take;
            n -= take;
            m_pos += take;
        }
    }

    void skip(std::uint64_t n, const char* what)
    {
        if (n > remaining())
            fail(std::string("truncated GGUF file: ") + what + " needs " + std::to_string(n) + " bytes, " +
                 std::to_string(remaining()) + " remain");
        m_pos += n;
    }

    template <typename T> T le(const char* what)
    {
        unsigned char b[sizeof(T)];
        bytes(b, sizeof(T), what);
        std::uint64_t v = 0;
        for (int i = static_cast<int>(sizeof(T)) - 1; i >= 0; --i)
            v = (v << 8) | b[i];
        const auto u = static_cast<std::make_unsigned_t<T>>(v);
        T out;
        std::memcpy(&out, &u, sizeof(T)); // two's complement for the signed types
        return out;
    }

    // A gguf_string: uint64 length, then bytes. Longer than `keep`: skipped, returned as nullopt.
    std::optional<std::string> string(const char* what, std::uint64_t keep)
    {
        const auto n = le<std::uint64_t>(what);
        if (n > remaining())
            fail(std::string(what) + " has length " + std::to_string(n) + ", more than the " +
                 std::to_string(remaining()) + " bytes left in the file");
        if (n > keep || n > m_budget) {
            skip(n, what);
            return std::nullopt;
        }
        m_budget -= n;
        std::string s(static_cast<std::size_t>(n), '\0');
        bytes(s.data(), s.size(), what);
        return s;
    }

    // Counts one value read (an array's element, a key-value); past kGgufMaxValues the header is refused,
    // so the work per header is bounded whatever its size.
    void step(const std::string& key)
    {
        if (++m_steps > kGgufMaxValues)
            fail("key '" + quote_input(key) + "': more than " + std::to_string(kGgufMaxValues) +
                 " values in the header, the limit (real files have about a million: the tokenizer's lists)");
    }

    // Takes `n` bytes of the memory kept for values; false (and nothing taken) when they do not fit.
    bool take(std::uint64_t n)
    {
        if (n > m_budget)
            return false;
        m_budget -= n;
        return true;
    }

private:
    void refill()
    {
        m_buf_at = m_pos;
        const std::uint64_t n = std::min<std::uint64_t>(kChunk, m_file.size() - m_pos);
        m_buf.resize(static_cast<std::size_t>(n));
        try {
            m_file.read(m_pos, m_buf.data(), m_buf.size());
        } catch (const InputFileError& e) {
            throw ConfigError(e.what());
        }
    }

    static constexpr std::uint64_t kChunk = 1 << 16;
    const RangeFile& m_file;
    std::uint64_t m_pos = 0;
    std::uint64_t m_buf_at = 0;
    std::string m_buf;
    // Bytes of keys and values kept in memory: whatever the file says, the header costs at most this.
    std::uint64_t m_budget = kGgufKeptBytes;
    std::uint64_t m_steps = 0;
};

const char* type_name(std::uint32_t t)
{
    static const char* kNames[] = {"uint8", "int8",   "uint16", "int16",  "uint32", "int32",  "float32",
                                   "bool",  "string", "array",  "uint64", "int64",  "float64"};
    return t < 13 ? kNames[t] : "unknown";
}

// Bytes of one scalar of type t (0 for string and array, whose size is in the data).
int scalar_size(std::uint32_t t)
{
    switch (t) {
    case 0:
    case 1:
    case 7: return 1;
    case 2:
    case 3: return 2;
    case 4:
    case 5:
    case 6: return 4;
    case 10:
    case 11:
    case 12: return 8;
    default: return 0;
    }
}

json read_value(Cursor& c, std::uint32_t type, const std::string& key, int depth, std::uint64_t* array_length)
{
    switch (type) {
    case 0: return c.le<std::uint8_t>("a uint8");
    case 1: return c.le<std::int8_t>("an int8");
    case 2: return c.le<std::uint16_t>("a uint16");
    case 3: return c.le<std::int16_t>("an int16");
    case 4: return c.le<std::uint32_t>("a uint32");
    case 5: return c.le<std::int32_t>("an int32");
    case 6: {
        const auto bits = c.le<std::uint32_t>("a float32");
        float f = 0.0f;
        std::memcpy(&f, &bits, 4);
        return static_cast<double>(f);
    }
    case 7: {
        const auto b = c.le<std::uint8_t>("a bool");
        if (b > 1)
            c.fail("key '" + quote_input(key) + "': a bool must be 0 or 1 (got " + std::to_string(b) + ")");
        return b == 1;
    }
    case 8: {
        auto s = c.string("a string value", kGgufKeptString);
        return s ? json(*s) : json("");
    }
    case 9: {
        if (depth >= 4)
            c.fail("key '" + quote_input(key) + "': arrays nested deeper than 4 levels");
        const auto elem = c.le<std::uint32_t>("an array's element type");
        if (elem > 12)
            c.fail("key '" + quote_input(key) + "': unknown array element type " + std::to_string(elem));
        const auto n = c.le<std::uint64_t>("an array's length");
        // Every element takes at least one byte (strings and arrays at least 8): a count the rest of the
        // file cannot hold is refused before anything is read or allocated.
        const std::uint64_t least = elem == 8   ? 8
                                    : elem == 9 ? 12
                                                : static_cast<std::uint64_t>(scalar_size(elem));
        if (n > c.remaining() / least)
            c.fail("key '" + quote_input(key) + "': array length " + std::to_string(n) + " of " +
                   type_name(elem) + " needs more than the " + std::to_string(c.remaining()) +
                   " bytes left in the file");
        if (array_length)
            *array_length = n;
        // Nested arrays keep nothing: no document is made for them.
        json out = depth == 0 ? json::array() : json();
        // Scalars not kept (a long array, or any nested one) are skipped in one seek, not walked.
        if (elem != 8 && elem != 9 && (n > kGgufKeptArray || depth > 0)) {
            c.skip(n * least, "an array");
            return out;
        }
        // Only a top-level array keeps elements: nested arrays are read, not stored, so a small file
        // cannot make 64^4 values; every element read counts towards kGgufMaxValues.
        for (std::uint64_t i = 0; i < n; ++i) {
            c.step(key);
            json v = read_value(c, elem, key, depth + 1, nullptr);
            if (i < kGgufKeptArray && depth == 0 && elem != 9 && c.take(sizeof(json)))
                out.push_back(std::move(v));
        }
        return out;
    }
    case 10: return c.le<std::uint64_t>("a uint64");
    case 11: return c.le<std::int64_t>("an int64");
    case 12: {
        const auto bits = c.le<std::uint64_t>("a float64");
        double d = 0.0;
        std::memcpy(&d, &bits, 8);
        return d;
    }
    default:
        c.fail("key '" + quote_input(key) + "': unknown value type " + std::to_string(type) +
               " (GGUF types are 0..12)");
    }
}

// llama.cpp architecture names (src/llama-arch.cpp LLM_ARCH_NAMES) -> Hugging Face model_type.
std::string model_type_of(const std::string& arch)
{
    static const std::map<std::string, std::string> kMap = {
        {"llama", "llama"},      {"mistral3", "mistral"},
        {"qwen2", "qwen2"},      {"qwen2moe", "qwen2_moe"},
        {"qwen3", "qwen3"},      {"qwen3moe", "qwen3_moe"},
        {"phi2", "phi"},         {"phi3", "phi3"},
        {"gptneox", "gpt_neox"}, {"gptj", "gptj"},
        {"falcon", "falcon"},    {"bloom", "bloom"},
        {"mpt", "mpt"},          {"t5", "t5"},
        {"t5encoder", "t5"},     {"deepseek2", "deepseek_v2"},
        {"gpt2", "gpt2"},        {"bert", "bert"},
        {"gpt-oss", "gpt_oss"},  {"mixtral", "mixtral"},
        {"qwen2vl", "qwen2_vl"}, {"qwen3vl", "qwen3_vl"},
    };
    const auto it = kMap.find(arch);
    return it == kMap.end() ? arch : it->second;
}

// {arch}.* keys that say nothing about positions: recognised, not reported as unknown.
constexpr std::string_view kNonPositional[] = {
    "block_count",
    "feed_forward_length",
    "vocab_size",
    "use_parallel_residual",
    "tensor_data_layout",
    "expert_count",
    "expert_used_count",
    "expert_shared_count",
    "expert_feed_forward_length",
    "expert_weights_scale",
    "expert_weights_norm",
    "expert_gating_func",
    "leading_dense_block_count",
    "nextn_predict_layers",
    "pooling_type",
    "logit_scale",
    "decoder_start_token_id",
    "attention.head_count_kv",
    "attention.layer_norm_epsilon",
    "attention.layer_norm_rms_epsilon",
    "attention.value_length",
    "attention.clamp_kqv",
    "attention.causal",
    "attention.q_lora_rank",
    "attention.kv_lora_rank",
    "attention.key_length_mla",
    "attention.value_length_mla",
    "attention.sliding_window",
    "expert_group_count",
    "expert_group_used_count",
    "final_logit_softcapping",
    "attn_logit_softcapping",
};

// llama.cpp-only YaRN/attention knobs: positional, read by llama.cpp, not by the HF code PosAtlas follows.
constexpr std::string_view kLlamaCppOnly[] = {
    "rope.scaling.yarn_ext_factor", "rope.scaling.yarn_attn_factor", "rope.scaling.yarn_log_multiplier",
    "rope.scaling.attn_factor",     "rope.scaling.finetuned",
};

template <std::size_t N> bool listed(const std::string_view (&list)[N], std::string_view key)
{
    return std::find(std::begin(list), std::end(list), key) != std::end(list);
}

} // namespace

const GgufKeyValue* GgufHeader::find(const std::string& key) const
{
    for (const auto& kv : this->kv)
        if (kv.key == key)
            return &kv;
    return nullptr;
}

GgufHeader read_gguf_header(const std::string& path)
{
    std::unique_ptr<RangeFile> file;
    try {
        file = std::make_unique<RangeFile>(path);
    } catch (const InputFileError& e) {
        throw ConfigError(e.what());
    }
    Cursor c(*file);
    char magic[4];
    if (file->size() < 4)
        c.fail("not a GGUF file: " + std::to_string(file->size()) +
               " bytes, shorter than the magic \"GGUF\"");
    c.bytes(magic, 4, "the magic");
    if (std::memcmp(magic, "GGUF", 4) != 0)
        c.fail("not a GGUF file: the first bytes are '" + quote_input(std::string_view(magic, 4)) +
               "', not the magic \"GGUF\"");
    GgufHeader h;
    h.version = c.le<std::uint32_t>("the version");
    if (h.version == 0x02000000u || h.version == 0x03000000u)
        c.fail("a big-endian GGUF file; only little-endian files are read");
    if (h.version != 2 && h.version != 3)
        c.fail("GGUF version " + std::to_string(h.version) + " is not read (versions 2 and 3 are)");
    h.tensor_count = c.le<std::uint64_t>("the tensor count");
    const auto kv_count = c.le<std::uint64_t>("the key-value count");
    // A key-value takes at least 8 (key length) + 4 (type) + 1 (value) bytes.
    if (kv_count > c.remaining() / 13)
        c.fail("the key-value count " + std::to_string(kv_count) + " needs more than the " +
               std::to_string(c.remaining()) + " bytes left in the file");
    if (kv_count > kGgufMaxKeyValues)
        c.fail("the key-value count " + std::to_string(kv_count) + " exceeds the limit of " +
               std::to_string(kGgufMaxKeyValues) + " (real models have a few dozen)");
    for (std::uint64_t i = 0; i < kv_count; ++i) {
        GgufKeyValue kv;
        // gguf.md: keys are ASCII, at most 65535 bytes.
        auto key = c.string("a key", 65535);
        if (!key)
            c.fail("key " + std::to_string(i) + " is longer than 65535 bytes, or the keys exceed " +
                   std::to_string(kGgufKeptBytes) + " bytes in all");
        kv.key = std::move(*key);
        kv.type = c.le<std::uint32_t>("a value type");
        if (kv.type > 12)
            c.fail("key '" + quote_input(kv.key) + "': unknown value type " + std::to_string(kv.type) +
                   " (GGUF types are 0..12)");
        c.step(kv.key);
        kv.value = read_value(c, kv.type, kv.key, 0, &kv.array_length);
        h.kv.push_back(std::move(kv));
    }
    return h;
}

namespace gguf_detail {

HfConfigFromGguf::HfConfigFromGguf(const GgufHeader& header) : h(header)
{
    const GgufKeyValue* arch_kv = h.find("general.architecture");
    if (!arch_kv)
        throw ConfigError("the GGUF file has no general.architecture key: cannot tell which model it is");
    if (!arch_kv->value.is_string())
        throw ConfigError(std::string("general.architecture must be a string (got a ") +
                          type_name(arch_kv->type) + ")");
    arch = arch_kv->value.get<std::string>();
    mt = model_type_of(arch);
    pre = arch + ".";
    cfg["model_type"] = mt;
    hf_to_gguf["model_type"] = "general.architecture";
}

} // namespace gguf_detail

namespace {

using gguf_detail::HfConfigFromGguf;

// Multimodal RoPE: llama.cpp's rope.dimension_sections [t, h, w, e] (ggml_rope_multi; e, the fourth, is 0
// for the Qwen VL models) are Hugging Face's rope_scaling.mrope_section [t, h, w].
void map_mrope_sections(HfConfigFromGguf& m)
{
    const auto* kv = m.get("rope.dimension_sections");
    if (!kv)
        return;
    const json& v = kv->value;
    if (!v.is_array() || v.size() < 3 || v.size() > 4 ||
        !std::all_of(v.begin(), v.end(), [](const json& x) { return x.is_number_integer(); }))
        throw ConfigError(m.pre + "rope.dimension_sections must be 3 or 4 integers");
    if (v.size() == 4 && v[3].get<std::int64_t>() != 0)
        m.notes.push_back(m.pre + "rope.dimension_sections: the fourth section (" +
                          number_text(v[3].get<double>()) + " pairs) is not modelled");
    m.put("rope_scaling.mrope_section", "rope.dimension_sections", json::array({v[0], v[1], v[2]}));
}

// The model's shape: context, sizes, heads, θ, T5's buckets, MPT's ALiBi bias, and the rotary dimensions
// (the fraction of a head the Hugging Face config states).
void map_shape(HfConfigFromGguf& m)
{
    const std::string& mt = m.mt;
    const std::string& pre = m.pre;
    m.copy(mt == "gptj"  ? "n_positions"
           : mt == "mpt" ? "max_seq_len"
                         : "max_position_embeddings",
           "context_length");
    m.copy(mt == "mpt" ? "d_model" : "hidden_size", "embedding_length");
    m.copy(mt == "mpt" ? "n_heads" : "num_attention_heads", "attention.head_count");
    if (mt != "deepseek_v2") // deepseek2's key lengths are the latent attention's (map_deepseek2_shape)
        m.copy("head_dim", "attention.key_length");
    m.copy("rope_theta", "rope.freq_base");
    m.copy("relative_attention_num_buckets", "attention.relative_buckets_count");
    if (mt == "mpt")
        m.copy("attn_config.alibi_bias_max", "attention.max_alibi_bias");

    map_mrope_sections(m);
    if (mt == "deepseek_v2") {
        gguf_detail::map_deepseek2_shape(m);
        return;
    }

    const auto* nrot = m.get("rope.dimension_count");
    if (!nrot)
        return;
    if (mt == "gptj") {
        m.put("rotary_dim", "rope.dimension_count", nrot->value);
        return;
    }
    // The rotary fraction the HF config states: dimension_count / head_dim (llama.cpp n_rot).
    const auto* kl = m.get("attention.key_length");
    const auto* emb = m.get("embedding_length");
    const auto* heads = m.get("attention.head_count");
    double head_dim = 0.0;
    if (kl && kl->value.is_number())
        head_dim = kl->value.get<double>();
    else if (emb && heads && emb->value.is_number() && heads->value.is_number() &&
             heads->value.get<double>() > 0)
        head_dim = std::floor(emb->value.get<double>() / heads->value.get<double>());
    if (!nrot->value.is_number() || nrot->value.get<double>() <= 0)
        throw ConfigError(pre + "rope.dimension_count must be a positive integer");
    if (head_dim <= 0)
        throw ConfigError(pre + "rope.dimension_count needs the head size: " + pre +
                          "attention.key_length, or " + pre + "embedding_length and " + pre +
                          "attention.head_count");
    const double fraction = nrot->value.get<double>() / head_dim;
    m.put(mt == "gpt_neox" ? "rotary_pct" : "partial_rotary_factor", "rope.dimension_count", fraction);
    m.notes.push_back(pre + "rope.dimension_count = " + number_text(nrot->value.get<double>()) +
                      " rotary dimensions of a head of " + number_text(head_dim) + ": fraction " +
                      number_text(fraction));
}

// RoPE scaling: the type, then the numbers that go with it; llama.cpp's own settings are not modelled.
void map_rope_scaling(HfConfigFromGguf& m)
{
    const std::string& pre = m.pre;
    std::string scaling;
    if (const auto* t = m.get("rope.scaling.type")) {
        if (!t->value.is_string())
            throw ConfigError(pre + "rope.scaling.type must be a string (got a " +
                              std::string(type_name(t->type)) + ")");
        scaling = t->value.get<std::string>();
        if (scaling != "none" && scaling != "linear" && scaling != "yarn" && scaling != "longrope")
            throw ConfigError(pre + "rope.scaling.type must be one of none|linear|yarn|longrope (got '" +
                              quote_input(scaling) + "')");
        if (scaling != "none")
            m.put("rope_scaling.rope_type", "rope.scaling.type", scaling);
        else
            m.hf_to_gguf["rope_scaling"] = pre + "rope.scaling.type";
    } else if (const auto* lin = m.get("rope.scale_linear")) {
        // gguf-py Keys.Rope.SCALE_LINEAR: the legacy key of linear scaling.
        scaling = "linear";
        m.cfg["rope_scaling"]["rope_type"] = "linear";
        m.put("rope_scaling.factor", "rope.scale_linear", lin->value);
    }
    const auto scaling_key = [&](const std::string& hf, const std::string& suffix) {
        if (!m.get(suffix))
            return;
        if (scaling.empty() || scaling == "none")
            m.ignored.push_back(pre + suffix);
        else
            m.copy("rope_scaling." + hf, suffix);
    };
    scaling_key("factor", "rope.scaling.factor");
    scaling_key("original_max_position_embeddings", "rope.scaling.original_context_length");
    if (scaling == "yarn") {
        scaling_key("beta_fast", "rope.scaling.yarn_beta_fast");
        scaling_key("beta_slow", "rope.scaling.yarn_beta_slow");
        if (m.mt == "deepseek_v2")
            gguf_detail::map_deepseek2_yarn(m);
    } else {
        for (const char* k : {"rope.scaling.yarn_beta_fast", "rope.scaling.yarn_beta_slow"})
            if (m.get(k))
                m.ignored.push_back(pre + k);
    }
    if (scaling == "none" && (m.get("rope.scaling.factor") || m.get("rope.scaling.original_context_length")))
        m.notes.push_back(pre +
                          "rope.scaling.type is none: the scaling factor and original context are not used");
    for (std::string_view k : kLlamaCppOnly)
        if (m.get(std::string(k)) && !m.mapped(pre + std::string(k))) {
            m.ignored.push_back(pre + std::string(k));
            m.notes.push_back(pre + std::string(k) +
                              " is a llama.cpp setting with no Hugging Face counterpart; "
                              "it is not modelled");
        }
}

// The layers (llama.cpp llama-arch.cpp LLM_KV_*, read by llama-model.cpp): block_count -> num_hidden_layers;
// attention.sliding_window -> sliding_window; attention.sliding_window_pattern, a period P (Gemma 3: layer
// il slides unless il % P == P - 1, HF's (i + 1) % P != 0) -> sliding_window_pattern, or one bool per
// layer (true: sliding window) -> layer_types; rope.freq_base_swa -> rope_local_base_freq. Llama 4's
// chunk size, NoPE step and temperature are constants in llama.cpp (no keys): HF's defaults are the same.
void map_layers(HfConfigFromGguf& m)
{
    m.copy("num_hidden_layers", "block_count");
    if (m.mt != "llama4")
        m.copy("sliding_window", "attention.sliding_window");
    m.copy("rope_local_base_freq", "rope.freq_base_swa");
    const auto* pattern = m.get("attention.sliding_window_pattern");
    if (!pattern)
        return;
    if (!pattern->value.is_array()) {
        m.put("sliding_window_pattern", "attention.sliding_window_pattern", pattern->value);
        return;
    }
    json types = json::array();
    for (const json& v : pattern->value)
        types.push_back(v.is_boolean() && v.get<bool>() ? "sliding_attention" : "full_attention");
    if (types.size() != pattern->array_length) { // longer than kGgufKeptArray: the flags were not kept
        m.ignored.push_back(m.pre + "attention.sliding_window_pattern");
        m.notes.push_back(m.pre + "attention.sliding_window_pattern has more than " +
                          std::to_string(kGgufKeptArray) +
                          " flags, which PosAtlas does not keep: not modelled");
        return;
    }
    m.put("layer_types", "attention.sliding_window_pattern", types);
}

// import_model_config() of the config, its errors naming the GGUF key instead of the config.json key the
// message starts with.
ConfigImport import_mapped(const HfConfigFromGguf& m, const Scenario& base)
{
    try {
        return import_model_config(m.cfg, base);
    } catch (const ConfigError& e) {
        std::string what = e.what();
        for (const auto& [hf, gg] : m.hf_to_gguf)
            if (what.rfind(hf + " ", 0) == 0 || what.rfind(hf + "[", 0) == 0) {
                what = gg + what.substr(hf.size());
                break;
            }
        throw ConfigError(what);
    }
}

// The import's report in GGUF keys: read, ignored (mapped keys the import did not look at among them) and
// unknown, leaving out the general, tokenizer and split keys and the architecture's non-positional ones.
void report_in_gguf_keys(ConfigImport& out, const HfConfigFromGguf& m)
{
    const auto to_gguf = [&](std::vector<std::string>& keys) {
        std::vector<std::string> mapped;
        for (const auto& k : keys) {
            const auto it = m.hf_to_gguf.find(k);
            const std::string g = it != m.hf_to_gguf.end() ? it->second : "";
            if (!g.empty() && std::find(mapped.begin(), mapped.end(), g) == mapped.end())
                mapped.push_back(g);
        }
        keys = std::move(mapped);
    };
    to_gguf(out.read_keys);
    to_gguf(out.ignored_keys);
    out.unknown_keys.clear();
    for (const auto& k : m.ignored)
        if (std::find(out.ignored_keys.begin(), out.ignored_keys.end(), k) == out.ignored_keys.end())
            out.ignored_keys.push_back(k);
    for (const auto& kv : m.h.kv) {
        const std::string& k = kv.key;
        if (k.rfind("general.", 0) == 0 || k.rfind("tokenizer.", 0) == 0 || k.rfind("split.", 0) == 0)
            continue;
        const bool ours = k.rfind(m.pre, 0) == 0;
        const std::string suffix = ours ? k.substr(m.pre.size()) : "";
        const bool used =
            std::find(out.read_keys.begin(), out.read_keys.end(), k) != out.read_keys.end() ||
            std::find(out.ignored_keys.begin(), out.ignored_keys.end(), k) != out.ignored_keys.end();
        const bool no_position =
            std::find(m.no_position.begin(), m.no_position.end(), k) != m.no_position.end();
        if (used || no_position || (ours && listed(kNonPositional, suffix)))
            continue;
        // A mapped key the import did not look at (e.g. head_dim for a family that derives it).
        bool mapped = false;
        for (const auto& [hf, gg] : m.hf_to_gguf)
            mapped = mapped || gg == k;
        if (mapped)
            out.ignored_keys.push_back(k);
        else
            out.unknown_keys.push_back(k);
    }
}

// llama.cpp's max_alibi_bias is the 8 of m_h = 2^(-8 h / n) (Press et al.; HF build_alibi_tensor): read
// when it is 8 for an ALiBi model, else not modelled (MPT's went through attn_config.alibi_bias_max).
void report_max_alibi_bias(ConfigImport& out, HfConfigFromGguf& m)
{
    const std::string bias_key = m.pre + "attention.max_alibi_bias";
    const auto* mb = m.get("attention.max_alibi_bias");
    if (!mb || m.mt == "mpt")
        return;
    const bool eight = mb->value.is_number() && mb->value.get<double>() == 8.0;
    if (eight && out.scenario.method == Method::ALiBi) {
        out.read_keys.push_back(bias_key);
    } else {
        out.ignored_keys.push_back(bias_key);
        if (out.scenario.method == Method::ALiBi || (mb->value.is_number() && mb->value.get<double>() != 0.0))
            m.notes.push_back(bias_key + " is not modelled: ALiBi slopes use the reference 8");
    }
}

} // namespace

ConfigImport import_gguf_config(const GgufHeader& h, const Scenario& base)
{
    HfConfigFromGguf m(h);
    map_shape(m);
    map_rope_scaling(m);
    map_layers(m);
    ConfigImport out = import_mapped(m, base);
    report_in_gguf_keys(out, m);
    report_max_alibi_bias(out, m);
    out.notes.insert(out.notes.begin(), m.notes.begin(), m.notes.end());
    out.notes.insert(out.notes.begin(), "GGUF architecture '" + quote_input(m.arch) +
                                            "' read as the Hugging Face model type '" + quote_input(m.mt) +
                                            "'");
    return out;
}

ConfigImport load_gguf_config(const std::string& path, const Scenario& base)
{
    const GgufHeader h = read_gguf_header(path); // its errors name the path
    try {
        return import_gguf_config(h, base);
    } catch (const ConfigError& e) {
        throw ConfigError(path + ": " + e.what());
    }
}

} // namespace posatlas
