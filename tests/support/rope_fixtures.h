// SPDX-License-Identifier: GPL-3.0-or-later
// Reference configurations shared by the RoPE tests, with the config.json each one copies.
#pragma once

#include "scenario/params.h"

#include <gtest/gtest.h>

#include <cmath>

namespace posatlas::test {

// Relative comparison; the default 1e-12 fits double against a double re-implementation of the
// reference (only libm rounding differs).
inline void expect_rel(double got, double want, double rel = 1e-12)
{
    EXPECT_NEAR(got, want, rel * std::abs(want)) << "want " << want;
}

inline RopeParams llama31_8b()
{
    // meta-llama/Llama-3.1-8B config.json: head_dim 128, rope_theta 500000, rope_scaling {rope_type: llama3,
    // factor 8, low_freq_factor 1, high_freq_factor 4, original_max_position_embeddings 8192},
    // max_position_embeddings 131072.
    RopeParams p;
    p.head_dim = 128;
    p.rope_theta = 500000.0;
    p.rope_type = RopeType::Llama3;
    p.factor = 8.0;
    p.low_freq_factor = 1.0;
    p.high_freq_factor = 4.0;
    p.max_position_embeddings = 131072;
    p.original_max_position_embeddings = 8192;
    return p;
}

inline RopeParams deepseek_v3()
{
    // deepseek-ai/DeepSeek-V3 config.json: qk_rope_head_dim 64, rope_theta 10000, interleaved pairs,
    // max_position_embeddings 163840, rope_scaling {type: yarn, factor 40, original_max_position_embeddings
    // 4096, mscale 1.0, mscale_all_dim 1.0}; DeepseekV3Attention multiplies the softmax scale by mscale².
    RopeParams p;
    p.head_dim = 64;
    p.pairing = RopePairing::Interleaved;
    p.rope_type = RopeType::Yarn;
    p.factor = 40.0;
    p.max_position_embeddings = 163840;
    p.original_max_position_embeddings = 4096;
    p.mscale = 1.0;
    p.mscale_all_dim = 1.0;
    p.softmax_mscale = true;
    return p;
}

inline RopeParams llama2_yarn_64k()
{
    // NousResearch/Yarn-Llama-2-7b-64k config.json: head_dim 4096/32 = 128, rope_theta 10000,
    // rope_scaling {type: yarn, factor: 16, original_max_position_embeddings: 4096}; beta 32 / 1 default.
    RopeParams p;
    p.head_dim = 128;
    p.rope_theta = 10000.0;
    p.rope_type = RopeType::Yarn;
    p.factor = 16.0;
    p.max_position_embeddings = 65536;
    p.original_max_position_embeddings = 4096;
    p.beta_fast = 32.0;
    p.beta_slow = 1.0;
    return p;
}

} // namespace posatlas::test
