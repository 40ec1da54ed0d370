// SPDX-License-Identifier: GPL-3.0-or-later
// One libFuzzer target; POSATLAS_FUZZ_ENTRY names the entry function of fuzz_entries.h it drives.
#include "fuzz_entries.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string message =
        posatlas::fuzz::POSATLAS_FUZZ_ENTRY(std::string_view(reinterpret_cast<const char*>(data), size));
    // A message in the JSON library's own words is a finding too.
    if (message.find("json.exception") != std::string::npos)
        std::abort();
    return 0;
}
