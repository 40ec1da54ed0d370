// SPDX-License-Identifier: GPL-3.0-or-later
// MLA's curve family (registry.h): the rotary share of the logit against distance.
#pragma once

#include "methods/registry.h"

namespace posatlas {

// share(r) = |R(r)| / (|N(r)| + |R(r)|) (mla_rotary_share) of the logit of one query and the key r
// positions before it: R the rotary part R(i) q_rope · R(j) k_rope, N the position-free part
// q_nope · k_nope (both times the softmax scale, which cancels). With content the same at every position
// the query sits at r and the key at 0 (the value depends on r alone, any r); with content that changes
// with position, the query is the last one (curve_last_query) and the distances stop at it.
CurveFamily mla_rotary_share_family();

} // namespace posatlas
