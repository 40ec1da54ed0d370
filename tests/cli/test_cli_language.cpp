// SPDX-License-Identifier: GPL-3.0-or-later
// The command line speaks the language of its environment, as the GUI does: LANG=zh_CN.UTF-8 gives
// Chinese help and messages from the same translations, LANG=C English. Option names, numbers and
// everything machine-readable stay the same in every language.
#include "cli_support.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

using namespace posatlas::test;

const std::string kChinese = "zh_CN.UTF-8";
const std::string kEnglish = "C";

Result run_in(const std::string& locale, const std::vector<std::string>& args)
{
    RunOptions options;
    options.locale = locale;
    return run(args, options);
}

std::vector<std::string> lines(const std::string& text)
{
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        out.push_back(line);
    return out;
}

// A line of English prose: three lower-case words in a row ("print this help"), not a command synopsis
// or a section title ("posatlas compute rope-decay"), which stay as typed.
// Three whole words (runs of letters, digits and '_') each of two or more lower-case letters, one space
// apart. Written out rather than as std::regex: GCC 12 warns -Wmaybe-uninitialized inside <regex> when
// optimising, which the sanitizer build's -Werror turns into a failure.
bool prose(const std::string& line)
{
    const std::size_t start = line.find_first_not_of(' ');
    if (start == std::string::npos || line.compare(start, 9, "posatlas ") == 0)
        return false;
    const auto word_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
    int run = 0; // lower-case words so far, each one space after the last
    for (std::size_t i = 0; i < line.size();) {
        if (!word_char(line[i])) {
            if (line[i] != ' ' || i + 1 >= line.size() || !word_char(line[i + 1]) ||
                (i > 0 && !word_char(line[i - 1])))
                run = 0; // not a single space between two words
            ++i;
            continue;
        }
        std::size_t end = i;
        bool lower = true;
        while (end < line.size() && word_char(line[end])) {
            lower = lower && line[end] >= 'a' && line[end] <= 'z';
            ++end;
        }
        run = lower && end - i >= 2 ? run + 1 : 0;
        if (run == 3)
            return true;
        i = end;
    }
    return false;
}

bool has_chinese(const std::string& text)
{
    // U+4E00..U+9FFF are E4 B8 80 .. E9 BF BF in UTF-8.
    for (std::size_t i = 0; i + 2 < text.size(); ++i) {
        const auto b = static_cast<unsigned char>(text[i]);
        if (b >= 0xE4 && b <= 0xE9)
            return true;
    }
    return false;
}

// Every English prose line is translated: none of them is left as it was in the Chinese text.
void expect_translated(const std::string& english, const std::string& chinese)
{
    const std::vector<std::string> zh = lines(chinese);
    const std::set<std::string> zh_lines(zh.begin(), zh.end());
    int prose_lines = 0;
    for (const std::string& line : lines(english)) {
        if (!prose(line))
            continue;
        ++prose_lines;
        EXPECT_EQ(zh_lines.count(line), 0u) << "left in English: " << line;
    }
    EXPECT_GT(prose_lines, 10);
}

TEST(CliLanguage, HelpIsChineseUnderAChineseLocaleWithEnglishOptionNames)
{
    const Result en = run_in(kEnglish, {"--help"});
    const Result zh = run_in(kChinese, {"--help"});
    ASSERT_EQ(en.status, 0) << en.err;
    ASSERT_EQ(zh.status, 0) << zh.err;
    EXPECT_FALSE(has_chinese(en.out));
    EXPECT_NE(en.out.find("usage: posatlas [FILE]"), std::string::npos);
    EXPECT_NE(en.out.find("print this help and exit"), std::string::npos);
    EXPECT_NE(zh.out.find("用法：posatlas [FILE]"), std::string::npos) << zh.out;
    EXPECT_NE(zh.out.find("打印本帮助并退出"), std::string::npos) << zh.out;
    EXPECT_NE(zh.out.find("  -h, --help"), std::string::npos);
    EXPECT_NE(zh.out.find("  compute QUANTITY"), std::string::npos);
    EXPECT_NE(zh.out.find("rope-frequencies  RoPE 的逆频率"), std::string::npos) << zh.out;
    expect_translated(en.out, zh.out);
}

TEST(CliLanguage, EveryCommandsAndQuantitysHelpIsTranslated)
{
    const Result en = run_in(kEnglish, {"help", "--all"});
    const Result zh = run_in(kChinese, {"help", "--all"});
    ASSERT_EQ(en.status, 0) << en.err;
    ASSERT_EQ(zh.status, 0) << zh.err;
    EXPECT_FALSE(has_chinese(en.out));
    // The registry's labels and tooltips in the GUI's words, the option names as typed.
    EXPECT_NE(zh.out.find("--rope-theta X"), std::string::npos);
    EXPECT_NE(zh.out.find("基数 θ"), std::string::npos);
    EXPECT_NE(zh.out.find("注意力权重"), std::string::npos);
    EXPECT_NE(zh.out.find("默认值：10000"), std::string::npos);
    expect_translated(en.out, zh.out);
    // Each section of the man page's text is there in both, under the same title.
    const auto titles = [](const std::string& text) {
        std::vector<std::string> out;
        const std::vector<std::string> all = lines(text);
        for (std::size_t i = 1; i < all.size(); ++i)
            if (all[i - 1].find_first_not_of('=') == std::string::npos && !all[i - 1].empty())
                out.push_back(all[i]);
        return out;
    };
    EXPECT_GT(titles(en.out).size(), 10u);
    EXPECT_EQ(titles(en.out), titles(zh.out));
}

TEST(CliLanguage, ErrorMessagesFollowTheLocaleAndNameTheOption)
{
    const std::vector<std::string> bad_value{"compute", "rope-frequencies", "--rope-theta", "-1"};
    const Result en = run_in(kEnglish, bad_value);
    const Result zh = run_in(kChinese, bad_value);
    EXPECT_EQ(en.status, 2);
    EXPECT_EQ(zh.status, 2);
    EXPECT_EQ(en.err, "posatlas: --rope-theta must be > 1 and <= 1e+12 (got -1.0)\n");
    EXPECT_EQ(zh.err, "posatlas: --rope-theta 必须是 > 1 且 <= 1e+12（当前为 -1.0）\n");

    const std::vector<std::string> unknown{"compute", "nonsense"};
    const Result en2 = run_in(kEnglish, unknown);
    const Result zh2 = run_in(kChinese, unknown);
    EXPECT_EQ(en2.status, 2);
    EXPECT_EQ(zh2.status, 2);
    EXPECT_EQ(en2.err.rfind("posatlas: unknown quantity 'nonsense'; one of rope-frequencies, ", 0), 0u)
        << en2.err;
    EXPECT_EQ(zh2.err.rfind("posatlas: 未知的量“nonsense”；可选 rope-frequencies, ", 0), 0u) << zh2.err;

    const Result en3 = run_in(kEnglish, {"compute", "rope-decay", "--max-distance", "ten"});
    const Result zh3 = run_in(kChinese, {"compute", "rope-decay", "--max-distance", "ten"});
    EXPECT_EQ(en3.err, "posatlas: --max-distance must be an integer in [0, 100000000] (got 'ten')\n");
    EXPECT_EQ(zh3.err, "posatlas: --max-distance 必须是 [0, 100000000] 内的整数（当前为“ten”）\n");
}

TEST(CliLanguage, MachineReadableOutputIsTheSameInEveryLanguage)
{
    const std::vector<std::vector<std::string>> commands{
        {"compute", "rope-frequencies", "--preset", "llama-3.1-8b"},
        {"compute", "rope-pairs", "--preset", "yarn-llama-2-7b-64k", "--format", "csv"},
        {"compute", "matrix", "--method", "alibi", "--kind", "weights", "--seq-len", "12", "--format", "csv"},
        {"compute", "scenario", "--preset", "bloom-560m", "--causal"},
        {"compute", "attention-entropy", "--preset", "llama-3.1-8b", "--lengths", "16,64"},
        {"presets", "--format", "json"},
    };
    for (const auto& args : commands) {
        const Result en = run_in(kEnglish, args);
        const Result zh = run_in(kChinese, args);
        ASSERT_EQ(en.status, 0) << args[1] << ": " << en.err;
        ASSERT_EQ(zh.status, 0) << args[1] << ": " << zh.err;
        EXPECT_FALSE(en.out.empty());
        EXPECT_EQ(en.out, zh.out) << args[1];
        EXPECT_FALSE(has_chinese(zh.out)) << args[1];
    }
}

} // namespace
