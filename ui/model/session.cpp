// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/session.h"

#include "methods/registry.h"

#include "export/figure_export.h"
#include "io/number_text.h"
#include "io/scenario_json.h"
#include "scenario/validation.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>

namespace posatlas::ui {
namespace {

using nlohmann::json;

constexpr const char* kFormat = kSessionFormat;

[[noreturn]] void fail(const std::string& message)
{
    throw SessionError(message);
}

json settings_to_json(const ViewSettings& v)
{
    json pairs = json::array();
    for (int p : v.pairs)
        pairs.push_back(p);
    json overlay = json::array();
    for (Method m : v.overlay)
        overlay.push_back(std::string(method_id(m)));
    json compare = json::array();
    for (Method m : v.compare)
        compare.push_back(std::string(method_id(m)));
    return {
        {"matrix_kind", v.matrix_kind ? json(std::string(matrix_kind_id(*v.matrix_kind))) : json(nullptr)},
        {"row0", v.row0},
        {"col0", v.col0},
        {"rows", v.rows},
        {"cols", v.cols},
        {"pixel_width", v.pixel_width},
        {"pixel_height", v.pixel_height},
        {"small_multiples", v.small_multiples},
        {"per_panel_scales", v.per_panel_scales},
        {"subtract_mean", v.subtract_mean},
        {"fit_colors_to_view", v.fit_colors_to_view},
        {"max_panels", v.max_panels},
        {"max_distance", v.max_distance},
        {"log_x", v.log_x},
        {"curve_points", v.curve_points},
        {"overlay", overlay},
        {"compare", compare},
        {"query_position", v.query_position},
        {"key_position", v.key_position},
        {"pairs", pairs},
        {"query_patch", v.query_patch}};
}

// Typed field access with the dotted key in every message.
template <typename T> void read(const json& obj, const char* key, T& out, const char* expected)
{
    const auto it = obj.find(key);
    if (it == obj.end())
        return;
    try {
        if constexpr (std::is_same_v<T, bool>) {
            if (!it->is_boolean())
                throw std::invalid_argument("type");
        } else if constexpr (std::is_integral_v<T>) {
            if (!it->is_number_integer())
                throw std::invalid_argument("type");
            // get<T>() would wrap 4294967297 to 1 and -1 to 2^64 - 1: check the range on 64 bits first.
            const bool fits = it->is_number_unsigned()
                                  ? it->template get<std::uint64_t>() <=
                                        static_cast<std::uint64_t>(std::numeric_limits<T>::max())
                                  : it->template get<std::int64_t>() >=
                                            static_cast<std::int64_t>(std::numeric_limits<T>::min()) &&
                                        (it->template get<std::int64_t>() < 0 ||
                                         static_cast<std::uint64_t>(it->template get<std::int64_t>()) <=
                                             static_cast<std::uint64_t>(std::numeric_limits<T>::max()));
            if (!fits)
                fail(std::string("views.settings.") + key + ": expected an integer in [" +
                     std::to_string(std::numeric_limits<T>::min()) + ", " +
                     std::to_string(std::numeric_limits<T>::max()) + "], got " + json_value_for_message(*it));
        } else if constexpr (std::is_floating_point_v<T>) {
            if (!it->is_number())
                throw std::invalid_argument("type");
        }
        out = it->get<T>();
    } catch (const SessionError&) {
        throw;
    } catch (const std::exception&) {
        fail(std::string("views.settings.") + key + ": expected " + expected + ", got " +
             json_value_for_message(*it));
    }
}

ViewSettings settings_from_json(const json& j)
{
    ViewSettings v;
    if (!j.is_object())
        fail("views.settings: expected an object");
    if (const auto it = j.find("matrix_kind"); it != j.end() && !it->is_null()) {
        const auto k = it->is_string() ? parse_matrix_kind(it->get<std::string>()) : std::nullopt;
        if (!k)
            fail("views.settings.matrix_kind: expected "
                 "logits|weights|encoding|bias|buckets|cope-positions|cope-gates, got " +
                 json_value_for_message(*it));
        v.matrix_kind = *k;
    }
    read(j, "row0", v.row0, "an integer");
    read(j, "col0", v.col0, "an integer");
    read(j, "rows", v.rows, "an integer");
    read(j, "cols", v.cols, "an integer");
    read(j, "pixel_width", v.pixel_width, "an integer");
    read(j, "pixel_height", v.pixel_height, "an integer");
    read(j, "small_multiples", v.small_multiples, "true or false");
    read(j, "per_panel_scales", v.per_panel_scales, "true or false");
    read(j, "subtract_mean", v.subtract_mean, "true or false");
    read(j, "fit_colors_to_view", v.fit_colors_to_view, "true or false");
    read(j, "max_panels", v.max_panels, "an integer");
    read(j, "max_distance", v.max_distance, "an integer");
    read(j, "log_x", v.log_x, "true or false");
    read(j, "curve_points", v.curve_points, "an integer");
    read(j, "query_position", v.query_position, "a number");
    read(j, "key_position", v.key_position, "a number");
    read(j, "pairs", v.pairs, "an array of integers");
    read(j, "query_patch", v.query_patch, "an integer"); // absent in older sessions: patch 0
    if (const auto it = j.find("overlay"); it != j.end()) {
        if (!it->is_array())
            fail("views.settings.overlay: expected an array of method ids");
        for (const auto& m : *it) {
            const auto parsed = m.is_string() ? parse_method(m.get<std::string>()) : std::nullopt;
            if (!parsed)
                fail("views.settings.overlay: unknown method " + json_value_for_message(m));
            v.overlay.push_back(*parsed);
        }
    }
    // Methods side by side; absent in sessions saved before it existed: off.
    if (const auto it = j.find("compare"); it != j.end()) {
        if (!it->is_array())
            fail("views.settings.compare: expected an array of 2 to 4 distinct method ids of " +
                 method_ids(", ") + " (or [] for no comparison), got " + json_value_for_message(*it));
        std::vector<std::string> ids;
        for (const auto& m : *it) {
            if (!m.is_string())
                fail("views.settings.compare: expected method ids (" + method_ids(", ") + "), got " +
                     json_value_for_message(m));
            ids.push_back(m.get<std::string>());
        }
        if (!ids.empty()) {
            std::string problem;
            const auto list = parse_compare_list(ids, &problem);
            if (!list)
                fail("views.settings.compare: " + problem);
            v.compare = *list;
        }
    }
    // Values a hand-edited file could make absurd: refuse rather than allocate or loop.
    if (v.pixel_width < 16 || v.pixel_width > 8192 || v.pixel_height < 16 || v.pixel_height > 8192)
        fail("views.settings.pixel_width/pixel_height: must be in [16, 8192]");
    if (v.curve_points < 2 || v.curve_points > 100000)
        fail("views.settings.curve_points: must be in [2, 100000]");
    if (v.max_panels < 1 || v.max_panels > 64)
        fail("views.settings.max_panels: must be in [1, 64]");
    if (v.query_patch < 0 || v.query_patch >= kMaxSeqLen)
        fail("views.settings.query_patch: must be in [0, " + std::to_string(kMaxSeqLen - 1) + "]");
    if (v.max_distance < 0 || v.max_distance > kMaxDistance)
        fail("views.settings.max_distance: must be in [0, " + std::to_string(kMaxDistance) + "]");
    return v;
}

json rope_to_json(const RopeParams& p)
{
    Scenario s;
    s.params<RopeParams>() = p;
    return scenario_to_json(s)["rope"];
}

RopeParams rope_from_json(const json& j, const std::string& where)
{
    try {
        const RopeParams p = scenario_from_json(json{{"rope", j}}).params<RopeParams>();
        validate(p);
        return p;
    } catch (const ScenarioJsonError& e) {
        fail(where + "." + e.what());
    } catch (const ParameterError& e) {
        fail(where + ": " + e.what());
    }
}

json explorer_to_json(const ExplorerState& e)
{
    json variants = json::array();
    for (const auto& v : e.variants) {
        json out = {{"kind", v.kind.toStdString()},
                    {"label", v.label.toStdString()},
                    {"rope", rope_to_json(v.params)}};
        if (v.factor_pinned)
            out["factor_pinned"] = *v.factor_pinned;
        variants.push_back(std::move(out));
    }
    return {{"model", rope_to_json(e.model)},   {"name", e.name.toStdString()},       {"variants", variants},
            {"target_length", e.target_length}, {"current_length", e.current_length}, {"tab", e.tab}};
}

ExplorerState explorer_from_json(const json& j)
{
    if (!j.is_object())
        fail("explorer: expected an object");
    ExplorerState e;
    const auto model = j.find("model");
    if (model == j.end())
        fail("explorer.model: missing");
    e.model = rope_from_json(*model, "explorer.model");
    if (const auto it = j.find("name"); it != j.end()) {
        if (!it->is_string())
            fail("explorer.name: expected a string");
        e.name = QString::fromStdString(it->get<std::string>());
    }
    const auto variants = j.find("variants");
    if (variants == j.end() || !variants->is_array() || variants->size() > 16)
        fail("explorer.variants: expected an array of at most 16 variants");
    for (const auto& v : *variants) {
        if (!v.is_object() || !v.contains("kind") || !v["kind"].is_string() || !v.contains("rope"))
            fail("explorer.variants: each variant needs a \"kind\" and a \"rope\" object");
        ExplorerState::Variant out;
        out.kind = QString::fromStdString(v["kind"].get<std::string>());
        if (const auto label = v.find("label"); label != v.end() && label->is_string())
            out.label = QString::fromStdString(label->get<std::string>());
        out.params = rope_from_json(v["rope"], "explorer.variants.rope");
        if (const auto pinned = v.find("factor_pinned"); pinned != v.end()) {
            if (!pinned->is_boolean())
                fail("explorer.variants.factor_pinned: expected true or false");
            out.factor_pinned = pinned->get<bool>();
        }
        e.variants.push_back(std::move(out));
    }
    auto length = [&j](const char* key, std::int64_t& out) {
        if (const auto it = j.find(key); it != j.end()) {
            if (!it->is_number_integer() || it->get<std::int64_t>() < 1 ||
                it->get<std::int64_t>() > kMaxSeqLen)
                fail(std::string("explorer.") + key + ": expected an integer in [1, " +
                     std::to_string(kMaxSeqLen) + "]");
            out = it->get<std::int64_t>();
        }
    };
    length("target_length", e.target_length);
    length("current_length", e.current_length);
    if (const auto it = j.find("tab"); it != j.end()) {
        if (!it->is_number_integer() || it->get<int>() < 0 || it->get<int>() > 64)
            fail("explorer.tab: expected a small non-negative integer");
        e.tab = it->get<int>();
    }
    return e;
}

json layer_to_json(const LayerAnatomy& l)
{
    return {{"attention", layer_type_name(l.attention)},
            {"span", l.span},
            {"rope", l.rope},
            {"rope_theta", l.rope_theta},
            {"rope_type", l.rope_type},
            {"rope_factor", l.rope_factor},
            {"temperature", l.temperature},
            {"floor_scale", l.floor_scale},
            {"attn_scale", l.attn_scale}};
}

json layers_to_json(const LayersState& state)
{
    json anatomy = json::array();
    for (const LayerAnatomy& l : state.layers)
        anatomy.push_back(layer_to_json(l));
    return {{"model", state.model.toStdString()},
            {"selected", state.selected},
            {"base", rope_to_json(state.base)},
            {"anatomy", anatomy}};
}

LayerAnatomy layer_from_json(const json& j, int index)
{
    const std::string where = "layers.anatomy[" + std::to_string(index) + "]";
    if (!j.is_object())
        fail(where + ": expected an object");
    LayerAnatomy l;
    l.index = index;
    const auto attention = j.find("attention");
    const std::string type =
        attention != j.end() && attention->is_string() ? attention->get<std::string>() : "";
    if (type == layer_type_name(LayerAttention::Global))
        l.attention = LayerAttention::Global;
    else if (type == layer_type_name(LayerAttention::Sliding))
        l.attention = LayerAttention::Sliding;
    else if (type == layer_type_name(LayerAttention::Chunked))
        l.attention = LayerAttention::Chunked;
    else
        fail(where + ".attention: expected full_attention, sliding_attention or chunked_attention");
    auto number = [&](const char* key, double low, double high, double& out) {
        if (const auto it = j.find(key); it != j.end()) {
            if (!it->is_number() || !(it->get<double>() >= low && it->get<double>() <= high))
                fail(where + "." + key + ": expected a number in [" + format_number(low) + ", " +
                     format_number(high) + "]");
            out = it->get<double>();
        }
    };
    auto flag = [&](const char* key, bool& out) {
        if (const auto it = j.find(key); it != j.end()) {
            if (!it->is_boolean())
                fail(where + "." + key + ": expected true or false");
            out = it->get<bool>();
        }
    };
    if (const auto it = j.find("span"); it != j.end()) {
        if (!it->is_number_integer() || it->get<std::int64_t>() < 0 || it->get<std::int64_t>() > kMaxSeqLen)
            fail(where + ".span: expected an integer in [0, " + std::to_string(kMaxSeqLen) + "]");
        l.span = it->get<std::int64_t>();
    }
    if (l.attention != LayerAttention::Global && l.span < 1)
        fail(where + ".span: a sliding or chunked layer needs a span in [1, " + std::to_string(kMaxSeqLen) +
             "]");
    flag("rope", l.rope);
    flag("temperature", l.temperature);
    number("rope_theta", 0.0, 1e300, l.rope_theta);
    if (l.rope && !(l.rope_theta > 0.0))
        fail(where + ".rope_theta: a RoPE layer needs a base above 0");
    if (const auto it = j.find("rope_type"); it != j.end()) {
        if (!it->is_string() || !parse_rope_type(it->get<std::string>()))
            fail(where +
                 ".rope_type: expected a RoPE type (default, linear, ntk, dynamic, yarn, llama3, longrope)");
        l.rope_type = it->get<std::string>();
    }
    number("rope_factor", 1e-300, 1e300, l.rope_factor);
    number("floor_scale", 0.0, 1e300, l.floor_scale);
    number("attn_scale", 0.0, 1e300, l.attn_scale);
    return l;
}

LayersState layers_from_json(const json& j)
{
    if (!j.is_object())
        fail("layers: expected an object");
    LayersState state;
    if (const auto it = j.find("model"); it != j.end()) {
        if (!it->is_string())
            fail("layers.model: expected a string");
        state.model = QString::fromStdString(it->get<std::string>());
    }
    const auto base = j.find("base");
    if (base == j.end())
        fail("layers.base: missing");
    state.base = rope_from_json(*base, "layers.base");
    const auto anatomy = j.find("anatomy");
    if (anatomy == j.end() || !anatomy->is_array() || anatomy->empty() ||
        anatomy->size() > static_cast<std::size_t>(kMaxSessionLayers))
        fail("layers.anatomy: expected an array of 1 to " + std::to_string(kMaxSessionLayers) + " layers");
    for (std::size_t i = 0; i < anatomy->size(); ++i)
        state.layers.push_back(layer_from_json((*anatomy)[i], static_cast<int>(i)));
    if (const auto it = j.find("selected"); it != j.end()) {
        if (!it->is_number_integer() || it->get<std::int64_t>() < -1 ||
            it->get<std::int64_t>() >= static_cast<std::int64_t>(state.layers.size()))
            fail("layers.selected: expected -1 (none) or a layer in [0, " +
                 std::to_string(state.layers.size() - 1) + "]");
        state.selected = it->get<int>();
    }
    return state;
}

std::vector<std::string> keys_of(const json& j)
{
    std::vector<std::string> keys;
    for (const auto& [key, value] : j.items())
        keys.push_back(key);
    return keys;
}

std::vector<std::string> rope_keys()
{
    std::vector<std::string> keys;
    for (const Field& f : descriptor(RopeParams::kMethod).fields) { // the explorer's model is a RopeParams
        keys.push_back(f.key);
        keys.insert(keys.end(), f.aliases.begin(), f.aliases.end());
    }
    return keys;
}

// Keys of a session that no reader uses, at every level (the scenario's are named by
// scenario_from_json). The valid keys are those the writer writes, so that the two cannot drift apart.
void report_unknown_keys(const json& j, std::vector<UnknownKey>& out)
{
    collect_unknown_keys(j, {"format", "version", "scenario", "views", "figure", "explorer", "layers"}, "",
                         out);
    if (const auto layers = j.find("layers"); layers != j.end() && layers->is_object()) {
        collect_unknown_keys(*layers, {"model", "selected", "base", "anatomy"}, "layers", out);
        if (const auto base = layers->find("base"); base != layers->end())
            collect_unknown_keys(*base, rope_keys(), "layers.base", out);
        if (const auto anatomy = layers->find("anatomy"); anatomy != layers->end() && anatomy->is_array())
            for (std::size_t i = 0; i < anatomy->size(); ++i)
                collect_unknown_keys((*anatomy)[i], keys_of(layer_to_json(LayerAnatomy{})),
                                     "layers.anatomy[" + std::to_string(i) + "]", out);
    }
    if (const auto views = j.find("views"); views != j.end() && views->is_object()) {
        collect_unknown_keys(*views, {"visible", "current", "settings", "token_layout"}, "views", out);
        if (const auto settings = views->find("settings"); settings != views->end())
            collect_unknown_keys(*settings, keys_of(settings_to_json(ViewSettings{})), "views.settings", out);
    }
    if (const auto figure = j.find("figure"); figure != j.end())
        collect_unknown_keys(*figure, {"colormap"}, "figure", out);
    if (const auto explorer = j.find("explorer"); explorer != j.end() && explorer->is_object()) {
        collect_unknown_keys(*explorer, keys_of(explorer_to_json(ExplorerState{})), "explorer", out);
        if (const auto model = explorer->find("model"); model != explorer->end())
            collect_unknown_keys(*model, rope_keys(), "explorer.model", out);
        if (const auto variants = explorer->find("variants");
            variants != explorer->end() && variants->is_array())
            for (std::size_t i = 0; i < variants->size(); ++i) {
                const json& v = (*variants)[i];
                const std::string where = "explorer.variants[" + std::to_string(i) + "]";
                collect_unknown_keys(v, {"kind", "label", "rope", "factor_pinned"}, where, out);
                if (const auto rope = v.is_object() ? v.find("rope") : v.end();
                    v.is_object() && rope != v.end())
                    collect_unknown_keys(*rope, rope_keys(), where + ".rope", out);
            }
    }
}

// The file fields of a scenario: each content file, then every table file of every method, with its
// session key and the fields to empty when its file is missing (a content file takes both files with
// it, as the content comes from both or from neither).
struct FileField {
    std::string key;
    const Field* field;
    std::vector<const Field*> reset;
};

std::vector<FileField> file_fields()
{
    std::vector<const Field*> content;
    for (const char* k : {"queries", "queries_tensor", "keys", "keys_tensor"})
        content.push_back(common_field(k));
    std::vector<FileField> out{{"content.queries", common_field("queries"), content},
                               {"content.keys", common_field("keys"), content}};
    for (const MethodDescriptor& d : methods())
        for (const Field& f : d.fields) {
            if (f.type != FieldType::Text || !f.path)
                continue;
            FileField ff{d.section + "." + f.key, &f, {&f}};
            // Its tensor: "<key>_tensor", or the key's last word replaced ("table_path" -> "table_tensor").
            const auto underscore = f.key.rfind('_');
            for (const std::string& name :
                 {f.key + "_tensor",
                  underscore == std::string::npos ? std::string() : f.key.substr(0, underscore) + "_tensor"})
                if (const Field* t = d.field(name); t && !name.empty()) {
                    ff.reset.push_back(t);
                    break;
                }
            out.push_back(std::move(ff));
        }
    return out;
}

} // namespace

QString view_kind_id(ViewKind k)
{
    switch (k) {
    case ViewKind::Heatmap: return QStringLiteral("heatmap");
    case ViewKind::Curves: return QStringLiteral("curves");
    case ViewKind::Rotation: return QStringLiteral("rotation");
    case ViewKind::Spectrum: return QStringLiteral("spectrum");
    }
    return QStringLiteral("heatmap");
}

std::optional<ViewKind> parse_view_kind(const QString& id)
{
    for (ViewKind k : kAllViewKinds)
        if (view_kind_id(k) == id)
            return k;
    if (id == QLatin1String("decay"))
        return ViewKind::Curves;
    return std::nullopt;
}

QByteArray session_to_json(const Session& s)
{
    json visible = json::array();
    for (const QString& v : s.visible_views)
        visible.push_back(v.toStdString());
    json j{
        {"format", kFormat},
        {"version", kSessionVersion},
        {"scenario", scenario_to_json(s.scenario)},
        {"views", {{"visible", visible}, {"settings", settings_to_json(s.settings)}}},
        {"figure", {{"colormap", s.colormap ? json(colormap_id(*s.colormap).toStdString()) : json("auto")}}}};
    if (!s.current_view.isEmpty())
        j["views"]["current"] = s.current_view.toStdString();
    if (s.token_layout)
        j["views"]["token_layout"] = *s.token_layout;
    if (s.explorer)
        j["explorer"] = explorer_to_json(*s.explorer);
    if (s.layers)
        j["layers"] = layers_to_json(*s.layers);
    return QByteArray::fromStdString(j.dump(2)) + '\n';
}

Session session_from_json(const QByteArray& bytes, const QString& base_dir, SessionReadReport* report)
{
    json j;
    try {
        j = parse_json_input(std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())));
    } catch (const InputFileError& e) {
        fail(e.what());
    }
    if (!j.is_object() || j.value("format", json()) != kFormat)
        fail("not a PosAtlas session (expected \"format\": \"posatlas-session\")");
    const auto version = j.find("version");
    if (version == j.end() || !version->is_number_integer())
        fail("the session has no integer \"version\"");
    // Read as 64 bits first: get<int>() would wrap 4294967297 to 1 and accept it.
    if (version->is_number_unsigned()
            ? version->get<std::uint64_t>() > std::uint64_t{INT32_MAX}
            : (version->get<std::int64_t>() > INT32_MAX || version->get<std::int64_t>() < INT32_MIN))
        fail("version: " + json_value_for_message(*version) +
             " does not fit a 32-bit integer (this PosAtlas reads "
             "versions 1 to " +
             std::to_string(kSessionVersion) + ")");
    const int v = static_cast<int>(version->get<std::int64_t>());
    if (v > kSessionVersion)
        fail("the session is version " + std::to_string(v) + ", newer than this PosAtlas understands (" +
             std::to_string(kSessionVersion) + "); open it with a newer PosAtlas");
    if (v < 1)
        fail("the session version " + std::to_string(v) + " is not valid (the first version is 1)");
    Session s;
    try {
        if (const auto it = j.find("scenario"); it != j.end()) {
            std::vector<UnknownKey> unknown;
            s.scenario = scenario_from_json(*it, {}, report ? &unknown : nullptr);
            for (UnknownKey& k : unknown)
                report->unknown_keys.push_back({"scenario." + k.key, std::move(k.suggestion)});
        }
        // Files next to the session travel with it: a relative path (queries and keys, a learned table, a
        // T5 bias table: every file field of the registry) is resolved against the session's folder, not
        // against whatever directory the program runs in. validate() reads some of them, so first.
        if (!base_dir.isEmpty()) {
            const auto resolve = [&](const std::string& path) {
                return QFileInfo(QString::fromStdString(path)).isRelative()
                           ? QDir(base_dir).filePath(QString::fromStdString(path)).toStdString()
                           : path;
            };
            for (ContentFile* f : {&s.scenario.content.queries, &s.scenario.content.keys})
                if (!f->empty())
                    f->path = resolve(f->path);
            for (const Field* f : all_fields())
                if (f->type == FieldType::Text && f->path) {
                    const nlohmann::json value = f->get(s.scenario);
                    if (value.is_string() && !value.get<std::string>().empty())
                        f->set(s.scenario, resolve(value.get<std::string>()));
                }
        }
        if (report && (report->allow_missing_files || !report->replacements.empty()))
            for (const FileField& f : file_fields()) {
                const json value = f.field->get(s.scenario);
                if (!value.is_string() || value.get<std::string>().empty())
                    continue;
                QString path = QString::fromStdString(value.get<std::string>());
                if (const auto r = report->replacements.find(path); r != report->replacements.end()) {
                    path = r->second;
                    f.field->set(s.scenario, path.toStdString());
                }
                if (!report->allow_missing_files || QFileInfo::exists(path))
                    continue;
                report->missing_files.push_back({"scenario." + f.key, path});
                for (const Field* r : f.reset)
                    r->set(s.scenario, std::string());
            }
        validate(s.scenario);
    } catch (const ScenarioJsonError& e) {
        fail(std::string("scenario.") + e.what());
    } catch (const ParameterError& e) {
        fail("scenario." + scenario_json_key(s.scenario, e.parameter()) + " must be " + e.allowed() +
             " (got " + e.got() + ")");
    }
    if (const auto views = j.find("views"); views != j.end()) {
        if (!views->is_object())
            fail("views: expected an object");
        if (const auto it = views->find("settings"); it != views->end())
            s.settings = settings_from_json(*it);
        if (const auto it = views->find("visible"); it != views->end()) {
            if (!it->is_array())
                fail("views.visible: expected an array of view names");
            s.visible_views.clear();
            for (const auto& name : *it) {
                if (!name.is_string() || !parse_view_kind(QString::fromStdString(name.get<std::string>())))
                    fail("views.visible: unknown view " + json_value_for_message(name) +
                         " (heatmap, curves, rotation, spectrum)");
                s.visible_views.push_back(QString::fromStdString(name.get<std::string>()));
            }
        }
        if (const auto it = views->find("current"); it != views->end()) {
            if (!it->is_string() || !parse_view_kind(QString::fromStdString(it->get<std::string>())))
                fail("views.current: unknown view " + it->dump() + " (heatmap, curves, rotation, spectrum)");
            s.current_view = QString::fromStdString(it->get<std::string>());
        }
        if (const auto it = views->find("token_layout"); it != views->end()) {
            if (!it->is_boolean())
                fail("views.token_layout: expected true or false (the Token layout panel shown), got " +
                     json_value_for_message(*it));
            s.token_layout = it->get<bool>();
        }
    }
    if (const auto it = j.find("explorer"); it != j.end())
        s.explorer = explorer_from_json(*it);
    if (const auto it = j.find("layers"); it != j.end())
        s.layers = layers_from_json(*it);
    if (report)
        report_unknown_keys(j, report->unknown_keys);
    if (const auto fig = j.find("figure"); fig != j.end() && fig->is_object()) {
        if (const auto it = fig->find("colormap"); it != fig->end()) {
            if (!it->is_string())
                fail("figure.colormap: expected a colour map name");
            const QString id = QString::fromStdString(it->get<std::string>());
            if (id != QLatin1String("auto")) {
                const auto map = parse_colormap(id);
                if (!map)
                    fail("figure.colormap: unknown colour map " + json_value_for_message(*it));
                s.colormap = *map;
            }
        }
    }
    return s;
}

void save_session(const Session& s, const QString& path)
{
    try {
        write_file_atomically(path, session_to_json(s));
    } catch (const ExportError& e) {
        fail(e.what());
    }
}

QString figure_description(const Scenario& s)
{
    return scenario_caption(s) + QStringLiteral("\nPosAtlas scenario: ") +
           QString::fromStdString(scenario_to_json(s).dump());
}

void set_figure_metadata(FigureExportOptions& options, const Figure& figure, const Scenario& s)
{
    options.title = figure.figureTitle();
    options.description = figure_description(s);
}

ViewSettings export_view_settings(ViewSettings settings, const FigureExportOptions& options)
{
    settings.pixel_width = static_cast<int>(std::min(4096.0, options.size.width() * options.dpi / 96.0));
    settings.pixel_height = static_cast<int>(std::min(4096.0, options.size.height() * options.dpi / 96.0));
    return settings;
}

Session load_session(const QString& path, SessionReadReport* report)
{
    const std::string name = QFile::encodeName(path).toStdString();
    std::string bytes;
    try {
        bytes = read_input_file(name, kMaxSessionBytes); // names the path in its message
    } catch (const InputFileError& e) {
        fail(e.what());
    }
    try {
        return session_from_json(QByteArray::fromStdString(bytes), QFileInfo(path).absolutePath(), report);
    } catch (const SessionError& e) {
        fail(name + ": " + e.what());
    }
}

} // namespace posatlas::ui
