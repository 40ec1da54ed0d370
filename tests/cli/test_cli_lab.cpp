// SPDX-License-Identifier: GPL-3.0-or-later
// `posatlas lab` end to end: a run trained and evaluated, a learned table past its rows reported as not
// defined, bad options and hostile run folders refused with exit status 2 naming the option or the file,
// and nothing written then.
#include "cli_support.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

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

TEST(CliLab, LearnedTablePastItsRowsPrintsNotDefined)
{
    const fs::path dir = temp_dir() / "learned-run";
    ASSERT_EQ(run(train(dir.string(), "learned")).status, 0);
    const Result e = run({"lab", "eval", dir.string(), "--lengths", "12,64", "--sequences", "4"});
    ASSERT_EQ(e.status, 0) << e.err;
    EXPECT_NE(e.out.find("64\tnot defined"), std::string::npos) << e.out;
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

} // namespace
} // namespace posatlas::test
