// SPDX-License-Identifier: GPL-3.0-or-later
// RoPE's curve family (MethodDescriptor::curve_families) and the notes its views share: the rotation
// diagram, the frequency spectrum and the curves name the length a length-dependent θ is for, a scaling
// that is the identity here, and a trained length that is only assumed.
#pragma once

#include "methods/curve_family.h"
#include "methods/rope/rope.h"
#include "methods/rope/rope_params.h"

namespace posatlas {

// Dynamic NTK and LongRoPE choose θ by the current sequence length (seq_len). With none set, every view
// takes the target length, as rope_spectrum does, so that the rotation, decay and spectrum views show the
// same θ.
bool rope_length_dependent(const RopeParams& p);
RopeParams rope_view_params(const RopeParams& p);
// "θ for length 8192 (the target length)"; empty unless rope_length_dependent(p).
Wording rope_length_note(const RopeParams& p);
// "YaRN × 1 is the identity here: θ′ = θ": a scaling whose factor leaves every θ and the attention
// factor as they were (factor 1, or dynamic NTK below its trained length); empty otherwise.
Wording rope_identity_note(const RopeParams& p, const RopeFrequencies& f);
// A linear / static NTK config without an original length (trained_length_ambiguous): the trained length
// shown is max_position_embeddings, a guess the user can correct; empty otherwise.
Wording rope_trained_length_note(const RopeParams& p);

// The long-term decay: RoFormer's bound (Su et al. 2021 sec. 3.4.3) and the mean cosine over pairs,
// relative to r = 0, with the unscaled θ dashed when a scaling changes it.
CurveFamily rope_decay_family();

} // namespace posatlas
