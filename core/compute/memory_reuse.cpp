// SPDX-License-Identifier: GPL-3.0-or-later
#include "compute/memory_reuse.h"

#if POSATLAS_MEMORY_REUSE
#include <malloc.h>
#endif

namespace posatlas {

bool keep_freed_memory_for_reuse()
{
#if POSATLAS_MEMORY_REUSE
    constexpr int kMmapThreshold = 32 << 20; // glibc refuses more than half its 64 MB heap size
    constexpr int kTrimThreshold = 256 << 20;
    return mallopt(M_MMAP_THRESHOLD, kMmapThreshold) == 1 && mallopt(M_TRIM_THRESHOLD, kTrimThreshold) == 1;
#else
    return false;
#endif
}

} // namespace posatlas
