// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli.h"

#include "cli_completion.h"
#include "cli_compute.h"
#include "cli_export.h"
#include "cli_hub.h"
#include "cli_lesson.h"
#include "cli_options.h"
#include "cli_screenshots.h"
#include "io/input_file.h"
#include "io/model_config.h"
#include "io/safe_write.h"
#include "scenario/types.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <ostream>

namespace posatlas::cli {

std::string usage()
{
    return "usage: posatlas [FILE]               open the GUI (with a .posatlas.json session or a "
           "config.json)\n"
           "       posatlas COMMAND [options]    the command line\n"
           "       posatlas COMMAND --help       a command's options: meaning, default and allowed values\n"
           "\n"
           "commands:\n"
           "  compute QUANTITY    print numbers as JSON or CSV (compute --help lists the quantities)\n"
           "  export              one figure (PNG, SVG, PDF) or its numbers (CSV, JSON), without a display\n"
           "  gallery             the standard set of figures into a folder\n"
           "  screenshots         the screenshots of the README and user guide\n"
           "  lesson check        compute every number a lesson quotes and compare it with the text\n"
           "  presets             list the shipped model presets\n"
           "  models              list the models in the local Hugging Face cache (for --model ORG/NAME)\n"
           "  download ORG/NAME   fetch a model's config.json and position tensors from the Hugging Face "
           "Hub\n"
           "  completion bash     print the bash completion script\n"
           "  help [COMMAND]      this help, or a command's; help --all: every command's and quantity's\n"
           "\n"
           "options:\n"
           "  -h, --help          print this help and exit\n"
           "  --version           print the version and exit\n"
           "\n"
           "Progress of long commands goes to standard error, only when it is a terminal (--quiet: never);\n"
           "errors are one line on standard error. Exit status: 0 success, 2 bad input, 1 internal "
           "failure.\n\n" +
           compute_usage();
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
    for (const char* c :
         {"export", "gallery", "screenshots", "lesson", "presets", "models", "download", "completion"})
        section(std::string("posatlas ") + c, command_help({c}));
    for (const std::string& q : quantity_names())
        section("posatlas compute " + q, compute_help(q));
    return out;
}

const std::vector<std::string>& commands()
{
    static const std::vector<std::string> names{"compute", "export", "gallery",  "screenshots", "lesson",
                                                "presets", "models", "download", "help"};
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
    const int status = dispatch(args, out, err);
    // `posatlas compute ... > /dev/full`: the numbers sit in the stream's buffer until now, and a
    // failed write only shows as the stream's state. Succeeding without the output would be a lie.
    errno = 0;
    out.flush();
    if (!out) {
        const int e = errno;
        err << "posatlas: cannot write to standard output"
            << (e != 0 ? std::string(" (") + std::strerror(e) + ")" : "") << '\n';
        return 2;
    }
    return status;
}

namespace {

int dispatch(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    // Commands that render create a QApplication on demand; it must go before static destructors run.
    struct ReleaseApplication {
        ~ReleaseApplication() { release_application(); }
    } release;
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
                throw UsageError(
                    "help takes a command (and for compute a quantity), or --all; see posatlas --help");
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
        throw UsageError("unknown command '" + args.front() + "'; one of " +
                         join(commands(), ", ", [](const std::string& c) { return c; }) +
                         " (see posatlas --help)");
    } catch (const UsageError& e) {
        // Option values are quoted in these messages: escape them as file contents are (idempotent).
        err << "posatlas: " << quote_input(e.what(), 2000) << '\n';
        return 2;
    } catch (const ParameterError& e) {
        err << "posatlas: " << option_name(e.parameter()) << " must be " << e.allowed() << " (got " << e.got()
            << ")\n";
        return 2;
    } catch (const Cancelled&) {
        err << "posatlas: cancelled\n";
        return 1;
    } catch (const InputFileError& e) { // ConfigError, SessionError, table and scenario-file errors
        err << "posatlas: " << quote_input(e.what(), 2000) << '\n';
        return 2;
    } catch (const OutputFileError& e) { // "cannot write PATH: No space left on device"
        err << "posatlas: " << quote_input(e.what(), 2000) << '\n';
        return 2;
    } catch (const std::bad_alloc&) {
        err << "posatlas: out of memory; ask for a smaller window or length\n";
        return 1;
    } catch (const std::exception& e) {
        err << "posatlas: internal error: " << quote_input(e.what(), 2000) << '\n';
        return 1;
    }
}

} // namespace

} // namespace posatlas::cli
