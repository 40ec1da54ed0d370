// SPDX-License-Identifier: GPL-3.0-or-later
// Replays every file of tests/fuzz/corpus/<target>/ through the fuzz targets' entry functions: the seeds
// and every input that once crashed or hung stay regression tests, with any compiler. Inputs too large to
// commit (100000 levels of nesting) are generated here.
#include "fuzz_entries.h"
#include "memory_limit.h"

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

// A message must be in PosAtlas's words: never the JSON library's "[json.exception.parse_error.101] ...".
void expect_plain(const std::string& message)
{
    EXPECT_EQ(message.find("json.exception"), std::string::npos) << message;
}

int replay(const std::string& target, const std::function<std::string(std::string_view)>& entry)
{
    const fs::path dir = fs::path(POSATLAS_FUZZ_CORPUS) / target;
    int n = 0;
    for (const auto& e : fs::directory_iterator(dir)) {
        if (!e.is_regular_file())
            continue;
        SCOPED_TRACE(e.path().string());
        const auto t0 = std::chrono::steady_clock::now();
        EXPECT_NO_THROW(expect_plain(entry(slurp(e.path()))));
        EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(10));
        ++n;
    }
    return n;
}

// Every prefix of every corpus file, and each with its last byte replaced by characters that break JSON:
// thousands of syntax errors, every one of which must be reported in plain words.
int replay_broken(const std::string& target, const std::function<std::string(std::string_view)>& entry)
{
    int messages = 0;
    for (const auto& e : fs::directory_iterator(fs::path(POSATLAS_FUZZ_CORPUS) / target)) {
        const std::string bytes = slurp(e.path());
        SCOPED_TRACE(e.path().string());
        for (std::size_t n = 0; n <= bytes.size(); ++n) {
            std::string cut = bytes.substr(0, n);
            for (const char* tail : {"", "x", "}", "\"\n", "1e999", "\\u12", "-", "\xff"}) {
                const std::string message = entry(cut + tail);
                expect_plain(message);
                messages += message.empty() ? 0 : 1;
            }
        }
    }
    return messages;
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

TEST(FuzzReplay, BrokenConfigsAndSessionsAreReportedInPlainWords)
{
    EXPECT_GT(replay_broken("model_config", posatlas::fuzz::model_config), 1000);
    EXPECT_GT(replay_broken("session", posatlas::fuzz::session), 1000);
}

#ifndef POSATLAS_SANITIZED
// The README's promise: one request takes at most 1 GiB, also for the largest files accepted (a session
// of 64 MiB, a config of 16 MiB) made of tiny values under one unknown key (a 62 MB session took 1.55 GB).
TEST(FuzzReplay, LargestSessionAndConfigReadWithinOneGibibyte)
{
    const auto zeros = [](std::string head, std::size_t bytes) {
        head += "[";
        head.reserve(bytes + 8);
        while (head.size() + 4 < bytes)
            head += "0,";
        return head + "0]}";
    };
    const std::string session = zeros(
        R"({"format":"posatlas-session","version":1,"scenario":{"method":"rope"},"unknown":)", 62'000'000);
    const std::string config = zeros(R"({"model_type":"llama","rope_theta":10000,"unknown":)", 16'000'000);
    using posatlas::test::run_with_memory_limit;
    EXPECT_EQ(run_with_memory_limit(std::uint64_t{1} << 30, [&] { posatlas::fuzz::session(session); }),
              posatlas::test::kBodyReturned);
    EXPECT_EQ(run_with_memory_limit(std::uint64_t{1} << 30, [&] { posatlas::fuzz::model_config(config); }),
              posatlas::test::kBodyReturned);
}
#endif

TEST(FuzzReplay, LearnedCsvCorpus)
{
    EXPECT_GT(replay("learned_csv", posatlas::fuzz::learned_csv), 3);
}

TEST(FuzzReplay, LearnedNpyCorpus)
{
    EXPECT_GT(replay("learned_npy", posatlas::fuzz::learned_npy), 3);
}
