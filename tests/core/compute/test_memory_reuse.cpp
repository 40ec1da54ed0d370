// SPDX-License-Identifier: GPL-3.0-or-later
// keep_freed_memory_for_reuse (compute/memory_reuse.h): a worker thread that allocates, touches and frees
// three 16 MB arrays (a heatmap job's prefix and result arrays) does so a second time without page faults,
// i.e. the second round reuses the first round's memory instead of fresh zeroed pages from the kernel.
// Reference: getrusage(RUSAGE_THREAD).ru_minflt, the thread's minor faults. Three arrays of 16 MB are
// 12288 pages; the tolerance is 256 faults (stack, bookkeeping). With glibc's defaults this thread took
// ~12300 faults in its second round. Built with AddressSanitizer, whose allocator ignores mallopt, the
// test is instead that the function reports the policy as not in force.
#include "compute/memory_reuse.h"

#include <gtest/gtest.h>

#include <sys/resource.h>

#include <numeric>
#include <thread>
#include <vector>

#if !POSATLAS_MEMORY_REUSE
// Under AddressSanitizer (make sanitize) or another C library the policy cannot be set, and the
// function must say so rather than claim it (the page-fault test below needs glibc's allocator).
TEST(MemoryReuse, SaysThePolicyIsNotInForceWhereTheAllocatorIgnoresIt)
{
    EXPECT_FALSE(posatlas::keep_freed_memory_for_reuse());
}
#else
TEST(MemoryReuse, AJobsFreedArraysServeTheNextJobWithoutPageFaults)
{
    ASSERT_TRUE(posatlas::keep_freed_memory_for_reuse());
    long faults = -1;
    double sum = 0.0;
    std::thread worker([&] {
        const auto job = [&] {
            std::vector<std::vector<double>> arrays;
            for (int k = 0; k < 3; ++k)
                arrays.emplace_back(std::size_t{2} << 20, 1.0 + k); // 16 MB, every page written
            for (const auto& a : arrays)
                sum += std::accumulate(a.begin(), a.end(), 0.0);
        };
        job();
        rusage before{}, after{};
        getrusage(RUSAGE_THREAD, &before);
        job();
        getrusage(RUSAGE_THREAD, &after);
        faults = after.ru_minflt - before.ru_minflt;
    });
    worker.join();
    EXPECT_EQ(sum, 2.0 * (1.0 + 2.0 + 3.0) * static_cast<double>(std::size_t{2} << 20));
    EXPECT_GE(faults, 0);
    EXPECT_LT(faults, 256) << "the second job's arrays came from the kernel again";
}
#endif
