// SPDX-License-Identifier: GPL-3.0-or-later
#include "compute/memory_reuse.h"

#include <cstdlib> // defines __GLIBC__ (through <features.h>) when the C library is glibc

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#if defined(__SANITIZE_ADDRESS__)
#define POSATLAS_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define POSATLAS_ASAN 1
#endif
#endif

namespace posatlas {

bool keep_freed_memory_for_reuse()
{
#if defined(__GLIBC__) && !defined(POSATLAS_ASAN)
    constexpr int kMmapThreshold = 32 << 20; // glibc refuses more than half its 64 MB heap size
    constexpr int kTrimThreshold = 256 << 20;
    return mallopt(M_MMAP_THRESHOLD, kMmapThreshold) == 1 && mallopt(M_TRIM_THRESHOLD, kTrimThreshold) == 1;
#else
    return false;
#endif
}

} // namespace posatlas
