// SPDX-License-Identifier: GPL-3.0-or-later
// What the command-line tests share: a scratch folder per test process, files read and written whole,
// and the real `posatlas` binary (POSATLAS_EXE) run through the shell with its stdout and stderr captured.
#pragma once

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <system_error>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

namespace posatlas::test {

namespace fs = std::filesystem;

struct Result {
    int status = -1; // exit status, or 128 + signal
    std::string out, err;
    double seconds = 0; // wall time of the run
};

// `s` as one single-quoted shell word.
inline std::string quote(const std::string& s)
{
    std::string q = "'";
    for (char c : s)
        q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

inline std::string slurp(const fs::path& p)
{
    std::ifstream in(p, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// A folder of this test process's own (ctest runs each test in a process of its own), removed with
// everything in it when the process exits: a run of the suite left one per test case behind (some with
// a screenshot set of 20 MB), 1.5 GB in /tmp after a few days of runs.
class ProcessTempDir
{
public:
    ProcessTempDir()
        : m_path(fs::temp_directory_path() / ("posatlas_cli_tests_" + std::to_string(::getpid())))
    {
        fs::create_directories(m_path);
    }
    ~ProcessTempDir()
    {
        std::error_code ignored; // at exit: nothing left to report to
        fs::remove_all(m_path, ignored);
    }
    ProcessTempDir(const ProcessTempDir&) = delete;
    ProcessTempDir& operator=(const ProcessTempDir&) = delete;
    const fs::path& path() const { return m_path; }

private:
    fs::path m_path;
};

inline fs::path temp_dir()
{
    static const ProcessTempDir dir;
    return dir.path();
}

inline fs::path write_file(const std::string& name, const std::string& bytes)
{
    const fs::path p = temp_dir() / name;
    std::ofstream(p, std::ios::binary) << bytes;
    return p;
}

struct RunOptions {
    std::string stdout_to;   // a file that takes stdout instead of the capture (e.g. /dev/full)
    int timeout_seconds = 0; // > 0: killed after that long (coreutils `timeout`), so a hang fails the test
    // Not empty: the run's locale is exactly LANG=locale (LC_ALL, LC_MESSAGES and LANGUAGE unset), which
    // chooses the language of help and messages.
    std::string locale;
};

#ifdef POSATLAS_EXE
// Runs `posatlas args...` with stdin from /dev/null; stdout and stderr go through files in temp_dir().
inline Result run(const std::vector<std::string>& args, const RunOptions& options = {})
{
    static int counter = 0;
    const fs::path out = temp_dir() / ("out" + std::to_string(counter) + ".txt");
    const fs::path err = temp_dir() / ("err" + std::to_string(counter++) + ".txt");
    std::string cmd;
    if (options.timeout_seconds > 0)
        cmd.append("timeout -s KILL ").append(std::to_string(options.timeout_seconds)).append(" ");
    if (!options.locale.empty())
        cmd.append("env -u LC_ALL -u LC_MESSAGES -u LANGUAGE LANG=")
            .append(quote(options.locale))
            .append(" ");
    cmd.append(quote(POSATLAS_EXE));
    // append() rather than "literal" + std::string: GCC 12 -O2 warns falsely (-Wrestrict) on the latter.
    for (const auto& a : args)
        cmd.append(" ").append(quote(a));
    cmd.append(" >").append(quote(options.stdout_to.empty() ? out.string() : options.stdout_to));
    cmd.append(" 2>").append(quote(err.string())).append(" </dev/null");
    const auto t0 = std::chrono::steady_clock::now();
    const int raw = std::system(cmd.c_str());
    Result r;
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
    r.out = options.stdout_to.empty() ? slurp(out) : std::string();
    r.err = slurp(err);
    return r;
}
#endif

} // namespace posatlas::test
