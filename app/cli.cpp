// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli.h"

#include "cli_completion.h"
#include "cli_compute.h"
#include "cli_errors.h"
#include "cli_export.h"
#include "cli_help.h"
#include "cli_hub.h"
#include "cli_i18n.h"
#include "cli_inspect.h"
#include "cli_lab.h"
#include "cli_lesson.h"
#include "cli_options.h"
#include "cli_screenshots.h"
#include "io/input_file.h"
#include "io/model_config.h"
#include "io/safe_write.h"
#include "lab_options.h"
#include "scenario/types.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <ostream>

namespace posatlas::cli {

std::string usage()
{
    // Names and synopses as typed; what they do in the environment's language, aligned by display width.
    const auto row = [](std::string left, const std::string& what) {
        left.append(left.size() < 22 ? 22 - left.size() : 1, ' ');
        return left + what + '\n';
    };
    const std::string head = usage_prefix();
    const std::string indent(display_width(head), ' ');
    std::string u = head + "posatlas [FILE]               " +
                    translate("Cli", "open the GUI (with a .posatlas.json session or a config.json)") + '\n' +
                    indent + "posatlas COMMAND [options]    " + translate("Cli", "the command line") + '\n' +
                    indent + "posatlas COMMAND --help       " +
                    translate("Cli", "a command's options: meaning, default and allowed values") + "\n\n" +
                    translate("Cli", "commands:") + '\n';
    u += row("  compute QUANTITY",
             translate("Cli", "print numbers as JSON or CSV (compute --help lists the quantities)"));
    u += row("  export",
             translate("Cli", "one figure (PNG, SVG, PDF) or its numbers (CSV, JSON), without a display"));
    u += row("  gallery", translate("Cli", "the standard set of figures into a folder"));
    u += row("  screenshots", translate("Cli", "the screenshots of the README and user guide"));
    u += row("  lesson check",
             translate("Cli", "compute every number a lesson quotes and compare it with the text"));
    u += row("  inspect FILE",
             translate("Cli", "a model config's import report and the anatomy of every layer"));
    u += row("  lab train|eval|sweep",
             translate("Cli", "train a small transformer with an encoding, measure it at longer lengths"));
    u += row("  presets", translate("Cli", "list the shipped model presets"));
    u += row("  models",
             translate("Cli", "list the models in the local Hugging Face cache (for --model ORG/NAME)"));
    u += row("  download ORG/NAME",
             translate("Cli", "fetch a model's config.json and position tensors from the Hugging Face Hub"));
    u += row("  completion bash", translate("Cli", "print the bash completion script"));
    u += row("  help [COMMAND]",
             translate("Cli", "this help, or a command's; help --all: every command's and quantity's"));
    u += '\n' + translate("Cli", "options:") + '\n';
    u += row("  -h, --help", translate("Cli", "print this help and exit"));
    u += row("  --version", translate("Cli", "print the version and exit"));
    u += '\n';
    wrap(u,
         translate("Cli",
                   "Progress of long commands goes to standard error, only when it is a terminal (--quiet: "
                   "never); errors are one line on standard error. Exit status: 0 success, 2 bad input, "
                   "1 internal failure."),
         0, 0);
    return u + '\n' + compute_usage();
}

// The help of one command ("compute rope-decay" for a quantity); empty for an unknown one.
std::string command_help(const std::vector<std::string>& words)
{
    if (words.empty())
        return usage();
    const std::string& c = words.front();
    if (c == "compute")
        return words.size() > 1 ? compute_help(words[1]) : compute_usage();
    if (c == "export")
        return export_help();
    if (c == "gallery")
        return gallery_help();
    if (c == "screenshots")
        return screenshots_help();
    if (c == "lesson")
        return lesson_help();
    if (c == "inspect")
        return inspect_help();
    if (c == "lab")
        return lab_help();
    if (c == "presets")
        return presets_help();
    if (c == "models")
        return models_help();
    if (c == "download")
        return download_help();
    if (c == "completion")
        return completion_help();
    if (c == "help")
        return usage();
    return "";
}

// Every help text, the overview first: what the man page shows (packaging/make_manpage.cmake).
std::string full_help()
{
    std::string out = usage();
    const auto section = [&](const std::string& title, const std::string& text) {
        const std::string rule(title.size() + 8, '=');
        out.append("\n").append(rule).append("\n    ").append(title).append("\n");
        out.append(rule).append("\n\n").append(text);
    };
    for (const char* c : {"export", "gallery", "screenshots", "lesson", "inspect", "presets", "models",
                          "download", "completion"})
        section(std::string("posatlas ") + c, command_help({c}));
    section("posatlas lab", command_help({"lab"}));
    for (const std::string& q : quantity_names())
        section("posatlas compute " + q, compute_help(q));
    return out;
}

const std::vector<std::string>& commands()
{
    static const std::vector<std::string> names{"compute", "export",   "gallery", "screenshots",
                                                "lesson",  "inspect",  "lab",     "presets",
                                                "models",  "download", "help"};
    return names;
}

bool is_command_line(const std::vector<std::string>& args)
{
    if (args.empty())
        return false;
    const std::string& first = args.front();
    if (first.empty() || first.front() == '-' || first == "completion" ||
        std::find(commands().begin(), commands().end(), first) != commands().end())
        return true;
    std::error_code ec;
    const bool looks_like_file = std::filesystem::is_regular_file(first, ec) ||
                                 first.find('/') != std::string::npos ||
                                 (first.size() > 5 && first.compare(first.size() - 5, 5, ".json") == 0);
    return !looks_like_file;
}

namespace {

int dispatch(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace

int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    // The application (the language's, or the one a drawing command made) must go before static
    // destructors run.
    struct ReleaseApplication {
        ~ReleaseApplication() { release_application(); }
    } release;
    choose_language();
    const int status = dispatch(args, out, err);
    // `posatlas compute ... > /dev/full`: the numbers sit in the stream's buffer until now, and a
    // failed write only shows as the stream's state. Succeeding without the output would be a lie.
    errno = 0;
    out.flush();
    if (!out) {
        const int e = errno;
        err << "posatlas: " << translate("Cli", "cannot write to standard output")
            << (e != 0 ? std::string(" (") + std::strerror(e) + ")" : "") << '\n';
        return 2;
    }
    return status;
}

namespace {

int dispatch(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    try {
        if (args.empty() || args.front() == "--help" || args.front() == "-h") {
            out << usage();
            return 0;
        }
        if (args.front() == "help") {
            const std::vector<std::string> words(args.begin() + 1, args.end());
            if (words.size() == 1 && words.front() == "--all") {
                out << full_help();
                return 0;
            }
            const std::string text = command_help(words);
            if (text.empty() || (words.size() > 1 && words.front() != "compute") || words.size() > 2 ||
                (words.size() == 2 && text == compute_usage()))
                throw UsageError(translate(
                    "Cli",
                    "help takes a command (and for compute a quantity), or --all; see posatlas --help"));
            out << text;
            return 0;
        }
        if (args.front() == "--version") {
            out << "posatlas " << POSATLAS_VERSION << '\n';
            return 0;
        }
        const std::vector<std::string> rest(args.begin() + 1, args.end());
        if (args.front() == "compute")
            return run_compute(rest, out);
        if (args.front() == "inspect")
            return run_inspect(rest, out);
        if (args.front() == "presets")
            return run_presets(rest, out);
        if (args.front() == "models")
            return run_models(rest, out);
        if (args.front() == "download")
            return run_download(rest, out, err);
        if (args.front() == "export")
            return run_export(rest, out, err);
        if (args.front() == "gallery")
            return run_gallery(rest, out);
        if (args.front() == "screenshots")
            return run_screenshots(rest, out);
        if (args.front() == "lesson")
            return run_lesson(rest, out);
        if (args.front() == "completion")
            return run_completion(rest, out);
        if (args.front() == "lab")
            return run_lab(rest, out, err);
        throw UsageError(arg(translate("Cli", "unknown command '%1'; one of %2 (see posatlas --help)"),
                             {args.front(), join(commands(), ", ", [](const std::string& c) { return c; })}));
    } catch (...) {
        return report_command_error(err);
    }
}

} // namespace

} // namespace posatlas::cli
