// SPDX-License-Identifier: GPL-3.0-or-later
// How `posatlas` starts: the GUI without a display (one line and exit status 2, never an abort), files
// on the command line routed to the GUI rather than taken for commands, and the bash completion script
// generated from the parser's own option sets. Each test runs the real binary with an environment it
// controls (fork + execv), not the one ctest gives the other CLI tests.
#include "cli_support.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;

using namespace posatlas::test;

// Runs `program args...` with the variables in `unset` removed from the environment.
Result run_with_env(const std::string& program, const std::vector<std::string>& args,
                    const std::vector<std::string>& unset)
{
    static int counter = 0;
    const fs::path out = temp_dir() / ("env_out" + std::to_string(counter) + ".txt");
    const fs::path err = temp_dir() / ("env_err" + std::to_string(counter++) + ".txt");
    const pid_t pid = ::fork();
    if (pid == 0) {
        for (const auto& name : unset)
            ::unsetenv(name.c_str());
        const int in_fd = ::open("/dev/null", O_RDONLY);
        const int out_fd = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        const int err_fd = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (in_fd < 0 || out_fd < 0 || err_fd < 0)
            ::_exit(126);
        ::dup2(in_fd, 0);
        ::dup2(out_fd, 1);
        ::dup2(err_fd, 2);
        std::vector<char*> argv{const_cast<char*>(program.c_str())};
        for (const auto& a : args)
            argv.push_back(const_cast<char*>(a.c_str()));
        argv.push_back(nullptr);
        ::execv(program.c_str(), argv.data());
        ::_exit(127);
    }
    int raw = 0;
    ::waitpid(pid, &raw, 0);
    Result r;
    r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
    r.out = slurp(out);
    r.err = slurp(err);
    return r;
}

const std::vector<std::string> kNoDisplay{"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"};

void expect_no_display_line(const Result& r)
{
    EXPECT_EQ(r.status, 2) << r.err; // 134 (SIGABRT in Qt's xcb plugin) before
    EXPECT_TRUE(r.out.empty()) << r.out;
    ASSERT_FALSE(r.err.empty());
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find("no display"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("posatlas gallery --out DIR"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("QT_QPA_PLATFORM=offscreen"), std::string::npos) << r.err;
}

TEST(CliLaunch, GuiWithoutDisplaySaysSoAndExitsTwo)
{
    expect_no_display_line(run_with_env(POSATLAS_EXE, {}, kNoDisplay));
}

TEST(CliLaunch, FileArgumentGoesToTheGuiNotTheCommandLine)
{
    // `posatlas FILE` (the desktop entry's Exec=posatlas %f) asks for the window: without a display
    // that is the no-display line, not "unknown command".
    const fs::path config = fs::path(POSATLAS_TEST_DATA) / "configs" / "llama_tiny.json";
    ASSERT_TRUE(fs::exists(config)) << config;
    expect_no_display_line(run_with_env(POSATLAS_EXE, {config.string()}, kNoDisplay));
    const fs::path missing = temp_dir() / "missing.posatlas.json";
    expect_no_display_line(run_with_env(POSATLAS_EXE, {missing.string()}, kNoDisplay));
    // A word that is neither a command nor a file is still an unknown command.
    const Result r = run_with_env(POSATLAS_EXE, {"frobnicate"}, kNoDisplay);
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("unknown command 'frobnicate'"), std::string::npos) << r.err;
    // And the command line itself never needs a display.
    const Result v = run_with_env(POSATLAS_EXE, {"--version"}, kNoDisplay);
    EXPECT_EQ(v.status, 0) << v.err;
}

// ------------------------------------------------------------------ bash completion

fs::path completion_script()
{
    static const fs::path script = [] {
        const Result r = run_with_env(POSATLAS_EXE, {"completion", "bash"}, {});
        EXPECT_EQ(r.status, 0) << r.err;
        const fs::path p = temp_dir() / "posatlas.bash";
        std::ofstream(p) << r.out;
        return p;
    }();
    return script;
}

// The words bash would offer after `line` (the last word is the one being completed).
std::set<std::string> complete(const std::string& line)
{
    const fs::path driver = temp_dir() / "complete.sh";
    std::ofstream(driver) << "source \"$1\"\n"
                             "read -ra COMP_WORDS <<< \"$2\"\n"
                             "[[ $2 == *' ' ]] && COMP_WORDS+=('')\n"
                             "COMP_CWORD=$((${#COMP_WORDS[@]} - 1))\n"
                             "_posatlas\n"
                             "printf '%s\\n' \"${COMPREPLY[@]}\"\n";
    const Result r = run_with_env("/bin/bash", {driver.string(), completion_script().string(), line}, {});
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(r.err.empty()) << r.err;
    std::set<std::string> words;
    std::istringstream lines(r.out);
    for (std::string w; std::getline(lines, w);)
        if (!w.empty())
            words.insert(w);
    return words;
}

// The options the parser lists when it refuses an unknown one: "this command accepts --a, --b".
std::set<std::string> accepted_by_parser(std::vector<std::string> args)
{
    args.push_back("--no-such-option");
    const Result r = run_with_env(POSATLAS_EXE, args, {});
    EXPECT_EQ(r.status, 2);
    const std::string marker = "accepts ";
    const auto at = r.err.find(marker);
    EXPECT_NE(at, std::string::npos) << r.err;
    std::set<std::string> names;
    if (at == std::string::npos)
        return names;
    std::istringstream list(r.err.substr(at + marker.size()));
    for (std::string name; std::getline(list, name, ',');) {
        name.erase(0, name.find_first_not_of(" \n"));
        name.erase(name.find_last_not_of(" \n") + 1);
        names.insert(name);
    }
    return names;
}

TEST(CliCompletion, CompletesCommandsQuantitiesOptionsAndPresets)
{
    EXPECT_EQ(complete("posatlas exp"), (std::set<std::string>{"export"}));
    EXPECT_EQ(complete("posatlas compute rope-sc"), (std::set<std::string>{"rope-score"}));
    EXPECT_EQ(complete("posatlas compute rope-score --query-p"), (std::set<std::string>{"--query-position"}));
    EXPECT_EQ(complete("posatlas export --vi"), (std::set<std::string>{"--view"}));
    EXPECT_EQ(complete("posatlas export --preset llama-3"), (std::set<std::string>{"llama-3.1-8b"}));
    // The value after an option that takes one is skipped; a flag takes none.
    EXPECT_EQ(complete("posatlas compute alibi-slopes --num-heads 8 --caus"),
              (std::set<std::string>{"--causal"}));
    EXPECT_EQ(complete("posatlas export --linear-x --ou"), (std::set<std::string>{"--out"}));
    // --out completes file names.
    std::ofstream(temp_dir() / "completion-target.png") << "x";
    EXPECT_EQ(complete("posatlas export --out " + (temp_dir() / "completion-tar").string()),
              (std::set<std::string>{(temp_dir() / "completion-target.png").string()}));
}

struct ContextCase {
    std::string name;
    std::vector<std::string> command; // as typed, before the options
};

class CompletionMatchesParser : public ::testing::TestWithParam<ContextCase>
{
};

TEST_P(CompletionMatchesParser, OffersExactlyTheOptionsTheParserAccepts)
{
    std::string line = "posatlas";
    for (const auto& w : GetParam().command)
        line += " " + w;
    const std::set<std::string> offered = complete(line + " --");
    const std::set<std::string> accepted = accepted_by_parser(GetParam().command);
    EXPECT_FALSE(accepted.empty());
    EXPECT_EQ(offered, accepted);
}

INSTANTIATE_TEST_SUITE_P(
    Cli, CompletionMatchesParser,
    ::testing::Values(ContextCase{"Export", {"export"}}, ContextCase{"Gallery", {"gallery"}},
                      ContextCase{"Screenshots", {"screenshots"}}, ContextCase{"Presets", {"presets"}},
                      ContextCase{"Models", {"models"}}, ContextCase{"Download", {"download"}},
                      ContextCase{"RopeScore", {"compute", "rope-score"}},
                      ContextCase{"Matrix", {"compute", "matrix"}},
                      ContextCase{"Learned", {"compute", "learned"}}),
    [](const auto& info) { return info.param.name; });

} // namespace
