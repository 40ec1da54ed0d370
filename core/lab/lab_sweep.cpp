// SPDX-License-Identifier: GPL-3.0-or-later
#include "lab/lab_sweep.h"

#include "io/input_file.h"
#include "lab/lab.h"
#include "scenario/types.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <sstream>
#include <unistd.h>

namespace posatlas::lab {

namespace {

namespace fs = std::filesystem;

std::string method_list()
{
    std::string s;
    for (const std::string& m : lab_methods())
        s += (s.empty() ? "" : "|") + m;
    return s;
}

std::string number(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return buf;
}

bool executable(const fs::path& p)
{
    std::error_code ec;
    return fs::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0;
}

} // namespace

std::vector<std::string> sweep_methods(const std::string& list)
{
    std::vector<std::string> methods;
    std::stringstream ss(list);
    for (std::string item; std::getline(ss, item, ',');)
        methods.push_back(item);
    const auto& known = lab_methods();
    const bool ok =
        !methods.empty() && std::all_of(methods.begin(), methods.end(), [&](const std::string& m) {
            return std::find(known.begin(), known.end(), m) != known.end() &&
                   std::count(methods.begin(), methods.end(), m) == 1;
        });
    if (!ok)
        throw ParameterError("methods", "a comma-separated list of distinct " + method_list(), list);
    return methods;
}

std::vector<std::int64_t> sweep_lengths(const std::vector<double>& lengths, const std::string& given)
{
    std::vector<std::int64_t> out;
    for (std::size_t i = 0; i < lengths.size(); ++i) {
        if (!(lengths[i] == std::floor(lengths[i])) || lengths[i] < 4 || lengths[i] > 1 << 20 ||
            (i > 0 && lengths[i] <= lengths[i - 1]))
            throw ParameterError("lengths", "increasing integers in [4, 1048576]", given);
        out.push_back(static_cast<std::int64_t>(lengths[i]));
    }
    if (out.empty())
        throw ParameterError("lengths", "increasing integers in [4, 1048576]", given);
    return out;
}

void check_sweep_folder(const std::string& dir)
{
    std::error_code ec;
    const fs::path p(dir);
    if (!fs::exists(p, ec))
        return;
    bool ok = fs::is_directory(p, ec);
    if (ok) {
        const auto& known = lab_methods();
        for (fs::directory_iterator it(p, ec), end; ok && !ec && it != end; it.increment(ec)) {
            const std::string name = it->path().filename().string();
            const bool method_folder =
                std::find(known.begin(), known.end(), name) != known.end() && it->is_directory(ec);
            const bool table =
                name == "sweep.csv" || name == "sweep.json" || name == "sweep.png" || name == "sweep.svg";
            ok = method_folder || table;
        }
        ok = ok && !ec;
    }
    if (!ok)
        throw ParameterError("out", "a new folder, an empty folder or a sweep's folder", dir);
}

std::string sweep_run_folder(const std::string& dir, const std::string& method, int seed)
{
    return (fs::path(dir) / method / ("seed-" + std::to_string(seed))).string();
}

bool sweep_run_complete(const std::string& folder)
{
    std::error_code ec;
    if (!fs::exists(fs::path(folder) / "config.json", ec))
        return false;
    try {
        return read_run_config(folder).status == "complete";
    } catch (const LabRunError&) {
        return false;
    }
}

std::vector<SweepRow> sweep_rows_from_eval(const std::string& method, int seed, const std::string& eval_json)
{
    std::vector<SweepRow> rows;
    try {
        const nlohmann::json e = parse_json_input(eval_json);
        for (const auto& row : e.at("lengths")) {
            SweepRow r{method, seed, row.at("length").get<std::int64_t>()};
            r.defined = !row.contains("defined");
            if (r.defined) {
                r.accuracy = row.at("answer_accuracy").get<double>();
                r.loss = row.at("loss").get<double>();
            }
            rows.push_back(r);
        }
    } catch (const nlohmann::json::exception& e) {
        throw LabRunError("posatlas-lab eval: not an evaluation's JSON (" + std::string(e.what()) + ")");
    } catch (const InputFileError& e) {
        throw LabRunError("posatlas-lab eval: " + std::string(e.what()));
    }
    return rows;
}

std::string sweep_csv(const SweepTable& t)
{
    // lm: the perplexity too, exp(loss), what its figure shows.
    const bool lm = t.task == "lm";
    std::string csv =
        lm ? "method,seed,length,accuracy,loss,perplexity\n" : "method,seed,length,accuracy,loss\n";
    for (const SweepRow& r : t.rows)
        csv += r.method + ',' + std::to_string(r.seed) + ',' + std::to_string(r.length) +
               (r.defined ? ',' + number(r.accuracy) + ',' + number(r.loss) +
                                (lm ? ',' + number(std::exp(r.loss)) : std::string())
                : lm ? ",not defined,not defined,not defined"
                     : ",not defined,not defined") +
               '\n';
    return csv;
}

std::string sweep_json(const SweepTable& t)
{
    nlohmann::json j{{"task", t.task},   {"train_len", t.train_len}, {"methods", t.methods},
                     {"seeds", t.seeds}, {"lengths", t.lengths},     {"rows", nlohmann::json::array()}};
    if (t.rope_type != "default") {
        j["rope_type"] = t.rope_type;
        j["factor"] = t.factor;
    }
    for (const SweepRow& r : t.rows) {
        nlohmann::json row{{"method", r.method}, {"seed", r.seed}, {"length", r.length}};
        if (r.defined) {
            row["accuracy"] = r.accuracy;
            row["loss"] = r.loss;
            if (t.task == "lm")
                row["perplexity"] = std::exp(r.loss);
        } else {
            row["accuracy"] = "not defined";
            row["loss"] = "not defined";
            if (t.task == "lm")
                row["perplexity"] = "not defined";
        }
        j["rows"].push_back(row);
    }
    return j.dump(2) + '\n';
}

SweepTable read_sweep_json(const std::string& text, const std::string& path)
{
    try {
        const nlohmann::json j = parse_json_input(text);
        SweepTable t;
        t.task = j.at("task").get<std::string>();
        t.train_len = j.at("train_len").get<std::int64_t>();
        t.methods = j.at("methods").get<std::vector<std::string>>();
        t.seeds = j.at("seeds").get<int>();
        t.lengths = j.at("lengths").get<std::vector<std::int64_t>>();
        t.rope_type = j.value("rope_type", std::string("default"));
        t.factor = j.value("factor", 1.0);
        for (const auto& row : j.at("rows")) {
            SweepRow r{row.at("method").get<std::string>(), row.at("seed").get<int>(),
                       row.at("length").get<std::int64_t>()};
            r.defined = row.at("accuracy").is_number();
            if (r.defined) {
                r.accuracy = row.at("accuracy").get<double>();
                r.loss = row.at("loss").get<double>();
            }
            t.rows.push_back(r);
        }
        return t;
    } catch (const nlohmann::json::exception& e) {
        throw InputFileError(path + ": not a sweep's table (" + e.what() + ")");
    } catch (const InputFileError& e) {
        throw InputFileError(path + ": " + e.what());
    }
}

std::string find_lab_executable(const std::string& search_dir)
{
    if (!search_dir.empty())
        if (const fs::path named = fs::path(search_dir) / "posatlas-lab"; executable(named))
            return named.lexically_normal().string();
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        if (const fs::path beside = self.parent_path() / "posatlas-lab"; executable(beside))
            return beside.string();
        if (const fs::path installed = self.parent_path() / POSATLAS_LAB_FROM_BINDIR / "posatlas-lab";
            executable(installed))
            return installed.lexically_normal().string();
    }
    if (const fs::path prefix = fs::path(POSATLAS_LAB_INSTALL_DIR) / "posatlas-lab"; executable(prefix))
        return prefix.string();
    return "";
}

std::string find_shipped_runs_dir()
{
    const auto folder = [](const fs::path& p) {
        std::error_code ec;
        return fs::is_directory(p, ec);
    };
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        // A program of the build tree (the app, its tests): the source tree's runs, not an older install.
        const fs::path build = fs::path(POSATLAS_BINARY_DIR).lexically_normal();
        const fs::path exe = self.lexically_normal();
        const auto [b, e] = std::mismatch(build.begin(), build.end(), exe.begin(), exe.end());
        if (b == build.end() && folder(POSATLAS_SOURCE_LAB_RUNS))
            return fs::path(POSATLAS_SOURCE_LAB_RUNS).lexically_normal().string();
        if (const fs::path installed =
                (self.parent_path() / POSATLAS_LAB_RUNS_FROM_BINDIR).lexically_normal();
            folder(installed))
            return installed.string();
    }
    if (folder(POSATLAS_LAB_RUNS_INSTALL_DIR))
        return fs::path(POSATLAS_LAB_RUNS_INSTALL_DIR).lexically_normal().string();
    return "";
}

std::vector<ShippedRun> shipped_runs(const std::string& root)
{
    std::vector<ShippedRun> runs;
    std::error_code ec;
    if (root.empty() || !fs::is_directory(root, ec))
        return runs;
    std::vector<std::string> tasks;
    for (const fs::directory_entry& e : fs::directory_iterator(root, ec))
        if (e.is_directory(ec))
            tasks.push_back(e.path().filename().string());
    std::sort(tasks.begin(), tasks.end());
    for (const std::string& task : tasks)
        for (const std::string& method : lab_methods()) {
            const fs::path dir = fs::path(root) / task / method;
            std::vector<int> seeds;
            for (const fs::directory_entry& e : fs::directory_iterator(dir, ec)) {
                const std::string name = e.path().filename().string();
                if (name.rfind("seed-", 0) != 0 || name.size() > 14 ||
                    name.find_first_not_of("0123456789", 5) != std::string::npos || name.size() == 5)
                    continue;
                if (sweep_run_complete(e.path().string()))
                    seeds.push_back(std::stoi(name.substr(5)));
            }
            std::sort(seeds.begin(), seeds.end());
            for (const int seed : seeds)
                runs.push_back(
                    {task, method, seed, sweep_run_folder((fs::path(root) / task).string(), method, seed)});
        }
    return runs;
}

} // namespace posatlas::lab
