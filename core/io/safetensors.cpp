// SPDX-License-Identifier: GPL-3.0-or-later
#include "io/safetensors.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstring>
#include <limits>
#include <memory>
#include <set>

namespace posatlas {
namespace {

using json = nlohmann::json;

[[noreturn]] void fail(const std::string& path, const std::string& what)
{
    throw SafetensorsError(quote_input(path, 200) + ": " + what);
}

std::string tensor_label(const std::string& name)
{
    return "tensor '" + quote_input(name, 120) + "'";
}

std::uint64_t le64(const unsigned char* p)
{
    std::uint64_t v = 0;
    for (int i = 7; i >= 0; --i)
        v = (v << 8) | p[i];
    return v;
}

// Non-negative integer of the header (shape entry or offset); nullopt for anything else.
std::optional<std::uint64_t> header_uint(const json& v)
{
    if (v.is_number_unsigned())
        return v.get<std::uint64_t>();
    if (v.is_number_integer() && v.get<std::int64_t>() >= 0)
        return static_cast<std::uint64_t>(v.get<std::int64_t>());
    return std::nullopt;
}

// Reads and checks one .safetensors header; appends its tensors.
void read_one(const std::string& path, std::vector<SafetensorsTensor>& out,
              std::map<std::string, std::string>* metadata)
{
    std::unique_ptr<RangeFile> file;
    try {
        file = std::make_unique<RangeFile>(path);
    } catch (const InputFileError& e) {
        throw SafetensorsError(e.what());
    }
    const std::uint64_t size = file->size();
    if (size < 8)
        fail(path, "not a .safetensors file: " + std::to_string(size) +
                       " bytes, shorter than the 8-byte header length that starts the format");
    unsigned char lenbytes[8];
    file->read(0, lenbytes, 8);
    const std::uint64_t n = le64(lenbytes);
    if (n > size - 8)
        fail(path, "the header length " + std::to_string(n) + " is larger than the rest of the file (" +
                       std::to_string(size - 8) + " bytes): not a .safetensors file, or a truncated one");
    if (n > kMaxSafetensorsHeaderBytes)
        fail(path, "the header length " + std::to_string(n) + " exceeds the limit of " +
                       std::to_string(kMaxSafetensorsHeaderBytes) + " bytes");
    if (n < 2)
        fail(path, "the header is empty (length " + std::to_string(n) + "); it must be a JSON object");
    const std::string text = file->read(8, static_cast<std::size_t>(n));
    json header;
    try {
        header = parse_json_input(text);
    } catch (const InputFileError& e) {
        fail(path, std::string("the header is ") + e.what());
    }
    if (!header.is_object())
        fail(path, "the header must be a JSON object (got " + json_type_phrase(header) + ")");
    const std::uint64_t data_start = 8 + n;
    const std::uint64_t buffer = size - data_start;

    std::vector<SafetensorsTensor> mine;
    for (auto it = header.begin(); it != header.end(); ++it) {
        const std::string& name = it.key();
        const json& v = it.value();
        if (name == "__metadata__") {
            if (!v.is_object())
                fail(path, "__metadata__ must be an object of strings (got " + json_type_phrase(v) + ")");
            if (metadata)
                for (auto m = v.begin(); m != v.end(); ++m)
                    if (m.value().is_string())
                        (*metadata)[m.key()] = m.value().get<std::string>();
            continue;
        }
        const std::string who = tensor_label(name);
        if (!v.is_object())
            fail(path, who + " must be an object with dtype, shape and data_offsets (got " +
                           json_type_phrase(v) + ")");
        SafetensorsTensor t;
        t.name = name;
        t.file = path;
        t.data_start = data_start;
        const auto dt = v.find("dtype");
        if (dt == v.end() || !dt->is_string())
            fail(path, who + ": dtype must be a string");
        t.dtype = dt->get<std::string>();
        const int item = safetensors_dtype_size(t.dtype);
        if (item == 0)
            fail(path,
                 who + ": unknown dtype '" + quote_input(t.dtype) +
                     "' (the safetensors dtypes are BOOL, U8, I8, F8_E5M2, F8_E4M3, I16, U16, F16, BF16, "
                     "I32, U32, F32, F64, I64, U64)");
        const auto sh = v.find("shape");
        if (sh == v.end() || !sh->is_array())
            fail(path, who + ": shape must be a list of non-negative integers");
        // Product with an overflow guard: anything beyond 2^62 bytes cannot be in a file anyway.
        std::uint64_t count = 1;
        constexpr std::uint64_t kHuge = std::uint64_t{1} << 62;
        for (const json& d : *sh) {
            const auto dim = header_uint(d);
            if (!dim)
                fail(path, who + ": shape must be a list of non-negative integers (got " +
                               json_value_for_message(d) + ")");
            if (*dim > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
                fail(path, who + ": shape entry " + std::to_string(*dim) + " is too large");
            t.shape.push_back(static_cast<std::int64_t>(*dim));
            if (*dim != 0 && count > kHuge / *dim)
                count = kHuge + 1;
            else
                count *= *dim;
        }
        const auto off = v.find("data_offsets");
        if (off == v.end() || !off->is_array() || off->size() != 2 || !header_uint((*off)[0]) ||
            !header_uint((*off)[1]))
            fail(path, who + ": data_offsets must be [BEGIN, END], two non-negative integers");
        t.begin = *header_uint((*off)[0]);
        t.end = *header_uint((*off)[1]);
        if (t.begin > t.end)
            fail(path, who + ": data_offsets [" + std::to_string(t.begin) + ", " + std::to_string(t.end) +
                           "] begin after their end");
        if (t.end > buffer)
            fail(path, who + ": data_offsets end at " + std::to_string(t.end) +
                           ", past the end of the data (" + std::to_string(buffer) +
                           " bytes follow the header): truncated file or bad offsets");
        const std::uint64_t bytes =
            count > kHuge / static_cast<std::uint64_t>(item) ? kHuge + 1 : count * item;
        if (bytes != t.end - t.begin)
            fail(path, who + ": dtype " + t.dtype + " and shape " + t.shape_text() + " need " +
                           (bytes > kHuge ? std::string("more than 2^62") : std::to_string(bytes)) +
                           " bytes but data_offsets hold " + std::to_string(t.end - t.begin));
        mine.push_back(std::move(t));
    }
    // No two tensors share bytes (safetensors' own validation refuses overlaps too).
    std::vector<const SafetensorsTensor*> by_offset;
    for (const auto& t : mine)
        if (t.end > t.begin)
            by_offset.push_back(&t);
    std::sort(by_offset.begin(), by_offset.end(), [](const auto* a, const auto* b) {
        return a->begin != b->begin ? a->begin < b->begin : a->end < b->end;
    });
    for (std::size_t i = 1; i < by_offset.size(); ++i)
        if (by_offset[i]->begin < by_offset[i - 1]->end)
            fail(path, tensor_label(by_offset[i]->name) + " overlaps " +
                           tensor_label(by_offset[i - 1]->name) + " (data_offsets [" +
                           std::to_string(by_offset[i]->begin) + ", " + std::to_string(by_offset[i]->end) +
                           "] and [" + std::to_string(by_offset[i - 1]->begin) + ", " +
                           std::to_string(by_offset[i - 1]->end) + "])");
    for (auto& t : mine)
        out.push_back(std::move(t));
}

bool ends_with(std::string_view s, std::string_view suffix)
{
    return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// Largest index file read: the weight map of a 400-billion-parameter model is a few MB.
constexpr std::int64_t kMaxIndexBytes = std::int64_t{64} << 20;

void read_index(const std::string& path, SafetensorsCatalog& cat)
{
    json index;
    try {
        index = parse_json_input(read_input_file(path, kMaxIndexBytes));
    } catch (const InputFileError& e) {
        const std::string what = e.what();
        throw SafetensorsError(what.rfind(path + ": ", 0) == 0 ? what : quote_input(path, 200) + ": " + what);
    }
    if (!index.is_object() || !index.contains("weight_map") || !index.at("weight_map").is_object())
        fail(path, "a sharded checkpoint index must be a JSON object with a \"weight_map\" object");
    const std::string folder = path.find('/') == std::string::npos ? "" : path.substr(0, path.rfind('/') + 1);
    std::set<std::string> shards;
    const json& map = index.at("weight_map");
    for (auto it = map.begin(); it != map.end(); ++it) {
        if (!it.value().is_string())
            fail(path, "weight_map: " + tensor_label(it.key()) + " must map to a shard file name (got " +
                           json_type_phrase(it.value()) + ")");
        const std::string shard = it.value().get<std::string>();
        // A shard is a file beside the index: no folders, no way out of the index's folder.
        if (shard.empty() || shard.find('/') != std::string::npos || shard.find('\\') != std::string::npos ||
            shard == "." || shard == ".." || shard.find('\0') != std::string::npos)
            fail(path, "weight_map: " + tensor_label(it.key()) + " names the shard '" + quote_input(shard) +
                           "'; a shard must be a plain file name in the index's folder");
        shards.insert(shard);
    }
    if (shards.empty())
        fail(path, "the weight_map is empty");
    bool first = true;
    for (const std::string& shard : shards) {
        try {
            read_one(folder + shard, cat.tensors, first ? &cat.metadata : nullptr);
        } catch (const SafetensorsError& e) {
            fail(path, std::string("shard ") + e.what()); // names the index and the shard
        }
        first = false;
    }
    // Every tensor the map names is in the shard it names.
    std::map<std::string, const SafetensorsTensor*> by_name;
    for (const auto& t : cat.tensors) {
        // The same name in two shards would make the map ambiguous.
        const auto [at, fresh] = by_name.emplace(t.name, &t);
        if (!fresh)
            fail(path, tensor_label(t.name) + " is in two shards ('" + quote_input(at->second->file, 200) +
                           "' and '" + quote_input(t.file, 200) + "')");
    }
    for (auto it = map.begin(); it != map.end(); ++it) {
        const auto found = by_name.find(it.key());
        const std::string shard = folder + it.value().get<std::string>();
        if (found == by_name.end() || found->second->file != shard)
            fail(path, "weight_map: " + tensor_label(it.key()) + " is not in its shard '" +
                           quote_input(it.value().get<std::string>()) + "'");
    }
}

} // namespace

std::int64_t SafetensorsTensor::elements() const
{
    std::int64_t n = 1;
    for (auto d : shape)
        n *= d; // validated by read_safetensors: the product fits (its bytes are in the file)
    return n;
}

std::string SafetensorsTensor::shape_text() const
{
    if (shape.empty())
        return "scalar";
    std::string s;
    for (std::size_t i = 0; i < shape.size(); ++i)
        s.append(i ? "x" : "").append(std::to_string(shape[i])); // append(): GCC 12 -Wrestrict false positive
    return s;
}

std::optional<std::pair<std::int64_t, std::int64_t>> SafetensorsTensor::matrix_shape() const
{
    std::size_t first = 0;
    while (shape.size() - first > 2 && shape[first] == 1)
        ++first;
    if (shape.size() - first != 2)
        return std::nullopt;
    return std::pair{shape[first], shape[first + 1]};
}

const SafetensorsTensor* SafetensorsCatalog::find(std::string_view name) const
{
    for (const auto& t : tensors)
        if (t.name == name)
            return &t;
    return nullptr;
}

std::string SafetensorsCatalog::listing(std::size_t max) const
{
    std::string s;
    std::size_t shown = 0;
    for (const auto& t : tensors) {
        if (shown == max) {
            s += ", ... and " + std::to_string(tensors.size() - max) + " more";
            break;
        }
        s.append(shown ? ", " : "")
            .append(quote_input(t.name, 120))
            .append(" (")
            .append(t.dtype)
            .append(", ")
            .append(t.shape_text())
            .append(")");
        ++shown;
    }
    return s.empty() ? "no tensors" : s;
}

int safetensors_dtype_size(std::string_view dtype)
{
    // huggingface/safetensors safetensors/src/tensor.rs, enum Dtype and Dtype::size().
    static const std::pair<std::string_view, int> kSizes[] = {
        {"BOOL", 1}, {"U8", 1},  {"I8", 1},  {"F8_E5M2", 1}, {"F8_E4M3", 1},
        {"I16", 2},  {"U16", 2}, {"F16", 2}, {"BF16", 2},    {"I32", 4},
        {"U32", 4},  {"F32", 4}, {"F64", 8}, {"I64", 8},     {"U64", 8},
    };
    for (const auto& [name, size] : kSizes)
        if (name == dtype)
            return size;
    return 0;
}

SafetensorsCatalog read_safetensors(const std::string& path)
{
    SafetensorsCatalog cat;
    cat.path = path;
    if (ends_with(path, ".json"))
        read_index(path, cat);
    else
        read_one(path, cat.tensors, &cat.metadata);
    std::sort(cat.tensors.begin(), cat.tensors.end(),
              [](const auto& a, const auto& b) { return a.name < b.name; });
    return cat;
}

float half_to_float(std::uint16_t h)
{
    // IEEE 754-2008 binary16: 1 sign bit, 5 exponent bits (bias 15), 10 fraction bits.
    const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
    const std::uint32_t exp = (h >> 10) & 0x1Fu;
    std::uint32_t mant = h & 0x3FFu;
    std::uint32_t bits = 0;
    if (exp == 0) {
        if (mant == 0) {
            bits = sign; // +-0
        } else {
            // Subnormal: mant * 2^-24. Shift the leading 1 up to the implicit bit; each shift lowers the
            // exponent by one. 0x0001 -> 2^-24 (float exponent field 103).
            int shift = 0;
            while ((mant & 0x400u) == 0) {
                mant <<= 1;
                ++shift;
            }
            mant &= 0x3FFu;
            bits = sign | (static_cast<std::uint32_t>(127 - 15 + 1 - shift) << 23) | (mant << 13);
        }
    } else if (exp == 0x1F) {
        bits = sign | 0x7F800000u | (mant << 13); // infinity, or NaN with its payload
    } else {
        bits = sign | ((exp + (127 - 15)) << 23) | (mant << 13);
    }
    float f = 0.0f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
}

float bfloat16_to_float(std::uint16_t h)
{
    const std::uint32_t bits = static_cast<std::uint32_t>(h) << 16;
    float f = 0.0f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
}

std::vector<double> read_safetensors_values(const SafetensorsTensor& t, std::int64_t max_elements)
{
    const std::string who = tensor_label(t.name);
    const int item = safetensors_dtype_size(t.dtype);
    if (t.dtype != "F32" && t.dtype != "F16" && t.dtype != "BF16" && t.dtype != "F64")
        fail(t.file,
             who + " has dtype " + t.dtype + "; only floating-point tables are read (F32, F16, BF16, F64)");
    const std::int64_t n = t.elements();
    if (n > max_elements)
        fail(t.file, who + " has " + std::to_string(n) + " values, more than the limit of " +
                         std::to_string(max_elements));
    std::unique_ptr<RangeFile> file;
    std::string bytes;
    try {
        file = std::make_unique<RangeFile>(t.file);
        // The header was validated against this file's size; a file that shrank since is caught by read().
        bytes =
            file->read(t.data_start + t.begin, static_cast<std::size_t>(n) * static_cast<std::size_t>(item));
    } catch (const SafetensorsError&) {
        throw;
    } catch (const InputFileError& e) {
        throw SafetensorsError(std::string(e.what()) + " (reading " + who + ")");
    }
    std::vector<double> values(static_cast<std::size_t>(n));
    const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
    for (std::int64_t i = 0; i < n; ++i, p += item) {
        if (item == 2) {
            const auto bits = static_cast<std::uint16_t>(p[0] | (p[1] << 8));
            values[static_cast<std::size_t>(i)] =
                t.dtype == "F16" ? half_to_float(bits) : bfloat16_to_float(bits);
        } else if (item == 4) {
            const std::uint32_t bits =
                static_cast<std::uint32_t>(p[0]) | static_cast<std::uint32_t>(p[1]) << 8 |
                static_cast<std::uint32_t>(p[2]) << 16 | static_cast<std::uint32_t>(p[3]) << 24;
            float f = 0.0f;
            std::memcpy(&f, &bits, 4);
            values[static_cast<std::size_t>(i)] = f;
        } else {
            const std::uint64_t bits = le64(p);
            double d = 0.0;
            std::memcpy(&d, &bits, 8);
            values[static_cast<std::size_t>(i)] = d;
        }
    }
    return values;
}

const std::vector<KnownPositionTensor>& known_position_tensors()
{
    // Learned absolute tables first: without --tensor the first one present is used.
    static const std::vector<KnownPositionTensor> kKnown = {
        {"wpe.weight", "GPT-2", "learned", 0, "HF GPT2Model.wpe = nn.Embedding(n_positions, n_embd)"},
        {"transformer.wpe.weight", "GPT-2", "learned", 0,
         "HF GPT2Model.wpe = nn.Embedding(n_positions, n_embd)"},
        {"embeddings.position_embeddings.weight", "BERT", "learned", 0,
         "HF BertEmbeddings.position_embeddings = nn.Embedding(max_position_embeddings, hidden_size)"},
        {"bert.embeddings.position_embeddings.weight", "BERT", "learned", 0,
         "HF BertEmbeddings.position_embeddings = nn.Embedding(max_position_embeddings, hidden_size)"},
        // HF models/opt/modeling_opt.py OPTLearnedPositionalEmbedding: "OPT is set up so that if padding_idx
        // is specified then offset the embedding ids by 2": num_embeddings + 2 rows, position p reads row p
        // + 2.
        {"decoder.embed_positions.weight", "OPT", "learned", 2,
         "HF OPTLearnedPositionalEmbedding (offset 2: position p is row p + 2)"},
        {"model.decoder.embed_positions.weight", "OPT", "learned", 2,
         "HF OPTLearnedPositionalEmbedding (offset 2: position p is row p + 2)"},
        {"encoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight", "T5", "t5", 0,
         "HF T5Attention.relative_attention_bias = nn.Embedding(relative_attention_num_buckets, n_heads): "
         "buckets x heads"},
        // The decoder's own table (T5Stack: only block 0 has_relative_attention_bias): causal buckets.
        {"decoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight", "T5", "t5", 0,
         "HF T5Attention.relative_attention_bias of the decoder (causal buckets): buckets x heads"},
        {"deberta.encoder.rel_embeddings.weight", "DeBERTa", "deberta", 0,
         "HF DebertaV2Encoder.rel_embeddings = nn.Embedding(2 * position_buckets (or 2 * "
         "max_relative_positions), "
         "hidden_size)"},
        // ViT's table is a parameter of shape [1, 1 + H·W, D] (a batch of one), its row 0 the CLS token's:
        // methods/vit/vit.h reads patch p from row p + 1.
        {"embeddings.position_embeddings", "ViT", "vit", 0,
         "HF ViTEmbeddings.position_embeddings = nn.Parameter(1, num_patches + 1, hidden_size): CLS, then "
         "the patches row by row"},
        {"vit.embeddings.position_embeddings", "ViT", "vit", 0,
         "HF ViTEmbeddings.position_embeddings of ViTForImageClassification (and DeiT without distillation)"},
        {"beit.embeddings.position_embeddings", "BEiT", "vit", 0,
         "HF BeitEmbeddings.position_embeddings (use_absolute_position_embeddings): [1, num_patches + 1, "
         "hidden_size]"},
        {"vision_model.embeddings.position_embedding.weight", "CLIP", "vit", 0,
         "HF CLIPVisionEmbeddings.position_embedding = nn.Embedding(num_patches + 1, embed_dim): CLS, then "
         "the "
         "patches row by row"},
    };
    return kKnown;
}

const KnownPositionTensor* known_position_tensor(std::string_view name)
{
    for (const auto& k : known_position_tensors())
        if (k.name == name)
            return &k;
    return nullptr;
}

const SafetensorsTensor* find_known_tensor(const SafetensorsCatalog& catalog, std::string_view method)
{
    for (const KnownPositionTensor& k : known_position_tensors())
        if (k.method == method)
            if (const SafetensorsTensor* t = catalog.find(k.name))
                return t;
    return nullptr;
}

} // namespace posatlas
