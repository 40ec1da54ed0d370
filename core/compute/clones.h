// SPDX-License-Identifier: GPL-3.0-or-later
// Per-function multi-versioning for hot loops. The default build targets any x86-64 (SSE2: two
// doubles per vector). POSATLAS_CLONES compiles a function again for x86-64-v3 (AVX2 + FMA: four per
// vector) and x86-64-v4 (AVX-512: eight) and the loader picks the version the CPU runs, so the .deb
// stays portable and fast machines are not held back. Each string of target_clones is one clone:
// "avx2,fma" would be two clones, neither with both.
#pragma once

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define POSATLAS_CLONES [[gnu::target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")]]
#else
#define POSATLAS_CLONES
#endif
