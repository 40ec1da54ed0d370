// SPDX-License-Identifier: GPL-3.0-or-later
// Checkpoint fixtures written byte by byte from the format specs, for the core and command-line tests:
// .safetensors (huggingface/safetensors README: u64 LE header length, JSON header, byte buffer) and GGUF
// headers (ggml docs/gguf.md: "GGUF", u32 version, u64 tensor count, u64 kv count, typed key-values).
// Header-only; no PosAtlas code is used to write them, so a reader bug cannot cancel out.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace posatlas::test {

// The n lowest bytes of v, little-endian; bytes past the 8th are 0 (le_bytes(0, 16): zero padding).
// (Shifting a 64-bit value by 64 or more is undefined: UBSan stopped core_tests on it.)
inline std::string le_bytes(std::uint64_t v, int n)
{
    std::string s;
    for (int i = 0; i < n; ++i)
        s += static_cast<char>(i < 8 ? (v >> (8 * i)) & 0xFF : 0);
    return s;
}

inline std::string f32_bytes(float f)
{
    std::uint32_t bits = 0;
    std::memcpy(&bits, &f, 4);
    return le_bytes(bits, 4);
}

inline std::string f64_bytes(double d)
{
    std::uint64_t bits = 0;
    std::memcpy(&bits, &d, 8);
    return le_bytes(bits, 8);
}

inline std::string u16_bytes(std::uint16_t v)
{
    return le_bytes(v, 2);
}

struct StTensor {
    std::string name;
    std::string dtype;
    std::vector<std::int64_t> shape;
    std::string data; // raw little-endian bytes
};

// The JSON header of `tensors` laid out one after another, with optional __metadata__.
inline std::string safetensors_header(const std::vector<StTensor>& tensors, const std::string& metadata = "")
{
    std::string h = "{";
    if (!metadata.empty())
        h += "\"__metadata__\":" + metadata + ",";
    std::uint64_t off = 0;
    for (std::size_t i = 0; i < tensors.size(); ++i) {
        const StTensor& t = tensors[i];
        h += "\"" + t.name + "\":{\"dtype\":\"" + t.dtype + "\",\"shape\":[";
        for (std::size_t d = 0; d < t.shape.size(); ++d)
            h.append(d ? "," : "")
                .append(std::to_string(t.shape[d])); // append(): GCC 12 -Wrestrict false positive
        h += "],\"data_offsets\":[" + std::to_string(off) + "," + std::to_string(off + t.data.size()) + "]}";
        h += i + 1 < tensors.size() ? "," : "";
        off += t.data.size();
    }
    return h + "}";
}

// A file from a header text and a byte buffer: u64 LE length, header, buffer.
inline std::string safetensors_raw(const std::string& header, const std::string& buffer)
{
    return le_bytes(header.size(), 8) + header + buffer;
}

inline std::string safetensors_file(const std::vector<StTensor>& tensors, const std::string& metadata = "")
{
    std::string data;
    for (const auto& t : tensors)
        data += t.data;
    return safetensors_raw(safetensors_header(tensors, metadata), data);
}

// A tensor of F32 values, row-major.
inline StTensor f32_tensor(const std::string& name, std::int64_t rows, std::int64_t cols,
                           const std::vector<float>& v)
{
    StTensor t{name, "F32", {rows, cols}, ""};
    for (float f : v)
        t.data += f32_bytes(f);
    return t;
}

inline StTensor u16_tensor(const std::string& name, const std::string& dtype, std::vector<std::int64_t> shape,
                           const std::vector<std::uint16_t>& v)
{
    StTensor t{name, dtype, std::move(shape), ""};
    for (std::uint16_t b : v)
        t.data += u16_bytes(b);
    return t;
}

// GGUF metadata writer: header, then key-values appended in order.
class GgufWriter
{
public:
    GgufWriter(std::uint32_t version = 3, std::uint64_t tensors = 0) : m_version(version), m_tensors(tensors)
    {
    }

    static std::string str(const std::string& s) { return le_bytes(s.size(), 8) + s; }

    GgufWriter& raw_kv(const std::string& key, std::uint32_t type, const std::string& value)
    {
        m_kv += str(key) + le_bytes(type, 4) + value;
        ++m_count;
        return *this;
    }
    GgufWriter& u32(const std::string& key, std::uint32_t v) { return raw_kv(key, 4, le_bytes(v, 4)); }
    GgufWriter& u64(const std::string& key, std::uint64_t v) { return raw_kv(key, 10, le_bytes(v, 8)); }
    GgufWriter& i32(const std::string& key, std::int32_t v)
    {
        return raw_kv(key, 5, le_bytes(static_cast<std::uint32_t>(v), 4));
    }
    GgufWriter& f32(const std::string& key, float v) { return raw_kv(key, 6, f32_bytes(v)); }
    GgufWriter& f64(const std::string& key, double v) { return raw_kv(key, 12, f64_bytes(v)); }
    GgufWriter& boolean(const std::string& key, bool v)
    {
        return raw_kv(key, 7, std::string(1, v ? '\1' : '\0'));
    }
    GgufWriter& string(const std::string& key, const std::string& v) { return raw_kv(key, 8, str(v)); }
    // An array of n strings "t0", "t1", ... (a tokenizer vocabulary).
    GgufWriter& string_array(const std::string& key, std::uint64_t n)
    {
        std::string v = le_bytes(8, 4) + le_bytes(n, 8);
        for (std::uint64_t i = 0; i < n; ++i)
            v +=
                str(std::string("t").append(std::to_string(i))); // append(): GCC 12 -Wrestrict false positive
        return raw_kv(key, 9, v);
    }
    GgufWriter& u32_array(const std::string& key, const std::vector<std::uint32_t>& xs)
    {
        std::string v = le_bytes(4, 4) + le_bytes(xs.size(), 8);
        for (auto x : xs)
            v += le_bytes(x, 4);
        return raw_kv(key, 9, v);
    }

    std::string bytes() const
    {
        return std::string("GGUF") + le_bytes(m_version, 4) + le_bytes(m_tensors, 8) + le_bytes(m_count, 8) +
               m_kv;
    }

private:
    std::uint32_t m_version;
    std::uint64_t m_tensors;
    std::uint64_t m_count = 0;
    std::string m_kv;
};

// DeepSeek-V3's header as llama.cpp's convert_hf_to_gguf.py (DeepseekV2Model.set_gguf_parameters and the
// base class's rope scaling) writes it from the published config.json (tests/data/configs/
// deepseek_v3_published.json), without the tokenizer. mla: a file converted for MLA (key_length and
// value_length the cached latent's widths, the heads' under key_length_mla / value_length_mla); else an
// older file with the heads' widths under key_length / value_length.
inline GgufWriter deepseek_v3_gguf(bool mla = true)
{
    GgufWriter w(3, 1);
    w.string("general.architecture", "deepseek2")
        .string("general.name", "DeepSeek V3")
        .u32("deepseek2.block_count", 61)
        .u32("deepseek2.context_length", 163840)
        .u32("deepseek2.embedding_length", 7168)
        .u32("deepseek2.feed_forward_length", 18432)
        .u32("deepseek2.attention.head_count", 128)
        .u32("deepseek2.attention.head_count_kv", mla ? 1 : 128)
        .f32("deepseek2.rope.freq_base", 10000.0f)
        .f32("deepseek2.attention.layer_norm_rms_epsilon", 1e-6f)
        .u32("deepseek2.expert_used_count", 8)
        .u32("deepseek2.leading_dense_block_count", 3)
        .u32("deepseek2.vocab_size", 129280)
        .u32("deepseek2.attention.q_lora_rank", 1536)
        .u32("deepseek2.attention.kv_lora_rank", 512);
    if (mla)
        w.u32("deepseek2.attention.key_length", 512 + 64)
            .u32("deepseek2.attention.value_length", 512)
            .u32("deepseek2.attention.key_length_mla", 128 + 64)
            .u32("deepseek2.attention.value_length_mla", 128);
    else
        w.u32("deepseek2.attention.key_length", 128 + 64).u32("deepseek2.attention.value_length", 128);
    w.u32("deepseek2.expert_feed_forward_length", 2048)
        .u32("deepseek2.expert_count", 256)
        .u32("deepseek2.expert_shared_count", 1)
        .f32("deepseek2.expert_weights_scale", 2.5f)
        .boolean("deepseek2.expert_weights_norm", true)
        .u32("deepseek2.expert_gating_func", 2)
        .u32("deepseek2.rope.dimension_count", 64)
        .string("deepseek2.rope.scaling.type", "yarn")
        .f32("deepseek2.rope.scaling.factor", 40.0f)
        .u32("deepseek2.rope.scaling.original_context_length", 4096)
        .f32("deepseek2.rope.scaling.yarn_beta_fast", 32.0f)
        .f32("deepseek2.rope.scaling.yarn_beta_slow", 1.0f)
        .f32("deepseek2.rope.scaling.yarn_log_multiplier", 0.1f * 1.0f)
        .u32("deepseek2.nextn_predict_layers", 1);
    return w;
}

} // namespace posatlas::test
