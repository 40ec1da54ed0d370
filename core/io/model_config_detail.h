// SPDX-License-Identifier: GPL-3.0-or-later
// Private to the model_config*.cpp files: the typed, key-recording JSON reader and the per-method readers
// shared between model_config.cpp (method detection, key bookkeeping), model_config_rope.cpp (RoPE) and
// model_config_other.cpp (ALiBi, T5, DeBERTa, learned, sinusoidal). Not part of the public API.
#pragma once

#include "io/model_config.h"
#include "io/number_text.h" // format_number: the numbers of messages

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace posatlas::detail {

using json = nlohmann::json;

// Short text of a JSON value for messages ("\"abc\"", "[1,2,...]").
std::string show(const json& v);
void add_unique(std::vector<std::string>& list, const std::string& s);
// True when `cfg` has `key` with a non-null value.
bool present(const json& cfg, std::string_view key);

// Typed access to the config that records every key it looks at and turns every wrong JSON type into a
// ConfigError naming the dotted key. A JSON null counts as absent, as None does in the HF config classes.
class Reader
{
public:
    explicit Reader(ConfigImport& out) : m_out(out) {}

    // While false (reading a built-in default dict), keys are not recorded as read from the file.
    void set_recording(bool on) { m_recording = on; }

    const json* find(const json& obj, std::string_view key, const std::string& dotted)
    {
        if (!obj.is_object())
            return nullptr;
        const auto it = obj.find(std::string(key));
        if (it == obj.end())
            return nullptr;
        mark(dotted);
        if (it->is_null())
            return nullptr;
        return &*it;
    }

    std::optional<double> number(const json& obj, std::string_view key, const std::string& dotted)
    {
        const json* v = find(obj, key, dotted);
        if (!v)
            return std::nullopt;
        if (!v->is_number())
            throw ConfigError(dotted + " must be a number (got " + show(*v) + ")");
        const double d = v->get<double>();
        if (!std::isfinite(d))
            throw ConfigError(dotted + " must be a finite number (got " + show(*v) + ")");
        return d;
    }

    std::optional<std::int64_t> integer(const json& obj, std::string_view key, const std::string& dotted)
    {
        const json* v = find(obj, key, dotted);
        if (!v)
            return std::nullopt;
        if (v->is_number_integer()) {
            if (v->is_number_unsigned() && v->get<std::uint64_t>() > std::uint64_t{1} << 62)
                throw ConfigError(dotted + " is too large (got " + show(*v) + ")");
            return v->get<std::int64_t>();
        }
        // Python writes 4096.0 for an int that went through a float; accept integral values.
        if (v->is_number_float()) {
            const double d = v->get<double>();
            if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) <= 4.0e18)
                return static_cast<std::int64_t>(d);
        }
        throw ConfigError(dotted + " must be an integer (got " + show(*v) + ")");
    }

    // An integer that must fit an int (dimensions, head counts).
    std::optional<int> small_int(const json& obj, std::string_view key, const std::string& dotted)
    {
        const auto v = integer(obj, key, dotted);
        if (!v)
            return std::nullopt;
        if (*v < std::numeric_limits<int>::min() || *v > std::numeric_limits<int>::max())
            throw ConfigError(dotted + " is out of range (got " + std::to_string(*v) + ")");
        return static_cast<int>(*v);
    }

    std::optional<bool> boolean(const json& obj, std::string_view key, const std::string& dotted)
    {
        const json* v = find(obj, key, dotted);
        if (!v)
            return std::nullopt;
        if (!v->is_boolean())
            throw ConfigError(dotted + " must be true or false (got " + show(*v) + ")");
        return v->get<bool>();
    }

    std::optional<std::string> string(const json& obj, std::string_view key, const std::string& dotted)
    {
        const json* v = find(obj, key, dotted);
        if (!v)
            return std::nullopt;
        if (!v->is_string())
            throw ConfigError(dotted + " must be a string (got " + show(*v) + ")");
        return v->get<std::string>();
    }

    std::vector<double> number_list(const json& obj, std::string_view key, const std::string& dotted)
    {
        const json* v = find(obj, key, dotted);
        if (!v)
            return {};
        if (!v->is_array())
            throw ConfigError(dotted + " must be a list of numbers (got " + show(*v) + ")");
        std::vector<double> out;
        out.reserve(v->size());
        for (std::size_t i = 0; i < v->size(); ++i) {
            const json& e = (*v)[i];
            if (!e.is_number() || !std::isfinite(e.get<double>()))
                throw ConfigError(dotted + "[" + std::to_string(i) + "] must be a number (got " + show(e) +
                                  ")");
            out.push_back(e.get<double>());
        }
        return out;
    }

    // First of `keys` present in `obj` (aliases such as hidden_size / n_embd); records only that one.
    std::optional<int> small_int_alias(const json& obj, std::initializer_list<std::string_view> keys,
                                       std::string* used)
    {
        for (std::string_view k : keys) {
            if (obj.contains(std::string(k)) && !obj.at(std::string(k)).is_null()) {
                if (used)
                    *used = std::string(k);
                return small_int(obj, k, std::string(k));
            }
        }
        return std::nullopt;
    }

    void note(std::string s) { m_out.notes.push_back(std::move(s)); }
    // A key that is present but not used: moves it from read_keys (if a reader looked at it) to ignored_keys.
    void ignore(const std::string& dotted)
    {
        m_out.read_keys.erase(std::remove(m_out.read_keys.begin(), m_out.read_keys.end(), dotted),
                              m_out.read_keys.end());
        add_unique(m_out.ignored_keys, dotted);
        m_seen_top.insert(dotted.substr(0, dotted.find('.')));
    }
    bool seen_top(const std::string& key) const { return m_seen_top.count(key) > 0; }
    void mark_top(const std::string& key) { m_seen_top.insert(key); }

private:
    void mark(const std::string& dotted)
    {
        if (!m_recording)
            return;
        add_unique(m_out.read_keys, dotted);
        m_seen_top.insert(dotted.substr(0, dotted.find('.')));
    }

    ConfigImport& m_out;
    bool m_recording = true;
    std::set<std::string> m_seen_top;
};

// ---------------------------------------------------------------- RoPE (model_config_rope.cpp)
// Defaults of the HF configuration class of one RoPE model type.
struct RopeFamily;

// The family of a RoPE model type, or nullptr when `model_type` is not a known RoPE family.
const RopeFamily* find_rope_family(std::string_view model_type);
// Unknown model types that carry RoPE keys are read with LlamaConfig's defaults.
const RopeFamily& generic_rope_family();
// Reads dims, base, rotary fraction, max positions, rope_scaling / rope_parameters and pairing into `rope`.
void read_rope(Reader& r, const json& cfg, const RopeFamily& fam, RopeParams& rope);
// Multimodal RoPE (model_config_mrope.cpp): after read_rope, when the config has mrope_section (rope_scaling,
// rope_parameters or top level), switches s to M-RoPE with the text model's head_dim and rope_theta, the
// sections, the variant and vision_config's merge size and tokens per second. False: no sections, s
// unchanged.
bool read_mrope(Reader& r, const json& cfg, Scenario& s, std::string_view model_type);
// DeepSeek-V2/V3 (model_config_mla.cpp): after read_rope, fills s's MLA parameters (methods/mla/mla.h) from
// the rotary part read and the config's qk_nope_head_dim and rope_interleave; s's method stays RoPE.
void read_mla(Reader& r, const json& cfg, Scenario& s);

// ---------------------------------------------------------------- other methods (model_config_other.cpp)
void read_alibi_heads(Reader& r, const json& cfg, Scenario& s, std::initializer_list<std::string_view> keys,
                      int fallback, std::string_view cls);
void read_bloom(Reader& r, const json& cfg, Scenario& s);
void read_falcon_alibi(Reader& r, const json& cfg, Scenario& s);
void read_mpt(Reader& r, const json& cfg, Scenario& s);
void read_t5(Reader& r, const json& cfg, Scenario& s, std::string_view model_type);
void read_learned(Reader& r, const json& cfg, Scenario& s, std::string_view model_type);
void read_deberta(Reader& r, const json& cfg, Scenario& s, std::string_view model_type);
void read_sinusoidal(Reader& r, const json& cfg, Scenario& s);

// ---------------------------------------------------------------- layers (model_config_layers.cpp)
// The per-layer anatomy into out.layers (after read_rope: the global layers' RoPE is the scenario's).
void read_layers(Reader& r, const json& cfg, ConfigImport& out);

} // namespace posatlas::detail
