// SPDX-License-Identifier: GPL-3.0-or-later
#include "io/checkpoint_adoption.h"

#include "io/safetensors.h"
#include "methods/table_files.h"
#include "scenario/validation.h"

namespace posatlas {

namespace {

bool adoptable(const Field& f)
{
    return f.table_shape || f.adopt_tensor;
}

const Field* find_table_field(const TableTarget& t)
{
    const Field* f = nullptr;
    for (const MethodDescriptor& d : methods())
        if (d.method == t.method)
            f = d.field(t.field);
    return f && f->key == t.field && adoptable(*f) ? f : nullptr;
}

} // namespace

std::string table_target_id(const TableTarget& t)
{
    return std::string(t.method.id()) + "/" + t.field;
}

std::optional<TableTarget> parse_table_target(std::string_view id)
{
    const std::size_t slash = id.find('/');
    if (slash == std::string_view::npos)
        return std::nullopt;
    const auto method = parse_method(id.substr(0, slash));
    if (!method)
        return std::nullopt;
    TableTarget t{*method, std::string(id.substr(slash + 1))};
    if (!find_table_field(t))
        return std::nullopt;
    return t;
}

std::vector<TableTarget> table_targets()
{
    std::vector<TableTarget> out;
    for (const MethodDescriptor& d : methods())
        for (const Field& f : d.fields)
            if (adoptable(f))
                out.push_back({d.method, f.key});
    return out;
}

const Field& table_field(const TableTarget& t)
{
    if (const Field* f = find_table_field(t))
        return *f;
    throw AdoptionError("no table '" + table_target_id(t) + "'");
}

TableTarget default_table_target(std::string_view tensor)
{
    if (const KnownPositionTensor* known = known_position_tensor(tensor))
        if (const auto method = parse_method(known->method))
            for (const Field& f : descriptor(*method).fields)
                if (adoptable(f))
                    return {*method, f.key};
    for (const Field& f : descriptor(LearnedParams::kMethod).fields)
        if (adoptable(f))
            return {LearnedParams::kMethod, f.key};
    throw AdoptionError("no learned position table field"); // unreachable: the registry has one
}

void adopt_table_file(Scenario& s, const Field& f, const std::string& file, const std::string& tensor,
                      std::int64_t rows, std::int64_t cols)
{
    if (f.adopt_tensor) {
        f.adopt_tensor(s, file, tensor);
        return;
    }
    f.set(s, file);
    if (const Field* name = descriptor(s.method).field(f.tensor_key); name && !f.tensor_key.empty())
        name->set(s, tensor);
    if (f.table_adopt && rows >= 0 && cols >= 0)
        f.table_adopt(s, rows, cols);
}

TableAdoption adopt_table(const Scenario& s, const std::string& file, const std::string& tensor,
                          const TableTarget& target)
{
    const Field& f = table_field(target);
    // Only the header: the tensor must be a float matrix. The table itself is read by validation (a
    // method's table, T5's bias: a few kB to MB) or by the views' jobs (a learned table).
    const SafetensorsCatalog catalog = read_safetensors(file);
    const SafetensorsTensor* t = catalog.find(tensor);
    if (!t)
        throw AdoptionError("no tensor '" + tensor + "'");
    const auto matrix = t->matrix_shape();
    if (!matrix || !(t->dtype == "F32" || t->dtype == "F64" || t->dtype == "F16" || t->dtype == "BF16"))
        throw AdoptionError(t->name + " (" + t->dtype + ", " + t->shape_text() +
                            ") is not a matrix of F32, F64, F16 or BF16 values");
    TableAdoption out{s, &f};
    out.scenario.method = target.method;
    adopt_table_file(out.scenario, f, file, tensor, matrix->first, matrix->second);
    try {
        validate(out.scenario);
    } catch (const ParameterError& e) {
        if (e.parameter() != f.key)
            throw;
        // The table's own shape is refused: say which tensor, what it is and what the method needs.
        throw AdoptionError(t->name + " (" + t->shape_text() + ") cannot be the table " + f.key + " of " +
                            descriptor(target.method).noun + ": it must be " + e.allowed() + " (got " +
                            e.got() + ")");
    }
    return out;
}

std::vector<std::string> adopt_checkpoint(Scenario& s, const std::string& checkpoint,
                                          const std::function<bool(const Field&)>& given)
{
    std::vector<std::string> notes;
    if (checkpoint.empty())
        return notes;
    for (const Field& f : descriptor(s.method).fields)
        if (f.adopt_checkpoint && !(given && given(f)))
            if (std::optional<std::string> note = f.adopt_checkpoint(s, checkpoint))
                notes.push_back(std::move(*note));
    return notes;
}

} // namespace posatlas
