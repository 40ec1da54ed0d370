// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli_export.h"

#include "cli_animate.h"

#include "cli_compute.h"
#include "cli_help.h"
#include "cli_i18n.h"
#include "cli_options.h"
#include "cli_progress.h"
#include "export/animation_export.h"
#include "export/figure_export.h"
#include "export/gallery.h"
#include "export/patch_grid_export.h"
#include "export/token_layout_export.h"
#include "io/model_config.h"
#include "io/scenario_json.h"
#include "jobs/token_layout_job.h"
#include "model/session.h"
#include "scenario/validation.h"
#include "views/curve_view.h"
#include "views/view_render.h"
#include "window/language.h"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLocale>
#include <QTemporaryDir>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <functional>
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
    if (qobject_cast<QApplication*>(QCoreApplication::instance()))
        return;
    // The QCoreApplication of the language (cli_i18n.h) gives way: widgets need a QApplication.
    delete QCoreApplication::instance();
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
    // Figure texts in the language of the environment (LANG=zh_CN.UTF-8 gives Chinese titles and axis
    // labels), numbers with a decimal point, as in the GUI. The GUI's stored preference is not read:
    // a script's output depends on its environment only.
    ui::installLanguage(ui::resolveLanguage(QStringLiteral("system"), QLocale::system().uiLanguages()));
    ui::applyNumberPolicy();
}

void release_application()
{
    delete QCoreApplication::instance();
}

namespace {

// ------------------------------------------------------------------ option tables (each option once)

const std::vector<std::string> kFileFormats{"png", "svg", "pdf", "csv", "json"};
// export's --format: the still formats, then the animations' (with --animate).
const std::vector<std::string> kExportFormats{"png", "svg", "pdf", "csv", "json", "mp4", "gif", "apng"};

// How a figure looks: export and gallery.
OptionTable figure_table()
{
    return {
        {.name = "width",
         .type = ArgType::Int,
         .help = translate("Cli", "Figure width in CSS pixels (1/96 inch). With --animate: 1280 by default."),
         .default_value = "1200",
         .lo = 16,
         .hi = 20000},
        {.name = "height",
         .type = ArgType::Int,
         .help = translate("Cli", "Figure height in CSS pixels. With --animate: 720 by default."),
         .default_value = "800",
         .lo = 16,
         .hi = 20000},
        {.name = "dpi",
         .type = ArgType::Real,
         .help = translate("Cli", "PNG resolution: pixels = size x dpi / 96 (192 = twice the size). With "
                                  "--animate: 96 by default (frames of 1280 x 720 pixels)."),
         .default_value = "192",
         .lo = 24,
         .hi = 1200},
        {.name = "theme",
         .type = ArgType::Choice,
         .help = translate("Cli", "Colours of background, axes and text."),
         .default_value = "light",
         .choices = {"light", "dark"}},
        {.name = "caption",
         .type = ArgType::Text,
         .help = translate(
             "Cli",
             "Caption under the figure: auto (the model and its parameters), none, or the text given."),
         .metavar = "auto|none|TEXT",
         .default_text = translate("Cli", "none (gallery: each figure's description)")},
        {.name = "font-scale",
         .type = ArgType::Real,
         .help = translate("Cli", "Scales every text of the figure."),
         .default_value = "1",
         .lo = 0.5,
         .hi = 4},
        {.name = "colormap",
         .type = ArgType::Choice,
         .help = translate("Cli", "Heatmap colours; auto picks diverging for signed values, else viridis."),
         .default_value = "auto",
         .choices = {"auto", "viridis", "magma", "cividis", "diverging"}}};
}

// What export shows.
OptionTable view_table()
{
    return {
        {.name = "view",
         .type = ArgType::Choice,
         .help = translate(
             "Cli",
             "The figure: the heatmap, RoPE's rotation of a query and key, the decay curves (curves is "
             "the same), the frequency spectrum, the patch grid of an image-patch method (rope2d, "
             "rope-mixed, swin, vit: one query patch against every patch), or M-RoPE's token layout (each "
             "token's t, h, w ids; --method mrope). Required unless --session gives the visible view."),
         .choices = {"heatmap", "rotation", "decay", "curves", "spectrum", "patch-grid", "token-layout"}},
        {.name = "session",
         .type = ArgType::Path,
         .help = translate(
             "Cli", "Take the model and the view settings from a saved .posatlas.json session; options given "
                    "beside it override it. Exclusive with --preset and --config."),
         .allowed = translate("Cli", "a session file")},
        {.name = "kind",
         .type = ArgType::Text,
         .help = translate("Cli",
                           "Heatmap: which matrix (logits, weights, encoding, bias, buckets, cope-positions, "
                           "cope-gates), as the "
                           "method offers them."),
         .metavar = "KIND",
         .default_text = translate("Cli", "the method's first kind")},
        {.name = "compare",
         .type = ArgType::Text,
         .help = translate(
             "Cli",
             "Heatmap and decay: 2 to 4 methods side by side, each with its own parameters (heatmap: one "
             "panel per method; decay: their logits against distance on shared axes)."),
         .metavar = "M1,M2,..",
         .default_text = translate("Cli", "no comparison (or the session's)"),
         .allowed = translate("Cli", "2 to 4 distinct method ids, comma-separated")},
        {.name = "max-distance",
         .type = ArgType::Int,
         .help = translate("Cli", "Decay: the largest relative distance on the x axis (tokens)."),
         .default_text = translate(
             "Cli", "four times the model's context, or N - 1 if that is further; 64 to 100000000 (or "
                    "the session's)"),
         .lo = 1,
         .hi = static_cast<double>(kMaxDistance)},
        {.name = "linear-x",
         .type = ArgType::Flag,
         .help = translate("Cli", "Decay: a linear distance axis instead of log.")},
        {.name = "query-position",
         .type = ArgType::Real,
         .help = translate("Cli", "Rotation: the query's position m (tokens)."),
         .metavar = "M",
         .default_text = translate("Cli", "12 (or the session's)"),
         .lo = -1e15,
         .hi = 1e15},
        {.name = "key-position",
         .type = ArgType::Real,
         .help = translate("Cli", "Rotation: the key's position n (tokens)."),
         .metavar = "N",
         .default_text = translate("Cli", "4 (or the session's)"),
         .lo = -1e15,
         .hi = 1e15},
        {.name = "query-patch",
         .type = ArgType::Int,
         .help = translate("Cli", "Patch grid: the query patch, numbered row by row (row P / W, column P mod "
                                  "W on a grid W patches wide)."),
         .metavar = "P",
         .default_text = translate("Cli", "0 (or the session's)"),
         .lo = -static_cast<double>(kMaxSeqLen),
         .hi = static_cast<double>(kMaxSeqLen),
         .allowed = translate("Cli", "an integer in [0, N), N the number of patches (--seq-len)")},
        {.name = "pairs",
         .type = ArgType::RealList,
         .help = translate("Cli", "Rotation: the pair indices drawn."),
         .metavar = "I,J,..",
         .default_text = translate("Cli", "the first, quarter, middle and last pair"),
         .allowed = translate("Cli", "comma-separated integers")},
        {.name = "row0",
         .type = ArgType::Int,
         .help = translate("Cli", "Heatmap: first row (query position) of the window."),
         .default_value = "0",
         .lo = 0,
         .hi = static_cast<double>(kMaxSeqLen)},
        {.name = "col0",
         .type = ArgType::Int,
         .help = translate("Cli", "Heatmap: first column (key position) of the window."),
         .default_value = "0",
         .lo = 0,
         .hi = static_cast<double>(kMaxSeqLen)},
        {.name = "rows",
         .type = ArgType::Int,
         .help = translate("Cli", "Heatmap: rows of the window (positions)."),
         .default_text = translate("Cli", "up to --seq-len"),
         .lo = 1,
         .hi = static_cast<double>(kMaxSeqLen)},
        {.name = "cols",
         .type = ArgType::Int,
         .help = translate("Cli", "Heatmap: columns of the window (positions)."),
         .default_text = translate("Cli", "up to --seq-len"),
         .lo = 1,
         .hi = static_cast<double>(kMaxSeqLen)}};
}

std::vector<HelpSection> export_sections()
{
    std::vector<HelpSection> sections{
        {translate("Cli", "Output"),
         {{.name = "out",
           .type = ArgType::Path,
           .help = translate(
               "Cli",
               "The file to write, its format from the extension (.png, .svg, .pdf: the figure; .csv, .json: "
               "its numbers; with --animate .mp4, .gif, .apng or .png); - writes the bytes to standard "
               "output "
               "(then give --format)."),
           .metavar = "FILE|-",
           .allowed = translate("Cli", "a file name or -"),
           .required = true},
          {.name = "format",
           .type = ArgType::Choice,
           .help = translate("Cli", "The format, needed with --out - (mp4, gif, apng with --animate)."),
           .default_text = translate("Cli", "from the --out extension"),
           .choices = kExportFormats},
          quiet_option()}},
        {translate("Cli", "View"), view_table()},
        {translate("Cli", "Figure"), figure_table()},
        {translate("Cli", "Animation"), animation_table()}};
    for (HelpSection& s : scenario_sections(std::nullopt))
        sections.push_back(std::move(s));
    sections.push_back({translate("Cli", "Help"), {help_option()}});
    return sections;
}

std::vector<HelpSection> gallery_sections()
{
    OptionTable own{
        {.name = "out",
         .type = ArgType::Path,
         .help = translate(
             "Cli", "The folder for the figures (created if missing); one file per figure, named by it."),
         .metavar = "DIR",
         .allowed = translate("Cli", "a folder name"),
         .required = true},
        {.name = "format",
         .type = ArgType::Choice,
         .help = translate("Cli", "The figures' format."),
         .default_value = "png",
         .choices = kFileFormats},
        {.name = "only",
         .type = ArgType::Text,
         .help = translate("Cli", "Only the figures whose name contains TEXT."),
         .default_text = translate("Cli", "every figure")},
        quiet_option()};
    return {{translate("Cli", "Options"), own},
            {translate("Cli", "Figure"), figure_table()},
            {translate("Cli", "Help"), {help_option()}}};
}

FigureExportOptions figure_options(const Options& o, const QString& default_caption)
{
    FigureExportOptions f;
    f.size = QSizeF(static_cast<double>(*o.integer("width")), static_cast<double>(*o.integer("height")));
    f.dpi = *o.real("dpi");
    f.render.dark = *o.choice("theme") == "dark";
    f.render.font_scale = *o.real("font-scale");
    const std::string caption = o.text("caption").value_or("none");
    f.render.caption = caption == "none"   ? QString()
                       : caption == "auto" ? default_caption
                                           : QString::fromStdString(caption);
    return f;
}

std::optional<Colormap> colormap_option(const Options& o)
{
    const auto name = o.choice("colormap");
    if (!name || *name == "auto")
        return std::nullopt;
    return parse_colormap(QString::fromStdString(*name));
}

// Runs `write` for the --out path `path` of a known extension (png, svg, pdf, csv, json), its ExportError
// as the command line's UsageError; an unknown extension is refused before anything is computed.
void write_out(const QString& path, const std::function<void(ExportFormat)>& write)
{
    const auto format = export_format_from_path(path);
    if (!format)
        throw UsageError(
            arg(translate("Cli", "--out %1: unknown extension; use one of %2 (or --out - --format FORMAT)"),
                {path.toStdString(), export_format_list().toStdString()}));
    try {
        write(*format);
    } catch (const ExportError& e) {
        throw UsageError(std::string("--out: ") + e.what());
    }
}

// The patch grid's figure or numbers (export/patch_grid_export.h); a ParameterError (a method without a
// grid, a query patch outside the grid) goes to the caller.
void export_patch_grid_output(const Scenario& s, std::int64_t query, const QString& path,
                              const FigureExportOptions& options)
{
    write_out(path, [&](ExportFormat) { export_patch_grid(s, query, path, options); });
}

// Writes a figure or its numbers according to the extension; maps every failure to a UsageError.
void write_output(const Figure& figure, const ViewResult& data, const QString& path,
                  FigureExportOptions options, const Scenario& s)
{
    write_out(path, [&](ExportFormat format) {
        if (format == ExportFormat::Csv || format == ExportFormat::Json)
            return export_numbers(data, path);
        set_figure_metadata(options, figure, s); // the same metadata as the GUI's export (session.h)
        export_figure(figure, path, options);
    });
}

// --view token-layout: M-RoPE's figure, not animated.
void check_token_layout_export(const Scenario& s, bool animate)
{
    if (!shows_token_layout(s))
        throw UsageError(
            arg(translate("Cli", "--view token-layout shows M-RoPE's (t, h, w) position ids: give "
                                 "--method mrope (got --method %1)"),
                {std::string(s.method.id())}));
    if (animate)
        throw UsageError(translate("Cli", "--animate: the token layout is not animated; use --view heatmap, "
                                          "rotation, decay or spectrum"));
}

// The token layout or its numbers by the extension, as write_output does for the views.
void write_token_layout(const TokenLayoutFigure& fig, const QString& path, const FigureExportOptions& options,
                        const Scenario& s)
{
    write_out(path, [&](ExportFormat) { export_token_layout(fig.figure(), fig.data(), path, options, s); });
}

} // namespace

OptionSet export_option_set()
{
    return option_set(flatten(export_sections()));
}

OptionSet gallery_option_set()
{
    return option_set(flatten(gallery_sections()));
}

std::string export_help()
{
    return render_help(
        usage_prefix() + "posatlas export --view heatmap|rotation|decay|spectrum|patch-grid|token-layout\n" +
            std::string(display_width(usage_prefix()) + 16, ' ') +
            "[--preset NAME | --config FILE | --session FILE] [options]\n" +
            std::string(display_width(usage_prefix()) + 16, ' ') +
            "--out FILE.{png,svg,pdf,csv,json}|- [--format F]\n" + usage_prefix() +
            "posatlas export --view V [options] --animate FIELD=FROM:TO[:log] [--frames N] [--fps N]\n" +
            std::string(display_width(usage_prefix()) + 16, ' ') + "--out FILE.{mp4,gif,apng}|- [--format F]",
        translate(
            "Cli",
            "Renders one figure (PNG, SVG, PDF) or writes its numbers (CSV, JSON) without a display, as the "
            "GUI's "
            "Export does; with --animate, an animation of the figure as one parameter moves (MP4, GIF, "
            "APNG)."),
        export_sections());
}

std::string gallery_help()
{
    return render_help(
        usage_prefix() + "posatlas gallery --out DIR [--format png|svg|pdf|csv|json] [--only TEXT] "
                         "[figure options]",
        translate("Cli", "Writes the standard set of figures (the user guide's gallery) into a folder."),
        gallery_sections());
}

int run_export(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    const Options o(args, flatten(export_sections()));
    if (o.help()) {
        out << export_help();
        return 0;
    }
    if (!o.positional().empty())
        throw UsageError(arg(translate("Cli", "unexpected argument '%1'; options start with --"),
                             {o.positional().front()}));
    const auto view_name = o.choice("view");
    const auto path = o.text("out");
    if (!path)
        throw UsageError(
            translate("Cli", "--out FILE is required (.png, .svg, .pdf, .csv or .json, or - with --format)"));
    const bool to_stdout = *path == "-";
    const auto format = o.choice("format");
    const bool animate = o.has("animate");
    check_animation_options(o);
    if (!animate && to_stdout && !format)
        throw UsageError(translate("Cli", "--out - needs --format: one of png|svg|pdf|csv|json"));
    if (!animate && !to_stdout && format) {
        const auto from_path = export_format_from_path(QString::fromStdString(*path));
        const auto named = export_format_from_path(QStringLiteral("x.") + QString::fromStdString(*format));
        if (from_path && from_path != named)
            throw UsageError(arg(translate("Cli", "--format %1 does not match the extension of --out %2"),
                                 {*format, *path}));
        if (!from_path)
            throw UsageError(arg(translate("Cli", "--out %1: unknown extension; use one of %2"),
                                 {*path, export_format_list().toStdString()}));
    }

    Session session;
    if (auto file = o.text("session")) {
        if (o.has("preset") || o.has("config") || o.has("model"))
            throw UsageError(translate("Cli", "--session is exclusive with --preset, --config and --model"));
        SessionReadReport report;
        try {
            session = load_session(QString::fromStdString(*file), &report);
        } catch (const SessionError& e) {
            throw UsageError(std::string("--session: ") + e.what());
        }
        // Ignored keys are most often typos whose value silently became the default: say so, and go on.
        for (const UnknownKey& k : report.unknown_keys)
            err << "posatlas: "
                << arg(translate("Cli", "warning: %1"),
                       {quote_input("--session " + *file + ": " + unknown_key_message(k), 2000)})
                << '\n';
    }
    // Options given beside a session override it, as they override a config.
    const Scenario s = o.has("session") ? scenario_with_options(o, session.scenario)
                                        : scenario_from_options(o, std::nullopt, "export");
    ViewSettings v = session.settings;
    if (!view_name && !o.has("session"))
        throw UsageError(translate(
            "Cli",
            "--view is required: heatmap, rotation, decay (curves), spectrum, patch-grid or token-layout"));
    // The patch grid and M-RoPE's token layout are figures of their own (export/patch_grid_export.h,
    // export/token_layout_export.h), not view kinds.
    const bool patch_grid = view_name == "patch-grid";
    if (patch_grid && animate)
        throw UsageError(translate("Cli", "--animate: the patch grid is exported as a still figure only"));
    const std::int64_t query_patch =
        o.has("query-patch") ? *o.integer("query-patch") : session.settings.query_patch;
    const bool token_layout = view_name == "token-layout";
    if (token_layout)
        check_token_layout_export(s, animate);
    const ViewKind kind = patch_grid || token_layout ? ViewKind::Heatmap
                          : view_name
                              ? *parse_view_kind(QString::fromStdString(*view_name))
                              : *parse_view_kind(session.visible_views.value(0, QStringLiteral("heatmap")));
    if (auto k = o.text("kind")) {
        const auto parsed = parse_matrix_kind(*k);
        if (!parsed)
            throw UsageError(arg(translate("Cli", "--kind must be one of %1 (got '%2')"),
                                 {"logits|weights|encoding|bias|buckets|cope-positions|cope-gates", *k}));
        v.matrix_kind = parsed;
    }
    if (auto list = o.text("compare")) {
        std::vector<std::string> ids;
        std::size_t start = 0;
        while (start <= list->size()) {
            const std::size_t comma = std::min(list->find(',', start), list->size());
            if (comma > start)
                ids.push_back(list->substr(start, comma - start));
            start = comma + 1;
        }
        std::string problem;
        const auto parsed = parse_compare_list(ids, &problem);
        if (!parsed)
            throw UsageError("--compare: " + problem);
        v.compare = *parsed;
    }
    if (auto r = o.integer("max-distance"))
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
    if (o.has("row0"))
        v.row0 = *o.integer("row0");
    if (o.has("col0"))
        v.col0 = *o.integer("col0");
    if (o.has("rows"))
        v.rows = *o.integer("rows");
    if (o.has("cols"))
        v.cols = *o.integer("cols");
    FigureExportOptions options = figure_options(o, scenario_caption(s));
    if (animate) { // an animation's own default frame, 1280 x 720 pixels, for what is not given
        const FigureExportOptions frame = default_animation_figure();
        if (!o.has("width"))
            options.size.setWidth(frame.size.width());
        if (!o.has("height"))
            options.size.setHeight(frame.size.height());
        if (!o.has("dpi"))
            options.dpi = frame.dpi;
    }
    // The heatmap is computed at the figure's device resolution, not more (as the GUI's export).
    v = export_view_settings(v, options);

    std::optional<Colormap> colormap = o.has("colormap") ? colormap_option(o) : session.colormap;
    if (animate)
        return run_animation(o, kind, s, v, options, colormap, out);
    ensure_application();
    Progress progress("export", o.flag("quiet"));
    // --out -: written to a private file first (the writers are the GUI's, file-based), then copied out.
    QTemporaryDir temp;
    const QString target = to_stdout
                               ? temp.filePath(QStringLiteral("figure.") + QString::fromStdString(*format))
                               : QString::fromStdString(*path);
    if (to_stdout && !temp.isValid())
        throw UsageError(arg(translate("Cli", "--out -: cannot create a temporary folder (%1)"),
                             {temp.errorString().toStdString()}));
    try {
        progress.step(1, 2, translate("Cli", "computing and drawing"));
        if (patch_grid) {
            progress.step(2, 2, translate("Cli", "writing"));
            export_patch_grid_output(s, query_patch, target, options);
        } else if (token_layout) {
            const TokenLayoutFigure fig(s);
            progress.step(2, 2, translate("Cli", "writing"));
            write_token_layout(fig, target, options, s);
        } else {
            const OffscreenFigure fig(kind, s, v, colormap);
            progress.step(2, 2, translate("Cli", "writing"));
            write_output(fig.figure(), fig.data(), target, options, s);
        }
    } catch (const ParameterError& e) {
        throw UsageError(parameter_message(option_name(e.parameter()), e.allowed(), e.got()));
    }
    progress.done();
    if (to_stdout) {
        QFile file(target);
        if (!file.open(QIODevice::ReadOnly))
            throw UsageError(arg(translate("Cli", "--out -: cannot read back the temporary file (%1)"),
                                 {file.errorString().toStdString()}));
        const QByteArray bytes = file.readAll();
        out.write(bytes.constData(), bytes.size());
        return 0;
    }
    out << *path << '\n';
    return 0;
}

int run_gallery(const std::vector<std::string>& args, std::ostream& out)
{
    const Options o(args, flatten(gallery_sections()));
    if (o.help()) {
        out << gallery_help();
        return 0;
    }
    if (!o.positional().empty())
        throw UsageError(arg(translate("Cli", "unexpected argument '%1'"), {o.positional().front()}));
    const auto dir = o.text("out");
    if (!dir)
        throw UsageError(
            translate("Cli", "--out DIR is required: the folder for the figures (created if missing)"));
    const std::string format = *o.choice("format");
    const std::string only = o.text("only").value_or("");
    if (!QDir().mkpath(QString::fromStdString(*dir)))
        throw UsageError(arg(translate("Cli", "--out %1: cannot create the folder"), {*dir}));

    ensure_application();
    const auto wanted = [&](const GalleryFigure& g) {
        return only.empty() || g.stem.toStdString().find(only) != std::string::npos;
    };
    const auto& gallery = standard_gallery();
    const int total = static_cast<int>(std::count_if(gallery.begin(), gallery.end(), wanted));
    Progress progress("gallery", o.flag("quiet"));
    int written = 0;
    for (const GalleryFigure& g : gallery) {
        if (!wanted(g))
            continue;
        progress.step(written + 1, total, g.stem.toStdString());
        const QString path = QDir(QString::fromStdString(*dir))
                                 .filePath(g.stem + QLatin1Char('.') + QString::fromStdString(format));
        FigureExportOptions options = figure_options(o, scenario_caption(g.scenario));
        options.render.caption = o.has("caption") ? options.render.caption : g.description;
        const ViewSettings v = export_view_settings(g.settings, options);
        if (g.query_patch) {
            export_patch_grid_output(g.scenario, *g.query_patch, path, options);
        } else if (g.token_layout) {
            write_token_layout(TokenLayoutFigure(g.scenario), path, options, g.scenario);
        } else if (!g.rope_variants.empty()) {
            CurveView view;
            const CurveData data =
                comparison_curves(g.description.section(QLatin1Char('('), 0, 0).trimmed(), g.rope_variants);
            view.setData(data);
            write_output(view, data, path, options, g.scenario);
        } else {
            const OffscreenFigure fig(g.view, g.scenario, v, g.colormap);
            write_output(fig.figure(), fig.data(), path, options, g.scenario);
        }
        progress.done(); // the line of paths stays clean when both go to the terminal
        out << path.toStdString() << '\n';
        ++written;
    }
    progress.done();
    if (written == 0)
        throw UsageError(arg(translate("Cli", "--only %1 matches no gallery figure"), {only}));
    return 0;
}

} // namespace posatlas::cli
