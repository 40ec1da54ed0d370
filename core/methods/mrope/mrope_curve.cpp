// SPDX-License-Identifier: GPL-3.0-or-later
// M-RoPE's logit curve with position-independent content (mrope.h, mrope_distance_logits): weighted
// sinusoid sums over the keys' ids instead of rotating every key, so that a curve of 10^6 distances costs
// one sum per key rather than head_dim / 2 sines and cosines.
#include "compute/sinusoid_sums.h"
#include "methods/mrope/mrope.h"
#include "scenario/content.h"
#include "scenario/params.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <memory>

namespace posatlas {
namespace {

// What the evaluator keeps: the sum over every pair (text keys), and per grid run its three axes' parts
// at the run's frames, rows and columns.
struct MropeCurve {
    std::int64_t query = 0;
    double scale = 1.0; // attention_factor^2 / sqrt(d)
    MropePositions positions;
    std::unique_ptr<SinusoidSum> all; // every pair, at a text key's id
    struct GridTables {
        std::vector<double> t, h, w; // per frame, row, column: that axis's pairs at its id
    };
    std::vector<GridTables> grids; // one per run of positions.runs(); empty for text runs
};

// The logits of the keys j in [lo, hi] (ascending), into by_key[j - lo], unscaled.
void key_sums(const MropeCurve& c, std::int64_t lo, std::int64_t hi, double* by_key)
{
    const std::vector<MropePositions::Run>& runs = c.positions.runs();
    std::int64_t j = lo;
    // The run holding j, then each run after it in turn.
    auto run = std::upper_bound(runs.begin(), runs.end(), j,
                                [](std::int64_t v, const MropePositions::Run& r) { return v < r.first; });
    if (run != runs.begin())
        --run;
    while (j <= hi) {
        if (run == runs.end() || j >= c.positions.layout_tokens()) { // text past the layout
            const std::int64_t id = c.positions.next_id() + (j - c.positions.layout_tokens());
            c.all->range(id, hi - j + 1, by_key + (j - lo));
            return;
        }
        const std::int64_t end = std::min(hi + 1, run->first + run->count);
        if (run->kind == MropeTokenKind::Text) {
            c.all->range(run->start + (j - run->first), end - j, by_key + (j - lo));
        } else {
            const MropeCurve::GridTables& g = c.grids[static_cast<std::size_t>(run - runs.begin())];
            const std::int64_t per_frame = run->gh * run->gw;
            for (std::int64_t k = j; k < end; ++k) {
                const std::int64_t local = k - run->first, cell = local % per_frame;
                by_key[k - lo] = g.t[static_cast<std::size_t>(local / per_frame)] +
                                 g.h[static_cast<std::size_t>(cell / run->gw)] +
                                 g.w[static_cast<std::size_t>(cell % run->gw)];
            }
        }
        j = end;
        ++run;
    }
}

} // namespace

std::function<void(std::int64_t, std::int64_t, double*)>
mrope_distance_logits(const Scenario& s, std::int64_t query, Precision precision)
{
    const MropeParams& p = s.params<MropeParams>();
    const RopeFrequencies f = mrope_frequencies(p);
    const std::vector<int> axes = mrope_pair_axes(p);
    const Eigen::VectorXd q = content_query(s.content, p.head_dim, query),
                          k = content_key(s.content, p.head_dim, 0);
    auto c = std::make_shared<MropeCurve>(
        MropeCurve{query,
                   f.attention_factor * f.attention_factor / std::sqrt(static_cast<double>(p.head_dim)),
                   MropePositions(p),
                   {},
                   {}});
    const MropePosition at = c->positions.at(query);
    // Pair i's weights with the query's rotation folded in; the query is rotated by the rounded product
    // id·θ_i as the matrix kernel rotates it (rope.cpp).
    std::array<std::vector<double>, 3> w, ws, wc; // per axis: its pairs' terms
    std::vector<double> all_w, all_ws, all_wc;
    const int half = p.head_dim / 2;
    for (int i = 0; i < half; ++i) {
        const double a = q[i] * k[i] + q[i + half] * k[i + half], b = q[i] * k[i + half] - q[i + half] * k[i];
        const double theta = f.inv_freq[static_cast<std::size_t>(i)];
        const double angle = static_cast<double>(at.id(axes[static_cast<std::size_t>(i)])) * theta;
        const double cq = std::cos(angle), sq = std::sin(angle);
        const auto axis = static_cast<std::size_t>(axes[static_cast<std::size_t>(i)]);
        for (auto* terms : {&w[axis], &all_w})
            terms->push_back(theta);
        for (auto* terms : {&wc[axis], &all_wc})
            terms->push_back(a * cq + b * sq);
        for (auto* terms : {&ws[axis], &all_ws})
            terms->push_back(a * sq - b * cq);
    }
    c->all = std::make_unique<SinusoidSum>(all_w, all_ws, all_wc, precision);
    // A grid's tables: each axis's sum at the run's distinct ids of that axis.
    const auto axis_values = [&](int axis, std::vector<std::int64_t> ids) {
        const auto a = static_cast<std::size_t>(axis);
        if (w[a].empty())
            return std::vector<double>(ids.size(), 0.0);
        return sinusoid_sums(w[a], ws[a], wc[a], ids);
    };
    for (const MropePositions::Run& run : c->positions.runs()) {
        MropeCurve::GridTables g;
        if (run.kind != MropeTokenKind::Text) {
            const std::int64_t frames = run.count / (run.gh * run.gw);
            std::vector<std::int64_t> t(static_cast<std::size_t>(frames)),
                h(static_cast<std::size_t>(run.gh)), col(static_cast<std::size_t>(run.gw));
            for (std::int64_t i = 0; i < frames; ++i)
                t[static_cast<std::size_t>(i)] = run.start + i * run.time_step;
            for (std::int64_t i = 0; i < run.gh; ++i)
                h[static_cast<std::size_t>(i)] = run.start + i;
            for (std::int64_t i = 0; i < run.gw; ++i)
                col[static_cast<std::size_t>(i)] = run.start + i;
            g = {axis_values(0, std::move(t)), axis_values(1, std::move(h)), axis_values(2, std::move(col))};
        }
        c->grids.push_back(std::move(g));
    }
    return [c](std::int64_t first, std::int64_t last, double* out) {
        if (last <= first)
            return;
        // Keys query - (last - 1) .. query - first, ascending; key query - (last - 1) + t is at distance
        // last - 1 - t.
        const std::int64_t count = last - first;
        std::vector<double> by_key(static_cast<std::size_t>(count));
        key_sums(*c, c->query - (last - 1), c->query - first, by_key.data());
        for (std::int64_t t = 0; t < count; ++t)
            out[last - 1 - t - first] = by_key[static_cast<std::size_t>(t)] * c->scale;
    };
}

} // namespace posatlas
