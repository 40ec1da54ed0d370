// SPDX-License-Identifier: GPL-3.0-or-later
#include "explorer/explorer_jobs.h"

#include "analysis/decay.h"
#include "scenario/validation.h"
#include "views/figure_style.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <variant>

namespace posatlas::ui {

namespace {

// The free functions below translate in this context; lupdate reads ExplorerJobs::tr("...") literally.
struct ExplorerJobs {
    Q_DECLARE_TR_FUNCTIONS(posatlas::ui::ExplorerJobs)
};

std::vector<double> log_space(double lo, double hi, int n)
{
    std::vector<double> out(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i)
        out[static_cast<std::size_t>(i)] = lo * std::pow(hi / lo, static_cast<double>(i) / (n - 1));
    return out;
}

} // namespace

ExplorerInput explorer_input(const ExplorerModel& model)
{
    ExplorerInput in;
    in.model = model.modelParams();
    in.model_name = model.modelName();
    in.variants = model.variants();
    in.trained = model.trainedLength();
    in.target = model.targetLength();
    in.current = model.currentLength();
    return in;
}

QString regime_name(PairRegime regime)
{
    switch (regime) {
    case PairRegime::Kept: return ExplorerJobs::tr("kept");
    case PairRegime::Interpolated: return ExplorerJobs::tr("interpolated");
    case PairRegime::Blended: return ExplorerJobs::tr("blended");
    }
    return {};
}

RopeFrequencies variant_frequencies(const ExplorerVariant& v, std::int64_t seq_len)
{
    RopeParams p = v.params;
    p.seq_len = seq_len;
    return v.kind == VariantKind::YarnLlamaCpp ? compute_yarn_llamacpp(p) : compute_rope_frequencies(p);
}

RopePairsTable variant_pairs(const ExplorerVariant& v, std::int64_t trained, std::int64_t target)
{
    RopeParams p = v.params;
    p.seq_len = 0; // the table then takes target as the current length (dynamic, LongRoPE)
    // llama.cpp's frequencies differ from HF's in the ramp (rope_scaling.h); core forms both tables.
    return v.kind == VariantKind::YarnLlamaCpp ? yarn_llamacpp_pairs(p, trained, target)
                                               : rope_pairs(p, trained, target);
}

QStringList boundary_labels(const RopePairsTable& table)
{
    QStringList out;
    for (std::size_t i = 1; i < table.boundaries.size(); ++i) {
        const RegimeBoundary& a = table.boundaries[i - 1];
        const RegimeBoundary& b = table.boundaries[i];
        out << ExplorerJobs::tr("%1/%2: λ %3 | %4 (%5 → %6)")
                   .arg(a.last_pair)
                   .arg(b.first_pair)
                   .arg(format_number(a.wavelength_last), format_number(b.wavelength_first),
                        regime_name(a.regime), regime_name(b.regime));
    }
    return out;
}

ExplorerTables compute_explorer_tables(const ExplorerInput& in, const CancelFn& cancel)
{
    ExplorerTables out;
    out.model_name = in.model_name;
    out.trained = in.trained;
    out.target = in.target;
    out.head_dim = in.model.head_dim;
    RopeParams unscaled = in.model;
    unscaled.rope_type = RopeType::Default;
    unscaled.factor = 1.0;
    unscaled.seq_len = 0;
    out.unscaled = rope_pairs(unscaled, in.trained, in.target);
    out.distances = decay_distances(in.target, 700, true);

    bool yarn_set = false;
    for (const ExplorerVariant& v : in.variants) {
        check_cancel(cancel);
        VariantResult r;
        r.variant = v;
        try {
            r.table = variant_pairs(v, in.trained, in.target);
            r.temperature = attention_temperature(v.params);
            if (v.kind == VariantKind::YarnLlamaCpp) {
                // llama.cpp's kernel factor; DeepSeek's softmax mscale lives in its graph (rope_scaling.h).
                r.temperature.used = r.temperature.llamacpp_yarn;
                r.temperature.softmax_scale = 1.0;
                r.temperature.logit_multiplier = r.temperature.used * r.temperature.used;
            }
            r.decay_bound = rope_decay_bound(r.table.frequencies.inv_freq, out.distances, cancel);
            r.score = rope_score_vs_distance(r.table.frequencies, v.params.head_dim, out.distances, cancel);
            if (!yarn_set && variant_rope_type(v.kind) == RopeType::Yarn) {
                out.yarn = yarn_thresholds(v.params);
                out.yarn_from_variant = yarn_set = true;
            }
            if (v.params.mscale && v.params.mscale_all_dim && !out.deepseek_mscale) {
                out.deepseek_mscale = v.params.mscale;
                out.deepseek_mscale_all_dim = v.params.mscale_all_dim;
                out.deepseek_softmax = v.params.softmax_mscale && *v.params.mscale_all_dim != 0.0;
            }
        } catch (const ParameterError& e) {
            r.error = QString::fromUtf8(e.what());
        }
        out.variants.push_back(std::move(r));
    }
    if (!out.deepseek_mscale && in.model.mscale && in.model.mscale_all_dim) {
        out.deepseek_mscale = in.model.mscale;
        out.deepseek_mscale_all_dim = in.model.mscale_all_dim;
        out.deepseek_softmax = in.model.softmax_mscale && *in.model.mscale_all_dim != 0.0;
    }

    // A YaRN configuration of the model, for the thresholds (when no variant is YaRN) and the
    // temperature curves over s.
    RopeParams yarn = unscaled;
    yarn.rope_type = RopeType::Yarn;
    yarn.original_max_position_embeddings = in.trained;
    yarn.max_position_embeddings = in.target;
    yarn.beta_fast = 32.0;
    yarn.beta_slow = 1.0;
    if (!yarn_set)
        out.yarn = yarn_thresholds(yarn);
    double s_max = 64.0;
    for (const VariantResult& r : out.variants)
        if (r.error.isEmpty())
            s_max = std::max(s_max, 2.0 * r.temperature.factor);
    out.s = log_space(1.0, s_max, 160);
    yarn.mscale = out.deepseek_mscale;
    yarn.mscale_all_dim = out.deepseek_mscale_all_dim;
    yarn.softmax_mscale = out.deepseek_softmax;
    for (double s : out.s) {
        yarn.factor = s;
        const TemperatureInfo t = attention_temperature(yarn);
        out.yarn_logit.push_back(t.yarn_sqrt_inv_t * t.yarn_sqrt_inv_t);
        out.longrope_logit.push_back(t.longrope_factor * t.longrope_factor);
        if (out.deepseek_mscale)
            out.deepseek_logit.push_back(t.deepseek_mscale_ratio * t.deepseek_mscale_ratio *
                                         (out.deepseek_softmax ? t.deepseek_softmax : 1.0));
    }
    return out;
}

DynamicResult compute_explorer_dynamic(const ExplorerInput& in)
{
    DynamicResult out;
    out.current = in.current;
    out.trained = in.trained;
    std::vector<ExplorerVariant> variants = in.variants;
    const bool has_dynamic = std::any_of(variants.begin(), variants.end(),
                                         [](const auto& v) { return v.kind == VariantKind::Dynamic; });
    if (!has_dynamic) {
        // A probe, so that the view always shows what dynamic NTK does at this length.
        double factor = 4.0;
        for (const ExplorerVariant& v : variants)
            if (v.kind != VariantKind::Unscaled)
                factor = std::max(1.0, v.params.factor);
        try {
            ExplorerVariant probe = make_variant(VariantKind::Dynamic, in.model, factor, in.target);
            probe.slot = -1;
            probe.label = ExplorerJobs::tr("Dynamic NTK (probe, factor %1)").arg(format_number(factor));
            variants.push_back(probe);
        } catch (const ParameterError&) {
        }
    }
    for (const ExplorerVariant& v : variants) {
        DynamicEntry e;
        e.variant = v;
        try {
            e.frequencies = variant_frequencies(v, in.current);
        } catch (const ParameterError& err) {
            e.error = QString::fromUtf8(err.what());
        }
        out.entries.push_back(std::move(e));
    }
    return out;
}

std::vector<std::int64_t> entropy_lengths(std::int64_t target)
{
    std::vector<std::int64_t> out;
    const double hi = static_cast<double>(std::max<std::int64_t>(target, 32));
    for (double x : log_space(16.0, hi, 7)) {
        const auto n = static_cast<std::int64_t>(std::llround(x));
        if (out.empty() || n > out.back())
            out.push_back(n);
    }
    return out;
}

EntropyResult compute_explorer_entropy(const ExplorerInput& in, const CancelFn& cancel,
                                       const ProgressFn& progress)
{
    EntropyResult out;
    out.lengths = entropy_lengths(in.target);
    // Distinct logit multipliers (at the target length), in variant order.
    struct Group {
        double factor;
        std::vector<const ExplorerVariant*> members;
    };
    std::vector<Group> groups;
    for (const ExplorerVariant& v : in.variants) {
        double a = 1.0;
        try {
            a = variant_frequencies(v, in.target).logit_multiplier();
        } catch (const ParameterError&) {
            continue; // the tables job reports it
        }
        auto it = std::find_if(groups.begin(), groups.end(),
                               [a](const Group& g) { return std::abs(g.factor - a) <= 1e-12 * a; });
        if (it == groups.end())
            groups.push_back({a, {&v}});
        else
            it->members.push_back(&v);
    }
    if (groups.empty())
        return out;
    // Without temperature: the first group (any variant gives a sample of the same distribution).
    const std::size_t jobs = groups.size();
    for (std::size_t g = 0; g < jobs; ++g) {
        const ExplorerVariant& first = *groups[g].members.front();
        ProgressFn part = [&progress, g, jobs](double f) {
            if (progress)
                progress((static_cast<double>(g) + f) / static_cast<double>(jobs));
        };
        RopeParams p = first.params;
        p.seq_len = 0;
        const EntropyCurve c = attention_entropy(p, out.lengths, in.seed, in.trials, cancel, part);
        if (g == 0)
            out.without_temperature = c.entropy;
        if (std::abs(groups[g].factor - 1.0) <= 1e-12)
            continue;
        EntropyResult::Curve curve;
        QStringList names;
        for (const ExplorerVariant* v : groups[g].members)
            names << v->label;
        curve.label = names.join(QStringLiteral(", "));
        curve.slot = first.slot;
        curve.logit_multiplier = groups[g].factor;
        curve.with_temperature = c.entropy_with_temperature;
        out.curves.push_back(std::move(curve));
    }
    return out;
}

} // namespace posatlas::ui
