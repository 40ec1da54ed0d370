// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli_lab_process.h"

#include "cli_i18n.h"
#include "cli_options.h"
#include "lab/lab_messages.h"
#include "lab/lab_sweep.h"
#include "lab/lab_sweep_runner.h"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace posatlas::cli {

namespace {

std::atomic<pid_t> g_child{0};

std::string& search_dir()
{
    static std::string dir;
    return dir;
}

extern "C" void pass_on(int signal)
{
    const pid_t child = g_child.load();
    if (child > 0)
        ::kill(child, signal);
}

} // namespace

void set_lab_search_dir(const std::string& dir)
{
    search_dir() = dir;
}

std::string find_lab_executable()
{
    return lab::find_lab_executable(search_dir());
}

int run_lab_process(const std::vector<std::string>& args, std::string* captured)
{
    const std::string exe = find_lab_executable();
    if (exe.empty())
        throw UsageError(translate("Cli", "the lab is not installed: posatlas-lab was found neither beside "
                                          "posatlas nor in its libexec folder (a build without LibTorch)"));
    std::vector<std::string> words{exe};
    words.insert(words.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (std::string& w : words)
        argv.push_back(w.data());
    argv.push_back(nullptr);
    // The environment with the lab's texts in this language.
    std::vector<std::string> env_words;
    for (char** e = environ; *e; ++e)
        if (std::strncmp(*e, lab::kLabMessagesVariable, std::strlen(lab::kLabMessagesVariable)) != 0 ||
            (*e)[std::strlen(lab::kLabMessagesVariable)] != '=')
            env_words.emplace_back(*e);
    env_words.push_back(std::string(lab::kLabMessagesVariable) + '=' + ui::lab_messages_catalogue());
    std::vector<char*> envp;
    for (std::string& w : env_words)
        envp.push_back(w.data());
    envp.push_back(nullptr);

    int pipe_fds[2] = {-1, -1};
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    if (captured) {
        if (::pipe2(pipe_fds, O_CLOEXEC) != 0)
            throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
        posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDOUT_FILENO);
    }
    // The child starts with the default dispositions and no blocked signals, whatever this process had.
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    sigset_t none, defaults;
    sigemptyset(&none);
    sigemptyset(&defaults);
    sigaddset(&defaults, SIGINT);
    sigaddset(&defaults, SIGTERM);
    sigaddset(&defaults, SIGPIPE);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setsigdefault(&attr, &defaults);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);

    // While the child runs, SIGINT and SIGTERM are passed on to it: the program waits for it to stop.
    struct sigaction sa {
    }, old_int{}, old_term{};
    sa.sa_handler = pass_on;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    pid_t pid = 0;
    const int spawned = ::posix_spawn(&pid, exe.c_str(), &actions, &attr, argv.data(), envp.data());
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    if (captured)
        ::close(pipe_fds[1]);
    int status = 0;
    if (spawned == 0) {
        g_child = pid;
        if (captured) {
            char buf[65536];
            for (;;) {
                const ssize_t n = ::read(pipe_fds[0], buf, sizeof buf);
                if (n > 0)
                    captured->append(buf, static_cast<std::size_t>(n));
                else if (n == 0 || errno != EINTR)
                    break;
            }
        }
        while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
        g_child = 0;
    }
    if (captured)
        ::close(pipe_fds[0]);
    sigaction(SIGINT, &old_int, nullptr);
    sigaction(SIGTERM, &old_term, nullptr);
    if (spawned != 0)
        throw UsageError(arg(translate("Cli", "cannot start %1: %2"), {exe, std::strerror(spawned)}));
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : 1;
}

} // namespace posatlas::cli
