// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Helpers the view jobs share (view_jobs.cpp: heatmap, rotation, spectrum; curve_job.cpp: curves): the
// translation context of their texts, compact numbers, RoPE settings as the views show them, progress.

#include "analysis/decay.h"
#include "analysis/rope_compare.h"
#include "analysis/spectrum.h"
#include "jobs/figure_numbers.h"
#include "jobs/view_jobs.h"
#include "jobs/wording_text.h"
#include "methods/alibi/alibi.h"
#include "methods/deberta/deberta.h"
#include "methods/learned/learned.h"
#include "methods/rope/rope.h"
#include "methods/rope/rope_curves.h"
#include "methods/rope/rope_scaling.h"
#include "methods/t5/t5_buckets.h"
#include "model/scenario_model.h"
#include "scenario/validation.h"
#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <algorithm>
#include <cmath>
#include <limits>
#include <list>
#include <memory>
#include <mutex>

namespace posatlas::ui::view_job_support {

// Texts of the free functions below; lupdate reads ViewJobs::tr("...") under this context.
struct ViewJobs {
    Q_DECLARE_TR_FUNCTIONS(posatlas::ui::ViewJobs)
};
inline QString qs(std::string_view s)
{
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}
// Compact numbers for titles, by the GUI's one number policy (figure_style.h format_number): 10000,
// 5e6, 0.0625.
inline QString short_num(double v)
{
    return format_number(v, 6);
}

// The method without its citation, for titles that must fit a docked chart.
inline QString short_method_name(Method m)
{
    return methodShortName(m);
}

// Dynamic NTK and LongRoPE choose θ by the current sequence length (rope.seq_len). With none set, every
// view takes the target length, as core's rope_spectrum does, so the rotation, decay and spectrum views
// show the same θ; each names that length (length_note). The notes are core's (methods/rope/rope_curves.h).
inline bool length_dependent(const RopeParams& p)
{
    return rope_length_dependent(p);
}
inline RopeParams rope_for_views(const RopeParams& p)
{
    return rope_view_params(p);
}
inline QString length_note(const RopeParams& p)
{
    return wording_text(rope_length_note(p));
}
// A scaling type whose factor leaves every θ and the attention factor as they were (factor 1, or
// dynamic NTK below its trained length): the figures say so rather than look unchanged for no reason.
inline QString identity_note(const RopeParams& p, const RopeFrequencies& f)
{
    return wording_text(rope_identity_note(p, f));
}

// A linear / static NTK config without an original length (trained_length_ambiguous, rope_compare.h): the
// trained length shown is max_position_embeddings, a guess the user can correct.
inline QString trained_length_note(const RopeParams& p)
{
    return wording_text(rope_trained_length_note(p));
}

// Splits [0, 1] into consecutive sub-ranges so that several core calls report one overall progress.
inline ProgressFn sub_progress(const ProgressFn& progress, double lo, double hi)
{
    if (!progress)
        return {};
    return [progress, lo, hi](double f) { progress(lo + (hi - lo) * std::clamp(f, 0.0, 1.0)); };
}

// Head index as Unicode subscript digits: "m₁₅" reads as the paper's m_h and stays short.
inline QString subscript(int n)
{
    static const char16_t digits[] = u"₀₁₂₃₄₅₆₇₈₉";
    QString out;
    for (QChar c : QString::number(n))
        out += QChar(digits[c.unicode() - u'0']);
    return out;
}

// Heads shown as small multiples: all of them up to max_panels, else evenly spaced, first and last
// always included.
inline std::vector<int> sampled_heads(int heads, int max_panels)
{
    return sampled_curve_heads(heads, max_panels);
}

// The scenario shown with method `m` beside the current one (comparison panels, curve overlays): every
// parameter as it is; the head index is the current method's, so another method shows its head 0.
inline Scenario as_method(const Scenario& s, Method m)
{
    Scenario o = s;
    o.method = m;
    if (m != s.method)
        o.head = 0;
    return o;
}

inline QString kind_name(MatrixKind k)
{
    return kindLabel(k);
}

inline std::int64_t encoding_dim(const Scenario& s)
{
    return matrix_columns(s, MatrixKind::Encoding);
}

// The context a method "knows": distances of interest for curves reach a few times beyond it.
inline std::int64_t method_context(const Scenario& s)
{
    const MethodDescriptor& d = descriptor(s.method);
    return d.context_length ? d.context_length(s) : s.seq_len;
}

inline std::int64_t auto_max_distance(const Scenario& s, const ViewSettings& v)
{
    if (v.max_distance > 0)
        return std::min<std::int64_t>(v.max_distance, kMaxDistance);
    // Four times the model's context shows what happens past it; a longer sequence adds its own
    // distances, up to N - 1, the farthest it has (four times N drew RoPE's decay at 10^6 positions to
    // 4 x 10^6, three quarters of it at distances no pair of the sequence has).
    const std::int64_t context = method_context(s);
    return std::clamp<std::int64_t>(std::max<std::int64_t>(4 * context, s.seq_len - 1), 64, kMaxDistance);
}

// The series of an envelope (core's CurveEnvelope over bins starting at `dist`, divided by `scale`): for
// each bin its min and max at the bin's first distance, alternately min-max and max-min so that
// neighbouring bins join at the nearer extreme. Bins without a value are left out.

} // namespace posatlas::ui::view_job_support
