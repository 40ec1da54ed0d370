// SPDX-License-Identifier: GPL-3.0-or-later
// Replays every file of tests/fuzz/corpus/<target>/ through the fuzz targets' entry functions: the seeds
// and every input that once crashed or hung stay regression tests, with any compiler. Inputs too large to
// commit (100000 levels of nesting) are generated here.
#include "fuzz_entries.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>

namespace {

namespace fs = std::filesystem;

std::string slurp(const fs::path& p)
{
    std::ifstream in(p, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

int replay(const std::string& target, const std::function<void(std::string_view)>& entry)
{
    const fs::path dir = fs::path(POSATLAS_FUZZ_CORPUS) / target;
    int n = 0;
    for (const auto& e : fs::directory_iterator(dir)) {
        if (!e.is_regular_file())
            continue;
        SCOPED_TRACE(e.path().string());
        const auto t0 = std::chrono::steady_clock::now();
        EXPECT_NO_THROW(entry(slurp(e.path())));
        EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(10));
        ++n;
    }
    return n;
}

std::string deep(const std::string& prefix, int depth, const std::string& suffix)
{
    return prefix + std::string(static_cast<std::size_t>(depth), '[') +
           std::string(static_cast<std::size_t>(depth), ']') + suffix;
}

} // namespace

TEST(FuzzReplay, ModelConfigCorpus)
{
    EXPECT_GT(replay("model_config", posatlas::fuzz::model_config), 5);
    // The 200 kB crash: 100000 levels under rope_theta (stack overflow in the DOM).
    EXPECT_NO_THROW(
        posatlas::fuzz::model_config(deep(R"({"model_type":"llama","rope_theta":)", 100000, "}")));
    EXPECT_NO_THROW(posatlas::fuzz::model_config(deep("", 1000000, "")));
}

TEST(FuzzReplay, SessionCorpus)
{
    EXPECT_GT(replay("session", posatlas::fuzz::session), 3);
    EXPECT_NO_THROW(posatlas::fuzz::session(
        deep(R"({"format":"posatlas-session","version":1,"scenario":)", 100000, "}")));
}

TEST(FuzzReplay, LearnedCsvCorpus)
{
    EXPECT_GT(replay("learned_csv", posatlas::fuzz::learned_csv), 3);
}

TEST(FuzzReplay, LearnedNpyCorpus)
{
    EXPECT_GT(replay("learned_npy", posatlas::fuzz::learned_npy), 3);
}
