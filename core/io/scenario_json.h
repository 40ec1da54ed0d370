// SPDX-License-Identifier: GPL-3.0-or-later
// Scenario <-> JSON, for session files (.posatlas.json), saved settings and the command line's
// --session. Every field is written; reading accepts any subset (missing fields keep `base`), checks
// each value's JSON type and names the dotted key of a wrong one. An older key is read as what replaced
// it: NoPE's own "nope": {"causal": b} sets the scenario's "causal" unless that is given too.
#pragma once

#include "io/input_file.h"
#include "io/unknown_keys.h"
#include "scenario/params.h"

#include <nlohmann/json_fwd.hpp>

#include <stdexcept>

namespace posatlas {

class ScenarioJsonError : public InputFileError
{
public:
    using InputFileError::InputFileError;
};

// A session file (.posatlas.json, the app's File > Save Session): {"format": kSessionFormat, "version":
// kSessionVersion, "scenario": scenario_to_json(), "views": ..., "figure": ...}. Written by the app
// (ui/model/session.h) and by the lab's probes (lab.h, write_probe).
inline constexpr const char* kSessionFormat = "posatlas-session";
inline constexpr int kSessionVersion = 1;

nlohmann::json scenario_to_json(const Scenario& s);
// Throws ScenarioJsonError naming the key ("rope.rope_theta: expected a number, got string") for
// wrong types or unknown enum ids. Does not validate ranges: call validate() on the result.
// Keys it does not know (at any level) are ignored; when `unknown` is given, each is appended to it
// (named from the scenario's top, "rope.rope_thta") with the nearest valid key at its level.
Scenario scenario_from_json(const nlohmann::json& j, const Scenario& base = {},
                            std::vector<UnknownKey>* unknown = nullptr);

} // namespace posatlas

namespace posatlas {

// The dotted key, inside a scenario's JSON, of the value a ParameterError about `parameter` (its HF key,
// as validate() names it) refers to, for the scenario's current method: "rope.head_dim", "seq_len",
// "learned.trained_length", "t5.num_buckets". Used to name the key of a session file in messages.
std::string scenario_json_key(const Scenario& s, const std::string& parameter);

} // namespace posatlas
