// SPDX-License-Identifier: GPL-3.0-or-later
#include "jobs/view_jobs.h"

#include "model/scenario_model.h"

#include "analysis/decay.h"
#include "analysis/rope_compare.h"
#include "analysis/spectrum.h"
#include "methods/alibi/alibi.h"
#include "methods/deberta/deberta.h"
#include "methods/learned/learned.h"
#include "methods/rope/rope.h"
#include "methods/rope/rope_scaling.h"
#include "methods/t5/t5_buckets.h"
#include "scenario/validation.h"
#include "views/figure_style.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>

#include <algorithm>
#include <cmath>
#include <limits>
#include <list>
#include <memory>
#include <mutex>

namespace posatlas::ui {
namespace {

// Texts of the free functions below; lupdate reads ViewJobs::tr("...") under this context.
struct ViewJobs {
    Q_DECLARE_TR_FUNCTIONS(posatlas::ui::ViewJobs)
};
QString qs(std::string_view s)
{
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}
// Compact numbers for titles, by the GUI's one number policy (figure_style.h format_number): 10000,
// 5e6, 0.0625.
QString short_num(double v)
{
    return format_number(v, 6);
}

// The method without its citation, for titles that must fit a docked chart.
QString short_method_name(Method m) { return methodShortName(m); }

// Dynamic NTK and LongRoPE choose θ by the current sequence length (rope.seq_len). With none set, every
// view takes the target length, as core's rope_spectrum does, so the rotation, decay and spectrum views
// show the same θ; each names that length (length_note).
bool length_dependent(const RopeParams& p)
{
    return p.rope_type == RopeType::Dynamic || p.rope_type == RopeType::LongRope;
}
RopeParams rope_for_views(const RopeParams& p)
{
    RopeParams q = p;
    if (length_dependent(p) && p.seq_len == 0)
        q.seq_len = rope_default_target_length(p);
    return q;
}
QString length_note(const RopeParams& p)
{
    if (!length_dependent(p))
        return {};
    const std::int64_t n = rope_for_views(p).seq_len;
    return p.seq_len == 0 ? ViewJobs::tr("θ for length %1 (the target length)").arg(n)
                          : ViewJobs::tr("θ for length %1").arg(n);
}
// A scaling type whose factor leaves every θ and the attention factor as they were (factor 1, or
// dynamic NTK below its trained length): the figures say so rather than look unchanged for no reason.
QString identity_note(const RopeParams& p, const RopeFrequencies& f)
{
    if (p.rope_type == RopeType::Default || f.inv_freq != f.inv_freq_original || f.attention_factor != 1.0)
        return {};
    return ViewJobs::tr("%1 × %2 is the identity here: θ′ = θ").arg(qs(rope_type_id(p.rope_type)), short_num(p.factor));
}

// Splits [0, 1] into consecutive sub-ranges so that several core calls report one overall progress.
ProgressFn sub_progress(const ProgressFn& progress, double lo, double hi)
{
    if (!progress)
        return {};
    return [progress, lo, hi](double f) { progress(lo + (hi - lo) * std::clamp(f, 0.0, 1.0)); };
}

// Head index as Unicode subscript digits: "m₁₅" reads as the paper's m_h and stays short.
QString subscript(int n)
{
    static const char16_t digits[] = u"₀₁₂₃₄₅₆₇₈₉";
    QString out;
    for (QChar c : QString::number(n))
        out += QChar(digits[c.unicode() - u'0']);
    return out;
}

// "2⁻⁷·⁵" for a slope of 2^-7.5: ALiBi's slopes are a geometric sequence in powers of two (Press et al.
// sec. 3), and the exponent is the compact label for narrow small multiples.
QString power_of_two(double value)
{
    static const char16_t digits[] = u"⁰¹²³⁴⁵⁶⁷⁸⁹";
    const QString exponent = QString::number(std::log2(value), 'g', 3);
    QString out = QStringLiteral("2");
    for (QChar c : exponent) {
        if (c == QLatin1Char('-'))
            out += QChar(u'⁻');
        else if (c == QLatin1Char('.'))
            out += QChar(u'·');
        else if (c.isDigit())
            out += QChar(digits[c.unicode() - u'0']);
    }
    return out;
}

// Heads shown as small multiples: all of them up to max_panels, else evenly spaced, first and last
// always included.
std::vector<int> sampled_heads(int heads, int max_panels)
{
    std::vector<int> out;
    if (heads <= max_panels) {
        for (int h = 0; h < heads; ++h)
            out.push_back(h);
        return out;
    }
    for (int k = 0; k < max_panels; ++k)
        out.push_back(static_cast<int>(std::lround(static_cast<double>(k) * (heads - 1) / (max_panels - 1))));
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

QString kind_name(MatrixKind k) { return kindLabel(k); }

std::int64_t encoding_dim(const Scenario& s) { return matrix_columns(s, MatrixKind::Encoding); }

// The context a method "knows": distances of interest for curves reach a few times beyond it.
std::int64_t method_context(const Scenario& s)
{
    const MethodDescriptor& d = descriptor(s.method);
    return d.context_length ? d.context_length(s) : s.seq_len;
}

std::int64_t auto_max_distance(const Scenario& s, const ViewSettings& v)
{
    if (v.max_distance > 0)
        return std::min<std::int64_t>(v.max_distance, kMaxDistance);
    const std::int64_t ctx = std::max<std::int64_t>(method_context(s), s.seq_len);
    return std::clamp<std::int64_t>(4 * ctx, 64, kMaxDistance);
}

// The series of an envelope (core's CurveEnvelope over bins starting at `dist`, divided by `scale`): for
// each bin its min and max at the bin's first distance, alternately min-max and max-min so that
// neighbouring bins join at the nearer extreme. Bins without a value are left out.
void append_envelope(CurveSeries& series, const std::vector<double>& dist, const CurveEnvelope& env, double scale)
{
    series.envelope = true;
    series.x.reserve(2 * dist.size());
    series.y.reserve(2 * dist.size());
    for (std::size_t b = 0; b < dist.size(); ++b) {
        if (!std::isfinite(env.min[b]) || !std::isfinite(env.max[b]))
            continue;
        const bool up = b % 2 == 0;
        series.x.push_back(dist[b]);
        series.y.push_back((up ? env.min[b] : env.max[b]) / scale);
        if (env.max[b] != env.min[b]) {
            series.x.push_back(dist[b]);
            series.y.push_back((up ? env.max[b] : env.min[b]) / scale);
        }
    }
}

// Logit of query `query` (default: the last position) against keys at distance r = query - j >= 0, from
// core's compute_matrix: the curve for methods without a closed-form decay, and the common unit for
// overlaid methods. Up to `points` distances (log-spaced with log_x): every integer when they fit, else
// the exact min and max over every integer distance of each bin (core's logit_curve_envelope), so that
// an oscillating curve keeps its peaks at any N. The crosshair reads the exact logit at the integer r.
CurveSeries logit_series(const Scenario& s, int points, bool log_x, const CancelFn& cancel,
                         const ProgressFn& progress, std::int64_t query = -1)
{
    if (query < 0)
        query = s.seq_len - 1;
    CurveSeries series;
    series.name = qs(method_display_name(s.method)) + ViewJobs::tr(" · logit");
    series.value_at = [s, query](double x) {
        const double r = std::round(x);
        if (!(r >= 0.0 && r <= static_cast<double>(query)))
            return std::numeric_limits<double>::quiet_NaN();
        return logit_at_distance(s, query, static_cast<std::int64_t>(r));
    };
    const std::vector<double> dist = decay_distances(query, static_cast<std::size_t>(std::max(2, points)), log_x);
    std::vector<std::int64_t> edges(dist.size() + 1);
    for (std::size_t i = 0; i < dist.size(); ++i)
        edges[i] = static_cast<std::int64_t>(dist[i]);
    edges.back() = query + 1;
    const CurveEnvelope env = logit_curve_envelope(s, query, edges, cancel, progress);
    if (dist.size() == static_cast<std::size_t>(query) + 1) { // every integer: the values themselves
        for (std::size_t b = 0; b < dist.size(); ++b)
            if (std::isfinite(env.min[b])) {
                series.x.push_back(dist[b]);
                series.y.push_back(env.min[b]);
            }
        return series;
    }
    append_envelope(series, dist, env, 1.0);
    return series;
}

// The query whose logits a curve shows: the last position, or for a learned table shorter than the
// sequence (GPT-2: 1024 rows) the last position that has an embedding (the table is loaded for its
// length, as core reads it).
std::int64_t curve_query(const Scenario& s)
{
    if (s.method != Method::Learned)
        return s.seq_len - 1;
    return std::min(s.seq_len, learned_shape(s.params<LearnedParams>()).trained_length) - 1;
}

CurveSeries make_series(const QString& name, std::vector<double> x = {}, std::vector<double> y = {})
{
    CurveSeries series;
    series.name = name;
    series.x = std::move(x);
    series.y = std::move(y);
    return series;
}

// A RoPE decay curve divided by `scale` over the distances `dist` (sorted integers from 0 to max_d). Where
// the samples skip integers, each sample stands for the bin of integers up to the next one and the
// series is the exact envelope of that bin (core's rope_curve_envelope); otherwise the values
// themselves. Either way the crosshair reads the exact value at the integer under the cursor.
CurveSeries rope_curve_series(const QString& name, RopeCurve curve, const std::vector<double>& inv_freq,
                              double scale, const std::vector<double>& dist, std::int64_t max_d,
                              const CancelFn& cancel, const ProgressFn& progress)
{
    CurveSeries series = make_series(name);
    series.value_at = [curve, inv_freq, scale, max_d](double x) {
        const double r = std::round(x);
        if (!(r >= 0.0 && r <= static_cast<double>(max_d)))
            return std::numeric_limits<double>::quiet_NaN();
        const std::vector<double> v =
            curve == RopeCurve::Bound ? rope_decay_bound(inv_freq, {r}) : rope_mean_cos(inv_freq, {r});
        return v.front() / scale;
    };
    if (dist.size() == static_cast<std::size_t>(max_d) + 1) { // every integer: nothing to hide
        series.x = dist;
        series.y = curve == RopeCurve::Bound ? rope_decay_bound(inv_freq, dist, cancel, progress)
                                             : rope_mean_cos(inv_freq, dist, cancel, progress);
        for (double& y : series.y)
            y /= scale;
        return series;
    }
    std::vector<std::int64_t> edges(dist.size() + 1);
    for (std::size_t i = 0; i < dist.size(); ++i)
        edges[i] = static_cast<std::int64_t>(dist[i]);
    edges.back() = max_d + 1;
    append_envelope(series, dist, rope_curve_envelope(curve, inv_freq, edges, cancel, progress), scale);
    return series;
}

// Curve distances (whole numbers, decay_distances) as the integer positions core's series take.
std::vector<std::int64_t> integer_distances(const std::vector<double>& dist)
{
    std::vector<std::int64_t> out(dist.size());
    for (std::size_t i = 0; i < dist.size(); ++i)
        out[i] = static_cast<std::int64_t>(dist[i]);
    return out;
}

template <typename T>
std::vector<double> to_doubles(const std::vector<T>& v)
{
    return std::vector<double>(v.begin(), v.end());
}

CurveMarker make_marker(double value, const QString& label)
{
    CurveMarker marker;
    marker.value = value;
    marker.label = label;
    return marker;
}

void drop_nonpositive_x(CurveSeries& series)
{
    // A log axis cannot show r = 0; the curve starts at r = 1 instead.
    std::size_t k = 0;
    for (std::size_t i = 0; i < series.x.size(); ++i)
        if (series.x[i] > 0.0) {
            series.x[k] = series.x[i];
            series.y[k] = series.y[i];
            ++k;
        }
    series.x.resize(k);
    series.y.resize(k);
}

} // namespace


MatrixKind effective_matrix_kind(const Scenario& s, const ViewSettings& settings)
{
    const std::vector<MatrixKind> kinds = matrix_kinds_for(s.method);
    if (settings.matrix_kind && std::find(kinds.begin(), kinds.end(), *settings.matrix_kind) != kinds.end())
        return *settings.matrix_kind;
    return kinds.empty() ? MatrixKind::Logits : kinds.front();
}

int per_head_count(const Scenario& s)
{
    const MethodDescriptor& d = descriptor(s.method);
    return d.heads ? d.heads(s) : 0;
}

QString scenario_caption(const Scenario& s, bool with_method)
{
    QString text = with_method ? methodName(s.method) : QString();
    const MethodDescriptor& d = descriptor(s.method);
    const auto& learned = s.params<LearnedParams>();
    if (s.method == Method::Learned && !learned.table_path.empty()) {
        // A user's table: its name, not the stand-in's dimension and length it overrides.
        text += ViewJobs::tr(" · table %1").arg(QFileInfo(QFile::decodeName(learned.table_path.c_str())).fileName());
    } else {
        for (const auto& [key, format] : d.caption_fields) {
            const Field* f = d.field(key);
            if (!f || (f->shown && !f->shown(s)))
                continue;
            const QString pattern = QCoreApplication::translate("Caption", format);
            QString value;
            switch (f->type) {
            case FieldType::Bool:
                if (!f->number(s))
                    continue;
                break;
            case FieldType::Choice: {
                const int index = static_cast<int>(f->number(s));
                if (index == 0)
                    continue;
                value = qs(f->choices[static_cast<std::size_t>(index)].id);
                break;
            }
            case FieldType::Int:
            case FieldType::Seed: value = QString::number(static_cast<qlonglong>(f->number(s))); break;
            default: value = short_num(f->number(s)); break;
            }
            text += QStringLiteral(" · ") + (pattern.contains(QLatin1String("%1")) ? pattern.arg(value) : pattern);
        }
    }
    text += ViewJobs::tr(" · N %1").arg(s.seq_len);
    if (!with_method && text.startsWith(QStringLiteral(" · ")))
        text.remove(0, 3);
    return text;
}

// ---------------------------------------------------------------- heatmap

namespace {

// Whole matrices of recent heatmap jobs: zooming and panning ask for one window after another of the
// same matrix, whose colour scale is the whole matrix's; it is computed once, not once per window.
// Shared by the worker threads (a mutex), bounded by the number of cells kept.
class WholeMatrixCache
{
public:
    struct Key {
        Scenario scenario;
        MatrixKind kind;
        std::int64_t out_rows, out_cols;
        SampleMode sample;
        bool operator==(const Key&) const = default;
    };
    std::shared_ptr<const MatrixResult> find(const Key& key)
    {
        const std::lock_guard lock(m_mutex);
        for (const auto& [k, m] : m_entries)
            if (k == key)
                return m;
        return nullptr;
    }
    void insert(const Key& key, std::shared_ptr<const MatrixResult> m)
    {
        const std::lock_guard lock(m_mutex);
        m_entries.emplace_front(key, std::move(m));
        std::int64_t cells = 0;
        for (auto it = m_entries.begin(); it != m_entries.end(); ++it) {
            cells += it->second->values.size();
            if (cells > kMaxCells && it != m_entries.begin()) {
                m_entries.erase(it, m_entries.end());
                break;
            }
        }
    }

private:
    static constexpr std::int64_t kMaxCells = std::int64_t{8} << 20; // 64 MiB of doubles
    std::mutex m_mutex;
    std::list<std::pair<Key, std::shared_ptr<const MatrixResult>>> m_entries;
};

WholeMatrixCache& whole_matrix_cache()
{
    static WholeMatrixCache cache;
    return cache;
}

} // namespace

ViewSettings normalized_view_settings(const Scenario& s, ViewSettings v)
{
    const std::vector<MatrixKind> kinds = matrix_kinds_for(s.method);
    if (v.matrix_kind && std::find(kinds.begin(), kinds.end(), *v.matrix_kind) == kinds.end())
        v.matrix_kind.reset();
    const std::int64_t n = std::max<std::int64_t>(s.seq_len, 1);
    const auto clamp_axis = [](std::int64_t& first, std::int64_t& count, std::int64_t size) {
        first = std::clamp<std::int64_t>(first, 0, size - 1);
        count = std::clamp<std::int64_t>(count, 0, size - first);
    };
    clamp_axis(v.row0, v.rows, n);
    // An encoding's columns are dimensions, whose number a user's table may only tell by reading the
    // file (not here, on the GUI thread): the job clamps those to the table's width.
    if (effective_matrix_kind(s, v) == MatrixKind::Encoding)
        clamp_axis(v.col0, v.cols, std::numeric_limits<std::int64_t>::max());
    else
        clamp_axis(v.col0, v.cols, n);
    return v;
}

HeatmapData heatmap_job(const Scenario& s, const ViewSettings& v, const CancelFn& cancel,
                        const ProgressFn& progress)
{
    validate(s);
    const MatrixKind kind = effective_matrix_kind(s, v);
    HeatmapData data;
    data.title = scenario_caption(s) + QStringLiteral(" · ") + kind_name(kind);
    data.per_panel_scales = v.per_panel_scales;
    data.subtract_mean = v.subtract_mean;

    MatrixWindow w;
    const std::int64_t n = s.seq_len;
    // Columns are positions, or for an encoding embedding dimensions, as many as core's table has (a
    // user's table sets its own width: encoding_dim), so the window clamps to them like rows to the sequence.
    const std::int64_t ncols = kind == MatrixKind::Encoding ? encoding_dim(s) : n;
    w.row0 = std::clamp<std::int64_t>(v.row0, 0, n - 1);
    w.rows = v.rows > 0 ? std::min(v.rows, n - w.row0) : n - w.row0;
    w.col0 = std::clamp<std::int64_t>(v.col0, 0, ncols - 1);
    w.cols = v.cols > 0 ? std::min(v.cols, ncols - w.col0) : ncols - w.col0;
    data.window = {w.row0, w.col0, w.rows, w.cols};
    data.whole = {0, 0, n, ncols};

    const int heads = per_head_count(s);
    const bool perHead =
        v.small_multiples && heads > 1 && (kind == MatrixKind::Bias || kind == MatrixKind::Logits);
    const std::vector<int> shown =
        perHead ? sampled_heads(heads, std::max(1, v.max_panels)) : std::vector<int>{s.head};
    // Small multiples share the view: a grid of about sqrt(count) columns, each panel its share of pixels.
    const int gridCols =
        perHead ? static_cast<int>(std::ceil(std::sqrt(static_cast<double>(shown.size())))) : 1;
    const int gridRows = perHead ? static_cast<int>((shown.size() + gridCols - 1) / gridCols) : 1;
    const std::int64_t pixelRows = std::max(8, v.pixel_height / gridRows);
    const std::int64_t pixelCols = std::max(8, v.pixel_width / gridCols);
    w.out_rows = std::min<std::int64_t>(w.rows, pixelRows);
    w.out_cols = std::min<std::int64_t>(w.cols, pixelCols);
    // A pixel shows the exact mean of its block (or says it is a point sample: MatrixResult::sampling);
    // float32 products are far below what a colour map can show (README, Benchmarks). Exact means over
    // random content generate every position's q and k (seconds beyond ~10^6 positions), too slow for
    // a slider: there the view asks for point samples, and its readout says so.
    w.precision = Precision::Single;
    constexpr std::int64_t kInteractiveRandomPositions = std::int64_t{1} << 19;
    const auto sample_for = [&](const MatrixWindow& m) {
        return s.content.kind == ContentKind::Random && m.rows + m.cols > kInteractiveRandomPositions
                   ? SampleMode::Point
                   : SampleMode::BlockMean;
    };
    w.sample = sample_for(w);

    // A zoomed window also gets the whole matrix, exactly as the unzoomed view computes it (same
    // pixel grid, same sampling): its colour scale, so that zooming does not recolour a cell.
    const bool zoomed = w.row0 != 0 || w.col0 != 0 || w.rows != n || w.cols != ncols;
    MatrixWindow whole;
    whole.rows = n;
    whole.cols = ncols;
    whole.out_rows = std::min<std::int64_t>(n, pixelRows);
    whole.out_cols = std::min<std::int64_t>(ncols, pixelCols);
    whole.precision = w.precision;
    whole.sample = sample_for(whole);

    std::vector<double> slopes;
    if (perHead && s.method == Method::ALiBi)
        slopes = alibi_scaled_slopes(s.params<AlibiParams>());

    for (std::size_t k = 0; k < shown.size(); ++k) {
        check_cancel(cancel);
        Scenario sh = s;
        sh.head = shown[k];
        HeatmapPanel panel;
        const double p0 = double(k) / shown.size(), p1 = double(k + 1) / shown.size();
        double mid = p0;
        if (zoomed) {
            const WholeMatrixCache::Key key{sh, kind, whole.out_rows, whole.out_cols, whole.sample};
            panel.whole = whole_matrix_cache().find(key);
            if (!panel.whole) {
                mid = 0.5 * (p0 + p1);
                auto m = std::make_shared<const MatrixResult>(
                    compute_matrix(sh, kind, whole, cancel, sub_progress(progress, p0, mid)));
                whole_matrix_cache().insert(key, m);
                panel.whole = std::move(m);
            }
        }
        panel.matrix = compute_matrix(sh, kind, w, cancel, sub_progress(progress, mid, p1));
        if (perHead) {
            // Compact: small multiples can be narrow.
            panel.label = ViewJobs::tr("h%1").arg(shown[k]);
            if (static_cast<std::size_t>(shown[k]) < slopes.size())
                panel.label = ViewJobs::tr("m%1=%2").arg(subscript(shown[k]),
                                               // Many small panels are narrow: the power of two then.
                                               shown.size() > 9
                                                   ? power_of_two(slopes[static_cast<std::size_t>(shown[k])])
                                                   : QString::number(slopes[static_cast<std::size_t>(shown[k])],
                                                                     'g', 3));
        }
        data.panels.push_back(std::move(panel));
    }
    if (perHead && shown.size() < static_cast<std::size_t>(heads))
        data.title += ViewJobs::tr(" · %1 of %2 heads").arg(shown.size()).arg(heads);
    report_progress(progress, 1.0);
    return data;
}

// ---------------------------------------------------------------- curves

CurveData curve_job(const Scenario& s, const ViewSettings& v, const CancelFn& cancel,
                    const ProgressFn& progress)
{
    validate(s);
    CurveData data;
    data.log_x = v.log_x;
    data.x_label = ViewJobs::tr("relative distance r (positions)");
    const std::int64_t maxD = auto_max_distance(s, v);
    const auto points = static_cast<std::size_t>(std::max(16, v.curve_points));
    const std::vector<double> dist = decay_distances(maxD, points, v.log_x);
    const double overlayShare = v.overlay.empty() ? 1.0 : 0.7;
    const ProgressFn mainProgress = sub_progress(progress, 0.0, overlayShare);

    bool logitCurve = false; // the method's curve is logit against distance (else a unit of its own)
    if (s.method == Method::RoPE) {

        const RopeFrequencies f = compute_rope_frequencies(rope_for_views(s.params<RopeParams>()));
        data.title = ViewJobs::tr("RoPE long-term decay · ") + scenario_caption(s, false);
        data.y_label = ViewJobs::tr("relative size");
        // The bound is shown relative to its value at r = 0, so that it shares the axis with the mean
        // cosine (1 at r = 0): both then show the decay's shape.
        const double bound0 = rope_decay_bound(f.inv_freq, {0.0}).front();
        data.series.push_back(rope_curve_series(ViewJobs::tr("RoFormer bound ÷ bound(0)"), RopeCurve::Bound, f.inv_freq,
                                                bound0, dist, maxD, cancel, sub_progress(mainProgress, 0, 0.35)));
        data.series.push_back(rope_curve_series(ViewJobs::tr("mean cos(r θ_i)"), RopeCurve::MeanCos, f.inv_freq, 1.0, dist,
                                                maxD, cancel, sub_progress(mainProgress, 0.35, 0.7)));
        if (f.inv_freq != f.inv_freq_original) {
            CurveSeries orig =
                rope_curve_series(ViewJobs::tr("RoFormer bound ÷ bound(0), unscaled θ"), RopeCurve::Bound,
                                  f.inv_freq_original, bound0, dist, maxD, cancel, sub_progress(mainProgress, 0.7, 1.0));
            orig.dashed = true;
            data.series.push_back(std::move(orig));
        }
        data.markers.push_back(make_marker(static_cast<double>(s.params<RopeParams>().trained_length()),
                                           ViewJobs::tr("trained %1").arg(s.params<RopeParams>().trained_length())));
        if (const std::int64_t target = rope_default_target_length(s.params<RopeParams>()); target != s.params<RopeParams>().trained_length())
            data.markers.push_back(make_marker(static_cast<double>(target), ViewJobs::tr("target %1").arg(target)));
        // Short: the note shares a line with the chart's controls. (Bound: Su et al. 2021 sec. 3.4.3.)
        data.note = ViewJobs::tr("bound(0) = %1 · attention factor %2").arg(short_num(bound0), format_number(f.attention_factor, 4));
        for (const QString& extra : {length_note(s.params<RopeParams>()), identity_note(s.params<RopeParams>(), f)})
            if (!extra.isEmpty())
                data.note += ViewJobs::tr(" · ") + extra;
    } else if (s.method == Method::ALiBi) {

        data.title = ViewJobs::tr("ALiBi attention decay exp(−m r) per head · ") + scenario_caption(s, false);
        data.y_label = ViewJobs::tr("weight factor exp(−m r)");
        const std::vector<double> slopes = alibi_scaled_slopes(s.params<AlibiParams>());
        // At most 8 curves: more would not fit a readable legend.
        for (int h : sampled_heads(static_cast<int>(slopes.size()), 8)) {
            check_cancel(cancel);
            const double m = slopes[static_cast<std::size_t>(h)];
            data.series.push_back(make_series(ViewJobs::tr("m%1=%2").arg(subscript(h), QString::number(m, 'g', 2)),
                                              dist, alibi_decay(m, dist)));
        }
        data.log_y = false;
        if (s.params<AlibiParams>().scaling != AlibiScaling::None) {
            data.markers.push_back(make_marker(static_cast<double>(s.params<AlibiParams>().trained_length),
                                               ViewJobs::tr("trained %1").arg(s.params<AlibiParams>().trained_length)));
            data.markers.push_back(make_marker(static_cast<double>(s.params<AlibiParams>().target_length),
                                               ViewJobs::tr("target %1").arg(s.params<AlibiParams>().target_length)));
        }

    } else if (s.method == Method::T5) {

        data.title = ViewJobs::tr("T5 relative-position buckets · ") + scenario_caption(s, false);
        data.y_label = ViewJobs::tr("bucket index");
        const T5DistanceBuckets b = t5_distance_buckets(s.params<T5Params>(), integer_distances(dist));
        // Causal T5 buckets only keys before the query (relative_position <= 0): one series.
        CurveSeries first = s.params<T5Params>().bidirectional
                                ? make_series(ViewJobs::tr("key after query (j − i = +r)"), dist, to_doubles(b.after))
                                : make_series(ViewJobs::tr("key before query (causal)"), dist, to_doubles(b.before));
        first.step = true;
        data.series.push_back(std::move(first));
        if (s.params<T5Params>().bidirectional) {
            CurveSeries before = make_series(ViewJobs::tr("key before query (j − i = −r)"), dist, to_doubles(b.before));
            before.step = true;
            data.series.push_back(std::move(before));
        }
        data.markers.push_back(make_marker(static_cast<double>(s.params<T5Params>().max_distance),
                                           ViewJobs::tr("max distance %1").arg(s.params<T5Params>().max_distance)));
    } else if (s.method == Method::DeBERTa) {
        data.title = ViewJobs::tr("DeBERTa log-bucketed relative position · ") + scenario_caption(s, false);
        data.y_label = ViewJobs::tr("relative position δ (bucketed)");
        // What attention uses is the relative-embedding row, the bucket clamped to the embedding table
        // (core deberta_relative_positions: delta_used, in the unit of delta); the bucket itself keeps
        // rising past max_relative_positions, so it is drawn dashed for comparison.
        const DebertaPositionSeries p = deberta_relative_positions(s.params<DebertaParams>(), integer_distances(dist));
        CurveSeries used = make_series(ViewJobs::tr("row used by attention (clamped to ±%1)").arg(p.att_span), dist,
                                       to_doubles(p.delta_used));
        CurveSeries bucket = make_series(ViewJobs::tr("bucket δ before clamping"), dist, to_doubles(p.delta));
        used.step = bucket.step = true;
        bucket.dashed = true;
        const bool clamps = p.delta_used != p.delta;
        data.series.push_back(std::move(used));
        if (clamps)
            data.series.push_back(std::move(bucket));
        if (s.params<DebertaParams>().position_buckets > 0)
            data.markers.push_back(make_marker(s.params<DebertaParams>().position_buckets / 2.0,
                                               ViewJobs::tr("exact up to %1").arg(s.params<DebertaParams>().position_buckets / 2)));
        data.markers.push_back(make_marker(static_cast<double>(s.params<DebertaParams>().max_relative_positions),
                                           ViewJobs::tr("max relative %1").arg(s.params<DebertaParams>().max_relative_positions)));

    } else {
        // Short: the full method name with its citation made this title longer than a docked chart
        // (it is in the heatmap's title and the panel); "last query" moves to the note.
        data.title = ViewJobs::tr("%1 logit against distance · %2").arg(short_method_name(s.method), scenario_caption(s, false));
        data.y_label = ViewJobs::tr("logit");
        logitCurve = true;
        const std::int64_t query = curve_query(s);
        if (query < s.seq_len - 1) { // a learned table shorter than the sequence
            data.title = ViewJobs::tr("%1 logit vs distance (query %2) · %3")
                             .arg(short_method_name(s.method))
                             .arg(query)
                             .arg(scenario_caption(s, false));
            data.note = ViewJobs::tr("no learned embedding at positions ≥ %1: distances from query %2").arg(query + 1).arg(query);
        } else {
            data.note = ViewJobs::tr("the last query's logits; distances up to N − 1 = %1: increase the sequence length to "
                           "see further")
                            .arg(s.seq_len - 1);
        }
        data.series.push_back(logit_series(s, static_cast<int>(points), v.log_x, cancel, mainProgress, query));

    }


    // Overlays are logits of the last query against distance. The method's own curve above may be in
    // another unit (RoPE's relative size, ALiBi's weight factor, bucket indices): on one axis that would
    // mix units, so with overlays every method, this one included, is drawn as that logit.
    const bool overlaid = std::any_of(v.overlay.begin(), v.overlay.end(), [&](Method m) { return m != s.method; });
    if (overlaid && !logitCurve) {
        data.series.clear();
        data.markers.clear();
        data.series.push_back(logit_series(s, static_cast<int>(points), v.log_x, cancel, mainProgress, curve_query(s)));
        data.title = ViewJobs::tr("Logit against distance (last query) · ") + scenario_caption(s, false);
        data.y_label = ViewJobs::tr("logit");
        data.note = ViewJobs::tr("overlay: every curve is the logit of the last query against distance, in one unit");
    }
    for (std::size_t k = 0; k < v.overlay.size(); ++k) {
        if (v.overlay[k] == s.method)
            continue;
        check_cancel(cancel);
        Scenario o = s;
        o.method = v.overlay[k];
        o.head = 0;
        CurveSeries series =
            logit_series(o, static_cast<int>(points), v.log_x, cancel,
                         sub_progress(progress, overlayShare + (1 - overlayShare) * k / v.overlay.size(),
                                      overlayShare + (1 - overlayShare) * (k + 1) / v.overlay.size()),
                         curve_query(o));
        series.dashed = true;
        data.series.push_back(std::move(series));
    }

    if (data.log_x)
        for (auto& series : data.series)
            drop_nonpositive_x(series);
    // A vertical marker beyond the curves (a 4096 context on a 256-distance plot) would stretch the
    // axis and squash the data into a corner: keep only the markers inside the plotted range.
    double x_max = 0.0;
    for (const auto& series : data.series)
        for (double x : series.x)
            x_max = std::max(x_max, x);
    data.markers.erase(std::remove_if(data.markers.begin(), data.markers.end(),
                                      [&](const CurveMarker& m) { return m.vertical && m.value > x_max; }),
                       data.markers.end());
    report_progress(progress, 1.0);
    return data;
}

// ---------------------------------------------------------------- rotation

RotationData rotation_job(const Scenario& s, const ViewSettings& v, const CancelFn& cancel,
                          const ProgressFn& progress)
{
    RotationData data;
    data.query_position = v.query_position;
    data.key_position = v.key_position;
    if (s.method != Method::RoPE) {
        data.title = ViewJobs::tr("The rotation diagram applies to RoPE: choose RoPE (or a RoPE preset) to see it.");
        return data;
    }
    validate(s.params<RopeParams>());
    check_cancel(cancel);
    const RopeFrequencies f = compute_rope_frequencies(rope_for_views(s.params<RopeParams>()));
    // m, n and the scaling are in the view's legend and captions; the title names the model's shape.
    data.title = ViewJobs::tr("RoPE rotations · θ %1 · d %2").arg(short_num(s.params<RopeParams>().rope_theta)).arg(s.params<RopeParams>().head_dim);
    if (const QString note = length_note(s.params<RopeParams>()); !note.isEmpty())
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
        data.shown_pairs = {0, pairs / 4, pairs / 2, pairs - 1};
        std::sort(data.shown_pairs.begin(), data.shown_pairs.end());
        data.shown_pairs.erase(std::unique(data.shown_pairs.begin(), data.shown_pairs.end()),
                               data.shown_pairs.end());
    }
    report_progress(progress, 1.0);
    return data;
}

// ---------------------------------------------------------------- spectrum

SpectrumData spectrum_job(const Scenario& s, const ViewSettings&, const CancelFn& cancel,
                          const ProgressFn& progress)
{
    SpectrumData data;
    if (s.method != Method::RoPE) {
        data.title = ViewJobs::tr("The frequency spectrum applies to RoPE: choose RoPE (or a RoPE preset) to see it.");
        return data;
    }
    validate(s.params<RopeParams>());
    check_cancel(cancel);
    const std::int64_t trained = s.params<RopeParams>().trained_length();
    const std::int64_t target = rope_default_target_length(s.params<RopeParams>()); // >= trained, as the explorer's
    // One table of core's (rope_pairs, as the explorer and `compute rope-pairs`): its columns and the
    // frequencies it was formed from (seq_len = target for dynamic NTK / LongRoPE, as rope_for_views).
    const RopePairsTable table = rope_pairs(s.params<RopeParams>(), trained, target);
    const FrequencySpectrum sp = frequency_spectrum(table);
    const RopeFrequencies& f = table.frequencies;
    data.title =
        ViewJobs::tr("RoPE frequency spectrum · θ %1 · d %2").arg(short_num(s.params<RopeParams>().rope_theta)).arg(s.params<RopeParams>().head_dim);
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
    data.scaling_label =
        s.params<RopeParams>().rope_type == RopeType::Default
            ? ViewJobs::tr("no scaling")
            : ViewJobs::tr("%1 · factor %2").arg(qs(rope_type_id(s.params<RopeParams>().rope_type)), short_num(f.factor_used));
    QStringList notes;
    for (const QString& extra : {length_note(s.params<RopeParams>()), identity_note(s.params<RopeParams>(), f)})
        if (!extra.isEmpty())
            notes << extra;
    data.note = notes.join(ViewJobs::tr(" · "));
    report_progress(progress, 1.0);
    return data;
}

ViewResult run_view_job(ViewKind kind, const Scenario& s, const ViewSettings& settings,
                        const CancelFn& cancel, const ProgressFn& progress)
{
    switch (kind) {
    case ViewKind::Heatmap: return heatmap_job(s, settings, cancel, progress);
    case ViewKind::Curves: return curve_job(s, settings, cancel, progress);
    case ViewKind::Rotation: return rotation_job(s, settings, cancel, progress);
    case ViewKind::Spectrum: return spectrum_job(s, settings, cancel, progress);
    }
    return HeatmapData{};
}

} // namespace posatlas::ui
