// SPDX-License-Identifier: GPL-3.0-or-later
#include "jobs/view_jobs.h"

#include "jobs/view_job_support.h"

#include "model/scenario_model.h"
#include "widgets/content_file_picker.h"

#include "analysis/decay.h"
#include "analysis/rope_compare.h"
#include "analysis/spectrum.h"
#include "compute/attention_weights.h"
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
#include <map>
#include <memory>
#include <mutex>

namespace posatlas::ui {

using namespace view_job_support;

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
        // A user's table: its name, not the stand-in's dimension and length it overrides. A checkpoint's
        // tensor is a trained table: say so, and which tensor.
        const QString file = QFileInfo(QFile::decodeName(learned.table_path.c_str())).fileName();
        if (!learned.table_tensor.empty())
            text +=
                ViewJobs::tr(" · trained %1 from %2").arg(QString::fromStdString(learned.table_tensor), file);
        else if (file.endsWith(QStringLiteral(".safetensors")) || file.endsWith(QStringLiteral(".json")))
            text += ViewJobs::tr(" · trained table %1").arg(file);
        else
            text += ViewJobs::tr(" · table %1").arg(file);
    } else {
        const auto& t5 = s.params<T5Params>();
        if (s.method == Method::T5 && !t5.bias_path.empty()) {
            // A trained bias table: which stack's (the full tensor name would not fit a title) and the file.
            const QString file = QFileInfo(QFile::decodeName(t5.bias_path.c_str())).fileName();
            const QString tensor = QString::fromStdString(t5.bias_tensor);
            if (tensor.isEmpty())
                text += ViewJobs::tr(" · trained table %1").arg(file);
            else if (tensor.startsWith(QLatin1String("decoder.")) ||
                     tensor.contains(QLatin1String(".decoder.")))
                text += ViewJobs::tr(" · trained decoder bias from %1").arg(file);
            else if (tensor.startsWith(QLatin1String("encoder.")) ||
                     tensor.contains(QLatin1String(".encoder.")))
                text += ViewJobs::tr(" · trained encoder bias from %1").arg(file);
            else
                text += ViewJobs::tr(" · trained %1 from %2").arg(tensor, file);
        }
        // A method's own tables from files (Shaw's a^K, DeBERTa's relative embeddings, ...): which ones, and
        // from which file, so that a figure never passes a trained table off as the stand-in or back.
        QStringList tables;
        QString table_file;
        bool one_file = true;
        for (const Field& f : d.fields) {
            if (!f.table_shape)
                continue;
            const std::string path = f.get(s).get<std::string>();
            if (path.empty())
                continue;
            const QString file = QFileInfo(QFile::decodeName(path.c_str())).fileName();
            one_file = one_file && (table_file.isEmpty() || table_file == file);
            table_file = file;
            tables << QCoreApplication::translate("ParamSpec", f.label);
        }
        if (!tables.isEmpty())
            text += one_file ? ViewJobs::tr(" · trained %1 from %2").arg(list_join(tables), table_file)
                             : ViewJobs::tr(" · trained %1 from files").arg(list_join(tables));
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
                value = choice_caption(*f, index);
                break;
            }
            case FieldType::RealList: {
                // Elements that differ from their defaults (ALiBi's chosen head slopes), named as the
                // curves' legend names heads (m₂ = head index 2); none: no caption.
                if (!f->list_defaults)
                    continue;
                const std::vector<double> values = f->list_values(s), defaults = f->list_defaults(s);
                QStringList parts;
                int more = 0;
                for (std::size_t k = 0; k < values.size(); ++k)
                    if (values[k] != defaults[k]) {
                        if (parts.size() < 3)
                            parts << QStringLiteral("m%1=%2").arg(subscript(static_cast<int>(k)),
                                                                  short_num(values[k]));
                        else
                            ++more;
                    }
                if (parts.isEmpty())
                    continue;
                value = list_join(parts) + (more ? ViewJobs::tr(" (+%1 more)").arg(more) : QString());
                break;
            }
            case FieldType::Int:
            case FieldType::Seed: value = QString::number(static_cast<qlonglong>(f->number(s))); break;
            default: value = short_num(f->number(s)); break;
            }
            text += QStringLiteral(" · ") +
                    (pattern.contains(QLatin1String("%1")) ? pattern.arg(value) : pattern);
        }
    }
    if (s.content.from_files()) // the user's own queries and keys, not seeded vectors
        text += ViewJobs::tr(" · q, k from %1").arg(content_files_text(s.content));
    text += ViewJobs::tr(" · N %1").arg(s.seq_len);
    if (!with_method && text.startsWith(QStringLiteral(" · ")))
        text.remove(0, 3);
    return text;
}

// ---------------------------------------------------------------- comparison lists

std::string compare_list_problem(const std::vector<Method>& list)
{
    if (list.empty())
        return {};
    const std::string allowed = " (allowed: " + std::to_string(kMinCompared) + " to " +
                                std::to_string(kMaxCompared) + " distinct methods of " + method_ids(", ") +
                                ")";
    if (list.size() < static_cast<std::size_t>(kMinCompared) ||
        list.size() > static_cast<std::size_t>(kMaxCompared))
        return "expected " + std::to_string(kMinCompared) + " to " + std::to_string(kMaxCompared) +
               " methods, got " + std::to_string(list.size()) + allowed;
    for (std::size_t i = 0; i < list.size(); ++i) {
        if (!parse_method(method_id(list[i])))
            return "unknown method" + allowed;
        for (std::size_t j = 0; j < i; ++j)
            if (list[j] == list[i])
                return "method " + std::string(method_id(list[i])) + " is listed twice" + allowed;
    }
    return {};
}

void check_compare_list(const std::vector<Method>& list)
{
    const std::string problem = compare_list_problem(list);
    if (problem.empty())
        return;
    std::string ids;
    for (Method m : list) {
        if (!ids.empty())
            ids += ',';
        ids += method_id(m);
    }
    throw ParameterError("compare", "2 to 4 distinct methods of " + method_ids(", "), ids + ": " + problem);
}

std::optional<std::vector<Method>> parse_compare_list(const std::vector<std::string>& ids, std::string* error)
{
    std::vector<Method> list;
    for (const std::string& id : ids) {
        const std::optional<Method> m = parse_method(id);
        if (!m) {
            if (error)
                *error = "unknown method '" + id + "' (allowed: " + std::to_string(kMinCompared) + " to " +
                         std::to_string(kMaxCompared) + " distinct methods of " + method_ids(", ") + ")";
            return std::nullopt;
        }
        list.push_back(*m);
    }
    // Empty is "off" for a stored setting, but a list asked for by name must name some methods.
    const std::string problem = ids.empty() ? "expected " + std::to_string(kMinCompared) + " to " +
                                                  std::to_string(kMaxCompared) +
                                                  " methods, got none (allowed: " + method_ids(", ") + ")"
                                            : compare_list_problem(list);
    if (!problem.empty()) {
        if (error)
            *error = problem;
        return std::nullopt;
    }
    return list;
}

std::vector<Method> classic_comparison()
{
    return {Method::Sinusoidal, Method::RoPE, Method::ALiBi};
}

QString compare_names(const std::vector<Method>& list)
{
    QStringList names;
    for (Method m : list)
        names << short_method_name(m);
    return list_join(names);
}

QString choice_caption(const Field& f, int index)
{
    // The names the papers and model cards use, where the config id or the panel's label is not one.
    static const std::map<std::pair<std::string_view, std::string_view>, const char*> names = {
        {{"rope_type", "linear"}, QT_TRANSLATE_NOOP("Caption", "linear (PI)")},
        {{"rope_type", "ntk"}, QT_TRANSLATE_NOOP("Caption", "NTK-aware")},
        {{"rope_type", "dynamic"}, QT_TRANSLATE_NOOP("Caption", "dynamic NTK")},
        {{"rope_type", "yarn"}, QT_TRANSLATE_NOOP("Caption", "YaRN")},
        {{"rope_type", "llama3"}, QT_TRANSLATE_NOOP("Caption", "Llama 3")},
        {{"rope_type", "longrope"}, QT_TRANSLATE_NOOP("Caption", "LongRoPE")},
        {{"scaling", "interpolate"}, QT_TRANSLATE_NOOP("Caption", "interpolated slopes")},
        {{"scaling", "ntk"}, QT_TRANSLATE_NOOP("Caption", "NTK-ALiBi")},
        {{"layout", "split"}, QT_TRANSLATE_NOOP("Caption", "split halves")},
    };
    const FieldChoice& c = f.choices.at(static_cast<std::size_t>(index));
    const auto it = names.find({std::string_view(f.key), c.id});
    return it != names.end() ? QCoreApplication::translate("Caption", it->second)
                             : QCoreApplication::translate("ParamSpec", c.label);
}

QString rope_scaling_name(RopeType type)
{
    // The field's choices are in the order of RopeType (rope_method.cpp).
    return choice_caption(*descriptor(Method::RoPE).field("rope_type"), static_cast<int>(type));
}

QString list_join(const QStringList& items)
{
    return items.join(ViewJobs::tr(", ", "between the items of a list"));
}

std::vector<MatrixKind> compared_matrix_kinds(const std::vector<Method>& list, const ViewSettings& settings)
{
    const auto all_offer = [&](MatrixKind k) {
        return std::all_of(list.begin(), list.end(), [&](Method m) {
            const std::vector<MatrixKind> kinds = matrix_kinds_for(m);
            return std::find(kinds.begin(), kinds.end(), k) != kinds.end();
        });
    };
    std::vector<MatrixKind> candidates;
    if (settings.matrix_kind)
        candidates.push_back(*settings.matrix_kind);
    candidates.push_back(MatrixKind::Logits);
    candidates.push_back(MatrixKind::Weights);
    for (MatrixKind k : candidates)
        if (all_offer(k))
            return std::vector<MatrixKind>(list.size(), k);
    std::vector<MatrixKind> own;
    for (Method m : list) {
        const std::vector<MatrixKind> kinds = matrix_kinds_for(m);
        own.push_back(kinds.empty() ? MatrixKind::Logits : kinds.front());
    }
    return own;
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

namespace {

// Methods side by side: one panel per compared method, each exactly the panel heatmap_job computes for
// that method alone (its own parameters, the scenario's sequence, content and mask; heads not split
// into small multiples: the current head for the current method, head 0 for the others), at its
// share of the view's pixels.
HeatmapData compare_heatmap_job(const Scenario& s, const ViewSettings& v, const CancelFn& cancel,
                                const ProgressFn& progress)
{
    check_compare_list(v.compare);
    const std::vector<MatrixKind> kinds = compared_matrix_kinds(v.compare, v);
    const bool same_kind =
        std::all_of(kinds.begin(), kinds.end(), [&](MatrixKind k) { return k == kinds.front(); });
    const std::size_t count = v.compare.size();
    // The view's grid (heatmap_paint.cpp) is about sqrt(count) columns: each panel gets that share.
    const int gridCols = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(count))));
    const int gridRows = static_cast<int>((count + gridCols - 1) / gridCols);
    HeatmapData data;
    // The methods first: a narrow (presentation) figure elides the title's end, and the window title
    // says "Comparing: …".
    data.title = compare_names(v.compare) + QStringLiteral(" · ") +
                 (same_kind ? kind_name(kinds.front()) : ViewJobs::tr("each method's own matrix")) +
                 ViewJobs::tr(" · N %1").arg(s.seq_len);
    data.per_panel_scales = v.per_panel_scales;
    data.subtract_mean = v.subtract_mean;
    for (std::size_t k = 0; k < count; ++k) {
        check_cancel(cancel);
        Scenario one = as_method(s, v.compare[k]);
        ViewSettings single = v;
        single.compare.clear();
        single.matrix_kind = kinds[k];
        single.small_multiples = false;
        single.pixel_width = std::max(8, v.pixel_width / gridCols);
        single.pixel_height = std::max(8, v.pixel_height / gridRows);
        HeatmapData d = heatmap_job(one, single, cancel,
                                    sub_progress(progress, double(k) / count, double(k + 1) / count));
        if (k == 0) {
            data.row_tokens = d.row_tokens;
            data.col_tokens = d.col_tokens;
            data.window = d.window;
            data.whole = d.whole;
        } else if (d.window.rows != data.window.rows || d.window.cols != data.window.cols ||
                   d.whole.cols != data.whole.cols) {
            // An encoding's columns are dimensions: the panels cover different windows, which the view
            // then reads from each matrix's indices.
            data.window = {};
            data.whole = {};
            data.col_tokens.clear();
        }
        HeatmapPanel panel = std::move(d.panels.front());
        panel.label = same_kind
                          ? ViewJobs::tr("%1 · %2").arg(short_method_name(one.method), kind_name(kinds[k]))
                          : ViewJobs::tr("%1 · %2 (its default)")
                                .arg(short_method_name(one.method), kind_name(kinds[k]));
        data.panels.push_back(std::move(panel));
    }
    report_progress(progress, 1.0);
    return data;
}

} // namespace

HeatmapData heatmap_job(const Scenario& s, const ViewSettings& v, const CancelFn& cancel,
                        const ProgressFn& progress)
{
    if (!v.compare.empty())
        return compare_heatmap_job(s, v, cancel, progress);
    if (shows_permuted(s, v))
        return permuted_heatmap_job(s, v, cancel, progress);
    validate(s);
    const MatrixKind kind = effective_matrix_kind(s, v);
    HeatmapData data;
    // The weights' caption names their own mask: a method's causal field follows the scenario's.
    data.title = scenario_caption(kind == MatrixKind::Weights ? weights_logits_scenario(s) : s) +
                 QStringLiteral(" · ") + kind_name(kind);
    const MethodDescriptor& d = descriptor(s.method);
    if (s.causal && (kind == MatrixKind::Weights || d.logits_follow_causal) && !d.field("causal"))
        data.title += ViewJobs::tr(" · causal"); // NoPE's logits take the scenario's mask too
    for (const std::string& t : s.content.tokens)
        data.row_tokens.push_back(QString::fromStdString(t));
    if (kind != MatrixKind::Encoding)
        data.col_tokens = data.row_tokens;
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
        v.small_multiples && heads > 1 &&
        (kind == MatrixKind::Bias || kind == MatrixKind::Logits || kind == MatrixKind::Weights);
    const std::vector<int> shown =
        perHead ? sampled_heads(heads, std::max(1, v.max_panels)) : std::vector<int>{s.head};
    // Small multiples share the view: a grid of about sqrt(count) columns, each panel its share of pixels.
    // Point sample beside the mean: two panels side by side, each half the width.
    const bool besideMean = v.show_point_sample && !perHead;
    const int gridCols = perHead ? static_cast<int>(std::ceil(std::sqrt(static_cast<double>(shown.size()))))
                         : besideMean ? 2
                                      : 1;
    const int gridRows = perHead ? static_cast<int>((shown.size() + gridCols - 1) / gridCols) : 1;
    std::int64_t pixelRows = std::max(8, v.pixel_height / gridRows);
    std::int64_t pixelCols = std::max(8, v.pixel_width / gridCols);
    if (besideMean) {
        // The view puts the two panels side by side or one above the other, whichever gives larger
        // square panels: compute that square, so that one cell is one pixel in either layout.
        const int side = std::max(std::min(v.pixel_width / 2, v.pixel_height),
                                  std::min(v.pixel_width, v.pixel_height / 2));
        pixelRows = pixelCols = std::max(8, side);
    }
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
                // A decimal slope, as the curves' legend and the panel's sliders write it (a power of two
                // such as 2^-1.5 needs a superscript period that Unicode lacks); many small panels are
                // narrow: two digits then.
                panel.label = ViewJobs::tr("m%1=%2").arg(
                    subscript(shown[k]), QString::number(slopes[static_cast<std::size_t>(shown[k])], 'g',
                                                         shown.size() > 9 ? 2 : 3));
        }
        data.panels.push_back(std::move(panel));
    }
    if (perHead && shown.size() < static_cast<std::size_t>(heads))
        data.title += ViewJobs::tr(" · %1 of %2 heads").arg(shown.size()).arg(heads);

    // Nothing silently point-sampled: say what a pixel shows when it is not a block mean.
    const MatrixSampling sampling = data.panels.front().matrix.sampling;
    const bool linear = block_mean_supported(s, kind);
    // Logits that are linear in the cells but whose block means this method computes only for
    // position-independent content (Shaw, DeBERTa, xPos with random or token content) must not be
    // called "not linear".
    Scenario constant = s;
    constant.content = ContentParams{};
    const bool linear_for_constant = !linear && block_mean_supported(constant, kind);
    if (sampling == MatrixSampling::Point)
        data.sampling_note = linear ? ViewJobs::tr("each pixel: the cell at its block's centre, not a mean "
                                                   "(random content is not averaged at this length)")
                             : linear_for_constant
                                 ? ViewJobs::tr("each pixel: the cell at its block's centre, not a mean "
                                                "(averaged only for position-independent content); zoom "
                                                "in for exact cells")
                                 : ViewJobs::tr("each pixel: the cell at its block's centre, not a mean "
                                                "(not linear in the cells); zoom in for exact cells");
    else if (sampling == MatrixSampling::Exact && !linear && zoomed)
        data.sampling_note = ViewJobs::tr("exact: one cell per pixel in this zoomed window");

    if (besideMean && sampling == MatrixSampling::BlockMean) {
        // The same window point-sampled, for teaching aliasing; one colour scale, so that the two
        // panels compare cell for cell.
        HeatmapPanel point;
        MatrixWindow pw = w;
        pw.sample = SampleMode::Point;
        Scenario sh = s;
        sh.head = shown.front();
        if (zoomed) {
            MatrixWindow pwhole = whole;
            pwhole.sample = SampleMode::Point;
            const WholeMatrixCache::Key key{sh, kind, pwhole.out_rows, pwhole.out_cols, pwhole.sample};
            point.whole = whole_matrix_cache().find(key);
            if (!point.whole) {
                auto m = std::make_shared<const MatrixResult>(compute_matrix(sh, kind, pwhole, cancel));
                whole_matrix_cache().insert(key, m);
                point.whole = std::move(m);
            }
        }
        point.matrix = compute_matrix(sh, kind, pw, cancel);
        point.label = ViewJobs::tr("point sample: one cell per pixel (aliases)");
        data.panels.front().label = ViewJobs::tr("block mean: every cell counted");
        data.panels.push_back(std::move(point));
        data.per_panel_scales = false;
    } else if (besideMean) {
        data.sampling_note += (data.sampling_note.isEmpty() ? QString() : ViewJobs::tr(" · ")) +
                              ViewJobs::tr("no point sample beside it: this picture has no block means");
    }
    report_progress(progress, 1.0);
    return data;
}

ViewResult run_view_job(ViewKind kind, const Scenario& s, const ViewSettings& settings,
                        const CancelFn& cancel, const ProgressFn& progress)
{
    // Rotation and spectrum are one method's figures: while comparing, their titles say whose.
    const QString only = settings.compare.empty()
                             ? QString()
                             : ViewJobs::tr(" · %1 only (not compared)").arg(short_method_name(s.method));
    switch (kind) {
    case ViewKind::Heatmap: return heatmap_job(s, settings, cancel, progress);
    case ViewKind::Curves: return curve_job(s, settings, cancel, progress);
    case ViewKind::Rotation: {
        RotationData data = rotation_job(s, settings, cancel, progress);
        data.title += only;
        return data;
    }
    case ViewKind::Spectrum: {
        SpectrumData data = spectrum_job(s, settings, cancel, progress);
        data.title += only;
        return data;
    }
    }
    return HeatmapData{};
}

} // namespace posatlas::ui
