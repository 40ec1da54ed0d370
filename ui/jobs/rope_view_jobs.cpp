// SPDX-License-Identifier: GPL-3.0-or-later
// The jobs of the RoPE-only views: the rotation of every pair and the frequency spectrum (view_jobs.h).
#include "jobs/view_job_support.h"
#include "jobs/view_jobs.h"

#include "analysis/rope_compare.h"
#include "analysis/spectrum.h"
#include "methods/registry.h"
#include "methods/rope/rope.h"
#include "methods/rope/rope_scaling.h"
#include "scenario/validation.h"

#include <QCoreApplication>

#include <cmath>

namespace posatlas::ui {

using namespace view_job_support;

// ---------------------------------------------------------------- rotation

RotationData rotation_job(const Scenario& s, const ViewSettings& v, const CancelFn& cancel,
                          const ProgressFn& progress)
{
    RotationData data;
    data.query_position = v.query_position;
    data.key_position = v.key_position;
    const std::optional<RopeParams> rotary =
        rotary_params(s); // the rotations of a rotary method (registry.h)
    if (!rotary) {
        data.title =
            ViewJobs::tr("The rotation diagram applies to RoPE: choose RoPE (or a RoPE preset) to see it.");
        return data;
    }
    const RopeParams& rope = *rotary;
    validate(rope);
    check_cancel(cancel);
    const RopeFrequencies f = compute_rope_frequencies(rope_for_views(rope));
    // m, n and the scaling are in the view's legend and captions; the title names the model's shape.
    data.title =
        ViewJobs::tr("RoPE rotations · θ %1 · d %2").arg(short_num(rope.rope_theta)).arg(rope.head_dim);
    if (const QString note = length_note(rope); !note.isEmpty())
        data.title += ViewJobs::tr(" · ") + note;
    data.theta = f.inv_freq;
    data.wavelength = f.wavelength;
    data.angle_q = rope_angles(f, v.query_position);
    data.angle_k = rope_angles(f, v.key_position);
    data.angle_rel = rope_angles(f, v.query_position - v.key_position);
    data.attention_factor = f.attention_factor;
    const int pairs = f.pairs();
    if (!v.pairs.empty()) {
        for (int p : v.pairs)
            if (p >= 0 && p < pairs)
                data.shown_pairs.push_back(p);
    } else {
        data.shown_pairs = rope_default_shown_pairs(pairs);
    }
    report_progress(progress, 1.0);
    return data;
}

// ---------------------------------------------------------------- spectrum

SpectrumData spectrum_job(const Scenario& s, const ViewSettings&, const CancelFn& cancel,
                          const ProgressFn& progress)
{
    SpectrumData data;
    const std::optional<RopeParams> rotary =
        rotary_params(s); // the frequencies of a rotary method (registry.h)
    if (!rotary) {
        data.title =
            ViewJobs::tr("The frequency spectrum applies to RoPE: choose RoPE (or a RoPE preset) to see it.");
        return data;
    }
    const RopeParams& rope = *rotary;
    validate(rope);
    check_cancel(cancel);
    const std::int64_t trained = rope.trained_length();
    const std::int64_t target = rope_default_target_length(rope); // >= trained, as the explorer's
    // One table of core's (rope_pairs, as the explorer and `compute rope-pairs`): its columns and the
    // frequencies it was formed from (seq_len = target for dynamic NTK / LongRoPE, as rope_for_views).
    const RopePairsTable table = rope_pairs(rope, trained, target);
    const FrequencySpectrum sp = frequency_spectrum(table);
    const RopeFrequencies& f = table.frequencies;
    data.title = ViewJobs::tr("RoPE frequency spectrum · θ %1 · d %2")
                     .arg(short_num(rope.rope_theta))
                     .arg(rope.head_dim);
    data.pair.assign(sp.pair.begin(), sp.pair.end());
    data.theta_original = sp.theta_original;
    data.theta_scaled = sp.theta_scaled;
    data.wavelength_original = sp.wavelength_original;
    data.wavelength_scaled = sp.wavelength_scaled;
    data.ratio = sp.ratio;
    data.ramp = f.ramp;
    data.trained_length = static_cast<double>(trained);
    data.target_length = static_cast<double>(target);
    data.attention_factor = sp.attention_factor;
    data.softmax_scale = f.softmax_scale;
    data.scaling_label =
        rope.rope_type == RopeType::Default
            ? ViewJobs::tr("no scaling")
            : ViewJobs::tr("%1 · factor %2").arg(rope_scaling_name(rope.rope_type), short_num(f.factor_used));
    QStringList notes;
    for (const QString& extra : {length_note(rope), identity_note(rope, f), trained_length_note(rope)})
        if (!extra.isEmpty())
            notes << extra;
    data.note = notes.join(ViewJobs::tr(" · "));
    report_progress(progress, 1.0);
    return data;
}

} // namespace posatlas::ui
