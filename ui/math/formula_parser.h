// SPDX-License-Identifier: GPL-3.0-or-later
// LaTeX subset -> node tree (formula.h lists the subset). Internal to ui/math.
#pragma once

#include "math/formula_tree.h"

namespace posatlas::ui::math::detail {

// The formula's node tree; throws ParseError (its position in `latex`, what is wrong). Bounded by
// Formula::kMaxDepth nesting levels and Formula::kMaxCells matrix cells.
List parse_tree(const QString& latex);

} // namespace posatlas::ui::math::detail
