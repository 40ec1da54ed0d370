// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli_export.h"

#include "cli_compute.h"
#include "cli_options.h"
#include "export/figure_export.h"
#include "export/gallery.h"
#include "io/model_config.h"
#include "io/scenario_json.h"
#include "model/session.h"
#include "scenario/validation.h"
#include "views/curve_view.h"
#include "views/view_render.h"

#include <QApplication>
#include <QDir>
#include <QFileInfo>

#include <nlohmann/json.hpp>

#include <cstdio>
#include <memory>
#include <ostream>
#include <set>

namespace posatlas::cli {
namespace {

using namespace posatlas::ui;

// The command line renders without a display: Qt's offscreen platform, unless the user chose one.
// Widgets need a QApplication; one is made on first use and lives until exit.
// The command line promises one line on stderr for an error and nothing otherwise; Qt's notice that
// XDG_RUNTIME_DIR is unset (normal under ssh, cron and CI) is not ours to print.
void quiet_qt_messages(QtMsgType type, const QMessageLogContext& context, const QString& message)
{
    if (type != QtFatalMsg && message.startsWith(QLatin1String("QStandardPaths: XDG_RUNTIME_DIR")))
        return;
    std::fprintf(stderr, "%s\n", qPrintable(qFormatLogMessage(type, context, message)));
}

} // namespace

void ensure_application()
{
    if (QCoreApplication::instance())
        return;
    qInstallMessageHandler(quiet_qt_messages);
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    static int argc = 1;
    static char name[] = "posatlas";
    static char* argv[] = {name, nullptr};
    // Heap, not a function-local static: a QApplication destroyed by exit handlers, after Qt's own
    // globals, crashes in QInputDevice's destructor. release_application() deletes it in order.
    new QApplication(argc, argv);
    QApplication::setApplicationName(QStringLiteral("PosAtlas"));
}

void release_application() { delete QCoreApplication::instance(); }

namespace {

const std::vector<std::string> kFigureOptions{"out", "width", "height", "dpi", "theme", "caption", "font-scale",
                                              "colormap"};
const std::vector<std::string> kViewOptions{"view", "session", "kind", "max-distance", "query-position",
                                            "key-position", "pairs", "row0", "col0", "rows", "cols"};

FigureExportOptions figure_options(const Options& o, const QString& default_caption, QSizeF default_size)
{
    FigureExportOptions f;
    f.size = QSizeF(static_cast<double>(o.integer("width", 16, 20000).value_or(static_cast<int>(default_size.width()))),
                    static_cast<double>(o.integer("height", 16, 20000).value_or(static_cast<int>(default_size.height()))));
    f.dpi = o.real("dpi").value_or(192.0);
    if (f.dpi < 24.0 || f.dpi > 1200.0)
        throw UsageError("--dpi must be in [24, 1200] (got " + std::to_string(f.dpi) + ")");
    f.render.dark = o.choice("theme", {"light", "dark"}).value_or("light") == "dark";
    f.render.font_scale = o.real("font-scale").value_or(1.0);
    if (f.render.font_scale < 0.5 || f.render.font_scale > 4.0)
        throw UsageError("--font-scale must be in [0.5, 4] (got " + std::to_string(f.render.font_scale) + ")");
    const std::string caption = o.text("caption").value_or("none");
    f.render.caption = caption == "none" ? QString() : caption == "auto" ? default_caption : QString::fromStdString(caption);
    return f;
}

std::optional<Colormap> colormap_option(const Options& o)
{
    const auto name = o.choice("colormap", {"auto", "viridis", "magma", "cividis", "diverging"});
    if (!name || *name == "auto")
        return std::nullopt;
    return parse_colormap(QString::fromStdString(*name));
}

// Writes a figure or its numbers according to the extension; maps every failure to a UsageError.
void write_output(const Figure& figure, const ViewResult& data, const QString& path, FigureExportOptions options,
                  const Scenario& s)
{
    const auto format = export_format_from_path(path);
    if (!format)
        throw UsageError("--out " + path.toStdString() + ": unknown extension; use one of "
                         + export_format_list().toStdString());
    set_figure_metadata(options, figure, s); // the same metadata as the GUI's export (session.h)
    try {
        if (*format == ExportFormat::Csv || *format == ExportFormat::Json)
            export_numbers(data, path);
        else
            export_figure(figure, path, options);
    } catch (const ExportError& e) {
        throw UsageError(std::string("--out: ") + e.what());
    }
}

} // namespace

OptionSet export_option_set()
{
    const auto values_list = scenario_value_options();
    const auto flags_list = scenario_flag_options();
    OptionSet set{{values_list.begin(), values_list.end()}, {flags_list.begin(), flags_list.end()}};
    set.values.insert(kFigureOptions.begin(), kFigureOptions.end());
    set.values.insert(kViewOptions.begin(), kViewOptions.end());
    set.flags.insert("linear-x");
    return set;
}

OptionSet gallery_option_set()
{
    OptionSet set{{kFigureOptions.begin(), kFigureOptions.end()}, {}};
    set.values.insert({"format", "only"});
    return set;
}

int run_export(const std::vector<std::string>& args, std::ostream& out)
{
    const OptionSet set = export_option_set();
    const Options o(args, set.values, set.flags);
    if (!o.positional().empty())
        throw UsageError("unexpected argument '" + o.positional().front() + "'; options start with --");
    const auto view_name = o.choice("view", {"heatmap", "rotation", "decay", "curves", "spectrum"});
    const auto path = o.text("out");
    if (!path)
        throw UsageError("--out FILE is required (.png, .svg, .pdf, .csv or .json)");

    Session session;
    if (auto file = o.text("session")) {
        if (o.has("preset") || o.has("config"))
            throw UsageError("--session is exclusive with --preset and --config");
        try {
            session = load_session(QString::fromStdString(*file));
        } catch (const SessionError& e) {
            throw UsageError(std::string("--session: ") + e.what());
        }
    }
    // Options given beside a session override it, as they override a config.
    const Scenario s = o.has("session") ? scenario_with_options(o, session.scenario)
                                        : scenario_from_options(o, std::nullopt, "export");
    ViewSettings v = session.settings;
    if (!view_name && !o.has("session"))
        throw UsageError("--view is required: heatmap, rotation, decay (curves) or spectrum");
    const ViewKind kind = view_name ? *parse_view_kind(QString::fromStdString(*view_name))
                                    : *parse_view_kind(session.visible_views.value(0, QStringLiteral("heatmap")));
    if (auto k = o.text("kind")) {
        const auto parsed = parse_matrix_kind(*k);
        if (!parsed)
            throw UsageError("--kind must be one of logits|encoding|bias|buckets|cope-positions|cope-gates (got '" + *k
                             + "')");
        v.matrix_kind = parsed;
    }
    if (auto r = o.integer("max-distance", 1, kMaxDistance))
        v.max_distance = *r;
    if (o.flag("linear-x"))
        v.log_x = false;
    if (auto m = o.real("query-position"))
        v.query_position = *m;
    if (auto n = o.real("key-position"))
        v.key_position = *n;
    if (auto pairs = o.real_list("pairs")) {
        v.pairs.clear();
        for (double p : *pairs)
            v.pairs.push_back(static_cast<int>(p));
    }
    v.row0 = o.integer("row0", 0, kMaxSeqLen).value_or(v.row0);
    v.col0 = o.integer("col0", 0, kMaxSeqLen).value_or(v.col0);
    v.rows = o.integer("rows", 1, kMaxSeqLen).value_or(v.rows);
    v.cols = o.integer("cols", 1, kMaxSeqLen).value_or(v.cols);
    const FigureExportOptions options = figure_options(o, scenario_caption(s), QSizeF(1200, 800));
    // The heatmap is computed at the figure's device resolution, not more (as the GUI's export).
    v = export_view_settings(v, options);

    ensure_application();
    std::optional<Colormap> colormap = o.has("colormap") ? colormap_option(o) : session.colormap;
    try {
        const OffscreenFigure fig(kind, s, v, colormap);
        write_output(fig.figure(), fig.data(), QString::fromStdString(*path), options, s);
    } catch (const ParameterError& e) {
        throw UsageError(option_name(e.parameter()) + " must be " + e.allowed() + " (got " + e.got() + ")");
    }
    out << *path << '\n';
    return 0;
}

int run_gallery(const std::vector<std::string>& args, std::ostream& out)
{
    const OptionSet set = gallery_option_set();
    const Options o(args, set.values, set.flags);
    if (!o.positional().empty())
        throw UsageError("unexpected argument '" + o.positional().front() + "'");
    const auto dir = o.text("out");
    if (!dir)
        throw UsageError("--out DIR is required: the folder for the figures (created if missing)");
    const std::string format = o.choice("format", {"png", "svg", "pdf", "csv", "json"}).value_or("png");
    const std::string only = o.text("only").value_or("");
    if (!QDir().mkpath(QString::fromStdString(*dir)))
        throw UsageError("--out " + *dir + ": cannot create the folder");

    ensure_application();
    int written = 0;
    for (const GalleryFigure& g : standard_gallery()) {
        if (!only.empty() && g.stem.toStdString().find(only) == std::string::npos)
            continue;
        const QString path = QDir(QString::fromStdString(*dir)).filePath(g.stem + QLatin1Char('.') + QString::fromStdString(format));
        FigureExportOptions options = figure_options(o, scenario_caption(g.scenario), QSizeF(1200, 800));
        options.render.caption = o.has("caption") ? options.render.caption : g.description;
        const ViewSettings v = export_view_settings(g.settings, options);
        if (!g.rope_variants.empty()) {
            CurveView view;
            const CurveData data = comparison_curves(g.description.section(QLatin1Char('('), 0, 0).trimmed(),
                                                     g.rope_variants);
            view.setData(data);
            write_output(view, data, path, options, g.scenario);
        } else {
            const OffscreenFigure fig(g.view, g.scenario, v, g.colormap);
            write_output(fig.figure(), fig.data(), path, options, g.scenario);
        }
        out << path.toStdString() << '\n';
        ++written;
    }
    if (written == 0)
        throw UsageError("--only " + only + " matches no gallery figure");
    return 0;
}

} // namespace posatlas::cli
