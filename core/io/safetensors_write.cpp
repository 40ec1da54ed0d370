// SPDX-License-Identifier: GPL-3.0-or-later
#include "io/safetensors_write.h"

#include "io/safe_write.h"
#include "io/safetensors.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <bit>
#include <cstring>
#include <set>
#include <stdexcept>

namespace posatlas {

void write_safetensors(const std::string& path, const std::vector<SafetensorsF32>& tensors,
                       const std::map<std::string, std::string>& metadata)
{
    static_assert(std::endian::native == std::endian::little, "safetensors is little-endian");
    nlohmann::json header = nlohmann::json::object();
    std::set<std::string> names;
    std::uint64_t offset = 0;
    std::vector<const SafetensorsF32*> order;
    for (const SafetensorsF32& t : tensors)
        order.push_back(&t);
    std::sort(order.begin(), order.end(), [](auto* a, auto* b) { return a->name < b->name; });
    for (const SafetensorsF32* t : order) {
        if (t->name.empty() || t->name == "__metadata__" || !names.insert(t->name).second)
            throw std::invalid_argument("safetensors: empty, reserved or repeated tensor name '" + t->name +
                                        "'");
        std::int64_t n = 1;
        for (std::int64_t s : t->shape) {
            if (s < 0)
                throw std::invalid_argument("safetensors: negative dimension in " + t->name);
            n *= s;
        }
        if (n != static_cast<std::int64_t>(t->values.size()))
            throw std::invalid_argument("safetensors: shape of " + t->name + " does not match its values");
        const std::uint64_t bytes = t->values.size() * sizeof(float);
        header[t->name] = {{"dtype", "F32"}, {"shape", t->shape}, {"data_offsets", {offset, offset + bytes}}};
        offset += bytes;
    }
    if (!metadata.empty())
        header["__metadata__"] = metadata;
    std::string text = header.dump();
    text.append((8 - text.size() % 8) % 8, ' ');
    const std::uint64_t n = text.size();
    unsigned char len[8];
    for (int i = 0; i < 8; ++i)
        len[i] = static_cast<unsigned char>(n >> (8 * i));
    SafeFileWriter w(path);
    w.write(len, 8);
    w.write(text);
    for (const SafetensorsF32* t : order)
        w.write(t->values.data(), t->values.size() * sizeof(float));
    w.commit();
}

std::vector<float> read_safetensors_f32(const SafetensorsTensor& t, std::int64_t max_elements)
{
    if (t.dtype != "F32")
        throw SafetensorsError(t.file + ": tensor " + t.name + " is " + t.dtype + ", expected F32");
    const std::vector<double> v = read_safetensors_values(t, max_elements);
    return {v.begin(), v.end()}; // F32 -> double -> float is exact
}

} // namespace posatlas
