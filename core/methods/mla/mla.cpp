// SPDX-License-Identifier: GPL-3.0-or-later
#include "methods/mla/mla.h"

#include "methods/rope/rope.h"
#include "scenario/validation.h"

#include <cmath>
#include <string>

namespace posatlas {

RopePairing mla_pairing(const MlaParams& p)
{
    return p.rope_interleave ? RopePairing::Interleaved : RopePairing::Half;
}

RopeParams mla_rope_params(const MlaParams& p)
{
    RopeParams r;
    r.head_dim = p.qk_rope_head_dim;
    r.rope_theta = p.rope_theta;
    r.partial_rotary_factor = 1.0;
    r.pairing = mla_pairing(p);
    r.max_position_embeddings = p.max_position_embeddings;
    if (p.rope_type == MlaRopeType::Yarn) {
        r.rope_type = RopeType::Yarn;
        r.factor = p.factor;
        r.original_max_position_embeddings = p.original_max_position_embeddings;
        r.beta_fast = p.beta_fast;
        r.beta_slow = p.beta_slow;
        r.mscale = p.mscale;
        r.mscale_all_dim = p.mscale_all_dim;
    }
    // DeepSeek's softmax multiplier belongs to the whole logit, nope part included: mla_softmax_scale.
    r.softmax_mscale = false;
    return r;
}

RopeFrequencies mla_frequencies(const MlaParams& p)
{
    return compute_rope_frequencies(mla_rope_params(p));
}

double mla_mscale_squared(const MlaParams& p)
{
    // DeepseekV3Attention.__init__: "if mscale_all_dim:" (unset reads as 0), yarn_get_mscale(factor, m).
    if (p.rope_type != MlaRopeType::Yarn || !p.mscale_all_dim || *p.mscale_all_dim == 0.0 || p.factor <= 1.0)
        return 1.0;
    const double m = 0.1 * *p.mscale_all_dim * std::log(p.factor) + 1.0;
    return m * m;
}

double mla_softmax_scale(const MlaParams& p)
{
    const double qk_head_dim = static_cast<double>(p.qk_nope_head_dim) + p.qk_rope_head_dim;
    return mla_mscale_squared(p) / std::sqrt(qk_head_dim);
}

MlaLogitParts mla_logit_parts(const MlaParams& p, const RopeFrequencies& f,
                              const Eigen::Ref<const Eigen::VectorXd>& q,
                              const Eigen::Ref<const Eigen::VectorXd>& k, double m, double n)
{
    const Eigen::Index nope = p.qk_nope_head_dim, rope = p.qk_rope_head_dim;
    if (q.size() != nope + rope || k.size() != nope + rope)
        throw ParameterError("qk_rope_head_dim",
                             "qk_nope_head_dim + qk_rope_head_dim = " + std::to_string(nope + rope) +
                                 " components of q and k",
                             std::to_string(q.size()) + " and " + std::to_string(k.size()));
    const double c = mla_softmax_scale(p);
    MlaLogitParts out;
    out.nope = q.head(nope).dot(k.head(nope)) * c;
    // rope_score multiplies by f.softmax_scale, 1 here (mla_rope_params leaves DeepSeek's multiplier out).
    out.rope = rope_score(f, q.tail(rope), k.tail(rope), m, n, mla_pairing(p)) * c;
    return out;
}

double mla_rotary_share(const MlaLogitParts& parts)
{
    const double a = std::abs(parts.nope), b = std::abs(parts.rope);
    return a + b > 0.0 ? b / (a + b) : 0.0;
}

} // namespace posatlas
