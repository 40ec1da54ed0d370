// SPDX-License-Identifier: GPL-3.0-or-later
// CoPE's own matrix kinds: its contextual positions and gates.
#pragma once

#include "methods/method.h"

namespace posatlas {

inline constexpr MatrixKind kCopePositions{"cope-positions"}; // contextual positions p_ij
inline constexpr MatrixKind kCopeGates{"cope-gates"};         // gates sigmoid(q_i . k_j)

} // namespace posatlas
