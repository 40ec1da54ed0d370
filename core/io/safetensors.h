// SPDX-License-Identifier: GPL-3.0-or-later
// Trained tensors from Hugging Face .safetensors checkpoints, single files or sharded ones
// (model.safetensors.index.json), read without trusting them and without loading a file whole.
//
// Format (huggingface/safetensors README, "Format"): 8 bytes N, an unsigned little-endian 64-bit integer,
// the size of the header; N bytes of UTF-8 JSON {"TENSOR_NAME": {"dtype": "F16", "shape": [1, 16, 256],
// "data_offsets": [BEGIN, END]}, ..., "__metadata__": {string: string}}; then the byte buffer. Offsets are
// relative to the start of the buffer; END - BEGIN = product(shape) * size of dtype; tensors do not overlap.
// A sharded checkpoint's index is JSON {"metadata": {...}, "weight_map": {"TENSOR_NAME": "shard file"}}
// (transformers modeling_utils.py, SAFE_WEIGHTS_INDEX_NAME), shard names relative to the index's folder.
#pragma once

#include "io/input_file.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace posatlas {

// Every problem with a checkpoint: the message starts with the file's path and names the tensor when
// there is one.
class SafetensorsError : public InputFileError
{
public:
    using InputFileError::InputFileError;
};

// Largest header read (real headers of 100-billion-parameter shards are a few MB).
inline constexpr std::uint64_t kMaxSafetensorsHeaderBytes = std::uint64_t{100} << 20;

struct SafetensorsTensor {
    std::string name;
    std::string dtype;               // as in the file: "F32", "F16", "BF16", "I64", ...
    std::vector<std::int64_t> shape; // [] for a scalar
    std::uint64_t begin = 0;         // data_offsets, relative to the byte buffer
    std::uint64_t end = 0;
    std::string file;             // the .safetensors file that holds it
    std::uint64_t data_start = 0; // where the byte buffer starts in `file` (8 + header length)

    std::int64_t elements() const;
    std::string shape_text() const; // "1024x768", "scalar"
    // Its rows and columns when it is a matrix once its leading dimensions of size 1 are dropped (ViT's
    // position_embeddings parameter, [1, 197, 768], is a batch of one 197 x 768 table); nullopt for any
    // other shape.
    std::optional<std::pair<std::int64_t, std::int64_t>> matrix_shape() const;
};

struct SafetensorsCatalog {
    std::string path;                            // the file or index the user named
    std::vector<SafetensorsTensor> tensors;      // in name order
    std::map<std::string, std::string> metadata; // __metadata__ of the (first) file

    const SafetensorsTensor* find(std::string_view name) const;
    // "name (dtype, shape)" for every tensor, at most `max` of them, then "... and N more".
    std::string listing(std::size_t max = 40) const;
};

// Bytes per element of a safetensors dtype, or 0 when the dtype is not one of the spec's.
int safetensors_dtype_size(std::string_view dtype);

// Reads the header of a .safetensors file, or every shard header of a model.safetensors.index.json (a
// path ending in ".json"). Validates against the file size before any data is read: header length
// within the file and kMaxSafetensorsHeaderBytes, a JSON object, known dtypes, non-negative shapes,
// begin <= end <= buffer size, END - BEGIN = product(shape) * dtype size, no two tensors overlapping. For an
// index: shard names are plain file names in the index's folder, every mapped tensor is in its shard.
SafetensorsCatalog read_safetensors(const std::string& path);

// The values of `t` as doubles, row-major as stored. F32 and F64 are read as they are; F16 and BF16 are
// widened exactly (half_to_float, bfloat16_to_float). Reads only the tensor's own byte range. Refuses
// other dtypes and tensors of more than max_elements values (SafetensorsError naming file and tensor).
std::vector<double> read_safetensors_values(const SafetensorsTensor& t, std::int64_t max_elements);

// IEEE 754 binary16 -> binary32, bit-exact: every half value, subnormals (0x0001 = 2^-24), infinities
// and NaN (payload kept) included. Every half is exactly a float.
float half_to_float(std::uint16_t bits);
// bfloat16 -> binary32: bfloat16 is the upper half of a float, so the widening is bits << 16 (exact).
float bfloat16_to_float(std::uint16_t bits);

// Position tensors whose names PosAtlas knows, and what they are.
struct KnownPositionTensor {
    std::string_view name;
    std::string_view family;    // "GPT-2", "BERT", "OPT", "T5", "DeBERTa"
    std::string_view method;    // method id: "learned", "t5", "deberta"
    int row_offset;             // rows before position 0 (OPT: 2)
    std::string_view reference; // the HF code that reads it
};
const std::vector<KnownPositionTensor>& known_position_tensors();
// The entry for `name`, or nullptr.
const KnownPositionTensor* known_position_tensor(std::string_view name);
// The first tensor of `catalog` that is a known position tensor of `method` ("learned", "t5", ...), in
// known_position_tensors() order, or nullptr.
const SafetensorsTensor* find_known_tensor(const SafetensorsCatalog& catalog, std::string_view method);

} // namespace posatlas
