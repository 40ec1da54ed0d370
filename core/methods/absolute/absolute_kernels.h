// SPDX-License-Identifier: GPL-3.0-or-later
// The matrix kernel shared by the absolute methods (sinusoidal, learned): Encoding and Logits; and what
// their Logits kind's explanation says.
#pragma once

#include "compute/matrix_job.h"
#include "methods/explanation.h"

namespace posatlas {

void absolute_matrix(MatrixJob& job);

// The logits of an absolute method explained (explanation.h): position vectors added to the content.
// `zero_content` says what is left with zero content (the method's own p_i · p_j).
ExplanationText absolute_logits_explanation(const Scenario& s, const char* zero_content);

} // namespace posatlas
