// SPDX-License-Identifier: GPL-3.0-or-later
// Runs code under a memory limit the way a user's machine would impose one: in a forked child whose
// address space (RLIMIT_AS) may grow by at most a given number of bytes beyond what it has mapped at the
// fork. An allocation past the limit then throws std::bad_alloc instead of swapping the test machine.
// Sanitizer builds reserve terabytes of shadow memory and cannot run under RLIMIT_AS: the tests that use
// this are compiled only when POSATLAS_SANITIZED is not defined (tests/CMakeLists.txt).
#pragma once

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <new>
#include <string>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace posatlas::test {

// Exit statuses of the child.
inline constexpr int kBodyReturned = 0;
inline constexpr int kOutOfMemory = 3;
inline constexpr int kOtherException = 4;

// Bytes of address space the calling process has mapped (VmSize of /proc/self/status).
inline std::uint64_t mapped_bytes()
{
    std::ifstream in("/proc/self/status");
    std::string word;
    while (in >> word)
        if (word == "VmSize:") {
            std::uint64_t kib = 0;
            in >> kib;
            return kib * 1024;
        }
    return 0;
}

// `body` in a forked child limited to its mapped bytes + `extra_bytes`: kBodyReturned, kOutOfMemory
// (std::bad_alloc escaped), kOtherException, or minus the signal that killed it.
inline int run_with_memory_limit(std::uint64_t extra_bytes, const std::function<void()>& body)
{
    const pid_t pid = ::fork();
    if (pid < 0)
        return -1000;
    if (pid == 0) {
        const rlim_t limit = static_cast<rlim_t>(mapped_bytes() + extra_bytes);
        const rlimit rl{limit, limit};
        if (::setrlimit(RLIMIT_AS, &rl) != 0)
            ::_exit(kOtherException);
        try {
            body();
        } catch (const std::bad_alloc&) {
            ::_exit(kOutOfMemory);
        } catch (...) {
            ::_exit(kOtherException);
        }
        ::_exit(kBodyReturned);
    }
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return -1000;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
}

} // namespace posatlas::test
