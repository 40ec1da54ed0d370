// SPDX-License-Identifier: GPL-3.0-or-later
#include "export/animation_export.h"

#include "io/number_text.h"
#include "jobs/curve_drawing.h"
#include "jobs/view_jobs.h"
#include "methods/registry.h"
#include "scenario/validation.h"
#include "views/heatmap_view.h"
#include "views/spectrum_view.h"
#include "views/view_render.h"

#include <QCoreApplication>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

namespace posatlas::ui {
namespace {

// Words of the free functions below; lupdate reads AnimationExport::tr("...") under this context.
struct AnimationExport {
    Q_DECLARE_TR_FUNCTIONS(posatlas::ui::AnimationExport)
};

constexpr double kMaxPosition = 1e15; // the rotation view's positions (as --query-position)

bool is_position(std::string_view name, std::string_view key)
{
    if (name == key)
        return true;
    std::string dashed(key);
    std::replace(dashed.begin(), dashed.end(), '_', '-');
    return name == dashed;
}
bool is_query_position(std::string_view name)
{
    return is_position(name, kQueryPositionField);
}
bool is_key_position(std::string_view name)
{
    return is_position(name, kKeyPositionField);
}

// The registry field `name` names for s's method: its key or alias, or its command-line option.
const Field* find_field(const Scenario& s, std::string_view name)
{
    // The scenario's own fields first: "seq_len" is N, not a method field's alias for old sessions.
    if (const Field* f = common_field(name))
        return f;
    const MethodDescriptor& d = descriptor(s.method);
    if (const Field* f = d.field(name))
        return f;
    const auto by_option = [&](const Field& f) {
        return f.option_name() == name ||
               std::find(f.option_aliases.begin(), f.option_aliases.end(), name) != f.option_aliases.end();
    };
    for (const Field& f : d.fields)
        if (by_option(f))
            return &f;
    for (const Field& f : common_fields())
        if (by_option(f))
            return &f;
    return nullptr;
}

bool numeric(const Field& f)
{
    return f.type == FieldType::Int || f.type == FieldType::Real || f.type == FieldType::OptionalReal;
}

std::string sweep_text(const SweepSpec& sweep)
{
    return sweep.field + "=" + format_number(sweep.from) + ":" + format_number(sweep.to) +
           (sweep.log ? ":log" : "");
}

std::optional<double> parse_number(std::string_view text)
{
    double v = 0.0;
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, v);
    if (ec != std::errc() || ptr != end || !std::isfinite(v))
        return std::nullopt;
    return v;
}

void check_frames(int frames)
{
    if (frames < 1 || frames > kMaxAnimationFrames)
        throw ParameterError("frames", "an integer in [1, " + std::to_string(kMaxAnimationFrames) + "]",
                             std::to_string(frames));
}

ValueRange united(ValueRange a, double lo, double hi)
{
    if (!std::isfinite(lo) || !std::isfinite(hi))
        return a;
    if (a.empty())
        return {lo, hi};
    return {std::min(a.lo, lo), std::max(a.hi, hi)};
}

// The mean of a matrix's finite cells (HeatmapView subtracts it when asked).
double finite_mean(const MatrixResult& m)
{
    double sum = 0.0;
    std::int64_t count = 0;
    for (Eigen::Index c = 0; c < m.values.cols(); ++c)
        for (Eigen::Index r = 0; r < m.values.rows(); ++r)
            if (std::isfinite(m.values(r, c))) {
                sum += m.values(r, c);
                ++count;
            }
    return count > 0 ? sum / static_cast<double>(count) : 0.0;
}

void add_ranges(SweepScale& scale, const CurveRanges& r, bool second_y)
{
    scale.x = united(scale.x, r.xlo, r.xhi);
    if (second_y)
        scale.y2 = united(scale.y2, r.ylo, r.yhi);
    else
        scale.y = united(scale.y, r.ylo, r.yhi);
}

std::optional<CurveRanges> curve_ranges_of(const ValueRange& x, const ValueRange& y)
{
    if (x.empty() || y.empty())
        return std::nullopt;
    return CurveRanges{x.lo, x.hi, y.lo, y.hi};
}

} // namespace

std::string sweep_form()
{
    return "FIELD=FROM:TO[:log|:linear]";
}

SweepSpec parse_sweep(std::string_view text, int frames)
{
    const auto bad = [&] {
        return ParameterError("animate", sweep_form() + " (rope_theta=10000:500000:log)", std::string(text));
    };
    const std::size_t eq = text.find('=');
    if (eq == std::string_view::npos || eq == 0)
        throw bad();
    SweepSpec sweep;
    sweep.field = std::string(text.substr(0, eq));
    std::vector<std::string_view> parts;
    std::string_view rest = text.substr(eq + 1);
    while (true) {
        const std::size_t colon = rest.find(':');
        parts.push_back(rest.substr(0, colon));
        if (colon == std::string_view::npos)
            break;
        rest = rest.substr(colon + 1);
    }
    if (parts.size() < 2 || parts.size() > 3)
        throw bad();
    const auto from = parse_number(parts[0]);
    const auto to = parse_number(parts[1]);
    if (!from || !to)
        throw bad();
    if (parts.size() == 3) {
        if (parts[2] == "log")
            sweep.log = true;
        else if (parts[2] != "linear")
            throw bad();
    }
    sweep.from = *from;
    sweep.to = *to;
    check_frames(frames);
    sweep.frames = frames;
    return sweep;
}

void check_animation_request(const AnimationRequest& r)
{
    const SweepSpec& sweep = r.sweep;
    const std::string got = sweep_text(sweep);
    check_frames(sweep.frames);
    if (!std::isfinite(sweep.from) || !std::isfinite(sweep.to))
        throw ParameterError("animate", sweep_form() + " with finite numbers", got);
    if (sweep.log && !(sweep.from > 0.0 && sweep.to > 0.0))
        throw ParameterError("animate", "a log sweep between two numbers > 0 (use :linear through 0)", got);
    if (is_query_position(sweep.field) || is_key_position(sweep.field)) {
        if (r.view != ViewKind::Rotation)
            throw ParameterError("animate", "query_position and key_position with --view rotation only", got);
        if (std::abs(sweep.from) > kMaxPosition || std::abs(sweep.to) > kMaxPosition)
            throw ParameterError("animate", "positions in [-1e+15, 1e+15]", got);
    } else {
        const Field* f = find_field(r.scenario, sweep.field);
        if (!f || !numeric(*f)) {
            std::string fields;
            for (const Field& field : descriptor(r.scenario.method).fields)
                if (numeric(field) && field.panel)
                    fields += (fields.empty() ? "" : ", ") + field.key;
            throw ParameterError("animate",
                                 "a numeric field of " + std::string(method_id(r.scenario.method)) + " (" +
                                     fields + ", seq_len" +
                                     (r.view == ViewKind::Rotation ? ", query_position, key_position" : "") +
                                     ")",
                                 got);
        }
        for (const double v : {sweep.from, sweep.to}) {
            try {
                if (f->type == FieldType::Int) {
                    if (v != std::round(v))
                        throw ParameterError(f->key, f->allowed(), format_number(v));
                    f->check(static_cast<std::int64_t>(v));
                } else {
                    f->check(v);
                }
            } catch (const ParameterError& e) {
                throw ParameterError("animate", "FROM and TO of " + f->key + " " + e.allowed(), got);
            }
        }
        // The cross-field rules (a ramp's beta_fast above beta_slow) at both ends of the sweep.
        for (const int frame : {0, sweep.frames - 1}) {
            try {
                validate(frame_scenario(r, frame));
            } catch (const ParameterError& e) {
                throw ParameterError(
                    "animate", "a sweep whose every value is allowed: " + e.parameter() + " " + e.allowed(),
                    got);
            }
        }
    }
    const AnimationLimits limits = animation_limits(r.format);
    if (r.fps < limits.min_fps || r.fps > limits.max_fps)
        throw ParameterError("fps",
                             "an integer in [" + std::to_string(limits.min_fps) + ", " +
                                 std::to_string(limits.max_fps) + "] for " + animation_format_name(r.format),
                             std::to_string(r.fps));
    const double scale = r.figure.dpi / 96.0;
    const long width = std::lround(r.figure.size.width() * scale);
    const long height = std::lround(r.figure.size.height() * scale);
    const long min_side = limits.even_sides ? 2 : 1;
    const auto side = [&](const char* name, long pixels) {
        if (pixels < min_side || pixels > limits.max_side || (limits.even_sides && pixels % 2 != 0))
            throw ParameterError(
                name,
                std::string("a frame of ") + (limits.even_sides ? "an even number of " : "") + "pixels in [" +
                    std::to_string(min_side) + ", " + std::to_string(limits.max_side) + "] for " +
                    animation_format_name(r.format) + " (pixels = size x dpi / 96)",
                std::to_string(pixels) + " pixels");
    };
    side("width", width);
    side("height", height);
}

double sweep_value(const AnimationRequest& r, int frame)
{
    const SweepSpec& sweep = r.sweep;
    // The ends exactly as given (exp(log(10000)) is 9999.999999999998, which a title shows as 1e4).
    double v = frame <= 0 ? sweep.from : sweep.to;
    if (frame > 0 && frame < sweep.frames - 1) {
        const double t = sweep.frames > 1 ? static_cast<double>(frame) / (sweep.frames - 1) : 0.0;
        v = sweep.log ? std::exp(std::log(sweep.from) + t * (std::log(sweep.to) - std::log(sweep.from)))
                      : sweep.from + t * (sweep.to - sweep.from);
    }
    if (is_query_position(sweep.field) || is_key_position(sweep.field))
        return v;
    if (const Field* f = find_field(r.scenario, sweep.field); f && f->type == FieldType::Int)
        v = f->even ? 2.0 * std::round(v / 2.0) : std::round(v);
    return v;
}

Scenario frame_scenario(const AnimationRequest& r, int frame)
{
    Scenario s = r.scenario;
    if (const Field* f = find_field(s, r.sweep.field); f && numeric(*f))
        f->set_number(s, sweep_value(r, frame));
    return s;
}

ViewSettings frame_settings(const AnimationRequest& r, int frame)
{
    ViewSettings v = r.settings;
    if (is_query_position(r.sweep.field))
        v.query_position = sweep_value(r, frame);
    else if (is_key_position(r.sweep.field))
        v.key_position = sweep_value(r, frame);
    return v;
}

QString sweep_label(const AnimationRequest& r)
{
    if (is_query_position(r.sweep.field))
        return AnimationExport::tr("query position m");
    if (is_key_position(r.sweep.field))
        return AnimationExport::tr("key position n");
    if (const Field* f = find_field(r.scenario, r.sweep.field); f && *f->label)
        return QCoreApplication::translate("ParamSpec", f->label);
    return QString::fromStdString(r.sweep.field);
}

// The view's title without the part that already shows the moving field's value (RoPE's titles say
// "θ 500000 · d 128", ViewJobs): the frame's "label = value" says it, once.
static QString without_moving_value(const QString& title, const std::string& field)
{
    const QString symbol = field == "rope_theta" ? QStringLiteral("θ ")
                           : field == "head_dim" ? QStringLiteral("d ")
                                                 : QString();
    if (symbol.isEmpty())
        return title;
    const QString separator = QStringLiteral(" · ");
    QStringList parts = title.split(separator);
    parts.removeIf([&](const QString& part) {
        bool number = false;
        part.mid(symbol.size()).toDouble(&number);
        return part.startsWith(symbol) && number;
    });
    return parts.join(separator);
}

QString frame_title(const AnimationRequest& r, const ViewResult& data, int frame)
{
    const QString title =
        without_moving_value(std::visit([](const auto& d) { return d.title; }, data), r.sweep.field);
    const QString value = QString::fromStdString(display_number(sweep_value(r, frame)));
    const QString moving = AnimationExport::tr("%1 = %2").arg(sweep_label(r), value);
    return title.isEmpty() ? moving : AnimationExport::tr("%1 · %2").arg(title, moving);
}

ViewResult compute_frame_data(const AnimationRequest& r, int frame, const CancelFn& cancel)
{
    return run_view_job(r.view, frame_scenario(r, frame), frame_settings(r, frame), cancel, {});
}

SweepScale sweep_scale(const AnimationRequest& r, const CancelFn& cancel, const ProgressFn& progress)
{
    SweepScale scale;
    if (r.per_frame_scale || r.view == ViewKind::Rotation) {
        scale.colormap = r.colormap;
        return scale;
    }
    bool any_signed = false;
    for (int frame = 0; frame < r.sweep.frames; ++frame) {
        check_cancel(cancel);
        const ViewResult data = compute_frame_data(r, frame, cancel);
        if (const auto* h = std::get_if<HeatmapData>(&data)) {
            for (std::size_t i = 0; i < static_cast<std::size_t>(h->panels.size()); ++i) {
                const HeatmapPanel& p = h->panels[static_cast<qsizetype>(i)];
                // The matrix the view's scale follows (HeatmapView::scaleMatrix).
                const MatrixResult& m = p.whole && !r.settings.fit_colors_to_view ? *p.whole : p.matrix;
                any_signed = any_signed || m.is_signed;
                if (scale.colour.size() <= i)
                    scale.colour.resize(i + 1);
                if (m.values.size() == 0)
                    continue;
                const double shift = h->subtract_mean ? finite_mean(m) : 0.0;
                scale.colour[i] = united(scale.colour[i], m.min - shift, m.max - shift);
            }
        } else if (const auto* c = std::get_if<CurveData>(&data)) {
            add_ranges(scale, curve_ranges(*c, c->log_x), false);
        } else if (const auto* s = std::get_if<SpectrumData>(&data)) {
            if (!s->pair.empty()) {
                add_ranges(scale, curve_ranges(SpectrumView::wavelengthCurves(*s, false), false), false);
                add_ranges(scale, curve_ranges(SpectrumView::ratioCurves(*s, false), false), true);
            }
        }
        if (progress)
            progress(static_cast<double>(frame + 1) / r.sweep.frames);
    }
    if (r.view == ViewKind::Heatmap)
        scale.colormap = r.colormap ? *r.colormap : default_colormap(any_signed || r.settings.subtract_mean);
    return scale;
}

void apply_sweep_scale(ViewResult& data, const SweepScale& scale)
{
    if (auto* h = std::get_if<HeatmapData>(&data)) {
        h->fixed_extremes.clear();
        for (const ValueRange& range : scale.colour) {
            if (range.empty())
                break;
            h->fixed_extremes.emplace_back(range.lo, range.hi);
        }
    } else if (auto* c = std::get_if<CurveData>(&data)) {
        c->fixed_ranges = curve_ranges_of(scale.x, scale.y);
    } else if (auto* s = std::get_if<SpectrumData>(&data)) {
        s->wavelength_ranges = curve_ranges_of(scale.x, scale.y);
        s->ratio_ranges = curve_ranges_of(scale.x, scale.y2);
    }
}

QImage render_frame(const AnimationRequest& r, const ViewResult& data, const SweepScale& scale, int frame)
{
    ViewResult shown = data;
    apply_sweep_scale(shown, scale);
    const QString title = frame_title(r, data, frame);
    std::visit([&](auto& d) { d.title = title; }, shown);
    // As OffscreenFigure: the colour map and the fitted scale, then the data.
    const std::unique_ptr<QWidget> view = make_view(r.view);
    if (auto* h = qobject_cast<HeatmapView*>(view.get())) {
        if (const std::optional<Colormap> map = scale.colormap ? scale.colormap : r.colormap)
            h->setColormap(*map);
        h->setFitColorsToView(r.settings.fit_colors_to_view);
    }
    const Figure* figure = set_view_data(view.get(), shown);
    view->resize(r.settings.pixel_width, r.settings.pixel_height);
    return render_figure_image(*figure, r.figure);
}

void export_animation(const AnimationRequest& r, const std::string& path, AnimationCallbacks callbacks)
{
    check_animation_request(r);
    // Progress: the fixed scale's pass over the sweep (when there is one) takes the first part.
    const bool scale_pass = !r.per_frame_scale && r.view != ViewKind::Rotation;
    const double scale_share = scale_pass ? 0.4 : 0.0;
    const ProgressFn outer = callbacks.progress;
    const auto report = [&](double fraction) {
        if (outer)
            outer(std::clamp(fraction, 0.0, 1.0));
    };
    const SweepScale scale = sweep_scale(r, callbacks.cancel, [&](double f) { report(scale_share * f); });
    callbacks.progress = [&](double f) { report(scale_share + (1.0 - scale_share) * f); };
    const std::unique_ptr<AnimationWriter> writer = make_animation_writer(r.format, path, callbacks);
    for (int frame = 0; frame < r.sweep.frames; ++frame) {
        check_cancel(callbacks.cancel);
        const ViewResult data = compute_frame_data(r, frame, callbacks.cancel);
        const QImage image = render_frame(r, data, scale, frame).convertToFormat(QImage::Format_RGBA8888);
        if (frame == 0)
            writer->begin(image.width(), image.height(), r.fps, r.sweep.frames);
        writer->add_frame(image.constBits(), image.bytesPerLine());
    }
    writer->finish();
}

} // namespace posatlas::ui
