// SPDX-License-Identifier: GPL-3.0-or-later
#include "fuzz_entries.h"

#include "io/input_file.h"
#include "io/model_config.h"
#include "methods/learned/learned.h"
#include "scenario/validation.h"

#include <nlohmann/json.hpp>

namespace posatlas::fuzz {

std::string model_config(std::string_view bytes)
{
    try {
        const ConfigImport imp = import_model_config(parse_json_input(bytes));
        validate(imp.scenario);
    } catch (const InputFileError& e) {
        return e.what();
    } catch (const ParameterError& e) {
        return e.what();
    }
    return {};
}

std::string learned_csv(std::string_view bytes)
{
    try {
        LearnedTable::parse(bytes, "fuzz.csv");
    } catch (const InputFileError& e) {
        return e.what();
    }
    return {};
}

std::string learned_npy(std::string_view bytes)
{
    try {
        LearnedTable::parse(bytes, "fuzz.npy");
    } catch (const InputFileError& e) {
        return e.what();
    }
    return {};
}

} // namespace posatlas::fuzz
