// SPDX-License-Identifier: GPL-3.0-or-later
// `posatlas lab` end to end: a run trained and evaluated, a learned table past its rows reported as not
// defined, bad options and hostile run folders refused with exit status 2 naming the option or the file,
// and nothing written then.
#include "cli_support.h"
#include "io/safetensors.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

namespace posatlas::test {
namespace {

const std::vector<std::string> kSmall{"--layers", "1",           "--d-model",  "16",      "--heads",
                                      "2",        "--train-len", "12",         "--steps", "20",
                                      "--batch",  "8",           "--alphabet", "6",       "--quiet"};

std::vector<std::string> train(const std::string& out, const std::string& method)
{
    std::vector<std::string> a{"lab", "train", "--method", method, "--out", out};
    a.insert(a.end(), kSmall.begin(), kSmall.end());
    return a;
}

TEST(CliLab, TrainsWritesTheRunFolderAndEvaluatesAtLongerLengths)
{
    const fs::path dir = temp_dir() / "rope-run";
    const Result t = run(train(dir.string(), "rope"));
    ASSERT_EQ(t.status, 0) << t.err;
    for (const char* f : {"model.safetensors", "config.json", "metrics.jsonl", "command.txt"})
        EXPECT_TRUE(fs::exists(dir / f)) << f;
    EXPECT_EQ(slurp(dir / "command.txt").rfind("posatlas lab train --method rope --out ", 0), 0u);
    const Result e = run({"lab", "eval", dir.string(), "--lengths", "12,24", "--sequences", "8", "--format",
                          "json", "--rope-type", "yarn", "--factor", "2"});
    ASSERT_EQ(e.status, 0) << e.err;
    const nlohmann::json j = nlohmann::json::parse(e.out);
    ASSERT_EQ(j["lengths"].size(), 2u);
    EXPECT_EQ(j["lengths"][1]["length"], 24);
    EXPECT_EQ(j["rope_type"], "yarn");
}

// lab probe writes one session per head whose heatmap, exported by the program from the session alone,
// is the model's own pre-softmax scores (probe.safetensors "scores.H"), within float32 rounding:
// 2e-5 (1 + |logit|). T5 reads its bias table from the run's model.safetensors through the session's
// relative path. Refusals name the option and write nothing.
TEST(CliLab, ProbeWritesSessionsWhoseHeatmapIsTheModelsOwnScores)
{
    const fs::path dir = temp_dir() / "probe-run";
    ASSERT_EQ(run(train(dir.string(), "t5")).status, 0);
    const fs::path probe = temp_dir() / "probe";
    const Result p = run({"lab", "probe", dir.string(), "--length", "20", "--out", probe.string()});
    ASSERT_EQ(p.status, 0) << p.err;
    EXPECT_NE(p.out.find("head-1.posatlas.json"), std::string::npos) << p.out;
    const fs::path exported = temp_dir() / "probe-head1.json";
    const Result e = run({"export", "--session", (probe / "head-1.posatlas.json").string(), "--view",
                          "heatmap", "--out", exported.string()});
    ASSERT_EQ(e.status, 0) << e.err;
    const nlohmann::json m = nlohmann::json::parse(slurp(exported))["panels"][0]["matrix"];
    const SafetensorsCatalog catalog = read_safetensors((probe / "probe.safetensors").string());
    const SafetensorsTensor* scores = catalog.find("scores.1");
    ASSERT_NE(scores, nullptr) << catalog.listing();
    const std::vector<double> model = read_safetensors_values(*scores, 400);
    ASSERT_EQ(m.size(), 20u);
    int compared = 0;
    for (int i = 0; i < 20; ++i)
        for (int j = 0; j <= i; ++j) {
            const double core = m[i][j].get<double>(), v = model[static_cast<std::size_t>(i * 20 + j)];
            EXPECT_NEAR(core, v, 2e-5 * (1 + std::fabs(core))) << i << ", " << j;
            ++compared;
        }
    EXPECT_EQ(compared, 210);

    Result r = run({"lab", "probe", dir.string(), "--out", probe.string()});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("--out"), std::string::npos) << r.err;
    const fs::path other = temp_dir() / "probe-refused";
    r = run({"lab", "probe", dir.string(), "--layer", "1", "--out", other.string()});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("--layer"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("[0, 0]"), std::string::npos) << r.err;
    r = run({"lab", "probe", dir.string(), "--rope-type", "yarn", "--out", other.string()});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("--rope-type"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(other));
}

// The scalings of lab eval apply to a probe too (LongRoPE with its lists: 16 / 2 heads = 8 dimensions, 4
// pairs); posatlas-lab refuses to write sessions whose core logits would differ from the model's scores,
// so exit status 0 is the equality.
TEST(CliLab, ProbeTakesTheTestTimeScalingsOfEval)
{
    const fs::path dir = temp_dir() / "probe-rope";
    ASSERT_EQ(run(train(dir.string(), "rope")).status, 0);
    const fs::path out = temp_dir() / "probe-rope-out";
    Result r = run({"lab", "probe", dir.string(), "--length", "30", "--rope-type", "longrope",
                    "--long-factor", "1,2,3,4", "--out", out.string()});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(fs::exists(out / "head-1.posatlas.json"));
    r = run({"lab", "probe", dir.string(), "--rope-type", "longrope", "--long-factor", "1,2", "--out",
             (temp_dir() / "probe-rope-refused").string()});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("--long-factor"), std::string::npos) << r.err;
}

TEST(CliLab, ProbePastALearnedTableNamesItsRows)
{
    const fs::path dir = temp_dir() / "probe-learned";
    ASSERT_EQ(run(train(dir.string(), "learned")).status, 0);
    const fs::path out = temp_dir() / "probe-learned-out";
    const Result r = run({"lab", "probe", dir.string(), "--length", "13", "--out", out.string()});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("--length"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("at most 12"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(out));
}

TEST(CliLab, LearnedTablePastItsRowsPrintsNotDefined)
{
    const fs::path dir = temp_dir() / "learned-run";
    ASSERT_EQ(run(train(dir.string(), "learned")).status, 0);
    const Result e = run({"lab", "eval", dir.string(), "--lengths", "12,64", "--sequences", "4"});
    ASSERT_EQ(e.status, 0) << e.err;
    EXPECT_NE(e.out.find("64\tnot defined"), std::string::npos) << e.out;
}

// The lm task on the built-in course: eval prints perplexity and bits per character; a missing corpus,
// a vocabulary too small for the course and another corpus at evaluation are refused with exit 2 naming
// the option, nothing written.
TEST(CliLab, LanguageModelOnTheCoursePrintsPerplexityAndRefusesAMissingCorpus)
{
    const fs::path dir = temp_dir() / "lm-run";
    std::vector<std::string> a{"lab", "train", "--task", "lm", "--out", dir.string()};
    a.insert(a.end(), kSmall.begin(), kSmall.end());
    a.erase(a.end() - 3, a.end() - 1); // --alphabet 6: a synthetic task's
    const Result t = run(a);
    ASSERT_EQ(t.status, 0) << t.err;
    EXPECT_NE(slurp(dir / "metrics.jsonl").find("\"perplexity\""), std::string::npos);
    const Result e = run({"lab", "eval", dir.string(), "--lengths", "12,24", "--sequences", "8"});
    ASSERT_EQ(e.status, 0) << e.err;
    EXPECT_NE(e.out.find("perplexity"), std::string::npos) << e.out;
    EXPECT_NE(e.out.find("bits per character"), std::string::npos) << e.out;
    const Result j =
        run({"lab", "eval", dir.string(), "--lengths", "12", "--sequences", "8", "--format", "json"});
    ASSERT_EQ(j.status, 0) << j.err;
    const nlohmann::json row = nlohmann::json::parse(j.out)["lengths"][0];
    EXPECT_NEAR(row["perplexity"].get<double>(), std::exp(row["loss"].get<double>()), 1e-9);

    const fs::path refused = temp_dir() / "lm-refused";
    Result r = run({"lab", "train", "--task", "lm", "--out", refused.string(), "--corpus",
                    (temp_dir() / "no-such-corpus").string()});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("--corpus"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(refused));
    r = run({"lab", "train", "--task", "lm", "--out", refused.string(), "--vocab", "50"});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("--vocab"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("at least"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(refused));
    r = run({"lab", "train", "--task", "copy", "--out", refused.string(), "--corpus", "x.txt"});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("--corpus"), std::string::npos) << r.err;
    const fs::path other = temp_dir() / "other-corpus.txt";
    std::ofstream(other) << "another text, not the course";
    r = run({"lab", "eval", dir.string(), "--lengths", "12", "--corpus", other.string()});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("--corpus"), std::string::npos) << r.err;
}

TEST(CliLab, BadOptionsAreRefusedNamingTheOptionBeforeAnythingIsWritten)
{
    const fs::path dir = temp_dir() / "refused";
    std::vector<std::string> a = train(dir.string(), "rope");
    a.insert(a.end(), {"--train-len", "60000"});
    a.erase(a.begin() + 12, a.begin() + 14); // the small --train-len
    Result r = run(a);
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("--train-len"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("at most"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir));
    r = run({"lab", "train", "--out", dir.string(), "--method", "rope", "--heads", "3"});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("--heads"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir));
    // DeBERTa's log buckets need max_relative_positions - 1 > position_buckets / 2 (core's check).
    r = run({"lab", "train", "--out", dir.string(), "--method", "deberta", "--deberta-position-buckets", "32",
             "--deberta-max-relative-positions", "17"});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("--deberta-max-relative-positions"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir));
    r = run({"lab", "train", "--out", dir.string(), "--method", "shaw", "--shaw-max-relative-position", "0"});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("--shaw-max-relative-position"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir));
}

TEST(CliLab, HostileConfigIsRefusedWithExitTwoAndNothingChanges)
{
    const fs::path dir = temp_dir() / "hostile";
    ASSERT_EQ(run(train(dir.string(), "alibi")).status, 0);
    std::string config = slurp(dir / "config.json");
    config.replace(config.find("\"heads\": 2"), 10, "\"heads\": -7");
    std::ofstream(dir / "config.json", std::ios::binary) << config;
    const std::string weights = slurp(dir / "model.safetensors");
    const Result e = run({"lab", "eval", dir.string(), "--lengths", "12"});
    EXPECT_EQ(e.status, 2);
    EXPECT_NE(e.err.find("config.json"), std::string::npos) << e.err;
    EXPECT_EQ(slurp(dir / "config.json"), config);
    EXPECT_EQ(slurp(dir / "model.safetensors"), weights);
    EXPECT_EQ(run({"lab", "eval", dir.string(), "--rope-type", "yarn"}).status, 2);
}

TEST(CliLab, LabProcessPrintsInTheProgramsLanguage)
{
    const fs::path dir = temp_dir() / "zh-run";
    ASSERT_EQ(run(train(dir.string(), "learned")).status, 0);
    RunOptions zh;
    zh.locale = "zh_CN.UTF-8";
    const Result e = run({"lab", "eval", dir.string(), "--lengths", "12,64", "--sequences", "4"}, zh);
    ASSERT_EQ(e.status, 0) << e.err;
    // posatlas-lab has no Qt: the table's header and "not defined" are the translations the program
    // handed over.
    EXPECT_EQ(e.out.rfind("长度\t", 0), 0u) << e.out;
    EXPECT_EQ(e.out.find("not defined"), std::string::npos) << e.out;
}

TEST(CliLab, InterruptingTheProgramCancelsTheLabAndKeepsTheLastCheckpoint)
{
    // Only the program is signalled (as `kill -INT`); it passes the signal on to posatlas-lab. Started in
    // the background by sh, the program begins with SIGINT ignored: only its own passing on can stop the
    // run before its last step.
    const fs::path dir = temp_dir() / "interrupted";
    std::string script = quote(POSATLAS_EXE) + " lab train --method rope --out " + quote(dir.string());
    for (const std::string& a : kSmall)
        script.append(" ").append(a == "20" ? "20000" : a);
    script.append(" --checkpoint-every 5 >/dev/null 2>&1 </dev/null & p=$!; i=0\n");
    script.append("while [ ! -f ").append(quote((dir / "model.safetensors").string()));
    script.append(" ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done\n");
    script.append("kill -INT $p; wait $p; exit $?\n");
    const fs::path sh = write_file("interrupt.sh", script);
    const int raw = std::system(("sh " + quote(sh.string())).c_str());
    ASSERT_TRUE(WIFEXITED(raw));
    EXPECT_EQ(WEXITSTATUS(raw), 1);
    const nlohmann::json config = nlohmann::json::parse(slurp(dir / "config.json"));
    EXPECT_EQ(config["status"], "cancelled");
    EXPECT_LT(config["steps_done"].get<int>(), 20000);
    const Result e = run({"lab", "eval", dir.string(), "--lengths", "12", "--sequences", "4"});
    EXPECT_EQ(e.status, 0) << e.err;
}

// LongRoPE at test time: the factor lists have one entry per rotary frequency pair (head_dim 8: four).
TEST(CliLab, LongRopeAtTestTimeAndItsRefusalsNameTheOption)
{
    const fs::path dir = temp_dir() / "longrope-run";
    ASSERT_EQ(run(train(dir.string(), "rope")).status, 0);
    const std::vector<std::string> eval{"lab",   "eval",        dir.string(), "--lengths",
                                        "12,24", "--sequences", "8"};
    const auto with = [&](std::vector<std::string> extra) {
        std::vector<std::string> a = eval;
        a.insert(a.end(), extra.begin(), extra.end());
        return run(a);
    };
    Result r = with({"--rope-type", "longrope", "--long-factor", "1,2,4,8", "--short-factor", "1,1,1.5,2",
                     "--format", "json"});
    ASSERT_EQ(r.status, 0) << r.err;
    const nlohmann::json j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["rope_type"], "longrope");
    EXPECT_EQ(j["long_factor"].size(), 4u);
    const struct {
        std::vector<std::string> extra;
        const char* option;
        const char* says;
    } refused[] = {
        {{"--rope-type", "longrope", "--long-factor", "1,2,4"}, "--long-factor", "4"},
        {{"--rope-type", "longrope", "--long-factor", "1,2,4,8", "--short-factor", "1,1"},
         "--short-factor",
         "4"},
        {{"--rope-type", "longrope", "--long-factor", "1,0,4,8"}, "--long-factor", "(0, 1000000]"},
        {{"--rope-type", "longrope", "--long-factor", "1,-2,4,8"}, "--long-factor", "(0, 1000000]"},
        {{"--rope-type", "longrope", "--long-factor", "1,nan,4,8"}, "--long-factor", "finite"},
        {{"--rope-type", "longrope", "--long-factor", "1,inf,4,8"}, "--long-factor", "finite"},
        {{"--rope-type", "longrope"}, "--long-factor", "longrope"},
        {{"--long-factor", "1,2,4,8"}, "--long-factor", "--rope-type longrope"},
        {{"--rope-type", "yarn", "--short-factor", "1,2,4,8"}, "--short-factor", "--rope-type longrope"},
    };
    for (const auto& k : refused) {
        r = with(k.extra);
        EXPECT_EQ(r.status, 2) << k.extra.back();
        EXPECT_NE(r.err.find(k.option), std::string::npos) << r.err;
        EXPECT_NE(r.err.find(k.says), std::string::npos) << r.err;
    }
    const fs::path alibi = temp_dir() / "longrope-alibi";
    ASSERT_EQ(run(train(alibi.string(), "alibi")).status, 0);
    r = run({"lab", "eval", alibi.string(), "--long-factor", "1,2,4,8"});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("--long-factor"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("RoPE runs only"), std::string::npos) << r.err;
}

TEST(CliLab, FineTuneBeforeEvaluationSaysSoAndLeavesTheRunFolderUnchanged)
{
    const fs::path dir = temp_dir() / "finetune-run";
    ASSERT_EQ(run(train(dir.string(), "rope")).status, 0);
    std::map<std::string, std::string> before;
    for (const auto& e : fs::directory_iterator(dir))
        before[e.path().filename().string()] = slurp(e.path());
    const fs::path out = temp_dir() / "finetuned";
    const std::vector<std::string> eval{
        "lab",    "eval",     dir.string(), "--lengths",        "12,24", "--sequences",    "8", "--rope-type",
        "linear", "--factor", "2",          "--finetune-steps", "5",     "--finetune-len", "24"};
    std::vector<std::string> a = eval;
    a.insert(a.end(), {"--format", "json", "--finetune-out", out.string()});
    Result r = run(a);
    ASSERT_EQ(r.status, 0) << r.err;
    const nlohmann::json j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["finetune"]["steps"], 5);
    EXPECT_EQ(j["finetune"]["length"], 24);
    const nlohmann::json config = nlohmann::json::parse(slurp(out / "config.json"));
    EXPECT_EQ(config["status"], "complete");
    EXPECT_EQ(config["finetune"]["scaling"]["rope_type"], "linear");
    EXPECT_NE(slurp(out / "command.txt").find("--finetune-steps 5"), std::string::npos);
    r = run(eval);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("fine-tuned before evaluation: 5 steps at length 24"), std::string::npos) << r.out;
    std::map<std::string, std::string> after;
    for (const auto& e : fs::directory_iterator(dir))
        after[e.path().filename().string()] = slurp(e.path());
    EXPECT_EQ(after, before);
    // posatlas-lab's line in the program's language (lab_messages.h).
    RunOptions zh;
    zh.locale = "zh_CN.UTF-8";
    r = run(eval, zh);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out.rfind("评估前先做了微调：在长度 24 上训练 5 步", 0), 0u) << r.out;
    // The output folder is a new one: an existing run is refused before anything runs.
    a = eval;
    a.insert(a.end(), {"--finetune-out", out.string()});
    r = run(a);
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("--out"), std::string::npos) << r.err;
}

TEST(CliLab, FineTuneRefusalsNameTheOption)
{
    const fs::path dir = temp_dir() / "finetune-refused";
    ASSERT_EQ(run(train(dir.string(), "rope")).status, 0);
    const struct {
        std::vector<std::string> extra;
        const char* option;
        const char* says;
    } refused[] = {
        {{"--finetune-steps", "10", "--finetune-len", "0"}, "--finetune-len", "[4, 65536]"},
        {{"--finetune-steps", "10", "--finetune-len", "60000"}, "--finetune-len", "at most"},
        {{"--finetune-steps", "10"}, "--finetune-len", "--finetune-steps"},
        {{"--finetune-len", "24"}, "--finetune-len", "--finetune-steps"},
        {{"--finetune-lr", "0.001"}, "--finetune-lr", "--finetune-steps"},
        {{"--finetune-steps", "0", "--finetune-len", "24"}, "--finetune-steps", "[1, 1000000]"},
        {{"--finetune-steps", "10", "--finetune-len", "24", "--finetune-lr", "2"}, "--finetune-lr", "1"},
    };
    for (const auto& k : refused) {
        std::vector<std::string> a{"lab", "eval", dir.string(), "--lengths", "12"};
        a.insert(a.end(), k.extra.begin(), k.extra.end());
        const Result r = run(a);
        EXPECT_EQ(r.status, 2) << k.extra.back();
        EXPECT_NE(r.err.find(k.option), std::string::npos) << r.err;
        EXPECT_NE(r.err.find(k.says), std::string::npos) << r.err;
    }
}

std::vector<std::string> sweep(const fs::path& out, const std::string& methods, const std::string& lengths)
{
    return {"lab",       "sweep",     "--out",   out.string(),  "--methods",   methods,    "--seeds",
            "1",         "--lengths", lengths,   "--sequences", "8",           "--layers", "1",
            "--d-model", "16",        "--heads", "2",           "--train-len", "12",       "--steps",
            "20",        "--batch",   "8",       "--alphabet",  "6",           "--quiet"};
}

TEST(CliLab, SweepWritesTheTableOfEachRunsOwnEvaluationAndItsFigureAndResumes)
{
    const fs::path dir = temp_dir() / "sweep";
    const Result r = run(sweep(dir, "rope,learned", "12,24"));
    ASSERT_EQ(r.status, 0) << r.err;
    const nlohmann::json j = nlohmann::json::parse(slurp(dir / "sweep.json"));
    ASSERT_EQ(j["rows"].size(), 4u); // 2 methods x 1 seed x 2 lengths
    const std::string csv = slurp(dir / "sweep.csv");
    EXPECT_EQ(csv.rfind("method,seed,length,accuracy,loss\n", 0), 0u) << csv;
    EXPECT_NE(csv.find("learned,0,24,not defined,not defined\n"), std::string::npos) << csv;
    // Each row is what lab eval says of that run (same test sequences: same numbers, bit for bit).
    for (const char* method : {"rope", "learned"}) {
        const Result e = run({"lab", "eval", (dir / method / "seed-0").string(), "--lengths", "12,24",
                              "--sequences", "8", "--format", "json"});
        ASSERT_EQ(e.status, 0) << e.err;
        const nlohmann::json own = nlohmann::json::parse(e.out);
        for (const auto& row : j["rows"]) {
            if (row["method"] == method && row["length"] == 12) {
                EXPECT_EQ(row["accuracy"], own["lengths"][0]["answer_accuracy"]) << method;
            }
        }
    }
    // A figure with something drawn: the mean line of each method with points (a PNG of more than a
    // blank chart, an SVG with the polyline).
    EXPECT_GT(fs::file_size(dir / "sweep.png"), 20000u);
    const std::string svg = slurp(dir / "sweep.svg");
    EXPECT_NE(svg.find("rope"), std::string::npos);
    EXPECT_NE(svg.find("<polyline"), std::string::npos);
    // Again: the complete runs are reused, not trained again.
    const auto weights = fs::last_write_time(dir / "rope" / "seed-0" / "model.safetensors");
    const std::string metrics = slurp(dir / "rope" / "seed-0" / "metrics.jsonl");
    std::vector<std::string> again = sweep(dir, "rope,learned", "12,24");
    again.pop_back(); // --quiet: the progress names the reuse
    const Result second = run(again);
    ASSERT_EQ(second.status, 0) << second.err;
    EXPECT_NE(second.err.find("complete, reused"), std::string::npos) << second.err;
    EXPECT_EQ(second.err.find("training"), std::string::npos) << second.err;
    EXPECT_EQ(fs::last_write_time(dir / "rope" / "seed-0" / "model.safetensors"), weights);
    EXPECT_EQ(slurp(dir / "rope" / "seed-0" / "metrics.jsonl"), metrics);
    EXPECT_EQ(slurp(dir / "sweep.csv"), csv);
    // With other training settings the runs are not the sweep's: refused naming --out and the run,
    // before anything runs; nothing changes.
    std::vector<std::string> longer = sweep(dir, "rope,learned", "12,24");
    const auto steps = std::find(longer.begin(), longer.end(), "--steps");
    ASSERT_NE(steps, longer.end());
    *(steps + 1) = "30";
    const Result other = run(longer);
    EXPECT_EQ(other.status, 2) << other.err;
    EXPECT_NE(other.err.find("--out"), std::string::npos) << other.err;
    EXPECT_NE(other.err.find("rope seed 0 was trained with others"), std::string::npos) << other.err;
    EXPECT_EQ(fs::last_write_time(dir / "rope" / "seed-0" / "model.safetensors"), weights);
    EXPECT_EQ(slurp(dir / "sweep.csv"), csv);
}

TEST(CliLab, SweepRefusesNamingTheOption)
{
    const fs::path dir = temp_dir() / "sweep-refused";
    Result r = run(sweep(dir, "rope,fourier", "12,24"));
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("--methods"), std::string::npos) << r.err;
    std::vector<std::string> a = sweep(dir, "rope", "12,24");
    a[7] = "0"; // --seeds 0
    r = run(a);
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("--seeds"), std::string::npos) << r.err;
    r = run(sweep(dir, "rope", "24,12"));
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("--lengths"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir));
}

TEST(CliLab, ProgressJsonlPrintsOneObjectPerLoggedStep)
{
    // --progress jsonl (for the GUI's Lab window): one JSON object per --log-every steps on standard error.
    const fs::path dir = temp_dir() / "progress-run";
    std::vector<std::string> a = train(dir.string(), "nope");
    a.pop_back(); // --quiet would show nothing
    a.insert(a.end(), {"--log-every", "5", "--progress", "jsonl"});
    const Result t = run(a);
    ASSERT_EQ(t.status, 0) << t.err;
    std::vector<nlohmann::json> lines;
    std::stringstream ss(t.err);
    for (std::string line; std::getline(ss, line);)
        lines.push_back(nlohmann::json::parse(line));
    ASSERT_EQ(lines.size(), 4u) << t.err; // steps 5, 10, 15, 20
    EXPECT_EQ(lines.front()["step"], 5);
    EXPECT_EQ(lines.back()["step"], 20);
    EXPECT_EQ(lines.back()["steps"], 20);
    EXPECT_EQ(lines.back()["seconds_left"], 0.0);
    for (const auto& l : lines) {
        EXPECT_TRUE(l["loss"].is_number());
        EXPECT_GE(l["accuracy"].get<double>(), 0.0);
        EXPECT_LE(l["accuracy"].get<double>(), 1.0);
    }
}

TEST(CliLab, SweepRefusesAFolderThatIsNotASweep)
{
    const fs::path dir = temp_dir() / "not-a-sweep";
    fs::create_directories(dir);
    {
        std::ofstream(dir / "notes.txt") << "mine\n";
    }
    const Result r = run(sweep(dir, "rope", "12,24"));
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("--out"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir / "rope"));
}

} // namespace
} // namespace posatlas::test
