// SPDX-License-Identifier: GPL-3.0-or-later
// A checkpoint's tensors as a method's tables, written once for the command line (--model's cached
// checkpoint, --weights) and the GUI (File > Open Model…, File > Open Weights…). Which tensor a method
// accepts and what it changes is declared by its table fields (registry.h: table_shape, table_adopt,
// adopt_tensor, adopt_checkpoint); this file only applies those rules.
#pragma once

#include "io/input_file.h"
#include "methods/registry.h"
#include "scenario/params.h"

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace posatlas {

// A tensor the checkpoint cannot give the table: not in the file, not a matrix of floats, not a table
// the target names, or a shape the method cannot take (the message names the tensor and the shape needed).
class AdoptionError : public InputFileError
{
public:
    using InputFileError::InputFileError;
};

// A table field of a method: "learned/table_path", "shaw/key_table", "deberta/rel_embeddings".
struct TableTarget {
    Method method;
    std::string field; // the key of the table field (the file)
    bool operator==(const TableTarget&) const = default;
};
std::string table_target_id(const TableTarget& t);
// nullopt unless `id` names a table field (table_targets()).
std::optional<TableTarget> parse_table_target(std::string_view id);
// Every field a tensor can fill (a table field: table_shape or adopt_tensor), in registry order.
std::vector<TableTarget> table_targets();
const Field& table_field(const TableTarget& t); // throws AdoptionError for no table field
// Where a tensor goes unless the user says otherwise: a known position tensor (io/safetensors.h) to the
// first table field of its method (T5's relative_attention_bias to T5's bias table, DeBERTa's
// rel_embeddings to its relative embeddings); any other tensor is read as a learned position table.
TableTarget default_table_target(std::string_view tensor);

// Points s's table field f at `tensor` of `file` by the field's adoption rule (Field::adopt_tensor, else a
// table pair's: the file, its tensor field, then table_adopt with rows x cols when both are known, >= 0).
// Leaves s's method as it is and validates nothing; throws what the rule throws.
void adopt_table_file(Scenario& s, const Field& f, const std::string& file, const std::string& tensor,
                      std::int64_t rows = -1, std::int64_t cols = -1);

struct TableAdoption {
    Scenario scenario;            // switched to the target's method, its table set, validated
    const Field* field = nullptr; // the table field filled
};
// File > Open Weights…: tensor `tensor` of the .safetensors checkpoint `file` (or its sharded index) as the
// table `target` of scenario s. Reads the header only, then the field's rule; the result is validated.
// Throws AdoptionError for a missing tensor, a tensor that is no float matrix (2-D after leading dimensions
// of 1), a target that is no table field, or a tensor of a shape the method refuses ("a (8x6) cannot be the
// table value_table of Shaw relative positions: it must be a 5 x 3 table (...)"); what the reader throws
// for a file that cannot be read.
TableAdoption adopt_table(const Scenario& s, const std::string& file, const std::string& tensor,
                          const TableTarget& target);

// A model's whole checkpoint (a cached snapshot's): every table field of s's method with an
// adopt_checkpoint rule, except those `given` says the user set by hand, takes the table the checkpoint
// holds for it. Returns the import report's notes, one per table taken. Throws what the rules throw
// (InputFileError for a checkpoint that cannot be read).
std::vector<std::string> adopt_checkpoint(Scenario& s, const std::string& checkpoint,
                                          const std::function<bool(const Field&)>& given = {});

} // namespace posatlas
