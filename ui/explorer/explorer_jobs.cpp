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

std::vector<std::int64_t> entropy_lengths(std::int64_t target, int count)
{
    std::vector<std::int64_t> out;
    const double hi = static_cast<double>(std::max<std::int64_t>(target, 32));
    for (double x : log_space(16.0, hi, count)) {
        const auto n = static_cast<std::int64_t>(std::llround(x));
        if (out.empty() || n > out.back())
            out.push_back(n);
    }
    return out;
}

int entropy_length_count(EntropyContent content)
{
    return content == EntropyContent::RepeatedToken ? 13 : 7;
}

int entropy_trials(EntropyContent content)
{
    return content == EntropyContent::RepeatedToken ? 4 : 2;
}

std::optional<EntropyCurve> EntropyCache::find(const Key& key) const
{
    const std::lock_guard lock(m_mutex);
    for (const auto& [k, curve] : m_entries)
        if (k == key)
            return curve;
    return std::nullopt;
}

void EntropyCache::insert(const Key& key, const EntropyCurve& curve)
{
    const std::lock_guard lock(m_mutex);
    ++m_coreCalls;
    std::erase_if(m_entries, [&key](const auto& e) { return e.first == key; });
    m_entries.emplace_back(key, curve);
    if (m_entries.size() > kCapacity)
        m_entries.erase(m_entries.begin());
}

int EntropyCache::coreCalls() const
{
    const std::lock_guard lock(m_mutex);
    return m_coreCalls;
}

EntropyResult compute_explorer_entropy(const ExplorerInput& in, EntropyCache* cache, const CancelFn& cancel,
                                       const ProgressFn& progress)
{
    EntropyResult out;
    out.content = in.entropy_content;
    out.trials = in.trials > 0 ? in.trials : entropy_trials(in.entropy_content);
    out.lengths = entropy_lengths(in.target, entropy_length_count(in.entropy_content));
    try {
        validate(in.query_scale);
        out.query_scale = in.query_scale;
    } catch (const ParameterError&) {
        out.query_scale = {}; // e.g. a trained length of 1: the curves without it
    }
    const bool llama4 = out.query_scale.kind == QueryScaleKind::Llama4;
    // Every valid variant's key; the cached curves first, so that progress covers only the work left.
    struct Item {
        const ExplorerVariant* variant; // nullptr: the NoPE layer
        EntropyCache::Key key;
        double multiplier;
        std::optional<EntropyCurve> curve;
    };
    std::vector<Item> items;
    for (const ExplorerVariant& v : in.variants) {
        double multiplier = 1.0;
        try {
            multiplier = variant_frequencies(v, in.target).logit_multiplier();
        } catch (const ParameterError&) {
            continue; // the tables job reports it
        }
        EntropyCache::Key key{v.kind, v.params, in.entropy_content, out.lengths, in.seed, out.trials};
        key.params.seq_len = 0;
        if (!llama4) // Llama 4 applies its temperature on the NoPE layers only
            key.query_scale = out.query_scale;
        std::optional<EntropyCurve> curve = cache ? cache->find(key) : std::nullopt;
        items.push_back({&v, std::move(key), multiplier, std::move(curve)});
    }
    if (llama4) {
        EntropyCache::Key key{VariantKind::Unscaled, in.model, in.entropy_content,
                              out.lengths,           in.seed,  out.trials};
        key.params.seq_len = 0;
        key.query_scale = out.query_scale;
        key.nope = true;
        std::optional<EntropyCurve> curve = cache ? cache->find(key) : std::nullopt;
        items.push_back({nullptr, std::move(key), 1.0, std::move(curve)});
    }
    const auto todo = static_cast<double>(
        std::count_if(items.begin(), items.end(), [](const Item& i) { return !i.curve; }));
    for (Item& item : items) {
        if (item.curve)
            continue;
        const double done = static_cast<double>(out.computed);
        ProgressFn part = [&progress, done, todo](double f) {
            if (progress)
                progress((done + f) / todo);
        };
        FrequenciesAt frequencies;
        if (item.variant) {
            frequencies = [v = item.variant](std::int64_t n) { return variant_frequencies(*v, n); };
        } else {
            // A NoPE layer: no rotation (every frequency 0), no attention factor or softmax multiplier.
            const int rotary = item.key.params.rotary_dim();
            frequencies = [rotary](std::int64_t) {
                RopeFrequencies f;
                f.rotary_dim = rotary;
                f.inv_freq.assign(static_cast<std::size_t>(rotary / 2), 0.0);
                f.inv_freq_original = f.inv_freq;
                return f;
            };
        }
        try {
            item.curve = attention_entropy(item.key.params, in.entropy_content, frequencies, out.lengths,
                                           in.seed, out.trials, item.key.query_scale, cancel, part);
        } catch (const ParameterError&) {
            continue; // e.g. a length the variant rejects; the tables job reports parameter errors
        }
        ++out.computed;
        if (cache)
            cache->insert(item.key, *item.curve);
    }
    for (const Item& item : items) {
        if (!item.curve)
            continue;
        EntropyResult::Curve c;
        c.label = item.variant ? item.variant->label : ExplorerJobs::tr("NoPE layer");
        c.slot = item.variant ? item.variant->slot : EntropyResult::kNopeSlot;
        c.logit_multiplier = item.multiplier;
        c.without_temperature = item.curve->entropy;
        c.with_temperature = item.curve->entropy_with_temperature;
        c.with_query_scale = item.curve->entropy_with_query_scale;
        out.curves.push_back(std::move(c));
    }
    return out;
}

} // namespace posatlas::ui
