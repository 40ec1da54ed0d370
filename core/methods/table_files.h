// SPDX-License-Identifier: GPL-3.0-or-later
// A method's own learned tables from files: Shaw's a^K and a^V, Transformer-XL's W_{k,R}
// (r_net), u (r_w_bias) and v (r_r_bias), DeBERTa's relative embeddings and their projections, CoPE's
// position embeddings. Each table is a pair of Text fields, the file and (for a .safetensors file) its
// tensor; given, the file's matrix replaces the seeded stand-in exactly as stored (F16 and BF16 widened
// exactly), so that every number the views show comes from inputs the user controls; absent, the stand-in
// is drawn from the method's seed as before.
//
// Files are read by the readers of the queries and keys files (scenario/content_file.h): .npy (<f2, <f4,
// <f8), .csv, or a 2-D tensor of a .safetensors file or sharded index; the same caps before any data is
// read, NaN and infinity refused. The tables have a cache of their own (load_table_file), keyed by path,
// tensor, modification time and size.
//
// A table must have the shape its Field::table_shape gives for the scenario; anything else is refused by
// the method's check with a ParameterError naming the field, the shape needed and the shape found.
#pragma once

#include "methods/field_binding.h"

#include <Eigen/Dense>

#include <cstdint>
#include <string>
#include <utility>

namespace posatlas {

// The table a field pair names, or an empty matrix when `path` is empty. A vector shape (1 x n) also
// accepts an n x 1 file, returned as 1 x n. Throws ParameterError(key, "a R x C table (meaning)", got)
// for a file that cannot be read (got: the reader's message) or has another shape (got: "A x B from FILE").
// The reader's messages name the field's command-line option, `key` with '-' for '_' (--key-table).
Eigen::MatrixXd table_from_file(const std::string& path, const std::string& tensor, const std::string& key,
                                const TableShape& shape);

// table_from_file for the table field `key` of descriptor d (its tensor field is key + "_tensor"), with
// the shape the field gives for s. Empty when the field's path is empty.
Eigen::MatrixXd method_table(const MethodDescriptor& d, const Scenario& s, const std::string& key);

// Checks every table field of d that names a file (method_table, result dropped; the cache keeps it for
// the kernels): for descriptors' check().
void check_method_tables(const MethodDescriptor& d, const Scenario& s);

// "a 33 x 64 table ((2 max_relative_position + 1) x head_dim)"
std::string table_shape_text(const TableShape& shape);

// The two fields of one table: `key` (the file; session key `key`, option `key` with '-' for '_') and
// key + "_tensor" (the tensor of a .safetensors file). Neither has a panel row: the window sets
// them from File > Open Weights… (its "Use as" list names every table field).
template <typename P>
std::pair<Field, Field>
table_fields(const std::string& key, std::string P::*path, std::string P::*tensor, const char* label,
             const char* tooltip, std::function<TableShape(const Scenario&)> shape,
             std::function<void(Scenario&, std::int64_t, std::int64_t)> adopt = nullptr)
{
    Field file = make_field(key, FieldType::Text, path, {.label = label, .tooltip = tooltip, .panel = false});
    file.table_shape = std::move(shape);
    file.table_adopt = std::move(adopt);
    file.tensor_key = key + "_tensor";
    Field name =
        make_field(key + "_tensor", FieldType::Text, tensor,
                   {.label = QT_TRANSLATE_NOOP("ParamSpec", "Checkpoint tensor"),
                    .tooltip = QT_TRANSLATE_NOOP(
                        "ParamSpec", "The tensor of a .safetensors checkpoint holding the table above."),
                    .panel = false,
                    .path = false});
    return {std::move(file), std::move(name)};
}

// Appends both fields of table_fields(...) to `fields`.
inline void add_table_fields(std::vector<Field>& fields, std::pair<Field, Field> pair)
{
    fields.push_back(std::move(pair.first));
    fields.push_back(std::move(pair.second));
}

// The stand-in's "seed" and "initializer_range" fields of `fields` get a panel row only while at least
// one of the table fields in `fields` is seeded (its file empty): with every table from a file they move
// nothing.
void show_seed_while_a_table_is_seeded(std::vector<Field>& fields);

} // namespace posatlas
