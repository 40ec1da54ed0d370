// SPDX-License-Identifier: GPL-3.0-or-later
// Test hook of validation.h: how many times a scenario or a method's parameters were checked in full (not
// answered by the memo of validated scenarios) since the program started. Tests count the checks one
// edit costs; nothing else reads it.
#pragma once

#include <cstdint>

namespace posatlas::testing {

std::int64_t full_validation_count();

} // namespace posatlas::testing
