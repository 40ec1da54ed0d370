// SPDX-License-Identifier: GPL-3.0-or-later
#include "methods/table_files.h"

#include "io/input_file.h"
#include "io/safetensors.h"
#include "scenario/content_file.h"

#include <algorithm>

namespace posatlas {

std::string table_shape_text(const TableShape& shape)
{
    const auto n = [](std::int64_t v) { return v < 0 ? std::string("any") : std::to_string(v); };
    std::string text = shape.vector ? "a vector of " + n(shape.cols) + " values (1 x " + n(shape.cols) +
                                          " or " + n(shape.cols) + " x 1)"
                                    : "a " + n(shape.rows) + " x " + n(shape.cols) + " table";
    if (shape.meaning && *shape.meaning)
        text += std::string(" (") + shape.meaning + ")";
    return text;
}

Eigen::MatrixXd table_from_file(const std::string& path, const std::string& tensor, const std::string& key,
                                const TableShape& shape)
{
    std::string option = key;
    std::replace(option.begin(), option.end(), '_', '-');
    if (path.empty()) {
        if (!tensor.empty()) // a tensor name alone would be silently ignored
            throw ParameterError(key + "_tensor", "empty unless " + key + " names a .safetensors checkpoint",
                                 "'" + quote_input(tensor) + "'");
        return {};
    }
    ContentFile f;
    f.path = path;
    f.tensor = tensor;
    std::shared_ptr<const ContentMatrix> m;
    try {
        if (f.tensor.empty() && shape.known &&
            (ends_with_ci(path, ".safetensors") || ends_with_ci(path, ".json"))) {
            // The architecture's known tensor (DeBERTa's rel_embeddings), as for learned tables.
            const SafetensorsCatalog catalog = read_safetensors(path);
            if (const SafetensorsTensor* t = find_known_tensor(catalog, shape.known))
                f.tensor = t->name;
        }
        m = load_table_file(f, option.c_str());
    } catch (const InputFileError& e) {
        throw ParameterError(key, table_shape_text(shape) + " in a .npy, .csv or .safetensors file",
                             e.what());
    }
    std::int64_t rows = m->rows(), cols = m->dim();
    const bool transposed = shape.vector && cols == 1 && rows != 1;
    if (transposed)
        std::swap(rows, cols);
    if ((shape.rows >= 0 && rows != shape.rows) || (shape.cols >= 0 && cols != shape.cols))
        throw ParameterError(key, table_shape_text(shape),
                             std::to_string(m->rows()) + " x " + std::to_string(m->dim()) + " from " +
                                 quote_input(m->source, 200));
    if (transposed)
        return m->values.transpose();
    return m->values;
}

Eigen::MatrixXd method_table(const MethodDescriptor& d, const Scenario& s, const std::string& key)
{
    const Field* file = d.field(key);
    const Field* name = d.field(key + "_tensor");
    if (!file || !file->table_shape || !name)
        throw std::logic_error("method_table: " + std::string(d.method.id()) + " has no table field " + key);
    return table_from_file(file->get(s).get<std::string>(), name->get(s).get<std::string>(), key,
                           file->table_shape(s));
}

void show_seed_while_a_table_is_seeded(std::vector<Field>& fields)
{
    std::vector<std::function<nlohmann::json(const Scenario&)>> paths;
    for (const Field& f : fields)
        if (f.table_shape)
            paths.push_back(f.get);
    for (Field& f : fields)
        if (f.key == "seed" || f.key == "initializer_range")
            f.shown = [paths](const Scenario& s) {
                return std::any_of(paths.begin(), paths.end(), [&](const auto& path) {
                    return path(s).template get<std::string>().empty();
                });
            };
}

void check_method_tables(const MethodDescriptor& d, const Scenario& s)
{
    for (const Field& f : d.fields)
        if (f.table_shape)
            method_table(d, s, f.key);
}

} // namespace posatlas
