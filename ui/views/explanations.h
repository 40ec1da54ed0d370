// SPDX-License-Identifier: GPL-3.0-or-later
// "What am I looking at?": a short text for a student beside each view. It says what the
// axes are, what the colours or lines mean and what to look for, for the current method and matrix
// kind, with notes where the content kind, a typed sentence, the causal mask or a RoPE scaling change
// the picture. Composed from pieces: the view's own part (axes, colour scale), the method's part, which
// its descriptor writes (MethodDescriptor::explain and explain_curves, context "Explanation"), and those
// notes. Every piece is translated (the shared ones in context posatlas::ui::Explanations).
#pragma once

#include "jobs/view_data.h"
#include "scenario/params.h"

#include <QString>

#include <optional>

namespace posatlas::ui {

// HTML (a few <p> paragraphs). `kind` is the heatmap's matrix kind (ignored by the other views);
// nullopt or a kind the method lacks: the method's most telling kind, as the heatmap shows it.
QString explanation(ViewKind view, const Scenario& s, std::optional<MatrixKind> kind = std::nullopt);

} // namespace posatlas::ui
