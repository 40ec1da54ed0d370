// SPDX-License-Identifier: GPL-3.0-or-later
#include "jobs/view_jobs.h"

#include "jobs/heatmap_grid.h"
#include "jobs/view_job_support.h"

#include "model/scenario_model.h"
#include "widgets/content_file_picker.h"

#include "analysis/decay.h"
#include "analysis/heatmap_figure.h"
#include "analysis/rope_compare.h"
#include "analysis/spectrum.h"
#include "methods/rope/rope.h"
#include "methods/rope/rope_scaling.h"
#include "scenario/validation.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <memory>

namespace posatlas::ui {

using namespace view_job_support;

namespace {

QString file_name(const std::string& path)
{
    return QFileInfo(QFile::decodeName(path.c_str())).fileName();
}

// A trained table the method's descriptor names (MethodDescriptor::table_caption), in words.
QString table_caption_text(const MethodDescriptor::TableCaption& t)
{
    using What = MethodDescriptor::TableCaption::What;
    const QString file = file_name(t.path), tensor = QString::fromStdString(t.tensor);
    switch (t.what) {
    case What::TrainedTensor: return ViewJobs::tr(" · trained %1 from %2").arg(tensor, file);
    case What::TrainedTable: return ViewJobs::tr(" · trained table %1").arg(file);
    case What::DecoderBias: return ViewJobs::tr(" · trained decoder bias from %1").arg(file);
    case What::EncoderBias: return ViewJobs::tr(" · trained encoder bias from %1").arg(file);
    case What::Table: break;
    }
    return ViewJobs::tr(" · table %1").arg(file);
}

// A method's own tables from files (Shaw's a^K, DeBERTa's relative embeddings, ...): which ones, and
// from which file, so that a figure never passes a trained table off as the stand-in or back.
QString method_tables_text(const Scenario& s, const MethodDescriptor& d)
{
    QStringList tables;
    QString table_file;
    bool one_file = true;
    for (const Field& f : d.fields) {
        if (!f.table_shape)
            continue;
        const std::string path = f.get(s).get<std::string>();
        if (path.empty())
            continue;
        const QString file = file_name(path);
        one_file = one_file && (table_file.isEmpty() || table_file == file);
        table_file = file;
        tables << QCoreApplication::translate("ParamSpec", f.label);
    }
    if (tables.isEmpty())
        return {};
    return one_file ? ViewJobs::tr(" · trained %1 from %2").arg(list_join(tables), table_file)
                    : ViewJobs::tr(" · trained %1 from files").arg(list_join(tables));
}

// The value a caption field shows; nullopt: the field is not captioned (false, its default choice, no
// element changed).
std::optional<QString> caption_value(const Scenario& s, const Field& f)
{
    switch (f.type) {
    case FieldType::Bool:
        if (!f.number(s))
            return std::nullopt;
        return QString();
    case FieldType::Choice: {
        const int index = static_cast<int>(f.number(s));
        if (index == 0)
            return std::nullopt;
        return choice_caption(f, index);
    }
    case FieldType::RealList: {
        // Elements that differ from their defaults (ALiBi's chosen head slopes), named as the
        // curves' legend names heads (m₂ = head index 2); none: no caption.
        if (!f.list_defaults)
            return std::nullopt;
        const std::vector<double> values = f.list_values(s), defaults = f.list_defaults(s);
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
            return std::nullopt;
        return list_join(parts) + (more ? ViewJobs::tr(" (+%1 more)").arg(more) : QString());
    }
    case FieldType::Int:
    case FieldType::Seed: return QString::number(static_cast<qlonglong>(f.number(s)));
    default: return short_num(f.number(s));
    }
}

// The descriptor's caption fields (MethodDescriptor::caption_fields), each " · " and its text.
QString caption_fields_text(const Scenario& s, const MethodDescriptor& d)
{
    QString text;
    for (const auto& [key, format] : d.caption_fields) {
        const Field* f = d.field(key);
        if (!f || (f->shown && !f->shown(s)))
            continue;
        const std::optional<QString> value = caption_value(s, *f);
        if (!value)
            continue;
        const QString pattern = QCoreApplication::translate("Caption", format);
        text +=
            QStringLiteral(" · ") + (pattern.contains(QLatin1String("%1")) ? pattern.arg(*value) : pattern);
    }
    return text;
}

} // namespace

QString scenario_caption(const Scenario& s, bool with_method)
{
    QString text = with_method ? methodName(s.method) : QString();
    const MethodDescriptor& d = descriptor(s.method);
    const std::optional<MethodDescriptor::TableCaption> table =
        d.table_caption ? d.table_caption(s) : std::nullopt;
    if (table)
        text += table_caption_text(*table);
    if (!table || !table->replaces_fields)
        text += method_tables_text(s, d) + caption_fields_text(s, d);
    if (s.content.from_files()) // the user's own queries and keys, not seeded vectors
        text += ViewJobs::tr(" · q, k from %1").arg(content_files_text(s.content));
    text += ViewJobs::tr(" · N %1").arg(s.seq_len);
    if (!with_method && text.startsWith(QStringLiteral(" · ")))
        text.remove(0, 3);
    return text;
}

QString head_caption(const Scenario& s, int head, int panels)
{
    const MethodDescriptor& d = descriptor(s.method);
    const std::vector<double> values = d.head_values ? d.head_values(s) : std::vector<double>{};
    if (!d.head_symbol || head < 0 || static_cast<std::size_t>(head) >= values.size())
        return ViewJobs::tr("h%1").arg(head);
    // A decimal value, as the curves' legend and the panel's sliders write it (a power of two such as
    // 2^-1.5 needs a superscript period that Unicode lacks); many small panels are narrow: two digits then.
    // A symbol and numbers: the same in every language.
    return QStringLiteral("%1%2=%3").arg(
        QString::fromUtf8(d.head_symbol), subscript(head),
        QString::number(values[static_cast<std::size_t>(head)], 'g', panels > 9 ? 2 : 3));
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

QString rope_scaling_name(RopeType type)
{
    // The field's choices are in the order of RopeType (rope_method.cpp).
    return choice_caption(*descriptor(RopeParams::kMethod).field("rope_type"), static_cast<int>(type));
}

QString list_join(const QStringList& items)
{
    return items.join(ViewJobs::tr(", ", "between the items of a list"));
}

std::vector<MatrixKind> compared_matrix_kinds(const std::vector<Method>& list, const ViewSettings& settings)
{
    return compared_kinds(list, settings.matrix_kind);
}

// ---------------------------------------------------------------- heatmap

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
                                const ProgressFn& progress);

} // namespace

namespace {

// The request core's heatmap_figure takes: the view's settings, its panel area and measured chrome.
HeatmapRequest heatmap_request(const ViewSettings& v)
{
    HeatmapRequest r;
    r.kind = v.matrix_kind;
    r.row0 = v.row0;
    r.col0 = v.col0;
    r.rows = v.rows;
    r.cols = v.cols;
    r.area_width = v.pixel_width;
    r.area_height = v.pixel_height;
    r.chrome = v.panel_chrome;
    r.small_multiples = v.small_multiples;
    r.max_panels = v.max_panels;
    r.point_sample_beside_mean = v.show_point_sample;
    return r;
}

// Nothing silently point-sampled: what a pixel shows when it is not a block mean, in words.
QString sampling_note(HeatmapSamplingFact fact)
{
    switch (fact) {
    case HeatmapSamplingFact::PointRandomLength:
        return ViewJobs::tr("each pixel: the cell at its block's centre, not a mean "
                            "(random content is not averaged at this length)");
    case HeatmapSamplingFact::PointConstantOnly:
        return ViewJobs::tr("each pixel: the cell at its block's centre, not a mean "
                            "(averaged only for position-independent content); zoom "
                            "in for exact cells");
    case HeatmapSamplingFact::PointNotLinear:
        return ViewJobs::tr("each pixel: the cell at its block's centre, not a mean "
                            "(not linear in the cells); zoom in for exact cells");
    case HeatmapSamplingFact::ExactZoomedWindow:
        return ViewJobs::tr("exact: one cell per pixel in this zoomed window");
    case HeatmapSamplingFact::None: break;
    }
    return {};
}

// A panel's caption in words: a head's symbol and value, or what a sample beside its mean shows.
QString panel_label(const Scenario& s, const HeatmapFigure& f, const HeatmapFigurePanel& panel)
{
    switch (panel.role) {
    case HeatmapPanelRole::Head: // compact: small multiples can be narrow
        return head_caption(s, panel.head, static_cast<int>(f.panels.size()));
    case HeatmapPanelRole::BlockMean: return ViewJobs::tr("block mean: every cell counted");
    case HeatmapPanelRole::PointSample: return ViewJobs::tr("point sample: one cell per pixel (aliases)");
    case HeatmapPanelRole::Single: break;
    }
    return {};
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
    HeatmapFigure f = heatmap_figure(s, heatmap_request(v), cancel, progress);
    HeatmapData data;
    // The title and the axes' words: the caption, the kind, the mask where the method's fields do not
    // say it (NoPE's logits take the scenario's mask too).
    data.title = scenario_caption(f.caption_scenario) + QStringLiteral(" · ") + kind_name(f.kind);
    if (f.caption_causal)
        data.title += ViewJobs::tr(" · causal");
    // The scenario's window or chunks mask the logits of every method and the weights (attention_span.h).
    if (s.causal && (f.kind == MatrixKind::Logits || f.kind == MatrixKind::Weights)) {
        if (s.window == LayerAttention::Sliding)
            data.title += ViewJobs::tr(" · sliding window of %1 keys").arg(s.window_span);
        else if (s.window == LayerAttention::Chunked)
            data.title += ViewJobs::tr(" · chunks of %1 positions").arg(s.window_span);
    }
    if (temperature_applies(s) && (f.kind == MatrixKind::Logits || f.kind == MatrixKind::Weights))
        data.title += ViewJobs::tr(" · attention temperature");
    for (const std::string& t : s.content.tokens)
        data.row_tokens.push_back(QString::fromStdString(t));
    if (f.kind != MatrixKind::Encoding)
        data.col_tokens = data.row_tokens;
    data.per_panel_scales = v.per_panel_scales;
    data.subtract_mean = v.subtract_mean;
    data.window = {f.row0, f.col0, f.rows, f.cols};
    data.whole = {0, 0, f.whole_rows, f.whole_cols};
    const bool per_head = !f.panels.empty() && f.panels.front().role == HeatmapPanelRole::Head;
    for (HeatmapFigurePanel& p : f.panels) {
        HeatmapPanel panel;
        panel.label = panel_label(s, f, p);
        panel.matrix = std::move(p.matrix);
        panel.whole = std::move(p.whole);
        data.panels.push_back(std::move(panel));
    }
    if (per_head && f.panels.size() < static_cast<std::size_t>(f.heads))
        data.title += ViewJobs::tr(" · %1 of %2 heads").arg(f.panels.size()).arg(f.heads);
    data.sampling_note = sampling_note(f.sampling);
    if (f.point_sample_refused)
        data.sampling_note += (data.sampling_note.isEmpty() ? QString() : ViewJobs::tr(" · ")) +
                              ViewJobs::tr("no point sample beside it: this picture has no block means");
    if (f.panels.size() == 2 && f.panels.back().role == HeatmapPanelRole::PointSample)
        data.per_panel_scales = false; // one colour scale: the two panels compare cell for cell
    return data;
}

namespace {

// Methods side by side (core's compare_heatmap_figure), in words: each panel names its method and kind.
HeatmapData compare_heatmap_job(const Scenario& s, const ViewSettings& v, const CancelFn& cancel,
                                const ProgressFn& progress)
{
    check_compare_list(v.compare);
    for (Method m : v.compare)
        validate(as_method(s, m));
    CompareHeatmapFigure c = compare_heatmap_figure(s, v.compare, heatmap_request(v), cancel, progress);
    const std::vector<MatrixKind>& kinds = c.kinds;
    const bool same_kind =
        std::all_of(kinds.begin(), kinds.end(), [&](MatrixKind k) { return k == kinds.front(); });
    HeatmapData data;
    // The methods first: a narrow (presentation) figure elides the title's end, and the window title
    // says "Comparing: …".
    data.title = compare_names(v.compare) + QStringLiteral(" · ") +
                 (same_kind ? kind_name(kinds.front()) : ViewJobs::tr("each method's own matrix")) +
                 ViewJobs::tr(" · N %1").arg(s.seq_len);
    data.per_panel_scales = v.per_panel_scales;
    data.subtract_mean = v.subtract_mean;
    if (c.same_window) {
        const HeatmapFigure& f = c.figures.front();
        data.window = {f.row0, f.col0, f.rows, f.cols};
        data.whole = {0, 0, f.whole_rows, f.whole_cols};
        for (const std::string& t : s.content.tokens)
            data.row_tokens.push_back(QString::fromStdString(t));
        if (f.kind != MatrixKind::Encoding)
            data.col_tokens = data.row_tokens;
    } else {
        // An encoding's columns are dimensions: the panels cover different windows, which the view
        // then reads from each matrix's indices.
        for (const std::string& t : s.content.tokens)
            data.row_tokens.push_back(QString::fromStdString(t));
    }
    for (std::size_t k = 0; k < c.figures.size(); ++k) {
        HeatmapFigurePanel& p = c.figures[k].panels.front();
        HeatmapPanel panel;
        panel.matrix = std::move(p.matrix);
        panel.whole = std::move(p.whole);
        const Method m = v.compare[k];
        panel.label =
            same_kind ? ViewJobs::tr("%1 · %2").arg(short_method_name(m), kind_name(kinds[k]))
                      : ViewJobs::tr("%1 · %2 (its default)").arg(short_method_name(m), kind_name(kinds[k]));
        data.panels.push_back(std::move(panel));
    }
    return data;
}

} // namespace

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
