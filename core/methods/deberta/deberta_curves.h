// SPDX-License-Identifier: GPL-3.0-or-later
// DeBERTa's curve family (MethodDescriptor::curve_families).
#pragma once

#include "methods/curve_family.h"

namespace posatlas {

// The log-bucketed relative position and the embedding row attention reads.
CurveFamily deberta_bucket_family();

} // namespace posatlas
