// SPDX-License-Identifier: GPL-3.0-or-later
// write_probe (lab.h, "probes for the main views"): a run's attention on one input, written as a
// safetensors file and one session per head whose scenario makes core compute the same logits.
#include "compute/attention_logits.h"
#include "io/safe_write.h"
#include "io/safetensors_write.h"
#include "io/scenario_json.h"
#include "lab/lab.h"
#include "scenario/content_file.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>

namespace posatlas::lab {

namespace {

SafetensorsF32 tensor_of(const std::string& name, const Eigen::MatrixXf& m)
{
    const Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> r = m;
    return {name, {r.rows(), r.cols()}, std::vector<float>(r.data(), r.data() + r.size())};
}

// The scenario of head `head`: core's definition of the run's method with the probe's queries and keys.
Scenario head_scenario(const LabConfig& c, const ProbeRequest& r, int head, const std::string& weights,
                       const std::string& probe)
{
    Scenario s = core_scenario(c, r.length, head, r.scaling, weights, r.layer);
    s.content.queries = {probe, "queries." + std::to_string(head), nullptr};
    s.content.keys = {probe, "keys." + std::to_string(head), nullptr};
    return s;
}

} // namespace

ProbeSummary write_probe(const std::string& run_dir, const ProbeRequest& r, const std::string& out)
{
    namespace fs = std::filesystem;
    const RunInfo info = read_run_config(run_dir);
    check_probe(info, r, out);
    const LabConfig& c = info.config;
    Corpus corpus;
    if (c.language_model()) {
        corpus = run_corpus(c, r.corpus);
        const std::int64_t held = static_cast<std::int64_t>(corpus.held_out.size());
        if (r.length + 1 > held)
            throw ParameterError("length",
                                 "at most " + std::to_string(held - 1) + " (the corpus's held-out text)",
                                 std::to_string(r.length));
    }
    const TaskBatch batch = task_batch(c, &corpus, r.length, 1, r.seed, 0);
    const std::vector<HeadProbe> heads = probe_attention(run_dir, batch.input, r.layer, r.scaling);

    std::vector<SafetensorsF32> tensors{
        {"tokens", {r.length}, std::vector<float>(batch.input.begin(), batch.input.end())}};
    for (std::size_t h = 0; h < heads.size(); ++h) {
        const std::string n = std::to_string(h);
        tensors.push_back(tensor_of("queries." + n, heads[h].queries));
        tensors.push_back(tensor_of("keys." + n, heads[h].keys));
        tensors.push_back(tensor_of("scores." + n, heads[h].scores));
    }
    fs::create_directories(out);
    const std::string probe = (fs::path(out) / "probe.safetensors").string();
    write_safetensors(probe, tensors,
                      {{"run", run_dir}, {"method", c.method}, {"layer", std::to_string(r.layer)}});

    // Each head's core logits from the scenario the session will hold, against the model's scores.
    const std::string weights = (fs::path(run_dir) / "model.safetensors").string();
    ProbeSummary summary;
    for (int h = 0; h < static_cast<int>(heads.size()); ++h) {
        const MatrixResult m = compute_matrix(head_scenario(c, r, h, weights, probe), MatrixKind::Logits, {});
        for (std::int64_t i = 0; i < r.length; ++i)
            for (std::int64_t j = 0; j <= i; ++j) {
                const double core = m.at(i, j), model = heads[static_cast<std::size_t>(h)].scores(i, j);
                const double d = std::isfinite(core) ? std::fabs(core - model) / (1 + std::fabs(core))
                                                     : std::numeric_limits<double>::infinity();
                summary.largest_difference = std::max(summary.largest_difference, d);
            }
    }
    clear_content_file_cache();
    if (!(summary.largest_difference <= 2e-5)) {
        std::error_code ec;
        fs::remove(probe, ec);
        throw std::runtime_error("the lab's probe: core's logits differ from the model's scores by " +
                                 std::to_string(summary.largest_difference) + " (relative): please report");
    }
    // The sessions name their files relative to themselves, so the folder can move with its run.
    const fs::path base = fs::absolute(out);
    const std::string weights_relative = fs::relative(fs::absolute(weights), base).generic_string();
    for (int h = 0; h < static_cast<int>(heads.size()); ++h) {
        const nlohmann::json session{
            {"format", kSessionFormat},
            {"version", kSessionVersion},
            {"scenario", scenario_to_json(head_scenario(c, r, h, weights_relative, "probe.safetensors"))},
            {"views",
             {{"current", "heatmap"},
              {"settings", {{"matrix_kind", "logits"}, {"small_multiples", false}}}}}};
        const std::string name = "head-" + std::to_string(h) + ".posatlas.json";
        write_file_atomically((fs::path(out) / name).string(), session.dump(2) + "\n");
        summary.sessions.push_back(name);
    }
    return summary;
}

} // namespace posatlas::lab
