// SPDX-License-Identifier: GPL-3.0-or-later
// One libFuzzer target; POSATLAS_FUZZ_ENTRY names the entry function of fuzz_entries.h it drives.
#include "fuzz_entries.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    posatlas::fuzz::POSATLAS_FUZZ_ENTRY(std::string_view(reinterpret_cast<const char*>(data), size));
    return 0;
}
