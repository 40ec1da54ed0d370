// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/attention_entropy.h"

#include "methods/rope/rope.h"
#include "methods/rope/rope_scaling.h"
#include "scenario/rng.h"
#include "scenario/validation.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace posatlas {

namespace {

// Keys per chunk between two cancel polls, and per block (the unit of parallel work with its own
// accumulator). Blocks are merged in index order, so the sum order does not depend on the threads.
// A chunk costs about kChunk * trials * head_dim normals: ~0.1 s for 8 trials of head_dim 128.
constexpr std::int64_t kChunk = 16384;
constexpr std::int64_t kBlock = 256;
// Repeated token: distances per exact cosine and sine, the rotation recurrence in between (its error
// grows by about one rounding per step, ~1e-14 after kStep steps).
constexpr std::int64_t kStep = 64;

// Online softmax-entropy accumulator over logits l: m = running max, s = sum exp(l - m),
// t = sum exp(l - m) (l - m) <= 0. Then H = ln s - t / s (see softmax_entropy). Rescaling to a new
// max m' multiplies by e = exp(m - m') and shifts t by s (m - m').
struct EntropyAcc {
    double m = -std::numeric_limits<double>::infinity();
    double s = 0.0;
    double t = 0.0;

    void add(double l)
    {
        if (s == 0.0) {
            m = l;
            s = 1.0;
            t = 0.0;
        } else if (l > m) {
            const double e = std::exp(m - l);
            t = e * (t + s * (m - l));
            s = s * e + 1.0;
            m = l;
        } else {
            const double w = std::exp(l - m);
            s += w;
            t += w * (l - m);
        }
    }

    void merge(const EntropyAcc& o)
    {
        if (o.s == 0.0)
            return;
        if (s == 0.0) {
            *this = o;
            return;
        }
        const double mm = std::max(m, o.m);
        const double ea = std::exp(m - mm);
        const double eb = std::exp(o.m - mm);
        t = ea * (t + s * (m - mm)) + eb * (o.t + o.s * (o.m - mm));
        s = s * ea + o.s * eb;
        m = mm;
    }

    double entropy() const { return std::log(s) - t / s; }
};

std::uint64_t trial_stream(std::uint64_t base, int trial)
{
    return base + (static_cast<std::uint64_t>(trial) << 32);
}

} // namespace

double softmax_entropy(const std::vector<double>& logits)
{
    if (logits.empty())
        throw ParameterError("logits", "a non-empty list of finite numbers", "an empty list");
    for (double l : logits)
        if (!std::isfinite(l))
            throw ParameterError("logits", "finite numbers", format_number(l));
    const double m = *std::max_element(logits.begin(), logits.end());
    double s = 0.0;
    double t = 0.0;
    for (double l : logits) {
        const double w = std::exp(l - m);
        s += w;
        t += w * (l - m);
    }
    return std::log(s) - t / s;
}

namespace {

void check_arguments(const RopeParams& p, const std::vector<std::int64_t>& lengths, int trials)
{
    validate(p);
    if (lengths.empty())
        throw ParameterError("lengths",
                             "a non-empty list of lengths in [1, " + std::to_string(kMaxSeqLen) + "]",
                             "an empty list");
    if (static_cast<std::int64_t>(lengths.size()) > kMaxEntropyLengths)
        throw ParameterError("lengths",
                             "a list of at most " + std::to_string(kMaxEntropyLengths) + " lengths",
                             std::to_string(lengths.size()) + " lengths");
    for (std::int64_t n : lengths)
        require_int("lengths", n, 1, kMaxSeqLen);
    require_int("trials", trials, 1, 1024);
}

RopeFrequencies frequencies_at(const RopeParams& p, const FrequenciesAt& frequencies, std::int64_t n)
{
    RopeFrequencies f;
    if (frequencies) {
        f = frequencies(n);
    } else {
        RopeParams current = p;
        current.seq_len = n;
        f = compute_rope_frequencies(current);
    }
    if (static_cast<int>(f.inv_freq.size()) != p.rotary_dim() / 2)
        throw ParameterError("frequencies", std::to_string(p.rotary_dim() / 2) + " frequencies",
                             std::to_string(f.inv_freq.size()));
    return f;
}

EntropyCurve random_qk_entropy(const RopeParams& p, const FrequenciesAt& frequencies,
                               const std::vector<std::int64_t>& lengths, std::uint64_t seed, int trials,
                               const QueryScale& scale, const CancelFn& cancel, const ProgressFn& progress)
{
    const int d = p.head_dim;
    const int rd = p.rotary_dim();
    const int pairs = rd / 2;
    const int npass = d - rd;
    const auto ntrials = static_cast<std::size_t>(trials);
    const double inv_sqrt_d = 1.0 / std::sqrt(static_cast<double>(d));

    // Component indices of pair i (rope.h): Half (i, i + rd/2), Interleaved (2i, 2i + 1).
    std::vector<int> first(static_cast<std::size_t>(pairs));
    std::vector<int> second(static_cast<std::size_t>(pairs));
    for (int i = 0; i < pairs; ++i) {
        const auto u = static_cast<std::size_t>(i);
        first[u] = p.pairing == RopePairing::Half ? i : 2 * i;
        second[u] = p.pairing == RopePairing::Half ? i + pairs : 2 * i + 1;
    }

    const bool with_scale = scale.kind != QueryScaleKind::None;
    double total_keys = 0.0;
    for (std::int64_t n : lengths)
        total_keys += static_cast<double>(n);
    double done_keys = 0.0;

    EntropyCurve curve;
    curve.length = lengths;
    curve.entropy.reserve(lengths.size());
    curve.entropy_with_temperature.reserve(lengths.size());

    for (const std::int64_t n : lengths) {
        check_cancel(cancel);
        RopeFrequencies f = frequencies_at(p, frequencies, n);
        // Applied separately: a^2 to the rotary part of the logit only, the softmax multiplier c
        // (DeepSeek's mscale^2, else 1) to the whole logit.
        const double a2 = f.attention_factor * f.attention_factor;
        const double c = f.softmax_scale;
        const double m = query_scale_at(scale, n - 1);
        f.attention_factor = 1.0;
        f.softmax_scale = 1.0;

        // Rotated queries R(n - 1) q per trial: pair components (u1, u2) and pass-through components.
        std::vector<double> u1(ntrials * pairs), u2(ntrials * pairs), qpass(ntrials * npass);
        Eigen::VectorXd q(d);
        for (std::size_t t = 0; t < ntrials; ++t) {
            const std::uint64_t stream = trial_stream(rng::kEntropyQuery, static_cast<int>(t));
            for (int c = 0; c < d; ++c)
                q[c] = rng::normal(seed, stream, static_cast<std::uint64_t>(c));
            const Eigen::VectorXd rq = rope_rotate(f, q, static_cast<double>(n - 1), p.pairing);
            for (std::size_t i = 0; i < static_cast<std::size_t>(pairs); ++i) {
                u1[t * pairs + i] = rq[first[i]];
                u2[t * pairs + i] = rq[second[i]];
            }
            for (int c = 0; c < npass; ++c)
                qpass[t * npass + static_cast<std::size_t>(c)] = rq[rd + c];
        }

        std::vector<EntropyAcc> plain(ntrials), tempered(ntrials), scaled(ntrials);
        for (std::int64_t begin = 0; begin < n; begin += kChunk) {
            check_cancel(cancel);
            const std::int64_t end = std::min(n, begin + kChunk);
            const std::int64_t nblocks = (end - begin + kBlock - 1) / kBlock;
            std::vector<EntropyAcc> block_plain(static_cast<std::size_t>(nblocks) * ntrials);
            std::vector<EntropyAcc> block_tempered(block_plain.size()), block_scaled(block_plain.size());
#pragma omp parallel for schedule(dynamic)
            for (std::int64_t b = 0; b < nblocks; ++b) {
                std::vector<double> cs(static_cast<std::size_t>(pairs)), sn(cs.size()),
                    k(static_cast<std::size_t>(d));
                const std::int64_t jb = begin + b * kBlock;
                const std::int64_t je = std::min(end, jb + kBlock);
                for (std::int64_t j = jb; j < je; ++j) {
                    const auto pos = static_cast<double>(j);
                    for (std::size_t i = 0; i < cs.size(); ++i) {
                        const double angle = pos * f.inv_freq[i]; // formed in double (rope.h)
                        cs[i] = std::cos(angle);
                        sn[i] = std::sin(angle);
                    }
                    for (std::size_t t = 0; t < ntrials; ++t) {
                        const std::uint64_t stream = trial_stream(rng::kEntropyKey, static_cast<int>(t));
                        const auto offset = static_cast<std::uint64_t>(j) * static_cast<std::uint64_t>(d);
                        rng::normals(seed, stream, offset, d, k.data());
                        // (u1, u2) . rot(j theta_i)(x1, x2) = cos (u1 x1 + u2 x2) + sin (u2 x1 - u1 x2)
                        double rot = 0.0;
                        for (std::size_t i = 0; i < cs.size(); ++i) {
                            const double x1 = k[static_cast<std::size_t>(first[i])];
                            const double x2 = k[static_cast<std::size_t>(second[i])];
                            const double a1 = u1[t * pairs + i];
                            const double a2q = u2[t * pairs + i];
                            rot += cs[i] * (a1 * x1 + a2q * x2) + sn[i] * (a2q * x1 - a1 * x2);
                        }
                        double pass = 0.0;
                        for (int c = 0; c < npass; ++c)
                            pass += qpass[t * npass + static_cast<std::size_t>(c)] *
                                    k[static_cast<std::size_t>(rd + c)];
                        const std::size_t slot = static_cast<std::size_t>(b) * ntrials + t;
                        block_plain[slot].add((rot + pass) * inv_sqrt_d);
                        const double logit = c * (a2 * rot + pass) * inv_sqrt_d;
                        block_tempered[slot].add(logit);
                        if (with_scale)
                            block_scaled[slot].add(m * logit);
                    }
                }
            }
            for (std::size_t b = 0; b < static_cast<std::size_t>(nblocks); ++b) {
                for (std::size_t t = 0; t < ntrials; ++t) {
                    plain[t].merge(block_plain[b * ntrials + t]);
                    tempered[t].merge(block_tempered[b * ntrials + t]);
                    scaled[t].merge(block_scaled[b * ntrials + t]);
                }
            }
            done_keys += static_cast<double>(end - begin);
            report_progress(progress, done_keys / total_keys);
        }

        double h = 0.0;
        double h_t = 0.0;
        double h_s = 0.0;
        for (std::size_t t = 0; t < ntrials; ++t) {
            h += plain[t].entropy();
            h_t += tempered[t].entropy();
            if (with_scale)
                h_s += scaled[t].entropy();
        }
        curve.entropy.push_back(h / static_cast<double>(trials));
        curve.entropy_with_temperature.push_back(h_t / static_cast<double>(trials));
        if (with_scale)
            curve.entropy_with_query_scale.push_back(h_s / static_cast<double>(trials));
    }
    check_cancel(cancel);
    return curve;
}

// RepeatedToken (attention_entropy.h): the logits depend on the distance r only, so one pass over
// r = 0 .. max N - 1 gives the entropy of every length that shares the frequencies (a prefix each).
EntropyCurve repeated_token_entropy(const RopeParams& p, const FrequenciesAt& frequencies,
                                    const std::vector<std::int64_t>& lengths, std::uint64_t seed, int trials,
                                    const QueryScale& scale, const CancelFn& cancel,
                                    const ProgressFn& progress)
{
    const bool with_scale = scale.kind != QueryScaleKind::None;
    const int d = p.head_dim;
    const int rd = p.rotary_dim();
    const auto pairs = static_cast<std::size_t>(rd / 2);
    const auto ntrials = static_cast<std::size_t>(trials);
    const double inv_sqrt_d = 1.0 / std::sqrt(static_cast<double>(d));

    // Pair energies rho (trial-major) and pass-through energy P of each trial's token v.
    std::vector<double> rho(ntrials * pairs), pass(ntrials, 0.0), v(static_cast<std::size_t>(d));
    for (std::size_t t = 0; t < ntrials; ++t) {
        rng::normals(seed, trial_stream(rng::kEntropyQuery, static_cast<int>(t)), 0, d, v.data());
        for (std::size_t i = 0; i < pairs; ++i) {
            const double x1 = v[p.pairing == RopePairing::Half ? i : 2 * i];
            const double x2 = v[p.pairing == RopePairing::Half ? i + pairs : 2 * i + 1];
            rho[t * pairs + i] = x1 * x1 + x2 * x2;
        }
        for (auto c = static_cast<std::size_t>(rd); c < v.size(); ++c)
            pass[t] += v[c] * v[c];
    }

    // Lengths grouped by their frequency set (equal inv_freq, a and c), in order of first appearance.
    struct Group {
        RopeFrequencies f;
        std::vector<std::size_t> members; // indices into lengths
        std::int64_t longest = 0;
    };
    std::vector<Group> groups;
    for (std::size_t k = 0; k < lengths.size(); ++k) {
        check_cancel(cancel);
        RopeFrequencies f = frequencies_at(p, frequencies, lengths[k]);
        auto same = [&f](const Group& g) {
            return g.f.inv_freq == f.inv_freq && g.f.attention_factor == f.attention_factor &&
                   g.f.softmax_scale == f.softmax_scale;
        };
        auto it = std::find_if(groups.begin(), groups.end(), same);
        if (it == groups.end()) {
            groups.push_back({std::move(f), {}, 0});
            it = groups.end() - 1;
        }
        it->members.push_back(k);
        it->longest = std::max(it->longest, lengths[k]);
    }
    double total = 0.0;
    for (const Group& g : groups)
        total += static_cast<double>(g.longest);
    double done = 0.0;

    EntropyCurve curve;
    curve.length = lengths;
    curve.entropy.assign(lengths.size(), 0.0);
    curve.entropy_with_temperature.assign(lengths.size(), 0.0);
    if (with_scale)
        curve.entropy_with_query_scale.assign(lengths.size(), 0.0);
    std::vector<double> rot(static_cast<std::size_t>(kChunk) * ntrials);
    for (const Group& g : groups) {
        const double a2 = g.f.attention_factor * g.f.attention_factor;
        const double c = g.f.softmax_scale;
        // The members in increasing length: a prefix ends at each.
        std::vector<std::size_t> order = g.members;
        std::sort(order.begin(), order.end(),
                  [&](std::size_t x, std::size_t y) { return lengths[x] < lengths[y]; });
        std::size_t next = 0;
        std::vector<EntropyAcc> plain(ntrials), tempered(ntrials);
        // With a query scale, each member length N has its own multiplier m(N - 1) of the whole prefix:
        // one accumulator per member and trial (member-major), fed until that member's length.
        std::vector<double> multiplier;
        for (std::size_t k : order)
            multiplier.push_back(query_scale_at(scale, lengths[k] - 1));
        std::vector<EntropyAcc> scaled(with_scale ? order.size() * ntrials : 0);
        for (std::int64_t begin = 0, end = 0; begin < g.longest; begin = end) {
            check_cancel(cancel);
            // Chunks also end at every length, where that length's entropy is read off.
            end = std::min(begin + kChunk, lengths[order[next]]);
            // Rotary part sum_i rho_i cos(r theta_i) of every distance of the chunk, trial-minor, summed
            // over i in order. Blocks of kStep distances aligned on multiples of kStep: exact cos and sin
            // at the block's first distance, then the rotation by theta_i (one complex product per step).
            std::fill(rot.begin(), rot.begin() + (end - begin) * static_cast<std::int64_t>(ntrials), 0.0);
#pragma omp parallel for schedule(static)
            for (std::int64_t b = begin / kStep; b <= (end - 1) / kStep; ++b) {
                const std::int64_t r0 = b * kStep;
                const std::int64_t lo = std::max(r0, begin);
                const std::int64_t hi = std::min(r0 + kStep, end);
                for (std::size_t i = 0; i < pairs; ++i) {
                    const double theta = g.f.inv_freq[i];
                    const double ct = std::cos(theta);
                    const double st = std::sin(theta);
                    const double angle = static_cast<double>(r0) * theta; // formed in double (rope.h)
                    double cr = std::cos(angle);
                    double sr = std::sin(angle);
                    for (std::int64_t r = r0; r < hi; ++r) {
                        if (r >= lo) {
                            double* out = &rot[static_cast<std::size_t>(r - begin) * ntrials];
                            for (std::size_t t = 0; t < ntrials; ++t)
                                out[t] += rho[t * pairs + i] * cr;
                        }
                        const double next_c = cr * ct - sr * st;
                        sr = sr * ct + cr * st;
                        cr = next_c;
                    }
                }
            }
            // In order of r, one trial per thread: the sums do not depend on the thread count.
#pragma omp parallel for schedule(static)
            for (std::size_t t = 0; t < ntrials; ++t) {
                for (std::int64_t r = begin; r < end; ++r) {
                    const double x = rot[static_cast<std::size_t>(r - begin) * ntrials + t];
                    plain[t].add((x + pass[t]) * inv_sqrt_d);
                    const double logit = c * (a2 * x + pass[t]) * inv_sqrt_d;
                    tempered[t].add(logit);
                    if (with_scale)
                        for (std::size_t u = next; u < order.size(); ++u)
                            scaled[u * ntrials + t].add(multiplier[u] * logit);
                }
            }
            while (next < order.size() && lengths[order[next]] == end) {
                const std::size_t u = next++;
                const std::size_t k = order[u];
                double h = 0.0, h_t = 0.0, h_s = 0.0;
                for (std::size_t t = 0; t < ntrials; ++t) {
                    h += plain[t].entropy();
                    h_t += tempered[t].entropy();
                    if (with_scale)
                        h_s += scaled[u * ntrials + t].entropy();
                }
                if (with_scale)
                    curve.entropy_with_query_scale[k] = h_s / static_cast<double>(trials);
                curve.entropy[k] = h / static_cast<double>(trials);
                curve.entropy_with_temperature[k] = h_t / static_cast<double>(trials);
            }
            done += static_cast<double>(end - begin);
            report_progress(progress, done / total);
        }
    }
    check_cancel(cancel);
    return curve;
}

} // namespace

EntropyCurve attention_entropy(const RopeParams& p, const std::vector<std::int64_t>& lengths,
                               std::uint64_t seed, int trials, const CancelFn& cancel,
                               const ProgressFn& progress)
{
    return attention_entropy(p, EntropyContent::RandomQK, {}, lengths, seed, trials, cancel, progress);
}

EntropyCurve attention_entropy(const RopeParams& p, EntropyContent content, const FrequenciesAt& frequencies,
                               const std::vector<std::int64_t>& lengths, std::uint64_t seed, int trials,
                               const CancelFn& cancel, const ProgressFn& progress)
{
    return attention_entropy(p, content, frequencies, lengths, seed, trials, QueryScale{}, cancel, progress);
}

EntropyCurve attention_entropy(const RopeParams& p, EntropyContent content, const FrequenciesAt& frequencies,
                               const std::vector<std::int64_t>& lengths, std::uint64_t seed, int trials,
                               const QueryScale& scale, const CancelFn& cancel, const ProgressFn& progress)
{
    check_arguments(p, lengths, trials);
    validate(scale);
    return content == EntropyContent::RandomQK
               ? random_qk_entropy(p, frequencies, lengths, seed, trials, scale, cancel, progress)
               : repeated_token_entropy(p, frequencies, lengths, seed, trials, scale, cancel, progress);
}

} // namespace posatlas
