// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/lab_results.h"

#include "analysis/quoted_value.h"

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>

namespace posatlas {

namespace {

std::mutex& fallback_mutex()
{
    static std::mutex m;
    return m;
}

LabResultsReader& fallback()
{
    static LabResultsReader r;
    return r;
}

bool safe_relative(const std::string& p)
{
    if (p.empty() || p.front() == '/' || p.size() > 300)
        return false;
    for (char c : p) {
        const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                        c == '-' || c == '_' || c == '.' || c == '/';
        if (!ok)
            return false;
    }
    std::stringstream parts(p);
    for (std::string part; std::getline(parts, part, '/');)
        if (part.empty() || part == "." || part == "..")
            return false;
    return true;
}

std::optional<std::string> read_from(const std::filesystem::path& dir, const std::string& relative)
{
    std::error_code ec;
    const std::filesystem::path file = dir / relative;
    if (!std::filesystem::is_regular_file(file, ec))
        return std::nullopt;
    std::ifstream in(file, std::ios::binary);
    if (!in)
        return std::nullopt;
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

nlohmann::json parse(const std::string& relative)
{
    const std::string text = read_lab_results_file(relative);
    try {
        return nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception& e) {
        throw QuoteError("lab-runs/" + relative + " is not JSON: " + e.what());
    }
}

double number(const nlohmann::json& j, const char* key, const std::string& where)
{
    if (!j.is_object() || !j.contains(key) || !j[key].is_number())
        throw QuoteError(where + " has no number \"" + key + "\"");
    return j[key].get<double>();
}

// The row of an evaluation file at `length`.
nlohmann::json eval_row(const std::string& eval, std::int64_t length)
{
    const std::string relative = eval + ".json";
    const nlohmann::json j = parse(relative);
    if (j.is_object() && j.contains("lengths") && j["lengths"].is_array())
        for (const nlohmann::json& row : j["lengths"])
            if (row.is_object() && row.value("length", std::int64_t{-1}) == length) {
                if (!row.value("defined", true))
                    throw QuoteError("lab-runs/" + relative + ": length " + std::to_string(length) +
                                     " is not defined there");
                return row;
            }
    throw QuoteError("lab-runs/" + relative + " has no length " + std::to_string(length));
}

double sweep_mean(const std::string& sweep_method, std::int64_t length, const char* key)
{
    const std::size_t slash = sweep_method.rfind('/');
    if (slash == std::string::npos || slash == 0 || slash + 1 == sweep_method.size())
        throw QuoteError("name the sweep and the method as \"SWEEP/METHOD\" (\"copy/rope\"), not \"" +
                         sweep_method + "\"");
    const std::string relative = sweep_method.substr(0, slash) + "/sweep.json";
    const std::string method = sweep_method.substr(slash + 1);
    const nlohmann::json j = parse(relative);
    double sum = 0.0;
    int n = 0;
    bool undefined = false;
    if (j.is_object() && j.contains("rows") && j["rows"].is_array())
        for (const nlohmann::json& row : j["rows"]) {
            if (!row.is_object() || row.value("method", std::string()) != method ||
                row.value("length", std::int64_t{-1}) != length)
                continue;
            const std::string where =
                "lab-runs/" + relative + " (" + method + " at " + std::to_string(length) + ")";
            if (row.contains("accuracy") && row["accuracy"].is_string()) {
                undefined = true;
                continue;
            }
            sum += number(row, key, where);
            ++n;
        }
    if (n == 0)
        throw QuoteError("lab-runs/" + relative + " has " +
                         (undefined ? "\"not defined\"" : std::string("no row")) + " for " + method +
                         " at length " + std::to_string(length));
    return sum / n;
}

} // namespace

void set_lab_results_fallback(LabResultsReader reader)
{
    const std::lock_guard lock(fallback_mutex());
    fallback() = std::move(reader);
}

std::string read_lab_results_file(const std::string& relative)
{
    if (!safe_relative(relative))
        throw QuoteError("\"" + relative +
                         "\" is not a path inside lab-runs (letters, digits, - _ . and /, no \"..\")");
    std::string searched;
    if (const char* env = std::getenv("POSATLAS_LAB_RUNS"); env && *env) {
        if (auto text = read_from(env, relative))
            return *text;
        searched += std::string(" POSATLAS_LAB_RUNS=") + env;
    }
#ifdef POSATLAS_LAB_RUNS_SOURCE_DIR
    if (auto text = read_from(POSATLAS_LAB_RUNS_SOURCE_DIR, relative))
        return *text;
    searched += std::string(" ") + POSATLAS_LAB_RUNS_SOURCE_DIR;
#endif
    {
        const std::lock_guard lock(fallback_mutex());
        if (fallback()) {
            if (auto text = fallback()(relative))
                return *text;
            searched += " (the program's embedded copy)";
        }
    }
    throw QuoteError("no lab result lab-runs/" + relative + " (searched:" + searched +
                     "; `make lab-runs` writes them)");
}

double lab_sweep_accuracy(const std::string& sweep_method, std::int64_t length)
{
    return sweep_mean(sweep_method, length, "accuracy");
}

double lab_sweep_loss(const std::string& sweep_method, std::int64_t length)
{
    return sweep_mean(sweep_method, length, "loss");
}

double lab_sweep_methods(const std::string& sweep)
{
    const std::string relative = sweep + "/sweep.json";
    const nlohmann::json j = parse(relative);
    if (!j.is_object() || !j.contains("methods") || !j["methods"].is_array() || j["methods"].empty())
        throw QuoteError("lab-runs/" + relative + " has no list of methods");
    return static_cast<double>(j["methods"].size());
}

double lab_eval_value(const std::string& eval, std::int64_t length, const std::string& field)
{
    return number(eval_row(eval, length), field.c_str(),
                  "lab-runs/" + eval + ".json at length " + std::to_string(length));
}

double lab_eval_entropy(const std::string& eval, std::int64_t length, std::int64_t layer)
{
    const nlohmann::json row = eval_row(eval, length);
    const std::string where = "lab-runs/" + eval + ".json at length " + std::to_string(length);
    if (!row.contains("attention_entropy") || !row["attention_entropy"].is_array())
        throw QuoteError(where + " has no attention_entropy");
    const nlohmann::json& e = row["attention_entropy"];
    if (layer < 0 || layer >= static_cast<std::int64_t>(e.size()) ||
        !e[static_cast<std::size_t>(layer)].is_number())
        throw QuoteError(where + ": no layer " + std::to_string(layer) + " (layers 0 to " +
                         std::to_string(static_cast<std::int64_t>(e.size()) - 1) + ")");
    return e[static_cast<std::size_t>(layer)].get<double>();
}

double lab_eval_finetune_loss(const std::string& eval)
{
    const nlohmann::json j = parse(eval + ".json");
    if (!j.is_object() || !j.contains("finetune") || !j["finetune"].is_object())
        throw QuoteError("lab-runs/" + eval + ".json has no fine-tune");
    return number(j["finetune"], "final_loss", "lab-runs/" + eval + ".json's finetune");
}

} // namespace posatlas
