// SPDX-License-Identifier: GPL-3.0-or-later
// The matrix kernel shared by the absolute methods (sinusoidal, learned): Encoding and Logits.
#pragma once

#include "compute/matrix_job.h"

namespace posatlas {

void absolute_matrix(MatrixJob& job);

} // namespace posatlas
