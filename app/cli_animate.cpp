// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli_animate.h"

#include "cli_export.h"
#include "cli_i18n.h"
#include "cli_progress.h"
#include "export/animation_export.h"

#include <QFile>
#include <QTemporaryDir>

#include <ostream>

namespace posatlas::cli {

using namespace posatlas::ui;

OptionTable animation_table()
{
    return {{.name = "animate",
             .type = ArgType::Text,
             .help = translate(
                 "Cli",
                 "An animation instead of a still figure: FIELD moves from FROM to TO (geometric steps with "
                 ":log). FIELD is a parameter of the method (rope_theta or --rope-theta's name, seq_len, "
                 "...) or, for the rotation view, query_position or key_position. --out .mp4, .gif or .apng "
                 "(.png)."),
             .metavar = "FIELD=FROM:TO[:log]",
             .default_text = translate("Cli", "a still figure"),
             .allowed = translate("Cli", "FIELD=FROM:TO[:log|:linear]")},
            {.name = "frames",
             .type = ArgType::Int,
             .help = translate("Cli", "Animation: the number of frames, both ends of the sweep included."),
             .default_value = "60",
             .lo = 1,
             .hi = static_cast<double>(kMaxAnimationFrames)},
            {.name = "fps",
             .type = ArgType::Int,
             .help = translate("Cli", "Animation: frames per second (GIF: at most 50)."),
             .default_value = "20",
             .lo = 1,
             .hi = 120},
            {.name = "per-frame-scale",
             .type = ArgType::Flag,
             .help = translate(
                 "Cli", "Animation: each frame its own colour scale and axes. By default they are "
                        "fixed over the whole sweep, so that the colours and curves show the change.")}};
}

const std::vector<std::string>& animation_format_names()
{
    static const std::vector<std::string> names{"mp4", "gif", "apng"};
    return names;
}

void check_animation_options(const Options& o)
{
    if (o.has("animate"))
        return;
    for (const char* name : {"frames", "fps", "per-frame-scale"})
        if (o.has(name))
            throw UsageError(arg(translate("Cli", "--%1 needs --animate FIELD=FROM:TO"), {name}));
    if (const auto format = o.choice("format"))
        for (const std::string& name : animation_format_names())
            if (*format == name)
                throw UsageError(arg(translate("Cli", "--format %1 needs --animate FIELD=FROM:TO"), {name}));
}

namespace {

std::optional<AnimationFormat> format_named(const std::string& name)
{
    return animation_format_from_path("x." + name);
}

} // namespace

int run_animation(const Options& o, ViewKind kind, const Scenario& s, const ViewSettings& settings,
                  const FigureExportOptions& figure, std::optional<Colormap> colormap, std::ostream& out)
{
    const std::string path = o.text("out").value_or(std::string());
    const bool to_stdout = path == "-";
    const auto format_option = o.choice("format");
    std::optional<AnimationFormat> format;
    if (format_option) {
        format = format_named(*format_option);
        if (!format)
            throw UsageError(arg(translate("Cli", "--format %1 is not an animation format; with --animate "
                                                  "give mp4, gif or apng"),
                                 {*format_option}));
    }
    if (to_stdout) {
        if (!format)
            throw UsageError(translate("Cli", "--out - needs --format: one of mp4|gif|apng with --animate"));
    } else {
        const auto from_path = animation_format_from_path(path);
        if (!from_path)
            throw UsageError(arg(translate("Cli", "--out %1: unknown extension for an animation; use .mp4, "
                                                  ".gif or .apng (.png)"),
                                 {path}));
        if (format && *format != *from_path)
            throw UsageError(arg(translate("Cli", "--format %1 does not match the extension of --out %2"),
                                 {*format_option, path}));
        format = from_path;
    }

    AnimationRequest request;
    request.view = kind;
    request.scenario = s;
    request.settings = settings;
    request.colormap = colormap;
    request.sweep = parse_sweep(*o.text("animate"), static_cast<int>(*o.integer("frames")));
    request.figure = figure;
    request.fps = static_cast<int>(*o.integer("fps"));
    request.format = *format;
    request.per_frame_scale = o.flag("per-frame-scale");
    check_animation_request(request); // before anything is computed or written

    ensure_application();
    QTemporaryDir temp;
    if (to_stdout && !temp.isValid())
        throw UsageError(arg(translate("Cli", "--out -: cannot create a temporary folder (%1)"),
                             {temp.errorString().toStdString()}));
    const std::string target =
        to_stdout
            ? temp.filePath(QStringLiteral("animation.") + QString::fromUtf8(animation_format_name(*format)))
                  .toStdString()
            : path;
    Progress progress("export", o.flag("quiet"));
    export_animation(request, target, {.cancel = {}, .progress = progress.part(0.0, 1.0), .write = {}});
    progress.done();
    if (to_stdout) {
        QFile file(QString::fromStdString(target));
        if (!file.open(QIODevice::ReadOnly))
            throw UsageError(arg(translate("Cli", "--out -: cannot read back the temporary file (%1)"),
                                 {file.errorString().toStdString()}));
        const QByteArray bytes = file.readAll();
        out.write(bytes.constData(), bytes.size());
        return 0;
    }
    out << path << '\n';
    return 0;
}

} // namespace posatlas::cli
