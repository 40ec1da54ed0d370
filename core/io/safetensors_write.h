// SPDX-License-Identifier: GPL-3.0-or-later
// Writes a .safetensors file (huggingface/safetensors README, "Format"; the reader is io/safetensors.h):
// 8 bytes N (little-endian u64), N bytes of JSON header {"NAME": {"dtype": "F32", "shape": [...],
// "data_offsets": [BEGIN, END]}, "__metadata__": {...}}, padded with spaces to a multiple of 8 as the
// reference writer does, then the tensors' bytes in name order. Through SafeFileWriter: the file appears
// whole or not at all (a full disk throws OutputFileError and leaves an existing file as it was).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace posatlas {

struct SafetensorsF32 {
    std::string name;
    std::vector<std::int64_t> shape; // product = values.size()
    std::vector<float> values;       // row-major
};

// Throws std::invalid_argument for an empty or repeated name or a shape that does not match the values,
// OutputFileError when the file cannot be written.
void write_safetensors(const std::string& path, const std::vector<SafetensorsF32>& tensors,
                       const std::map<std::string, std::string>& metadata = {});

// The values of a F32 tensor of a catalog as floats, bit for bit (read_safetensors_values widens to
// double, which is exact for F32; this keeps them as stored). SafetensorsError for another dtype or more
// than max_elements values.
struct SafetensorsTensor;
std::vector<float> read_safetensors_f32(const SafetensorsTensor& t, std::int64_t max_elements);

} // namespace posatlas
