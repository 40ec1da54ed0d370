// SPDX-License-Identifier: GPL-3.0-or-later
// Memory freed by one computation kept for the next, for processes that run many (the GUI's view jobs,
// the gallery). A heatmap job of 900 x 900 blocks allocates ~40 MB of prefix and result arrays and frees
// them at its end; glibc returned such blocks to the kernel (mmap above its threshold, or a trim of the
// heap's top), so the next slider move paid a page fault and the zeroing of every 4 kB page again:
// `perf` put a large share of a Shaw heatmap's samples at 10^6 positions in clear_page_erms and the
// fault path (docs/benchmarks.md, GUI latency).
#pragma once

#include <cstdlib> // defines __GLIBC__ (through <features.h>) when the C library is glibc

// 1 where this build can set the policy below: glibc's allocator, not AddressSanitizer's (which ignores
// mallopt). The function and its test both go by it.
#if defined(__SANITIZE_ADDRESS__)
#define POSATLAS_MEMORY_REUSE 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define POSATLAS_MEMORY_REUSE 0
#endif
#endif
#if !defined(POSATLAS_MEMORY_REUSE)
#if defined(__GLIBC__)
#define POSATLAS_MEMORY_REUSE 1
#else
#define POSATLAS_MEMORY_REUSE 0
#endif
#endif

namespace posatlas {

// Raises glibc's mmap threshold to 32 MB (its maximum on 64-bit) and its trim threshold to 256 MB, so
// that freed blocks up to 32 MB stay in the allocator's arenas and are reused; larger ones still go back
// at once. The peak is unchanged (a kept block is reused before the heap grows); between computations
// each thread's arena keeps up to its own high-water mark below the trim threshold (a block freed in one
// arena does not serve another thread's). Returns whether the policy
// is in force: false with another C library or under AddressSanitizer (whose allocator ignores it).
// Call once at startup, before the threads that compute start.
bool keep_freed_memory_for_reuse();

} // namespace posatlas
