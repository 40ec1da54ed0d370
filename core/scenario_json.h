// Scenario <-> JSON, for session files (.posatlas.json), saved settings and the command line's
// --session. Every field is written; reading accepts any subset (missing fields keep `base`), checks
// each value's JSON type and names the dotted key of a wrong one.
#pragma once

#include "params.h"

#include <nlohmann/json_fwd.hpp>

#include <stdexcept>

namespace posatlas {

class ScenarioJsonError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

nlohmann::json scenario_to_json(const Scenario& s);
// Throws ScenarioJsonError naming the key ("rope.rope_theta: expected a number, got string") for
// wrong types or unknown enum ids. Does not validate ranges: call validate() on the result.
Scenario scenario_from_json(const nlohmann::json& j, const Scenario& base = {});

} // namespace posatlas
