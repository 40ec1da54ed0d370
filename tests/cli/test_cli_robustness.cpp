// SPDX-License-Identifier: GPL-3.0-or-later
// The real `posatlas` binary against hostile input and failing outputs: every case must end quickly with
// exit status 2 and one line on stderr (or succeed where the input is fine), never crash, hang or exit 1.
#include "cli_support.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;

using posatlas::test::Result;
using posatlas::test::slurp;
using posatlas::test::temp_dir;
using posatlas::test::write_file;

// Runs the binary with a 60 s timeout (a hang fails the test instead of the suite). `stdout_to` replaces
// the captured stdout (e.g. /dev/full).
Result run(const std::vector<std::string>& args, const std::string& stdout_to = {})
{
    return posatlas::test::run(args, {stdout_to, 60});
}

bool one_line(const std::string& s)
{
    return !s.empty() && s.back() == '\n' && s.find('\n') == s.size() - 1;
}

bool has_control_bytes(const std::string& s)
{
    for (std::size_t i = 0; i + 1 < s.size(); ++i) // the final newline is fine
        if (static_cast<unsigned char>(s[i]) < 0x20 || s[i] == 0x7F)
            return true;
    return false;
}

void expect_bad_input(const Result& r, const std::string& needle)
{
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_TRUE(one_line(r.err)) << r.err;
    EXPECT_EQ(r.err.find("internal error"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(needle), std::string::npos) << r.err;
    EXPECT_FALSE(has_control_bytes(r.err)) << r.err;
    EXPECT_LT(r.err.size(), 600u) << "the message must not dump the input";
}

std::string deep_config(int depth)
{
    return "{\"model_type\":\"llama\",\"rope_theta\":" + std::string(static_cast<std::size_t>(depth), '[') +
           "1" + std::string(static_cast<std::size_t>(depth), ']') + "}";
}

} // namespace

TEST(CliRobustness, SpectrumOfARatioEqualToOneFinishesAndWritesPng)
{
    // llama3 with factor 1: theta'/theta = 1 +- 1e-16; tick placement used to loop until memory ran out.
    const fs::path png = temp_dir() / "x.png";
    const Result r = run({"export", "--view", "spectrum", "--head-dim", "128", "--rope-type", "llama3",
                          "--factor", "1", "--max-position-embeddings", "2048", "--width", "600", "--height",
                          "400", "--dpi", "96", "--out", png.string()});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_LT(r.seconds, 30.0);
    const std::string bytes = slurp(png);
    ASSERT_GT(bytes.size(), 8u);
    EXPECT_EQ(bytes.substr(1, 3), "PNG");
}

TEST(CliRobustness, DeeplyNestedConfigAndSessionExitTwo)
{
    const fs::path cfg = write_file("deep.json", deep_config(100000));
    expect_bad_input(run({"compute", "rope-frequencies", "--config", cfg.string()}), "nested deeper than 64");
    const std::string session = R"({"format":"posatlas-session","version":1,"scenario":)" +
                                std::string(100000, '[') + std::string(100000, ']') + "}";
    const fs::path ses = write_file("deep.posatlas.json", session);
    expect_bad_input(run({"export", "--session", ses.string(), "--view", "heatmap", "--out",
                          (temp_dir() / "deep.png").string()}),
                     "nested deeper than 64");
    EXPECT_FALSE(fs::exists(temp_dir() / "deep.png"));
}

TEST(CliRobustness, NumberOverflowInConfigExitsTwo)
{
    const fs::path cfg = write_file("overflow.json", R"({"model_type": "llama", "rope_theta": 1e400})");
    expect_bad_input(run({"compute", "rope-frequencies", "--config", cfg.string()}), "overflow.json");
}

TEST(CliRobustness, BadLearnedTableExitsTwoWithEscapedField)
{
    const fs::path csv = write_file("bad.csv", "1,2\n3,\x1b[31mred\n");
    const Result r =
        run({"compute", "matrix", "--method", "learned", "--table", csv.string(), "--seq-len", "2"});
    expect_bad_input(r, "\\x1b[31mred");
}

TEST(CliRobustness, DevicesAndFifosAreRefusedAtOnce)
{
    const fs::path zero = temp_dir() / "z.posatlas.json";
    fs::remove(zero);
    fs::create_symlink("/dev/zero", zero);
    Result r = run({"export", "--session", zero.string(), "--view", "heatmap", "--out",
                    (temp_dir() / "z.png").string()});
    expect_bad_input(r, "not a regular file");
    EXPECT_LT(r.seconds, 30.0);

    const fs::path fifo = temp_dir() / "config_fifo.json";
    fs::remove(fifo);
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    r = run({"compute", "rope-frequencies", "--config", fifo.string()});
    expect_bad_input(r, "FIFO");
    EXPECT_LT(r.seconds, 30.0);

    const fs::path table = temp_dir() / "table_fifo.csv";
    fs::remove(table);
    ASSERT_EQ(::mkfifo(table.c_str(), 0600), 0);
    r = run({"compute", "matrix", "--method", "learned", "--table", table.string(), "--seq-len", "2"});
    expect_bad_input(r, "FIFO");
}

TEST(CliRobustness, WriteErrorOnStdoutExitsTwo)
{
    const Result r = run({"compute", "rope-frequencies", "--preset", "llama-2-7b"}, "/dev/full");
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_TRUE(one_line(r.err)) << r.err;
    EXPECT_NE(r.err.find("cannot write to standard output"), std::string::npos) << r.err;
}

TEST(CliRobustness, ValueFromConfigNamesFileAndKey)
{
    const fs::path cfg =
        write_file("config.json", R"({"model_type": "llama", "head_dim": -64, "hidden_size": 4096,
                                                      "num_attention_heads": 32})");
    const Result r = run({"compute", "rope-frequencies", "--config", cfg.string()});
    expect_bad_input(r, cfg.string() + ": head_dim must be an even integer in [2, 8192] (got -64)");
    EXPECT_EQ(r.err.find("--head-dim"), std::string::npos) << r.err;
    // The same value typed as an option names the option.
    const Result typed = run({"compute", "rope-frequencies", "--config", cfg.string(), "--head-dim", "-64"});
    EXPECT_EQ(typed.status, 2) << typed.err;
    EXPECT_NE(typed.err.find("--head-dim"), std::string::npos) << typed.err;
}

TEST(CliRobustness, MemoryAndWorkBudgetsNameTheOptionAndLargestValue)
{
    // 2^26 elements of sinusoidal JSON took 3.6 GB and 88 s.
    Result r = run({"compute", "sinusoidal", "--length", "524288", "--dim", "128"});
    expect_bad_input(r, "--length must be at most ");
    EXPECT_NE(r.err.find("1024 MiB memory budget"), std::string::npos) << r.err;
    EXPECT_LT(r.seconds, 10.0);

    std::string many;
    for (int i = 0; i < 65; ++i)
        many.append(many.empty() ? "" : ",").append(std::to_string(16 + i)); // append(): GCC 12 -Wrestrict
    r = run({"compute", "attention-entropy", "--head-dim", "64", "--lengths", many});
    expect_bad_input(r, "--lengths must list at most 64 lengths");

    r = run({"compute", "attention-entropy", "--head-dim", "64", "--lengths", "10000000"});
    expect_bad_input(r, "--lengths must add up to at most ");
    EXPECT_LT(r.seconds, 10.0);

    r = run({"export", "--view", "decay", "--head-dim", "64", "--width", "20000", "--height", "20000",
             "--dpi", "96", "--out", (temp_dir() / "big.png").string()});
    expect_bad_input(r, "dpi must be at most 55");
    EXPECT_FALSE(fs::exists(temp_dir() / "big.png"));
}

TEST(CliRobustness, NtkOnATooSmallHeadNamesTheOptionGiven)
{
    // The whole head rotates: the head size is what is too small, not the rotary fraction.
    Result r = run({"compute", "rope-frequencies", "--rope-type", "ntk", "--head-dim", "2"});
    expect_bad_input(r, "--head-dim must be at least 4 for rope_type ntk");
    EXPECT_EQ(r.err.find("partial-rotary-factor"), std::string::npos) << r.err;
    // A fraction of it rotates: the fraction is named, with the head size it applies to.
    r = run({"compute", "rope-frequencies", "--rope-type", "ntk", "--head-dim", "8",
             "--partial-rotary-factor", "0.25"});
    expect_bad_input(r, "--partial-rotary-factor must be such that rotary_dim");
    EXPECT_NE(r.err.find("of head_dim 8"), std::string::npos) << r.err;
}

TEST(CliRobustness, RopeScoreThatOverflowsExitsTwo)
{
    for (const char* format : {"json", "csv"}) {
        SCOPED_TRACE(format);
        const Result r = run(
            {"compute", "rope-score", "--query", "1e200,1,1,1", "--key", "1e200,1,1,1", "--format", format});
        expect_bad_input(r, "--query and --key give a score that overflows a double");
        EXPECT_EQ(r.out, "");
    }
    // Large but finite is a number.
    const Result r = run({"compute", "rope-score", "--query", "1e150,1,1,1", "--key", "1e150,1,1,1"});
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("\"score\":"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("null"), std::string::npos) << r.out;
}

TEST(CliRobustness, OptionValuesAreEscapedInMessages)
{
    const Result r = run({"compute", "matrix", "--method", "rope\x1b[2J\xff"});
    expect_bad_input(r, "rope\\x1b[2J\\xff");
}
